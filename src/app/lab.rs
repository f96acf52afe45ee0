//! The search lab: any start and goal on the level's map, the search traced and stepped with
//! the overlay's keys, walls, water and brush painted on the lab's own copy of the map, and
//! the same query under a second set of options side by side (or on the same map with every
//! terrain weighing 1: the path of fewest steps). Leaving the lab returns to the game as it
//! was.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use crate::content::kinds::CostTable;
use crate::content::kinds::own::Kinds;
use crate::content::map::{TerrainWeights, Tile, TileMap};
use crate::engine::astar::{
    Algorithm, Heuristic, NodeInfo, Pathfinder, Query, SearchOptions, SearchResult, Snapshot,
    Status, Ties, Trace, TraceEvent, Weight,
};
use crate::engine::dijkstra::DistanceMap;
use crate::engine::grid::{Grid, Neighbourhood, Pos};

/// How the second search of a side-by-side comparison differs from the first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Comparison {
    /// The zero heuristic: Dijkstra's algorithm.
    Dijkstra,
    /// Weighted A* with w = 2.
    Weighted,
    /// Four-way moves.
    FourWay,
    /// Greedy best-first: ordered by H alone.
    Greedy,
    /// Jump Point Search: the same optimal cost for a few jump points, the straight and
    /// diagonal runs between them scanned rather than searched.
    Jps,
    /// The same options on the same map with every terrain weighing 1: the path with the
    /// fewest steps, which on a weighted map may cost more than the cheapest one.
    FewestSteps,
    /// The same options under another tie rule (not in [`Comparison::ALL`]: the tie rules
    /// have a key of their own, [`Comparison::next_ties`]).
    Ties(Ties),
    /// The same query searched as a kind of monster does: its moves, weight, cap and costs
    /// (not in [`Comparison::ALL`]: the kinds have a key of their own,
    /// [`Comparison::next_kind`]).
    Kind(char),
}

impl Comparison {
    /// The comparisons in the order a key cycles them (after "none").
    pub const ALL: [Comparison; 6] = [
        Comparison::Dijkstra,
        Comparison::Weighted,
        Comparison::FourWay,
        Comparison::Greedy,
        Comparison::Jps,
        Comparison::FewestSteps,
    ];

    /// The second option set: `base` changed in this one way.
    pub fn apply(self, base: SearchOptions) -> SearchOptions {
        match self {
            Comparison::Dijkstra => base.with_heuristic(Heuristic::Zero).with_greedy(false),
            Comparison::Weighted => base
                .with_weight(Weight::from_millis(2000))
                .with_greedy(false),
            Comparison::FourWay => base.with_neighbourhood(Neighbourhood::Four),
            Comparison::Greedy => base.with_greedy(true),
            Comparison::Jps => base.with_algorithm(Algorithm::Jps).with_greedy(false),
            Comparison::FewestSteps => base,
            Comparison::Ties(ties) => base.with_ties(ties),
            Comparison::Kind(_) => base,
        }
    }

    /// The kind the second search searches as, if it is [`Comparison::Kind`].
    pub fn kind(self) -> Option<char> {
        match self {
            Comparison::Kind(glyph) => Some(glyph),
            _ => None,
        }
    }

    /// The next kind to set beside the search (every kind in turn, then none).
    pub fn next_kind(kinds: &Kinds, current: Option<Comparison>) -> Option<Comparison> {
        next_kind(kinds, current.and_then(Comparison::kind)).map(Comparison::Kind)
    }

    /// What the comparison shows, for the panel, its kind named as `kinds` name it.
    pub fn name(self, kinds: &Kinds) -> std::borrow::Cow<'static, str> {
        if let Comparison::Kind(glyph) = self {
            return format!("vs as the {}", kinds.get(glyph).name).into();
        }
        match self {
            Comparison::Dijkstra => "vs Dijkstra (zero H)",
            Comparison::Weighted => "vs weight 2",
            Comparison::FourWay => "vs 4-way",
            Comparison::Greedy => "vs greedy best-first",
            Comparison::Jps => "vs JPS (jump points)",
            Comparison::FewestSteps => "vs fewest steps (all weights 1)",
            Comparison::Ties(Ties::LowerH) => "vs ties to the lower H",
            Comparison::Ties(Ties::Lifo) => "vs ties last in, first out",
            Comparison::Ties(Ties::Fifo) => "vs ties first in, first out",
            Comparison::Ties(_) => "vs another tie rule",
            Comparison::Kind(_) => "vs as a kind",
        }
        .into()
    }

    /// The next tie rule to set beside a search under `base`'s (the other two in turn,
    /// then none): how the tie rules are compared side by side.
    pub fn next_ties(current: Option<Comparison>, base: Ties) -> Option<Comparison> {
        let others: Vec<Ties> = crate::content::searches::TIES
            .into_iter()
            .filter(|&t| t != base)
            .collect();
        let next = match current {
            Some(Comparison::Ties(t)) => others
                .iter()
                .position(|&o| o == t)
                .and_then(|i| others.get(i + 1).copied()),
            _ => others.first().copied(),
        };
        next.map(Comparison::Ties)
    }

    /// The next comparison, or none after the last.
    pub fn next(current: Option<Comparison>) -> Option<Comparison> {
        match current {
            None => Some(Self::ALL[0]),
            Some(c) => {
                let i = Self::ALL.iter().position(|&x| x == c).unwrap_or(0);
                Self::ALL.get(i + 1).copied()
            }
        }
    }
}

/// The kind after `current` among `kinds` (the game's in the order `astar-rogue kinds` lists
/// them, then the level's own); none after the last.
pub fn next_kind(kinds: &Kinds, current: Option<char>) -> Option<char> {
    let glyphs: Vec<char> = kinds.all().map(|k| k.glyph).collect();
    match current {
        None => glyphs.first().copied(),
        Some(c) => glyphs
            .iter()
            .position(|&g| g == c)
            .and_then(|i| glyphs.get(i + 1).copied()),
    }
}

/// The costs kind `k` searches `map` under.
fn kind_table(map: &TileMap, k: char) -> CostTable {
    map.effective(map.kind(k).search.costs.table(map.weights()))
}

/// The grid of costs a search runs on: as kind `kind` (its view of `map`), plain on the
/// copy of `map` with every weight 1 (`ones`) for the fewest steps, or plain on `map`.
fn grid_of<'a>(
    map: &'a TileMap,
    ones: Option<&'a TileMap>,
    kind: Option<char>,
    fewest_steps: bool,
) -> &'a Grid {
    match (ones, kind) {
        (_, Some(k)) => map.grid_for(&kind_table(map, k)).unwrap_or(map.cost_grid()),
        (Some(ones), None) if fewest_steps => ones.cost_grid(),
        _ => map.cost_grid(),
    }
}

/// One traced search of the lab.
#[derive(Debug, Clone)]
pub struct LabSearch {
    /// The options it ran with.
    pub options: SearchOptions,
    /// What it found.
    pub result: SearchResult,
    /// Every event, for stepping.
    pub trace: Trace,
    /// Changes whenever the search runs again, so views can cache their replays.
    pub serial: u64,
    /// Whether it ran with every terrain weighing 1 ([`Comparison::FewestSteps`]).
    pub fewest_steps: bool,
    /// The kind of monster it searched as (its moves, weight, cap and costs), if any.
    pub kind: Option<char>,
    /// What its path costs on the lab's own map, terrain weights counted (for the fewest
    /// steps, more than its own cost where it wades).
    pub cost_here: Option<u32>,
    /// For a search that may overestimate (a weight above 1, an estimate that is not
    /// consistent on its moves), the optimal cost and where its path leaves an optimal one.
    pub optimal: Option<Optimal>,
}

impl LabSearch {
    /// What it found, to set beside it after an edit.
    pub fn outcome(&self) -> Outcome {
        Outcome {
            cost: self.result.cost,
            expanded: self.result.expanded,
            path: self.result.path.clone(),
        }
    }
}

/// What a search found: its cost, its expansions and its path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The path's cost, if it found one.
    pub cost: Option<u32>,
    /// Nodes expanded.
    pub expanded: u32,
    /// The path, start first.
    pub path: Vec<Pos>,
}

/// The lab's map was edited: what was put where, and what the searches found before.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edited {
    /// What was put, in words: `wall at 4,1`, `water on 3 cells`.
    pub what: String,
    /// The outcome of each search before the edit.
    pub before: Vec<Outcome>,
}

/// The optimal cost of a search that may overestimate, beside the one it found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Optimal {
    /// The cheapest cost from start to goal under the same moves.
    pub cost: u32,
    /// The last cell of the found path that lies on an optimal path, where its next step
    /// leaves every optimal path; `None` when the found path is optimal.
    pub leaves: Option<Pos>,
}

/// Whether a search under `o` may find a path dearer than the cheapest: a weight above 1, or
/// an estimate that is not consistent on its moves (Manhattan or Euclidean on 8-way moves,
/// Euclidean's rounding on 4-way ones). Greedy best-first is not optimal either, but by
/// design rather than by overestimating: it is compared side by side instead.
pub fn may_overestimate(o: &SearchOptions) -> bool {
    let consistent = match o.heuristic {
        Heuristic::Octile | Heuristic::Chebyshev | Heuristic::Zero => true,
        Heuristic::Manhattan => o.neighbourhood == Neighbourhood::Four,
        _ => false,
    };
    !o.greedy && (o.weight.millis() > 1000 || !consistent)
}

/// For a found path of a search that may overestimate ([`may_overestimate`]), the optimal
/// cost under the same moves on `grid`, and where the path leaves an optimal one: the last
/// cell it reaches as cheaply as possible from which the rest of an optimal path still
/// goes on (by two Dijkstra maps, from the start and to the goal).
pub fn optimal(grid: &Grid, o: &SearchOptions, result: &SearchResult) -> Option<Optimal> {
    if !may_overestimate(o) || result.status != Status::Found {
        return None;
    }
    let (&start, &goal) = (result.path.first()?, result.path.last()?);
    let (mut from, mut to) = (DistanceMap::new(), DistanceMap::new());
    from.compute(grid, start, o.neighbourhood);
    to.compute_to(grid, goal, o.neighbourhood);
    let cost = from.get(goal)?;
    let mut leaves = None;
    let mut so_far = 0;
    for (i, &p) in result.path.iter().enumerate() {
        if i > 0 {
            so_far += u32::try_from(grid.path_cost(&result.path[i - 1..=i])?).ok()?;
        }
        let on_optimal = from.get(p) == Some(so_far) && to.get(p).map(|t| so_far + t) == Some(cost);
        if !on_optimal {
            leaves = Some(result.path[i - 1]);
            break;
        }
    }
    Some(Optimal { cost, leaves })
}

/// When each open node was last queued: a running number over the search's queueing (its
/// open events), and the expansion that queued it (0 for the start).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Queued {
    /// The node's place in the order of every queueing, counting from 1.
    pub serial: u32,
    /// The expansion that queued it, 0 for the start.
    pub by: u32,
}

/// When each node touched in the first `step` expansions of `trace` was last queued.
pub fn queued(trace: &Trace, step: u32) -> HashMap<Pos, Queued> {
    let mut out = HashMap::new();
    let (mut serial, mut closes) = (0, 0);
    for event in trace.events() {
        match *event {
            TraceEvent::Open { cell, .. } => {
                serial += 1;
                out.insert(cell, Queued { serial, by: closes });
            }
            TraceEvent::Close { .. } if closes == step => break,
            TraceEvent::Close { .. } => closes += 1,
        }
    }
    out
}

/// The open nodes of `snap` in the order the engine pops them under `options`' tie rule:
/// lower F first, then lower H and reading order ([`Snapshot::open_list`]), the last queued
/// (LIFO) or the first queued (FIFO), by `queued`.
pub fn pop_order(
    snap: &Snapshot,
    options: &SearchOptions,
    queued: &HashMap<Pos, Queued>,
) -> Vec<NodeInfo> {
    let mut open: Vec<NodeInfo> = snap.open_list().into_iter().copied().collect();
    let serial = |n: &NodeInfo| queued.get(&n.pos).map_or(0, |q| q.serial);
    match options.ties {
        Ties::Lifo => open.sort_by_key(|n| (n.f, std::cmp::Reverse(serial(n)))),
        Ties::Fifo => open.sort_by_key(|n| (n.f, serial(n))),
        // Lower H: the snapshot's own order.
        _ => {}
    }
    open
}

/// A replayed snapshot with the (serial, step) it was replayed for.
type Cached = ((u64, u32), Arc<Snapshot>);

/// The queueing of a search's nodes with the (serial, step) it was counted for.
type CachedQueue = ((u64, u32), Arc<HashMap<Pos, Queued>>);

/// The quiz: the learner puts the cursor on the node they think the search expands next and
/// answers; the lab says right or wrong and why, and keeps the score.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Quiz {
    /// Answers that were right.
    pub right: u32,
    /// Answers given.
    pub asked: u32,
    /// What the last answer was told.
    pub verdict: Option<Verdict>,
}

/// What the lab told an answer of the quiz.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// Whether the answer was right.
    pub right: bool,
    /// Why: the F that decides, then the tie rule, with the numbers.
    pub text: String,
}

/// The lab's state.
#[derive(Debug, Clone)]
pub struct Lab {
    /// The lab's own copy of the map: walls painted here change nothing else.
    pub grid: TileMap,
    /// Where the search starts.
    pub start: Pos,
    /// Where it is headed.
    pub goal: Pos,
    /// The options of the first (or only) search.
    pub options: SearchOptions,
    /// The kind of monster the first search searches as, over `options`: its moves, weight
    /// and cap, and its costs for every tile.
    pub kind: Option<char>,
    /// The second search's difference, when comparing side by side.
    pub compare: Option<Comparison>,
    /// The searches: one, or two side by side.
    pub searches: Vec<LabSearch>,
    /// Whether the mouse paints walls (else it sets and drags the start and the goal).
    pub paint: bool,
    /// What the left button paints in paint mode: a wall until a key puts something else
    /// (`~` water, `"` brush, `.` floor, `w` wall), then that.
    pub pen: Tile,
    /// The last edit of the map and what the searches found before it, until the query or
    /// the options change.
    pub edited: Option<Edited>,
    /// The quiz, while one runs.
    pub quiz: Option<Quiz>,
    /// The lab's map with every terrain weighing 1, while a search runs on it.
    ones: Option<TileMap>,
    pathfinder: Pathfinder,
    serial: u64,
    cache: RefCell<Vec<Option<Cached>>>,
    queue_cache: RefCell<Vec<Option<CachedQueue>>>,
}

impl Lab {
    /// A lab on a copy of `grid`, searching from `start` to `goal` with `options`.
    pub fn new(grid: TileMap, start: Pos, goal: Pos, options: SearchOptions) -> Self {
        let mut lab = Self {
            grid,
            start,
            goal,
            options,
            kind: None,
            compare: None,
            searches: Vec::new(),
            paint: false,
            pen: Tile::Wall,
            edited: None,
            quiz: None,
            ones: None,
            pathfinder: Pathfinder::new(),
            serial: 0,
            cache: RefCell::new(Vec::new()),
            queue_cache: RefCell::new(Vec::new()),
        };
        lab.rerun();
        lab
    }

    /// Runs the search (and the compared one) again, traced.
    pub fn rerun(&mut self) {
        let mut sets = vec![(self.options, false, self.kind)];
        if let Some(c) = self.compare {
            // The fewest steps are counted on the plain map with every weight 1, whatever
            // kind the first search is.
            let kind = match c {
                Comparison::FewestSteps => None,
                _ => c.kind().or(self.kind),
            };
            sets.push((c.apply(self.options), c == Comparison::FewestSteps, kind));
        }
        self.ones = sets
            .iter()
            .any(|s| s.1)
            .then(|| self.grid.clone().with_weights(TerrainWeights::ONES));
        // Each kind searches its own grid of costs, kept beside the map's.
        for &(_, _, kind) in &sets {
            if let Some(table) = kind.map(|k| kind_table(&self.grid, k)) {
                self.grid.add_view(table);
            }
        }
        let mut searches = Vec::with_capacity(sets.len());
        for (base, fewest_steps, kind) in sets {
            self.serial += 1;
            let options = kind.map_or(base, |k| self.grid.kind(k).search.options(base));
            let q = Query::new(self.start, self.goal).options(options);
            let grid = grid_of(&self.grid, self.ones.as_ref(), kind, fewest_steps);
            let (result, trace) = self.pathfinder.find_traced(grid, q);
            let cost_here = match kind {
                Some(_) => result.cost,
                None => result.cost.and_then(|_| self.grid.path_cost(&result.path)),
            };
            let optimal = optimal(grid, &options, &result);
            searches.push(LabSearch {
                options,
                result,
                trace,
                serial: self.serial,
                fewest_steps,
                kind,
                cost_here,
                optimal,
            });
        }
        self.searches = searches;
        self.cache.borrow_mut().clear();
        self.queue_cache.borrow_mut().clear();
    }

    /// The grid of costs search `i` ran on: the map's, its copy with every weight 1, or
    /// the costs of the kind it searched as.
    pub fn cost_grid(&self, i: usize) -> &Grid {
        match self.searches.get(i) {
            Some(s) => grid_of(&self.grid, self.ones.as_ref(), s.kind, s.fewest_steps),
            None => self.grid.cost_grid(),
        }
    }

    /// Sets the kind the first search searches as (none: plain) and reruns.
    pub fn set_kind(&mut self, kind: Option<char>) {
        self.kind = kind;
        self.edited = None;
        self.rerun();
    }

    /// Cycles the kind the first search searches as: every kind in turn, then none.
    pub fn cycle_kind(&mut self) {
        self.set_kind(next_kind(self.grid.kinds(), self.kind));
    }

    /// Cycles the kind set beside the search: every kind in turn, then none.
    pub fn cycle_compare_kind(&mut self) {
        self.compare = Comparison::next_kind(self.grid.kinds(), self.compare);
        self.edited = None;
        self.rerun();
    }

    /// What each search found, to keep before an edit.
    pub fn outcomes(&self) -> Vec<Outcome> {
        self.searches.iter().map(LabSearch::outcome).collect()
    }

    /// Moves the start to a cell; refused (false) off the map or on a wall.
    pub fn set_start(&mut self, p: Pos) -> bool {
        self.set_endpoint(p, true)
    }

    /// Moves the goal to a cell; refused (false) off the map or on a wall.
    pub fn set_goal(&mut self, p: Pos) -> bool {
        self.set_endpoint(p, false)
    }

    fn set_endpoint(&mut self, p: Pos, start: bool) -> bool {
        if !self.grid.is_passable(p) {
            return false;
        }
        let slot = if start {
            &mut self.start
        } else {
            &mut self.goal
        };
        if *slot != p {
            *slot = p;
            self.edited = None;
            self.rerun();
        }
        true
    }

    /// Puts a tile on the lab's map (never on the start or the goal) and reruns; the
    /// searches before are kept as [`Lab::edited`], naming the tile and the cell.
    pub fn edit_tile(&mut self, p: Pos, tile: Tile) -> bool {
        let before = self.outcomes();
        let changed = self.set_tile(p, tile);
        if changed {
            self.edited = Some(Edited {
                what: format!("{} at {p}", super::tools::tile_name(tile)),
                before,
            });
        }
        changed
    }

    /// Puts a tile on the lab's map (never on the start or the goal) and reruns, keeping
    /// [`Lab::edited`] as it is (a mouse stroke sets it once for all its cells).
    pub fn set_tile(&mut self, p: Pos, tile: Tile) -> bool {
        if !tile.is_passable() && (p == self.start || p == self.goal) {
            return false;
        }
        let changed = self.grid.set(p, tile);
        if changed {
            self.rerun();
        }
        changed
    }

    /// The map search `i` ran on: the lab's, or its copy with every weight 1.
    pub fn search_grid(&self, i: usize) -> &TileMap {
        match (&self.ones, self.searches.get(i)) {
            (Some(ones), Some(s)) if s.fewest_steps => ones,
            _ => &self.grid,
        }
    }

    /// Changes the first search's options and reruns.
    pub fn set_options(&mut self, options: SearchOptions) {
        self.options = options;
        self.edited = None;
        self.rerun();
    }

    /// Cycles the side-by-side comparison (none, Dijkstra, weight 2, 4-way, greedy, JPS,
    /// fewest steps).
    pub fn cycle_compare(&mut self) {
        self.compare = Comparison::next(self.compare);
        self.edited = None;
        self.rerun();
    }

    /// Cycles the tie rule set beside the search: the other two rules in turn, then none.
    pub fn cycle_ties(&mut self) {
        self.compare = Comparison::next_ties(self.compare, self.options.ties);
        self.edited = None;
        self.rerun();
    }

    /// The most expansions of any of the searches: the last step of the lockstep.
    pub fn expansions(&self) -> u32 {
        self.searches
            .iter()
            .map(|s| s.trace.expansions())
            .max()
            .unwrap_or(0)
    }

    /// Search `i` as it stood after `step` expansions (`u32::MAX`: finished); the last
    /// replay of each search is kept until its search or the step changes.
    pub fn snapshot(&self, i: usize, step: u32) -> Option<Arc<Snapshot>> {
        let search = self.searches.get(i)?;
        let key = (search.serial, step);
        let mut cache = self.cache.borrow_mut();
        if cache.len() <= i {
            cache.resize(i + 1, None);
        }
        if let Some((k, snap)) = &cache[i]
            && *k == key
        {
            return Some(Arc::clone(snap));
        }
        let snap = Arc::new(search.trace.snapshot(step));
        cache[i] = Some((key, Arc::clone(&snap)));
        Some(snap)
    }

    /// Search `i`'s open nodes after `step` expansions in the order its tie rule pops them:
    /// the first is the node the next expansion takes. Under LIFO and FIFO the queueing is
    /// counted from the trace (and kept, as the snapshots are).
    pub fn open_order(&self, i: usize, step: u32) -> Vec<NodeInfo> {
        let Some(snap) = self.snapshot(i, step) else {
            return Vec::new();
        };
        let search = &self.searches[i];
        pop_order(&snap, &search.options, &self.queued(i, snap.step))
    }

    /// When each node of search `i` was last queued, after `step` expansions (nothing under
    /// lower H, which orders by the figures alone).
    pub fn queued(&self, i: usize, step: u32) -> Arc<HashMap<Pos, Queued>> {
        let Some(search) = self.searches.get(i) else {
            return Arc::default();
        };
        let key = (search.serial, step);
        let mut cache = self.queue_cache.borrow_mut();
        if cache.len() <= i {
            cache.resize(i + 1, None);
        }
        if let Some((k, q)) = &cache[i]
            && *k == key
        {
            return Arc::clone(q);
        }
        let q = Arc::new(queued(&search.trace, step));
        cache[i] = Some((key, Arc::clone(&q)));
        q
    }
}
