//! The editor's shapes as cells, and rectangular regions copied and pasted, each turned
//! into the edits ([`EditOp`]) that make it. The design checks those edits one by one, as it
//! checks a single brush stroke, so a shape can never make a change a brush could not; the
//! session applies them as one group that undoes in one step. Every tile is taken as it is
//! (`Tile`), so new terrain needs nothing here.

use super::FeatureKind;
use super::design::{Design, EditOp};
use crate::content::map::{Tile, TileMap};
use crate::engine::grid::Pos;

/// Most cells one shape, fill or paste may change at once: each change is kept for undo,
/// so a fill of a whole 4096x4096 map would hold gigabytes.
pub const MAX_SHAPE_CELLS: usize = 250_000;

/// A shape too large to draw at once: how many cells it has (at least this many, for a
/// fill that was stopped).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooBig(pub usize);

/// The corners of the rectangle two opposite corners span: top-left and bottom-right.
pub fn span(a: Pos, b: Pos) -> (Pos, Pos) {
    (
        Pos::new(a.x.min(b.x), a.y.min(b.y)),
        Pos::new(a.x.max(b.x), a.y.max(b.y)),
    )
}

/// The cells of the rectangle with opposite corners `a` and `b`: its border, or all of it
/// when `filled`, in reading order.
pub fn rect(a: Pos, b: Pos, filled: bool) -> Result<Vec<Pos>, TooBig> {
    let (lo, hi) = span(a, b);
    let (w, h) = ((hi.x - lo.x + 1) as usize, (hi.y - lo.y + 1) as usize);
    let count = if filled || w <= 2 || h <= 2 {
        w * h
    } else {
        2 * w + 2 * (h - 2)
    };
    if count > MAX_SHAPE_CELLS {
        return Err(TooBig(count));
    }
    let mut out = Vec::with_capacity(count);
    for y in lo.y..=hi.y {
        for x in lo.x..=hi.x {
            let edge = y == lo.y || y == hi.y || x == lo.x || x == hi.x;
            if filled || edge {
                out.push(Pos::new(x, y));
            }
        }
    }
    Ok(out)
}

/// The cells of the straight line from `a` to `b`, both included (Bresenham's: each step
/// moves one cell, straight or diagonally, so a line of walls has no gap a diagonal move
/// could not cross only because corners are never cut).
pub fn line(a: Pos, b: Pos) -> Vec<Pos> {
    let (dx, dy) = ((b.x - a.x).abs(), -(b.y - a.y).abs());
    let (sx, sy) = ((b.x - a.x).signum(), (b.y - a.y).signum());
    let mut err = dx + dy;
    let mut p = a;
    let mut out = vec![p];
    while p != b {
        let e2 = 2 * err;
        if e2 >= dy {
            err += dy;
            p.x += sx;
        }
        if e2 <= dx {
            err += dx;
            p.y += sy;
        }
        out.push(p);
    }
    out
}

/// The region a flood fill from `seed` covers: the cells of the seed's tile joined to it by
/// steps north, south, east and west (a fill does not leak through the corner between two
/// diagonal walls), in the order they are reached. Empty for a seed outside the grid.
pub fn flood(grid: &TileMap, seed: Pos) -> Result<Vec<Pos>, TooBig> {
    let Some(start) = grid.index(seed) else {
        return Ok(Vec::new());
    };
    let tile = grid.tiles()[start];
    let mut seen = vec![false; grid.len()];
    seen[start] = true;
    let mut out = vec![seed];
    let mut i = 0;
    while i < out.len() {
        let p = out[i];
        i += 1;
        for (dx, dy) in [(0, -1), (1, 0), (0, 1), (-1, 0)] {
            let n = p.offset(dx, dy);
            if let Some(c) = grid.index(n)
                && !seen[c]
                && grid.tiles()[c] == tile
            {
                seen[c] = true;
                out.push(n);
                if out.len() > MAX_SHAPE_CELLS {
                    return Err(TooBig(out.len()));
                }
            }
        }
    }
    Ok(out)
}

/// The edits that put `tile` on each of `cells`.
pub fn paint(cells: &[Pos], tile: Tile) -> Vec<EditOp> {
    cells.iter().map(|&p| EditOp::SetTile(p, tile)).collect()
}

/// What stands or lies on a cell of a copied region.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Thing {
    /// A monster's start, of this kind.
    Monster(char),
    /// Stairs or a potion.
    Feature(FeatureKind),
}

/// A rectangular region copied from a design: its tiles, and the monsters' starts and the
/// features on them (never the player, of whom a level has one).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "ClipForm", into = "ClipForm")]
pub struct Clip {
    width: usize,
    height: usize,
    tiles: Vec<Tile>,
    things: Vec<Option<Thing>>,
}

/// A clip as a kept run's save holds it: its tiles as glyphs, checked against its size
/// when read back.
#[derive(serde::Serialize, serde::Deserialize)]
struct ClipForm {
    width: usize,
    height: usize,
    #[serde(with = "crate::content::serial::tiles")]
    tiles: Vec<Tile>,
    things: Vec<Option<Thing>>,
}

impl From<Clip> for ClipForm {
    fn from(c: Clip) -> Self {
        ClipForm {
            width: c.width,
            height: c.height,
            tiles: c.tiles,
            things: c.things,
        }
    }
}

impl TryFrom<ClipForm> for Clip {
    type Error = String;

    fn try_from(f: ClipForm) -> Result<Self, String> {
        let cells = f.width.checked_mul(f.height);
        if cells != Some(f.tiles.len()) || cells != Some(f.things.len()) {
            return Err(format!(
                "a clip of {}x{} holds other cells",
                f.width, f.height
            ));
        }
        Ok(Clip {
            width: f.width,
            height: f.height,
            tiles: f.tiles,
            things: f.things,
        })
    }
}

impl Clip {
    /// Its width in cells.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Its height in cells.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The tile and the thing at a cell of the clip, from its top-left corner.
    pub fn at(&self, x: usize, y: usize) -> Option<(Tile, Option<Thing>)> {
        (x < self.width && y < self.height).then(|| {
            let i = y * self.width + x;
            (self.tiles[i], self.things[i])
        })
    }
}

impl Design {
    /// The region with opposite corners `a` and `b` (cut to the map), copied; `None` when
    /// it misses the map or is larger than [`MAX_SHAPE_CELLS`].
    pub fn copy(&self, a: Pos, b: Pos) -> Option<Clip> {
        let grid = &self.level().grid;
        let (lo, hi) = span(a, b);
        let lo = Pos::new(lo.x.max(0), lo.y.max(0));
        let hi = Pos::new(
            hi.x.min(grid.width() as i32 - 1),
            hi.y.min(grid.height() as i32 - 1),
        );
        if lo.x > hi.x || lo.y > hi.y {
            return None;
        }
        let (width, height) = ((hi.x - lo.x + 1) as usize, (hi.y - lo.y + 1) as usize);
        if width * height > MAX_SHAPE_CELLS {
            return None;
        }
        let mut tiles = Vec::with_capacity(width * height);
        let mut things = Vec::with_capacity(width * height);
        for y in lo.y..=hi.y {
            for x in lo.x..=hi.x {
                let p = Pos::new(x, y);
                tiles.push(grid.get(p));
                let thing = match self.creature_at(p) {
                    Some('@') => None,
                    Some(kind) => Some(Thing::Monster(kind)),
                    None => self.feature_at(p).map(Thing::Feature),
                };
                things.push(thing);
            }
        }
        Some(Clip {
            width,
            height,
            tiles,
            things,
        })
    }

    /// The edits that lay `clip` with its top-left corner on `at`: the monsters' starts and
    /// features of the region that the clip does not hold are taken away, then the tiles
    /// are put, then the clip's monsters and features placed. The player's start stays
    /// where it is (the tile under it is refused if it is not floor); cells past the map's
    /// edge are left out.
    pub fn paste(&self, clip: &Clip, at: Pos) -> Vec<EditOp> {
        let grid = &self.level().grid;
        let mut cells = Vec::with_capacity(clip.tiles.len());
        for y in 0..clip.height {
            for x in 0..clip.width {
                let p = Pos::new(at.x + x as i32, at.y + y as i32);
                if grid.contains(p) {
                    let i = y * clip.width + x;
                    cells.push((p, clip.tiles[i], clip.things[i]));
                }
            }
        }
        let mut ops = Vec::new();
        for &(p, _, thing) in &cells {
            match self.creature_at(p) {
                Some(kind) if kind != '@' && thing != Some(Thing::Monster(kind)) => {
                    ops.push(EditOp::RemoveMonster(p));
                }
                _ => {}
            }
            if let Some(f) = self.feature_at(p)
                && thing != Some(Thing::Feature(f))
            {
                ops.push(EditOp::RemoveFeature(p));
            }
        }
        ops.extend(cells.iter().map(|&(p, tile, _)| EditOp::SetTile(p, tile)));
        for &(p, _, thing) in &cells {
            match thing {
                Some(Thing::Monster(kind)) if self.creature_at(p) != Some(kind) => {
                    ops.push(EditOp::AddMonster(p, kind));
                }
                Some(Thing::Feature(f)) if self.feature_at(p) != Some(f) => {
                    ops.push(EditOp::PlaceFeature(p, f));
                }
                _ => {}
            }
        }
        ops
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rectangles_are_their_border_or_all_of_them() {
        let a = Pos::new(3, 2);
        let b = Pos::new(1, 4);
        let outline = rect(a, b, false).unwrap();
        assert_eq!(outline.len(), 8);
        assert!(!outline.contains(&Pos::new(2, 3)));
        assert_eq!(rect(a, b, true).unwrap().len(), 9);
        // Thin rectangles are all border, each cell once.
        assert_eq!(
            rect(Pos::new(0, 0), Pos::new(4, 1), false).unwrap().len(),
            10
        );
        assert_eq!(rect(a, a, false).unwrap(), [a]);
        assert_eq!(
            rect(Pos::new(0, 0), Pos::new(999, 999), true),
            Err(TooBig(1_000_000))
        );
    }

    #[test]
    fn lines_step_one_cell_at_a_time_from_end_to_end() {
        let l = line(Pos::new(0, 0), Pos::new(5, 2));
        assert_eq!(l.first(), Some(&Pos::new(0, 0)));
        assert_eq!(l.last(), Some(&Pos::new(5, 2)));
        assert_eq!(l.len(), 6);
        for w in l.windows(2) {
            assert_eq!(w[0].chebyshev(w[1]), 1);
        }
    }

    #[test]
    fn a_fill_keeps_to_its_tile_and_does_not_leak_through_corners() {
        // (2,1) and (3,2) touch only at a corner between two walls.
        let d = Design::parse(b"#####\n#@.##\n###..\n#####\n", "t").unwrap();
        let grid = &d.level().grid;
        let mut region = flood(grid, Pos::new(1, 1)).unwrap();
        region.sort_by_key(|p| (p.y, p.x));
        assert_eq!(region, [Pos::new(1, 1), Pos::new(2, 1)]);
        assert_eq!(flood(grid, Pos::new(9, 9)).unwrap(), []);
    }
}
