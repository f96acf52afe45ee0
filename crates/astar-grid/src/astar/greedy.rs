//! Greedy best-first search: the open list ordered by H alone. It ignores what a path has
//! cost so far, so it often expands far fewer nodes than A* and often finds a longer path:
//! the lab shows it beside A* for exactly that contrast.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::{MAX_COST, Query, SearchResult, Status, Ties, TraceEvent, Tracer};
use crate::grid::{DIRECTIONS, Grid, Neighbourhood, Pos};

/// The buffers of greedy searches, kept between them.
#[derive(Debug, Clone, Default)]
pub(super) struct Greedy {
    /// Per cell: the search that last touched it (its stamp), so nothing needs clearing.
    stamp: Vec<u32>,
    /// Per cell: the best known G, in 64 bits: greedy paths are not cheapest and may run
    /// past [`MAX_COST`] before they end.
    g: Vec<u64>,
    parent: Vec<u32>,
    closed: Vec<bool>,
    generation: u32,
    /// Entries `(H, tie, cell, G)`, lowest first: `tie` is G under [`Ties::LowerH`] (lower
    /// H, then lower G, then reading order by the cell), counts down from `u64::MAX` as
    /// entries are queued under [`Ties::Lifo`] (the last queued first), and up from 0 under
    /// [`Ties::Fifo`] (the first queued first).
    heap: BinaryHeap<Reverse<(u32, u64, u32, u64)>>,
}

const NONE: u32 = u32::MAX;

impl Greedy {
    /// Runs a greedy best-first search; the endpoints are valid and connected.
    pub(super) fn search<T: Tracer>(
        &mut self,
        grid: &Grid,
        q: &Query<'_>,
        result: &mut SearchResult,
        tracer: &mut T,
    ) {
        let generation = self.begin(grid.len());
        let opts = &q.options;
        let heuristic = opts.heuristic;
        // H is scaled as A*'s is, and steps cost their cell's cost times the grid's steps.
        let (scale, steps) = (grid.lowest_cost(), grid.steps());
        let h = |p: Pos| {
            heuristic
                .estimate_steps(
                    p.x.abs_diff(q.goal.x),
                    p.y.abs_diff(q.goal.y),
                    steps.straight(),
                    steps.diagonal(),
                )
                .saturating_mul(scale)
                .min(MAX_COST)
        };
        let blocked = |p: Pos| q.is_taken(grid, p);
        let dirs: &[(i32, i32)] = if opts.neighbourhood == Neighbourhood::Four {
            &DIRECTIONS[..4]
        } else {
            &DIRECTIONS
        };
        let Some(s) = grid.index(q.start) else { return };
        self.touch(s, generation, 0, NONE);
        let h0 = h(q.start);
        let (mut down, mut up) = (u64::MAX, 0);
        let mut tie = |g: u64| match opts.ties {
            Ties::Lifo => {
                down -= 1;
                down
            }
            Ties::Fifo => {
                up += 1;
                up
            }
            Ties::LowerH => g,
        };
        self.heap.push(Reverse((h0, tie(0), s as u32, 0)));
        if T::ENABLED {
            tracer.event(opened(q.start, 0, h0, None));
        }
        let cap = opts.cap.unwrap_or(u32::MAX);
        let mut expanded = 0u32;
        while let Some(Reverse((_, _, c, g))) = self.heap.pop() {
            let c = c as usize;
            let p = grid.pos(c);
            if self.closed[c] || self.g[c] != g {
                continue;
            }
            if expanded >= cap {
                return fail(result, Status::CapReached, expanded);
            }
            self.closed[c] = true;
            expanded += 1;
            if T::ENABLED {
                tracer.event(TraceEvent::Close { cell: p });
            }
            if p == q.goal {
                return self.found(grid, c, g, expanded, result);
            }
            for (d, &(dx, dy)) in dirs.iter().enumerate() {
                if !grid.can_step(p, dx, dy, opts.neighbourhood) {
                    continue;
                }
                let np = p.offset(dx, dy);
                if blocked(np) {
                    continue;
                }
                let nc = grid.index(np).unwrap_or(0);
                let base = if d < 4 {
                    steps.straight()
                } else {
                    steps.diagonal()
                };
                let ng = g + u64::from(base * u32::from(grid.cost(np)));
                let known = self.stamp[nc] == generation;
                if known && (self.closed[nc] || self.g[nc] <= ng) {
                    continue;
                }
                self.touch(nc, generation, ng, c as u32);
                let nh = h(np);
                self.heap.push(Reverse((nh, tie(ng), nc as u32, ng)));
                if T::ENABLED {
                    tracer.event(opened(np, ng, nh, Some(p)));
                }
            }
        }
        fail(result, Status::Unreachable, expanded);
    }

    /// Readies the buffers for a grid of `n` cells; returns the new search's generation.
    fn begin(&mut self, n: usize) -> u32 {
        if self.stamp.len() != n {
            self.stamp = vec![0; n];
            self.g = vec![0; n];
            self.parent = vec![NONE; n];
            self.closed = vec![false; n];
            self.generation = 0;
        }
        self.generation = self.generation.wrapping_add(1).max(1);
        self.heap.clear();
        self.generation
    }

    /// The result on reaching the goal, cell `c`, at cost `g`.
    fn found(&self, grid: &Grid, c: usize, g: u64, expanded: u32, result: &mut SearchResult) {
        result.path.clear();
        let mut at = c as u32;
        while at != NONE {
            result.path.push(grid.pos(at as usize));
            at = self.parent[at as usize];
        }
        result.path.reverse();
        result.expanded = expanded;
        // The path greedy followed may cost more than the engine reports; it is not
        // the cheapest one, and a cheaper one may exist.
        match u32::try_from(g).ok().filter(|&g| g <= MAX_COST) {
            Some(g) => (result.status, result.cost) = (Status::Found, Some(g)),
            None => {
                result.path.clear();
                (result.status, result.cost) = (Status::TooCostly, None);
            }
        }
    }

    fn touch(&mut self, c: usize, generation: u32, g: u64, parent: u32) {
        if self.stamp[c] != generation {
            self.stamp[c] = generation;
            self.closed[c] = false;
        }
        self.g[c] = g;
        self.parent[c] = parent;
    }
}

/// A search that ends without a path: `status` says why.
fn fail(result: &mut SearchResult, status: Status, expanded: u32) {
    result.path.clear();
    result.status = status;
    result.cost = None;
    result.expanded = expanded;
}

/// A cell opened with its G and H: greedy's F is H alone.
fn opened(cell: Pos, g: u64, h: u32, parent: Option<Pos>) -> TraceEvent {
    TraceEvent::Open {
        cell,
        // A trace's G stays below the engine's limit, as a result's does.
        g: g.min(u64::from(MAX_COST)) as u32,
        h,
        f: h,
        parent,
    }
}
