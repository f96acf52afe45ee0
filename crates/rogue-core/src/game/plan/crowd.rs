//! Crowds: the monsters heading for the player by plain searches, grouped by table of costs
//! and movement rule. A crowd whose searches were measured to cost more than a map shares
//! one Dijkstra map from the player (see [`Crowd`]); the others take guides (see
//! [`guide`](super::guide)). Which crowd each monster is in is worked out once a plan of
//! everyone ([`Census`]) and read by the maps, the guides and the measure alike.

use std::sync::Arc;

#[cfg(test)]
use super::grid_of;
#[cfg(test)]
use super::guide::{Guidance, Toward};
use super::{CROWD_CELLS_MIN, CROWD_MIN, GUIDE_MIN, Monster, Planner, is_exact_plain, searched_as};
use crate::content::kinds::{self, CostTable};
use crate::content::map::TileMap;
use crate::engine::astar::SearchOptions;
use crate::engine::grid::{Neighbourhood, Pos};

/// A crowd: the table of costs and the movement rule its monsters search with.
pub(super) type Key = (CostTable, Neighbourhood);

/// The crowd of each monster (by index), and the crowds with how many each has, in the order
/// their first monster comes.
pub(super) struct Census {
    keys: Vec<Option<Key>>,
    counts: Vec<(Key, usize)>,
}

/// Many monsters of one table of costs and one movement rule heading for the player by
/// plain searches: each search is exact, so one Dijkstra map from the player (its cost is
/// the cells of the player's region, however many monsters) gives every one of them a
/// cheapest path by stepping downhill, as its own search would (ties aside). The map is
/// used once the crowd's own searches were measured to expand more nodes than a map of
/// the whole grid has cells; the figures stay until the crowd thins out below its least.
#[derive(Debug, Clone)]
pub(super) struct Crowd {
    table: CostTable,
    rule: Neighbourhood,
    /// Nodes the crowd's searches expanded the last time they ran.
    searched: u64,
    /// Cells a map of the grid would cover at most: its enterable cells.
    cells: u64,
}

impl Crowd {
    pub(super) fn mapped(&self) -> bool {
        self.cells >= CROWD_CELLS_MIN && self.searched > self.cells
    }
}

impl Planner {
    /// The crowd a monster belongs to under `options` (the planning mode's): its table of
    /// costs and movement rule, if it heads for the player by a plain search.
    fn crowd_of(
        &self,
        grid: &TileMap,
        player: Pos,
        options: SearchOptions,
        m: &Monster,
    ) -> Option<Key> {
        let (table, o) = searched_as(grid, m.kind, options);
        let plain = is_exact_plain(&o);
        (plain && self.traced != Some(m.id) && self.goal_for(m.pos, player) == player)
            .then_some((table, o.neighbourhood))
    }

    /// Which crowd each monster is in, and how many each crowd has.
    pub(super) fn census(
        &self,
        grid: &TileMap,
        player: Pos,
        options: SearchOptions,
        monsters: &[Monster],
    ) -> Census {
        let keys: Vec<Option<Key>> = monsters
            .iter()
            .map(|m| self.crowd_of(grid, player, options, m))
            .collect();
        let mut counts: Vec<(Key, usize)> = Vec::new();
        for key in keys.iter().flatten() {
            match counts.iter_mut().find(|(k, _)| k == key) {
                Some((_, n)) => *n += 1,
                None => counts.push((*key, 1)),
            }
        }
        Census { keys, counts }
    }

    /// The tables of costs and movement rules of the monsters that run searches of their
    /// own this plan (neither down a crowd's map nor by a guide), each once.
    pub(super) fn searching(
        &self,
        grid: &TileMap,
        player: Pos,
        (options, guided): (SearchOptions, bool),
        monsters: &[Monster],
        census: Option<&Census>,
    ) -> Vec<Key> {
        let mut searching: Vec<Key> = Vec::new();
        for (i, m) in monsters.iter().enumerate() {
            let key = census.and_then(|c| c.keys[i]);
            let served = key.is_some_and(|(t, r)| {
                self.crowd_maps.get(&t, r).is_some()
                    || guided && self.guides.of(grid, player, &t, r).is_some()
            });
            let (table, o) = searched_as(grid, m.kind, options);
            if !served && !searching.contains(&(table, o.neighbourhood)) {
                searching.push((table, o.neighbourhood));
            }
        }
        searching
    }

    /// Makes (or keeps) the Dijkstra maps from the player of this turn's mapped crowds, on
    /// up to `threads` threads; their work joins the turn's.
    pub(super) fn make_crowd_maps(
        &mut self,
        grid: &TileMap,
        player: Pos,
        census: &Census,
        threads: usize,
    ) {
        let least = self.crowd_forced.unwrap_or(CROWD_MIN);
        let wanted: Vec<Key> = census
            .counts
            .iter()
            .filter(|&&((table, rule), n)| {
                n >= least
                    && (self.crowd_forced.is_some()
                        || self
                            .crowds
                            .iter()
                            .any(|c| c.table == table && c.rule == rule && c.mapped()))
            })
            .map(|&(key, _)| key)
            .collect();
        let (maps, guides) = (&self.maps, &self.guides);
        let made = |t: &CostTable, r| {
            maps.fresh(grid, player, t, r)
                .or_else(|| guides.own_map(grid, player, t, r))
        };
        self.crowd_maps.make(grid, player, &wanted, threads, made);
        // Counted whether made or kept, as when every turn made them: the figures are the
        // work of a plan of everyone, not of this planner's caches.
        self.stats.astar_expanded += self.crowd_maps.expanded();
        self.stats.searches += self.crowd_maps.len() as u32;
    }

    /// Makes (or keeps, while the player stands near where they were made and the ground is
    /// the same) the guides of the plain searches toward the player that no crowd map
    /// serves, on maps of at least [`CROWD_CELLS_MIN`] enterable cells; returns whether they
    /// serve this plan. Their maps' work joins the turn's when they are made.
    pub(super) fn make_guides(
        &mut self,
        grid: &TileMap,
        player: Pos,
        census: &Census,
        threads: usize,
    ) -> bool {
        let plain = grid.effective(kinds::Costs::PLAIN.table(grid.weights()));
        if !self.guides_forced && self.enterable(grid, &plain) < CROWD_CELLS_MIN {
            return false;
        }
        let wanted: Vec<(Key, usize)> = census
            .counts
            .iter()
            .filter(|((t, r), _)| self.crowd_maps.get(t, *r).is_none())
            .copied()
            .collect();
        if let Some((guides, settled)) = self.guides.make(grid, player, &wanted, GUIDE_MIN, threads)
        {
            self.stats.astar_expanded += settled;
            self.stats.searches += guides.len() as u32;
            self.guides = Arc::new(guides);
        }
        self.guides.fresh(grid)
    }

    /// Records what the crowds that searched this turn cost, so that the next turn knows
    /// which would be better served by a map; a crowd too thin to map is forgotten.
    pub(super) fn measure_crowds(&mut self, grid: &TileMap, census: &Census, monsters: &[Monster]) {
        let counts = &census.counts;
        self.crowds.retain(|c| {
            counts
                .iter()
                .any(|&(k, n)| k == (c.table, c.rule) && n >= CROWD_MIN)
        });
        let mut searched = vec![0u64; counts.len()];
        for (key, m) in census.keys.iter().zip(monsters) {
            if let Some(i) = key.and_then(|key| counts.iter().position(|(k, _)| *k == key)) {
                searched[i] += u64::from(m.plan.expanded);
            }
        }
        for (&((table, rule), n), searched) in counts.iter().zip(searched) {
            if n < CROWD_MIN || self.crowd_maps.get(&table, rule).is_some() {
                continue;
            }
            let cells = self.enterable(grid, &table);
            let crowd = Crowd {
                table,
                rule,
                searched,
                cells,
            };
            match self
                .crowds
                .iter_mut()
                .find(|c| c.table == table && c.rule == rule)
            {
                Some(c) => *c = crowd,
                None => self.crowds.push(crowd),
            }
        }
    }

    /// For tests: every crowd of at least `least` monsters shares a map from the next plan
    /// on, whatever its searches cost (`None`: as the game decides).
    #[cfg(test)]
    pub(crate) fn force_crowds(&mut self, least: Option<usize>) {
        self.crowd_forced = least;
    }

    /// For tests: the estimate the guides give a monster of `kind` heading for the player at
    /// `player` at every cell, row-major, if they serve its search.
    #[cfg(test)]
    pub(crate) fn guide_estimates(
        &self,
        grid: &TileMap,
        player: Pos,
        options: SearchOptions,
        kind: char,
    ) -> Option<Vec<u32>> {
        let (table, o) = searched_as(grid, kind, self.searched_with(options));
        if !is_exact_plain(&o) {
            return None;
        }
        let (map, offset) = match self.guides.of(grid, player, &table, o.neighbourhood)? {
            Guidance::Own(map) => (map, 0),
            Guidance::Estimate(map, offset) => (map, offset),
        };
        use crate::engine::astar::Target as _;
        let toward = Toward {
            player,
            map,
            offset,
        };
        let g = grid_of(grid, &table);
        Some((0..g.len()).map(|i| toward.estimate(g, g.pos(i))).collect())
    }

    /// For tests: guides serve the plain searches toward the player on maps of any size
    /// from the next plan on (`false`: only on big maps, as the game decides).
    #[cfg(test)]
    pub(crate) fn force_guides(&mut self, forced: bool) {
        self.guides_forced = forced;
    }
}
