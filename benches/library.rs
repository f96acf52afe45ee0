//! The engine as a Rust game developer meets it: a 200x200 map of their own terrain codes
//! (road 1, grass 2, swamp 5, wall), searched through `astar_grid` with those costs and
//! through the `pathfinding` crate's `astar` with the same costs and the same estimate.
//!
//! - `long`: one long query corner to corner, ours against theirs (setup asserts equal costs);
//! - `pairs`: 500 random pairs, ours against theirs;
//! - `warm` against `changed`: a short query on a warm pathfinder, and the same query right
//!   after one cell of the map changed (a door toggled near the route), which the pathfinder
//!   patches instead of copying the grid again. The target: `changed` within 2x of `warm`.
//!
//! Prints a markdown table (µs a query, best of a few timed loops) before the criterion runs:
//! `cargo bench --bench library`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};

use astar_rogue::engine::astar::{Pathfinder, Query, SearchResult, Status};
use astar_rogue::engine::grid::{Grid, Pos};

mod common;
use common::crate_astar;

const SIDE: usize = 200;

/// The developer's own map: terrain codes 0 road, 1 grass, 2 swamp, 3 wall, from a small
/// deterministic generator (bands of swamp, scattered walls with gaps, a road grid), and
/// what each code costs.
fn terrain() -> Vec<u8> {
    let mut s = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    (0..SIDE * SIDE)
        .map(|i| {
            let (x, y) = (i % SIDE, i / SIDE);
            let r = next() % 100;
            if x % 25 == 0 || y % 25 == 0 {
                0
            } else if r < 12 {
                3
            } else if (x / 10 + y / 15) % 4 == 0 {
                2
            } else {
                1
            }
        })
        .collect()
}

const COST: [u8; 4] = [1, 2, 5, 0];

fn grid() -> Grid {
    let costs = terrain().iter().map(|&t| COST[usize::from(t)]).collect();
    Grid::from_costs(SIDE, SIDE, costs).expect("200x200 costs")
}

/// Enterable cells by a fixed stride, as query endpoints.
fn pairs(g: &Grid, n: usize) -> Vec<(Pos, Pos)> {
    let open: Vec<Pos> = (0..g.len())
        .map(|i| g.pos(i))
        .filter(|&p| g.is_passable(p))
        .collect();
    (0..n)
        .map(|i| {
            (
                open[(i * 7919) % open.len()],
                open[(i * 104_729 + 17) % open.len()],
            )
        })
        .collect()
}

/// Microseconds per call of `f`, the best of five loops of about 100 ms each.
fn best_us(mut f: impl FnMut()) -> f64 {
    (0..5)
        .map(|_| {
            let began = Instant::now();
            let mut n = 0u32;
            while n == 0 || began.elapsed() < Duration::from_millis(100) {
                f();
                n += 1;
            }
            began.elapsed().as_secs_f64() * 1e6 / f64::from(n)
        })
        .fold(f64::INFINITY, f64::min)
}

fn bench(c: &mut Criterion) {
    let mut g = grid();
    let corner_a = (0..SIDE as i32)
        .map(|i| Pos::new(i, i))
        .find(|&p| g.is_passable(p))
        .expect("an open cell near the top-left");
    let corner_b = (0..SIDE as i32)
        .map(|i| Pos::new(SIDE as i32 - 1 - i, SIDE as i32 - 1 - i))
        .find(|&p| g.is_passable(p))
        .expect("an open cell near the bottom-right");
    let mut pf = Pathfinder::new();
    let mut out = SearchResult::default();
    let long = Query::new(corner_a, corner_b);
    pf.search(&g, long, &mut out, &mut ());
    assert_eq!(out.status, Status::Found);
    assert_eq!(out.cost, crate_astar(&g, corner_a, corner_b), "long query");
    let long_expanded = out.expanded;
    let queries = pairs(&g, 500);
    for &(a, b) in &queries {
        pf.search(&g, Query::new(a, b), &mut out, &mut ());
        assert_eq!(out.cost, crate_astar(&g, a, b), "{a} -> {b}");
    }

    // A short query across a road crossing, and a cell beside its route that opens and
    // closes (a door), so every `changed` query sees a new revision with one cell changed.
    let short = Query::new(Pos::new(20, 20), Pos::new(30, 30));
    let door = Pos::new(26, 23);
    let door_cost = g.cost(door);
    let toggle = |g: &mut Grid| {
        let c = if g.cost(door) == 0 {
            door_cost.max(1)
        } else {
            0
        };
        g.set(door, c);
    };

    let ours_long = best_us(|| {
        pf.search(&g, long, &mut out, &mut ());
        black_box(out.cost);
    });
    let theirs_long = best_us(|| {
        black_box(crate_astar(&g, corner_a, corner_b));
    });
    let ours_pairs = best_us(|| {
        for &(a, b) in &queries {
            pf.search(&g, Query::new(a, b), &mut out, &mut ());
            black_box(out.cost);
        }
    }) / queries.len() as f64;
    let theirs_pairs = best_us(|| {
        for &(a, b) in &queries {
            black_box(crate_astar(&g, a, b));
        }
    }) / queries.len() as f64;
    let warm = best_us(|| {
        pf.search(&g, short, &mut out, &mut ());
        black_box(out.cost);
    });
    let changed = best_us(|| {
        toggle(&mut g);
        pf.search(&g, short, &mut out, &mut ());
        black_box(out.cost);
    });
    // The toggle alone, so that the change's own cost can be told from the search's.
    let toggle_only = best_us(|| {
        toggle(&mut g);
        black_box(g.revision());
    });
    println!("\n| query | ours µs | pathfinding µs | ratio |");
    println!("| --- | ---: | ---: | ---: |");
    println!(
        "| long ({long_expanded} expanded) | {ours_long:.1} | {theirs_long:.1} | {:.2}x |",
        theirs_long / ours_long
    );
    println!(
        "| 500 pairs, each | {ours_pairs:.1} | {theirs_pairs:.1} | {:.2}x |",
        theirs_pairs / ours_pairs
    );
    println!("\n| short query | µs |");
    println!("| --- | ---: |");
    println!("| warm | {warm:.2} |");
    println!(
        "| after a one-cell change | {changed:.2} ({:.2}x warm; the change itself {toggle_only:.2}) |",
        changed / warm
    );

    let mut group = c.benchmark_group("library");
    group.bench_function("long ours", |b| {
        b.iter(|| pf.search(&g, black_box(long), &mut out, &mut ()))
    });
    group.bench_function("long pathfinding", |b| {
        b.iter(|| crate_astar(&g, black_box(corner_a), black_box(corner_b)))
    });
    group.bench_function("short warm", |b| {
        b.iter(|| pf.search(&g, black_box(short), &mut out, &mut ()))
    });
    group.bench_function("short after a one-cell change", |b| {
        b.iter(|| {
            toggle(&mut g);
            pf.search(&g, black_box(short), &mut out, &mut ())
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(Duration::from_secs(2));
    targets = bench
}
criterion_main!(benches);
