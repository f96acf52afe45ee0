//! The game's map: a flat `Vec<Tile>` of what each cell is made of, with the weight of each
//! terrain, and beside it the engine's [`Grid`] of what entering each cell costs under those
//! weights, kept equal to the tiles on every change. The engine knows costs, not tiles: this
//! is where the game's tiles become costs.
//!
//! ```
//! use astar_rogue_core::content::map::{TileMap, Tile};
//! use astar_rogue_core::engine::grid::Pos;
//!
//! let mut map = TileMap::from_rows(&["..~#", "...."]);
//! assert_eq!(map.get(Pos::new(2, 0)), Tile::Water);
//! // Water weighs 3 unless a level says otherwise: the engine's grid costs 3 there.
//! assert_eq!(map.cost_grid().cost(Pos::new(2, 0)), 3);
//! map.set(Pos::new(3, 0), Tile::Floor);
//! assert_eq!(map.cost_grid().cost(Pos::new(3, 0)), 1);
//! ```

use crate::engine::grid::{Grid, Neighbourhood, Pos};

/// What a cell is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Tile {
    /// Walkable ground.
    #[default]
    Floor,
    /// A wall: blocks movement and is drawn.
    Wall,
    /// Nothing at all: blocks movement and is drawn blank.
    Void,
    /// Shallow water: passable, and by default three times as dear to enter as floor.
    Water,
    /// Brush: passable, and by default twice as dear to enter as floor.
    Brush,
}

impl Tile {
    /// Whether creatures may stand on this tile.
    pub const fn is_passable(self) -> bool {
        matches!(self, Tile::Floor | Tile::Water | Tile::Brush)
    }

    /// The passable tiles, each with a weight in [`TerrainWeights`], in its order.
    pub const TERRAIN: [Tile; 3] = [Tile::Floor, Tile::Water, Tile::Brush];

    /// Its name in messages (`floor`, `wall`, `void`, `water`, `brush`).
    pub const fn name(self) -> &'static str {
        match self {
            Tile::Floor => "floor",
            Tile::Wall => "wall",
            Tile::Void => "void",
            Tile::Water => "water",
            Tile::Brush => "brush",
        }
    }

    /// Its place in [`Tile::TERRAIN`], for passable tiles.
    const fn terrain_index(self) -> Option<usize> {
        match self {
            Tile::Floor => Some(0),
            Tile::Water => Some(1),
            Tile::Brush => Some(2),
            Tile::Wall | Tile::Void => None,
        }
    }
}

/// How many times a step's base cost (10 straight, 14 diagonal) entering each passable tile
/// costs: floor 1, water 3 and brush 2 unless a level says otherwise, each from 1 to
/// [`TerrainWeights::MAX`]. Walls and void have no weight: nobody enters them.
///
/// ```
/// use astar_rogue_core::content::map::{TerrainWeights, Tile};
///
/// let w = TerrainWeights::DEFAULT;
/// assert_eq!((w.get(Tile::Floor), w.get(Tile::Water), w.get(Tile::Brush)), (1, 3, 2));
/// assert_eq!(w.get(Tile::Wall), 0);
/// let slow = w.with(Tile::Water, 9).unwrap();
/// assert_eq!(slow.get(Tile::Water), 9);
/// assert!(w.with(Tile::Water, 10).is_none() && w.with(Tile::Wall, 2).is_none());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TerrainWeights([u8; 3]);

impl TerrainWeights {
    /// Floor 1, water 3, brush 2.
    pub const DEFAULT: TerrainWeights = TerrainWeights([1, 3, 2]);
    /// Every terrain 1: the cost counts steps alone ("fewest steps").
    pub const ONES: TerrainWeights = TerrainWeights([1, 1, 1]);
    /// The largest weight a terrain may have.
    pub const MAX: u32 = 9;

    /// The weight of a tile: its entry for passable tiles, 0 for walls and void.
    #[inline]
    pub const fn get(self, tile: Tile) -> u32 {
        match tile.terrain_index() {
            Some(i) => self.0[i] as u32,
            None => 0,
        }
    }

    /// These weights with `tile`'s set to `weight`; `None` for a tile that cannot be entered
    /// or a weight outside `1..=MAX`.
    pub const fn with(self, tile: Tile, weight: u32) -> Option<Self> {
        match tile.terrain_index() {
            Some(i) if weight >= 1 && weight <= Self::MAX => {
                let mut w = self.0;
                w[i] = weight as u8;
                Some(TerrainWeights(w))
            }
            _ => None,
        }
    }

    /// What entering a tile costs the engine: its weight, 0 where nobody may go.
    #[inline]
    pub const fn cost(self, tile: Tile) -> u8 {
        self.get(tile) as u8
    }
}

impl Default for TerrainWeights {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// A rectangular map of tiles stored row-major in one `Vec`, with the weight of each terrain
/// and the engine's grid of costs that follows them.
#[derive(Debug, Clone)]
pub struct TileMap {
    tiles: Vec<Tile>,
    weights: TerrainWeights,
    /// The cost of entering each cell under `weights`: what every search of the game's
    /// default costs reads. Its revision is the map's.
    grid: Grid,
}

impl PartialEq for TileMap {
    fn eq(&self, other: &Self) -> bool {
        self.width() == other.width()
            && self.height() == other.height()
            && self.weights == other.weights
            && self.tiles == other.tiles
    }
}

impl Eq for TileMap {}

impl TileMap {
    /// A map of the given size filled with one tile.
    ///
    /// # Panics
    ///
    /// When the map would have more cells than the engine searches (the level readers and
    /// the generator refuse such sizes first).
    pub fn new(width: usize, height: usize, fill: Tile) -> Self {
        Self::from_tiles(width, height, vec![fill; width * height])
    }

    /// A map from row-major tiles; `tiles.len()` must be `width * height`.
    ///
    /// # Panics
    ///
    /// When the number of tiles is not `width * height`, or more than the engine searches.
    pub fn from_tiles(width: usize, height: usize, tiles: Vec<Tile>) -> Self {
        assert_eq!(tiles.len(), width * height, "tile count must match size");
        let weights = TerrainWeights::DEFAULT;
        let grid = Grid::from_costs(
            width,
            height,
            tiles.iter().map(|&t| weights.cost(t)).collect(),
        )
        .expect("a map the size of the engine's grids");
        Self {
            tiles,
            weights,
            grid,
        }
    }

    /// A map from rows of text: `#` wall, space void, `~` water, `"` brush, anything else
    /// floor; short rows are padded with void. Handy for tests and examples.
    pub fn from_rows(rows: &[&str]) -> Self {
        let width = rows.iter().map(|r| r.chars().count()).max().unwrap_or(0);
        let mut tiles = Vec::with_capacity(width * rows.len());
        for row in rows {
            let start = tiles.len();
            tiles.extend(row.chars().map(|c| match c {
                '#' => Tile::Wall,
                ' ' => Tile::Void,
                '~' => Tile::Water,
                '"' => Tile::Brush,
                _ => Tile::Floor,
            }));
            tiles.resize(start + width, Tile::Void);
        }
        Self::from_tiles(width, rows.len(), tiles)
    }

    /// The engine's grid of what entering each cell costs under the map's weights.
    pub fn cost_grid(&self) -> &Grid {
        &self.grid
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.grid.width()
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.grid.height()
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    /// Whether the map has no cells.
    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }

    /// A number that changes whenever what a cell costs changes (and differs between maps):
    /// a wall turned to void, which no search can tell apart, leaves it as it was.
    pub fn revision(&self) -> u64 {
        self.grid.revision()
    }

    /// All tiles, row-major.
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }

    /// Whether a position lies inside the map.
    pub fn contains(&self, p: Pos) -> bool {
        self.grid.contains(p)
    }

    /// The cell index of a position inside the map.
    pub fn index(&self, p: Pos) -> Option<usize> {
        self.grid.index(p)
    }

    /// The position of a cell index.
    pub fn pos(&self, index: usize) -> Pos {
        self.grid.pos(index)
    }

    /// The tile at a position; outside the map is void.
    pub fn get(&self, p: Pos) -> Tile {
        self.index(p).map_or(Tile::Void, |i| self.tiles[i])
    }

    /// Whether a creature may stand at a position.
    pub fn is_passable(&self, p: Pos) -> bool {
        self.get(p).is_passable()
    }

    /// Sets a tile; returns whether anything changed. Positions outside are ignored.
    pub fn set(&mut self, p: Pos, tile: Tile) -> bool {
        match self.index(p) {
            Some(i) if self.tiles[i] != tile => {
                self.tiles[i] = tile;
                self.grid.set(p, self.weights.cost(tile));
                true
            }
            _ => false,
        }
    }

    /// The weight of each terrain.
    pub fn weights(&self) -> TerrainWeights {
        self.weights
    }

    /// Sets the weight of each terrain; returns whether anything changed (a change gives the
    /// map a new revision).
    pub fn set_weights(&mut self, weights: TerrainWeights) -> bool {
        if self.weights == weights {
            return false;
        }
        self.weights = weights;
        let costs = self.tiles.iter().map(|&t| weights.cost(t)).collect();
        self.grid =
            Grid::from_costs(self.width(), self.height(), costs).expect("the same size as before");
        true
    }

    /// The same map with other terrain weights.
    ///
    /// ```
    /// use astar_rogue_core::content::map::{TerrainWeights, TileMap};
    ///
    /// let pond = TileMap::from_rows(&["..~.."]);
    /// assert!(pond.is_weighted());
    /// // Water that weighs 1 is floor as far as costs go.
    /// assert!(!pond.with_weights(TerrainWeights::ONES).is_weighted());
    /// ```
    pub fn with_weights(mut self, weights: TerrainWeights) -> Self {
        self.set_weights(weights);
        self
    }

    /// Whether some cell costs more than its base cost to enter: a cell of a terrain whose
    /// weight is not 1.
    #[inline]
    pub fn is_weighted(&self) -> bool {
        !self.grid.is_uniform()
    }

    /// The weight of the cell at `p`: what a step entering it multiplies its base cost by
    /// (0 for walls, void and outside).
    #[inline]
    pub fn weight(&self, p: Pos) -> u32 {
        u32::from(self.grid.cost(p))
    }

    /// What entering `to` from `from` costs (see [`Grid::step_cost`]).
    pub fn step_cost(&self, from: Pos, to: Pos) -> Option<u32> {
        self.grid.step_cost(from, to)
    }

    /// The cost of a path on this map, or `None` when a step is not a king move or enters
    /// a wall (see [`Grid::path_cost`]).
    pub fn path_cost(&self, path: &[Pos]) -> Option<u32> {
        self.grid
            .path_cost(path)
            .and_then(|c| u32::try_from(c).ok())
    }

    /// Whether one king move from `from` by `(dx, dy)` is legal under `rule`.
    pub fn can_step(&self, from: Pos, dx: i32, dy: i32, rule: Neighbourhood) -> bool {
        self.grid.can_step(from, dx, dy, rule)
    }
}
