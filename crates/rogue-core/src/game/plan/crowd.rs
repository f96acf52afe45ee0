//! Crowds: the monsters heading for the player by plain searches, grouped by table of costs
//! and movement rule. A crowd whose searches were measured to cost more than a map shares
//! one Dijkstra map from the player (see [`Crowd`]); the others take guides (see
//! [`guide`](super::guide)). Which crowd each monster is in is worked out once a plan of
//! everyone ([`Census`]) and read by the maps, the guides and the measure alike.

use crate::content::kinds::CostTable;
use crate::engine::grid::Neighbourhood;

/// The fewest enterable cells of a grid on which crowds share maps: on smaller ones a
/// turn's searches take a few milliseconds anyway, and each monster keeps its own search.
pub(super) const CROWD_CELLS_MIN: u64 = 1 << 16;

/// A crowd: the table of costs and the movement rule its monsters search with.
pub(super) type Key = (CostTable, Neighbourhood);

/// The crowd of each monster (by index), and the crowds with how many each has, in the order
/// their first monster comes.
pub(super) struct Census {
    pub(super) keys: Vec<Option<Key>>,
    pub(super) counts: Vec<(Key, usize)>,
}

/// Many monsters of one table of costs and one movement rule heading for the player by
/// plain searches: each search is exact, so one Dijkstra map from the player (its cost is
/// the cells of the player's region, however many monsters) gives every one of them a
/// cheapest path by stepping downhill, as its own search would (ties aside). The map is
/// used once the crowd's own searches were measured to expand more nodes than a map of
/// the whole grid has cells; the figures stay until the crowd thins out below its least.
#[derive(Debug, Clone)]
pub(super) struct Crowd {
    pub(super) table: CostTable,
    pub(super) rule: Neighbourhood,
    /// Nodes the crowd's searches expanded the last time they ran.
    pub(super) searched: u64,
    /// Cells a map of the grid would cover at most: its enterable cells.
    pub(super) cells: u64,
}

impl Crowd {
    pub(super) fn mapped(&self) -> bool {
        self.cells >= CROWD_CELLS_MIN && self.searched > self.cells
    }
}
