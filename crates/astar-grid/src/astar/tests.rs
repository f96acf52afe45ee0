use super::*;
use crate::grid::Regions;

/// Every tie rule, default first.
const TIES: [Ties; 3] = [Ties::LowerH, Ties::Lifo, Ties::Fifo];

fn grid(rows: &[&str]) -> Grid {
    Grid::from_rows(rows)
}

fn opts(neighbourhood: Neighbourhood) -> SearchOptions {
    SearchOptions {
        neighbourhood,
        ..SearchOptions::default()
    }
}

#[test]
fn octile_heuristic_matches_the_integer_formula() {
    assert_eq!(Heuristic::Octile.estimate(3, 7), 14 * 3 + 10 * 4);
    assert_eq!(Heuristic::Manhattan.estimate(3, 7), 100);
    assert_eq!(Heuristic::Chebyshev.estimate(3, 7), 70);
    assert_eq!(Heuristic::Euclidean.estimate(3, 4), 50);
    assert_eq!(Heuristic::Euclidean.estimate(1, 1), 14);
    assert_eq!(Heuristic::Zero.estimate(3, 7), 0);
}

#[test]
fn corner_rule_forces_the_long_way_round() {
    // The only diagonal from (0,1) to (1,0) would cut the wall's corner at (0,0).
    let g = grid(&["#.", ".."]);
    let mut pf = Pathfinder::new();
    let r = pf.find(
        &g,
        Query::new(Pos::new(0, 1), Pos::new(1, 0)).options(opts(Neighbourhood::Eight)),
    );
    assert_eq!(r.status, Status::Found);
    assert_eq!(r.cost, Some(20));
    assert_eq!(r.path, vec![Pos::new(0, 1), Pos::new(1, 1), Pos::new(1, 0)]);
    let cut = pf.find(
        &g,
        Query::new(Pos::new(0, 1), Pos::new(1, 0)).options(opts(Neighbourhood::EightCutCorners)),
    );
    assert_eq!(cut.cost, Some(14));
    assert_eq!(cut.path.len(), 2);
}

#[test]
fn diagonal_gap_is_unreachable_without_corner_cutting_and_answered_without_search() {
    let g = grid(&[".#", "#."]);
    let mut pf = Pathfinder::new();
    let r = pf.find(
        &g,
        Query::new(Pos::new(0, 0), Pos::new(1, 1)).options(opts(Neighbourhood::Eight)),
    );
    assert_eq!(r.status, Status::Unreachable);
    assert_eq!((r.cost, r.expanded), (None, 0));
    assert!(r.path.is_empty());
    let four = pf.find(
        &g,
        Query::new(Pos::new(0, 0), Pos::new(1, 1)).options(opts(Neighbourhood::Four)),
    );
    assert_eq!(four.status, Status::Unreachable);
    let cut = pf.find(
        &g,
        Query::new(Pos::new(0, 0), Pos::new(1, 1)).options(opts(Neighbourhood::EightCutCorners)),
    );
    assert_eq!(cut.cost, Some(14));
}

#[test]
fn every_status_is_told_apart() {
    let g = grid(&["...", ".#.", "..."]);
    let mut pf = Pathfinder::new();
    let o = SearchOptions::default();
    let at = |x, y| Pos::new(x, y);
    assert_eq!(
        pf.find(&g, Query::new(at(-1, 0), at(2, 2)).options(o))
            .status,
        Status::InvalidStart(Invalid::OutOfBounds)
    );
    assert_eq!(
        pf.find(&g, Query::new(at(1, 1), at(2, 2)).options(o))
            .status,
        Status::InvalidStart(Invalid::Blocked)
    );
    assert_eq!(
        pf.find(&g, Query::new(at(0, 0), at(3, 0)).options(o))
            .status,
        Status::InvalidGoal(Invalid::OutOfBounds)
    );
    assert_eq!(
        pf.find(&g, Query::new(at(0, 0), at(1, 1)).options(o))
            .status,
        Status::InvalidGoal(Invalid::Blocked)
    );
    let capped = SearchOptions { cap: Some(2), ..o };
    let r = pf.find(&g, Query::new(at(0, 0), at(2, 2)).options(capped));
    assert_eq!(
        (r.status, r.expanded, r.cost),
        (Status::CapReached, 2, None)
    );
    let r = pf.find(&g, Query::new(at(0, 0), at(2, 2)).options(o));
    assert_eq!((r.status, r.cost), (Status::Found, Some(40)));
    let same = pf.find(&g, Query::new(at(2, 2), at(2, 2)).options(o));
    assert_eq!(
        (same.status, same.cost, same.path),
        (Status::Found, Some(0), vec![at(2, 2)])
    );
}

/// The cells in the order the search expanded them, and the path.
fn expansions(g: &Grid, start: Pos, goal: Pos) -> (Vec<Pos>, Vec<Pos>) {
    let (r, trace) = Pathfinder::new().find_traced(g, Query::new(start, goal));
    let closed = trace
        .events()
        .iter()
        .filter_map(|e| match *e {
            TraceEvent::Close { cell } => Some(cell),
            TraceEvent::Open { .. } => None,
        })
        .collect();
    (closed, r.path)
}

#[test]
fn ties_break_toward_lower_h_then_reading_order() {
    let p = |v: &[(i32, i32)]| v.iter().map(|&(x, y)| Pos::new(x, y)).collect::<Vec<_>>();
    // Around a pillar from corner to corner. (1,0) and (0,1) tie at F 34 and H 24: reading
    // order takes (1,0), on the smaller row though the larger column. Then (2,0) and (0,2)
    // tie at F 40 and H 20: (2,0) again. Then (0,2), H 20, and (2,1), H 10, tie at F 40:
    // the lower H, (2,1), goes first and (0,2) is never expanded.
    let g = grid(&["...", ".#.", "..."]);
    let (closed, path) = expansions(&g, Pos::new(0, 0), Pos::new(2, 2));
    assert_eq!(closed, p(&[(0, 0), (1, 0), (0, 1), (2, 0), (2, 1), (2, 2)]));
    assert_eq!(path, p(&[(0, 0), (1, 0), (2, 0), (2, 1), (2, 2)]));
    // On an open field every path of 2 diagonals and 3 straights costs 58, so every node on
    // one has F 58: the lower H first goes diagonal first, and nothing else is expanded.
    let g = grid(&["......", "......", "......"]);
    let (closed, path) = expansions(&g, Pos::new(0, 0), Pos::new(5, 2));
    let want = p(&[(0, 0), (1, 1), (2, 2), (3, 2), (4, 2), (5, 2)]);
    assert_eq!((&closed, &path), (&want, &want));
}

#[test]
fn occupants_reroute_and_are_forgotten_afterwards() {
    let g = grid(&["...", "...", "..."]);
    let mut pf = Pathfinder::new();
    let o = SearchOptions::default();
    let mut out = SearchResult::default();
    let mut occupied = vec![0; g.len()];
    occupied[4] = 1;
    let q = Query::new(Pos::new(0, 1), Pos::new(2, 1)).occupied(&occupied);
    pf.search(&g, q, &mut out, &mut ());
    assert_eq!(out.cost, Some(28));
    assert!(!out.path.contains(&Pos::new(1, 1)));
    let again = pf.find(&g, Query::new(Pos::new(0, 1), Pos::new(2, 1)).options(o));
    assert_eq!(again.cost, Some(20));
}

#[test]
fn trace_replays_to_the_result() {
    let g = grid(&[
        "........", "........", "....#...", "....#...", "....#...", "........",
    ]);
    let mut pf = Pathfinder::new();
    let o = SearchOptions::default();
    let (r, trace) = pf.find_traced(&g, Query::new(Pos::new(2, 3), Pos::new(6, 3)).options(o));
    assert_eq!(r.cost, Some(68));
    assert_eq!(trace.expansions(), r.expanded);
    let end = trace.snapshot(u32::MAX);
    assert_eq!(end.step, r.expanded);
    assert_eq!(end.path, r.path);
    assert_eq!(end.current, Some(Pos::new(6, 3)));
    let goal = end.get(Pos::new(6, 3)).expect("goal touched");
    assert_eq!(
        (goal.g, goal.h, goal.f, goal.state),
        (68, 0, 68, NodeState::Closed)
    );
    for n in &end.nodes {
        assert_eq!(n.f, n.g + n.h);
    }
    let first = trace.snapshot(1);
    assert_eq!(first.counts().1, 1);
    assert_eq!(first.get(Pos::new(2, 3)).and_then(|n| n.order), Some(1));
    assert_eq!(first.counts().0, 8);
    let none = trace.snapshot(0);
    assert_eq!((none.nodes.len(), none.current), (1, None));
    // Untraced and traced searches agree exactly.
    assert_eq!(
        pf.find(&g, Query::new(Pos::new(2, 3), Pos::new(6, 3)).options(o)),
        r
    );
}

#[test]
fn tie_rules_parse_and_print() {
    for t in TIES {
        assert_eq!(t.to_string().parse::<Ties>(), Ok(t));
    }
    assert_eq!(Ties::default(), Ties::LowerH);
    assert_eq!("fifo".parse::<Ties>(), Ok(Ties::Fifo));
    assert!("random".parse::<Ties>().is_err());
    for a in [Algorithm::AStar, Algorithm::Jps] {
        assert_eq!(a.to_string().parse::<Algorithm>(), Ok(a));
    }
    assert!("dijkstra".parse::<Algorithm>().is_err());
}

#[test]
fn lifo_ties_keep_the_cost_change_the_order_and_last_one_search() {
    // A room with a wall in it, every goal from one corner: both rules find optimal paths,
    // but not always the same ones nor with the same expansions (else LIFO would be a no-op),
    // and after a LIFO search the same engine searches by lower H again, exactly as a fresh one.
    let g = grid(&[
        "..........",
        "..........",
        "....###...",
        "......#...",
        "......#...",
        "..........",
    ]);
    let lifo = SearchOptions {
        ties: Ties::Lifo,
        ..SearchOptions::default()
    };
    let mut pf = Pathfinder::new();
    let mut differ = 0;
    for goal in (0..60)
        .map(|i| Pos::new(i % 10, i / 10))
        .filter(|&p| g.is_passable(p))
    {
        let q = Query::new(Pos::new(0, 0), goal);
        let by_h = Pathfinder::new().find(&g, q);
        let last_in = pf.find(&g, q.options(lifo));
        assert_eq!(last_in.cost, by_h.cost, "to {goal}");
        assert_eq!(path_cost(&last_in.path), last_in.cost, "to {goal}");
        differ += usize::from(last_in.path != by_h.path || last_in.expanded != by_h.expanded);
        assert_eq!(pf.find(&g, q), by_h, "lower H again after LIFO, to {goal}");
    }
    assert!(differ > 0, "LIFO searched exactly as lower H on every goal");
}

#[test]
fn weights_parse_and_print() {
    assert_eq!("1.5".parse(), Ok(Weight::from_millis(1500)));
    assert_eq!("2".parse(), Ok(Weight::from_millis(2000)));
    assert_eq!(".25".parse(), Ok(Weight::from_millis(250)));
    for bad in ["1.2345", "abc", "101", ""] {
        assert!(bad.parse::<Weight>().is_err(), "{bad}");
    }
    assert_eq!(Weight::from_millis(1500).to_string(), "1.5");
    assert_eq!(Weight::from_millis(2000).to_string(), "2");
}

#[test]
fn path_cost_counts_straight_and_diagonal_steps() {
    let p = [Pos::new(0, 0), Pos::new(1, 1), Pos::new(2, 1)];
    assert_eq!(path_cost(&p), Some(24));
    assert_eq!(path_cost(&[Pos::new(0, 0), Pos::new(2, 0)]), None);
}

#[test]
fn unreachable_is_told_by_region_labels_without_a_single_event() {
    // Two large halves split by a wall: a search would flood the whole left half.
    let g = grid(&["..........#.........."; 20]);
    let mut pf = Pathfinder::new();
    let (r, trace) = pf.find_traced(&g, Query::new(Pos::new(0, 0), Pos::new(20, 19)));
    assert_eq!(
        (r.status, r.expanded, r.cost),
        (Status::Unreachable, 0, None)
    );
    assert!(trace.events().is_empty());
    // start == goal is answered on the spot, with the one open and one close event.
    let (same, trace) = pf.find_traced(&g, Query::new(Pos::new(3, 3), Pos::new(3, 3)));
    assert_eq!((same.expanded, same.cost), (1, Some(0)));
    assert_eq!(trace.events().len(), 2);
}

#[test]
fn a_reshaped_grid_of_the_same_padded_size_is_searched_afresh() {
    // 3x5 and 5x3 both pad to 35 cells, with different strides: the buffers must be rebuilt,
    // or cells inside the old shape would be walkable border cells of the new one.
    let tall = grid(&["...", "...", "...", "...", "..."]);
    let wide = grid(&[".#...", ".#.#.", "...#."]);
    let mut pf = Pathfinder::new();
    for (x, y) in [(0, 0), (2, 4), (1, 2)] {
        pf.find(&tall, Query::new(Pos::new(0, 0), Pos::new(x, y)));
    }
    let r = pf.find(&wide, Query::new(Pos::new(0, 0), Pos::new(4, 2)));
    assert_eq!(
        r,
        Pathfinder::new().find(&wide, Query::new(Pos::new(0, 0), Pos::new(4, 2)))
    );
    assert_eq!(r.cost, Some(10 * 10));
}

#[test]
fn lifo_ties_apply_to_every_search_not_only_the_rings() {
    // Weighted, inadmissible and greedy searches follow the rule too: on some goal of a room
    // with walls each expands other nodes or finds another path than under lower H (else the
    // rule would be silently ignored), and still finds a legal path of the cost it reports.
    let g = grid(&[
        "............",
        "..####......",
        "......#..#..",
        "..#...#..#..",
        "..#.......#.",
        "............",
    ]);
    let kinds = [
        SearchOptions {
            weight: Weight::from_millis(2000),
            ..SearchOptions::default()
        },
        SearchOptions {
            heuristic: Heuristic::Manhattan,
            ..SearchOptions::default()
        },
        SearchOptions {
            heuristic: Heuristic::Euclidean,
            ..SearchOptions::default()
        },
        SearchOptions {
            greedy: true,
            ..SearchOptions::default()
        },
    ];
    let mut pf = Pathfinder::new();
    for by_h in kinds {
        let lifo = SearchOptions {
            ties: Ties::Lifo,
            ..by_h
        };
        let mut differ = 0;
        for goal in (0..g.len()).map(|i| g.pos(i)).filter(|&p| g.is_passable(p)) {
            let q = Query::new(Pos::new(0, 0), goal);
            let a = pf.find(&g, q.options(by_h));
            let b = pf.find(&g, q.options(lifo));
            assert_eq!(b.status, Status::Found, "{lifo:?} to {goal}");
            assert_eq!(path_cost(&b.path), b.cost, "{lifo:?} to {goal}");
            differ += usize::from(a.path != b.path || a.expanded != b.expanded);
        }
        assert!(
            differ > 0,
            "{lifo:?} searched exactly as lower H on every goal"
        );
    }
}

/// A grid of `w`x`h` with about `walls` percent walls, from a small deterministic generator.
fn random_grid(w: usize, h: usize, walls: u64, seed: u64) -> Grid {
    let mut s = seed | 1;
    let tiles = (0..w * h)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            if s % 100 < walls { 0 } else { 1 }
        })
        .collect();
    Grid::from_costs(w, h, tiles).unwrap()
}

fn jps(ties: Ties) -> SearchOptions {
    SearchOptions {
        algorithm: Algorithm::Jps,
        ties,
        ..SearchOptions::default()
    }
}

#[test]
fn jump_point_search_finds_a_stars_costs_with_fewer_expansions() {
    // Open fields, scattered walls and mazes of every density, every pair of a sample of
    // cells: the same cost as A*, a legal path of that cost, and on open ground far fewer
    // nodes expanded.
    let mut pf = Pathfinder::new();
    let (mut jps_expanded, mut astar_expanded) = (0u64, 0u64);
    for (i, walls) in [0, 5, 15, 30, 45].into_iter().enumerate() {
        let g = random_grid(40, 23, walls, 0x9E37_79B9 + i as u64);
        let floors: Vec<Pos> = (0..g.len())
            .map(|c| g.pos(c))
            .filter(|&p| g.is_passable(p))
            .collect();
        for (k, &a) in floors.iter().enumerate().step_by(17) {
            for &b in floors.iter().skip(k % 5).step_by(23) {
                let q = Query::new(a, b);
                let plain = pf.find(&g, q);
                for ties in TIES {
                    let r = pf.find(&g, q.options(jps(ties)));
                    assert_eq!(
                        (r.status, r.cost),
                        (plain.status, plain.cost),
                        "{a} -> {b} {ties}"
                    );
                    assert_eq!(r.fallback, None);
                    if r.status == Status::Found {
                        assert_eq!(path_cost(&r.path), r.cost, "{a} -> {b}");
                    } else {
                        assert!(r.path.is_empty());
                    }
                    assert!(r.path.windows(2).all(|w| {
                        g.can_step(w[0], w[1].x - w[0].x, w[1].y - w[0].y, Neighbourhood::Eight)
                    }));
                    if walls == 0 && ties == Ties::LowerH {
                        jps_expanded += u64::from(r.expanded);
                        astar_expanded += u64::from(plain.expanded);
                    }
                }
            }
        }
    }
    assert!(
        jps_expanded * 5 < astar_expanded,
        "JPS expanded {jps_expanded} nodes, A* {astar_expanded}"
    );
}

#[test]
fn jump_point_search_turns_at_the_forced_neighbour_past_a_wall_end() {
    // East along the wall's foot, the cell past its end opens upward: the only way up.
    let g = grid(&["..........", "#####.....", ".........."]);
    let (r, trace) = Pathfinder::new().find_traced(
        &g,
        Query::new(Pos::new(0, 2), Pos::new(0, 0)).options(jps(Ties::LowerH)),
    );
    // East to the wall's end, up past it (no diagonal may cut its corner), west back.
    assert_eq!(r.cost, Some(50 + 20 + 50));
    let opened: Vec<Pos> = trace
        .events()
        .iter()
        .filter_map(|e| match *e {
            TraceEvent::Open { cell, .. } => Some(cell),
            TraceEvent::Close { .. } => None,
        })
        .collect();
    // The jump point at the wall's end, where the free cell above follows a blocked one.
    assert!(opened.contains(&Pos::new(5, 2)), "{opened:?}");
    let end = trace.snapshot(u32::MAX);
    assert_eq!(
        end.path, r.path,
        "the snapshot walks the runs between jump points"
    );
    assert!(end.nodes.len() < 10, "{} nodes touched", end.nodes.len());
}

#[test]
fn jump_point_search_says_why_it_does_not_apply_and_a_star_runs() {
    let g = grid(&["......", ".##...", "......"]);
    let q = Query::new(Pos::new(0, 0), Pos::new(5, 2));
    let mut pf = Pathfinder::new();
    let cases = [
        (
            SearchOptions {
                neighbourhood: Neighbourhood::Four,
                ..jps(Ties::LowerH)
            },
            Fallback::Neighbourhood,
        ),
        (
            SearchOptions {
                neighbourhood: Neighbourhood::EightCutCorners,
                ..jps(Ties::LowerH)
            },
            Fallback::Neighbourhood,
        ),
        (
            SearchOptions {
                greedy: true,
                ..jps(Ties::LowerH)
            },
            Fallback::Greedy,
        ),
        (
            SearchOptions {
                heuristic: Heuristic::Manhattan,
                ..jps(Ties::LowerH)
            },
            Fallback::Estimate,
        ),
        (
            SearchOptions {
                weight: Weight::from_millis(1500),
                ..jps(Ties::Lifo)
            },
            Fallback::Estimate,
        ),
    ];
    for (o, why) in cases {
        let r = pf.find(&g, q.options(o));
        assert_eq!(r.fallback, Some(why), "{o:?}");
        let a_star = pf.find(
            &g,
            q.options(SearchOptions {
                algorithm: Algorithm::AStar,
                ..o
            }),
        );
        assert_eq!(
            SearchResult {
                fallback: None,
                ..r
            },
            a_star,
            "{o:?}: A* ran instead"
        );
    }
    // Someone in the way: jump points assume only walls block.
    let mut occupied = vec![0; g.len()];
    occupied[3] = 9;
    let r = pf.find(&g, q.options(jps(Ties::LowerH)).occupied(&occupied));
    assert_eq!(r.fallback, Some(Fallback::Occupied));
    assert_eq!(
        SearchResult {
            fallback: None,
            ..r
        },
        pf.find(&g, q.occupied(&occupied))
    );
    // Steps other than 10 and 14, which the jump rules rest on: A* runs, on the grid
    // searched just before by JPS (its map must not answer for this one).
    let steps =
        grid(&["......", ".##3..", "......"]).with_steps(crate::grid::Steps::new(2, 3).unwrap());
    let r = pf.find(&steps, q.options(jps(Ties::LowerH)));
    assert_eq!(r.fallback, Some(Fallback::Steps));
    assert_eq!(
        SearchResult {
            fallback: None,
            ..r
        },
        pf.find(&steps, q)
    );
    // Water in the way is no reason: JPS runs, and finds A*'s cost.
    let wet = grid(&["......", ".##3..", "......"]);
    let r = pf.find(&wet, q.options(jps(Ties::LowerH)));
    assert_eq!((r.fallback, r.cost), (None, pf.find(&wet, q).cost));
    // And where it applies it says nothing, and is JPS: fewer expansions here.
    let r = pf.find(&g, q.options(jps(Ties::LowerH)));
    assert_eq!(r.fallback, None);
    assert!(r.expanded < pf.find(&g, q).expanded);
}

#[test]
fn jump_point_search_hands_cluttered_large_grids_to_a_star() {
    let mut pf = Pathfinder::new();
    // Two far cells of the largest region, so that the search runs.
    let far = |g: &Grid| {
        let regions = Regions::compute(g, Neighbourhood::Eight);
        let big = regions.largest();
        let cells: Vec<Pos> = (0..g.len())
            .filter(|&c| Some(regions.label(c)) == big)
            .map(|c| g.pos(c))
            .collect();
        Query::new(cells[0], cells[cells.len() - 1])
    };
    // Scattered walls over 100x100 cells: straight runs of two or three cells.
    let cluttered = random_grid(100, 100, 30, 7);
    let q = far(&cluttered);
    let r = pf.find(&cluttered, q.options(jps(Ties::LowerH)));
    assert_eq!(r.fallback, Some(Fallback::Cluttered));
    // A* runs in its place, under the faster tie rule whatever the options say: on some goal
    // that finds another path or expands other nodes than lower H would.
    let lifo = SearchOptions {
        ties: Ties::Lifo,
        ..SearchOptions::default()
    };
    let mut differ = 0;
    for goal in (0..cluttered.len()).step_by(97).map(|c| cluttered.pos(c)) {
        let q = Query::new(q.start, goal);
        let r = pf.find(&cluttered, q.options(jps(Ties::LowerH)));
        let by_lifo = pf.find(&cluttered, q.options(lifo));
        assert_eq!(
            SearchResult {
                fallback: None,
                ..r.clone()
            },
            by_lifo,
            "to {goal}"
        );
        differ += usize::from(r.status == Status::Found && pf.find(&cluttered, q) != by_lifo);
    }
    assert!(differ > 0);
    // The same clutter on fewer than 4096 walkable cells: JPS runs.
    let small = random_grid(60, 60, 30, 7);
    let q = far(&small);
    let r = pf.find(&small, q.options(jps(Ties::LowerH)));
    assert_eq!(r.fallback, None);
    assert_eq!(r.cost, pf.find(&small, q).cost);
    // Open ground with a few walls, as large: JPS runs.
    let open = random_grid(100, 100, 3, 7);
    let r = pf.find(&open, far(&open).options(jps(Ties::LowerH)));
    assert_eq!(r.fallback, None);
}

/// Rooms of 7x7 behind walls, each wall between two rooms with one door, as on Moving AI's
/// 8room maps, from a small deterministic generator.
fn rooms_grid(rooms: usize, seed: u64) -> Grid {
    let side = rooms * 8 + 1;
    let mut s = seed | 1;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let mut g = Grid::new(side, side, 1).unwrap();
    for i in 0..side {
        for j in (0..side).step_by(8) {
            g.set(Pos::new(i as i32, j as i32), 0);
            g.set(Pos::new(j as i32, i as i32), 0);
        }
    }
    for a in 0..rooms {
        for b in 1..rooms {
            let along = (a * 8 + 1 + (next() % 7) as usize) as i32;
            g.set(Pos::new((b * 8) as i32, along), 1);
            let along = (a * 8 + 1 + (next() % 7) as usize) as i32;
            g.set(Pos::new(along, (b * 8) as i32), 1);
        }
    }
    g
}

#[test]
fn jump_point_search_remembers_expansions_without_changing_a_result() {
    // One pathfinder answering query after query on one map remembers its expansions; every
    // answer, the goal inside or outside the runs of the expansions it reuses, must be the one
    // a new pathfinder gives (path, cost, expansions), also once the map has changed.
    for (mut g, seed) in [
        (rooms_grid(4, 7), 1u64),
        (rooms_grid(5, 11), 2),
        (random_grid(37, 29, 12, 5), 3),
        (with_pools(rooms_grid(5, 13), 4), 4),
        (with_pools(random_grid(41, 23, 8, 9), 5), 5),
    ] {
        let mut pf = Pathfinder::new();
        let mut next = seed;
        for change in 0..3 {
            let floors: Vec<Pos> = (0..g.len())
                .map(|c| g.pos(c))
                .filter(|&p| g.is_passable(p))
                .collect();
            let queries: Vec<Query<'_>> =
                floors
                    .iter()
                    .enumerate()
                    .step_by(13)
                    .flat_map(|(k, &a)| {
                        floors.iter().skip(k % 3).step_by(19).flat_map(move |&b| {
                            TIES.map(|ties| Query::new(a, b).options(jps(ties)))
                        })
                    })
                    .collect();
            let fresh: Vec<SearchResult> = queries
                .iter()
                .map(|&q| Pathfinder::new().find(&g, q))
                .collect();
            for (q, r) in queries.iter().zip(&fresh) {
                let a_star = pf.find(&g, q.options(SearchOptions::default()));
                assert_eq!((r.cost, r.fallback), (a_star.cost, None), "{q:?}");
            }
            for pass in 0..2 {
                for (&q, want) in queries.iter().zip(&fresh) {
                    let (a, b) = (q.start, q.goal);
                    assert_eq!(
                        &pf.find(&g, q),
                        want,
                        "{a} -> {b}, change {change}, pass {pass}"
                    );
                }
            }
            // Remembered, the table grown from its first 16 slots, successors spilled.
            let (used, slots, spilled) = pf.jps.remembered();
            assert!(
                used > 100 && slots >= 256 && spilled > 0,
                "{used} remembered in {slots} slots, {spilled} spilled"
            );
            // A door shut and a wall opened: the remembered runs no longer hold.
            next = next
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let inner = |p: Pos| {
                p.x > 0 && p.y > 0 && p.x + 1 < g.width() as i32 && p.y + 1 < g.height() as i32
            };
            let walls: Vec<Pos> = (0..g.len())
                .map(|c| g.pos(c))
                .filter(|&p| !g.is_passable(p) && inner(p))
                .collect();
            let wall = walls[(next >> 33) as usize % walls.len()];
            let floor = floors[(next >> 40) as usize % floors.len()];
            g.set(wall, 1);
            g.set(floor, 0);
            // And, on the grids of several costs, a cell of water.
            if !g.is_uniform() {
                g.set(floors[(next >> 48) as usize % floors.len()], 3);
            }
        }
    }
}

/// `g` with pools of water (cost 3) and brush (2), 3x3 cells each, over about a tenth of it.
fn with_pools(mut g: Grid, seed: u64) -> Grid {
    let mut s = seed | 1;
    for _ in 0..g.len() / 90 {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        let at = g.pos((s % g.len() as u64) as usize);
        let cost = 2 + (s >> 40) as u8 % 2;
        for dy in -1..=1 {
            for dx in -1..=1 {
                let p = at.offset(dx, dy);
                if g.is_passable(p) {
                    g.set(p, cost);
                }
            }
        }
    }
    assert!(!g.is_uniform());
    g
}

#[test]
fn jump_point_search_runs_longer_than_its_remembered_runs_hold() {
    // A remembered straight run keeps its length in 15 bits: longer ones are scanned each
    // time rather than wrapped (a run of 39,999 cells read as 7,231).
    let (w, h) = (40_000, 3);
    let g = Grid::new(w, h, 1).unwrap();
    let mut pf = Pathfinder::new();
    for (a, b) in [
        ((0, 1), (39_999, 1)),
        ((39_999, 0), (0, 2)),
        ((5, 0), (39_990, 0)),
    ] {
        let q = Query::new(Pos::new(a.0, a.1), Pos::new(b.0, b.1));
        for _ in 0..2 {
            let r = pf.find(&g, q.options(jps(Ties::LowerH)));
            assert_eq!(r.fallback, None);
            assert_eq!(r.cost, pf.find(&g, q).cost, "{a:?} -> {b:?}");
            assert_eq!(path_cost(&r.path), r.cost);
        }
    }
}

/// A board too large for the ring's 32-bit keys (1500x400: 20 bits of cell, 15 of estimate)
/// searches with 64-bit ones, in exactly the order of a board that fits them: the same rows,
/// walled below on the large one so that both searches see the same cells, expand the same
/// nodes in the same order (reading order is the same at the same width) and find the same
/// paths.
#[test]
fn boards_too_large_for_narrow_keys_search_in_the_same_order() {
    let (w, rows) = (1500, 40);
    let small = random_grid(w, rows, 20, 0x51DE);
    let mut tiles = small.costs().to_vec();
    tiles.resize(w * 400, 0);
    let large = Grid::from_costs(w, 400, tiles).unwrap();

    let mut next = 0x2545_F491u64;
    let mut searched = 0;
    while searched < 12 {
        let mut pick = || {
            next ^= next << 13;
            next ^= next >> 7;
            next ^= next << 17;
            Pos::new(
                (next % w as u64) as i32,
                (next / w as u64 % rows as u64) as i32,
            )
        };
        let (start, goal) = (pick(), pick());
        if !small.is_passable(start) || !small.is_passable(goal) {
            continue;
        }
        let (closed, path) = expansions(&small, start, goal);
        if path.is_empty() {
            continue;
        }
        assert_eq!(
            expansions(&large, start, goal),
            (closed, path),
            "{start:?} to {goal:?}"
        );
        searched += 1;
        if searched == 1 {
            // Which keys each board took: a real search prepares the board.
            let keys_of = |g: &Grid| {
                let mut pf = Pathfinder::new();
                pf.find(g, Query::new(start, goal));
                pf.board.narrow()
            };
            assert_eq!((keys_of(&small), keys_of(&large)), (Some(16), None));
        }
    }
}

/// The cost of the cheapest path from `a` to `b` under `rule`, by a plain Dijkstra over every
/// cell with a binary heap: the reference the tie rules are held to.
fn dijkstra_cost(g: &Grid, a: Pos, b: Pos, rule: Neighbourhood) -> Option<u32> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let mut best = vec![u32::MAX; g.len()];
    let mut heap = BinaryHeap::from([Reverse((0u32, a.y, a.x))]);
    best[g.index(a)?] = 0;
    while let Some(Reverse((cost, y, x))) = heap.pop() {
        let p = Pos::new(x, y);
        if p == b {
            return Some(cost);
        }
        if cost > best[g.index(p)?] {
            continue;
        }
        for dy in -1..=1 {
            for dx in -1..=1 {
                if (dx, dy) == (0, 0) || !g.can_step(p, dx, dy, rule) {
                    continue;
                }
                let n = p.offset(dx, dy);
                let c = cost + if dx != 0 && dy != 0 { 14 } else { 10 };
                let i = g.index(n).expect("can_step stays on the map");
                if c < best[i] {
                    best[i] = c;
                    heap.push(Reverse((c, n.y, n.x)));
                }
            }
        }
    }
    None
}

#[test]
fn fifo_ties_find_the_plain_dijkstra_cost_on_every_rule() {
    // Open ground, scattered walls and near-mazes, a sample of pairs: under FIFO ties every
    // consistent estimate finds exactly Dijkstra's cost with a legal path of that cost, A* and
    // JPS alike; weighted and inadmissible searches still find a legal path, never cheaper.
    let mut pf = Pathfinder::new();
    let mut pairs = 0;
    for (i, walls) in [0, 10, 25, 40].into_iter().enumerate() {
        let g = random_grid(23, 17, walls, 0xF1F0 + i as u64);
        let floors: Vec<Pos> = (0..g.len())
            .map(|c| g.pos(c))
            .filter(|&p| g.is_passable(p))
            .collect();
        for (k, &a) in floors.iter().enumerate().step_by(13) {
            for &b in floors.iter().skip(k % 7).step_by(19) {
                for rule in [
                    Neighbourhood::Eight,
                    Neighbourhood::EightCutCorners,
                    Neighbourhood::Four,
                ] {
                    let want = dijkstra_cost(&g, a, b, rule);
                    for heuristic in [
                        Heuristic::Octile,
                        Heuristic::Manhattan,
                        Heuristic::Chebyshev,
                        Heuristic::Euclidean,
                        Heuristic::Zero,
                    ] {
                        for weight in [1000, 1500] {
                            let o = SearchOptions::default()
                                .with_neighbourhood(rule)
                                .with_heuristic(heuristic)
                                .with_weight(Weight::from_millis(weight))
                                .with_ties(Ties::Fifo);
                            let r = pf.find(&g, Query::new(a, b).options(o));
                            assert_eq!(r.cost.is_some(), want.is_some(), "{a} -> {b} {o:?}");
                            if r.cost.is_some() {
                                assert_eq!(path_cost(&r.path), r.cost, "{a} -> {b} {o:?}");
                            }
                            assert!(r.path.windows(2).all(|w| {
                                g.can_step(w[0], w[1].x - w[0].x, w[1].y - w[0].y, rule)
                            }));
                            // The estimates that never overestimate a step's change.
                            let consistent = match heuristic {
                                Heuristic::Octile | Heuristic::Chebyshev | Heuristic::Zero => true,
                                Heuristic::Manhattan => rule == Neighbourhood::Four,
                                Heuristic::Euclidean => false,
                            };
                            let optimal = weight == 1000 && consistent;
                            if optimal {
                                assert_eq!(r.cost, want, "{a} -> {b} {o:?}");
                            } else {
                                assert!(r.cost >= want, "{a} -> {b} {o:?}");
                            }
                        }
                    }
                    if rule == Neighbourhood::Eight {
                        let r = pf.find(&g, Query::new(a, b).options(jps(Ties::Fifo)));
                        assert_eq!(r.cost, want, "jps {a} -> {b}");
                        if r.cost.is_some() {
                            assert_eq!(path_cost(&r.path), r.cost, "jps {a} -> {b}");
                        }
                    }
                    pairs += 1;
                }
            }
        }
    }
    assert!(pairs > 300, "only {pairs} pairs");
}

#[test]
fn the_three_tie_rules_expand_differently_on_open_ground() {
    // A room without a wall, corner to corner: every rule finds Dijkstra's cost, each by its
    // own order among the many nodes of equal F. Under the game's rule lower H and LIFO both
    // walk straight to the goal while FIFO widens along the front of equal F; under Chebyshev
    // or 4-way moves, whose ties are wider, all three expand a different number of nodes.
    let g = grid(&["................................"; 20]);
    let q = Query::new(Pos::new(2, 3), Pos::new(29, 15));
    let mut pf = Pathfinder::new();
    let mut expanded = |heuristic, neighbourhood| {
        TIES.map(|ties| {
            let o = SearchOptions::default()
                .with_ties(ties)
                .with_heuristic(heuristic)
                .with_neighbourhood(neighbourhood);
            let r = pf.find(&g, q.options(o));
            assert_eq!(r.cost, dijkstra_cost(&g, q.start, q.goal, neighbourhood));
            assert_eq!(path_cost(&r.path), r.cost, "{ties}");
            r.expanded
        })
    };
    assert_eq!(
        expanded(Heuristic::Octile, Neighbourhood::Eight),
        [28, 28, 208]
    );
    for (h, rule) in [
        (Heuristic::Chebyshev, Neighbourhood::Eight),
        (Heuristic::Octile, Neighbourhood::Four),
    ] {
        let [lower_h, lifo, fifo] = expanded(h, rule);
        assert!(
            lower_h < lifo && lifo < fifo,
            "{h} {rule}: lower-h {lower_h}, lifo {lifo}, fifo {fifo}"
        );
    }
    // The same engine searches by lower H again exactly as a fresh one does.
    assert_eq!(pf.find(&g, q), Pathfinder::new().find(&g, q));
}
