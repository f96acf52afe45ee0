//! What the benches share: the 256x256 cave of the turn and frame benches, and the
//! `pathfinding` crate's A* under the game's rule, so every comparison uses the same one.

// Each bench uses part of this module.
#![allow(dead_code)]

use astar_rogue::content::generate::{GenKind, GenParams, generate};
use astar_rogue::content::level::Level;
use astar_rogue::engine::astar::Heuristic;
use astar_rogue::engine::grid::{DIRECTIONS, Grid, Neighbourhood, Pos};

/// The 256x256 cave with 100 monsters (seed 7).
pub fn cave_256() -> Level {
    generate(&GenParams {
        kind: GenKind::Caves,
        width: 256,
        height: 256,
        seed: 7,
        monsters: 100,
        density: None,
        // The cave the benchmarks have always run on: unweighted, no water or brush.
        terrain: Some(astar_rogue::content::generate::Density::from_permille(0)),
        depth: astar_rogue::content::generate::DEEPEST,
    })
    .expect("the cave generates")
}

/// The crate's `astar` with the game's moves (8-way, no corner cutting) and the grid's costs
/// (its steps times the cost of the cell entered), under the octile heuristic times the
/// grid's lowest cost, as ours. Successors are a lazy iterator, so the crate pays no
/// allocation per expansion that ours would not.
pub fn crate_astar(grid: &Grid, start: Pos, goal: Pos) -> Option<u32> {
    let steps = grid.steps();
    let successors = |&p: &Pos| {
        DIRECTIONS
            .iter()
            .filter(move |&&(dx, dy)| grid.can_step(p, dx, dy, Neighbourhood::Eight))
            .map(move |&(dx, dy)| {
                let to = p.offset(dx, dy);
                let base = steps.of(dx, dy).unwrap_or(0);
                (to, base * u32::from(grid.cost(to)))
            })
    };
    let lowest = grid.lowest_cost();
    let heuristic = |p: &Pos| {
        Heuristic::Octile.estimate_steps(
            p.x.abs_diff(goal.x),
            p.y.abs_diff(goal.y),
            steps.straight(),
            steps.diagonal(),
        ) * lowest
    };
    pathfinding::prelude::astar(&start, successors, heuristic, |p| *p == goal).map(|(_, c)| c)
}
