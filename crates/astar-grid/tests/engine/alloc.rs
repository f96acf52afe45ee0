//! The engine's promise about memory: once warmed up on a map, a search allocates nothing
//! but the path it returns. Buffers grow to what the map's searches need and keep their
//! capacity: after a few hundred searches on a map, new ones rarely grow a buffer, and no
//! search allocates as such.

use astar_rogue::engine::astar::{Pathfinder, Query, SearchOptions, SearchResult, Status};
use astar_rogue::engine::grid::{Grid, Pos, Tile};

/// Allocations (reallocations included) and bytes requested by `f` on this thread; the
/// counter is per thread, so tests running side by side do not see each other.
fn counted<R>(f: impl FnOnce() -> R) -> (R, u64, u64) {
    let mut out = None;
    let info = allocation_counter::measure(|| out = Some(f()));
    let r = out.expect("measure runs the closure");
    (r, info.count_total, info.bytes_total)
}

/// A 96x64 map of rooms: walls every 8 cells with doors, so searches wind and reopen nodes.
fn rooms() -> Grid {
    let (w, h) = (96usize, 64usize);
    let mut tiles = vec![Tile::Floor; w * h];
    for y in 0..h {
        for x in 0..w {
            let wall_x = x % 8 == 7 && (y % 8 != 3 || (x / 8 + y / 8) % 3 == 0);
            let wall_y = y % 8 == 7 && x % 8 != 5;
            if wall_x || wall_y {
                tiles[y * w + x] = Tile::Wall;
            }
        }
    }
    Grid::from_tiles(w, h, tiles)
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

#[test]
fn search_with_a_reused_path_allocates_nothing_after_warm_up() {
    let g = rooms();
    let warm_up = queries(&g, 300, 1000);
    let qs = queries(&g, 40, 0);
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
            pf.search(&g, Query::new(a, b), out, &mut ());
            found += usize::from(out.status == Status::Found);
            let taken = [Pos::new((a.x + b.x) / 2, (a.y + b.y) / 2), a.offset(1, 1)];
            let cells = taken.map(|p| g.index(p));
            for c in cells.into_iter().flatten() {
                occupied[c] = 1;
            }
            pf.search(&g, Query::new(a, b).occupied(&occupied), out, &mut ());
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
fn find_allocates_only_the_returned_path() {
    let g = rooms();
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

#[test]
fn an_unreachable_goal_is_answered_without_searching_or_allocating() {
    let mut g = rooms();
    // Wall in the top-left room completely.
    for i in 0..8 {
        g.set(Pos::new(7, i), Tile::Wall);
        g.set(Pos::new(i, 7), Tile::Wall);
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

/// A level whose one line is 60 MB: reporting its error keeps a window of the line, not the
/// line, so the parse and the printed report together stay far below the file's size.
#[test]
fn a_sixty_megabyte_line_is_reported_in_bounded_memory() {
    let mut bytes = b"title: long\n".to_vec();
    bytes.resize(bytes.len() + 60_000_000, b'.');
    bytes.extend_from_slice(b"X\n");
    let mut shown = String::new();
    let info = allocation_counter::measure(|| {
        let e = astar_rogue::content::level::Level::parse(&bytes, "long.txt")
            .expect_err("the line is far too long");
        shown = e.to_string();
    });
    assert!(shown.starts_with("long.txt:2:"), "{shown}");
    assert!(
        shown.lines().nth(2).is_some_and(|l| l.ends_with('…')),
        "{shown}"
    );
    assert!(
        info.bytes_max < 1_000_000,
        "reporting took {} bytes at its peak",
        info.bytes_max
    );
}
