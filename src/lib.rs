//! astar-rogue: a terminal roguelike sandbox whose monsters hunt with grid A*.
//!
//! The crate is layered; each layer uses only the layers listed before it (a test,
//! `tests/suite/layers.rs`, reads every `use` line and holds this):
//!
//! 1. [`engine`] (the workspace's `astar-grid` crate): the grid and the A* engine with its trace. [`text`]: reading text input
//!    with positioned errors. The two know nothing of each other.
//! 2. [`content`]: level files, Moving AI maps and scenarios, level generation.
//! 3. [`game`]: the rules, creature kinds and the monsters' planning.
//! 4. [`session`]: one run: the design and its file, the undo history, the game; saves,
//!    reloads, descents, restarts, new levels and edits.
//! 5. [`app`]: the application state: screens, keys, the editor's tools.
//! 6. [`view`]: drawing the app with ratatui.
//! 7. [`frontend`]: the terminal loop and the headless script runner, which drive one `App`.
//! 8. [`cli`]: the command line that the thin binary runs.
//!
//! Only `view` and `frontend` (and the `app`'s input types) touch ratatui or crossterm.

/// The engine: the `astar-grid` crate of this workspace, which depends on nothing of ours.
pub use astar_grid as engine;
pub mod text;

pub mod content;

pub mod game;

pub mod session;

pub mod app;

pub mod view;

pub mod frontend;

pub mod cli;
