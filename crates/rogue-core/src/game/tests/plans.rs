//! Every plan a turn makes, checked against a plain Dijkstra written here: random maps with
//! walls, water, brush and doors, every kind, every planning mode, the player wandering.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use proptest::prelude::*;

use super::super::*;
use crate::content::kinds::{Cost, Costs};
use crate::content::map::TerrainWeights;
use crate::engine::astar::Status;
use crate::engine::grid::Neighbourhood;

/// What entering `tile` costs a kind of `costs` on a map of `weights` (0: it cannot), with
/// the rules as the kinds' table states them: a wall or jammed door on the map's edge is
/// never entered, a closed door at the kind's door cost, open doors as floor.
fn entry(costs: &Costs, tile: Tile, weights: TerrainWeights, edge: bool) -> u32 {
    let (cost, terrain) = match tile {
        Tile::Floor | Tile::DoorOpen => (costs.floor, Tile::Floor),
        Tile::Water => (costs.water, Tile::Water),
        Tile::Brush => (costs.brush, Tile::Brush),
        Tile::DoorClosed => (costs.door, Tile::Floor),
        Tile::Wall | Tile::DoorJammed if !edge => (costs.wall, Tile::Wall),
        _ => return 0,
    };
    match cost {
        Cost::Never => 0,
        Cost::Terrain => weights.get(terrain).max(1),
        Cost::Times(n) => u32::from(n),
    }
}

/// One kind's view of a map: what entering each cell costs it, and its moves.
struct Ground {
    width: i32,
    height: i32,
    cost: Vec<u32>,
    eight: bool,
}

impl Ground {
    fn new(map: &TileMap, kind: char) -> Self {
        let search = kinds::builtin(kind).search;
        let (width, height) = (map.width() as i32, map.height() as i32);
        let mut cost = Vec::with_capacity(map.len());
        for y in 0..height {
            for x in 0..width {
                let p = Pos::new(x, y);
                cost.push(entry(
                    &search.costs,
                    map.get(p),
                    map.weights(),
                    map.is_edge(p),
                ));
            }
        }
        let eight = match search.moves {
            Neighbourhood::Four => false,
            Neighbourhood::Eight => true,
            other => panic!("no kind moves {other:?}"),
        };
        Self {
            width,
            height,
            cost,
            eight,
        }
    }

    fn at(&self, x: i32, y: i32) -> u32 {
        if x < 0 || y < 0 || x >= self.width || y >= self.height {
            0
        } else {
            self.cost[(y * self.width + x) as usize]
        }
    }

    /// What the step from `a` to `b` costs: 10 straight, 14 diagonal, times the entered
    /// cell's cost; `None` when it is no legal move (a diagonal past a blocked side cell
    /// cuts a corner).
    fn step(&self, a: Pos, b: Pos) -> Option<u32> {
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        let c = self.at(b.x, b.y);
        if c == 0 || dx.abs() > 1 || dy.abs() > 1 || (dx == 0 && dy == 0) {
            return None;
        }
        if dx == 0 || dy == 0 {
            return Some(10 * c);
        }
        (self.eight && self.at(a.x + dx, a.y) != 0 && self.at(a.x, a.y + dy) != 0).then_some(14 * c)
    }

    /// The cheapest cost from `from` to every cell (`u32::MAX`: unreachable).
    fn dijkstra(&self, from: Pos) -> Vec<u32> {
        let mut dist = vec![u32::MAX; self.cost.len()];
        let mut open = BinaryHeap::new();
        dist[(from.y * self.width + from.x) as usize] = 0;
        open.push(Reverse((0u32, from.y, from.x)));
        while let Some(Reverse((d, y, x))) = open.pop() {
            if d > dist[(y * self.width + x) as usize] {
                continue;
            }
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let to = Pos::new(x + dx, y + dy);
                    let Some(c) = self.step(Pos::new(x, y), to) else {
                        continue;
                    };
                    let i = (to.y * self.width + to.x) as usize;
                    if d + c < dist[i] {
                        dist[i] = d + c;
                        open.push(Reverse((d + c, to.y, to.x)));
                    }
                }
            }
        }
        dist
    }

    /// The cheapest cost from every cell to `to` (`u32::MAX`: none).
    fn dijkstra_to(&self, to: Pos) -> Vec<u32> {
        let mut dist = vec![u32::MAX; self.cost.len()];
        let mut open = BinaryHeap::new();
        dist[(to.y * self.width + to.x) as usize] = 0;
        open.push(Reverse((0u32, to.y, to.x)));
        while let Some(Reverse((d, y, x))) = open.pop() {
            if d > dist[(y * self.width + x) as usize] {
                continue;
            }
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let from = Pos::new(x + dx, y + dy);
                    let Some(c) = self.step(from, Pos::new(x, y)) else {
                        continue;
                    };
                    let i = (from.y * self.width + from.x) as usize;
                    if d + c < dist[i] {
                        dist[i] = d + c;
                        open.push(Reverse((d + c, from.y, from.x)));
                    }
                }
            }
        }
        dist
    }

    /// The cost of walking `path` one legal move at a time.
    fn walk(&self, path: &[Pos]) -> Option<u32> {
        path.windows(2).map(|w| self.step(w[0], w[1])).sum()
    }
}

/// The guides' estimates toward the player, for every kind they serve: never above the
/// kind's cheapest cost from a cell, 0 at the player, and dropping by at most a step's cost
/// from one cell to the next (admissible and consistent, so the guided A* stays exact).
fn check_guides(w: &World) {
    let (grid, player) = (w.grid(), w.player().pos);
    let mut kinds: Vec<char> = w.monsters().iter().map(|m| m.kind).collect();
    kinds.sort_unstable();
    kinds.dedup();
    for kind in kinds {
        let Some(h) = w.planner.guide_estimates(grid, player, w.options(), kind) else {
            continue;
        };
        let ground = Ground::new(grid, kind);
        let best = ground.dijkstra_to(player);
        let at = |p: Pos| (p.y * ground.width + p.x) as usize;
        for i in 0..h.len() {
            let p = grid.pos(i);
            if best[i] == u32::MAX {
                continue;
            }
            assert!(
                h[i] <= best[i],
                "{kind} at {p}: {} > {}\n{}",
                h[i],
                best[i],
                show(grid)
            );
            for (dx, dy) in DIRECTIONS {
                let n = p.offset(dx, dy);
                if let Some(c) = ground.step(p, n) {
                    assert!(
                        h[i] <= c + h[at(n)],
                        "{kind} from {p} to {n}\n{}",
                        show(grid)
                    );
                }
            }
        }
    }
}

/// The check every plan passes as it is made: from where it planned to its goal, the
/// cheapest cost for its kind (a weighted kind: within its weight of it); a capped search
/// that ran out heads for a cell by the cheapest way there; boxed in, no plan.
fn check(map: &TileMap, m: &Monster, planning: Planning) {
    let plan = &m.plan;
    let ctx = || format!("{m:?} on {planning}\n{}", show(map));
    if m.boxed {
        assert!(plan.path.is_empty() && plan.cost.is_none(), "{}", ctx());
        return;
    }
    let ground = Ground::new(map, m.kind);
    let (from, goal) = m.planned;
    let dist = ground.dijkstra(from);
    let best = |p: Pos| dist[(p.y * ground.width + p.x) as usize];
    let weight = kinds::builtin(m.kind).search.weight_millis;
    // Within the kind's weight of the cheapest: exact for plain kinds.
    let near = |cost: u32, optimum: u32| {
        cost >= optimum && u64::from(cost) * 1000 <= u64::from(optimum) * u64::from(weight)
    };
    let by_map = planning == Planning::Map && plan.expanded == 0;
    match plan.status {
        Status::Found if by_map => {
            // One step downhill on the kind's own Dijkstra map: its cost is the map's.
            assert_eq!(plan.cost, Some(best(goal)), "{}", ctx());
            assert_eq!(plan.path.first(), Some(&from), "{}", ctx());
        }
        Status::Found => {
            let cost = plan.cost.expect("a found plan has a cost");
            let cheapest = best(goal);
            assert!(near(cost, cheapest), "{}: cheapest {cheapest}", ctx());
            assert_eq!(plan.path.first(), Some(&from), "{}", ctx());
            assert_eq!(plan.path.last(), Some(&goal), "{}", ctx());
            assert_eq!(ground.walk(&plan.path), Some(cost), "{}", ctx());
        }
        Status::Unreachable => assert_eq!(best(goal), u32::MAX, "{}", ctx()),
        Status::CapReached => {
            // Toward the node nearest the goal its search reached, by that node's own
            // search: the cheapest way there (within the weight).
            let Some(&to) = plan.path.last() else {
                return;
            };
            assert_eq!(plan.path.first(), Some(&from), "{}", ctx());
            let walked = ground.walk(&plan.path);
            assert!(walked.is_some_and(|c| near(c, best(to))), "{}", ctx());
        }
        other => panic!("{}: status {other:?}", ctx()),
    }
}

fn show(map: &TileMap) -> String {
    let mut s = String::new();
    for y in 0..map.height() as i32 {
        for x in 0..map.width() as i32 {
            s.push(match map.get(Pos::new(x, y)) {
                Tile::Wall => '#',
                Tile::Water => '~',
                Tile::Brush => '"',
                Tile::DoorClosed => '+',
                Tile::DoorOpen => '\'',
                Tile::DoorJammed => '=',
                Tile::Void => ' ',
                _ => '.',
            });
        }
        s.push('\n');
    }
    s
}

/// A map of `width` x `height` with a wall round it, of `cells` inside (0 to 99: wall,
/// water, brush, closed door, jammed door, floor by its share), the player and the
/// `monsters` (kind, cell) on floor.
fn level_text(
    width: usize,
    height: usize,
    cells: &[u8],
    player: usize,
    monsters: &[(char, usize)],
) -> String {
    let inner = (width - 2) * (height - 2);
    let mut rows: Vec<Vec<char>> = vec![vec!['#'; width]; height];
    for (y, row) in rows.iter_mut().enumerate().take(height - 1).skip(1) {
        for (x, cell) in row.iter_mut().enumerate().take(width - 1).skip(1) {
            let i = (y - 1) * (width - 2) + (x - 1);
            *cell = match cells[i % cells.len()] {
                0..20 => '#',
                20..30 => '~',
                30..40 => '"',
                40..45 => '+',
                45..47 => '=',
                _ => '.',
            };
        }
    }
    let mut put = |i: usize, c: char| rows[1 + (i % inner) / (width - 2)][1 + i % (width - 2)] = c;
    for &(kind, i) in monsters {
        put(i, kind);
    }
    put(player, '@');
    let mut text = String::from("title: planning props\n");
    for row in rows {
        text.extend(row);
        text.push('\n');
    }
    text
}

fn arb_planning() -> impl Strategy<Value = Planning> {
    prop_oneof![
        Just(Planning::AStar),
        Just(Planning::Jps),
        Just(Planning::Map),
        (1u32..60).prop_map(Planning::Capped),
    ]
}

/// The map of a guide of two tables (goblins' and nagas') stops at its farthest monster, and
/// a monster beyond it (one added later, while the guide is kept) still plans a cheapest
/// path: its own search estimated by the map's bound.
#[test]
fn a_guide_stopped_early_still_guides_every_plan_exactly() {
    let text = "title: early stop\n\
                ##############################\n\
                #@.gn......~~~~..........\"\"..#\n\
                #....###########....~~~~.....#\n\
                #..........\"\"\".....#....##...#\n\
                ##############################\n";
    let level = Level::parse(text.as_bytes(), "early").expect("a valid level");
    PLAN_AUDIT.set(Some(check));
    let mut w = World::new(&level, 7);
    w.planner.force_guides(true);
    w.replan();
    let bounds = w.planner.guide_bounds();
    assert_eq!(
        bounds,
        vec![Some(30)],
        "the guide stops at the naga, 30 away"
    );
    check_guides(&w);
    // A goblin at the far end, beyond the map, planned with the guide kept.
    let far = w
        .add_monster(Pos::new(27, 3), 'g', None)
        .expect("room there");
    w.replan();
    assert_eq!(w.planner.guide_bounds(), bounds, "the guide is kept");
    check_guides(&w);
    let m = w.monsters().iter().find(|m| m.id == far).expect("added");
    assert_eq!(m.plan.status, Status::Found);
    assert!(
        m.plan.expanded > 0,
        "it searched: the map does not reach it"
    );
    for _ in 0..6 {
        w.player_act(Act::Wait);
        check_guides(&w);
    }
    PLAN_AUDIT.set(None);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn every_plan_a_turn_makes_is_as_cheap_as_a_plain_dijkstra_says(
        width in 6usize..48,
        height in 5usize..30,
        cells in prop::collection::vec(0u8..100, 1..1500),
        player in 0usize..10_000,
        monsters in prop::collection::vec(
            (prop::sample::select(vec!['r', 'k', 'g', 'b', 'o', 'n', 'd', 't', 'z']), 0usize..10_000),
            1..14,
        ),
        planning in arb_planning(),
        traced in prop::option::of(0usize..14),
        crowds in prop::option::of(1usize..4),
        guided in any::<bool>(),
        acts in prop::collection::vec(0u8..12, 1..40),
    ) {
        let text = level_text(width, height, &cells, player, &monsters);
        let level = Level::parse(text.as_bytes(), "props").expect("a valid level");
        let mut w = World::new(&level, 7);
        PLAN_AUDIT.set(Some(check));
        // Crowds of a few share Dijkstra maps, as crowds of many do on big maps.
        w.planner.force_crowds(crowds);
        // Plain searches estimated by guides, as they are on big maps.
        w.planner.force_guides(guided);
        w.set_planning(planning);
        if let Some(m) = traced.and_then(|i| w.monsters().get(i)) {
            let id = m.id;
            w.replan_tracing(Some(id));
        }
        for act in acts {
            if w.state() != GameState::Playing {
                break;
            }
            let act = match act {
                0..8 => {
                    let (dx, dy) = DIRECTIONS[usize::from(act)];
                    Act::Move(dx, dy)
                }
                8 => Act::CloseDoors,
                9 | 10 => Act::Wait,
                _ => {
                    // A press of P: the next mode takes up the maps, guides and labels the
                    // last one left, and every plan it makes must still be exact.
                    w.set_planning(w.planning().next());
                    check_guides(&w);
                    continue;
                }
            };
            // A refused move (into a wall) costs no turn: the player waits instead.
            if w.player_act(act) == ActResult::Refused {
                w.player_act(Act::Wait);
            }
            check_guides(&w);
        }
        PLAN_AUDIT.set(None);
    }
}
