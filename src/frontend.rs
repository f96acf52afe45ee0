//! The front ends that drive one [`App`](crate::app::App): the terminal loop, the plain
//! lines of `play --plain` and the headless script runner.

pub mod cast;
pub mod keep;
pub mod plain;
pub mod record;
pub mod replay;
pub mod script;
pub mod snapshot;
pub mod term;
