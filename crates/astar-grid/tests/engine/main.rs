//! The engine's own tests, shipped with the crate: searches against a plain Dijkstra on
//! random grids of random costs, every movement rule, heuristic, weight and tie rule; Jump
//! Point Search against A*; searches toward several goals and Dijkstra maps from several
//! roots; a pathfinder kept across thousands of changes to its map against a fresh one; the
//! limits of the engine's integers; and the promise that a warmed-up search allocates
//! nothing.

mod alloc;
mod astar_props;
mod changes;
mod common;
mod cost_props;
mod distance_maps;
mod limits;
mod targets;
mod ties;
