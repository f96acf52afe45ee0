//! The game in play following the design's edits: the same [`Change`] that the design
//! applies, so the two cannot drift apart.

use super::{Monster, World};
use crate::content::level::design::{Change, Occupants};
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
        // The goal as it stood before the edits being made: said again once they are
        // done ([`World::edits_done`]) if they changed it.
        if self.goal_before.is_none() {
            self.goal_before = Some(self.goal());
        }
        self.follow_quietly(change, forward, removed);
        // An edit lies between what was said before it and what is said after: a message
        // said again after it is a new line, not a repeat (two saves with edits between).
        self.fold_broken = true;
    }

    /// The edits of one step are done (an edit, a group, an undo or a redo): when they
    /// changed the goal (a monster placed or deleted, stairs laid or taken), the log says
    /// the goal as it is now, once.
    pub fn edits_done(&mut self) {
        if let Some(before) = self.goal_before.take() {
            let goal = self.goal();
            if goal != before {
                self.say(goal);
            }
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
