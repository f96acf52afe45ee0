//! The tile grid: a flat `Vec<Tile>` indexed by cell, with coordinates and movement rules.
//!
//! ```
//! use astar_grid::grid::{Grid, Neighbourhood, Pos, Tile};
//!
//! // From text (`#` wall, space void, `~` water, `"` brush, anything else floor), or from a
//! // size and a fill.
//! let mut grid = Grid::from_rows(&["...#", "....", "#..."]);
//! assert_eq!((grid.width(), grid.height(), grid.len()), (4, 3, 12));
//! assert_eq!(grid.get(Pos::new(3, 0)), Tile::Wall);
//! // Cells are numbered row by row: index and position convert both ways.
//! assert_eq!(grid.index(Pos::new(1, 2)), Some(9));
//! assert_eq!(grid.pos(9), Pos::new(1, 2));
//! assert_eq!(grid.index(Pos::new(4, 0)), None);
//! // Diagonals may not cut a wall's corner under the game's rule.
//! assert!(!grid.can_step(Pos::new(0, 1), 1, 1, Neighbourhood::Eight));
//! assert!(grid.can_step(Pos::new(0, 1), 1, 1, Neighbourhood::EightCutCorners));
//! // Every change of a tile gives the grid a new revision, which the engine's caches follow.
//! let before = grid.revision();
//! assert!(grid.set(Pos::new(3, 0), Tile::Floor));
//! assert_ne!(grid.revision(), before);
//! ```

use std::sync::atomic::{AtomicU64, Ordering};

/// A cell position: `x` is the column and `y` the row, both from 0 at the top-left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Pos {
    /// Column, from 0 at the left.
    pub x: i32,
    /// Row, from 0 at the top.
    pub y: i32,
}

impl Pos {
    /// A position from its column and row.
    pub const fn new(x: i32, y: i32) -> Self {
        Self { x, y }
    }

    /// This position moved by a step.
    pub const fn offset(self, dx: i32, dy: i32) -> Self {
        Self::new(self.x + dx, self.y + dy)
    }

    /// Chebyshev distance: how many king moves apart the two cells are.
    ///
    /// ```
    /// use astar_grid::grid::Pos;
    ///
    /// assert_eq!(Pos::new(1, 1).chebyshev(Pos::new(4, -1)), 3);
    /// assert_eq!(Pos::new(2, 5).offset(1, -1), Pos::new(3, 4));
    /// ```
    pub fn chebyshev(self, other: Pos) -> i32 {
        (self.x - other.x).abs().max((self.y - other.y).abs())
    }
}

impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

impl std::str::FromStr for Pos {
    type Err = String;

    /// Parses `X,Y` (as printed), e.g. `12,3`; spaces around the numbers are allowed.
    ///
    /// ```
    /// use astar_grid::grid::Pos;
    ///
    /// let p: Pos = " 12, 3".parse().unwrap();
    /// assert_eq!((p, p.to_string()), (Pos::new(12, 3), "12,3".to_string()));
    /// assert!("12;3".parse::<Pos>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || format!("{s:?} is not a cell X,Y (e.g. 12,3)");
        let (x, y) = s.split_once(',').ok_or_else(bad)?;
        let n = |v: &str| v.trim().parse::<i32>().map_err(|_| bad());
        Ok(Pos::new(n(x)?, n(y)?))
    }
}

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
/// use astar_grid::grid::{TerrainWeights, Tile};
///
/// let w = TerrainWeights::DEFAULT;
/// assert_eq!((w.get(Tile::Floor), w.get(Tile::Water), w.get(Tile::Brush)), (1, 3, 2));
/// assert_eq!(w.get(Tile::Wall), 0);
/// let slow = w.with(Tile::Water, 9).unwrap();
/// assert_eq!(slow.get(Tile::Water), 9);
/// assert!(w.with(Tile::Water, 10).is_none() && w.with(Tile::Wall, 2).is_none());
/// assert_eq!(slow.lowest(), 1);
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

    /// The lowest weight of any terrain: what the heuristic is multiplied by, so that it
    /// never overestimates.
    pub fn lowest(self) -> u32 {
        u32::from(self.0.into_iter().min().unwrap_or(1))
    }
}

impl Default for TerrainWeights {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// The eight king-move directions, orthogonal first, in a fixed order used everywhere.
pub const DIRECTIONS: [(i32, i32); 8] = [
    (0, -1),
    (1, 0),
    (0, 1),
    (-1, 0),
    (1, -1),
    (1, 1),
    (-1, 1),
    (-1, -1),
];

/// Cost of a straight step.
pub const STRAIGHT: u32 = 10;
/// Cost of a diagonal step.
pub const DIAGONAL: u32 = 14;

/// Every grid gets revisions from one counter, so two grids never share a revision and
/// caches keyed by revision (region labels, padded copies in the pathfinder) stay honest.
static NEXT_REVISION: AtomicU64 = AtomicU64::new(1);

fn next_revision() -> u64 {
    NEXT_REVISION.fetch_add(1, Ordering::Relaxed)
}

/// A rectangular map of tiles stored row-major in one `Vec`, with the weight of each
/// terrain.
///
/// A grid on which every step costs its base cost (no cell of a terrain whose weight is not
/// one) is *unweighted* ([`Grid::is_weighted`]), and is searched by the engine's fast path;
/// Moving AI maps always are.
#[derive(Debug, Clone)]
pub struct Grid {
    width: usize,
    height: usize,
    tiles: Vec<Tile>,
    revision: u64,
    weights: TerrainWeights,
    /// How many cells of each terrain (in [`Tile::TERRAIN`] order) there are, so that
    /// [`Grid::is_weighted`] costs nothing.
    terrain_cells: [usize; 3],
}

impl PartialEq for Grid {
    fn eq(&self, other: &Self) -> bool {
        self.width == other.width
            && self.height == other.height
            && self.weights == other.weights
            && self.tiles == other.tiles
    }
}

impl Eq for Grid {}

impl Grid {
    /// A grid of the given size filled with one tile.
    ///
    /// ```
    /// use astar_grid::grid::{Grid, Pos, Tile};
    ///
    /// let mut grid = Grid::new(5, 4, Tile::Floor);
    /// for y in 0..3 {
    ///     grid.set(Pos::new(2, y), Tile::Wall);
    /// }
    /// assert!(!grid.is_passable(Pos::new(2, 1)));
    /// assert!(grid.is_passable(Pos::new(2, 3)));
    /// // Outside the grid is void, which nobody may stand on.
    /// assert_eq!(grid.get(Pos::new(-1, 0)), Tile::Void);
    /// ```
    pub fn new(width: usize, height: usize, fill: Tile) -> Self {
        Self::from_tiles(width, height, vec![fill; width * height])
    }

    /// A grid from row-major tiles; `tiles.len()` must be `width * height`.
    ///
    /// ```
    /// use astar_grid::grid::{Grid, Tile};
    ///
    /// let grid = Grid::from_tiles(2, 1, vec![Tile::Floor, Tile::Wall]);
    /// assert_eq!(grid, Grid::from_rows(&[".#"]));
    /// ```
    ///
    /// # Panics
    ///
    /// When the number of tiles is not `width * height`.
    pub fn from_tiles(width: usize, height: usize, tiles: Vec<Tile>) -> Self {
        assert_eq!(tiles.len(), width * height, "tile count must match size");
        let mut terrain_cells = [0; 3];
        for t in &tiles {
            if let Some(i) = t.terrain_index() {
                terrain_cells[i] += 1;
            }
        }
        Self {
            width,
            height,
            tiles,
            revision: next_revision(),
            weights: TerrainWeights::DEFAULT,
            terrain_cells,
        }
    }

    /// A grid from rows of text: `#` wall, space void, `~` water, `"` brush, anything else
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

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    /// Whether the grid has no cells.
    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }

    /// A number that changes whenever a tile changes (and differs between grids).
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// All tiles, row-major.
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }

    /// Whether a position lies inside the grid.
    pub fn contains(&self, p: Pos) -> bool {
        p.x >= 0 && p.y >= 0 && (p.x as usize) < self.width && (p.y as usize) < self.height
    }

    /// The cell index of a position inside the grid.
    pub fn index(&self, p: Pos) -> Option<usize> {
        self.contains(p)
            .then(|| p.y as usize * self.width + p.x as usize)
    }

    /// The position of a cell index.
    pub fn pos(&self, index: usize) -> Pos {
        Pos::new((index % self.width) as i32, (index / self.width) as i32)
    }

    /// The tile at a position; outside the grid is void.
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
                if let Some(t) = self.tiles[i].terrain_index() {
                    self.terrain_cells[t] -= 1;
                }
                if let Some(t) = tile.terrain_index() {
                    self.terrain_cells[t] += 1;
                }
                self.tiles[i] = tile;
                self.revision = next_revision();
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
    /// grid a new revision).
    pub fn set_weights(&mut self, weights: TerrainWeights) -> bool {
        if self.weights == weights {
            return false;
        }
        self.weights = weights;
        self.revision = next_revision();
        true
    }

    /// The same grid with other terrain weights.
    ///
    /// ```
    /// use astar_grid::grid::{Grid, TerrainWeights};
    ///
    /// let pond = Grid::from_rows(&["..~.."]);
    /// assert!(pond.is_weighted());
    /// // Water that weighs 1 is floor as far as costs go.
    /// assert!(!pond.with_weights(TerrainWeights::ONES).is_weighted());
    /// ```
    pub fn with_weights(mut self, weights: TerrainWeights) -> Self {
        self.set_weights(weights);
        self
    }

    /// Whether some cell costs more than its base cost to enter: a cell of a terrain whose
    /// weight is not 1. The engine searches unweighted grids on its fast path (and Jump
    /// Point Search, which assumes uniform costs, may only run on them).
    #[inline]
    pub fn is_weighted(&self) -> bool {
        (0..3).any(|i| self.terrain_cells[i] > 0 && self.weights.0[i] != 1)
    }

    /// The weight of the cell at `p`: what a step entering it multiplies its base cost by
    /// (0 for walls, void and outside).
    #[inline]
    pub fn weight(&self, p: Pos) -> u32 {
        self.weights.get(self.get(p))
    }

    /// What entering `to` from `from` costs: the step's base cost (10 straight, 14
    /// diagonal) times the weight of `to`. `None` when the two are not a king move apart or
    /// `to` cannot be entered; the corner rule is [`Grid::can_step`]'s business.
    ///
    /// ```
    /// use astar_grid::grid::{Grid, Pos};
    ///
    /// let grid = Grid::from_rows(&[".~", "\"#"]);
    /// assert_eq!(grid.step_cost(Pos::new(0, 0), Pos::new(1, 0)), Some(30));
    /// assert_eq!(grid.step_cost(Pos::new(1, 0), Pos::new(0, 1)), Some(28));
    /// assert_eq!(grid.step_cost(Pos::new(0, 0), Pos::new(1, 1)), None);
    /// ```
    pub fn step_cost(&self, from: Pos, to: Pos) -> Option<u32> {
        let base = match ((to.x - from.x).abs(), (to.y - from.y).abs()) {
            (1, 0) | (0, 1) => STRAIGHT,
            (1, 1) => DIAGONAL,
            _ => return None,
        };
        let w = self.weight(to);
        (w > 0).then_some(base * w)
    }

    /// The cost of a path on this grid: the sum of its steps' [`Grid::step_cost`]s, or
    /// `None` when a step is not a king move or enters a wall.
    pub fn path_cost(&self, path: &[Pos]) -> Option<u32> {
        path.windows(2).map(|w| self.step_cost(w[0], w[1])).sum()
    }

    /// Whether one king move from `from` by `(dx, dy)` is legal under `rule`.
    ///
    /// ```
    /// use astar_grid::grid::{Grid, Neighbourhood, Pos};
    ///
    /// let grid = Grid::from_rows(&["..", "#."]);
    /// let from = Pos::new(0, 0);
    /// // The diagonal passes the wall's corner: legal only when corners may be cut.
    /// assert!(!grid.can_step(from, 1, 1, Neighbourhood::Eight));
    /// assert!(grid.can_step(from, 1, 1, Neighbourhood::EightCutCorners));
    /// assert!(grid.can_step(from, 1, 0, Neighbourhood::Four));
    /// // Not a king move at all.
    /// assert!(!grid.can_step(from, 2, 0, Neighbourhood::Eight));
    /// ```
    pub fn can_step(&self, from: Pos, dx: i32, dy: i32, rule: Neighbourhood) -> bool {
        if dx == 0 && dy == 0 || dx.abs() > 1 || dy.abs() > 1 {
            return false;
        }
        let to = from.offset(dx, dy);
        if !self.is_passable(to) {
            return false;
        }
        if dx == 0 || dy == 0 {
            return true;
        }
        match rule {
            Neighbourhood::Four => false,
            Neighbourhood::EightCutCorners => true,
            Neighbourhood::Eight => {
                self.is_passable(from.offset(dx, 0)) && self.is_passable(from.offset(0, dy))
            }
        }
    }
}

/// Which moves a search (and a creature) may make.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Neighbourhood {
    /// Eight directions; a diagonal only when both orthogonal cells it passes between are free.
    #[default]
    Eight,
    /// Eight directions; a diagonal only needs its target cell free.
    EightCutCorners,
    /// The four orthogonal directions.
    Four,
}

impl Neighbourhood {
    /// All rules, in the order the overlay cycles through them.
    pub const ALL: [Neighbourhood; 3] = [
        Neighbourhood::Eight,
        Neighbourhood::EightCutCorners,
        Neighbourhood::Four,
    ];

    /// The name used on the command line (`8`, `8cut`, `4`).
    pub fn name(self) -> &'static str {
        match self {
            Neighbourhood::Eight => "8",
            Neighbourhood::EightCutCorners => "8cut",
            Neighbourhood::Four => "4",
        }
    }

    /// Parses a command-line name.
    pub fn from_name(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|n| n.name() == s)
    }

    /// The names accepted by [`str::parse`], for messages.
    pub const NAMES: &'static str = "8, 8cut or 4";

    /// The next rule in [`Neighbourhood::ALL`].
    pub fn next(self) -> Self {
        let i = Self::ALL.iter().position(|&n| n == self).unwrap_or(0);
        Self::ALL[(i + 1) % Self::ALL.len()]
    }
}

impl std::fmt::Display for Neighbourhood {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Neighbourhood {
    type Err = String;

    /// Parses `8`, `8cut` or `4`.
    ///
    /// ```
    /// use astar_grid::grid::Neighbourhood;
    ///
    /// assert_eq!("8cut".parse(), Ok(Neighbourhood::EightCutCorners));
    /// assert_eq!(Neighbourhood::Four.to_string(), "4");
    /// assert_eq!(Neighbourhood::Eight.next(), Neighbourhood::EightCutCorners);
    /// ```
    fn from_str(s: &str) -> Result<Self, String> {
        Self::from_name(s)
            .ok_or_else(|| format!("{s:?} is not a neighbourhood: use {}", Self::NAMES))
    }
}

/// Connected regions of passable cells, labelled once per grid revision.
///
/// 8-way movement without corner cutting connects exactly the cells that 4-way movement
/// connects (any legal diagonal can be replaced by two straight steps), so one 4-connected
/// labelling answers both; corner cutting needs its own 8-connected labelling.
///
/// ```
/// use astar_grid::grid::{Grid, Neighbourhood, Regions};
///
/// let grid = Grid::from_rows(&["..#...", ".#....", "#....."]);
/// let apart = Regions::compute(&grid, Neighbourhood::Eight);
/// assert_eq!(apart.count(), 2);
/// assert_ne!(apart.label(0), apart.label(3));
/// assert_eq!(apart.size(apart.largest().unwrap()), 12);
/// // Cutting corners joins the top-left corner to the rest through the diagonal gap.
/// let joined = Regions::compute(&grid, Neighbourhood::EightCutCorners);
/// assert_eq!(joined.count(), 1);
/// assert_eq!(joined.label(2), Regions::NONE, "walls have no region");
/// ```
#[derive(Debug, Clone, Default)]
pub struct Regions {
    labels: Vec<u32>,
    sizes: Vec<u32>,
}

impl Regions {
    /// Label value of impassable cells.
    pub const NONE: u32 = u32::MAX;

    /// Labels the grid's passable cells by connectivity under `rule`.
    pub fn compute(grid: &Grid, rule: Neighbourhood) -> Self {
        let mut labels = vec![Self::NONE; grid.len()];
        let mut sizes = Vec::new();
        let mut stack = Vec::new();
        let dirs: &[(i32, i32)] = if rule == Neighbourhood::EightCutCorners {
            &DIRECTIONS
        } else {
            &DIRECTIONS[..4]
        };
        for start in 0..grid.len() {
            if labels[start] != Self::NONE || !grid.tiles[start].is_passable() {
                continue;
            }
            let label = sizes.len() as u32;
            let mut size = 0u32;
            labels[start] = label;
            stack.push(start);
            while let Some(c) = stack.pop() {
                size += 1;
                let p = grid.pos(c);
                for &(dx, dy) in dirs {
                    if let Some(n) = grid.index(p.offset(dx, dy))
                        && labels[n] == Self::NONE
                        && grid.tiles[n].is_passable()
                    {
                        labels[n] = label;
                        stack.push(n);
                    }
                }
            }
            sizes.push(size);
        }
        Self { labels, sizes }
    }

    /// The region label of a cell index, or [`Regions::NONE`] for impassable cells.
    pub fn label(&self, index: usize) -> u32 {
        self.labels.get(index).copied().unwrap_or(Self::NONE)
    }

    /// All labels, indexed by cell.
    pub fn labels(&self) -> &[u32] {
        &self.labels
    }

    /// Number of cells in a region.
    pub fn size(&self, label: u32) -> u32 {
        self.sizes.get(label as usize).copied().unwrap_or(0)
    }

    /// Number of regions.
    pub fn count(&self) -> usize {
        self.sizes.len()
    }

    /// The label of the largest region, if any cell is passable.
    pub fn largest(&self) -> Option<u32> {
        (0..self.sizes.len() as u32).max_by_key(|&l| (self.sizes[l as usize], std::cmp::Reverse(l)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(rows: &[&str]) -> Grid {
        Grid::from_rows(rows)
    }

    #[test]
    fn rows_of_text_pad_with_void() {
        let g = Grid::from_rows(&["#.", " "]);
        assert_eq!((g.width(), g.height()), (2, 2));
        assert_eq!(g.tiles(), [Tile::Wall, Tile::Floor, Tile::Void, Tile::Void]);
    }

    #[test]
    fn diagonal_past_a_corner_is_refused_without_corner_cutting() {
        let g = grid(&["..", "#."]);
        let from = Pos::new(0, 0);
        assert!(!g.can_step(from, 1, 1, Neighbourhood::Eight));
        assert!(g.can_step(from, 1, 1, Neighbourhood::EightCutCorners));
        assert!(!g.can_step(from, 1, 1, Neighbourhood::Four));
        assert!(g.can_step(from, 1, 0, Neighbourhood::Four));
        let open = grid(&["..", ".."]);
        assert!(open.can_step(from, 1, 1, Neighbourhood::Eight));
    }

    #[test]
    fn regions_split_by_a_diagonal_gap_only_when_corners_cannot_be_cut() {
        let g = grid(&[".#", "#."]);
        let four = Regions::compute(&g, Neighbourhood::Eight);
        assert_eq!(four.count(), 2);
        assert_ne!(four.label(0), four.label(3));
        let cut = Regions::compute(&g, Neighbourhood::EightCutCorners);
        assert_eq!(cut.count(), 1);
        assert_eq!(cut.size(cut.label(0)), 2);
    }

    #[test]
    fn set_changes_the_revision_only_on_change() {
        let mut g = Grid::new(3, 3, Tile::Floor);
        let r = g.revision();
        assert!(!g.set(Pos::new(1, 1), Tile::Floor));
        assert_eq!(g.revision(), r);
        assert!(g.set(Pos::new(1, 1), Tile::Wall));
        assert_ne!(g.revision(), r);
        assert!(!g.set(Pos::new(5, 1), Tile::Wall));
    }
}
