//! The world's side of the run: the floor's goal and notes, potions and regeneration,
//! winning or giving up, and going down the stairs. Apart from [`super`] so that the run's
//! figures, which the world holds, name nothing of `game.rs`.

use super::{FINAL_DEPTH, POTION_HEAL, REGEN_TURNS, floor};
use crate::content::level::{FeatureKind, Level, Note};
use crate::game::{GameState, PLAYER_HP, Sight, World};

impl World {
    /// Whether this floor has stairs down (so clearing it opens them rather than winning).
    pub fn has_stairs(&self) -> bool {
        self.features.iter().any(|f| f.kind == FeatureKind::Stairs)
    }

    /// The depth whose clearing wins the run: this floor's when it has no stairs, else the
    /// designed chain's last (see [`World::set_designed_final`]) when it is deeper, else
    /// the last generated floor's.
    pub fn final_depth(&self) -> u32 {
        if !self.has_stairs() {
            return self.run.depth;
        }
        match self.designed_final {
            Some(f) if f > self.run.depth => f,
            _ => FINAL_DEPTH.max(self.run.depth + 1),
        }
    }

    /// Says how deep the run goes as a campaign designs it: the depth of its last designed
    /// floor when that floor has no stairs, else the depth of the last generated floor after
    /// it. `None`: no designed floors below this one.
    pub fn set_designed_final(&mut self, depth: Option<u32>) {
        self.designed_final = depth;
    }

    /// The goal on this floor, in one sentence, the goal first so a narrow log shows it.
    pub fn goal(&self) -> String {
        let at = format!("depth {} of {}", self.run.depth, self.final_depth());
        let foes = match self.monsters.len() {
            0 if self.has_stairs() => {
                return format!("No monsters here: the stairs > are open ({at}).");
            }
            0 => return format!("No monsters here ({at})."),
            1 => "the monster".to_string(),
            n => format!("the {n} monsters"),
        };
        if self.has_stairs() {
            format!("Kill {foes} to open the stairs > ({at}).")
        } else {
            format!("Kill {foes} to win the run ({at}).")
        }
    }

    /// Says the floor's messages for its start, then those of the player's cell: the
    /// level's words after the game's own welcome.
    pub fn say_intro(&mut self) {
        let (start, rest): (Vec<Note>, Vec<Note>) = std::mem::take(&mut self.notes)
            .into_iter()
            .partition(|n| n.at.is_none());
        self.notes = rest;
        for n in start {
            self.say_note(&n.text);
        }
        self.read_notes();
    }

    /// The floor's message said last (its lesson, on the tutorial), kept on screen until
    /// the next one; its keys marked as the level wrote them (`` `l` ``,
    /// [`Message::marked`](crate::game::Message::marked)).
    pub fn lesson(&self) -> Option<&str> {
        self.lesson.as_deref()
    }

    /// The floor's messages not shown yet.
    pub fn notes_left(&self) -> usize {
        self.notes.len()
    }

    /// Says, once, the messages of the cell the player stands on.
    pub(in crate::game) fn read_notes(&mut self) {
        let here = Some(self.player.pos);
        if !self.notes.iter().any(|n| n.at == here) {
            return;
        }
        let (now, rest): (Vec<Note>, Vec<Note>) = std::mem::take(&mut self.notes)
            .into_iter()
            .partition(|n| n.at == here);
        self.notes = rest;
        for n in now {
            self.say_note(&n.text);
        }
    }

    /// Gives the run up: it ends here, as a loss; false when it was over already.
    pub fn abandon(&mut self) -> bool {
        if self.state != GameState::Playing {
            return false;
        }
        self.state = GameState::Abandoned;
        self.say(format!("You abandon the run on turn {}.", self.turn));
        true
    }

    /// The last monster died: the stairs open, or the run is won.
    pub(in crate::game) fn floor_cleared(&mut self) {
        if self.has_stairs() {
            self.say("The floor is clear: the stairs > are open.");
        } else {
            self.state = GameState::Won;
            self.say(format!(
                "The floor is clear: you win the run on turn {}!",
                self.turn + 1
            ));
        }
    }

    /// Picks up a potion lying where the player stands.
    pub(in crate::game) fn pick_up(&mut self) {
        let here = self.player.pos;
        let Some(i) = self
            .features
            .iter()
            .position(|f| f.pos == here && f.kind == FeatureKind::Potion)
        else {
            return;
        };
        self.features.remove(i);
        self.player.potions += 1;
        let n = self.player.potions;
        self.say(format!(
            "You pick up a healing potion ({n} carried; ! drinks)."
        ));
    }

    /// Drinks a potion; false (no turn) when there is none or nothing to heal.
    pub(in crate::game) fn drink(&mut self) -> bool {
        if self.player.potions == 0 {
            self.say("You have no potion.");
            return false;
        }
        if self.player.hp >= PLAYER_HP {
            self.say("You are unhurt; you keep the potion.");
            return false;
        }
        self.player.potions -= 1;
        self.run.potions_drunk += 1;
        let healed = self.heal(POTION_HEAL);
        self.say(format!("You drink a healing potion: +{healed} HP."));
        true
    }

    /// Slow regeneration: a hit point back every [`REGEN_TURNS`] turns while alive.
    pub(in crate::game) fn regenerate(&mut self) {
        if self.state == GameState::Playing && self.turn.is_multiple_of(REGEN_TURNS) {
            self.heal(1);
        }
    }

    /// Takes the stairs the player stands on, once the floor is clear: the next floor is
    /// generated from the run's seed and depth, the player keeps hit points and potions, and a
    /// turn passes (the new floor's monsters do not move in it). Returns the new floor's level
    /// (the app's design from now on); `None` with a message when the stairs cannot be taken.
    pub fn descend(&mut self) -> Option<Level> {
        if !self.stairs_open() {
            return None;
        }
        let depth = self.run.depth + 1;
        let level = match floor(self.seed, depth) {
            Ok(level) => level,
            Err(e) => {
                self.say(format!("The way down is blocked: {e}"));
                return None;
            }
        };
        self.go_down(&level);
        Some(level)
    }

    /// Whether the player may take the stairs now: the run goes on, they stand on stairs
    /// and no monster lives; says why not.
    pub fn stairs_open(&mut self) -> bool {
        if self.state != GameState::Playing {
            return false;
        }
        if self.feature_at(self.player.pos) != Some(FeatureKind::Stairs) {
            self.say("There are no stairs here.");
            return false;
        }
        match self.monsters.len() {
            0 => true,
            1 => {
                self.say("The stairs are sealed while a monster lives.");
                false
            }
            n => {
                self.say(format!("The stairs are sealed while {n} monsters live."));
                false
            }
        }
    }

    /// Goes down the stairs (once [`World::stairs_open`] says they are) to `level`, one
    /// floor deeper: the player keeps hit points and potions, and a turn passes (the new
    /// floor's monsters do not move in it).
    pub fn go_down(&mut self, level: &Level) {
        // An act like any other: its messages carry the turn it ends on.
        self.begin_act();
        self.enter_floor(level);
        self.run.depth += 1;
        self.turn += 1;
        self.regenerate();
        self.say(format!("You go down the stairs. {}", self.goal()));
        self.say_intro();
        self.end_act(true);
    }

    /// Puts `level` in play as floor `depth` of the run, at once, the run's figures kept:
    /// the editor going to another floor of a campaign, or starting a floor over on its
    /// resized map. The player stands on the level's start; no turn passes.
    pub fn enter_at(&mut self, level: &Level, depth: u32) {
        self.enter_floor(level);
        self.run.depth = depth;
    }

    /// Replaces the floor by `level`: its tiles, monsters and features, the player at its
    /// start. Everything about the run stays; monster ids go on from the last floor's.
    fn enter_floor(&mut self, level: &Level) {
        self.grid = level.grid.clone();
        self.occupant = vec![0; self.grid.len()];
        self.monsters.clear();
        self.features = level.features.clone();
        self.notes = level.notes.clone();
        self.lesson = None;
        self.player.pos = level.player.unwrap_or_default();
        for s in &level.monsters {
            self.add_monster(s.pos, s.kind, Some(s.pos));
        }
        self.sight = Sight::new(&self.grid);
        self.replan();
        self.look();
    }
}
