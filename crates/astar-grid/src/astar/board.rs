//! The A* search proper, on packed per-cell state: a node's stamp, walls, G and parent in
//! 8 bytes ([`Node`]), a padded board so that no neighbour needs a bounds check, and the
//! lookup tables that pick the moves worth trying from a node. Nothing here is public: the
//! API is [`Pathfinder`](super::Pathfinder).

use super::queue::{BucketQueue, FifoQueue, LifoRing, OpenList, RingQueue, narrow_shift};
use super::{Heuristic, Query, SearchResult, Status, Ties, TraceEvent, Tracer, Weight};
use crate::grid::{DIAGONAL, DIRECTIONS, Grid, Neighbourhood, Pos, STRAIGHT};

/// The open lists of A*, kept between searches: one per kind of search and tie rule.
#[derive(Debug, Clone, Default)]
pub(super) struct Queues {
    /// Octile, Chebyshev and zero searches at weight exactly 1, lower H first.
    ring: RingQueue<u64>,
    /// The same on boards whose keys fit in 32 bits.
    ring32: RingQueue<u32>,
    /// The same searches under [`Ties::Lifo`].
    lifo: LifoRing,
    /// Every other search, whose F can spread arbitrarily far, lower H first.
    queue: BucketQueue<false>,
    /// The same under [`Ties::Lifo`].
    queue_lifo: BucketQueue<true>,
    /// Every search under [`Ties::Fifo`], the ring's too.
    queue_fifo: FifoQueue,
}

/// The direction field of a node without a parent (the start).
pub(super) const NO_PARENT: u32 = 15;

/// The search state of one cell and its walls in 8 bytes, so that a neighbour costs one
/// cache line: `stamp << 48 | open << 32 | !(g << 4 | d)`.
///
/// `stamp` is `generation << 1 | closed` when touched by the current search (older stamps
/// are smaller); `open` which of its eight neighbours have no wall, bit `d` for direction
/// `d` of [`DIRECTIONS`], set once per grid revision (with the direction that reached the
/// node, it picks the moves to try from [`NEXT_MOVES`]); `g` the best known cost from
/// the start and `d` the direction of the step that reached it (the parent is one step back)
/// or [`NO_PARENT`]. Costs fit in 28 bits: a path has fewer steps than the 2^24 cells of the
/// largest map, each at most 14 < 2^4. Storing G inverted below the stamp makes "is `ng` an
/// improvement" a single comparison, see [`Node::state`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Node(u64);

/// The bits of [`Node`] holding the walls around it.
const OPEN: u64 = 0xFF << 32;

/// The last generation whose stamps fit in a [`Node`]'s 16 bits.
const MAX_GENERATION: u32 = (1 << 15) - 1;

impl Node {
    /// This node's walls with a new search state.
    #[inline(always)]
    fn with(self, stamp: u32, g: u32, dir: u32) -> Self {
        Node(self.0 & OPEN | u64::from(stamp) << 48 | u64::from(!(g << 4 | dir)))
    }

    /// Which neighbours have no wall, bit `d` for direction `d`.
    #[inline(always)]
    fn open(self) -> usize {
        (self.0 >> 32) as usize & 0xFF
    }

    #[inline(always)]
    fn g(self) -> u32 {
        !(self.0 as u32) >> 4
    }

    #[inline(always)]
    fn dir(self) -> u32 {
        !(self.0 as u32) & 15
    }

    /// The search state alone: below `open << 48 | (!(ng << 4) & !15)` exactly when the
    /// node is untouched by the search stamped `open` (older stamp) or open there with a G
    /// above `ng`; closed nodes (`open | 1`) never are. So "does `ng` improve it" is one
    /// comparison.
    #[inline(always)]
    fn state(self) -> u64 {
        self.0 & !OPEN
    }
}

/// The per-cell arrays of a [`Pathfinder`](super::Pathfinder), apart from its open lists so
/// that a search can borrow both.
#[derive(Debug, Clone, Default)]
pub(super) struct Board {
    /// The revision of the grid copied in, or 0 (no grid has it) before the first.
    revision: u64,
    /// Row stride of the padded arrays: the map with a one-cell impassable border.
    stride: usize,
    /// `2^64 / stride` rounded up: turns the cell-to-row division into a multiplication.
    stride_magic: u64,
    /// Per padded cell: whether no wall is there (scratch of [`Board::prepare`]).
    walkable: Vec<bool>,
    /// Per padded cell, stamp, legal moves, G and parent together.
    nodes: Vec<Node>,
    generation: u32,
    /// The found path, goal first, as [`Board::write_path`] walks it back.
    trail: Vec<Pos>,
    /// Where H begins in a 32-bit open-list key, if this board's cells and estimates fit in
    /// one (see [`narrow_shift`]).
    narrow: Option<u32>,
}

impl Board {
    /// Runs the A* of `q` on the prepared board, on the open list and the loop copy its
    /// options call for. `OCCUPIED` says whether `q` has an occupancy to read.
    pub(super) fn run<T: Tracer, const OCCUPIED: bool>(
        &mut self,
        q: &Query<'_>,
        result: &mut SearchResult,
        tracer: &mut T,
        queues: &mut Queues,
    ) {
        let opts = &q.options;
        if opts.weight != Weight::ONE
            || !matches!(
                opts.heuristic,
                Heuristic::Octile | Heuristic::Chebyshev | Heuristic::Zero
            )
        {
            // Inconsistent or weighted: F may spread anywhere, so the growable queue.
            let (heuristic, weight) = (opts.heuristic, opts.weight);
            let estimate = |dx, dy| {
                let h = heuristic.estimate(dx, dy);
                (h, weight.apply(h))
            };
            return match opts.ties {
                Ties::LowerH => self.search_loop::<T, _, _, OCCUPIED, false>(
                    q,
                    result,
                    tracer,
                    &mut queues.queue,
                    estimate,
                ),
                Ties::Lifo => self.search_loop::<T, _, _, OCCUPIED, false>(
                    q,
                    result,
                    tracer,
                    &mut queues.queue_lifo,
                    estimate,
                ),
                Ties::Fifo => self.search_loop::<T, _, _, OCCUPIED, false>(
                    q,
                    result,
                    tracer,
                    &mut queues.queue_fifo,
                    estimate,
                ),
            };
        }
        match opts.ties {
            Ties::LowerH => match self.narrow {
                Some(shift) => {
                    queues.ring32.set_shift(shift);
                    self.ring_search::<T, _, OCCUPIED>(q, result, tracer, &mut queues.ring32)
                }
                None => self.ring_search::<T, _, OCCUPIED>(q, result, tracer, &mut queues.ring),
            },
            Ties::Lifo => self.ring_search::<T, _, OCCUPIED>(q, result, tracer, &mut queues.lifo),
            Ties::Fifo => {
                self.ring_search::<T, _, OCCUPIED>(q, result, tracer, &mut queues.queue_fifo)
            }
        }
    }

    /// Resizes the buffers and copies passability when the map changed: the changed cells
    /// alone when the grid still knows them, the whole grid otherwise.
    pub(super) fn prepare(&mut self, grid: &Grid) {
        // Grid revisions start at 1, so a new board never matches.
        if self.revision == grid.revision() {
            return;
        }
        let (w, h) = (grid.width(), grid.height());
        let stride = w + 2;
        let cells = stride * (h + 2);
        let offsets = direction_offsets(stride);
        // The stride and the cell count together fix the width and the height.
        if self.stride == stride && self.walkable.len() == cells {
            if let Some(changed) = grid.changes_since(self.revision) {
                for i in changed {
                    let c = (i / w.max(1) + 1) * stride + i % w.max(1) + 1;
                    self.walkable[c] = grid.costs()[i] != 0;
                    self.set_open(c, &offsets);
                    for &off in &offsets {
                        self.set_open(c.wrapping_add(off), &offsets);
                    }
                }
                self.revision = grid.revision();
                return;
            }
        } else {
            self.walkable = vec![false; cells];
            self.nodes = vec![Node::default().with(0, 0, NO_PARENT); cells];
            self.generation = 0;
        }
        self.stride = stride;
        // Exact for every 32-bit cell index (Lemire, Kaser and Kurz, 2019); stride >= 3.
        self.stride_magic = (u64::MAX / stride as u64).wrapping_add(1);
        let mut enterable = vec![0u8; cells];
        for (y, row) in grid.costs().chunks(w.max(1)).enumerate() {
            let base = (y + 1) * stride + 1;
            enterable[base..base + row.len()].copy_from_slice(row);
            for (x, &cost) in row.iter().enumerate() {
                self.walkable[base + x] = cost != 0;
            }
        }
        let mut open = vec![0u8; cells];
        open_bits(&enterable, &mut open, stride);
        for (node, &o) in self.nodes.iter_mut().zip(&open) {
            *node = Node(node.0 & !OPEN | u64::from(o) << 32);
        }
        // Octile bounds the ring's estimates (Chebyshev and zero are below it).
        let max_h =
            Heuristic::Octile.estimate(w.saturating_sub(1) as u32, h.saturating_sub(1) as u32);
        self.narrow = narrow_shift(cells, max_h);
        self.revision = grid.revision();
    }

    /// Sets the walls around padded cell `c` in its node from [`Board::walkable`] (none
    /// open from a wall, nor from the border).
    #[inline]
    fn set_open(&mut self, c: usize, offsets: &[usize; 8]) {
        if c < self.stride || c >= self.walkable.len() - self.stride {
            return;
        }
        let mut open = 0u64;
        if self.walkable[c] {
            for (d, &off) in offsets.iter().enumerate() {
                open |= u64::from(self.walkable[c.wrapping_add(off)]) << d;
            }
        }
        self.nodes[c] = Node(self.nodes[c].0 & !OPEN | open << 32);
    }

    /// Where H begins in the ring's 32-bit keys on this board, if it takes them.
    #[cfg(test)]
    pub(super) fn narrow(&self) -> Option<u32> {
        self.narrow
    }

    #[inline]
    pub(super) fn cell(&self, p: Pos) -> usize {
        (p.y as usize + 1) * self.stride + p.x as usize + 1
    }

    /// A search at weight exactly 1 with a consistent estimate, on a fixed ring `Q`: the
    /// game's rule gets a copy of the loop of its own, with the octile estimate inlined and
    /// the move masks fixed; octile under the other rules another; Chebyshev and zero, matched
    /// inside the estimate, a third.
    fn ring_search<T: Tracer, Q: OpenList, const OCCUPIED: bool>(
        &mut self,
        q: &Query<'_>,
        result: &mut SearchResult,
        tracer: &mut T,
        ring: &mut Q,
    ) {
        let octile = |dx, dy| {
            let h = Heuristic::Octile.estimate(dx, dy);
            (h, h)
        };
        match q.options.heuristic {
            Heuristic::Octile if q.options.neighbourhood == Neighbourhood::Eight => {
                self.search_loop::<T, _, _, OCCUPIED, true>(q, result, tracer, ring, octile)
            }
            Heuristic::Octile => {
                self.search_loop::<T, _, _, OCCUPIED, false>(q, result, tracer, ring, octile)
            }
            heuristic => {
                self.search_loop::<T, _, _, OCCUPIED, false>(q, result, tracer, ring, |dx, dy| {
                    let h = heuristic.estimate(dx, dy);
                    (h, h)
                })
            }
        }
    }

    /// The search proper; `estimate(dx, dy)` gives H and the weighted H of a cell `dx`
    /// columns and `dy` rows from the goal.
    ///
    /// `OCCUPIED` says whether the query's occupancy is to be read; `EIGHT` promises that
    /// the neighbourhood is [`Neighbourhood::Eight`], so the move table is fixed at compile
    /// time.
    fn search_loop<
        T: Tracer,
        Q: OpenList,
        E: Fn(u32, u32) -> (u32, u32),
        const OCCUPIED: bool,
        const EIGHT: bool,
    >(
        &mut self,
        q: &Query<'_>,
        result: &mut SearchResult,
        tracer: &mut T,
        queue: &mut Q,
        estimate: E,
    ) {
        let (start, goal, opts) = (q.start, q.goal, &q.options);
        if self.generation >= MAX_GENERATION {
            for node in &mut self.nodes {
                *node = node.with(0, node.g(), node.dir());
            }
            self.generation = 0;
        }
        self.generation += 1;
        let open = self.generation << 1;
        let stamp = u64::from(open) << 48;

        let offsets = direction_offsets(self.stride);
        // The occupancy is unpadded: the same directions at the map's own width.
        let width = self.stride - 2;
        let occupied_offsets = direction_offsets(width);
        let next_moves = &NEXT_MOVES[if EIGHT {
            0
        } else {
            rule_index(opts.neighbourhood)
        }];
        let cap = opts.cap.unwrap_or(u32::MAX);
        let (stride, stride_magic) = (self.stride, self.stride_magic);
        let s = self.cell(start);
        let t = self.cell(goal);
        let nodes = &mut self.nodes[..];

        let (h0, hw0) = estimate(start.x.abs_diff(goal.x), start.y.abs_diff(goal.y));
        nodes[s] = nodes[s].with(open, 0, NO_PARENT);
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

        // A node's H is fixed, so a better G is a lower F, and the entry with the node's
        // best G pops first: every other entry of a node finds it closed. So an entry is live
        // exactly when its node is not closed, whose stamp is above every other.
        let closed = stamp | 1 << 48;
        let mut expanded = 0u32;
        while let Some((_, key)) = queue.pop(|_, key| nodes[key as u32 as usize].0 < closed) {
            let c = key as u32 as usize;
            let node = nodes[c];
            if node.0 >= closed {
                continue;
            }
            if expanded >= cap {
                return result.set(Status::CapReached, None, expanded);
            }
            // Open and closed stamps differ in the lowest bit of the stamp alone.
            nodes[c] = Node(node.0 | closed);
            expanded += 1;
            let p = pos_of(c, stride, stride_magic);
            if T::ENABLED {
                tracer.event(TraceEvent::Close { cell: p });
            }
            if c == t {
                self.write_path(c, p, &mut result.path);
                return result.set(Status::Found, Some(node.g()), expanded);
            }
            let here = if OCCUPIED {
                p.y as usize * width + p.x as usize
            } else {
                0
            };
            let (ax, ay) = (p.x - goal.x, p.y - goal.y);
            // `!(g << 4)`: less `cost << 4 | d` it is the G field of the step in direction d.
            let base = node.0 as u32 | 15;
            // Without the moves to cells the parent could step to directly, which already
            // have a G at least as good as any through here (see PARENT_COVERS).
            let mut moves = u32::from(next_moves[node.dir() as usize][node.open()]);
            while moves != 0 {
                let d = moves.trailing_zeros() as usize & 7;
                moves &= moves - 1;
                let n = c.wrapping_add(offsets[d]);
                // `!(ng << 4 | d)`, and the bound `!(ng << 4) & !15` of Node::state.
                let low = base.wrapping_sub(STEPS[d]);
                let old = nodes[n];
                // Occupants only stop entering a cell: corners are walls only.
                if old.state() >= stamp | u64::from(low & !15)
                    || OCCUPIED && q.occupied[here.wrapping_add(occupied_offsets[d])] != 0 && n != t
                {
                    continue;
                }
                nodes[n] = Node(old.0 & OPEN | stamp | u64::from(low));
                let ng = node.g() + COSTS[d];
                let (dx, dy) = DIRECTIONS[d];
                let (h, hw) = estimate((ax + dx).unsigned_abs(), (ay + dy).unsigned_abs());
                queue.push(ng + hw, (u64::from(hw) << 32) | n as u64);
                if T::ENABLED {
                    tracer.event(TraceEvent::Open {
                        cell: Pos::new(p.x + dx, p.y + dy),
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

    /// Writes the path that ends at `c` (at `end`) into `path` (see [`write_path`]).
    fn write_path(&mut self, c: usize, end: Pos, path: &mut Vec<Pos>) {
        let nodes = &self.nodes;
        let offsets = direction_offsets(self.stride);
        write_path(
            |at| nodes[at].dir(),
            offsets,
            (c, end),
            &mut self.trail,
            path,
        );
    }
}

/// Writes the path that ends at padded cell `c` (at `end`) into `path`, start first: one
/// walk back along the directions `dir` gives each cell ([`NO_PARENT`] at the start) into
/// the reused `trail`, whose length then sizes `path`, so that a search allocates it
/// exactly once.
pub(super) fn write_path(
    dir: impl Fn(usize) -> u32,
    offsets: [usize; 8],
    (c, end): (usize, Pos),
    trail: &mut Vec<Pos>,
    path: &mut Vec<Pos>,
) {
    trail.clear();
    let (mut at, mut p) = (c, end);
    loop {
        trail.push(p);
        let d = dir(at);
        if d == NO_PARENT {
            break;
        }
        // Positions by step rather than from the index: no division on the way back.
        let (dx, dy) = DIRECTIONS[d as usize & 7];
        at = at.wrapping_sub(offsets[d as usize & 7]);
        p = Pos::new(p.x - dx, p.y - dy);
    }
    path.extend(trail.iter().rev());
}

/// The cost of a step in each direction of [`DIRECTIONS`].
pub(super) const COSTS: [u32; 8] = [
    STRAIGHT, STRAIGHT, STRAIGHT, STRAIGHT, DIAGONAL, DIAGONAL, DIAGONAL, DIAGONAL,
];

/// `cost << 4 | d` for each direction `d`: added to `g << 4` it gives the [`Node`] fields of
/// the step's end.
const STEPS: [u32; 8] = {
    let mut steps = [0; 8];
    let mut d = 0;
    while d < 8 {
        steps[d] = COSTS[d] << 4 | d as u32;
        d += 1;
    }
    steps
};

/// The position of padded cell `c` on a board of row stride `stride` (see
/// [`Board::stride_magic`]).
#[inline(always)]
fn pos_of(c: usize, stride: usize, stride_magic: u64) -> Pos {
    let row = ((u128::from(stride_magic) * c as u128) >> 64) as usize;
    let col = c - row * stride;
    Pos::new(col as i32 - 1, row as i32 - 1)
}

/// The padded-index offset of each direction of [`DIRECTIONS`], as wrapping `usize` adds.
pub(super) fn direction_offsets(stride: usize) -> [usize; 8] {
    DIRECTIONS.map(|(dx, dy)| (dx as isize + dy as isize * stride as isize) as usize)
}

/// Into `open`, for every cell of a padded layout of row stride `stride` (a blocked border
/// of one cell round the map), which of its eight neighbours may be entered, bit `d` for
/// direction `d` of [`DIRECTIONS`], none for a cell that may not be entered itself (nor for
/// the border); `enterable` is nonzero where a cell may be entered. One pass a direction
/// over the whole map, which the compiler turns into wide instructions: on a 1024x1024 map
/// a cell at a time took several milliseconds per engine, each time its grid was copied in.
pub(super) fn open_bits(enterable: &[u8], open: &mut [u8], stride: usize) {
    let cells = enterable.len();
    open.fill(0);
    if cells < 2 * stride + 2 {
        return;
    }
    // Every cell of this span has its eight neighbours inside the layout; the cells outside
    // it are the border's.
    let span = stride + 1..cells - stride - 1;
    let inner = &mut open[span.clone()];
    for (d, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
        let from = (span.start as isize + dx as isize + dy as isize * stride as isize) as usize;
        let theirs = &enterable[from..from + inner.len()];
        for (o, &t) in inner.iter_mut().zip(theirs) {
            *o |= u8::from(t != 0) << d;
        }
    }
    // A mask rather than a branch, so that this pass is wide too.
    for (o, &mine) in inner.iter_mut().zip(&enterable[span]) {
        *o &= 0u8.wrapping_sub(u8::from(mine != 0));
    }
}

/// For each rule (as in [`rule_index`]), a node reached by direction `from` and the
/// walkability of its eight neighbours (`open`, bit `d` for direction `d` of
/// [`DIRECTIONS`]): the directions from the node to cells that are its parent or one legal
/// parent move away. Those cannot improve through the node, since one step from the parent
/// costs no more than two through it. Every cell involved, including the sides of a
/// diagonal parent move, is the node or one of its neighbours, so the node's own `open`
/// decides, and the parent need not be looked at.
const PARENT_COVERS: [[[u8; 256]; 8]; 3] = {
    let mut table = [[[0u8; 256]; 8]; 3];
    let mut rule = 0;
    while rule < 3 {
        let mut from = 0;
        while from < 8 {
            let mut open = 0;
            while open < 256 {
                table[rule][from][open] = parent_covers(rule, from, open);
                open += 1;
            }
            from += 1;
        }
        rule += 1;
    }
    table
};

/// For each rule (as in [`rule_index`]), the direction a node was reached by (or
/// [`NO_PARENT`], and the other values above 7: none) and the walls around it (as in
/// [`Node`]'s `open`): the moves worth trying from it, the rule's legal moves less
/// those [`PARENT_COVERS`] rules out. One load per expansion picks them.
pub(super) static NEXT_MOVES: [[[u8; 256]; 16]; 3] = {
    let mut table = [[[0u8; 256]; 16]; 3];
    let mut rule = 0;
    while rule < 3 {
        let mut from = 0;
        while from < 16 {
            let mut open = 0;
            while open < 256 {
                let legal = match rule {
                    0 => CORNER_RULE[open],
                    1 => open as u8,
                    _ => open as u8 & 0x0F,
                };
                table[rule][from][open] = if from < 8 {
                    legal & !PARENT_COVERS[rule][from][open]
                } else {
                    legal
                };
                open += 1;
            }
            from += 1;
        }
        rule += 1;
    }
    table
};

/// The index of a rule in [`PARENT_COVERS`] and [`NEXT_MOVES`].
pub(super) const fn rule_index(rule: Neighbourhood) -> usize {
    match rule {
        Neighbourhood::Eight => 0,
        Neighbourhood::EightCutCorners => 1,
        Neighbourhood::Four => 2,
    }
}

/// One entry of [`PARENT_COVERS`].
const fn parent_covers(rule: usize, from: usize, open: usize) -> u8 {
    let (px, py) = (-DIRECTIONS[from].0, -DIRECTIONS[from].1);
    let mut covered = 0u8;
    let mut d = 0;
    while d < 8 {
        let (nx, ny) = DIRECTIONS[d];
        // The step from the parent to the neighbour.
        let (x, y) = (nx - px, ny - py);
        let legal = if x == 0 && y == 0 {
            true
        } else if x.abs() > 1 || y.abs() > 1 {
            false
        } else if x != 0 && y != 0 {
            match rule {
                0 => {
                    walkable(open, nx, ny)
                        && walkable(open, px + x, py)
                        && walkable(open, px, py + y)
                }
                1 => walkable(open, nx, ny),
                _ => false,
            }
        } else {
            walkable(open, nx, ny)
        };
        if legal {
            covered |= 1 << d;
        }
        d += 1;
    }
    covered
}

/// Whether the cell at (x, y) from a node whose neighbours' walkability is `open` is
/// walkable: the node itself is.
const fn walkable(open: usize, x: i32, y: i32) -> bool {
    if x == 0 && y == 0 {
        return true;
    }
    let mut e = 0;
    while e < 8 {
        if DIRECTIONS[e].0 == x && DIRECTIONS[e].1 == y {
            return open & (1 << e) != 0;
        }
        e += 1;
    }
    false
}

/// For each set of wall-free neighbours (bit `d` for direction `d`), the moves allowed
/// without corner cutting: every straight one, and the diagonals whose two sides are free.
const CORNER_RULE: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut open = 0;
    while open < 256 {
        let mut allowed = open & 0x0F;
        let mut d = 4;
        while d < 8 {
            let sides = DIAGONAL_SIDES[d - 4] as usize;
            if open & (1 << d) != 0 && open & sides == sides {
                allowed |= 1 << d;
            }
            d += 1;
        }
        table[open] = allowed as u8;
        open += 1;
    }
    table
};

/// For each diagonal direction (4..8 in [`DIRECTIONS`]), the straight directions it passes
/// between, as bits of the straight direction indices.
const DIAGONAL_SIDES: [u32; 4] = {
    let mut sides = [0u32; 4];
    let mut d = 4;
    while d < 8 {
        let (dx, dy) = DIRECTIONS[d];
        let mut s = 0;
        while s < 4 {
            let (sx, sy) = DIRECTIONS[s];
            if (sx == dx && sy == 0) || (sx == 0 && sy == dy) {
                sides[d - 4] |= 1 << s;
            }
            s += 1;
        }
        d += 1;
    }
    sides
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parent_covers_matches_the_grids_own_move_rule() {
        // Every wall pattern around a node, every parent direction, every rule: a neighbour is
        // covered exactly when it is the parent or the parent can step onto it.
        let c = Pos::new(1, 1);
        for rule in [
            Neighbourhood::Eight,
            Neighbourhood::EightCutCorners,
            Neighbourhood::Four,
        ] {
            for from in 0..8 {
                let (fx, fy) = DIRECTIONS[from];
                let parent = Pos::new(c.x - fx, c.y - fy);
                // The parent is walkable: it was expanded.
                let parent_bit = DIRECTIONS
                    .iter()
                    .position(|&(dx, dy)| (dx, dy) == (-fx, -fy));
                let parent_bit = 1 << parent_bit.expect("a king move");
                for open in (0..256usize).filter(|open| open & parent_bit != 0) {
                    let mut g = Grid::new(3, 3, 1).unwrap();
                    for (e, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
                        if open & (1 << e) == 0 {
                            g.set(Pos::new(c.x + dx, c.y + dy), 0);
                        }
                    }
                    let mut want = 0u8;
                    for (d, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
                        let n = Pos::new(c.x + dx, c.y + dy);
                        let (sx, sy) = (n.x - parent.x, n.y - parent.y);
                        let step =
                            sx.abs() <= 1 && sy.abs() <= 1 && g.can_step(parent, sx, sy, rule);
                        if n == parent || step {
                            want |= 1 << d;
                        }
                    }
                    let got = PARENT_COVERS[rule_index(rule)][from][open];
                    assert_eq!(got, want, "{rule:?} from {from} open {open:08b}");
                }
            }
        }
    }

    #[test]
    fn next_moves_are_the_grids_legal_moves_less_those_the_parent_covers() {
        let c = Pos::new(1, 1);
        for rule in [
            Neighbourhood::Eight,
            Neighbourhood::EightCutCorners,
            Neighbourhood::Four,
        ] {
            let table = &NEXT_MOVES[rule_index(rule)];
            for open in 0..256usize {
                let mut g = Grid::new(3, 3, 1).unwrap();
                for (e, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
                    if open & (1 << e) == 0 {
                        g.set(Pos::new(c.x + dx, c.y + dy), 0);
                    }
                }
                let mut legal = 0u8;
                for (d, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
                    if g.can_step(c, dx, dy, rule) {
                        legal |= 1 << d;
                    }
                }
                for from in 0..16 {
                    let want = if from < 8 {
                        legal & !PARENT_COVERS[rule_index(rule)][from][open]
                    } else {
                        legal
                    };
                    assert_eq!(
                        table[from][open], want,
                        "{rule:?} from {from} open {open:08b}"
                    );
                }
            }
        }
    }
}
