//! Property tests of the engine on weighted grids (water, brush, floor of any weight from 1
//! to 9) against an independent weighted Dijkstra, written from the documented rule alone: a
//! step costs 10 straight or 14 diagonal times the weight of the cell it enters; a diagonal
//! needs both cells it passes between passable (any terrain), unless corners may be cut.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};

use astar_rogue::engine::astar::{
    Heuristic, Pathfinder, Query, SearchOptions, SearchResult, Status, Ties, TraceEvent, Weight,
};
use astar_rogue::engine::dijkstra::DistanceMap;
use astar_rogue::engine::grid::{Grid, Neighbourhood, Pos, TerrainWeights, Tile};
use proptest::prelude::*;
use proptest::sample::Index;

use crate::common::config;

/// The weight of entering `(x, y)` in the model: 0 for walls, void and outside.
fn weight_at(g: &Grid, w: &[u32; 3], x: i32, y: i32) -> u32 {
    if x < 0 || y < 0 || x as usize >= g.width() || y as usize >= g.height() {
        return 0;
    }
    match g.tiles()[y as usize * g.width() + x as usize] {
        Tile::Floor => w[0],
        Tile::Water => w[1],
        Tile::Brush => w[2],
        Tile::Wall | Tile::Void => 0,
    }
}

fn step_cost(
    g: &Grid,
    w: &[u32; 3],
    occupied: &HashSet<Pos>,
    from: Pos,
    to: Pos,
    nb: Neighbourhood,
) -> Option<u32> {
    let (dx, dy) = (to.x - from.x, to.y - from.y);
    if (dx, dy) == (0, 0) || dx.abs() > 1 || dy.abs() > 1 || occupied.contains(&to) {
        return None;
    }
    let k = weight_at(g, w, to.x, to.y);
    if k == 0 {
        return None;
    }
    if dx == 0 || dy == 0 {
        return Some(10 * k);
    }
    let sides =
        weight_at(g, w, from.x + dx, from.y) > 0 && weight_at(g, w, from.x, from.y + dy) > 0;
    match nb {
        Neighbourhood::Four => None,
        Neighbourhood::EightCutCorners => Some(14 * k),
        Neighbourhood::Eight => sides.then_some(14 * k),
    }
}

/// Plain weighted Dijkstra from `start`: the cost of every cell.
fn oracle_all(
    g: &Grid,
    w: &[u32; 3],
    start: Pos,
    nb: Neighbourhood,
    occupied: &HashSet<Pos>,
) -> HashMap<Pos, u32> {
    let mut dist: HashMap<Pos, u32> = HashMap::new();
    let mut heap = BinaryHeap::new();
    if weight_at(g, w, start.x, start.y) == 0 {
        return dist;
    }
    dist.insert(start, 0);
    heap.push(Reverse((0u32, start.y, start.x)));
    while let Some(Reverse((d, y, x))) = heap.pop() {
        let p = Pos::new(x, y);
        if d > dist[&p] {
            continue;
        }
        for dy in -1..=1 {
            for dx in -1..=1 {
                let q = Pos::new(x + dx, y + dy);
                if let Some(c) = step_cost(g, w, occupied, p, q, nb)
                    && dist.get(&q).is_none_or(|&old| d + c < old)
                {
                    dist.insert(q, d + c);
                    heap.push(Reverse((d + c, q.y, q.x)));
                }
            }
        }
    }
    dist
}

fn oracle(
    g: &Grid,
    w: &[u32; 3],
    start: Pos,
    goal: Pos,
    nb: Neighbourhood,
    occupied: &HashSet<Pos>,
) -> Option<u32> {
    if weight_at(g, w, goal.x, goal.y) == 0 {
        return None;
    }
    oracle_all(g, w, start, nb, occupied).get(&goal).copied()
}

#[derive(Clone)]
struct Case {
    grid: Grid,
    /// The model's own copy of the weights: floor, water, brush.
    weights: [u32; 3],
    start: Pos,
    goal: Pos,
    blockers: Vec<Pos>,
}

impl std::fmt::Debug for Case {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "\n{}x{} weights {:?} start {} goal {} blockers {:?}",
            self.grid.width(),
            self.grid.height(),
            self.weights,
            self.start,
            self.goal,
            self.blockers
        )?;
        for y in 0..self.grid.height() as i32 {
            for x in 0..self.grid.width() as i32 {
                let c = match self.grid.get(Pos::new(x, y)) {
                    Tile::Floor => '.',
                    Tile::Wall => '#',
                    Tile::Void => ' ',
                    Tile::Water => '~',
                    Tile::Brush => '"',
                };
                write!(f, "{c}")?;
            }
            writeln!(f, "|")?;
        }
        Ok(())
    }
}

/// Grids up to 20x20 of floor, water, brush, walls and void, with terrain weights from 1 to
/// 9 (mostly the defaults).
fn case_strategy() -> impl Strategy<Value = Case> {
    let weights = prop_oneof![
        2 => Just([1u32, 3, 2]),
        1 => (1u32..=9, 1u32..=9, 1u32..=9).prop_map(|(a, b, c)| [a, b, c]),
    ];
    (1usize..=20, 1usize..=20, 0u8..=40, 0u8..=60, weights)
        .prop_flat_map(|(w, h, walls, terrain, weights)| {
            let tiles =
                prop::collection::vec((0u8..100, 0u8..100, 0u8..3), w * h).prop_map(move |rolls| {
                    rolls
                        .into_iter()
                        .map(|(r, t, v)| {
                            if r < walls {
                                if v == 0 { Tile::Void } else { Tile::Wall }
                            } else if t < terrain {
                                if t % 2 == 0 { Tile::Water } else { Tile::Brush }
                            } else {
                                Tile::Floor
                            }
                        })
                        .collect::<Vec<_>>()
                });
            let ends = (any::<Index>(), any::<Index>());
            let blockers = prop::collection::vec(any::<Index>(), 0..10);
            (Just((w, h, weights)), tiles, ends, blockers)
        })
        .prop_map(|((w, h, weights), tiles, (s, t), bs)| {
            let mut tw = TerrainWeights::DEFAULT;
            for (tile, &k) in Tile::TERRAIN.iter().zip(&weights) {
                tw = tw.with(*tile, k).expect("1..=9");
            }
            let grid = Grid::from_tiles(w, h, tiles).with_weights(tw);
            let open: Vec<Pos> = (0..grid.len())
                .map(|i| grid.pos(i))
                .filter(|&p| grid.is_passable(p))
                .collect();
            let pick = |i: Index| {
                if open.is_empty() {
                    Pos::new(0, 0)
                } else {
                    open[i.index(open.len())]
                }
            };
            Case {
                start: pick(s),
                goal: pick(t),
                blockers: bs.into_iter().map(pick).collect(),
                grid,
                weights,
            }
        })
}

fn opts(nb: Neighbourhood, h: Heuristic, millis: u32) -> SearchOptions {
    SearchOptions {
        neighbourhood: nb,
        heuristic: h,
        weight: Weight::from_millis(millis),
        ..SearchOptions::default()
    }
}

/// Heuristics that are consistent under a rule (times the lowest weight they stay so).
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

/// A found path starts and ends right, makes legal steps only, visits no cell twice, and
/// its steps' weighted costs add up to its cost; anything else has no path and no cost.
fn check_path(
    c: &Case,
    nb: Neighbourhood,
    occupied: &HashSet<Pos>,
    r: &SearchResult,
) -> Result<(), TestCaseError> {
    if r.status != Status::Found {
        prop_assert!(r.path.is_empty());
        prop_assert_eq!(r.cost, None);
        return Ok(());
    }
    prop_assert_eq!(r.path.first(), Some(&c.start));
    prop_assert_eq!(r.path.last(), Some(&c.goal));
    let mut total = 0;
    for w in r.path.windows(2) {
        let s = step_cost(&c.grid, &c.weights, occupied, w[0], w[1], nb);
        prop_assert!(
            s.is_some(),
            "illegal step {} -> {} under {:?}",
            w[0],
            w[1],
            nb
        );
        total += s.unwrap_or(0);
    }
    let distinct: HashSet<Pos> = r.path.iter().copied().collect();
    prop_assert_eq!(distinct.len(), r.path.len(), "path revisits a cell");
    prop_assert_eq!(Some(total), r.cost);
    prop_assert_eq!(c.grid.path_cost(&r.path), r.cost);
    Ok(())
}

fn blocked(c: &Case) -> (HashSet<Pos>, Vec<u32>) {
    let mut cells = vec![0u32; c.grid.len()];
    let mut set = HashSet::new();
    for (i, &b) in c.blockers.iter().enumerate() {
        if let Some(ix) = c.grid.index(b) {
            cells[ix] = i as u32 + 1;
            if b != c.start && b != c.goal {
                set.insert(b);
            }
        }
    }
    (set, cells)
}

proptest! {
    #![proptest_config(config(600))]

    /// Consistent heuristics, either tie rule, with or without occupants: the weighted
    /// optimum exactly, on a legal path whose steps add up to it.
    #[test]
    fn weighted_search_matches_a_weighted_dijkstra(c in case_strategy()) {
        let mut pf = Pathfinder::new();
        let (occupied, cells) = blocked(&c);
        for nb in Neighbourhood::ALL {
            for (taken, occ) in [(&HashSet::new(), &[][..]), (&occupied, &cells[..])] {
                let want = oracle(&c.grid, &c.weights, c.start, c.goal, nb, taken);
                for &h in consistent(nb) {
                    for ties in Ties::ALL {
                        let o = SearchOptions { ties, ..opts(nb, h, 1000) };
                        let r = pf.find(&c.grid, Query::new(c.start, c.goal).options(o).occupied(occ));
                        prop_assert_eq!(r.cost, want, "{:?} {:?} {:?}", nb, h, ties);
                        check_path(&c, nb, taken, &r)?;
                    }
                }
            }
        }
    }

    /// Every other option keeps its meaning: inadmissible heuristics, weights on H and
    /// greedy best-first find a legal path exactly when one exists, never cheaper than the
    /// optimum, and octile at weight w costs at most w times it; a cap stops exactly.
    #[test]
    fn every_option_keeps_its_meaning_on_weighted_grids(c in case_strategy(), millis in 0u32..=3000, cap in 1u32..60) {
        let mut pf = Pathfinder::new();
        let none = HashSet::new();
        for nb in Neighbourhood::ALL {
            let best = oracle(&c.grid, &c.weights, c.start, c.goal, nb, &none);
            for h in Heuristic::ALL {
                for greedy in [false, true] {
                    for ties in Ties::ALL {
                        let o = SearchOptions { greedy, ties, ..opts(nb, h, millis) };
                        let q = Query::new(c.start, c.goal).options(o);
                        let r = pf.find(&c.grid, q);
                        prop_assert_eq!(r.cost.is_some(), best.is_some(), "{:?}", o);
                        prop_assert!(r.cost >= best, "{:?}", o);
                        check_path(&c, nb, &none, &r)?;
                        if h == Heuristic::Octile && !greedy && millis >= 1000
                            && let (Some(got), Some(b)) = (r.cost, best)
                        {
                            prop_assert!(u64::from(got) * 1000 <= u64::from(b) * u64::from(millis));
                        }
                        let capped = pf.find(&c.grid, q.options(SearchOptions { cap: Some(cap), ..o }));
                        if r.expanded <= cap {
                            prop_assert_eq!(&capped, &r);
                        } else {
                            prop_assert_eq!(capped.status, Status::CapReached);
                            prop_assert_eq!(capped.expanded, cap);
                        }
                    }
                }
            }
        }
    }

    /// The trace tells the weighted search: each G is the parent's plus the step's weighted
    /// cost, H is the heuristic times the lowest weight, F = G + weighted H, expansions go
    /// lowest F, then lowest weighted H, then reading order, and the untraced search agrees.
    #[test]
    fn weighted_traces_replay_to_their_result(c in case_strategy(), h in prop::sample::select(Heuristic::ALL.to_vec()), millis in prop_oneof![Just(1000u32), 0u32..=3000]) {
        let o = opts(Neighbourhood::Eight, h, millis);
        let q = Query::new(c.start, c.goal).options(o);
        let mut pf = Pathfinder::new();
        let (r, trace) = pf.find_traced(&c.grid, q);
        prop_assert_eq!(&pf.find(&c.grid, q), &r);
        let lowest = *c.weights.iter().min().unwrap_or(&1);
        let scale = if c.grid.is_weighted() { lowest } else { 1 };
        let mut nodes: HashMap<Pos, (u32, u32, bool)> = HashMap::new();
        let mut current = None;
        for e in trace.events() {
            match *e {
                TraceEvent::Open { cell, g, h: hv, f, parent } => {
                    let (dx, dy) = (cell.x.abs_diff(c.goal.x), cell.y.abs_diff(c.goal.y));
                    prop_assert_eq!(hv, h.estimate(dx, dy) * scale);
                    let wh = (u64::from(hv) * u64::from(o.weight.millis()) / 1000) as u32;
                    prop_assert_eq!(f, g + wh);
                    if let Some(p) = parent {
                        prop_assert_eq!(Some(p), current);
                        let step = step_cost(&c.grid, &c.weights, &HashSet::new(), p, cell, o.neighbourhood);
                        prop_assert_eq!(Some(g), step.map(|s| s + nodes[&p].0));
                    }
                    if let Some(old) = nodes.get(&cell) {
                        prop_assert!(!old.2 && g < old.0);
                    }
                    nodes.insert(cell, (g, f, false));
                }
                TraceEvent::Close { cell } => {
                    let best = nodes
                        .iter()
                        .filter(|(_, n)| !n.2)
                        .map(|(p, n)| (n.1, n.1 - n.0, p.y, p.x))
                        .min();
                    let n = nodes[&cell];
                    prop_assert_eq!(Some((n.1, n.1 - n.0, cell.y, cell.x)), best);
                    nodes.get_mut(&cell).expect("opened").2 = true;
                    current = Some(cell);
                }
            }
        }
        if r.status == Status::Found {
            prop_assert_eq!(trace.snapshot(u32::MAX).path, r.path.clone());
        }
    }

    /// Dijkstra maps are weighted the same way: every cell's cost from the source.
    #[test]
    fn weighted_distance_maps_match_the_oracle(c in case_strategy()) {
        for nb in Neighbourhood::ALL {
            let mut map = DistanceMap::new();
            map.compute(&c.grid, c.start, nb);
            let want = oracle_all(&c.grid, &c.weights, c.start, nb, &HashSet::new());
            for i in 0..c.grid.len() {
                let p = c.grid.pos(i);
                prop_assert_eq!(map.get(p), want.get(&p).copied(), "{:?} {}", nb, p);
            }
        }
    }

    /// All weights 1 is the unweighted search: the same answer as the grid with water and
    /// brush turned to floor.
    #[test]
    fn weights_of_one_are_the_unweighted_search(c in case_strategy()) {
        let ones = c.grid.clone().with_weights(TerrainWeights::ONES);
        prop_assert!(!ones.is_weighted());
        let floor: Vec<Tile> = c.grid.tiles().iter().map(|&t| if t.is_passable() { Tile::Floor } else { t }).collect();
        let plain = Grid::from_tiles(c.grid.width(), c.grid.height(), floor);
        let mut pf = Pathfinder::new();
        for nb in Neighbourhood::ALL {
            let q = Query::new(c.start, c.goal).options(opts(nb, Heuristic::Octile, 1000));
            prop_assert_eq!(pf.find(&ones, q), pf.find(&plain, q));
        }
    }
}

#[test]
fn the_dry_way_round_a_pond_is_cheaper() {
    // Straight across the pond: three water steps and one floor step, 3*30 + 10 = 100.
    // Round it: six steps of floor, two of them diagonal, 4*10 + 2*14 = 68.
    let grid = Grid::from_rows(&[".....", ".~~~.", ".~~~.", ".~~~.", "....."]);
    let (a, b) = (Pos::new(2, 0), Pos::new(2, 4));
    let r = Pathfinder::new().find(&grid, Query::new(a, b));
    assert_eq!(r.cost, Some(68));
    assert_eq!(r.path.len(), 7);
    assert!(
        r.path.iter().all(|&p| grid.get(p) == Tile::Floor),
        "{:?}",
        r.path
    );
    // At weight 2 wading costs 70: still dearer. At weight 1 it is 40, the fewest steps.
    let water = |k| TerrainWeights::DEFAULT.with(Tile::Water, k).unwrap();
    let r = Pathfinder::new().find(&grid.clone().with_weights(water(2)), Query::new(a, b));
    assert_eq!(r.cost, Some(68));
    let r = Pathfinder::new().find(&grid.with_weights(water(1)), Query::new(a, b));
    assert_eq!((r.cost, r.path.len()), (Some(40), 5));
}

// ---------------------------------------------------------------------------------------------
// `path --json` on weighted level files
// ---------------------------------------------------------------------------------------------

const BIN: &str = env!("CARGO_BIN_EXE_astar-rogue");

/// A weighted level file: a map of floor, water, brush and walls inside a wall border, the
/// player on floor, sometimes `cost:` headers; with its grid as the model reads it.
fn level_file() -> impl Strategy<Value = (String, Grid, [u32; 3])> {
    (
        4usize..=18,
        3usize..=10,
        0u8..=30,
        10u8..=70,
        prop::collection::vec((0usize..3, 1u32..=9), 0..3),
    )
        .prop_flat_map(|(w, h, walls, terrain, costs)| {
            let cells = prop::collection::vec((0u8..100, 0u8..100), w * h);
            (
                Just((w, h, costs)),
                cells,
                any::<Index>(),
                Just((walls, terrain)),
            )
        })
        .prop_map(|((w, h, costs), cells, player, (walls, terrain))| {
            let mut weights = [1u32, 3, 2];
            let mut headers = String::new();
            let mut seen = [false; 3];
            for (t, k) in costs {
                if !seen[t] {
                    seen[t] = true;
                    weights[t] = k;
                    headers.push_str(&format!("cost: {} {k}\n", ['.', '~', '"'][t]));
                }
            }
            let mut glyphs: Vec<char> = cells
                .iter()
                .map(|&(r, t)| {
                    if r < walls {
                        '#'
                    } else if t < terrain {
                        if t % 2 == 0 { '~' } else { '"' }
                    } else {
                        '.'
                    }
                })
                .collect();
            glyphs[player.index(w * h)] = '@';
            let mut text = format!("title: held out\n{headers}");
            let mut tiles = Vec::new();
            let border: String = std::iter::repeat_n('#', w + 2).collect();
            text.push_str(&border);
            text.push('\n');
            tiles.extend(std::iter::repeat_n(Tile::Wall, w + 2));
            for row in glyphs.chunks(w) {
                text.push('#');
                tiles.push(Tile::Wall);
                for &c in row {
                    text.push(c);
                    tiles.push(match c {
                        '#' => Tile::Wall,
                        '~' => Tile::Water,
                        '"' => Tile::Brush,
                        _ => Tile::Floor,
                    });
                }
                text.push_str("#\n");
                tiles.push(Tile::Wall);
            }
            text.push_str(&border);
            text.push('\n');
            tiles.extend(std::iter::repeat_n(Tile::Wall, w + 2));
            // The model's own grid: the tiles, and the weights the headers say (which the
            // model reads from `weights`; the grid's are for `Grid::path_cost`).
            let mut tw = TerrainWeights::DEFAULT;
            for (tile, &k) in Tile::TERRAIN.iter().zip(&weights) {
                tw = tw.with(*tile, k).expect("1..=9");
            }
            let grid = Grid::from_tiles(w + 2, h + 2, tiles).with_weights(tw);
            (text, grid, weights)
        })
}

/// Runs `path --json` and returns (status, cost, path).
fn path_json(
    file: &std::path::Path,
    from: Pos,
    to: Pos,
    extra: &[&str],
) -> (String, Option<u32>, Vec<Pos>) {
    let out = std::process::Command::new(BIN)
        .arg("path")
        .arg(file)
        .args([
            "--from",
            &from.to_string(),
            "--to",
            &to.to_string(),
            "--json",
        ])
        .args(extra)
        .output()
        .expect("run astar-rogue path");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let status = v["status"].as_str().expect("a status").to_string();
    let cost = v["cost"].as_u64().map(|c| c as u32);
    let path = v["path"]
        .as_array()
        .expect("a path")
        .iter()
        .map(|p| Pos::new(p[0].as_i64().unwrap() as i32, p[1].as_i64().unwrap() as i32))
        .collect();
    (status, cost, path)
}

proptest! {
    #![proptest_config(config(40))]

    /// `path --json` on level files it has never seen (terrain, cost headers) answers a
    /// plain weighted Dijkstra's cost, on a legal path whose steps add up to it.
    #[test]
    fn path_json_matches_a_weighted_dijkstra_on_held_out_levels(
        (text, grid, weights) in level_file(),
        ends in prop::collection::vec((any::<Index>(), any::<Index>()), 1..4),
        rule in prop::sample::select(vec![("8", Neighbourhood::Eight), ("8cut", Neighbourhood::EightCutCorners), ("4", Neighbourhood::Four)]),
    ) {
        let dir = tempfile::tempdir().expect("a scratch folder");
        let file = dir.path().join("held-out.txt");
        std::fs::write(&file, &text).expect("write the level");
        let open: Vec<Pos> = (0..grid.len()).map(|i| grid.pos(i)).filter(|&p| grid.is_passable(p)).collect();
        let case = Case { grid: grid.clone(), weights, start: Pos::new(0, 0), goal: Pos::new(0, 0), blockers: Vec::new() };
        for (a, b) in ends {
            let (from, to) = (open[a.index(open.len())], open[b.index(open.len())]);
            let want = oracle(&grid, &weights, from, to, rule.1, &HashSet::new());
            for extra in [&["--neighbours", rule.0][..], &["--neighbours", rule.0, "--heuristic", "zero"]] {
                let (status, cost, path) = path_json(&file, from, to, extra);
                prop_assert_eq!(cost, want, "{} from {} to {} {:?}\n{}", status, from, to, extra, text);
                prop_assert_eq!(status == "found", want.is_some());
                let r = SearchResult {
                    status: if want.is_some() { Status::Found } else { Status::Unreachable },
                    cost,
                    expanded: 1,
                    path,
                    fallback: None,
                };
                check_path(&Case { start: from, goal: to, ..case.clone() }, rule.1, &HashSet::new(), &r)?;
            }
        }
    }
}

#[test]
fn path_json_on_the_shipped_pond_goes_round() {
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/pond.txt");
    let (status, cost, path) = path_json(&file, Pos::new(6, 1), Pos::new(6, 6), &[]);
    assert_eq!(
        (status.as_str(), cost, path.len()),
        ("found", Some(106), 10)
    );
}
