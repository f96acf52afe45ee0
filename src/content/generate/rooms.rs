//! Rooms and corridors: non-overlapping rectangles joined in a snake order by L-shaped
//! corridors, plus a few extra corridors so that chases can loop.

use rand::RngExt;
use rand::rngs::Xoshiro256PlusPlus;

use crate::engine::grid::Tile;

/// Room sizes, interior cells; clipped to what the map can hold.
const ROOM_WIDTH: (usize, usize) = (4, 12);
/// Room heights.
const ROOM_HEIGHT: (usize, usize) = (3, 8);
/// Placement tries per this many interior cells; misses are cheap, and the count bounds
/// the work on any map.
const CELLS_PER_TRY: usize = 30;
/// Height of the bands rooms are ordered in before joining, so neighbours in the order are
/// neighbours on the map and corridors stay short.
const BAND: usize = 16;
/// One in this many rooms gets a second corridor, to a room two steps along the order.
const LOOP_EVERY: usize = 4;

/// A room: its top-left interior cell and size.
#[derive(Debug, Clone, Copy)]
struct Room {
    x: usize,
    y: usize,
    w: usize,
    h: usize,
}

impl Room {
    fn center(&self) -> (usize, usize) {
        (self.x + self.w / 2, self.y + self.h / 2)
    }
}

/// Row-major tiles of a rooms map: walls with one connected set of floor inside a border.
pub(super) fn carve(width: usize, height: usize, rng: &mut Xoshiro256PlusPlus) -> Vec<Tile> {
    let (iw, ih) = (width - 2, height - 2);
    let max_w = ROOM_WIDTH.1.min(iw);
    let max_h = ROOM_HEIGHT.1.min(ih);
    let mut floor = vec![false; width * height];
    let mut rooms = Vec::new();
    let tries = (iw * ih / CELLS_PER_TRY).max(8);
    for _ in 0..tries {
        let w = rng.random_range(ROOM_WIDTH.0.min(max_w)..=max_w);
        let h = rng.random_range(ROOM_HEIGHT.0.min(max_h)..=max_h);
        let x = rng.random_range(1..=width - 1 - w);
        let y = rng.random_range(1..=height - 1 - h);
        // A one-cell margin of wall keeps rooms from merging into odd shapes; checking the
        // cells themselves costs the room's area, whatever the number of rooms.
        let clear = (y - 1..=y + h).all(|cy| {
            floor[cy * width + x - 1..=cy * width + x + w]
                .iter()
                .all(|&f| !f)
        });
        if !clear {
            continue;
        }
        for cy in y..y + h {
            floor[cy * width + x..cy * width + x + w].fill(true);
        }
        rooms.push(Room { x, y, w, h });
    }
    // Snake order: bands top to bottom, alternately left-to-right and right-to-left.
    rooms.sort_by_key(|r| {
        let (cx, cy) = r.center();
        let band = cy / BAND;
        (
            band,
            if band.is_multiple_of(2) {
                cx
            } else {
                width - cx
            },
            cy,
        )
    });
    for i in 1..rooms.len() {
        corridor(
            &mut floor,
            width,
            rooms[i - 1].center(),
            rooms[i].center(),
            rng,
        );
        if i >= 2 && rng.random_range(0..LOOP_EVERY) == 0 {
            corridor(
                &mut floor,
                width,
                rooms[i - 2].center(),
                rooms[i].center(),
                rng,
            );
        }
    }
    floor
        .into_iter()
        .map(|f| if f { Tile::Floor } else { Tile::Wall })
        .collect()
}

/// Carves an L-shaped corridor between two interior cells, horizontal or vertical leg
/// first at random; it stays in the pair's bounding box, so inside the border.
fn corridor(
    floor: &mut [bool],
    width: usize,
    (ax, ay): (usize, usize),
    (bx, by): (usize, usize),
    rng: &mut Xoshiro256PlusPlus,
) {
    let (cx, cy) = if rng.random_bool(0.5) {
        (bx, ay)
    } else {
        (ax, by)
    };
    for (x0, y0, x1, y1) in [(ax, ay, cx, cy), (cx, cy, bx, by)] {
        for y in y0.min(y1)..=y0.max(y1) {
            for x in x0.min(x1)..=x0.max(x1) {
                floor[y * width + x] = true;
            }
        }
    }
}
