//! Explaining a recorded search to a learner: the open list in the order the engine pops
//! it, and what each expansion did to each neighbour.

use super::{Algorithm, NodeInfo, NodeState, Snapshot, Trace, TraceEvent};
use crate::grid::{DIRECTIONS, Grid, Neighbourhood, Pos};

/// What an expansion did with one neighbour of the node it expanded.
///
/// Non-exhaustive: a new movement rule or an occupancy may give a neighbour a fate of its
/// own in a minor release.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Fate {
    /// Reached for the first time and opened.
    New {
        /// Its G.
        g: u32,
    },
    /// Already open, reached more cheaply: its G fell and its parent changed.
    Improved {
        /// G before.
        old: u32,
        /// G after.
        new: u32,
    },
    /// Already open with a G as good: left as it was.
    NotBetter,
    /// Already expanded: a consistent heuristic never reopens it.
    Closed,
    /// A wall or void.
    Wall,
    /// Outside the map.
    Outside,
    /// A diagonal past a wall corner, which the rule forbids.
    Corner,
}

/// One expansion: the node taken from the open list and what became of its neighbours.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expansion {
    /// Which expansion, counting from 1.
    pub step: u32,
    /// The node expanded.
    pub node: Pos,
    /// Whether the node is the goal: the search ends on taking it and looks at none of its
    /// neighbours, so `neighbours` is empty.
    pub goal: bool,
    /// Each neighbour the rule allows a look at, in direction order, with its fate; for a
    /// search of [`Algorithm::Jps`], the jump points its runs reached and opened or
    /// improved, in the order it reached them (the runs that found none leave nothing).
    pub neighbours: Vec<(Pos, Fate)>,
}

impl Snapshot {
    /// The open nodes in the order the engine will pop them: the first is the node the next
    /// expansion takes. The order is the engine's tie-break: lower F, then lower weighted H
    /// (F - G), then the cell first in reading order; greedy best-first (F = H) breaks ties
    /// by lower G instead. A trace of a [`Ties::Lifo`](super::Ties::Lifo) search is listed by
    /// the same rule, which is not its pop order among equal F.
    pub fn open_list(&self) -> Vec<&NodeInfo> {
        let mut open: Vec<&NodeInfo> = self
            .nodes
            .iter()
            .filter(|n| n.state == NodeState::Open)
            .collect();
        if self.options.greedy {
            open.sort_by_key(|n| (n.f, n.g, n.pos.y, n.pos.x));
        } else {
            open.sort_by_key(|n| (n.f, n.f - n.g, n.pos.y, n.pos.x));
        }
        open
    }
}

impl Trace {
    /// What expansion `step` (counting from 1) did, on `grid`, the map the search ran on.
    pub fn expansion(&self, step: u32, grid: &Grid) -> Option<Expansion> {
        if step == 0 || step > self.expansions() {
            return None;
        }
        let before = self.snapshot(step - 1);
        // The events of this expansion: its close, and the opens until the next close.
        let mut closes = 0;
        let mut node = None;
        let mut opened: Vec<(Pos, u32)> = Vec::new();
        for event in self.events() {
            match *event {
                TraceEvent::Close { cell } => {
                    closes += 1;
                    if closes == step {
                        node = Some(cell);
                    } else if closes > step {
                        break;
                    }
                }
                TraceEvent::Open { cell, g, .. } if closes == step => opened.push((cell, g)),
                TraceEvent::Open { .. } => {}
            }
        }
        let node = node?;
        if node == self.goal {
            return Some(Expansion {
                step,
                node,
                goal: true,
                neighbours: Vec::new(),
            });
        }
        if self.options.algorithm == Algorithm::Jps {
            let neighbours = opened
                .iter()
                .map(|&(p, g)| {
                    let fate = match before.get(p) {
                        Some(old) => Fate::Improved { old: old.g, new: g },
                        None => Fate::New { g },
                    };
                    (p, fate)
                })
                .collect();
            return Some(Expansion {
                step,
                node,
                goal: false,
                neighbours,
            });
        }
        let rule = self.options.neighbourhood;
        let dirs: &[(i32, i32)] = if rule == Neighbourhood::Four {
            &DIRECTIONS[..4]
        } else {
            &DIRECTIONS
        };
        let neighbours = dirs
            .iter()
            .map(|&(dx, dy)| {
                let p = node.offset(dx, dy);
                let fate = if !grid.contains(p) {
                    Fate::Outside
                } else if !grid.is_passable(p) {
                    Fate::Wall
                } else if !grid.can_step(node, dx, dy, rule) {
                    Fate::Corner
                } else if let Some(&(_, g)) = opened.iter().rev().find(|(c, _)| *c == p) {
                    match before.get(p) {
                        Some(old) => Fate::Improved { old: old.g, new: g },
                        None => Fate::New { g },
                    }
                } else {
                    match before.get(p).map(|n| n.state) {
                        Some(NodeState::Closed) => Fate::Closed,
                        _ => Fate::NotBetter,
                    }
                };
                (p, fate)
            })
            .collect();
        Some(Expansion {
            step,
            node,
            goal: false,
            neighbours,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::astar::{Pathfinder, Query};

    fn pillar() -> Grid {
        Grid::from_rows(&[
            "........", "........", "....#...", "....#...", "....#...", "........",
        ])
    }

    #[test]
    fn the_first_open_entry_is_always_the_next_expansion() {
        let g = pillar();
        let (_, trace) =
            Pathfinder::new().find_traced(&g, Query::new(Pos::new(2, 3), Pos::new(6, 3)));
        for step in 0..trace.expansions() {
            let next = trace.expansion(step + 1, &g).unwrap().node;
            let open = trace.snapshot(step);
            assert_eq!(open.open_list()[0].pos, next, "step {step}");
        }
    }

    #[test]
    fn an_expansion_reports_every_neighbour_and_why() {
        // The start is beside the wall: east is a wall, the diagonals past it are corners,
        // and west is off the map (not a wall: the lab names it so).
        let g = Grid::from_rows(&["...", ".#.", "..."]);
        let (_, trace) =
            Pathfinder::new().find_traced(&g, Query::new(Pos::new(0, 1), Pos::new(2, 1)));
        let first = trace.expansion(1, &g).unwrap();
        assert_eq!(first.node, Pos::new(0, 1));
        let fates: Vec<Fate> = first.neighbours.iter().map(|n| n.1).collect();
        assert_eq!(
            fates,
            [
                Fate::New { g: 10 },
                Fate::Wall,
                Fate::New { g: 10 },
                Fate::Outside,
                Fate::Corner,
                Fate::Corner,
                Fate::Outside,
                Fate::Outside,
            ]
        );
        // The second expansion sees the start closed.
        let second = trace.expansion(2, &g).unwrap();
        assert!(second.neighbours.contains(&(Pos::new(0, 1), Fate::Closed)));
        assert!(trace.expansion(0, &g).is_none());
        assert!(trace.expansion(trace.expansions() + 1, &g).is_none());
    }

    #[test]
    fn the_goal_s_expansion_ends_the_search_and_looks_at_no_neighbour() {
        let g = pillar();
        let goal = Pos::new(6, 3);
        for algorithm in [Algorithm::AStar, Algorithm::Jps] {
            let opts = crate::astar::SearchOptions {
                algorithm,
                ..Default::default()
            };
            let q = Query::new(Pos::new(2, 3), goal).options(opts);
            let (_, trace) = Pathfinder::new().find_traced(&g, q);
            let last = trace.expansion(trace.expansions(), &g).unwrap();
            assert_eq!((last.node, last.goal), (goal, true), "{algorithm:?}");
            assert!(last.neighbours.is_empty(), "{algorithm:?}");
            for step in 1..trace.expansions() {
                assert!(
                    !trace.expansion(step, &g).unwrap().goal,
                    "{algorithm:?} {step}"
                );
            }
        }
    }

    #[test]
    fn an_improved_neighbour_reports_its_old_and_new_g() {
        // A search whose heuristic misleads it (Manhattan on an 8-way grid, round a wall)
        // reaches some nodes again more cheaply.
        let g = Grid::from_rows(&["........", "..####..", "......#.", "........"]);
        let opts = crate::astar::SearchOptions {
            heuristic: crate::astar::Heuristic::Manhattan,
            ..Default::default()
        };
        let q = Query::new(Pos::new(0, 3), Pos::new(7, 1)).options(opts);
        let (_, trace) = Pathfinder::new().find_traced(&g, q);
        let improved = (1..=trace.expansions())
            .flat_map(|s| trace.expansion(s, &g).unwrap().neighbours)
            .filter(|(_, f)| matches!(f, Fate::Improved { .. }))
            .count();
        let opened_twice = {
            let mut seen = std::collections::HashMap::new();
            for e in trace.events() {
                if let TraceEvent::Open { cell, .. } = e {
                    *seen.entry(*cell).or_insert(0) += 1;
                }
            }
            seen.values()
                .filter(|&&n| n > 1)
                .map(|&n| n - 1)
                .sum::<usize>()
        };
        assert!(improved > 0, "the case improves some G");
        assert_eq!(improved, opened_twice);
    }
}
