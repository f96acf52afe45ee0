//! Jump Point Search (Harabor and Grastien, AAAI 2011) for the game's movement rule: 8-way,
//! no corner cutting, 10/14 costs, with the forced-neighbour rules of that rule (Harabor and
//! Grastien, SoCS 2012), block-based straight scans and diagonal runs that do not stop at
//! their turning points (their ICAPS 2014 paper).
//!
//! Without corner cutting a diagonal step never has a forced neighbour: the cell beside and
//! behind it is always reachable round the two free sides the step needs. So only straight
//! runs find jump points on their own: running east, a cell is one when, above or below it,
//! a free cell follows a blocked one (that free cell is reached well only through it). A
//! diagonal run tries, from every cell it crosses, the straight runs along its two parts.
//! A jump point's successors are the runs of its natural moves (the direction it was reached
//! by, and for a diagonal its two straight parts) and of its forced ones; every other move
//! has a path as short that does not pass through it. Jump points are searched as A* nodes,
//! with the octile distance along the run (diagonal first, then straight) as the step cost;
//! consistent estimates stay consistent, so no node is reopened.
//!
//! A straight run reads 64 cells at once: for each direction a bit set per row (east and
//! west) or column (south and north) marks where runs stop, walls and jump points, so one
//! word and a count of trailing zeros find the next stop. A run's outcome depends on the map
//! alone (the goal is checked apart), so it is remembered per cell and direction until the
//! grid changes: a diagonal run, which tries two straight runs per cell, mostly reads them.

use std::cell::Cell;

use super::queue::{BucketQueue, OpenList};
use super::{Query, SearchResult, Status, Ties, TraceEvent, Tracer};
use crate::grid::{DIAGONAL, DIRECTIONS, Grid, Pos, STRAIGHT};

/// The direction of a node without a parent (the start): every move is tried.
const START: u32 = 8;

/// The search state of one jump point.
#[derive(Debug, Clone, Copy, Default)]
struct Node {
    /// `generation << 1 | closed` of the search that last touched it.
    stamp: u32,
    /// The best known cost from the start.
    g: u32,
    /// `cell << 4 | dir`: the padded cell of the jump point it is best reached from, and the
    /// direction of the run's last part (an index of [`DIRECTIONS`]), or [`START`].
    from: u32,
    /// Its padded position, `x | y << 16`.
    xy: u32,
}

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

/// A remembered run not computed yet.
const UNKNOWN: u16 = u16::MAX;

/// The map as JPS reads it, rebuilt when the grid's revision changes.
#[derive(Debug, Clone, Default)]
struct Map {
    /// The revision of the grid copied in, or 0 before the first.
    revision: u64,
    /// Whether every step on the grid costs the plain 10 or 14 (else JPS does not apply).
    uniform: bool,
    /// Padded width: the map with a one-cell wall border.
    stride: usize,
    /// Per padded cell, what runs read there.
    cells: Vec<Spot>,
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

/// What runs read at a cell, together so that a step of a diagonal run reads one cache line.
#[derive(Debug, Clone, Default)]
struct Spot {
    /// Bit `d` when the neighbour in direction `d` is walkable, bit `8 + d` when the step
    /// there is legal (for a diagonal, its two sides are free too).
    bits: u16,
    /// Per straight direction, the run from here as `distance << 1 | jump point`, or
    /// [`UNKNOWN`].
    runs: [Cell<u16>; 4],
}

/// The buffers of Jump Point Search, kept between searches.
#[derive(Debug, Clone, Default)]
pub(super) struct Jps {
    map: Map,
    nodes: Vec<Node>,
    generation: u32,
    /// The open list under [`Ties::LowerH`]: keys `H << 32 | cell`, so equal F pops by
    /// lower H, then in reading order.
    queue: BucketQueue<false>,
    /// The open list under [`Ties::Lifo`]: keys are cells.
    lifo: BucketQueue<true>,
    /// The successors of the node being expanded: (padded cell, direction, cost from it,
    /// padded `x | y << 16`).
    found: Vec<(u32, u32, u32, u32)>,
    /// Jump points from the goal back, as the path is walked back.
    trail: Vec<u32>,
}

impl Jps {
    /// Copies `grid` in when it changed; returns whether JPS applies to it (every step costs
    /// the plain 10 or 14).
    pub(super) fn prepare(&mut self, grid: &Grid) -> bool {
        let map = &mut self.map;
        if map.revision == grid.revision() {
            return map.uniform;
        }
        map.revision = grid.revision();
        map.uniform = grid.has_uniform_costs();
        let (w, h) = (grid.width(), grid.height());
        let (stride, height) = (w + 2, h + 2);
        map.stride = stride;
        let mut walk = vec![false; stride * height];
        map.rows = Lines::new(height, stride);
        map.cols = Lines::new(stride, height);
        for (i, t) in grid.tiles().iter().enumerate() {
            if t.is_passable() {
                let (x, y) = (i % w + 1, i / w + 1);
                walk[y * stride + x] = true;
                map.rows.clear(y, x);
                map.cols.clear(x, y);
            }
        }
        let at = |x: usize, y: usize| walk[y * stride + x];
        // Free here, blocked before (toward where a run comes from).
        let opens = |x: usize, y: usize, bx: usize, by: usize| at(x, y) && !at(bx, by);
        map.east = Lines::new(height, stride);
        map.west = Lines::new(height, stride);
        map.south = Lines::new(stride, height);
        map.north = Lines::new(stride, height);
        let unknown = Spot {
            bits: 0,
            runs: std::array::from_fn(|_| Cell::new(UNKNOWN)),
        };
        map.cells = vec![unknown; stride * height];
        for y in 1..height - 1 {
            for x in (1..stride - 1).filter(|&x| at(x, y)) {
                let (l, r, u, d) = (x - 1, x + 1, y - 1, y + 1);
                if !(opens(x, u, l, u) || opens(x, d, l, d)) {
                    map.east.clear(y, x);
                }
                if !(opens(x, u, r, u) || opens(x, d, r, d)) {
                    map.west.clear(y, x);
                }
                if !(opens(l, y, l, u) || opens(r, y, r, u)) {
                    map.south.clear(x, y);
                }
                if !(opens(l, y, l, d) || opens(r, y, r, d)) {
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
        if self.nodes.len() != stride * height {
            self.nodes = vec![Node::default(); stride * height];
            self.generation = 0;
        }
        map.uniform
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
        if self.generation >= u32::MAX / 2 - 1 {
            for n in &mut self.nodes {
                n.stamp = 0;
            }
            self.generation = 0;
        }
        self.generation += 1;
        let open = self.generation << 1;
        let found = match q.options.ties {
            Ties::LowerH => self.run(
                q,
                result,
                tracer,
                open,
                |j| &mut j.queue,
                |h, c| u64::from(h) << 32 | c as u64,
            ),
            Ties::Lifo => self.run(q, result, tracer, open, |j| &mut j.lifo, |_, c| c as u64),
        };
        if let Some((c, g, expanded)) = found {
            write_path(&self.map, &self.nodes, &mut self.trail, c, &mut result.path);
            result.set(Status::Found, Some(g), expanded);
        }
    }

    /// The search loop on the open list `pick` selects, with keys `key(h, cell)`; returns the
    /// goal's cell, its cost and the expansions when found (the result is set otherwise).
    #[inline(always)]
    fn run<T: Tracer, Q: OpenList>(
        &mut self,
        q: &Query<'_>,
        result: &mut SearchResult,
        tracer: &mut T,
        open: u32,
        pick: impl Fn(&mut Self) -> &mut Q,
        key: impl Fn(u32, usize) -> u64,
    ) -> Option<(usize, u32, u32)> {
        let closed = open | 1;
        let stride = self.map.stride;
        let cell = |p: Pos| (p.y as usize + 1) * stride + p.x as usize + 1;
        let (s, t) = (cell(q.start), cell(q.goal));
        let goal = (q.goal.x as usize + 1, q.goal.y as usize + 1);
        let heuristic = q.options.heuristic;
        let h = |x: usize, y: usize| {
            heuristic.estimate(x.abs_diff(goal.0) as u32, y.abs_diff(goal.1) as u32)
        };
        let pos = |c: usize| Pos::new((c % stride) as i32 - 1, (c / stride) as i32 - 1);
        let mut found = std::mem::take(&mut self.found);
        let mut queue = std::mem::take(pick(self));
        let map = &self.map;
        let nodes = &mut self.nodes[..];

        nodes[s] = Node {
            stamp: open,
            g: 0,
            from: (s as u32) << 4 | START,
            xy: (q.start.x as u32 + 1) | (q.start.y as u32 + 1) << 16,
        };
        let h0 = h(q.start.x as usize + 1, q.start.y as usize + 1);
        queue.start(h0, key(h0, s));
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
        while let Some((_, k)) = queue.pop(|_, k| nodes[k as u32 as usize].stamp != closed) {
            let c = k as u32 as usize;
            let node = nodes[c];
            if node.stamp == closed {
                continue;
            }
            if expanded >= cap {
                result.set(Status::CapReached, None, expanded);
                break;
            }
            nodes[c].stamp = closed;
            expanded += 1;
            if T::ENABLED {
                tracer.event(TraceEvent::Close { cell: pos(c) });
            }
            if c == t {
                answer = Some((c, node.g, expanded));
                break;
            }
            found.clear();
            let xy = (node.xy as usize & 0xFFFF, node.xy as usize >> 16);
            map.successors(c, xy, node.from & 15, goal, &mut found);
            for &(jc, d, cost, jxy) in &found {
                let jc = jc as usize;
                let ng = node.g + cost;
                let n = &mut nodes[jc];
                if n.stamp == closed || n.stamp == open && n.g <= ng {
                    continue;
                }
                *n = Node {
                    stamp: open,
                    g: ng,
                    from: (c as u32) << 4 | d,
                    xy: jxy,
                };
                let nh = h(jxy as usize & 0xFFFF, jxy as usize >> 16);
                queue.push(ng + nh, key(nh, jc));
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
        if answer.is_none() && expanded < cap {
            result.set(Status::Unreachable, None, expanded);
        }
        self.found = found;
        *pick(self) = queue;
        answer
    }
}

impl Map {
    /// The jump points reached from the node at padded cell `c`, entered by direction `dir`:
    /// each as (padded cell, direction of its run's last part, cost from the node), into
    /// `out`.
    #[inline(always)]
    fn successors(
        &self,
        c: usize,
        (x, y): (usize, usize),
        dir: u32,
        goal: (usize, usize),
        out: &mut Vec<(u32, u32, u32, u32)>,
    ) {
        let bits = self.cells[c].bits;
        // The moves worth trying, as legal moves: the rest would stop at their first step.
        let moves = u32::from(bits >> 8)
            & match dir {
                START => 0xFF,
                d => u32::from(NEXT[d as usize][usize::from(bits as u8)]),
            };
        let mut m = moves;
        while m != 0 {
            let d = m.trailing_zeros() as usize;
            m &= m - 1;
            if d < 4 {
                let (dx, dy) = DIRECTIONS[d];
                if let Some(n) = self.straight(c, x, y, d, goal) {
                    let (jx, jy) = (offset(x, dx * n as i32), offset(y, dy * n as i32));
                    let xy = (jx | jy << 16) as u32;
                    out.push(((jy * self.stride + jx) as u32, d as u32, n * STRAIGHT, xy));
                }
            } else {
                self.diagonal(c, x, y, d, goal, out);
            }
        }
    }

    /// Follows the diagonal run from padded cell `c` at `(x, y)` in direction `d` and adds to
    /// `out`, for each cell it crosses, the jump points of the straight runs from that cell
    /// along its two parts (reached diagonally, then straight), and the goal if it crosses
    /// it. It does not stop at those cells to expand them later, as the first JPS did (which
    /// then scans the same straight runs again): it carries on until a wall or a corner
    /// stops it (Harabor and Grastien, 2014).
    #[inline(always)]
    fn diagonal(
        &self,
        mut c: usize,
        mut x: usize,
        mut y: usize,
        d: usize,
        goal: (usize, usize),
        out: &mut Vec<(u32, u32, u32, u32)>,
    ) {
        let (dx, dy) = DIRECTIONS[d];
        let stride = self.stride;
        let step = offset(0, dx).wrapping_add(offset(0, dy).wrapping_mul(stride));
        let (h, v) = (STRAIGHT_PARTS[d - 4][0], STRAIGHT_PARTS[d - 4][1]);
        let mut cost = 0u32;
        // No corner cutting: the step is legal only when both its sides are free.
        while self.cells[c].bits & 1 << (8 + d) != 0 {
            (c, x, y, cost) = (
                c.wrapping_add(step),
                offset(x, dx),
                offset(y, dy),
                cost + DIAGONAL,
            );
            if (x, y) == goal {
                out.push((c as u32, d as u32, cost, (x | y << 16) as u32));
                return;
            }
            let legal = self.cells[c].bits >> 8;
            if legal & 1 << h != 0
                && let Some(n) = self.straight(c, x, y, h, goal)
            {
                let jx = offset(x, dx * n as i32);
                let jc = (c as isize + dx as isize * n as isize) as u32;
                out.push((jc, h as u32, cost + n * STRAIGHT, (jx | y << 16) as u32));
            }
            if legal & 1 << v != 0
                && let Some(n) = self.straight(c, x, y, v, goal)
            {
                let jy = offset(y, dy * n as i32);
                let jc = (c as isize + dy as isize * (n as usize * stride) as isize) as u32;
                out.push((jc, v as u32, cost + n * STRAIGHT, (x | jy << 16) as u32));
            }
        }
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
        let slot = &self.cells[c].runs[d];
        let mut known = slot.get();
        if known == UNKNOWN {
            let (dist, jump) = match d {
                1 => run::<true>(&self.east, y, x, &self.rows),
                3 => run::<false>(&self.west, y, x, &self.rows),
                2 => run::<true>(&self.south, x, y, &self.cols),
                _ => run::<false>(&self.north, x, y, &self.cols),
            };
            known = (dist << 1 | u32::from(jump)) as u16;
            slot.set(known);
        }
        let (dist, jump) = (u32::from(known >> 1), known & 1 != 0);
        // The goal, if the run passes it: up to the jump point, or short of the wall.
        let (dx, dy) = DIRECTIONS[d];
        let to_goal = if dy == 0 {
            (gy == y && gx != x && (gx > x) == (dx > 0)).then(|| gx.abs_diff(x) as u32)
        } else {
            (gx == x && gy != y && (gy > y) == (dy > 0)).then(|| gy.abs_diff(y) as u32)
        };
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
fn write_path(map: &Map, nodes: &[Node], trail: &mut Vec<u32>, c: usize, path: &mut Vec<Pos>) {
    trail.clear();
    let mut at = c;
    loop {
        trail.push(at as u32);
        let from = nodes[at].from;
        if from & 15 == START {
            break;
        }
        at = (from >> 4) as usize;
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
    // Each run is diagonal first, then straight: stepping by the signs of what is left
    // walks exactly that (as `walk_runs` does, without its allocation).
    for to in trail.iter().rev().skip(1).map(|&c| pos(c)) {
        while from != to {
            from = from.offset((to.x - from.x).signum(), (to.y - from.y).signum());
            path.push(from);
        }
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
