//! The integration tests, in one binary: each file is a module, so the crate is linked once
//! (sixteen binaries took most of a clean `cargo test` linking the same crate again).

mod alloc;
mod app;
mod astar_props;
mod cli;
mod common;
mod docs;
mod generate;
mod huge;
mod keys;
mod lab;
mod layers;
mod level_props;
mod sandbox;
mod script_props;
mod snapshots;
mod terminal;
mod terrain_props;
mod victory;
