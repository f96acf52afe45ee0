//! Campaigns: `check` follows the `next:` chain and puts each way it can be wrong at the
//! `next:` header, `FILE:LINE:COL`; the game takes the stairs to the designed floor, the
//! editor goes down and up the chain, makes the floor below, and copies between floors.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use astar_rogue::app::App;
use astar_rogue::session::Origin;

use crate::common::{self, Scratch};

const BIN: &str = env!("CARGO_BIN_EXE_astar-rogue");

fn check(args: &[&Path]) -> Output {
    Command::new(BIN)
        .arg("check")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run astar-rogue")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Floor one of a campaign: stairs, a rat, and a `next:` header on line 3, its file name
/// at column 7.
fn floor_one(next: &str) -> String {
    format!("; first\ntitle: One\nnext: {next}\n#######\n#@>..r#\n#######\n")
}

const LAST: &str = "title: Last\n#####\n#@.r#\n#####\n";

/// The one error `check` prints for a chain: its headline and the excerpt with the caret.
fn assert_error(out: &Output, headline: &str, line: &str, caret: &str) {
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = text(&out.stderr);
    let n = headline
        .split(':')
        .nth(1)
        .expect("FILE:LINE:COL: message")
        .to_string();
    let pad = " ".repeat(n.len());
    assert_eq!(
        err,
        format!("{headline}\n{pad} |\n{n} | {line}\n{pad} | {caret}\n"),
        "stderr"
    );
}

#[test]
fn check_follows_a_campaign_and_names_each_floor() {
    let dir = Scratch::new();
    let one = dir.write("one.txt", floor_one("sub/two.txt"));
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    dir.write(
        "sub/two.txt",
        "title: Two\nnext: ../last.txt\n#####\n#@>r#\n#####\n",
    );
    dir.write("last.txt", LAST);
    let out = check(&[&one]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let d = dir.path().display();
    assert_eq!(
        text(&out.stdout),
        format!(
            "{d}/one.txt: ok, level 7x3, 5 floor cells, player at 1,1, 1 monster, \"One\", floor 1 of 3\n\
             {d}/sub/two.txt: ok, level 5x3, 3 floor cells, player at 1,1, 1 monster, \"Two\", floor 2 of 3\n\
             {d}/sub/../last.txt: ok, level 5x3, 3 floor cells, player at 1,1, 1 monster, \"Last\", floor 3 of 3\n"
        )
    );
    // A level without next: is a run of its own, as it always was.
    let out = check(&[&dir.path().join("last.txt")]);
    assert_eq!(
        text(&out.stdout),
        format!("{d}/last.txt: ok, level 5x3, 3 floor cells, player at 1,1, 1 monster, \"Last\"\n")
    );
}

#[test]
fn a_missing_or_unreadable_next_file_is_an_error_at_the_header() {
    let dir = Scratch::new();
    let one = dir.write("one.txt", floor_one("missing.txt"));
    let out = check(&[&one]);
    let d = dir.path().display();
    assert_error(
        &out,
        &format!(
            "{d}/one.txt:3:7: cannot read the floor below, {d}/missing.txt: No such file or directory (os error 2)"
        ),
        "next: missing.txt",
        "      ^",
    );
    // The floors before the error are checked and summed up.
    assert_eq!(
        text(&out.stdout),
        format!(
            "{d}/one.txt: ok, level 7x3, 5 floor cells, player at 1,1, 1 monster, \"One\", floor 1\n"
        )
    );
    std::fs::create_dir(dir.path().join("folder")).unwrap();
    let one = dir.write("one.txt", floor_one("folder"));
    assert_error(
        &check(&[&one]),
        &format!(
            "{d}/one.txt:3:7: cannot read the floor below, {d}/folder: is a directory, not a level file"
        ),
        "next: folder",
        "      ^",
    );
}

#[test]
fn a_chain_that_comes_back_is_an_error_at_the_header_that_closes_it() {
    let dir = Scratch::new();
    let d = dir.path().display();
    let one = dir.write("one.txt", floor_one("two.txt"));
    dir.write(
        "two.txt",
        "title: Two\nnext:   ./one.txt\n#####\n#@>r#\n#####\n",
    );
    assert_error(
        &check(&[&one]),
        &format!(
            "{d}/two.txt:2:9: the chain comes back to {d}/one.txt (floor 1): a campaign must end"
        ),
        "next:   ./one.txt",
        "        ^",
    );
    // A level that names itself.
    let me = dir.write("me.txt", "next: me.txt\n####\n#@>#\n####\n");
    assert_error(
        &check(&[&me]),
        &format!(
            "{d}/me.txt:1:7: the chain comes back to {d}/me.txt (floor 1): a campaign must end"
        ),
        "next: me.txt",
        "      ^",
    );
}

#[test]
fn next_on_a_level_without_stairs_is_an_error_at_the_header() {
    let dir = Scratch::new();
    let d = dir.path().display();
    dir.write("last.txt", LAST);
    let one = dir.write(
        "one.txt",
        "title: One\n; why\nnext: last.txt\n#####\n#@.r#\n#####\n",
    );
    assert_error(
        &check(&[&one]),
        &format!(
            "{d}/one.txt:3:1: next: on a level without stairs: the floor below can never be reached (lay stairs '>' or drop the header)"
        ),
        "next: last.txt",
        "^",
    );
}

#[test]
fn a_bad_next_header_and_a_bad_floor_below_point_where_they_are() {
    let dir = Scratch::new();
    let d = dir.path().display();
    let empty = dir.write("empty.txt", "title: E\nnext:   \n###\n#@#\n###\n");
    assert_error(
        &check(&[&empty]),
        &format!(
            "{d}/empty.txt:2:9: empty next: name the file of the floor below, e.g. next: two.txt"
        ),
        "next:   ",
        "        ^",
    );
    let twice = dir.write("twice.txt", "next: a.txt\nnext: b.txt\n###\n#@#\n###\n");
    assert_error(
        &check(&[&twice]),
        &format!("{d}/twice.txt:2:1: a second next: header (the first is on line 1)"),
        "next: b.txt",
        "^",
    );
    // An error in the floor below is that file's own.
    let one = dir.write("one.txt", floor_one("bad.txt"));
    dir.write("bad.txt", "#####\n#@>Z#\n#####\n");
    let out = check(&[&one]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.starts_with(&format!("{d}/bad.txt:2:4: unknown glyph 'Z'")),
        "{err}"
    );
}

#[test]
fn strict_applies_its_warnings_to_every_floor() {
    let dir = Scratch::new();
    let d = dir.path().display();
    let one = dir.write("one.txt", floor_one("walled.txt"));
    // The rat behind the wall can never reach the player.
    dir.write("walled.txt", "######\n#@.#r#\n######\n");
    let out = check(&[&one]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(
        text(&out.stderr),
        format!(
            "{d}/walled.txt:2:5: warning: the rat 'r' at 4,1 can never reach the player: walls part them\n"
        )
    );
    let out = Command::new(BIN)
        .args(["check".as_ref(), "--strict".as_ref(), one.as_os_str()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        format!(
            "{d}/walled.txt:2:5: error: the rat 'r' at 4,1 can never reach the player: walls part them\n"
        )
    );
}

fn app(path: &Path) -> App {
    common::app(path, 3, (80, 24))
}

fn last_log(a: &App) -> String {
    a.world()
        .log()
        .last()
        .map(|m| m.text.clone())
        .unwrap_or_default()
}

/// A two-floor campaign in a scratch folder: one.txt (the rat can be killed at once from
/// the stairs, seed 3) leading to last.txt.
fn two_floors() -> (Scratch, PathBuf) {
    let dir = Scratch::new();
    let one = dir.write(
        "one.txt",
        "title: One\nnext: last.txt\n###########\n#@>......r#\n###########\n",
    );
    dir.write("last.txt", LAST);
    (dir, one)
}

#[test]
fn the_stairs_lead_to_the_designed_floor_and_the_run_knows_which_it_is() {
    let (dir, one) = two_floors();
    let mut a = app(&one);
    assert_eq!(a.world().final_depth(), 2);
    common::frame(&mut a, "l . . l l >");
    assert_eq!(a.world().run().depth, 2, "{}", last_log(&a));
    assert_eq!(a.session().design().level().title.as_deref(), Some("Last"));
    assert_eq!(a.session().floor().origin, Origin::Chain(vec![one.clone()]));
    assert_eq!(
        a.session().source().path.as_deref(),
        Some(dir.path().join("last.txt").as_path())
    );
    assert_eq!(a.session().first_floor().origin, Origin::First);
    // s saves the floor in play: last.txt, edited.
    common::frame(&mut a, "e l w s");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("last.txt")).unwrap(),
        LAST.replace("#@.r#", "#@#r#")
    );
    assert_eq!(
        std::fs::read_to_string(&one).unwrap().lines().nth(1),
        Some("next: last.txt")
    );
}

#[test]
fn a_floor_below_that_cannot_be_read_blocks_the_way_down() {
    let (dir, one) = two_floors();
    std::fs::remove_file(dir.path().join("last.txt")).unwrap();
    let mut a = app(&one);
    common::frame(&mut a, "l . . l l >");
    assert_eq!(a.world().run().depth, 1);
    assert_eq!(
        last_log(&a),
        "The way down is blocked: cannot read last.txt: No such file or directory (os error 2)"
    );
}

#[test]
fn the_editor_makes_the_floor_below_goes_down_to_it_and_pastes_between_floors() {
    let dir = Scratch::new();
    let out = Command::new(BIN)
        .args([
            "new".as_ref(),
            "9x5".as_ref(),
            dir.path().join("castle.txt").as_os_str(),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let one = dir.path().join("castle.txt");
    let mut a = app(&one);
    // Stairs beside the start, a wall to copy, then the floor below.
    common::frame(&mut a, "e l > l l w N");
    assert_eq!(
        last_log(&a),
        "Made castle-2.txt (9x5, blank) as the floor below: s saves the next: header, ] goes down to edit it. Stairs (>) lead there."
    );
    let below = dir.path().join("castle-2.txt");
    assert_eq!(
        std::fs::read_to_string(&below).unwrap(),
        "size: 9x5\nmap:\n#########\n#.......#\n#...@...#\n#.......#\n#########\n"
    );
    assert_eq!(a.world().final_depth(), 2);
    common::frame(&mut a, "]");
    assert_eq!(
        last_log(&a),
        "Save (s) or undo your edits first: the other floor replaces this design."
    );
    // The header goes after the last header, before the map; nothing else moves.
    common::frame(&mut a, "c c s ]");
    assert_eq!(
        std::fs::read_to_string(&one).unwrap(),
        "size: 9x5\nnext: castle-2.txt\nmap:\n#########\n#.......#\n#...@>.##\n#.......#\n#########\n"
    );
    assert_eq!(a.world().run().depth, 2, "{}", last_log(&a));
    assert_eq!(
        last_log(&a),
        "Editing floor 2 of 2, castle-2.txt; the run goes on from here."
    );
    assert_eq!(a.cursor(), a.world().player().pos);
    // The one-cell region copied on floor one is pasted here.
    common::frame(&mut a, "l l l p s");
    assert_eq!(
        std::fs::read_to_string(&below).unwrap(),
        "size: 9x5\nmap:\n#########\n#.......#\n#...@..##\n#.......#\n#########\n"
    );
    // Back up; N again names the floor below it already leads to.
    common::frame(&mut a, "[");
    assert_eq!(a.world().run().depth, 1);
    assert_eq!(a.session().floor().origin, Origin::First);
    common::frame(&mut a, "N");
    assert_eq!(
        last_log(&a),
        "This floor leads to castle-2.txt already: ] goes down to it."
    );
    common::frame(&mut a, "[");
    assert_eq!(last_log(&a), "This is the first floor.");
    // check agrees: a campaign of two floors.
    let out = check(&[&one]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(
        text(&out.stdout).contains(", floor 2 of 2\n"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn restart_keeps_a_deeper_floors_unsaved_edits_until_they_are_saved_or_undone() {
    let (_dir, one) = two_floors();
    let mut a = app(&one);
    common::frame(&mut a, "e ] l w e r");
    assert_eq!(
        last_log(&a),
        "Save (s) or undo your edits to this floor first: restarting goes back to the first floor."
    );
    assert_eq!(a.world().run().depth, 2);
    common::frame(&mut a, "e U e r");
    assert_eq!(a.world().run().depth, 1);
    assert_eq!(a.session().design().level().title.as_deref(), Some("One"));
}
