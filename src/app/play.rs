//! Playing: the game's commands (a turn, an attack in place, a long action), the monster
//! selected and whose search is traced, and what the map shows of the game.

use super::Screen;
use super::keymap::Action;
use super::travel::Play;
use crate::game::{Act, GameState};

impl Play<'_> {
    /// Carries out a command of the game's (a turn, a long action, what the map shows) with
    /// `screen` up (aiming is a screen of its own): `None` once it is carried out, else the
    /// action, for another part of the app.
    pub(super) fn handle(&mut self, screen: &mut Screen, action: Action) -> Option<Action> {
        match action {
            Action::Wait => self.act(Act::Wait),
            Action::NextMonster | Action::PrevMonster => {
                let by = if action == Action::NextMonster { 1 } else { -1 };
                let id = self.ui.selection.cycled(self.session.world(), by);
                self.ui.select(id, self.session.world_mut());
            }
            Action::TogglePath => self.ui.show_path = !self.ui.show_path,
            Action::Descend => {
                let world = self.session.world();
                if world.feature_at(world.player().pos)
                    == Some(crate::content::level::FeatureKind::Stairs)
                {
                    if self.descend() {
                        screen.set_cursor(self.session.world().player().pos);
                    }
                } else {
                    self.travel_to_stairs();
                }
            }
            Action::CyclePlanning => self.cycle_planning(),
            Action::Rest => self.start_rest(),
            Action::Explore => self.start_explore(),
            Action::Attack => {
                *screen = match screen {
                    Screen::Play if self.session.world().state() == GameState::Playing => {
                        Screen::Aim
                    }
                    _ => Screen::Play,
                };
            }
            Action::AttackToward(dx, dy) => {
                *screen = Screen::Play;
                self.act(Act::Attack(dx, dy));
            }
            Action::Drink => self.act(Act::Drink),
            Action::CloseDoors => self.act(Act::CloseDoors),
            Action::UseTool(kind) => self.act(Act::Use(kind)),
            Action::ToggleSight => {
                self.ui.sight = !self.ui.sight;
                self.session.say(if self.ui.sight {
                    "Sight on: you see what your eyes reach and remember the rest."
                } else {
                    "Sight off: the whole map shows."
                });
            }
            other => return Some(other),
        }
        None
    }
}
