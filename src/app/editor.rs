//! The in-game level editor. Edits change the design (what the file will say); the game in
//! play follows at once. Every edit is a reversible change, grouped for undo and redo.

use super::App;
use crate::content::kinds::{KINDS, kind};
use crate::content::level::{FeatureKind, Spawn};
use crate::engine::grid::{Pos, Tile};
use crate::game::Monster;

/// One edit the player asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditOp {
    /// Put a tile.
    SetTile(Pos, Tile),
    /// Place a monster of a kind: its start in the design, and the monster in play.
    AddMonster(Pos, char),
    /// Remove the monster that starts on, or stands on, a cell.
    RemoveMonster(Pos),
    /// Move the player's start (and the player) to a cell.
    MovePlayer(Pos),
    /// Lay stairs or a potion on a cell, in place of what lay there.
    PlaceFeature(Pos, FeatureKind),
    /// Take away the stairs or potion lying on a cell.
    RemoveFeature(Pos),
}

/// A change that happened to the design, with what it replaced, so it can be undone exactly.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Change {
    Tile {
        pos: Pos,
        before: Tile,
        after: Tile,
    },
    /// A monster's start was added.
    Added(Spawn),
    /// A monster was removed: its start (if the design had one) and the monster in play as
    /// it was (if it was alive), so undo puts both back.
    Removed {
        spawn: Option<Spawn>,
        monster: Option<Monster>,
    },
    Player {
        from: Pos,
        to: Pos,
    },
    /// What lay on a cell, and what lies there now.
    Feature {
        pos: Pos,
        before: Option<FeatureKind>,
        after: Option<FeatureKind>,
    },
}

/// A group of changes that undo together, with a serial so that "saved" can name a point
/// in the history.
#[derive(Debug, Clone)]
struct Group {
    serial: u64,
    changes: Vec<Change>,
}

/// The editor's brush and history.
#[derive(Debug, Clone)]
pub struct Editor {
    kind: char,
    undo: Vec<Group>,
    redo: Vec<Group>,
    /// Whether the next change joins the last group (a mouse stroke).
    in_stroke: bool,
    next_serial: u64,
    /// The serial of the newest undo group when the design was last saved or loaded.
    saved: Option<u64>,
}

impl Default for Editor {
    fn default() -> Self {
        Self {
            kind: KINDS[0].glyph,
            undo: Vec::new(),
            redo: Vec::new(),
            in_stroke: false,
            next_serial: 1,
            saved: None,
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

    /// Whether the design has edits that were not saved: the history is not where it was
    /// at the last save or load (undoing back to that point makes it clean again).
    pub fn unsaved(&self) -> bool {
        self.undo.last().map(|g| g.serial) != self.saved
    }

    /// Marks the design as saved as it is now.
    pub fn mark_saved(&mut self) {
        self.saved = self.undo.last().map(|g| g.serial);
    }

    /// Marks the design as holding edits its file lacks, with no history to undo them
    /// (edits recovered after a hang-up): unsaved until the next save.
    pub fn mark_unsaved(&mut self) {
        // Serials start at 1: no history ever stands at 0.
        self.saved = Some(0);
    }

    /// Where the history stands: a different value whenever the design has been edited
    /// (a stroke growing included), the same after an undo and redo that come back.
    pub fn revision(&self) -> (Option<u64>, usize) {
        self.undo
            .last()
            .map_or((None, 0), |g| (Some(g.serial), g.changes.len()))
    }

    /// Forgets every undo and redo step (they describe a design that was replaced), and
    /// the design is clean; returns whether there was any history to forget.
    pub fn forget_history(&mut self) -> bool {
        let had = !self.undo.is_empty() || !self.redo.is_empty();
        self.undo.clear();
        self.redo.clear();
        self.in_stroke = false;
        self.saved = None;
        had
    }

    fn record(&mut self, change: Change, stroke: bool) {
        match self.undo.last_mut() {
            Some(group) if stroke && self.in_stroke => group.changes.push(change),
            _ => {
                let serial = self.next_serial;
                self.next_serial += 1;
                self.undo.push(Group {
                    serial,
                    changes: vec![change],
                });
            }
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

    /// Deletes what is under the cursor: the monster that starts or stands there, else the
    /// stairs or potion lying there.
    pub(super) fn delete_here(&mut self) {
        let at = self.cursor;
        let monster = self.design.creature_at(at).is_some_and(|c| c != '@')
            || self.world.monster_at(at).is_some();
        if monster {
            self.edit(EditOp::RemoveMonster(at));
        } else if self.design.feature_at(at).is_some() {
            self.edit(EditOp::RemoveFeature(at));
        } else {
            self.world.say("Nothing here to delete.");
        }
    }

    /// Carries out an edit as a single undoable step.
    pub fn edit(&mut self, op: EditOp) {
        self.apply_edit(op, false);
    }

    /// Carries out an edit; `stroke` joins it to the mouse stroke under way.
    pub(super) fn apply_edit(&mut self, op: EditOp, stroke: bool) {
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

    /// What an edit would change in the design, or why it cannot be done.
    fn edit_change(&self, op: EditOp) -> Result<Option<Change>, String> {
        let design = &self.design;
        let grid = &design.level().grid;
        let who = |c: char| match c {
            '@' => "the player".to_string(),
            c => format!("a {}", kind(c).name),
        };
        match op {
            EditOp::SetTile(pos, after) => {
                let before = grid.get(pos);
                if !grid.contains(pos) || before == after {
                    return Ok(None);
                }
                if !after.is_passable() {
                    if let Some(c) = design.creature_at(pos) {
                        let fix = if c == '@' {
                            "move the start (@)"
                        } else {
                            "delete it (d)"
                        };
                        return Err(format!("{} starts here; {fix} first.", capitalise(&who(c))));
                    }
                    if self.world.player().pos == pos {
                        return Err("You stand there; step aside first.".into());
                    }
                    if let Some(f) = design.feature_at(pos) {
                        return Err(lies_here(f));
                    }
                }
                Ok(Some(Change::Tile { pos, before, after }))
            }
            EditOp::AddMonster(pos, kind) => {
                if !grid.is_passable(pos) {
                    return Err("Monsters stand on floor: put floor first.".into());
                }
                if let Some(c) = design.creature_at(pos) {
                    return Err(format!("That cell is taken: {} starts there.", who(c)));
                }
                // A file has one glyph per cell.
                if let Some(f) = design.feature_at(pos) {
                    return Err(lies_here(f));
                }
                Ok(Some(Change::Added(Spawn { pos, kind })))
            }
            EditOp::RemoveMonster(pos) => {
                // The start on this cell, else the monster standing here, with its start.
                let spawn = design.level().monsters.iter().find(|m| m.pos == pos);
                let monster = match spawn {
                    Some(s) => self
                        .world
                        .monsters()
                        .iter()
                        .find(|m| m.origin == Some(s.pos)),
                    None => self.world.monster_at(pos),
                };
                let spawn = spawn.copied().or_else(|| {
                    let origin = monster?.origin?;
                    design
                        .level()
                        .monsters
                        .iter()
                        .find(|m| m.pos == origin)
                        .copied()
                });
                if spawn.is_none() && monster.is_none() {
                    return Err("No monster here.".into());
                }
                Ok(Some(Change::Removed {
                    spawn,
                    monster: monster.cloned(),
                }))
            }
            EditOp::MovePlayer(to) => {
                let from = design.level().player.unwrap_or(to);
                if !grid.is_passable(to) {
                    return Err("The player needs a floor cell.".into());
                }
                if design.creature_at(to).is_some_and(|c| c != '@') {
                    return Err("A monster starts there.".into());
                }
                if let Some(f) = design.feature_at(to) {
                    return Err(lies_here(f));
                }
                let moves = to != from || to != self.world.player().pos;
                Ok(moves.then_some(Change::Player { from, to }))
            }
            EditOp::PlaceFeature(pos, kind) => {
                if !grid.is_passable(pos) {
                    return Err("Stairs and potions lie on floor: put floor first.".into());
                }
                if let Some(c) = design.creature_at(pos) {
                    return Err(format!("That cell is taken: {} starts there.", who(c)));
                }
                // It would lie unnoticed under the player until they stepped off and back.
                if self.world.player().pos == pos {
                    return Err("You stand there; step aside first.".into());
                }
                let before = design.feature_at(pos);
                Ok((before != Some(kind)).then_some(Change::Feature {
                    pos,
                    before,
                    after: Some(kind),
                }))
            }
            EditOp::RemoveFeature(pos) => match design.feature_at(pos) {
                Some(before) => Ok(Some(Change::Feature {
                    pos,
                    before: Some(before),
                    after: None,
                })),
                None => Err("Nothing lies here.".into()),
            },
        }
    }

    /// Applies a change to the design and the game in play (or reverts it).
    fn apply_change(&mut self, change: &Change, reverse: bool) {
        let (design, world) = (&mut self.design, &mut self.world);
        match (change, reverse) {
            (Change::Tile { pos, after, .. }, false)
            | (
                Change::Tile {
                    pos, before: after, ..
                },
                true,
            ) => {
                let taken = design.set_tile(*pos, *after);
                debug_assert!(taken, "{}", REFUSED);
                world.set_tile(*pos, *after);
                for (id, _, to) in world.relocate_stranded() {
                    if to.is_none() {
                        world.say(format!("Monster #{id} has no floor left and is gone."));
                    }
                }
            }
            (Change::Added(spawn), false) => {
                let taken = design.add_spawn(*spawn);
                debug_assert!(taken, "{}", REFUSED);
                world.place_monster_near(spawn.pos, spawn.kind, Some(spawn.pos));
            }
            (Change::Added(spawn), true) => {
                design.remove_spawn(spawn.pos);
                if let Some(id) = world.monster_from(spawn.pos).map(|m| m.id) {
                    world.remove_monster(id);
                }
            }
            (Change::Removed { spawn, monster }, false) => {
                if let Some(s) = spawn {
                    design.remove_spawn(s.pos);
                }
                let live = monster
                    .as_ref()
                    .map(|m| m.id)
                    .or_else(|| spawn.and_then(|s| world.monster_from(s.pos)).map(|m| m.id));
                if let Some(id) = live {
                    world.remove_monster(id);
                }
            }
            (Change::Removed { spawn, monster }, true) => {
                if let Some(s) = spawn {
                    let taken = design.add_spawn(*s);
                    debug_assert!(taken, "{}", REFUSED);
                }
                match monster {
                    Some(m) => world.insert_monster_near(m.clone()),
                    None => {
                        if let Some(s) = spawn {
                            world.place_monster_near(s.pos, s.kind, Some(s.pos));
                        }
                    }
                }
            }
            (Change::Player { to, .. }, false) | (Change::Player { from: to, .. }, true) => {
                let taken = design.set_player(*to);
                debug_assert!(taken, "{}", REFUSED);
                world.place_player_near(*to);
            }
            (Change::Feature { pos, after, .. }, false)
            | (
                Change::Feature {
                    pos, before: after, ..
                },
                true,
            ) => {
                let taken = design.set_feature(*pos, *after);
                debug_assert!(taken, "{}", REFUSED);
                let had_stairs = world.has_stairs();
                world.set_feature(*pos, *after);
                // Stairs decide whether clearing the floor wins or opens the way down.
                if world.has_stairs() != had_stairs {
                    let goal = world.goal();
                    world.say(goal);
                }
            }
        }
    }

    /// Undoes the last edit (a whole mouse stroke at once).
    pub fn undo(&mut self) {
        let Some(group) = self.editor.undo.pop() else {
            self.world.say("Nothing to undo.");
            return;
        };
        for change in group.changes.iter().rev() {
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
        for change in &group.changes {
            self.apply_change(change, false);
        }
        self.editor.undo.push(group);
        self.editor.in_stroke = false;
        self.after_edit();
    }

    /// Monsters replan at once so the overlay shows the new search; during a mouse stroke
    /// they replan once, when it ends.
    pub(super) fn after_edit(&mut self) {
        self.keep_selection();
        self.overlay.step = None;
        if let Some(stroke) = &mut self.stroke {
            stroke.replan = true;
            return;
        }
        // One replan for everyone, the traced monster included.
        self.world.replan_tracing(self.wanted_trace());
    }
}

/// A change the design refused would leave the game in play apart from the file: `edit_change`
/// must turn such an edit down first, with its reason.
const REFUSED: &str = "the design refused a change the editor allowed";

/// Why nothing else can go on a cell where a feature lies.
fn lies_here(f: FeatureKind) -> String {
    match f {
        FeatureKind::Stairs => "The stairs down lie here; delete them (d) first.",
        FeatureKind::Potion => "A healing potion lies here; delete it (d) first.",
    }
    .into()
}

/// The text with its first letter in upper case.
fn capitalise(s: &str) -> String {
    let mut chars = s.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}
