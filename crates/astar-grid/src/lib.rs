//! Grid pathfinding for 8-way movement without corner cutting, with integer costs (10 for
//! a straight step, 14 for a diagonal): the tile [`grid`] with its movement rule, grid
//! [`astar`] with its event trace, and [`dijkstra`] maps.
//!
//! The crate knows nothing of files, games or terminals; `astar-rogue` builds its game,
//! overlay and lab on it.
//!
//! ```
//! use astar_grid::astar::{Pathfinder, Query};
//! use astar_grid::grid::{Grid, Pos};
//!
//! let grid = Grid::from_rows(&["....", ".##.", "...."]);
//! let mut pf = Pathfinder::new();
//! let found = pf.find(&grid, Query::new(Pos::new(0, 1), Pos::new(3, 1)));
//! // No corner cutting: the diagonals past the wall's ends are illegal, so five straight
//! // steps of 10 go over the top.
//! assert_eq!(found.cost, Some(50));
//! assert_eq!(found.path.len(), 6);
//! ```

pub mod astar;
pub mod dijkstra;
pub mod grid;
