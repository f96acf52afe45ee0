//! astar-rogue: a terminal roguelike sandbox whose monsters hunt with grid A*.
//!
//! The domain (the engine, text input, content, the game's rules and the run) is the
//! `astar-rogue-core` crate, which cannot name a terminal or command-line library; it is
//! re-exported here under its own module names. This crate puts the application on it, in
//! layers; each uses only the layers listed before it (a test, `tests/suite/layers.rs`,
//! reads every `use` line and holds this):
//!
//! 1. [`engine`], [`text`], [`content`], [`game`], [`session`]: the core crate.
//! 2. [`app`]: the application state: screens, keys, the editor's tools.
//! 3. [`view`]: drawing the app with ratatui.
//! 4. [`frontend`]: the terminal loop and the headless script runner, which drive one `App`.
//! 5. [`cli`]: the command line that the thin binary runs.

pub use astar_rogue_core::{content, engine, game, session, text};

pub mod app;

pub mod view;

pub mod frontend;

pub mod cli;
