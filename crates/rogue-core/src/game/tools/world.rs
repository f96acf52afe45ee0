//! The world's side of the tools: picking them up, using them, the lures sounding and the
//! doors closed. Apart from [`super`] so that the tools' types, which the world and the
//! planner hold, name nothing of `game.rs`.

use super::{LURE_RADIUS, LURE_TURNS, Lure, TOOLS, goal_of};
use crate::content::level::FeatureKind;
use crate::content::map::Tile;
use crate::engine::grid::{DIRECTIONS, Pos};
use crate::game::{ActResult, GameState, World};

impl World {
    /// Picks up a tool lying where the player stands.
    pub(in crate::game) fn pick_up_tool(&mut self) {
        let here = self.player.pos;
        let Some(i) = self
            .features
            .iter()
            .position(|f| f.pos == here && TOOLS.contains(&f.kind))
        else {
            return;
        };
        let kind = self.features.remove(i).kind;
        if let Some(n) = self.player.tools.slot(kind) {
            *n += 1;
        }
        let n = self.player.tools.count(kind);
        self.say(format!(
            "You pick up a {} ({n} carried; {} uses).",
            kind.name(),
            kind.glyph()
        ));
    }

    /// The lures sounding now.
    pub fn lures(&self) -> &[Lure] {
        &self.lures
    }

    /// Where a monster standing at `at` heads now: the player, or a lure that holds it.
    pub fn goal_at(&self, at: Pos) -> Pos {
        goal_of(&self.lure_cells(), at, self.player.pos)
    }

    /// The cells of the lures sounding now, for the planner.
    pub(in crate::game) fn lure_cells(&self) -> Vec<Pos> {
        self.lures.iter().map(|l| l.pos).collect()
    }

    /// The monsters a lure holds now: those whose goal it is.
    pub fn held_by(&self, lure: Pos) -> Vec<u32> {
        let cells = self.lure_cells();
        self.monsters
            .iter()
            .filter(|m| goal_of(&cells, m.pos, self.player.pos) == lure)
            .map(|m| m.id)
            .collect()
    }

    /// A turn went by: lures run down.
    pub(in crate::game) fn lures_run_down(&mut self) {
        let before = self.lures.len();
        for l in &mut self.lures {
            l.turns = l.turns.saturating_sub(1);
        }
        self.lures.retain(|l| l.turns > 0);
        if self.lures.len() < before && self.state == GameState::Playing {
            self.say("The lure falls silent.");
        }
    }

    /// Uses a tool; a refusal says why and costs no turn.
    pub(in crate::game) fn use_tool(&mut self, kind: FeatureKind) -> ActResult {
        if self.player.tools.count(kind) == 0 {
            self.say(format!("You have no {}.", kind.name()));
            return ActResult::Refused;
        }
        let done = match kind {
            FeatureKind::Lure => self.sound_lure(),
            FeatureKind::Seeds => self.sow(),
            FeatureKind::Spike => self.spike(),
            FeatureKind::Stairs | FeatureKind::Potion => false,
        };
        if !done {
            return ActResult::Refused;
        }
        if let Some(n) = self.player.tools.slot(kind) {
            *n -= 1;
        }
        ActResult::Acted
    }

    fn sound_lure(&mut self) -> bool {
        let here = self.player.pos;
        if self.lures.iter().any(|l| l.pos == here) {
            self.say("A lure already sounds here.");
            return false;
        }
        self.lures.push(Lure {
            pos: here,
            turns: LURE_TURNS,
        });
        self.say(format!(
            "You set a lure ringing: for {LURE_TURNS} turns, monsters within {LURE_RADIUS} steps of it make for it, not you, unless you stand next to them."
        ));
        true
    }

    /// Brush springs up on the floor around the player (not under anyone).
    fn sow(&mut self) -> bool {
        let here = self.player.pos;
        let cells: Vec<Pos> = DIRECTIONS
            .iter()
            .map(|&(dx, dy)| here.offset(dx, dy))
            .filter(|&p| self.grid.get(p) == Tile::Floor && self.monster_at(p).is_none())
            .collect();
        if cells.is_empty() {
            self.say("There is no bare floor around you to sow.");
            return false;
        }
        for &p in &cells {
            self.grid.set(p, Tile::Brush);
        }
        self.say(format!(
            "You sow brush seeds: {} cells around you turn to brush, dear to most monsters' searches.",
            cells.len()
        ));
        true
    }

    /// Jams the first closed door next to the player (in [`DIRECTIONS`] order) shut.
    fn spike(&mut self) -> bool {
        let here = self.player.pos;
        let Some(door) = DIRECTIONS
            .iter()
            .map(|&(dx, dy)| here.offset(dx, dy))
            .find(|&p| self.grid.get(p) == Tile::DoorClosed)
        else {
            self.say("There is no closed door next to you to spike.");
            return false;
        };
        self.grid.set(door, Tile::DoorJammed);
        self.say("You drive the spike in: the door is jammed shut, a wall to all but diggers.");
        true
    }

    /// Closes the open doors next to the player that nobody stands in; a turn passes.
    pub(in crate::game) fn close_doors(&mut self) -> ActResult {
        let here = self.player.pos;
        let doors: Vec<Pos> = DIRECTIONS
            .iter()
            .map(|&(dx, dy)| here.offset(dx, dy))
            .filter(|&p| self.grid.get(p) == Tile::DoorOpen)
            .collect();
        if doors.is_empty() {
            self.say("There is no open door next to you.");
            return ActResult::Refused;
        }
        let free: Vec<Pos> = doors
            .iter()
            .copied()
            .filter(|&p| self.monster_at(p).is_none() && !self.features.iter().any(|f| f.pos == p))
            .collect();
        if free.is_empty() {
            self.say("Something stands in the doorway.");
            return ActResult::Refused;
        }
        for &p in &free {
            self.grid.set(p, Tile::DoorClosed);
        }
        self.say(if free.len() == 1 {
            "You close the door."
        } else {
            "You close the doors."
        });
        self.look();
        ActResult::Acted
    }
}
