#![doc = include_str!("../README.md")]

pub mod astar;
pub mod dijkstra;
pub mod grid;

#[doc = include_str!("../GUIDE.md")]
pub mod guide {}
