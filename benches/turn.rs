//! One game turn with 100 monsters on a 256x256 cave level: every monster plans a full A*
//! path to the player. Ours on one thread against the `pathfinding` crate's `astar` on the
//! same queries with identical costs; ours with tracing on for one monster; ours on all cores
//! (as the game plans); and a whole game turn (plans and moves).
//!
//! Then the turn at scale (issue 45): the default 1024x1024 cave of `astar-rogue generate
//! --size 1024x1024 --seed S` (terrain on, every kind) for seed 3 and held-out seeds 11 and
//! 29: a whole turn (the player waits) with its 40 monsters under the default planning, a
//! whole turn with 500 monsters (`--monsters 500`) under Jump Point Search planning, and each
//! `P` switch with the 40 (a change of planning, which replans everyone). A waiting turn may
//! find the player where the last plans left them; so a turn in which the player steps is
//! timed too. And the game's share of a level's first frame: `World::new` on the generated
//! level (its grids of costs, every monster's first plan, the player's sight).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};

use astar_rogue::game::{Act, World};

mod common;

/// The cave with every monster a goblin: a goblin searches as the player's plain A* does,
/// so the `pathfinding` crate runs exactly the same queries on exactly the same costs (the
/// kinds with searches of their own are timed in `turn_1024x1024_cave`).
fn cave() -> World {
    let mut level = common::cave_256();
    for m in &mut level.monsters {
        m.kind = 'g';
    }
    World::new(&level, 7)
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

/// The level `astar-rogue generate --size 1024x1024 --seed SEED [--monsters N]` writes.
fn big_cave(seed: u64, monsters: Option<usize>) -> astar_rogue::content::level::Level {
    use astar_rogue::content::generate::{self, GenKind, GenParams};
    generate::generate(&GenParams {
        kind: GenKind::Caves,
        width: 1024,
        height: 1024,
        seed,
        monsters: monsters.unwrap_or_else(|| generate::default_monsters(1024, 1024)),
        density: None,
        terrain: None,
        depth: generate::DEEPEST,
    })
    .expect("the cave generates")
}

fn at_scale(c: &mut Criterion) {
    use astar_rogue::game::Planning;
    let mut g = c.benchmark_group("turn_1024x1024_cave");
    g.sample_size(10);
    for seed in [3, 11, 29] {
        let default = World::new(&big_cave(seed, None), 1);
        let mut crowd = World::new(&big_cave(seed, Some(500)), 1);
        crowd.set_planning(Planning::Jps);
        let level = big_cave(seed, None);
        g.bench_function(format!("seed_{seed}_40_first_plans"), |b| {
            b.iter(|| World::new(black_box(&level), 1))
        });
        // The first step, in reading order of the king moves, that the player may take.
        let step = [
            (-1, -1),
            (0, -1),
            (1, -1),
            (-1, 0),
            (1, 0),
            (-1, 1),
            (0, 1),
            (1, 1),
        ]
        .into_iter()
        .find(|&(dx, dy)| {
            let to = default.player().pos.offset(dx, dy);
            default.grid().is_passable(to) && default.monsters().iter().all(|m| m.pos != to)
        })
        .expect("the player has room to step");
        g.bench_function(format!("seed_{seed}_40_default_step"), |b| {
            b.iter_batched_ref(
                || default.clone(),
                |w| w.player_act(Act::Move(step.0, step.1)),
                criterion::BatchSize::PerIteration,
            )
        });
        for (name, world) in [("40_default", &default), ("500_jps", &crowd)] {
            let mut by_kind: Vec<(char, usize, u64)> = Vec::new();
            for m in world.monsters() {
                match by_kind.iter_mut().find(|k| k.0 == m.kind) {
                    Some(k) => (k.1, k.2) = (k.1 + 1, k.2 + u64::from(m.plan.expanded)),
                    None => by_kind.push((m.kind, 1, u64::from(m.plan.expanded))),
                }
            }
            println!(
                "seed {seed}, {name}: {} monsters, {} nodes a plan of everyone; \
                 (kind, monsters, nodes): {by_kind:?}",
                world.monsters().len(),
                world.stats().astar_expanded
            );
            g.bench_function(format!("seed_{seed}_{name}_turn"), |b| {
                b.iter_batched_ref(
                    || world.clone(),
                    |w| w.player_act(Act::Wait),
                    criterion::BatchSize::PerIteration,
                )
            });
        }
        // Each press of P from each mode: to capped, to map, to JPS and back to A*.
        let mut from = default.clone();
        for _ in Planning::ALL {
            let name = format!("seed_{seed}_40_p_switch_from_{}", from.planning());
            g.bench_function(name.replace(':', "_"), |b| {
                b.iter_batched_ref(
                    || from.clone(),
                    |w| w.set_planning(w.planning().next()),
                    criterion::BatchSize::PerIteration,
                )
            });
            from.set_planning(from.planning().next());
        }
    }
    g.finish();
}

criterion_group!(benches, at_scale, bench);
criterion_main!(benches);
