//! The game in play following the design's edits: the same [`Change`] that the design
//! applies, so the two cannot drift apart.

use super::{Monster, World};
use crate::content::level::{Change, Occupants};
use crate::engine::grid::Pos;

impl Occupants for World {
    fn player(&self) -> Pos {
        self.player().pos
    }

    fn monster_origin(&self, p: Pos) -> Option<Option<Pos>> {
        self.monster_at(p).map(|m| m.origin)
    }
}

impl World {
    /// Follows a change the design made (or undid, `forward` false). A monster taken out
    /// of play is kept in `removed`, and put back as it was when the removal is undone.
    pub fn follow(&mut self, change: &Change, forward: bool, removed: &mut Option<Monster>) {
        let had_foes = !self.monsters().is_empty();
        let had_stairs = self.has_stairs();
        self.follow_quietly(change, forward, removed);
        // The goal depends on both: deleting the last monster opens the stairs (or leaves a
        // floor with nothing to win), laying the only stairs makes clearing lead down.
        if self.monsters().is_empty() == had_foes || self.has_stairs() != had_stairs {
            let goal = self.goal();
            self.say(goal);
        }
    }

    fn follow_quietly(&mut self, change: &Change, forward: bool, removed: &mut Option<Monster>) {
        match (change, forward) {
            (Change::Tile { pos, after, .. }, true)
            | (
                Change::Tile {
                    pos, before: after, ..
                },
                false,
            ) => {
                self.set_tile(*pos, *after);
                for (id, _, to) in self.relocate_stranded() {
                    if to.is_none() {
                        self.say(format!("Monster #{id} has no floor left and is gone."));
                    }
                }
            }
            (Change::Added(spawn), true) => {
                self.place_monster_near(spawn.pos, spawn.kind, Some(spawn.pos));
            }
            (Change::Added(spawn), false) => {
                if let Some(id) = self.monster_from(spawn.pos).map(|m| m.id) {
                    self.remove_monster(id);
                }
            }
            (Change::Removed { spawn, at }, true) => {
                let live = match spawn {
                    Some(s) => self.monster_from(s.pos),
                    None => self.monster_at(*at),
                };
                if let Some(id) = live.map(|m| m.id) {
                    *removed = self.remove_monster(id);
                }
            }
            (Change::Removed { spawn, .. }, false) => match removed.take() {
                Some(m) => self.insert_monster_near(m),
                None => {
                    if let Some(s) = spawn {
                        self.place_monster_near(s.pos, s.kind, Some(s.pos));
                    }
                }
            },
            (Change::Player { to, .. }, true) | (Change::Player { from: to, .. }, false) => {
                self.place_player_near(*to);
            }
            (Change::Feature { pos, after, .. }, true)
            | (
                Change::Feature {
                    pos, before: after, ..
                },
                false,
            ) => {
                self.set_feature(*pos, *after);
            }
        }
    }
}
