//! Property tests of the engine on grids of costs (2 to 9, or anything up to 255, under the
//! default steps or any others) against the plain Dijkstra of the model (`common.rs`),
//! written from the documented rule alone: a step costs its base cost (10 straight, 14
//! diagonal, or the grid's `Steps`) times the cost of the cell it enters; a diagonal needs
//! both cells it passes between enterable (whatever they cost), unless corners may be cut.

use std::collections::{HashMap, HashSet};

use astar_grid::astar::{
    Heuristic, Pathfinder, Query, SearchOptions, SearchResult, Status, TraceEvent, Weight,
};
use astar_grid::dijkstra::DistanceMap;
use astar_grid::grid::{Grid, Neighbourhood, Pos, Steps};
use proptest::prelude::*;

use crate::common::{
    Case, HEURISTICS, Model, Palette, RULES, TIES, case_on, config, consistent, model_strategy,
};

/// Grids up to 20x20 with up to 40% blocked cells, of costs up to 9 two times in three and
/// up to 255 otherwise.
fn case_strategy() -> impl Strategy<Value = Case> {
    case_on(prop_oneof![
        2 => model_strategy(20, 20, 40, Palette::Low),
        1 => model_strategy(20, 20, 40, Palette::High),
    ])
}

fn opts(nb: Neighbourhood, h: Heuristic, millis: u32) -> SearchOptions {
    SearchOptions::default()
        .with_neighbourhood(nb)
        .with_heuristic(h)
        .with_weight(Weight::from_millis(millis))
}

/// A found path starts and ends right, makes legal steps only, visits no cell twice, and
/// its steps' costs add up to its cost; anything else has no path and no cost.
fn check_path(
    c: &Case,
    nb: Neighbourhood,
    occupied: &HashSet<Pos>,
    r: &SearchResult,
) -> Result<(), TestCaseError> {
    if r.status != Status::Found {
        prop_assert!(r.path.is_empty());
        prop_assert_eq!(r.cost, None);
        return Ok(());
    }
    prop_assert_eq!(r.path.first(), Some(&c.start));
    prop_assert_eq!(r.path.last(), Some(&c.goal));
    let mut total = 0u64;
    for w in r.path.windows(2) {
        let s = c.model.step(occupied, w[0], w[1], nb);
        prop_assert!(
            s.is_some(),
            "illegal step {} -> {} under {:?}",
            w[0],
            w[1],
            nb
        );
        total += u64::from(s.unwrap_or(0));
    }
    let distinct: HashSet<Pos> = r.path.iter().copied().collect();
    prop_assert_eq!(distinct.len(), r.path.len(), "path revisits a cell");
    prop_assert_eq!(Some(total), r.cost.map(u64::from));
    prop_assert_eq!(c.grid.path_cost(&r.path), r.cost.map(u64::from));
    Ok(())
}

/// The model's answer as the engine gives it: the cost of every cell, if reached.
fn as_map(costs: Vec<Option<u64>>) -> Vec<Option<u32>> {
    costs.into_iter().map(|c| c.map(|c| c as u32)).collect()
}

proptest! {
    #![proptest_config(config(600))]

    /// Consistent heuristics, either tie rule, with or without occupants: the optimum
    /// exactly, on a legal path whose steps add up to it.
    #[test]
    fn search_on_costs_matches_a_plain_dijkstra(c in case_strategy()) {
        let mut pf = Pathfinder::new();
        let (occupied, cells) = (c.taken(), c.occupancy());
        for nb in RULES {
            for (taken, occ) in [(&HashSet::new(), &[][..]), (&occupied, &cells[..])] {
                let want = c.model.expected(c.start, c.goal, nb, taken);
                for &h in consistent(nb) {
                    for ties in TIES {
                        let o = opts(nb, h, 1000).with_ties(ties);
                        let r = pf.find(&c.grid, Query::new(c.start, c.goal).options(o).occupied(occ));
                        prop_assert_eq!((r.status, r.cost), want, "{:?} {:?} {:?}", nb, h, ties);
                        check_path(&c, nb, taken, &r)?;
                    }
                }
            }
        }
    }

    /// Every other option keeps its meaning: inadmissible heuristics, weights on H and
    /// greedy best-first find a legal path exactly when one exists, never cheaper than the
    /// optimum, and octile at weight w costs at most w times it; a cap stops exactly.
    #[test]
    fn every_option_keeps_its_meaning_on_costs(c in case_strategy(), millis in 0u32..=3000, cap in 1u32..60) {
        let mut pf = Pathfinder::new();
        let none = HashSet::new();
        for nb in RULES {
            let (status, best) = c.model.expected(c.start, c.goal, nb, &none);
            for h in HEURISTICS {
                for greedy in [false, true] {
                    for ties in TIES {
                        let o = opts(nb, h, millis).with_greedy(greedy).with_ties(ties);
                        let q = Query::new(c.start, c.goal).options(o);
                        let r = pf.find(&c.grid, q);
                        prop_assert_eq!(r.status, status, "{:?}", o);
                        prop_assert!(r.cost >= best, "{:?}", o);
                        check_path(&c, nb, &none, &r)?;
                        if h == Heuristic::Octile && !greedy && millis >= 1000
                            && let (Some(got), Some(b)) = (r.cost, best)
                        {
                            prop_assert!(u64::from(got) * 1000 <= u64::from(b) * u64::from(millis));
                        }
                        let capped = pf.find(&c.grid, q.options(o.with_cap(Some(cap))));
                        if r.expanded <= cap {
                            prop_assert_eq!(&capped, &r);
                        } else {
                            prop_assert_eq!(capped.status, Status::CapReached);
                            prop_assert_eq!(capped.expanded, cap);
                        }
                    }
                }
            }
        }
    }

    /// The trace tells the search on costs: each G is the parent's plus the step's cost, H
    /// is the heuristic in the grid's steps times the lowest cost, F = G + weighted H,
    /// expansions go lowest F, then lowest weighted H, then reading order, and the
    /// untraced search agrees.
    #[test]
    fn traces_on_costs_replay_to_their_result(
        c in case_strategy(),
        nb in prop::sample::select(RULES.to_vec()),
        h in prop::sample::select(HEURISTICS.to_vec()),
        millis in prop_oneof![Just(1000u32), 0u32..=3000],
    ) {
        let o = opts(nb, h, millis);
        let q = Query::new(c.start, c.goal).options(o);
        let mut pf = Pathfinder::new();
        let (r, trace) = pf.find_traced(&c.grid, q);
        prop_assert_eq!(&pf.find(&c.grid, q), &r);
        let mut nodes: HashMap<Pos, (u32, u32, bool)> = HashMap::new();
        let mut current = None;
        for e in trace.events() {
            match *e {
                TraceEvent::Open { cell, g, h: hv, f, parent } => {
                    let (dx, dy) = (cell.x.abs_diff(c.goal.x), cell.y.abs_diff(c.goal.y));
                    prop_assert_eq!(hv, c.model.raw_estimate(h, dx, dy) * c.model.lowest());
                    let wh = (u64::from(hv) * u64::from(o.weight.millis()) / 1000) as u32;
                    prop_assert_eq!(f, g + wh);
                    if let Some(p) = parent {
                        prop_assert_eq!(Some(p), current);
                        let step = c.model.step(&HashSet::new(), p, cell, nb);
                        prop_assert_eq!(Some(g), step.map(|s| s + nodes[&p].0));
                    }
                    if let Some(old) = nodes.get(&cell) {
                        prop_assert!(!old.2 && g < old.0);
                    }
                    nodes.insert(cell, (g, f, false));
                }
                TraceEvent::Close { cell } => {
                    let best = nodes
                        .iter()
                        .filter(|(_, n)| !n.2)
                        .map(|(p, n)| (n.1, n.1 - n.0, p.y, p.x))
                        .min();
                    let n = nodes[&cell];
                    prop_assert_eq!(Some((n.1, n.1 - n.0, cell.y, cell.x)), best);
                    nodes.get_mut(&cell).expect("opened").2 = true;
                    current = Some(cell);
                }
            }
        }
        if r.status == Status::Found {
            prop_assert_eq!(trace.snapshot(u32::MAX).path, r.path.clone());
        }
    }

    /// Dijkstra maps count costs the same way: every cell's cost from the source, and to it
    /// (where the cost of the cell stepped into is counted on the way to the source).
    #[test]
    fn distance_maps_on_costs_match_the_oracle(c in case_strategy()) {
        let none = HashSet::new();
        let mut map = DistanceMap::new();
        for nb in RULES {
            map.compute(&c.grid, c.start, nb);
            let want = as_map(c.model.distances(&[c.start], nb, &none, false));
            for (i, want) in want.iter().enumerate() {
                prop_assert_eq!(map.get(c.model.pos(i)), *want, "from, {:?} {}", nb, c.model.pos(i));
            }
            map.compute_to(&c.grid, c.start, nb);
            let want = as_map(c.model.distances(&[c.start], nb, &none, true));
            for (i, want) in want.iter().enumerate() {
                prop_assert_eq!(map.get(c.model.pos(i)), *want, "to, {:?} {}", nb, c.model.pos(i));
            }
        }
    }

    /// A grid whose every enterable cell costs k is the uniform grid's search scaled: the
    /// same path, the same expansions and the cost times k, though the uniform grid takes
    /// the fast path and the other the general loop. Steps of 10k and 14k scale the same
    /// way under the estimates that do not round.
    #[test]
    fn one_cost_everywhere_is_the_uniform_search_scaled(
        c in case_on(model_strategy(20, 20, 50, Palette::Uniform).prop_map(|m| Model { straight: 10, diagonal: 14, ..m })),
        k in prop_oneof![2u8..=9, 10u8..=255],
    ) {
        prop_assert!(c.grid.is_uniform());
        let scaled_costs: Vec<u8> = c.model.costs.iter().map(|&v| v * k).collect();
        let dear = Grid::from_costs(c.model.width, c.model.height, scaled_costs).expect("same size");
        let k32 = u32::from(k);
        // Steps stop at 1000 straight.
        let long_steps = (k <= 100).then(|| c.model.grid().with_steps(Steps::new(10 * k32, 14 * k32).expect("valid")));
        let mut pf = Pathfinder::new();
        for nb in RULES {
            for h in HEURISTICS {
                for greedy in [false, true] {
                    for ties in TIES {
                        let o = opts(nb, h, 1000).with_greedy(greedy).with_ties(ties);
                        let q = Query::new(c.start, c.goal).options(o);
                        let plain = pf.find(&c.grid, q);
                        let mut grids = vec![("costs", &dear)];
                        if let Some(long) = long_steps.as_ref().filter(|_| h != Heuristic::Euclidean) {
                            grids.push(("steps", long));
                        }
                        for (what, g) in grids {
                            // (A grid of no enterable cell is uniform whatever it is scaled by.)
                            prop_assert!(!g.is_uniform() || what == "costs" && c.grid.blocked_cells() == c.grid.len());
                            let r = pf.find(g, q);
                            prop_assert_eq!(
                                (r.status, r.cost, r.expanded, &r.path),
                                (plain.status, plain.cost.map(|c| c * k32), plain.expanded, &plain.path),
                                "{} x{} {:?}", what, k, o
                            );
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn the_dry_way_round_a_pond_is_cheaper() {
    // Straight across the pond: three steps into cost 3 and one onto 1, 3*30 + 10 = 100.
    // Round it: six steps on cost 1, two of them diagonal, 4*10 + 2*14 = 68.
    let pond = |k: char| {
        let water = format!(".{k}{k}{k}.");
        Grid::from_rows(&[".....", &water, &water, &water, "....."])
    };
    let (a, b) = (Pos::new(2, 0), Pos::new(2, 4));
    let grid = pond('3');
    let r = Pathfinder::new().find(&grid, Query::new(a, b));
    assert_eq!(r.cost, Some(68));
    assert_eq!(r.path.len(), 7);
    assert!(r.path.iter().all(|&p| grid.cost(p) == 1), "{:?}", r.path);
    // At cost 2 wading costs 70: still dearer. At cost 1 it is 40, the fewest steps.
    let r = Pathfinder::new().find(&pond('2'), Query::new(a, b));
    assert_eq!(r.cost, Some(68));
    let r = Pathfinder::new().find(&pond('1'), Query::new(a, b));
    assert_eq!((r.cost, r.path.len()), (Some(40), 5));
}

#[test]
fn steps_of_one_count_king_moves() {
    // Steps of 1 and 1: the cost is the number of moves, so the diagonal line is as cheap
    // as any staircase; with 1 and 2 a diagonal is worth two straight steps.
    let grid = Grid::from_rows(&["....", "....", "...."]);
    let moves = grid.clone().with_steps(Steps::new(1, 1).unwrap());
    let q = Query::new(Pos::new(0, 0), Pos::new(3, 2));
    assert_eq!(Pathfinder::new().find(&moves, q).cost, Some(3));
    let manhattan = grid.with_steps(Steps::new(1, 2).unwrap());
    assert_eq!(Pathfinder::new().find(&manhattan, q).cost, Some(5));
}

proptest! {
    #![proptest_config(config(200))]

    /// Two engines handing one set of search buffers back and forth
    /// (`Pathfinder::take_buffers_from`) answer every search as a fresh engine does: same
    /// path, cost and nodes, one engine on a grid of the same size as the other's (the
    /// buffers fit both: the marks of the other's searches are left in them), again and
    /// again.
    #[test]
    fn engines_sharing_buffers_answer_as_fresh_ones(c in case_strategy(), rounds in 1usize..4) {
        // The other engine's grid: the same cells, every cost one dearer (so not uniform).
        let dearer = c.grid.costs().iter().map(|&x| if x == 0 { 0 } else { x.saturating_add(1) });
        let other = Grid::from_costs(c.grid.width(), c.grid.height(), dearer.collect()).unwrap();
        let mut engines = [Pathfinder::new(), Pathfinder::new()];
        for _ in 0..rounds {
            for (i, (grid, from, to)) in [(&c.grid, c.start, c.goal), (&other, c.goal, c.start)]
                .into_iter()
                .enumerate()
            {
                let [a, b] = &mut engines;
                let (pf, theirs) = if i == 0 { (a, b) } else { (b, a) };
                pf.take_buffers_from(theirs);
                for nb in RULES {
                    let q = Query::new(from, to).options(opts(nb, Heuristic::Octile, 1000));
                    let got = pf.find(grid, q);
                    let fresh = Pathfinder::new().find(grid, q);
                    prop_assert_eq!(&got.path, &fresh.path);
                    prop_assert_eq!((got.cost, got.expanded), (fresh.cost, fresh.expanded));
                }
            }
        }
    }
}
