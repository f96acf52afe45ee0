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
//! Prints markdown tables (µs a query: min, median and max of interleaved timed loops, and the
//! ratios within each round) before the criterion runs: `cargo bench --bench library`.

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

/// Loops of about 100 ms timed for each thing measured, in rounds.
const ROUNDS: usize = 7;

/// Microseconds per call, one figure a round.
struct Spread(Vec<f64>);

impl Spread {
    fn sorted(&self) -> Vec<f64> {
        let mut v = self.0.clone();
        v.sort_by(f64::total_cmp);
        v
    }

    fn median(&self) -> f64 {
        let v = self.sorted();
        v[v.len() / 2]
    }

    /// `min / median / max`, with `digits` after the point.
    fn show(&self, digits: usize) -> String {
        let v = self.sorted();
        let (lo, hi) = (v[0], v[v.len() - 1]);
        format!("{lo:.digits$} / {:.digits$} / {hi:.digits$}", self.median())
    }

    /// The rounds' ratios `other / self`: each round's loops ran one after the other, so a
    /// ratio compares them under the same load.
    fn ratio(&self, other: &Spread) -> Spread {
        Spread(self.0.iter().zip(&other.0).map(|(a, b)| b / a).collect())
    }
}

/// Times `f(0)`, `f(1)`, ... `f(k - 1)` interleaved (0 1 ... k-1, 0 1 ... k-1, ...) over
/// [`ROUNDS`] rounds, in loops of about 100 ms each, and gives each its microseconds per call,
/// `per` calls counting as one (500 pairs as one query each).
fn interleaved(k: usize, per: f64, mut f: impl FnMut(usize)) -> Vec<Spread> {
    let mut out: Vec<Spread> = (0..k).map(|_| Spread(Vec::new())).collect();
    for _ in 0..ROUNDS {
        for (i, spread) in out.iter_mut().enumerate() {
            let began = Instant::now();
            let mut n = 0u32;
            while n == 0 || began.elapsed() < Duration::from_millis(100) {
                f(i);
                n += 1;
            }
            spread
                .0
                .push(began.elapsed().as_secs_f64() * 1e6 / f64::from(n) / per);
        }
    }
    out
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

    let long_pair = interleaved(2, 1.0, |i| {
        if i == 0 {
            pf.search(&g, long, &mut out, &mut ());
            black_box(out.cost);
        } else {
            black_box(crate_astar(&g, corner_a, corner_b));
        }
    });
    let pairs_pair = interleaved(2, queries.len() as f64, |i| {
        for &(a, b) in &queries {
            if i == 0 {
                pf.search(&g, Query::new(a, b), &mut out, &mut ());
                black_box(out.cost);
            } else {
                black_box(crate_astar(&g, a, b));
            }
        }
    });
    // The toggle alone too, so that the change's own cost can be told from the search's.
    let short_three = interleaved(3, 1.0, |i| match i {
        0 => {
            pf.search(&g, short, &mut out, &mut ());
            black_box(out.cost);
        }
        1 => {
            toggle(&mut g);
            pf.search(&g, short, &mut out, &mut ());
            black_box(out.cost);
        }
        _ => {
            toggle(&mut g);
            black_box(g.revision());
        }
    });
    println!(
        "\nµs a query, min / median / max of {ROUNDS} interleaved loops of ~100 ms; ratio: the \
         median of the rounds' ratios"
    );
    println!("\n| query | astar-grid µs | pathfinding µs | pathfinding / astar-grid |");
    println!("| --- | ---: | ---: | ---: |");
    for (name, spreads) in [
        (format!("long ({long_expanded} expanded)"), &long_pair),
        (format!("{} pairs, each", queries.len()), &pairs_pair),
    ] {
        let (ours, theirs) = (&spreads[0], &spreads[1]);
        println!(
            "| {name} | {} | {} | {:.2}x |",
            ours.show(1),
            theirs.show(1),
            ours.ratio(theirs).median()
        );
    }
    let (warm, changed, toggled) = (&short_three[0], &short_three[1], &short_three[2]);
    println!("\n| short query | µs | / warm |");
    println!("| --- | ---: | ---: |");
    println!("| warm | {} | 1 |", warm.show(2));
    println!(
        "| after a one-cell change | {} | {:.2}x |",
        changed.show(2),
        warm.ratio(changed).median()
    );
    println!("| the change alone | {} | |", toggled.show(2));

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
