//! The search lab: the same query as `path` gives the same numbers, the open list's first
//! entry is always the node expanded next, and the mouse and keys move the ends and walls.

use crate::common;

use std::path::Path;
use std::process::Command;

use astar_rogue::app::App;
use astar_rogue::app::screen::screen_cell;
use astar_rogue::content::level::Level;
use astar_rogue::content::map::Tile;
use astar_rogue::engine::astar::{self, Pathfinder, SearchOptions};
use astar_rogue::engine::grid::Pos;
use astar_rogue::view::summary;
use serde_json::Value;

/// `path --json` with `args` on `level`: (status, cost, expanded).
fn cli_path(level: &str, args: &[&str]) -> (String, Option<u64>, u64) {
    let out = Command::new(env!("CARGO_BIN_EXE_astar-rogue"))
        .args(["path", level, "--json"])
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run path");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    (
        v["status"].as_str().unwrap().to_string(),
        v["cost"].as_u64(),
        v["expanded"].as_u64().unwrap(),
    )
}

/// The options `path` takes for the same arguments.
fn options(args: &[&str]) -> SearchOptions {
    let mut o = SearchOptions::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match *a {
            "--heuristic" => o.heuristic = it.next().unwrap().parse().unwrap(),
            "--neighbours" => o.neighbourhood = it.next().unwrap().parse().unwrap(),
            "--weight" => o.weight = it.next().unwrap().parse().unwrap(),
            "--cap" => o.cap = Some(it.next().unwrap().parse().unwrap()),
            "--greedy" => o.greedy = true,
            other => panic!("no such option in this test: {other}"),
        }
    }
    o
}

/// A level, its endpoints (`None`: `path`'s defaults) and `path`'s option arguments.
type Query = (&'static str, Option<(Pos, Pos)>, &'static [&'static str]);

fn lab_app(level: &str, from: Pos, to: Pos, o: SearchOptions) -> App {
    let mut a = common::app(Path::new(level), 1, (100, 32));
    a.open_lab(from, to, o, None);
    a
}

#[test]
fn the_lab_and_path_agree_on_every_query() {
    let queries: &[Query] = &[
        ("levels/pillar.txt", None, &[]),
        ("levels/bracket.txt", None, &[]),
        ("levels/bracket.txt", None, &["--heuristic", "zero"]),
        ("levels/bracket.txt", None, &["--weight", "2"]),
        ("levels/bracket.txt", None, &["--greedy"]),
        (
            "levels/default.txt",
            None,
            &["--neighbours", "4", "--heuristic", "manhattan"],
        ),
        (
            "levels/default.txt",
            Some((Pos::new(1, 1), Pos::new(55, 19))),
            &[],
        ),
        (
            "levels/default.txt",
            Some((Pos::new(1, 1), Pos::new(55, 19))),
            &["--cap", "50"],
        ),
        (
            "levels/default.txt",
            Some((Pos::new(3, 8), Pos::new(1, 1))),
            &["--heuristic", "euclidean"],
        ),
    ];
    for &(level, ends, args) in queries {
        let mut cli_args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let (from, to) = match ends {
            Some((f, t)) => {
                cli_args.extend(["--from".into(), f.to_string(), "--to".into(), t.to_string()]);
                (f, t)
            }
            None => {
                let (l, _) = Level::load(&common::repo(level)).unwrap();
                (l.monsters[0].pos, l.player.unwrap())
            }
        };
        let refs: Vec<&str> = cli_args.iter().map(String::as_str).collect();
        let (status, cost, expanded) = cli_path(level, &refs);
        let a = lab_app(level, from, to, options(args));
        let lab = a.screen().lab().expect("the lab is open");
        let r = &lab.searches[0].result;
        let what = format!("{level} {args:?}");
        assert_eq!(
            astar_rogue::content::searches::status_name(r.status),
            status,
            "{what}"
        );
        assert_eq!(r.cost.map(u64::from), cost, "{what}");
        assert_eq!(u64::from(r.expanded), expanded, "{what}");
        // The panel prints the summary `path` prints.
        let frame = common::frame(&mut lab_app(level, from, to, options(args)), "");
        let line = summary(r, from, to);
        let flat: String = frame.split_whitespace().collect::<Vec<_>>().join(" ");
        let words: Vec<&str> = line.split_whitespace().collect();
        assert!(
            flat.contains(&words[..4].join(" ")),
            "{what}: {line}\n{frame}"
        );
        assert!(
            flat.contains(&format!("expanded {expanded},")),
            "{what}: {line}\n{frame}"
        );
    }
}

#[test]
fn the_open_lists_first_entry_is_always_the_next_expansion() {
    for (level, args) in [
        ("levels/default.txt", &[][..]),
        ("levels/default.txt", &["--heuristic", "manhattan"][..]),
        ("levels/default.txt", &["--weight", "1.5"][..]),
        (
            "levels/default.txt",
            &["--neighbours", "4", "--heuristic", "zero"][..],
        ),
        ("levels/bracket.txt", &["--greedy"][..]),
        (
            "levels/bracket.txt",
            &["--neighbours", "8cut", "--heuristic", "chebyshev"][..],
        ),
    ] {
        let (l, _) = Level::load(&common::repo(level)).unwrap();
        // From the monster furthest from the player: a search long enough to step through.
        let to = l.player.unwrap();
        let from = l
            .monsters
            .iter()
            .map(|m| m.pos)
            .max_by_key(|p| p.chebyshev(to))
            .unwrap();
        let a = lab_app(level, from, to, options(args));
        let lab = a.screen().lab().unwrap();
        let trace = &lab.searches[0].trace;
        assert!(trace.expansions() > 10);
        for step in 0..trace.expansions() {
            let next = trace
                .expansion(step + 1, lab.grid.cost_grid())
                .unwrap()
                .node;
            let snap = trace.snapshot(step);
            assert_eq!(
                snap.open_list().first().map(|n| n.pos),
                Some(next),
                "{level} {args:?} step {step}"
            );
        }
    }
}

#[test]
fn the_mouse_sets_the_ends_and_paints_walls_on_the_labs_own_map() {
    let mut a = lab_app(
        "levels/pillar.txt",
        Pos::new(2, 3),
        Pos::new(6, 3),
        SearchOptions::default(),
    );
    let (c, r) = screen_cell(&a, Pos::new(0, 0)).unwrap();
    common::frame(&mut a, &format!("click:{c},{r}"));
    let (c, r) = screen_cell(&a, Pos::new(7, 5)).unwrap();
    common::frame(&mut a, &format!("rclick:{c},{r}"));
    let lab = a.screen().lab().unwrap();
    assert_eq!((lab.start, lab.goal), (Pos::new(0, 0), Pos::new(7, 5)));
    assert_eq!(lab.searches[0].trace.start, Pos::new(0, 0));
    // A drag moves the start along.
    let (c2, r2) = screen_cell(&a, Pos::new(1, 1)).unwrap();
    let (c0, r0) = screen_cell(&a, Pos::new(0, 0)).unwrap();
    common::frame(
        &mut a,
        &format!("click:{c0},{r0} drag:{c2},{r2} release:{c2},{r2}"),
    );
    assert_eq!(a.screen().lab().unwrap().start, Pos::new(1, 1));
    // e: the mouse paints walls; the search reruns; the game's map is untouched.
    let before = a.screen().lab().unwrap().searches[0].result.clone();
    let (c, r) = screen_cell(&a, Pos::new(3, 3)).unwrap();
    let (cd, rd) = screen_cell(&a, Pos::new(3, 5)).unwrap();
    common::frame(
        &mut a,
        &format!("e click:{c},{r} drag:{cd},{rd} release:{cd},{rd}"),
    );
    let lab = a.screen().lab().unwrap();
    for y in 3..=5 {
        assert_eq!(lab.grid.get(Pos::new(3, y)), Tile::Wall);
    }
    assert_ne!(lab.searches[0].result, before, "the search ran again");
    assert_eq!(
        a.world().grid().get(Pos::new(3, 4)),
        Tile::Floor,
        "the game's map is its own"
    );
    // Leaving returns to the game as it was.
    common::frame(&mut a, "L");
    assert!(a.screen().lab().is_none());
    assert_eq!(a.screen().mode(), astar_rogue::app::Mode::Play);
    assert_eq!(a.world().turn(), 0);
}

#[test]
fn side_by_side_steps_in_lockstep_with_counts_of_its_own() {
    let mut a = lab_app(
        "levels/bracket.txt",
        Pos::new(6, 5),
        Pos::new(12, 7),
        SearchOptions::default(),
    );
    common::frame(&mut a, "c { 10*]");
    let lab = a.screen().lab().unwrap();
    assert_eq!(lab.searches.len(), 2);
    assert_eq!(lab.searches[1].options.heuristic.to_string(), "zero");
    let a_star = a.screen().lab_snapshot(0, a.ui().overlay()).unwrap();
    let dijkstra = a.screen().lab_snapshot(1, a.ui().overlay()).unwrap();
    assert_eq!((a_star.step, dijkstra.step), (10, 10));
    assert!(lab.searches[1].result.expanded > lab.searches[0].result.expanded);
    // Then greedy, which expands fewer than A* here.
    common::frame(&mut a, "c c c");
    let lab = a.screen().lab().unwrap();
    assert!(lab.searches[1].options.greedy);
    assert!(lab.searches[1].result.expanded < lab.searches[0].result.expanded);
    // Then Jump Point Search: the same cost for far fewer nodes, every one a jump point
    // opened from the end of a run.
    common::frame(&mut a, "c");
    let lab = a.screen().lab().unwrap();
    let (a_star, jps) = (&lab.searches[0].result, &lab.searches[1].result);
    assert_eq!(lab.searches[1].options.algorithm.to_string(), "jps");
    assert_eq!((jps.cost, jps.fallback), (a_star.cost, None));
    assert!(
        jps.expanded * 5 < a_star.expanded,
        "{} vs {}",
        jps.expanded,
        a_star.expanded
    );
    let end = a.screen().lab_snapshot(1, a.ui().overlay()).unwrap();
    assert_eq!(end.path, jps.path, "the path along the runs");
    // Then the fewest steps: on this map, without water or brush, A*'s own path.
    common::frame(&mut a, "c");
    let lab = a.screen().lab().unwrap();
    assert!(lab.searches[1].fewest_steps);
    assert_eq!(lab.searches[1].result, lab.searches[0].result);
    common::frame(&mut a, "c");
    assert_eq!(
        a.screen().lab().unwrap().searches.len(),
        1,
        "c after fewest steps: back to one"
    );
}

/// The lab's border shows the level's title as the map's does: control characters escaped,
/// so a title from a file can never drive the terminal.
#[test]
fn the_labs_title_escapes_control_characters() {
    let dir = common::Scratch::new();
    let level = dir.write("evil.txt", "title: \x1b[2JEvil\x07\n@.g\n");
    let mut app = common::app(&level, 1, (60, 12));
    let play = common::frame(&mut app, "snap");
    let lab = common::frame(&mut app, "L snap");
    for frame in [&play, &lab] {
        assert!(!frame.contains(['\x1b', '\x07']), "{frame}");
    }
    assert!(play.contains(r"\u{1b}[2JEvil\u{7}"), "{play}");
    assert!(lab.contains(r"Lab: \u{1b}[2JEvil\u{7}"), "{lab}");
}

/// The lab opened from a monster's search searches as that monster's kind, as the overlay
/// showed it: the naga's way straight across the pond, at its own cost; a kind that
/// searches as plain A* does on the map is left plain.
#[test]
fn the_lab_opened_from_a_monsters_search_searches_as_its_kind() {
    let mut a = common::app(Path::new("levels/kinds.txt"), 1, (100, 30));
    // Tab picks by id: the rat, then the naga in the pond.
    common::frame(&mut a, "Tab");
    let naga = a
        .ui()
        .selected()
        .and_then(|id| a.world().monster(id))
        .unwrap();
    assert_eq!(naga.kind, 'n');
    let (plan, at) = (naga.plan.cost, naga.pos);
    common::frame(&mut a, "o L");
    let lab = a.screen().lab().expect("the lab");
    assert_eq!((lab.kind, lab.start), (Some('n'), at));
    assert_eq!(lab.searches[0].result.cost, plan);
    // The same query searched plainly pays the water thrice.
    let plain =
        Pathfinder::new().find(lab.grid.cost_grid(), astar::Query::new(lab.start, lab.goal));
    assert!(
        plain.cost > plan,
        "plain {:?}, the naga {plan:?}",
        plain.cost
    );
    // The goblin's search is the player's own on this map: its lab is plain.
    common::frame(&mut a, "L");
    let goblin = a
        .world()
        .monsters()
        .iter()
        .find(|m| m.kind == 'g')
        .unwrap()
        .id;
    while a.ui().selected() != Some(goblin) {
        common::frame(&mut a, "Tab");
    }
    common::frame(&mut a, "L");
    assert_eq!(a.screen().lab().expect("the lab").kind, None);
}

/// `path --kind` and `lab --kind` refuse a start or goal the kind cannot enter, as they
/// refuse a wall, before anything else (the lab before it needs a terminal).
#[test]
fn a_kind_cannot_search_to_a_cell_it_cannot_enter() {
    for cmd in ["path", "lab"] {
        let out = Command::new(env!("CARGO_BIN_EXE_astar-rogue"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args([cmd, "levels/kinds.txt", "--kind", "rat"])
            .args(["--from", "20,2", "--to", "8,5"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{cmd}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr).trim_end(),
            "invalid goal 8,5: a cell the rat cannot enter",
            "{cmd}"
        );
    }
}
