//! astar-rogue: a terminal roguelike sandbox whose monsters hunt with grid A*.
//!
//! The domain (`grid`, `level`, `astar`, `scen`, `game`, `generate`) never touches the terminal; the
//! `app`, `ui`, `script` and `term` modules build the game on top of it, and `cli` is the
//! command line the thin binary runs.

pub mod app;
pub mod astar;
pub mod cli;
pub mod game;
pub mod generate;
pub mod grid;
pub mod level;
pub mod scen;
pub mod script;
pub mod term;
pub mod ui;
