//! One game turn with 100 monsters on a 256x256 cave level: every monster plans a full A*
//! path to the player. Ours on one thread against the `pathfinding` crate's `astar` on the
//! same queries with identical costs; ours with tracing on for one monster; ours on all cores
//! (as the game plans); and a whole game turn (plans and moves).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};

use astar_rogue::astar::Status;
use astar_rogue::game::{Act, World};
use astar_rogue::generate::{GenKind, GenParams, generate};
use astar_rogue::grid::{DIAGONAL, DIRECTIONS, Grid, Pos, STRAIGHT};

fn cave() -> World {
    let level = generate(&GenParams {
        kind: GenKind::Caves,
        width: 256,
        height: 256,
        seed: 7,
        monsters: 100,
    })
    .expect("the cave generates");
    World::new(&level, 7)
}

/// The game's movement rule for the crate: 8-way, no corner cutting, 10/14.
fn successors(grid: &Grid, p: Pos) -> Vec<(Pos, u32)> {
    let free = |q: Pos| grid.is_passable(q);
    DIRECTIONS
        .iter()
        .filter_map(|&(dx, dy)| {
            let q = p.offset(dx, dy);
            let diagonal = dx != 0 && dy != 0;
            let ok = free(q) && (!diagonal || free(p.offset(dx, 0)) && free(p.offset(0, dy)));
            ok.then_some((q, if diagonal { DIAGONAL } else { STRAIGHT }))
        })
        .collect()
}

fn octile(a: Pos, b: Pos) -> u32 {
    let (dx, dy) = (a.x.abs_diff(b.x), a.y.abs_diff(b.y));
    DIAGONAL * dx.min(dy) + STRAIGHT * (dx.max(dy) - dx.min(dy))
}

fn crate_turn(world: &World) -> u64 {
    let goal = world.player.pos;
    let mut total = 0u64;
    for m in &world.monsters {
        let found = pathfinding::directed::astar::astar(
            &m.pos,
            |&p| successors(&world.grid, p),
            |&p| octile(p, goal),
            |&p| p == goal,
        );
        total += u64::from(found.map_or(0, |(_, c)| c));
    }
    total
}

fn bench(c: &mut Criterion) {
    let world = cave();
    // Same queries, same costs: check once before timing.
    let mut ours = world.clone();
    ours.replan();
    let our_total: u64 = ours
        .monsters
        .iter()
        .filter(|m| m.plan.status == Some(Status::Found))
        .map(|m| u64::from(m.plan.cost.unwrap_or(0)))
        .sum();
    assert_eq!(our_total, crate_turn(&world), "identical costs");
    println!(
        "turn: {} monsters, {} nodes expanded by our searches",
        ours.monsters.len(),
        ours.stats.astar_expanded
    );

    let mut g = c.benchmark_group("turn_100_monsters_256x256");
    g.sample_size(20);
    let mut w = world.clone();
    g.bench_function("ours_plan_all_1_thread", |b| {
        b.iter(|| black_box(&mut w).replan_on(1))
    });
    let mut traced = world.clone();
    traced.traced = traced.monsters.first().map(|m| m.id);
    g.bench_function("ours_plan_all_1_thread_one_traced", |b| {
        b.iter(|| black_box(&mut traced).replan_on(1))
    });
    g.bench_function("ours_plan_all_all_cores", |b| {
        b.iter(|| black_box(&mut w).replan())
    });
    g.bench_function("pathfinding_crate_plan_all", |b| {
        b.iter(|| crate_turn(black_box(&world)))
    });
    g.bench_function("ours_full_turn", |b| {
        b.iter_batched(
            || world.clone(),
            |mut w| w.player_act(Act::Wait),
            criterion::BatchSize::LargeInput,
        )
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
