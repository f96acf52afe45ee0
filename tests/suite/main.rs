//! The integration tests, in one binary: each file is a module, so the crate is linked once
//! (sixteen binaries took most of a clean `cargo test` linking the same crate again).

mod alloc;
mod app;
mod campaign;
mod cli;
mod colour;
mod common;
mod cursor;
mod docs;
mod edges;
mod editor_tools;
mod findings;
mod generate;
mod huge;
mod keys;
mod kinds_paths;
mod lab;
mod layers;
mod learn;
mod level_props;
mod plain;
mod pty;
mod replay;
mod runs;
mod runs_terminal;
mod sandbox;
mod script_props;
mod settings;
mod snapshots;
mod terminal;
mod terrain_props;
mod victory;
