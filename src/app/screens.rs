//! The screens, each in a file of its own with the contexts its keys are looked up in; what
//! a screen wants of the app that holds it comes back as a [`Transition`]. The app keeps
//! the screens as a stack ([`Screen`]: a screen opened over another returns to it) and
//! dispatches each command once, to the screen up.
//!
//! The screens that only read or answer (the help, the history, a question) are types with
//! their state and handle their commands in their file alone. The lab handles its own
//! commands and its mouse on its searches and the overlay (`lab::handle`, `lab::mouse`);
//! the editor's [`edit::Editor`] is lent the screen's state, the session and the
//! clipboard for one command. What changes the screen or the run (entering and leaving a
//! screen, a new run, changing floors) is the app's.
//!
//! A new screen is a file here (its state, its `CONTEXTS`, its `handle`), a variant of
//! [`Screen`] with its line in `Screen::contexts`, and a row of [`STACKS`].

pub mod confirm;
pub mod edit;
pub mod help;
pub mod history;
pub mod lab;
pub mod look;
pub mod play;
mod transition;

pub use transition::Transition;

use std::sync::Arc;

use super::command::Context;
use super::lab::Lab;
use super::overlay::Overlay;
use super::tools::Tools;
pub use crate::app::tools::Stroke;
use crate::engine::astar::{Snapshot, Trace};
use crate::engine::grid::Pos;
use crate::game::World;
use confirm::Confirm;

/// Every set of contexts a screen consults, one per screen and state of it: one key may do
/// one thing in each, which the settings' clash check holds a file to.
pub const STACKS: [&[Context]; 12] = [
    edit::MONSTER,
    edit::RESIZE,
    play::AIM,
    help::CONTEXTS,
    history::CONTEXTS,
    confirm::CONTEXTS,
    edit::CONTEXTS,
    lab::CONTEXTS,
    look::OVERLAY,
    look::CONTEXTS,
    play::OVERLAY,
    play::CONTEXTS,
];

/// Which kind of screen is up, without its state: what the view draws under any question.
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

/// The screen up now, carrying the state only it needs and, for the screens that are
/// opened over another, the screen it returns to.
#[derive(Debug, Clone)]
pub enum Screen {
    /// Playing.
    Play,
    /// Playing, `F` pressed: the next direction key attacks that way without moving.
    Aim,
    /// Look mode, with its cursor.
    Look {
        /// The cell looked at.
        cursor: Pos,
    },
    /// Edit mode, with its cursor, the mouse stroke under way and the editor's tools.
    Edit {
        /// The cell edited.
        cursor: Pos,
        /// The mouse stroke under way.
        stroke: Option<Stroke>,
        /// The shape under way, the glyph, a key waiting for the next.
        tools: Tools,
    },
    /// The search lab on its own copy of the map.
    Lab {
        /// The lab's searches and map.
        lab: Box<Lab>,
        /// The lab's cursor.
        cursor: Pos,
        /// The mouse stroke under way (painting).
        stroke: Option<Stroke>,
        /// Where leaving the lab returns.
        back: Box<Screen>,
    },
    /// The help, on a page.
    Help {
        /// The help's state.
        help: help::Help,
        /// Where closing the help returns.
        back: Box<Screen>,
    },
    /// The message history.
    History {
        /// The history's state.
        history: history::History,
        /// Where closing the history returns.
        back: Box<Screen>,
    },
    /// A question over another screen, waiting for its answer.
    Confirm {
        /// What is asked.
        question: Confirm,
        /// The screen the question is asked over, and returns to.
        back: Box<Screen>,
    },
}

impl Screen {
    /// The screen under any question.
    pub(crate) fn base(&self) -> &Screen {
        match self {
            Screen::Confirm { back, .. } => back.base(),
            s => s,
        }
    }

    pub(crate) fn base_mut(&mut self) -> &mut Screen {
        match self {
            Screen::Confirm { back, .. } => back.base_mut(),
            s => s,
        }
    }

    /// The kind of screen under any question.
    pub fn mode(&self) -> Mode {
        match self.base() {
            Screen::Play | Screen::Aim | Screen::Confirm { .. } => Mode::Play,
            Screen::Look { .. } => Mode::Look,
            Screen::Edit { .. } => Mode::Edit,
            Screen::Lab { .. } => Mode::Lab,
            Screen::Help { .. } => Mode::Help,
            Screen::History { .. } => Mode::History,
        }
    }

    /// The contexts the screen's keys are looked up in, most specific first (each screen's
    /// own, in its file of this module), with the search overlay `on` or not.
    pub(crate) fn contexts(&self, overlay: bool) -> &'static [Context] {
        match self {
            Screen::Play => play::contexts(overlay),
            Screen::Aim => play::AIM,
            Screen::Look { .. } => look::contexts(overlay),
            Screen::Edit { tools, .. } => edit::contexts(tools.prefix),
            Screen::Lab { .. } => lab::CONTEXTS,
            Screen::Help { .. } => help::CONTEXTS,
            Screen::History { .. } => history::CONTEXTS,
            Screen::Confirm { .. } => confirm::CONTEXTS,
        }
    }

    /// Contexts whose hints the hint bar shows, with the search overlay `on` or not: a
    /// question's are in its box, so the bar keeps the hints of the screen it is asked
    /// over.
    pub fn hint_contexts(&self, overlay: bool) -> &'static [Context] {
        match self {
            Screen::Confirm { back, .. } => back.contexts(overlay),
            s => s.contexts(overlay),
        }
    }

    /// The question waiting for an answer, if any.
    pub fn question(&self) -> Option<&Confirm> {
        match self {
            Screen::Confirm { question, .. } => Some(question),
            _ => None,
        }
    }

    /// The help page shown (0 when the help is closed).
    pub fn help_page(&self) -> usize {
        match self.base() {
            Screen::Help { help, .. } => help.page,
            _ => 0,
        }
    }

    /// Messages of the history hidden below its bottom line (0 shows the newest).
    pub fn history_scroll(&self) -> usize {
        match self.base() {
            Screen::History { history, .. } => history.scroll,
            _ => 0,
        }
    }

    /// Opens the screen `make` makes over this one; it returns here when closed.
    pub(crate) fn open_over(&mut self, make: impl FnOnce(Box<Screen>) -> Screen) {
        let back = std::mem::replace(self, Screen::Play);
        *self = make(Box::new(back));
    }

    /// Closes the help, the history or a question: back to the screen under it.
    pub(crate) fn close(&mut self) {
        let screen = std::mem::replace(self, Screen::Play);
        *self = match screen {
            Screen::Help { back, .. }
            | Screen::History { back, .. }
            | Screen::Confirm { back, .. } => *back,
            other => other,
        };
    }

    /// Asks `question` over this screen (in place of a question already asked).
    pub(crate) fn ask(&mut self, question: Confirm) {
        if let Screen::Confirm { question: q, .. } = self {
            *q = question;
        } else {
            self.open_over(|back| Screen::Confirm { question, back });
        }
    }

    /// The cursor of look, edit or the lab on `world`; elsewhere the player's cell.
    pub fn cursor(&self, world: &World) -> Pos {
        match self.base() {
            Screen::Look { cursor } | Screen::Edit { cursor, .. } | Screen::Lab { cursor, .. } => {
                *cursor
            }
            _ => world.player().pos,
        }
    }

    /// Moves the cursor of look, edit or the lab to a cell; the other screens have none.
    pub(crate) fn set_cursor(&mut self, p: Pos) {
        if let Some(c) = self.cursor_mut() {
            *c = p;
        }
    }

    /// Takes the mouse stroke under way: whether the game's monsters are owed the replan
    /// it put off (the lab paints its own map, so the game has nothing to replan for).
    /// [`Screen::end_stroke`] pays that debt.
    #[must_use]
    pub(crate) fn take_stroke(&mut self) -> bool {
        let lab = self.mode() == Mode::Lab;
        let stroke = self.stroke_mut().and_then(Option::take);
        stroke.is_some_and(|s| s.replan) && !lab
    }

    /// The screen's cursor, for the screens that have one.
    pub(crate) fn cursor_mut(&mut self) -> Option<&mut Pos> {
        match self.base_mut() {
            Screen::Look { cursor } | Screen::Edit { cursor, .. } | Screen::Lab { cursor, .. } => {
                Some(cursor)
            }
            _ => None,
        }
    }

    /// The lab, while it is up (under any question).
    pub fn lab(&self) -> Option<&Lab> {
        match self.base() {
            Screen::Lab { lab, .. } => Some(lab),
            _ => None,
        }
    }

    /// Expansions of the search shown: in the lab, the longest of its searches, else the
    /// traced search of `world`.
    pub fn shown_expansions(&self, world: &World) -> u32 {
        match self.lab() {
            Some(lab) => lab.expansions(),
            None => world.trace().map_or(0, Trace::expansions),
        }
    }

    /// The lab's search `i` at the `overlay`'s step, while the lab is up.
    pub fn lab_snapshot(&self, i: usize, overlay: &Overlay) -> Option<Arc<Snapshot>> {
        self.lab()?.snapshot(i, overlay.step.unwrap_or(u32::MAX))
    }

    /// The editor's tools, while the editor is up (under any question).
    pub fn tools(&self) -> Option<&Tools> {
        match self.base() {
            Screen::Edit { tools, .. } => Some(tools),
            _ => None,
        }
    }

    /// The mouse stroke slot of the screens that paint.
    pub(crate) fn stroke_mut(&mut self) -> Option<&mut Option<Stroke>> {
        match self.base_mut() {
            Screen::Edit { stroke, .. } | Screen::Lab { stroke, .. } => Some(stroke),
            _ => None,
        }
    }
}
