//! The application: game state plus UI state, turning input events into actions.
//!
//! The terminal loop and the headless script runner drive this same `App`: they feed it
//! events, call [`App::tick`] while it is busy (travel, autoplay), and draw it.

pub mod bindings;
pub mod command;
pub mod config;
mod editor;
mod errand;
mod front;
pub mod help;
mod kept;
pub mod keymap;
pub mod lab;
mod mouse;
mod options;
mod overlay;
mod play;
pub mod quiz;
mod row;
pub mod screen;
pub mod screens;
mod search;
mod selection;
pub mod tools;
mod travel;
mod ui;
pub use crate::content::level::design::EditOp;
pub use crate::session::{
    DEFAULT_LEVEL, DEFAULT_LEVEL_PATH, DISK_SETTLE, DiskPoll, OpenError, PendingReload, Recovery,
    Replacing, Source, SourceKind, create_for_writing, find_recovery, open_level, parse_recovery,
    read_recovery, write_atomic, write_new,
};
pub use errand::Errand;
pub use front::Front;
pub use kept::KeptView;
pub use overlay::{Layer, Overlay, SPEEDS, TICK_MS};
pub use screens::confirm::Confirm;
pub use screens::{Mode, Screen, Stroke};
pub use tools::{Prefix, Tool, Tools, tile_name};
pub use ui::Ui;

use crossterm::event::{Event, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;
// Arc rather than Rc: the terminal runs a long turn on a worker thread, so the App is Send.
use crate::content::level::design::Design;
use crate::engine::grid::Pos;
use crate::game::{Act, GameState, Planning, World};
use crate::session::{Reloaded, Saved, Session};
use keymap::{Action, Context};
use std::sync::Arc;

/// One input of either front end: the terminal loop and the script runner feed the app
/// through [`App::drive`] alone, so a recording replays exactly as it was played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// A key, a mouse report or a resize.
    Event(Event),
    /// A tick of travel and autoplay (the terminal's every [`TICK_MS`] ms); nothing when
    /// the app is not busy.
    Tick,
    /// Read the level file again (the terminal's disk poll saw it move; a script's
    /// `reload`).
    Reload,
}

/// What the front end should do after an event, beyond drawing the app again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Nothing more.
    None,
    /// The player quit: restore the terminal and leave.
    Quit,
    /// Hand the terminal back to the shell until `fg`.
    Suspend,
}

/// The application state. A clone is the same game, to look into without changing it
/// (the replay viewer's inspection while paused).
#[derive(Debug, Clone)]
pub struct App {
    /// The run: the design, its file, its edits and the game.
    session: Session,
    /// The screen up now, with its state.
    screen: Screen,
    /// The UI state the screens share: selection, overlay, camera, long actions, settings.
    ui: ui::Ui,
    /// What the app and its front end tell each other beside the inputs.
    front: front::Front,
}

impl App {
    /// An app playing `design` from `seed`, loaded from `source`.
    pub fn new(design: Design, source: Source, seed: u64, size: (u16, u16)) -> Self {
        Self::with_progress(design, source, seed, size, Arc::default())
    }

    /// An app as [`App::new`] whose games report how far a turn's planning is to
    /// `progress`, for a front end to show while the app works on another thread.
    pub fn with_progress(
        design: Design,
        source: Source,
        seed: u64,
        size: (u16, u16),
        progress: Arc<crate::game::Progress>,
    ) -> Self {
        let session = Session::with_progress(design, source, seed, progress);
        let mut app = Self {
            session,
            screen: Screen::Play,
            ui: ui::Ui::new(size),
            front: front::Front::new(false),
        };
        app.play().welcome();
        app.ui.reset_for(app.session.world_mut());
        app.ui.settle_camera(&app.screen, app.session.world());
        app
    }

    /// Plays with `settings`: its bindings and colours from now on, and its sight and
    /// autoplay speed as the game's current ones (call it before the first input).
    pub fn apply_settings(&mut self, settings: config::Settings) {
        self.ui.sight = settings.sight;
        self.ui.overlay.speed = overlay::SPEEDS
            .iter()
            .position(|&s| s == settings.autoplay_speed)
            .unwrap_or(overlay::DEFAULT_SPEED);
        self.ui.settings = settings;
    }

    /// The app of a kept run, loaded: its session (restored), the settings it plays with,
    /// the terminal's size and the screen it showed. Nothing is replayed.
    pub fn resumed(
        session: Session,
        settings: config::Settings,
        size: (u16, u16),
        view: KeptView,
    ) -> Self {
        let (screen, ui) = view.restore(size, settings);
        let mut app = Self {
            session,
            screen,
            ui,
            front: front::Front::new(true),
        };
        // A selection or a cursor that no longer fits (a save edited by hand) falls back
        // to what a game would show.
        if app
            .ui
            .selection
            .id
            .is_some_and(|id| app.world().monster(id).is_none())
        {
            app.ui.selection = selection::Selection::default();
        }
        app.ui.sync_trace(app.session.world_mut());
        app
    }

    /// Takes one input and says what the front end should do next.
    pub fn drive(&mut self, input: &Input) -> Effect {
        match input {
            Input::Event(e) => return self.handle_event(e),
            Input::Tick if self.is_busy() => self.tick(),
            Input::Tick => {}
            Input::Reload => self.reload(),
        }
        if self.front.running {
            Effect::None
        } else {
            Effect::Quit
        }
    }

    /// Handles one input event and says what the front end should do next.
    pub fn handle_event(&mut self, event: &Event) -> Effect {
        self.front.notice = None;
        let was = self.world().state();
        let in_stroke = matches!(
            event,
            Event::Mouse(MouseEvent {
                kind: MouseEventKind::Drag(_),
                ..
            })
        );
        if !in_stroke {
            self.screen.end_stroke(&mut self.session, &mut self.ui);
        }
        let mut effect = Effect::None;
        match event {
            Event::Key(key) => {
                let contexts = self.contexts();
                let action =
                    keymap::lookup(&self.ui.settings.bindings, contexts, key).or_else(|| {
                        keymap::own_kind_key(
                            contexts,
                            self.session.design().level().grid.kinds(),
                            key,
                        )
                    });
                if let Some(action) = action {
                    effect = self.handle_action(action);
                }
            }
            Event::Mouse(mouse) => self.handle_mouse(mouse),
            Event::Resize(w, h) => self.ui.size = (*w, *h),
            _ => {}
        }
        // The pointer's cell is on screen already: scrolling now would move the map under
        // a drag.
        if !matches!(event, Event::Mouse(_)) {
            self.ui.settle_camera(&self.screen, self.session.world());
        }
        if !self.front.running {
            effect = Effect::Quit;
        }
        self.front.note_end(was, &self.session);
        effect
    }

    /// The run: the design, its file, its edits and the game.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// What the app and its front end tell each other beside the inputs, to read.
    pub fn front(&self) -> &Front {
        &self.front
    }

    /// What the app and its front end tell each other, to set the front end's part.
    pub fn front_mut(&mut self) -> &mut Front {
        &mut self.front
    }

    /// The UI state the screens share, to read (the view draws from it).
    pub fn ui(&self) -> &Ui {
        &self.ui
    }

    /// The run, to change by hand: the front ends' plumbing of the disk (a kept run's
    /// answers, a file caught up) and tests that script a situation. The screen does not
    /// follow until the next input.
    pub fn session_mut(&mut self) -> &mut Session {
        &mut self.session
    }

    /// The game.
    pub fn world(&self) -> &World {
        self.session.world()
    }

    /// Plays the edits kept in a recovery file of this level as unsaved edits; saving them
    /// removes the recovery file.
    pub fn take_recovery(&mut self, design: Design, recovery: std::path::PathBuf) {
        let name = self.session.take_recovery(design, recovery);
        self.began(None);
        let level = self.session.source().name();
        let save = self.ui.key(Context::Play, Action::Save);
        self.session.say(format!(
            "Recovered the unsaved edits kept in {name}: {save} saves them into {level}."
        ));
    }

    /// Sets how the monsters plan (the command line's and scripts' `--planning`).
    pub fn set_planning(&mut self, planning: Planning) {
        self.session.world_mut().set_planning(planning);
        self.ui.sync_trace(self.session.world_mut());
    }

    /// Takes the terminal size as it is before the first frame (a resize event also
    /// moves the camera).
    pub fn set_size(&mut self, size: (u16, u16)) {
        self.ui.size = size;
    }

    /// The screen up now.
    pub fn screen(&self) -> &Screen {
        &self.screen
    }

    /// The cursor of look, edit or the lab; elsewhere the player's cell.
    pub fn cursor(&self) -> Pos {
        self.screen.cursor(self.session.world())
    }

    /// Moves the cursor of look, edit or the lab to a cell, as a click there does; the
    /// other screens have no cursor.
    pub fn set_cursor(&mut self, p: Pos) {
        self.screen.set_cursor(p);
    }

    /// Whether [`App::tick`] has work to do (travel, resting, exploring or autoplay).
    pub fn is_busy(&self) -> bool {
        self.front.running && self.ui.busy()
    }

    /// Advances travel by one step and autoplay by one frame.
    pub fn tick(&mut self) {
        self.front.notice = None;
        let was = self.world().state();
        self.screen.end_stroke(&mut self.session, &mut self.ui);
        if self.ui.travel.is_some() {
            self.play().travel_step();
        }
        if self.ui.errand.is_some() {
            self.play().errand_step();
        }
        if self.ui.overlay.autoplay {
            let total = self.screen.shown_expansions(self.session.world());
            self.ui.overlay.tick(total);
        }
        self.ui.settle_camera(&self.screen, self.session.world());
        self.front.note_end(was, &self.session);
    }

    /// Contexts whose bindings apply now, most specific first: a key none of them binds
    /// does nothing.
    pub fn contexts(&self) -> &'static [Context] {
        self.screen.contexts(self.ui.overlay.on)
    }

    /// One bound key's action, by screen.
    fn handle_action(&mut self, action: Action) -> Effect {
        match action {
            Action::Suspend => return Effect::Suspend,
            Action::Interrupt => {
                // Ctrl-C quits at once, unless that would drop unsaved edits: then it
                // asks, and a second Ctrl-C quits anyway.
                let asked = matches!(self.screen.question(), Some(Confirm::Quit));
                if self.session.unsaved() && !asked {
                    self.screen.ask(Confirm::Quit);
                } else {
                    self.front.running = false;
                }
                return Effect::None;
            }
            _ => {}
        }
        // Any key stops travel, as players expect of an interrupted run. Autoplay goes on
        // until `a` pauses it or a step key takes over, so its speed can be changed live.
        if self.ui.stop_errands() {
            self.session.say("You stop.");
            return Effect::None;
        }
        let (size, unsaved) = (self.ui.size, self.session.unsaved());
        let last = self.world().log().len().saturating_sub(1);
        let pages =
            || help::layout(&self.ui.settings.bindings, Rect::new(0, 0, size.0, size.1)).pages();
        let transition = match &mut self.screen {
            Screen::Confirm { question, .. } => question.handle(action, unsaved),
            Screen::Help { help, .. } => help.handle(action, pages()).widen(),
            Screen::History { history, .. } => {
                // A page is the screen less its title, its footer and a line of context.
                let page = usize::from(size.1).saturating_sub(3);
                history.handle(action, page, last).widen()
            }
            _ => {
                // The run is over: a new run, quit, help, or reading back what happened.
                let over = matches!(self.screen, Screen::Play)
                    && self.world().state() != GameState::Playing;
                if !over
                    || matches!(
                        action,
                        Action::Restart | Action::Quit | Action::Help | Action::History
                    )
                {
                    self.apply(action);
                }
                return Effect::None;
            }
        };
        match transition {
            screens::Transition::Stay => {}
            screens::Transition::Close => self.screen.close(),
            screens::Transition::Then((question, action)) => {
                self.screen.close();
                self.answered(question, action);
            }
        }
        Effect::None
    }

    /// Carries out the answer to a question, closed already.
    fn answered(&mut self, question: Confirm, action: Action) {
        match (question, action) {
            (Confirm::Quit, Action::Yes) => self.front.running = false,
            (Confirm::Quit, Action::SaveAndQuit) => {
                self.save(false);
                // Quit once the design is safely written; a save that asks or fails stays.
                if !self.session.unsaved() {
                    self.front.running = false;
                }
            }
            (Confirm::Overwrite, Action::Yes) => self.save(true),
            (Confirm::Overwrite, _) => self.session.say("Not saved."),
            (Confirm::Restart, Action::Yes) => self.restart(),
            (Confirm::Abandon, Action::Yes) => {
                // Any long action belonged to the game left behind.
                self.ui.stop_errands();
                self.session.world_mut().abandon();
            }
            (Confirm::NewLevel, Action::Yes) => self.new_level(),
            (Confirm::BlankLevel, Action::Yes) => self.blank_level(true),
            (Confirm::Reload(pending), Action::TakeFile) => {
                let outcome = self.session.take_reload(*pending);
                self.reloaded(outcome);
            }
            // The player keeps theirs over the file's newer design: the file is not taken
            // as seen, so the next save asks before overwriting it.
            (Confirm::Reload(_), _) => {
                self.session.keep_own_design();
                let name = self.session.source().name();
                let save = self.ui.key(Context::Play, Action::Save);
                self.session.say(format!(
                    "Kept your edits; {name} on disk is newer ({save} asks before overwriting it)."
                ));
            }
            _ => {}
        }
    }

    /// Carries out one action on the play, look, edit or lab screen: what a key (through
    /// the key table) or a click asks for. Each part of the app takes the commands that are
    /// its own: the game's, the search's, the editor's, then moving between the screens.
    pub fn apply(&mut self, action: Action) {
        let (session, ui, screen) = (&mut self.session, &mut self.ui, &mut self.screen);
        let game = travel::Play::new(session, ui).handle(screen, action);
        let searched = game.and_then(|a| screen.search_action(session, ui, a));
        let Some(action) = searched.and_then(|a| self.edit_action(a)) else {
            return;
        };
        match action {
            Action::Move(dx, dy) => match self.screen.mode() {
                Mode::Look | Mode::Edit | Mode::Lab => {
                    let p = self.cursor().offset(dx, dy);
                    if self.world().grid().contains(p) {
                        self.set_cursor(p);
                    }
                }
                _ => self.play().act(Act::Move(dx, dy)),
            },
            Action::Help => self.screen.open_over(|back| Screen::Help {
                help: screens::help::Help::default(),
                back,
            }),
            Action::Quit => {
                if self.session.unsaved() || self.session.in_progress() {
                    self.screen.ask(Confirm::Quit);
                } else {
                    self.front.running = false;
                }
            }
            Action::Abandon if self.world().state() == GameState::Playing => {
                self.screen.ask(Confirm::Abandon);
            }
            Action::Restart => {
                if self.session.in_progress() {
                    self.screen.ask(Confirm::Restart);
                } else {
                    self.restart();
                }
            }
            Action::ToggleOverlay => {
                // From look mode, `o` also leaves it: the overlay is what the player was
                // reading.
                if self.screen.mode() == Mode::Look {
                    self.screen = Screen::Play;
                }
                self.ui.overlay.on = !self.ui.overlay.on;
                self.ui.overlay.step = None;
                self.ui.sync_trace(self.session.world_mut());
            }
            Action::Look => {
                self.screen = if self.screen.mode() == Mode::Look {
                    Screen::Play
                } else {
                    Screen::Look {
                        cursor: self.ui.focus_default(&self.screen, self.session.world()),
                    }
                };
            }
            Action::TravelTo if self.screen.mode() == Mode::Look => {
                let world = self.session.world();
                match screens::look::travel_to(self.cursor(), world, self.ui.sight) {
                    screens::look::Go::Back => self.screen = Screen::Play,
                    screens::look::Go::There(to) => {
                        self.screen = Screen::Play;
                        self.start_travel(to);
                    }
                    screens::look::Go::Refused(why) => self.session.say(why),
                }
            }
            Action::Back => match self.screen.mode() {
                Mode::Edit
                    if self
                        .screen
                        .with_editor(&mut self.session, &mut self.ui, |e| e.tools.cancel())
                        == Some(true) => {}
                Mode::Look | Mode::Edit => self.screen = Screen::Play,
                Mode::Lab => self.screen.leave_lab(&mut self.ui, self.session.world()),
                _ => {}
            },
            Action::Save => self.save(false),
            Action::NewLevel => {
                if self.session.unsaved() || self.session.in_progress() {
                    self.screen.ask(Confirm::NewLevel);
                } else {
                    self.new_level();
                }
            }
            Action::History => self.screen.open_over(|back| Screen::History {
                history: screens::history::History::default(),
                back,
            }),
            // The other screens' own keys (the help, the history and questions handle them),
            // and those of the game, the search and the editor, taken above.
            _ => {}
        }
    }

    /// Starts the run again from its first floor: with the same seed, or, when runs are
    /// kept, as a new run with the next seed (a run in progress is abandoned).
    fn restart(&mut self) {
        let seed = if self.front.keeping {
            crate::game::run::next_run_seed(self.world().seed())
        } else {
            self.world().seed()
        };
        match self.session.new_run(seed) {
            Ok(replaced) => self.began(replaced),
            Err(crate::session::UnsavedBelow) => {
                self.session.say(format!(
                    "Save ({}) or undo your edits to this floor first: restarting goes back to the first floor.",
                    self.ui.key(Context::Play, Action::Save)
                ));
                return;
            }
        }
        if self.front.keeping {
            self.session.say(format!("A new run begins, seed {seed}."));
        } else {
            self.session.say("A new game begins.");
        }
    }

    /// A new game began in the session, in place of the run `replaced` if one was in
    /// progress (the front end scores it as abandoned): the screen starts over on it.
    fn began(&mut self, replaced: Option<Box<crate::session::morgue::RunEnd>>) {
        self.front.replaced(replaced);
        self.front.run_serial += 1;
        self.play().welcome();
        self.screen = Screen::Play;
        self.ui.reset_for(self.session.world_mut());
    }

    /// Generates a level with the next seed: caves as large as the map view, or, when a
    /// generated level is in play, the next kind at its size (pressing `G` again and again
    /// shows every kind).
    fn new_level(&mut self) {
        let view = self.ui.map_view_size(&self.screen).unwrap_or((0, 0));
        match self.session.new_level(view) {
            Ok(made) => {
                self.began(made.replaced);
                let (kind, (w, h), seed, name) = (made.kind, made.size, made.seed, made.name);
                let (again, save) = (
                    self.ui.key(Context::Play, Action::NewLevel),
                    self.ui.key(Context::Play, Action::Save),
                );
                self.session.say(format!(
                    "Generated {kind} {w}x{h} seed {seed}; {again} for {}, {save} saves it as {name}.",
                    kind.next()
                ));
                self.session.say(format!(
                    "Again: astar-rogue generate --kind {kind} --size {w}x{h} --seed {seed}"
                ));
            }
            Err(e) => self.session.say(format!("Cannot generate: {e}")),
        }
    }

    /// Saves the design, saying how it went; a file changed on disk is overwritten only
    /// when the player says so.
    fn save(&mut self, force: bool) {
        match self.session.save(force) {
            Saved::Written {
                name,
                replay: false,
            } if self.front.keeping => self.session.say(format!(
                "Saved the level design to {name}; your run is kept apart, when you leave."
            )),
            Saved::Written {
                name,
                replay: false,
            } => self.session.say(format!("Saved {name}.")),
            Saved::Written { name, replay: true } => self
                .session
                .say(format!("Saved {name} (a replay: nothing written).")),
            Saved::NoFile => self.session.say("This level has no file to save to."),
            Saved::Asks { name, why } => {
                self.screen.ask(Confirm::Overwrite);
                let (yes, no) = (
                    self.ui.key(Context::Confirm, Action::Yes),
                    self.ui.key(Context::Confirm, Action::No),
                );
                self.session
                    .say(format!("{name} {why}. Overwrite it? ({yes}/{no})"));
            }
            Saved::Failed { name, error } => self.session.say(format!(
                "Could not save {name}: {error}. The file on disk is unchanged."
            )),
        }
    }

    /// Checks the level file's length and time and reads it again once a change has
    /// settled; what it found (a read is what a recording writes as `reload`).
    pub fn poll_disk(&mut self) -> DiskPoll {
        let polled = self.session.poll_disk();
        self.polled(polled)
    }

    /// What a poll of the disk found, for the player.
    fn polled(&mut self, polled: crate::session::Polled) -> DiskPoll {
        match polled {
            crate::session::Polled::Quiet => DiskPoll::Quiet,
            crate::session::Polled::Writing { name, pid } => {
                self.session.say(format!(
                    "{name} is being written by another program (process {pid}); the game reads it once that is done."
                ));
                DiskPoll::Waiting
            }
            crate::session::Polled::Read(outcome) => {
                self.reloaded(outcome);
                DiskPoll::Reloaded
            }
        }
    }

    /// Reads the level file again: the file is the truth, and with unsaved edits in the
    /// game the player is asked which to keep. (A rebuilt kept run answers as its poll
    /// did, which may have found the file still being written.)
    pub fn reload(&mut self) {
        let polled = self.session.replay_reload();
        self.polled(polled);
    }

    /// What a reload did, for the player.
    fn reloaded(&mut self, outcome: Reloaded) {
        match outcome {
            Reloaded::NoFile => self.session.say("This level has no file to reload."),
            Reloaded::Unchanged | Reloaded::Unsettled => {}
            Reloaded::Failed(why) => self
                .session
                .say(format!("Reload failed, level kept: {why}")),
            Reloaded::Conflict(pending) => {
                let name = self.session.source().name();
                let (take, keep) = (
                    self.ui.key(Context::Confirm, Action::TakeFile),
                    self.ui.key(Context::Confirm, Action::KeepMine),
                );
                self.session.say(format!(
                    "{name} changed on disk, and the game has unsaved edits: {take} takes the file's, {keep} keeps yours."
                ));
                self.screen.ask(Confirm::Reload(pending));
            }
            Reloaded::Restarted {
                name,
                history_cleared,
                replaced,
            } => {
                // A designer editing in the game and in their editor at once stays in the
                // game's editor, on the same cell when the file kept it, with the same glyph.
                let editing = match self.screen.base() {
                    Screen::Edit { cursor, tools, .. } => Some((*cursor, tools.glyph)),
                    _ => None,
                };
                self.began(replaced);
                if let Some((cursor, glyph)) = editing {
                    let world = self.session.world();
                    self.screen = Screen::Edit {
                        cursor: Some(cursor)
                            .filter(|&c| world.grid().contains(c))
                            .unwrap_or(world.player().pos),
                        stroke: None,
                        tools: Tools {
                            glyph,
                            ..Tools::default()
                        },
                    };
                }
                self.session.say(format!(
                    "{name} changed on disk: the game restarts from the file."
                ));
                if history_cleared {
                    self.session
                        .say("Undo history cleared: it belonged to the level before.");
                }
            }
        }
    }

    /// The game played, lent to the play screen's component for one command or tick.
    fn play(&mut self) -> travel::Play<'_> {
        travel::Play::new(&mut self.session, &mut self.ui)
    }

    /// Starts travel toward a cell, one step per tick.
    pub fn start_travel(&mut self, to: Pos) {
        self.play().start_travel(to);
    }
}
