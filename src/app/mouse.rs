//! The mouse: a click or a drag on the map, by screen (painting in the editor and the
//! lab, moving the cursor in look mode, choosing a monster or travelling while playing).

use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};

use super::screen;
use super::tools::tile_name;
use super::{App, EditOp, Mode, Screen, Stroke, lab};
use crate::content::map::Tile;
use crate::engine::grid::Pos;
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
            Mode::Edit => self.edit_mouse(cell, button, drag),
            Mode::Look => self.set_cursor(cell),
            Mode::Lab => self.lab_mouse(cell, button, drag),
            _ if drag || button != MouseButton::Left => {}
            // With the overlay on, a click studies the cell instead of playing turns.
            _ if self.ui.overlay.on => self.screen = Screen::Look { cursor: cell },
            _ => {
                let seen = |p| !self.ui.sight || self.world().is_visible(p);
                let picked = self.world().monster_at(cell).filter(|m| seen(m.pos));
                if let Some(id) = picked.map(|m| m.id) {
                    self.select(Some(id));
                } else if self.world().state() == GameState::Playing {
                    self.start_travel(cell);
                }
            }
        }
    }

    /// The mouse in edit mode: the left button paints walls, the right one floor; with a
    /// shape under way a click only moves the cursor, to its other end.
    fn edit_mouse(&mut self, cell: Pos, button: MouseButton, drag: bool) {
        self.set_cursor(cell);
        if self.screen.tools().is_some_and(|t| t.pending.is_some()) {
            return;
        }
        let current = self.screen.stroke_mut().and_then(|s| *s);
        let stroke = match current {
            Some(s) if drag => s,
            _ => {
                self.session.begin_stroke();
                let tile = if button == MouseButton::Left {
                    Tile::Wall
                } else {
                    Tile::Floor
                };
                Stroke {
                    last: cell,
                    tile,
                    replan: false,
                }
            }
        };
        if let Some(slot) = self.screen.stroke_mut() {
            *slot = Some(stroke);
        }
        // A fast drag skips cells between two reports: paint the line between them.
        let mut from = Some(stroke.last).filter(|_| drag);
        for p in screen::line(stroke.last, cell) {
            if from.take() == Some(p) {
                continue;
            }
            self.with_editor(|e| e.apply_edit(EditOp::SetTile(p, stroke.tile), true));
        }
        if let Some(Some(s)) = self.screen.stroke_mut() {
            s.last = cell;
        }
    }

    /// The mouse in the lab: the left button sets or drags the start, the right one the
    /// goal; in paint mode (`e`) the left one paints the lab's pen (walls, or what a key put
    /// last: water, brush or floor) and the right one floor.
    fn lab_mouse(&mut self, cell: Pos, button: MouseButton, drag: bool) {
        self.set_cursor(cell);
        let Screen::Lab { lab, stroke, .. } = self.screen.base_mut() else {
            return;
        };
        if lab.paint {
            let tile = if button == MouseButton::Left {
                lab.pen
            } else {
                Tile::Floor
            };
            let (from, painted) = match *stroke {
                Some(s) if drag => (s.last, s.replan),
                _ => (cell, false),
            };
            // The searches before the stroke are what its edit is set against.
            let before = match &lab.edited {
                Some(e) if painted => e.before.clone(),
                _ => lab.outcomes(),
            };
            let mut changed = false;
            for p in screen::line(from, cell) {
                changed |= lab.set_tile(p, tile);
            }
            if changed {
                lab.edited = Some(lab::Edited {
                    what: format!("{} painted to {cell}", tile_name(tile)),
                    before,
                });
            }
            // A lab stroke never replans the game: `replan` says it changed the lab's map.
            *stroke = Some(Stroke {
                last: cell,
                tile,
                replan: painted || changed,
            });
            let total = lab.expansions();
            self.ui.overlay.keep_step(total);
            return;
        } else if lab.quiz.is_some() {
            // The answer is where the cursor is: a click moves it, not the start.
        } else if button == MouseButton::Left {
            lab.set_start(cell);
        } else {
            lab.set_goal(cell);
        }
        self.ui.overlay.step = None;
    }
}
