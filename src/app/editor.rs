//! The in-game level editor: the brush, and turning the session's edits and refusals into
//! what the player sees. The session checks each edit against the design (the one
//! validator) and applies the one change to the design and the game in play alike.

use super::App;
use crate::content::kinds::{KINDS, kind};
use crate::content::level::{EditOp, FeatureKind, Needs, Refusal};

/// The monster kind after `current` in the kinds table.
pub(super) fn next_kind(current: char) -> char {
    let i = KINDS.iter().position(|k| k.glyph == current).unwrap_or(0);
    KINDS[(i + 1) % KINDS.len()].glyph
}

impl App {
    /// Puts a tile under the cursor as a single undoable edit.
    pub(super) fn edit_tile(&mut self, tile: crate::engine::grid::Tile) {
        self.apply_edit(EditOp::SetTile(self.cursor(), tile), false);
    }

    /// Deletes what is under the cursor: the monster that starts or stands there, else the
    /// stairs or potion lying there.
    pub(super) fn delete_here(&mut self) {
        let at = self.cursor();
        let design = self.session.design();
        let monster = design.creature_at(at).is_some_and(|c| c != '@')
            || self.world().monster_at(at).is_some();
        if monster {
            self.edit(EditOp::RemoveMonster(at));
        } else if design.feature_at(at).is_some() {
            self.edit(EditOp::RemoveFeature(at));
        } else {
            self.say("Nothing here to delete.");
        }
    }

    /// Carries out an edit as a single undoable step.
    pub fn edit(&mut self, op: EditOp) {
        self.apply_edit(op, false);
    }

    /// Carries out an edit; `stroke` joins it to the mouse stroke under way.
    pub(super) fn apply_edit(&mut self, op: EditOp, stroke: bool) {
        match self.session.edit(op, stroke) {
            Ok(true) => self.after_edit(),
            Ok(false) => {}
            Err(why) => self.say(refusal(why)),
        }
    }

    /// Undoes the last edit (a whole mouse stroke at once).
    pub fn undo(&mut self) {
        if self.session.undo() {
            self.after_edit();
        } else {
            self.say("Nothing to undo.");
        }
    }

    /// Redoes the last undone edit.
    pub fn redo(&mut self) {
        if self.session.redo() {
            self.after_edit();
        } else {
            self.say("Nothing to redo.");
        }
    }

    /// Monsters replan at once so the overlay shows the new search; during a mouse stroke
    /// they replan once, when it ends.
    pub(super) fn after_edit(&mut self) {
        self.keep_selection();
        self.overlay.step = None;
        if let Some(Some(stroke)) = self.screen.stroke_mut() {
            stroke.replan = true;
            return;
        }
        // One replan for everyone, the traced monster included.
        let traced = self.wanted_trace();
        self.session.world_mut().replan_tracing(traced);
    }
}

/// Why an edit was refused, for the player.
fn refusal(why: Refusal) -> String {
    let who = |c: char| match c {
        '@' => "the player".to_string(),
        c => format!("a {}", kind(c).name),
    };
    match why {
        Refusal::StartsHere(c) => {
            let fix = if c == '@' {
                "move the start (@)"
            } else {
                "delete it (d)"
            };
            format!("{} starts here; {fix} first.", capitalise(&who(c)))
        }
        Refusal::PlayerStandsThere => "You stand there; step aside first.".into(),
        Refusal::LiesHere(FeatureKind::Stairs) => {
            "The stairs down lie here; delete them (d) first.".into()
        }
        Refusal::LiesHere(FeatureKind::Potion) => {
            "A healing potion lies here; delete it (d) first.".into()
        }
        Refusal::NeedsFloor(Needs::Monster) => "Monsters stand on floor: put floor first.".into(),
        Refusal::NeedsFloor(Needs::Player) => "The player needs a floor cell.".into(),
        Refusal::NeedsFloor(Needs::Feature) => {
            "Stairs and potions lie on floor: put floor first.".into()
        }
        Refusal::Taken(c) => format!("That cell is taken: {} starts there.", who(c)),
        Refusal::NoMonster => "No monster here.".into(),
        Refusal::MonsterStartsThere => "A monster starts there.".into(),
        Refusal::NothingLies => "Nothing lies here.".into(),
    }
}

/// The text with its first letter in upper case.
fn capitalise(s: &str) -> String {
    let mut chars = s.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}
