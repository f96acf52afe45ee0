//! `play --plain` over pipes, as a screen reader's user or a script plays it: the real
//! binary, its standard input written and closed, its standard output read, on a room
//! written here (no shipped level), with runs kept in a data folder of the test's own and
//! no settings file of the user's.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::common::Scratch;

/// A room no level of the game ships: a goblin and an orc in view of the player, a potion
/// and the stairs, a message whose text carries an escape, and a title with one.
const ROOM: &str = "title: Held-out hall \u{1b}[31mred\n\
message: The hall \u{1b}[2J echoes.\n\
############\n\
#..........#\n\
#.g...@...!#\n\
#..........#\n\
#...o....>.#\n\
############\n";

/// Runs `astar-rogue play --plain LEVEL --seed 7` with `input` on standard input (then
/// closed), runs kept in `data`.
fn plain(level: &Path, data: &Path, input: &str) -> Output {
    let config = tempfile::tempdir().expect("a config folder");
    let mut child = Command::new(env!("CARGO_BIN_EXE_astar-rogue"))
        .args(["play", "--plain", "--seed", "7"])
        .arg(level)
        .env("ASTAR_ROGUE_DATA", data)
        .env("XDG_CONFIG_HOME", config.path())
        .env_remove("ASTAR_ROGUE_CONFIG")
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the game");
    child
        .stdin
        .take()
        .expect("its input")
        .write_all(input.as_bytes())
        .expect("write the commands");
    child.wait_with_output().expect("the game ends")
}

/// Standard output, as text.
fn text(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("plain output is UTF-8")
}

#[test]
fn plain_play_over_pipes_on_a_held_out_room() {
    let scratch = Scratch::new();
    let level = scratch.write("hall.txt", ROOM);
    let data = scratch.path().join("data");
    let out = plain(
        &level,
        &data,
        "look\nmap\njump over\nlook\nl\nsearch\nhelp\n",
    );
    let stdout = text(&out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(
        !out.stdout.contains(&0x1b) && !out.stderr.contains(&0x1b),
        "an escape byte was written: {stdout:?}"
    );
    for line in stdout.lines() {
        assert!(
            line.chars().count() <= 120,
            "a line over 120 characters: {line:?}"
        );
    }
    // The level's own words come out, their escapes made harmless and visible.
    assert!(stdout.contains("The hall \\u{1b}[2J echoes."), "{stdout}");
    assert!(stdout.contains("Held-out hall \\u{1b}[31mred"), "{stdout}");
    // `look` names every monster in view, each with compass words and steps.
    let look: Vec<&str> = stdout
        .lines()
        .skip_while(|l| !l.starts_with("You are at 6,2"))
        .take_while(|l| !l.starts_with("Map rows"))
        .collect();
    assert!(
        look.iter()
            .any(|l| l.starts_with("goblin g #1, 4 west, 4 steps away, HP 6 of 6")),
        "{look:#?}"
    );
    assert!(
        look.iter()
            .any(|l| l.starts_with("orc o #2, 2 west and 2 south, 2 steps away, HP 10 of 10")),
        "{look:#?}"
    );
    assert!(
        look.iter()
            .any(|l| l.starts_with("stairs down >, 3 east and 2 south")),
        "{look:#?}"
    );
    // `map` prints the rows around the player, the player's among them.
    assert!(stdout.lines().any(|l| l == "y 2: #.g...@...!#"), "{stdout}");
    // A bad command gets one line, and nothing happens: the look after it is the first's.
    let lines: Vec<&str> = stdout.lines().collect();
    let bad = lines
        .iter()
        .position(|l| *l == "\"jump\" is neither a command nor a key: help lists them.")
        .unwrap_or_else(|| panic!("no answer to the bad command:\n{stdout}"));
    assert_eq!(lines[bad + 1], look[0], "{stdout}");
    // The run is kept on leaving, as the terminal's play keeps it.
    assert!(
        stdout.contains("Your run on hall.txt is kept (turn 1, depth 1, seed 7)"),
        "{stdout}"
    );
}

#[test]
fn a_run_left_in_plain_lines_resumes_where_it_was() {
    let scratch = Scratch::new();
    let level = scratch.write("hall.txt", ROOM);
    let data = scratch.path().join("data");
    let first = plain(&level, &data, "l\nl\n");
    assert_eq!(first.status.code(), Some(0), "{}", text(&first));
    assert!(text(&first).contains("Your run on hall.txt is kept (turn 2, depth 1, seed 7)"));
    // The next game of the level resumes it (its seed is the run's), in lines again.
    let second = plain(&level, &data, "look\nquit\nl\n");
    let out = text(&second);
    assert_eq!(second.status.code(), Some(0), "{out}");
    assert!(
        out.contains("Resumed your run on hall.txt: turn 2, depth 1, seed 7."),
        "{out}"
    );
    assert!(out.contains("You are at 8,2, HP "), "{out}");
    assert!(out.contains(", turn 2, floor 1 of 3."), "{out}");
    // `quit` left before the last `l`: the run is kept at turn 2 again.
    assert!(
        out.contains("Your run on hall.txt is kept (turn 2, depth 1, seed 7)"),
        "{out}"
    );
}
