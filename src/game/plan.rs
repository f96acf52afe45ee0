//! Planning: every monster's A* toward the player, on several cores when there are many,
//! the detours around other monsters, and the recorded search of the one monster the
//! overlay shows. The rules in [`World`](super::World) decide what to do with the plans.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use super::Monster;
use crate::engine::astar::{Pathfinder, Query, SearchOptions, SearchResult, Status, Trace};
use crate::engine::grid::{Grid, Pos};

/// Monsters per planning thread below which spawning threads costs more than it saves.
pub(super) const PARALLEL_MIN_MONSTERS: usize = 16;

/// Serials of recorded traces, from one counter for all planners, so that a view caching
/// what it derived from a trace never mistakes a new game's trace for an old one.
static NEXT_TRACE_SERIAL: AtomicU64 = AtomicU64::new(1);

/// Monsters planned so far by the latest [`Planner::plan_all`], and how many it plans: for
/// a front end to show progress while a long turn is computed on another thread. One pair
/// for the whole process (a front end runs one game); nothing but displays reads it.
static PLANNED: AtomicUsize = AtomicUsize::new(0);
static PLANNING: AtomicUsize = AtomicUsize::new(0);

/// (monsters planned so far, monsters to plan) of the latest plan of everyone.
pub fn progress() -> (usize, usize) {
    (
        PLANNED.load(Ordering::Relaxed),
        PLANNING.load(Ordering::Relaxed),
    )
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
    pathfinder: Pathfinder,
    /// Extra engines for planning on more cores, one per extra thread.
    workers: Vec<Pathfinder>,
    blockers: Vec<Pos>,
    scratch: SearchResult,
    /// The monster whose searches are recorded, if any.
    traced: Option<u32>,
    /// Its latest search.
    trace: Option<Trace>,
    /// Changes whenever `trace` is recorded anew.
    trace_serial: u64,
    /// Work of the latest turn.
    stats: TurnStats,
}

impl Planner {
    /// The monster whose searches are recorded.
    pub fn traced(&self) -> Option<u32> {
        self.traced
    }

    /// The traced monster's latest search.
    pub fn trace(&self) -> Option<&Trace> {
        self.trace.as_ref()
    }

    /// A number that changes whenever the trace is recorded anew.
    pub fn trace_serial(&self) -> u64 {
        self.trace_serial
    }

    /// Search work since the latest replan of everyone.
    pub fn stats(&self) -> TurnStats {
        self.stats
    }

    /// Plans every monster's path to `goal` under `options` on at most `threads` threads,
    /// and records the traced monster's search. The results do not depend on `threads`.
    pub fn plan_all(
        &mut self,
        grid: &Grid,
        goal: Pos,
        options: SearchOptions,
        monsters: &mut [Monster],
        threads: usize,
    ) {
        PLANNED.store(0, Ordering::Relaxed);
        PLANNING.store(monsters.len(), Ordering::Relaxed);
        self.stats = TurnStats {
            dijkstra_expanded: self.reachable_from(grid, goal, options),
            ..TurnStats::default()
        };
        let threads = threads.min(monsters.len() / PARALLEL_MIN_MONSTERS).max(1);
        if threads > 1 {
            self.workers.resize_with(threads - 1, Pathfinder::new);
        }
        let traced = self.traced;
        let per_thread = monsters.len().div_ceil(threads);
        let traced_at = traced.and_then(|id| monsters.iter().position(|m| m.id == id));
        let mut chunks = monsters.chunks_mut(per_thread.max(1));
        let mine = chunks.next().unwrap_or_default();
        let (expanded, searches) = std::thread::scope(|scope| {
            let handles: Vec<_> = chunks
                .zip(self.workers.iter_mut())
                .map(|(chunk, pf)| {
                    scope.spawn(move || plan_chunk(pf, grid, goal, options, chunk, traced))
                })
                .collect();
            let mut total = plan_chunk(&mut self.pathfinder, grid, goal, options, mine, traced);
            for h in handles {
                // A planning thread only panics on a bug; pass it on rather than hide it.
                let (e, n) = h.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
                total = (total.0 + e, total.1 + n);
            }
            total
        });
        self.stats.astar_expanded += expanded;
        self.stats.searches += searches;
        match traced_at {
            Some(i) => {
                let expanded = self.plan_traced(grid, goal, options, &mut monsters[i]);
                PLANNED.fetch_add(1, Ordering::Relaxed);
                self.stats.astar_expanded += u64::from(expanded);
                self.stats.searches += 1;
            }
            // The traced monster is gone (killed, deleted): its old search no longer applies.
            None => self.trace = None,
        }
    }

    /// Records the searches of monster `id` from the next [`Planner::plan_all`] on.
    pub fn trace_next(&mut self, id: Option<u32>) {
        self.traced = id;
    }

    /// Records the searches of monster `id` from now on (or of nobody), and records its
    /// search at once, without replanning the others or touching the turn's figures.
    pub fn set_traced(
        &mut self,
        id: Option<u32>,
        grid: &Grid,
        goal: Pos,
        options: SearchOptions,
        monsters: &mut [Monster],
    ) {
        self.traced = id;
        match id.and_then(|id| monsters.iter_mut().find(|m| m.id == id)) {
            Some(m) => {
                self.plan_traced(grid, goal, options, m);
            }
            None => self.trace = None,
        }
    }

    /// Runs one monster's A* to `goal`, recording the search; returns the nodes it expanded.
    fn plan_traced(
        &mut self,
        grid: &Grid,
        goal: Pos,
        options: SearchOptions,
        m: &mut Monster,
    ) -> u32 {
        let mut trace = self.trace.take().unwrap_or_default();
        trace.restart(m.pos, goal, options);
        let q = Query::new(m.pos, goal).options(options);
        self.pathfinder.search(grid, q, &mut m.plan, &mut trace);
        self.trace = Some(trace);
        self.trace_serial = NEXT_TRACE_SERIAL.fetch_add(1, Ordering::Relaxed);
        m.plan.expanded
    }

    /// The first step of monster `i`'s route to `goal` around every other monster, if
    /// there is one within `budget` expansions; the search's work is added to its plan.
    pub fn detour(
        &mut self,
        grid: &Grid,
        goal: Pos,
        options: SearchOptions,
        monsters: &mut [Monster],
        i: usize,
        budget: u32,
    ) -> Option<Pos> {
        let me = monsters[i].id;
        self.blockers.clear();
        self.blockers
            .extend(monsters.iter().filter(|m| m.id != me).map(|m| m.pos));
        let options = SearchOptions {
            cap: Some(options.cap.map_or(budget, |c| c.min(budget))),
            ..options
        };
        let q = Query::new(monsters[i].pos, goal)
            .options(options)
            .blockers(&self.blockers);
        self.pathfinder.search(grid, q, &mut self.scratch, &mut ());
        let expanded = self.scratch.expanded;
        self.stats.astar_expanded += u64::from(expanded);
        self.stats.searches += 1;
        monsters[i].plan.expanded += expanded;
        (self.scratch.status == Status::Found)
            .then(|| self.scratch.path.get(1).copied())
            .flatten()
    }

    /// The first step of an A* path from `from` to `target` around `blockers`, if any.
    pub fn first_step(
        &mut self,
        grid: &Grid,
        from: Pos,
        target: Pos,
        blockers: impl IntoIterator<Item = Pos>,
    ) -> Option<Pos> {
        self.blockers.clear();
        self.blockers.extend(blockers);
        let q = Query::new(from, target).blockers(&self.blockers);
        self.pathfinder.search(grid, q, &mut self.scratch, &mut ());
        (self.scratch.status == Status::Found)
            .then(|| self.scratch.path.get(1).copied())
            .flatten()
    }

    /// Cells a full reverse Dijkstra map from `from` would expand: its whole region.
    fn reachable_from(&mut self, grid: &Grid, from: Pos, options: SearchOptions) -> u64 {
        let Some(cell) = grid.index(from) else {
            return 0;
        };
        let regions = self.pathfinder.regions(grid, options.neighbourhood);
        u64::from(regions.size(regions.label(cell)))
    }
}

/// Plans each monster of `chunk` but the traced one with `pf`; returns (expanded, searches).
fn plan_chunk(
    pf: &mut Pathfinder,
    grid: &Grid,
    goal: Pos,
    options: SearchOptions,
    chunk: &mut [Monster],
    traced: Option<u32>,
) -> (u64, u32) {
    let mut total = (0u64, 0u32);
    for m in chunk.iter_mut().filter(|m| Some(m.id) != traced) {
        let q = Query::new(m.pos, goal).options(options);
        pf.search(grid, q, &mut m.plan, &mut ());
        total = (total.0 + u64::from(m.plan.expanded), total.1 + 1);
        PLANNED.fetch_add(1, Ordering::Relaxed);
    }
    total
}
