//! The mouse: a click or a drag on the map, sent by screen (the editor and the lab paint
//! in their own files; look mode moves its cursor; playing chooses a monster or travels).

use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};

use super::screen;
use super::screens::lab as lab_screen;
use super::{App, Mode, Screen};
use crate::game::GameState;

impl App {
    pub(super) fn handle_mouse(&mut self, mouse: &MouseEvent) {
        let button = match mouse.kind {
            MouseEventKind::Down(b) | MouseEventKind::Drag(b) => b,
            _ => return,
        };
        let drag = matches!(mouse.kind, MouseEventKind::Drag(_));
        if matches!(
            self.screen,
            Screen::Confirm { .. } | Screen::Help { .. } | Screen::History { .. }
        ) {
            return;
        }
        if self.ui.stop_errands() {
            return;
        }
        let Some(cell) = screen::map_cell(self, mouse.column, mouse.row) else {
            return;
        };
        match self.screen.mode() {
            Mode::Edit => {
                let (session, ui) = (&mut self.session, &mut self.ui);
                self.screen
                    .with_editor(session, ui, |e| e.mouse(cell, button, drag));
            }
            Mode::Look => self.screen.set_cursor(cell),
            Mode::Lab => {
                self.screen.set_cursor(cell);
                if let Screen::Lab { lab, stroke, .. } = self.screen.base_mut() {
                    lab_screen::mouse(lab, stroke, &mut self.ui.overlay, cell, button, drag);
                }
            }
            _ if drag || button != MouseButton::Left => {}
            // With the overlay on, a click studies the cell instead of playing turns.
            _ if self.ui.overlay.on => self.screen = Screen::Look { cursor: cell },
            _ => {
                let seen = |p| !self.ui.sight || self.world().is_visible(p);
                let picked = self.world().monster_at(cell).filter(|m| seen(m.pos));
                if let Some(id) = picked.map(|m| m.id) {
                    self.ui.select(Some(id), self.session.world_mut());
                } else if self.world().state() == GameState::Playing {
                    self.start_travel(cell);
                }
            }
        }
    }
}
