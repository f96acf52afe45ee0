//! Learning beyond the lab's stepping: casts of scripts that a terminal player ends on
//! `script`'s last frame, `path --ties` against a plain Dijkstra's cost, the optimal cost
//! beside an overestimating search's, and the quiz played through whole searches.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use astar_rogue::app::lab::Lab;
use astar_rogue::app::quiz::judge;
use astar_rogue::content::level::Level;
use astar_rogue::content::searches;
use astar_rogue::engine::astar::{Heuristic, SearchOptions, Weight};
use astar_rogue::engine::dijkstra::DistanceMap;
use astar_rogue::engine::grid::{Neighbourhood, Pos};
use astar_rogue::frontend::cast;
use astar_rogue::frontend::script::{self, Frames, Output, RunOptions};
use serde_json::Value;

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_astar-rogue"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

/// The last frame `script` prints for the script at `path`, as rows of text with trailing
/// blanks cut (its styles, when it prints them, left out).
fn last_frame(path: &Path, options: &RunOptions) -> Vec<String> {
    let mut out = Vec::new();
    let options = RunOptions {
        output: Output {
            frames: Frames::Last,
            state: false,
        },
        ..options.clone()
    };
    script::run_file(path, &options, &mut out).expect("the script runs");
    let text = String::from_utf8(out).expect("UTF-8");
    let rows: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("--- frame last"))
        .skip(1)
        .take_while(|l| !l.starts_with("--- styles"))
        .collect();
    rows.iter().map(|r| r.trim_end().to_string()).collect()
}

/// A cast's header and its events, checked for the format: one JSON header line with
/// version 2, then `[time, kind, text]` events in time order.
fn read_cast(bytes: &[u8]) -> (Value, Vec<(f64, String, String)>) {
    let text = std::str::from_utf8(bytes).expect("a cast is UTF-8");
    let mut lines = text.lines();
    let header: Value = serde_json::from_str(lines.next().expect("a header")).expect("JSON");
    assert_eq!(header["version"], 2, "{header}");
    let mut events = Vec::new();
    let mut last = 0.0;
    for line in lines {
        let e: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        let t = e[0].as_f64().expect("a time");
        assert!(t >= last, "events out of time order: {t} after {last}");
        last = t;
        let kind = e[1].as_str().expect("a kind").to_string();
        assert!(kind == "o" || kind == "r", "{line}");
        events.push((t, kind, e[2].as_str().expect("text").to_string()));
    }
    (header, events)
}

/// The screen a terminal emulator shows after playing a cast's events, rows with trailing
/// blanks cut.
fn play_cast(header: &Value, events: &[(f64, String, String)]) -> Vec<String> {
    let size = |w: u64| std::num::NonZeroU16::new(w as u16).expect("a size");
    let (mut cols, rows) = (
        header["width"].as_u64().unwrap(),
        header["height"].as_u64().unwrap(),
    );
    let mut p = vt100::Parser::new(size(rows), size(cols), 0);
    for (_, kind, text) in events {
        if kind == "r" {
            let (w, h) = text.split_once('x').expect("WxH");
            cols = w.parse().unwrap();
            p.set_size(size(h.parse().unwrap()), size(cols));
        } else {
            p.process(text.as_bytes());
        }
    }
    p.screen()
        .rows(0, cols as u16)
        .map(|r| r.trim_end().to_string())
        .collect()
}

#[test]
fn every_scripts_cast_ends_on_the_frame_script_prints() {
    // Every snapshot script: the lab, autoplay and travel's ticks, resizes down to 1x1,
    // colours and styles, the help and the end screens.
    let dir = common::repo("tests/scripts");
    let mut scripts: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "keys"))
        .collect();
    scripts.sort();
    assert!(scripts.len() > 40);
    for path in &scripts {
        let options = RunOptions::default();
        let bytes = cast::render(path, &options, cast::INPUT_MS).expect("cast");
        let (header, events) = read_cast(&bytes);
        let s = script::load(path).unwrap();
        let (w, h) = s.header.size.unwrap_or((80, 24));
        assert_eq!(
            (header["width"].as_u64(), header["height"].as_u64()),
            (Some(u64::from(w)), Some(u64::from(h))),
            "{}",
            path.display()
        );
        let shown = play_cast(&header, &events);
        let want = last_frame(path, &options);
        assert_eq!(shown, want, "{}", path.display());
    }
}

#[test]
fn a_cast_paces_inputs_and_ticks_and_takes_the_scripts_flags() {
    let dir = common::Scratch::new();
    let keys = dir.write(
        "steps.keys",
        "#! level: ../levels/pillar.txt\n#! lab: 2,3:6,3\n{ ] ] snap ]\n",
    );
    let level = common::repo("levels/pillar.txt");
    let options = RunOptions {
        level: Some(level.clone()),
        size: Some((70, 20)),
        ..RunOptions::default()
    };
    let bytes = cast::render(&keys, &options, 500).unwrap();
    let (header, events) = read_cast(&bytes);
    assert_eq!(
        (header["width"].as_u64(), header["height"].as_u64()),
        (Some(70), Some(20))
    );
    // The first frame at 0, then one per input half a second apart (a snap takes none).
    let times: Vec<f64> = events.iter().map(|e| e.0).collect();
    assert_eq!(times, [0.0, 0.5, 1.0, 1.5, 2.0]);
    assert_eq!(play_cast(&header, &events), last_frame(&keys, &options));
    // Autoplay's ticks run at the game's own 60 ms.
    let auto = dir.write(
        "auto.keys",
        "#! level: ../levels/pillar.txt\n#! lab: 2,3:6,3\n+ + + + a\n",
    );
    let bytes = cast::render(&auto, &options, 500).unwrap();
    let (header, events) = read_cast(&bytes);
    let gaps: Vec<f64> = events.windows(2).map(|w| w[1].0 - w[0].0).collect();
    assert!(
        gaps.iter().any(|g| (g - 0.06).abs() < 1e-9),
        "no tick-paced frame: {gaps:?}"
    );
    assert_eq!(play_cast(&header, &events), last_frame(&auto, &options));
}

#[test]
fn cast_writes_a_new_file_replaces_only_its_own_and_refuses_the_rest() {
    let dir = common::Scratch::new();
    let keys = dir.write(
        "steps.keys",
        "#! level: ../levels/pillar.txt\n#! lab: 2,3:6,3\n{ ]\n",
    );
    let level = common::repo("levels/pillar.txt");
    let run = |out: &Path| {
        bin()
            .arg("cast")
            .arg(&keys)
            .arg("-o")
            .arg(out)
            .arg("--level")
            .arg(&level)
            .arg("--size")
            .arg("60x16")
            .output()
            .unwrap()
    };
    let file = dir.path().join("steps.cast");
    let o = run(&file);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let first = std::fs::read(&file).unwrap();
    let (header, _) = read_cast(&first);
    assert_eq!(
        (header["width"].as_u64(), header["height"].as_u64()),
        (Some(60), Some(16))
    );
    // Its own cast is replaced (the same bytes again: a cast is deterministic).
    let o = run(&file);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read(&file).unwrap(), first);
    // Someone else's file, a folder and a device are refused, exit 2, left as they were.
    let theirs = dir.write(
        "theirs.cast",
        "{\"version\": 2, \"width\": 80, \"height\": 24}\n",
    );
    let o = run(&theirs);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "{}: it exists and is not a cast astar-rogue made; nothing was written\n",
            theirs.display()
        )
    );
    assert_eq!(
        std::fs::read_to_string(&theirs).unwrap(),
        "{\"version\": 2, \"width\": 80, \"height\": 24}\n"
    );
    let o = run(dir.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("it is a directory, not a regular file"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = run(Path::new("/dev/null"));
    assert_eq!(o.status.code(), Some(2));
    // No temporary file is left behind.
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn replay_exports_the_run_it_shows_as_a_cast() {
    let dir = common::Scratch::new();
    let keys = dir.write(
        "run.keys",
        "#! level: ../levels/pillar.txt\n#! ticks: manual\nl tick l tick j\n",
    );
    let level = common::repo("levels/pillar.txt");
    let out = dir.path().join("run.cast");
    let o = bin()
        .arg("replay")
        .arg(&keys)
        .args(["--speed", "2", "--level"])
        .arg(&level)
        .arg("--cast")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (header, events) = read_cast(&std::fs::read(&out).unwrap());
    // Two inputs a second; the recorded ticks at 60 ms.
    let times: Vec<f64> = events.iter().map(|e| e.0).collect();
    assert_eq!(times.first(), Some(&0.0));
    assert!(times.contains(&0.5), "{times:?}");
    let options = RunOptions {
        level: Some(level),
        ..RunOptions::default()
    };
    assert_eq!(play_cast(&header, &events), last_frame(&keys, &options));
}

/// The cost of the cheapest path by a plain Dijkstra map (the engine's, not its A*).
fn dijkstra(level: &Level, from: Pos, to: Pos) -> Option<u32> {
    let mut map = DistanceMap::new();
    map.compute(level.grid.cost_grid(), from, Neighbourhood::Eight);
    map.get(to)
}

/// `path --json` with `args`: (status, cost, expanded, path).
fn path_json(args: &[&str]) -> Value {
    let o = bin().arg("path").args(args).arg("--json").output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn path_ties_find_the_optimal_cost_and_differ_in_what_they_expand() {
    // The shipped levels and a Moving AI map, between cells far apart: every rule finds
    // Dijkstra's cost; somewhere each pair of rules expands differently.
    let queries: &[(&str, Option<(Pos, Pos)>)] = &[
        ("levels/default.txt", None),
        (
            "levels/default.txt",
            Some((Pos::new(1, 1), Pos::new(60, 19))),
        ),
        ("levels/bracket.txt", None),
        ("levels/pillar.txt", None),
        ("levels/pond.txt", None),
        (
            "tests/data/movingai/arena.map",
            Some((Pos::new(3, 3), Pos::new(45, 40))),
        ),
    ];
    let mut differ = [false; 3];
    for &(level, ends) in queries {
        let (l, _) = Level::load(&common::repo(level)).unwrap();
        let (from, to) = ends.unwrap_or_else(|| (l.monsters[0].pos, l.player.unwrap()));
        let want = dijkstra(&l, from, to);
        let runs: Vec<(Option<u64>, u64, Value)> = searches::TIES
            .iter()
            .map(|t| {
                let name = t.to_string();
                let v = path_json(&[
                    level,
                    "--ties",
                    &name,
                    "--from",
                    &from.to_string(),
                    "--to",
                    &to.to_string(),
                    "--trace",
                ]);
                (v["cost"].as_u64(), v["expanded"].as_u64().unwrap(), v)
            })
            .collect();
        for (t, r) in searches::TIES.iter().zip(&runs) {
            assert_eq!(r.0, want.map(u64::from), "{level} {t}");
        }
        for (k, (a, b)) in [(0, 1), (1, 2), (0, 2)].into_iter().enumerate() {
            // What they expand: the nodes and the order they were closed in.
            differ[k] |= runs[a].2["nodes"] != runs[b].2["nodes"];
        }
    }
    assert_eq!(differ, [true; 3], "lower-h/lifo, lifo/fifo, lower-h/fifo");
}

#[test]
fn path_sets_the_optimal_cost_beside_an_overestimating_search() {
    let o = bin()
        .args([
            "path",
            "levels/default.txt",
            "--from",
            "48,2",
            "--weight",
            "2",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        &lines[lines.len() - 2..],
        [
            "found from 48,2 to 7,10: cost 466, expanded 52, path 42 cells",
            "optimal cost 442: this path costs 24 more, and leaves an optimal one at 30,8 (!)",
        ]
    );
    // The `!` where it leaves, on the path's row.
    assert_eq!(
        lines[8],
        "#............****.............!****..#.....####'####.........#"
    );
    // Manhattan on 8-way moves is set beside the optimum too; the standard search is not.
    let v = path_json(&[
        "levels/default.txt",
        "--from",
        "48,2",
        "--heuristic",
        "manhattan",
    ]);
    assert_eq!(
        (v["cost"].as_u64(), v["optimal"].as_u64()),
        (Some(442), Some(442))
    );
    assert_eq!(v["leaves"], Value::Null);
    let v = path_json(&["levels/default.txt"]);
    assert!(v.get("optimal").is_none(), "{v}");
    // The leaving cell: the last of the path reached at its cheapest with an optimal rest.
    let v = path_json(&["levels/default.txt", "--from", "48,2", "--weight", "2"]);
    assert_eq!(v["leaves"], serde_json::json!([30, 8]));
}

fn lab_on(level: &str, from: Pos, to: Pos, o: SearchOptions) -> Lab {
    let (l, _) = Level::load(&common::repo(level)).unwrap();
    Lab::new(l.grid, from, to, o)
}

#[test]
fn the_open_list_pops_as_each_tie_rule_says_and_a_whole_quiz_scores_its_answers() {
    // Every tie rule under the standard search, weighted, inconsistent, greedy, 4-way and
    // JPS: the open list's first entry is the node the next expansion takes; answered
    // there, every step of the search is right, anywhere else wrong.
    let kinds = [
        SearchOptions::default(),
        SearchOptions::default().with_weight(Weight::from_millis(1500)),
        SearchOptions::default().with_heuristic(Heuristic::Manhattan),
        SearchOptions::default().with_greedy(true),
        SearchOptions::default()
            .with_neighbourhood(Neighbourhood::Four)
            .with_heuristic(Heuristic::Zero),
        SearchOptions::default().with_algorithm(astar_rogue::engine::astar::Algorithm::Jps),
    ];
    for base in kinds {
        for ties in searches::TIES {
            let o = base.with_ties(ties);
            for (level, from, to) in [
                ("levels/default.txt", Pos::new(48, 2), Pos::new(7, 10)),
                ("levels/bracket.txt", Pos::new(6, 5), Pos::new(12, 7)),
            ] {
                let lab = lab_on(level, from, to, o);
                let search = &lab.searches[0];
                let trace = &search.trace;
                assert!(trace.expansions() > 3, "{o:?}");
                for step in 0..trace.expansions() {
                    let next = trace
                        .expansion(step + 1, lab.grid.cost_grid())
                        .unwrap()
                        .node;
                    let order = lab.open_order(0, step);
                    assert_eq!(
                        order.first().map(|n| n.pos),
                        Some(next),
                        "{o:?} step {step}"
                    );
                    let snap = lab.snapshot(0, step).unwrap();
                    let queued = lab.queued(0, step);
                    let right = judge(&snap, &order, &queued, &o, lab.grid.cost_grid(), next);
                    assert!(
                        right.right && right.text.starts_with("Right: "),
                        "{right:?}"
                    );
                    let wrong = judge(&snap, &order, &queued, &o, lab.grid.cost_grid(), lab.goal);
                    if next != lab.goal {
                        assert!(
                            !wrong.right && wrong.text.starts_with("Wrong: "),
                            "{wrong:?}"
                        );
                        assert!(wrong.text.contains(&next.to_string()), "{wrong:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn a_quiz_played_in_the_lab_counts_each_answer_and_ends_with_the_search() {
    let mut a = common::app(&common::repo("levels/pillar.txt"), 1, (100, 32));
    a.open_lab(
        Pos::new(2, 3),
        Pos::new(6, 3),
        SearchOptions::default(),
        None,
    );
    common::frame(&mut a, "Q");
    let total = a.screen().lab().unwrap().searches[0].trace.expansions();
    // Right every time: the cursor on the node the open list pops next.
    for step in 0..total {
        assert_eq!(
            a.ui()
                .overlay()
                .current(a.screen().shown_expansions(a.world())),
            step
        );
        let next = a.screen().lab().unwrap().open_order(0, step)[0].pos;
        a.set_cursor(next);
        common::frame(&mut a, "Enter");
    }
    let quiz = a.screen().lab().unwrap().quiz.clone().unwrap();
    assert_eq!((quiz.right, quiz.asked), (total, total));
    let frame = common::frame(&mut a, "");
    assert!(
        frame.contains(&format!("quiz done: {total} of {total} right")),
        "{frame}"
    );
    // Again from the start, answered on the goal: wrong until the goal is next.
    common::frame(&mut a, "Q Q");
    a.set_cursor(Pos::new(6, 3));
    for _ in 0..total {
        common::frame(&mut a, "Enter");
    }
    let quiz = a.screen().lab().unwrap().quiz.clone().unwrap();
    assert_eq!((quiz.right, quiz.asked), (1, total));
}

#[test]
fn the_cast_docs_learning_links_is_the_one_its_script_makes() {
    // docs/learning.md links docs/examples/stepped-search.cast and quotes the command that
    // made it: made again, it must be the same bytes (change the script, make the cast again).
    let keys = common::repo("docs/examples/stepped-search.keys");
    let made = cast::render(&keys, &RunOptions::default(), cast::INPUT_MS).unwrap();
    let kept = std::fs::read(common::repo("docs/examples/stepped-search.cast")).unwrap();
    assert!(
        made == kept,
        "docs/examples/stepped-search.cast is stale: astar-rogue cast docs/examples/stepped-search.keys -o docs/examples/stepped-search.cast"
    );
    let (header, events) = read_cast(&kept);
    assert_eq!(
        play_cast(&header, &events),
        last_frame(&keys, &RunOptions::default())
    );
}

#[test]
fn the_lab_opened_under_jps_planning_searches_by_jps_and_says_so() {
    // The lab from a game whose monsters plan by JPS: its caption named A*'s options
    // ("search 8 octile w1") while the monsters jumped.
    let mut a = common::app(&common::repo("levels/pillar.txt"), 1, (80, 24));
    a.set_planning(astar_rogue::game::Planning::Jps);
    let frame = common::frame(&mut a, "L");
    let lab = a.screen().lab().expect("the lab is open");
    assert_eq!(lab.options.algorithm.to_string(), "jps");
    assert_eq!(
        lab.searches[0].result.expanded, 5,
        "jump points, not A*'s 14"
    );
    assert!(frame.contains("search 8 octile w1 jps"), "{frame}");
}
