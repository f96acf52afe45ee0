//! Jump Point Search on grids of several costs, against a plain weighted Dijkstra of its own.
//!
//! The reference below re-implements the rules from the documentation on the raw costs (a
//! step costs 10 straight or 14 diagonal times the cost of the cell it enters; a diagonal
//! needs both cells beside it enterable), so that a bug in the engine's copies of the map
//! cannot hide itself. Case counts default to 300 per property; set `PROPTEST_CASES` for
//! more.

use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap, HashMap};

use astar_grid::astar::{
    Algorithm, Fallback, Heuristic, MAX_COST, Pathfinder, Query, SearchOptions, SearchResult,
    Status, Ties, Trace, TraceEvent, walk_runs,
};
use astar_grid::grid::{Grid, Pos, Steps};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

// ---------------------------------------------------------------------------------------------
// The reference
// ---------------------------------------------------------------------------------------------

/// The cost of entering `(x, y)`, 0 outside the grid or where nobody may enter.
fn cost_at(g: &Grid, x: i32, y: i32) -> u32 {
    if x < 0 || y < 0 || x as usize >= g.width() || y as usize >= g.height() {
        0
    } else {
        u32::from(g.costs()[y as usize * g.width() + x as usize])
    }
}

/// What one king move from `from` to `to` costs, or `None` when it is illegal.
fn step(g: &Grid, from: Pos, to: Pos) -> Option<u32> {
    let (dx, dy) = (to.x - from.x, to.y - from.y);
    if (dx, dy) == (0, 0) || dx.abs() > 1 || dy.abs() > 1 {
        return None;
    }
    let c = cost_at(g, to.x, to.y);
    if c == 0 {
        return None;
    }
    if dx == 0 || dy == 0 {
        return Some(10 * c);
    }
    (cost_at(g, from.x + dx, from.y) != 0 && cost_at(g, from.x, from.y + dy) != 0).then_some(14 * c)
}

/// Plain Dijkstra over the raw costs: the cheapest cost from `start` to `goal`, in 64 bits.
fn dijkstra(g: &Grid, start: Pos, goal: Pos) -> Option<u64> {
    let mut best: HashMap<Pos, u64> = HashMap::from([(start, 0)]);
    let mut heap = BinaryHeap::from([Reverse((0u64, start.y, start.x))]);
    while let Some(Reverse((d, y, x))) = heap.pop() {
        let p = Pos::new(x, y);
        if p == goal {
            return Some(d);
        }
        if best.get(&p).is_some_and(|&b| b < d) {
            continue;
        }
        for dy in -1..=1 {
            for dx in -1..=1 {
                let n = Pos::new(x + dx, y + dy);
                if let Some(c) = step(g, p, n) {
                    let nd = d + u64::from(c);
                    if best.get(&n).is_none_or(|&b| nd < b) {
                        best.insert(n, nd);
                        heap.push(Reverse((nd, n.y, n.x)));
                    }
                }
            }
        }
    }
    None
}

/// What the reference says a search must answer: found at that cost, unreachable, or too
/// costly (the cheapest path costs more than the engine's integers hold).
fn expected(g: &Grid, start: Pos, goal: Pos) -> (Status, Option<u32>) {
    match dijkstra(g, start, goal) {
        Some(d) if d <= u64::from(MAX_COST) => (Status::Found, Some(d as u32)),
        Some(_) => (Status::TooCostly, None),
        None => (Status::Unreachable, None),
    }
}

/// The grid's lowest cost of an enterable cell (1 on a grid of walls alone).
fn lowest_cost(g: &Grid) -> u32 {
    g.costs()
        .iter()
        .filter(|&&c| c != 0)
        .min()
        .map_or(1, |&c| u32::from(c))
}

/// The estimate the engine documents: the heuristic under the default steps, times the
/// grid's lowest cost (`lowest`, from [`lowest_cost`]: worked out once a trace, not once a
/// node).
fn estimate(heuristic: Heuristic, lowest: u32, p: Pos, goal: Pos) -> u32 {
    heuristic.estimate(p.x.abs_diff(goal.x), p.y.abs_diff(goal.y)) * lowest
}

// ---------------------------------------------------------------------------------------------
// The checks
// ---------------------------------------------------------------------------------------------

/// A found path runs from the start to the goal by legal steps whose costs sum to the
/// result's; a path not found is empty.
fn check_path(g: &Grid, r: &SearchResult, start: Pos, goal: Pos) -> Result<(), TestCaseError> {
    if r.status != Status::Found {
        prop_assert!(r.path.is_empty());
        return Ok(());
    }
    prop_assert_eq!(r.path.first(), Some(&start));
    prop_assert_eq!(r.path.last(), Some(&goal));
    let mut sum = 0u64;
    for w in r.path.windows(2) {
        let c = step(g, w[0], w[1]);
        prop_assert!(c.is_some(), "illegal step {} -> {}", w[0], w[1]);
        sum += u64::from(c.unwrap_or(0));
    }
    prop_assert_eq!(Some(sum), r.cost.map(u64::from));
    Ok(())
}

/// Replays a JPS trace against its rules: the start opens first; every other node opens
/// from the node being expanded, at the end of a run (diagonal first, then straight) whose
/// every step is legal, with G its parent's G plus the run's cost (each step's base cost
/// times the cost of the cell it enters) and H the documented estimate; a node is reopened
/// only while open and for a strictly better G, never once closed; nodes close by lowest F
/// (and under the lower-H rule by lowest H, then reading order), F never falling; the
/// expansions are the result's, and the snapshot's path is the result's.
fn check_trace(
    g: &Grid,
    trace: &Trace,
    r: &SearchResult,
    o: &SearchOptions,
    start: Pos,
    goal: Pos,
) -> Result<(), TestCaseError> {
    let lowest = lowest_cost(g);
    let mut nodes: HashMap<Pos, (u32, u32, bool)> = HashMap::new();
    // The open nodes in the order the lower-H rule takes them (F, H, reading order): kept
    // beside `nodes` so that checking each expansion is not a scan of every node.
    let mut open: BTreeSet<(u32, u32, i32, i32)> = BTreeSet::new();
    let mut current = None;
    let mut last_f = 0;
    for (i, e) in trace.events().iter().enumerate() {
        match *e {
            TraceEvent::Open {
                cell,
                g: cg,
                h,
                f,
                parent,
            } => {
                prop_assert_eq!(
                    h,
                    estimate(o.heuristic, lowest, cell, goal),
                    "h of {}",
                    cell
                );
                prop_assert_eq!(f, cg + h);
                match parent {
                    None => prop_assert!(cell == start && cg == 0 && i == 0),
                    Some(p) => {
                        prop_assert_eq!(Some(p), current, "opened from a node not expanding");
                        let mut cost = 0;
                        for w in walk_runs([p, cell]).windows(2) {
                            let c = step(g, w[0], w[1]);
                            prop_assert!(
                                c.is_some(),
                                "the run {} -> {} steps illegally at {}",
                                p,
                                cell,
                                w[0]
                            );
                            cost += c.unwrap_or(0);
                        }
                        prop_assert_eq!(cg, nodes[&p].0 + cost, "g of {} from {}", cell, p);
                    }
                }
                if let Some(old) = nodes.get(&cell) {
                    prop_assert!(!old.2, "closed node {} reopened", cell);
                    prop_assert!(cg < old.0, "{} reopened without a better g", cell);
                    open.remove(&(old.1, old.1 - old.0, cell.y, cell.x));
                }
                nodes.insert(cell, (cg, f, false));
                open.insert((f, f - cg, cell.y, cell.x));
            }
            TraceEvent::Close { cell } => {
                let n = nodes.get(&cell).copied();
                prop_assert!(n.is_some_and(|n| !n.2), "{} closed unopened or twice", cell);
                let (cg, f, _) = n.unwrap_or_default();
                prop_assert!(f >= last_f, "F fell");
                if o.ties == Ties::LowerH {
                    prop_assert_eq!(
                        Some(&(f, f - cg, cell.y, cell.x)),
                        open.first(),
                        "not the best open node"
                    );
                }
                open.remove(&(f, f - cg, cell.y, cell.x));
                last_f = f;
                nodes.insert(cell, (cg, f, true));
                current = Some(cell);
            }
        }
    }
    prop_assert_eq!(trace.expansions(), r.expanded);
    if r.status == Status::Found {
        prop_assert_eq!(current, Some(goal));
        prop_assert_eq!(&trace.snapshot(u32::MAX).path, &r.path);
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Random grids of random costs
// ---------------------------------------------------------------------------------------------

/// A grid, and queries on it.
#[derive(Debug, Clone)]
struct Case {
    grid: Grid,
    queries: Vec<(Pos, Pos)>,
}

/// Grids of 1 to 150 columns (runs past the 64 cells read at once) and 1 to 27 rows (under
/// the 4,096 enterable cells from which a cluttered grid goes to A*) of one to four costs,
/// drawn from a palette of small costs (many equal-cost ties) or any costs up to 255, in
/// patches as the game's pools are or cell by cell, with walls of any share; and queries
/// between enterable cells.
fn cases() -> impl Strategy<Value = Case> {
    (
        1usize..=150,
        1usize..=27,
        prop::collection::vec(1u8..=255, 1..=4),
        any::<bool>(),
        0u64..=45,
        0u64..=3,
        any::<u64>(),
    )
        .prop_map(|(w, h, palette, small, walls, patch, seed)| {
            let palette: Vec<u8> = if small {
                palette.iter().map(|&c| c % 4 + 1).collect()
            } else {
                palette
            };
            let mut s = seed | 1;
            let mut next = move || {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                s
            };
            // Costs by patches of `2^patch` cells a side, walls cell by cell.
            let side = 1usize << patch;
            let (pw, ph) = (w.div_ceil(side), h.div_ceil(side));
            let patches: Vec<u8> = (0..pw * ph)
                .map(|_| palette[(next() % palette.len() as u64) as usize])
                .collect();
            let costs = (0..w * h)
                .map(|i| {
                    let (x, y) = (i % w, i / w);
                    if next() % 100 < walls {
                        0
                    } else {
                        patches[y / side * pw + x / side]
                    }
                })
                .collect();
            let grid = Grid::from_costs(w, h, costs).unwrap();
            let open: Vec<Pos> = (0..grid.len())
                .map(|c| grid.pos(c))
                .filter(|&p| grid.is_passable(p))
                .collect();
            let queries = if open.is_empty() {
                Vec::new()
            } else {
                (0..6)
                    .map(|_| {
                        let a = open[(next() % open.len() as u64) as usize];
                        let b = open[(next() % open.len() as u64) as usize];
                        (a, b)
                    })
                    .collect()
            };
            Case { grid, queries }
        })
}

fn jps(heuristic: Heuristic, ties: Ties) -> SearchOptions {
    SearchOptions::default()
        .with_algorithm(Algorithm::Jps)
        .with_heuristic(heuristic)
        .with_ties(ties)
}

const HEURISTICS: [Heuristic; 3] = [Heuristic::Octile, Heuristic::Chebyshev, Heuristic::Zero];
const TIES: [Ties; 2] = [Ties::LowerH, Ties::Lifo];

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    // No failure files: they would land in the packaged crate's tests; a failure prints its
    // seed.
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    /// JPS finds exactly the reference's cost on grids of several costs, under every
    /// consistent estimate and every tie rule: JPS itself (no hand-over to A*), a legal path
    /// of that cost, a trace that keeps its rules, the same answer untraced and from a
    /// pathfinder that searched the grid before (its remembered runs and expansions), and a
    /// cap that stops it exactly.
    #[test]
    fn jump_point_search_matches_a_weighted_dijkstra(case in cases(), cap in 1u32..40) {
        let Case { grid, queries } = &case;
        let mut warm = Pathfinder::new();
        for &(start, goal) in queries {
            let want = expected(grid, start, goal);
            for h in HEURISTICS {
                for ties in TIES {
                    let o = jps(h, ties);
                    let q = Query::new(start, goal).options(o);
                    let (r, trace) = Pathfinder::new().find_traced(grid, q);
                    prop_assert_eq!((r.status, r.cost), want, "{} -> {} {:?} {:?}", start, goal, h, ties);
                    prop_assert_eq!(r.fallback, None);
                    check_path(grid, &r, start, goal)?;
                    if start != goal {
                        check_trace(grid, &trace, &r, &o, start, goal)?;
                    }
                    prop_assert_eq!(&warm.find(grid, q), &r, "a warm pathfinder answers otherwise");
                    let capped = warm.find(grid, q.options(o.with_cap(Some(cap))));
                    if r.expanded <= cap {
                        prop_assert_eq!(&capped, &r);
                    } else {
                        prop_assert_eq!((capped.status, capped.expanded, capped.cost), (Status::CapReached, cap, None));
                        prop_assert!(capped.path.is_empty());
                    }
                }
            }
        }
    }

    /// One pathfinder that goes from grid to grid of the same walls and other costs, and
    /// back, answers each as a new one does: nothing it remembers of one grid's costs leaks
    /// into another's answers.
    #[test]
    fn nothing_remembered_leaks_between_grids_of_other_costs(case in cases(), seed in any::<u64>()) {
        let Case { grid, queries } = &case;
        let mut s = seed | 1;
        let other = Grid::from_costs(
            grid.width(),
            grid.height(),
            grid.costs()
                .iter()
                .map(|&c| {
                    s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    if c == 0 { 0 } else { (s >> 60) as u8 % 3 + 1 }
                })
                .collect(),
        )
        .unwrap();
        let mut pf = Pathfinder::new();
        for _ in 0..2 {
            for g in [grid, &other] {
                for &(start, goal) in queries {
                    let q = Query::new(start, goal).options(jps(Heuristic::Octile, Ties::LowerH));
                    prop_assert_eq!(pf.find(g, q), Pathfinder::new().find(g, q));
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Exact cases
// ---------------------------------------------------------------------------------------------

fn find(g: &Grid, from: (i32, i32), to: (i32, i32), o: SearchOptions) -> SearchResult {
    Pathfinder::new().find(
        g,
        Query::new(Pos::new(from.0, from.1), Pos::new(to.0, to.1)).options(o),
    )
}

/// The case a JPS that stops only on entering a cell of another cost gets wrong: east along
/// a row of brush (cost 3) with a cheap cell (cost 1) above and ahead. The cheapest way
/// into it is along the brush and then diagonally (6 * 30 + 14 = 194); a search that jumps
/// there only diagonally first and then east along the row above pays 14 * 3 + 5 * 30 + 10
/// = 202, and along the row below and then north, 7 * 30 + 10 = 220. The cell of brush
/// below and behind the cheap one has a neighbour of another cost (diagonally: a rule that
/// looked at the four straight neighbours alone would miss it, and find 202): it is a jump
/// point, from which every move is tried.
#[test]
fn a_cheap_cell_off_a_run_is_reached_by_the_diagonal_at_its_edge() {
    let g = Grid::from_rows(&["########", "3333333.", "33333333", "########"]);
    for ties in TIES {
        let r = find(&g, (0, 2), (7, 1), jps(Heuristic::Octile, ties));
        assert_eq!((r.status, r.cost), (Status::Found, Some(194)), "{ties:?}");
        assert_eq!(dijkstra(&g, Pos::new(0, 2), Pos::new(7, 1)), Some(194));
        assert_eq!(r.fallback, None);
        assert_eq!(g.path_cost(&r.path), Some(194));
    }
}

/// Entering a dear cell, a straight step costs less than a diagonal (10 * 9 against 14 * 9):
/// the path comes along the row above the dear cell's row and steps down into it, or along
/// its own row; a search that turned diagonally into it would pay 36 more.
#[test]
fn a_dear_cell_is_entered_straight() {
    let g = Grid::from_rows(&["......", ".....9", "......"]);
    let r = find(&g, (0, 0), (5, 1), jps(Heuristic::Octile, Ties::LowerH));
    assert_eq!(r.cost, Some(14 + 30 + 90));
    assert_eq!(
        r.cost.map(u64::from),
        dijkstra(&g, Pos::new(0, 0), Pos::new(5, 1))
    );
}

/// A path dearer than the engine's integers hold is `TooCostly`, as in the general search;
/// one just under the limit is found.
#[test]
fn a_path_past_the_largest_cost_is_too_costly() {
    // 842,106 steps of 2,550 pass 2^31 - 1; the first cell is cheap, so the grid is weighted.
    let w = 842_200;
    let mut costs = vec![255u8; w];
    costs[0] = 1;
    let g = Grid::from_costs(w, 1, costs).unwrap();
    for algorithm in [Algorithm::AStar, Algorithm::Jps] {
        let o = SearchOptions::default().with_algorithm(algorithm);
        let far = find(&g, (0, 0), (w as i32 - 1, 0), o);
        assert_eq!(
            (far.status, far.cost),
            (Status::TooCostly, None),
            "{algorithm:?}"
        );
        assert!(far.path.is_empty());
        let near = find(&g, (0, 0), (842_000, 0), o);
        assert_eq!(near.cost, Some(842_000 * 2550), "{algorithm:?}");
        assert_eq!(near.fallback, None);
    }
}

/// Steps other than 10 and 14 are the one thing about a grid's costs JPS does not take: A*
/// runs and says why.
#[test]
fn other_steps_hand_over_to_a_star_and_say_so() {
    let g = Grid::from_rows(&["....", ".2#.", "...."]).with_steps(Steps::new(3, 4).unwrap());
    let o = jps(Heuristic::Octile, Ties::LowerH);
    let mut r = find(&g, (0, 0), (3, 2), o);
    assert_eq!(r.fallback, Some(Fallback::Steps));
    let a = find(&g, (0, 0), (3, 2), o.with_algorithm(Algorithm::AStar));
    r.fallback = None;
    assert_eq!(r, a);
}
