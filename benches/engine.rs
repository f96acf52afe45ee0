//! Our A* against the `pathfinding` crate's `astar` on the Moving AI maps.
//!
//! For each map, an evenly spaced sample of its scenarios runs through both with the same
//! rules (8-way without corner cutting, 10/14, octile); setup asserts equal costs. Before the
//! criterion runs, each map prints a markdown row (µs/query both ways, speedup, our M
//! expansions/s) from a short timed loop of its own, for the README's table.
//!
//! `MOVINGAI_DIR` overrides where the maps are (default: `../shared/movingai` beside the
//! repository).

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use astar_rogue::content::level::Level;
use astar_rogue::content::scen::{self, Scenario};
use astar_rogue::engine::astar::{Pathfinder, Query, SearchResult, Status};
use astar_rogue::engine::grid::{Grid, Pos};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

mod common;
use common::crate_astar;

/// Scenarios taken from each map.
const SAMPLE: usize = 50;

const MAPS: [&str; 11] = [
    "arena",
    "den312d",
    "lak303d",
    "arena2",
    "brc202d",
    "maze512-1-0",
    "random512-10-0",
    "random512-40-0",
    "8room_000",
    "Aftershock",
    "AR0011SR",
];

fn data_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("MOVINGAI_DIR") {
        return d.into();
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/movingai")
}

fn sample(all: &[Scenario]) -> Vec<(Pos, Pos)> {
    let n = SAMPLE.min(all.len());
    (0..n)
        .map(|i| &all[i * all.len() / n])
        .map(|s| (s.start, s.goal))
        .collect()
}

/// Runs ours over the sample; returns the summed cost (to keep it observable) and expansions.
fn ours(
    pf: &mut Pathfinder,
    grid: &Grid,
    queries: &[(Pos, Pos)],
    out: &mut SearchResult,
) -> (u64, u64) {
    let (mut cost, mut expanded) = (0u64, 0u64);
    for &(a, b) in queries {
        pf.search(grid, Query::new(a, b), out, &mut ());
        cost += u64::from(out.cost.unwrap_or(0));
        expanded += u64::from(out.expanded);
    }
    (cost, expanded)
}

fn theirs(grid: &Grid, queries: &[(Pos, Pos)]) -> u64 {
    queries
        .iter()
        .map(|&(a, b)| u64::from(crate_astar(grid, a, b).unwrap_or(0)))
        .sum()
}

/// Seconds per pass of `f`, over passes adding up to at least `budget`.
fn time_per_pass(budget: Duration, mut f: impl FnMut()) -> f64 {
    let began = Instant::now();
    let mut passes = 0u32;
    while passes == 0 || began.elapsed() < budget {
        f();
        passes += 1;
    }
    began.elapsed().as_secs_f64() / f64::from(passes)
}

fn engine(c: &mut Criterion) {
    let dir = data_dir();
    let mut rows = Vec::new();
    let (mut ours_total, mut theirs_total) = (0.0, 0.0);
    for name in MAPS {
        let scen_path = dir.join(format!("{name}.map.scen"));
        let all = scen::load(&scen_path).expect("scenario file");
        let (level, _) = Level::load(&dir.join(format!("{name}.map"))).expect("map file");
        let grid = level.grid.cost_grid().clone();
        let queries = sample(&all);
        let mut pf = Pathfinder::new();
        let mut path = SearchResult::default();
        for &(a, b) in &queries {
            let r = pf.find(&grid, Query::new(a, b));
            assert_eq!(r.status, Status::Found, "{name}: {a} -> {b}");
            assert_eq!(r.cost, crate_astar(&grid, a, b), "{name}: {a} -> {b}");
        }

        let (_, expanded) = ours(&mut pf, &grid, &queries, &mut path);
        let ours_s = time_per_pass(Duration::from_millis(400), || {
            black_box(ours(&mut pf, &grid, &queries, &mut path));
        });
        let theirs_s = time_per_pass(Duration::from_millis(400), || {
            black_box(theirs(&grid, &queries));
        });
        let n = queries.len() as f64;
        ours_total += ours_s;
        theirs_total += theirs_s;
        rows.push(format!(
            "| {name} | {:.2} | {:.2} | {:.1}x | {:.1} |",
            ours_s * 1e6 / n,
            theirs_s * 1e6 / n,
            theirs_s / ours_s,
            expanded as f64 / ours_s / 1e6
        ));
        eprintln!("{}", rows.last().expect("just pushed"));

        let mut group = c.benchmark_group(name);
        group.throughput(Throughput::Elements(queries.len() as u64));
        group.bench_function("ours", |b| {
            b.iter(|| black_box(ours(&mut pf, &grid, black_box(&queries), &mut path)))
        });
        group.bench_function("pathfinding", |b| {
            b.iter(|| black_box(theirs(&grid, black_box(&queries))))
        });
        group.finish();
    }
    println!("\n| map | ours µs/query | crate µs/query | speedup | our M expansions/s |");
    println!("| --- | ---: | ---: | ---: | ---: |");
    for row in &rows {
        println!("{row}");
    }
    println!(
        "\nOverall ({SAMPLE} queries per map, all maps): {:.1}x faster",
        theirs_total / ours_total
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = engine
}
criterion_main!(benches);
