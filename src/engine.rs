//! The engine: the tile grid with its movement rule, grid A* with its event trace, and
//! Dijkstra maps.
//! Knows nothing of files, games or terminals.

pub mod astar;
pub mod dijkstra;
pub mod grid;
