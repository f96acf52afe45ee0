//! Property tests of the A* engine against the plain Dijkstra of the model (`common.rs`).
//!
//! Everything here checks the engine against the movement rules as documented (a step costs
//! 10 straight or 14 diagonal, or the grid's own steps, times the cost of the cell entered;
//! 8-way without corner cutting by default; corners are blocked cells only), re-implemented
//! on the model's own copy of the costs, so a bug in `Grid::can_step` or in the engine's
//! padded arrays cannot hide itself. Grids are uniform half the time (the fast path and Jump
//! Point Search) and of costs from 2 to 9 or up to 255 otherwise, some under other steps.
//!
//! Case counts default to a few hundred per property (seconds in debug); set
//! `PROPTEST_CASES` for more.

use std::collections::{HashMap, HashSet};

use astar_grid::astar::{
    Algorithm, Fallback, Heuristic, Invalid, NodeState, Pathfinder, Query, SearchOptions,
    SearchResult, Status, Ties, Trace, TraceEvent, Weight, path_cost, walk_runs,
};
use astar_grid::grid::{Grid, Neighbourhood, Pos};
use proptest::prelude::*;

use crate::common::{
    ALGORITHMS, Case, HEURISTICS, Model, Palette, RULES, TIES, any_model, case_on, config,
    consistent, long_model,
};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// What the engine does to H under a weight.
fn weighted(h: u32, w: Weight) -> u32 {
    (u64::from(h) * u64::from(w.millis()) / 1000).min(u64::from(u32::MAX / 2)) as u32
}

fn opts(nb: Neighbourhood, h: Heuristic, millis: u32, cap: Option<u32>) -> SearchOptions {
    SearchOptions::default()
        .with_neighbourhood(nb)
        .with_heuristic(h)
        .with_weight(Weight::from_millis(millis))
        .with_cap(cap)
}

/// Grids up to 24x24 with up to 60% blocked cells, uniform half the time.
fn case_strategy() -> impl Strategy<Value = Case> {
    case_on(any_model(24, 24, 60))
}

/// Cases on small grids or, one in three, on long ones (uniform two times in three).
fn any_case_strategy() -> impl Strategy<Value = Case> {
    prop_oneof![
        6 => case_strategy(),
        2 => case_on(long_model(Palette::Uniform)),
        1 => case_on(long_model(Palette::Low)),
    ]
}

fn options_strategy() -> impl Strategy<Value = SearchOptions> {
    (
        prop::sample::select(RULES.to_vec()),
        prop::sample::select(HEURISTICS.to_vec()),
        prop_oneof![Just(1000u32), 0u32..=3000],
        prop_oneof![3 => Just(None), 1 => (0u32..60).prop_map(Some)],
        prop::sample::select(TIES.to_vec()),
    )
        .prop_map(|(nb, h, w, cap, ties)| opts(nb, h, w, cap).with_ties(ties))
}

// ---------------------------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------------------------

/// Shape of a result: a found path is legal, starts and ends right and costs what it says
/// (by the model, by the grid's own count, and on uniform grids by `path_cost`); anything
/// else has no path and no cost.
fn check_path(
    m: &Model,
    grid: &Grid,
    (start, goal): (Pos, Pos),
    nb: Neighbourhood,
    occupied: &HashSet<Pos>,
    r: &SearchResult,
) -> Result<(), TestCaseError> {
    if r.status != Status::Found {
        prop_assert!(r.path.is_empty(), "no path expected: {:?}", r);
        prop_assert_eq!(r.cost, None);
        if matches!(r.status, Status::InvalidStart(_) | Status::InvalidGoal(_)) {
            prop_assert_eq!(r.expanded, 0);
        }
        return Ok(());
    }
    prop_assert_eq!(r.path.first(), Some(&start));
    prop_assert_eq!(r.path.last(), Some(&goal));
    prop_assert!(r.expanded >= 1);
    let mut total = 0u64;
    for w in r.path.windows(2) {
        let c = m.step(occupied, w[0], w[1], nb);
        prop_assert!(
            c.is_some(),
            "illegal step {} -> {} under {:?}",
            w[0],
            w[1],
            nb
        );
        total += u64::from(c.unwrap_or(0));
    }
    let distinct: HashSet<Pos> = r.path.iter().copied().collect();
    prop_assert_eq!(distinct.len(), r.path.len(), "path revisits a cell");
    prop_assert_eq!(Some(total), r.cost.map(u64::from));
    prop_assert_eq!(grid.path_cost(&r.path), r.cost.map(u64::from));
    if m.is_uniform() {
        prop_assert_eq!(path_cost(&r.path), r.cost);
    }
    Ok(())
}

/// Replays a trace event by event and checks it against the documented rules, then checks
/// `Trace::snapshot` against the replay at several steps.
fn check_trace(
    m: &Model,
    trace: &Trace,
    r: &SearchResult,
    o: &SearchOptions,
    start: Pos,
    goal: Pos,
) -> Result<(), TestCaseError> {
    prop_assert_eq!(trace.start, start);
    prop_assert_eq!(trace.goal, goal);
    prop_assert_eq!(&trace.options, o);
    if matches!(
        r.status,
        Status::InvalidStart(_) | Status::InvalidGoal(_) | Status::Unreachable
    ) && r.expanded == 0
    {
        prop_assert!(trace.events().is_empty());
        return Ok(());
    }
    prop_assert_eq!(trace.expansions(), r.expanded);

    struct Node {
        g: u32,
        h: u32,
        f: u32,
        parent: Option<Pos>,
        closed: bool,
    }
    let none = HashSet::new();
    let plain = o.weight == Weight::ONE
        && (matches!(
            o.heuristic,
            Heuristic::Octile | Heuristic::Chebyshev | Heuristic::Zero
        ) || o.heuristic == Heuristic::Manhattan && o.neighbourhood == Neighbourhood::Four);
    let mut nodes: HashMap<Pos, Node> = HashMap::new();
    let mut current: Option<Pos> = None;
    let mut last_f = 0u32;
    let mut closes = 0u32;
    for (i, e) in trace.events().iter().enumerate() {
        match *e {
            TraceEvent::Open {
                cell,
                g,
                h,
                f,
                parent,
            } => {
                prop_assert_eq!(h, m.estimate(o.heuristic, cell, goal), "h of {}", cell);
                prop_assert_eq!(f, g + weighted(h, o.weight), "f of {} (event {})", cell, i);
                match parent {
                    None => prop_assert!(cell == start && g == 0 && i == 0),
                    Some(p) => {
                        prop_assert_eq!(Some(p), current, "opened from a node not expanding");
                        let pg = nodes[&p].g;
                        let step = m.step(&none, p, cell, o.neighbourhood);
                        prop_assert_eq!(Some(g), step.map(|s| pg + s), "g of {} from {}", cell, p);
                    }
                }
                if let Some(old) = nodes.get(&cell) {
                    prop_assert!(!old.closed, "closed node {} reopened", cell);
                    prop_assert!(g < old.g, "{} reopened without a better g", cell);
                }
                nodes.insert(
                    cell,
                    Node {
                        g,
                        h,
                        f,
                        parent,
                        closed: false,
                    },
                );
            }
            TraceEvent::Close { cell } => {
                // The documented order: lowest F, then lowest (weighted) H, then reading order.
                let best = nodes
                    .iter()
                    .filter(|(_, n)| !n.closed)
                    .map(|(p, n)| (n.f, n.f - n.g, p.y, p.x))
                    .min();
                let n = nodes.get_mut(&cell);
                prop_assert!(n.is_some(), "closed {} before opening it", cell);
                let n = n.unwrap();
                prop_assert!(!n.closed, "{} closed twice", cell);
                if o.ties == Ties::LowerH {
                    prop_assert_eq!(
                        Some((n.f, n.f - n.g, cell.y, cell.x)),
                        best,
                        "expansion {} is not the best open node",
                        closes
                    );
                } else {
                    prop_assert_eq!(
                        Some(n.f),
                        best.map(|b| b.0),
                        "expansion {} is not of the lowest F",
                        closes
                    );
                }
                if plain {
                    prop_assert!(n.f >= last_f, "F decreased with a consistent heuristic");
                }
                last_f = n.f;
                n.closed = true;
                current = Some(cell);
                closes += 1;
            }
        }
    }
    if r.status == Status::Found {
        prop_assert_eq!(current, Some(goal));
        prop_assert_eq!(nodes[&goal].g, r.cost.unwrap_or(u32::MAX));
    }

    let e = r.expanded;
    let mut steps = vec![0, 1, e / 3, e / 2, e.saturating_sub(1), e, e + 1, u32::MAX];
    steps.sort_unstable();
    steps.dedup();
    let (mut last_closed, mut last_len) = (0, 0);
    for k in steps {
        let snap = trace.snapshot(k);
        prop_assert_eq!(snap.step, k.min(e));
        let (open, closed) = snap.counts();
        prop_assert_eq!(closed as u32, snap.step);
        prop_assert_eq!(open + closed, snap.nodes.len());
        prop_assert!(closed >= last_closed && snap.nodes.len() >= last_len);
        (last_closed, last_len) = (closed, snap.nodes.len());
        let mut orders: Vec<u32> = snap.nodes.iter().filter_map(|n| n.order).collect();
        orders.sort_unstable();
        prop_assert_eq!(orders, (1..=snap.step).collect::<Vec<_>>());
        for n in &snap.nodes {
            prop_assert_eq!(n.f, n.g + weighted(n.h, o.weight));
            prop_assert_eq!(n.state == NodeState::Closed, n.order.is_some());
            prop_assert_eq!(snap.get(n.pos).map(|m| m.pos), Some(n.pos));
        }
        if let Some(c) = snap.current {
            prop_assert_eq!(snap.path.first(), Some(&start));
            prop_assert_eq!(snap.path.last(), Some(&c));
        }
        if k >= e {
            prop_assert_eq!(snap.nodes.len(), nodes.len());
            for (p, n) in &nodes {
                let s = snap.get(*p);
                prop_assert!(s.is_some());
                let s = s.unwrap();
                prop_assert_eq!((s.g, s.h, s.f, s.parent), (n.g, n.h, n.f, n.parent));
                prop_assert_eq!(s.state == NodeState::Closed, n.closed);
            }
            if r.status == Status::Found {
                prop_assert_eq!(&snap.path, &r.path);
                prop_assert_eq!(snap.current, Some(goal));
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(1000))]

    /// With a consistent heuristic the engine is exactly as good as Dijkstra, on every rule
    /// and both tie rules, and it tells invalid endpoints apart with the right reason.
    #[test]
    fn consistent_heuristics_match_the_dijkstra_oracle(case in case_strategy()) {
        let Case { model, grid, start, goal, .. } = &case;
        let none = HashSet::new();
        let mut pf = Pathfinder::new();
        for nb in RULES {
            let want = model.expected(*start, *goal, nb, &none);
            for &h in consistent(nb) {
                for ties in TIES {
                    let r = pf.find(grid, Query::new(*start, *goal).options(opts(nb, h, 1000, None).with_ties(ties)));
                    prop_assert_eq!((r.status, r.cost), want, "{:?} {:?} {:?}", nb, h, ties);
                    check_path(model, grid, (*start, *goal), nb, &none, &r)?;
                }
            }
        }
    }

    /// Last-in-first-out and first-in-first-out ties change which of the shortest paths is
    /// found, never its cost; searches that are not optimal anyway (inadmissible, weighted,
    /// greedy) still find a legal path exactly when one exists, never cheaper than the optimum.
    #[test]
    fn lifo_and_fifo_ties_match_the_dijkstra_oracle(case in case_strategy(), millis in 0u32..=3000) {
        let Case { model, grid, start, goal, .. } = &case;
        let none = HashSet::new();
        let mut pf = Pathfinder::new();
        for (nb, ties) in RULES.into_iter().flat_map(|nb| [(nb, Ties::Lifo), (nb, Ties::Fifo)]) {
            let want = model.expected(*start, *goal, nb, &none);
            for h in HEURISTICS {
                let lifo = opts(nb, h, 1000, None).with_ties(ties);
                let r = pf.find(grid, Query::new(*start, *goal).options(lifo));
                check_path(model, grid, (*start, *goal), nb, &none, &r)?;
                if consistent(nb).contains(&h) {
                    prop_assert_eq!((r.status, r.cost), want, "{:?} {:?}", nb, h);
                }
                for other in [lifo.with_greedy(true), lifo.with_weight(Weight::from_millis(millis)), lifo] {
                    let r = pf.find(grid, Query::new(*start, *goal).options(other));
                    prop_assert_eq!(r.status, want.0, "{:?}", other);
                    prop_assert!(r.cost >= want.1, "{:?}", other);
                    check_path(model, grid, (*start, *goal), nb, &none, &r)?;
                }
            }
        }
    }

    /// Greedy best-first finds a legal path exactly when one exists (occupants included),
    /// never cheaper than optimal, and its trace replays to its result with F = H.
    #[test]
    fn greedy_best_first_finds_a_legal_path_iff_one_exists(case in case_strategy()) {
        let Case { model, grid, start, goal, .. } = &case;
        let occupied = case.taken();
        let cells = case.occupancy();
        let mut pf = Pathfinder::new();
        for nb in RULES {
            let (status, optimal) = model.expected(*start, *goal, nb, &occupied);
            for h in HEURISTICS {
                for ties in TIES {
                    let o = opts(nb, h, 1000, None).with_greedy(true).with_ties(ties);
                    let q = Query::new(*start, *goal).options(o).occupied(&cells);
                    let (r, trace) = pf.find_traced(grid, q);
                    prop_assert_eq!(r.status, status, "{:?} {:?} {:?}", nb, h, ties);
                    check_path(model, grid, (*start, *goal), nb, &occupied, &r)?;
                    if let (Some(c), Some(best)) = (r.cost, optimal) {
                        prop_assert!(c >= best);
                    }
                    let end = trace.snapshot(u32::MAX);
                    prop_assert_eq!(end.step, r.expanded);
                    if r.status == Status::Found {
                        prop_assert_eq!(&end.path, &r.path);
                    }
                    for n in &end.nodes {
                        prop_assert_eq!(n.f, n.h, "greedy orders by H alone");
                        prop_assert_eq!(n.h, model.estimate(h, n.pos, *goal));
                    }
                    // The untraced search is the same search.
                    prop_assert_eq!(&pf.find(grid, q), &r);
                }
            }
        }
    }

    /// Inadmissible heuristics (Manhattan on 8-way, Euclidean) still find a legal path exactly
    /// when one exists, never cheaper than optimal.
    #[test]
    fn every_heuristic_finds_a_legal_path_iff_one_exists(case in case_strategy()) {
        let Case { model, grid, start, goal, .. } = &case;
        let none = HashSet::new();
        let mut pf = Pathfinder::new();
        for nb in RULES {
            let (status, best) = model.expected(*start, *goal, nb, &none);
            for h in HEURISTICS {
                let r = pf.find(grid, Query::new(*start, *goal).options(opts(nb, h, 1000, None)));
                prop_assert_eq!(r.status, status, "{:?} {:?}", nb, h);
                prop_assert!(r.cost >= best);
                check_path(model, grid, (*start, *goal), nb, &none, &r)?;
            }
        }
    }

    /// Weighted A* with octile: found iff reachable, and at most w times the optimum.
    #[test]
    fn weighted_octile_is_bounded_suboptimal(case in case_strategy(), millis in 1000u32..=3000) {
        let Case { model, grid, start, goal, .. } = &case;
        let none = HashSet::new();
        let mut pf = Pathfinder::new();
        for nb in RULES {
            let (status, best) = model.expected(*start, *goal, nb, &none);
            for ties in TIES {
                let o = opts(nb, Heuristic::Octile, millis, None).with_ties(ties);
                let r = pf.find(grid, Query::new(*start, *goal).options(o));
                prop_assert_eq!(r.status, status, "{:?}", nb);
                check_path(model, grid, (*start, *goal), nb, &none, &r)?;
                if let (Some(c), Some(b)) = (r.cost, best) {
                    prop_assert!(c >= b);
                    prop_assert!(
                        u64::from(c) * 1000 <= u64::from(b) * u64::from(millis),
                        "{:?} {:?}: cost {} > {} * {}", nb, ties, c, millis, b
                    );
                }
            }
        }
    }

    /// The same query gives the same answer: twice in a row, from a fresh engine, after other
    /// queries (other grids, other options, occupants) in between, and traced or not.
    #[test]
    fn searches_are_deterministic(
        case in case_strategy(),
        o in options_strategy(),
        other in case_strategy(),
        other_o in options_strategy(),
    ) {
        let Case { model, grid, start, goal, .. } = &case;
        let q = Query::new(*start, *goal).options(o);
        let mut pf = Pathfinder::new();
        let first = pf.find(grid, q);
        prop_assert_eq!(&pf.find(grid, q), &first);
        prop_assert_eq!(&Pathfinder::new().find(grid, q), &first);

        let _ = pf.find(&other.grid, Query::new(other.start, other.goal).options(other_o));
        let other_cells = other.occupancy();
        let _ = pf.find(&other.grid, Query::new(other.start, other.goal).options(other_o).occupied(&other_cells));
        let cells = case.occupancy();
        let _ = pf.find(grid, Query::new(*start, *goal).options(other_o).occupied(&cells));
        let _ = pf.find(grid, Query::new(*goal, *start).options(o));
        prop_assert_eq!(&pf.find(grid, q), &first);

        let (traced, trace) = pf.find_traced(grid, q);
        prop_assert_eq!(&traced, &first);
        let (traced2, trace2) = Pathfinder::new().find_traced(grid, q);
        prop_assert_eq!(&traced2, &first);
        prop_assert_eq!(&trace2, &trace);

        // A clone of the grid (same revision) and a rebuilt copy (new revision) agree too.
        prop_assert_eq!(&pf.find(&grid.clone(), q), &first);
        prop_assert_eq!(&pf.find(&model.grid(), q), &first);
    }

    /// Every trace replays to its result under the documented rules (F = G + weighted H,
    /// expansion order, parents, monotone snapshots), for every option combination.
    #[test]
    fn traces_are_consistent(case in case_strategy(), o in options_strategy()) {
        let Case { model, grid, start, goal, .. } = &case;
        let mut pf = Pathfinder::new();
        let (r, trace) = pf.find_traced(grid, Query::new(*start, *goal).options(o));
        check_path(model, grid, (*start, *goal), o.neighbourhood, &HashSet::new(), &r)?;
        check_trace(model, &trace, &r, &o, *start, *goal)?;
    }

    /// A cap of C expansions gives the uncapped answer when that took at most C expansions,
    /// and otherwise stops with `CapReached` after exactly C.
    #[test]
    fn cap_stops_exactly(case in case_strategy(), o in options_strategy(), greedy in any::<bool>(), cap in 1u32..80) {
        let Case { grid, start, goal, .. } = &case;
        let o = o.with_greedy(greedy);
        let mut pf = Pathfinder::new();
        let free = pf.find(grid, Query::new(*start, *goal).options(o.with_cap(None)));
        let capped = pf.find(grid, Query::new(*start, *goal).options(o.with_cap(Some(cap))));
        if free.expanded <= cap {
            prop_assert_eq!(&capped, &free);
        } else {
            prop_assert_eq!(capped.status, Status::CapReached);
            prop_assert_eq!(capped.expanded, cap);
            prop_assert_eq!(capped.cost, None);
            prop_assert!(capped.path.is_empty());
        }
    }

    /// Occupied cells are impassable to enter (but for the goal; the start is never entered)
    /// but do not block diagonals; the engine forgets them after the search.
    #[test]
    fn occupants_match_the_oracle_and_are_forgotten(case in case_strategy()) {
        let Case { model, grid, start, goal, .. } = &case;
        let occupied = case.taken();
        let cells = case.occupancy();
        let none = HashSet::new();
        let mut pf = Pathfinder::new();
        let mut r = SearchResult::default();
        r.path.push(Pos::new(-9, -9));
        for nb in RULES {
            let before = pf.find(grid, Query::new(*start, *goal).options(opts(nb, Heuristic::Octile, 1000, None)));
            let want = model.expected(*start, *goal, nb, &occupied);
            for &h in consistent(nb) {
                for ties in TIES {
                    let o = opts(nb, h, 1000, None).with_ties(ties);
                    let q = Query::new(*start, *goal).options(o).occupied(&cells);
                    pf.search(grid, q, &mut r, &mut ());
                    prop_assert_eq!((r.status, r.cost), want, "{:?} {:?} {:?}", nb, h, ties);
                    check_path(model, grid, (*start, *goal), nb, &occupied, &r)?;
                    // Traced search with occupants agrees with the untraced one.
                    let mut trace = Trace::new(*start, *goal, o);
                    let mut traced = SearchResult::default();
                    pf.search(grid, q, &mut traced, &mut trace);
                    prop_assert_eq!(&traced, &r);
                    check_trace(model, &trace, &r, &o, *start, *goal)?;
                }
            }
            let after = pf.find(grid, Query::new(*start, *goal).options(opts(nb, Heuristic::Octile, 1000, None)));
            prop_assert_eq!(&after, &before, "occupants leaked into a later search");
            prop_assert_eq!((after.status, after.cost), model.expected(*start, *goal, nb, &none));
        }
    }

    /// Whether the endpoints are marked in the occupancy changes nothing (the searcher's own
    /// cell and its target are always marked in a game), for every kind of search: greedy,
    /// weighted and capped ones included.
    #[test]
    fn occupied_endpoints_change_nothing(case in case_strategy(), start_who in 0u32..3, goal_who in 0u32..3) {
        let Case { grid, start, goal, .. } = &case;
        let plain = case.occupancy();
        let mut marked = plain.clone();
        // The endpoints may lie off the map (the engine must refuse those).
        for (end, who) in [(*start, start_who), (*goal, goal_who)] {
            if let Some(c) = grid.index(end) {
                marked[c] = who;
            }
        }
        let mut unmarked = plain;
        for end in [*start, *goal] {
            if let Some(c) = grid.index(end) {
                unmarked[c] = 0;
            }
        }
        let mut pf = Pathfinder::new();
        for nb in RULES {
            for &h in consistent(nb) {
                for (weight, cap, greedy) in [(1000, None, false), (2000, None, false), (1000, Some(5), false), (1000, None, true)] {
                    for ties in TIES {
                        let o = opts(nb, h, weight, cap).with_greedy(greedy).with_ties(ties);
                        let a = pf.find(grid, Query::new(*start, *goal).options(o).occupied(&unmarked));
                        let b = pf.find(grid, Query::new(*start, *goal).options(o).occupied(&marked));
                        prop_assert_eq!(&a, &b, "{:?} {:?} w{} {:?} greedy {} {:?}", nb, h, weight, cap, greedy, ties);
                    }
                }
            }
        }
    }
}

/// Replays a Jump Point Search trace and checks it against its rules: the start opens
/// first; every other node is opened from the node being expanded, at the end of a run
/// (diagonal first, then straight) whose every step is legal, with the parent's G plus the
/// run's octile length; nodes close in the documented order (lowest F, then lowest H, then
/// reading order; F never falls under LIFO either); the replay ends on the result's path.
fn check_jps_trace(
    m: &Model,
    trace: &Trace,
    r: &SearchResult,
    o: &SearchOptions,
    start: Pos,
    goal: Pos,
) -> Result<(), TestCaseError> {
    let none = HashSet::new();
    let mut nodes: HashMap<Pos, (u32, u32, bool)> = HashMap::new();
    let mut current = None;
    let mut last_f = 0;
    for (i, e) in trace.events().iter().enumerate() {
        match *e {
            TraceEvent::Open {
                cell,
                g,
                h,
                f,
                parent,
            } => {
                prop_assert_eq!(h, m.estimate(o.heuristic, cell, goal));
                prop_assert_eq!(f, g + h);
                match parent {
                    None => prop_assert!(cell == start && g == 0 && i == 0),
                    Some(p) => {
                        prop_assert_eq!(Some(p), current, "opened from a node not expanding");
                        let run = walk_runs([p, cell]);
                        let mut cost = 0;
                        for w in run.windows(2) {
                            let c = m.step(&none, w[0], w[1], Neighbourhood::Eight);
                            prop_assert!(
                                c.is_some(),
                                "the run {} -> {} steps illegally at {}",
                                p,
                                cell,
                                w[0]
                            );
                            cost += c.unwrap_or(0);
                        }
                        prop_assert_eq!(g, nodes[&p].0 + cost, "g of {} from {}", cell, p);
                    }
                }
                if let Some(old) = nodes.get(&cell) {
                    prop_assert!(!old.2, "closed node {} reopened", cell);
                    prop_assert!(g < old.0, "{} reopened without a better g", cell);
                }
                nodes.insert(cell, (g, f, false));
            }
            TraceEvent::Close { cell } => {
                let n = nodes.get(&cell).copied();
                prop_assert!(n.is_some_and(|n| !n.2), "{} closed unopened or twice", cell);
                let (g, f, _) = n.unwrap_or_default();
                prop_assert!(f >= last_f, "F fell");
                if o.ties == Ties::LowerH {
                    let best = nodes
                        .iter()
                        .filter(|(_, n)| !n.2)
                        .map(|(p, n)| (n.1, n.1 - n.0, p.y, p.x))
                        .min();
                    prop_assert_eq!(
                        Some((f, f - g, cell.y, cell.x)),
                        best,
                        "not the best open node"
                    );
                }
                last_f = f;
                nodes.insert(cell, (g, f, true));
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

proptest! {
    #![proptest_config(config(1000))]

    /// Jump Point Search finds exactly the Dijkstra oracle's cost under the game's rule, on
    /// small grids and on long ones (runs past 64 cells), under every consistent estimate
    /// and both tie rules: a legal path of that cost, a trace that follows its rules, the
    /// same answer untraced, and a cap that stops it exactly. On a grid of costs it says so
    /// and A* answers in its place, as exactly.
    #[test]
    fn jump_point_search_matches_the_dijkstra_oracle(case in any_case_strategy(), cap in 1u32..30) {
        let Case { model, grid, start, goal, .. } = &case;
        let none = HashSet::new();
        let want = model.expected(*start, *goal, Neighbourhood::Eight, &none);
        let searched = want.0 == Status::Found && start != goal;
        let mut pf = Pathfinder::new();
        for &h in consistent(Neighbourhood::Eight) {
            for ties in TIES {
                let o = opts(Neighbourhood::Eight, h, 1000, None).with_ties(ties).with_algorithm(Algorithm::Jps);
                let (r, trace) = pf.find_traced(grid, Query::new(*start, *goal).options(o));
                prop_assert_eq!((r.status, r.cost), want, "{:?} {:?}", h, ties);
                check_path(model, grid, (*start, *goal), Neighbourhood::Eight, &none, &r)?;
                // JPS runs on cells of any cost under the default steps; other steps hand
                // the search to A*.
                if grid.steps() == astar_grid::grid::Steps::DEFAULT {
                    prop_assert_eq!(r.fallback, None);
                    check_jps_trace(model, &trace, &r, &o, *start, *goal)?;
                } else {
                    let why = searched.then_some(Fallback::Steps);
                    prop_assert_eq!(r.fallback, why);
                    check_trace(model, &trace, &r, &o, *start, *goal)?;
                    let astar = pf.find(grid, Query::new(*start, *goal).options(o.with_algorithm(Algorithm::AStar)));
                    prop_assert_eq!((&astar.path, astar.expanded), (&r.path, r.expanded));
                }
                prop_assert_eq!(&pf.find(grid, Query::new(*start, *goal).options(o)), &r);
                let capped = pf.find(grid, Query::new(*start, *goal).options(o.with_cap(Some(cap))));
                if r.expanded <= cap {
                    prop_assert_eq!(&capped, &r);
                } else {
                    prop_assert_eq!((capped.status, capped.expanded, capped.cost), (Status::CapReached, cap, None));
                    prop_assert!(capped.path.is_empty());
                }
            }
        }
    }

    /// A* and Jump Point Search on long grids (runs past the 64 cells read at once) agree
    /// with the oracle too, so the small grids' checks are not the only ones.
    #[test]
    fn a_star_on_long_grids_matches_the_dijkstra_oracle(
        case in prop_oneof![case_on(long_model(Palette::Uniform)), case_on(long_model(Palette::High))],
    ) {
        let Case { model, grid, start, goal, .. } = &case;
        let none = HashSet::new();
        let want = model.expected(*start, *goal, Neighbourhood::Eight, &none);
        let mut pf = Pathfinder::new();
        for algorithm in ALGORITHMS {
            for ties in TIES {
                let o = SearchOptions::default().with_algorithm(algorithm).with_ties(ties);
                let r = pf.find(grid, Query::new(*start, *goal).options(o));
                prop_assert_eq!((r.status, r.cost), want, "{:?} {:?}", algorithm, ties);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Exact regression cases
// ---------------------------------------------------------------------------------------------

fn grid(rows: &[&str]) -> Grid {
    Grid::from_rows(rows)
}

fn find(g: &Grid, s: (i32, i32), t: (i32, i32), o: SearchOptions) -> SearchResult {
    Pathfinder::new().find(
        g,
        Query::new(Pos::new(s.0, s.1), Pos::new(t.0, t.1)).options(o),
    )
}

#[test]
fn open_room_diagonal_is_octile() {
    let g = grid(&["....", "....", "...."]);
    let r = find(&g, (0, 0), (3, 2), SearchOptions::default());
    assert_eq!(r.status, Status::Found);
    assert_eq!(r.cost, Some(14 * 2 + 10));
    assert_eq!(r.path.len(), 4);
}

#[test]
fn blank_is_as_solid_as_wall_for_corners_and_a_dear_cell_is_no_corner() {
    // The diagonal (0,1)->(1,0) passes the corner at (0,0).
    for corner in [" ", "#"] {
        let g = grid(&[&format!("{corner}."), ".."]);
        let r = find(&g, (0, 1), (1, 0), SearchOptions::default());
        assert_eq!(r.cost, Some(20), "{corner:?}");
        let cut = find(
            &g,
            (0, 1),
            (1, 0),
            opts(
                Neighbourhood::EightCutCorners,
                Heuristic::Octile,
                1000,
                None,
            ),
        );
        assert_eq!(cut.cost, Some(14), "{corner:?}");
    }
    // A dear cell is dear to enter, not to pass.
    let g = grid(&["9.", ".."]);
    assert_eq!(
        find(&g, (0, 1), (1, 0), SearchOptions::default()).cost,
        Some(14)
    );
}

#[test]
fn invalid_endpoints_report_the_reason() {
    let g = grid(&[".#", ".."]);
    let o = SearchOptions::default();
    assert_eq!(
        find(&g, (-1, 0), (0, 0), o).status,
        Status::InvalidStart(Invalid::OutOfBounds)
    );
    assert_eq!(
        find(&g, (1, 0), (0, 0), o).status,
        Status::InvalidStart(Invalid::Blocked)
    );
    assert_eq!(
        find(&g, (0, 0), (2, 1), o).status,
        Status::InvalidGoal(Invalid::OutOfBounds)
    );
    assert_eq!(
        find(&g, (0, 0), (1, 0), o).status,
        Status::InvalidGoal(Invalid::Blocked)
    );
    // Both invalid: the start is reported.
    assert_eq!(
        find(&g, (1, 0), (9, 9), o).status,
        Status::InvalidStart(Invalid::Blocked)
    );
    assert_eq!(
        find(&g, (i32::MIN, i32::MAX), (0, 0), o).status,
        Status::InvalidStart(Invalid::OutOfBounds)
    );
}

#[test]
fn monsters_do_not_block_diagonals_but_cannot_be_entered() {
    // S at (0,0), G at (1,1); monsters on both orthogonal cells: the diagonal is still legal.
    let g = grid(&["..", ".."]);
    let mut pf = Pathfinder::new();
    let mut out = SearchResult::default();
    let occupied = [0, 1, 2, 0];
    let q = Query::new(Pos::new(0, 0), Pos::new(1, 1)).occupied(&occupied);
    pf.search(&g, q, &mut out, &mut ());
    assert_eq!((out.status, out.cost), (Status::Found, Some(14)));
    // Under 4-way the same monsters wall the goal off.
    let four = opts(Neighbourhood::Four, Heuristic::Manhattan, 1000, None);
    pf.search(&g, q.options(four), &mut out, &mut ());
    assert_eq!(out.status, Status::Unreachable);
    assert!(out.path.is_empty());
    // And they are gone afterwards.
    let r = pf.find(&g, Query::new(Pos::new(0, 0), Pos::new(1, 1)).options(four));
    assert_eq!(r.cost, Some(20));
}

#[test]
fn occupants_on_the_endpoints_are_ignored() {
    let g = grid(&["...."]);
    let mut pf = Pathfinder::new();
    let occupied = [1, 0, 0, 2];
    let out = pf.find(
        &g,
        Query::new(Pos::new(0, 0), Pos::new(3, 0)).occupied(&occupied),
    );
    assert_eq!((out.status, out.cost), (Status::Found, Some(30)));
}

#[test]
fn engine_follows_a_grid_that_changes_size_and_costs() {
    let mut pf = Pathfinder::new();
    let o = SearchOptions::default();
    let corner = Query::new(Pos::new(0, 0), Pos::new(2, 2)).options(o);
    let mut g = grid(&["...", "...", "..."]);
    assert_eq!(pf.find(&g, corner).cost, Some(28));
    g.set(Pos::new(1, 1), 0);
    assert_eq!(pf.find(&g, corner).cost, Some(40));
    // Same cell count, different shape.
    let wide = grid(&[".........", "#########"]);
    let r = pf.find(&wide, Query::new(Pos::new(0, 0), Pos::new(8, 0)).options(o));
    assert_eq!(r.cost, Some(80));
    let tall = grid(&[".", ".", ".", ".", ".", ".", ".", ".", ".", "."]);
    assert_eq!(
        pf.find(&tall, Query::new(Pos::new(0, 0), Pos::new(0, 9)).options(o))
            .cost,
        Some(90)
    );
    g.set(Pos::new(1, 1), 1);
    assert_eq!(pf.find(&g, corner).cost, Some(28));
    // A dear centre is gone round by a diagonal past it (which a blocked one forbids):
    // 10 + 14 + 10 rather than 14 * 2 + 14 through it.
    g.set(Pos::new(1, 1), 2);
    assert_eq!(pf.find(&g, corner).cost, Some(34));
    g.set(Pos::new(1, 1), 9);
    assert_eq!(pf.find(&g, corner).cost, Some(34));
}

#[test]
fn start_equals_goal() {
    let g = grid(&["..", ".."]);
    let r = find(&g, (1, 1), (1, 1), SearchOptions::default());
    assert_eq!(
        (r.status, r.cost, r.expanded, r.path),
        (Status::Found, Some(0), 1, vec![Pos::new(1, 1)])
    );
    let (r, trace) = Pathfinder::new().find_traced(&g, Query::new(Pos::new(1, 1), Pos::new(1, 1)));
    assert_eq!(trace.snapshot(u32::MAX).path, r.path);
    assert_eq!(trace.expansions(), 1);
}

#[test]
fn weight_zero_is_dijkstra() {
    let g = grid(&[".....", ".###.", "....."]);
    let o = opts(Neighbourhood::Eight, Heuristic::Octile, 0, None);
    let r = find(&g, (0, 1), (4, 1), o);
    // The diagonals next to the wall would cut its corners: round the wall straight.
    assert_eq!(r.cost, Some(10 + 40 + 10));
    let (_, trace) =
        Pathfinder::new().find_traced(&g, Query::new(Pos::new(0, 1), Pos::new(4, 1)).options(o));
    let snap = trace.snapshot(u32::MAX);
    assert!(snap.nodes.iter().all(|n| n.f == n.g));
}
