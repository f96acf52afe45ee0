//! The app's side of the editor: entering and leaving it, going between the floors of a
//! campaign and starting a blank level (they change the screen or the run); and the edit
//! screen lending its state to the editor for one command and replanning the monsters
//! after an edit (here and not in `screens`, which the shared UI state's settings read).
//! The editor's own commands are [`super::screens::edit::Editor`]'s; the session checks
//! each edit against the design and applies it to the design and the game in play alike.

use super::keymap::{Action, Context};
use super::screens::edit::Editor;
use super::tools::Tools;
use super::ui::Ui;
use super::{App, Confirm, Mode, Screen};
use crate::engine::grid::Pos;
use crate::session::{NoFloor, Session};

impl App {
    /// Carries out a command of the editor: `None` once it is
    /// carried out, else the action, for another part of the app.
    pub(super) fn edit_action(&mut self, action: Action) -> Option<Action> {
        match action {
            Action::Edit => {
                self.screen = if self.screen.mode() == Mode::Edit {
                    Screen::Play
                } else {
                    // On the player: the editor's work starts where they stand.
                    Screen::Edit {
                        cursor: self.world().player().pos,
                        stroke: None,
                        tools: Tools::default(),
                    }
                };
            }
            Action::FloorDown => self.change_floor(true),
            Action::FloorUp => self.change_floor(false),
            Action::BlankLevel => self.blank_level(false),
            other => {
                let (session, ui) = (&mut self.session, &mut self.ui);
                return self
                    .screen
                    .with_editor(session, ui, |e| e.handle(other))
                    .unwrap_or(Some(other));
            }
        }
        None
    }

    /// `]` and `[`: edits the designed floor below or above.
    pub(super) fn change_floor(&mut self, down: bool) {
        let moved = if down {
            self.session.floor_down()
        } else {
            self.session.floor_up()
        };
        match moved {
            Ok(depth) => {
                // The UI starts over on the new floor (its long actions belonged to the one left).
                self.ui.reset_for(self.session.world_mut());
                self.screen.set_cursor(self.session.world().player().pos);
                let name = self.session.source().name();
                let last = self.world().final_depth();
                self.session.say(format!(
                    "Editing floor {depth} of {last}, {name}; the run goes on from here."
                ));
            }
            Err(why) => self.session.say(match why {
                NoFloor::Unsaved => format!(
                    "Save ({}) or undo your edits first: the other floor replaces this design.",
                    self.ui.key(Context::Edit, Action::Save)
                ),
                NoFloor::NoNext => format!(
                    "This floor names no floor below: {} makes one (a next: header).",
                    self.ui.key(Context::Edit, Action::FloorBelow)
                ),
                NoFloor::Top => "This is the first floor.".to_string(),
                NoFloor::Generated => {
                    "This floor was generated: only designed floors are gone to.".to_string()
                }
                NoFloor::Broken(why) => format!("Cannot go there: {why}"),
            }),
        }
    }

    /// `C-n`: a new run on a blank level (asks first when that would drop edits or a
    /// game under way).
    pub(super) fn blank_level(&mut self, asked: bool) {
        if !asked && (self.session.unsaved() || self.session.in_progress()) {
            self.screen.ask(Confirm::BlankLevel);
            return;
        }
        let editing = self.screen.mode() == Mode::Edit;
        let (w, h) = self.ui.map_view_size(&self.screen).unwrap_or((40, 14));
        match self.session.new_blank((w.max(3), h.max(3))) {
            Ok(crate::session::NewBlank { name, replaced }) => {
                self.began(replaced);
                if editing {
                    self.screen = Screen::Edit {
                        cursor: self.world().player().pos,
                        stroke: None,
                        tools: Tools::default(),
                    };
                }
                let (edit, save) = (
                    self.ui.key(Context::Play, Action::Edit),
                    self.ui.key(Context::Edit, Action::Save),
                );
                self.session.say(format!(
                    "A blank {}x{} level: {edit} edits it, {save} saves it as {name}.",
                    w.max(3),
                    h.max(3)
                ));
            }
            Err(e) => self.session.say(format!("Cannot make a blank level: {e}")),
        }
    }
}

impl Screen {
    /// Runs `work` with the editor on the edit screen's state (under any question), the
    /// `session` whose design it edits and the clipboard and keys of `ui`; `None` on
    /// another screen. The monsters replan for what it changed.
    pub(super) fn with_editor<R>(
        &mut self,
        session: &mut Session,
        ui: &mut Ui,
        work: impl FnOnce(&mut Editor) -> R,
    ) -> Option<R> {
        let Screen::Edit {
            cursor,
            tools,
            stroke,
        } = self.base_mut()
        else {
            return None;
        };
        let mut editor = Editor {
            session,
            cursor,
            tools,
            stroke,
            clipboard: &mut ui.clipboard,
            bindings: &ui.settings.bindings,
            edited: false,
        };
        let done = work(&mut editor);
        if editor.edited {
            self.after_edit(session, ui);
        }
        Some(done)
    }

    /// Ends the mouse stroke under way: the game's monsters replan once for all it painted.
    pub(super) fn end_stroke(&mut self, session: &mut Session, ui: &mut Ui) {
        if self.take_stroke() {
            self.after_edit(session, ui);
        }
    }

    /// Monsters replan at once so the overlay shows the new search; during a mouse stroke
    /// they replan once, when it ends. The cursor stays on the map (an undone resize may
    /// have made it smaller).
    pub(super) fn after_edit(&mut self, session: &mut Session, ui: &mut Ui) {
        ui.selection.keep(session.world(), ui.sight);
        ui.overlay.step = None;
        let grid = session.world().grid();
        let (w, h) = (grid.width() as i32, grid.height() as i32);
        if let Some(c) = self.cursor_mut() {
            *c = Pos::new(c.x.clamp(0, w - 1), c.y.clamp(0, h - 1));
        }
        if let Some(Some(stroke)) = self.stroke_mut() {
            stroke.replan = true;
            return;
        }
        // One replan for everyone, the traced monster included.
        let traced = ui.wanted_trace();
        session.world_mut().replan_tracing(traced);
    }
}
