//! The engine's promise about memory: once warmed up on a map, a search allocates nothing
//! but the path it returns, on a uniform grid and on a grid of costs alike, and right after
//! a cell of the map changed. Buffers grow to what the map's searches need and keep their
//! capacity: after a few hundred searches on a map, new ones rarely grow a buffer, and no
//! search allocates as such.

use astar_grid::astar::{Pathfinder, Query, SearchOptions, SearchResult, Status, Ties};
use astar_grid::grid::{Grid, Neighbourhood, Pos};

/// Allocations (reallocations included) and bytes requested by `f` on this thread; the
/// counter is per thread, so tests running side by side do not see each other.
fn counted<R>(f: impl FnOnce() -> R) -> (R, u64, u64) {
    let mut out = None;
    let info = allocation_counter::measure(|| out = Some(f()));
    let r = out.expect("measure runs the closure");
    (r, info.count_total, info.bytes_total)
}

/// Whether `(x, y)` is a wall of the rooms map: walls every 8 cells with doors, so searches
/// wind and reopen nodes.
fn wall(x: usize, y: usize) -> bool {
    let wall_x = x % 8 == 7 && (y % 8 != 3 || (x / 8 + y / 8).is_multiple_of(3));
    let wall_y = y % 8 == 7 && x % 8 != 5;
    wall_x || wall_y
}

/// A 96x64 map of rooms, every floor cell of cost 1: the uniform fast path.
fn rooms() -> Grid {
    let (w, h) = (96usize, 64usize);
    let costs = (0..w * h).map(|i| u8::from(!wall(i % w, i / w))).collect();
    let g = Grid::from_costs(w, h, costs).expect("fits");
    assert!(g.is_uniform());
    g
}

/// The same rooms with floors of costs from 1 to 9 in patches: the general loop.
fn costly_rooms() -> Grid {
    let (w, h) = (96usize, 64usize);
    let costs = (0..w * h)
        .map(|i| {
            let (x, y) = (i % w, i / w);
            if wall(x, y) {
                0
            } else {
                1 + ((x / 3 * 7 + y / 2 * 5) % 9) as u8
            }
        })
        .collect();
    let g = Grid::from_costs(w, h, costs).expect("fits");
    assert!(!g.is_uniform());
    g
}

/// `n` queries between open cells; different `salt`s give different queries.
fn queries(g: &Grid, n: usize, salt: usize) -> Vec<(Pos, Pos)> {
    let open: Vec<Pos> = (0..g.len())
        .map(|i| g.pos(i))
        .filter(|&p| g.is_passable(p))
        .collect();
    (salt..salt + n)
        .map(|i| {
            (
                open[(i * 7919) % open.len()],
                open[(i * 104_729 + 17) % open.len()],
            )
        })
        .collect()
}

fn search_with_a_reused_path_allocates_nothing_after_warm_up(g: &Grid) {
    let warm_up = queries(g, 300, 1000);
    let qs = queries(g, 40, 0);
    assert!(
        qs.iter().all(|q| !warm_up.contains(q)),
        "measured queries are new ones"
    );
    let mut pf = Pathfinder::new();
    let mut path = SearchResult::default();
    // Someone stands halfway and someone beside the start: the occupancy is the caller's,
    // allocated once; marking and clearing it costs the engine nothing.
    let mut occupied = vec![0u32; g.len()];
    let mut run_all = |pf: &mut Pathfinder, out: &mut SearchResult, qs: &[(Pos, Pos)]| {
        let mut found = 0;
        for &(a, b) in qs {
            pf.search(g, Query::new(a, b), out, &mut ());
            found += usize::from(out.status == Status::Found);
            let taken = [Pos::new((a.x + b.x) / 2, (a.y + b.y) / 2), a.offset(1, 1)];
            let cells = taken.map(|p| g.index(p));
            for c in cells.into_iter().flatten() {
                occupied[c] = 1;
            }
            pf.search(g, Query::new(a, b).occupied(&occupied), out, &mut ());
            found += usize::from(out.status == Status::Found);
            for c in cells.into_iter().flatten() {
                occupied[c] = 0;
            }
        }
        found
    };
    let warm = run_all(&mut pf, &mut path, &warm_up);
    assert!(
        warm > 300,
        "the queries should mostly find paths, found {warm}"
    );
    // New queries may still grow a buffer once or twice (capacity is kept), but no search
    // allocates as such: 80 searches, a handful of growths at most...
    let (found, allocations, _) = counted(|| run_all(&mut pf, &mut path, &qs));
    assert!(
        found > 40,
        "the measured queries should mostly find paths, found {found}"
    );
    assert!(
        allocations <= 4,
        "{allocations} allocations in 80 new searches"
    );
    // ...and none at all once they have been seen.
    let (again, allocations, bytes) = counted(|| run_all(&mut pf, &mut path, &qs));
    assert_eq!(again, found);
    assert_eq!((allocations, bytes), (0, 0));
}

#[test]
fn search_with_a_reused_path_allocates_nothing_after_warm_up_on_a_uniform_grid() {
    search_with_a_reused_path_allocates_nothing_after_warm_up(&rooms());
}

#[test]
fn search_with_a_reused_path_allocates_nothing_after_warm_up_on_a_grid_of_costs() {
    search_with_a_reused_path_allocates_nothing_after_warm_up(&costly_rooms());
}

#[test]
fn find_allocates_only_the_returned_path() {
    for g in [rooms(), costly_rooms()] {
        let qs = queries(&g, 40, 0);
        let opts = SearchOptions::default();
        let mut pf = Pathfinder::new();
        for &(a, b) in &qs {
            pf.find(&g, Query::new(a, b).options(opts));
        }
        let mut checked = 0;
        for &(a, b) in &qs {
            let (r, allocations, bytes) = counted(|| pf.find(&g, Query::new(a, b).options(opts)));
            if r.status == Status::Found && a != b {
                assert_eq!(allocations, 1, "{a} -> {b}");
                assert_eq!(bytes as usize, r.path.capacity() * size_of::<Pos>());
                assert_eq!(r.path.capacity(), r.path.len());
                checked += 1;
            } else {
                assert_eq!(allocations, u64::from(!r.path.is_empty()));
            }
        }
        assert!(checked > 20);
    }
}

/// A search right after one cell changed (a door opens or closes, a cell grows dearer or
/// cheaper) patches the engine's copies of the map and allocates nothing but its path: on
/// a uniform grid (opening and closing cells only, so that it stays uniform) and on a grid
/// of costs, under A* with either tie rule and either connectivity.
///
/// (It failed by one allocation a search while the region labels collected the changed
/// cells into a new `Vec` before patching them.)
#[test]
fn a_search_right_after_a_one_cell_change_allocates_only_its_path() {
    for (mut g, costly) in [(rooms(), false), (costly_rooms(), true)] {
        let qs = queries(&g, 60, 0);
        let options: Vec<SearchOptions> = [Neighbourhood::Eight, Neighbourhood::EightCutCorners]
            .into_iter()
            .flat_map(|nb| {
                [Ties::LowerH, Ties::Lifo].map(|ties| {
                    SearchOptions::default()
                        .with_neighbourhood(nb)
                        .with_ties(ties)
                })
            })
            .collect();
        // Room interiors away from every endpoint, so that no change cuts the map apart or
        // blocks an endpoint: the search answers as it would before the change.
        let cells: Vec<Pos> = (0..g.len())
            .map(|i| g.pos(i))
            .filter(|p| {
                (1..=5).contains(&(p.x % 8))
                    && (1..=5).contains(&(p.y % 8))
                    && qs
                        .iter()
                        .all(|&(a, b)| a.chebyshev(*p) > 1 && b.chebyshev(*p) > 1)
            })
            .collect();
        assert!(cells.len() > 100);
        // Each change: a cell closes, opens again, and (on the grid of costs) costs more,
        // then what it cost before.
        let change = |g: &mut Grid, k: usize| {
            let p = cells[(k / 4 * 37) % cells.len()];
            let to = match k % 4 {
                0 => 0,
                1 => 1,
                2 if costly => 9,
                2 => 0,
                _ => 1,
            };
            g.set(p, to);
        };
        let mut pf = Pathfinder::new();
        for (k, &(a, b)) in qs.iter().enumerate().cycle().take(4 * qs.len()) {
            change(&mut g, k);
            for &o in &options {
                pf.find(&g, Query::new(a, b).options(o));
            }
        }
        let mut checked = 0;
        for (k, &(a, b)) in qs.iter().enumerate() {
            change(&mut g, k);
            for &o in &options {
                let (r, allocations, bytes) = counted(|| pf.find(&g, Query::new(a, b).options(o)));
                assert_eq!(r.status, Status::Found, "{a} -> {b} {o:?}");
                assert_eq!(
                    (allocations, bytes as usize),
                    (u64::from(a != b), r.path.capacity() * size_of::<Pos>()),
                    "{a} -> {b} {o:?} after change {k}, costly {costly}"
                );
                checked += 1;
            }
        }
        assert!(checked >= 200);
    }
}

#[test]
fn an_unreachable_goal_is_answered_without_searching_or_allocating() {
    for mut g in [rooms(), costly_rooms()] {
        // Wall in the top-left room completely.
        for i in 0..8 {
            g.set(Pos::new(7, i), 0);
            g.set(Pos::new(i, 7), 0);
        }
        let mut pf = Pathfinder::new();
        let mut out = SearchResult::default();
        let (inside, outside) = (Pos::new(2, 2), Pos::new(50, 40));
        pf.search(&g, Query::new(outside, Pos::new(60, 20)), &mut out, &mut ());
        let ((), allocations, _) =
            counted(|| pf.search(&g, Query::new(inside, outside), &mut out, &mut ()));
        assert_eq!(
            (out.status, out.expanded, out.cost),
            (Status::Unreachable, 0, None)
        );
        assert_eq!(allocations, 0);
        assert!(out.path.is_empty());
    }
}
