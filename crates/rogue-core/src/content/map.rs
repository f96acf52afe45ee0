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

use crate::content::kinds::own::Kinds;
use crate::content::kinds::{CostTable, Costs, Kind, Search};
use crate::engine::grid::{Grid, Neighbourhood, Pos};

pub use super::tile::{TerrainWeights, Tile};

/// A rectangular map of tiles stored row-major in one `Vec`, with the weight of each terrain
/// and the engine's grids of costs that follow them: the player's (and plain monsters'), and
/// one per [`CostTable`] a kind of monster searches with, each kept equal to the tiles on
/// every change.
#[derive(Debug, Clone)]
pub struct TileMap {
    tiles: Vec<Tile>,
    weights: TerrainWeights,
    /// The cost of entering each cell for the player ([`Costs::PLAIN`] under `weights`):
    /// what the player's searches and every plain monster's read. Its revision is the
    /// map's.
    grid: Grid,
    /// The grids of other cost tables, made on demand ([`TileMap::add_view`]).
    views: Vec<(CostTable, Grid)>,
    /// How many cells of each tile there are, in [`Tile::ALL`] order.
    census: [usize; Tile::COUNT],
    /// What its monster letters stand for: the game's kinds and its level's own. They
    /// belong with the map as its terrain weights do: both say what moving on it costs.
    kinds: Kinds,
}

impl PartialEq for TileMap {
    fn eq(&self, other: &Self) -> bool {
        self.width() == other.width()
            && self.height() == other.height()
            && self.weights == other.weights
            && self.tiles == other.tiles
            && self.kinds == other.kinds
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
        let table = Costs::PLAIN.table(weights);
        let grid = Self::grid_of(width, height, &tiles, &table);
        let mut census = [0; Tile::COUNT];
        for &t in &tiles {
            census[t as usize] += 1;
        }
        Self {
            tiles,
            weights,
            grid,
            views: Vec::new(),
            census,
            kinds: Kinds::default(),
        }
    }

    /// The engine's grid of `tiles` under `table`.
    pub(crate) fn grid_of(width: usize, height: usize, tiles: &[Tile], table: &CostTable) -> Grid {
        // Row by row, each tile's cost looked up once per table: asking `on_edge` of every
        // cell (two divisions each) was most of a kind's grid on a 1024x1024 map.
        let inner = Tile::ALL.map(|t| table.get(t, false));
        let edge = Tile::ALL.map(|t| table.get(t, true));
        let mut costs = Vec::with_capacity(tiles.len());
        for (y, row) in tiles.chunks(width.max(1)).enumerate() {
            let look = if y == 0 || y + 1 == height {
                &edge
            } else {
                &inner
            };
            let start = costs.len();
            costs.extend(row.iter().map(|&t| look[t as usize]));
            if let (Some(&first), Some(&last)) = (row.first(), row.last()) {
                costs[start] = edge[first as usize];
                costs[start + row.len() - 1] = edge[last as usize];
            }
        }
        Grid::from_costs(width, height, costs).expect("a map the size of the engine's grids")
    }

    /// A map from rows of text: `#` wall, space void, `~` water, `"` brush, `+` closed door,
    /// `'` open door, anything else floor; short rows are padded with void. Handy for tests
    /// and examples.
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
                '+' => Tile::DoorClosed,
                '\'' => Tile::DoorOpen,
                '=' => Tile::DoorJammed,
                _ => Tile::Floor,
            }));
            tiles.resize(start + width, Tile::Void);
        }
        Self::from_tiles(width, rows.len(), tiles)
    }

    /// Keeps a grid of `table`'s costs beside the player's from now on (it is cloned and
    /// changed with the map); returns where [`TileMap::view`] finds it.
    pub fn add_view(&mut self, table: CostTable) -> usize {
        if let Some(i) = self.views.iter().position(|(t, _)| *t == table) {
            return i;
        }
        let grid = Self::grid_of(self.width(), self.height(), &self.tiles, &table);
        self.views.push((table, grid));
        self.views.len() - 1
    }

    /// The grid of `table`'s costs on the map as it stands, for [`TileMap::keep_view`]:
    /// [`TileMap::add_view`] in two steps, so that the grids of several tables can be made
    /// while something else reads the map.
    pub(crate) fn view_of(&self, table: &CostTable) -> Grid {
        Self::grid_of(self.width(), self.height(), &self.tiles, table)
    }

    /// Keeps `grid`, made by [`TileMap::view_of`] on the map as it stands, as the grid of
    /// `table` (see [`TileMap::add_view`]).
    pub(crate) fn keep_view(&mut self, table: CostTable, grid: Grid) {
        debug_assert!(
            grid == self.view_of(&table),
            "a view made on the map as it stands"
        );
        if self.view(&table).is_none() {
            self.views.push((table, grid));
        }
    }

    /// The grid of a cost table kept by [`TileMap::add_view`], if it is kept.
    pub fn view(&self, table: &CostTable) -> Option<&Grid> {
        self.views.iter().find(|(t, _)| t == table).map(|(_, g)| g)
    }

    /// The grid of a cost table: the player's when the table is theirs, else one kept by
    /// [`TileMap::add_view`]; `None` when neither.
    pub fn grid_for(&self, table: &CostTable) -> Option<&Grid> {
        if self.effective(*table) == self.effective(Costs::PLAIN.table(self.weights)) {
            Some(&self.grid)
        } else {
            self.view(table)
        }
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

    /// Whether a creature may stand at a position by walking there (not a wall, void or a
    /// closed door).
    pub fn is_passable(&self, p: Pos) -> bool {
        self.get(p).is_passable()
    }

    /// Sets a tile; returns whether anything changed. Positions outside are ignored. Every
    /// grid of costs follows, by the one cell.
    pub fn set(&mut self, p: Pos, tile: Tile) -> bool {
        match self.index(p) {
            Some(i) if self.tiles[i] != tile => {
                self.census[self.tiles[i] as usize] -= 1;
                self.census[tile as usize] += 1;
                self.tiles[i] = tile;
                let edge = on_edge(i, self.width(), self.height());
                let plain = Costs::PLAIN.table(self.weights);
                self.grid.set(p, plain.get(tile, edge));
                for (table, grid) in &mut self.views {
                    grid.set(p, table.get(tile, edge));
                }
                true
            }
            _ => false,
        }
    }

    /// `table` with the costs of the tiles this map does not have left out (set to 0): it
    /// makes the same grid here, so kinds that differ only on such tiles (a door-shy rat
    /// and a goblin on a map without doors) share one grid, one set of pathfinders and one
    /// Dijkstra map.
    pub fn effective(&self, table: CostTable) -> CostTable {
        let mut t = table;
        for tile in Tile::ALL {
            if self.count(tile) == 0 {
                t.0[tile as usize] = 0;
            }
        }
        t
    }

    /// Whether `search` searches this map as plain A* does at the player's costs: the same
    /// moves, no weight, no cap, and the same cost for every tile the map has.
    pub fn searches_plainly(&self, search: &Search) -> bool {
        let plain = Search::PLAIN;
        let table = |s: &Search| self.effective(s.costs.table(self.weights));
        (search.moves, search.weight_millis, search.cap)
            == (plain.moves, plain.weight_millis, plain.cap)
            && table(search) == table(&plain)
    }

    /// How many cells of `tile` the map has.
    pub fn count(&self, tile: Tile) -> usize {
        self.census[tile as usize]
    }

    /// Whether a cell is on the map's outer edge (where nobody digs).
    pub fn is_edge(&self, p: Pos) -> bool {
        self.index(p)
            .is_some_and(|i| on_edge(i, self.width(), self.height()))
    }

    /// What its monster letters stand for.
    pub fn kinds(&self) -> &Kinds {
        &self.kinds
    }

    /// The kind a monster letter stands for on this map.
    pub fn kind(&self, glyph: char) -> Kind {
        self.kinds.get(glyph)
    }

    /// The same map with these kinds.
    pub fn with_kinds(mut self, kinds: Kinds) -> Self {
        self.kinds = kinds;
        self
    }

    /// Sets what its monster letters stand for.
    pub fn set_kinds(&mut self, kinds: Kinds) {
        self.kinds = kinds;
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

    /// The weight of the cell at `p` for the player: what a step entering it multiplies its
    /// base cost by (0 for walls, void and outside; a closed door's is opening and entering).
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

/// Whether cell `i` of a `width`x`height` map lies on its outer edge.
fn on_edge(i: usize, width: usize, height: usize) -> bool {
    let (x, y) = (i % width.max(1), i / width.max(1));
    x == 0 || y == 0 || x + 1 == width || y + 1 == height
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::kinds::builtin as kind;

    proptest::proptest! {
        /// A kind's grid, made row by row, is its table's cost of each cell's tile, with the
        /// map's edge told apart (no digging out of the map), on maps of any shape.
        #[test]
        fn a_table_s_grid_costs_each_tile_as_the_table_says(
            w in 1usize..7,
            tiles in proptest::collection::vec(0usize..Tile::COUNT, 1..42),
            costs in proptest::array::uniform8(0u8..9),
        ) {
            let h = tiles.len().div_ceil(w);
            let mut tiles: Vec<Tile> = tiles.iter().map(|&t| Tile::ALL[t]).collect();
            tiles.resize(w * h, Tile::Wall);
            let table = CostTable(costs);
            let grid = TileMap::grid_of(w, h, &tiles, &table);
            let each: Vec<u8> = (0..w * h).map(|i| table.get(tiles[i], on_edge(i, w, h))).collect();
            proptest::prop_assert_eq!(grid.costs(), &each[..]);
        }
    }

    #[test]
    fn every_view_follows_every_change() {
        let mut map = TileMap::from_rows(&["#####", "#.+~#", "#.#.#", "#####"]);
        let dwarf = kind('d').search.costs.table(map.weights());
        let rat = kind('r').search.costs.table(map.weights());
        let (d, r) = (map.add_view(dwarf), map.add_view(rat));
        assert_ne!(d, r);
        assert_eq!(map.add_view(dwarf), d, "one grid a table");
        let at = |map: &TileMap, t: &CostTable, x, y| map.grid_for(t).unwrap().cost(Pos::new(x, y));
        assert_eq!(
            (at(&map, &dwarf, 2, 2), at(&map, &dwarf, 0, 1)),
            (6, 0),
            "no digging the edge"
        );
        assert_eq!(
            (at(&map, &rat, 2, 1), map.cost_grid().cost(Pos::new(2, 1))),
            (0, 2)
        );
        map.set(Pos::new(2, 1), Tile::DoorOpen);
        map.set(Pos::new(2, 2), Tile::Floor);
        assert_eq!((at(&map, &rat, 2, 1), at(&map, &dwarf, 2, 2)), (1, 1));
        let fresh = |t: &CostTable| TileMap::grid_of(map.width(), map.height(), map.tiles(), t);
        assert_eq!(map.grid_for(&dwarf), Some(&fresh(&dwarf)));
        assert_eq!(map.grid_for(&rat), Some(&fresh(&rat)));
    }
}
