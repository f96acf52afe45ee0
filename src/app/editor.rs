//! The in-game level editor: edits as reversible changes, grouped for undo and redo.

use super::App;
use crate::engine::grid::{Pos, Tile};
use crate::game::{KINDS, Monster, kind_info};

/// One edit the player asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditOp {
    /// Put a tile.
    SetTile(Pos, Tile),
    /// Place a monster of a kind.
    AddMonster(Pos, char),
    /// Remove the monster on a cell.
    RemoveMonster(Pos),
    /// Move the player to a cell.
    MovePlayer(Pos),
}

/// A change that happened, with what it replaced, so it can be undone exactly.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Change {
    Tile { pos: Pos, before: Tile, after: Tile },
    Added(Monster),
    Removed(Monster),
    Player { from: Pos, to: Pos },
}

/// The editor's brush and history.
#[derive(Debug, Clone)]
pub struct Editor {
    kind: char,
    undo: Vec<Vec<Change>>,
    redo: Vec<Vec<Change>>,
    /// Whether the next change joins the last group (a mouse stroke).
    in_stroke: bool,
}

impl Default for Editor {
    fn default() -> Self {
        Self {
            kind: KINDS[0].glyph,
            undo: Vec::new(),
            redo: Vec::new(),
            in_stroke: false,
        }
    }
}

impl Editor {
    /// Chooses the next monster kind.
    pub fn cycle_kind(&mut self) {
        let i = KINDS.iter().position(|k| k.glyph == self.kind).unwrap_or(0);
        self.kind = KINDS[(i + 1) % KINDS.len()].glyph;
    }

    /// The kind `m` places.
    pub fn kind(&self) -> char {
        self.kind
    }

    /// Starts a mouse stroke: its changes undo together.
    pub fn begin_stroke(&mut self) {
        self.in_stroke = false;
    }

    /// Forgets every undo and redo step (they describe a map that was replaced).
    pub fn forget_history(&mut self) {
        self.undo.clear();
        self.redo.clear();
        self.in_stroke = false;
    }

    fn record(&mut self, change: Change, stroke: bool) {
        match self.undo.last_mut() {
            Some(group) if stroke && self.in_stroke => group.push(change),
            _ => self.undo.push(vec![change]),
        }
        self.in_stroke = stroke;
        self.redo.clear();
    }
}

impl App {
    /// Puts a tile under the cursor as a single undoable edit.
    pub(super) fn edit_tile(&mut self, tile: Tile) {
        self.apply_edit(EditOp::SetTile(self.cursor, tile), false);
    }

    /// Puts a tile under the cursor as part of the current mouse stroke.
    pub(super) fn edit_tile_stroke(&mut self, tile: Tile) {
        self.apply_edit(EditOp::SetTile(self.cursor, tile), true);
    }

    /// Carries out an edit as a single undoable step.
    pub fn edit(&mut self, op: EditOp) {
        self.apply_edit(op, false);
    }

    fn apply_edit(&mut self, op: EditOp, stroke: bool) {
        match self.edit_change(op) {
            Ok(Some(change)) => {
                self.apply_change(&change, false);
                self.editor.record(change, stroke);
                self.after_edit();
            }
            Ok(None) => {}
            Err(why) => self.world.say(why),
        }
    }

    /// What an edit would change, or why it cannot be done.
    fn edit_change(&self, op: EditOp) -> Result<Option<Change>, String> {
        let w = &self.world;
        let occupied = |p: Pos| w.player.pos == p || w.monster_at(p).is_some();
        match op {
            EditOp::SetTile(pos, after) => {
                let before = w.grid.get(pos);
                if !w.grid.contains(pos) || before == after {
                    return Ok(None);
                }
                if !after.is_passable() && occupied(pos) {
                    return Err("Someone stands there; move them first.".into());
                }
                Ok(Some(Change::Tile { pos, before, after }))
            }
            EditOp::AddMonster(pos, kind) => {
                if !w.grid.is_passable(pos) {
                    return Err("Monsters stand on floor: put floor first.".into());
                }
                if occupied(pos) {
                    return Err("That cell is taken.".into());
                }
                let id = w.peek_next_id();
                Ok(Some(Change::Added(Monster {
                    id,
                    kind,
                    pos,
                    hp: kind_info(kind).hp,
                    plan: Default::default(),
                })))
            }
            EditOp::RemoveMonster(pos) => match w.monster_at(pos) {
                Some(m) => Ok(Some(Change::Removed(m.clone()))),
                None => Err("No monster here.".into()),
            },
            EditOp::MovePlayer(to) => {
                if !w.grid.is_passable(to) || w.monster_at(to).is_some() {
                    return Err("The player needs a free floor cell.".into());
                }
                Ok((to != w.player.pos).then_some(Change::Player {
                    from: w.player.pos,
                    to,
                }))
            }
        }
    }

    fn apply_change(&mut self, change: &Change, reverse: bool) {
        let w = &mut self.world;
        match (change, reverse) {
            (Change::Tile { pos, after, .. }, false)
            | (
                Change::Tile {
                    pos, before: after, ..
                },
                true,
            ) => {
                w.grid.set(*pos, *after);
            }
            (Change::Added(m), false) | (Change::Removed(m), true) => {
                let at = w.monsters.partition_point(|x| x.id < m.id);
                w.monsters.insert(at, m.clone());
                w.reserve_id(m.id);
            }
            (Change::Added(m), true) | (Change::Removed(m), false) => {
                w.monsters.retain(|x| x.id != m.id);
            }
            (Change::Player { to, .. }, false) | (Change::Player { from: to, .. }, true) => {
                w.player.pos = *to;
            }
        }
    }

    /// Undoes the last edit (a whole mouse stroke at once).
    pub fn undo(&mut self) {
        let Some(group) = self.editor.undo.pop() else {
            self.world.say("Nothing to undo.");
            return;
        };
        for change in group.iter().rev() {
            self.apply_change(change, true);
        }
        self.editor.redo.push(group);
        self.editor.in_stroke = false;
        self.after_edit();
    }

    /// Redoes the last undone edit.
    pub fn redo(&mut self) {
        let Some(group) = self.editor.redo.pop() else {
            self.world.say("Nothing to redo.");
            return;
        };
        for change in &group {
            self.apply_change(change, false);
        }
        self.editor.undo.push(group);
        self.editor.in_stroke = false;
        self.after_edit();
    }

    /// Monsters replan at once so the overlay shows the new search.
    pub(super) fn after_edit(&mut self) {
        self.keep_selection();
        self.overlay.step = None;
        // One replan for everyone, the traced monster included.
        self.world.replan_tracing(self.wanted_trace());
    }
}
