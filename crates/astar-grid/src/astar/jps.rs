//! Jump Point Search (Harabor and Grastien, AAAI 2011) for the game's movement rule: 8-way,
//! no corner cutting, base steps of 10 and 14 times the cost of the cell entered, with the
//! forced-neighbour rules of that rule (Harabor and Grastien, SoCS 2012), block-based
//! straight scans and diagonal runs that do not stop at their turning points (their ICAPS
//! 2014 paper), and jump points where the cost of the ground changes (below).
//!
//! Without corner cutting a diagonal step never has a forced neighbour: the cell beside and
//! behind it is always reachable round the two free sides the step needs. So only straight
//! runs find jump points on their own: running east, a cell is one when, above or below it,
//! a free cell follows a blocked one (that free cell is reached well only through it). A
//! diagonal run tries, from every cell it crosses, the straight runs along its two parts.
//! A jump point's successors are the runs of its natural moves (the direction it was reached
//! by, and for a diagonal its two straight parts) and of its forced ones; every other move
//! has a path as short that does not pass through it. Jump points are searched as A* nodes,
//! with the run's cost (below) as the step cost; consistent estimates stay consistent, so no
//! node is reopened.
//!
//! A straight run reads 64 cells at once: for each direction a bit set per row (east and
//! west) or column (south and north) marks where runs stop, walls and jump points, so one
//! word and a count of trailing zeros find the next stop. A run's outcome depends on the map
//! alone (the goal is checked apart), so it is remembered per cell and direction until the
//! grid changes: a diagonal run, which tries two straight runs per cell, mostly reads them.
//! Everything remembered belongs to one revision of one grid: a grid of other costs (or the
//! same grid changed) has another revision, and the map is built afresh for it.
//!
//! # Ground of several costs
//!
//! **The rule.** A cell is a *boundary* when one of its eight neighbours may be entered and
//! costs something else than it does. A boundary is a jump point: every run stops on
//! reaching it (a straight run, a diagonal run, and each straight part of a diagonal run),
//! and it is expanded with every legal move, whatever reached it, as the start is. Nothing
//! else changes: the other jump points, and the natural and forced moves elsewhere, are
//! those of uniform ground, and so is the corner rule (a diagonal needs its two side cells
//! enterable, whatever they cost: cost never blocks). On a grid of one cost there is no
//! boundary, and the search is the uniform one.
//!
//! **Why it keeps every optimal cost.** Call a cell *interior* when it may be entered and
//! is no boundary: the 3x3 block around it holds only blocked cells and cells of its own
//! cost.
//!
//! 1. *A run costs its octile length times one cost.* A run from a jump point `x` first
//!    enters a cell `y`. If `y` is a boundary the run ends there, one step. Otherwise `y` is
//!    interior, and every later cell of the run is a neighbour of an interior cell of the
//!    run (the cell before it, or the diagonal cell its straight part starts from: runs
//!    stop at boundaries, so all of them but the last are interior), hence costs what `y`
//!    does. So the run from `x` by `k` diagonal steps and then `n` straight ones costs
//!    `(14k + 10n) * cost(y)`, G stays the exact sum of the steps' costs, and the trace's
//!    G is its parent's plus that.
//! 2. *At an interior cell the pruning is the uniform one.* Whether a cell is a jump point,
//!    and which moves a jump point expands, are decided (Harabor and Grastien 2011; SoCS
//!    2012 without corner cutting) from the direction it was reached by and its 3x3 block
//!    alone: a move to `n` is pruned because some path from the cell's predecessor `p` to
//!    `n` that avoids the cell, inside that block, costs no more than the one through it.
//!    In the block of an interior cell every cell costs `c`, the cell's cost, or is blocked:
//!    every path compared costs `c` times its uniform cost, so every comparison, forced
//!    neighbour and jump point is the uniform one.
//! 3. *At a boundary nothing is pruned.* There the uniform comparisons fail: entering a
//!    cheaper cell, a diagonal at the end beats the diagonal first (`tests/jps_costs.rs`,
//!    `a_cheap_cell_off_a_run_is_reached_by_the_diagonal_at_its_edge`: a rule that stops
//!    only on entering the cheap cell, or that looks at four neighbours rather than eight,
//!    finds 202 where 194 is best); entering a dearer one, a straight step beats a
//!    diagonal. Expanding a boundary with every move needs no comparison at all.
//! 4. *An optimal path made of the search's runs.* Cut an optimal path from the start to
//!    the goal at every boundary it passes. Between two cuts it enters interior cells and
//!    then the next cut, all of one cost `c` (each a neighbour of the interior cell before
//!    it), so the piece is a shortest path between its ends on the uniform grid `M` whose
//!    walls are the blocked cells and every cell of another cost (its diagonals stay legal
//!    in `M`: their side cells are neighbours of an interior cell). On `M` the uniform
//!    theorem gives a path between the same ends, as short, made of JPS runs between
//!    jump points of `M`. Here, each interior cell of it is a jump point exactly when it is
//!    one of `M` (2), and each boundary on it is a jump point expanded with every move (3),
//!    so it is made of runs this search generates, at the same cost (1). Glued together,
//!    the pieces make an optimal path whose turning points are jump points. The estimate
//!    (the heuristic times the grid's lowest cost) is consistent over runs, each costing at
//!    least its octile length times that cost, so A* over jump points finds an optimal
//!    path, as on uniform ground. That a jump point keeps one parent, the first of equal
//!    G, loses nothing here for the same reason as on uniform ground: the argument is the
//!    local one of (2) at interior cells, and boundaries take every move.
//!
//! Diagonal runs stop at the first boundary they reach, which becomes a successor (cheaper
//! than carrying on past it: its own expansion tries the diagonal again). The clutter
//! measure ([`CLUTTER_RUN_TENTHS`]) counts boundaries as the stops they are.
//!
//! **What this follows.** The rule is the one Harabor's Warthog library tried for weighted
//! grid maps in 2014 (`jps_expansion_policy_wgm`: stop where a successor has another
//! terrain; marked experimental there), proved here for this crate's cost model, where a
//! step's cost depends on the cell it enters alone and the corner rule on blocked cells
//! alone. Jump points as the places where a canonical ordering of moves restarts are
//! Sturtevant and Rabin's reading of JPS (Canonical Orderings on Grids, IJCAI 2016); the
//! pieces between boundaries are that reading applied region by region. Weighted JPS
//! (JPSW: Carlson, Moghadam, Harabor, Stuckey and Ebrahimi, AAAI 2023) prunes further inside
//! terrain transitions with an orthogonal-last tie policy and more rules; it is not
//! implemented here.

use std::sync::atomic::{AtomicU16, Ordering};

use super::queue::{BucketQueue, FifoQueue, OpenList};
use super::{Fallback, MAX_COST, Query, SearchResult, Status, Ties, TraceEvent, Tracer};
use crate::grid::{DIAGONAL, DIRECTIONS, Grid, Pos, STRAIGHT, Steps};

/// The direction of a node without a parent (the start): every move is tried.
const START: u32 = 8;

/// The direction an expansion of a cost boundary cell is given, whatever reached it: every
/// move is tried, as from the start (see the module's notes).
const ANY: u32 = 9;

/// The search state of one jump point in 8 bytes, what a search reads of every successor it
/// finds: `stamp << 48 | g << 4 | dir`, where `stamp` is `generation << 1 | closed` of the
/// search that last touched it, `g` the best known cost from the start and `dir` the
/// direction of the last part of the run that reached it (an index of [`DIRECTIONS`]) or
/// [`START`]. The jump point it came from is kept apart, in [`Jps::parents`]: only the path
/// reads it.
type Node = u64;

/// A node of the search stamped `stamp`.
#[inline(always)]
fn node(stamp: u32, g: u32, dir: u32) -> Node {
    u64::from(stamp) << 48 | u64::from(g) << 4 | u64::from(dir)
}

#[inline(always)]
fn stamp_of(n: Node) -> u32 {
    (n >> 48) as u32
}

#[inline(always)]
fn g_of(n: Node) -> u32 {
    (n >> 4) as u32 & G_MASK
}

/// G takes 32 bits (it stays at most [`MAX_COST`]), below the stamp's 16.
const G_MASK: u32 = u32::MAX;

/// The last generation whose stamps fit in a node's 16 bits.
const MAX_GENERATION: u32 = (1 << 15) - 1;

/// One bit per cell of a padded map, one bit set per line (a row, or a column for the
/// transposed copies), each with 64 bits before its first cell and a spare word after its
/// last, so that a window of 64 cells ending or starting at any cell of the line can be
/// read without a bounds test.
#[derive(Debug, Clone, Default)]
struct Lines {
    bits: Vec<u64>,
    /// Words per line.
    words: usize,
}

impl Lines {
    /// `lines` lines of `len` cells, every bit (the margins too) set.
    fn new(lines: usize, len: usize) -> Self {
        let words = (len + 64).div_ceil(64) + 1;
        Self {
            bits: vec![u64::MAX; lines * words],
            words,
        }
    }

    fn clear(&mut self, line: usize, at: usize) {
        let b = at + 64;
        self.bits[line * self.words + b / 64] &= !(1 << (b % 64));
    }

    /// The 64 bits of `line` from cell `at` on: bit `i` is cell `at + i`.
    #[inline(always)]
    fn ahead(&self, line: usize, at: usize) -> u64 {
        self.window(line, at + 64)
    }

    /// The 64 bits of `line` up to cell `at`: bit `63 - i` is cell `at - i` (cells before the
    /// line's start read as the margin).
    #[inline(always)]
    fn behind(&self, line: usize, at: usize) -> u64 {
        self.window(line, at + 1)
    }

    /// The 64 bits from bit `b` of the padded line on.
    #[inline(always)]
    fn window(&self, line: usize, b: usize) -> u64 {
        let w = line * self.words + b / 64;
        let shift = (b % 64) as u32;
        let (lo, hi) = (self.bits[w], self.bits[w + 1]);
        // `hi << (64 - shift)`, without the shift by 64 when `shift` is 0.
        lo >> shift | (hi << 1) << (63 - shift)
    }
}

/// Where a straight run from cell `at` of a line stops, reading `stops` (set at walls, at
/// jump points, and in the margins): its distance, and whether the cell there is a jump
/// point (or else the wall that ends the run).
#[inline(always)]
fn run<const FORWARD: bool>(stops: &Lines, line: usize, at: usize, walls: &Lines) -> (u32, bool) {
    // The distance of the window's first cell, and that cell.
    let (mut d, mut from) = (1u32, if FORWARD { at + 1 } else { at - 1 });
    loop {
        let stop = if FORWARD {
            stops.ahead(line, from)
        } else {
            stops.behind(line, from)
        };
        if stop != 0 {
            let (i, cell) = if FORWARD {
                let i = stop.trailing_zeros();
                (i, from + i as usize)
            } else {
                let i = stop.leading_zeros();
                (i, from - i as usize)
            };
            return (d + i, walls.ahead(line, cell) & 1 == 0);
        }
        // The margins and the map's wall border stop every run: this never leaves the line.
        d += 64;
        from = if FORWARD { from + 64 } else { from - 64 };
    }
}

/// Grids with fewer walkable cells always run JPS: searches there are quick either way.
pub(super) const CLUTTER_MIN_CELLS: usize = 4096;

/// On larger grids, JPS hands over to A* when the straight runs average fewer than this many
/// tenths of a cell (walkable cells per stop, running east): scattered walls and one-cell
/// mazes, where nearly every cell is a jump point and a jump point costs several times what
/// an A* node does. Measured on the Moving AI maps: JPS took 1.2 to 1.4 times A*'s time on
/// the random maps (runs of 3.9 and 1.6 cells) and about as long on the maze (1.6), and
/// under a third on every other map (5.5 cells and up).
pub(super) const CLUTTER_RUN_TENTHS: usize = 45;

/// A remembered run not computed yet.
const UNKNOWN: u16 = u16::MAX;

/// Straight runs of this many cells or more are not remembered: `distance << 1 | jump` must
/// fit in 16 bits below [`UNKNOWN`]. (Diagonal runs never come near: a map of at most
/// [`MAX_CELLS`](crate::grid::MAX_CELLS) cells has a shorter side of at most 4,096.)
const LONGEST_KEPT_RUN: u32 = (1 << 15) - 1;

/// The map as JPS reads it, rebuilt when the grid's revision changes.
#[derive(Debug, Clone, Default)]
struct Map {
    /// The revision of the grid copied in, or 0 before the first.
    revision: u64,
    /// Why JPS does not run on this grid, if it does not.
    verdict: Option<Fallback>,
    /// Padded width: the map with a one-cell wall border.
    stride: usize,
    /// `2^64 / stride` rounded up: turns the cell-to-row division into a multiplication.
    stride_magic: u64,
    /// Whether expansions are remembered ([`Memo`]): padded sides below 2^16, for the 16 bits
    /// of an area's corners and of a jump point's coordinates, and at least
    /// [`MEMO_MIN_CELLS`] walkable cells.
    memo: bool,
    /// Per padded cell, what runs read there.
    cells: Vec<Spot>,
    /// Whether the grid has cells of several costs: the search then reads [`Map::terrain`]
    /// and multiplies its estimates by [`Map::lowest`].
    weighted: bool,
    /// The lowest cost of an enterable cell.
    lowest: u32,
    /// Per padded cell of a weighted grid (empty on a uniform one): its cost, with
    /// [`BOUNDARY`] set when a neighbour that may be entered costs something else.
    terrain: Vec<u16>,
    /// The walls (set) and walkable cells (clear), by rows and, transposed, by columns.
    rows: Lines,
    cols: Lines,
    /// Where runs east, west, south and north stop: walls, and the cells from which a side
    /// cell (above or below for east and west, left or right for south and north) is free
    /// while the one before it, toward where the run comes from, is not.
    east: Lines,
    west: Lines,
    south: Lines,
    north: Lines,
}

/// A remembered run, written while a search reads the map: an atomic with relaxed loads and
/// stores (plain moves on x86-64 and AArch64), so that the pathfinder stays `Sync` where a
/// `Cell` would not be. A search holds the pathfinder mutably, so no two ever race here.
#[derive(Debug, Default)]
struct Known(AtomicU16);

impl Known {
    fn new(v: u16) -> Self {
        Self(AtomicU16::new(v))
    }

    #[inline(always)]
    fn get(&self) -> u16 {
        self.0.load(Ordering::Relaxed)
    }

    #[inline(always)]
    fn set(&self, v: u16) {
        self.0.store(v, Ordering::Relaxed);
    }
}

impl Clone for Known {
    fn clone(&self) -> Self {
        Self::new(self.get())
    }
}

/// What runs read at a cell, together so that a step of a diagonal run reads one cache line.
#[derive(Debug, Clone, Default)]
struct Spot {
    /// Bit `d` when the neighbour in direction `d` is walkable, bit `8 + d` when the step
    /// there is legal (for a diagonal, its two sides are free too).
    bits: u16,
    /// Per straight direction, the run from here as `distance << 1 | jump point`, or
    /// [`UNKNOWN`].
    runs: [Known; 4],
    /// Per diagonal direction, as `steps << 2 | boundary << 1 | last`, how far the diagonal
    /// run from here goes to the next cell whose straight parts find a jump point, or that
    /// is a cost boundary (`boundary`: the run stops there, a jump point itself), or to the
    /// last cell it reaches, whichever comes first, and with `last` whether it goes no
    /// further (the next step cuts a corner or meets a wall); or [`UNKNOWN`].
    diagonals: [Known; 4],
}

/// The bit of [`Map::terrain`] that marks a cost boundary cell.
const BOUNDARY: u16 = 1 << 8;

/// The buffers of Jump Point Search, kept between searches.
#[derive(Debug, Clone, Default)]
pub(super) struct Jps {
    map: Map,
    nodes: Vec<Node>,
    /// Per padded cell, the jump point its node was best reached from.
    parents: Vec<u32>,
    generation: u32,
    /// The open list under [`Ties::LowerH`]: keys `H << 32 | cell`, so equal F pops by
    /// lower H, then in reading order.
    queue: BucketQueue<false>,
    /// The open list under [`Ties::Lifo`]: keys are cells.
    lifo: BucketQueue<true>,
    /// The open list under [`Ties::Fifo`]: keys are cells.
    fifo: FifoQueue,
    /// The successors of the node being expanded: (padded cell, direction, cost from it,
    /// padded `x | y << 16`).
    found: Vec<Successor>,
    /// Jump points from the goal back, as the path is walked back.
    trail: Vec<u32>,
    /// Expansions remembered for this grid.
    memo: Memo,
}

/// A successor as the expansion of a jump point finds it: (padded cell, direction of its run's
/// last part, cost from the jump point, padded `x | y << 16`).
type Successor = (u32, u32, u32, u32);

/// Expansions remembered: which jump points a jump point entered by a given direction leads
/// to depends on the map alone, except where the goal lies on one of the runs it scans. So the
/// successors are kept per cell and direction together with the rectangle those runs sweep;
/// a later expansion there, in any search for a goal outside that rectangle, copies them
/// instead of scanning the runs again. The monsters of a game replan every turn on the same
/// map, as the benchmarks' queries do.
///
/// An open-addressing table of 32 bytes per expansion, holding its first two successors
/// (most expansions have at most two): a search that expands a jump point reads its node,
/// then this slot, and nothing else of the map. Kept small so that it mostly stays in cache:
/// on 8room_000 the expansions of all 1,940 scenarios take 22,137 slots, a table of 1 MiB.
/// (`cell << 3` fits in a key: a map remembers only with sides below 2^16, see [`Map::memo`],
/// so with at most [`MAX_CELLS`](crate::grid::MAX_CELLS) cells it pads to fewer than
/// 2^25.)
#[derive(Debug, Clone, Default)]
struct Memo {
    /// A power of two of slots, or none before the first expansion remembered.
    table: Vec<Expansion>,
    /// Slots in use.
    used: usize,
    /// The successors after an expansion's first two.
    spill: Vec<u64>,
}

/// The table stops growing past this many slots (32 bytes each: 8 MiB), the spill past this
/// many successors (8 bytes each); expansions not remembered then are scanned as before.
const MEMO_SLOTS_MAX: usize = 1 << 18;

/// The table's first size; tiny under test, so that the tests' small maps make it grow.
const MEMO_SLOTS_MIN: usize = if cfg!(test) { 16 } else { 1 << 12 };

/// Maps with fewer walkable cells remember no expansions: their searches take a microsecond
/// or so, and remembering each expansion costs more than the few times it comes again save
/// (Moving AI's arena, 2,054 cells: 0.81 against 1.2 µs a query). Every map under test, so
/// that the tests' small maps exercise it.
const MEMO_MIN_CELLS: usize = if cfg!(test) { 1 } else { CLUTTER_MIN_CELLS };
const MEMO_SPILL_MAX: usize = 1 << 20;

/// One remembered expansion: `key` is `cell << 3 | dir` plus one (0 marks an empty slot),
/// `len_spill` is `len << 24 | spill`, its runs stay inside `area` (padded
/// `[x0, y0, x1, y1]`, inclusive), and its `len` successors are `first` and then
/// `Memo::spill[spill..]`, each `cell << 32 | cost << 3 | direction`.
#[derive(Debug, Clone, Copy, Default)]
#[repr(align(32))]
struct Expansion {
    key: u32,
    len_spill: u32,
    area: [u16; 4],
    first: [u64; 2],
}

/// A successor as [`Expansion`] keeps it.
#[inline(always)]
fn pack(s: Successor) -> u64 {
    u64::from(s.0) << 32 | u64::from(s.2 << 3 | s.1)
}

impl Memo {
    /// Forgets every expansion (the map changed), keeping the allocations.
    fn clear(&mut self) {
        // Dropped rather than wiped: the next expansion grows a table afresh, sized to the
        // new map's needs.
        self.table = Vec::new();
        self.used = 0;
        self.spill.clear();
    }

    /// The slot of `key`: where it is, or the empty slot where it would go.
    #[inline(always)]
    fn slot(&self, key: u32) -> usize {
        let mask = self.table.len() - 1;
        // Fibonacci hashing, the product's top bits: neighbouring cells land far apart, so
        // probes stay short.
        let bits = self.table.len().trailing_zeros();
        let mut i = (key.wrapping_mul(0x9E37_79B9) >> (32 - bits)) as usize;
        loop {
            let k = self.table[i].key;
            if k == key || k == 0 {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    /// The successors of the jump point at padded cell `c`, entered by direction `dir`, for a
    /// search toward `goal`, into `out`: remembered ones if the goal lies outside the runs
    /// they came from, else scanned (and remembered, if the goal lies outside).
    #[inline(always)]
    fn expand<const WEIGHTED: bool>(
        &mut self,
        map: &Map,
        c: usize,
        xy: (usize, usize),
        dir: u32,
        goal: (usize, usize),
        out: &mut Vec<Successor>,
    ) {
        // A start is expanded once a search; maps too wide for the areas' 16 bits go without.
        if dir == START || !map.memo || self.table.is_empty() && !self.grow() {
            return map.successors::<WEIGHTED>(c, xy, dir, goal, out);
        }
        let (gx, gy) = (goal.0 as u16, goal.1 as u16);
        let outside = |a: [u16; 4]| gx < a[0] || gx > a[2] || gy < a[1] || gy > a[3];
        // A boundary's expansion (ANY) does not depend on what reached it, and nothing reaches
        // a boundary otherwise: its key takes `ANY & 7` in place of a direction.
        let key = ((c as u32) << 3 | dir & 7) + 1;
        let mut i = self.slot(key);
        let known = &self.table[i];
        if known.key == key {
            if outside(known.area) {
                let n = (known.len_spill >> 24) as usize;
                let spill = (known.len_spill & 0xFF_FFFF) as usize;
                let rest = if n > 2 {
                    &self.spill[spill..spill + n - 2]
                } else {
                    &[]
                };
                out.extend(known.first.iter().take(n).chain(rest).map(|&s| {
                    let jc = (s >> 32) as usize;
                    let (x, y) = map.xy(jc);
                    (
                        jc as u32,
                        s as u32 & 7,
                        (s as u32) >> 3,
                        (x | y << 16) as u32,
                    )
                }));
            } else {
                map.successors::<WEIGHTED>(c, xy, dir, goal, out);
            }
            return;
        }
        map.successors::<WEIGHTED>(c, xy, dir, goal, out);
        let n = out.len();
        // At most three quarters full, so that probes stay short; the room is looked at
        // before the sweep, which costs more than the scan itself.
        let full = 4 * (self.used + 1) > 3 * self.table.len();
        if n > 255
            || self.spill.len() + n.saturating_sub(2) > MEMO_SPILL_MAX
            || map.weighted && out.iter().any(|s| s.2 >= 1 << 29)
            || full && 2 * self.table.len() > MEMO_SLOTS_MAX
        {
            return;
        }
        let area = map.sweep(c, xy, dir).map(|v| v as u16);
        if !outside(area) {
            return;
        }
        if full {
            self.grow();
            i = self.slot(key);
        }
        let mut first = [0; 2];
        for (f, &s) in first.iter_mut().zip(out.iter()) {
            *f = pack(s);
        }
        self.table[i] = Expansion {
            key,
            len_spill: (n as u32) << 24 | self.spill.len() as u32,
            area,
            first,
        };
        self.used += 1;
        self.spill.extend(out.iter().skip(2).map(|&s| pack(s)));
    }

    /// Doubles the table (from [`MEMO_SLOTS_MIN`] slots), unless it is at
    /// [`MEMO_SLOTS_MAX`]; returns whether it grew.
    #[cold]
    fn grow(&mut self) -> bool {
        let size = (2 * self.table.len()).max(MEMO_SLOTS_MIN);
        if size > MEMO_SLOTS_MAX {
            return false;
        }
        let old = std::mem::replace(&mut self.table, vec![Expansion::default(); size]);
        for e in old.into_iter().filter(|e| e.key != 0) {
            let i = self.slot(e.key);
            self.table[i] = e;
        }
        true
    }
}

impl Jps {
    /// How many expansions are remembered, the table's slots and the successors spilled
    /// past each expansion's first two, for the tests to see that they are.
    #[cfg(test)]
    pub(super) fn remembered(&self) -> (usize, usize, usize) {
        (self.memo.used, self.memo.table.len(), self.memo.spill.len())
    }

    /// Copies `grid` in when it changed; returns why JPS does not run on it, if it does not:
    /// base steps other than 10 and 14, or straight runs too short for jumping to pay (see
    /// [`CLUTTER_MIN_CELLS`]).
    pub(super) fn prepare(&mut self, grid: &Grid) -> Option<Fallback> {
        // Before the map is built: other steps rule JPS out whatever the map holds.
        if grid.steps() != Steps::DEFAULT {
            return Some(Fallback::Steps);
        }
        let map = &mut self.map;
        if map.revision == grid.revision() {
            return map.verdict;
        }
        map.revision = grid.revision();
        let (w, h) = (grid.width(), grid.height());
        let (stride, height) = (w + 2, h + 2);
        map.stride = stride;
        // Exact for every 32-bit cell index (Lemire, Kaser and Kurz, 2019); stride >= 3.
        map.stride_magic = (u64::MAX / stride as u64).wrapping_add(1);
        let mut walk = vec![false; stride * height];
        map.rows = Lines::new(height, stride);
        map.cols = Lines::new(stride, height);
        map.weighted = !grid.is_uniform();
        map.lowest = grid.lowest_cost();
        let mut terrain = std::mem::take(&mut map.terrain);
        terrain.clear();
        if map.weighted {
            terrain.resize(stride * height, 0);
        }
        for (i, &cost) in grid.costs().iter().enumerate() {
            if cost != 0 {
                let (x, y) = (i % w + 1, i / w + 1);
                walk[y * stride + x] = true;
                map.rows.clear(y, x);
                map.cols.clear(x, y);
            }
        }
        if map.weighted {
            for (y, row) in grid.costs().chunks(w.max(1)).enumerate() {
                let line = &mut terrain[(y + 1) * stride + 1..][..w];
                for (t, &cost) in line.iter_mut().zip(row) {
                    *t = u16::from(cost);
                }
            }
            let offsets = DIRECTIONS
                .map(|(dx, dy)| offset(0, dx).wrapping_add(offset(0, dy).wrapping_mul(stride)));
            for c in stride..stride * (height - 1) {
                let cost = terrain[c] & 0xFF;
                if cost != 0
                    && offsets.iter().any(|&o| {
                        let n = terrain[c.wrapping_add(o)] & 0xFF;
                        n != 0 && n != cost
                    })
                {
                    terrain[c] |= BOUNDARY;
                }
            }
        }
        let weighted = map.weighted;
        let boundary = |x: usize, y: usize| {
            terrain
                .get(y * stride + x)
                .is_some_and(|&t| t & BOUNDARY != 0)
        };
        let at = |x: usize, y: usize| walk[y * stride + x];
        // Free here, blocked before (toward where a run comes from).
        let opens = |x: usize, y: usize, bx: usize, by: usize| at(x, y) && !at(bx, by);
        map.east = Lines::new(height, stride);
        map.west = Lines::new(height, stride);
        map.south = Lines::new(stride, height);
        map.north = Lines::new(stride, height);
        let unknown = Spot {
            bits: 0,
            runs: std::array::from_fn(|_| Known::new(UNKNOWN)),
            diagonals: std::array::from_fn(|_| Known::new(UNKNOWN)),
        };
        map.cells = vec![unknown; stride * height];
        self.memo.clear();
        for y in 1..height - 1 {
            for x in (1..stride - 1).filter(|&x| at(x, y)) {
                let (l, r, u, d) = (x - 1, x + 1, y - 1, y + 1);
                // A cost boundary stops a run from every side: it is a jump point.
                let stop = weighted && boundary(x, y);
                if !(stop || opens(x, u, l, u) || opens(x, d, l, d)) {
                    map.east.clear(y, x);
                }
                if !(stop || opens(x, u, r, u) || opens(x, d, r, d)) {
                    map.west.clear(y, x);
                }
                if !(stop || opens(l, y, l, u) || opens(r, y, r, u)) {
                    map.south.clear(x, y);
                }
                if !(stop || opens(l, y, l, d) || opens(r, y, r, d)) {
                    map.north.clear(x, y);
                }
                let mut bits = 0u16;
                for (dir, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
                    let (nx, ny) = (offset(x, dx), offset(y, dy));
                    if at(nx, ny) {
                        bits |= 1 << dir;
                        if at(nx, y) && at(x, ny) {
                            bits |= 1 << (8 + dir);
                        }
                    }
                }
                map.cells[y * stride + x].bits = bits;
            }
        }
        // A run stops where the east stop mask is set one cell on: count those stops.
        let (mut walkable, mut stops) = (0usize, 0usize);
        for y in 1..height - 1 {
            for x in (1..stride - 1).filter(|&x| at(x, y)) {
                walkable += 1;
                stops += (map.east.ahead(y, x + 1) & 1) as usize;
            }
        }
        map.terrain = terrain;
        map.memo = stride < 1 << 16 && height < 1 << 16 && walkable >= MEMO_MIN_CELLS;
        map.verdict = if walkable >= CLUTTER_MIN_CELLS && walkable * 10 < stops * CLUTTER_RUN_TENTHS
        {
            Some(Fallback::Cluttered)
        } else {
            None
        };
        if self.nodes.len() != stride * height {
            self.nodes = vec![0; stride * height];
            self.parents = vec![0; stride * height];
            self.generation = 0;
        }
        map.verdict
    }

    /// Runs Jump Point Search for `q` on the prepared grid; the endpoints are valid, apart
    /// and connected, the options those JPS applies to (8-way, weight 1, a consistent
    /// estimate, no occupancy).
    pub(super) fn search<T: Tracer>(
        &mut self,
        q: &Query<'_>,
        result: &mut SearchResult,
        tracer: &mut T,
    ) {
        if self.generation >= MAX_GENERATION {
            self.nodes.fill(0);
            self.generation = 0;
        }
        self.generation += 1;
        let open = self.generation << 1;
        let mut at = Buffers {
            map: &self.map,
            nodes: &mut self.nodes,
            parents: &mut self.parents,
            found: &mut self.found,
            memo: &mut self.memo,
        };
        let lower_h = |h: u32, c: usize| u64::from(h) << 32 | c as u64;
        let lifo = |_, c: usize| c as u64;
        let found = match (q.options.ties, self.map.weighted) {
            (Ties::LowerH, false) => {
                at.run::<T, _, false>(q, result, tracer, open, &mut self.queue, lower_h)
            }
            (Ties::LowerH, true) => {
                at.run::<T, _, true>(q, result, tracer, open, &mut self.queue, lower_h)
            }
            (Ties::Lifo, false) => {
                at.run::<T, _, false>(q, result, tracer, open, &mut self.lifo, lifo)
            }
            (Ties::Lifo, true) => {
                at.run::<T, _, true>(q, result, tracer, open, &mut self.lifo, lifo)
            }
            (Ties::Fifo, false) => {
                at.run::<T, _, false>(q, result, tracer, open, &mut self.fifo, lifo)
            }
            (Ties::Fifo, true) => {
                at.run::<T, _, true>(q, result, tracer, open, &mut self.fifo, lifo)
            }
        };
        if let Some((c, g, expanded)) = found {
            write_path(
                &self.map,
                &self.nodes,
                &self.parents,
                &mut self.trail,
                c,
                &mut result.path,
            );
            result.set(Status::Found, Some(g), expanded);
        }
    }
}

/// What the search loop works on, borrowed apart from the open lists.
struct Buffers<'a> {
    map: &'a Map,
    nodes: &'a mut [Node],
    parents: &'a mut [u32],
    found: &'a mut Vec<Successor>,
    memo: &'a mut Memo,
}

impl Buffers<'_> {
    /// The search loop on the open list `queue`, with keys `key(h, cell)`; returns the goal's
    /// cell, its cost and the expansions when found (the result is set otherwise).
    #[inline(always)]
    fn run<T: Tracer, Q: OpenList, const WEIGHTED: bool>(
        &mut self,
        q: &Query<'_>,
        result: &mut SearchResult,
        tracer: &mut T,
        open: u32,
        queue: &mut Q,
        key: impl Fn(u32, usize) -> u64,
    ) -> Option<(usize, u32, u32)> {
        let closed = open | 1;
        let stride = self.map.stride;
        let cell = |p: Pos| (p.y as usize + 1) * stride + p.x as usize + 1;
        let (s, t) = (cell(q.start), cell(q.goal));
        let goal = (q.goal.x as usize + 1, q.goal.y as usize + 1);
        let heuristic = q.options.heuristic;
        // Times the lowest cost of a cell, so that it never overestimates: a run costs its
        // octile length times the cost of the cells it enters.
        let lowest = self.map.lowest;
        let h = |x: usize, y: usize| {
            let h = heuristic.estimate(x.abs_diff(goal.0) as u32, y.abs_diff(goal.1) as u32);
            if WEIGHTED {
                h.saturating_mul(lowest).min(MAX_COST)
            } else {
                h
            }
        };
        let pos = |c: usize| Pos::new((c % stride) as i32 - 1, (c / stride) as i32 - 1);
        let found = &mut *self.found;
        let map = self.map;
        let nodes = &mut *self.nodes;
        let parents = &mut *self.parents;
        let memo = &mut *self.memo;

        nodes[s] = node(open, 0, START);
        let h0 = h(q.start.x as usize + 1, q.start.y as usize + 1);
        // Every F is even (steps of 10 and 14, even estimates): the queue is keyed by F / 2,
        // which halves the buckets it steps through.
        queue.start(h0 >> 1, key(h0, s));
        if T::ENABLED {
            tracer.event(TraceEvent::Open {
                cell: q.start,
                g: 0,
                h: h0,
                f: h0,
                parent: None,
            });
        }
        let cap = q.options.cap.unwrap_or(u32::MAX);
        let mut expanded = 0u32;
        let mut answer = None;
        let mut too_costly = false;
        while let Some((_, k)) = queue.pop(|_, k| stamp_of(nodes[k as u32 as usize]) != closed) {
            let c = k as u32 as usize;
            let here = nodes[c];
            if stamp_of(here) == closed {
                continue;
            }
            if expanded >= cap {
                result.set(Status::CapReached, None, expanded);
                return None;
            }
            nodes[c] = here | 1 << 48;
            expanded += 1;
            if T::ENABLED {
                tracer.event(TraceEvent::Close { cell: pos(c) });
            }
            let g = g_of(here);
            if c == t {
                answer = Some((c, g, expanded));
                break;
            }
            found.clear();
            let dir = if WEIGHTED && map.is_boundary(c) {
                ANY
            } else {
                here as u32 & 15
            };
            memo.expand::<WEIGHTED>(map, c, map.xy(c), dir, goal, found);
            for &(jc, d, cost, jxy) in found.iter() {
                let jc = jc as usize;
                let ng = if WEIGHTED {
                    // As in the general search: a run past MAX_COST is not taken, which
                    // loses no path cheaper than that to the goal.
                    let ng = u64::from(g) + u64::from(cost);
                    if ng > u64::from(MAX_COST) {
                        too_costly = true;
                        continue;
                    }
                    ng as u32
                } else {
                    g + cost
                };
                let old = nodes[jc];
                let st = stamp_of(old);
                if st == closed || st == open && g_of(old) <= ng {
                    continue;
                }
                nodes[jc] = node(open, ng, d);
                parents[jc] = c as u32;
                let nh = h(jxy as usize & 0xFFFF, jxy as usize >> 16);
                queue.push((ng + nh) >> 1, key(nh, jc));
                if T::ENABLED {
                    tracer.event(TraceEvent::Open {
                        cell: pos(jc),
                        g: ng,
                        h: nh,
                        f: ng + nh,
                        parent: Some(pos(c)),
                    });
                }
            }
        }
        if answer.is_none() {
            let status = if too_costly {
                Status::TooCostly
            } else {
                Status::Unreachable
            };
            result.set(status, None, expanded);
        }
        answer
    }
}

impl Map {
    /// The padded `(x, y)` of padded cell `c`, by multiplication rather than division.
    #[inline(always)]
    fn xy(&self, c: usize) -> (usize, usize) {
        let y = ((u128::from(self.stride_magic) * c as u128) >> 64) as usize;
        (c - y * self.stride, y)
    }

    /// The jump points reached from the node at padded cell `c`, entered by direction `dir`:
    /// each as (padded cell, direction of its run's last part, cost from the node), into
    /// `out`.
    #[inline(always)]
    fn successors<const WEIGHTED: bool>(
        &self,
        c: usize,
        (x, y): (usize, usize),
        dir: u32,
        goal: (usize, usize),
        out: &mut Vec<Successor>,
    ) {
        let bits = self.cells[c].bits;
        // The moves worth trying, as legal moves: the rest would stop at their first step.
        let moves = u32::from(bits >> 8)
            & match dir {
                START | ANY => 0xFF,
                d => u32::from(NEXT[d as usize][usize::from(bits as u8)]),
            };
        let mut m = moves;
        while m != 0 {
            let d = m.trailing_zeros() as usize;
            m &= m - 1;
            let from = out.len();
            let (dx, dy) = DIRECTIONS[d];
            if d < 4 {
                if let Some(n) = self.straight(c, x, y, d, goal) {
                    let (jx, jy) = (offset(x, dx * n as i32), offset(y, dy * n as i32));
                    let xy = (jx | jy << 16) as u32;
                    out.push(((jy * self.stride + jx) as u32, d as u32, n * STRAIGHT, xy));
                }
            } else {
                self.diagonal::<WEIGHTED>(c, x, y, d, goal, out);
            }
            if WEIGHTED {
                // Every cell a run enters costs what its first does (see the module's notes):
                // its cost is its octile length times that.
                let first = offset(x, dx) + offset(y, dy) * self.stride;
                let times = self.cost(first);
                for s in &mut out[from..] {
                    s.2 = s.2.saturating_mul(times);
                }
            }
        }
    }

    /// The smallest rectangle (padded `[x0, y0, x1, y1]`) holding every cell the runs of
    /// [`Map::successors`] from padded cell `c` at `(x, y)`, entered by `dir`, could find the
    /// goal on: each straight run to where it stops, and for each diagonal run every cell it
    /// crosses with both its straight parts to where they stop.
    fn sweep(&self, c: usize, (x, y): (usize, usize), dir: u32) -> [u32; 4] {
        let bits = self.cells[c].bits;
        let mut m = u32::from(bits >> 8)
            & match dir {
                START | ANY => 0xFF,
                d => u32::from(NEXT[d as usize][usize::from(bits as u8)]),
            };
        let mut area = [x as u32, y as u32, x as u32, y as u32];
        let mut take = |x: usize, y: usize| {
            let (x, y) = (x as u32, y as u32);
            area = [
                area[0].min(x),
                area[1].min(y),
                area[2].max(x),
                area[3].max(y),
            ];
        };
        while m != 0 {
            let d = m.trailing_zeros() as usize;
            m &= m - 1;
            let (dx, dy) = DIRECTIONS[d];
            if d < 4 {
                let n = self.known_run(c, x, y, d).0 as i32;
                take(offset(x, dx * n), offset(y, dy * n));
                continue;
            }
            let step = offset(0, dx).wrapping_add(offset(0, dy).wrapping_mul(self.stride));
            let (h, v) = (STRAIGHT_PARTS[d - 4][0], STRAIGHT_PARTS[d - 4][1]);
            let (mut at, mut ax, mut ay) = (c, x, y);
            while self.cells[at].bits & 1 << (8 + d) != 0 {
                (at, ax, ay) = (at.wrapping_add(step), offset(ax, dx), offset(ay, dy));
                take(ax, ay);
                let n = self.known_run(at, ax, ay, h).0 as i32;
                take(offset(ax, dx * n), ay);
                let n = self.known_run(at, ax, ay, v).0 as i32;
                take(ax, offset(ay, dy * n));
            }
        }
        area
    }

    /// Follows the diagonal run from padded cell `c` at `(x, y)` in direction `d` and adds to
    /// `out`, for each cell it crosses, the jump points of the straight runs from that cell
    /// along its two parts (reached diagonally, then straight), and the goal if it crosses
    /// it or one of those runs does. It does not stop at those cells to expand them later,
    /// as the first JPS did (which then scans the same straight runs again): it carries on
    /// until a wall or a corner stops it (Harabor and Grastien, 2014). It skips the cells
    /// whose straight parts find no jump point at once, as [`Map::diagonal_run`] remembers
    /// them, looking only whether the goal lies on one of their runs.
    #[inline(always)]
    fn diagonal<const WEIGHTED: bool>(
        &self,
        mut c: usize,
        mut x: usize,
        mut y: usize,
        d: usize,
        goal: (usize, usize),
        out: &mut Vec<Successor>,
    ) {
        let (dx, dy) = DIRECTIONS[d];
        let stride = self.stride;
        let step = offset(0, dx).wrapping_add(offset(0, dy).wrapping_mul(stride));
        let (h, v) = (STRAIGHT_PARTS[d - 4][0], STRAIGHT_PARTS[d - 4][1]);
        let (gx, gy) = goal;
        let mut cost = 0u32;
        loop {
            let (k, boundary, last) = self.diagonal_run::<WEIGHTED>(c, x, y, d);
            if k == 0 {
                return;
            }
            // The steps at which the run is on the goal's row and on its column, counted
            // with a multiplication by the direction's sign rather than a branch on it, which
            // changes from run to run.
            let ahead = |from: usize, to: usize, sign: i32| {
                let i = (to as isize - from as isize) * sign as isize;
                (i >= 1 && (i as usize) < k).then_some(i as usize)
            };
            let on_row = ahead(y, gy, dy);
            let on_col = ahead(x, gx, dx);
            if on_row.is_some() && on_row == on_col {
                // The goal lies on the diagonal itself.
                let i = on_row.unwrap_or(0);
                let (c, x, y) = (
                    c.wrapping_add(i.wrapping_mul(step)),
                    offset(x, dx * i as i32),
                    offset(y, dy * i as i32),
                );
                out.push((
                    c as u32,
                    d as u32,
                    cost + i as u32 * DIAGONAL,
                    (x | y << 16) as u32,
                ));
                return;
            }
            if let Some(i) = on_row {
                let (mc, mx) = (
                    c.wrapping_add(i.wrapping_mul(step)),
                    offset(x, dx * i as i32),
                );
                if let Some(n) = self.straight(mc, mx, gy, h, goal).filter(|_| gx != mx)
                    && offset(mx, dx * n as i32) == gx
                {
                    let jc = (mc as isize + dx as isize * n as isize) as u32;
                    let along = cost + i as u32 * DIAGONAL + n * STRAIGHT;
                    out.push((jc, h as u32, along, (gx | gy << 16) as u32));
                }
            }
            if let Some(i) = on_col {
                let (mc, my) = (
                    c.wrapping_add(i.wrapping_mul(step)),
                    offset(y, dy * i as i32),
                );
                if let Some(n) = self.straight(mc, gx, my, v, goal).filter(|_| gy != my)
                    && offset(my, dy * n as i32) == gy
                {
                    let jc = (mc as isize + dy as isize * (n as usize * stride) as isize) as u32;
                    let along = cost + i as u32 * DIAGONAL + n * STRAIGHT;
                    out.push((jc, v as u32, along, (gx | gy << 16) as u32));
                }
            }
            (c, x, y, cost) = (
                c.wrapping_add(k.wrapping_mul(step)),
                offset(x, dx * k as i32),
                offset(y, dy * k as i32),
                cost + k as u32 * DIAGONAL,
            );
            if (x, y) == goal || WEIGHTED && boundary {
                out.push((c as u32, d as u32, cost, (x | y << 16) as u32));
                return;
            }
            // No test that the straight parts' first steps are legal: a run that meets a wall
            // at once finds no jump point, and is remembered in the cell just read.
            if let Some(n) = self.straight(c, x, y, h, goal) {
                let jx = offset(x, dx * n as i32);
                let jc = (c as isize + dx as isize * n as isize) as u32;
                out.push((jc, h as u32, cost + n * STRAIGHT, (jx | y << 16) as u32));
            }
            if let Some(n) = self.straight(c, x, y, v, goal) {
                let jy = offset(y, dy * n as i32);
                let jc = (c as isize + dy as isize * (n as usize * stride) as isize) as u32;
                out.push((jc, v as u32, cost + n * STRAIGHT, (x | jy << 16) as u32));
            }
            if last {
                return;
            }
        }
    }

    /// How many steps the diagonal run from padded cell `c` at `(x, y)` in direction `d`
    /// goes to the next cell whose straight parts find a jump point (ignoring the goal), or
    /// that is a cost boundary, or to the last cell it reaches; whether that cell is a
    /// boundary; and whether the run goes no further than there. Remembered for every cell on
    /// the way, which share the answer.
    #[inline(always)]
    fn diagonal_run<const WEIGHTED: bool>(
        &self,
        c: usize,
        x: usize,
        y: usize,
        d: usize,
    ) -> (usize, bool, bool) {
        let known = self.cells[c].diagonals[d - 4].get();
        if known != UNKNOWN {
            return (usize::from(known >> 2), known & 2 != 0, known & 1 != 0);
        }
        let (dx, dy) = DIRECTIONS[d];
        let step = offset(0, dx).wrapping_add(offset(0, dy).wrapping_mul(self.stride));
        let (h, v) = (STRAIGHT_PARTS[d - 4][0], STRAIGHT_PARTS[d - 4][1]);
        let (mut at, mut ax, mut ay, mut k) = (c, x, y, 0usize);
        let (boundary, last) = loop {
            if self.cells[at].bits & 1 << (8 + d) == 0 {
                break (false, true);
            }
            (at, ax, ay, k) = (at.wrapping_add(step), offset(ax, dx), offset(ay, dy), k + 1);
            let legal = self.cells[at].bits >> 8;
            // A cost boundary is a jump point of its own: the run stops there.
            if WEIGHTED && self.is_boundary(at) {
                break (true, legal & 1 << d == 0);
            }
            let jumps = |part: usize| legal & 1 << part != 0 && self.known_run(at, ax, ay, part).1;
            // A cell whose straight parts jump is also the last when the run cannot go on:
            // the search then ends the run there, rather than asking again to learn it.
            if jumps(h) || jumps(v) {
                break (false, legal & 1 << d == 0);
            }
        };
        for i in 0..k {
            let code = ((k - i) << 2 | usize::from(boundary) << 1 | usize::from(last)) as u16;
            self.cells[c.wrapping_add(i.wrapping_mul(step))].diagonals[d - 4].set(code);
        }
        if k == 0 {
            self.cells[c].diagonals[d - 4].set(1);
        }
        (k, boundary, last)
    }

    /// Whether padded cell `c` is a cost boundary (never on a uniform grid).
    #[inline(always)]
    fn is_boundary(&self, c: usize) -> bool {
        self.weighted && self.terrain[c] & BOUNDARY != 0
    }

    /// The cost of entering padded cell `c`: 1 on a uniform grid.
    #[inline(always)]
    fn cost(&self, c: usize) -> u32 {
        if self.weighted {
            u32::from(self.terrain[c] & 0xFF)
        } else {
            1
        }
    }

    /// The straight run from padded cell `c` at `(x, y)` in direction `d`, goal aside: its
    /// length to where it stops, and whether a jump point is there (else a wall is).
    #[inline(always)]
    fn known_run(&self, c: usize, x: usize, y: usize, d: usize) -> (u32, bool) {
        let slot = &self.cells[c].runs[d];
        let known = slot.get();
        if known != UNKNOWN {
            return (u32::from(known >> 1), known & 1 != 0);
        }
        let (dist, jump) = match d {
            1 => run::<true>(&self.east, y, x, &self.rows),
            3 => run::<false>(&self.west, y, x, &self.rows),
            2 => run::<true>(&self.south, x, y, &self.cols),
            _ => run::<false>(&self.north, x, y, &self.cols),
        };
        // Runs too long for the 15 bits kept (and for UNKNOWN) are scanned again each time:
        // wrapped, a run of 39,999 cells would read as 7,231 and lose the goal beyond it.
        if dist < LONGEST_KEPT_RUN {
            slot.set((dist << 1 | u32::from(jump)) as u16);
        }
        (dist, jump)
    }

    /// The length of the straight run from padded cell `c` at `(x, y)` in direction `d` to
    /// its jump point (or the goal), or `None` when it ends at a wall first.
    #[inline(always)]
    fn straight(
        &self,
        c: usize,
        x: usize,
        y: usize,
        d: usize,
        (gx, gy): (usize, usize),
    ) -> Option<u32> {
        let (dist, jump) = self.known_run(c, x, y, d);
        // The goal, if the run passes it: up to the jump point, or short of the wall.
        // Without a branch on the run's axis, which changes from run to run: the goal is on
        // the run's line when its offset across the line is 0, ahead when its offset along
        // the line is positive.
        let (dx, dy) = DIRECTIONS[d];
        let (ox, oy) = (gx as isize - x as isize, gy as isize - y as isize);
        let across = (ox * dy as isize) | (oy * dx as isize);
        let along = ox * dx as isize + oy * dy as isize;
        let to_goal = (across == 0 && along > 0).then_some(along as u32);
        match to_goal {
            Some(g) if g < dist || jump && g == dist => Some(g),
            _ => jump.then_some(dist),
        }
    }
}

/// For each diagonal direction (4..8), its two straight parts: horizontal, then vertical.
const STRAIGHT_PARTS: [[usize; 2]; 4] = {
    let mut parts = [[0; 2]; 4];
    let mut d = 4;
    while d < 8 {
        let (dx, dy) = DIRECTIONS[d];
        parts[d - 4] = [dir_index(dx, 0), dir_index(0, dy)];
        d += 1;
    }
    parts
};

/// For each direction a node was reached by and the walkability of its eight neighbours
/// (bit `d` for direction `d`): the moves worth trying from it, before legality. A diagonal
/// has its natural moves alone, the diagonal and its two straight parts. A straight move
/// has its own direction, and for each side whose cell is free while the cell behind it
/// (toward the parent) is not, the forced moves onto that side and diagonally ahead past it.
const NEXT: [[u8; 256]; 8] = {
    let mut table = [[0u8; 256]; 8];
    let mut d = 0;
    while d < 8 {
        let (dx, dy) = DIRECTIONS[d];
        let mut open = 0;
        while open < 256 {
            let mut moves = 1u8 << d;
            if d >= 4 {
                moves |= 1 << dir_index(dx, 0) | 1 << dir_index(0, dy);
            } else {
                let mut s = -1;
                while s <= 1 {
                    let (sx, sy) = if dx == 0 { (s, 0) } else { (0, s) };
                    let side = dir_index(sx, sy);
                    let behind = dir_index(sx - dx, sy - dy);
                    if open & 1 << side != 0 && open & 1 << behind == 0 {
                        moves |= 1 << side | 1 << dir_index(dx + sx, dy + sy);
                    }
                    s += 2;
                }
            }
            table[d][open] = moves;
            open += 1;
        }
        d += 1;
    }
    table
};

/// Writes the path that ends at padded cell `c` into `path`, every cell of every run, by
/// walking the parents back into `trail`.
fn write_path(
    map: &Map,
    nodes: &[Node],
    parents: &[u32],
    trail: &mut Vec<u32>,
    c: usize,
    path: &mut Vec<Pos>,
) {
    trail.clear();
    let mut at = c;
    loop {
        trail.push(at as u32);
        if nodes[at] as u32 & 15 == START {
            break;
        }
        at = parents[at] as usize;
    }
    let stride = map.stride;
    let pos = |c: u32| {
        Pos::new(
            (c as usize % stride) as i32 - 1,
            (c as usize / stride) as i32 - 1,
        )
    };
    let Some(&first) = trail.last() else { return };
    let mut from = pos(first);
    // Sized once: a run of n steps between two jump points adds n cells.
    let cells = trail
        .windows(2)
        .map(|w| pos(w[0]).chebyshev(pos(w[1])) as usize)
        .sum::<usize>();
    path.reserve_exact(cells + 1);
    path.push(from);
    for to in trail.iter().rev().skip(1).map(|&c| pos(c)) {
        super::trace::walk_run(&mut from, to, path);
    }
}

/// `v + d` for a padded coordinate, which never leaves the padded map.
#[inline(always)]
fn offset(v: usize, d: i32) -> usize {
    v.wrapping_add_signed(d as isize)
}

/// The index in [`DIRECTIONS`] of the king move `(dx, dy)`.
const fn dir_index(dx: i32, dy: i32) -> usize {
    let mut d = 0;
    while d < 8 {
        if DIRECTIONS[d].0 == dx && DIRECTIONS[d].1 == dy {
            return d;
        }
        d += 1;
    }
    panic!("not a king move")
}
