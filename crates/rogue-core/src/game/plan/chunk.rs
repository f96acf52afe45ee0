//! The planning threads' share of a plan of everyone: each takes a few monsters at a time
//! and plans each with its own pathfinder of the monster's grid, down a crowd's map, by a
//! guide, or by the monster's own search.

use super::guide::{Guidance, Guides, Toward};
use super::maps::Maps;
use std::sync::Mutex;

use super::{
    Ahead, Monster, Nearest, PIECE_MIN, PIECES, Planner, Progress, boxed_in, grid_of,
    is_exact_plain, searched_as,
};
use crate::content::kinds::{CostTable, Speed};
use crate::content::map::TileMap;
use crate::engine::astar::{Pathfinder, Query, SearchOptions, SearchResult, Status};
use crate::engine::dijkstra::DistanceMap;
use crate::engine::grid::{Grid, Pos};
use crate::game::tools::goal_of;

/// What every planning thread plans toward, and around.
#[derive(Clone, Copy)]
pub(super) struct Plans<'a> {
    pub(super) progress: &'a Progress,
    /// The player's cell.
    pub(super) goal: Pos,
    /// The cells of the lures sounding.
    pub(super) lures: &'a [Pos],
    pub(super) options: SearchOptions,
    pub(super) occupied: &'a [u32],
    pub(super) traced: Option<u32>,
    /// Whether fast monsters' second searches are made ahead.
    pub(super) ahead: bool,
    /// The Dijkstra maps of this turn's mapped crowds.
    pub(super) maps: &'a Maps,
    /// The guides of the other plain searches toward the player, if they serve this turn.
    pub(super) guides: Option<&'a Guides>,
}

/// No crowd's map: capped planning keeps the crowds' maps of the other modes, unused.
static NO_MAPS: Maps = Maps::EMPTY;

impl Planner {
    /// Plans every monster but the traced one on `threads` threads (each with its own
    /// pathfinder of every table in `tables`), toward the player at `at`'s cell under its
    /// options, around its occupied cells, ahead for fast monsters, down the crowds' maps
    /// and by the guides when asked; returns (nodes expanded, searches run).
    pub(super) fn plan_on_threads(
        &mut self,
        grid: &TileMap,
        at: (Pos, SearchOptions, &[u32], bool, (bool, bool)),
        monsters: &mut [Monster],
        tables: &[CostTable],
        threads: usize,
    ) -> (u64, u32) {
        let (goal, options, occupied, ahead, (mapped, guided)) = at;
        self.ahead.resize_with(monsters.len(), Ahead::default);
        // The threads take some monsters at a time until none are left, rather than a
        // share each: searches differ a hundredfold in cost, and the monsters' order (often
        // by where they stand) gathers the long ones, so that on a 1024x1024 cave with the
        // player near one edge, one half of the crowd held six times the other's work.
        let piece = (monsters.len() / (threads * PIECES)).max(PIECE_MIN);
        let pieces = Mutex::new(monsters.chunks_mut(piece).zip(self.ahead.chunks_mut(piece)));
        let at = Plans {
            progress: &self.progress,
            goal,
            lures: &self.lures,
            options,
            occupied,
            traced: self.traced,
            ahead,
            maps: if mapped { &self.crowd_maps } else { &NO_MAPS },
            guides: guided.then_some(&*self.guides),
        };
        // Each thread its own pathfinder of every grid searched this turn.
        let mut mine: Vec<Vec<(CostTable, &mut Pathfinder)>> =
            (0..threads).map(|_| Vec::new()).collect();
        for e in self
            .engines
            .iter_mut()
            .filter(|e| tables.contains(&e.table))
        {
            let table = e.table;
            for (t, pf) in e.threads.iter_mut().take(threads).enumerate() {
                mine[t].push((table, pf));
            }
        }
        let work = |engines: &mut [(CostTable, &mut Pathfinder)]| {
            let mut total = (0u64, 0u32);
            loop {
                // A planning thread only panics on a bug, and then the turn is lost anyway:
                // the pieces' lock is not poisoned otherwise.
                let Some(piece) = pieces.lock().unwrap_or_else(|p| p.into_inner()).next() else {
                    return total;
                };
                let (e, n) = plan_chunk(engines, grid, at, piece);
                total = (total.0 + e, total.1 + n);
            }
        };
        let mut mine = mine.into_iter();
        let mut main = mine.next().unwrap_or_default();
        std::thread::scope(|scope| {
            let handles: Vec<_> = mine
                .map(|mut engines| scope.spawn(move || work(&mut engines)))
                .collect();
            let mut total = work(&mut main);
            for h in handles {
                // A planning thread only panics on a bug; pass it on rather than hide it.
                let (e, n) = h.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
                total = (total.0 + e, total.1 + n);
            }
            total
        })
    }
}

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
            if map.get(q.start).is_none() {
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

/// Plans each monster of `chunk` but the traced one with the pathfinder of its kind's grid
/// in `engines`; returns (expanded, searches).
pub(super) fn plan_chunk(
    engines: &mut [(CostTable, &mut Pathfinder)],
    grid: &TileMap,
    at: Plans<'_>,
    (chunk, aheads): (&mut [Monster], &mut [Ahead]),
) -> (u64, u32) {
    let Plans {
        progress,
        goal: player,
        lures,
        options,
        occupied,
        traced,
        ahead,
        maps,
        guides,
    } = at;
    let mut total = (0u64, 0u32);
    for (m, next) in chunk.iter_mut().zip(aheads) {
        (next.made, next.best) = (None, None);
        if Some(m.id) == traced {
            continue;
        }
        let (table, options) = searched_as(grid, m.kind, options);
        let g = grid_of(grid, &table);
        let goal = goal_of(lures, m.pos, player);
        m.planned = (m.pos, goal);
        m.boxed = boxed_in(g, occupied, goal, m.pos, options.neighbourhood);
        if m.boxed {
            // No search, so nothing found: the flag says why.
            m.plan.path.clear();
            (m.plan.status, m.plan.cost, m.plan.expanded) = (Status::Unreachable, None, 0);
        } else {
            let pf = engines
                .iter_mut()
                .find(|(t, _)| *t == table)
                .map(|(_, pf)| &mut **pf)
                .expect("plan_all makes an engine for every table its monsters search");
            // A monster of a mapped crowd (plain search, the player its goal) walks the map;
            // one of a guided table searches by its guide.
            let plain = is_exact_plain(&options);
            let way = |goal: Pos| {
                if !plain || goal != player {
                    return None;
                }
                let rule = options.neighbourhood;
                match maps.get(&table, rule) {
                    Some(map) => Some(Guidance::Own(map)),
                    None => guides.and_then(|gs| gs.of(grid, player, &table, rule)),
                }
            };
            let q = Query::new(m.pos, goal).options(options);
            if options.cap.is_some() {
                // A capped search that hits its cap heads for its best node: found here,
                // on this thread, rather than by the same search again at the end.
                let mut best = Nearest::new(goal, options.heuristic);
                pf.search(g, q, &mut m.plan, &mut best);
                next.best = best.best.map(|(_, p)| p);
                total = (total.0 + u64::from(m.plan.expanded), total.1 + 1);
            } else if plan_from(pf, g, way(goal), q, &mut m.plan) {
                total = (total.0 + u64::from(m.plan.expanded), total.1 + 1);
            }
            // Stepping onto the player is an attack, and a wading monster's first move is
            // spent in its cell: either stays, and its second search would be this one again.
            // A monster whose step is held by one with a higher id (first moves go in id
            // order, and `monsters` is sorted by id) stays or detours: a search from the
            // step would go unused. A capped search is followed at the monster's turn by a
            // second one toward its best node: none is made ahead of it.
            if let Some(&step) = m.plan.path.get(1)
                && ahead
                && m.plan.status == Status::Found
                && step != goal
                && m.wading == 0
                && grid.kind(m.kind).speed == Speed::Fast
                && grid
                    .index(step)
                    .and_then(|c| occupied.get(c))
                    .is_none_or(|&who| who <= m.id)
            {
                let goal = goal_of(lures, step, player);
                let q = Query::new(step, goal).options(options);
                plan_from(pf, g, way(goal), q, &mut next.plan);
                next.made = Some((step, goal, grid.revision()));
            }
        }
        progress.one_more();
    }
    total
}
