//! The application: game state plus UI state, turning input events into actions.
//!
//! The terminal loop and the headless script runner drive this same `App`: they feed it
//! events, call [`App::tick`] while it is busy (travel, autoplay), and draw it.

mod editor;
mod files;
pub mod help;
pub mod keymap;
pub mod lab;
pub mod screen;
mod search;

pub use editor::{EditOp, Editor};
pub use files::{
    DEFAULT_LEVEL, DEFAULT_LEVEL_PATH, DISK_SETTLE, DiskPoll, OpenError, PendingReload, Recovery,
    Replacing, Source, SourceKind, create_for_writing, find_recovery, open_level, read_recovery,
    write_atomic,
};
pub use search::{Layer, Overlay, SPEEDS, TICK_MS};

use crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::Rect;
use std::cell::RefCell;
// Arc rather than Rc: the terminal runs a long turn on a worker thread, so the App is Send.
use std::sync::Arc;

use crate::content::level::Design;
use crate::engine::astar::{SearchOptions, Snapshot};
use crate::engine::grid::{Pos, Tile};
use crate::game::{Act, ActResult, GameState, Planning, World};
use keymap::{Action, Context};

/// A replayed snapshot with the (trace serial, step) it was replayed for.
type SnapshotCache = ((u64, u32), Arc<Snapshot>);

/// What the screen is showing and what keys mean.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Playing.
    Play,
    /// The help screen.
    Help,
    /// Moving a cursor to inspect cells.
    Look,
    /// Painting the level.
    Edit,
    /// The search lab: any start and goal, the search stepped and explained.
    Lab,
    /// Reading the message history.
    History,
}

/// A question waiting for an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Confirm {
    /// Quit during a game, or with unsaved edits?
    Quit,
    /// Overwrite a level file that changed on disk?
    Overwrite,
    /// Restart during a game?
    Restart,
    /// Replace the level by a generated one, during a game or with unsaved edits?
    NewLevel,
    /// The file changed on disk while the game has unsaved edits: take the file's, or
    /// keep the game's?
    Reload(Box<PendingReload>),
}

/// A mouse stroke in the editor: cells painted while a button is held.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stroke {
    /// The last cell painted.
    last: Pos,
    /// What the stroke paints.
    tile: Tile,
    /// Whether an edit happened, so the monsters replan once the stroke ends.
    replan: bool,
}

/// The first floor of a run, kept while the player is on generated floors below it.
#[derive(Debug)]
struct FirstFloor {
    design: Design,
    source: Source,
    generated: Option<(crate::content::generate::GenKind, u64)>,
}

/// The application state.
#[derive(Debug)]
pub struct App {
    /// The game.
    pub world: World,
    /// The level as designed: what its file says, with the editor's changes. The game in
    /// play is built from it (restart starts from it) and a save writes it.
    pub design: Design,
    /// Where the level came from and where it saves.
    pub source: Source,
    /// The current mode.
    pub mode: Mode,
    /// The mode the help screen returns to.
    pub help_return: Mode,
    /// The help page shown.
    pub help_page: usize,
    /// A pending question.
    pub confirm: Option<Confirm>,
    /// The selected monster's id.
    pub selected: Option<u32>,
    /// Whether the selected monster's path is drawn.
    pub show_path: bool,
    /// The search overlay.
    pub overlay: Overlay,
    /// The look/edit cursor.
    pub cursor: Pos,
    /// The editor's brush and history.
    pub editor: Editor,
    /// Where the player is travelling to.
    pub travel: Option<Pos>,
    /// The terminal size the app last saw.
    pub size: (u16, u16),
    /// False once the player quit.
    pub running: bool,
    /// The generator kind and seed of the level in play, when it was generated.
    pub generated: Option<(crate::content::generate::GenKind, u64)>,
    /// The map cell drawn at the top-left of the map view.
    pub camera: Pos,
    /// Whether the map shows only what the player sees and remembers while playing (the
    /// overlay, look and edit modes always show the whole map).
    pub sight: bool,
    /// Messages of the history hidden below its bottom line: 0 shows the newest.
    pub history_scroll: usize,
    /// The mode the message history returns to.
    pub history_return: Mode,
    /// The run's first floor while the player is deeper: restarting the run goes back to it.
    first_floor: Option<Box<FirstFloor>>,
    /// The mouse stroke under way in the editor.
    stroke: Option<Stroke>,
    /// The search lab, while it is open.
    lab: Option<lab::Lab>,
    /// The mode leaving the lab returns to.
    lab_return: Mode,
    /// The last replayed snapshot, keyed by trace serial and step.
    snapshot_cache: RefCell<Option<SnapshotCache>>,
}

impl App {
    /// An app playing `design` from `seed`, loaded from `source`.
    pub fn new(design: Design, source: Source, seed: u64, size: (u16, u16)) -> Self {
        let world = World::new(design.level(), seed);
        let selected = world.monsters().first().map(|m| m.id);
        let cursor = world.player().pos;
        let mut app = Self {
            world,
            design,
            source,
            mode: Mode::Play,
            help_return: Mode::Play,
            help_page: 0,
            confirm: None,
            selected,
            show_path: false,
            overlay: Overlay::default(),
            cursor,
            editor: Editor::default(),
            travel: None,
            size,
            running: true,
            generated: None,
            camera: Pos::default(),
            sight: true,
            history_scroll: 0,
            history_return: Mode::Play,
            first_floor: None,
            stroke: None,
            lab: None,
            lab_return: Mode::Play,
            snapshot_cache: RefCell::new(None),
        };
        app.welcome();
        app.sync_trace();
        app.settle_camera();
        app
    }

    /// The first log lines of a run: its goal, where the keys are explained and how to
    /// see a search (the goal first, so a narrow log shows it), then the level's own words.
    fn welcome(&mut self) {
        let goal = self.world.goal();
        let see = if self.world.monsters().is_empty() {
            ""
        } else {
            ", o shows a monster's A* search"
        };
        self.world.say(format!("{goal} ? for help{see}."));
        self.world.say_intro();
    }

    /// Handles one input event.
    pub fn handle_event(&mut self, event: &Event) {
        let in_stroke = matches!(
            event,
            Event::Mouse(MouseEvent {
                kind: MouseEventKind::Drag(_),
                ..
            })
        );
        if !in_stroke {
            self.end_stroke();
        }
        match event {
            Event::Key(key) if key.kind != KeyEventKind::Release => self.handle_key(key),
            Event::Mouse(mouse) => self.handle_mouse(mouse),
            Event::Resize(w, h) => self.size = (*w, *h),
            _ => {}
        }
        // The pointer's cell is on screen already: scrolling now would move the map under
        // a drag.
        if !matches!(event, Event::Mouse(_)) {
            self.settle_camera();
        }
    }

    /// Whether the design has edits that are not saved in its file.
    pub fn unsaved(&self) -> bool {
        self.editor.unsaved()
    }

    /// Ends the mouse stroke under way; the monsters replan once for all it painted.
    fn end_stroke(&mut self) {
        if self.stroke.take().is_some_and(|s| s.replan) {
            self.after_edit();
        }
    }

    /// Keeps the camera where the mode wants it: on the player while playing; in look and
    /// edit modes it moves only when the cursor nears the edge of the view, so the map does
    /// not jump under the pointer.
    pub(super) fn settle_camera(&mut self) {
        let area = Rect::new(0, 0, self.size.0, self.size.1);
        if let Some(view) = screen::camera_view(self, area) {
            self.camera = screen::camera(self, view);
        }
    }

    /// Whether [`App::tick`] has work to do (travel or autoplay).
    pub fn is_busy(&self) -> bool {
        self.running && (self.travel.is_some() || self.overlay.autoplay)
    }

    /// Advances travel by one step and autoplay by one frame.
    pub fn tick(&mut self) {
        self.end_stroke();
        if self.travel.is_some() {
            self.travel_step();
        }
        if self.overlay.autoplay {
            self.autoplay_tick();
        }
        self.settle_camera();
    }

    /// Contexts whose bindings apply now, most specific first.
    pub fn contexts(&self) -> &'static [Context] {
        match (self.mode, self.overlay.on) {
            (Mode::Edit, _) => &[Context::Edit, Context::Global],
            (Mode::Lab, _) => &[Context::Lab, Context::Overlay, Context::Global],
            (Mode::Look, true) => &[Context::Look, Context::Overlay, Context::Global],
            (Mode::Look, false) => &[Context::Look, Context::Global],
            (_, true) => &[Context::Overlay, Context::Play, Context::Global],
            (_, false) => &[Context::Play, Context::Global],
        }
    }

    fn handle_key(&mut self, key: &KeyEvent) {
        // Any key stops travel, as players expect of an interrupted run. Autoplay goes on
        // until `a` pauses it or a step key takes over, so its speed can be changed live.
        if self.travel.take().is_some() {
            self.world.say("You stop.");
            return;
        }
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && key.code == KeyCode::Char('c') {
            // Ctrl-C quits at once, unless that would drop unsaved edits: then it asks,
            // and a second Ctrl-C quits anyway.
            if self.unsaved() && self.confirm != Some(Confirm::Quit) {
                self.ask_quit();
            } else {
                self.running = false;
            }
            return;
        }
        if let Some(question) = self.confirm.take() {
            self.answer(question, key);
            return;
        }
        if self.mode == Mode::Help {
            self.page_help(key.code);
            return;
        }
        if self.mode == Mode::History {
            self.history_key(key);
            return;
        }
        if self.world.state() != GameState::Playing && self.mode == Mode::Play {
            // The run is over: a new run, quit, help, or reading back what happened.
            if let Some(
                action @ (Action::Restart | Action::Quit | Action::Help | Action::History),
            ) = keymap::lookup(self.contexts(), key)
            {
                self.apply(action);
            }
            return;
        }
        if let Some(action) = keymap::lookup(self.contexts(), key) {
            self.apply(action);
        }
    }

    fn answer(&mut self, question: Confirm, key: &KeyEvent) {
        let KeyCode::Char(c) = key.code else {
            return self.declined(question);
        };
        match (question, c.to_ascii_lowercase()) {
            (Confirm::Quit, 'y') => self.running = false,
            (Confirm::Quit, 's') if self.unsaved() => {
                self.save(false);
                // Quit once the design is safely written; a save that asks or fails stays.
                if !self.unsaved() {
                    self.running = false;
                }
            }
            (Confirm::Overwrite, 'y') => self.save(true),
            (Confirm::Restart, 'y') => self.restart(),
            (Confirm::NewLevel, 'y') => self.new_level(),
            (Confirm::Reload(pending), 'f') => self.take_reload(*pending),
            (Confirm::Reload(_), 'k') => self.keep_own_design(),
            (question, _) => self.declined(question),
        }
    }

    /// Any other answer: nothing happens, and the question that needs one asks again.
    fn declined(&mut self, question: Confirm) {
        match question {
            Confirm::Overwrite => self.world.say("Not saved."),
            // Dropping either version silently is what the question is there to prevent.
            Confirm::Reload(_) => self.confirm = Some(question),
            _ => {}
        }
    }

    /// Whether a game is under way: playing, with turns played.
    fn in_progress(&self) -> bool {
        self.world.state() == GameState::Playing && self.world.turn() > 0
    }

    fn ask_quit(&mut self) {
        self.confirm = Some(Confirm::Quit);
    }

    fn open_help(&mut self) {
        self.help_return = self.mode;
        self.help_page = 0;
        self.mode = Mode::Help;
    }

    /// Pages through the help; any key but the paging ones closes it.
    fn page_help(&mut self, code: KeyCode) {
        let pages = help::layout(Rect::new(0, 0, self.size.0, self.size.1)).pages();
        match code {
            KeyCode::PageDown | KeyCode::Char(' ') | KeyCode::Right | KeyCode::Down
                if self.help_page + 1 < pages =>
            {
                self.help_page += 1
            }
            KeyCode::PageUp | KeyCode::Left | KeyCode::Up if self.help_page > 0 => {
                self.help_page -= 1
            }
            KeyCode::PageDown
            | KeyCode::PageUp
            | KeyCode::Char(' ')
            | KeyCode::Right
            | KeyCode::Down
            | KeyCode::Left
            | KeyCode::Up => {}
            _ => self.mode = self.help_return,
        }
    }

    /// A key in the message history: the movement keys scroll it (up and down a message,
    /// PgUp and PgDn a page, Home and End to either end); Esc and Ctrl-P close it.
    fn history_key(&mut self, key: &KeyEvent) {
        let page = (self.size.1 as isize - 3).max(1);
        let by = match keymap::lookup(&[Context::Global], key) {
            Some(Action::Move(0, -1)) => 1,
            Some(Action::Move(0, 1)) => -1,
            Some(Action::Move(1, -1)) => page,
            Some(Action::Move(1, 1)) => -page,
            Some(Action::Move(-1, -1)) => isize::MAX,
            Some(Action::Move(-1, 1)) => isize::MIN,
            Some(Action::Back | Action::History) => {
                self.mode = self.history_return;
                return;
            }
            _ => return,
        };
        let last = self.world.log().len().saturating_sub(1);
        self.history_scroll = self.history_scroll.saturating_add_signed(by).min(last);
    }

    /// Carries out one action: what a key (through the key table) or a click asks for.
    pub fn apply(&mut self, action: Action) {
        match action {
            Action::Move(dx, dy) => match self.mode {
                Mode::Look | Mode::Edit | Mode::Lab => self.move_cursor(dx, dy),
                _ => self.act(Act::Move(dx, dy)),
            },
            Action::Wait => self.act(Act::Wait),
            Action::Help => self.open_help(),
            Action::NextMonster => self.cycle_selection(1),
            Action::PrevMonster => self.cycle_selection(-1),
            Action::Quit => {
                if self.unsaved() || self.in_progress() {
                    self.ask_quit();
                } else {
                    self.running = false;
                }
            }
            Action::Restart => {
                if self.in_progress() {
                    self.confirm = Some(Confirm::Restart);
                } else {
                    self.restart();
                }
            }
            Action::ToggleOverlay => {
                self.overlay.on = !self.overlay.on;
                self.overlay.step = None;
                self.sync_trace();
            }
            Action::TogglePath => self.show_path = !self.show_path,
            Action::Look => {
                self.mode = if self.mode == Mode::Look {
                    Mode::Play
                } else {
                    self.cursor = self.focus_default();
                    Mode::Look
                };
            }
            Action::Edit => {
                self.mode = if self.mode == Mode::Edit {
                    Mode::Play
                } else {
                    self.cursor = self.focus_default();
                    Mode::Edit
                };
            }
            Action::Back => match self.mode {
                Mode::Look | Mode::Edit => self.mode = Mode::Play,
                Mode::Lab => self.leave_lab(),
                _ => {}
            },
            Action::Save => self.save(false),
            Action::NewLevel => {
                if self.unsaved() || self.in_progress() {
                    self.confirm = Some(Confirm::NewLevel);
                } else {
                    self.new_level();
                }
            }
            Action::StepBack => {
                self.overlay.autoplay = false;
                self.step_to(self.current_step().saturating_sub(1));
            }
            Action::StepForward => {
                self.overlay.autoplay = false;
                self.step_to(self.current_step().saturating_add(1));
            }
            Action::StepStart => {
                self.overlay.autoplay = false;
                self.step_to(0);
            }
            Action::StepEnd => {
                self.overlay.autoplay = false;
                self.overlay.step = None;
            }
            Action::Autoplay => self.toggle_autoplay(),
            Action::Faster => self.overlay.speed = (self.overlay.speed + 1).min(SPEEDS.len() - 1),
            Action::Slower => self.overlay.speed = self.overlay.speed.saturating_sub(1),
            Action::CycleNeighbourhood => {
                self.change_options(|o| o.neighbourhood = o.neighbourhood.next())
            }
            Action::CycleHeuristic => self.change_options(|o| o.heuristic = o.heuristic.next()),
            Action::CycleWeight => self.change_options(App::next_weight),
            Action::ToggleGreedy => self.change_options(|o| o.greedy = !o.greedy),
            Action::ResetOptions => self.change_options(|o| *o = SearchOptions::default()),
            Action::CycleLayer => self.overlay.layer = self.overlay.layer.next(),
            Action::CyclePlanning => {
                let next = self.world.planning().next();
                self.world.set_planning(next);
                self.world.say(match next {
                    Planning::AStar => "Monsters plan: each its own A*, every turn.".to_string(),
                    Planning::Capped(n) => format!(
                        "Monsters plan: A* capped at {n} expansions; a capped one heads for the nearest node it reached."
                    ),
                    Planning::Map => {
                        "Monsters plan: one Dijkstra map from you, for all of them.".to_string()
                    }
                });
                self.overlay.step = None;
                self.sync_trace();
            }
            Action::ToggleFollow => self.overlay.follow = !self.overlay.follow,
            Action::Lab => {
                if self.mode == Mode::Lab {
                    self.leave_lab();
                } else {
                    self.enter_lab();
                }
            }
            Action::SetStart => self.lab_endpoint(true),
            Action::SetGoal => self.lab_endpoint(false),
            Action::CycleCompare => {
                if let Some(lab) = &mut self.lab {
                    lab.cycle_compare();
                    self.overlay.step = None;
                }
            }
            Action::TogglePaint => {
                if let Some(lab) = &mut self.lab {
                    lab.paint = !lab.paint;
                }
            }
            Action::PutWall => self.put_tile(Some(Tile::Wall)),
            Action::PutFloor => self.put_tile(Some(Tile::Floor)),
            Action::ToggleTile => self.put_tile(None),
            Action::PlaceMonster => self.edit(EditOp::AddMonster(self.cursor, self.editor.kind())),
            Action::CycleKind => self.editor.cycle_kind(),
            Action::Delete => self.delete_here(),
            Action::PlaceFeature(kind) => self.edit(EditOp::PlaceFeature(self.cursor, kind)),
            Action::MovePlayer => self.edit(EditOp::MovePlayer(self.cursor)),
            Action::Undo => self.undo(),
            Action::Redo => self.redo(),
            Action::Descend => self.descend(),
            Action::Drink => self.act(Act::Drink),
            Action::ToggleSight => {
                self.sight = !self.sight;
                self.world.say(if self.sight {
                    "Sight on: you see what your eyes reach and remember the rest."
                } else {
                    "Sight off: the whole map shows."
                });
            }
            Action::History => {
                if self.mode == Mode::History {
                    self.mode = self.history_return;
                } else {
                    self.history_return = self.mode;
                    self.history_scroll = 0;
                    self.mode = Mode::History;
                }
            } // Only the help screen's own keys give these, and it handles them itself.
        }
    }

    /// Takes the stairs: the next floor becomes the design in play (a generated one, which
    /// saves to a new file), and the first floor is kept for restarting the run.
    fn descend(&mut self) {
        if self.unsaved() {
            self.world
                .say("Save (s) or undo your edits first: the floor below replaces this design.");
            return;
        }
        let Some(level) = self.world.descend() else {
            return;
        };
        let depth = self.world.run().depth;
        let (kind, seed) = crate::game::run::floor_origin(self.world.seed(), depth);
        if self.first_floor.is_none() {
            self.first_floor = Some(Box::new(FirstFloor {
                design: self.design.clone(),
                source: self.source.clone(),
                generated: self.generated,
            }));
        }
        let name = format!("depth{depth}-{kind}-seed{seed}.txt");
        self.take_generated(level, self.source.folder().join(name));
        self.generated = Some((kind, seed));
        self.selected = self.world.monsters().first().map(|m| m.id);
        self.travel = None;
        self.cursor = self.world.player().pos;
        self.after_turn();
    }

    /// Where look and edit cursors start: on the selected monster when it is on screen,
    /// else on the player (always on screen while playing), so the camera need not move.
    fn focus_default(&self) -> Pos {
        self.selected
            .and_then(|id| self.world.monster(id))
            .map(|m| m.pos)
            .filter(|&p| screen::screen_cell(self, p).is_some())
            .unwrap_or(self.world.player().pos)
    }

    /// The cursor in look mode, else the selected monster, else the player.
    fn cursor_or_selected(&self) -> Pos {
        if self.mode == Mode::Look {
            return self.cursor;
        }
        self.selected
            .and_then(|id| self.world.monster(id))
            .map_or(self.world.player().pos, |m| m.pos)
    }

    /// Puts a tile at the cursor (`None`: swaps wall and floor): on the lab's own map in
    /// the lab, else on the design.
    fn put_tile(&mut self, tile: Option<Tile>) {
        let cursor = self.cursor;
        if let Some(lab) = self.lab.as_mut().filter(|_| self.mode == Mode::Lab) {
            let t = tile.unwrap_or(if lab.grid.get(cursor) == Tile::Wall {
                Tile::Floor
            } else {
                Tile::Wall
            });
            if !lab.set_tile(cursor, t) && !t.is_passable() {
                self.world.say("The start and the goal stay on floor.");
            }
            self.overlay.step = None;
            return;
        }
        let t = tile.unwrap_or(if self.design.level().grid.get(cursor) == Tile::Wall {
            Tile::Floor
        } else {
            Tile::Wall
        });
        self.edit_tile(t);
    }

    /// Sets the lab's start (or goal) at the cursor.
    fn lab_endpoint(&mut self, start: bool) {
        let cursor = self.cursor;
        let Some(lab) = &mut self.lab else { return };
        let done = if start {
            lab.set_start(cursor)
        } else {
            lab.set_goal(cursor)
        };
        if done {
            self.overlay.step = None;
        } else {
            self.world.say("The start and the goal stand on floor.");
        }
    }

    fn move_cursor(&mut self, dx: i32, dy: i32) {
        let p = self.cursor.offset(dx, dy);
        if self.world.grid().contains(p) {
            self.cursor = p;
        }
    }

    fn act(&mut self, act: Act) {
        if self.world.player_act(act) == ActResult::Acted {
            self.after_turn();
        }
    }

    /// Keeps the selection valid after monsters died or appeared.
    fn after_turn(&mut self) {
        self.keep_selection();
        self.sync_trace();
        self.overlay.step = None;
    }

    /// Selects the first monster when the selected one is gone.
    fn keep_selection(&mut self) {
        if self
            .selected
            .and_then(|id| self.world.monster(id))
            .is_none()
        {
            self.selected = self.world.monsters().first().map(|m| m.id);
        }
    }

    /// The monster whose search is recorded: the selected one while the overlay is on.
    fn wanted_trace(&self) -> Option<u32> {
        if self.overlay.on { self.selected } else { None }
    }

    /// Points tracing at [`App::wanted_trace`], searching again for that monster alone.
    fn sync_trace(&mut self) {
        let want = self.wanted_trace();
        if self.world.planner().traced() != want {
            self.world.set_traced(want);
        }
    }

    fn cycle_selection(&mut self, by: i32) {
        let ids: Vec<u32> = self.world.monsters().iter().map(|m| m.id).collect();
        if ids.is_empty() {
            self.selected = None;
            return;
        }
        let at = self.selected.and_then(|s| ids.iter().position(|&i| i == s));
        let next = match at {
            Some(i) => (i as i32 + by).rem_euclid(ids.len() as i32) as usize,
            None => 0,
        };
        self.select(Some(ids[next]));
    }

    fn select(&mut self, id: Option<u32>) {
        self.selected = id;
        self.overlay.step = None;
        self.sync_trace();
    }

    /// Starts the run again from its first floor.
    fn restart(&mut self) {
        if let Some(first) = self.first_floor.take() {
            let FirstFloor {
                design,
                source,
                generated,
            } = *first;
            self.design = design;
            self.source = source;
            self.generated = generated;
        }
        self.begin(self.world.seed());
        self.world.say("A new game begins.");
    }

    /// Starts a new game on the design, keeping the search options (and the editor's
    /// history: the design is the same).
    fn begin(&mut self, seed: u64) {
        self.world = World::with_options(self.design.level(), seed, self.world.options());
        self.welcome();
        self.selected = self.world.monsters().first().map(|m| m.id);
        self.overlay.step = None;
        self.mode = Mode::Play;
        self.travel = None;
        self.stroke = None;
        self.cursor = self.world.player().pos;
        self.sync_trace();
    }

    /// Generates a level with the next seed: caves as large as the map view (at least
    /// 40x20), or, when a generated level is in play, the next kind in [`GenKind::ALL`] at
    /// that level's size, so that pressing `G` again and again shows every kind.
    ///
    /// [`GenKind::ALL`]: crate::content::generate::GenKind::ALL
    fn new_level(&mut self) {
        use crate::content::generate::{self, GenKind, GenParams};
        const MIN_GENERATED: (usize, usize) = (40, 20);
        let (kind, seed) = match self.generated {
            Some((kind, seed)) => (kind.next(), seed.wrapping_add(1)),
            None => (GenKind::Caves, self.world.seed().wrapping_add(1)),
        };
        // A generated level keeps its size; otherwise the new one fills the map view.
        let (w, h) = match self.generated {
            Some(_) => (self.world.grid().width(), self.world.grid().height()),
            None => screen::layout(self, Rect::new(0, 0, self.size.0, self.size.1))
                .map_or((MIN_GENERATED.0, MIN_GENERATED.1), |l| {
                    (usize::from(l.map.width), usize::from(l.map.height))
                }),
        };
        let (w, h) = (
            w.clamp(MIN_GENERATED.0, generate::MAX_GENERATED_SIDE),
            h.clamp(MIN_GENERATED.1, generate::MAX_GENERATED_SIDE),
        );
        match generate::generate(&GenParams::new(kind, w, h, seed)) {
            Ok(level) => {
                let name = format!("{kind}-{w}x{h}-seed{seed}.txt");
                self.take_generated(level, self.source.folder().join(&name));
                self.generated = Some((kind, seed));
                self.first_floor = None;
                self.begin(seed);
                self.world.say(format!(
                    "Generated {kind} {w}x{h} seed {seed}; G for {}, s saves it as {name}.",
                    kind.next()
                ));
                self.world.say(format!(
                    "Again: astar-rogue generate --kind {kind} --size {w}x{h} --seed {seed}"
                ));
            }
            Err(e) => self.world.say(format!("Cannot generate: {e}")),
        }
    }

    /// Starts travel toward a cell, one step per tick.
    pub fn start_travel(&mut self, to: Pos) {
        if to == self.world.player().pos || !self.world.grid().is_passable(to) {
            return;
        }
        self.travel = Some(to);
    }

    fn travel_step(&mut self) {
        let Some(target) = self.travel else { return };
        if self.world.state() != GameState::Playing {
            self.travel = None;
            return;
        }
        let player = self.world.player().pos;
        if self
            .world
            .monsters()
            .iter()
            .any(|m| m.pos.chebyshev(player) <= 1)
        {
            self.travel = None;
            self.world.say("A monster is next to you; you stop.");
            return;
        }
        match self.world.player_step_toward(target) {
            Some((dx, dy)) => {
                let notes = self.world.notes_left();
                self.act(Act::Move(dx, dy));
                // A level's message on the way stops travel, so that it is read.
                if self.world.player().pos == target || self.world.notes_left() < notes {
                    self.travel = None;
                }
            }
            None => {
                self.travel = None;
                self.world.say("There is no way there.");
            }
        }
    }

    fn handle_mouse(&mut self, mouse: &MouseEvent) {
        let button = match mouse.kind {
            MouseEventKind::Down(b) | MouseEventKind::Drag(b) => b,
            _ => return,
        };
        let drag = matches!(mouse.kind, MouseEventKind::Drag(_));
        if self.confirm.is_some() || matches!(self.mode, Mode::Help | Mode::History) {
            return;
        }
        if self.travel.take().is_some() {
            return;
        }
        let Some(cell) = screen::map_cell(self, mouse.column, mouse.row) else {
            return;
        };
        match self.mode {
            Mode::Edit => {
                self.cursor = cell;
                let stroke = match self.stroke {
                    Some(s) if drag => s,
                    _ => {
                        self.editor.begin_stroke();
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
                self.stroke = Some(stroke);
                // A fast drag skips cells between two reports: paint the line between them.
                let mut from = Some(stroke.last).filter(|_| drag);
                for p in screen::line(stroke.last, cell) {
                    if from.take() == Some(p) {
                        continue;
                    }
                    self.apply_edit(EditOp::SetTile(p, stroke.tile), true);
                }
                if let Some(s) = &mut self.stroke {
                    s.last = cell;
                }
            }
            Mode::Look => self.cursor = cell,
            Mode::Lab => self.lab_mouse(cell, button, drag),
            _ if drag || button != MouseButton::Left => {}
            // With the overlay on, a click studies the cell instead of playing turns.
            _ if self.overlay.on => {
                self.cursor = cell;
                self.mode = Mode::Look;
            }
            _ => {
                if let Some(id) = self.world.monster_at(cell).map(|m| m.id) {
                    self.select(Some(id));
                } else if self.world.state() == GameState::Playing {
                    self.start_travel(cell);
                }
            }
        }
    }

    /// The mouse in the lab: the left button sets or drags the start, the right one the
    /// goal; in paint mode (`e`) they paint walls and floor as in the editor.
    fn lab_mouse(&mut self, cell: Pos, button: MouseButton, drag: bool) {
        self.cursor = cell;
        let Some(lab) = &mut self.lab else { return };
        if lab.paint {
            let tile = if button == MouseButton::Left {
                Tile::Wall
            } else {
                Tile::Floor
            };
            let from = match self.stroke {
                Some(s) if drag => s.last,
                _ => cell,
            };
            for p in screen::line(from, cell) {
                lab.set_tile(p, tile);
            }
            self.stroke = Some(Stroke {
                last: cell,
                tile,
                replan: false,
            });
        } else if button == MouseButton::Left {
            lab.set_start(cell);
        } else {
            lab.set_goal(cell);
        }
        self.overlay.step = None;
    }
}
