//! The edges of what the engine takes: paths dearer than its integers hold
//! (`Status::TooCostly`, only when no path under `MAX_COST` exists), occupancies of the wrong
//! length (`Status::BadOccupancy`), and a pathfinder that may move to and be shared between
//! threads.

use std::collections::HashSet;

use astar_grid::astar::{
    Algorithm, Fallback, Goals, Heuristic, MAX_COST, Pathfinder, Query, SearchOptions,
    SearchResult, Status, Ties, Trace,
};
use astar_grid::dijkstra::DistanceMap;
use astar_grid::grid::{Grid, Neighbourhood, Pos};
use proptest::prelude::*;

use crate::common::{Case, HEURISTICS, Model, RULES, TIES, any_model, case_on, config};

// A pathfinder (and what goes with it) may be moved to another thread and shared by
// reference: the compiler checks it here, so that a cache that is not thread-safe (an `Rc`,
// a `Cell`) cannot slip into the engine.
const _: () = {
    const fn send_sync<T: Send + Sync>() {}
    send_sync::<Pathfinder>();
    send_sync::<Grid>();
    send_sync::<DistanceMap>();
    send_sync::<SearchResult>();
    send_sync::<Trace>();
};

#[test]
fn pathfinders_search_one_shared_grid_from_several_threads() {
    let grid = Grid::from_rows(&["......", ".####.", "......"]);
    let q = Query::new(Pos::new(0, 0), Pos::new(5, 2));
    let mut here = Pathfinder::new();
    let want = here.find(&grid, q);
    let costs: Vec<Option<u32>> = std::thread::scope(|s| {
        let threads: Vec<_> = [Pathfinder::new(), here.clone()]
            .into_iter()
            .map(|mut pf| {
                let grid = &grid;
                s.spawn(move || pf.find(grid, q).cost)
            })
            .collect();
        threads
            .into_iter()
            .map(|t| t.join().expect("no panic"))
            .collect()
    });
    assert_eq!(costs, [want.cost, want.cost]);
}

// ---------------------------------------------------------------------------------------------
// Too costly
// ---------------------------------------------------------------------------------------------

/// How many straight steps of base 1000 into cells of cost 255 fit under `MAX_COST`.
const STEPS_THAT_FIT: u64 = MAX_COST as u64 / 255_000;

/// What every kind of search must answer from `start` to `goal` on `m` by its Dijkstra:
/// found at the least cost when that is at most `MAX_COST`, too costly when every path is
/// dearer, and when there is no path at all unreachable (or too costly: a search that
/// dropped a step past the limit cannot tell that nothing lay beyond it).
fn check_limit(
    m: &Model,
    grid: &Grid,
    start: Pos,
    goal: Pos,
    nb: Neighbourhood,
    ties: &[Ties],
) -> Result<(), TestCaseError> {
    let best = m.cost_between(start, goal, nb, &HashSet::new());
    let limit = u64::from(MAX_COST);
    let mut pf = Pathfinder::new();
    let mut results = Vec::new();
    for &ties in ties {
        let o = SearchOptions::default()
            .with_neighbourhood(nb)
            .with_ties(ties);
        results.push((
            "A*",
            pf.find(grid, Query::new(start, goal).options(o)),
            true,
        ));
        let jps = pf.find(
            grid,
            Query::new(start, goal).options(o.with_algorithm(Algorithm::Jps)),
        );
        results.push(("JPS", jps, true));
        let mut r = SearchResult::default();
        pf.search_to(
            grid,
            start,
            &Goals::new(&[goal], Heuristic::Octile),
            o,
            &mut r,
        );
        results.push(("nearest", r, true));
        results.push((
            "greedy",
            pf.find(grid, Query::new(start, goal).options(o.with_greedy(true))),
            false,
        ));
    }
    for (what, r, optimal) in results {
        match best {
            // Greedy best-first may run its one way past the limit, a cheaper way beside it
            // untaken: see `greedy_is_too_costly_only_when_its_own_path_is`.
            Some(_) if !optimal && r.status == Status::TooCostly => {}
            Some(c) if c <= limit => {
                prop_assert_eq!(
                    r.status,
                    Status::Found,
                    "{} {:?}: a path of {} exists",
                    what,
                    nb,
                    c
                );
                let got = u64::from(r.cost.unwrap_or(0));
                if optimal {
                    prop_assert_eq!(got, c, "{} {:?}", what, nb);
                } else {
                    prop_assert!(got >= c && got <= limit, "{} {:?}: {}", what, nb, got);
                }
                prop_assert_eq!(grid.path_cost(&r.path), Some(got));
            }
            Some(c) => {
                prop_assert_eq!(
                    (r.status, r.cost),
                    (Status::TooCostly, None),
                    "{} {:?}: the best path costs {}",
                    what,
                    nb,
                    c
                );
                prop_assert!(r.path.is_empty());
            }
            None => {
                prop_assert!(
                    matches!(r.status, Status::Unreachable | Status::TooCostly),
                    "{} {:?}: {:?}",
                    what,
                    nb,
                    r.status
                );
                prop_assert!(r.path.is_empty());
            }
        }
        if what == "JPS" && r.status == Status::Found {
            let why = if nb == Neighbourhood::Eight {
                Fallback::Steps
            } else {
                Fallback::Neighbourhood
            };
            prop_assert_eq!(r.fallback, Some(why));
        }
    }
    // Dijkstra maps hold costs up to the same limit.
    let mut map = DistanceMap::new();
    map.compute(grid, start, nb);
    prop_assert_eq!(
        map.get(goal).map(u64::from),
        best.filter(|&c| c <= limit),
        "map {:?}",
        nb
    );
    Ok(())
}

/// A corridor of rows of dear cells as long as `MAX_COST` allows and longer, under steps of
/// about 1000: rows of cost 255, of random costs near it, of cost 1 with gaps, or blocked
/// but for a few cells.
fn long_dear_model() -> impl Strategy<Value = Model> {
    let fit = STEPS_THAT_FIT as usize;
    (
        fit - 120..=fit + 120,
        1usize..=3,
        980u32..=1000,
        any::<u64>(),
        prop::collection::vec(0u8..4, 3),
    )
        .prop_flat_map(|(n, rows, s, seed, kinds)| (Just((n, rows, s, seed, kinds)), s..=2 * s))
        .prop_map(|((n, rows, s, seed, kinds), d)| {
            let mut state = seed | 1;
            let mut rand = || {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state
            };
            let mut costs = Vec::with_capacity(n * rows);
            for &kind in &kinds[..rows] {
                for _ in 0..n {
                    let r = rand();
                    costs.push(match kind {
                        0 => 255,
                        1 if r % 100 == 0 => 0,
                        1 => 250 + (r % 6) as u8,
                        2 if r % 50 == 0 => 0,
                        2 => 1,
                        _ if r % 5 == 0 => 255,
                        _ => 0,
                    });
                }
            }
            Model::new(n, rows, costs, (s, d))
        })
}

proptest! {
    #![proptest_config(config(16))]

    /// From one end of a long dear corridor to the other: too costly exactly when every
    /// path costs more than `MAX_COST`, found (at the optimum) whenever one costs less,
    /// under any rule and tie rule, for every kind of search and in Dijkstra maps. (A case
    /// takes a few hundred milliseconds in debug: the general loop's open list steps
    /// through every F between two entries, and F spans millions here.)
    #[test]
    fn too_costly_comes_only_when_no_path_under_the_limit_exists(
        m in long_dear_model(),
        rows in (any::<prop::sample::Index>(), any::<prop::sample::Index>()),
        nb in prop::sample::select(RULES.to_vec()),
        ties in prop::sample::select(TIES.to_vec()),
    ) {
        let grid = m.grid();
        let ends = |x: i32| -> Vec<Pos> { (0..m.height as i32).map(|y| Pos::new(x, y)).filter(|&p| m.open(p)).collect() };
        let (first, last) = (ends(0), ends(m.width as i32 - 1));
        prop_assume!(!first.is_empty() && !last.is_empty());
        let (start, goal) = (first[rows.0.index(first.len())], last[rows.1.index(last.len())]);
        check_limit(&m, &grid, start, goal, nb, &[ties])?;
    }
}

#[test]
fn the_limit_falls_between_two_corridors_one_cell_apart() {
    let fit = STEPS_THAT_FIT as usize;
    for (n, found) in [(fit + 1, true), (fit + 2, false)] {
        let m = Model::new(n, 1, vec![255; n], (1000, 1400));
        let grid = m.grid();
        let (start, goal) = (Pos::new(0, 0), Pos::new(n as i32 - 1, 0));
        let r = Pathfinder::new().find(&grid, Query::new(start, goal));
        if found {
            assert_eq!(
                (r.status, r.cost),
                (Status::Found, Some(fit as u32 * 255_000))
            );
            assert!(u64::from(r.cost.unwrap()) <= u64::from(MAX_COST));
        } else {
            assert_eq!((r.status, r.cost), (Status::TooCostly, None));
            assert!(fit as u64 * 255_000 + 255_000 > u64::from(MAX_COST));
        }
        for nb in RULES {
            check_limit(&m, &grid, start, goal, nb, &TIES)
                .unwrap_or_else(|e| panic!("{n} cells: {e}"));
        }
        // A cheap way beside the dear one: found, though the dear one is searched too.
        let mut costs = vec![255; n];
        costs.extend(vec![1; n]);
        let two = Model::new(n, 2, costs, (1000, 1400));
        for nb in RULES {
            check_limit(&two, &two.grid(), start, goal, nb, &TIES)
                .unwrap_or_else(|e| panic!("{n} cells beside cheap ones: {e}"));
        }
    }
}

/// `Status::TooCostly` from A* says that no path costing less than `MAX_COST` exists; from
/// greedy best-first, which does not look for the cheapest path, that the path it followed
/// costs more. Here a corridor of cost-255 cells one step longer than `MAX_COST` allows runs
/// beside a corridor of cost-1 cells, the goal at the end of the dear one: A* finds
/// 8,678,000 by the cheap row; greedy runs along the dear row (its estimate is lower there)
/// and reaches the goal past the limit. With the goal at the end of the cheap row, greedy
/// keeps to that row and finds it.
#[test]
fn greedy_is_too_costly_only_when_its_own_path_is() {
    let n = STEPS_THAT_FIT as usize + 2;
    let mut costs = vec![255; n];
    costs.extend(vec![1; n]);
    let grid = Grid::from_costs(n, 2, costs)
        .expect("fits")
        .with_steps(astar_grid::grid::Steps::new(1000, 1400).expect("valid"));
    let four = SearchOptions::default().with_neighbourhood(Neighbourhood::Four);
    let mut pf = Pathfinder::new();
    let dear_end = Query::new(Pos::new(0, 0), Pos::new(n as i32 - 1, 0));
    assert_eq!(pf.find(&grid, dear_end.options(four)).cost, Some(8_678_000));
    let greedy = pf.find(&grid, dear_end.options(four.with_greedy(true)));
    assert_eq!(
        (greedy.status, greedy.cost),
        (Status::TooCostly, None),
        "{greedy:?}"
    );
    assert!(greedy.path.is_empty());
    let cheap_end = Query::new(Pos::new(0, 1), Pos::new(n as i32 - 1, 1));
    let greedy = pf.find(&grid, cheap_end.options(four.with_greedy(true)));
    assert_eq!(greedy.status, Status::Found, "{greedy:?}");
    assert_eq!(greedy.cost, Some((n as u32 - 1) * 1000));
}

// ---------------------------------------------------------------------------------------------
// Occupancies of the wrong length
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(300))]

    /// An occupancy that is neither empty nor one entry per cell is refused before anything
    /// is read (whatever the endpoints, options or tracer): `BadOccupancy`, no cost, no
    /// path (a reused result's old path is cleared), no work, no fallback, no events. The
    /// right length, and an empty one, are searched.
    #[test]
    fn an_occupancy_of_the_wrong_length_is_refused(
        case in case_on(any_model(16, 16, 40)),
        len in 1usize..600,
        nb in prop::sample::select(RULES.to_vec()),
        h in prop::sample::select(HEURISTICS.to_vec()),
        ties in prop::sample::select(TIES.to_vec()),
        greedy in any::<bool>(),
        jps in any::<bool>(),
    ) {
        let Case { grid, start, goal, .. } = &case;
        let algorithm = if jps { Algorithm::Jps } else { Algorithm::AStar };
        let o = SearchOptions::default()
            .with_neighbourhood(nb)
            .with_heuristic(h)
            .with_ties(ties)
            .with_greedy(greedy)
            .with_algorithm(algorithm);
        let mut pf = Pathfinder::new();
        for len in [len, grid.len() + 1, grid.len().saturating_sub(1)] {
            if len == 0 || len == grid.len() {
                continue;
            }
            let occupied = vec![1u32; len];
            let q = Query::new(*start, *goal).options(o).occupied(&occupied);
            let mut r = pf.find(grid, Query::new(*start, *start));
            r.path.push(Pos::new(-5, -5));
            pf.search(grid, q, &mut r, &mut ());
            prop_assert_eq!((r.status, r.cost, r.expanded, r.fallback), (Status::BadOccupancy, None, 0, None), "{} entries for {} cells", len, grid.len());
            prop_assert!(r.path.is_empty());
            let (traced, trace) = pf.find_traced(grid, q);
            prop_assert_eq!(&traced, &r);
            prop_assert!(trace.events().is_empty());
        }
        let alone = pf.find(grid, Query::new(*start, *goal).options(o));
        prop_assert_ne!(alone.status, Status::BadOccupancy);
        let nobody = vec![0u32; grid.len()];
        let r = pf.find(grid, Query::new(*start, *goal).options(o).occupied(&nobody));
        if jps {
            // JPS hands an occupancy to A*, which may pick another path of the same cost.
            prop_assert_eq!((r.status, r.cost), (alone.status, alone.cost));
        } else {
            prop_assert_eq!(&r, &alone);
        }
    }
}
