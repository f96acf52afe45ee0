//! One monster's plan toward the player: down a crowd's map, by a guide, or by its own
//! search (what each planning thread does for each monster it takes).

use super::guide::{Guidance, Toward};
use crate::engine::astar::{
    Heuristic, Pathfinder, Query, SearchResult, Status, TraceEvent, Tracer,
};
use crate::engine::dijkstra::DistanceMap;
use crate::engine::grid::{DIRECTIONS, Grid, Neighbourhood, Pos};

/// The plan of a monster of a mapped crowd at `from`: downhill on the map to the player,
/// cell by cell, a cheapest path for its costs; no nodes of its own expanded.
fn follow_map(map: &DistanceMap, grid: &Grid, from: Pos, plan: &mut SearchResult) {
    plan.path.clear();
    plan.expanded = 0;
    plan.fallback = None;
    plan.cost = map.get(from);
    if plan.cost.is_none() {
        plan.status = Status::Unreachable;
        return;
    }
    plan.status = Status::Found;
    let mut at = from;
    plan.path.push(at);
    while let Some(step) = map.downhill(grid, at, |_| true) {
        plan.path.push(step);
        at = step;
    }
}

/// Plans a search `q` (toward the player, where a guidance is given) into `plan`: down its
/// table's own map, or by an A* on `grid` estimated by its guide, or by its own search;
/// returns whether a search ran (its nodes are the plan's).
pub(super) fn plan_from(
    pf: &mut Pathfinder,
    grid: &Grid,
    way: Option<Guidance<'_>>,
    q: Query<'_>,
    plan: &mut SearchResult,
) -> bool {
    match way {
        Some(Guidance::Own(map)) => {
            follow_map(map, grid, q.start, plan);
            false
        }
        // A start its kind cannot stand on gets its own search's answer.
        Some(Guidance::Estimate(map, offset)) if grid.is_passable(q.start) => {
            // A map stopped early bounds the cells beyond it instead (see `guide`).
            if map.get(q.start).is_none() && map.bound().is_none() {
                // The guide reaches every cell its kinds can walk to the player from (and on
                // to where it was made, which the player can reach).
                plan.path.clear();
                plan.fallback = None;
                (plan.status, plan.cost, plan.expanded) = (Status::Unreachable, None, 0);
                return false;
            }
            let toward = Toward {
                player: q.goal,
                map,
                offset,
            };
            pf.search_to(grid, q.start, &toward, q.options, plan);
            true
        }
        _ => {
            pf.search(grid, q, plan, &mut ());
            true
        }
    }
}

/// A tracer that keeps the expanded node nearest the goal by the search's heuristic.
pub(super) struct Nearest {
    goal: Pos,
    heuristic: Heuristic,
    /// `(H, cell)` of the best so far: lowest H, then first in reading order.
    pub(super) best: Option<(u32, Pos)>,
}

impl Nearest {
    pub(super) fn new(goal: Pos, heuristic: Heuristic) -> Self {
        Self {
            goal,
            heuristic,
            best: None,
        }
    }
}

impl Tracer for Nearest {
    const ENABLED: bool = true;
    fn event(&mut self, event: TraceEvent) {
        let TraceEvent::Close { cell } = event else {
            return;
        };
        let h = self
            .heuristic
            .estimate(cell.x.abs_diff(self.goal.x), cell.y.abs_diff(self.goal.y));
        let key = (h, (cell.y, cell.x));
        if self.best.is_none_or(|(bh, b)| key < (bh, (b.y, b.x))) {
            self.best = Some((h, cell));
        }
    }
}

/// Whether every step `rule` allows from `at` leads onto a cell someone holds in
/// `occupied` (and there is such a step): nowhere to go but the `goal` is not next to it.
pub fn boxed_in(grid: &Grid, occupied: &[u32], goal: Pos, at: Pos, rule: Neighbourhood) -> bool {
    let mut held = false;
    for (dx, dy) in DIRECTIONS {
        if !grid.can_step(at, dx, dy, rule) {
            continue;
        }
        let to = at.offset(dx, dy);
        let taken = grid
            .index(to)
            .and_then(|c| occupied.get(c))
            .is_some_and(|&who| who != 0);
        if to == goal || !taken {
            return false;
        }
        held = true;
    }
    held
}
