//! Content: level files (text and Moving AI), Moving AI scenarios, level generation, and the
//! refusal of a search's endpoints that a map cannot take.

pub mod endpoints;
pub mod generate;
pub mod kinds;
pub mod level;
pub mod map;
pub mod scen;
pub mod searches;
pub mod serial;
pub mod tile;
