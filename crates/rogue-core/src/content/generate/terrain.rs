//! Water and brush laid over a generated map's floor once it is populated: pools (water
//! ringed by brush) in caves and cells, marsh (brush with water in its hollows) in arenas.
//!
//! Terrain only turns floor into other floor: nothing is walled or opened, so the map stays
//! one region and every monster can still reach the player. It draws from a random stream
//! of its own, seeded from the level's seed, so that the walls and the creatures of a seed
//! are the same with or without terrain (`--terrain 0` gives the map of before terrain).

use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

use crate::content::map::{Tile, TileMap};
use crate::engine::grid::{DIRECTIONS, Pos};

/// Mixed into the level's seed for the terrain's own random stream ("terrain").
const SALT: u64 = 0x7465_7272_6169_6e00;

/// How terrain is laid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Style {
    /// Blobs of water with a fringe of brush.
    Pools,
    /// Blobs of brush whose inner cells are water.
    Marsh,
}

/// Turns about `share` of the floor of `grid` into water and brush, as `style` says, never
/// on a cell for which `keep` holds (where the player and the monsters start: the file
/// writes their glyph in place of floor). Same seed, same terrain.
pub(super) fn lay(
    grid: &mut TileMap,
    share: f64,
    style: Style,
    seed: u64,
    keep: impl Fn(Pos) -> bool,
) {
    let floor: Vec<usize> = (0..grid.len())
        .filter(|&i| grid.tiles()[i] == Tile::Floor && !keep(grid.pos(i)))
        .collect();
    let target = (share * floor.len() as f64).round() as usize;
    if target == 0 {
        return;
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ SALT);
    // Pools of a few dozen cells on large maps, a handful on small ones.
    let most = (target / 3).clamp(3, 60);
    let free = |g: &TileMap, i: usize| g.tiles()[i] == Tile::Floor && !keep(g.pos(i));
    let mut laid = 0;
    let mut tries = 0;
    let mut blob: Vec<usize> = Vec::new();
    let mut frontier: Vec<usize> = Vec::new();
    while laid < target && tries < 4 * target + 64 {
        tries += 1;
        let seed_cell = floor[rng.random_range(0..floor.len())];
        if !free(grid, seed_cell) {
            continue;
        }
        let size = rng.random_range(3..=most).min(target - laid);
        // Grown by taking a random cell of its edge at a time: round-ish, ragged blobs.
        blob.clear();
        frontier.clear();
        frontier.push(seed_cell);
        while blob.len() < size && !frontier.is_empty() {
            let c = frontier.swap_remove(rng.random_range(0..frontier.len()));
            if blob.contains(&c) || !free(grid, c) {
                continue;
            }
            blob.push(c);
            let p = grid.pos(c);
            for &(dx, dy) in &DIRECTIONS[..4] {
                if let Some(n) = grid.index(p.offset(dx, dy))
                    && free(grid, n)
                {
                    frontier.push(n);
                }
            }
        }
        let inner = |i: usize, blob: &[usize]| {
            let p = grid.pos(i);
            DIRECTIONS[..4].iter().all(|&(dx, dy)| {
                grid.index(p.offset(dx, dy))
                    .is_some_and(|n| blob.contains(&n))
            })
        };
        let (body, edge) = match style {
            Style::Pools => (Tile::Water, Tile::Brush),
            Style::Marsh => (Tile::Brush, Tile::Water),
        };
        let tiles: Vec<(usize, Tile)> = blob
            .iter()
            .map(|&c| {
                let t = match style {
                    Style::Pools => body,
                    // Marsh: brush, with water where the brush surrounds a cell.
                    Style::Marsh if inner(c, &blob) => edge,
                    Style::Marsh => body,
                };
                (c, t)
            })
            .collect();
        for (c, t) in tiles {
            grid.set(grid.pos(c), t);
            laid += 1;
        }
        if style == Style::Pools {
            // A fringe of brush on some of the floor around the pool.
            let mut fringe: Vec<usize> = Vec::new();
            for &c in &blob {
                let p = grid.pos(c);
                for (dx, dy) in DIRECTIONS {
                    if let Some(n) = grid.index(p.offset(dx, dy))
                        && free(grid, n)
                        && !fringe.contains(&n)
                    {
                        fringe.push(n);
                    }
                }
            }
            for n in fringe {
                if laid < target && rng.random_bool(0.4) {
                    grid.set(grid.pos(n), Tile::Brush);
                    laid += 1;
                }
            }
        }
    }
}
