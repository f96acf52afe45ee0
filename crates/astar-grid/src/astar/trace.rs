//! A record of one search, event by event, and its replay at any expansion.

use std::collections::HashMap;

use super::SearchOptions;
use crate::grid::Pos;

/// Receives the events of a search, one [`TraceEvent`] at a time; the no-op `()` tracer
/// compiles away entirely.
///
/// ```
/// use astar_grid::astar::{Pathfinder, Query, SearchResult, TraceEvent, Tracer};
/// use astar_grid::grid::{Grid, Pos};
///
/// /// Counts the nodes opened and keeps the last one expanded.
/// #[derive(Default)]
/// struct Count {
///     opened: u32,
///     last: Option<Pos>,
/// }
///
/// impl Tracer for Count {
///     const ENABLED: bool = true;
///     fn event(&mut self, event: TraceEvent) {
///         match event {
///             TraceEvent::Open { .. } => self.opened += 1,
///             TraceEvent::Close { cell } => self.last = Some(cell),
///         }
///     }
/// }
///
/// let grid = Grid::from_rows(&["....", ".##.", "...."]);
/// let (mut count, mut result) = (Count::default(), SearchResult::default());
/// let q = Query::new(Pos::new(0, 1), Pos::new(3, 1));
/// Pathfinder::new().search(&grid, q, &mut result, &mut count);
/// assert_eq!(count.last, Some(Pos::new(3, 1)), "the goal is expanded last");
/// assert!(count.opened >= result.expanded);
/// ```
pub trait Tracer {
    /// Whether this tracer records anything (lets the engine skip the work for `()`).
    const ENABLED: bool;
    /// One event of the search, in the order they happen.
    fn event(&mut self, event: TraceEvent);
}

impl Tracer for () {
    const ENABLED: bool = false;
    #[inline(always)]
    fn event(&mut self, _: TraceEvent) {}
}

/// One step of a recorded search.
///
/// Exhaustive on purpose: A* opens nodes and closes them, and a replay matches both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TraceEvent {
    /// A node entered the open list, or its G improved.
    Open {
        /// The node.
        cell: Pos,
        /// Cost from the start.
        g: u32,
        /// Heuristic estimate to the goal (unweighted).
        h: u32,
        /// Priority: G plus the weighted H.
        f: u32,
        /// The node it was reached from.
        parent: Option<Pos>,
    },
    /// A node was expanded and closed.
    Close {
        /// The node.
        cell: Pos,
    },
}

/// Every event of one search, in order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Trace {
    /// Where the search started.
    pub start: Pos,
    /// Where it was headed.
    pub goal: Pos,
    /// The options it ran with.
    pub options: SearchOptions,
    events: Vec<TraceEvent>,
    /// Close events so far: the overlay asks every frame, so it is kept, not counted.
    closes: u32,
}

impl Tracer for Trace {
    const ENABLED: bool = true;
    fn event(&mut self, event: TraceEvent) {
        self.closes += u32::from(matches!(event, TraceEvent::Close { .. }));
        self.events.push(event);
    }
}

/// Whether a touched node is waiting in the open list or already expanded.
///
/// Exhaustive on purpose, as [`TraceEvent`]: a touched node is open or closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeState {
    /// In the open list.
    Open,
    /// Expanded.
    Closed,
}

impl NodeState {
    /// `"open"` or `"closed"`.
    pub fn name(self) -> &'static str {
        match self {
            NodeState::Open => "open",
            NodeState::Closed => "closed",
        }
    }
}

/// What the search knew about one node at some moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NodeInfo {
    /// The node.
    pub pos: Pos,
    /// Best known cost from the start.
    pub g: u32,
    /// Heuristic estimate to the goal (unweighted).
    pub h: u32,
    /// Priority used by the open list: G plus the weighted H.
    pub f: u32,
    /// The node it is best reached from.
    pub parent: Option<Pos>,
    /// Open or closed.
    pub state: NodeState,
    /// Which expansion took it, counting from 1 as the stepper does, if one did.
    pub order: Option<u32>,
}

/// The search as it stood after a number of expansions.
#[derive(Debug, Clone, Default)]
pub struct Snapshot {
    /// Expansions replayed.
    pub step: u32,
    /// Every touched node, in the order first touched.
    pub nodes: Vec<NodeInfo>,
    index: HashMap<Pos, usize>,
    /// The node expanded last, if any.
    pub current: Option<Pos>,
    /// The parent chain from the start to `current` (the final path once the goal is
    /// expanded), every cell of it: where a parent is not next to its node (a jump point of
    /// [`Algorithm::Jps`](super::Algorithm::Jps)), the cells of the run between them too.
    pub path: Vec<Pos>,
    /// How many of `nodes` are closed, counted as they are replayed: the overlay asks every
    /// frame. (The engine never reopens or closes twice, so it is `step` for its traces, but
    /// any event sequence can be fed through [`Tracer`].)
    closed: usize,
    /// The options of the search, which decide the order of its open list.
    pub options: SearchOptions,
}

impl Snapshot {
    /// What the search knew about a cell, if it touched it.
    pub fn get(&self, pos: Pos) -> Option<&NodeInfo> {
        self.index.get(&pos).map(|&i| &self.nodes[i])
    }

    /// Number of nodes in each state: `(open, closed)`.
    pub fn counts(&self) -> (usize, usize) {
        (self.nodes.len() - self.closed, self.closed)
    }
}

impl Trace {
    /// A trace ready to record a search.
    pub fn new(start: Pos, goal: Pos, options: SearchOptions) -> Self {
        Self {
            start,
            goal,
            options,
            events: Vec::new(),
            closes: 0,
        }
    }

    /// Empties the trace for a new search, keeping its allocation.
    pub fn restart(&mut self, start: Pos, goal: Pos, options: SearchOptions) {
        self.events.clear();
        self.closes = 0;
        (self.start, self.goal, self.options) = (start, goal, options);
    }

    /// The events in the order they happened.
    pub fn events(&self) -> &[TraceEvent] {
        &self.events
    }

    /// Number of expansions recorded.
    pub fn expansions(&self) -> u32 {
        self.closes
    }

    /// Replays the first `step` expansions (and the nodes they opened); `step` is clamped.
    pub fn snapshot(&self, step: u32) -> Snapshot {
        let mut snap = Snapshot {
            options: self.options,
            ..Snapshot::default()
        };
        let mut closes = 0u32;
        for event in &self.events {
            match *event {
                TraceEvent::Open {
                    cell,
                    g,
                    h,
                    f,
                    parent,
                } => {
                    let info = NodeInfo {
                        pos: cell,
                        g,
                        h,
                        f,
                        parent,
                        state: NodeState::Open,
                        order: None,
                    };
                    match snap.index.get(&cell) {
                        Some(&i) => {
                            if snap.nodes[i].state == NodeState::Closed {
                                snap.closed -= 1;
                            }
                            snap.nodes[i] = info;
                        }
                        None => {
                            snap.index.insert(cell, snap.nodes.len());
                            snap.nodes.push(info);
                        }
                    }
                }
                TraceEvent::Close { cell } => {
                    if closes == step {
                        break;
                    }
                    if let Some(&i) = snap.index.get(&cell) {
                        if snap.nodes[i].state == NodeState::Open {
                            snap.closed += 1;
                        }
                        snap.nodes[i].state = NodeState::Closed;
                        snap.nodes[i].order = Some(closes + 1);
                    }
                    snap.current = Some(cell);
                    closes += 1;
                }
            }
        }
        snap.step = closes;
        if let Some(mut at) = snap.current {
            let mut chain = vec![at];
            // A parent chain is acyclic, but bound it anyway so a corrupt trace cannot hang.
            while let Some(p) = snap.get(at).and_then(|n| n.parent) {
                if chain.len() > snap.nodes.len() {
                    break;
                }
                chain.push(p);
                at = p;
            }
            snap.path = walk_runs(chain.iter().rev().copied());
        }
        snap
    }
}

/// The cells from the first of `points` to the last, through each in turn: between two
/// that are not neighbours, the run of [`Algorithm::Jps`](super::Algorithm::Jps) that joins
/// them, diagonal first, then straight.
///
/// ```
/// use astar_grid::astar::walk_runs;
/// use astar_grid::grid::Pos;
///
/// let cells = walk_runs([Pos::new(0, 0), Pos::new(3, 1), Pos::new(3, 2)]);
/// let want = [(0, 0), (1, 1), (2, 1), (3, 1), (3, 2)].map(|(x, y)| Pos::new(x, y));
/// assert_eq!(cells, want);
/// ```
pub fn walk_runs(points: impl IntoIterator<Item = Pos>) -> Vec<Pos> {
    let mut points = points.into_iter();
    let Some(mut at) = points.next() else {
        return Vec::new();
    };
    let mut cells = vec![at];
    for to in points {
        walk_run(&mut at, to, &mut cells);
    }
    cells
}

/// Adds the cells of the run from `at` to `to` after `at` (diagonal first, then straight)
/// to `cells`, and leaves `at` at `to`.
pub(super) fn walk_run(at: &mut Pos, to: Pos, cells: &mut Vec<Pos>) {
    // Stepping by the signs of what is left goes diagonally first, then straight.
    while *at != to {
        *at = at.offset((to.x - at.x).signum(), (to.y - at.y).signum());
        cells.push(*at);
    }
}
