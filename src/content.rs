//! Content: level files (text and Moving AI), Moving AI scenarios, and level generation.

pub mod generate;
pub mod kinds;
pub mod level;
pub mod scen;
