//! Grid A*: integer costs (10 straight, 14 diagonal), exact tie-breaking, reusable buffers,
//! region labels for instant "unreachable", and an optional event trace.
//!
//! The API is small: a [`Query`] (endpoints, [`SearchOptions`], who stands where) goes to a
//! reusable [`Pathfinder`], which answers a [`SearchResult`] and, on request, tells a
//! [`Tracer`] every [`TraceEvent`] of the search ([`Trace`] records them for replay).
//!
//! A step costs its base cost (10 straight, 14 diagonal, or the grid's own
//! [`Steps`](crate::grid::Steps)) times the cost of the cell it enters, and H is the
//! heuristic times the grid's lowest cell cost, so that A* stays optimal. A *uniform* grid
//! ([`Grid::is_uniform`]: every cell costs 1 or is blocked, default steps) is searched on a
//! fast path of its own; every other grid, and every search toward a [`Target`], on the
//! general loop.
//!
//! Tie-breaking is fixed so that the same input always gives the same path: among nodes of
//! equal F the one with the lower weighted H (the H that went into its F, which is plain H at
//! weight one) is expanded first, and among those the cell that comes first in reading order
//! (smaller y, then smaller x). Neighbours are generated in the order of
//! [`DIRECTIONS`](crate::grid::DIRECTIONS), and a node's parent only changes on a strictly
//! better G. [`Ties::Lifo`] is an opt-in alternative for speed: the node of equal F queued
//! last goes first.
//!
//! ```
//! use astar_grid::astar::{Heuristic, Pathfinder, Query, SearchOptions, SearchResult};
//! use astar_grid::grid::{Grid, Pos};
//!
//! let grid = Grid::from_rows(&["......", ".####.", "......"]);
//! // One engine for many searches: its buffers are sized once and reused, and `search`
//! // writes into a result whose path buffer is reused too.
//! let mut pf = Pathfinder::new();
//! let mut result = SearchResult::default();
//! let dijkstra = SearchOptions::default().with_heuristic(Heuristic::Zero);
//! for (goal, cost) in [(Pos::new(5, 0), 50), (Pos::new(5, 2), 70), (Pos::new(0, 2), 20)] {
//!     pf.search(&grid, Query::new(Pos::new(0, 0), goal), &mut result, &mut ());
//!     assert_eq!(result.cost, Some(cost));
//!     // Dijkstra's algorithm agrees on the cost, expanding more.
//!     let plain = pf.find(&grid, Query::new(Pos::new(0, 0), goal).options(dijkstra));
//!     assert_eq!(plain.cost, Some(cost));
//!     assert!(plain.expanded >= result.expanded);
//! }
//! ```

mod board;
mod connect;
mod explain;
mod greedy;
mod jps;
mod queue;
mod trace;
mod weighted;

pub use explain::{Expansion, Fate};
pub use trace::{NodeInfo, NodeState, Snapshot, Trace, TraceEvent, Tracer, walk_runs};

use crate::grid::{DIAGONAL, Grid, Neighbourhood, ParseError, Pos, Regions, STRAIGHT};
use board::{Board, Queues};

/// The estimate of the remaining cost to the goal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Heuristic {
    /// `14*min(dx,dy) + 10*(max-min)`: exact on an open 8-way grid. Admissible everywhere.
    #[default]
    Octile,
    /// `10*(dx+dy)`: exact for 4-way; overestimates diagonals on 8-way grids.
    Manhattan,
    /// `10*max(dx,dy)`: admissible but weak.
    Chebyshev,
    /// `floor(10*sqrt(dx²+dy²))`: slightly overestimates long diagonals, since 14 < 10√2.
    Euclidean,
    /// Always 0: the search becomes Dijkstra's algorithm.
    Zero,
}

impl Heuristic {
    /// The name [`str::parse`] reads and `Display` writes.
    fn name(self) -> &'static str {
        match self {
            Heuristic::Octile => "octile",
            Heuristic::Manhattan => "manhattan",
            Heuristic::Chebyshev => "chebyshev",
            Heuristic::Euclidean => "euclidean",
            Heuristic::Zero => "zero",
        }
    }

    /// The estimate for a displacement of `dx` columns and `dy` rows under the default steps
    /// (10 straight, 14 diagonal).
    ///
    /// ```
    /// use astar_grid::astar::Heuristic;
    ///
    /// assert_eq!(Heuristic::Octile.estimate(3, 1), 34);
    /// assert_eq!(Heuristic::Manhattan.estimate(3, 1), 40);
    /// assert_eq!(Heuristic::Euclidean.estimate(3, 1), 31);
    /// ```
    #[inline]
    pub fn estimate(self, dx: u32, dy: u32) -> u32 {
        self.estimate_steps(dx, dy, STRAIGHT, DIAGONAL)
    }

    /// The estimate for a displacement of `dx` columns and `dy` rows with steps of
    /// `straight` and `diagonal` (see [`Steps`](crate::grid::Steps)); at most `u32::MAX`.
    #[inline]
    pub fn estimate_steps(self, dx: u32, dy: u32, straight: u32, diagonal: u32) -> u32 {
        let wide = |v: u64| v.min(u64::from(u32::MAX)) as u32;
        match self {
            Heuristic::Octile => {
                let (lo, hi) = if dx < dy { (dx, dy) } else { (dy, dx) };
                wide(
                    u64::from(straight) * u64::from(hi)
                        + u64::from(diagonal - straight) * u64::from(lo),
                )
            }
            Heuristic::Manhattan => wide(u64::from(straight) * (u64::from(dx) + u64::from(dy))),
            Heuristic::Chebyshev => wide(u64::from(straight) * u64::from(dx.max(dy))),
            Heuristic::Euclidean => {
                let d2 = u64::from(dx) * u64::from(dx) + u64::from(dy) * u64::from(dy);
                let s = u64::from(straight);
                wide((s * s * d2).isqrt())
            }
            Heuristic::Zero => 0,
        }
    }
}

impl std::fmt::Display for Heuristic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Heuristic {
    type Err = ParseError;

    /// Parses a heuristic's name (`octile`, `manhattan`, `chebyshev`, `euclidean`, `zero`);
    /// `dijkstra` is `zero`.
    ///
    /// ```
    /// use astar_grid::astar::Heuristic;
    ///
    /// assert_eq!("dijkstra".parse(), Ok(Heuristic::Zero));
    /// assert_eq!(Heuristic::Chebyshev.to_string(), "chebyshev");
    /// assert!("octagonal".parse::<Heuristic>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Self, ParseError> {
        if s == "dijkstra" {
            return Ok(Heuristic::Zero);
        }
        [
            Heuristic::Octile,
            Heuristic::Manhattan,
            Heuristic::Chebyshev,
            Heuristic::Euclidean,
            Heuristic::Zero,
        ]
        .into_iter()
        .find(|h| h.name() == s)
        .ok_or_else(|| {
            ParseError::new(
                s,
                "a heuristic: use octile, manhattan, chebyshev, euclidean or zero (also dijkstra)",
            )
        })
    }
}

/// A weight on H in thousandths: `1000` is plain A*, `1500` is weighted A* with w = 1.5.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Weight(u32);

impl Weight {
    /// Plain A* (w = 1).
    pub const ONE: Weight = Weight(1000);
    /// The largest weight accepted (w = 100).
    pub const MAX: Weight = Weight(100_000);

    /// A weight from thousandths, clamped to `0..=MAX`.
    pub fn from_millis(millis: u32) -> Self {
        Weight(millis.min(Self::MAX.0))
    }

    /// The weight in thousandths.
    pub fn millis(self) -> u32 {
        self.0
    }

    /// Parses a decimal such as `1`, `1.5` or `2.25` (at most three decimals, at most 100).
    fn parse(s: &str) -> Option<Self> {
        let (int, frac) = s.split_once('.').unwrap_or((s, ""));
        if int.is_empty() && frac.is_empty()
            || frac.len() > 3
            || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit())
            || int.len() > 3
        {
            return None;
        }
        let int: u32 = if int.is_empty() { 0 } else { int.parse().ok()? };
        let frac_millis: u32 = format!("{frac:0<3}").parse().ok()?;
        let millis = int * 1000 + frac_millis;
        (millis <= Self::MAX.0).then_some(Weight(millis))
    }

    #[inline]
    fn apply(self, h: u32) -> u32 {
        if self.0 == 1000 {
            h
        } else {
            (u64::from(h) * u64::from(self.0) / 1000).min(u64::from(u32::MAX / 2)) as u32
        }
    }
}

impl std::str::FromStr for Weight {
    type Err = ParseError;

    /// Parses a decimal from 0 to 100 with at most three decimals, such as `1`, `1.5` or
    /// `2.25`.
    ///
    /// ```
    /// use astar_grid::astar::Weight;
    ///
    /// assert_eq!("1.5".parse::<Weight>().map(Weight::millis), Ok(1500));
    /// assert_eq!(Weight::from_millis(2250).to_string(), "2.25");
    /// assert!("1.2345".parse::<Weight>().is_err() && "101".parse::<Weight>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Self, ParseError> {
        Self::parse(s)
            .ok_or_else(|| ParseError::new(s, "a weight from 0 to 100 with at most 3 decimals"))
    }
}

impl Default for Weight {
    fn default() -> Self {
        Self::ONE
    }
}

impl std::fmt::Display for Weight {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (int, frac) = (self.0 / 1000, self.0 % 1000);
        if frac == 0 {
            write!(f, "{int}")
        } else {
            let frac = format!("{frac:03}");
            write!(f, "{int}.{}", frac.trim_end_matches('0'))
        }
    }
}

/// Which of the open nodes of equal F a search expands first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Ties {
    /// The lower weighted H, then the cell first in reading order: the game's rule, which
    /// the overlay and the snapshots show.
    #[default]
    LowerH,
    /// The one queued last. Still deterministic, and as optimal as the search it breaks
    /// the ties of, but it may expand a few more nodes and pick another of the equally short
    /// paths; it saves ordering each F's nodes. Every search follows it: A* under any
    /// heuristic and weight, and greedy best-first (whose F is H, so equal H goes last in,
    /// first out instead of to the lower G).
    Lifo,
    /// The one queued first: a queue rather than a stack among equal F. Deterministic and
    /// as optimal as the search it breaks the ties of, like [`Ties::Lifo`]; on open ground
    /// it widens the search along the whole front of equal F where LIFO dives down one
    /// line, so the two are the far ends of what a tie rule can cost.
    Fifo,
}

impl Ties {
    /// The name [`str::parse`] reads and `Display` writes.
    fn name(self) -> &'static str {
        match self {
            Ties::LowerH => "lower-h",
            Ties::Lifo => "lifo",
            Ties::Fifo => "fifo",
        }
    }
}

impl std::fmt::Display for Ties {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Ties {
    type Err = ParseError;

    /// Parses `lower-h`, `lifo` or `fifo`.
    ///
    /// ```
    /// use astar_grid::astar::Ties;
    ///
    /// assert_eq!("lifo".parse(), Ok(Ties::Lifo));
    /// assert_eq!("fifo".parse(), Ok(Ties::Fifo));
    /// assert_eq!(Ties::LowerH.to_string(), "lower-h");
    /// ```
    fn from_str(s: &str) -> Result<Self, ParseError> {
        [Ties::LowerH, Ties::Lifo, Ties::Fifo]
            .into_iter()
            .find(|t| t.name() == s)
            .ok_or_else(|| ParseError::new(s, "a tie rule: use lower-h, lifo or fifo"))
    }
}

/// Which search runs: A*, or Jump Point Search where it applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Algorithm {
    /// A* over every cell (or greedy best-first, with [`SearchOptions::greedy`]).
    #[default]
    AStar,
    /// Jump Point Search (Harabor and Grastien, 2011), for the game's rule: it expands only
    /// the jump points where an optimal path may turn, scanning the straight and diagonal
    /// runs between them, and finds a path of the same optimal cost as A* (not always the
    /// same path). It applies to 8-way moves without corner cutting at weight 1 with the
    /// octile, Chebyshev or zero estimate, A* rather than greedy, nobody in the way
    /// ([`Query::occupied`] empty) and the base steps 10 and 14, on grids of one cost or of
    /// many (the cells beside a change of cost are jump points, where every move is tried),
    /// unless the grid is large and so cluttered that A* is faster
    /// ([`Fallback::Cluttered`]); elsewhere A* runs instead and [`SearchResult::fallback`]
    /// says why. Its expansions count jump points, its trace opens jump points only, each
    /// with the jump point its run came from as the parent.
    Jps,
}

impl Algorithm {
    /// The name [`str::parse`] reads and `Display` writes.
    fn name(self) -> &'static str {
        match self {
            Algorithm::AStar => "astar",
            Algorithm::Jps => "jps",
        }
    }
}

impl std::fmt::Display for Algorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Algorithm {
    type Err = ParseError;

    /// Parses `astar` or `jps`.
    ///
    /// ```
    /// use astar_grid::astar::Algorithm;
    ///
    /// assert_eq!("jps".parse(), Ok(Algorithm::Jps));
    /// assert_eq!(Algorithm::AStar.to_string(), "astar");
    /// ```
    fn from_str(s: &str) -> Result<Self, ParseError> {
        [Algorithm::AStar, Algorithm::Jps]
            .into_iter()
            .find(|a| a.name() == s)
            .ok_or_else(|| ParseError::new(s, "an algorithm: use astar or jps"))
    }
}

/// Why a search asked for [`Algorithm::Jps`] ran A* instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Fallback {
    /// Moves other than 8-way without corner cutting.
    Neighbourhood,
    /// An estimate that is not consistent on the grid (Manhattan, Euclidean) or a weight
    /// other than 1.
    Estimate,
    /// Greedy best-first.
    Greedy,
    /// Someone stands in the way ([`Query::occupied`] not empty): jump points assume that
    /// only walls block.
    Occupied,
    /// The grid's base steps are not 10 straight and 14 diagonal
    /// ([`Steps`](crate::grid::Steps)): the jump rules rest on those. (Cells of several
    /// costs do not stop JPS: see [`Algorithm::Jps`].)
    Steps,
    /// The grid's straight runs are too short for jumping to pay: on a large grid of
    /// scattered walls or one-cell corridors nearly every cell is a jump point, and a jump
    /// point costs several times what an A* node does, so A* is the faster of the two
    /// (grids of fewer than 4096 walkable cells always run JPS). A* then runs in JPS's
    /// place under [`Ties::Lifo`], the faster rule, whatever the options say: JPS promises
    /// an optimal path, not the one lower H would pick.
    Cluttered,
}

impl SearchOptions {
    /// Why JPS cannot run under these options, if it cannot (the query and the grid may
    /// still rule it out: see [`Algorithm::Jps`]).
    pub fn jps_fallback(&self) -> Option<Fallback> {
        if self.neighbourhood != Neighbourhood::Eight {
            Some(Fallback::Neighbourhood)
        } else if self.greedy {
            Some(Fallback::Greedy)
        } else if self.weight != Weight::ONE
            || !matches!(
                self.heuristic,
                Heuristic::Octile | Heuristic::Chebyshev | Heuristic::Zero
            )
        {
            Some(Fallback::Estimate)
        } else {
            None
        }
    }
}

/// How a search moves, estimates and stops. Built from [`SearchOptions::default`] (the
/// game's rule: 8-way without corner cutting, octile, weight 1, no cap, A*) and the `with_`
/// setters, so that options added later break nobody's code.
///
/// ```
/// use astar_grid::astar::{Heuristic, SearchOptions, Ties, Weight};
/// use astar_grid::grid::Neighbourhood;
///
/// let opts = SearchOptions::default()
///     .with_neighbourhood(Neighbourhood::Four)
///     .with_heuristic(Heuristic::Manhattan)
///     .with_weight("1.5".parse::<Weight>()?)
///     .with_cap(Some(500))
///     .with_ties(Ties::Lifo);
/// assert_eq!((opts.neighbourhood, opts.cap), (Neighbourhood::Four, Some(500)));
/// assert!(SearchOptions::default().is_default() && !opts.is_default());
/// # Ok::<(), astar_grid::grid::ParseError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub struct SearchOptions {
    /// Which moves are allowed.
    pub neighbourhood: Neighbourhood,
    /// The estimate of the remaining cost.
    pub heuristic: Heuristic,
    /// The weight on H.
    pub weight: Weight,
    /// Stop after this many expansions without reaching the goal.
    pub cap: Option<u32>,
    /// Greedy best-first instead of A*: the open list ordered by H alone (ties to lower G,
    /// then reading order). Fast and often not optimal.
    pub greedy: bool,
    /// Which node of equal F goes first.
    pub ties: Ties,
    /// A* or Jump Point Search.
    pub algorithm: Algorithm,
}

impl SearchOptions {
    /// These options with another movement rule.
    pub const fn with_neighbourhood(self, neighbourhood: Neighbourhood) -> Self {
        Self {
            neighbourhood,
            ..self
        }
    }

    /// These options with another estimate.
    pub const fn with_heuristic(self, heuristic: Heuristic) -> Self {
        Self { heuristic, ..self }
    }

    /// These options with another weight on H.
    pub const fn with_weight(self, weight: Weight) -> Self {
        Self { weight, ..self }
    }

    /// These options with another cap on expansions (`None`: no cap).
    pub const fn with_cap(self, cap: Option<u32>) -> Self {
        Self { cap, ..self }
    }

    /// These options as greedy best-first (`true`) or A* (`false`).
    pub const fn with_greedy(self, greedy: bool) -> Self {
        Self { greedy, ..self }
    }

    /// These options with another tie rule.
    pub const fn with_ties(self, ties: Ties) -> Self {
        Self { ties, ..self }
    }

    /// These options with another algorithm.
    pub const fn with_algorithm(self, algorithm: Algorithm) -> Self {
        Self { algorithm, ..self }
    }

    /// Whether these are the game's standard rules (8-way without corner cutting, octile,
    /// w=1, no cap, A*, lower H first).
    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }
}

/// Why an endpoint cannot be searched from or to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Invalid {
    /// Outside the map.
    OutOfBounds,
    /// On a cell nobody can stand on.
    Blocked,
}

impl Invalid {
    /// Why `p` cannot be searched from or to on `grid`, if it cannot: the one rule the
    /// search and every caller that refuses an endpoint before searching share.
    ///
    /// ```
    /// use astar_grid::astar::Invalid;
    /// use astar_grid::grid::{Grid, Pos};
    ///
    /// let grid = Grid::from_rows(&[".#"]);
    /// assert_eq!(Invalid::of(&grid, Pos::new(0, 0)), None);
    /// assert_eq!(Invalid::of(&grid, Pos::new(1, 0)), Some(Invalid::Blocked));
    /// assert_eq!(Invalid::of(&grid, Pos::new(2, 0)), Some(Invalid::OutOfBounds));
    /// ```
    pub fn of(grid: &Grid, p: Pos) -> Option<Invalid> {
        if !grid.contains(p) {
            Some(Invalid::OutOfBounds)
        } else if !grid.is_passable(p) {
            Some(Invalid::Blocked)
        } else {
            None
        }
    }
}

/// How a search ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Status {
    /// A path was found.
    Found,
    /// No path exists.
    Unreachable,
    /// The expansion cap was reached first.
    CapReached,
    /// The start is outside the map or blocked.
    InvalidStart(Invalid),
    /// The goal is outside the map or blocked. (A search toward a [`Target`] has no one
    /// goal to refuse: where none can be reached, it is [`Status::Unreachable`].)
    InvalidGoal(Invalid),
    /// [`Query::occupied`] is neither empty nor one entry per cell of the grid.
    BadOccupancy,
    /// No path costing less than [`MAX_COST`] exists, and one costing more may: the
    /// engine's integers stop there. (For greedy best-first, which does not look for the
    /// cheapest path: the path it found costs more than that.)
    TooCostly,
}

/// The largest path cost a search finds: above it, [`Status::TooCostly`]. Only grids of
/// millions of cells with costly cells and steps come near it.
pub const MAX_COST: u32 = (1 << 31) - 1;

/// One search: from where, to where, how, and who stands where for it alone.
///
/// ```
/// use astar_grid::astar::{Heuristic, Pathfinder, Query, SearchOptions};
/// use astar_grid::grid::{Grid, Pos};
///
/// let grid = Grid::from_rows(&[".....", ".....", "....."]);
/// let dijkstra = SearchOptions::default().with_heuristic(Heuristic::Zero);
/// // Someone stands at (2,1), in the middle of the straight line.
/// let mut occupied = vec![0; grid.len()];
/// occupied[grid.index(Pos::new(2, 1)).unwrap()] = 1;
/// let q = Query::new(Pos::new(0, 1), Pos::new(4, 1)).options(dijkstra).occupied(&occupied);
/// assert_eq!((q.start, q.goal, q.options.heuristic), (Pos::new(0, 1), Pos::new(4, 1), Heuristic::Zero));
/// // Round them: two diagonals instead of two straight steps.
/// assert_eq!(Pathfinder::new().find(&grid, q).cost, Some(48));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Query<'a> {
    /// Where the search starts.
    pub start: Pos,
    /// Where it must end.
    pub goal: Pos,
    /// How it moves, estimates and stops.
    pub options: SearchOptions,
    /// Who stands where, one entry per cell of the grid in row order (or empty for nobody):
    /// a nonzero cell may not be entered, the goal excepted (the searcher's own cell, the
    /// start, is never entered anyway). Occupants do not block diagonals past them: only
    /// blocked cells do. It costs nothing per occupant, so a crowd of any size is free to
    /// pass.
    pub occupied: &'a [u32],
}

impl Query<'static> {
    /// A search from `start` to `goal` under the game's rule, with nobody in the way.
    pub const fn new(start: Pos, goal: Pos) -> Self {
        Self {
            start,
            goal,
            options: SearchOptions {
                neighbourhood: Neighbourhood::Eight,
                heuristic: Heuristic::Octile,
                weight: Weight::ONE,
                cap: None,
                greedy: false,
                ties: Ties::LowerH,
                algorithm: Algorithm::AStar,
            },
            occupied: &[],
        }
    }
}

impl<'a> Query<'a> {
    /// The same query with other options.
    ///
    /// ```
    /// use astar_grid::astar::{Pathfinder, Query, SearchOptions, Status, Ties, Weight};
    /// use astar_grid::grid::{Grid, Neighbourhood, Pos};
    ///
    /// let grid = Grid::from_rows(&["....", "....", "...."]);
    /// let q = Query::new(Pos::new(0, 0), Pos::new(3, 2));
    /// let mut pf = Pathfinder::new();
    /// assert_eq!(pf.find(&grid, q).cost, Some(38)); // two diagonals and a straight step
    /// let four = SearchOptions::default().with_neighbourhood(Neighbourhood::Four);
    /// assert_eq!(pf.find(&grid, q.options(four)).cost, Some(50));
    /// // Weighted A* (w = 1.5), the last-queued tie rule, and a cap of expansions.
    /// let quick = SearchOptions::default()
    ///     .with_weight(Weight::from_millis(1500))
    ///     .with_ties(Ties::Lifo)
    ///     .with_cap(Some(2));
    /// assert_eq!(pf.find(&grid, q.options(quick)).status, Status::CapReached);
    /// ```
    pub const fn options(self, options: SearchOptions) -> Self {
        Self { options, ..self }
    }

    /// The same query with the cells of `occupied` (one per grid cell, nonzero when
    /// someone stands there) impassable but for the goal.
    ///
    /// ```
    /// use astar_grid::astar::{Pathfinder, Query};
    /// use astar_grid::grid::{Grid, Pos};
    ///
    /// let grid = Grid::from_rows(&["...", "...", "..."]);
    /// // Monster 7 stands in the centre.
    /// let occupied = [0, 0, 0, 0, 7, 0, 0, 0, 0];
    /// let q = Query::new(Pos::new(0, 1), Pos::new(2, 1)).occupied(&occupied);
    /// assert_eq!(Pathfinder::new().find(&grid, q).cost, Some(28));
    /// ```
    pub const fn occupied<'b>(self, occupied: &'b [u32]) -> Query<'b>
    where
        'a: 'b,
    {
        Query {
            start: self.start,
            goal: self.goal,
            options: self.options,
            occupied,
        }
    }

    /// Whether the search may not enter `p`, a cell of `grid`, for someone standing there.
    pub fn is_taken(&self, grid: &Grid, p: Pos) -> bool {
        p != self.goal
            && grid
                .index(p)
                .and_then(|c| self.occupied.get(c))
                .is_some_and(|&who| who != 0)
    }
}

/// What a search found.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SearchResult {
    /// How the search ended.
    pub status: Status,
    /// The path's cost, when found.
    pub cost: Option<u32>,
    /// Nodes expanded (taken from the open list and closed).
    pub expanded: u32,
    /// The path, start and goal included; empty when not found.
    pub path: Vec<Pos>,
    /// Why A* ran when [`Algorithm::Jps`] was asked for, if it did.
    pub fallback: Option<Fallback>,
}

impl Default for SearchResult {
    /// Nothing searched yet: unreachable as far as anyone knows, no work, no path.
    fn default() -> Self {
        Self {
            status: Status::Unreachable,
            cost: None,
            expanded: 0,
            path: Vec::new(),
            fallback: None,
        }
    }
}

impl SearchResult {
    /// Sets the outcome, keeping the path buffer (which the search has filled or cleared).
    fn set(&mut self, status: Status, cost: Option<u32>, expanded: u32) {
        (self.status, self.cost, self.expanded) = (status, cost, expanded);
    }

    /// Where the path ended: its goal, when one was found (for a search toward several
    /// goals, the one reached).
    pub fn end(&self) -> Option<Pos> {
        self.path.last().copied()
    }
}

/// What a search looks for when its goal is not one cell: where it may end, and a lower
/// bound of what getting there costs from any cell. [`Pathfinder::search_to`] takes one;
/// [`Goals`] (the nearest of several cells) and [`GoalTest`] (the caller's own test and
/// estimate) are the two the crate offers.
pub trait Target {
    /// Whether the search may end at `p`.
    fn is_goal(&self, p: Pos) -> bool;
    /// An estimate of the cheapest cost from `p` to a goal, on `grid`. The path found is
    /// optimal when it never overestimates (and no node is reopened when it is consistent:
    /// it drops by at most a step's cost from one cell to the next).
    fn estimate(&self, grid: &Grid, p: Pos) -> u32;
}

/// The nearest of several goal cells, under a heuristic: its estimate is the least over the
/// goals (times the grid's lowest cost), so its work grows with their number; give many
/// goals [`Heuristic::Zero`] (Dijkstra's search) or a [`GoalTest`] of your own.
///
/// ```
/// use astar_grid::astar::{Goals, Heuristic, Pathfinder, SearchOptions, SearchResult};
/// use astar_grid::grid::{Grid, Pos};
///
/// let grid = Grid::from_rows(&["..........", "..........", "...####..."]);
/// let exits = [Pos::new(9, 0), Pos::new(0, 2), Pos::new(5, 1)];
/// let mut pf = Pathfinder::new();
/// let mut found = SearchResult::default();
/// let nearest = Goals::new(&exits, Heuristic::Octile);
/// pf.search_to(&grid, Pos::new(2, 0), &nearest, SearchOptions::default(), &mut found);
/// assert_eq!((found.end(), found.cost), (Some(Pos::new(0, 2)), Some(28)));
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Goals<'a> {
    cells: &'a [Pos],
    heuristic: Heuristic,
}

impl<'a> Goals<'a> {
    /// The nearest of `cells`, estimated by `heuristic`.
    pub fn new(cells: &'a [Pos], heuristic: Heuristic) -> Self {
        Self { cells, heuristic }
    }
}

impl Target for Goals<'_> {
    fn is_goal(&self, p: Pos) -> bool {
        self.cells.contains(&p)
    }

    fn estimate(&self, grid: &Grid, p: Pos) -> u32 {
        let steps = grid.steps();
        let h = self
            .cells
            .iter()
            .map(|g| {
                self.heuristic.estimate_steps(
                    p.x.abs_diff(g.x),
                    p.y.abs_diff(g.y),
                    steps.straight(),
                    steps.diagonal(),
                )
            })
            .min()
            .unwrap_or(0);
        h.saturating_mul(grid.lowest_cost())
    }
}

/// A goal test and an estimate of the caller's, for searches the built-in goals do not fit:
/// the nearest cell of some kind, a cell in reach of the target, a row.
///
/// ```
/// use astar_grid::astar::{GoalTest, Pathfinder, SearchOptions, SearchResult};
/// use astar_grid::grid::{Grid, Pos};
///
/// let grid = Grid::from_rows(&["....#...", "....#...", "........"]);
/// // Any cell of the last column; the estimate counts the columns left, 10 a step.
/// let east = GoalTest::new(|p: Pos| p.x == 7, |p: Pos| 10 * (7 - p.x) as u32);
/// let mut found = SearchResult::default();
/// Pathfinder::new().search_to(&grid, Pos::new(0, 0), &east, SearchOptions::default(), &mut found);
/// assert_eq!((found.end().map(|p| p.x), found.cost), (Some(7), Some(78)));
/// ```
#[derive(Debug, Clone, Copy)]
pub struct GoalTest<G, H> {
    is_goal: G,
    estimate: H,
}

impl<G: Fn(Pos) -> bool, H: Fn(Pos) -> u32> GoalTest<G, H> {
    /// A target whose goals are the cells where `is_goal` holds, estimated by `estimate`
    /// (in the grid's cost units: a straight step into a cell of cost 1 is 10).
    pub fn new(is_goal: G, estimate: H) -> Self {
        Self { is_goal, estimate }
    }
}

impl<G: Fn(Pos) -> bool, H: Fn(Pos) -> u32> Target for GoalTest<G, H> {
    fn is_goal(&self, p: Pos) -> bool {
        (self.is_goal)(p)
    }

    fn estimate(&self, _: &Grid, p: Pos) -> u32 {
        (self.estimate)(p)
    }
}

/// A reusable A* engine. Keep one and call it for many searches: its buffers are sized once
/// per map and reused, so a search allocates nothing after the first (but the returned
/// path). It is `Send` and `Sync`: keep one per thread, or one in a shared resource behind
/// `&mut`.
#[derive(Debug, Clone)]
pub struct Pathfinder {
    board: Board,
    queues: Queues,
    /// Who is connected to whom, per movement rule (see [`connect::Connectivity`]).
    connected: connect::Connectivity,
    connected_cut: connect::Connectivity,
    /// The buffers of greedy best-first searches.
    greedy: greedy::Greedy,
    /// The buffers of Jump Point Search.
    jps: jps::Jps,
    /// The buffers of searches on grids that are not uniform, and toward targets.
    weighted: weighted::Weighted,
}

impl Default for Pathfinder {
    fn default() -> Self {
        Self {
            board: Board::default(),
            queues: Queues::default(),
            connected: connect::Connectivity::new(Neighbourhood::Eight),
            connected_cut: connect::Connectivity::new(Neighbourhood::EightCutCorners),
            greedy: greedy::Greedy::default(),
            jps: jps::Jps::default(),
            weighted: weighted::Weighted::default(),
        }
    }
}

impl Pathfinder {
    /// An engine with empty buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// Finds a path.
    ///
    /// ```
    /// use astar_grid::astar::{Pathfinder, Query, Status};
    /// use astar_grid::grid::{Grid, Pos};
    ///
    /// // The classic pillar: the wall forces the route over its top.
    /// let grid = Grid::from_rows(&[
    ///     "........",
    ///     "........",
    ///     "....#...",
    ///     "....#...",
    ///     "....#...",
    ///     "........",
    /// ]);
    /// let mut pf = Pathfinder::new();
    /// let r = pf.find(&grid, Query::new(Pos::new(2, 3), Pos::new(6, 3)));
    /// assert_eq!(r.status, Status::Found);
    /// assert_eq!(r.cost, Some(68));
    /// assert_eq!(r.path.first(), Some(&Pos::new(2, 3)));
    /// ```
    pub fn find(&mut self, grid: &Grid, query: Query<'_>) -> SearchResult {
        let mut result = SearchResult::default();
        self.search(grid, query, &mut result, &mut ());
        result
    }

    /// Finds a path and records every event of the search, for replay at any expansion.
    ///
    /// ```
    /// use astar_grid::astar::{NodeState, Pathfinder, Query};
    /// use astar_grid::grid::{Grid, Pos};
    ///
    /// let grid = Grid::from_rows(&["....", ".##.", "...."]);
    /// let (r, trace) = Pathfinder::new().find_traced(&grid, Query::new(Pos::new(0, 1), Pos::new(3, 1)));
    /// let first = trace.snapshot(1);
    /// let start = first.get(Pos::new(0, 1)).unwrap();
    /// assert_eq!((start.g, start.h, start.state), (0, 30, NodeState::Closed));
    /// assert_eq!(trace.expansions(), r.expanded);
    /// ```
    pub fn find_traced(&mut self, grid: &Grid, query: Query<'_>) -> (SearchResult, Trace) {
        let mut trace = Trace::new(query.start, query.goal, query.options);
        let mut result = SearchResult::default();
        self.search(grid, query, &mut result, &mut trace);
        (result, trace)
    }

    /// The general entry point: writes the outcome into `result`, whose path buffer is
    /// reused (so a warmed-up engine allocates nothing), and the events into `tracer`
    /// (`&mut ()` records nothing and costs nothing). Nothing the caller passes makes it
    /// panic: a bad endpoint or occupancy is a [`Status`].
    ///
    /// ```
    /// use astar_grid::astar::{Pathfinder, Query, SearchResult, Status};
    /// use astar_grid::grid::{Grid, Pos};
    ///
    /// let grid = Grid::from_rows(&["...", "...", "..."]);
    /// let (mut pf, mut result) = (Pathfinder::new(), SearchResult::default());
    /// // The centre is taken by someone else: go round it.
    /// let mut taken = vec![0; grid.len()];
    /// taken[4] = 1;
    /// let q = Query::new(Pos::new(0, 1), Pos::new(2, 1)).occupied(&taken);
    /// pf.search(&grid, q, &mut result, &mut ());
    /// assert_eq!(result.cost, Some(28));
    /// // An occupancy that is not one entry per cell is refused, not read.
    /// pf.search(&grid, q.occupied(&taken[..4]), &mut result, &mut ());
    /// assert_eq!(result.status, Status::BadOccupancy);
    /// ```
    pub fn search<T: Tracer>(
        &mut self,
        grid: &Grid,
        query: Query<'_>,
        result: &mut SearchResult,
        tracer: &mut T,
    ) {
        let Query {
            start,
            goal,
            options: opts,
            occupied,
        } = query;
        result.path.clear();
        result.fallback = None;
        if !occupied.is_empty() && occupied.len() != grid.len() {
            return result.set(Status::BadOccupancy, None, 0);
        }
        if let Some(why) = Invalid::of(grid, start) {
            return result.set(Status::InvalidStart(why), None, 0);
        }
        if let Some(why) = Invalid::of(grid, goal) {
            return result.set(Status::InvalidGoal(why), None, 0);
        }
        if start == goal {
            if T::ENABLED {
                tracer.event(TraceEvent::Open {
                    cell: start,
                    g: 0,
                    h: 0,
                    f: 0,
                    parent: None,
                });
                tracer.event(TraceEvent::Close { cell: start });
            }
            result.path.push(start);
            return result.set(Status::Found, Some(0), 1);
        }
        if !self.may_connect(grid, opts.neighbourhood, start, goal) {
            return result.set(Status::Unreachable, None, 0);
        }
        self.run(grid, &query, result, tracer);
        if result.status == Status::Unreachable {
            self.unreachable(grid, opts.neighbourhood);
        }
    }

    /// Runs the search that `query`'s options and the grid call for; the endpoints are
    /// valid, apart, and may be connected.
    fn run<T: Tracer>(
        &mut self,
        grid: &Grid,
        query: &Query<'_>,
        result: &mut SearchResult,
        tracer: &mut T,
    ) {
        let opts = query.options;
        if opts.algorithm == Algorithm::Jps {
            let fallback = opts.jps_fallback().or_else(|| {
                if query.occupied.is_empty() {
                    // Copying the grid in also weighs whether JPS runs on it.
                    self.jps.prepare(grid)
                } else {
                    Some(Fallback::Occupied)
                }
            });
            match fallback {
                None => return self.jps.search(query, result, tracer),
                Some(Fallback::Cluttered) => {
                    // In JPS's place, for its speed: A* under the faster tie rule, which
                    // finds the same cost as JPS promises (not A*'s path either).
                    let query = query.options(opts.with_ties(Ties::Lifo));
                    if grid.is_uniform() {
                        self.board.prepare(grid);
                        self.board
                            .run::<T, false>(&query, result, tracer, &mut self.queues);
                    } else {
                        let target = Single(query.goal, opts.heuristic);
                        self.weighted.search(grid, &query, &target, result, tracer);
                    }
                    result.fallback = fallback;
                    return;
                }
                Some(_) => result.fallback = fallback,
            }
        }
        if opts.greedy {
            return self.greedy.search(grid, query, result, tracer);
        }
        if !grid.is_uniform() {
            let target = Single(query.goal, opts.heuristic);
            return self.weighted.search(grid, query, &target, result, tracer);
        }
        self.board.prepare(grid);
        if query.occupied.is_empty() {
            self.board
                .run::<T, false>(query, result, tracer, &mut self.queues);
        } else {
            self.board
                .run::<T, true>(query, result, tracer, &mut self.queues);
        }
    }

    /// Searches from `start` for the cheapest way to any goal of `target` (the nearest of
    /// several cells, or a test of the caller's), under `options`' movement rule, weight,
    /// cap and tie rule (its heuristic is the target's estimate; greedy and JPS do not
    /// apply: this is A*). The goal reached is the path's last cell.
    ///
    /// The examples are on [`Goals`] and [`GoalTest`].
    pub fn search_to(
        &mut self,
        grid: &Grid,
        start: Pos,
        target: &impl Target,
        options: SearchOptions,
        result: &mut SearchResult,
    ) {
        self.search_to_traced(grid, start, target, options, result, &mut ());
    }

    /// [`Pathfinder::search_to`] telling `tracer` every event.
    pub fn search_to_traced<T: Tracer>(
        &mut self,
        grid: &Grid,
        start: Pos,
        target: &impl Target,
        options: SearchOptions,
        result: &mut SearchResult,
        tracer: &mut T,
    ) {
        result.path.clear();
        result.fallback = None;
        if let Some(why) = Invalid::of(grid, start) {
            return result.set(Status::InvalidStart(why), None, 0);
        }
        // The goal field is only read to exempt it from the occupancy, and there is none.
        let query = Query::new(start, start).options(options.with_algorithm(Algorithm::AStar));
        self.weighted.search(grid, &query, target, result, tracer);
    }

    /// Takes the buffers that `from` writes as it searches grids of several costs (not its
    /// copy of a grid, nor its labels) when this engine has none yet. A thread that searches
    /// several grids in turn, one engine each, then keeps one set of them between its engines
    /// instead of one an engine: on a 1024x1024 map, 8 MB less for every grid after the first,
    /// written before a first search. The answers do not change.
    ///
    /// ```
    /// use astar_grid::astar::{Pathfinder, Query};
    /// use astar_grid::grid::{Grid, Pos};
    ///
    /// let mud = Grid::from_rows(&["..2.", "2222"]);
    /// let wade = Grid::from_rows(&[".33.", "...."]);
    /// let (mut a, mut b) = (Pathfinder::new(), Pathfinder::new());
    /// let q = Query::new(Pos::new(0, 0), Pos::new(3, 0));
    /// assert_eq!(a.find(&mud, q).cost, Some(40));
    /// // `b` searches with the buffers `a` made, and `a` makes new ones if it searches again.
    /// b.take_buffers_from(&mut a);
    /// assert_eq!(b.find(&wade, q).cost, Some(38));
    /// assert_eq!(a.find(&mud, q).cost, Some(40));
    /// ```
    pub fn take_buffers_from(&mut self, from: &mut Pathfinder) {
        self.weighted.take_nodes(&mut from.weighted);
    }

    /// Labels the connected regions of `grid` under `rule` now (as the first search on it
    /// would), so that [`Pathfinder::share_labels`] can hand them on.
    pub fn label(&mut self, grid: &Grid, rule: Neighbourhood) {
        self.connectivity(rule).follow(grid);
    }

    /// Takes `from`'s labels of the connected regions of `from_grid` under `rule`, as labels
    /// of `grid`, where they follow `from_grid` as it stands, `grid` has
    /// the same size and open cells, and this engine's labels do not follow `grid` already:
    /// one labelling of a big grid then serves the engines of every thread, and of every
    /// grid of other costs over the same open cells, instead of one flood each. Labels are
    /// shared until an engine patches its own after a change. Returns whether it took any.
    ///
    /// ```
    /// use astar_grid::astar::{Pathfinder, Query};
    /// use astar_grid::grid::{Grid, Neighbourhood, Pos};
    ///
    /// let walk = Grid::from_rows(&["..#..", "..#.."]);
    /// let wade = Grid::from_rows(&["33#..", "..#33"]);
    /// let mut first = Pathfinder::new();
    /// first.label(&walk, Neighbourhood::Eight);
    /// let mut second = Pathfinder::new();
    /// assert!(second.share_labels(&wade, Neighbourhood::Eight, &first, &walk));
    /// let apart = second.find(&wade, Query::new(Pos::new(0, 0), Pos::new(4, 1)));
    /// assert_eq!((apart.cost, apart.expanded), (None, 0));
    /// ```
    pub fn share_labels(
        &mut self,
        grid: &Grid,
        rule: Neighbourhood,
        from: &Pathfinder,
        from_grid: &Grid,
    ) -> bool {
        let theirs = if rule == Neighbourhood::EightCutCorners {
            &from.connected_cut
        } else {
            &from.connected
        };
        self.connectivity(rule).adopt(grid, theirs, from_grid)
    }

    /// Takes `regions`, computed by [`Regions::compute`] on `from_grid` as it stands under
    /// `rule` (or under any rule that connects the same cells: [`Neighbourhood::Four`] and
    /// [`Neighbourhood::Eight`] do), as this engine's labels of `grid`, where `grid` has the
    /// same size and open cells and this engine's labels do not follow it already: a caller
    /// that counted the regions for itself spares the engine a flood of its own. Returns
    /// whether it took them.
    ///
    /// ```
    /// use astar_grid::astar::{Pathfinder, Query};
    /// use astar_grid::grid::{Grid, Neighbourhood, Pos, Regions};
    ///
    /// let walk = Grid::from_rows(&["..#..", "..#.."]);
    /// let regions = Regions::compute(&walk, Neighbourhood::Eight);
    /// let mut pf = Pathfinder::new();
    /// assert!(pf.adopt_regions(&walk, Neighbourhood::Eight, &regions, &walk));
    /// let apart = pf.find(&walk, Query::new(Pos::new(0, 0), Pos::new(4, 1)));
    /// assert_eq!((apart.cost, apart.expanded), (None, 0));
    /// ```
    pub fn adopt_regions(
        &mut self,
        grid: &Grid,
        rule: Neighbourhood,
        regions: &Regions,
        from_grid: &Grid,
    ) -> bool {
        self.connectivity(rule)
            .take_regions(grid, regions, from_grid)
    }

    /// Whether `start` and `goal` may be connected under `rule`: `false` only when they
    /// certainly are not (see [`connect::Connectivity`]).
    fn may_connect(&mut self, grid: &Grid, rule: Neighbourhood, start: Pos, goal: Pos) -> bool {
        let (si, gi) = (
            grid.index(start).unwrap_or(0),
            grid.index(goal).unwrap_or(0),
        );
        self.connectivity(rule).may_connect(grid, si, gi)
    }

    /// A search found no path between cells its labels joined: they were split by a change
    /// the labels only guessed at, so label afresh next time.
    fn unreachable(&mut self, grid: &Grid, rule: Neighbourhood) {
        self.connectivity(rule).found_apart(grid);
    }

    fn connectivity(&mut self, rule: Neighbourhood) -> &mut connect::Connectivity {
        if rule == Neighbourhood::EightCutCorners {
            &mut self.connected_cut
        } else {
            &mut self.connected
        }
    }
}

/// One goal cell under a built-in heuristic, the target of a [`Query`] on a grid that is not
/// uniform: the estimate times the lowest cost of a cell, so that it never overestimates.
struct Single(Pos, Heuristic);

impl Target for Single {
    #[inline]
    fn is_goal(&self, p: Pos) -> bool {
        p == self.0
    }

    #[inline]
    fn estimate(&self, grid: &Grid, p: Pos) -> u32 {
        let steps = grid.steps();
        self.1
            .estimate_steps(
                p.x.abs_diff(self.0.x),
                p.y.abs_diff(self.0.y),
                steps.straight(),
                steps.diagonal(),
            )
            .saturating_mul(grid.lowest_cost())
    }
}

/// The cost of a path under the default steps (10 straight, 14 diagonal) on uniform ground,
/// or `None` when a step is not a king move. For any grid use [`Grid::path_cost`], which
/// counts each cell's cost and the grid's steps.
pub fn path_cost(path: &[Pos]) -> Option<u32> {
    path.windows(2)
        .map(
            |w| match ((w[1].x - w[0].x).abs(), (w[1].y - w[0].y).abs()) {
                (1, 0) | (0, 1) => Some(STRAIGHT),
                (1, 1) => Some(DIAGONAL),
                _ => None,
            },
        )
        .sum()
}

#[cfg(test)]
mod tests;
