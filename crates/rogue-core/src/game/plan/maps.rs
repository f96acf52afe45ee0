//! Dijkstra maps toward the player, one per table of costs and movement rule: the maps of
//! map planning and those of the crowds that share one (see
//! crowds). They are kept from turn to turn: one made for the player's cell
//! on the map as it stands is used again as it is (a waiting turn, a switch of planning),
//! and one made for another cell or revision is made again in the same buffers, which on a
//! 1024x1024 map spares each map a few megabytes of fresh pages.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use crate::content::kinds::CostTable;
use crate::content::map::TileMap;
use crate::engine::dijkstra::DistanceMap;
use crate::engine::grid::{Neighbourhood, Pos};

/// The map toward the player of one table of costs under one movement rule.
#[derive(Debug, Clone)]
struct TableMap {
    table: CostTable,
    rule: Neighbourhood,
    /// The player's cell and the map's revision it was made for; `None` while its buffers
    /// wait to be filled.
    made: Option<(Pos, u64)>,
    /// Shared with the world's clones; a clone's next turn that must remake it makes its own.
    map: Arc<DistanceMap>,
}

/// The maps of a set of (table of costs, movement rule), in the order asked for.
#[derive(Debug, Clone, Default)]
pub(super) struct Maps(Vec<TableMap>);

impl Maps {
    /// No maps.
    pub(super) const EMPTY: Maps = Maps(Vec::new());

    /// The map of `table` under `rule`, if one was made.
    pub(super) fn get(&self, table: &CostTable, rule: Neighbourhood) -> Option<&DistanceMap> {
        self.0
            .iter()
            .find(|m| m.table == *table && m.rule == rule)
            .map(|m| &*m.map)
    }

    /// The first map asked for.
    pub(super) fn first(&self) -> Option<&DistanceMap> {
        self.0.first().map(|m| &*m.map)
    }

    /// Cells the maps settled, together.
    pub(super) fn expanded(&self) -> u64 {
        self.0.iter().map(|m| u64::from(m.map.expanded())).sum()
    }

    /// The map of `table` under `rule`, if it was made for the player at `player` on the
    /// map as it stands.
    pub(super) fn fresh(
        &self,
        grid: &TileMap,
        player: Pos,
        table: &CostTable,
        rule: Neighbourhood,
    ) -> Option<Arc<DistanceMap>> {
        self.0
            .iter()
            .find(|m| {
                m.table == *table && m.rule == rule && m.made == Some((player, grid.revision()))
            })
            .map(|m| Arc::clone(&m.map))
    }

    /// How many maps there are.
    pub(super) fn len(&self) -> usize {
        self.0.len()
    }

    /// Makes the maps toward `player` of `wanted` (no key twice) on up to `threads`
    /// threads, keeping those made for that cell on the map as it stands, taking those that
    /// `made` has (maps of a table and rule made for that cell on the map as it stands
    /// elsewhere) and dropping those not wanted.
    pub(super) fn make(
        &mut self,
        grid: &TileMap,
        player: Pos,
        wanted: &[(CostTable, Neighbourhood)],
        threads: usize,
        made: impl Fn(&CostTable, Neighbourhood) -> Option<Arc<DistanceMap>>,
    ) {
        let mut old = std::mem::take(&mut self.0);
        let mut maps: Vec<Option<TableMap>> = wanted
            .iter()
            .map(|&(table, rule)| {
                let i = old
                    .iter()
                    .position(|m| m.table == table && m.rule == rule)?;
                Some(old.swap_remove(i))
            })
            .collect();
        // A key new this turn fills the buffers of one no longer wanted.
        for (slot, &(table, rule)) in maps.iter_mut().zip(wanted) {
            if slot.is_none() {
                let map = old.pop().map_or_else(Arc::default, |m| m.map);
                *slot = Some(TableMap {
                    table,
                    rule,
                    made: None,
                    map,
                });
            }
        }
        self.0 = maps.into_iter().flatten().collect();
        let now = Some((player, grid.revision()));
        for m in self.0.iter_mut().filter(|m| m.made != now) {
            if let Some(map) = made(&m.table, m.rule) {
                (m.map, m.made) = (map, now);
            }
        }
        let stale: Vec<Mutex<&mut TableMap>> = self
            .0
            .iter_mut()
            .filter(|m| m.made != now)
            .map(Mutex::new)
            .collect();
        let next = AtomicUsize::new(0);
        let work = || {
            while let Some(slot) = stale.get(next.fetch_add(1, Ordering::Relaxed)) {
                // Each map is taken by one thread: the lock is never contended, and only a
                // panic (a bug, passed on by the scope) could poison it.
                let mut m = slot.lock().unwrap_or_else(|p| p.into_inner());
                let m = &mut **m;
                if Arc::get_mut(&mut m.map).is_none() {
                    m.map = Arc::default();
                }
                let map = Arc::get_mut(&mut m.map).expect("just made its own");
                let own = grid.grid_for(&m.table).unwrap_or_else(|| grid.cost_grid());
                map.compute_to(own, player, m.rule);
                m.made = now;
            }
        };
        std::thread::scope(|scope| {
            for _ in 1..threads.min(stale.len()) {
                scope.spawn(work);
            }
            work();
        });
    }
}

/// The cores to plan on, read once: the standard library reads cgroup files every time.
pub(crate) fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, usize::from))
}
