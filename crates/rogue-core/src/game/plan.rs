//! Planning: every monster's A* toward the player, on several cores when there are many,
//! the detours around other monsters, and the recorded search of the one monster the
//! overlay shows. The rules in [`World`](super::World) decide what to do with the plans.
//!
//! Each monster searches as its kind does ([`kinds::Search`]): its moves, its weight on H,
//! its cap, and the map's grid of its kind's costs ([`TileMap::grid_for`]). Kinds that share
//! a table of costs share a grid, and each grid has its own pathfinders (one per planning
//! thread), whose copies of that grid stay warm from turn to turn. On big maps the plain
//! searches toward the player take a Dijkstra map from the player as their estimate (see
//! [`guide`]), which leaves each plan a cheapest path for its kind's costs.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use super::creature::Monster;
use super::tools::goal_of;
use crate::content::kinds::{self, CostTable, Speed};
use crate::content::map::TileMap;
use crate::engine::astar::{
    Algorithm, Fallback, Pathfinder, Query, SearchOptions, SearchResult, Status, Ties, Trace,
    Weight,
};
use crate::engine::dijkstra::DistanceMap;
use crate::engine::grid::{Grid, Neighbourhood, Pos, Regions};
use chunk::Nearest;
pub use chunk::boxed_in;
use chunk::plan_from;
use crowd::{CROWD_CELLS_MIN, Census, Crowd, Key};
#[cfg(test)]
use guide::Toward;
use guide::{Guidance, Guides};
use maps::{Maps, cores};
use std::sync::Mutex;

mod chunk;
mod crowd;
mod guide;
pub(super) mod maps;

/// How the monsters decide their moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Planning {
    /// Every monster runs its own full A* to the player, every turn (the game's rule). On
    /// maps of 65,536 enterable cells or more, a plain one (weight 1, uncapped) heading for
    /// the player estimates by a guide's Dijkstra map instead of the octile distance.
    #[default]
    AStar,
    /// Every monster runs A* capped at this many expansions; a capped one heads for the
    /// node nearest the player (by H) that its search reached.
    Capped(u32),
    /// One reverse Dijkstra map from the player for everyone, each monster stepping
    /// downhill on it (Brogue's way): one search a turn however many monsters hunt.
    Map,
    /// Every monster runs its own Jump Point Search to the player, every turn: paths as
    /// short as A*'s (not always the same ones) for far fewer nodes. Where JPS does not apply
    /// (other moves or estimates than the game's, weighted terrain) the engine runs A*. On
    /// big maps the plain searches toward the player are guided A*, as under
    /// [`Planning::AStar`], which expand fewer nodes still.
    Jps,
}

impl Planning {
    /// The cap of [`Planning::Capped`] when none is given: the seeds' 5000.
    pub const DEFAULT_CAP: u32 = 5000;

    /// The modes in the order a key cycles them.
    pub const ALL: [Planning; 4] = [
        Planning::AStar,
        Planning::Capped(Planning::DEFAULT_CAP),
        Planning::Map,
        Planning::Jps,
    ];

    /// The next mode.
    pub fn next(self) -> Self {
        match self {
            Planning::AStar => Planning::Capped(Self::DEFAULT_CAP),
            Planning::Capped(_) => Planning::Map,
            Planning::Map => Planning::Jps,
            Planning::Jps => Planning::AStar,
        }
    }
}

impl std::fmt::Display for Planning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Planning::AStar => f.write_str("astar"),
            Planning::Capped(n) => write!(f, "capped:{n}"),
            Planning::Map => f.write_str("map"),
            Planning::Jps => f.write_str("jps"),
        }
    }
}

impl std::str::FromStr for Planning {
    type Err = String;

    /// Parses `astar`, `capped`, `capped:N`, `map` or `jps`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.split_once(':') {
            None if s == "astar" => Ok(Planning::AStar),
            None if s == "capped" => Ok(Planning::Capped(Self::DEFAULT_CAP)),
            None if s == "map" => Ok(Planning::Map),
            None if s == "jps" => Ok(Planning::Jps),
            Some(("capped", n)) => n
                .parse()
                .ok()
                .filter(|&n| n > 0)
                .map(Planning::Capped)
                .ok_or_else(|| format!("bad cap {n:?}: a number of expansions from 1")),
            _ => Err(format!(
                "{s:?} is not a planning mode: use astar, capped, capped:N, map or jps"
            )),
        }
    }
}

/// Monsters per planning thread below which spawning threads costs more than it saves.
pub(super) const PARALLEL_MIN_MONSTERS: usize = 16;

/// Pieces of work per planning thread: enough that one slow piece leaves the others time
/// to even out, few enough that a packed crowd of boxed-in monsters (no search each) is not
/// all locking.
const PIECES: usize = 64;

/// The fewest monsters a planning thread takes at a time.
const PIECE_MIN: usize = 4;

/// The fewest monsters of one table of costs and movement rule, all heading for the player
/// with a plain search (weight 1, uncapped), that may share one Dijkstra map from the
/// player instead of searching each (see [`Crowd`]): whether the map pays is measured; this
/// only keeps a lone monster or two on their own searches. On the default 1024x1024 cave
/// (seed 3, 40 monsters) the 17 rats' searches expand 1.1 M nodes a turn, the 5 kobolds'
/// 0.26 M; with 500 monsters the 88 kobolds' (4-way, so A* under JPS planning) 9.9 M.
const CROWD_MIN: usize = 4;

/// The fewest monsters of one group of alike kinds for which a guide is made (see
/// [`guide`]). One: on the default 1024x1024 caves a lone dwarf's or kobold's own search
/// (walls dear but enterable, or 4-way moves under the octile estimate) expands more than
/// its share of a guide; measured on seed 29, 24 ms a waiting turn with every group guided
/// against 168 ms with groups of 4 or more (one loaded run, the same binary otherwise).
const GUIDE_MIN: usize = 1;

/// Serials of recorded traces, from one counter for all planners, so that a view caching
/// what it derived from a trace never mistakes a new game's trace for an old one.
static NEXT_TRACE_SERIAL: AtomicU64 = AtomicU64::new(1);

/// Monsters planned so far by the latest [`Planner::plan_all`], and how many it plans: for
/// a front end to show progress while a long turn is computed on another thread. Each
/// planner has its own, shared with whoever holds [`World::progress`](crate::game::World::progress).
#[derive(Debug, Default)]
pub struct Progress {
    planned: AtomicUsize,
    planning: AtomicUsize,
}

impl Progress {
    /// (monsters planned so far, monsters to plan) of the latest plan of everyone.
    pub fn get(&self) -> (usize, usize) {
        (
            self.planned.load(Ordering::Relaxed),
            self.planning.load(Ordering::Relaxed),
        )
    }

    fn start(&self, monsters: usize) {
        self.planned.store(0, Ordering::Relaxed);
        self.planning.store(monsters, Ordering::Relaxed);
    }

    fn one_more(&self) {
        self.planned.fetch_add(1, Ordering::Relaxed);
    }
}

/// Search work of the latest turn, for the side panel.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TurnStats {
    /// Nodes expanded by every monster's searches together.
    pub astar_expanded: u64,
    /// Searches run.
    pub searches: u32,
    /// Nodes one reverse Dijkstra map from the player would expand (its reachable region).
    pub dijkstra_expanded: u64,
}

/// The engines and buffers that plan the monsters' moves, and the overlay's trace.
#[derive(Debug, Clone, Default)]
pub struct Planner {
    /// The pathfinders of each table of costs searched, one per planning thread (the
    /// first is the main thread's, which also makes every single search).
    engines: Vec<Engines>,
    scratch: SearchResult,
    /// The monster whose searches are recorded, if any.
    traced: Option<u32>,
    /// How far the latest plan of everyone is, for a front end's progress box.
    progress: Arc<Progress>,
    /// Its latest search.
    trace: Option<Trace>,
    /// Changes whenever `trace` is recorded anew.
    trace_serial: u64,
    /// Work of the latest turn.
    stats: TurnStats,
    /// How the monsters plan.
    planning: Planning,
    /// The shared maps of [`Planning::Map`], one per table of costs and movement rule
    /// among the monsters; the first the view draws.
    maps: Maps,
    /// The map's revision when the latest [`Planner::plan_all`] planned everyone.
    planned_on: Option<u64>,
    /// What each crowd of monsters sharing a table of costs cost to search, and whether a
    /// Dijkstra map serves it better (see [`Crowd`]).
    crowds: Vec<Crowd>,
    /// For tests: every crowd of at least this many shares a map, whatever its searches
    /// cost (by default, those of [`CROWD_MIN`] whose searches cost more than a map).
    crowd_forced: Option<usize>,
    /// The Dijkstra maps from the player of the crowds that share one (see [`Crowd`]).
    crowd_maps: Maps,
    /// The map's revision when `maps` were made.
    maps_made: u64,
    /// The kinds `maps` were made for.
    map_kinds: Vec<char>,
    /// Per monster (by index, as of the latest [`Planner::plan_all`]), the plan of a fast
    /// one's second move, made up front with its first: see [`Ahead`].
    ahead: Vec<Ahead>,
    /// The map's connected regions under a movement rule, with the revision and the rule
    /// they were labelled for: what a Dijkstra map from a cell would expand.
    regions: Option<(u64, Neighbourhood, Regions)>,
    /// The cells of the lures sounding: the goal of the monsters near them (see
    /// [`goal_of`]).
    lures: Vec<Pos>,
    /// The enterable cells of each table's grid, with the map's revision they were counted
    /// on: a crowd's measure, counted again only when the map changes.
    enterable: Vec<(CostTable, u64, u64)>,
    /// The Dijkstra maps from the player that the plain searches of the monsters heading for
    /// the player take as their estimate, on big maps (see [`guide`]); shared with the
    /// world's clones, and made anew once the player moves or the ground changes.
    guides: Arc<Guides>,
    /// For tests: guides serve on maps of any size.
    guides_forced: bool,
}

/// The pathfinders that search one grid of costs.
#[derive(Debug, Clone)]
struct Engines {
    table: CostTable,
    /// One per planning thread; the first is the main thread's.
    threads: Vec<Pathfinder>,
}

/// How a monster searches: its kind's grid of costs and its options over the game's.
fn searched_as(grid: &TileMap, kind: char, options: SearchOptions) -> (CostTable, SearchOptions) {
    let search = grid.kind(kind).search;
    let table = grid.effective(search.costs.table(grid.weights()));
    (table, search.options(options))
}

/// The grid a table of costs searches: the map keeps one per kind in play (the world adds
/// them), and the player's serves a table it does not know, which only a monster added
/// behind the world's back could have.
fn grid_of<'a>(grid: &'a TileMap, table: &CostTable) -> &'a Grid {
    grid.grid_for(table).unwrap_or_else(|| grid.cost_grid())
}

/// How [`Planner::plan_all`] goes about its work.
#[derive(Debug, Clone, Copy)]
pub struct Spread {
    /// At most this many threads.
    pub threads: usize,
    /// Plans for a turn: fast monsters' second searches are made ahead too.
    pub ahead: bool,
}

/// A fast monster's second search, made on the planning threads right after its first, from
/// the cell its first plan steps to: a search reads only the map, the cell it starts from and
/// the player's, none of which moves during the monsters' phase, so when the monster does
/// take that step, this is exactly the search it would run there. Made next to the first,
/// it also finds that search's cells still in the core's cache.
#[derive(Debug, Clone, Default)]
struct Ahead {
    /// What it searched: from, to, and the grid's revision; `None` when none was made. All
    /// three are compared when it is used, so that a later rule that moves the player or
    /// changes the map during the monsters' phase cannot hand over a stale search.
    made: Option<(Pos, Pos, u64)>,
    plan: SearchResult,
    /// The node nearest its goal that its first search reached, when that search was capped
    /// (see [`Planner::head_for_best_nodes`]).
    best: Option<Pos>,
}

impl Planner {
    /// Whether the planning mode makes a fast monster's second search ahead (and reuses a
    /// search while it has not moved): the modes of one optimal search per monster. Both the
    /// making and the use ask this, so they cannot drift apart.
    fn plans_ahead(&self) -> bool {
        matches!(self.planning, Planning::AStar | Planning::Jps)
    }

    /// A planner that reports how far its plans of everyone are to `progress`.
    pub fn with_progress(progress: Arc<Progress>) -> Self {
        Self {
            progress,
            ..Self::default()
        }
    }

    /// The monster whose searches are recorded.
    pub fn traced(&self) -> Option<u32> {
        self.traced
    }

    /// The traced monster's latest search.
    pub fn trace(&self) -> Option<&Trace> {
        self.trace.as_ref()
    }

    /// How far the latest plan of everyone is (shared, to read from another thread).
    pub fn progress(&self) -> Arc<Progress> {
        Arc::clone(&self.progress)
    }

    /// The serial of the recorded trace: it changes whenever the trace is recorded anew.
    pub fn trace_serial(&self) -> u64 {
        self.trace_serial
    }

    /// Search work since the latest replan of everyone.
    pub fn stats(&self) -> TurnStats {
        self.stats
    }

    /// Puts back the search work of the latest turn (a kept run, loaded).
    pub fn set_stats(&mut self, stats: TurnStats) {
        self.stats = stats;
    }

    /// How the monsters plan.
    pub fn planning(&self) -> Planning {
        self.planning
    }

    /// Changes how the monsters plan, from the next plan on.
    pub fn set_planning(&mut self, planning: Planning) {
        self.planning = planning;
    }

    /// The shared Dijkstra map of the player's costs under 8-way moves (or the first made),
    /// while the monsters plan by maps.
    pub fn distance_map(&self) -> Option<&DistanceMap> {
        (self.planning == Planning::Map)
            .then(|| self.maps.first())
            .flatten()
    }

    /// The lures sounding, whose cells become the goal of the monsters near them; every
    /// `goal` the planner is given is the player's cell, and each monster's own is worked
    /// out from it.
    pub fn set_lures(&mut self, lures: Vec<Pos>) {
        self.lures = lures;
    }

    /// Where a monster at `at` heads when the player stands at `player`.
    pub fn goal_for(&self, at: Pos, player: Pos) -> Pos {
        goal_of(&self.lures, at, player)
    }

    /// The main thread's pathfinder for a table of costs (made on first use).
    fn engine(&mut self, table: CostTable) -> &mut Pathfinder {
        let i = self.engines_for(table, 1);
        main_engine(&mut self.engines, i)
    }

    /// Labels the connected regions of the grids that `searching` (tables of costs with
    /// their movement rules) search on their own, before the planning threads start: once
    /// per set of open cells, handed to every thread's engine and to the grids of other
    /// costs over the same cells. On a 1024x1024 cave each labelling floods a million cells;
    /// left to the searches, every table on every thread labelled its own.
    fn share_labels(
        &mut self,
        grid: &TileMap,
        searching: &[(CostTable, Neighbourhood)],
        threads: usize,
    ) {
        let mut labelled: Vec<(usize, Neighbourhood)> = Vec::new();
        for &(table, rule) in searching {
            let e = self.engines_for(table, threads);
            let g = grid_of(grid, &table);
            let mut took = false;
            for &(d, r) in &labelled {
                if d == e
                    || (r == Neighbourhood::EightCutCorners)
                        != (rule == Neighbourhood::EightCutCorners)
                {
                    continue;
                }
                let (donor, mine) = pair(&mut self.engines, d, e);
                if mine.threads[0].share_labels(
                    g,
                    rule,
                    &donor.threads[0],
                    grid_of(grid, &donor.table),
                ) {
                    took = true;
                    break;
                }
            }
            // The planner's own count of the regions (for the turn's figures) labels the
            // first grid, when it was made on the same open cells under a rule that
            // connects alike: a million-cell flood less.
            let cut = |r: Neighbourhood| r == Neighbourhood::EightCutCorners;
            if !took
                && !self.regions.as_ref().is_some_and(|(rev, r, regions)| {
                    *rev == grid.revision()
                        && cut(*r) == cut(rule)
                        && self.engines[e].threads[0].adopt_regions(
                            g,
                            rule,
                            regions,
                            grid.cost_grid(),
                        )
                })
            {
                self.engines[e].threads[0].label(g, rule);
            }
            labelled.push((e, rule));
            let (first, rest) = self.engines[e].threads.split_at_mut(1);
            for pf in rest.iter_mut().take(threads - 1) {
                pf.share_labels(g, rule, &first[0], g);
            }
        }
    }

    /// Where the engines of `table` are, with at least `threads` pathfinders.
    fn engines_for(&mut self, table: CostTable, threads: usize) -> usize {
        let i = match self.engines.iter().position(|e| e.table == table) {
            Some(i) => i,
            None => {
                self.engines.push(Engines {
                    table,
                    threads: Vec::new(),
                });
                self.engines.len() - 1
            }
        };
        let e = &mut self.engines[i];
        if e.threads.len() < threads {
            e.threads.resize_with(threads, Pathfinder::new);
        }
        i
    }

    /// Plans every monster's path to `goal` under `options` on at most `spread.threads`
    /// threads, and records the traced monster's search. The results do not depend on the
    /// threads. With `spread.ahead`, for a turn, fast monsters' second searches are made too
    /// (see [`Planner::plan_second`]).
    ///
    /// A monster [`boxed_in`] by the others (`occupied`: one entry per cell, nonzero where a
    /// monster stands) runs no search: it could not take a step anyway, and in a packed
    /// crowd its search is most of the turn's work. It is marked [`Monster::boxed`] and
    /// plans when its turn comes if a way has opened by then.
    pub fn plan_all(
        &mut self,
        grid: &TileMap,
        goal: Pos,
        options: SearchOptions,
        monsters: &mut [Monster],
        occupied: &[u32],
        spread: Spread,
    ) {
        self.progress.start(monsters.len());
        self.planned_on = Some(grid.revision());
        self.stats = TurnStats {
            dijkstra_expanded: self.reachable_from(grid, goal, options),
            ..TurnStats::default()
        };
        if self.planning == Planning::Map {
            return self.plan_by_map(grid, goal, options, monsters);
        }
        let options = self.searched_with(options);
        let threads = spread
            .threads
            .min(monsters.len() / PARALLEL_MIN_MONSTERS)
            .max(1);
        let tables = self.tables_of(grid, options, monsters, threads);
        // Crowds are of the modes of one exact search per monster; what they were measured
        // to cost survives a spell of capped planning, so that a switch back finds it.
        let census = self
            .plans_ahead()
            .then(|| self.census(grid, goal, options, monsters));
        let guided = match &census {
            Some(census) => {
                self.make_crowd_maps(grid, goal, census, threads);
                self.make_guides(grid, goal, (census, monsters), threads)
            }
            None => false,
        };
        let searching = self.searching(grid, goal, (options, guided), monsters, census.as_ref());
        self.share_labels(grid, &searching, threads);
        // A capped search is followed by a second one toward its best node, made at the
        // monster's turn: only plain searches are made ahead.
        let ahead = spread.ahead && self.plans_ahead();
        let at = (goal, options, occupied, ahead, (census.is_some(), guided));
        let (expanded, searches) = self.plan_on_threads(grid, at, monsters, &tables, threads);
        self.stats.astar_expanded += expanded;
        self.stats.searches += searches;
        if let Some(census) = &census {
            self.measure_crowds(grid, census, monsters);
        }
        match self
            .traced
            .and_then(|id| monsters.iter().position(|m| m.id == id))
        {
            Some(i) => {
                let from = monsters[i].pos;
                let to = self.goal_for(from, goal);
                let expanded = self.plan_traced(grid, (from, to), options, &mut monsters[i]);
                self.progress.one_more();
                self.stats.astar_expanded += u64::from(expanded);
                self.stats.searches += 1;
            }
            // The traced monster is gone (killed, deleted): its old search no longer applies.
            None => self.trace = None,
        }
        let bests: Vec<Option<Pos>> = self.ahead.iter().map(|a| a.best).collect();
        self.head_for_best_nodes(grid, options, monsters, &bests);
    }

    /// The tables of costs the monsters search under `options`, each with pathfinders for
    /// `threads` threads.
    fn tables_of(
        &mut self,
        grid: &TileMap,
        options: SearchOptions,
        monsters: &[Monster],
        threads: usize,
    ) -> Vec<CostTable> {
        let mut tables: Vec<CostTable> = Vec::new();
        for m in monsters {
            let (table, _) = searched_as(grid, m.kind, options);
            if !tables.contains(&table) {
                tables.push(table);
                self.engines_for(table, threads);
            }
        }
        tables
    }

    /// A monster whose search hit its cap (the kind's, or [`Planning::Capped`]'s) heads for
    /// the node its search reached nearest its goal (lowest H, then reading order), by a
    /// second search to that node, which lies inside what the first explored.
    fn head_for_best_nodes(
        &mut self,
        grid: &TileMap,
        options: SearchOptions,
        monsters: &mut [Monster],
        known: &[Option<Pos>],
    ) {
        for (i, m) in monsters.iter_mut().enumerate() {
            if m.plan.status != Status::CapReached {
                continue;
            }
            let (table, options) = searched_as(grid, m.kind, options);
            let g = grid_of(grid, &table);
            // From where it planned, which is where it stands while the turn plans.
            let (from, goal) = m.planned;
            let e = self.engines_for(table, 1);
            let target = match known.get(i).copied().flatten() {
                Some(target) => {
                    // Found by its search as it ran; the figures count that search again,
                    // as they did when it was run twice.
                    self.stats.astar_expanded += u64::from(m.plan.expanded);
                    target
                }
                None => {
                    let mut best = Nearest::new(goal, options.heuristic);
                    let q = Query::new(from, goal).options(options);
                    let pf = main_engine(&mut self.engines, e);
                    pf.search(g, q, &mut self.scratch, &mut best);
                    self.stats.astar_expanded += u64::from(self.scratch.expanded);
                    let Some((_, target)) = best.best else {
                        continue;
                    };
                    target
                }
            };
            let to_best = Query::new(from, target).options(options.with_cap(None));
            let pf = main_engine(&mut self.engines, e);
            pf.search(g, to_best, &mut self.scratch, &mut ());
            self.stats.astar_expanded += u64::from(self.scratch.expanded);
            self.stats.searches += 2;
            // The plan stays "cap reached", with the path toward the best node to walk.
            m.plan.path.clone_from(&self.scratch.path);
        }
    }

    /// Records the searches of monster `id` from the next [`Planner::plan_all`] on.
    pub fn trace_next(&mut self, id: Option<u32>) {
        self.traced = id;
    }

    /// Records the searches of monster `id` from now on (or of nobody), and records its
    /// latest search again at once (the same query, from where it planned, so the overlay
    /// shows the numbers its plan has), without replanning the others or touching the
    /// turn's figures.
    pub fn set_traced(
        &mut self,
        id: Option<u32>,
        grid: &TileMap,
        options: SearchOptions,
        monsters: &mut [Monster],
    ) {
        self.traced = id;
        // Planning by the map runs no A* to show.
        let searched = self.planning != Planning::Map;
        match id.and_then(|id| monsters.iter_mut().find(|m| m.id == id)) {
            Some(m) if searched => {
                // The search the plan came from, under the same options, so the plan it
                // writes is the one the monster had. (A monster boxed in made none; it gets
                // the search it would have made, as the traced monster always does.)
                let options = self.searched_with(options);
                let (from, goal) = m.planned;
                self.plan_traced(grid, (from, goal), options, m);
                let before = self.stats;
                self.head_for_best_nodes(grid, options, std::slice::from_mut(m), &[]);
                self.stats = before;
            }
            _ => self.trace = None,
        }
    }

    /// The options of the monsters' searches under the planning mode: the world's, capped
    /// by [`Planning::Capped`]'s cap, or by Jump Point Search under [`Planning::Jps`]. Each
    /// kind's own search goes on top (see [`kinds::Search::options`]).
    fn searched_with(&self, options: SearchOptions) -> SearchOptions {
        match self.planning {
            Planning::Capped(cap) => {
                options.with_cap(Some(options.cap.map_or(cap, |c| c.min(cap))))
            }
            Planning::Jps => options.with_algorithm(Algorithm::Jps),
            Planning::AStar | Planning::Map => options,
        }
    }

    /// Plans one monster again from where it stands (a fast monster before its second
    /// move, a boxed-in one whose way has opened), the way the planning mode plans,
    /// recording the search when it is the traced one; the work joins the turn's.
    pub fn plan_one(&mut self, grid: &TileMap, goal: Pos, options: SearchOptions, m: &mut Monster) {
        match self.planning {
            // The maps from the player still hold while the player has not moved and the
            // ground has not changed; a door opened or a wall dug since makes them anew.
            Planning::Map => {
                if self.maps_made != grid.revision() {
                    let expanded = self.stats.dijkstra_expanded;
                    let kinds = std::mem::take(&mut self.map_kinds);
                    self.make_maps(grid, goal, options, &kinds);
                    self.stats.dijkstra_expanded += expanded;
                }
                self.step_or_search(grid, goal, options, m)
            }
            _ => {
                let options = self.searched_with(options);
                let to = self.goal_for(m.pos, goal);
                if !(to == goal && self.guided_one(grid, goal, options, m)) {
                    self.search_one(grid, to, options, m);
                }
                self.head_for_best_nodes(grid, options, std::slice::from_mut(m), &[]);
            }
        }
    }

    /// Whether monster `i`'s (its index at the latest [`Planner::plan_all`]) second search
    /// was made ahead and is still unused.
    #[cfg(test)]
    pub(crate) fn searched_ahead(&self, i: usize) -> bool {
        self.ahead.get(i).is_some_and(|a| a.made.is_some())
    }

    /// Plans fast monster `i` (its index at the latest [`Planner::plan_all`]) again before
    /// its second move, as [`Planner::plan_one`] does, without searching when the answer is
    /// known: it has not moved since its first search (that search again), or it took the
    /// step its second search was made ahead from (that one). The turn's figures count the
    /// search either stands for, as if it ran now.
    pub fn plan_second(
        &mut self,
        grid: &TileMap,
        goal: Pos,
        options: SearchOptions,
        i: usize,
        m: &mut Monster,
    ) {
        let known = self.plans_ahead()
            && self.traced != Some(m.id)
            && !m.boxed
            && m.plan.status != Status::CapReached;
        let to = self.goal_for(m.pos, goal);
        // Its first search holds only on the ground it was made on: a door opened or a wall
        // dug by the first moves may have opened a way or a shorter one.
        let unmoved = known && m.planned == (m.pos, to) && self.planned_on == Some(grid.revision());
        if !unmoved {
            match self.ahead.get_mut(i) {
                Some(ahead) if known && ahead.made == Some((m.pos, to, grid.revision())) => {
                    ahead.made = None;
                    std::mem::swap(&mut m.plan, &mut ahead.plan);
                    m.planned = (m.pos, to);
                }
                _ => return self.plan_one(grid, goal, options, m),
            }
        }
        self.stats.astar_expanded += u64::from(m.plan.expanded);
        self.stats.searches += 1;
    }

    /// Plans one monster heading for the player by the guides, if they are fresh and one
    /// serves its plain search (never the traced one's: the overlay shows its own search);
    /// returns whether they did.
    fn guided_one(
        &mut self,
        grid: &TileMap,
        player: Pos,
        options: SearchOptions,
        m: &mut Monster,
    ) -> bool {
        let (table, o) = searched_as(grid, m.kind, options);
        if self.traced == Some(m.id) || !is_exact_plain(&o) {
            return false;
        }
        let guides = Arc::clone(&self.guides);
        let Some(way) = guides.of(grid, player, &table, o.neighbourhood) else {
            return false;
        };
        m.planned = (m.pos, player);
        m.boxed = false;
        let q = Query::new(m.pos, player).options(o);
        let pf = self.engine(table);
        if plan_from(pf, grid_of(grid, &table), Some(way), q, &mut m.plan) {
            self.stats.astar_expanded += u64::from(m.plan.expanded);
            self.stats.searches += 1;
        }
        true
    }

    /// One monster's search from where it stands, as its kind searches, traced when it is
    /// the traced one.
    fn search_one(&mut self, grid: &TileMap, goal: Pos, options: SearchOptions, m: &mut Monster) {
        let expanded = if self.traced == Some(m.id) {
            self.plan_traced(grid, (m.pos, goal), options, m)
        } else {
            m.planned = (m.pos, goal);
            let (table, options) = searched_as(grid, m.kind, options);
            let q = Query::new(m.pos, goal).options(options);
            self.engine(table)
                .search(grid_of(grid, &table), q, &mut m.plan, &mut ());
            m.plan.expanded
        };
        m.boxed = false;
        self.stats.astar_expanded += u64::from(expanded);
        self.stats.searches += 1;
    }

    /// Runs one monster's search from `from` to `goal` as its kind searches, recording it;
    /// returns the nodes it expanded.
    fn plan_traced(
        &mut self,
        grid: &TileMap,
        (from, goal): (Pos, Pos),
        options: SearchOptions,
        m: &mut Monster,
    ) -> u32 {
        let (table, options) = searched_as(grid, m.kind, options);
        let mut trace = self.trace.take().unwrap_or_default();
        trace.restart(from, goal, options);
        let q = Query::new(from, goal).options(options);
        m.planned = (from, goal);
        m.boxed = false;
        self.engine(table)
            .search(grid_of(grid, &table), q, &mut m.plan, &mut trace);
        if m.plan.fallback.is_some() {
            // JPS was asked for and A* ran: the trace names the search it holds.
            trace.options.algorithm = Algorithm::AStar;
            if m.plan.fallback == Some(Fallback::Cluttered) {
                trace.options.ties = Ties::Lifo;
            }
        }
        self.trace = Some(trace);
        self.trace_serial = NEXT_TRACE_SERIAL.fetch_add(1, Ordering::Relaxed);
        m.plan.expanded
    }

    /// The first step of a route from `from` to `goal` for a monster of `kind` around
    /// whoever `occupied` puts in the way (the monster's own cell is its start, never
    /// entered), if there is one within `budget` expansions; the search's work counts in the
    /// turn's figures (the plan keeps describing the search the overlay shows).
    #[allow(clippy::too_many_arguments)]
    pub fn detour(
        &mut self,
        grid: &TileMap,
        kind: char,
        goal: Pos,
        options: SearchOptions,
        occupied: &[u32],
        from: Pos,
        budget: u32,
    ) -> Option<Pos> {
        let (table, options) = searched_as(grid, kind, options);
        let options = options.with_cap(Some(options.cap.map_or(budget, |c| c.min(budget))));
        let q = Query::new(from, goal).options(options).occupied(occupied);
        let g = grid_of(grid, &table);
        let e = self.engines_for(table, 1);
        main_engine(&mut self.engines, e).search(g, q, &mut self.scratch, &mut ());
        let expanded = self.scratch.expanded;
        self.stats.astar_expanded += u64::from(expanded);
        self.stats.searches += 1;
        (self.scratch.status == Status::Found)
            .then(|| self.scratch.path.get(1).copied())
            .flatten()
    }

    /// The first step of the player's A* path from `from` to `target` around whoever
    /// `occupied` (one entry per cell, nonzero where someone stands) puts in the way, if
    /// any.
    pub fn first_step(
        &mut self,
        grid: &TileMap,
        from: Pos,
        target: Pos,
        occupied: &[u32],
    ) -> Option<Pos> {
        let q = Query::new(from, target).occupied(occupied);
        let plain = grid.effective(kinds::Costs::PLAIN.table(grid.weights()));
        let e = self.engines_for(plain, 1);
        main_engine(&mut self.engines, e).search(grid.cost_grid(), q, &mut self.scratch, &mut ());
        (self.scratch.status == Status::Found)
            .then(|| self.scratch.path.get(1).copied())
            .flatten()
    }

    /// How many cells of `table`'s grid on `grid` can be entered (counted once a revision).
    fn enterable(&mut self, grid: &TileMap, table: &CostTable) -> u64 {
        let revision = grid.revision();
        if let Some(&(_, _, n)) = self
            .enterable
            .iter()
            .find(|(t, rev, _)| t == table && *rev == revision)
        {
            return n;
        }
        let n = grid_of(grid, table)
            .costs()
            .iter()
            .filter(|&&c| c != 0)
            .count() as u64;
        self.enterable
            .retain(|(t, rev, _)| t != table && *rev == revision);
        self.enterable.push((*table, revision, n));
        n
    }

    /// Labels the map's connected regions under `rule` (what a Dijkstra map from a cell
    /// would expand, for the turn's figures), unless labelled on this revision already.
    pub(crate) fn count_regions(&mut self, grid: &TileMap, rule: Neighbourhood) {
        let fresh =
            |(rev, r, _): &(u64, Neighbourhood, Regions)| *rev == grid.revision() && *r == rule;
        if !self.regions.as_ref().is_some_and(fresh) {
            let regions = Regions::compute(grid.cost_grid(), rule);
            self.regions = Some((grid.revision(), rule, regions));
        }
    }

    /// Cells a full reverse Dijkstra map from `from` would expand: its whole region.
    fn reachable_from(&mut self, grid: &TileMap, from: Pos, options: SearchOptions) -> u64 {
        let Some(cell) = grid.index(from) else {
            return 0;
        };
        self.count_regions(grid, options.neighbourhood);
        let (_, _, regions) = self.regions.as_ref().expect("just labelled");
        u64::from(regions.size(regions.label(cell)))
    }
}

/// The main thread's pathfinder of `engines[i]`, with the search buffers of the main thread's
/// other pathfinders if it has none (see [`Pathfinder::take_buffers_from`]): one set of them
/// for the main thread, whatever the tables it searches.
fn main_engine(engines: &mut [Engines], i: usize) -> &mut Pathfinder {
    let (before, rest) = engines.split_at_mut(i);
    let (mine, after) = rest
        .split_first_mut()
        .expect("an index that engines_for gave");
    let others = before.iter_mut().chain(after);
    gather(
        &mut mine.threads[0],
        others.filter_map(|e| e.threads.first_mut()),
    )
}

/// `mine`, with the search buffers of `others` if it has none (see
/// [`Pathfinder::take_buffers_from`]).
fn gather<'a, 'b>(
    mine: &'a mut Pathfinder,
    others: impl Iterator<Item = &'b mut Pathfinder>,
) -> &'a mut Pathfinder {
    for theirs in others {
        mine.take_buffers_from(theirs);
    }
    mine
}

/// The pathfinder of `table` among a planning thread's `engines`, with the search buffers of
/// the thread's other pathfinders if it has none: one set of them a thread.
fn thread_engine<'e>(
    engines: &'e mut [(CostTable, &mut Pathfinder)],
    table: &CostTable,
) -> &'e mut Pathfinder {
    let i = engines
        .iter()
        .position(|(t, _)| t == table)
        .expect("plan_all makes an engine for every table its monsters search");
    let (before, rest) = engines.split_at_mut(i);
    let (mine, after) = rest.split_first_mut().expect("found just now");
    let others = before.iter_mut().chain(after);
    gather(&mut *mine.1, others.map(|(_, pf)| &mut **pf))
}

/// The engines at `a` (to read) and at `b` (to change), two places apart.
fn pair(engines: &mut [Engines], a: usize, b: usize) -> (&Engines, &mut Engines) {
    if a < b {
        let (low, high) = engines.split_at_mut(b);
        (&low[a], &mut high[0])
    } else {
        let (low, high) = engines.split_at_mut(a);
        (&high[0], &mut low[b])
    }
}

/// Whether a search under `o` finds what a Dijkstra map does (no weight, no cap, not
/// greedy): the test for a monster to count in a crowd and to walk the crowd's map, which
/// must agree.
fn is_exact_plain(o: &SearchOptions) -> bool {
    o.weight == Weight::ONE && o.cap.is_none() && !o.greedy
}

/// No crowd's map: capped planning keeps the crowds' maps of the other modes, unused.
static NO_MAPS: Maps = Maps::EMPTY;

/// What every planning thread plans toward, and around.
#[derive(Clone, Copy)]
struct Plans<'a> {
    progress: &'a Progress,
    /// The player's cell.
    goal: Pos,
    /// The cells of the lures sounding.
    lures: &'a [Pos],
    options: SearchOptions,
    occupied: &'a [u32],
    traced: Option<u32>,
    /// Whether fast monsters' second searches are made ahead.
    ahead: bool,
    /// The Dijkstra maps of this turn's mapped crowds.
    maps: &'a Maps,
    /// The guides of the other plain searches toward the player, if they serve this turn.
    guides: Option<&'a Guides>,
}

impl Planner {
    /// Plans every monster but the traced one on `threads` threads (each with its own
    /// pathfinder of every table in `tables`), toward the player at `at`'s cell under its
    /// options, around its occupied cells, ahead for fast monsters, down the crowds' maps
    /// and by the guides when asked; returns (nodes expanded, searches run).
    fn plan_on_threads(
        &mut self,
        grid: &TileMap,
        at: (Pos, SearchOptions, &[u32], bool, (bool, bool)),
        monsters: &mut [Monster],
        tables: &[CostTable],
        threads: usize,
    ) -> (u64, u32) {
        let (goal, options, occupied, ahead, (mapped, guided)) = at;
        self.ahead.resize_with(monsters.len(), Ahead::default);
        // The threads take some monsters at a time until none are left, rather than a
        // share each: searches differ a hundredfold in cost, and the monsters' order (often
        // by where they stand) gathers the long ones, so that on a 1024x1024 cave with the
        // player near one edge, one half of the crowd held six times the other's work.
        let piece = (monsters.len() / (threads * PIECES)).max(PIECE_MIN);
        let pieces = Mutex::new(monsters.chunks_mut(piece).zip(self.ahead.chunks_mut(piece)));
        let at = Plans {
            progress: &self.progress,
            goal,
            lures: &self.lures,
            options,
            occupied,
            traced: self.traced,
            ahead,
            maps: if mapped { &self.crowd_maps } else { &NO_MAPS },
            guides: guided.then_some(&*self.guides),
        };
        // Each thread its own pathfinder of every grid searched this turn.
        let mut mine: Vec<Vec<(CostTable, &mut Pathfinder)>> =
            (0..threads).map(|_| Vec::new()).collect();
        for e in self
            .engines
            .iter_mut()
            .filter(|e| tables.contains(&e.table))
        {
            let table = e.table;
            for (t, pf) in e.threads.iter_mut().take(threads).enumerate() {
                mine[t].push((table, pf));
            }
        }
        let work = |engines: &mut [(CostTable, &mut Pathfinder)]| {
            let mut total = (0u64, 0u32);
            loop {
                // A planning thread only panics on a bug, and then the turn is lost anyway:
                // the pieces' lock is not poisoned otherwise.
                let Some(piece) = pieces.lock().unwrap_or_else(|p| p.into_inner()).next() else {
                    return total;
                };
                let (e, n) = plan_chunk(engines, grid, at, piece);
                total = (total.0 + e, total.1 + n);
            }
        };
        let mut mine = mine.into_iter();
        let mut main = mine.next().unwrap_or_default();
        std::thread::scope(|scope| {
            let handles: Vec<_> = mine
                .map(|mut engines| scope.spawn(move || work(&mut engines)))
                .collect();
            let mut total = work(&mut main);
            for h in handles {
                // A planning thread only panics on a bug; pass it on rather than hide it.
                let (e, n) = h.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
                total = (total.0 + e, total.1 + n);
            }
            total
        })
    }
}

/// Plans each monster of `chunk` but the traced one with the pathfinder of its kind's grid
/// in `engines`; returns (expanded, searches).
fn plan_chunk(
    engines: &mut [(CostTable, &mut Pathfinder)],
    grid: &TileMap,
    at: Plans<'_>,
    (chunk, aheads): (&mut [Monster], &mut [Ahead]),
) -> (u64, u32) {
    let Plans {
        progress,
        goal: player,
        lures,
        options,
        occupied,
        traced,
        ahead,
        maps,
        guides,
    } = at;
    let mut total = (0u64, 0u32);
    for (m, next) in chunk.iter_mut().zip(aheads) {
        (next.made, next.best) = (None, None);
        if Some(m.id) == traced {
            continue;
        }
        let (table, options) = searched_as(grid, m.kind, options);
        let g = grid_of(grid, &table);
        let goal = goal_of(lures, m.pos, player);
        m.planned = (m.pos, goal);
        m.boxed = boxed_in(g, occupied, goal, m.pos, options.neighbourhood);
        if m.boxed {
            // No search, so nothing found: the flag says why.
            m.plan.path.clear();
            (m.plan.status, m.plan.cost, m.plan.expanded) = (Status::Unreachable, None, 0);
        } else {
            let pf = thread_engine(engines, &table);
            // A monster of a mapped crowd (plain search, the player its goal) walks the map;
            // one of a guided table searches by its guide.
            let plain = is_exact_plain(&options);
            let way = |goal: Pos| {
                if !plain || goal != player {
                    return None;
                }
                let rule = options.neighbourhood;
                match maps.get(&table, rule) {
                    Some(map) => Some(Guidance::Own(map)),
                    None => guides.and_then(|gs| gs.of(grid, player, &table, rule)),
                }
            };
            let q = Query::new(m.pos, goal).options(options);
            if options.cap.is_some() {
                // A capped search that hits its cap heads for its best node: found here,
                // on this thread, rather than by the same search again at the end.
                let mut best = Nearest::new(goal, options.heuristic);
                pf.search(g, q, &mut m.plan, &mut best);
                next.best = best.best.map(|(_, p)| p);
                total = (total.0 + u64::from(m.plan.expanded), total.1 + 1);
            } else if plan_from(pf, g, way(goal), q, &mut m.plan) {
                total = (total.0 + u64::from(m.plan.expanded), total.1 + 1);
            }
            // Stepping onto the player is an attack, and a wading monster's first move is
            // spent in its cell: either stays, and its second search would be this one again.
            // A monster whose step is held by one with a higher id (first moves go in id
            // order, and `monsters` is sorted by id) stays or detours: a search from the
            // step would go unused. A capped search is followed at the monster's turn by a
            // second one toward its best node: none is made ahead of it.
            if let Some(&step) = m.plan.path.get(1)
                && ahead
                && m.plan.status == Status::Found
                && step != goal
                && m.wading == 0
                && grid.kind(m.kind).speed == Speed::Fast
                && grid
                    .index(step)
                    .and_then(|c| occupied.get(c))
                    .is_none_or(|&who| who <= m.id)
            {
                let goal = goal_of(lures, step, player);
                let q = Query::new(step, goal).options(options);
                plan_from(pf, g, way(goal), q, &mut next.plan);
                next.made = Some((step, goal, grid.revision()));
            }
        }
        progress.one_more();
    }
    total
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
    fn census(
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
    fn searching(
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
    fn make_crowd_maps(&mut self, grid: &TileMap, player: Pos, census: &Census, threads: usize) {
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
    fn make_guides(
        &mut self,
        grid: &TileMap,
        player: Pos,
        (census, monsters): (&Census, &[Monster]),
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
        // The monsters each guide serves: its map need not go further than they stand.
        let serves: Vec<(Key, Pos)> = census
            .keys
            .iter()
            .zip(monsters)
            .filter_map(|(key, m)| Some(((*key)?, m.pos)))
            .collect();
        let made = self
            .guides
            .make(grid, player, &wanted, &serves, GUIDE_MIN, threads);
        if let Some((guides, settled)) = made {
            self.stats.astar_expanded += settled;
            self.stats.searches += guides.len() as u32;
            self.guides = Arc::new(guides);
        }
        self.guides.fresh(grid)
    }

    /// Records what the crowds that searched this turn cost, so that the next turn knows
    /// which would be better served by a map; a crowd too thin to map is forgotten.
    fn measure_crowds(&mut self, grid: &TileMap, census: &Census, monsters: &[Monster]) {
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

    /// For tests: where each guide's map stopped early, `None` for one that covers every
    /// cell that reaches the player.
    #[cfg(test)]
    pub(crate) fn guide_bounds(&self) -> Vec<Option<u32>> {
        self.guides.bounds()
    }

    /// For tests: guides serve the plain searches toward the player on maps of any size
    /// from the next plan on (`false`: only on big maps, as the game decides).
    #[cfg(test)]
    pub(crate) fn force_guides(&mut self, forced: bool) {
        self.guides_forced = forced;
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
    fn plan_by_map(
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
    fn make_maps(&mut self, grid: &TileMap, goal: Pos, options: SearchOptions, kinds: &[char]) {
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
        self.maps.make(grid, goal, &wanted, cores(), made);
        self.stats.dijkstra_expanded = self.maps.expanded();
    }

    /// [`Planner::step_by_map`] for a monster heading for the player, an A* of its own for
    /// one a lure holds (the maps lead to the player).
    fn step_or_search(
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
