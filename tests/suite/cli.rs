//! The binary's contract on the command line: errors name `FILE:LINE:COL` with the line and a
//! caret and exit 2, `play` refuses bad input before touching the terminal, `path` prints the
//! documented JSON, and `script` output is the same byte for byte on every run.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::common;
use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_astar-rogue");

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// Runs the binary with no standard input, from the repository root.
fn run<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("ASTAR_ROGUE_PANIC")
        .stdin(Stdio::null())
        .output()
        .expect("run astar-rogue")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

fn assert_exit(out: &Output, code: i32) {
    assert_eq!(
        out.status.code(),
        Some(code),
        "exit status {}; stdout {:?}; stderr {:?}",
        out.status,
        text(&out.stdout),
        text(&out.stderr)
    );
}

/// A level with an unknown glyph `Z` at line 3, column 3.
fn bad_glyph_level(dir: &Path) -> PathBuf {
    let p = dir.join("bad.txt");
    std::fs::write(&p, "title: Bad\n....\n.@Z.\n....\n").unwrap();
    p
}

#[test]
fn check_reports_an_unknown_glyph_with_line_column_and_caret() {
    let dir = tempfile::tempdir().unwrap();
    let bad = bad_glyph_level(dir.path());
    let out = run(&[Path::new("check"), &bad]);
    assert_exit(&out, 2);
    let err = text(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    let head = format!("{}:3:3: ", bad.display());
    assert!(
        lines[0].starts_with(&head) && lines[0].contains("unknown glyph 'Z'"),
        "headline {:?} should start with {head:?}",
        lines[0]
    );
    assert_eq!(
        &lines[1..],
        ["  |", "3 | .@Z.", "  |   ^"],
        "excerpt in {err:?}"
    );
    assert!(out.stdout.is_empty(), "nothing on stdout: {:?}", out.stdout);
}

#[test]
fn check_reports_good_and_bad_files_and_fails_if_any_is_bad() {
    let dir = tempfile::tempdir().unwrap();
    let bad = bad_glyph_level(dir.path());
    let good = repo("levels/pillar.txt");
    let out = run(&[Path::new("check"), &good, &bad]);
    assert_exit(&out, 2);
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with(&format!("{}: ok, level 8x6, ", good.display())),
        "{stdout:?}"
    );
    assert!(stdout.contains("player at 6,3, 1 monster,"), "{stdout:?}");
    assert!(text(&out.stderr).starts_with(&format!("{}:3:3: ", bad.display())));

    let out = run(&["check", "levels/pillar.txt", "levels/bracket.txt"]);
    assert_exit(&out, 0);
    assert_eq!(text(&out.stdout).lines().count(), 2);
}

#[test]
fn a_missing_file_exits_2_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-level.txt");
    for cmd in ["check", "path", "play"] {
        let out = run(&[Path::new(cmd), &missing]);
        assert_exit(&out, 2);
        let err = text(&out.stderr);
        assert!(
            err.starts_with(&format!("{}: ", missing.display())),
            "{cmd}: {err:?}"
        );
        assert!(out.stdout.is_empty(), "{cmd}: stdout {:?}", out.stdout);
    }
}

#[test]
fn play_refuses_a_bad_level_before_touching_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let bad = bad_glyph_level(dir.path());
    let missing = dir.path().join("missing.txt");
    let no_player = dir.path().join("empty.txt");
    std::fs::write(&no_player, "....\n.g..\n").unwrap();
    for level in [&bad, &missing, &no_player] {
        for args in [vec![Path::new("play"), level], vec![level]] {
            let out = run(&args);
            assert_exit(&out, 2);
            assert!(out.stdout.is_empty(), "{args:?}: stdout {:?}", out.stdout);
            let err = text(&out.stderr);
            assert!(!err.contains('\x1b'), "{args:?}: escapes in {err:?}");
            assert!(!err.is_empty(), "{args:?}: no message");
        }
    }
}

#[test]
fn bad_arguments_exit_2() {
    for args in [
        &["play", "--seed", "x"][..],
        &["path", "levels/pillar.txt", "--from", "4"],
        &["path", "levels/pillar.txt", "--weight", "-1"],
        &["script"],
        &["no-such-command", "x"],
    ] {
        let out = run(args);
        assert_exit(&out, 2);
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

fn path_json(args: &[&str]) -> Value {
    let out = run(args);
    assert_exit(&out, 0);
    let stdout = text(&out.stdout);
    assert_eq!(stdout.lines().count(), 1, "one JSON line: {stdout:?}");
    serde_json::from_str(&stdout).expect("valid JSON")
}

fn cell(v: &Value) -> (i32, i32) {
    let a = v.as_array().expect("[x, y]");
    assert_eq!(a.len(), 2, "{v}");
    (a[0].as_i64().unwrap() as i32, a[1].as_i64().unwrap() as i32)
}

/// A level's cells as text rows (comment and title lines skipped).
fn level_rows(path: &str) -> Vec<Vec<u8>> {
    std::fs::read_to_string(repo(path))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with(';') && !l.starts_with("title:"))
        .map(|l| l.as_bytes().to_vec())
        .collect()
}

fn passable(rows: &[Vec<u8>], (x, y): (i32, i32)) -> bool {
    y >= 0
        && x >= 0
        && rows
            .get(y as usize)
            .and_then(|r| r.get(x as usize))
            .is_some_and(|&c| c != b'#' && c != b' ')
}

/// The cost of one king step, or `None` when it is not allowed (blocked, or cutting a corner).
fn step_cost(rows: &[Vec<u8>], a: (i32, i32), b: (i32, i32)) -> Option<u32> {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    if dx.abs() > 1 || dy.abs() > 1 || (dx, dy) == (0, 0) || !passable(rows, b) {
        return None;
    }
    if dx != 0 && dy != 0 {
        let sides = passable(rows, (a.0 + dx, a.1)) && passable(rows, (a.0, a.1 + dy));
        return sides.then_some(14);
    }
    Some(10)
}

/// An independent Dijkstra (the suite's own, on a map of cost 1 wherever `passable`): 8
/// neighbours, no corner cutting, 10 straight and 14 diagonal.
fn dijkstra(rows: &[Vec<u8>], from: (i32, i32), to: (i32, i32)) -> Option<u64> {
    let width = rows.iter().map(Vec::len).max().unwrap_or(0);
    let costs = (0..rows.len())
        .flat_map(|y| (0..width).map(move |x| (x as i32, y as i32)))
        .map(|p| u32::from(passable(rows, p)))
        .collect();
    let model = common::CostModel {
        width,
        height: rows.len(),
        costs,
    };
    model.dijkstra(from, to, common::Moves::Eight)
}

fn find_glyph(rows: &[Vec<u8>], pred: impl Fn(u8) -> bool) -> (i32, i32) {
    for (y, r) in rows.iter().enumerate() {
        for (x, &c) in r.iter().enumerate() {
            if pred(c) {
                return (x as i32, y as i32);
            }
        }
    }
    panic!("glyph not found");
}

/// Checks a found path: from the first monster to the player, legal steps, costs adding up
/// to `cost`, and `cost` the optimum by an independent search.
fn check_found_path(level: &str, json: &Value, cost: u64) {
    assert_eq!(json["status"], "found", "{json}");
    assert_eq!(json["cost"].as_u64(), Some(cost), "{json}");
    assert!(json["expanded"].as_u64().is_some_and(|e| e > 0), "{json}");
    let rows = level_rows(level);
    let from = find_glyph(&rows, |c| c.is_ascii_lowercase());
    let to = find_glyph(&rows, |c| c == b'@');
    let path: Vec<(i32, i32)> = json["path"].as_array().unwrap().iter().map(cell).collect();
    assert_eq!(path.first(), Some(&from), "path starts at the monster");
    assert_eq!(path.last(), Some(&to), "path ends at the player");
    let total: u32 = path
        .windows(2)
        .map(|w| {
            step_cost(&rows, w[0], w[1])
                .unwrap_or_else(|| panic!("illegal step {:?} -> {:?}", w[0], w[1]))
        })
        .sum();
    assert_eq!(
        u64::from(total),
        cost,
        "the path's steps add up to its cost"
    );
    assert_eq!(dijkstra(&rows, from, to), Some(cost), "independent optimum");
}

#[test]
fn path_json_on_pillar() {
    let json = path_json(&["path", "levels/pillar.txt", "--json"]);
    let keys: Vec<&String> = json.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["cost", "expanded", "path", "status"], "{json}");
    let raw = text(&run(&["path", "levels/pillar.txt", "--json"]).stdout);
    assert!(
        raw.starts_with(r#"{"status":"found","cost":68,"expanded":"#),
        "field order: {raw}"
    );
    check_found_path("levels/pillar.txt", &json, 68);
}

#[test]
fn path_json_on_bracket_costs_194() {
    let json = path_json(&["path", "levels/bracket.txt", "--json"]);
    check_found_path("levels/bracket.txt", &json, 194);
}

/// `--algorithm jps`: the same optimal cost on both levels, a legal path, fewer expansions,
/// nothing on standard error; where JPS does not apply (4-way) A* runs and standard error
/// says why, the JSON on standard output staying one object.
#[test]
fn path_algorithm_jps_finds_the_same_costs_and_says_when_it_does_not_apply() {
    for (level, cost) in [("levels/pillar.txt", 68), ("levels/bracket.txt", 194)] {
        let a_star = path_json(&["path", level, "--json"]);
        let out = run(&["path", level, "--json", "--algorithm", "jps"]);
        assert_exit(&out, 0);
        assert_eq!(text(&out.stderr), "");
        let jps: Value = serde_json::from_slice(&out.stdout).unwrap();
        check_found_path(level, &jps, cost);
        assert!(
            jps["expanded"].as_u64() < a_star["expanded"].as_u64(),
            "{jps}"
        );
    }
    let out = run(&[
        "path",
        "levels/bracket.txt",
        "--json",
        "--algorithm",
        "jps",
        "--neighbours",
        "4",
    ]);
    assert_exit(&out, 0);
    assert_eq!(
        text(&out.stderr),
        "JPS does not apply to moves other than 8-way without corner cutting: A* ran instead.\n"
    );
    let four = path_json(&["path", "levels/bracket.txt", "--json", "--neighbours", "4"]);
    let ran: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(ran, four);
    let out = run(&["path", "levels/pillar.txt", "--algorithm", "dijkstra"]);
    assert_exit(&out, 2);
    assert!(
        text(&out.stderr).contains("use astar or jps"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn path_trace_lists_every_touched_node() {
    let plain = path_json(&["path", "levels/pillar.txt", "--json"]);
    let json = path_json(&["path", "levels/pillar.txt", "--json", "--trace"]);
    for k in ["status", "cost", "expanded", "path"] {
        assert_eq!(json[k], plain[k], "--trace changes {k}");
    }
    let raw = text(&run(&["path", "levels/pillar.txt", "--json", "--trace"]).stdout);
    assert!(
        raw.contains(
            r#""nodes":[{"x":2,"y":3,"g":0,"h":40,"f":40,"parent":null,"state":"closed","order":1}"#
        ),
        "raw node shape: {raw}"
    );
    let nodes = json["nodes"].as_array().expect("nodes array");
    assert!(!nodes.is_empty());
    let mut seen = BTreeMap::new();
    let mut orders = Vec::new();
    for n in nodes {
        let o = n.as_object().expect("node object");
        let keys: Vec<&String> = o.keys().collect();
        // serde_json's map sorts keys; the raw order is checked below.
        assert_eq!(
            keys,
            ["f", "g", "h", "order", "parent", "state", "x", "y"],
            "{n}"
        );
        let (x, y) = (n["x"].as_i64().unwrap(), n["y"].as_i64().unwrap());
        let (g, h, f) = (
            n["g"].as_u64().unwrap(),
            n["h"].as_u64().unwrap(),
            n["f"].as_u64().unwrap(),
        );
        assert_eq!(f, g + h, "f = g + h at weight 1: {n}");
        assert!(
            seen.insert((x, y), g).is_none(),
            "node {x},{y} listed twice"
        );
        let state = n["state"].as_str().expect("state string");
        assert!(matches!(state, "open" | "closed"), "state {state:?}");
        match &n["order"] {
            Value::Null => assert_eq!(state, "open", "only open nodes lack an order: {n}"),
            v => orders.push(v.as_u64().expect("order number")),
        }
        if n["parent"].is_null() {
            assert_eq!((g, x, y), (0, 2, 3), "only the start has no parent: {n}");
        }
    }
    // Parents are listed nodes, and g grows by a legal step from the parent.
    let rows = level_rows("levels/pillar.txt");
    for n in nodes {
        if let Some(p) = n["parent"].as_array() {
            let (px, py) = (p[0].as_i64().unwrap(), p[1].as_i64().unwrap());
            let pg = seen.get(&(px, py)).expect("parent is a listed node");
            let step = step_cost(
                &rows,
                (px as i32, py as i32),
                (
                    n["x"].as_i64().unwrap() as i32,
                    n["y"].as_i64().unwrap() as i32,
                ),
            )
            .expect("parent is a legal step away");
            assert_eq!(n["g"].as_u64().unwrap(), pg + u64::from(step), "{n}");
        }
    }
    orders.sort_unstable();
    let expected: Vec<u64> = (1..=orders.len() as u64).collect();
    assert_eq!(orders, expected, "expansion orders are 1..=n without gaps");
    assert_eq!(
        orders.len() as u64,
        json["expanded"].as_u64().unwrap(),
        "one order per expansion"
    );
}

#[test]
fn path_rejects_invalid_endpoints() {
    for (flag, at, message) in [
        ("--from", "4,3", "invalid start 4,3: not a floor cell"),
        ("--to", "4,2", "invalid goal 4,2: not a floor cell"),
        ("--to", "99,3", "invalid goal 99,3: outside the 8x6 map"),
        ("--from=", "-1,0", "invalid start -1,0: outside the 8x6 map"),
    ] {
        let arg = if flag.ends_with('=') {
            vec![format!("{flag}{at}")]
        } else {
            vec![flag.to_string(), at.to_string()]
        };
        let mut args = vec![
            "path".to_string(),
            "levels/pillar.txt".into(),
            "--json".into(),
        ];
        args.extend(arg);
        let out = run(&args);
        assert_exit(&out, 2);
        assert!(out.stdout.is_empty(), "{flag} {at}");
        assert_eq!(text(&out.stderr).trim_end(), message, "{flag} {at}");
    }
}

#[test]
fn path_without_default_endpoints_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let lonely = dir.path().join("lonely.txt");
    std::fs::write(&lonely, "....\n.@..\n").unwrap();
    let out = run(&[Path::new("path"), &lonely]);
    assert_exit(&out, 2);
    assert_eq!(
        text(&out.stderr).trim_end(),
        format!(
            "{}: no monster to start from; give --from X,Y",
            lonely.display()
        )
    );
    let out = run(&[
        Path::new("path"),
        &lonely,
        Path::new("--from"),
        Path::new("0,0"),
    ]);
    assert_exit(&out, 0);
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with("S...\n.G..\nfound from 0,0 to 1,1: cost 14, expanded "),
        "{stdout:?}"
    );
    assert!(stdout.ends_with(", path 2 cells\n"), "{stdout:?}");
}

#[test]
fn script_errors_name_script_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    for (body, line_col, message) in [
        ("h j\n  k Bogus\n", "2:5", "unknown token \"Bogus\""),
        ("l\n\n3*click:x,1\n", "3:3", "bad cell \"x,1\""),
        ("0*h\n", "1:1", "repeat count must be 1 to 1000000"),
        ("resize:0x5", "1:1", "bad terminal size"),
        ("#! colour: red\n", "1:3", "unknown header \"colour\""),
        ("2*snap\n", "1:1", "a snap cannot be repeated"),
    ] {
        let script = dir.path().join("bad.keys");
        std::fs::write(&script, body).unwrap();
        let out = run(&[Path::new("script"), &script]);
        assert_exit(&out, 2);
        assert!(out.stdout.is_empty(), "{body:?}");
        let err = text(&out.stderr);
        let head = format!("{}:{line_col}: {message}", script.display());
        assert!(err.starts_with(&head), "{body:?}: {err:?} lacks {head:?}");
        let caret = err.lines().last().unwrap();
        assert!(caret.ends_with('^'), "{body:?}: no caret in {err:?}");
    }
    let missing = dir.path().join("missing.keys");
    let out = run(&[Path::new("script"), &missing]);
    assert_exit(&out, 2);
    assert!(text(&out.stderr).starts_with(&missing.display().to_string()));
    let script = dir.path().join("ok.keys");
    std::fs::write(&script, "l\n").unwrap();
    let out = run(&[
        Path::new("script"),
        &script,
        Path::new("--size"),
        Path::new("0x5"),
    ]);
    assert_exit(&out, 2);
}

/// Runs a script twice through the binary and returns its output, asserting both runs agree.
fn script_twice(args: &[&Path]) -> String {
    let mut full = vec![Path::new("script")];
    full.extend_from_slice(args);
    let a = run(&full);
    let b = run(&full);
    assert_exit(&a, 0);
    assert_exit(&b, 0);
    assert!(a.stderr.is_empty(), "stderr {:?}", text(&a.stderr));
    assert!(
        a.stdout == b.stdout,
        "two runs of {args:?} differ:\n{}\n---\n{}",
        text(&a.stdout),
        text(&b.stdout)
    );
    text(&a.stdout)
}

#[test]
fn script_output_is_the_same_byte_for_byte_on_every_run() {
    let dir = tempfile::tempdir().unwrap();
    let level = dir.path().join("bracket.txt");
    std::fs::copy(repo("levels/bracket.txt"), &level).unwrap();
    let script = repo("tests/scripts/overlay.keys");
    let out = script_twice(&[
        &script,
        Path::new("--level"),
        &level,
        Path::new("--frames"),
        Path::new("all"),
        Path::new("--state"),
    ]);
    assert!(out.contains("--- frame inspector-200x60"), "{out}");

    // A script of clicks, travel, fights, waits and resizes on a scratch copy of pillar.
    let pillar = dir.path().join("pillar.txt");
    std::fs::copy(repo("levels/pillar.txt"), &pillar).unwrap();
    let chase = dir.path().join("chase.keys");
    std::fs::write(
        &chase,
        "#! level: pillar.txt\n#! size: 70x20\n#! seed: 7\n\
         p o a snap:auto\nclick:24,10 snap:travel\n\
         resize:1x1 . resize:300x100 snap:big\n20*. snap:end Tab x 3*h Esc\n",
    )
    .unwrap();
    let out = script_twice(&[
        &chase,
        Path::new("--frames"),
        Path::new("all"),
        Path::new("--state"),
    ]);
    assert!(out.contains("--- frame end"), "{out}");
    assert!(out.contains("\"turn\":1,"), "state lines: {out}");
}

#[cfg(unix)]
#[test]
fn check_refuses_a_fifo_at_once_instead_of_waiting_for_a_writer() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("level.txt");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o644)).unwrap();
    let began = std::time::Instant::now();
    let out = run(&["check".as_ref(), fifo.as_os_str()]);
    assert!(began.elapsed() < std::time::Duration::from_secs(5));
    assert_exit(&out, 2);
    assert_eq!(
        text(&out.stderr),
        format!("{}: is a FIFO, not a level file\n", fifo.display())
    );
}

#[cfg(unix)]
/// A script whose `#! level:` names nothing, or a file that is not there, is refused at the
/// header (a level that reads but does not parse keeps its own place in the level file).
#[test]
fn a_script_s_level_header_that_names_no_file_is_an_error_at_the_header() {
    let dir = tempfile::tempdir().unwrap();
    for (header, want) in [
        (
            "#! level: \n",
            "h.keys:1:3: empty level: name the level file, e.g. `#! level: pillar.txt`",
        ),
        (
            "#! level: gone.txt\n",
            "h.keys:1:11: gone.txt: No such file or directory (os error 2)",
        ),
    ] {
        std::fs::write(dir.path().join("h.keys"), format!("{header}.\n")).unwrap();
        let out = Command::new(BIN)
            .arg("script")
            .arg("h.keys")
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert_exit(&out, 2);
        let err = text(&out.stderr);
        assert_eq!(err.lines().next().unwrap_or(""), want, "{err}");
    }
}

/// A frame's name is the script's text: printed, its control characters are escaped, so a
/// script cannot clear or retitle the terminal that shows its frames.
#[test]
fn script_frame_names_reach_the_terminal_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("names.keys");
    let level = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/pillar.txt");
    std::fs::write(
        &script,
        format!("#! level: {}\nsnap:x\u{1b}[2J .\n", level.display()),
    )
    .unwrap();
    let out = Command::new(BIN)
        .arg("script")
        .arg(&script)
        .args(["--frames", "snaps"])
        .output()
        .unwrap();
    assert_exit(&out, 0);
    let printed = text(&out.stdout);
    assert!(
        printed.starts_with("--- frame x\\u{1b}[2J (token 1, line 2) ---\n"),
        "{printed}"
    );
    assert!(!printed.contains('\u{1b}'), "{printed}");
}

/// `scores` on a data folder it cannot read says so, naming the path once (exit 2): a
/// data folder that is a file is not an empty table.
#[test]
fn scores_refuse_a_data_folder_or_table_they_cannot_read() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("data-file");
    std::fs::write(&file, "").unwrap();
    let folder = dir.path().join("data");
    std::fs::create_dir_all(folder.join("scores.jsonl")).unwrap();
    for (data, want) in [
        (&file, "scores.jsonl: Not a directory (os error 20)\n"),
        (&folder, "scores.jsonl: is a directory, not a score table\n"),
    ] {
        let out = Command::new(BIN)
            .arg("scores")
            .env("ASTAR_ROGUE_DATA", data)
            .output()
            .unwrap();
        assert_exit(&out, 2);
        assert_eq!(text(&out.stderr), format!("{}/{want}", data.display()));
        assert!(out.stdout.is_empty());
    }
}

/// `-o` names a new file: a level (or anything else) already there, or a link to one, is
/// left as it was, as `new` leaves it.
#[test]
fn generate_never_writes_over_a_file_that_exists() {
    let dir = tempfile::tempdir().unwrap();
    let level = dir.path().join("mine.txt");
    std::fs::write(&level, "my design\n").unwrap();
    let outside = dir.path().join("outside.save");
    std::fs::write(&outside, "a save\n").unwrap();
    let link = dir.path().join("link.txt");
    std::os::unix::fs::symlink(&outside, &link).unwrap();
    for path in [&level, &link] {
        let out = Command::new(BIN)
            .args(["generate", "--size", "20x10", "-o"])
            .arg(path)
            .output()
            .unwrap();
        assert_exit(&out, 2);
        assert_eq!(
            text(&out.stderr),
            format!(
                "{}: it exists already; nothing was written\n",
                path.display()
            )
        );
    }
    assert_eq!(std::fs::read_to_string(&level).unwrap(), "my design\n");
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "a save\n");
    // A new name is written, whole.
    let made = dir.path().join("new.txt");
    let out = Command::new(BIN)
        .args(["generate", "--size", "20x10", "-o"])
        .arg(&made)
        .output()
        .unwrap();
    assert_exit(&out, 0);
    assert!(
        std::fs::read_to_string(&made)
            .unwrap()
            .starts_with("title: caves 20x10 seed 1\n")
    );
}

#[test]
fn generate_refuses_to_write_through_dev_stdout_into_an_appended_file() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("f");
    std::fs::write(&log, "kept\n").unwrap();
    let appended = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
    let out = Command::new(BIN)
        .args([
            "generate",
            "--kind",
            "caves",
            "--size",
            "20x10",
            "--seed",
            "1",
            "-o",
            "/dev/stdout",
        ])
        .stdout(appended)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_exit(&out, 2);
    assert!(
        text(&out.stderr).starts_with("/dev/stdout: it is a device or process file"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(&log).unwrap(), "kept\n");
}

/// Runs the binary with standard output on a pipe whose reader is already gone.
fn run_into_closed_pipe(args: &[&std::ffi::OsStr]) -> Output {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let child = Command::new(BIN)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("ASTAR_ROGUE_PANIC")
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .expect("run astar-rogue");
    child.wait_with_output().expect("wait")
}

/// `| head` closes the pipe early: every command that prints ends quietly (no panic, no
/// message) with 141, what a shell shows for a process that a closed pipe killed.
#[test]
fn a_closed_pipe_ends_every_command_quietly_with_141() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("s.keys");
    std::fs::write(&script, "#! size: 40x12\n3*l\n").unwrap();
    let scen = repo("tests/data/movingai/arena.map.scen");
    let pillar = repo("levels/pillar.txt");
    let commands: Vec<Vec<&std::ffi::OsStr>> = vec![
        [
            "generate",
            "--kind",
            "caves",
            "--size",
            "1024x1024",
            "--seed",
            "1",
        ]
        .map(|s| s.as_ref())
        .to_vec(),
        vec!["path".as_ref(), pillar.as_os_str()],
        vec![
            "path".as_ref(),
            pillar.as_os_str(),
            "--json".as_ref(),
            "--trace".as_ref(),
        ],
        vec!["scen".as_ref(), scen.as_os_str()],
        vec!["check".as_ref(), pillar.as_os_str()],
        vec![
            "script".as_ref(),
            script.as_os_str(),
            "--frames".as_ref(),
            "all".as_ref(),
        ],
    ];
    for args in commands {
        let out = run_into_closed_pipe(&args);
        assert_eq!(
            out.status.code(),
            Some(141),
            "{args:?}: {}; stderr {:?}",
            out.status,
            text(&out.stderr)
        );
        assert_eq!(text(&out.stderr), "", "{args:?} must end quietly");
    }
}

/// A level that parses but cannot be played as designed: a walled-off rat, stairs and a
/// potion out of reach, a message on a cell nobody reaches.
const WALLED: &str = "; every warning but the boxed-in player\ntitle: Walled\n\
                      message at 7,1: never shown\n#########\n#@.#r>!.#\n#########\n";

#[test]
fn check_warns_about_what_the_player_can_never_reach_naming_each_cell() {
    let dir = tempfile::tempdir().unwrap();
    let level = dir.path().join("walled.txt");
    std::fs::write(&level, WALLED).unwrap();
    let out = run(&[Path::new("check"), &level]);
    assert_exit(&out, 0);
    let f = level.display();
    assert_eq!(
        text(&out.stderr),
        format!(
            "{f}:5:5: warning: the rat 'r' at 4,1 can never reach the player: walls part them\n\
             {f}:5:6: warning: the stairs '>' at 5,1 are out of the player's reach\n\
             {f}:5:7: warning: the potion '!' at 6,1 is out of the player's reach\n\
             {f}:3:1: warning: the message at 7,1 never shows: the player cannot reach that cell\n"
        )
    );
    assert_eq!(
        text(&out.stdout),
        format!(
            "{f}: ok, level 9x3, 6 floor cells, player at 1,1, 1 monster, \"Walled\", 4 warnings\n"
        )
    );
}

#[test]
fn check_warns_about_a_boxed_in_player_and_strict_makes_warnings_errors() {
    let dir = tempfile::tempdir().unwrap();
    let boxed = dir.path().join("boxed.txt");
    // CRLF and a byte-order mark: the column still counts characters of the row.
    std::fs::write(&boxed, "\u{feff}; a cell\r\n#####\r\n##@##\r\n#####\r\n").unwrap();
    let good = repo("levels/pillar.txt");
    let out = run(&[Path::new("check"), &boxed, &good]);
    assert_exit(&out, 0);
    let f = boxed.display();
    assert_eq!(
        text(&out.stderr),
        format!("{f}:3:3: warning: the player at 2,1 is boxed in: no legal move from the start\n")
    );
    assert_eq!(
        text(&out.stdout).lines().next(),
        Some(
            format!("{f}: ok, level 5x3, 1 floor cell, player at 2,1, 0 monsters, 1 warning")
                .as_str()
        )
    );
    // --strict: the same findings are errors, the file is not ok, and the exit code says so;
    // a clean file beside it is still reported ok.
    let out = run(&[Path::new("check"), Path::new("--strict"), &boxed, &good]);
    assert_exit(&out, 2);
    assert_eq!(
        text(&out.stderr),
        format!("{f}:3:3: error: the player at 2,1 is boxed in: no legal move from the start\n")
    );
    let stdout = text(&out.stdout);
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    assert!(
        stdout.starts_with(&format!("{}: ok, ", good.display())),
        "{stdout}"
    );
    // The shipped levels pass even under --strict.
    let out = run(&[
        "check",
        "--strict",
        "levels/default.txt",
        "levels/pillar.txt",
        "levels/bracket.txt",
    ]);
    assert_exit(&out, 0);
    assert_eq!(text(&out.stderr), "");
}

/// A title is file content: `check` must not let it drive the terminal.
#[test]
fn check_escapes_control_characters_in_a_title() {
    let dir = tempfile::tempdir().unwrap();
    let level = dir.path().join("evil.txt");
    std::fs::write(&level, "title: \x1b]0;PWNED\x07\x1b[2J\n@.g\n").unwrap();
    let out = run(&[Path::new("check"), &level]);
    assert_exit(&out, 0);
    let stdout = text(&out.stdout);
    assert!(
        !stdout.contains('\x1b') && !stdout.contains('\x07'),
        "{stdout:?}"
    );
    assert!(
        stdout.contains("\"\\u{1b}]0;PWNED\\u{7}\\u{1b}[2J\""),
        "{stdout:?}"
    );
}

/// Errors quote file content too (here a script's bad token holding an escape): stderr
/// carries no control character.
#[test]
fn error_messages_escape_control_characters() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("evil.keys");
    std::fs::write(&script, "#! level: \x1b[2J.txt\n").unwrap();
    let out = run(&[Path::new("script"), &script]);
    assert_exit(&out, 2);
    let err = text(&out.stderr);
    assert!(err.contains("\\u{1b}[2J.txt"), "{err:?}");
    assert!(!err.contains('\x1b'), "{err:?}");
}

/// A byte-order mark at the start of a level file or a script is skipped, not an error.
#[test]
fn a_level_and_a_script_starting_with_a_byte_order_mark_load() {
    let dir = tempfile::tempdir().unwrap();
    let level = dir.path().join("bom.txt");
    std::fs::write(&level, "\u{feff}title: Bom\n@.g\n").unwrap();
    let out = run(&[Path::new("check"), &level]);
    assert_exit(&out, 0);
    assert!(
        text(&out.stdout).contains("\"Bom\""),
        "{}",
        text(&out.stdout)
    );
    let script = dir.path().join("bom.keys");
    std::fs::write(&script, "\u{feff}#! level: bom.txt\n#! size: 40x12\nl\n").unwrap();
    let out = run(&[Path::new("script"), &script]);
    assert_exit(&out, 0);
    assert!(text(&out.stdout).contains("Bom"), "{}", text(&out.stdout));
}

/// `--from -1,0` is a value, not a flag, and `--help` says so.
#[test]
fn negative_coordinates_are_values() {
    for arg in [["--from", "-1,0"].as_slice(), &["--from=-1,0"]] {
        let mut args = vec!["path", "levels/pillar.txt"];
        args.extend_from_slice(arg);
        let out = run(&args);
        assert_exit(&out, 2);
        assert_eq!(
            text(&out.stderr),
            "invalid start -1,0: outside the 8x6 map\n",
            "{args:?}"
        );
    }
    let help = text(&run(&["path", "--help"]).stdout);
    assert!(help.contains("--from -1,0"), "{help}");
}

/// A Moving AI map with a single floor cell plays with the player alone.
#[test]
fn a_moving_ai_map_with_one_floor_cell_plays_with_no_monsters() {
    let dir = tempfile::tempdir().unwrap();
    let map = dir.path().join("one.map");
    std::fs::write(&map, "type octile\nheight 3\nwidth 3\nmap\n@@@\n@.@\n@@@\n").unwrap();
    let script = dir.path().join("s.keys");
    std::fs::write(&script, "#! level: one.map\n#! size: 60x16\n. .\n").unwrap();
    let out = run(&[Path::new("script"), &script]);
    assert_exit(&out, 0);
    let frame = text(&out.stdout);
    assert!(frame.contains("No monsters here"), "{frame}");
    assert!(frame.contains("Turn 2"), "{frame}");
}

/// `scen` with the shipped sample: every cost checked for equality with the `.1014` exact
/// costs, and the output says so; the same without them uses the bounds; any `--jobs` gives
/// the same answers.
#[test]
fn scen_checks_exact_costs_when_the_1014_file_is_there() {
    let sample = repo("tests/data/movingai");
    let files = [
        sample.join("arena.map.scen"),
        sample.join("den312d.map.scen"),
    ];
    for jobs in ["1", "3"] {
        let mut args: Vec<&std::ffi::OsStr> =
            vec!["scen".as_ref(), "--jobs".as_ref(), jobs.as_ref()];
        args.extend(files.iter().map(|f| f.as_os_str()));
        let out = run(&args);
        assert_exit(&out, 0);
        let stdout = text(&out.stdout);
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(lines.len(), 3, "{stdout}");
        assert!(
            lines[0].contains("160 scenarios, 0 failed, 160 exact, 0 by bounds"),
            "{stdout}"
        );
        let exact = sample.join("arena.map.scen.1014");
        assert!(
            lines[0].ends_with(&format!("(checked: exact costs from {})", exact.display())),
            "{stdout}"
        );
        assert!(
            lines[2].starts_with("480 scenarios, 0 failed, 480 exact, 0 by bounds"),
            "{stdout}"
        );
    }
    // Jump Point Search: every cost exact as well.
    let mut args: Vec<&std::ffi::OsStr> =
        vec!["scen".as_ref(), "--algorithm".as_ref(), "jps".as_ref()];
    args.extend(files.iter().map(|f| f.as_os_str()));
    let out = run(&args);
    assert_exit(&out, 0);
    let stdout = text(&out.stdout);
    assert!(
        stdout
            .lines()
            .last()
            .unwrap_or("")
            .starts_with("480 scenarios, 0 failed, 480 exact, 0 by bounds"),
        "{stdout}"
    );
    // Without the exact costs: the bounds, and the output says that instead.
    let dir = tempfile::tempdir().unwrap();
    for f in ["arena.map", "arena.map.scen"] {
        std::fs::copy(sample.join(f), dir.path().join(f)).unwrap();
    }
    let out = run(&[Path::new("scen"), &dir.path().join("arena.map.scen")]);
    assert_exit(&out, 0);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("160 scenarios, 0 failed, 0 exact, 160 by bounds"),
        "{stdout}"
    );
    assert!(
        stdout.contains("(checked: bounds around optimal_length (no .1014 file))"),
        "{stdout}"
    );
    // A wrong exact cost fails, naming the scenario.
    let exact = std::fs::read_to_string(sample.join("arena.map.scen.1014")).unwrap();
    let wrong = exact.replacen("10\n", "11\n", 1);
    std::fs::write(dir.path().join("arena.map.scen.1014"), wrong).unwrap();
    let out = run(&[Path::new("scen"), &dir.path().join("arena.map.scen")]);
    assert_exit(&out, 1);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("1 failed"), "{stdout}");
    assert!(
        stdout.contains("FAILED line 2: 1,11 -> 1,12 (optimal 1): cost 10, the exact cost is 11"),
        "{stdout}"
    );
}

/// A scenario file for a map of another size: the error quotes the line and points at the
/// width.
#[test]
fn scen_size_mismatch_quotes_the_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        repo("tests/data/movingai/arena.map"),
        dir.path().join("arena.map"),
    )
    .unwrap();
    let scen = dir.path().join("arena.map.scen");
    std::fs::write(
        &scen,
        "version 1\n0\tmaps/dao/arena.map\t50\t49\t1\t11\t1\t12\t1\n",
    )
    .unwrap();
    let out = run(&[Path::new("scen"), &scen]);
    assert_exit(&out, 2);
    let err = text(&out.stderr);
    assert_eq!(
        err,
        format!(
            "{}:2:22: scenario expects a 50x49 map, the map is 49x49\n  |\n2 | 0 maps/dao/arena.map 50 49 1 11 1 12 1\n  | {}^\n",
            scen.display(),
            " ".repeat(21)
        )
    );
}

fn last_line(out: &Output) -> String {
    text(&out.stdout).lines().last().unwrap_or("").to_string()
}

/// The shipped level tests and the project's own scripts pass through `astar-rogue test`.
#[test]
fn the_shipped_tests_pass_through_the_test_command() {
    let out = run(&["test", "levels", "tests/scripts"]);
    assert_exit(&out, 0);
    let n = std::fs::read_dir(repo("tests/scripts"))
        .unwrap()
        .chain(std::fs::read_dir(repo("levels")).unwrap())
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "keys")
        })
        .count();
    assert!(n >= 18, "{n}");
    assert_eq!(last_line(&out), format!("{n} passed, 0 failed"));
}

/// `test` on a guarded level: it passes; a change to the level fails with a diff that names
/// the frame and the script line; `--bless` records the new output; a script without an
/// expected file fails until blessed.
#[test]
fn the_test_command_passes_fails_with_a_diff_and_blesses() {
    let dir = tempfile::tempdir().unwrap();
    for f in ["pillar.keys", "pillar.snap", "pillar.txt"] {
        std::fs::copy(repo("levels").join(f), dir.path().join(f)).unwrap();
    }
    let d = dir.path();
    let out = run(&[Path::new("test"), d]);
    assert_exit(&out, 0);
    assert_eq!(last_line(&out), "1 passed, 0 failed");

    // The designer moves a wall: the goblin's route changes.
    let level = std::fs::read_to_string(d.join("pillar.txt")).unwrap();
    std::fs::write(
        d.join("pillar.txt"),
        level.replacen("....#...", "....#.#.", 1),
    )
    .unwrap();
    let out = run(&[Path::new("test"), d]);
    assert_exit(&out, 1);
    let report = text(&out.stdout);
    assert_eq!(last_line(&out), "0 passed, 1 failed", "{report}");
    assert!(report.contains("FAIL "), "{report}");
    // The line once, in the header, and the script as FILE:LINE.
    let at = format!(
        "--- frame planned (token 2, line 7) ---  at {}:7",
        d.join("pillar.keys").display()
    );
    assert!(report.contains(&at), "{report}");
    assert_eq!(report.matches("line 7").count(), 1, "{report}");
    assert!(report.lines().any(|l| l.starts_with("  -│")), "{report}");
    assert!(report.lines().any(|l| l.starts_with("  +│")), "{report}");
    assert!(report.contains("  @@ -"), "{report}");
    assert!(
        !report.contains('\x1b'),
        "no colour when not on a terminal: {report}"
    );

    let out = run(&[Path::new("test"), d, Path::new("--bless")]);
    assert_exit(&out, 0);
    assert!(
        text(&out.stdout).contains("blessed "),
        "{}",
        text(&out.stdout)
    );
    let out = run(&[Path::new("test"), d]);
    assert_exit(&out, 0);
    assert_eq!(last_line(&out), "1 passed, 0 failed");

    // A new script has no expected output yet.
    std::fs::write(
        d.join("new.keys"),
        "#! level: pillar.txt\n#! size: 40x12\nl\n",
    )
    .unwrap();
    let out = run(&[Path::new("test"), d]);
    assert_exit(&out, 1);
    assert!(
        text(&out.stdout).contains("no expected output"),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(last_line(&out), "1 passed, 1 failed");
    let out = run(&[Path::new("test"), &d.join("new.keys"), Path::new("--bless")]);
    assert_exit(&out, 0);
    assert!(d.join("new.snap").is_file());
    let out = run(&[Path::new("test"), d]);
    assert_exit(&out, 0);
    assert_eq!(last_line(&out), "2 passed, 0 failed");
}

/// A scenario whose start or goal is off the map, or on a cell nobody can stand on, is an
/// error at the coordinate at fault (exit 2), not a failed search: real scenario files never
/// hold one, so such a file is broken, and the engine cannot be blamed for it.
#[test]
fn scen_endpoints_off_the_map_or_blocked_are_errors_at_the_coordinate() {
    let dir = tempfile::tempdir().unwrap();
    // 4x3, the cell 1,1 a tree.
    std::fs::write(
        dir.path().join("m.map"),
        "type octile\nheight 3\nwidth 4\nmap\n....\n.T..\n....\n",
    )
    .unwrap();
    let scen = dir.path().join("m.map.scen");
    for (line, at, message) in [
        (
            "0\tm.map\t4\t3\t4\t0\t0\t0\t4",
            13,
            "invalid start 4,0: outside the 4x3 map",
        ),
        (
            "0\tm.map\t4\t3\t0\t3\t0\t0\t3",
            15,
            "invalid start 0,3: outside the 4x3 map",
        ),
        (
            "0\tm.map\t4\t3\t0\t0\t3\t3\t3",
            19,
            "invalid goal 3,3: outside the 4x3 map",
        ),
        (
            "0\tm.map\t4\t3\t0\t0\t1\t1\t1.41421",
            17,
            "invalid goal 1,1: not a floor cell",
        ),
        (
            "0\tm.map\t4\t3\t1\t1\t0\t0\t1.41421",
            13,
            "invalid start 1,1: not a floor cell",
        ),
    ] {
        // A good scenario first: the bad one is found before any search runs.
        std::fs::write(
            &scen,
            format!("version 1\n0\tm.map\t4\t3\t0\t0\t3\t0\t3\n{line}\n"),
        )
        .unwrap();
        let out = run(&[Path::new("scen"), &scen]);
        assert_exit(&out, 2);
        assert!(out.stdout.is_empty(), "{line:?}: {:?}", text(&out.stdout));
        assert_eq!(
            text(&out.stderr),
            format!(
                "{}:3:{at}: {message}\n  |\n3 | {}\n  | {}^\n",
                scen.display(),
                line.replace('\t', " "),
                " ".repeat(at - 1)
            ),
            "{line:?}"
        );
    }
}

/// A lab query the lab cannot search on the level is refused by `script` as by `lab`: from
/// `--lab` with the flag named, from the header at its value; both exit 2.
#[test]
fn script_refuses_a_lab_query_off_the_map_or_on_a_wall() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("plain.keys");
    std::fs::write(&plain, ".\n").unwrap();
    for (query, message) in [
        ("99,99:0,0", "invalid start 99,99: outside the 8x6 map"),
        ("1,1:-1,0", "invalid goal -1,0: outside the 8x6 map"),
        ("4,3:1,1", "invalid start 4,3: not a floor cell"),
    ] {
        let out = run(&[
            "script",
            &plain.display().to_string(),
            "--level",
            "levels/pillar.txt",
            &format!("--lab={query}"),
        ]);
        assert_exit(&out, 2);
        assert!(out.stdout.is_empty(), "{query}");
        assert_eq!(
            text(&out.stderr),
            format!("--lab {query}: {message}\n"),
            "{query}"
        );
        let header = dir.path().join("header.keys");
        let body = format!(
            "#! level: {}\n#!  lab:  {query}\n.\n",
            repo("levels/pillar.txt").display()
        );
        std::fs::write(&header, &body).unwrap();
        let out = run(&[Path::new("script"), &header]);
        assert_exit(&out, 2);
        assert!(out.stdout.is_empty(), "{query}");
        assert_eq!(
            text(&out.stderr),
            format!(
                "{}:2:11: {message}\n  |\n2 | #!  lab:  {query}\n  |           ^\n",
                header.display()
            ),
            "{query}"
        );
    }
}

/// A Moving AI map with no floor at all: `check` refuses it as playing it does, with the
/// same message, exit 2. (The message names the file alone, as the game's opening writes
/// it for its frames.)
#[test]
fn check_refuses_a_map_with_no_floor_as_playing_it_does() {
    let dir = tempfile::tempdir().unwrap();
    let map = dir.path().join("allwall.map");
    std::fs::write(&map, "type octile\nheight 2\nwidth 3\nmap\nTTT\nTTT\n").unwrap();
    let reason = "the level has no free floor cell to start the player on\n";
    let out = run(&[Path::new("check"), &map]);
    assert_exit(&out, 2);
    assert!(out.stdout.is_empty(), "{:?}", text(&out.stdout));
    // `check` names the file as given; the game, whose messages show in its frames too,
    // by its name.
    assert_eq!(text(&out.stderr), format!("{}: {reason}", map.display()));
    let script = dir.path().join("k.keys");
    std::fs::write(&script, ".\n").unwrap();
    let out = run(&[Path::new("script"), &script, Path::new("--level"), &map]);
    assert_exit(&out, 2);
    assert_eq!(text(&out.stderr), format!("allwall.map: {reason}"));
}
