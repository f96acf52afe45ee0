//! Crowds: one game turn on an open map filled with goblins (4,095, 16,383 and 65,535 of
//! them, every cell but the player's) and on a 1024x1024 cave with 1,000 and 10,000 monsters. The
//! figure that matters is the time per monster: flat as the crowd grows, because who stands
//! where is answered by cell, never by scanning the crowd. Two last rows play the cave with 500
//! monsters planning by one shared Dijkstra map (`P`), one search for all, and with each
//! monster running its own Jump Point Search (`--planning jps`): optimal paths every turn
//! for a fraction of A*'s nodes.
//!
//! Prints a markdown row per crowd (turn time, time per monster) before the criterion runs,
//! which leave out the 10,000-monster cave (a minute per turn; the row times one turn).

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};

use astar_rogue::content::generate::{Density, GenKind, GenParams, generate};
use astar_rogue::content::level::{Level, Spawn};
use astar_rogue::content::map::{Tile, TileMap};
use astar_rogue::engine::grid::Pos;
use astar_rogue::game::{Act, Planning, World};

/// An open `side`x`side` map with the player in the middle and a goblin on every other cell.
fn full(side: usize) -> Level {
    let player = Pos::new(side as i32 / 2, side as i32 / 2);
    let monsters = (0..side * side)
        .map(|i| Pos::new((i % side) as i32, (i / side) as i32))
        .filter(|&p| p != player)
        .map(|pos| Spawn { pos, kind: 'g' })
        .collect();
    Level {
        title: None,
        grid: TileMap::new(side, side, Tile::Floor),
        player: Some(player),
        monsters,
        features: Vec::new(),
        notes: Vec::new(),
    }
}

/// The 1024x1024 cave (seed 5) with `monsters` monsters, on plain floor: the generator's
/// default water and brush would make every search weighted A* (JPS hands such grids over),
/// another workload than these rows measure, and than the tables before terrain did.
fn big_cave(monsters: usize) -> Level {
    let params = GenParams {
        terrain: Some(Density::from_permille(0)),
        ..GenParams::new(GenKind::Caves, 1024, 1024, 5).with_monsters(monsters)
    };
    generate(&params).expect("the cave generates")
}

fn bench(c: &mut Criterion) {
    let crowds: Vec<(String, World)> = vec![
        ("full 64x64".into(), World::new(&full(64), 1)),
        ("full 128x128".into(), World::new(&full(128), 1)),
        ("full 256x256".into(), World::new(&full(256), 1)),
        ("cave 1024x1024 1k".into(), World::new(&big_cave(1_000), 1)),
        (
            "cave 1024x1024 10k".into(),
            World::new(&big_cave(10_000), 1),
        ),
        ("cave 1024x1024 500, map".into(), {
            let mut w = World::new(&big_cave(500), 1);
            w.set_planning(Planning::Map);
            w
        }),
        ("cave 1024x1024 500, jps".into(), {
            let mut w = World::new(&big_cave(500), 1);
            w.set_planning(Planning::Jps);
            // Plans once by JPS, as every turn after the first finds it: the map copied into
            // each core's engine and its runs remembered (the timed turns start from clones).
            w.replan();
            w
        }),
    ];
    println!("| crowd | monsters | one turn | per monster |");
    println!("| --- | ---: | ---: | ---: |");
    for (name, world) in &crowds {
        // A short timed loop of its own for the README's table: three turns, best kept, or
        // one when a turn takes seconds.
        let turn = || {
            let mut w = world.clone();
            let began = Instant::now();
            w.player_act(Act::Wait);
            began.elapsed()
        };
        let first = turn();
        let best = if first.as_secs() >= 5 {
            first
        } else {
            (0..2).map(|_| turn()).fold(first, Duration::min)
        };
        let n = world.monsters().len();
        println!(
            "| {name} | {n} | {:.1} ms | {:.2} µs |",
            best.as_secs_f64() * 1e3,
            best.as_secs_f64() * 1e6 / n as f64
        );
    }
    let mut g = c.benchmark_group("crowd_turn");
    g.sample_size(10);
    // The 10,000-monster cave takes about a minute a turn: the table above times it once.
    for (name, world) in crowds.iter().filter(|(name, _)| !name.ends_with("10k")) {
        g.bench_function(name.as_str(), |b| {
            b.iter_batched_ref(
                || world.clone(),
                |w| black_box(w.player_act(Act::Wait)),
                BatchSize::LargeInput,
            )
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
