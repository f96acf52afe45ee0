//! Playing: the game's commands (a turn, an attack in place, a long action), the monster
//! selected and whose search is traced, and what the map shows of the game.

use super::keymap::Action;
use super::{App, Screen};
use crate::game::{Act, GameState};

impl App {
    /// Carries out a command of the game's (a turn, a long action, what the map shows):
    /// `None` once it is carried out, else the action, for another part of the app.
    pub(super) fn game_action(&mut self, action: Action) -> Option<Action> {
        match action {
            Action::Wait => self.play().act(Act::Wait),
            Action::NextMonster | Action::PrevMonster => {
                let by = if action == Action::NextMonster { 1 } else { -1 };
                let id = self.ui.selection.cycled(self.session.world(), by);
                self.ui.select(id, self.session.world_mut());
            }
            Action::TogglePath => self.ui.show_path = !self.ui.show_path,
            Action::Descend => {
                if self.world().feature_at(self.world().player().pos)
                    == Some(crate::content::level::FeatureKind::Stairs)
                {
                    if self.play().descend() {
                        self.screen.set_cursor(self.world().player().pos);
                    }
                } else {
                    self.play().travel_to_stairs();
                }
            }
            Action::Rest => self.play().start_rest(),
            Action::Explore => self.play().start_explore(),
            Action::Attack => {
                self.screen = match self.screen {
                    Screen::Play if self.world().state() == GameState::Playing => Screen::Aim,
                    _ => Screen::Play,
                };
            }
            Action::AttackToward(dx, dy) => {
                self.screen = Screen::Play;
                self.play().act(Act::Attack(dx, dy));
            }
            Action::Drink => self.play().act(Act::Drink),
            Action::CloseDoors => self.play().act(Act::CloseDoors),
            Action::UseTool(kind) => self.play().act(Act::Use(kind)),
            Action::ToggleSight => {
                self.ui.sight = !self.ui.sight;
                self.session.world_mut().say(if self.ui.sight {
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
