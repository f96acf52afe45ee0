//! Property tests of the A* engine against an independent Dijkstra oracle.
//!
//! Everything here re-implements the movement rules from the documentation (costs 10/14,
//! 8-way without corner cutting by default, corners are walls only) on the raw tiles, so a
//! bug in `Grid::can_step` or in the engine's padded arrays cannot hide itself.
//!
//! Case counts default to 1000 per property (seconds in debug); set `PROPTEST_CASES` for more.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};

use astar_rogue::engine::astar::{
    Algorithm, Heuristic, Invalid, NodeState, Pathfinder, Query, SearchOptions, SearchResult,
    Status, Ties, Trace, TraceEvent, Weight, path_cost, walk_runs,
};
use astar_rogue::engine::grid::{Grid, Neighbourhood, Pos, Tile};
use proptest::prelude::*;
use proptest::sample::Index;

use crate::common;
use common::config;

// ---------------------------------------------------------------------------------------------
// Independent model of the rules
// ---------------------------------------------------------------------------------------------

fn floor_at(g: &Grid, x: i32, y: i32) -> bool {
    x >= 0
        && y >= 0
        && (x as usize) < g.width()
        && (y as usize) < g.height()
        && g.tiles()[y as usize * g.width() + x as usize] == Tile::Floor
}

fn invalid(g: &Grid, p: Pos) -> Option<Invalid> {
    if p.x < 0 || p.y < 0 || p.x as usize >= g.width() || p.y as usize >= g.height() {
        Some(Invalid::OutOfBounds)
    } else if !floor_at(g, p.x, p.y) {
        Some(Invalid::Blocked)
    } else {
        None
    }
}

/// The cost of one step under `nb`, or `None` when it is illegal. `occupied` cells cannot be
/// entered, but they do not block diagonals: only walls (and void) do.
fn step_cost(
    g: &Grid,
    occupied: &HashSet<Pos>,
    from: Pos,
    to: Pos,
    nb: Neighbourhood,
) -> Option<u32> {
    let (dx, dy) = (to.x - from.x, to.y - from.y);
    if (dx, dy) == (0, 0) || dx.abs() > 1 || dy.abs() > 1 {
        return None;
    }
    if !floor_at(g, to.x, to.y) || occupied.contains(&to) {
        return None;
    }
    if dx == 0 || dy == 0 {
        return Some(10);
    }
    match nb {
        Neighbourhood::Four => None,
        Neighbourhood::EightCutCorners => Some(14),
        Neighbourhood::Eight => {
            (floor_at(g, from.x + dx, from.y) && floor_at(g, from.x, from.y + dy)).then_some(14)
        }
    }
}

/// Plain Dijkstra over the raw tiles.
fn oracle(
    g: &Grid,
    start: Pos,
    goal: Pos,
    nb: Neighbourhood,
    occupied: &HashSet<Pos>,
) -> Option<u32> {
    let w = g.width();
    let idx = |p: Pos| p.y as usize * w + p.x as usize;
    let mut dist = vec![u32::MAX; g.len()];
    let mut heap = BinaryHeap::new();
    dist[idx(start)] = 0;
    heap.push(Reverse((0u32, start.y, start.x)));
    while let Some(Reverse((d, y, x))) = heap.pop() {
        let p = Pos::new(x, y);
        if d > dist[idx(p)] {
            continue;
        }
        if p == goal {
            return Some(d);
        }
        for dy in -1..=1 {
            for dx in -1..=1 {
                let q = Pos::new(x + dx, y + dy);
                if let Some(c) = step_cost(g, occupied, p, q, nb)
                    && d + c < dist[idx(q)]
                {
                    dist[idx(q)] = d + c;
                    heap.push(Reverse((d + c, q.y, q.x)));
                }
            }
        }
    }
    None
}

/// What the engine must answer (status and cost), from the oracle.
fn expected(
    g: &Grid,
    start: Pos,
    goal: Pos,
    nb: Neighbourhood,
    occupied: &HashSet<Pos>,
) -> (Status, Option<u32>) {
    if let Some(why) = invalid(g, start) {
        return (Status::InvalidStart(why), None);
    }
    if let Some(why) = invalid(g, goal) {
        return (Status::InvalidGoal(why), None);
    }
    match oracle(g, start, goal, nb, occupied) {
        Some(c) => (Status::Found, Some(c)),
        None => (Status::Unreachable, None),
    }
}

fn heuristic_value(h: Heuristic, a: Pos, b: Pos) -> u32 {
    let (dx, dy) = (a.x.abs_diff(b.x), a.y.abs_diff(b.y));
    let (lo, hi) = (dx.min(dy), dx.max(dy));
    match h {
        Heuristic::Octile => 14 * lo + 10 * (hi - lo),
        Heuristic::Manhattan => 10 * (dx + dy),
        Heuristic::Chebyshev => 10 * hi,
        Heuristic::Euclidean => (100.0 * f64::from(dx * dx + dy * dy)).sqrt().floor() as u32,
        Heuristic::Zero => 0,
    }
}

fn weighted(h: u32, w: Weight) -> u32 {
    (u64::from(h) * u64::from(w.millis()) / 1000).min(u64::from(u32::MAX / 2)) as u32
}

/// Heuristics that are consistent under a rule, so plain A* must be optimal.
fn consistent(nb: Neighbourhood) -> &'static [Heuristic] {
    match nb {
        Neighbourhood::Four => &[
            Heuristic::Octile,
            Heuristic::Chebyshev,
            Heuristic::Zero,
            Heuristic::Manhattan,
        ],
        _ => &[Heuristic::Octile, Heuristic::Chebyshev, Heuristic::Zero],
    }
}

fn opts(nb: Neighbourhood, h: Heuristic, millis: u32, cap: Option<u32>) -> SearchOptions {
    SearchOptions {
        neighbourhood: nb,
        heuristic: h,
        weight: Weight::from_millis(millis),
        cap,
        greedy: false,
        ties: Ties::LowerH,
        algorithm: Algorithm::AStar,
    }
}

fn render(g: &Grid, start: Pos, goal: Pos, occupied: &[Pos]) -> String {
    let mut s = format!("{}x{} start {start} goal {goal}\n", g.width(), g.height());
    for y in 0..g.height() as i32 {
        for x in 0..g.width() as i32 {
            let p = Pos::new(x, y);
            s.push(if p == start {
                'S'
            } else if p == goal {
                'G'
            } else if occupied.contains(&p) {
                'm'
            } else {
                match g.get(p) {
                    Tile::Floor => '.',
                    Tile::Wall => '#',
                    Tile::Void => ' ',
                    Tile::Water => '~',
                    Tile::Brush => '"',
                }
            });
        }
        s.push('|');
        s.push('\n');
    }
    s
}

// ---------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------

#[derive(Clone)]
struct Case {
    grid: Grid,
    start: Pos,
    goal: Pos,
    /// Extra occupied cells (may be anything: walls, outside, duplicates, the endpoints).
    blockers: Vec<Pos>,
}

impl std::fmt::Debug for Case {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "\n{}blockers {:?}",
            render(&self.grid, self.start, self.goal, &self.blockers),
            self.blockers
        )
    }
}

/// Grids up to 24x24 with up to 60% walls, some of them void. Shrinks toward open floor.
fn grid_strategy() -> impl Strategy<Value = Grid> {
    (1usize..=24, 1usize..=24, 0u8..=60, 0u8..=40).prop_flat_map(|(w, h, density, void)| {
        prop::collection::vec((0u8..100, 0u8..100), w * h).prop_map(move |rolls| {
            let tiles = rolls
                .into_iter()
                .map(|(r, v)| {
                    if r < 100 - density {
                        Tile::Floor
                    } else if v >= 100 - void {
                        Tile::Void
                    } else {
                        Tile::Wall
                    }
                })
                .collect();
            Grid::from_tiles(w, h, tiles)
        })
    })
}

/// Long grids (wide or tall, 60 to 200 cells) with few walls: runs longer than the 64 cells
/// Jump Point Search reads at once, which the small grids never have.
fn long_grid_strategy() -> impl Strategy<Value = Grid> {
    (60usize..=200, 1usize..=10, 0u8..=25, any::<bool>()).prop_flat_map(
        |(long, short, density, tall)| {
            prop::collection::vec(0u8..100, long * short).prop_map(move |rolls| {
                let tiles = rolls
                    .into_iter()
                    .map(|r| if r < density { Tile::Wall } else { Tile::Floor })
                    .collect();
                let g = Grid::from_tiles(long, short, tiles);
                if !tall {
                    return g;
                }
                let turned = (0..long * short)
                    .map(|i| g.get(Pos::new((i / short) as i32, (i % short) as i32)))
                    .collect();
                Grid::from_tiles(short, long, turned)
            })
        },
    )
}

/// An endpoint: mostly a floor cell, sometimes any cell in or just around the grid.
type Pick = (u8, Index, i32, i32);

fn pick() -> impl Strategy<Value = Pick> {
    (0u8..100, any::<Index>(), 0i32..1000, 0i32..1000)
}

fn resolve(g: &Grid, floors: &[Pos], (roll, i, x, y): Pick) -> Pos {
    if roll < 85 && !floors.is_empty() {
        floors[i.index(floors.len())]
    } else {
        Pos::new(
            x % (g.width() as i32 + 4) - 2,
            y % (g.height() as i32 + 4) - 2,
        )
    }
}

fn floors(g: &Grid) -> Vec<Pos> {
    (0..g.len())
        .map(|i| g.pos(i))
        .filter(|p| floor_at(g, p.x, p.y))
        .collect()
}

/// The occupancy of a case: its blockers that lie on the grid marked (each with a number of
/// its own), one entry per cell.
fn occupancy(g: &Grid, blockers: &[Pos]) -> Vec<u32> {
    let mut cells = vec![0u32; g.len()];
    for (i, &b) in blockers.iter().enumerate() {
        if let Some(c) = g.index(b) {
            cells[c] = i as u32 + 1;
        }
    }
    cells
}

/// The cells the oracle may not enter for a case's blockers: those on the grid, but for the
/// endpoints (the start is never entered, the goal always may be).
fn taken(g: &Grid, start: Pos, goal: Pos, blockers: &[Pos]) -> HashSet<Pos> {
    blockers
        .iter()
        .copied()
        .filter(|&b| g.contains(b) && b != start && b != goal)
        .collect()
}

fn case_strategy() -> impl Strategy<Value = Case> {
    case_on(grid_strategy())
}

/// Cases on small grids or, one in three, on long ones.
fn any_case_strategy() -> impl Strategy<Value = Case> {
    prop_oneof![2 => case_on(grid_strategy()), 1 => case_on(long_grid_strategy())]
}

fn case_on(grids: impl Strategy<Value = Grid>) -> impl Strategy<Value = Case> {
    (grids, pick(), pick(), prop::collection::vec(pick(), 0..16)).prop_map(|(grid, s, t, bs)| {
        let fl = floors(&grid);
        let start = resolve(&grid, &fl, s);
        let goal = resolve(&grid, &fl, t);
        let blockers = bs.into_iter().map(|b| resolve(&grid, &fl, b)).collect();
        Case {
            grid,
            start,
            goal,
            blockers,
        }
    })
}

fn options_strategy() -> impl Strategy<Value = SearchOptions> {
    (
        prop::sample::select(Neighbourhood::ALL.to_vec()),
        prop::sample::select(Heuristic::ALL.to_vec()),
        prop_oneof![Just(1000u32), 0u32..=3000],
        prop_oneof![3 => Just(None), 1 => (0u32..60).prop_map(Some)],
    )
        .prop_map(|(nb, h, w, cap)| opts(nb, h, w, cap))
}

// ---------------------------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------------------------

/// Shape of a result: a found path is legal, starts and ends right and costs what it says;
/// anything else has no path and no cost.
fn check_path(
    g: &Grid,
    start: Pos,
    goal: Pos,
    nb: Neighbourhood,
    occupied: &HashSet<Pos>,
    r: &SearchResult,
) -> Result<(), TestCaseError> {
    if r.status != Status::Found {
        prop_assert!(r.path.is_empty(), "no path expected: {:?}", r);
        prop_assert_eq!(r.cost, None);
        if matches!(r.status, Status::InvalidStart(_) | Status::InvalidGoal(_)) {
            prop_assert_eq!(r.expanded, 0);
        }
        return Ok(());
    }
    prop_assert_eq!(r.path.first(), Some(&start));
    prop_assert_eq!(r.path.last(), Some(&goal));
    prop_assert!(r.expanded >= 1);
    let mut total = 0;
    for w in r.path.windows(2) {
        let c = step_cost(g, occupied, w[0], w[1], nb);
        prop_assert!(
            c.is_some(),
            "illegal step {} -> {} under {:?}",
            w[0],
            w[1],
            nb
        );
        total += c.unwrap_or(0);
    }
    let distinct: HashSet<Pos> = r.path.iter().copied().collect();
    prop_assert_eq!(distinct.len(), r.path.len(), "path revisits a cell");
    prop_assert_eq!(path_cost(&r.path), r.cost);
    prop_assert_eq!(Some(total), r.cost);
    Ok(())
}

/// Replays a trace event by event and checks it against the documented rules, then checks
/// `Trace::snapshot` against the replay at several steps.
fn check_trace(
    trace: &Trace,
    r: &SearchResult,
    o: &SearchOptions,
    start: Pos,
    goal: Pos,
) -> Result<(), TestCaseError> {
    prop_assert_eq!(trace.start, start);
    prop_assert_eq!(trace.goal, goal);
    prop_assert_eq!(&trace.options, o);
    if matches!(
        r.status,
        Status::InvalidStart(_) | Status::InvalidGoal(_) | Status::Unreachable
    ) && r.expanded == 0
    {
        prop_assert!(trace.events().is_empty());
        return Ok(());
    }
    prop_assert_eq!(trace.expansions(), r.expanded);

    struct Node {
        g: u32,
        h: u32,
        f: u32,
        parent: Option<Pos>,
        closed: bool,
    }
    let plain = o.weight == Weight::ONE
        && (matches!(
            o.heuristic,
            Heuristic::Octile | Heuristic::Chebyshev | Heuristic::Zero
        ) || o.heuristic == Heuristic::Manhattan && o.neighbourhood == Neighbourhood::Four);
    let mut nodes: HashMap<Pos, Node> = HashMap::new();
    let mut current: Option<Pos> = None;
    let mut last_f = 0u32;
    let mut closes = 0u32;
    for (i, e) in trace.events().iter().enumerate() {
        match *e {
            TraceEvent::Open {
                cell,
                g,
                h,
                f,
                parent,
            } => {
                prop_assert_eq!(h, heuristic_value(o.heuristic, cell, goal), "h of {}", cell);
                prop_assert_eq!(f, g + weighted(h, o.weight), "f of {} (event {})", cell, i);
                match parent {
                    None => prop_assert!(cell == start && g == 0 && i == 0),
                    Some(p) => {
                        prop_assert_eq!(Some(p), current, "opened from a node not expanding");
                        let pg = nodes[&p].g;
                        let step = if (cell.x - p.x).abs() + (cell.y - p.y).abs() == 2 {
                            14
                        } else {
                            10
                        };
                        prop_assert_eq!(g, pg + step, "g of {} from {}", cell, p);
                    }
                }
                if let Some(old) = nodes.get(&cell) {
                    prop_assert!(!old.closed, "closed node {} reopened", cell);
                    prop_assert!(g < old.g, "{} reopened without a better g", cell);
                }
                nodes.insert(
                    cell,
                    Node {
                        g,
                        h,
                        f,
                        parent,
                        closed: false,
                    },
                );
            }
            TraceEvent::Close { cell } => {
                // The documented order: lowest F, then lowest (weighted) H, then reading order.
                let best = nodes
                    .iter()
                    .filter(|(_, n)| !n.closed)
                    .map(|(p, n)| (n.f, n.f - n.g, p.y, p.x))
                    .min();
                let n = nodes.get_mut(&cell);
                prop_assert!(n.is_some(), "closed {} before opening it", cell);
                let n = n.unwrap();
                prop_assert!(!n.closed, "{} closed twice", cell);
                prop_assert_eq!(
                    Some((n.f, n.f - n.g, cell.y, cell.x)),
                    best,
                    "expansion {} is not the best open node",
                    closes
                );
                if plain {
                    prop_assert!(n.f >= last_f, "F decreased with a consistent heuristic");
                }
                last_f = n.f;
                n.closed = true;
                current = Some(cell);
                closes += 1;
            }
        }
    }
    if r.status == Status::Found {
        prop_assert_eq!(current, Some(goal));
        prop_assert_eq!(nodes[&goal].g, r.cost.unwrap_or(u32::MAX));
    }

    let e = r.expanded;
    let mut steps = vec![0, 1, e / 3, e / 2, e.saturating_sub(1), e, e + 1, u32::MAX];
    steps.sort_unstable();
    steps.dedup();
    let (mut last_closed, mut last_len) = (0, 0);
    for k in steps {
        let snap = trace.snapshot(k);
        prop_assert_eq!(snap.step, k.min(e));
        let (open, closed) = snap.counts();
        prop_assert_eq!(closed as u32, snap.step);
        prop_assert_eq!(open + closed, snap.nodes.len());
        prop_assert!(closed >= last_closed && snap.nodes.len() >= last_len);
        (last_closed, last_len) = (closed, snap.nodes.len());
        let mut orders: Vec<u32> = snap.nodes.iter().filter_map(|n| n.order).collect();
        orders.sort_unstable();
        prop_assert_eq!(orders, (1..=snap.step).collect::<Vec<_>>());
        for n in &snap.nodes {
            prop_assert_eq!(n.f, n.g + weighted(n.h, o.weight));
            prop_assert_eq!(n.state == NodeState::Closed, n.order.is_some());
            prop_assert_eq!(snap.get(n.pos).map(|m| m.pos), Some(n.pos));
        }
        if let Some(c) = snap.current {
            prop_assert_eq!(snap.path.first(), Some(&start));
            prop_assert_eq!(snap.path.last(), Some(&c));
        }
        if k >= e {
            prop_assert_eq!(snap.nodes.len(), nodes.len());
            for (p, n) in &nodes {
                let s = snap.get(*p);
                prop_assert!(s.is_some());
                let s = s.unwrap();
                prop_assert_eq!((s.g, s.h, s.f, s.parent), (n.g, n.h, n.f, n.parent));
                prop_assert_eq!(s.state == NodeState::Closed, n.closed);
            }
            if r.status == Status::Found {
                prop_assert_eq!(&snap.path, &r.path);
                prop_assert_eq!(snap.current, Some(goal));
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(1000))]

    /// With a consistent heuristic the engine is exactly as good as Dijkstra, on every rule,
    /// and it tells invalid endpoints apart with the right reason.
    #[test]
    fn consistent_heuristics_match_the_dijkstra_oracle(case in case_strategy()) {
        let Case { grid, start, goal, .. } = &case;
        let none = HashSet::new();
        let mut pf = Pathfinder::new();
        for nb in Neighbourhood::ALL {
            let want = expected(grid, *start, *goal, nb, &none);
            for &h in consistent(nb) {
                let r = pf.find(grid, Query::new(*start, *goal).options(opts(nb, h, 1000, None)));
                prop_assert_eq!((r.status, r.cost), want, "{:?} {:?}", nb, h);
                check_path(grid, *start, *goal, nb, &none, &r)?;
            }
        }
    }

    /// Last-in-first-out and first-in-first-out ties change which of the shortest paths is
    /// found, never its cost; searches that are not optimal anyway (inadmissible, weighted,
    /// greedy) still find a legal path exactly when one exists, never cheaper than the optimum.
    #[test]
    fn lifo_and_fifo_ties_match_the_dijkstra_oracle(case in case_strategy(), millis in 0u32..=3000) {
        let Case { grid, start, goal, .. } = &case;
        let none = HashSet::new();
        let mut pf = Pathfinder::new();
        for (nb, ties) in Neighbourhood::ALL.into_iter().flat_map(|nb| [(nb, Ties::Lifo), (nb, Ties::Fifo)]) {
            let want = expected(grid, *start, *goal, nb, &none);
            for h in Heuristic::ALL {
                let lifo = SearchOptions { ties, ..opts(nb, h, 1000, None) };
                let r = pf.find(grid, Query::new(*start, *goal).options(lifo));
                check_path(grid, *start, *goal, nb, &none, &r)?;
                if consistent(nb).contains(&h) {
                    prop_assert_eq!((r.status, r.cost), want, "{:?} {:?}", nb, h);
                }
                for other in [SearchOptions { greedy: true, ..lifo }, SearchOptions { weight: Weight::from_millis(millis), ..lifo }, lifo] {
                    let r = pf.find(grid, Query::new(*start, *goal).options(other));
                    prop_assert_eq!(r.status, want.0, "{:?}", other);
                    prop_assert!(r.cost >= want.1, "{:?}", other);
                    check_path(grid, *start, *goal, nb, &none, &r)?;
                }
            }
        }
    }

    /// Greedy best-first finds a legal path exactly when one exists (occupants included),
    /// never cheaper than optimal, and its trace replays to its result with F = H.
    #[test]
    fn greedy_best_first_finds_a_legal_path_iff_one_exists(case in case_strategy()) {
        let Case { grid, start, goal, blockers } = &case;
        let occupied = taken(grid, *start, *goal, blockers);
        let cells = occupancy(grid, blockers);
        let mut pf = Pathfinder::new();
        for nb in Neighbourhood::ALL {
            for h in Heuristic::ALL {
                let o = SearchOptions { greedy: true, ..opts(nb, h, 1000, None) };
                let q = Query::new(*start, *goal).options(o).occupied(&cells);
                let (r, trace) = pf.find_traced(grid, q);
                let (status, optimal) = expected(grid, *start, *goal, nb, &occupied);
                prop_assert_eq!(r.status, status, "{:?} {:?}", nb, h);
                check_path(grid, *start, *goal, nb, &occupied, &r)?;
                if let (Some(c), Some(best)) = (r.cost, optimal) {
                    prop_assert!(c >= best);
                }
                let end = trace.snapshot(u32::MAX);
                prop_assert_eq!(end.step, r.expanded);
                if r.status == Status::Found {
                    prop_assert_eq!(&end.path, &r.path);
                }
                for n in &end.nodes {
                    prop_assert_eq!(n.f, n.h, "greedy orders by H alone");
                }
                // The untraced search is the same search.
                prop_assert_eq!(&pf.find(grid, q), &r);
            }
        }
    }

    /// Inadmissible heuristics (Manhattan on 8-way, Euclidean) still find a legal path exactly
    /// when one exists, never cheaper than optimal.
    #[test]
    fn every_heuristic_finds_a_legal_path_iff_one_exists(case in case_strategy()) {
        let Case { grid, start, goal, .. } = &case;
        let none = HashSet::new();
        let mut pf = Pathfinder::new();
        for nb in Neighbourhood::ALL {
            let (status, best) = expected(grid, *start, *goal, nb, &none);
            for h in Heuristic::ALL {
                let r = pf.find(grid, Query::new(*start, *goal).options(opts(nb, h, 1000, None)));
                prop_assert_eq!(r.status, status, "{:?} {:?}", nb, h);
                prop_assert!(r.cost >= best);
                check_path(grid, *start, *goal, nb, &none, &r)?;
            }
        }
    }

    /// Weighted A* with octile: found iff reachable, and at most w times the optimum.
    #[test]
    fn weighted_octile_is_bounded_suboptimal(case in case_strategy(), millis in 1000u32..=3000) {
        let Case { grid, start, goal, .. } = &case;
        let none = HashSet::new();
        let mut pf = Pathfinder::new();
        for nb in Neighbourhood::ALL {
            let (status, best) = expected(grid, *start, *goal, nb, &none);
            let r = pf.find(grid, Query::new(*start, *goal).options(opts(nb, Heuristic::Octile, millis, None)));
            prop_assert_eq!(r.status, status, "{:?}", nb);
            check_path(grid, *start, *goal, nb, &none, &r)?;
            if let (Some(c), Some(b)) = (r.cost, best) {
                prop_assert!(c >= b);
                prop_assert!(
                    u64::from(c) * 1000 <= u64::from(b) * u64::from(millis),
                    "{:?}: cost {} > {} * {}", nb, c, millis, b
                );
            }
        }
    }

    /// The same query gives the same answer: twice in a row, from a fresh engine, after other
    /// queries (other grids, other options, occupants) in between, and traced or not.
    #[test]
    fn searches_are_deterministic(
        case in case_strategy(),
        o in options_strategy(),
        other in case_strategy(),
        other_o in options_strategy(),
    ) {
        let Case { grid, start, goal, .. } = &case;
        let mut pf = Pathfinder::new();
        let first = pf.find(grid, Query::new(*start, *goal).options(o));
        prop_assert_eq!(&pf.find(grid, Query::new(*start, *goal).options(o)), &first);
        prop_assert_eq!(&Pathfinder::new().find(grid, Query::new(*start, *goal).options(o)), &first);

        let _ = pf.find(&other.grid, Query::new(other.start, other.goal).options(other_o));
        let other_cells = occupancy(&other.grid, &other.blockers);
        let _ = pf.find(&other.grid, Query::new(other.start, other.goal).options(other_o).occupied(&other_cells));
        let cells = occupancy(grid, &case.blockers);
        let _ = pf.find(grid, Query::new(*start, *goal).options(other_o).occupied(&cells));
        let _ = pf.find(grid, Query::new(*goal, *start).options(o));
        prop_assert_eq!(&pf.find(grid, Query::new(*start, *goal).options(o)), &first);

        let (traced, trace) = pf.find_traced(grid, Query::new(*start, *goal).options(o));
        prop_assert_eq!(&traced, &first);
        let (traced2, trace2) = Pathfinder::new().find_traced(grid, Query::new(*start, *goal).options(o));
        prop_assert_eq!(&traced2, &first);
        prop_assert_eq!(&trace2, &trace);

        // A clone of the grid (same revision) and a rebuilt copy (new revision) agree too.
        prop_assert_eq!(&pf.find(&grid.clone(), Query::new(*start, *goal).options(o)), &first);
        let copy = Grid::from_tiles(grid.width(), grid.height(), grid.tiles().to_vec());
        prop_assert_eq!(&pf.find(&copy, Query::new(*start, *goal).options(o)), &first);
    }

    /// Every trace replays to its result under the documented rules (F = G + weighted H,
    /// expansion order, parents, monotone snapshots), for every option combination.
    #[test]
    fn traces_are_consistent(case in case_strategy(), o in options_strategy()) {
        let Case { grid, start, goal, .. } = &case;
        let mut pf = Pathfinder::new();
        let (r, trace) = pf.find_traced(grid, Query::new(*start, *goal).options(o));
        check_path(grid, *start, *goal, o.neighbourhood, &HashSet::new(), &r)?;
        check_trace(&trace, &r, &o, *start, *goal)?;
    }

    /// A cap of C expansions gives the uncapped answer when that took at most C expansions,
    /// and otherwise stops with `CapReached` after exactly C.
    #[test]
    fn cap_stops_exactly(case in case_strategy(), o in options_strategy(), cap in 1u32..80) {
        let Case { grid, start, goal, .. } = &case;
        let mut pf = Pathfinder::new();
        let free = pf.find(grid, Query::new(*start, *goal).options(SearchOptions { cap: None, ..o }));
        let capped = pf.find(grid, Query::new(*start, *goal).options(SearchOptions { cap: Some(cap), ..o }));
        if free.expanded <= cap {
            prop_assert_eq!(&capped, &free);
        } else {
            prop_assert_eq!(capped.status, Status::CapReached);
            prop_assert_eq!(capped.expanded, cap);
            prop_assert_eq!(capped.cost, None);
            prop_assert!(capped.path.is_empty());
        }
    }

    /// Occupied cells are impassable to enter (but for the goal; the start is never entered)
    /// but do not block diagonals; the engine forgets them after the search.
    #[test]
    fn occupants_match_the_oracle_and_are_forgotten(case in case_strategy()) {
        let Case { grid, start, goal, blockers } = &case;
        let occupied = taken(grid, *start, *goal, blockers);
        let cells = occupancy(grid, blockers);
        let none = HashSet::new();
        let mut pf = Pathfinder::new();
        let mut r = SearchResult { path: vec![Pos::new(-9, -9)], ..SearchResult::default() };
        for nb in Neighbourhood::ALL {
            let before = pf.find(grid, Query::new(*start, *goal).options(opts(nb, Heuristic::Octile, 1000, None)));
            let want = expected(grid, *start, *goal, nb, &occupied);
            for &h in consistent(nb) {
                let o = opts(nb, h, 1000, None);
                let q = Query::new(*start, *goal).options(o).occupied(&cells);
                pf.search(grid, q, &mut r, &mut ());
                prop_assert_eq!((r.status, r.cost), want, "{:?} {:?}", nb, h);
                check_path(grid, *start, *goal, nb, &occupied, &r)?;
                // Traced search with occupants agrees with the untraced one.
                let mut trace = Trace::new(*start, *goal, o);
                let mut traced = SearchResult::default();
                pf.search(grid, q, &mut traced, &mut trace);
                prop_assert_eq!(&traced, &r);
                check_trace(&trace, &r, &o, *start, *goal)?;
            }
            let after = pf.find(grid, Query::new(*start, *goal).options(opts(nb, Heuristic::Octile, 1000, None)));
            prop_assert_eq!(&after, &before, "occupants leaked into a later search");
            prop_assert_eq!((after.status, after.cost), expected(grid, *start, *goal, nb, &none));
        }
    }

    /// Whether the endpoints are marked in the occupancy changes nothing (the searcher's own
    /// cell and its target are always marked in a game), for every kind of search: greedy,
    /// weighted and capped ones included.
    #[test]
    fn occupied_endpoints_change_nothing(case in case_strategy(), start_who in 0u32..3, goal_who in 0u32..3) {
        let Case { grid, start, goal, blockers } = &case;
        let plain = occupancy(grid, blockers);
        let mut marked = plain.clone();
        // The endpoints may lie off the map (the engine must refuse those).
        for (end, who) in [(*start, start_who), (*goal, goal_who)] {
            if let Some(c) = grid.index(end) {
                marked[c] = who;
            }
        }
        let mut unmarked = plain;
        for end in [*start, *goal] {
            if let Some(c) = grid.index(end) {
                unmarked[c] = 0;
            }
        }
        let mut pf = Pathfinder::new();
        for nb in Neighbourhood::ALL {
            for &h in consistent(nb) {
                for (weight, cap, greedy) in [(1000, None, false), (2000, None, false), (1000, Some(5), false), (1000, None, true)] {
                    for ties in Ties::ALL {
                        let o = SearchOptions { greedy, ties, ..opts(nb, h, weight, cap) };
                        let a = pf.find(grid, Query::new(*start, *goal).options(o).occupied(&unmarked));
                        let b = pf.find(grid, Query::new(*start, *goal).options(o).occupied(&marked));
                        prop_assert_eq!(&a, &b, "{:?} {:?} w{} {:?} greedy {} {:?}", nb, h, weight, cap, greedy, ties);
                    }
                }
            }
        }
    }
}

/// Replays a Jump Point Search trace and checks it against its rules: the start opens
/// first; every other node is opened from the node being expanded, at the end of a run
/// (diagonal first, then straight) whose every step is legal, with the parent's G plus the
/// run's octile length; nodes close in the documented order (lowest F, then lowest H, then
/// reading order; F never falls under LIFO either); the replay ends on the result's path.
fn check_jps_trace(
    grid: &Grid,
    trace: &Trace,
    r: &SearchResult,
    o: &SearchOptions,
    start: Pos,
    goal: Pos,
) -> Result<(), TestCaseError> {
    let none = HashSet::new();
    let mut nodes: HashMap<Pos, (u32, u32, bool)> = HashMap::new();
    let mut current = None;
    let mut last_f = 0;
    for (i, e) in trace.events().iter().enumerate() {
        match *e {
            TraceEvent::Open {
                cell,
                g,
                h,
                f,
                parent,
            } => {
                prop_assert_eq!(h, heuristic_value(o.heuristic, cell, goal));
                prop_assert_eq!(f, g + h);
                match parent {
                    None => prop_assert!(cell == start && g == 0 && i == 0),
                    Some(p) => {
                        prop_assert_eq!(Some(p), current, "opened from a node not expanding");
                        let run = walk_runs([p, cell]);
                        let mut cost = 0;
                        for w in run.windows(2) {
                            let c = step_cost(grid, &none, w[0], w[1], Neighbourhood::Eight);
                            prop_assert!(
                                c.is_some(),
                                "the run {} -> {} steps illegally at {}",
                                p,
                                cell,
                                w[0]
                            );
                            cost += c.unwrap_or(0);
                        }
                        prop_assert_eq!(g, nodes[&p].0 + cost, "g of {} from {}", cell, p);
                    }
                }
                if let Some(old) = nodes.get(&cell) {
                    prop_assert!(!old.2, "closed node {} reopened", cell);
                    prop_assert!(g < old.0, "{} reopened without a better g", cell);
                }
                nodes.insert(cell, (g, f, false));
            }
            TraceEvent::Close { cell } => {
                let n = nodes.get(&cell).copied();
                prop_assert!(n.is_some_and(|n| !n.2), "{} closed unopened or twice", cell);
                let (g, f, _) = n.unwrap_or_default();
                prop_assert!(f >= last_f, "F fell");
                if o.ties == Ties::LowerH {
                    let best = nodes
                        .iter()
                        .filter(|(_, n)| !n.2)
                        .map(|(p, n)| (n.1, n.1 - n.0, p.y, p.x))
                        .min();
                    prop_assert_eq!(
                        Some((f, f - g, cell.y, cell.x)),
                        best,
                        "not the best open node"
                    );
                }
                last_f = f;
                nodes.insert(cell, (g, f, true));
                current = Some(cell);
            }
        }
    }
    prop_assert_eq!(trace.expansions(), r.expanded);
    if r.status == Status::Found {
        prop_assert_eq!(current, Some(goal));
        prop_assert_eq!(&trace.snapshot(u32::MAX).path, &r.path);
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(1000))]

    /// Jump Point Search finds exactly the Dijkstra oracle's cost under the game's rule, on
    /// small grids and on long ones (runs past 64 cells), under every consistent estimate
    /// and both tie rules: a legal path of that cost, a trace that follows its rules, the
    /// same answer untraced, and a cap that stops it exactly.
    #[test]
    fn jump_point_search_matches_the_dijkstra_oracle(case in any_case_strategy(), cap in 1u32..30) {
        let Case { grid, start, goal, .. } = &case;
        let none = HashSet::new();
        let want = expected(grid, *start, *goal, Neighbourhood::Eight, &none);
        let mut pf = Pathfinder::new();
        for &h in consistent(Neighbourhood::Eight) {
            for ties in Ties::ALL {
                let o = SearchOptions { ties, algorithm: Algorithm::Jps, ..opts(Neighbourhood::Eight, h, 1000, None) };
                let (r, trace) = pf.find_traced(grid, Query::new(*start, *goal).options(o));
                prop_assert_eq!((r.status, r.cost), want, "{:?} {:?}", h, ties);
                prop_assert_eq!(r.fallback, None);
                check_path(grid, *start, *goal, Neighbourhood::Eight, &none, &r)?;
                check_jps_trace(grid, &trace, &r, &o, *start, *goal)?;
                prop_assert_eq!(&pf.find(grid, Query::new(*start, *goal).options(o)), &r);
                let capped = pf.find(grid, Query::new(*start, *goal).options(SearchOptions { cap: Some(cap), ..o }));
                if r.expanded <= cap {
                    prop_assert_eq!(&capped, &r);
                } else {
                    prop_assert_eq!((capped.status, capped.expanded, capped.cost), (Status::CapReached, cap, None));
                    prop_assert!(capped.path.is_empty());
                }
            }
        }
    }

    /// A* and Jump Point Search on long grids (runs past the 64 cells read at once) agree
    /// with the oracle too, so the small grids' checks are not the only ones.
    #[test]
    fn a_star_on_long_grids_matches_the_dijkstra_oracle(case in case_on(long_grid_strategy())) {
        let Case { grid, start, goal, .. } = &case;
        let none = HashSet::new();
        let want = expected(grid, *start, *goal, Neighbourhood::Eight, &none);
        let mut pf = Pathfinder::new();
        for algorithm in Algorithm::ALL {
            let o = SearchOptions { algorithm, ..SearchOptions::default() };
            let r = pf.find(grid, Query::new(*start, *goal).options(o));
            prop_assert_eq!((r.status, r.cost), want, "{:?}", algorithm);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Exact regression cases
// ---------------------------------------------------------------------------------------------

fn grid(rows: &[&str]) -> Grid {
    let w = rows.iter().map(|r| r.len()).max().unwrap_or(0);
    let mut tiles = Vec::new();
    for r in rows {
        let mut row: Vec<Tile> = r
            .chars()
            .map(|c| match c {
                '#' => Tile::Wall,
                ' ' => Tile::Void,
                _ => Tile::Floor,
            })
            .collect();
        row.resize(w, Tile::Void);
        tiles.extend(row);
    }
    Grid::from_tiles(w, rows.len(), tiles)
}

fn find(g: &Grid, s: (i32, i32), t: (i32, i32), o: SearchOptions) -> SearchResult {
    Pathfinder::new().find(
        g,
        Query::new(Pos::new(s.0, s.1), Pos::new(t.0, t.1)).options(o),
    )
}

#[test]
fn open_room_diagonal_is_octile() {
    let g = grid(&["....", "....", "...."]);
    let r = find(&g, (0, 0), (3, 2), SearchOptions::default());
    assert_eq!(r.status, Status::Found);
    assert_eq!(r.cost, Some(14 * 2 + 10));
    assert_eq!(r.path.len(), 4);
}

#[test]
fn void_is_as_solid_as_wall_for_corners() {
    // The diagonal (0,1)->(1,0) passes the void corner at (0,0).
    let g = grid(&[" .", ".."]);
    let r = find(&g, (0, 1), (1, 0), SearchOptions::default());
    assert_eq!(r.cost, Some(20));
    let cut = find(
        &g,
        (0, 1),
        (1, 0),
        opts(
            Neighbourhood::EightCutCorners,
            Heuristic::Octile,
            1000,
            None,
        ),
    );
    assert_eq!(cut.cost, Some(14));
}

#[test]
fn invalid_endpoints_report_the_reason() {
    let g = grid(&[".#", ".."]);
    let o = SearchOptions::default();
    assert_eq!(
        find(&g, (-1, 0), (0, 0), o).status,
        Status::InvalidStart(Invalid::OutOfBounds)
    );
    assert_eq!(
        find(&g, (1, 0), (0, 0), o).status,
        Status::InvalidStart(Invalid::Blocked)
    );
    assert_eq!(
        find(&g, (0, 0), (2, 1), o).status,
        Status::InvalidGoal(Invalid::OutOfBounds)
    );
    assert_eq!(
        find(&g, (0, 0), (1, 0), o).status,
        Status::InvalidGoal(Invalid::Blocked)
    );
    // Both invalid: the start is reported.
    assert_eq!(
        find(&g, (1, 0), (9, 9), o).status,
        Status::InvalidStart(Invalid::Blocked)
    );
    assert_eq!(
        find(&g, (i32::MIN, i32::MAX), (0, 0), o).status,
        Status::InvalidStart(Invalid::OutOfBounds)
    );
}

#[test]
fn monsters_do_not_block_diagonals_but_cannot_be_entered() {
    // S at (0,0), G at (1,1); monsters on both orthogonal cells: the diagonal is still legal.
    let g = grid(&["..", ".."]);
    let mut pf = Pathfinder::new();
    let mut out = SearchResult::default();
    let occupied = occupancy(&g, &[Pos::new(1, 0), Pos::new(0, 1)]);
    let q = Query::new(Pos::new(0, 0), Pos::new(1, 1)).occupied(&occupied);
    pf.search(&g, q, &mut out, &mut ());
    assert_eq!((out.status, out.cost), (Status::Found, Some(14)));
    // Under 4-way the same monsters wall the goal off.
    let four = opts(Neighbourhood::Four, Heuristic::Manhattan, 1000, None);
    pf.search(&g, q.options(four), &mut out, &mut ());
    assert_eq!(out.status, Status::Unreachable);
    assert!(out.path.is_empty());
    // And they are gone afterwards.
    let r = pf.find(&g, Query::new(Pos::new(0, 0), Pos::new(1, 1)).options(four));
    assert_eq!(r.cost, Some(20));
}

#[test]
fn occupants_on_the_endpoints_are_ignored() {
    let g = grid(&["...."]);
    let mut pf = Pathfinder::new();
    let occupied = [1, 0, 0, 2];
    let out = pf.find(
        &g,
        Query::new(Pos::new(0, 0), Pos::new(3, 0)).occupied(&occupied),
    );
    assert_eq!((out.status, out.cost), (Status::Found, Some(30)));
}

#[test]
fn engine_follows_a_grid_that_changes_size_and_tiles() {
    let mut pf = Pathfinder::new();
    let o = SearchOptions::default();
    let mut g = grid(&["...", "...", "..."]);
    assert_eq!(
        pf.find(&g, Query::new(Pos::new(0, 0), Pos::new(2, 2)).options(o))
            .cost,
        Some(28)
    );
    g.set(Pos::new(1, 1), Tile::Wall);
    assert_eq!(
        pf.find(&g, Query::new(Pos::new(0, 0), Pos::new(2, 2)).options(o))
            .cost,
        Some(40)
    );
    // Same cell count, different shape.
    let wide = grid(&[".........", "#########"]);
    let r = pf.find(&wide, Query::new(Pos::new(0, 0), Pos::new(8, 0)).options(o));
    assert_eq!(r.cost, Some(80));
    let tall = grid(&[".", ".", ".", ".", ".", ".", ".", ".", ".", "."]);
    assert_eq!(
        pf.find(&tall, Query::new(Pos::new(0, 0), Pos::new(0, 9)).options(o))
            .cost,
        Some(90)
    );
    g.set(Pos::new(1, 1), Tile::Floor);
    assert_eq!(
        pf.find(&g, Query::new(Pos::new(0, 0), Pos::new(2, 2)).options(o))
            .cost,
        Some(28)
    );
}

#[test]
fn start_equals_goal() {
    let g = grid(&["..", ".."]);
    let r = find(&g, (1, 1), (1, 1), SearchOptions::default());
    assert_eq!(
        (r.status, r.cost, r.expanded, r.path),
        (Status::Found, Some(0), 1, vec![Pos::new(1, 1)])
    );
    let (r, trace) = Pathfinder::new().find_traced(&g, Query::new(Pos::new(1, 1), Pos::new(1, 1)));
    assert_eq!(trace.snapshot(u32::MAX).path, r.path);
    assert_eq!(trace.expansions(), 1);
}

#[test]
fn weight_zero_is_dijkstra() {
    let g = grid(&[".....", ".###.", "....."]);
    let o = opts(Neighbourhood::Eight, Heuristic::Octile, 0, None);
    let r = find(&g, (0, 1), (4, 1), o);
    // The diagonals next to the wall would cut its corners: round the wall straight.
    assert_eq!(r.cost, Some(10 + 40 + 10));
    let (_, trace) =
        Pathfinder::new().find_traced(&g, Query::new(Pos::new(0, 1), Pos::new(4, 1)).options(o));
    let snap = trace.snapshot(u32::MAX);
    assert!(snap.nodes.iter().all(|n| n.f == n.g));
}
