//! A pathfinder kept across changes to its map answers exactly what a fresh one answers on
//! a copy of the map as it stands (but for the one search that finds out that its region
//! labels still join cells a closed cell parted, which they are documented to do: see
//! `labels_over_joined`). This guards the caches that follow a grid's changes by patching
//! the cells that changed (the uniform board, the buffers of searches on costs, the region
//! labels) rather than copying the grid again, and their falling back to a full copy: after
//! more changes than the grid's log keeps (512), after more than the labels patch one by one
//! (256), on another grid, on a clone that went its own way, and on new steps.

use std::collections::HashSet;

use astar_grid::astar::{
    Algorithm, Fallback, GoalTest, Goals, Heuristic, Pathfinder, Query, SearchOptions,
    SearchResult, Status, Trace, Weight,
};
use astar_grid::grid::{Grid, Neighbourhood, Pos, Steps};
use proptest::prelude::*;
use proptest::sample::Index;

use crate::common::{
    Model, Palette, Pick, TIES, config, model_strategy, pick, resolve, steps_strategy,
};

/// One thing that happens to the map or its pathfinder.
#[derive(Debug, Clone)]
enum Op {
    /// One cell takes a cost (drawn from the case's palette by the number).
    Set(Index, u8),
    /// Many cells change at once, drawn from a seed: a few, about as many as the labels
    /// patch one by one, or more than the grid's log keeps.
    Burst(usize, u64),
    /// Every cell dearer than 1 costs 1 again: a grid of costs turns uniform (or stays so).
    Flatten,
    /// A search of the kind numbered, between two cells, with people standing where a seed
    /// says when the kind reads an occupancy.
    Search(Index, Pick, Pick, u64),
    /// A clone of the grid takes a change and is searched; the grid itself stays.
    Clone(Index, u8, Pick, Pick),
    /// The pathfinder searches another grid, of another size or the same.
    Elsewhere(bool),
    /// The grid's steps change.
    Steps((u32, u32)),
}

fn op_strategy() -> impl Strategy<Value = Op> {
    let burst = prop_oneof![
        3 => 1usize..=40,
        1 => 250usize..=270,
        1 => 513usize..=700,
    ];
    prop_oneof![
        6 => (any::<Index>(), any::<u8>()).prop_map(|(i, v)| Op::Set(i, v)),
        2 => (burst, any::<u64>()).prop_map(|(n, seed)| Op::Burst(n, seed)),
        1 => Just(Op::Flatten),
        6 => (any::<Index>(), pick(), pick(), any::<u64>()).prop_map(|(k, a, b, s)| Op::Search(k, a, b, s)),
        1 => (any::<Index>(), any::<u8>(), pick(), pick()).prop_map(|(i, v, a, b)| Op::Clone(i, v, a, b)),
        1 => any::<bool>().prop_map(Op::Elsewhere),
        1 => steps_strategy(1).prop_map(Op::Steps),
    ]
}

/// The cost a change gives a cell, from the case's palette: uniform grids mostly open and
/// close cells (one change in ten makes a cell dearer), the others take any cost.
fn cost_for(palette: Palette, v: u8) -> u8 {
    match palette {
        Palette::Uniform => match v % 10 {
            0..=4 => 0,
            5..=8 => 1,
            _ => 2 + v / 10 % 8,
        },
        Palette::Low => v % 10,
        Palette::High => match v % 4 {
            0 => 0,
            1 => 1,
            _ => v,
        },
    }
}

/// The searches a case draws from: A* and JPS under every tie rule and several rules and
/// estimates, greedy, a search with an occupancy, and one toward the nearest of three goals.
#[derive(Debug, Clone, Copy)]
enum Kind {
    Find(SearchOptions),
    Occupied(SearchOptions),
    Nearest(SearchOptions),
}

fn kinds() -> Vec<Kind> {
    let mut kinds = Vec::new();
    for ties in TIES {
        let o = SearchOptions::default().with_ties(ties);
        kinds.extend([
            Kind::Find(o),
            Kind::Find(o.with_neighbourhood(Neighbourhood::EightCutCorners)),
            Kind::Find(
                o.with_neighbourhood(Neighbourhood::Four)
                    .with_heuristic(Heuristic::Manhattan),
            ),
            Kind::Find(o.with_heuristic(Heuristic::Zero)),
            Kind::Find(
                o.with_heuristic(Heuristic::Chebyshev)
                    .with_weight(Weight::from_millis(1500)),
            ),
            Kind::Find(o.with_greedy(true)),
            Kind::Find(o.with_algorithm(Algorithm::Jps)),
            Kind::Find(
                o.with_algorithm(Algorithm::Jps)
                    .with_heuristic(Heuristic::Chebyshev),
            ),
            Kind::Find(
                o.with_algorithm(Algorithm::Jps)
                    .with_neighbourhood(Neighbourhood::EightCutCorners),
            ),
            Kind::Occupied(o),
            Kind::Occupied(o.with_neighbourhood(Neighbourhood::EightCutCorners)),
            Kind::Nearest(o),
        ]);
    }
    kinds
}

/// A small deterministic generator for the cells of bursts and occupancies.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // SplitMix64.
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// The search of `kind` from `a` to `b` on `grid` by `pf`, with the occupancy drawn from
/// `seed`, and the goals of the nearest-goal search.
fn run(
    pf: &mut Pathfinder,
    grid: &Grid,
    kind: Kind,
    (a, b): (Pos, Pos),
    seed: u64,
) -> SearchResult {
    let mut r = SearchResult::default();
    match kind {
        Kind::Find(o) => pf.search(grid, Query::new(a, b).options(o), &mut r, &mut ()),
        Kind::Occupied(o) => {
            let mut rng = Rng(seed);
            let mut occupied = vec![0u32; grid.len()];
            for who in 1..=(grid.len() / 10).min(12) as u32 {
                let i = (rng.next() % grid.len() as u64) as usize;
                occupied[i] = who;
            }
            pf.search(
                grid,
                Query::new(a, b).options(o).occupied(&occupied),
                &mut r,
                &mut (),
            );
        }
        Kind::Nearest(o) => {
            let goals = [b, a.offset(3, 1), Pos::new(b.x - 2, a.y)];
            pf.search_to(grid, a, &Goals::new(&goals, Heuristic::Octile), o, &mut r);
        }
    }
    r
}

/// Whether the kind must find the optimum to a single goal (and its cost can be checked
/// against the model): A* or JPS at weight 1, consistent, not greedy, nobody in the way.
fn exact(kind: Kind) -> Option<SearchOptions> {
    match kind {
        Kind::Find(o) if !o.greedy && o.weight == Weight::ONE => Some(o),
        _ => None,
    }
}

/// A grid and what happens to it.
#[derive(Clone)]
struct Story {
    model: Model,
    palette: Palette,
    ops: Vec<Op>,
}

impl std::fmt::Debug for Story {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "\n{}{:?} {:#?}",
            self.model.render(),
            self.palette,
            self.ops
        )
    }
}

fn story_strategy() -> impl Strategy<Value = Story> {
    let palette = prop_oneof![
        2 => Just(Palette::Uniform),
        1 => Just(Palette::Low),
        1 => Just(Palette::High),
    ];
    palette.prop_flat_map(|palette| {
        (
            model_strategy(20, 16, 40, palette),
            prop::collection::vec(op_strategy(), 5..50),
        )
            .prop_map(move |(mut model, ops)| {
                if palette == Palette::Uniform {
                    (model.straight, model.diagonal) = (10, 14);
                }
                Story {
                    model,
                    palette,
                    ops,
                }
            })
    })
}

/// Whether `kept` differs from `fresh` only as the region labels may make it: after a cell
/// closes they may still join the cells it parted (see `astar/connect.rs`), so a kept
/// pathfinder searches for a goal a fresh one knows at once to be unreachable (the same
/// status, no cost, no path; more expansions, and JPS's fallback told as it ran). That
/// search teaches the labels, so the same search asked again must be answered as fresh.
fn labels_over_joined(kept: &SearchResult, fresh: &SearchResult) -> bool {
    kept != fresh
        && (fresh.status, fresh.expanded) == (Status::Unreachable, 0)
        && (kept.status, kept.cost) == (Status::Unreachable, None)
        && kept.path.is_empty()
}

/// Checks one search by the pathfinder that lived through every change against a fresh
/// one on a copy made from the model's own costs, and exact searches against the model.
fn check_search(
    pf: &mut Pathfinder,
    grid: &Grid,
    model: &Model,
    kind: Kind,
    ends: (Pos, Pos),
    seed: u64,
    step: usize,
) -> Result<(), TestCaseError> {
    let kept = run(pf, grid, kind, ends, seed);
    let fresh = run(&mut Pathfinder::new(), &model.grid(), kind, ends, seed);
    if labels_over_joined(&kept, &fresh) {
        let again = run(pf, grid, kind, ends, seed);
        prop_assert_eq!(
            &again,
            &fresh,
            "step {}: {:?} {:?}, asked again",
            step,
            kind,
            ends
        );
    } else {
        prop_assert_eq!(&kept, &fresh, "step {}: {:?} {:?}", step, kind, ends);
    }
    if let Some(o) = exact(kind) {
        let want = model.expected(ends.0, ends.1, o.neighbourhood, &HashSet::new());
        prop_assert_eq!(
            (kept.status, kept.cost),
            want,
            "step {}: {:?} {:?} against the model",
            step,
            kind,
            ends
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(400))]

    /// One pathfinder, kept through random changes of one grid (cells opened, closed and
    /// made dearer or cheaper, one at a time or hundreds at once, the whole grid turned
    /// uniform, new steps) and searches of every kind between them, on another grid and on
    /// a clone gone its own way, answers every search exactly as a fresh pathfinder does on
    /// a copy of the grid as it stands (and, for the optimal searches, the model's cost).
    #[test]
    fn a_kept_pathfinder_answers_as_a_fresh_one_through_any_changes(story in story_strategy()) {
        let Story { mut model, palette, ops } = story;
        let mut grid = model.grid();
        let kinds = kinds();
        let mut pf = Pathfinder::new();
        let set = |grid: &mut Grid, model: &mut Model, p: Pos, cost: u8| {
            grid.set(p, cost);
            model.set(p, cost);
        };
        for (step, op) in ops.into_iter().enumerate() {
            match op {
                Op::Set(i, v) => {
                    let p = model.pos(i.index(model.len()));
                    set(&mut grid, &mut model, p, cost_for(palette, v));
                }
                Op::Burst(n, seed) => {
                    let mut rng = Rng(seed);
                    for _ in 0..n {
                        let r = rng.next();
                        let p = model.pos((r % model.len() as u64) as usize);
                        set(&mut grid, &mut model, p, cost_for(palette, (r >> 32) as u8));
                    }
                }
                Op::Flatten => {
                    for i in 0..model.len() {
                        if model.costs[i] > 1 {
                            let p = model.pos(i);
                            set(&mut grid, &mut model, p, 1);
                        }
                    }
                }
                Op::Search(k, a, b, seed) => {
                    let open = model.open_cells();
                    let ends = (resolve(&model, &open, a), resolve(&model, &open, b));
                    let kind = kinds[k.index(kinds.len())];
                    check_search(&mut pf, &grid, &model, kind, ends, seed, step)?;
                }
                Op::Clone(i, v, a, b) => {
                    let mut other = grid.clone();
                    let mut other_model = model.clone();
                    let p = model.pos(i.index(model.len()));
                    set(&mut other, &mut other_model, p, cost_for(palette, v));
                    let open = other_model.open_cells();
                    let ends = (resolve(&other_model, &open, a), resolve(&other_model, &open, b));
                    for kind in [kinds[0], kinds[6], kinds[kinds.len() - 1]] {
                        check_search(&mut pf, &other, &other_model, kind, ends, 0, step)?;
                    }
                }
                Op::Elsewhere(same_size) => {
                    let other = if same_size {
                        let mut m = model.clone();
                        m.costs.iter_mut().for_each(|c| *c = u8::from(*c == 0));
                        m.grid()
                    } else {
                        Grid::new(model.width + 3, model.height + 1, 1).expect("small")
                    };
                    let far = Pos::new(other.width() as i32 - 1, other.height() as i32 - 1);
                    pf.find(&other, Query::new(Pos::new(0, 0), far));
                    pf.find(&other, Query::new(Pos::new(0, 0), far).options(SearchOptions::default().with_algorithm(Algorithm::Jps)));
                }
                Op::Steps((s, d)) => {
                    let steps = Steps::new(s, d).expect("valid steps");
                    grid.set_steps(steps);
                    (model.straight, model.diagonal) = (s, d);
                }
            }
            prop_assert_eq!(grid.costs(), &model.costs[..], "step {}: the grid's costs", step);
            prop_assert_eq!(grid.is_uniform(), model.is_uniform());
        }
        // A last round of every kind between far corners, where whole-map searches show
        // any cell a cache got wrong.
        let open = model.open_cells();
        if let (Some(&a), Some(&b)) = (open.first(), open.last()) {
            for &kind in &kinds {
                check_search(&mut pf, &grid, &model, kind, (a, b), 7, usize::MAX)?;
                check_search(&mut pf, &grid, &model, kind, (b, a), 7, usize::MAX)?;
            }
        }
    }
}

/// On a large grid of scattered walls JPS hands over to A* on the uniform board
/// (`Fallback::Cluttered`); that board, too, follows the grid's changes as a fresh one would.
#[test]
fn a_cluttered_grid_hands_jps_to_a_board_that_follows_changes() {
    let (w, h) = (80usize, 80usize);
    let mut rng = Rng(11);
    let costs: Vec<u8> = (0..w * h)
        .map(|_| u8::from(rng.next() % 100 >= 30))
        .collect();
    let mut model = Model::new(w, h, costs, (10, 14));
    let mut grid = model.grid();
    let mut pf = Pathfinder::new();
    let mut cluttered = 0;
    for round in 0..60 {
        for _ in 0..[1, 3, 40, 300, 600][round % 5] {
            let r = rng.next();
            let p = model.pos((r % model.len() as u64) as usize);
            let cost = u8::from((r >> 32) % 100 >= 30);
            grid.set(p, cost);
            model.set(p, cost);
        }
        let open = model.open_cells();
        let a = open[(rng.next() % open.len() as u64) as usize];
        let b = open[(rng.next() % open.len() as u64) as usize];
        for ties in TIES {
            let o = SearchOptions::default()
                .with_algorithm(Algorithm::Jps)
                .with_ties(ties);
            for o in [o, o.with_algorithm(Algorithm::AStar)] {
                let q = Query::new(a, b).options(o);
                let mut kept = pf.find(&grid, q);
                let fresh = Pathfinder::new().find(&model.grid(), q);
                if labels_over_joined(&kept, &fresh) {
                    kept = pf.find(&grid, q);
                }
                assert_eq!(kept, fresh, "round {round}: {a} -> {b} {o:?}");
                cluttered += usize::from(kept.fallback == Some(Fallback::Cluttered));
            }
        }
    }
    assert!(
        cluttered > 40,
        "JPS should mostly hand over here: {cluttered}"
    );
}

/// A pathfinder left behind at any point of a long run of changes catches up: left after
/// any of the first 600 changes and searching again after 1 to 514 more (around every
/// length the grid's log and the labels' patching keep, so across the log dropping its
/// older changes at any offset), its searches see every cell as a fresh one does. The
/// searches flood the map (Dijkstra's search to the farthest cell, and toward no goal at
/// all), and their traces, the cost of every cell reached, must be the fresh pathfinder's.
///
/// On a grid of costs no cell is ever blocked, so the floods reach every cell, and each
/// cell changes once at most, so a change a cache misses is never mended by a later one:
/// every missed change shows. On a uniform grid (the board and the labels) only pillars
/// open and close, cells apart from each other, so the grid never falls apart.
#[test]
fn a_pathfinder_left_at_any_point_of_a_run_of_changes_catches_up() {
    for costly in [true, false] {
        left_at_any_point(costly);
    }
}

fn left_at_any_point(costly: bool) {
    let (w, h) = (40usize, 30usize);
    let (lefts, gaps) = (0..=600usize, [1usize, 64, 256, 257, 258, 512, 513, 514]);
    let mut rng = Rng(5);
    let changes = lefts.end() + gaps[gaps.len() - 1];
    let (start_costs, cells): (Vec<u8>, Vec<usize>) = if costly {
        let mut cells: Vec<usize> = (0..w * h).collect();
        for i in (1..cells.len()).rev() {
            cells.swap(i, (rng.next() % (i as u64 + 1)) as usize);
        }
        cells.truncate(changes);
        (
            (0..w * h).map(|_| 1 + (rng.next() % 9) as u8).collect(),
            cells,
        )
    } else {
        let pillars: Vec<usize> = (0..w * h)
            .filter(|i| i % w % 2 == 1 && i / w % 2 == 1)
            .collect();
        let cells = (0..changes)
            .map(|_| pillars[(rng.next() % pillars.len() as u64) as usize])
            .collect();
        (vec![1; w * h], cells)
    };
    // The grid after each number of changes, as it stood (a clone keeps its revision and log).
    let mut grid = Grid::from_costs(w, h, start_costs).expect("fits");
    assert_eq!(grid.is_uniform(), !costly);
    let mut stood = vec![grid.clone()];
    for &c in &cells {
        let p = grid.pos(c);
        let cost = if costly {
            grid.cost(p) % 9 + 1
        } else {
            1 - grid.cost(p)
        };
        assert!(grid.set(p, cost));
        stood.push(grid.clone());
    }
    let zero = SearchOptions::default().with_heuristic(Heuristic::Zero);
    let (a, b) = (Pos::new(0, 0), Pos::new(w as i32 - 1, h as i32 - 1));
    // A short search and one that ends at once: the board (or the general loop's buffers)
    // and the labels each take the grid as it stands.
    let touch = |pf: &mut Pathfinder, grid: &Grid| {
        assert_eq!(
            pf.find(grid, Query::new(a, a.offset(1, 0))).status,
            Status::Found
        );
        let mut r = SearchResult::default();
        pf.search_to(
            grid,
            a,
            &GoalTest::new(|_: Pos| true, |_: Pos| 0),
            zero,
            &mut r,
        );
    };
    let floods = |pf: &mut Pathfinder, grid: &Grid| {
        let (found, board) = pf.find_traced(grid, Query::new(a, b).options(zero));
        let mut trace = Trace::new(a, a, zero);
        let mut flood = SearchResult::default();
        let nowhere = GoalTest::new(|_: Pos| false, |_: Pos| 0);
        pf.search_to_traced(grid, a, &nowhere, zero, &mut flood, &mut trace);
        (found, board, flood, trace)
    };
    let mut reads = 0;
    for read_at in 1..stood.len() {
        let now = &stood[read_at];
        let copy = Grid::from_costs(w, h, now.costs().to_vec()).expect("fits");
        let fresh = floods(&mut Pathfinder::new(), &copy);
        assert_eq!(
            fresh.2.expanded as usize,
            w * h - now.blocked_cells(),
            "the flood reaches every open cell"
        );
        for g in gaps {
            let Some(left_at) = read_at.checked_sub(g).filter(|t| lefts.contains(t)) else {
                continue;
            };
            let mut pf = Pathfinder::new();
            touch(&mut pf, &stood[left_at]);
            let kept = floods(&mut pf, now);
            assert!(
                kept == fresh,
                "costly {costly}: left after {left_at} changes, read after {read_at}"
            );
            reads += 1;
        }
    }
    assert_eq!(reads, 601 * gaps.len());
}
