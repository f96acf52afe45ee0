//! The engine: the tile grid with its movement rule, and grid A* with its event trace.
//! Knows nothing of files, games or terminals.

pub mod astar;
pub mod grid;
