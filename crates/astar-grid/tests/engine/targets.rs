//! Searches toward targets (`Pathfinder::search_to`) against the model's plain Dijkstra:
//! the nearest of several goal cells (`Goals`) costs the least of the costs to each, and a
//! goal test of the caller's (`GoalTest`) the least over the cells it accepts.

use std::collections::HashSet;

use astar_grid::astar::{
    Algorithm, GoalTest, Goals, Heuristic, Pathfinder, SearchOptions, SearchResult, Status, Target,
    Trace, TraceEvent, Weight,
};
use astar_grid::grid::{Neighbourhood, Pos};
use proptest::prelude::*;

use crate::common::{
    Case, HEURISTICS, Model, RULES, TIES, any_model, case_on, config, consistent, pick, resolve,
};

/// The least cost from `start` to a cell `is_goal` accepts, by the model, and the cost of
/// every cell from `start`.
fn nearest(
    m: &Model,
    start: Pos,
    nb: Neighbourhood,
    is_goal: impl Fn(Pos) -> bool,
) -> (Option<u64>, Vec<Option<u64>>) {
    let dist = m.distances(&[start], nb, &HashSet::new(), false);
    let best = (0..m.len())
        .filter(|&i| is_goal(m.pos(i)))
        .filter_map(|i| dist[i])
        .min();
    (best, dist)
}

/// What `search_to` must answer: the start refused for the reason the model gives, else
/// the least cost to a goal, else unreachable. A found path starts at `start`, ends on a
/// goal whose own cost from the start is the path's, steps legally, and costs what it says.
#[allow(clippy::too_many_arguments)]
fn check_target(
    m: &Model,
    start: Pos,
    nb: Neighbourhood,
    is_goal: &impl Fn(Pos) -> bool,
    (best, dist): &(Option<u64>, Vec<Option<u64>>),
    optimal: bool,
    r: &SearchResult,
) -> Result<(), TestCaseError> {
    if let Some(why) = m.invalid(start) {
        prop_assert_eq!(
            (r.status, r.cost, r.expanded),
            (Status::InvalidStart(why), None, 0)
        );
        prop_assert!(r.path.is_empty());
        return Ok(());
    }
    match best {
        None => {
            prop_assert_eq!((r.status, r.cost), (Status::Unreachable, None));
            prop_assert!(r.path.is_empty());
        }
        Some(best) => {
            prop_assert_eq!(r.status, Status::Found);
            let cost = r.cost.map(u64::from);
            if optimal {
                prop_assert_eq!(cost, Some(*best));
            } else {
                prop_assert!(cost >= Some(*best));
            }
            prop_assert_eq!(r.path.first(), Some(&start));
            let end = r.end();
            prop_assert!(end.is_some_and(is_goal), "ends on {:?}, not a goal", end);
            let end = end.unwrap_or(start);
            if optimal {
                prop_assert_eq!(
                    dist[m.index(end).unwrap_or(0)],
                    cost,
                    "the goal reached costs the path's cost"
                );
            }
            prop_assert_eq!(m.path_cost(&r.path, nb, &HashSet::new()), cost);
            let distinct: HashSet<Pos> = r.path.iter().copied().collect();
            prop_assert_eq!(distinct.len(), r.path.len(), "path revisits a cell");
            prop_assert!(
                r.path[..r.path.len() - 1].iter().all(|&p| !is_goal(p)),
                "the path passes a goal before its end"
            );
        }
    }
    prop_assert_eq!(r.fallback, None);
    Ok(())
}

fn opts(nb: Neighbourhood, millis: u32) -> SearchOptions {
    SearchOptions::default()
        .with_neighbourhood(nb)
        .with_weight(Weight::from_millis(millis))
}

proptest! {
    #![proptest_config(config(500))]

    /// The nearest of several goals (any cells: enterable, blocked, outside, repeated, or
    /// none at all) costs exactly the least of a plain Dijkstra's costs to each, under every
    /// rule, consistent estimate and tie rule, on uniform grids and grids of costs; the
    /// estimate the trace shows is the least over the goals times the lowest cost; a
    /// weight on H keeps within w times the optimum; greedy and JPS in the options change
    /// nothing (`search_to` is A*); a cap stops exactly.
    #[test]
    fn the_nearest_of_several_goals_matches_the_dijkstra_oracle(
        case in case_on(any_model(20, 20, 50)),
        picks in prop::collection::vec(pick(), 0..6),
        millis in 1000u32..=3000,
        cap in 1u32..60,
    ) {
        let Case { model, grid, start, .. } = &case;
        let open = model.open_cells();
        let goals: Vec<Pos> = picks.into_iter().map(|p| resolve(model, &open, p)).collect();
        let is_goal = |p: Pos| goals.contains(&p);
        let mut pf = Pathfinder::new();
        let mut r = SearchResult::default();
        for nb in RULES {
            let want = nearest(model, *start, nb, is_goal);
            for &h in consistent(nb) {
                let target = Goals::new(&goals, h);
                for ties in TIES {
                    let o = opts(nb, 1000).with_ties(ties);
                    pf.search_to(grid, *start, &target, o, &mut r);
                    check_target(model, *start, nb, &is_goal, &want, true, &r)?;

                    // The trace tells the same search, with the target's estimate.
                    let mut trace = Trace::new(*start, *start, o);
                    let mut traced = SearchResult::default();
                    pf.search_to_traced(grid, *start, &target, o, &mut traced, &mut trace);
                    prop_assert_eq!(&traced, &r);
                    prop_assert_eq!(trace.expansions(), r.expanded);
                    for e in trace.events() {
                        if let TraceEvent::Open { cell, g, h: hv, f, .. } = *e {
                            let least = goals.iter().map(|&g| model.estimate(h, cell, g)).min().unwrap_or(0);
                            prop_assert_eq!((hv, f), (least, g + least), "h of {}", cell);
                            prop_assert_eq!(hv, target.estimate(grid, cell));
                        }
                    }

                    for ignored in [o.with_greedy(true), o.with_algorithm(Algorithm::Jps)] {
                        let mut other = SearchResult::default();
                        pf.search_to(grid, *start, &target, ignored, &mut other);
                        prop_assert_eq!(&other, &r, "{:?}", ignored);
                    }

                    let mut capped = SearchResult::default();
                    pf.search_to(grid, *start, &target, o.with_cap(Some(cap)), &mut capped);
                    if r.expanded <= cap {
                        prop_assert_eq!(&capped, &r);
                    } else {
                        prop_assert_eq!((capped.status, capped.expanded, capped.cost), (Status::CapReached, cap, None));
                        prop_assert!(capped.path.is_empty());
                    }

                    let heavy = opts(nb, millis).with_ties(ties);
                    let mut w = SearchResult::default();
                    pf.search_to(grid, *start, &Goals::new(&goals, Heuristic::Octile), heavy, &mut w);
                    check_target(model, *start, nb, &is_goal, &want, false, &w)?;
                    if let (Some(got), Some(best)) = (w.cost, want.0) {
                        prop_assert!(u64::from(got) * 1000 <= best * u64::from(millis), "{} > {} * {}", got, millis, best);
                    }
                }
            }
            // Estimates that overestimate still find a goal exactly when one is reachable.
            for h in HEURISTICS {
                pf.search_to(grid, *start, &Goals::new(&goals, h), opts(nb, 1000), &mut r);
                check_target(model, *start, nb, &is_goal, &want, false, &r)?;
            }
        }
    }

    /// A goal test of the caller's: any cell of a column, under an estimate that counts the
    /// columns left (consistent, so optimal); any cell of a random set, under no estimate
    /// (Dijkstra's search) or a wild one (a legal path to some goal, no cheaper than the
    /// best). Each matches the least of a plain Dijkstra's costs over the cells it accepts.
    #[test]
    fn a_goal_test_of_the_callers_matches_the_dijkstra_oracle(
        case in case_on(any_model(20, 20, 50)),
        column in 0i32..20,
        picks in prop::collection::vec(pick(), 0..8),
        wild in any::<u32>(),
    ) {
        let Case { model, grid, start, .. } = &case;
        let open = model.open_cells();
        let cells: HashSet<Pos> = picks.into_iter().map(|p| resolve(model, &open, p)).collect();
        let lowest = model.lowest();
        let straight = model.straight;
        let mut pf = Pathfinder::new();
        let mut r = SearchResult::default();
        for nb in RULES {
            for ties in TIES {
                let o = opts(nb, 1000).with_ties(ties);

                let in_column = |p: Pos| p.x == column;
                let east = GoalTest::new(in_column, |p: Pos| straight * p.x.abs_diff(column) * lowest);
                pf.search_to(grid, *start, &east, o, &mut r);
                check_target(model, *start, nb, &in_column, &nearest(model, *start, nb, in_column), true, &r)?;

                let in_set = |p: Pos| cells.contains(&p);
                let want = nearest(model, *start, nb, in_set);
                pf.search_to(grid, *start, &GoalTest::new(in_set, |_| 0), o, &mut r);
                check_target(model, *start, nb, &in_set, &want, true, &r)?;
                let noise = |p: Pos| (p.x as u32).wrapping_mul(wild).wrapping_add(p.y as u32 ^ wild) % 5000;
                pf.search_to(grid, *start, &GoalTest::new(in_set, noise), o, &mut r);
                check_target(model, *start, nb, &in_set, &want, false, &r)?;
            }
        }
    }
}

#[test]
fn the_start_on_a_goal_is_found_at_once_and_a_bad_start_is_refused() {
    let grid = astar_grid::grid::Grid::from_rows(&["..#", "3.."]);
    let mut pf = Pathfinder::new();
    let mut r = SearchResult::default();
    let here = [Pos::new(1, 1), Pos::new(2, 1)];
    pf.search_to(
        &grid,
        Pos::new(1, 1),
        &Goals::new(&here, Heuristic::Octile),
        SearchOptions::default(),
        &mut r,
    );
    assert_eq!(
        (r.status, r.cost, r.expanded, r.path.clone()),
        (Status::Found, Some(0), 1, vec![Pos::new(1, 1)])
    );
    for (start, why) in [
        (Pos::new(2, 0), astar_grid::astar::Invalid::Blocked),
        (Pos::new(3, 0), astar_grid::astar::Invalid::OutOfBounds),
    ] {
        r.path.push(Pos::new(9, 9));
        pf.search_to(
            &grid,
            start,
            &Goals::new(&here, Heuristic::Octile),
            SearchOptions::default(),
            &mut r,
        );
        assert_eq!(
            (r.status, r.cost, r.expanded),
            (Status::InvalidStart(why), None, 0)
        );
        assert!(r.path.is_empty());
    }
    // No goal at all, or none that can be stood on: nowhere to go.
    for goals in [&[][..], &[Pos::new(2, 0), Pos::new(-1, 5)][..]] {
        pf.search_to(
            &grid,
            Pos::new(0, 0),
            &Goals::new(goals, Heuristic::Octile),
            SearchOptions::default(),
            &mut r,
        );
        assert_eq!((r.status, r.cost), (Status::Unreachable, None), "{goals:?}");
    }
    // The dear cell next door costs 30 to enter, the cheap one two steps away 24: the goal
    // reached is the cheaper, at the path's end.
    let both = [Pos::new(0, 1), Pos::new(2, 1)];
    pf.search_to(
        &grid,
        Pos::new(0, 0),
        &Goals::new(&both, Heuristic::Zero),
        SearchOptions::default(),
        &mut r,
    );
    assert_eq!((r.end(), r.cost), (Some(Pos::new(2, 1)), Some(24)));
}
