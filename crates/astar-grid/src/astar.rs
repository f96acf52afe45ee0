//! Grid A*: integer costs (10 straight, 14 diagonal), exact tie-breaking, reusable buffers,
//! region labels for instant "unreachable", and an optional event trace.
//!
//! Tie-breaking is fixed so that the same input always gives the same path: among nodes of
//! equal F the one with the lower weighted H (the H that went into its F, which is plain H at
//! weight one) is expanded first, and among those the cell that comes first in reading order
//! (smaller y, then smaller x). Neighbours are generated in the order of [`DIRECTIONS`], and
//! a node's parent only changes on a strictly better G. [`Ties::Lifo`] is an opt-in
//! alternative for speed: the node of equal F queued last goes first.

mod explain;
mod greedy;
mod queue;
mod trace;

pub use explain::{Expansion, Fate};
pub use trace::{NodeInfo, NodeState, Snapshot, Trace, TraceEvent, Tracer};

use crate::grid::{DIAGONAL, DIRECTIONS, Grid, Neighbourhood, Pos, Regions, STRAIGHT};
use queue::{BucketQueue, LifoRing, OpenList, RingQueue};

/// The estimate of the remaining cost to the goal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
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
    /// All heuristics, in the order the overlay cycles through them.
    pub const ALL: [Heuristic; 5] = [
        Heuristic::Octile,
        Heuristic::Manhattan,
        Heuristic::Chebyshev,
        Heuristic::Euclidean,
        Heuristic::Zero,
    ];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Heuristic::Octile => "octile",
            Heuristic::Manhattan => "manhattan",
            Heuristic::Chebyshev => "chebyshev",
            Heuristic::Euclidean => "euclidean",
            Heuristic::Zero => "zero",
        }
    }

    /// Parses a command-line name (`dijkstra` is accepted for `zero`).
    pub fn from_name(s: &str) -> Option<Self> {
        if s == "dijkstra" {
            return Some(Heuristic::Zero);
        }
        Self::ALL.into_iter().find(|h| h.name() == s)
    }

    /// The names accepted by [`str::parse`], for messages.
    pub const NAMES: &'static str =
        "octile, manhattan, chebyshev, euclidean or zero (also dijkstra)";

    /// The next heuristic in [`Heuristic::ALL`].
    pub fn next(self) -> Self {
        let i = Self::ALL.iter().position(|&h| h == self).unwrap_or(0);
        Self::ALL[(i + 1) % Self::ALL.len()]
    }

    /// The estimate for a displacement of `dx` columns and `dy` rows.
    #[inline]
    pub fn estimate(self, dx: u32, dy: u32) -> u32 {
        match self {
            Heuristic::Octile => {
                let (lo, hi) = if dx < dy { (dx, dy) } else { (dy, dx) };
                STRAIGHT * hi + (DIAGONAL - STRAIGHT) * lo
            }
            Heuristic::Manhattan => STRAIGHT * (dx + dy),
            Heuristic::Chebyshev => STRAIGHT * dx.max(dy),
            Heuristic::Euclidean => {
                let d2 = u64::from(dx) * u64::from(dx) + u64::from(dy) * u64::from(dy);
                (100 * d2).isqrt() as u32
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
    type Err = String;

    /// Parses a heuristic's name; `dijkstra` is `zero`.
    fn from_str(s: &str) -> Result<Self, String> {
        Self::from_name(s).ok_or_else(|| format!("{s:?} is not a heuristic: use {}", Self::NAMES))
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
    pub fn parse(s: &str) -> Option<Self> {
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
    type Err = String;

    /// Parses a decimal from 0 to 100 with at most three decimals, as [`Weight::parse`].
    fn from_str(s: &str) -> Result<Self, String> {
        Self::parse(s)
            .ok_or_else(|| format!("{s:?} is not a weight from 0 to 100 with at most 3 decimals"))
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
pub enum Ties {
    /// The lower weighted H, then the cell first in reading order: the game's rule, which
    /// the overlay and the snapshots show.
    #[default]
    LowerH,
    /// The one queued last. Still deterministic and still optimal, but it may expand a few
    /// more nodes and pick another of the equally short paths; it saves ordering each F's
    /// nodes. Only searches at weight 1 with the octile, Chebyshev or zero estimate (the
    /// ring's) follow it; the others, and greedy searches, keep [`Ties::LowerH`].
    Lifo,
}

impl Ties {
    /// Both rules, default first.
    pub const ALL: [Ties; 2] = [Ties::LowerH, Ties::Lifo];

    /// The names accepted by [`str::parse`], for messages.
    pub const NAMES: &'static str = "lower-h or lifo";

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Ties::LowerH => "lower-h",
            Ties::Lifo => "lifo",
        }
    }
}

impl std::fmt::Display for Ties {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Ties {
    type Err = String;

    /// Parses `lower-h` or `lifo`.
    fn from_str(s: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|t| t.name() == s)
            .ok_or_else(|| format!("{s:?} is not a tie rule: use {}", Self::NAMES))
    }
}

/// How a search moves, estimates and stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
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
}

impl SearchOptions {
    /// Whether the search runs on the fixed ring of F buckets (A* at weight 1 with the octile,
    /// Chebyshev or zero estimate), the only one that follows [`Ties::Lifo`].
    pub fn uses_ring(&self) -> bool {
        !self.greedy
            && self.weight == Weight::ONE
            && matches!(
                self.heuristic,
                Heuristic::Octile | Heuristic::Chebyshev | Heuristic::Zero
            )
    }

    /// A short description: `8 octile w1`, `4 zero w1 cap 500`, `8 octile greedy`.
    pub fn describe(&self) -> String {
        let mut s = format!("{} {}", self.neighbourhood, self.heuristic);
        if self.greedy {
            s.push_str(" greedy");
        } else {
            s.push_str(&format!(" w{}", self.weight));
        }
        if let Some(cap) = self.cap {
            s.push_str(&format!(" cap {cap}"));
        }
        if self.ties != Ties::LowerH && self.uses_ring() {
            s.push_str(&format!(" ties {}", self.ties));
        }
        s
    }

    /// What the open list is ordered by: `F = G + H`, `F = G + 1.5·H`, or `F = H` (greedy).
    pub fn formula(&self) -> String {
        if self.greedy {
            "F = H".into()
        } else if self.weight == Weight::ONE {
            "F = G + H".into()
        } else {
            format!("F = G + {}·H", self.weight)
        }
    }

    /// Whether these are the game's standard rules (8-way without corner cutting, octile, w=1, no cap).
    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }
}

/// Why an endpoint cannot be searched from or to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Invalid {
    /// Outside the map.
    OutOfBounds,
    /// On a cell nobody can stand on.
    Blocked,
}

/// How a search ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// A path was found.
    Found,
    /// No path exists.
    Unreachable,
    /// The expansion cap was reached first.
    CapReached,
    /// The start is outside the map or blocked.
    InvalidStart(Invalid),
    /// The goal is outside the map or blocked.
    InvalidGoal(Invalid),
}

impl Status {
    /// The name used in JSON output (`found`, `unreachable`, `cap`, `invalid_start`, `invalid_goal`).
    pub fn name(self) -> &'static str {
        match self {
            Status::Found => "found",
            Status::Unreachable => "unreachable",
            Status::CapReached => "cap",
            Status::InvalidStart(_) => "invalid_start",
            Status::InvalidGoal(_) => "invalid_goal",
        }
    }
}

/// One search: from where, to where, how, and which extra cells are blocked for it alone.
///
/// ```
/// use astar_grid::astar::{Heuristic, Query, SearchOptions};
/// use astar_grid::grid::Pos;
///
/// let dijkstra = SearchOptions { heuristic: Heuristic::Zero, ..SearchOptions::default() };
/// let others = [Pos::new(2, 1)];
/// let q = Query::new(Pos::new(0, 0), Pos::new(4, 2)).options(dijkstra).blockers(&others);
/// assert_eq!((q.start, q.goal, q.blockers.len()), (Pos::new(0, 0), Pos::new(4, 2), 1));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Query<'a> {
    /// Where the search starts.
    pub start: Pos,
    /// Where it must end.
    pub goal: Pos,
    /// How it moves, estimates and stops.
    pub options: SearchOptions,
    /// Cells nobody may enter during this search (other monsters); corners stay free.
    pub blockers: &'a [Pos],
    /// Who stands where, one entry per cell of the grid in row order (or empty for nobody):
    /// a nonzero cell may not be entered, the goal excepted. Unlike [`Query::blockers`] it
    /// costs nothing per occupant, so a crowd of any size is free to pass.
    pub occupied: &'a [u32],
}

impl Query<'static> {
    /// A search from `start` to `goal` under the game's rule, with no blockers.
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
            },
            blockers: &[],
            occupied: &[],
        }
    }
}

impl<'a> Query<'a> {
    /// The same query with other options.
    pub const fn options(self, options: SearchOptions) -> Self {
        Self { options, ..self }
    }

    /// The same query with `blockers` as extra impassable cells.
    pub const fn blockers<'b>(self, blockers: &'b [Pos]) -> Query<'b>
    where
        'a: 'b,
    {
        Query {
            start: self.start,
            goal: self.goal,
            options: self.options,
            blockers,
            occupied: self.occupied,
        }
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
            blockers: self.blockers,
            occupied,
        }
    }

    /// Whether the search may not enter `p`, a cell of `grid`, for someone standing there.
    pub fn is_taken(&self, grid: &Grid, p: Pos) -> bool {
        p != self.goal
            && (self.blockers.contains(&p)
                || grid
                    .index(p)
                    .and_then(|c| self.occupied.get(c))
                    .is_some_and(|&who| who != 0))
    }
}

/// What a search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchResult {
    /// How the search ended.
    pub status: Status,
    /// The path's cost, when found.
    pub cost: Option<u32>,
    /// Nodes expanded (taken from the open list and closed).
    pub expanded: u32,
    /// The path, start and goal included; empty when not found.
    pub path: Vec<Pos>,
}

impl Default for SearchResult {
    /// Nothing searched yet: unreachable as far as anyone knows, no work, no path.
    fn default() -> Self {
        Self {
            status: Status::Unreachable,
            cost: None,
            expanded: 0,
            path: Vec::new(),
        }
    }
}

impl SearchResult {
    /// Sets the outcome, keeping the path buffer (which the search has filled or cleared).
    fn set(&mut self, status: Status, cost: Option<u32>, expanded: u32) {
        (self.status, self.cost, self.expanded) = (status, cost, expanded);
    }
}

/// The largest grid searched: 4096x4096, as for level files. Costs then fit in 28 bits.
pub const MAX_SEARCH_CELLS: usize = 4096 * 4096;

/// The direction field of a node without a parent (the start).
const NO_PARENT: u32 = 15;

/// The search state of one cell and its walls in 8 bytes, so that a neighbour costs one
/// cache line: `stamp << 48 | open << 32 | !(g << 4 | d)`.
///
/// `stamp` is `generation << 1 | closed` when touched by the current search (older stamps
/// are smaller); `open` which of its eight neighbours have no wall, bit `d` for direction
/// `d` of [`DIRECTIONS`], set once per grid revision (with the direction that reached the
/// node, it picks the moves to try from [`NEXT_MOVES`]); `g` the best known cost from
/// the start and `d` the direction of the step that reached it (the parent is one step back)
/// or [`NO_PARENT`]. Costs fit in 28 bits: a path has fewer steps than the 2^24 cells of the
/// largest map, each at most 14 < 2^4. Storing G inverted below the stamp makes "is `ng` an
/// improvement" a single comparison, see [`Node::improves`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Node(u64);

/// The bits of [`Node`] holding the walls around it.
const OPEN: u64 = 0xFF << 32;

/// The last generation whose stamps fit in a [`Node`]'s 16 bits.
const MAX_GENERATION: u32 = (1 << 15) - 1;

impl Node {
    /// This node's walls with a new search state.
    #[inline(always)]
    fn with(self, stamp: u32, g: u32, dir: u32) -> Self {
        Node(self.0 & OPEN | u64::from(stamp) << 48 | u64::from(!(g << 4 | dir)))
    }

    /// Which neighbours have no wall, bit `d` for direction `d`.
    #[inline(always)]
    fn open(self) -> usize {
        (self.0 >> 32) as usize & 0xFF
    }

    #[inline(always)]
    fn g(self) -> u32 {
        !(self.0 as u32) >> 4
    }

    #[inline(always)]
    fn dir(self) -> u32 {
        !(self.0 as u32) & 15
    }

    /// The search state alone: below `open << 48 | (!(ng << 4) & !15)` exactly when the
    /// node is untouched by the search stamped `open` (older stamp) or open there with a G
    /// above `ng`; closed nodes (`open | 1`) never are. So "does `ng` improve it" is one
    /// comparison.
    #[inline(always)]
    fn state(self) -> u64 {
        self.0 & !OPEN
    }
}

/// No wall on the cell.
const WALKABLE: u8 = 1;
/// No wall and no blocker on the cell.
const ENTERABLE: u8 = 2;

/// A search's listed blockers are marked on the board (see [`Board::search_loop`]).
const LISTED: u8 = 1;
/// A search reads its query's occupancy (see [`Board::search_loop`]).
const OCCUPIED: u8 = 2;

/// A reusable A* engine. Keep one and call it for many searches: its buffers are sized once
/// per map and reused, so a search allocates nothing after the first (but the returned path).
#[derive(Debug, Clone, Default)]
pub struct Pathfinder {
    board: Board,
    /// The open list of octile, Chebyshev and zero searches at weight exactly 1, lower H first.
    ring: RingQueue,
    /// The same searches under [`Ties::Lifo`].
    lifo: LifoRing,
    /// The open list of every other search, whose F can spread arbitrarily far.
    queue: BucketQueue,
    regions: Option<(u64, Regions)>,
    regions_cut: Option<(u64, Regions)>,
    blocked: Vec<usize>,
    /// The buffers of greedy best-first searches.
    greedy: greedy::Greedy,
}

/// The per-cell arrays of a [`Pathfinder`], apart from its open lists so that a search can
/// borrow both.
#[derive(Debug, Clone, Default)]
struct Board {
    /// The revision of the grid copied in, or 0 (no grid has it) before the first.
    revision: u64,
    /// Row stride of the padded arrays: the map with a one-cell impassable border.
    stride: usize,
    /// `2^64 / stride` rounded up: turns the cell-to-row division into a multiplication.
    stride_magic: u64,
    /// Per padded cell: [`WALKABLE`] when no wall is there, [`ENTERABLE`] when also unoccupied.
    flags: Vec<u8>,
    /// Per padded cell, stamp, legal moves, G and parent together.
    nodes: Vec<Node>,
    generation: u32,
    /// The found path, goal first, as [`Board::write_path`] walks it back.
    trail: Vec<Pos>,
}

impl Pathfinder {
    /// An engine with empty buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// The connected regions of `grid` under `rule`, computed once per grid revision.
    pub fn regions(&mut self, grid: &Grid, rule: Neighbourhood) -> &Regions {
        let slot = if rule == Neighbourhood::EightCutCorners {
            &mut self.regions_cut
        } else {
            &mut self.regions
        };
        if slot.as_ref().is_none_or(|(rev, _)| *rev != grid.revision()) {
            *slot = Some((grid.revision(), Regions::compute(grid, rule)));
        }
        &slot.as_ref().expect("just computed").1
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
    /// (`&mut ()` records nothing and costs nothing).
    ///
    /// ```
    /// use astar_grid::astar::{Pathfinder, Query, SearchResult};
    /// use astar_grid::grid::{Grid, Pos};
    ///
    /// let grid = Grid::from_rows(&["...", "...", "..."]);
    /// let (mut pf, mut result) = (Pathfinder::new(), SearchResult::default());
    /// // The centre is taken by someone else: go round it.
    /// let taken = [Pos::new(1, 1)];
    /// let q = Query::new(Pos::new(0, 1), Pos::new(2, 1)).blockers(&taken);
    /// pf.search(&grid, q, &mut result, &mut ());
    /// assert_eq!(result.cost, Some(28));
    /// ```
    ///
    /// # Panics
    ///
    /// On a grid of more than [`MAX_SEARCH_CELLS`] cells (level files are limited to that),
    /// and when [`Query::occupied`] is neither empty nor one entry per cell of the grid.
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
            blockers,
            occupied,
        } = query;
        assert!(
            occupied.is_empty() || occupied.len() == grid.len(),
            "an occupancy of {} cells for a grid of {}",
            occupied.len(),
            grid.len()
        );
        result.path.clear();
        let invalid = |p: Pos| {
            if !grid.contains(p) {
                Some(Invalid::OutOfBounds)
            } else if !grid.is_passable(p) {
                Some(Invalid::Blocked)
            } else {
                None
            }
        };
        if let Some(why) = invalid(start) {
            return result.set(Status::InvalidStart(why), None, 0);
        }
        if let Some(why) = invalid(goal) {
            return result.set(Status::InvalidGoal(why), None, 0);
        }
        if start == goal {
            if T::ENABLED {
                tracer.open(start, 0, 0, 0, None);
                tracer.close(start);
            }
            result.path.push(start);
            return result.set(Status::Found, Some(0), 1);
        }
        let regions = self.regions(grid, opts.neighbourhood);
        let (si, gi) = (
            grid.index(start).unwrap_or(0),
            grid.index(goal).unwrap_or(0),
        );
        if regions.label(si) != regions.label(gi) {
            return result.set(Status::Unreachable, None, 0);
        }
        if opts.greedy {
            return self.greedy.search(grid, &query, result, tracer);
        }
        let board = &mut self.board;
        board.prepare(grid);
        self.blocked.clear();
        for &b in blockers {
            if b != start && b != goal && grid.is_passable(b) {
                let c = board.cell(b);
                if board.flags[c] & ENTERABLE != 0 {
                    board.flags[c] &= !ENTERABLE;
                    self.blocked.push(c);
                }
            }
        }
        if !occupied.is_empty() {
            self.dispatch::<T, { LISTED | OCCUPIED }>(&query, result, tracer);
        } else if !self.blocked.is_empty() {
            self.dispatch::<T, LISTED>(&query, result, tracer);
        } else {
            self.dispatch::<T, 0>(&query, result, tracer);
        }
        for &c in &self.blocked {
            self.board.flags[c] |= ENTERABLE;
        }
    }

    /// Picks the open list and the loop copy for the options.
    fn dispatch<T: Tracer, const BLOCKERS: u8>(
        &mut self,
        q: &Query<'_>,
        result: &mut SearchResult,
        tracer: &mut T,
    ) {
        let opts = &q.options;
        let board = &mut self.board;
        if opts.weight != Weight::ONE
            || !matches!(
                opts.heuristic,
                Heuristic::Octile | Heuristic::Chebyshev | Heuristic::Zero
            )
        {
            // Inconsistent or weighted: F may spread anywhere, so the growable queue.
            let (heuristic, weight) = (opts.heuristic, opts.weight);
            return board.search_loop::<T, _, _, BLOCKERS, false>(
                q,
                result,
                tracer,
                &mut self.queue,
                |dx, dy| {
                    let h = heuristic.estimate(dx, dy);
                    (h, weight.apply(h))
                },
            );
        }
        match opts.ties {
            Ties::LowerH => board.ring_search::<T, _, BLOCKERS>(q, result, tracer, &mut self.ring),
            Ties::Lifo => board.ring_search::<T, _, BLOCKERS>(q, result, tracer, &mut self.lifo),
        }
    }
}

impl Board {
    /// Resizes the buffers and copies passability when the map changed.
    fn prepare(&mut self, grid: &Grid) {
        // Grid revisions start at 1, so a new board never matches.
        if self.revision == grid.revision() {
            return;
        }
        assert!(
            grid.len() <= MAX_SEARCH_CELLS,
            "grids of more than {MAX_SEARCH_CELLS} cells are not searched"
        );
        let (w, h) = (grid.width(), grid.height());
        let stride = w + 2;
        let cells = stride * (h + 2);
        // The stride and the cell count together fix the width and the height.
        if self.stride != stride || self.flags.len() != cells {
            self.flags = vec![0; cells];
            self.nodes = vec![Node::default().with(0, 0, NO_PARENT); cells];
            self.generation = 0;
        }
        self.stride = stride;
        // Exact for every 32-bit cell index (Lemire, Kaser and Kurz, 2019); stride >= 3.
        self.stride_magic = (u64::MAX / stride as u64).wrapping_add(1);
        for (y, row) in grid.tiles().chunks(w.max(1)).enumerate() {
            let base = (y + 1) * stride + 1;
            for (x, t) in row.iter().enumerate() {
                self.flags[base + x] = if t.is_passable() {
                    WALKABLE | ENTERABLE
                } else {
                    0
                };
            }
        }
        let offsets = direction_offsets(stride);
        for c in stride..cells - stride {
            let mut open = 0u64;
            if self.flags[c] & WALKABLE != 0 {
                for (d, &off) in offsets.iter().enumerate() {
                    open |= u64::from(self.flags[c.wrapping_add(off)] & WALKABLE) << d;
                }
            }
            self.nodes[c] = Node(self.nodes[c].0 & !OPEN | open << 32);
        }
        self.revision = grid.revision();
    }

    #[inline]
    fn cell(&self, p: Pos) -> usize {
        (p.y as usize + 1) * self.stride + p.x as usize + 1
    }

    /// A search at weight exactly 1 with a consistent estimate, on a fixed ring `Q`: the
    /// game's rule gets a copy of the loop of its own, with the octile estimate inlined and
    /// the move masks fixed; octile under the other rules another; Chebyshev and zero, matched
    /// inside the estimate, a third.
    fn ring_search<T: Tracer, Q: OpenList, const BLOCKERS: u8>(
        &mut self,
        q: &Query<'_>,
        result: &mut SearchResult,
        tracer: &mut T,
        ring: &mut Q,
    ) {
        let octile = |dx, dy| {
            let h = Heuristic::Octile.estimate(dx, dy);
            (h, h)
        };
        match q.options.heuristic {
            Heuristic::Octile if q.options.neighbourhood == Neighbourhood::Eight => {
                self.search_loop::<T, _, _, BLOCKERS, true>(q, result, tracer, ring, octile)
            }
            Heuristic::Octile => {
                self.search_loop::<T, _, _, BLOCKERS, false>(q, result, tracer, ring, octile)
            }
            heuristic => {
                self.search_loop::<T, _, _, BLOCKERS, false>(q, result, tracer, ring, |dx, dy| {
                    let h = heuristic.estimate(dx, dy);
                    (h, h)
                })
            }
        }
    }

    /// The search proper; `estimate(dx, dy)` gives H and the weighted H of a cell `dx`
    /// columns and `dy` rows from the goal.
    ///
    /// `BLOCKERS` says whether any cell is marked not enterable ([`LISTED`]) and whether the
    /// query's occupancy is to be read ([`OCCUPIED`]); `EIGHT` promises that the
    /// neighbourhood is [`Neighbourhood::Eight`], so the move table is fixed at compile time.
    fn search_loop<
        T: Tracer,
        Q: OpenList,
        E: Fn(u32, u32) -> (u32, u32),
        const BLOCKERS: u8,
        const EIGHT: bool,
    >(
        &mut self,
        q: &Query<'_>,
        result: &mut SearchResult,
        tracer: &mut T,
        queue: &mut Q,
        estimate: E,
    ) {
        let (start, goal, opts) = (q.start, q.goal, &q.options);
        if self.generation >= MAX_GENERATION {
            for node in &mut self.nodes {
                *node = node.with(0, node.g(), node.dir());
            }
            self.generation = 0;
        }
        self.generation += 1;
        let open = self.generation << 1;
        let stamp = u64::from(open) << 48;

        let offsets = direction_offsets(self.stride);
        // The occupancy is unpadded: the same directions at the map's own width.
        let width = self.stride - 2;
        let occupied_offsets = direction_offsets(width);
        let next_moves = &NEXT_MOVES[if EIGHT {
            0
        } else {
            rule_index(opts.neighbourhood)
        }];
        let cap = opts.cap.unwrap_or(u32::MAX);
        let (stride, stride_magic) = (self.stride, self.stride_magic);
        let s = self.cell(start);
        let t = self.cell(goal);
        let nodes = &mut self.nodes[..];
        let flags = &self.flags[..];

        let (h0, hw0) = estimate(start.x.abs_diff(goal.x), start.y.abs_diff(goal.y));
        nodes[s] = nodes[s].with(open, 0, NO_PARENT);
        queue.start(hw0, (u64::from(hw0) << 32) | s as u64);
        if T::ENABLED {
            tracer.open(start, 0, h0, hw0, None);
        }

        // A node's H is fixed, so a better G is a lower F, and the entry with the node's
        // best G pops first: every other entry of a node finds it closed. So an entry is live
        // exactly when its node is not closed, whose stamp is above every other.
        let closed = stamp | 1 << 48;
        let mut expanded = 0u32;
        while let Some((_, key)) = queue.pop(|_, key| nodes[key as u32 as usize].0 < closed) {
            let c = key as u32 as usize;
            let node = nodes[c];
            if node.0 >= closed {
                continue;
            }
            if expanded >= cap {
                return result.set(Status::CapReached, None, expanded);
            }
            // Open and closed stamps differ in the lowest bit of the stamp alone.
            nodes[c] = Node(node.0 | closed);
            expanded += 1;
            let p = pos_of(c, stride, stride_magic);
            if T::ENABLED {
                tracer.close(p);
            }
            if c == t {
                self.write_path(c, p, &mut result.path);
                return result.set(Status::Found, Some(node.g()), expanded);
            }
            let here = if BLOCKERS & OCCUPIED != 0 {
                p.y as usize * width + p.x as usize
            } else {
                0
            };
            let (ax, ay) = (p.x - goal.x, p.y - goal.y);
            // `!(g << 4)`: less `cost << 4 | d` it is the G field of the step in direction d.
            let base = node.0 as u32 | 15;
            // Without the moves to cells the parent could step to directly, which already
            // have a G at least as good as any through here (see PARENT_COVERS).
            let mut moves = u32::from(next_moves[node.dir() as usize][node.open()]);
            while moves != 0 {
                let d = moves.trailing_zeros() as usize & 7;
                moves &= moves - 1;
                let n = c.wrapping_add(offsets[d]);
                // `!(ng << 4 | d)`, and the bound `!(ng << 4) & !15` of Node::state.
                let low = base.wrapping_sub(STEPS[d]);
                let old = nodes[n];
                // Blockers only stop entering a cell: corners are walls only.
                if old.state() >= stamp | u64::from(low & !15)
                    || BLOCKERS & LISTED != 0 && flags[n] & ENTERABLE == 0
                    || BLOCKERS & OCCUPIED != 0
                        && q.occupied[here.wrapping_add(occupied_offsets[d])] != 0
                        && n != t
                {
                    continue;
                }
                nodes[n] = Node(old.0 & OPEN | stamp | u64::from(low));
                let ng = node.g() + COSTS[d];
                let (dx, dy) = DIRECTIONS[d];
                let (h, hw) = estimate((ax + dx).unsigned_abs(), (ay + dy).unsigned_abs());
                queue.push(ng + hw, (u64::from(hw) << 32) | n as u64);
                if T::ENABLED {
                    tracer.open(Pos::new(p.x + dx, p.y + dy), ng, h, ng + hw, Some(p));
                }
            }
        }
        result.set(Status::Unreachable, None, expanded);
    }

    /// Writes the path that ends at `c` (at `end`) into `path`: one walk back along the
    /// parents into the reused trail, whose length then sizes `path`, so that `find`
    /// allocates it exactly once.
    fn write_path(&mut self, c: usize, end: Pos, path: &mut Vec<Pos>) {
        let offsets = direction_offsets(self.stride);
        let trail = &mut self.trail;
        trail.clear();
        let (mut at, mut p) = (c, end);
        loop {
            trail.push(p);
            let d = self.nodes[at].dir();
            if d == NO_PARENT {
                break;
            }
            // Positions by step rather than from the index: no division on the way back.
            let (dx, dy) = DIRECTIONS[d as usize & 7];
            at = at.wrapping_sub(offsets[d as usize & 7]);
            p = Pos::new(p.x - dx, p.y - dy);
        }
        path.extend(trail.iter().rev());
    }
}

/// The cost of a step in each direction of [`DIRECTIONS`].
const COSTS: [u32; 8] = [
    STRAIGHT, STRAIGHT, STRAIGHT, STRAIGHT, DIAGONAL, DIAGONAL, DIAGONAL, DIAGONAL,
];

/// `cost << 4 | d` for each direction `d`: added to `g << 4` it gives the [`Node`] fields of
/// the step's end.
const STEPS: [u32; 8] = {
    let mut steps = [0; 8];
    let mut d = 0;
    while d < 8 {
        steps[d] = COSTS[d] << 4 | d as u32;
        d += 1;
    }
    steps
};

/// The position of padded cell `c` on a board of row stride `stride` (see
/// [`Board::stride_magic`]).
#[inline(always)]
fn pos_of(c: usize, stride: usize, stride_magic: u64) -> Pos {
    let row = ((u128::from(stride_magic) * c as u128) >> 64) as usize;
    let col = c - row * stride;
    Pos::new(col as i32 - 1, row as i32 - 1)
}

/// The padded-index offset of each direction of [`DIRECTIONS`], as wrapping `usize` adds.
fn direction_offsets(stride: usize) -> [usize; 8] {
    DIRECTIONS.map(|(dx, dy)| (dx as isize + dy as isize * stride as isize) as usize)
}

/// For each rule (as in [`rule_index`]), a node reached by direction `from` and the
/// walkability of its eight neighbours (`open`, bit `d` for direction `d` of
/// [`DIRECTIONS`]): the directions from the node to cells that are its parent or one legal
/// parent move away. Those cannot improve through the node, since one step from the parent
/// costs no more than two through it. Every cell involved, including the sides of a
/// diagonal parent move, is the node or one of its neighbours, so the node's own `open`
/// decides, and the parent need not be looked at.
const PARENT_COVERS: [[[u8; 256]; 8]; 3] = {
    let mut table = [[[0u8; 256]; 8]; 3];
    let mut rule = 0;
    while rule < 3 {
        let mut from = 0;
        while from < 8 {
            let mut open = 0;
            while open < 256 {
                table[rule][from][open] = parent_covers(rule, from, open);
                open += 1;
            }
            from += 1;
        }
        rule += 1;
    }
    table
};

/// For each rule (as in [`rule_index`]), the direction a node was reached by (or
/// [`NO_PARENT`], and the other values above 7: none) and the walls around it (as in
/// [`Node`]'s `open`): the moves worth trying from it, the rule's legal moves less
/// those [`PARENT_COVERS`] rules out. One load per expansion picks them.
static NEXT_MOVES: [[[u8; 256]; 16]; 3] = {
    let mut table = [[[0u8; 256]; 16]; 3];
    let mut rule = 0;
    while rule < 3 {
        let mut from = 0;
        while from < 16 {
            let mut open = 0;
            while open < 256 {
                let legal = match rule {
                    0 => CORNER_RULE[open],
                    1 => open as u8,
                    _ => open as u8 & 0x0F,
                };
                table[rule][from][open] = if from < 8 {
                    legal & !PARENT_COVERS[rule][from][open]
                } else {
                    legal
                };
                open += 1;
            }
            from += 1;
        }
        rule += 1;
    }
    table
};

/// The index of a rule in [`PARENT_COVERS`] and [`NEXT_MOVES`].
const fn rule_index(rule: Neighbourhood) -> usize {
    match rule {
        Neighbourhood::Eight => 0,
        Neighbourhood::EightCutCorners => 1,
        Neighbourhood::Four => 2,
    }
}

/// One entry of [`PARENT_COVERS`].
const fn parent_covers(rule: usize, from: usize, open: usize) -> u8 {
    let (px, py) = (-DIRECTIONS[from].0, -DIRECTIONS[from].1);
    let mut covered = 0u8;
    let mut d = 0;
    while d < 8 {
        let (nx, ny) = DIRECTIONS[d];
        // The step from the parent to the neighbour.
        let (x, y) = (nx - px, ny - py);
        let legal = if x == 0 && y == 0 {
            true
        } else if x.abs() > 1 || y.abs() > 1 {
            false
        } else if x != 0 && y != 0 {
            match rule {
                0 => {
                    walkable(open, nx, ny)
                        && walkable(open, px + x, py)
                        && walkable(open, px, py + y)
                }
                1 => walkable(open, nx, ny),
                _ => false,
            }
        } else {
            walkable(open, nx, ny)
        };
        if legal {
            covered |= 1 << d;
        }
        d += 1;
    }
    covered
}

/// Whether the cell at (x, y) from a node whose neighbours' walkability is `open` is
/// walkable: the node itself is.
const fn walkable(open: usize, x: i32, y: i32) -> bool {
    if x == 0 && y == 0 {
        return true;
    }
    let mut e = 0;
    while e < 8 {
        if DIRECTIONS[e].0 == x && DIRECTIONS[e].1 == y {
            return open & (1 << e) != 0;
        }
        e += 1;
    }
    false
}

/// For each set of wall-free neighbours (bit `d` for direction `d`), the moves allowed
/// without corner cutting: every straight one, and the diagonals whose two sides are free.
const CORNER_RULE: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut open = 0;
    while open < 256 {
        let mut allowed = open & 0x0F;
        let mut d = 4;
        while d < 8 {
            let sides = DIAGONAL_SIDES[d - 4] as usize;
            if open & (1 << d) != 0 && open & sides == sides {
                allowed |= 1 << d;
            }
            d += 1;
        }
        table[open] = allowed as u8;
        open += 1;
    }
    table
};

/// For each diagonal direction (4..8 in [`DIRECTIONS`]), the straight directions it passes
/// between, as bits of the straight direction indices.
const DIAGONAL_SIDES: [u32; 4] = {
    let mut sides = [0u32; 4];
    let mut d = 4;
    while d < 8 {
        let (dx, dy) = DIRECTIONS[d];
        let mut s = 0;
        while s < 4 {
            let (sx, sy) = DIRECTIONS[s];
            if (sx == dx && sy == 0) || (sx == 0 && sy == dy) {
                sides[d - 4] |= 1 << s;
            }
            s += 1;
        }
        d += 1;
    }
    sides
};

/// The cost of a path under the 10/14 rule, or `None` when a step is not a king move.
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
