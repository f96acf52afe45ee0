//! One game turn with 100 monsters on a 256x256 cave level: every monster plans a full A*
//! path to the player. Ours on one thread against the `pathfinding` crate's `astar` on the
//! same queries with identical costs; ours with tracing on for one monster; ours on all cores
//! (as the game plans); and a whole game turn (plans and moves).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};

use astar_rogue::game::{Act, World};

mod common;

fn cave() -> World {
    World::new(&common::cave_256(), 7)
}

/// The crate on the same queries; returns the costs, one per monster (0 when unreachable).
fn crate_turn(world: &World) -> Vec<u32> {
    let goal = world.player().pos;
    world
        .monsters()
        .iter()
        .map(|m| common::crate_astar(world.grid().cost_grid(), m.pos, goal).unwrap_or(0))
        .collect()
}

fn bench(c: &mut Criterion) {
    let world = cave();
    // Same queries, same costs: check once before timing.
    let mut ours = world.clone();
    ours.replan();
    let our_costs: Vec<u32> = ours
        .monsters()
        .iter()
        .map(|m| m.plan.cost.unwrap_or(0))
        .collect();
    assert_eq!(
        our_costs,
        crate_turn(&world),
        "identical costs, monster by monster"
    );
    println!(
        "turn: {} monsters, {} nodes expanded by our searches",
        ours.monsters().len(),
        ours.stats().astar_expanded
    );

    let mut g = c.benchmark_group("turn_100_monsters_256x256");
    g.sample_size(20);
    let mut w = world.clone();
    g.bench_function("ours_plan_all_1_thread", |b| {
        b.iter(|| black_box(&mut w).replan_on(1))
    });
    let mut traced = world.clone();
    let first = traced.monsters().first().map(|m| m.id);
    traced.set_traced(first);
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
        b.iter_batched_ref(
            || world.clone(),
            |w| w.player_act(Act::Wait),
            criterion::BatchSize::LargeInput,
        )
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
