//! A* on weighted grids: a step costs its base cost (10 straight, 14 diagonal) times the
//! weight of the cell it enters. It is a search of its own, apart from the unweighted fast
//! path of [`board`], whose packed nodes and move pruning both rest on every
//! step costing its base cost: with weights, G needs more than 28 bits on the largest maps,
//! and a cell the parent can step to directly may still be cheaper through the node (a
//! straight step into floor and on into water beats a diagonal into the water when water
//! weighs enough), so every legal move is tried.
//!
//! The rules are the same as on unweighted grids: F = G + weighted H, ties to the lower
//! weighted H, then reading order (or last in, first out), a parent changes only on a
//! strictly better G, closed nodes are never reopened. H is the heuristic times the lowest
//! terrain weight, so that it stays admissible (and consistent when it was).

use super::board::{self, COSTS, NEXT_MOVES, NO_PARENT, direction_offsets, rule_index};
use super::queue::{BucketQueue, FifoQueue, OpenList};
use super::{MAX_SEARCH_CELLS, Query, SearchResult, Status, Ties, TraceEvent, Tracer};
use crate::grid::{DIRECTIONS, Grid, Pos};

/// The buffers of weighted searches, kept between them.
#[derive(Debug, Clone, Default)]
pub(super) struct Weighted {
    /// The revision of the grid copied in, or 0 (no grid has it) before the first.
    revision: u64,
    /// Row stride of the padded arrays: the map with a one-cell impassable border.
    stride: usize,
    /// Per padded cell: the weight of entering it, 0 where nobody may.
    weight: Vec<u8>,
    /// Per padded cell: which of its eight neighbours may be entered, bit `d` for
    /// direction `d` of [`DIRECTIONS`].
    open: Vec<u8>,
    /// Per padded cell: `generation << 1 | closed` when touched by the current search.
    stamp: Vec<u32>,
    /// Per padded cell: the best known G.
    g: Vec<u32>,
    /// Per padded cell: the direction of the step that reached it, or [`NO_PARENT`].
    dir: Vec<u8>,
    generation: u32,
    /// The open lists: lower H first, last in first out, and first in first out.
    queue: BucketQueue<false>,
    queue_lifo: BucketQueue<true>,
    queue_fifo: FifoQueue,
    /// The found path, goal first.
    trail: Vec<Pos>,
}

impl Weighted {
    /// Runs the A* of `q` on `grid`; the endpoints are valid and connected, and the options
    /// are not greedy.
    pub(super) fn search<T: Tracer>(
        &mut self,
        grid: &Grid,
        q: &Query<'_>,
        result: &mut SearchResult,
        tracer: &mut T,
    ) {
        self.prepare(grid);
        let mut queue = std::mem::take(&mut self.queue);
        let mut lifo = std::mem::take(&mut self.queue_lifo);
        match q.options.ties {
            Ties::LowerH => self.run(grid, q, result, tracer, &mut queue),
            Ties::Lifo => self.run(grid, q, result, tracer, &mut lifo),
            Ties::Fifo => {
                let mut fifo = std::mem::take(&mut self.queue_fifo);
                self.run(grid, q, result, tracer, &mut fifo);
                self.queue_fifo = fifo;
            }
        }
        (self.queue, self.queue_lifo) = (queue, lifo);
    }

    /// Copies the weights and the walls around each cell when the map changed.
    fn prepare(&mut self, grid: &Grid) {
        if self.revision == grid.revision() {
            return;
        }
        assert!(
            grid.len() <= MAX_SEARCH_CELLS,
            "grids of more than {MAX_SEARCH_CELLS} cells are not searched"
        );
        let (w, h) = (grid.width(), grid.height());
        let stride = w + 2;
        let cells = stride * (h + 2);
        if self.stride != stride || self.weight.len() != cells {
            self.weight = vec![0; cells];
            self.open = vec![0; cells];
            self.stamp = vec![0; cells];
            self.g = vec![0; cells];
            self.dir = vec![NO_PARENT as u8; cells];
            self.generation = 0;
        }
        self.stride = stride;
        let weights = grid.weights();
        for (y, row) in grid.tiles().chunks(w.max(1)).enumerate() {
            let base = (y + 1) * stride + 1;
            for (x, &t) in row.iter().enumerate() {
                self.weight[base + x] = weights.get(t) as u8;
            }
        }
        let offsets = direction_offsets(stride);
        for c in stride..cells - stride {
            let mut open = 0u8;
            if self.weight[c] != 0 {
                for (d, &off) in offsets.iter().enumerate() {
                    open |= u8::from(self.weight[c.wrapping_add(off)] != 0) << d;
                }
            }
            self.open[c] = open;
        }
        self.revision = grid.revision();
    }

    fn run<T: Tracer, Q: OpenList>(
        &mut self,
        grid: &Grid,
        q: &Query<'_>,
        result: &mut SearchResult,
        tracer: &mut T,
        queue: &mut Q,
    ) {
        let (start, goal, opts) = (q.start, q.goal, &q.options);
        if self.generation >= u32::MAX / 2 - 1 {
            self.stamp.fill(0);
            self.generation = 0;
        }
        self.generation += 1;
        let open = self.generation << 1;
        let closed = open | 1;
        let scale = grid.weights().lowest();
        let (heuristic, weight) = (opts.heuristic, opts.weight);
        let estimate = |p: Pos| {
            let h = heuristic.estimate(p.x.abs_diff(goal.x), p.y.abs_diff(goal.y)) * scale;
            (h, weight.apply(h))
        };
        let stride = self.stride;
        let offsets = direction_offsets(stride);
        let width = stride - 2;
        let moves_of = &NEXT_MOVES[rule_index(opts.neighbourhood)][NO_PARENT as usize];
        let cap = opts.cap.unwrap_or(u32::MAX);
        let cell = |p: Pos| (p.y as usize + 1) * stride + p.x as usize + 1;
        let (s, t) = (cell(start), cell(goal));

        let (h0, hw0) = estimate(start);
        self.stamp[s] = open;
        self.g[s] = 0;
        self.dir[s] = NO_PARENT as u8;
        queue.start(hw0, (u64::from(hw0) << 32) | s as u64);
        if T::ENABLED {
            tracer.event(TraceEvent::Open {
                cell: start,
                g: 0,
                h: h0,
                f: hw0,
                parent: None,
            });
        }
        let mut expanded = 0u32;
        // As on the fast path: a node's H is fixed, so its best entry pops first and every
        // later one finds it closed.
        loop {
            let stamp = &self.stamp;
            let Some((_, key)) = queue.pop(|_, key| stamp[key as u32 as usize] != closed) else {
                break;
            };
            let c = key as u32 as usize;
            if self.stamp[c] == closed {
                continue;
            }
            if expanded >= cap {
                return result.set(Status::CapReached, None, expanded);
            }
            self.stamp[c] = closed;
            expanded += 1;
            let p = Pos::new((c % stride) as i32 - 1, (c / stride) as i32 - 1);
            if T::ENABLED {
                tracer.event(TraceEvent::Close { cell: p });
            }
            let g = self.g[c];
            if c == t {
                self.write_path(c, p, &mut result.path);
                return result.set(Status::Found, Some(g), expanded);
            }
            let here = p.y as usize * width + p.x as usize;
            let mut moves = u32::from(moves_of[usize::from(self.open[c])]);
            while moves != 0 {
                let d = moves.trailing_zeros() as usize & 7;
                moves &= moves - 1;
                let n = c.wrapping_add(offsets[d]);
                let (dx, dy) = DIRECTIONS[d];
                let np = Pos::new(p.x + dx, p.y + dy);
                if !q.occupied.is_empty() && n != t {
                    let o = (here as isize + dx as isize + dy as isize * width as isize) as usize;
                    if q.occupied[o] != 0 {
                        continue;
                    }
                }
                let ng = g + COSTS[d] * u32::from(self.weight[n]);
                let st = self.stamp[n];
                if st == closed || st == open && self.g[n] <= ng {
                    continue;
                }
                self.stamp[n] = open;
                self.g[n] = ng;
                self.dir[n] = d as u8;
                let (h, hw) = estimate(np);
                queue.push(ng + hw, (u64::from(hw) << 32) | n as u64);
                if T::ENABLED {
                    tracer.event(TraceEvent::Open {
                        cell: np,
                        g: ng,
                        h,
                        f: ng + hw,
                        parent: Some(p),
                    });
                }
            }
        }
        result.set(Status::Unreachable, None, expanded);
    }

    /// Writes the path that ends at `c` (at `end`) into `path`, start first.
    fn write_path(&mut self, c: usize, end: Pos, path: &mut Vec<Pos>) {
        let dir = &self.dir;
        let offsets = direction_offsets(self.stride);
        let by = |at: usize| u32::from(dir[at]);
        board::write_path(by, offsets, (c, end), &mut self.trail, path);
    }
}
