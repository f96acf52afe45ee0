//! The game's lists and words for the engine's choices of search: the order the overlay and
//! the lab cycle through them, and the names the command line and JSON output print. The
//! engine's enums may grow (they are `#[non_exhaustive]`); these are the ones the game offers.

use crate::engine::astar::{Algorithm, Heuristic, Status, Ties};
use crate::engine::grid::Neighbourhood;

/// The movement rules, in the order the overlay cycles through them.
pub const RULES: [Neighbourhood; 3] = [
    Neighbourhood::Eight,
    Neighbourhood::EightCutCorners,
    Neighbourhood::Four,
];

/// The heuristics, in the order the overlay cycles through them.
pub const HEURISTICS: [Heuristic; 5] = [
    Heuristic::Octile,
    Heuristic::Manhattan,
    Heuristic::Chebyshev,
    Heuristic::Euclidean,
    Heuristic::Zero,
];

/// The tie rules, the default first.
pub const TIES: [Ties; 3] = [Ties::LowerH, Ties::Lifo, Ties::Fifo];

/// The algorithms, the default first.
pub const ALGORITHMS: [Algorithm; 2] = [Algorithm::AStar, Algorithm::Jps];

/// The one after `x` in `all`, wrapping round (the first when `x` is not there).
///
/// ```
/// use astar_rogue_core::content::searches::{HEURISTICS, next};
/// use astar_rogue_core::engine::astar::Heuristic;
///
/// assert_eq!(next(&HEURISTICS, Heuristic::Octile), Heuristic::Manhattan);
/// assert_eq!(next(&HEURISTICS, Heuristic::Zero), Heuristic::Octile);
/// ```
pub fn next<T: Copy + PartialEq>(all: &[T], x: T) -> T {
    let i = all.iter().position(|&y| y == x).map_or(0, |i| i + 1);
    all[i % all.len()]
}

/// A search's outcome as JSON output and the lab name it (`found`, `unreachable`, `cap`,
/// `invalid_start`, `invalid_goal`, `bad_occupancy`, `too_costly`).
pub fn status_name(status: Status) -> &'static str {
    match status {
        Status::Found => "found",
        Status::Unreachable => "unreachable",
        Status::CapReached => "cap",
        Status::InvalidStart(_) => "invalid_start",
        Status::InvalidGoal(_) => "invalid_goal",
        Status::BadOccupancy => "bad_occupancy",
        Status::TooCostly => "too_costly",
        _ => "other",
    }
}
