//! What the app and its front end tell each other beside the inputs: whether the player
//! is still in the game, whether runs are kept, the run that ended for the front end to score, the front end's own lines, and
//! which run is being played.

use crate::game::GameState;
use crate::session::Session;
use crate::session::morgue::{Outcome, RunEnd};

/// What the app and its front end tell each other beside the inputs.
#[derive(Debug, Clone)]
pub struct Front {
    /// False once the player quit.
    pub(crate) running: bool,
    /// Whether runs are kept (the terminal's `play`): saved when left, scored when they
    /// end, and each new run drawn with a fresh seed. Recordings say so (`#! runs: kept`),
    /// so their replays ask and answer alike.
    pub(crate) keeping: bool,
    /// The run that ended with the last input, for the front end to score.
    pub(crate) ended: Option<RunEnd>,
    /// A front end's line shown below the log until the next input (the run was resumed);
    /// never part of the game's log, so a resumed run's log stays the run's own.
    pub(crate) notice: Option<String>,
    /// A front end's line on the end screen (the run's place in the scores).
    pub(crate) end_note: Option<String>,
    /// Counts the runs begun in this app: a front end keeping runs starts each one's tape
    /// when it changes.
    pub(crate) run_serial: u64,
}

impl Front {
    /// Nothing said yet, on the first run, kept or not.
    pub(crate) fn new(keeping: bool) -> Self {
        Self {
            running: true,
            keeping,
            ended: None,
            notice: None,
            end_note: None,
            run_serial: 1,
        }
    }

    /// Whether the player is still in the game (false once they quit).
    pub fn is_running(&self) -> bool {
        self.running
    }

    /// Keeps runs (the terminal's `play`): they are saved when left and scored when they
    /// end, the questions say so, and each new run (`r`) draws a fresh seed from the last.
    pub fn set_keeping(&mut self, keeping: bool) {
        self.keeping = keeping;
    }

    /// Whether runs are kept (see [`Front::set_keeping`]).
    pub fn keeping(&self) -> bool {
        self.keeping
    }

    /// The run that ended since the last call (died, won or abandoned), with what the
    /// score table and the morgue file say of it.
    pub fn take_ended(&mut self) -> Option<RunEnd> {
        self.ended.take()
    }

    /// A line below the log until the next input, from the front end (not the game's).
    pub fn set_notice(&mut self, text: Option<String>) {
        self.notice = text;
    }

    /// The front end's line below the log, if any.
    pub fn notice(&self) -> Option<&str> {
        self.notice.as_deref()
    }

    /// A line on the end screen from the front end: the run's place in the scores.
    pub fn set_end_note(&mut self, text: Option<String>) {
        self.end_note = text;
    }

    /// The front end's line on the end screen, if any.
    pub fn end_note(&self) -> Option<&str> {
        self.end_note.as_deref()
    }

    /// Which run of the app is being played: it changes when a new run begins (a new run,
    /// a new or blank level, an outside edit that restarts the game).
    pub fn run_serial(&self) -> u64 {
        self.run_serial
    }

    /// Notes the run of `session` that ended since the game was in state `was`, for the
    /// front end to score.
    pub(crate) fn note_end(&mut self, was: GameState, session: &Session) {
        if was == GameState::Playing
            && let Some(outcome) = Outcome::of(session.world().state())
        {
            self.ended = Some(RunEnd::of(session, outcome));
        }
    }

    /// Notes the run in progress that a new run, a new or blank level or the file's
    /// reload replaced, ended as abandoned (the session hands it back from each), for the
    /// front end to score.
    pub(crate) fn replaced(&mut self, replaced: Option<Box<RunEnd>>) {
        if let Some(end) = replaced {
            self.ended = Some(*end);
        }
    }
}
