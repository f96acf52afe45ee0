//! Procedural levels: noise caves and rooms-and-corridors, with the player and monsters placed
//! so that every monster can reach the player.
//!
//! Everything is driven by one `u64` seed through [`Xoshiro256PlusPlus`], whose output is
//! specified bit for bit, so the same parameters give the same level on every machine.

mod caves;
mod rooms;

use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

use crate::content::level::{Level, Spawn};
use crate::engine::grid::{Grid, Neighbourhood, Pos, Regions, Tile};

/// Narrowest map the generators make (room for a wall border around a usable interior).
pub const MIN_WIDTH: usize = 10;
/// Shortest map the generators make.
pub const MIN_HEIGHT: usize = 5;
/// Widest and tallest map the generators make.
pub const MAX_GENERATED_SIDE: usize = 1024;

/// How many times a generator retries with fresh randomness before giving up on placing
/// the monsters; small maps sometimes come out cramped, large ones practically never do.
const ATTEMPTS: usize = 8;

/// The monster kinds generated levels use, with their draw weights (weaker ones commoner);
/// `game::kind_info` has their names and stats.
pub const MONSTER_KINDS: [(char, u32); 3] = [('r', 6), ('g', 3), ('o', 1)];

/// Which generator to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum GenKind {
    /// Organic caves from thresholded fractal noise.
    #[default]
    Caves,
    /// Rectangular rooms joined by L-shaped corridors.
    Rooms,
}

impl GenKind {
    /// All generators, in the order they are listed.
    pub const ALL: [GenKind; 2] = [GenKind::Caves, GenKind::Rooms];

    /// The name used on the command line and in titles (`caves`, `rooms`).
    pub fn name(self) -> &'static str {
        match self {
            GenKind::Caves => "caves",
            GenKind::Rooms => "rooms",
        }
    }

    /// Parses a command-line name.
    pub fn from_name(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == s)
    }
}

impl std::str::FromStr for GenKind {
    type Err = String;

    /// Parses a generator's name.
    fn from_str(s: &str) -> Result<Self, String> {
        Self::from_name(s).ok_or_else(|| {
            let names: Vec<&str> = Self::ALL.iter().map(|k| k.name()).collect();
            format!("unknown kind {s:?}: use {}", names.join(" or "))
        })
    }
}

impl std::fmt::Display for GenKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GenParams {
    /// Which generator.
    pub kind: GenKind,
    /// Columns, from [`MIN_WIDTH`] to [`MAX_GENERATED_SIDE`].
    pub width: usize,
    /// Rows, from [`MIN_HEIGHT`] to [`MAX_GENERATED_SIDE`].
    pub height: usize,
    /// The seed; equal parameters give equal levels.
    pub seed: u64,
    /// How many monsters to place.
    pub monsters: usize,
}

impl GenParams {
    /// Parameters with [`default_monsters`] for the size.
    pub fn new(kind: GenKind, width: usize, height: usize, seed: u64) -> Self {
        Self {
            kind,
            width,
            height,
            seed,
            monsters: default_monsters(width, height),
        }
    }
}

/// A monster count that suits a map size: about one per 400 cells, from 1 to 40.
pub fn default_monsters(width: usize, height: usize) -> usize {
    (width.saturating_mul(height) / 400).clamp(1, 40)
}

/// Why a level could not be generated or populated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GenError {
    /// The requested size is outside what the generators make.
    #[error(
        "cannot generate a {width}x{height} map: width must be {MIN_WIDTH} to {MAX_GENERATED_SIDE} and height {MIN_HEIGHT} to {MAX_GENERATED_SIDE}"
    )]
    Size {
        /// Requested columns.
        width: usize,
        /// Requested rows.
        height: usize,
    },
    /// Not enough suitable floor cells for the monsters.
    #[error(
        "cannot place {requested} monsters: only {available} floor cells reachable from the player can take one; ask for fewer monsters or a larger map"
    )]
    TooManyMonsters {
        /// Monsters asked for.
        requested: usize,
        /// Cells that could take a monster (the best over all attempts when generating).
        available: usize,
    },
    /// The level has no free floor cell to start the player on.
    #[error("the level has no free floor cell to start the player on")]
    NoFloor,
    /// The level's player start is not on a floor cell, so no monster could reach it.
    #[error("the player's start {0} is not on a floor cell")]
    PlayerOffFloor(Pos),
}

/// Generates a level: same parameters, same level (and same `to_text()` bytes).
pub fn generate(params: &GenParams) -> Result<Level, GenError> {
    let &GenParams {
        kind,
        width,
        height,
        seed,
        monsters,
    } = params;
    if !(MIN_WIDTH..=MAX_GENERATED_SIDE).contains(&width)
        || !(MIN_HEIGHT..=MAX_GENERATED_SIDE).contains(&height)
    {
        return Err(GenError::Size { width, height });
    }
    // A player in an interior corner rules out itself and 3 neighbours; no map can beat
    // that, so hopeless requests fail at once instead of after every attempt.
    let best_case = (width - 2) * (height - 2) - 4;
    if monsters > best_case {
        return Err(GenError::TooManyMonsters {
            requested: monsters,
            available: best_case,
        });
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut best = None;
    for _ in 0..ATTEMPTS {
        let tiles = match kind {
            GenKind::Caves => caves::carve(width, height, &mut rng),
            GenKind::Rooms => rooms::carve(width, height, &mut rng),
        };
        let (grid, regions, label) = keep_largest_region(width, height, tiles);
        let Some(label) = label else { continue };
        let player = grid.pos(pick_cell(
            &regions,
            label,
            regions.size(label) as usize,
            &mut rng,
            |_| false,
        ));
        match place_monsters(&grid, &regions, label, player, monsters, true, &mut rng) {
            Ok(spawns) => {
                return Ok(Level {
                    title: Some(format!("{kind} {width}x{height} seed {seed}")),
                    grid,
                    player: Some(player),
                    monsters: spawns,
                    features: Vec::new(),
                });
            }
            Err(GenError::TooManyMonsters { available, .. }) => {
                best = best.max(Some(available));
            }
            Err(e) => return Err(e),
        }
    }
    // Every attempt came out solid rock only if no floor was ever found.
    Err(
        best.map_or(GenError::NoFloor, |available| GenError::TooManyMonsters {
            requested: monsters,
            available,
        }),
    )
}

/// Fills in what a level lacks: a player start (on the largest region) when it has none, and
/// `monsters` monsters on the player's region when it has none. Deterministic per seed.
pub fn populate(level: &mut Level, seed: u64, monsters: usize) -> Result<(), GenError> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let regions = Regions::compute(&level.grid, Neighbourhood::Eight);
    let player = match level.player {
        Some(p) => p,
        None => {
            // The largest region of cells not already taken by a monster, so the player
            // never starts on one; a level's monsters are few, so a set is cheap.
            let taken: std::collections::HashSet<usize> = level
                .monsters
                .iter()
                .filter_map(|m| level.grid.index(m.pos))
                .collect();
            let label = regions.largest().ok_or(GenError::NoFloor)?;
            let taken_here = taken.iter().filter(|&&i| regions.label(i) == label).count();
            let free = regions.size(label) as usize - taken_here;
            if free == 0 {
                return Err(GenError::NoFloor);
            }
            let p = pick_cell(&regions, label, free, &mut rng, |i| taken.contains(&i));
            let p = level.grid.pos(p);
            level.player = Some(p);
            p
        }
    };
    if !level.monsters.is_empty() {
        return Ok(());
    }
    let label = level
        .grid
        .index(player)
        .map(|i| regions.label(i))
        .filter(|&l| l != Regions::NONE)
        .ok_or(GenError::PlayerOffFloor(player))?;
    level.monsters = place_monsters(
        &level.grid,
        &regions,
        label,
        player,
        monsters,
        false,
        &mut rng,
    )?;
    Ok(())
}

/// Walls off every floor cell outside the largest 4-connected region (which is exactly what
/// 8-way movement without corner cutting can reach), returning the grid, the labelling and
/// the kept region's label (`None` when there is no floor at all). The labelling is the one
/// from before the walling: the kept region's labels and size are still exact, and cells
/// with other labels are now walls, which callers never look up.
fn keep_largest_region(
    width: usize,
    height: usize,
    tiles: Vec<Tile>,
) -> (Grid, Regions, Option<u32>) {
    // Label the grid that is returned, walling off the other regions in place.
    let mut grid = Grid::from_tiles(width, height, tiles);
    let regions = Regions::compute(&grid, Neighbourhood::Eight);
    let largest = regions.largest();
    if regions.count() > 1 {
        // Labelled cells are exactly the floor cells.
        for (i, &l) in regions.labels().iter().enumerate() {
            if l != Regions::NONE && Some(l) != largest {
                grid.set(grid.pos(i), Tile::Wall);
            }
        }
    }
    (grid, regions, largest)
}

/// A uniformly chosen cell index of region `label`, leaving out cells for which `skip`
/// holds; `available` is how many cells remain after skipping (at least one).
fn pick_cell(
    regions: &Regions,
    label: u32,
    available: usize,
    rng: &mut Xoshiro256PlusPlus,
    skip: impl Fn(usize) -> bool,
) -> usize {
    let rank = rng.random_range(0..available);
    cells_at_ranks(regions.labels(), label, skip, &[rank])[0]
}

/// The cells of region `label`, in index order with `skip` cells left out, at the given
/// ascending ranks; one scan, no per-cell allocation, whatever the map size.
fn cells_at_ranks(
    labels: &[u32],
    label: u32,
    skip: impl Fn(usize) -> bool,
    ranks: &[usize],
) -> Vec<usize> {
    let mut out = Vec::with_capacity(ranks.len());
    let mut seen = 0;
    for (i, &l) in labels.iter().enumerate() {
        if out.len() == ranks.len() {
            break;
        }
        if l != label || skip(i) {
            continue;
        }
        if seen == ranks[out.len()] {
            out.push(i);
        }
        seen += 1;
    }
    out
}

/// Places `count` monsters on distinct cells of region `label` other than the player's, in
/// reading order (as parsing lists them). Cells next to the player are refused when
/// `strict`, and otherwise used only once the farther cells run out.
fn place_monsters(
    grid: &Grid,
    regions: &Regions,
    label: u32,
    player: Pos,
    count: usize,
    strict: bool,
    rng: &mut Xoshiro256PlusPlus,
) -> Result<Vec<Spawn>, GenError> {
    let size = regions.size(label) as usize;
    // The player's cell and its region neighbours, in index order: the only cells that are
    // not "far".
    let near: Vec<usize> = (-1..=1)
        .flat_map(|dy| (-1..=1).map(move |dx| (dx, dy)))
        .filter_map(|(dx, dy)| grid.index(player.offset(dx, dy)))
        .filter(|&i| regions.label(i) == label)
        .collect();
    let far = size - near.len();
    let available = if strict { far } else { size - 1 };
    if count > available {
        return Err(GenError::TooManyMonsters {
            requested: count,
            available,
        });
    }
    let is_near = |i: usize| grid.pos(i).chebyshev(player) <= 1;
    let mut ranks = rand::seq::index::sample(rng, far, count.min(far)).into_vec();
    ranks.sort_unstable();
    let mut cells = cells_at_ranks(regions.labels(), label, is_near, &ranks);
    if count > far {
        // Only when populating a cramped level: fill up from the player's neighbours.
        let player_index = grid.index(player);
        let adjacent: Vec<usize> = near
            .into_iter()
            .filter(|&i| Some(i) != player_index)
            .collect();
        let picks = rand::seq::index::sample(rng, adjacent.len(), count - far);
        cells.extend(picks.into_iter().map(|k| adjacent[k]));
        cells.sort_unstable();
    }
    Ok(cells
        .into_iter()
        .map(|i| Spawn {
            pos: grid.pos(i),
            kind: pick_kind(rng),
        })
        .collect())
}

/// A monster kind drawn by [`MONSTER_KINDS`] weight.
fn pick_kind(rng: &mut Xoshiro256PlusPlus) -> char {
    let total: u32 = MONSTER_KINDS.iter().map(|k| k.1).sum();
    let mut roll = rng.random_range(0..total);
    for (kind, weight) in MONSTER_KINDS {
        if roll < weight {
            return kind;
        }
        roll -= weight;
    }
    unreachable!("roll is below the total weight")
}

#[cfg(test)]
mod tests;
