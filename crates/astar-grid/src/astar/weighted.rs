//! A* on grids that are not uniform, and toward [`Target`]s: a step costs its base cost (the
//! grid's [`Steps`](crate::grid::Steps)) times the cost of the cell it enters. It is a search
//! of its own, apart from the uniform fast path of [`board`], whose packed nodes and move
//! pruning both rest on every step costing 10 or 14: with costs, G needs more than 28 bits,
//! and a cell the parent can step to directly may still be cheaper through the node (a
//! straight step into a cheap cell and on into a dear one beats a diagonal into the dear
//! one when it costs enough), so every legal move is tried.
//!
//! The rules are the same as on uniform grids: F = G + weighted H, ties to the lower
//! weighted H, then reading order (or last in, first out), a parent changes only on a
//! strictly better G, closed nodes are never reopened. H is the target's estimate: for one
//! goal cell, the heuristic times the grid's lowest cost, so that it stays admissible (and
//! consistent when it was).
//!
//! Costs stay below [`MAX_COST`]: a step that would pass it is not taken, which cannot lose
//! an optimal path to a goal found (it costs less than that step's end); a search that
//! found no goal after dropping one says [`Status::TooCostly`].

use super::board::{self, NEXT_MOVES, NO_PARENT, direction_offsets, open_bits, rule_index};
use super::queue::{BucketQueue, FifoQueue, OpenList};
use super::{MAX_COST, Query, SearchResult, Status, Target, Ties, TraceEvent, Tracer};
use crate::grid::{DIRECTIONS, Grid, Pos};

/// The buffers of weighted searches, kept between them.
#[derive(Debug, Clone, Default)]
pub(super) struct Weighted {
    /// The revision of the grid copied in, or 0 (no grid has it) before the first.
    revision: u64,
    /// Row stride of the padded arrays: the map with a one-cell blocked border.
    stride: usize,
    /// Per padded cell: the cost of entering it, 0 where nobody may.
    cost: Vec<u8>,
    /// Per padded cell: which of its eight neighbours may be entered, bit `d` for
    /// direction `d` of [`DIRECTIONS`].
    open: Vec<u8>,
    /// Per padded cell, what the current search knows of it. One array rather than one per
    /// field, so that a node's mark and G share a page: on a big map a search touches a
    /// thin band of it, and a first plan's time went to faulting fresh pages in.
    nodes: Vec<Node>,
    generation: u32,
    /// The open lists: lower H first, last in first out, and first in first out.
    queue: BucketQueue<false>,
    queue_lifo: BucketQueue<true>,
    queue_fifo: FifoQueue,
    /// The found path, goal first.
    trail: Vec<Pos>,
}

/// Bits of [`Node::mark`] below the generation: the direction of the step that reached
/// the node (or [`NO_PARENT`]) and whether it is closed.
const MARK_BITS: u32 = 5;
/// The direction's bits in [`Node::mark`].
const DIR_MASK: u32 = 0b11110;

/// A node of a weighted search.
#[derive(Debug, Clone, Copy, Default)]
struct Node {
    /// `generation << MARK_BITS | direction << 1 | closed` when the current search touched
    /// the node; an older generation otherwise.
    mark: u32,
    /// The best known G, when touched.
    g: u32,
}

impl Node {
    /// The mark without the direction: `generation << MARK_BITS | closed`.
    fn state(self) -> u32 {
        self.mark & !DIR_MASK
    }

    fn dir(self) -> u32 {
        (self.mark & DIR_MASK) >> 1
    }
}

impl Weighted {
    /// Runs the A* of `q` toward `target` on `grid` (`q.goal` only exempts a cell from the
    /// occupancy); the start is valid and the options are not greedy.
    pub(super) fn search<T: Tracer>(
        &mut self,
        grid: &Grid,
        q: &Query<'_>,
        target: &impl Target,
        result: &mut SearchResult,
        tracer: &mut T,
    ) {
        self.prepare(grid);
        let mut queue = std::mem::take(&mut self.queue);
        let mut lifo = std::mem::take(&mut self.queue_lifo);
        match q.options.ties {
            Ties::LowerH => self.run(grid, q, target, result, tracer, &mut queue),
            Ties::Lifo => self.run(grid, q, target, result, tracer, &mut lifo),
            Ties::Fifo => {
                let mut fifo = std::mem::take(&mut self.queue_fifo);
                self.run(grid, q, target, result, tracer, &mut fifo);
                self.queue_fifo = fifo;
            }
        }
        (self.queue, self.queue_lifo) = (queue, lifo);
    }

    /// Takes `from`'s nodes (with their generation) when this engine has none: the nodes
    /// are a search's scratch, not the grid's, so one set serves a thread that searches
    /// several grids in turn.
    pub(super) fn take_nodes(&mut self, from: &mut Weighted) {
        if self.nodes.is_empty() && !from.nodes.is_empty() {
            self.nodes = std::mem::take(&mut from.nodes);
            self.generation = from.generation;
        }
    }

    /// Copies the costs and the walls around each cell when the map changed: the changed
    /// cells alone when the grid still knows them, the whole grid otherwise.
    fn prepare(&mut self, grid: &Grid) {
        if self.revision == grid.revision() {
            return;
        }
        let (w, h) = (grid.width(), grid.height());
        let stride = w + 2;
        let cells = stride * (h + 2);
        if self.stride == stride && self.cost.len() == cells {
            if let Some(changed) = grid.changes_since(self.revision) {
                let offsets = direction_offsets(stride);
                for i in changed {
                    let c = (i / w.max(1) + 1) * stride + i % w.max(1) + 1;
                    self.cost[c] = grid.costs()[i];
                    self.open_around(c, &offsets);
                }
                self.revision = grid.revision();
                return;
            }
        } else {
            self.cost = vec![0; cells];
            self.open = vec![0; cells];
        }
        self.stride = stride;
        for (y, row) in grid.costs().chunks(w.max(1)).enumerate() {
            let base = (y + 1) * stride + 1;
            self.cost[base..base + row.len()].copy_from_slice(row);
        }
        open_bits(&self.cost, &mut self.open, stride);
        self.revision = grid.revision();
    }

    /// Which neighbours of padded cell `c` may be entered (none if `c` itself may not).
    fn open_of(&self, c: usize, offsets: &[usize; 8]) -> u8 {
        let mut open = 0u8;
        if self.cost[c] != 0 {
            for (d, &off) in offsets.iter().enumerate() {
                open |= u8::from(self.cost[c.wrapping_add(off)] != 0) << d;
            }
        }
        open
    }

    /// Recomputes the open bits of `c` and of its neighbours, after `c` changed.
    fn open_around(&mut self, c: usize, offsets: &[usize; 8]) {
        self.open[c] = self.open_of(c, offsets);
        for &off in offsets {
            let n = c.wrapping_add(off);
            // A blocked neighbour (the border too) is open to nothing already.
            if self.cost[n] != 0 {
                self.open[n] = self.open_of(n, offsets);
            }
        }
    }

    fn run<T: Tracer, Q: OpenList>(
        &mut self,
        grid: &Grid,
        q: &Query<'_>,
        target: &impl Target,
        result: &mut SearchResult,
        tracer: &mut T,
        queue: &mut Q,
    ) {
        let (start, goal, opts) = (q.start, q.goal, &q.options);
        if self.nodes.len() != self.cost.len() {
            // Written out in full, not left as zeroed pages: a search reads a node before it
            // writes it, and a zeroed page read first maps the shared zero page, copied at
            // the first write with every core's TLB flushed. Zeroed pages (calloc) made the
            // first frame of a 1024x1024 cave 20 to 30% slower than this one pass.
            self.nodes = vec![Node::default(); self.cost.len()];
            self.generation = 0;
        }
        if self.generation >= (u32::MAX >> MARK_BITS) - 1 {
            self.nodes.fill(Node::default());
            self.generation = 0;
        }
        self.generation += 1;
        let open = self.generation << MARK_BITS;
        let closed = open | 1;
        let weight = opts.weight;
        // Estimates stay below MAX_COST, so that F = G + weighted H fits in 32 bits.
        let estimate = |p: Pos| {
            let h = target.estimate(grid, p).min(MAX_COST);
            (h, weight.apply(h).min(MAX_COST))
        };
        let stride = self.stride;
        let offsets = direction_offsets(stride);
        let width = stride - 2;
        let moves_of = &NEXT_MOVES[rule_index(opts.neighbourhood)][NO_PARENT as usize];
        let steps = grid.steps();
        let step = |d: usize| {
            if d < 4 {
                steps.straight()
            } else {
                steps.diagonal()
            }
        };
        let cap = opts.cap.unwrap_or(u32::MAX);
        let cell = |p: Pos| (p.y as usize + 1) * stride + p.x as usize + 1;
        let (s, t) = (
            cell(start),
            grid.index(goal).map_or(usize::MAX, |_| cell(goal)),
        );

        let (h0, hw0) = estimate(start);
        self.nodes[s] = Node {
            mark: open | NO_PARENT << 1,
            g: 0,
        };
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
        let mut too_costly = false;
        // As on the fast path: a node's H is fixed, so its best entry pops first and every
        // later one finds it closed.
        loop {
            let nodes = &self.nodes;
            let Some((_, key)) = queue.pop(|_, key| nodes[key as u32 as usize].state() != closed)
            else {
                break;
            };
            let c = key as u32 as usize;
            if self.nodes[c].state() == closed {
                continue;
            }
            if expanded >= cap {
                return result.set(Status::CapReached, None, expanded);
            }
            self.nodes[c].mark |= 1;
            expanded += 1;
            let p = Pos::new((c % stride) as i32 - 1, (c / stride) as i32 - 1);
            if T::ENABLED {
                tracer.event(TraceEvent::Close { cell: p });
            }
            let g = self.nodes[c].g;
            if target.is_goal(p) {
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
                // G stays at most MAX_COST and a step costs at most 1000 * 2 * 255, so no
                // sum here overflows.
                let ng = g + step(d) * u32::from(self.cost[n]);
                if ng > MAX_COST {
                    too_costly = true;
                    continue;
                }
                let node = self.nodes[n];
                let st = node.state();
                if st == closed || st == open && node.g <= ng {
                    continue;
                }
                self.nodes[n] = Node {
                    mark: open | (d as u32) << 1,
                    g: ng,
                };
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
        let status = if too_costly {
            Status::TooCostly
        } else {
            Status::Unreachable
        };
        result.set(status, None, expanded);
    }

    /// Writes the path that ends at `c` (at `end`) into `path`, start first.
    fn write_path(&mut self, c: usize, end: Pos, path: &mut Vec<Pos>) {
        let nodes = &self.nodes;
        let offsets = direction_offsets(self.stride);
        let by = |at: usize| nodes[at].dir();
        board::write_path(by, offsets, (c, end), &mut self.trail, path);
    }
}

#[cfg(test)]
mod tests {
    use super::MARK_BITS;
    use crate::astar::{Pathfinder, Query};
    use crate::grid::{Grid, Pos};

    /// At the generation's limit the marks start again from zero: two engines handing one
    /// buffer back and forth across it answer every search as fresh engines do.
    #[test]
    fn searches_across_the_generation_s_limit_answer_as_fresh_ones() {
        let one = Grid::from_rows(&[
            "..3.....2...",
            ".#3#..#..3..",
            "..2...#.....",
            "3.....#..2..",
        ]);
        let two = Grid::from_rows(&[
            ".2..........",
            ".#3#..3..#..",
            "....3.#.....",
            "3.2...#.....",
        ]);
        let there = Query::new(Pos::new(0, 0), Pos::new(11, 3));
        let back = Query::new(Pos::new(11, 3), Pos::new(0, 0));
        let mut engines = [Pathfinder::new(), Pathfinder::new()];
        // A first search that touches a corner only: most nodes are still as made when the
        // generation comes to its limit.
        engines[0].find(&one, Query::new(Pos::new(0, 0), Pos::new(1, 0)));
        engines[0].weighted.generation = u32::MAX >> MARK_BITS;
        for round in 0..8 {
            let [a, b] = &mut engines;
            let (pf, theirs) = if round % 2 == 0 { (b, a) } else { (a, b) };
            pf.take_buffers_from(theirs);
            for (grid, q) in [(&one, there), (&two, back), (&two, there)] {
                let got = pf.find(grid, q);
                let fresh = Pathfinder::new().find(grid, q);
                assert_eq!(
                    (got.path, got.cost, got.expanded),
                    (fresh.path, fresh.cost, fresh.expanded),
                    "round {round}"
                );
            }
        }
    }
}
