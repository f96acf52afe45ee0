//! Grid pathfinding for 8-way movement without corner cutting, with integer costs (10 for
//! a straight step, 14 for a diagonal): the tile [`grid`] with its movement rule, grid
//! [`astar`] (and Jump Point Search beside it) with its event trace, and [`dijkstra`] maps.
//!
//! The public surface: a [`Grid`](grid::Grid) of [`Tile`](grid::Tile)s; a
//! [`Query`](astar::Query) (start, goal, [`SearchOptions`](astar::SearchOptions), who stands
//! where); a reusable [`Pathfinder`](astar::Pathfinder) that answers a
//! [`SearchResult`](astar::SearchResult) and tells any [`Tracer`](astar::Tracer) each
//! [`TraceEvent`](astar::TraceEvent) ([`Trace`](astar::Trace) records them for replay); and
//! [`DistanceMap`](dijkstra::DistanceMap)s. The packed search state and its lookup tables are
//! private.
//!
//! The crate knows nothing of files, games or terminals and builds no text for people;
//! `astar-rogue` builds its game, overlay and lab on it.
//!
//! ```
//! use astar_grid::astar::{Algorithm, Pathfinder, Query, SearchOptions};
//! use astar_grid::grid::{Grid, Pos};
//!
//! let grid = Grid::from_rows(&["....", ".##.", "...."]);
//! let mut pf = Pathfinder::new();
//! let found = pf.find(&grid, Query::new(Pos::new(0, 1), Pos::new(3, 1)));
//! // No corner cutting: the diagonals past the wall's ends are illegal, so five straight
//! // steps of 10 go over the top.
//! assert_eq!(found.cost, Some(50));
//! assert_eq!(found.path.len(), 6);
//! // Jump Point Search finds the same cost, expanding only the jump points.
//! let jps = SearchOptions { algorithm: Algorithm::Jps, ..SearchOptions::default() };
//! let jumped = pf.find(&grid, Query::new(Pos::new(0, 1), Pos::new(3, 1)).options(jps));
//! assert_eq!((jumped.cost, jumped.fallback), (Some(50), None));
//! assert!(jumped.expanded <= found.expanded);
//! ```

pub mod astar;
pub mod dijkstra;
pub mod grid;

/// The examples of `docs/engine.md`, the engine's user guide, run as doc tests so that the
/// guide cannot drift from the code.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/engine.md")]
struct EngineGuide;
