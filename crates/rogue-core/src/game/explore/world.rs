//! The world's side of exploring: the monsters and features in view, the watch a long
//! action keeps and its alarms, and the next step of exploring. It is a file of its own so
//! that `game.rs`, which holds [`Watch`], [`Alarm`] and [`Explore`] in its world, does not
//! import the file that names the world back.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::{Alarm, Explore, Watch};
use crate::content::level::FeatureKind;
use crate::engine::grid::{DIRECTIONS, Neighbourhood, Pos};
use crate::game::{Monster, World};

impl World {
    /// The monsters the player sees, nearest first (by king moves, then id).
    pub fn monsters_in_view(&self) -> Vec<&Monster> {
        let mut seen: Vec<&Monster> = self.seen_monsters().collect();
        seen.sort_by_key(|m| self.nearness(m));
        seen
    }

    /// The first of [`World::monsters_in_view`], without building the list.
    pub fn nearest_in_view(&self) -> Option<&Monster> {
        self.seen_monsters().min_by_key(|m| self.nearness(m))
    }

    /// The monsters the player sees, in the world's order: the list and the nearest both
    /// come from here and [`World::nearness`], so that they cannot disagree.
    fn seen_monsters(&self) -> impl Iterator<Item = &Monster> {
        self.monsters.iter().filter(|m| self.is_visible(m.pos))
    }

    /// The order of the monsters in view: king moves from the player, then id, so that
    /// monsters as near keep one order from turn to turn.
    fn nearness(&self, m: &Monster) -> (i32, u32) {
        (m.pos.chebyshev(self.player.pos), m.id)
    }

    /// Whether some monster's plan leads it to the player: waiting for it makes sense even
    /// with nothing in view (the plans are what the overlay shows the player).
    pub fn anyone_coming(&self) -> bool {
        let me = self.player.pos;
        self.monsters
            .iter()
            .any(|m| self.goal_at(m.pos) == me && m.plan.cost.is_some() && m.plan.path.len() > 1)
    }

    /// What the player knows now, for [`World::alarm`].
    pub fn watch(&self) -> Watch {
        Watch {
            monsters: self.monsters_in_view().iter().map(|m| m.id).collect(),
            features: self.seen_features().map(|f| f.pos).collect(),
            notes: self.notes.len(),
            hp: self.player.hp,
        }
    }

    /// The first new thing since `watch`, if any: a monster in view, a hit, stairs or a
    /// potion come into view, a level's message.
    pub fn alarm(&self, watch: &Watch) -> Option<Alarm> {
        if let Some(m) = self
            .monsters_in_view()
            .into_iter()
            .find(|m| !watch.monsters.contains(&m.id))
        {
            let turn = self.acted_turn();
            // The latest act's messages: the log announces sightings as the act ends.
            let said = self
                .log()
                .iter()
                .rev()
                .take_while(|l| l.turn == turn)
                .any(|l| l.sighting);
            return Some(if said {
                Alarm::Monster(m.kind)
            } else {
                Alarm::Back(self.grid.kind(m.kind).name)
            });
        }
        if self.player.hp < watch.hp {
            return Some(Alarm::Hurt);
        }
        if self.notes.len() < watch.notes {
            return Some(Alarm::Note);
        }
        self.seen_features()
            .find(|f| !watch.features.contains(&f.pos))
            .map(|f| Alarm::Feature(f.kind))
    }

    fn seen_features(&self) -> impl Iterator<Item = &crate::content::level::Feature> {
        self.features.iter().filter(|f| self.is_seen(f.pos))
    }

    /// The seen stairs nearest the player (by king moves), if any.
    pub fn seen_stairs(&self) -> Option<Pos> {
        let me = self.player.pos;
        self.seen_features()
            .filter(|f| f.kind == FeatureKind::Stairs)
            .map(|f| f.pos)
            .min_by_key(|p| (p.chebyshev(me), p.y, p.x))
    }

    /// Whether a seen cell borders a cell never seen: going there uncovers more.
    fn is_frontier(&self, p: Pos) -> bool {
        DIRECTIONS.iter().any(|&(dx, dy)| {
            let n = p.offset(dx, dy);
            self.grid.contains(n) && !self.is_seen(n)
        })
    }

    /// The first move toward the nearest seen item or frontier cell, over seen floor and
    /// round every monster; [`Explore::Done`] when none is left in reach.
    pub fn explore(&self) -> Explore {
        let start = self.player.pos;
        let Some(s) = self.grid.index(start) else {
            return Explore::Done;
        };
        let mut dist = vec![u32::MAX; self.grid.len()];
        let mut parent = vec![usize::MAX; self.grid.len()];
        let mut heap = BinaryHeap::new();
        dist[s] = 0;
        heap.push(Reverse((0u32, s)));
        while let Some(Reverse((d, c))) = heap.pop() {
            if d > dist[c] {
                continue;
            }
            let p = self.grid.pos(c);
            let item = self.feature_at(p).is_some_and(FeatureKind::is_item);
            if c != s && (item || self.is_frontier(p)) {
                let (dx, dy) = first_step(self.grid.cost_grid(), &parent, s, c);
                return Explore::Step(dx, dy);
            }
            for (dx, dy) in DIRECTIONS {
                let n = p.offset(dx, dy);
                let Some(nc) = self.grid.index(n) else {
                    continue;
                };
                if !self.is_seen(n)
                    || self.occupant[nc] != 0
                    || !self.grid.can_step(p, dx, dy, Neighbourhood::Eight)
                {
                    continue;
                }
                // The step's time with its terrain, as a plan counts it: water is slow.
                let Some(step) = self.grid.step_cost(p, n) else {
                    continue;
                };
                let nd = d + step;
                if nd < dist[nc] {
                    dist[nc] = nd;
                    parent[nc] = c;
                    heap.push(Reverse((nd, nc)));
                }
            }
        }
        Explore::Done
    }
}

/// The king move from `start` toward `goal` along the parents' chain.
fn first_step(
    grid: &crate::engine::grid::Grid,
    parent: &[usize],
    start: usize,
    goal: usize,
) -> (i32, i32) {
    let mut c = goal;
    while parent[c] != start {
        c = parent[c];
    }
    let (from, to) = (grid.pos(start), grid.pos(c));
    (to.x - from.x, to.y - from.y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::level::Level;
    use crate::game::SIGHTING_MEMORY;
    use crate::game::{Act, ActResult};

    fn world(src: &str) -> World {
        World::new(
            &Level::parse(src.as_bytes(), "test").expect("valid level"),
            1,
        )
    }

    /// Explores until done (or a bound), returning the steps taken.
    fn explore_all(w: &mut World) -> u32 {
        let mut steps = 0;
        while let Explore::Step(dx, dy) = w.explore() {
            assert_eq!(w.player_act(Act::Move(dx, dy)), ActResult::Acted);
            steps += 1;
            assert!(steps < 500, "exploring never ended");
        }
        steps
    }

    #[test]
    fn exploring_a_monster_free_level_sees_every_reachable_cell() {
        // Two rooms joined by a bent corridor: from the start, the east room is out of sight.
        let mut w = world(
            "##########\n\
             #@...#####\n\
             #....#####\n\
             #..........#\n\
             ######.###.#\n\
             ######.#...#\n\
             ######...###\n\
             ############\n",
        );
        assert!(!w.is_seen(Pos::new(9, 5)));
        let steps = explore_all(&mut w);
        assert!(steps > 0);
        for c in 0..w.grid().len() {
            let p = w.grid().pos(c);
            if w.grid().is_passable(p) {
                assert!(w.is_seen(p), "{p} never seen after {steps} steps");
            }
        }
        assert_eq!(w.explore(), Explore::Done);
    }

    #[test]
    fn exploring_goes_to_the_nearest_frontier_first() {
        // Sight reaches both ends of a straight corridor: nothing is left to see.
        let w = world("#################\n#...@...........#\n#################\n");
        assert_eq!(w.explore(), Explore::Done);
        // Both ends turn out of sight; the west turn is nearer.
        let mut w = world(
            "###########\n\
             #.#######.#\n\
             #.#######.#\n\
             #..@......#\n\
             ###########\n",
        );
        assert!(!w.is_seen(Pos::new(1, 1)));
        assert_eq!(w.explore(), Explore::Step(-1, 0));
        explore_all(&mut w);
        assert!(w.is_seen(Pos::new(1, 1)) && w.is_seen(Pos::new(9, 1)));
    }

    #[test]
    fn exploring_picks_up_a_seen_potion() {
        let mut w = world("#######\n#@...!#\n#######\n");
        assert!(w.is_seen(Pos::new(5, 1)));
        explore_all(&mut w);
        assert_eq!(w.player().potions, 1);
        assert_eq!(w.player().pos, Pos::new(5, 1));
    }

    /// A goblin round the corner of a corridor from the player: it comes into view within a
    /// few turns.
    const CORNER: &str = "#########\n#@......#\n#######.#\n#######g#\n#########\n";

    #[test]
    fn exploring_picks_up_the_seen_tools_too() {
        let mut w = world("#########\n#&@...)##\n#########\n");
        explore_all(&mut w);
        let tools = w.player().tools;
        assert_eq!(tools.count(FeatureKind::Lure), 1);
        assert_eq!(tools.count(FeatureKind::Spike), 1);
    }

    #[test]
    fn the_log_announces_a_monster_coming_into_view_once_in_a_while() {
        // The goblin comes round the corner to the player, who steps back out of its sight
        // and into it again: the log says it came into view once.
        let mut w = world(CORNER);
        let sightings =
            |w: &World| -> u32 { w.log().iter().filter(|m| m.sighting).map(|m| m.count).sum() };
        let mut turns = 0;
        while w.monsters_in_view().is_empty() {
            w.player_act(Act::Wait);
            turns += 1;
            assert!(turns < 10, "the goblin never came");
        }
        assert_eq!(sightings(&w), 1);
        let line = w.log().iter().find(|m| m.sighting).unwrap();
        assert_eq!(line.text, "A goblin comes into view.");
        assert_eq!(line.turn, w.turn());
        // Seen again at once after it was out of sight a moment: not announced again.
        let id = w.monsters()[0].id;
        w.sighted.retain(|&(s, _)| s != id);
        w.sighted.push((id, w.turn() - 1));
        let before = w.log().len();
        w.announce_sightings(&[], w.turn());
        assert_eq!(w.log().len(), before);
        // Out of sight for longer than the memory: announced again.
        w.sighted.retain(|&(s, _)| s != id);
        w.sighted.push((id, 0));
        w.announce_sightings(&[], w.turn() + SIGHTING_MEMORY + 1);
        assert_eq!(sightings(&w), 2);
    }

    #[test]
    fn monsters_coming_into_view_together_are_one_line_nearest_kind_first() {
        let mut w = world("############\n#@..r.g.r..#\n############\n");
        assert_eq!(w.monsters_in_view().len(), 3);
        w.sighted.clear();
        w.announce_sightings(&[], w.turn());
        let line = w.log().last().unwrap();
        assert!(line.sighting);
        assert_eq!(line.text, "Two rats and a goblin come into view.");
    }

    #[test]
    fn a_monster_coming_into_view_is_an_alarm_one_already_in_view_is_not() {
        // The goblin waits behind the corner; it comes round within a few turns.
        let mut w = world(CORNER);
        let watch = w.watch();
        assert!(w.monsters_in_view().is_empty());
        assert_eq!(w.alarm(&watch), None);
        let mut alarm = None;
        for _ in 0..4 {
            w.player_act(Act::Wait);
            alarm = alarm.or(w.alarm(&watch));
        }
        assert_eq!(alarm, Some(Alarm::Monster('g')));
        // Once it is known, only something else new counts.
        let watch = w.watch();
        assert_eq!(w.alarm(&watch), None);
    }

    #[test]
    fn a_hit_a_feature_seen_and_a_message_are_alarms() {
        let mut w = world("#######\n#@....#\n#######\n");
        let watch = w.watch();
        w.player.hp -= 1;
        assert_eq!(w.alarm(&watch), Some(Alarm::Hurt));
        let watch = w.watch();
        w.set_feature(Pos::new(4, 1), Some(FeatureKind::Stairs));
        assert_eq!(w.alarm(&watch), Some(Alarm::Feature(FeatureKind::Stairs)));
        assert_eq!(w.seen_stairs(), Some(Pos::new(4, 1)));
    }

    #[test]
    fn monsters_in_view_are_nearest_first_and_exclude_the_unseen() {
        // The orc is walled off out of sight.
        let w = world(
            "##########\n\
             #@.r..g..#\n\
             #.########\n\
             #r#..o####\n\
             ##########\n",
        );
        let cells: Vec<Pos> = w.monsters_in_view().iter().map(|m| m.pos).collect();
        assert_eq!(cells, [Pos::new(3, 1), Pos::new(1, 3), Pos::new(6, 1)]);
        assert_eq!(w.nearest_in_view().map(|m| m.pos), Some(Pos::new(3, 1)));
    }
}
