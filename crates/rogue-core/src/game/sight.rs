//! What the player sees: symmetric shadowcasting (Albert Ford's formulation) on the flat grid,
//! and the cells the player has seen on this floor.
//!
//! Shadowcasting scans each of the four quadrants row by row outward from the viewer; a row is
//! the span of cells between a start and an end slope, and a wall narrows the span of the rows
//! behind it. Ford's variant is the one roguelike developers recommend because:
//! - it is symmetric: a floor cell is revealed only when its centre lies inside the span, so the
//!   player sees a floor cell exactly when a viewer standing there would see the player;
//! - walls are expansive: a wall is revealed when any part of it is in the span, so the walls
//!   of a room all show from anywhere inside it;
//! - it has no blind corners: a floor cell round a corner next to the viewer is seen.
//!
//! Slopes are exact fractions of integers, so no cell depends on floating-point rounding.
//! Walls and void block sight; creatures do not. The monsters do not use sight at all: they
//! know where the player is and hunt with A* wherever they are.

use crate::content::map::TileMap;
use crate::engine::grid::Pos;

/// How far the player sees, in cells (a circle: `dx² + dy² <= r² + r`).
pub const SIGHT_RADIUS: i32 = 24;

/// A slope `num / den` (`den > 0`): a column per row of depth.
#[derive(Debug, Clone, Copy)]
struct Slope {
    num: i64,
    den: i64,
}

/// One row of a quadrant's scan: the cells at `depth` between two slopes.
#[derive(Debug, Clone, Copy)]
struct Row {
    depth: i64,
    start: Slope,
    end: Slope,
}

impl Row {
    /// The first column of the row: `depth * start` rounded with ties up.
    fn min_col(&self) -> i64 {
        (2 * self.depth * self.start.num + self.start.den).div_euclid(2 * self.start.den)
    }

    /// The last column of the row: `depth * end` rounded with ties down.
    fn max_col(&self) -> i64 {
        let (num, den) = (
            2 * self.depth * self.end.num - self.end.den,
            2 * self.end.den,
        );
        // The ceiling of num / den for a positive den.
        -(-num).div_euclid(den)
    }

    /// Whether a cell's centre lies within the row's span (the symmetry condition).
    fn holds_centre(&self, col: i64) -> bool {
        col * self.start.den >= self.depth * self.start.num
            && col * self.end.den <= self.depth * self.end.num
    }

    fn next(&self) -> Row {
        Row {
            depth: self.depth + 1,
            ..*self
        }
    }
}

/// The slope through the near edge of a cell: `(2 col - 1) / (2 depth)`.
fn edge_slope(depth: i64, col: i64) -> Slope {
    Slope {
        num: 2 * col - 1,
        den: 2 * depth,
    }
}

/// Calls `reveal` for every cell visible from `origin` within `radius` (the origin included;
/// a cell may be reported more than once). Cells outside the grid block sight and are not
/// reported.
pub fn field_of_view(grid: &TileMap, origin: Pos, radius: i32, mut reveal: impl FnMut(Pos)) {
    if !grid.contains(origin) {
        return;
    }
    reveal(origin);
    let r = i64::from(radius.max(0));
    let within = |depth: i64, col: i64| depth * depth + col * col <= r * r + r;
    let blocks = |p: Pos| grid.get(p).blocks_sight();
    // Each quadrant maps (depth, column) to a cell: north, south, east, west.
    let quadrants: [fn(Pos, i64, i64) -> Pos; 4] = [
        |o, d, c| Pos::new(o.x + c as i32, o.y - d as i32),
        |o, d, c| Pos::new(o.x + c as i32, o.y + d as i32),
        |o, d, c| Pos::new(o.x + d as i32, o.y + c as i32),
        |o, d, c| Pos::new(o.x - d as i32, o.y + c as i32),
    ];
    let mut rows = Vec::new();
    for cell in quadrants {
        rows.push(Row {
            depth: 1,
            start: Slope { num: -1, den: 1 },
            end: Slope { num: 1, den: 1 },
        });
        // Rows wait on a stack rather than in recursion: a large open map would recurse as
        // deep as the radius.
        while let Some(mut row) = rows.pop() {
            if row.depth > r {
                continue;
            }
            let mut prev_wall: Option<bool> = None;
            for col in row.min_col()..=row.max_col() {
                let p = cell(origin, row.depth, col);
                let wall = blocks(p);
                if (wall || row.holds_centre(col)) && within(row.depth, col) && grid.contains(p) {
                    reveal(p);
                }
                match (prev_wall, wall) {
                    (Some(true), false) => row.start = edge_slope(row.depth, col),
                    (Some(false), true) => {
                        let mut next = row.next();
                        next.end = edge_slope(row.depth, col);
                        rows.push(next);
                    }
                    _ => {}
                }
                prev_wall = Some(wall);
            }
            if prev_wall == Some(false) {
                rows.push(row.next());
            }
        }
    }
}

/// The cells the player sees now and the cells seen on this floor, one bit per cell.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct Sight {
    width: usize,
    /// Made again by the next look (a save does not keep it).
    #[serde(skip)]
    visible: Vec<u64>,
    /// The visible cells' indices, so the next update clears only them.
    #[serde(skip)]
    lit: Vec<usize>,
    #[serde(with = "crate::content::serial::bits")]
    seen: Vec<u64>,
}

impl Sight {
    /// Nothing seen yet on a grid of this size.
    pub fn new(grid: &TileMap) -> Self {
        let words = grid.len().div_ceil(64);
        Self {
            width: grid.width(),
            visible: vec![0; words],
            lit: Vec::new(),
            seen: vec![0; words],
        }
    }

    /// Readies a sight loaded from a save for `grid` (nothing visible until the next look);
    /// false when what it has seen is not of a map of this size.
    pub fn restored(&mut self, grid: &TileMap) -> bool {
        let words = grid.len().div_ceil(64);
        self.visible = vec![0; words];
        self.lit.clear();
        self.width == grid.width() && self.seen.len() == words
    }

    /// Looks from `from`: what is visible now, added to what was seen.
    pub fn update(&mut self, grid: &TileMap, from: Pos) {
        if grid.width() != self.width || grid.len().div_ceil(64) != self.seen.len() {
            *self = Self::new(grid);
        }
        for &c in &self.lit {
            self.visible[c / 64] &= !(1 << (c % 64));
        }
        self.lit.clear();
        let (visible, seen, lit) = (&mut self.visible, &mut self.seen, &mut self.lit);
        field_of_view(grid, from, SIGHT_RADIUS, |p| {
            if let Some(c) = grid.index(p) {
                let bit = 1 << (c % 64);
                if visible[c / 64] & bit == 0 {
                    visible[c / 64] |= bit;
                    seen[c / 64] |= bit;
                    lit.push(c);
                }
            }
        });
    }

    /// Whether the player sees a cell now.
    pub fn is_visible(&self, grid: &TileMap, p: Pos) -> bool {
        Self::bit(&self.visible, grid, p)
    }

    /// Whether the player has seen a cell on this floor (now or before).
    pub fn is_seen(&self, grid: &TileMap, p: Pos) -> bool {
        Self::bit(&self.seen, grid, p)
    }

    fn bit(bits: &[u64], grid: &TileMap, p: Pos) -> bool {
        grid.index(p)
            .and_then(|c| bits.get(c / 64).map(|w| w & (1 << (c % 64)) != 0))
            .unwrap_or(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::map::Tile;

    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{RngExt, SeedableRng};

    fn seen_from(grid: &TileMap, from: Pos, radius: i32) -> Vec<bool> {
        let mut out = vec![false; grid.len()];
        field_of_view(grid, from, radius, |p| out[grid.index(p).unwrap()] = true);
        out
    }

    /// The map drawn with `*` on visible cells, for failure messages.
    fn picture(grid: &TileMap, seen: &[bool]) -> String {
        (0..grid.height())
            .map(|y| {
                (0..grid.width())
                    .map(|x| {
                        let c = y * grid.width() + x;
                        match (seen[c], grid.tiles()[c]) {
                            (true, Tile::Floor) => '*',
                            (_, Tile::Wall) if seen[c] => 'W',
                            (_, Tile::Wall) => '#',
                            _ => '.',
                        }
                    })
                    .collect::<String>()
                    + "\n"
            })
            .collect()
    }

    #[test]
    fn floor_cells_see_each_other_symmetrically() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        for _ in 0..30 {
            let (w, h) = (14, 11);
            let tiles = (0..w * h)
                .map(|_| {
                    if rng.random_range(0..100) < 30 {
                        Tile::Wall
                    } else {
                        Tile::Floor
                    }
                })
                .collect();
            let grid = TileMap::from_tiles(w, h, tiles);
            let floors: Vec<Pos> = (0..grid.len())
                .map(|c| grid.pos(c))
                .filter(|&p| grid.is_passable(p))
                .collect();
            let views: Vec<Vec<bool>> = floors.iter().map(|&p| seen_from(&grid, p, 8)).collect();
            for (a, va) in floors.iter().zip(&views) {
                for (b, vb) in floors.iter().zip(&views) {
                    let ab = va[grid.index(*b).unwrap()];
                    let ba = vb[grid.index(*a).unwrap()];
                    assert_eq!(
                        ab,
                        ba,
                        "{a} sees {b}: {ab}, back: {ba}\n{}",
                        picture(&grid, va)
                    );
                }
            }
        }
    }

    #[test]
    fn every_wall_of_a_room_shows_from_anywhere_inside() {
        let grid = TileMap::from_rows(&[
            "##########",
            "#........#",
            "#........#",
            "#........#",
            "##########",
        ]);
        for c in 0..grid.len() {
            let from = grid.pos(c);
            if !grid.is_passable(from) {
                continue;
            }
            let seen = seen_from(&grid, from, SIGHT_RADIUS);
            assert!(
                seen.iter().all(|&s| s),
                "from {from}:\n{}",
                picture(&grid, &seen)
            );
        }
    }

    #[test]
    fn a_pillar_casts_a_shadow_and_corners_are_not_blind() {
        let grid = TileMap::from_rows(&[
            "#########", //
            "#.......#",
            "#@..#...#",
            "#.......#",
            "#########",
        ]);
        let seen = seen_from(&grid, Pos::new(1, 2), SIGHT_RADIUS);
        let at = |x, y| seen[grid.index(Pos::new(x, y)).unwrap()];
        assert!(at(4, 2), "the pillar itself");
        assert!(
            !at(5, 2) && !at(6, 2) && !at(7, 2),
            "{}",
            picture(&grid, &seen)
        );
        assert!(at(5, 1) && at(7, 1) && at(7, 3), "beside the shadow");

        // Round a corner: the floor cell diagonally past the corner is seen.
        let grid = TileMap::from_rows(&[
            "#####", //
            "#@..#", "###.#", "  #.#", "  ###",
        ]);
        let seen = seen_from(&grid, Pos::new(2, 1), SIGHT_RADIUS);
        assert!(seen[grid.index(Pos::new(3, 2)).unwrap()]);
        assert!(seen[grid.index(Pos::new(3, 3)).unwrap()]);
    }

    #[test]
    fn sight_stops_at_its_radius_and_remembers_what_it_saw() {
        let grid = TileMap::new(80, 3, Tile::Floor);
        let mut sight = Sight::new(&grid);
        sight.update(&grid, Pos::new(0, 1));
        let r = SIGHT_RADIUS;
        assert!(sight.is_visible(&grid, Pos::new(r, 1)));
        assert!(!sight.is_visible(&grid, Pos::new(r + 1, 1)));
        assert!(!sight.is_seen(&grid, Pos::new(r + 1, 1)));
        sight.update(&grid, Pos::new(79, 1));
        assert!(!sight.is_visible(&grid, Pos::new(0, 1)));
        assert!(sight.is_seen(&grid, Pos::new(0, 1)), "remembered");
        assert!(sight.is_visible(&grid, Pos::new(79 - r, 1)));
        assert!(!sight.is_seen(&grid, Pos::new(40, 1)), "never in sight");
        assert!(!sight.is_visible(&grid, Pos::new(-1, 1)));
    }
}
