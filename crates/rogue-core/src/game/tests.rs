use super::plan::{PARALLEL_MIN_MONSTERS, Spread};
use super::*;
use crate::engine::astar::path_cost;
use crate::engine::astar::{Pathfinder, Query, Status};

fn level(src: &str) -> Level {
    Level::parse(src.as_bytes(), "test").expect("valid level")
}

/// A monster's own search, made apart from the planner: a grid of its kind's costs built
/// from the map's tiles, and its kind's options over `base`; `None` for a capped kind,
/// whose plan is a second search toward its best node rather than the first one.
fn own_search(
    w: &World,
    m: &Monster,
    base: crate::engine::astar::SearchOptions,
) -> Option<(
    crate::engine::grid::Grid,
    crate::engine::astar::SearchOptions,
)> {
    let search = kinds::builtin(m.kind).search;
    if search.cap.is_some() {
        return None;
    }
    let map = w.grid();
    let table = search.costs.table(map.weights());
    let grid = crate::engine::grid::Grid::from_fn(map.width(), map.height(), |p| {
        table.get(map.get(p), map.is_edge(p))
    })
    .expect("the map's size");
    Some((grid, search.options(base)))
}

#[test]
fn a_monster_behind_a_wall_follows_the_optimal_route() {
    let l = level(include_str!("../../../../levels/pillar.txt"));
    let mut w = World::new(&l, 1);
    let plan = w.monsters()[0].plan.clone();
    assert_eq!(plan.cost, Some(68));
    let mut walked = vec![w.monsters()[0].pos];
    while w.monsters()[0].pos.chebyshev(w.player().pos) > 1 {
        assert_eq!(w.player_act(Act::Wait), ActResult::Acted);
        walked.push(w.monsters()[0].pos);
        assert!(w.turn() < 20, "the goblin never arrived");
    }
    walked.push(w.player().pos);
    assert_eq!(walked, plan.path);
    assert_eq!(path_cost(&walked), Some(68));
}

#[test]
fn monsters_in_a_corridor_never_share_a_cell() {
    let l = level("###########\n#@.......ga#\n###########\n");
    let mut w = World::new(&l, 3);
    for _ in 0..12 {
        w.player_act(Act::Wait);
        let mut cells: Vec<Pos> = w.monsters().iter().map(|m| m.pos).collect();
        cells.sort();
        cells.dedup();
        assert_eq!(cells.len(), w.monsters().len());
        assert!(w.monsters().iter().all(|m| m.pos != w.player().pos));
        assert!(w.monsters().iter().all(|m| w.grid().is_passable(m.pos)));
    }
    // Both advanced: the goblin is next to the player, the other queues right behind it.
    assert_eq!(w.monsters()[0].pos, Pos::new(2, 1));
    assert_eq!(w.monsters()[1].pos, Pos::new(3, 1));
}

#[test]
fn a_blocked_monster_goes_round_when_another_route_exists() {
    // The rat stays next to the player, attacking; the goblin's best step is the rat's cell.
    let l = level("#######\n#@r.g.#\n#.....#\n#######\n");
    let mut w = World::new(&l, 5);
    w.player_act(Act::Wait);
    let goblin = |w: &World| w.monsters().iter().find(|m| m.kind == 'g').unwrap().pos;
    assert_eq!(goblin(&w), Pos::new(3, 1));
    w.player_act(Act::Wait);
    assert_eq!(goblin(&w), Pos::new(2, 2), "the goblin went round the rat");
}

#[test]
fn diagonal_past_a_wall_corner_is_refused_and_costs_no_turn() {
    let l = level("####\n#@.#\n##.#\n####\n");
    let mut w = World::new(&l, 1);
    assert_eq!(w.player_act(Act::Move(1, 1)), ActResult::Refused);
    assert_eq!(w.turn(), 0);
    assert_eq!(w.player().pos, Pos::new(1, 1));
    assert!(w.log().last().unwrap().text.contains("corner"));
    assert_eq!(w.player_act(Act::Move(-1, 0)), ActResult::Refused);
    assert_eq!(w.player_act(Act::Move(1, 0)), ActResult::Acted);
}

#[test]
fn monsters_never_cut_corners() {
    let l = level("#####\n#@..#\n##..#\n#.#g#\n#####\n");
    let mut w = World::new(&l, 9);
    let mut prev = w.monsters()[0].pos;
    for _ in 0..6 {
        w.player_act(Act::Wait);
        let Some(m) = w.monsters().first() else { break };
        let (dx, dy) = (m.pos.x - prev.x, m.pos.y - prev.y);
        if (dx, dy) != (0, 0) {
            assert!(
                w.grid().can_step(prev, dx, dy, Neighbourhood::Eight),
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
        if w.monsters().is_empty() {
            break;
        }
        w.player_act(Act::Move(1, 0));
    }
    assert!(w.monsters().is_empty());
    assert!(w.log().iter().any(|m| m.text == "You kill the rat."));

    let l = level("#####\n#@t.#\n#####\n");
    let mut w = World::new(&l, 2);
    while w.state() == GameState::Playing {
        w.player_act(Act::Wait);
        assert!(w.turn() < 100);
    }
    assert_eq!(w.player().hp, 0);
    // The turn it names is the panel's and the log's stamp of it.
    let died = w.log().last().unwrap();
    assert!(
        died.text
            .ends_with(&format!("You die on turn {}.", w.turn()))
    );
    assert_eq!(died.turn, w.turn());
    assert_eq!(w.player_act(Act::Wait), ActResult::Refused);
    assert!(w.log().iter().any(|m| m.text.contains("You die on turn")));
    assert_eq!(w.run().killer, Some('t'));
    assert!(!w.abandon(), "a run that ended cannot be abandoned");
}

#[test]
fn an_abandoned_run_is_over() {
    let l = level("#####\n#@t.#\n#####\n");
    let mut w = World::new(&l, 2);
    w.player_act(Act::Wait);
    assert!(w.abandon());
    assert_eq!(w.state(), GameState::Abandoned);
    assert_eq!(w.state().name(), "abandoned");
    assert_eq!(w.player_act(Act::Wait), ActResult::Refused);
    assert_eq!(w.run().killer, None);
    assert_eq!(
        w.log().last().unwrap().text,
        "You abandon the run on turn 1."
    );
}

#[test]
fn same_seed_same_game() {
    let l = level(include_str!("../../../../levels/default.txt"));
    let run = || {
        let mut w = World::new(&l, 42);
        for i in 0..40 {
            let (dx, dy) = crate::engine::grid::DIRECTIONS[i % 8];
            if w.player_act(Act::Move(dx, dy)) == ActResult::Refused {
                w.player_act(Act::Wait);
            }
        }
        (
            *w.player(),
            w.monsters()
                .iter()
                .map(|m| (m.pos, m.hp))
                .collect::<Vec<_>>(),
            w.turn(),
        )
    };
    assert_eq!(run(), run());
}

#[test]
fn tracing_records_the_selected_monsters_search_only() {
    let l = level(include_str!("../../../../levels/default.txt"));
    let mut w = World::new(&l, 1);
    assert!(w.trace().is_none() && w.monsters().len() > 2);
    let stats = w.stats();
    // Tracing the second monster searches for it alone: the turn's figures stay.
    let second = w.monsters()[1].clone();
    w.set_traced(Some(second.id));
    assert_eq!(
        (w.stats().astar_expanded, w.stats().searches),
        (stats.astar_expanded, stats.searches)
    );
    let t = w.trace().unwrap();
    assert_eq!((t.start, t.goal), (second.pos, w.player().pos));
    assert_eq!(t.expansions(), second.plan.expanded);
    assert_eq!(t.snapshot(u32::MAX).path, second.plan.path);
    // A replan searches once per monster, the traced one included, and traces it again.
    let serial = w.planner().trace_serial();
    w.replan();
    assert_eq!(w.stats().searches as usize, w.monsters().len());
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
        terrain: None,
        // The first floor's kinds: none of them capped, so every plan is one search.
        depth: 1,
    })
    .unwrap();
    let mut w = World::new(&level, 4);
    w.planner.trace_next(Some(w.monsters()[20].id));
    // Three threads, whatever this machine has, each taking a few monsters at a time.
    w.replan_on(3);
    assert_eq!(w.stats().searches as usize, w.monsters().len());
    let mut pf = Pathfinder::new();
    let mut total = 0u64;
    for m in w.monsters() {
        let Some((grid, o)) = own_search(&w, m, w.options()) else {
            total += u64::from(m.plan.expanded);
            continue;
        };
        let alone = pf.find(&grid, Query::new(m.pos, w.player().pos).options(o));
        assert_eq!(m.plan.status, alone.status);
        assert_eq!((m.plan.cost, m.plan.expanded), (alone.cost, alone.expanded));
        assert_eq!(m.plan.path, alone.path);
        total += u64::from(alone.expanded);
    }
    assert_eq!(w.stats().astar_expanded, total);
    let trace = w.trace().expect("the traced monster's search");
    assert_eq!(trace.start, w.monsters()[20].pos);
    assert_eq!(trace.expansions(), w.monsters()[20].plan.expanded);
}

#[test]
fn stranded_creatures_move_to_their_nearest_free_cells_in_one_pass() {
    // Three goblins side by side; a wall painted over all three cells and the two rows
    // around them.
    let l = level("#########\n#.......#\n#.ggg...#\n#.......#\n#......@#\n#########\n");
    let mut w = World::new(&l, 1);
    for y in 1..=3 {
        for x in 1..=4 {
            w.set_tile(Pos::new(x, y), Tile::Wall);
        }
    }
    let free: Vec<Pos> = (0..w.grid().len())
        .map(|i| w.grid().pos(i))
        .filter(|&p| w.is_free(p))
        .collect();
    let moved = w.relocate_stranded();
    assert_eq!(moved.len(), 3);
    // Each goes to a free cell as near as any (two of them two king moves away, the one
    // beside the open corridor one), and no two to the same cell.
    for &(_, from, to) in &moved {
        let to = to.expect("room enough");
        let nearest = free.iter().map(|p| p.chebyshev(from)).min().unwrap();
        assert_eq!(to.chebyshev(from), nearest, "{from} went to {to}");
    }
    let mut cells: Vec<Pos> = moved.iter().filter_map(|m| m.2).collect();
    cells.sort();
    cells.dedup();
    assert_eq!(cells.len(), 3);
    assert!(w.monsters().iter().all(|m| w.grid().is_passable(m.pos)));
    for m in w.monsters() {
        assert_eq!(w.monster_at(m.pos).map(|x| x.id), Some(m.id));
    }
}

#[test]
fn a_creature_with_no_free_cell_left_is_removed() {
    let l = level("#####\n#@.g#\n#####\n");
    let mut w = World::new(&l, 1);
    w.set_tile(Pos::new(2, 1), Tile::Wall);
    w.set_tile(Pos::new(3, 1), Tile::Wall);
    let moved = w.relocate_stranded();
    assert_eq!(moved.len(), 1);
    assert_eq!(moved[0].2, None);
    assert!(w.monsters().is_empty());
}

#[test]
fn nearest_free_cells_gives_each_start_its_own_cell() {
    let g = TileMap::from_rows(&["#######", "#.....#", "#######"]);
    let starts = [Pos::new(0, 0), Pos::new(0, 0), Pos::new(6, 2)];
    let found = nearest_free_cells(&g, &starts, |c| g.tiles()[c].is_passable());
    // Two creatures on one cell get two cells.
    assert_eq!(
        found,
        [
            Some(Pos::new(1, 1)),
            Some(Pos::new(2, 1)),
            Some(Pos::new(5, 1))
        ]
    );
    // Two walls facing each other across the corridor: the first takes the cell between
    // them; the second's wave meets the first's territory and takes the next free cell it
    // reaches round it (one pass: waves do not cross).
    let found = nearest_free_cells(&g, &[Pos::new(3, 0), Pos::new(3, 2)], |c| {
        g.tiles()[c].is_passable()
    });
    assert_eq!(found, [Some(Pos::new(3, 1)), Some(Pos::new(1, 1))]);
}

#[test]
fn a_fast_monster_moves_twice_and_plans_before_each_move() {
    // A rat (fast) and a goblin race down two corridors toward the player.
    let l =
        level("##############\n#@..........r#\n#.############\n#...........g#\n##############\n");
    let mut w = World::new(&l, 1);
    let rat = w.monsters()[0].id;
    let goblin = w.monsters()[1].id;
    let searches_before = w.run().searches;
    w.player_act(Act::Wait);
    assert_eq!(w.monster(rat).unwrap().pos, Pos::new(10, 1), "two steps");
    assert_eq!(w.monster(goblin).unwrap().pos, Pos::new(11, 3), "one step");
    // Three searches: one each up front, and the rat's second plan from its new cell.
    assert_eq!(w.stats().searches, 3);
    assert_eq!(w.run().searches - searches_before, 3);
    let plan = &w.monster(rat).unwrap().plan;
    assert_eq!(
        plan.path.first(),
        Some(&Pos::new(11, 1)),
        "planned from the cell it left"
    );
    // Next to the player it attacks twice a turn: two messages, folded when alike.
    let mut w = World::new(&level("#####\n#@r.#\n#####\n"), 4);
    w.player_act(Act::Wait);
    let hits: u32 = w
        .log()
        .iter()
        .filter(|m| m.text.starts_with("The rat hits you"))
        .map(|m| m.count)
        .sum();
    assert_eq!(hits, 2);
    assert_eq!(w.run().damage_taken, (PLAYER_HP - w.player().hp) as u32);
}

#[test]
fn no_search_is_made_ahead_from_a_cell_a_later_monster_holds() {
    // The left rat (id 1) plans through the goblin (id 3), which moves after it: the rat's
    // first move is blocked, so a second search from the goblin's cell would go unused.
    // The right rat's way is free.
    // (A nook beside it keeps it from being boxed in, where no search is made at all.)
    let l = level("######\n#.r#r#\n##g#.#\n##.#.#\n##.#.#\n#@...#\n######\n");
    let mut w = World::new(&l, 1);
    let ids: Vec<(char, u32)> = w.monsters().iter().map(|m| (m.kind, m.id)).collect();
    assert_eq!(ids, [('r', 1), ('r', 2), ('g', 3)]);
    // The traced monster's searches are made at its turn, never ahead.
    w.set_traced(None);
    w.plan_everyone(Spread {
        threads: 1,
        ahead: true,
    });
    assert!(
        !w.planner.searched_ahead(0),
        "no search ahead for the blocked rat"
    );
    assert!(w.planner.searched_ahead(1), "one for the free rat");
    assert!(
        !w.planner.searched_ahead(2),
        "none for the goblin (not fast)"
    );
    // And the turn plays as before: the blocked rat waits for the goblin to move on and
    // steps after it, on its first plan; the free one moves twice.
    w.player_act(Act::Wait);
    assert_eq!(w.monsters()[0].pos, Pos::new(2, 2));
    assert_eq!(w.monsters()[1].pos, Pos::new(4, 3));
    assert_eq!(w.monsters()[2].pos, Pos::new(2, 3));
}

#[test]
fn a_fast_monsters_second_plan_is_the_search_from_where_it_stands() {
    use crate::content::generate::{GenKind, GenParams, generate};
    use crate::engine::astar::Algorithm;
    // A crowd of rats, goblins and orcs on plain floor: planned on two threads, where the
    // rats' second searches are made ahead of their moves or not made at all.
    // Plain floor, and the cave's own water and brush, where monsters wade (a wading one's
    // first move is spent in its cell) and JPS hands every search to A*.
    for (terrain, planning) in [
        (Some(0), Planning::AStar),
        (Some(0), Planning::Jps),
        (None, Planning::AStar),
        (None, Planning::Jps),
    ] {
        let level = generate(&GenParams {
            kind: GenKind::Caves,
            width: 60,
            height: 30,
            seed: 9,
            monsters: 2 * PARALLEL_MIN_MONSTERS,
            density: None,
            terrain: terrain.map(crate::content::generate::Density::from_permille),
            // The first floor's kinds: none of them capped, so every plan is one search.
            depth: 1,
        })
        .unwrap();
        let mut w = World::new(&level, 2);
        w.set_planning(planning);
        let options = w.options().with_algorithm(match planning {
            Planning::Jps => Algorithm::Jps,
            _ => Algorithm::AStar,
        });
        let mut pf = Pathfinder::new();
        let mut rats = 0;
        for _ in 0..6 {
            if w.state() != GameState::Playing {
                break;
            }
            w.player_act(Act::Wait);
            for m in w.monsters() {
                if kinds::builtin(m.kind).speed == Speed::Fast {
                    if let Some((grid, o)) = own_search(&w, m, options) {
                        let q = Query::new(m.planned.0, m.planned.1).options(o);
                        assert_eq!(m.plan, pf.find(&grid, q), "{planning}: {} {}", m.kind, m.id);
                    }
                    // Planned where it stood before its second move, at most one step back.
                    let (from, at) = (m.planned.0, m.pos);
                    assert!(from.x.abs_diff(at.x) <= 1 && from.y.abs_diff(at.y) <= 1);
                    rats += 1;
                }
            }
        }
        assert!(rats > 100, "{planning}: {rats} rats' plans");
    }
}

#[test]
fn a_slow_monster_acts_on_even_turns_only() {
    let l = level("############\n#@........t#\n############\n");
    let mut w = World::new(&l, 1);
    let mut xs = vec![w.monsters()[0].pos.x];
    for _ in 0..6 {
        w.player_act(Act::Wait);
        xs.push(w.monsters()[0].pos.x);
    }
    // Turns 1, 3 and 5 it rests; 2, 4 and 6 it steps.
    assert_eq!(xs, [10, 10, 9, 9, 8, 8, 7]);
    // It still plans every turn (before moving), so the overlay and the panel show its path.
    assert_eq!(w.monsters()[0].plan.cost, Some(70));
    assert_eq!(w.stats().searches, 1);
}

#[test]
fn repeated_messages_fold_and_walls_say_so() {
    let l = level("####\n#@.#\n####\n");
    let mut w = World::new(&l, 1);
    for _ in 0..3 {
        assert_eq!(w.player_act(Act::Move(0, -1)), ActResult::Refused);
    }
    assert_eq!(w.turn(), 0, "bumping costs no turn");
    let last = w.log().last().unwrap();
    assert_eq!(
        (last.text.as_str(), last.count),
        ("A wall blocks your way.", 3)
    );
    assert_eq!(last.to_string(), "A wall blocks your way. x3");
    w.say("Something else.");
    w.say("A wall blocks your way.");
    assert_eq!(
        w.log().last().unwrap().to_string(),
        "A wall blocks your way."
    );
    let void = level("@.\n");
    let mut w = World::new(&void, 1);
    assert_eq!(w.player_act(Act::Move(-1, 0)), ActResult::Refused);
    assert_eq!(w.log().last().unwrap().text, "There is nothing that way.");
}

#[test]
fn potions_are_picked_up_and_drunk_and_wounds_close_slowly() {
    let l = level("########\n#@!....#\n########\n");
    let mut w = World::new(&l, 1);
    assert_eq!(w.player_act(Act::Drink), ActResult::Refused, "none carried");
    assert_eq!(w.player_act(Act::Move(1, 0)), ActResult::Acted);
    assert_eq!(w.player().potions, 1);
    assert_eq!(w.feature_at(Pos::new(2, 1)), None, "picked up");
    assert_eq!(w.player_act(Act::Drink), ActResult::Refused, "unhurt");
    assert_eq!(w.player().potions, 1);
    // Wounded: the potion heals, never past the start's hit points.
    w.player.hp = 5;
    let turn = w.turn();
    assert_eq!(w.player_act(Act::Drink), ActResult::Acted);
    assert_eq!(w.turn(), turn + 1);
    assert_eq!(w.player().hp, 5 + run::POTION_HEAL);
    assert_eq!((w.player().potions, w.run().potions_drunk), (0, 1));
    w.player.hp = PLAYER_HP - 3;
    w.player.potions = 1;
    w.player_act(Act::Drink);
    assert_eq!(w.player().hp, PLAYER_HP);
    // One hit point back every REGEN_TURNS turns.
    w.player.hp = 10;
    let start = w.turn();
    while w.turn() < start + 3 * run::REGEN_TURNS {
        w.player_act(Act::Wait);
    }
    assert_eq!(w.player().hp, 13);
    assert_eq!(w.run().healed, run::POTION_HEAL as u32 + 3 + 3);
}

#[test]
fn killing_the_last_monster_wins_a_floor_without_stairs() {
    let l = level("#####\n#@r.#\n#####\n");
    let mut w = World::new(&l, 2);
    while w.state() == GameState::Playing {
        w.player_act(Act::Move(1, 0));
        assert!(w.turn() < 20);
    }
    assert_eq!(w.state(), GameState::Won);
    assert!(w.monsters().is_empty());
    assert_eq!(w.run().kills, 1);
    assert_eq!(
        w.run().damage_dealt,
        3,
        "the rat's 3 HP, overkill not counted"
    );
    assert!(w.log().last().unwrap().text.contains("you win the run"));
    assert_eq!(
        w.player_act(Act::Wait),
        ActResult::Refused,
        "the run is over"
    );
    // A floor that starts empty is not won by waiting: nobody was killed.
    let mut w = World::new(&level("#####\n#@..#\n#####\n"), 1);
    w.player_act(Act::Wait);
    assert_eq!(w.state(), GameState::Playing);
}

#[test]
fn the_stairs_open_when_the_floor_is_clear_and_lead_to_the_next_floor() {
    let l = level("#######\n#@r.>!#\n#######\n");
    let mut w = World::new(&l, 9);
    assert!(w.has_stairs());
    assert_eq!(w.final_depth(), run::FINAL_DEPTH);
    assert!(w.goal().contains("open the stairs"));
    assert!(w.descend().is_none());
    assert_eq!(w.log().last().unwrap().text, "There are no stairs here.");
    // Kill the rat, walk onto the stairs.
    while !w.monsters().is_empty() {
        w.player_act(Act::Move(1, 0));
    }
    assert_eq!(w.state(), GameState::Playing, "the stairs open, no win yet");
    assert!(w.log().iter().any(|m| m.text.contains("stairs > are open")));
    while w.player().pos != Pos::new(4, 1) {
        w.player_act(Act::Move(1, 0));
    }
    w.player_act(Act::Move(1, 0));
    w.player_act(Act::Move(-1, 0));
    assert_eq!(w.player().potions, 1);
    w.player.hp = 17;
    let (turn, kills) = (w.turn(), w.run().kills);
    let level2 = w.descend().expect("the stairs down");
    assert_eq!(w.run().depth, 2);
    assert_eq!(w.turn(), turn + 1, "taking the stairs takes a turn");
    // Its messages, the new floor's welcome among them, carry the turn it ended on.
    let went = w
        .log()
        .iter()
        .rposition(|m| m.text.starts_with("You go down the stairs"));
    let said = &w.log()[went.expect("the stairs' message")..];
    assert!(said.iter().all(|m| m.turn == w.turn() && m.act), "{said:?}");
    assert_eq!(w.acted_turn(), w.turn());
    assert_eq!((w.player().hp, w.player().potions), (17, 1), "kept");
    assert_eq!(w.run().kills, kills);
    assert_eq!(
        level2,
        run::floor(9, 2).unwrap(),
        "the run's seed and the depth"
    );
    assert_eq!(w.grid(), &level2.grid);
    assert_eq!(Some(w.player().pos), level2.player);
    assert_eq!(w.monsters().len(), level2.monsters.len());
    assert_eq!(w.features(), level2.features.as_slice());
    // Ids go on from the first floor's.
    assert!(w.monsters().iter().all(|m| m.id > 1));
    // The player's start sees something, and nothing of the first floor is remembered.
    assert!(w.is_visible(w.player().pos));
    let far = (0..w.grid().len())
        .map(|c| w.grid().pos(c))
        .filter(|&p| !w.is_seen(p))
        .count();
    assert!(far > 0);
}

#[test]
fn the_last_floor_of_a_run_has_no_stairs_and_clearing_it_wins() {
    let l = run::floor(3, run::FINAL_DEPTH).unwrap();
    let mut w = World::new(&l, 3);
    assert!(!w.has_stairs());
    assert!(w.goal().contains("to win"));
    // Every monster removed but one, which the player then kills.
    let ids: Vec<u32> = w.monsters().iter().skip(1).map(|m| m.id).collect();
    for id in ids {
        w.remove_monster(id);
    }
    // The player steps in beside it (orthogonally: always a legal attack) and fights on,
    // healed each turn so that the fight's luck does not matter.
    let target = w.monsters()[0].pos;
    let (dx, dy) = DIRECTIONS[..4]
        .iter()
        .copied()
        .find(|&(dx, dy)| w.is_free(target.offset(-dx, -dy)))
        .unwrap();
    assert!(w.place_player_near(target.offset(-dx, -dy)));
    while w.state() == GameState::Playing {
        w.heal(PLAYER_HP);
        assert_eq!(w.player_act(Act::Move(dx, dy)), ActResult::Acted);
        assert!(w.turn() < 50);
    }
    assert_eq!(w.state(), GameState::Won);
}

#[test]
fn the_runs_figures_add_up() {
    let l = level(include_str!("../../../../levels/default.txt"));
    let mut w = World::new(&l, 5);
    let mut expanded = 0;
    for i in 0..60 {
        let (dx, dy) = DIRECTIONS[(i * 7) % 8];
        if w.player_act(Act::Move(dx, dy)) == ActResult::Acted {
            expanded += w.stats().astar_expanded;
        }
        if w.state() != GameState::Playing {
            break;
        }
    }
    let r = *w.run();
    assert!(r.damage_taken > 0);
    assert_eq!(
        w.player().hp,
        PLAYER_HP + r.healed as i32 - r.damage_taken as i32
    );
    assert_eq!(r.astar_expanded, expanded);
    let alive: i32 = w
        .monsters()
        .iter()
        .map(|m| crate::content::kinds::builtin(m.kind).hp - m.hp)
        .sum();
    let dead: Vec<char> = l
        .monsters
        .iter()
        .filter(|s| w.monster_from(s.pos).is_none())
        .map(|s| s.kind)
        .collect();
    assert_eq!(dead.len() as u32, r.kills);
    let dead_hp: i32 = dead
        .iter()
        .map(|&k| crate::content::kinds::builtin(k).hp)
        .sum();
    assert_eq!(r.damage_dealt as i32, alive + dead_hp);
}

#[test]
fn level_messages_show_at_the_start_and_once_on_their_cell() {
    let l = level(
        "message: Go east.\nmessage at 3,1: Halfway.\nmessage at 3,1: Still halfway.\n\
         message at 1,1: Back home.\n#######\n#@....#\n#######\n",
    );
    let mut w = World::new(&l, 1);
    let texts = |w: &World| -> Vec<String> { w.log().iter().map(|m| m.text.clone()).collect() };
    assert!(w.log().is_empty(), "nothing is said before the intro");
    assert_eq!(w.notes_left(), 4);
    w.say_intro();
    // The player starts on 1,1: that cell's message shows with the start's.
    assert_eq!(texts(&w), ["Go east.", "Back home."]);
    w.player_act(Act::Move(1, 0));
    assert_eq!(w.log().len(), 2, "no message on 2,1");
    w.player_act(Act::Move(1, 0));
    assert_eq!(
        texts(&w)[2..],
        ["Halfway.".to_string(), "Still halfway.".to_string()]
    );
    assert_eq!(w.notes_left(), 0);
    // Once read, a cell is quiet: back and forth says nothing more.
    w.player_act(Act::Move(-1, 0));
    w.player_act(Act::Move(1, 0));
    w.player_act(Act::Move(-1, 0));
    w.player_act(Act::Move(-1, 0));
    assert_eq!(w.player().pos, Pos::new(1, 1));
    assert_eq!(w.log().len(), 4);
}

#[test]
fn a_message_with_control_characters_is_escaped_in_the_log() {
    let mut l = level("###\n#@#\n###\n");
    l.notes = vec![crate::content::level::Note::new(None, "a\u{1b}[2Jb").unwrap()];
    let mut w = World::new(&l, 1);
    w.say_intro();
    assert_eq!(w.log()[0].text, "a\\u{1b}[2Jb");
    // Any line the log takes, whoever says it, and a repeat still folds.
    w.say("c\u{7}d\r");
    w.say("c\u{7}d\r");
    let last = w.log().last().unwrap();
    assert_eq!((last.text.as_str(), last.count), ("c\\u{7}d\\r", 2));
}

#[test]
fn a_monster_boxed_in_runs_no_search_and_moves_once_its_way_opens() {
    // A 3x3 block of goblins: the four with no free cell to step on are boxed in.
    let l = level("#########\n#@......#\n#....ggg#\n#....ggg#\n#....ggg#\n#########\n");
    let w = World::new(&l, 1);
    let boxed: Vec<Pos> = w
        .monsters()
        .iter()
        .filter(|m| m.boxed)
        .map(|m| m.pos)
        .collect();
    let expect = [(6, 3), (7, 3), (6, 4), (7, 4)].map(|(x, y)| Pos::new(x, y));
    assert_eq!(boxed, expect);
    assert_eq!(w.stats().searches, 5, "one search per monster not boxed in");
    assert!(
        w.monsters()
            .iter()
            .filter(|m| m.boxed)
            .all(|m| { m.plan.path.is_empty() && m.plan.expanded == 0 && m.plan.cost.is_none() })
    );

    // In a corridor the second goblin is boxed in by the first, which moves first: the
    // second follows in the same turn, by the path its search would have found up front.
    let l = level("########\n#@...gg#\n########\n");
    let mut w = World::new(&l, 1);
    assert_eq!(
        w.monsters().iter().map(|m| m.boxed).collect::<Vec<_>>(),
        [false, true]
    );
    w.player_act(Act::Wait);
    let cells: Vec<Pos> = w.monsters().iter().map(|m| m.pos).collect();
    assert_eq!(cells, [Pos::new(4, 1), Pos::new(5, 1)]);
    // The second's plan is the search it made once the first had moved, and it took its
    // first step; neither is boxed in now.
    let second = &w.monsters()[1];
    assert!(!second.boxed);
    assert_eq!(second.planned, (Pos::new(6, 1), w.player().pos));
    let alone = Pathfinder::new().find(
        w.grid().cost_grid(),
        Query::new(Pos::new(6, 1), w.player().pos),
    );
    assert_eq!(second.plan.path, alone.path);
    assert_eq!(second.plan.path[1], second.pos);
}

#[test]
fn showing_a_monsters_search_never_changes_its_plan() {
    // The goblin's way round the wall is longer than a cap of 20 expansions allows: it heads
    // for the node nearest the player its capped search reached.
    let l = level(concat!(
        "############\n",
        "#@.........#\n",
        "#########..#\n",
        "#..........#\n",
        "#.##########\n",
        "#.........g#\n",
        "############\n",
    ));
    for planning in [Planning::Capped(20), Planning::AStar] {
        let mut w = World::new(&l, 1);
        w.set_planning(planning);
        let id = w.monsters()[0].id;
        let plan = w.monsters()[0].plan.clone();
        w.set_traced(Some(id));
        assert_eq!(w.monsters()[0].plan, plan, "{planning}");
        let trace = w.trace().expect("the traced monster's search");
        assert_eq!(trace.expansions(), plan.expanded, "{planning}");
        if planning == Planning::Capped(20) {
            assert_eq!(plan.status, Status::CapReached);
            assert_eq!(plan.expanded, 20);
        }
        // The same after a turn, when the monster stands a step beyond where it planned.
        w.player_act(Act::Wait);
        assert_ne!(w.monsters()[0].pos, w.monsters()[0].planned.0, "{planning}");
        let plan = w.monsters()[0].plan.clone();
        w.set_traced(None);
        w.set_traced(Some(id));
        assert_eq!(w.monsters()[0].plan, plan, "{planning} after a turn");
    }
}

#[test]
fn attacking_in_place_hits_without_moving_and_an_empty_cell_costs_no_turn() {
    let l = level("#######\n#@.g..#\n#######\n");
    let mut w = World::new(&l, 1);
    assert_eq!(w.player_act(Act::Attack(1, 0)), ActResult::Refused);
    assert_eq!((w.turn(), w.player().pos), (0, Pos::new(1, 1)));
    assert_eq!(
        w.log().last().unwrap().text,
        "There is nothing there to attack."
    );
    // The goblin steps next to the player; the blow lands and the player stays put.
    w.player_act(Act::Wait);
    assert_eq!(w.monsters()[0].pos, Pos::new(2, 1));
    assert_eq!(w.player_act(Act::Attack(1, 0)), ActResult::Acted);
    assert_eq!(w.player().pos, Pos::new(1, 1));
    assert!(w.monsters().first().is_none_or(|m| m.hp < 6));
}

#[test]
fn falling_below_a_third_warns_once_and_death_names_the_killer() {
    let l = level("#####\n#@t.#\n#####\n");
    let mut w = World::new(&l, 3);
    while w.state() == GameState::Playing {
        w.player_act(Act::Wait);
        assert!(w.turn() < 100);
    }
    let warnings: Vec<&Message> = w.log().iter().filter(|m| m.urgent).collect();
    assert_eq!(warnings.len(), 1, "{:?}", w.log());
    assert!(warnings[0].text.starts_with("You are badly hurt: HP "));
    assert_eq!(w.run().killer, Some('t'));
}

#[test]
fn jump_point_search_planning_gives_every_monster_an_optimal_plan_for_fewer_nodes() {
    use crate::content::generate::{GenKind, GenParams, generate};
    use crate::engine::astar::{Algorithm, SearchOptions};
    let level = generate(&GenParams {
        kind: GenKind::Caves,
        width: 80,
        height: 40,
        seed: 4,
        monsters: 3 * PARALLEL_MIN_MONSTERS,
        density: None,
        // Plain floor: on weighted terrain JPS hands over to A*.
        terrain: Some(crate::content::generate::Density::from_permille(0)),
        // The first floor's kinds: none of them capped, so every plan is one search.
        depth: 1,
    })
    .unwrap();
    let mut w = World::new(&level, 4);
    w.set_planning(Planning::Jps);
    w.planner.trace_next(Some(w.monsters()[20].id));
    w.replan_on(3);
    let mut pf = Pathfinder::new();
    let jps = SearchOptions::default().with_algorithm(Algorithm::Jps);
    let (mut jps_nodes, mut astar_nodes, mut all_nodes) = (0u64, 0u64, 0u64);
    for m in w.monsters() {
        let Some((grid, o)) = own_search(&w, m, SearchOptions::default()) else {
            all_nodes += u64::from(m.plan.expanded);
            continue;
        };
        let q = Query::new(m.pos, w.player().pos).options(o);
        let by_astar = pf.find(&grid, q);
        // Each plan is the engine's JPS from where the monster stands (A* where its kind's
        // search is not JPS's: weighted): A*'s cost.
        let jps = o.with_algorithm(jps.algorithm);
        assert_eq!(m.plan, pf.find(&grid, q.options(jps)));
        assert_eq!(
            (m.plan.status, m.plan.cost),
            (by_astar.status, by_astar.cost)
        );
        // Kinds JPS does not apply to (4-way, weighted) ran A* in its place: the figures
        // compare the searches that jumped.
        if o.jps_fallback().is_none() {
            jps_nodes += u64::from(m.plan.expanded);
            astar_nodes += u64::from(by_astar.expanded);
        }
        all_nodes += u64::from(m.plan.expanded);
    }
    assert_eq!(w.stats().astar_expanded, all_nodes);
    assert!(
        jps_nodes * 3 < astar_nodes,
        "JPS {jps_nodes} nodes, A* {astar_nodes}"
    );
    let trace = w.trace().expect("the traced monster's search");
    assert_eq!(trace.options.algorithm, Algorithm::Jps);
    assert_eq!(trace.expansions(), w.monsters()[20].plan.expanded);
    // The mode parses, prints and cycles back to A*.
    assert_eq!("jps".parse(), Ok(Planning::Jps));
    assert_eq!(Planning::Jps.to_string(), "jps");
    assert_eq!(Planning::Map.next(), Planning::Jps);
    assert_eq!(Planning::Jps.next(), Planning::AStar);
    // And the game plays on under it: monsters close in.
    let before = w.monsters()[0].plan.cost;
    w.player_act(Act::Wait);
    assert!(w.monsters()[0].plan.cost <= before);
}

#[test]
fn a_step_into_water_takes_three_turns_and_the_log_says_so_once() {
    let l = level("########\n#@~~.~.#\n########\n");
    let mut w = World::new(&l, 1);
    assert_eq!(w.player_act(Act::Move(1, 0)), ActResult::Acted);
    assert_eq!(w.turn(), 3);
    let wading = |w: &World| {
        w.log()
            .iter()
            .filter(|m| m.text.starts_with("You wade"))
            .count()
    };
    assert_eq!(wading(&w), 1);
    let said = w.log().last().unwrap();
    assert_eq!(
        said.text,
        "You wade into the water: each step into it takes 3 turns, for monsters too."
    );
    assert_eq!(said.turn, 3, "stamped with the turn the whole step ends on");
    w.player_act(Act::Move(1, 0));
    assert_eq!(w.turn(), 6);
    w.player_act(Act::Move(1, 0));
    assert_eq!(w.turn(), 7, "back on floor: one turn");
    w.player_act(Act::Move(1, 0));
    assert_eq!(w.turn(), 10);
    assert_eq!(wading(&w), 1, "said once");
    // Brush weighs 2; a cost header changes it.
    let l = level("cost: \" 4\n#####\n#@\".#\n#####\n");
    let mut w = World::new(&l, 1);
    w.player_act(Act::Move(1, 0));
    assert_eq!(w.turn(), 4);
}

#[test]
fn a_monster_goes_round_the_pond_when_that_is_quicker_and_wades_when_it_is_not() {
    // Through the pond: three water cells, 90 + 10. Round it: 68.
    let l = level("#######\n#..g..#\n#.~~~.#\n#.~~~.#\n#.~~~.#\n#..@..#\n#######\n");
    let mut w = World::new(&l, 1);
    let plan = w.monsters()[0].plan.clone();
    assert_eq!(plan.cost, Some(68));
    assert!(plan.path.iter().all(|&p| w.grid().get(p) != Tile::Water));
    for _ in 0..5 {
        w.player_act(Act::Wait);
        assert_ne!(w.grid().get(w.monsters()[0].pos), Tile::Water);
    }
    assert_eq!(w.monsters()[0].pos.chebyshev(w.player().pos), 1);
    // A goblin that must cross: each step into the water holds it three turns.
    let l = level("#########\n#g~~~@..#\n#########\n");
    let mut w = World::new(&l, 1);
    let mut cells = Vec::new();
    for _ in 0..7 {
        w.player_act(Act::Wait);
        cells.push(w.monsters()[0].pos.x);
    }
    assert_eq!(cells, [2, 2, 2, 3, 3, 3, 4]);
}

#[test]
fn map_planning_rolls_down_a_weighted_map() {
    let l = level("#######\n#..g..#\n#.~~~.#\n#.~~~.#\n#.~~~.#\n#..@..#\n#######\n");
    let mut w = World::new(&l, 1);
    w.set_planning(Planning::Map);
    assert_eq!(w.monsters()[0].plan.cost, Some(68));
    for _ in 0..5 {
        w.player_act(Act::Wait);
        assert_ne!(w.grid().get(w.monsters()[0].pos), Tile::Water);
    }
    assert_eq!(w.monsters()[0].pos.chebyshev(w.player().pos), 1);
}

#[test]
fn an_act_and_the_monsters_answers_share_the_turn_the_act_ends_on() {
    let l = level("######\n#@o..#\n######\n");
    let mut w = World::new(&l, 2);
    // The orc (10 HP) outlives two blows of at most 5.
    for turn in 0..2 {
        assert_eq!(w.turn(), turn);
        let before = w.log().len();
        assert_eq!(w.player_act(Act::Attack(1, 0)), ActResult::Acted);
        let said = &w.log()[before..];
        assert!(said[0].text.starts_with("You hit the orc"), "{said:?}");
        assert!(said[1].text.starts_with("The orc hits you"), "{said:?}");
        // The turn the panel shows once the act is over.
        assert!(said.iter().all(|m| m.turn == turn + 1 && m.act), "{said:?}");
        assert_eq!(w.acted_turn(), turn + 1);
    }
    // A refusal answers a key, not a turn: stamped with the turn the panel shows then, and
    // not part of an act's paragraph.
    w.player_act(Act::Attack(0, 1));
    let refused = w.log().last().unwrap();
    assert_eq!((refused.turn, refused.act), (w.turn(), false));
    assert_eq!(w.acted_turn(), 2);
}

#[test]
fn the_badly_hurt_warning_gives_the_hit_points_at_the_end_of_the_turn() {
    // The troll's blow lands on a regeneration turn: the figure said is the one after it.
    let l = level("#####\n#@t.#\n#####\n");
    let mut checked = 0;
    for seed in 0..200 {
        let mut w = World::new(&l, seed);
        while w.state() == GameState::Playing {
            let before = w.log().len();
            w.player_act(Act::Wait);
            for m in w.log()[before..].iter().filter(|m| m.urgent) {
                let hp = w.player().hp;
                assert_eq!(
                    m.text,
                    format!(
                        "You are badly hurt: HP {hp}/{PLAYER_HP}; no potion left: get clear, then rest (Z)."
                    )
                );
                checked += usize::from(w.turn().is_multiple_of(run::REGEN_TURNS));
            }
        }
        if checked > 0 {
            return;
        }
    }
    panic!("no seed warned on a regeneration turn");
}

#[test]
fn advice_is_worded_again_with_other_keys_and_its_text_keeps_the_tables() {
    let mut w = World::new(&level("#####\n#@.g#\n#####\n"), 1);
    w.advise("You are badly hurt: HP 9/30; ", Advice::DrinkOrRest);
    w.advise("You are badly hurt: HP 9/30; ", Advice::DrinkOrRest);
    let m = w.log().last().unwrap();
    assert_eq!(
        m.text,
        "You are badly hurt: HP 9/30; drink a potion (!), or get clear and rest (Z)."
    );
    assert_eq!(m.count, 2, "said again, it folds");
    struct Mine;
    impl KeyNames for Mine {
        fn command(&self, c: Command) -> String {
            match c {
                Command::Drink => "F6".to_string(),
                Command::Rest => "C-r".to_string(),
                other => other.table_key().to_string(),
            }
        }
        fn rebound(&self, key: &str) -> Option<String> {
            (key == "l").then(|| "t".to_string())
        }
    }
    let mine = &Mine;
    assert_eq!(
        m.worded(mine),
        "You are badly hurt: HP 9/30; drink a potion (F6), or get clear and rest (C-r)."
    );
    assert_eq!(m.worded(&TableKeys), m.text);
    // A head the log escapes: the advice is still found where it begins.
    w.advise("Hurt\u{1b}[2J: ", Advice::Rest);
    assert_eq!(
        w.log().last().unwrap().worded(mine),
        "Hurt\\u{1b}[2J: no potion left: get clear, then rest (C-r)."
    );
    w.say("plain `l`");
    assert_eq!(w.log().last().unwrap().worded(mine), "plain `l`");
}

#[test]
fn a_levels_marked_keys_show_unmarked_and_a_view_names_its_own() {
    let l = level("message: Walk east with `l`; `Z` rests. A lone ` stays.\n#####\n#@.g#\n#####\n");
    let mut w = World::new(&l, 1);
    w.say_intro();
    let m = w.log().last().unwrap();
    assert_eq!(m.text, "Walk east with l; Z rests. A lone ` stays.");
    struct Mine;
    impl KeyNames for Mine {
        fn command(&self, c: Command) -> String {
            c.table_key().to_string()
        }
        fn rebound(&self, key: &str) -> Option<String> {
            (key == "l").then(|| "t".to_string())
        }
    }
    assert_eq!(
        m.worded(&Mine),
        "Walk east with t; Z rests. A lone ` stays."
    );
    assert_eq!(m.worded(&TableKeys), m.text);
    assert_eq!(
        w.lesson(),
        Some("Walk east with `l`; `Z` rests. A lone ` stays.")
    );
    assert_eq!(
        name_keys(w.lesson().unwrap(), &Mine),
        "Walk east with t; Z rests. A lone ` stays."
    );
}

/// The log's lines of monsters hitting the player.
fn hits_on(w: &World) -> Vec<&Message> {
    w.log()
        .iter()
        .filter(|m| m.text.contains("hits you"))
        .collect()
}

#[test]
fn hits_fold_only_from_one_monster_in_one_turn() {
    // Two orcs beside the player, one on each side: find a seed where both hit for the same
    // damage in one turn (the dice decide), and the two hits stay two lines.
    let two = level("#####\n#o@o#\n#####\n");
    let same_turn = (0..200u64).find_map(|seed| {
        let mut w = World::new(&two, seed);
        w.player_act(Act::Wait);
        let hits: Vec<&Message> = w
            .log()
            .iter()
            .filter(|m| m.text.contains("hits you"))
            .collect();
        (hits.len() == 2 && hits[0].text == hits[1].text).then_some(w)
    });
    let w = same_turn.expect("some seed gives both orcs the same damage");
    let hits = hits_on(&w);
    assert!(hits.iter().all(|m| m.count == 1), "{hits:?}");
    assert_ne!(hits[0].who, hits[1].who);
    // One orc hitting for the same damage on two turns: two lines, each with its turn.
    let one = level("####\n#o@#\n####\n");
    let w = (0..200u64)
        .find_map(|seed| {
            let mut w = World::new(&one, seed);
            w.player_act(Act::Wait);
            w.player_act(Act::Wait);
            let hits = hits_on(&w);
            (hits.len() == 2 && hits[0].text == hits[1].text).then_some(w)
        })
        .expect("some seed gives the orc the same damage twice");
    let hits = hits_on(&w);
    assert_eq!(hits.iter().map(|m| m.turn).collect::<Vec<_>>(), [1, 2]);
    assert!(hits.iter().all(|m| m.count == 1));
}

mod plans;

/// On a big map the kinds' grids are made while another thread counts the map's regions
/// (`World::keep_views_counting_regions`): every kind then searches a grid of its own costs
/// on the map as it stands, and the turn's figures count the player's region, as when both
/// are made one after the other.
#[test]
fn views_made_beside_the_region_count_are_the_map_s() {
    let (w, h) = (260, 260);
    let mut text = String::from("title: big\nmap:\n");
    for y in 0..h {
        let row: String = (0..w)
            .map(|x| match (x, y) {
                (0, _) | (_, 0) => '#',
                _ if x == w - 1 || y == h - 1 => '#',
                (1, 1) => '@',
                (200, 200) => 'd',
                (150, 40) => 'r',
                _ if x == 128 && y > 20 => '#',
                _ if (x + y) % 17 == 0 => '~',
                _ if (x * y) % 23 == 0 => '"',
                _ => '.',
            })
            .collect();
        text.push_str(&row);
        text.push('\n');
    }
    let mut world = World::new(&level(&text), 3);
    // A kind new to the map: its grid is made on the next plan of everyone, beside the count.
    world
        .add_monster(Pos::new(60, 200), 'n', None)
        .expect("room there");
    world.replan_on(2);
    let map = world.grid();
    let weights = map.weights();
    for kind in ['d', 'r', 'n'] {
        let table = map.effective(map.kind(kind).search.costs.table(weights));
        let view = map.grid_for(&table).expect("a grid for every kind in play");
        assert_eq!(view, &map.view_of(&table), "{kind}'s grid");
    }
    let regions = Regions::compute(map.cost_grid(), world.options().neighbourhood);
    let mine = regions.label(map.index(world.player().pos).expect("on the map"));
    assert_eq!(
        world.stats().dijkstra_expanded,
        u64::from(regions.size(mine))
    );
}
