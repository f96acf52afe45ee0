//! The search lab: any start and goal on the level's map, the search traced and stepped with
//! the overlay's keys, walls, water and brush painted on the lab's own copy of the map, and
//! the same query under a second set of options side by side (or on the same map with every
//! terrain weighing 1: the path of fewest steps). Leaving the lab returns to the game as it
//! was.

use std::cell::RefCell;
use std::sync::Arc;

use crate::content::map::{TerrainWeights, Tile, TileMap};
use crate::engine::astar::{
    Algorithm, Heuristic, Pathfinder, Query, SearchOptions, SearchResult, Snapshot, Trace, Weight,
};
use crate::engine::grid::{Neighbourhood, Pos};

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
        }
    }

    /// What the comparison shows, for the panel.
    pub fn name(self) -> &'static str {
        match self {
            Comparison::Dijkstra => "vs Dijkstra (zero H)",
            Comparison::Weighted => "vs weight 2",
            Comparison::FourWay => "vs 4-way",
            Comparison::Greedy => "vs greedy best-first",
            Comparison::Jps => "vs JPS (jump points)",
            Comparison::FewestSteps => "vs fewest steps (all weights 1)",
        }
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
    /// What its path costs on the lab's own map, terrain weights counted (for the fewest
    /// steps, more than its own cost where it wades).
    pub cost_here: Option<u32>,
}

/// A replayed snapshot with the (serial, step) it was replayed for.
type Cached = ((u64, u32), Arc<Snapshot>);

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
    /// The second search's difference, when comparing side by side.
    pub compare: Option<Comparison>,
    /// The searches: one, or two side by side.
    pub searches: Vec<LabSearch>,
    /// Whether the mouse paints walls (else it sets and drags the start and the goal).
    pub paint: bool,
    /// What the left button paints in paint mode: a wall until a key puts something else
    /// (`~` water, `"` brush, `.` floor, `w` wall), then that.
    pub pen: Tile,
    /// The lab's map with every terrain weighing 1, while a search runs on it.
    ones: Option<TileMap>,
    pathfinder: Pathfinder,
    serial: u64,
    cache: RefCell<Vec<Option<Cached>>>,
}

impl Lab {
    /// A lab on a copy of `grid`, searching from `start` to `goal` with `options`.
    pub fn new(grid: TileMap, start: Pos, goal: Pos, options: SearchOptions) -> Self {
        let mut lab = Self {
            grid,
            start,
            goal,
            options,
            compare: None,
            searches: Vec::new(),
            paint: false,
            pen: Tile::Wall,
            ones: None,
            pathfinder: Pathfinder::new(),
            serial: 0,
            cache: RefCell::new(Vec::new()),
        };
        lab.rerun();
        lab
    }

    /// Runs the search (and the compared one) again, traced.
    pub fn rerun(&mut self) {
        let mut sets = vec![(self.options, false)];
        if let Some(c) = self.compare {
            sets.push((c.apply(self.options), c == Comparison::FewestSteps));
        }
        self.ones = sets
            .iter()
            .any(|s| s.1)
            .then(|| self.grid.clone().with_weights(TerrainWeights::ONES));
        self.searches = sets
            .into_iter()
            .map(|(options, fewest_steps)| {
                self.serial += 1;
                let q = Query::new(self.start, self.goal).options(options);
                let grid = match &self.ones {
                    Some(ones) if fewest_steps => ones,
                    _ => &self.grid,
                };
                let (result, trace) = self.pathfinder.find_traced(grid.cost_grid(), q);
                let cost_here = result.cost.and_then(|_| self.grid.path_cost(&result.path));
                LabSearch {
                    options,
                    result,
                    trace,
                    serial: self.serial,
                    fewest_steps,
                    cost_here,
                }
            })
            .collect();
        self.cache.borrow_mut().clear();
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
            self.rerun();
        }
        true
    }

    /// Puts a tile on the lab's map (never on the start or the goal) and reruns.
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
        self.rerun();
    }

    /// Cycles the side-by-side comparison (none, Dijkstra, weight 2, 4-way, greedy, JPS,
    /// fewest steps).
    pub fn cycle_compare(&mut self) {
        self.compare = Comparison::next(self.compare);
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
}
