//! A question over another screen, waiting for its answer.

use super::transition::Transition;
use crate::app::command::{Action, Context};
use crate::session::PendingReload;

/// The contexts a question's keys are looked up in.
pub const CONTEXTS: &[Context] = &[Context::Confirm, Context::Always];

/// A question waiting for an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Confirm {
    /// Quit during a game, or with unsaved edits?
    Quit,
    /// Overwrite a level file that changed on disk?
    Overwrite,
    /// Restart during a game?
    Restart,
    /// Give the run up?
    Abandon,
    /// Replace the level by a generated one, during a game or with unsaved edits?
    NewLevel,
    /// Replace the level by a blank one, during a game or with unsaved edits?
    BlankLevel,
    /// The file changed on disk while the game has unsaved edits: take the file's, or
    /// keep the game's?
    Reload(Box<PendingReload>),
}

impl Confirm {
    /// An answer to the question, with the game's design `unsaved` or not: the question
    /// closes and the app carries the answer out; a key that does not answer this question
    /// leaves it waiting.
    pub fn handle(&self, action: Action, unsaved: bool) -> Transition<(Confirm, Action)> {
        let answered = matches!(
            (self, action),
            (Confirm::Reload(_), Action::TakeFile | Action::KeepMine)
                | (Confirm::Quit, Action::SaveAndQuit)
                | (
                    Confirm::Quit
                        | Confirm::Overwrite
                        | Confirm::Restart
                        | Confirm::NewLevel
                        | Confirm::BlankLevel
                        | Confirm::Abandon,
                    Action::Yes | Action::No
                )
        );
        // The file's version or the game's: dropping either silently is what the question
        // is there to prevent, so it has no "no".
        if !answered || (action == Action::SaveAndQuit && !unsaved) {
            return Transition::Stay;
        }
        Transition::Then((self.clone(), action))
    }
}
