use super::plan::PARALLEL_MIN_MONSTERS;
use super::*;
use crate::engine::astar::path_cost;
use crate::engine::astar::{Pathfinder, Query};

fn level(src: &str) -> Level {
    Level::parse(src.as_bytes(), "test").expect("valid level")
}

#[test]
fn a_monster_behind_a_wall_follows_the_optimal_route() {
    let l = level(include_str!("../../levels/pillar.txt"));
    let mut w = World::new(&l, 1);
    let plan = w.monsters[0].plan.clone();
    assert_eq!(plan.cost, Some(68));
    let mut walked = vec![w.monsters[0].pos];
    while w.monsters[0].pos.chebyshev(w.player.pos) > 1 {
        assert_eq!(w.player_act(Act::Wait), ActResult::Acted);
        walked.push(w.monsters[0].pos);
        assert!(w.turn < 20, "the goblin never arrived");
    }
    walked.push(w.player.pos);
    assert_eq!(walked, plan.path);
    assert_eq!(path_cost(&walked), Some(68));
}

#[test]
fn monsters_in_a_corridor_never_share_a_cell() {
    let l = level("###########\n#@.......ga#\n###########\n");
    let mut w = World::new(&l, 3);
    for _ in 0..12 {
        w.player_act(Act::Wait);
        let mut cells: Vec<Pos> = w.monsters.iter().map(|m| m.pos).collect();
        cells.sort();
        cells.dedup();
        assert_eq!(cells.len(), w.monsters.len());
        assert!(w.monsters.iter().all(|m| m.pos != w.player.pos));
        assert!(w.monsters.iter().all(|m| w.grid.is_passable(m.pos)));
    }
    // Both advanced: the goblin is next to the player, the other queues right behind it.
    assert_eq!(w.monsters[0].pos, Pos::new(2, 1));
    assert_eq!(w.monsters[1].pos, Pos::new(3, 1));
}

#[test]
fn a_blocked_monster_goes_round_when_another_route_exists() {
    // The rat stays next to the player, attacking; the goblin's best step is the rat's cell.
    let l = level("#######\n#@r.g.#\n#.....#\n#######\n");
    let mut w = World::new(&l, 5);
    w.player_act(Act::Wait);
    let goblin = |w: &World| w.monsters.iter().find(|m| m.kind == 'g').unwrap().pos;
    assert_eq!(goblin(&w), Pos::new(3, 1));
    w.player_act(Act::Wait);
    assert_eq!(goblin(&w), Pos::new(2, 2), "the goblin went round the rat");
}

#[test]
fn diagonal_past_a_wall_corner_is_refused_and_costs_no_turn() {
    let l = level("####\n#@.#\n##.#\n####\n");
    let mut w = World::new(&l, 1);
    assert_eq!(w.player_act(Act::Move(1, 1)), ActResult::Refused);
    assert_eq!(w.turn, 0);
    assert_eq!(w.player.pos, Pos::new(1, 1));
    assert!(w.log.last().unwrap().text.contains("corner"));
    assert_eq!(w.player_act(Act::Move(-1, 0)), ActResult::Refused);
    assert_eq!(w.player_act(Act::Move(1, 0)), ActResult::Acted);
}

#[test]
fn monsters_never_cut_corners() {
    let l = level("#####\n#@..#\n##..#\n#.#g#\n#####\n");
    let mut w = World::new(&l, 9);
    let mut prev = w.monsters[0].pos;
    for _ in 0..6 {
        w.player_act(Act::Wait);
        let Some(m) = w.monsters.first() else { break };
        let (dx, dy) = (m.pos.x - prev.x, m.pos.y - prev.y);
        if (dx, dy) != (0, 0) {
            assert!(
                w.grid.can_step(prev, dx, dy, Neighbourhood::Eight),
                "{prev:?} -> {:?}",
                m.pos
            );
        }
        prev = m.pos;
    }
}

#[test]
fn combat_kills_monsters_and_the_player_can_die() {
    let l = level("#####\n#@r.#\n#####\n");
    let mut w = World::new(&l, 2);
    for _ in 0..5 {
        if w.monsters.is_empty() {
            break;
        }
        w.player_act(Act::Move(1, 0));
    }
    assert!(w.monsters.is_empty());
    assert!(w.log.iter().any(|m| m.text == "You kill the rat."));

    let l = level("#####\n#@t.#\n#####\n");
    let mut w = World::new(&l, 2);
    while w.state == GameState::Playing {
        w.player_act(Act::Wait);
        assert!(w.turn < 100);
    }
    assert_eq!(w.player.hp, 0);
    assert_eq!(w.player_act(Act::Wait), ActResult::Refused);
    assert!(w.log.last().unwrap().text.contains("You die on turn"));
}

#[test]
fn same_seed_same_game() {
    let l = level(include_str!("../../levels/default.txt"));
    let run = || {
        let mut w = World::new(&l, 42);
        for i in 0..40 {
            let (dx, dy) = crate::engine::grid::DIRECTIONS[i % 8];
            if w.player_act(Act::Move(dx, dy)) == ActResult::Refused {
                w.player_act(Act::Wait);
            }
        }
        (
            w.player,
            w.monsters.iter().map(|m| (m.pos, m.hp)).collect::<Vec<_>>(),
            w.turn,
        )
    };
    assert_eq!(run(), run());
}

#[test]
fn tracing_records_the_selected_monsters_search_only() {
    let l = level(include_str!("../../levels/default.txt"));
    let mut w = World::new(&l, 1);
    assert!(w.trace().is_none() && w.monsters.len() > 2);
    let stats = w.stats();
    // Tracing the second monster searches for it alone: the turn's figures stay.
    let second = w.monsters[1].clone();
    w.set_traced(Some(second.id));
    assert_eq!(
        (w.stats().astar_expanded, w.stats().searches),
        (stats.astar_expanded, stats.searches)
    );
    let t = w.trace().unwrap();
    assert_eq!((t.start, t.goal), (second.pos, w.player.pos));
    assert_eq!(t.expansions(), second.plan.expanded);
    assert_eq!(t.snapshot(u32::MAX).path, second.plan.path);
    // A replan searches once per monster, the traced one included, and traces it again.
    let serial = w.planner().trace_serial();
    w.replan();
    assert_eq!(w.stats().searches as usize, w.monsters.len());
    assert_ne!(w.planner().trace_serial(), serial);
    assert_eq!(w.trace().unwrap().start, second.pos);
    // Tracing nobody drops the trace.
    w.set_traced(None);
    assert!(w.trace().is_none());
}

#[test]
fn planning_on_several_cores_gives_each_monster_its_own_search() {
    use crate::content::generate::{GenKind, GenParams, generate};
    let level = generate(&GenParams {
        kind: GenKind::Caves,
        width: 80,
        height: 40,
        seed: 4,
        monsters: 3 * PARALLEL_MIN_MONSTERS,
        density: None,
    })
    .unwrap();
    let mut w = World::new(&level, 4);
    w.planner.trace_next(Some(w.monsters[20].id));
    // Three threads, whatever this machine has: the traced monster is in a worker's chunk.
    w.replan_on(3);
    assert_eq!(w.stats().searches as usize, w.monsters.len());
    let mut pf = Pathfinder::new();
    let mut total = 0u64;
    for m in &w.monsters {
        let alone = pf.find(&w.grid, Query::new(m.pos, w.player.pos));
        assert_eq!(m.plan.status, alone.status);
        assert_eq!((m.plan.cost, m.plan.expanded), (alone.cost, alone.expanded));
        assert_eq!(m.plan.path, alone.path);
        total += u64::from(alone.expanded);
    }
    assert_eq!(w.stats().astar_expanded, total);
    let trace = w.trace().expect("the traced monster's search");
    assert_eq!(trace.start, w.monsters[20].pos);
    assert_eq!(trace.expansions(), w.monsters[20].plan.expanded);
}
