//! The start and goal of a search on a map, and the words for one that cannot be searched,
//! which `path`, `lab`, scripts' lab queries and scenario files all refuse alike (the engine
//! itself builds no text).

use crate::content::map::TileMap;
use crate::engine::astar::Invalid;
use crate::engine::grid::Pos;

/// An endpoint of a search that cannot be searched from or to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BadEndpoint {
    /// Whether it is the goal (else the start).
    pub goal: bool,
    /// The cell.
    pub at: Pos,
    /// What is wrong with it.
    pub why: Invalid,
}

impl BadEndpoint {
    /// The first endpoint of a search from `start` to `goal` on `grid` that cannot be
    /// searched, as the search itself would refuse it (start first).
    pub fn find(grid: &TileMap, start: Pos, goal: Pos) -> Option<BadEndpoint> {
        let bad =
            |goal, at| Invalid::of(grid.cost_grid(), at).map(|why| BadEndpoint { goal, at, why });
        bad(false, start).or_else(|| bad(true, goal))
    }

    /// In the words `path`, `lab`, scripts' lab queries and scenario files all use:
    /// `invalid start 99,99: outside the 8x6 map`, `invalid goal 4,2: not a floor cell`.
    pub fn describe(&self, grid: &TileMap) -> String {
        let what = if self.goal { "goal" } else { "start" };
        let reason = match self.why {
            Invalid::OutOfBounds => format!("outside the {}x{} map", grid.width(), grid.height()),
            _ => "not a floor cell".to_string(),
        };
        format!("invalid {what} {}: {reason}", self.at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_is_refused_before_the_goal_in_the_searchs_words() {
        let g = TileMap::from_rows(&["..#", "..."]);
        let said = |s: Pos, t: Pos| BadEndpoint::find(&g, s, t).map(|b| b.describe(&g));
        assert_eq!(said(Pos::new(0, 0), Pos::new(2, 1)), None);
        assert_eq!(
            said(Pos::new(3, 0), Pos::new(2, 0)).as_deref(),
            Some("invalid start 3,0: outside the 3x2 map")
        );
        assert_eq!(
            said(Pos::new(0, 0), Pos::new(2, 0)).as_deref(),
            Some("invalid goal 2,0: not a floor cell")
        );
        assert_eq!(
            said(Pos::new(0, -1), Pos::new(0, 0)).as_deref(),
            Some("invalid start 0,-1: outside the 3x2 map")
        );
    }
}
