//! What the engine's tests share: the proptest configuration, the lists of every option
//! value, random grids of costs, and the independent model of the movement rules with its
//! plain Dijkstra.
//!
//! The model is written from the documented rule alone and reads its own copy of the costs
//! (never the engine's grid or its helpers such as `Grid::can_step`): a step costs its base
//! cost (10 straight, 14 diagonal, or the grid's `Steps`) times the cost of the cell it
//! enters; a cell of cost 0 and everything outside the grid may not be entered; a diagonal
//! under the default rule needs both cells it passes between enterable (occupants do not
//! block it: only blocked cells do); corner cutting drops that need; 4-way has no diagonal.
//! So a bug in the grid, its padded copies or its caches cannot hide itself.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};

use astar_grid::astar::{Algorithm, Heuristic, Invalid, MAX_COST, Status, Ties};
use astar_grid::grid::{Grid, Neighbourhood, Pos, Steps};
use proptest::prelude::*;
use proptest::sample::Index;

/// A proptest configuration running `PROPTEST_CASES` cases when set, else `default`, and
/// keeping no failure files (CI runs on clean clones; a failure prints its seed).
pub fn config(default: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default);
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Every movement rule (`ties.rs` checks that the engine parses no other).
pub const RULES: [Neighbourhood; 3] = [
    Neighbourhood::Eight,
    Neighbourhood::EightCutCorners,
    Neighbourhood::Four,
];
/// Every heuristic.
pub const HEURISTICS: [Heuristic; 5] = [
    Heuristic::Octile,
    Heuristic::Manhattan,
    Heuristic::Chebyshev,
    Heuristic::Euclidean,
    Heuristic::Zero,
];
/// Every tie rule, the default first.
pub const TIES: [Ties; 3] = [Ties::LowerH, Ties::Lifo, Ties::Fifo];
/// Every algorithm.
pub const ALGORITHMS: [Algorithm; 2] = [Algorithm::AStar, Algorithm::Jps];

/// Heuristics that are consistent under a rule (times the lowest cost they stay so), so
/// that plain A* must be optimal.
pub fn consistent(nb: Neighbourhood) -> &'static [Heuristic] {
    match nb {
        Neighbourhood::Four => &[
            Heuristic::Octile,
            Heuristic::Chebyshev,
            Heuristic::Zero,
            Heuristic::Manhattan,
        ],
        _ => &[Heuristic::Octile, Heuristic::Chebyshev, Heuristic::Zero],
    }
}

// ---------------------------------------------------------------------------------------------
// The model
// ---------------------------------------------------------------------------------------------

/// The model's own copy of a grid: its size, its costs row by row and its base steps.
#[derive(Clone, PartialEq, Eq)]
pub struct Model {
    pub width: usize,
    pub height: usize,
    pub costs: Vec<u8>,
    pub straight: u32,
    pub diagonal: u32,
}

impl Model {
    /// A model of `costs` (row-major) under steps of `straight` and `diagonal`.
    pub fn new(
        width: usize,
        height: usize,
        costs: Vec<u8>,
        (straight, diagonal): (u32, u32),
    ) -> Self {
        assert_eq!(costs.len(), width * height);
        Self {
            width,
            height,
            costs,
            straight,
            diagonal,
        }
    }

    /// The engine's grid of the same costs and steps (a new one each time, of a revision
    /// of its own).
    pub fn grid(&self) -> Grid {
        Grid::from_costs(self.width, self.height, self.costs.clone())
            .expect("the model's costs fit a grid")
            .with_steps(Steps::new(self.straight, self.diagonal).expect("valid steps"))
    }

    pub fn len(&self) -> usize {
        self.costs.len()
    }

    pub fn inside(&self, p: Pos) -> bool {
        p.x >= 0 && p.y >= 0 && (p.x as usize) < self.width && (p.y as usize) < self.height
    }

    pub fn index(&self, p: Pos) -> Option<usize> {
        self.inside(p)
            .then(|| p.y as usize * self.width + p.x as usize)
    }

    pub fn pos(&self, i: usize) -> Pos {
        Pos::new((i % self.width) as i32, (i / self.width) as i32)
    }

    /// What entering `p` costs: 0 where blocked or outside.
    pub fn cost(&self, p: Pos) -> u32 {
        self.index(p).map_or(0, |i| u32::from(self.costs[i]))
    }

    pub fn open(&self, p: Pos) -> bool {
        self.cost(p) != 0
    }

    /// Sets a cell's cost, as `Grid::set` does to the engine's grid.
    pub fn set(&mut self, p: Pos, cost: u8) {
        if let Some(i) = self.index(p) {
            self.costs[i] = cost;
        }
    }

    /// Every enterable cell, in reading order.
    pub fn open_cells(&self) -> Vec<Pos> {
        (0..self.len())
            .map(|i| self.pos(i))
            .filter(|&p| self.open(p))
            .collect()
    }

    /// Whether the engine must search this grid on its uniform fast path: every enterable
    /// cell costs 1 and the steps are 10 and 14.
    pub fn is_uniform(&self) -> bool {
        (self.straight, self.diagonal) == (10, 14) && self.costs.iter().all(|&c| c <= 1)
    }

    /// The lowest cost of an enterable cell (1 when none is), which estimates are scaled by.
    pub fn lowest(&self) -> u32 {
        self.costs
            .iter()
            .filter(|&&c| c != 0)
            .min()
            .map_or(1, |&c| u32::from(c))
    }

    /// Why `p` cannot be an endpoint, if it cannot.
    pub fn invalid(&self, p: Pos) -> Option<Invalid> {
        if !self.inside(p) {
            Some(Invalid::OutOfBounds)
        } else if !self.open(p) {
            Some(Invalid::Blocked)
        } else {
            None
        }
    }

    /// The cost of one step under `nb`, or `None` when it is illegal. `occupied` cells
    /// cannot be entered, but they do not block diagonals.
    pub fn step(
        &self,
        occupied: &HashSet<Pos>,
        from: Pos,
        to: Pos,
        nb: Neighbourhood,
    ) -> Option<u32> {
        let (dx, dy) = (to.x - from.x, to.y - from.y);
        if (dx, dy) == (0, 0) || dx.abs() > 1 || dy.abs() > 1 || occupied.contains(&to) {
            return None;
        }
        let k = self.cost(to);
        if k == 0 {
            return None;
        }
        if dx == 0 || dy == 0 {
            return Some(self.straight * k);
        }
        match nb {
            Neighbourhood::Four => None,
            Neighbourhood::EightCutCorners => Some(self.diagonal * k),
            Neighbourhood::Eight => (self.open(Pos::new(from.x + dx, from.y))
                && self.open(Pos::new(from.x, from.y + dy)))
            .then_some(self.diagonal * k),
            _ => panic!("a movement rule the model does not know: {nb:?}"),
        }
    }

    /// Plain Dijkstra: per cell, the cheapest cost from the nearest of `roots` (those that
    /// are enterable) or, `toward`, the cheapest cost from the cell to the nearest of them.
    /// Costs are counted in 64 bits, past what the engine keeps.
    pub fn distances(
        &self,
        roots: &[Pos],
        nb: Neighbourhood,
        occupied: &HashSet<Pos>,
        toward: bool,
    ) -> Vec<Option<u64>> {
        let mut dist: Vec<Option<u64>> = vec![None; self.len()];
        let mut heap = BinaryHeap::new();
        for &r in roots {
            if let Some(i) = self.index(r).filter(|_| self.open(r)) {
                dist[i] = Some(0);
                heap.push(Reverse((0u64, r.y, r.x)));
            }
        }
        while let Some(Reverse((d, y, x))) = heap.pop() {
            let p = Pos::new(x, y);
            if dist[self.index(p).expect("inside")] != Some(d) {
                continue;
            }
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let q = Pos::new(x + dx, y + dy);
                    // Toward the roots the edge runs from q into p: q must be a cell one
                    // can stand on, and the step is priced as that move.
                    let c = if toward {
                        if !self.open(q) {
                            continue;
                        }
                        self.step(occupied, q, p, nb)
                    } else {
                        self.step(occupied, p, q, nb)
                    };
                    if let Some(c) = c {
                        let i = self.index(q).expect("a legal step stays inside");
                        let nd = d + u64::from(c);
                        if dist[i].is_none_or(|old| nd < old) {
                            dist[i] = Some(nd);
                            heap.push(Reverse((nd, q.y, q.x)));
                        }
                    }
                }
            }
        }
        dist
    }

    /// The cheapest cost from `start` to `goal`, if they are connected.
    pub fn cost_between(
        &self,
        start: Pos,
        goal: Pos,
        nb: Neighbourhood,
        occupied: &HashSet<Pos>,
    ) -> Option<u64> {
        let i = self.index(goal).filter(|_| self.open(goal))?;
        if !self.open(start) {
            return None;
        }
        self.distances(&[start], nb, occupied, false)[i]
    }

    /// What a search from `start` to `goal` must answer (status and cost).
    pub fn expected(
        &self,
        start: Pos,
        goal: Pos,
        nb: Neighbourhood,
        occupied: &HashSet<Pos>,
    ) -> (Status, Option<u32>) {
        if let Some(why) = self.invalid(start) {
            return (Status::InvalidStart(why), None);
        }
        if let Some(why) = self.invalid(goal) {
            return (Status::InvalidGoal(why), None);
        }
        match self.cost_between(start, goal, nb, occupied) {
            Some(c) if c <= u64::from(MAX_COST) => (Status::Found, Some(c as u32)),
            Some(_) => (Status::TooCostly, None),
            None => (Status::Unreachable, None),
        }
    }

    /// The estimate of `h` for a displacement, in this grid's steps and unscaled.
    pub fn raw_estimate(&self, h: Heuristic, dx: u32, dy: u32) -> u32 {
        let (s, d) = (u64::from(self.straight), u64::from(self.diagonal));
        let (dx, dy) = (u64::from(dx), u64::from(dy));
        let (lo, hi) = (dx.min(dy), dx.max(dy));
        let v = match h {
            Heuristic::Octile => d * lo + s * (hi - lo),
            Heuristic::Manhattan => s * (dx + dy),
            Heuristic::Chebyshev => s * hi,
            Heuristic::Euclidean => (s * s * (dx * dx + dy * dy)).isqrt(),
            Heuristic::Zero => 0,
            _ => panic!("a heuristic the model does not know: {h:?}"),
        };
        v.min(u64::from(u32::MAX)) as u32
    }

    /// The H the engine must give a cell `a` searching toward `b`: the estimate in this
    /// grid's steps times its lowest cost.
    pub fn estimate(&self, h: Heuristic, a: Pos, b: Pos) -> u32 {
        self.raw_estimate(h, a.x.abs_diff(b.x), a.y.abs_diff(b.y))
            .saturating_mul(self.lowest())
    }

    /// The cost of a path whose every step is legal, or `None`.
    pub fn path_cost(
        &self,
        path: &[Pos],
        nb: Neighbourhood,
        occupied: &HashSet<Pos>,
    ) -> Option<u64> {
        path.windows(2)
            .map(|w| self.step(occupied, w[0], w[1], nb).map(u64::from))
            .sum()
    }

    /// The grid as text: `#` blocked, `.` cost 1, a digit for costs 2 to 9 (what
    /// `Grid::from_rows` reads back), or every cost as a number when some exceed 9.
    pub fn render(&self) -> String {
        let mut s = format!(
            "{}x{} steps {}/{}\n",
            self.width, self.height, self.straight, self.diagonal
        );
        let wide = self.costs.iter().any(|&c| c > 9);
        if self.len() > 4096 {
            // Too long to read cell by cell: each row as runs of one cost, `cost*count`.
            for row in self.costs.chunks(self.width.max(1)) {
                let mut runs: Vec<(u8, usize)> = Vec::new();
                for &c in row {
                    match runs.last_mut() {
                        Some((last, n)) if *last == c => *n += 1,
                        _ => runs.push((c, 1)),
                    }
                }
                let runs: Vec<String> = runs.iter().map(|(c, n)| format!("{c}*{n}")).collect();
                s.push_str(&runs.join(" "));
                s.push('\n');
            }
            return s;
        }
        for row in self.costs.chunks(self.width.max(1)) {
            for &c in row {
                if wide {
                    s.push_str(&format!("{c:>4}"));
                } else {
                    s.push(match c {
                        0 => '#',
                        1 => '.',
                        _ => char::from(b'0' + c),
                    });
                }
            }
            s.push_str("|\n");
        }
        s
    }
}

impl std::fmt::Debug for Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "\n{}", self.render())
    }
}

// ---------------------------------------------------------------------------------------------
// Random grids
// ---------------------------------------------------------------------------------------------

/// Which costs a random grid's enterable cells take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Palette {
    /// All 1: the uniform fast path (under the default steps).
    Uniform,
    /// 1, and 2 to 9 on a share of the cells.
    Low,
    /// 1, and anything up to 255 on a share of the cells.
    High,
}

/// Base steps: mostly the default 10/14, else any the engine accepts (a diagonal from one to
/// two straight steps, the straight step from 1 to 1000).
pub fn steps_strategy(default_share: u32) -> impl Strategy<Value = (u32, u32)> {
    prop_oneof![
        default_share => Just((10u32, 14u32)),
        1 => (1u32..=20).prop_flat_map(|s| (Just(s), s..=2 * s)),
        1 => (1u32..=1000).prop_flat_map(|s| (Just(s), s..=2 * s)),
    ]
}

/// The cost of a random cell: blocked under `walls` percent of the rolls, else from the
/// palette on `terrain` percent of the rest, else 1.
fn cell_cost(palette: Palette, walls: u8, terrain: u8, (r, t, v): (u8, u8, u8)) -> u8 {
    if r < walls {
        0
    } else if t >= terrain {
        1
    } else {
        match palette {
            Palette::Uniform => 1,
            Palette::Low => 2 + v % 8,
            Palette::High => v.max(1),
        }
    }
}

/// Grids up to `max_w` x `max_h` with up to `max_walls` percent blocked cells, of the
/// palette given; the steps are default for the uniform palette two times in three.
pub fn model_strategy(
    max_w: usize,
    max_h: usize,
    max_walls: u8,
    palette: Palette,
) -> impl Strategy<Value = Model> {
    let steps = if palette == Palette::Uniform {
        steps_strategy(4).boxed()
    } else {
        steps_strategy(2).boxed()
    };
    (
        1usize..=max_w,
        1usize..=max_h,
        0u8..=max_walls,
        0u8..=100,
        steps,
    )
        .prop_flat_map(move |(w, h, walls, terrain, steps)| {
            prop::collection::vec((0u8..100, 0u8..100, any::<u8>()), w * h).prop_map(move |rolls| {
                let costs = rolls
                    .into_iter()
                    .map(|roll| cell_cost(palette, walls, terrain, roll))
                    .collect();
                Model::new(w, h, costs, steps)
            })
        })
}

/// Uniform grids half the time (the fast path, and JPS), else grids of low or high costs.
pub fn any_model(max_w: usize, max_h: usize, max_walls: u8) -> impl Strategy<Value = Model> {
    prop_oneof![
        2 => model_strategy(max_w, max_h, max_walls, Palette::Uniform),
        1 => model_strategy(max_w, max_h, max_walls, Palette::Low),
        1 => model_strategy(max_w, max_h, max_walls, Palette::High),
    ]
}

/// Long grids (wide or tall, 60 to 200 cells) with few walls: runs longer than the 64 cells
/// Jump Point Search reads at once, which the small grids never have.
pub fn long_model(palette: Palette) -> impl Strategy<Value = Model> {
    let steps = if palette == Palette::Uniform {
        Just((10u32, 14u32)).boxed()
    } else {
        steps_strategy(2).boxed()
    };
    (
        60usize..=200,
        1usize..=10,
        0u8..=25,
        0u8..=30,
        any::<bool>(),
        steps,
    )
        .prop_flat_map(move |(long, short, walls, terrain, tall, steps)| {
            prop::collection::vec((0u8..100, 0u8..100, any::<u8>()), long * short).prop_map(
                move |rolls| {
                    let costs: Vec<u8> = rolls
                        .into_iter()
                        .map(|roll| cell_cost(palette, walls, terrain, roll))
                        .collect();
                    if !tall {
                        return Model::new(long, short, costs, steps);
                    }
                    let turned = (0..long * short)
                        .map(|i| costs[(i % short) * long + i / short])
                        .collect();
                    Model::new(short, long, turned, steps)
                },
            )
        })
}

/// An endpoint: mostly an enterable cell, sometimes any cell in or just around the grid.
pub type Pick = (u8, Index, i32, i32);

pub fn pick() -> impl Strategy<Value = Pick> {
    (0u8..100, any::<Index>(), 0i32..1000, 0i32..1000)
}

/// The cell a pick names on a grid of `open` cells.
pub fn resolve(m: &Model, open: &[Pos], (roll, i, x, y): Pick) -> Pos {
    if roll < 85 && !open.is_empty() {
        open[i.index(open.len())]
    } else {
        Pos::new(x % (m.width as i32 + 4) - 2, y % (m.height as i32 + 4) - 2)
    }
}

/// A grid (the model and the engine's copy), two endpoints and cells where someone stands.
#[derive(Clone)]
pub struct Case {
    pub model: Model,
    pub grid: Grid,
    pub start: Pos,
    pub goal: Pos,
    /// Occupied cells (may be anything: blocked, outside, duplicates, the endpoints).
    pub blockers: Vec<Pos>,
}

impl std::fmt::Debug for Case {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "\n{}start {} goal {} blockers {:?}",
            self.model.render(),
            self.start,
            self.goal,
            self.blockers
        )
    }
}

impl Case {
    /// The occupancy of the case: its blockers on the grid marked (each with a number of
    /// its own), one entry per cell.
    pub fn occupancy(&self) -> Vec<u32> {
        let mut cells = vec![0u32; self.model.len()];
        for (i, &b) in self.blockers.iter().enumerate() {
            if let Some(c) = self.model.index(b) {
                cells[c] = i as u32 + 1;
            }
        }
        cells
    }

    /// The cells the model may not enter for the blockers: those on the grid, but for the
    /// endpoints (the start is never entered, the goal always may be).
    pub fn taken(&self) -> HashSet<Pos> {
        self.blockers
            .iter()
            .copied()
            .filter(|&b| self.model.inside(b) && b != self.start && b != self.goal)
            .collect()
    }
}

/// Cases on the grids of `models`.
pub fn case_on(models: impl Strategy<Value = Model>) -> impl Strategy<Value = Case> {
    (models, pick(), pick(), prop::collection::vec(pick(), 0..16)).prop_map(|(model, s, t, bs)| {
        let open = model.open_cells();
        let start = resolve(&model, &open, s);
        let goal = resolve(&model, &open, t);
        let blockers = bs.into_iter().map(|b| resolve(&model, &open, b)).collect();
        Case {
            grid: model.grid(),
            model,
            start,
            goal,
            blockers,
        }
    })
}
