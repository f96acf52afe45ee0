//! Procedural levels of six kinds (noise caves, cellular-automaton caves, rooms, mazes,
//! scattered obstacles and arenas), with the player and monsters placed so that every
//! monster can reach the player.
//!
//! Every kind fills the map it is given: whatever separate regions a generator leaves are
//! joined by tunnels rather than walled off, so all the floor is one region and the open
//! area spans the map both ways (an attempt that does not is rejected and the next one from
//! the same seed stream tried).
//!
//! Once placed, some of the floor becomes water and brush ([`GenKind::terrain_default`]):
//! pools in caves and cells, marsh in arenas, none elsewhere unless asked for. It draws
//! from a random stream of its own, so walls and creatures do not depend on it.
//!
//! Everything is driven by one `u64` seed through [`Xoshiro256PlusPlus`], whose output is
//! specified bit for bit, so the same parameters give the same level on every machine.

mod arena;
mod caves;
mod cells;
mod connect;
mod fill;
mod maze;
mod rooms;
mod scatter;
mod start;
mod terrain;

use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

pub use fill::MIN_SPAN_PERCENT;
use fill::{least_floor, required_span};

use crate::content::kinds::KINDS;
use crate::content::level::{Level, Spawn};
use crate::content::map::{Tile, TileMap};
use crate::engine::grid::{Neighbourhood, Pos, Regions};

/// Narrowest map the generators make (room for a wall border around a usable interior).
pub const MIN_WIDTH: usize = 10;
/// Shortest map the generators make.
pub const MIN_HEIGHT: usize = 5;
/// Widest and tallest map the generators make.
pub const MAX_GENERATED_SIDE: usize = 1024;

/// How many times a generator retries with fresh randomness before giving up: an attempt
/// is rejected when its floor does not span the map, falls short of its density's promise
/// or cannot take the monsters. If none fills its map, the roomiest one is used.
const ATTEMPTS: usize = 8;

/// Which generator to run.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum GenKind {
    /// Organic caves from thresholded fractal noise.
    #[default]
    Caves,
    /// Caves grown by a cellular automaton from random fill (the roguelike standard).
    Cells,
    /// Rectangular rooms from a binary space partition, joined by corridors.
    Rooms,
    /// A perfect maze of one-cell corridors: A*'s worst case.
    Maze,
    /// Single obstacles scattered over an open rectangle: the classic A* demonstration.
    Scatter,
    /// Open ground with a few long walls and pillars.
    Arena,
}

/// The densities a kind accepts, and the one it uses when none is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DensityRange {
    /// Least accepted density.
    pub min: Density,
    /// Density used when none is given.
    pub default: Density,
    /// Greatest accepted density.
    pub max: Density,
}

impl GenKind {
    /// All generators, in the order they are listed (and `G` cycles them in game).
    pub const ALL: [GenKind; 6] = [
        GenKind::Caves,
        GenKind::Cells,
        GenKind::Rooms,
        GenKind::Maze,
        GenKind::Scatter,
        GenKind::Arena,
    ];

    /// The name used on the command line and in titles (`caves`, `rooms`, ...).
    pub fn name(self) -> &'static str {
        match self {
            GenKind::Caves => "caves",
            GenKind::Cells => "cells",
            GenKind::Rooms => "rooms",
            GenKind::Maze => "maze",
            GenKind::Scatter => "scatter",
            GenKind::Arena => "arena",
        }
    }

    /// Parses a command-line name.
    pub fn from_name(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == s)
    }

    /// The kind after this one in [`GenKind::ALL`], wrapping around.
    pub fn next(self) -> Self {
        let i = Self::ALL.iter().position(|&k| k == self).unwrap_or(0);
        Self::ALL[(i + 1) % Self::ALL.len()]
    }

    /// The names of all kinds for messages: `caves, cells, ... or arena`.
    pub fn names() -> String {
        let names: Vec<&str> = Self::ALL.iter().map(|k| k.name()).collect();
        let (last, rest) = names.split_last().expect("there are kinds");
        format!("{} or {last}", rest.join(", "))
    }

    /// The share of the floor this kind turns into water and brush unless told otherwise:
    /// pools in caves and cells, marsh in arenas, none in rooms, mazes and scatter (a maze
    /// is A*'s worst case as it is, and scatter the classic open demonstration).
    pub fn terrain_default(self) -> Density {
        Density::from_permille(match self {
            GenKind::Caves | GenKind::Cells => 60,
            GenKind::Arena => 120,
            GenKind::Rooms | GenKind::Maze | GenKind::Scatter => 0,
        })
    }

    /// The densities this kind takes, or `None` for kinds whose shape leaves no choice
    /// (rooms fill their partition cells; a maze's walls are as thick as its corridors).
    ///
    /// Density is the share of the interior that starts as wall: caves cut their noise
    /// there, cells fill at random with it, scatter drops obstacles with it as their odds,
    /// and an arena lays walls and pillars until it is covered.
    pub fn density_range(self) -> Option<DensityRange> {
        let range = |min, default, max| {
            Some(DensityRange {
                min: Density::from_permille(min),
                default: Density::from_permille(default),
                max: Density::from_permille(max),
            })
        };
        match self {
            // Past these the noise either leaves specks of rock in one hall or specks of
            // floor strung together by tunnels.
            GenKind::Caves => range(200, 420, 600),
            // Outside these the automaton settles to nearly all floor or all rock.
            GenKind::Cells => range(350, 450, 550),
            GenKind::Rooms | GenKind::Maze => None,
            // Up to the percolation threshold of square-grid sites (about 0.41) the floor
            // still mostly joins up by itself; a little past it tunnels do the joining.
            GenKind::Scatter => range(0, 300, 500),
            GenKind::Arena => range(0, 100, 300),
        }
    }
}

impl std::str::FromStr for GenKind {
    type Err = UnknownGenKind;

    /// Parses a generator's name.
    fn from_str(s: &str) -> Result<Self, UnknownGenKind> {
        Self::from_name(s).ok_or_else(|| UnknownGenKind(s.to_string()))
    }
}

/// A word that names no generator (the word).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown kind {0:?}: use {names}", names = GenKind::names())]
pub struct UnknownGenKind(pub String);

impl std::fmt::Display for GenKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A share of the map, in thousandths: written as a fraction (`0.3`) or a percentage
/// (`30%`), kept as an integer so that parameters compare and hash exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Density(u16);

impl Density {
    /// A density of `permille` thousandths (at most 1000).
    pub const fn from_permille(permille: u16) -> Self {
        Self(if permille > 1000 { 1000 } else { permille })
    }

    /// The density in thousandths.
    pub fn permille(self) -> u16 {
        self.0
    }

    /// The density as a fraction from 0 to 1.
    pub fn fraction(self) -> f64 {
        f64::from(self.0) / 1000.0
    }
}

/// Why a share (a [`Density`]) does not read; each keeps the text as written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadShare {
    /// Not a fraction nor a percentage.
    #[error("bad share {0:?}: expected a fraction like 0.3 or a percentage like 30%")]
    Form(String),
    /// A percentage over 100%.
    #[error("bad share {0:?}: a percentage is at most 100%")]
    Percentage(String),
    /// A fraction over 1.
    #[error("bad share {0:?}: a fraction is at most 1 (write 0.3 or 30%)")]
    Fraction(String),
}

impl std::str::FromStr for Density {
    type Err = BadShare;

    /// Parses `0.3`, `.3`, `30%` or `32.5%`, rounded to the nearest thousandth.
    fn from_str(s: &str) -> Result<Self, BadShare> {
        let t = s.trim();
        let (number, percent) = match t.strip_suffix('%') {
            Some(n) => (n.trim_end(), true),
            None => (t, false),
        };
        let digits = number.bytes().filter(u8::is_ascii_digit).count();
        let well_formed = digits > 0
            && digits <= 12
            && number.bytes().all(|b| b.is_ascii_digit() || b == b'.')
            && number.bytes().filter(|&b| b == b'.').count() <= 1;
        let value = well_formed
            .then(|| number.parse::<f64>().ok())
            .flatten()
            .ok_or_else(|| BadShare::Form(s.to_string()))?;
        let fraction = if percent { value / 100.0 } else { value };
        if fraction > 1.0 {
            return Err(if percent {
                BadShare::Percentage(s.to_string())
            } else {
                BadShare::Fraction(s.to_string())
            });
        }
        Ok(Self((fraction * 1000.0).round() as u16))
    }
}

impl std::fmt::Display for Density {
    /// The shortest decimal fraction: `0.3`, `0.325`, `0`, `1`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (whole, thousandths) = (self.0 / 1000, self.0 % 1000);
        if thousandths == 0 {
            return write!(f, "{whole}");
        }
        let decimals = format!("{thousandths:03}");
        write!(f, "{whole}.{}", decimals.trim_end_matches('0'))
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
    /// The kind's density, or `None` for its default (see [`GenKind::density_range`]).
    pub density: Option<Density>,
    /// The share of the floor turned into water and brush, or `None` for the kind's
    /// default (see [`GenKind::terrain_default`]).
    pub terrain: Option<Density>,
    /// The depth of the run it is a floor of: monsters come from the kinds that live there
    /// or shallower ([`Kind::depth`](crate::content::kinds::Kind::depth)).
    pub depth: u32,
}

impl GenParams {
    /// Parameters with [`default_monsters`] for the size and the kind's default density.
    pub fn new(kind: GenKind, width: usize, height: usize, seed: u64) -> Self {
        Self {
            kind,
            width,
            height,
            seed,
            monsters: default_monsters(width, height),
            density: None,
            terrain: None,
            depth: DEEPEST,
        }
    }

    /// The same parameters for a floor at `depth`.
    pub fn with_depth(self, depth: u32) -> Self {
        Self { depth, ..self }
    }

    /// The same parameters with `monsters` monsters.
    pub fn with_monsters(self, monsters: usize) -> Self {
        Self { monsters, ..self }
    }

    /// The level's title: kind, size and seed, then density and monsters where they differ
    /// from the defaults, so that the title alone is enough to generate the level again.
    pub fn title(&self) -> String {
        let mut title = format!(
            "{} {}x{} seed {}",
            self.kind, self.width, self.height, self.seed
        );
        let default = self.kind.density_range().map(|r| r.default);
        if let Some(d) = self.density.filter(|&d| Some(d) != default) {
            title.push_str(&format!(" density {d}"));
        }
        if self.monsters != default_monsters(self.width, self.height) {
            title.push_str(&format!(" monsters {}", self.monsters));
        }
        if let Some(t) = self.terrain.filter(|&t| t != self.kind.terrain_default()) {
            title.push_str(&format!(" terrain {t}"));
        }
        title
    }
}

/// The most monsters a generated level gets when the caller names no count: more would
/// make the biggest maps a crowd no one can read (ask for more with an explicit count).
pub const DEFAULT_MONSTERS_MAX: usize = 40;

/// A monster count that suits a map size: about one per 400 cells, from 1 to
/// [`DEFAULT_MONSTERS_MAX`].
pub fn default_monsters(width: usize, height: usize) -> usize {
    (width.saturating_mul(height) / 400).clamp(1, DEFAULT_MONSTERS_MAX)
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
    /// The density is outside what the kind accepts.
    #[error("{kind} takes a density from {} to {}, not {density}", .range.min, .range.max)]
    Density {
        /// The generator.
        kind: GenKind,
        /// The density asked for.
        density: Density,
        /// What the generator accepts.
        range: DensityRange,
    },
    /// A density was given to a kind that has none.
    #[error("{0} takes no density; caves, cells, scatter and arena do")]
    NoDensity(GenKind),
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

/// The density a generator runs with: the kind's default, or the one asked for if the
/// kind takes it and it is in range.
fn resolve_density(kind: GenKind, density: Option<Density>) -> Result<f64, GenError> {
    match (kind.density_range(), density) {
        (None, None) => Ok(0.0),
        (None, Some(_)) => Err(GenError::NoDensity(kind)),
        (Some(range), None) => Ok(range.default.fraction()),
        (Some(range), Some(d)) if (range.min..=range.max).contains(&d) => Ok(d.fraction()),
        (Some(range), Some(density)) => Err(GenError::Density {
            kind,
            density,
            range,
        }),
    }
}

/// Row-major tiles of one attempt at a map of `kind`, with a solid wall border; the floor
/// may still be in several regions.
fn carve(
    kind: GenKind,
    width: usize,
    height: usize,
    density: f64,
    rng: &mut Xoshiro256PlusPlus,
) -> Vec<Tile> {
    match kind {
        GenKind::Caves => caves::carve(width, height, density, rng),
        GenKind::Cells => cells::carve(width, height, density, rng),
        GenKind::Rooms => rooms::carve(width, height, rng),
        GenKind::Maze => maze::carve(width, height, rng),
        GenKind::Scatter => scatter::carve(width, height, density, rng),
        GenKind::Arena => arena::carve(width, height, density, rng),
    }
}

/// Whether an attempt fills its map: the floor's bounding box covers [`required_span`] of
/// both sides, and for kinds with a density, the floor is at least
/// [`fill::MIN_FLOOR_PERMILLE`] of what `density` promises.
fn fills_map(grid: &TileMap, kind: GenKind, density: f64) -> bool {
    let (w, h) = (grid.width(), grid.height());
    let (mut x0, mut x1, mut y0, mut y1) = (usize::MAX, 0, usize::MAX, 0);
    let mut floor = 0;
    for (i, t) in grid.tiles().iter().enumerate() {
        if t.is_passable() {
            let (x, y) = (i % w, i / w);
            x0 = x0.min(x);
            x1 = x1.max(x);
            y0 = y0.min(y);
            y1 = y1.max(y);
            floor += 1;
        }
    }
    let spans = x0 <= x1 && x1 - x0 + 1 >= required_span(w) && y1 - y0 + 1 >= required_span(h);
    let enough = kind.density_range().is_none() || floor >= least_floor(w, h, density);
    spans && enough
}

/// The deepest floor any kind first lives on: parameters at this depth draw from every kind.
pub const DEEPEST: u32 = {
    let mut d = 1;
    let mut i = 0;
    while i < KINDS.len() {
        if KINDS[i].depth > d {
            d = KINDS[i].depth;
        }
        i += 1;
    }
    d
};

/// Generates a level: same parameters, same level (and same `to_text()` bytes).
pub fn generate(params: &GenParams) -> Result<Level, GenError> {
    let &GenParams {
        kind,
        width,
        height,
        seed,
        monsters,
        density,
        terrain: _,
        depth: _,
    } = params;
    if !(MIN_WIDTH..=MAX_GENERATED_SIDE).contains(&width)
        || !(MIN_HEIGHT..=MAX_GENERATED_SIDE).contains(&height)
    {
        return Err(GenError::Size { width, height });
    }
    let density = resolve_density(kind, density)?;
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
    // The roomiest attempt that did not fill its map, used only if no attempt does (tiny
    // maps, whose interior is all the span they need, sometimes never do).
    let mut fallback: Option<(TileMap, Regions, u32)> = None;
    for _ in 0..ATTEMPTS {
        let mut tiles = carve(kind, width, height, density, &mut rng);
        connect::join_regions(width, height, &mut tiles);
        // Joined, the floor is one region; walling off the rest only guards the placement
        // below against a generator bug.
        let (grid, regions, label) = keep_largest_region(width, height, tiles);
        let Some(label) = label else { continue };
        if !fills_map(&grid, kind, density) {
            if fallback
                .as_ref()
                .is_none_or(|f| f.1.size(f.2) < regions.size(label))
            {
                fallback = Some((grid, regions, label));
            }
            continue;
        }
        match populate_generated(params, grid, &regions, label, &mut rng) {
            Ok(level) => return Ok(level),
            Err(GenError::TooManyMonsters { available, .. }) => {
                best = best.max(Some(available));
            }
            Err(e) => return Err(e),
        }
    }
    if let Some((grid, regions, label)) = fallback {
        match populate_generated(params, grid, &regions, label, &mut rng) {
            Ok(level) => return Ok(level),
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

/// Puts the player and the monsters on region `label` of a generated map.
fn populate_generated(
    params: &GenParams,
    grid: TileMap,
    regions: &Regions,
    label: u32,
    rng: &mut Xoshiro256PlusPlus,
) -> Result<Level, GenError> {
    // Never in a dead-end pocket: on the floor of the largest block (see `start`).
    let tiles = grid.tiles();
    let block: Vec<usize> = start::largest_block(grid.cost_grid(), |i| regions.label(i) == label)
        .into_iter()
        .filter(|&i| tiles[i] == Tile::Floor)
        .collect();
    let player = if block.is_empty() {
        let size = regions.size(label) as usize;
        grid.pos(pick_cell(regions, label, size, rng, |_| false))
    } else {
        grid.pos(block[rng.random_range(0..block.len())])
    };
    let monsters = place_monsters(
        &grid,
        regions,
        label,
        player,
        params.monsters,
        true,
        params.depth,
        rng,
    )?;
    let mut grid = grid;
    let share = params.terrain.unwrap_or(params.kind.terrain_default());
    let style = match params.kind {
        GenKind::Arena => terrain::Style::Marsh,
        _ => terrain::Style::Pools,
    };
    // The player and the monsters keep their floor; their cells are looked up in a set,
    // as `--monsters` may ask for as many as the map has floor cells.
    let held: std::collections::HashSet<Pos> = monsters.iter().map(|m| m.pos).collect();
    terrain::lay(&mut grid, share.fraction(), style, params.seed, |p| {
        p == player || held.contains(&p)
    });
    Ok(Level {
        title: Some(params.title()),
        grid,
        player: Some(player),
        monsters,
        features: Vec::new(),
        notes: Vec::new(),
    })
}

/// Fills in what a level lacks: a player start (on the largest region) when it has none, and
/// `monsters` monsters on the player's region when it has none. Deterministic per seed.
pub fn populate(level: &mut Level, seed: u64, monsters: usize) -> Result<(), GenError> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let regions = Regions::compute(level.grid.cost_grid(), Neighbourhood::Eight);
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
            // Nor in water or brush: the file writes the player's glyph in place of floor.
            let tiles = level.grid.tiles();
            let skip = |i: usize| taken.contains(&i) || tiles[i] != Tile::Floor;
            let skipped = (0..tiles.len())
                .filter(|&i| regions.label(i) == label && skip(i))
                .count();
            let free = regions.size(label) as usize - skipped;
            if free == 0 {
                return Err(GenError::NoFloor);
            }
            let p = pick_cell(&regions, label, free, &mut rng, skip);
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
        DEEPEST,
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
) -> (TileMap, Regions, Option<u32>) {
    // Label the grid that is returned, walling off the other regions in place.
    let mut grid = TileMap::from_tiles(width, height, tiles);
    let regions = Regions::compute(grid.cost_grid(), Neighbourhood::Eight);
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
#[allow(clippy::too_many_arguments)]
fn place_monsters(
    grid: &TileMap,
    regions: &Regions,
    label: u32,
    player: Pos,
    count: usize,
    strict: bool,
    depth: u32,
    rng: &mut Xoshiro256PlusPlus,
) -> Result<Vec<Spawn>, GenError> {
    // Monsters start on plain floor (the file writes their glyph in place of it): the
    // region's water, brush and doors count as taken.
    let tiles = grid.tiles();
    let terrain = (0..tiles.len())
        .filter(|&i| regions.label(i) == label && tiles[i] != Tile::Floor)
        .count();
    let size = regions.size(label) as usize - terrain;
    // The player's cell and its region's floor neighbours, in index order: the only floor
    // cells that are not "far".
    let near: Vec<usize> = (-1..=1)
        .flat_map(|dy| (-1..=1).map(move |dx| (dx, dy)))
        .filter_map(|(dx, dy)| grid.index(player.offset(dx, dy)))
        .filter(|&i| regions.label(i) == label && tiles[i] == Tile::Floor)
        .collect();
    let far = size - near.len();
    let available = if strict { far } else { size - 1 };
    if count > available {
        return Err(GenError::TooManyMonsters {
            requested: count,
            available,
        });
    }
    let is_near = |i: usize| grid.pos(i).chebyshev(player) <= 1 || tiles[i] != Tile::Floor;
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
            kind: pick_kind(rng, depth),
        })
        .collect())
}

/// A monster kind drawn by its spawn weight among the kinds of the kinds table that live at
/// `depth` or shallower.
fn pick_kind(rng: &mut Xoshiro256PlusPlus, depth: u32) -> char {
    let kinds = || KINDS.iter().filter(|k| k.depth <= depth.max(1));
    let total: u32 = kinds().map(|k| k.spawn_weight).sum();
    let mut roll = rng.random_range(0..total);
    for k in kinds() {
        if roll < k.spawn_weight {
            return k.glyph;
        }
        roll -= k.spawn_weight;
    }
    unreachable!("roll is below the total weight")
}

#[cfg(test)]
mod tests;
