//! The domain of astar-rogue, a crate apart from every terminal and command-line library so
//! that the compiler holds the layers: nothing here can name ratatui, crossterm or clap.
//!
//! Each layer uses only the layers listed before it (`tests/suite/layers.rs` holds this
//! within the crate):
//!
//! 1. [`engine`] (the workspace's `astar-grid` crate): the grid and the A* engine with its
//!    trace. [`text`]: reading text input with positioned errors. The two know nothing of
//!    each other.
//! 2. [`content`]: level files, Moving AI maps and scenarios, level generation.
//! 3. [`game`]: the rules, creature kinds and the monsters' planning.
//! 4. [`session`]: one run: the design and its file, the undo history, the game; saves,
//!    reloads, descents, restarts, new levels and edits.
//!
//! The application, its views and front ends are the `astar-rogue` crate above this one.

/// The engine: the `astar-grid` crate of this workspace, which depends on nothing of ours.
pub use astar_grid as engine;
pub mod text;

pub mod content;

pub mod game;

pub mod session;
