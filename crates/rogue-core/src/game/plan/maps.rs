//! Dijkstra maps toward the player, one per table of costs and movement rule: the maps of
//! [`Planning::Map`] and those of the crowds that share one (see
//! [`Crowd`](super::crowd::Crowd)). They are kept from turn to turn: one made for the player's cell
//! on the map as it stands is used again as it is (a waiting turn, a switch of planning),
//! and one made for another cell or revision is made again in the same buffers, which on a
//! 1024x1024 map spares each map a few megabytes of fresh pages.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use super::{Monster, Planner, Planning, grid_of, searched_as};
use crate::content::kinds::{self, CostTable};
use crate::content::map::TileMap;
use crate::engine::astar::{SearchOptions, Status};
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
                map.compute_to(grid_of(grid, &m.table), player, m.rule);
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

impl Planner {
    /// The shared Dijkstra map a kind of monster rolls down on, while the monsters plan by
    /// maps.
    fn map_for(&self, table: &CostTable, rule: Neighbourhood) -> Option<&DistanceMap> {
        self.maps.get(table, rule)
    }

    /// Every monster steps downhill on one Dijkstra map from `goal` for its kind's costs and
    /// moves: one search for all the monsters of a kind, however many.
    pub(super) fn plan_by_map(
        &mut self,
        grid: &TileMap,
        goal: Pos,
        options: SearchOptions,
        monsters: &mut [Monster],
    ) {
        let kinds: Vec<char> = monsters.iter().map(|m| m.kind).collect();
        self.make_maps(grid, goal, options, &kinds);
        self.trace = None;
        for m in monsters.iter_mut() {
            self.step_or_search(grid, goal, options, m);
        }
    }

    /// The Dijkstra maps from `goal` of every table of costs and movement rule among
    /// `kinds`, on the map as it stands (those already made for it are kept).
    pub(super) fn make_maps(
        &mut self,
        grid: &TileMap,
        goal: Pos,
        options: SearchOptions,
        kinds: &[char],
    ) {
        let mut seen: Vec<char> = Vec::with_capacity(kinds.len());
        for &kind in kinds {
            if !seen.contains(&kind) {
                seen.push(kind);
            }
        }
        self.map_kinds = seen;
        self.maps_made = grid.revision();
        // The player's costs first, under the game's moves: the map the view draws.
        let plain = grid.effective(kinds::Costs::PLAIN.table(grid.weights()));
        let mut wanted = vec![(plain, options.neighbourhood)];
        for &kind in &self.map_kinds {
            let (table, o) = searched_as(grid, kind, options);
            if !wanted.contains(&(table, o.neighbourhood)) {
                wanted.push((table, o.neighbourhood));
            }
        }
        // On every core: the first plan of a P press into map planning makes them all.
        let (crowds, guides) = (&self.crowd_maps, &self.guides);
        let made = |t: &CostTable, r| {
            crowds
                .fresh(grid, goal, t, r)
                .or_else(|| guides.own_map(grid, goal, t, r))
        };
        self.maps
            .make(grid, goal, &wanted, crate::game::cores(), made);
        self.stats.dijkstra_expanded = self.maps.expanded();
    }

    /// [`Planner::step_by_map`] for a monster heading for the player, an A* of its own for
    /// one a lure holds (the maps lead to the player).
    pub(super) fn step_or_search(
        &mut self,
        grid: &TileMap,
        player: Pos,
        options: SearchOptions,
        m: &mut Monster,
    ) {
        let goal = self.goal_for(m.pos, player);
        if goal == player {
            self.step_by_map(grid, player, options, m);
        } else {
            self.search_one(grid, goal, options, m);
        }
    }

    /// A monster's plan by its map: one step downhill, and the map's cost from its cell.
    fn step_by_map(&self, grid: &TileMap, goal: Pos, options: SearchOptions, m: &mut Monster) {
        m.planned = (m.pos, goal);
        m.boxed = false;
        let (table, o) = searched_as(grid, m.kind, options);
        let plan = &mut m.plan;
        plan.path.clear();
        plan.expanded = 0;
        let Some(map) = self.map_for(&table, o.neighbourhood) else {
            plan.status = Status::Unreachable;
            plan.cost = None;
            return;
        };
        plan.cost = map.get(m.pos);
        match map.downhill(grid_of(grid, &table), m.pos, |_| true) {
            Some(step) => {
                plan.status = Status::Found;
                plan.path.extend([m.pos, step]);
            }
            None => plan.status = Status::Unreachable,
        }
    }

    /// The step a monster takes when its planned step is taken: for map planning, the best
    /// free cell downhill on its kind's map; else `None` (the rules then try an A* detour).
    pub fn map_detour(
        &self,
        grid: &TileMap,
        kind: char,
        options: SearchOptions,
        at: Pos,
        free: impl Fn(Pos) -> bool,
    ) -> Option<Pos> {
        if self.planning != Planning::Map {
            return None;
        }
        let (table, o) = searched_as(grid, kind, options);
        self.map_for(&table, o.neighbourhood)?
            .downhill(grid_of(grid, &table), at, free)
    }
}
