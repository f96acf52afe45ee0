//! Rooms and corridors from a binary space partition: the map is cut in two again and again
//! down to leaves of about a room's size, every leaf gets a room, and the two halves of
//! every cut are joined by a corridor (a second one now and then, so that chases can loop).
//! Every leaf holding a room is what makes the level use the whole map.

use rand::RngExt;
use rand::rngs::Xoshiro256PlusPlus;

use super::fill::required_span;
use crate::content::map::Tile;

/// Smallest leaf, counting its one wall column on the left (and wall row on top): room for
/// a 3x2 room, a cell of wall on its other side and a cell of slack.
const MIN_LEAF: (usize, usize) = (6, 5);
/// Leaves larger than this either way are always cut.
const MAX_LEAF: (usize, usize) = (18, 10);
/// One in this many leaves that could still be cut in two is cut anyway: a few small rooms
/// among the large ones.
const EXTRA_CUT_EVERY: u32 = 4;
/// A room's side is at least this many hundredths of the space its leaf has for it.
const ROOM_FILL: usize = 55;
/// One in this many cuts gets a second corridor, so that chases can loop.
const LOOP_EVERY: u32 = 3;
/// A doorway gets a door this many times in four (then closed two times in three): doors
/// are where the player changes the monsters' searches, so most exits have one.
const DOOR_IN_FOUR: u32 = 3;

/// A rectangle of cells, `[x0, x1)` by `[y0, y1)`.
#[derive(Debug, Clone, Copy)]
struct Rect {
    x0: usize,
    y0: usize,
    x1: usize,
    y1: usize,
}

impl Rect {
    fn center(&self) -> (usize, usize) {
        ((self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2)
    }
}

/// A room: the leaf it was made in (its first column and row are the leaf's walls) and
/// the room itself, inside it.
#[derive(Debug, Clone, Copy)]
struct Room {
    leaf: Rect,
    room: Rect,
}

/// What carving shares: the map and the slack a room may leave at the map's edges.
struct Carver<'a> {
    width: usize,
    height: usize,
    floor: Vec<bool>,
    rooms: Vec<Room>,
    /// Columns and rows a room on the map's edge may leave between itself and the border,
    /// so that the floor still spans [`required_span`] of the map.
    edge_slack: (usize, usize),
    rng: &'a mut Xoshiro256PlusPlus,
}

/// Row-major tiles of a rooms map: walls with one connected set of floor inside a border.
pub(super) fn carve(width: usize, height: usize, rng: &mut Xoshiro256PlusPlus) -> Vec<Tile> {
    // The leaves tile columns 0..width-1 and rows 0..height-1: each owns the wall column
    // on its left and the wall row above, and the map's border closes the last ones.
    let slack = |side: usize| (side - 2 - required_span(side)) / 2;
    let mut carver = Carver {
        width,
        height,
        floor: vec![false; width * height],
        rooms: Vec::new(),
        edge_slack: (slack(width), slack(height)),
        rng,
    };
    carver.split(Rect {
        x0: 0,
        y0: 0,
        x1: width - 1,
        y1: height - 1,
    });
    let mut tiles: Vec<Tile> = carver
        .floor
        .iter()
        .map(|&f| if f { Tile::Floor } else { Tile::Wall })
        .collect();
    for door in carver.doorways() {
        if carver.rng.random_range(0..4) < DOOR_IN_FOUR {
            tiles[door] = if carver.rng.random_range(0..3) < 2 {
                Tile::DoorClosed
            } else {
                Tile::DoorOpen
            };
        }
    }
    tiles
}

impl Carver<'_> {
    /// Partitions `r`, puts rooms in its leaves and joins them; returns the range of
    /// `self.rooms` that lie in `r`.
    fn split(&mut self, r: Rect) -> std::ops::Range<usize> {
        let (w, h) = (r.x1 - r.x0, r.y1 - r.y0);
        let can_cut = (w >= 2 * MIN_LEAF.0, h >= 2 * MIN_LEAF.1);
        let must_cut = w > MAX_LEAF.0 || h > MAX_LEAF.1;
        let cut = (can_cut.0 || can_cut.1)
            && (must_cut || self.rng.random_range(0..EXTRA_CUT_EVERY) == 0);
        if !cut {
            let first = self.rooms.len();
            self.place_room(r);
            return first..self.rooms.len();
        }
        // Cut across the longer side, measured against the largest leaf's, when both can be.
        let vertical = match can_cut {
            (true, false) => true,
            (false, true) => false,
            _ => w * MAX_LEAF.1 >= h * MAX_LEAF.0,
        };
        let (a, b, at) = if vertical {
            let at = self.rng.random_range(r.x0 + MIN_LEAF.0..=r.x1 - MIN_LEAF.0);
            (Rect { x1: at, ..r }, Rect { x0: at, ..r }, at)
        } else {
            let at = self.rng.random_range(r.y0 + MIN_LEAF.1..=r.y1 - MIN_LEAF.1);
            (Rect { y1: at, ..r }, Rect { y0: at, ..r }, at)
        };
        let first = self.split(a);
        let second = self.split(b);
        self.join(first.clone(), second.clone(), vertical, at);
        first.start..second.end
    }

    /// Puts a room in a leaf: at least [`ROOM_FILL`] of the leaf's space each way, and
    /// within the edge slack of any map edge the leaf touches.
    fn place_room(&mut self, leaf: Rect) {
        let (x0, x1) = self.room_span(leaf.x0, leaf.x1, self.width, self.edge_slack.0);
        let (y0, y1) = self.room_span(leaf.y0, leaf.y1, self.height, self.edge_slack.1);
        for y in y0..y1 {
            self.floor[y * self.width + x0..y * self.width + x1].fill(true);
        }
        self.rooms.push(Room {
            leaf,
            room: Rect { x0, y0, x1, y1 },
        });
    }

    /// A room's extent along one axis of a leaf spanning `[lo, hi)` on a map `side` long.
    fn room_span(
        &mut self,
        lo: usize,
        hi: usize,
        side: usize,
        edge_slack: usize,
    ) -> (usize, usize) {
        // The leaf's first cell is wall; the map's last cell (side - 1) is border. Inside the
        // map a room also keeps off the leaf's last cell, so that neighbouring rooms have at
        // least two cells of wall between them and read as rooms, not one partitioned hall.
        let (at_low, at_high) = (lo == 0, hi == side - 1);
        let space = hi - lo - 1 - usize::from(!at_high);
        let mut least = (space * ROOM_FILL).div_ceil(100).max(1);
        if at_low && at_high {
            least = least.max(space.saturating_sub(2 * edge_slack));
        }
        let len = self.rng.random_range(least..=space);
        let free = space - len;
        let mut offset = (0, free);
        if at_low {
            offset.1 = offset.1.min(edge_slack);
        }
        if at_high {
            offset.0 = offset.0.max(free.saturating_sub(edge_slack));
        }
        let start = lo + 1 + self.rng.random_range(offset.0..=offset.1);
        (start, start + len)
    }

    /// Joins the rooms of the two sides of a cut at column (or row) `at`: a corridor between
    /// a pair of leaves that face each other across it, and now and then a second one.
    fn join(
        &mut self,
        a: std::ops::Range<usize>,
        b: std::ops::Range<usize>,
        vertical: bool,
        at: usize,
    ) {
        // Leaves facing across the cut: touching it, with overlapping extents along it.
        // Only those touching it are paired up, which keeps the work near linear.
        let (before, after): (Vec<usize>, Vec<usize>) = if vertical {
            (
                a.filter(|&i| self.rooms[i].leaf.x1 == at).collect(),
                b.filter(|&j| self.rooms[j].leaf.x0 == at).collect(),
            )
        } else {
            (
                a.filter(|&i| self.rooms[i].leaf.y1 == at).collect(),
                b.filter(|&j| self.rooms[j].leaf.y0 == at).collect(),
            )
        };
        let overlap = |p: &Rect, q: &Rect| {
            if vertical {
                p.y0.max(q.y0) < p.y1.min(q.y1)
            } else {
                p.x0.max(q.x0) < p.x1.min(q.x1)
            }
        };
        let mut pairs = Vec::new();
        for &i in &before {
            for &j in &after {
                if overlap(&self.rooms[i].leaf, &self.rooms[j].leaf) {
                    pairs.push((i, j));
                }
            }
        }
        // Leaves on both sides tile the whole cut, so some pair always faces.
        let corridors = if pairs.len() > 1 && self.rng.random_range(0..LOOP_EVERY) == 0 {
            2
        } else {
            1
        };
        for _ in 0..corridors.min(pairs.len()) {
            let k = self.rng.random_range(0..pairs.len());
            let (i, j) = pairs.swap_remove(k);
            self.corridor(self.rooms[i], self.rooms[j], vertical);
        }
    }

    /// Carves a corridor between two rooms: straight across the cut where the rooms face
    /// each other, otherwise L-shaped between their centres.
    fn corridor(&mut self, a: Room, b: Room, vertical: bool) {
        let (a, b) = (a.room, b.room);
        let (lo, hi) = if vertical {
            (a.y0.max(b.y0), a.y1.min(b.y1))
        } else {
            (a.x0.max(b.x0), a.x1.min(b.x1))
        };
        if lo < hi {
            let at = self.rng.random_range(lo..hi);
            if vertical {
                self.line((a.x1, at), (b.x0 - 1, at));
            } else {
                self.line((at, a.y1), (at, b.y0 - 1));
            }
            return;
        }
        let (from, to) = (a.center(), b.center());
        let corner = if self.rng.random_bool(0.5) {
            (to.0, from.1)
        } else {
            (from.0, to.1)
        };
        self.line(from, corner);
        self.line(corner, to);
    }

    /// The doorways of the rooms, each once, in reading order: a floor cell just outside a
    /// room's side, between two walls along that side, with floor going on away from the
    /// room (a corridor leaving it). A door there closes the room off, never a corridor's
    /// middle, and never the map's edge.
    fn doorways(&self) -> Vec<usize> {
        let w = self.width;
        let floor = |x: usize, y: usize| self.floor[y * w + x];
        let mut cells = Vec::new();
        for room in &self.rooms {
            let r = room.room;
            // Rows above and below, then columns left and right: (cell, along, away).
            for x in r.x0..r.x1 {
                if r.y0 >= 2
                    && floor(x, r.y0 - 1)
                    && !floor(x - 1, r.y0 - 1)
                    && !floor(x + 1, r.y0 - 1)
                    && floor(x, r.y0 - 2)
                {
                    cells.push((r.y0 - 1) * w + x);
                }
                if r.y1 + 1 < self.height
                    && floor(x, r.y1)
                    && !floor(x - 1, r.y1)
                    && !floor(x + 1, r.y1)
                    && floor(x, r.y1 + 1)
                {
                    cells.push(r.y1 * w + x);
                }
            }
            for y in r.y0..r.y1 {
                if r.x0 >= 2
                    && floor(r.x0 - 1, y)
                    && !floor(r.x0 - 1, y - 1)
                    && !floor(r.x0 - 1, y + 1)
                    && floor(r.x0 - 2, y)
                {
                    cells.push(y * w + r.x0 - 1);
                }
                if r.x1 + 1 < w
                    && floor(r.x1, y)
                    && !floor(r.x1, y - 1)
                    && !floor(r.x1, y + 1)
                    && floor(r.x1 + 1, y)
                {
                    cells.push(y * w + r.x1);
                }
            }
        }
        cells.sort_unstable();
        cells.dedup();
        cells
    }

    /// Carves a straight line of floor between two cells (inclusive) in a row or column.
    fn line(&mut self, (ax, ay): (usize, usize), (bx, by): (usize, usize)) {
        for y in ay.min(by)..=ay.max(by) {
            for x in ax.min(bx)..=ax.max(bx) {
                self.floor[y * self.width + x] = true;
            }
        }
    }
}
