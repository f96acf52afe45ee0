//! The screens, each a type in a file of its own with its state, the contexts its keys are
//! looked up in and its handling of its own commands; what a screen wants of the app that
//! holds it comes back as a [`Transition`]. The app keeps the screens as a stack (a screen
//! opened over another returns to it) and dispatches each command once, to the screen up.
//!
//! The screens that only read or answer (the help, the history, a question) handle their
//! commands here alone; the screens that play, look, edit and study a search hold their
//! state and contexts here, and their commands are carried out on the session by the app's
//! files by job (`travel`, `editor`, `search`).
//!
//! A new screen is a file here: its state, its `CONTEXTS`, its `handle`; then one variant
//! of [`crate::app::Screen`] (and its contexts there) and one row of [`STACKS`].

pub mod confirm;
pub mod edit;
pub mod help;
pub mod history;
pub mod lab;
pub mod look;
pub mod play;
mod transition;

pub use transition::Transition;

use super::command::Context;

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
