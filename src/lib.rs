//! astar-rogue: a terminal roguelike sandbox whose monsters hunt with grid A*.
//!
//! The domain (grid, level files, pathfinding, scenarios) never touches the terminal; the
//! `app`, `ui` and `script` modules build the game on top of it.

pub mod astar;
pub mod grid;
pub mod level;
pub mod scen;
