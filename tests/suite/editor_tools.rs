//! The editor's tools driven by keys: rectangles, lines, flood fills and pastes each undo in
//! one step and save only the glyphs they changed (comments, headers and line endings kept);
//! a resize keeps the file byte-exact away from the map; `astar-rogue new` writes a level
//! that round-trips byte for byte and never overwrites a file.

use std::path::Path;
use std::process::{Command, Stdio};

use astar_rogue::app::App;
use astar_rogue::content::level::design::Design;

use crate::common::{self, Scratch};

/// A room with comments and CRLF endings: the player at 1,1, a goblin at 7,3.
const ROOM: &str = "; A room to draw in.\r\ntitle: Tools\r\n; keep this comment\r\n\
##########\r\n#@.......#\r\n#........#\r\n#......g.#\r\n##########\r\n; the end\r\n";

fn app(path: &Path) -> App {
    common::app(path, 1, (80, 24))
}

fn last_log(a: &App) -> String {
    a.world()
        .log()
        .last()
        .map(|m| m.text.clone())
        .unwrap_or_default()
}

/// `ROOM` with map rows 1 to 3 replaced by `rows`.
fn room_with(rows: [&str; 3]) -> String {
    ROOM.replace("#@.......#", rows[0])
        .replace("#........#", rows[1])
        .replace("#......g.#", rows[2])
}

/// Plays `keys` in edit mode on a fresh copy of `ROOM`; then checks that one `U` puts the
/// design back as the file says it, that `R` makes the edit again, and that saving writes
/// `want` (only the edited glyphs changed). Returns the app and the log line of the edit.
fn draw_undo_save(keys: &str, want: &str) -> (App, String) {
    let dir = Scratch::new();
    let path = dir.write("room.txt", ROOM);
    let mut a = app(&path);
    common::frame(&mut a, "e");
    common::frame(&mut a, keys);
    let said = last_log(&a);
    assert_eq!(a.session().design().to_text(), want, "after {keys}: {said}");
    assert!(a.session().unsaved());
    common::frame(&mut a, "U");
    assert_eq!(a.session().design().to_text(), ROOM, "one U undoes {keys}");
    assert!(!a.session().unsaved(), "undone back to the file");
    common::frame(&mut a, "U");
    assert_eq!(last_log(&a), "Nothing to undo.");
    common::frame(&mut a, "R s");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), want);
    assert!(!a.session().unsaved());
    (a, said)
}

#[test]
fn a_rectangle_outline_undoes_in_one_step_and_saves_its_glyphs() {
    // From 3,1 to 5,3: the player starts at 1,1, where edit mode puts the cursor.
    let want = room_with(["#@.###...#", "#..#.#...#", "#..###.g.#"]);
    let (_, said) = draw_undo_save("l l r l l j j w", &want);
    assert_eq!(
        said,
        "Rectangle 3x3 of wall: 8 changes (U undoes them at once)."
    );
}

#[test]
fn a_filled_rectangle_drawn_back_to_front_is_the_same_rectangle() {
    // The corners given bottom-right first.
    let want = room_with(["#@.###...#", "#..###...#", "#..###.g.#"]);
    let (_, said) = draw_undo_save("4*l 2*j a h h k k w", &want);
    assert_eq!(
        said,
        "Filled rectangle 3x3 of wall: 9 changes (U undoes them at once)."
    );
}

#[test]
fn a_line_keeps_the_cells_where_something_starts_and_says_why() {
    // Row 3 from 1,3 to 8,3 crosses the goblin's start at 7,3.
    let want = room_with(["#@.......#", "#........#", "#######g##"]);
    let (_, said) = draw_undo_save("j j / 7*l Enter", &want);
    assert_eq!(
        said,
        "Line of wall, 8 cells long: 7 changes (U undoes them at once). \
         1 cell kept: A goblin starts here; delete it (d) first."
    );
}

#[test]
fn a_flood_fill_covers_its_region_and_keeps_the_starts() {
    let want = room_with(["#@########", "##########", "#######g##"]);
    let (_, said) = draw_undo_save("l F w", &want);
    assert_eq!(
        said,
        "Fill with wall: 22 changes (U undoes them at once). \
         2 cells kept: The player starts here; move the start (@) first."
    );
    // A fill bounded by walls stays inside them.
    let dir = Scratch::new();
    let path = dir.write("split.txt", "#######\n#@.#..#\n#######\n");
    let mut a = app(&path);
    common::frame(&mut a, "e 4*l F v s");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "#######\n#@.#  #\n#######\n"
    );
}

#[test]
fn a_paste_brings_the_region_and_what_starts_in_it_and_undoes_in_one_step() {
    // Copy 6,2..8,3 (the goblin at 7,3), paste it with its corner at 2,2: a goblin at 3,3.
    let want = room_with(["#@.......#", "#........#", "#..g...g.#"]);
    let (a, said) = draw_undo_save("5*l j c l l j c 6*h k p", &want);
    assert_eq!(said, "Pasted 3x2 at 2,2: 1 change (U undoes it).");
    assert_eq!(a.world().monsters().len(), 2, "the game follows the paste");
    // Pasting floor over the goblin takes its start away; undone, it is back.
    let dir = Scratch::new();
    let path = dir.write("room.txt", ROOM);
    let mut a = app(&path);
    common::frame(&mut a, "e l j c l j c 3*l k p");
    assert!(
        a.session().design().level().monsters.is_empty(),
        "{}",
        last_log(&a)
    );
    assert!(a.world().monsters().is_empty());
    common::frame(&mut a, "U");
    assert_eq!(a.session().design().to_text(), ROOM);
    assert_eq!(a.world().monsters().len(), 1);
    // Three cells of the top wall pasted into the room: three changes, one undo.
    common::frame(&mut a, "k k c l l c 4*h j j p");
    assert_eq!(
        a.session().design().to_text(),
        room_with(["#@.......#", "#...###..#", "#......g.#"])
    );
    common::frame(&mut a, "U");
    assert_eq!(a.session().design().to_text(), ROOM);
}

#[test]
fn copy_needs_a_second_c_and_escape_forgets_a_shape() {
    let dir = Scratch::new();
    let path = dir.write("room.txt", ROOM);
    let mut a = app(&path);
    common::frame(&mut a, "e p");
    assert_eq!(
        last_log(&a),
        "Nothing copied yet: c at one corner, c at the other copies a region."
    );
    // A rectangle started, then forgotten: w paints one cell, and Esc once more leaves.
    common::frame(&mut a, "l r l Esc w");
    assert_eq!(
        a.session().design().to_text(),
        room_with(["#@.#.....#", "#........#", "#......g.#"])
    );
    assert_eq!(a.screen().mode(), astar_rogue::app::Mode::Edit);
    common::frame(&mut a, "Esc");
    assert_eq!(a.screen().mode(), astar_rogue::app::Mode::Play);
}

#[test]
fn a_monster_is_placed_by_typing_its_letter() {
    let dir = Scratch::new();
    let path = dir.write("room.txt", ROOM);
    let mut a = app(&path);
    common::frame(&mut a, "e l m t j m o");
    let kinds: Vec<(i32, i32, char)> = a
        .session()
        .design()
        .level()
        .monsters
        .iter()
        .map(|m| (m.pos.x, m.pos.y, m.kind))
        .collect();
    assert_eq!(kinds, [(7, 3, 'g'), (2, 1, 't'), (2, 2, 'o')]);
    // While a letter is awaited, the movement keys are not moves, and Esc places none.
    common::frame(&mut a, "m Esc l");
    assert_eq!(a.cursor(), astar_rogue::engine::grid::Pos::new(3, 2));
    common::frame(&mut a, "m x");
    assert_eq!(
        a.screen().tools().and_then(|t| t.prefix),
        Some(astar_rogue::app::Prefix::Monster)
    );
}

/// A level without a `size:` header, with a message at a cell, between comments.
const SMALL: &str = "; resize me\ntitle: R\nmessage at 2,1: Here.\n#####\n#@.g#\n#####\n; end\n";

#[test]
fn resizing_changes_the_map_rows_and_the_size_and_keeps_the_rest_of_the_file() {
    let cases: [(&str, &str); 4] = [
        (
            "Z h Z",
            "; resize me\ntitle: R\nmessage at 3,1: Here.\nsize: 6x3\n #####\n #@.g#\n #####\n; end\n",
        ),
        (
            "Z k Z",
            "; resize me\ntitle: R\nmessage at 2,2: Here.\nsize: 5x4\nmap:\n\n#####\n#@.g#\n#####\n; end\n",
        ),
        (
            "Z L Esc",
            "; resize me\ntitle: R\nmessage at 2,1: Here.\nsize: 4x3\n####\n#@.g\n####\n; end\n",
        ),
        (
            "Z j j Enter",
            "; resize me\ntitle: R\nmessage at 2,1: Here.\nsize: 5x5\n#####\n#@.g#\n#####\n; end\n",
        ),
    ];
    for (keys, want) in cases {
        let dir = Scratch::new();
        let path = dir.write("small.txt", SMALL);
        let mut a = app(&path);
        common::frame(&mut a, "e");
        common::frame(&mut a, keys);
        assert_eq!(
            a.session().design().to_text(),
            want,
            "{keys}: {}",
            last_log(&a)
        );
        let back = Design::parse(want.as_bytes(), "t").unwrap();
        assert_eq!(
            back.level(),
            a.session().design().level(),
            "{keys}: reads back"
        );
        assert_eq!(
            a.world().grid(),
            &a.session().design().level().grid,
            "{keys}: in play"
        );
        // Each side's step undoes on its own; all undone, the file's text is back.
        common::frame(&mut a, "U U");
        assert_eq!(a.session().design().to_text(), SMALL, "{keys} undone");
        assert_eq!(
            a.world().grid(),
            &a.session().design().level().grid,
            "{keys} undone in play"
        );
        common::frame(&mut a, "R R s");
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            want,
            "{keys} saved"
        );
    }
}

#[test]
fn cropping_drops_what_is_cut_away_but_never_the_player_or_a_message() {
    let dir = Scratch::new();
    let path = dir.write("small.txt", SMALL);
    let mut a = app(&path);
    common::frame(&mut a, "e Z L L");
    assert_eq!(
        last_log(&a),
        "Cropped the right side: the map is 3x3 (1 monster start and 0 items cut away); \
         the floor's play starts over."
    );
    assert!(a.world().monsters().is_empty());
    // The message at 2,1 is in the next column to go.
    common::frame(&mut a, "L");
    assert_eq!(
        last_log(&a),
        "The message at 2,1 (line 3) would be cut away: move its cell in the file first."
    );
    common::frame(&mut a, "H");
    common::frame(&mut a, "H");
    assert_eq!(
        last_log(&a),
        "The player's start at 0,1 would be cut away: move it (@) first."
    );
}

const BIN: &str = env!("CARGO_BIN_EXE_astar-rogue");

fn run(args: &[&std::ffi::OsStr]) -> std::process::Output {
    Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run astar-rogue")
}

#[test]
fn a_new_level_is_a_walled_room_that_round_trips_byte_for_byte() {
    let dir = Scratch::new();
    let path = dir.path().join("one.txt");
    let out = run(&["new".as_ref(), "12x5".as_ref(), path.as_os_str()]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let want =
        "size: 12x5\nmap:\n############\n#..........#\n#.....@....#\n#..........#\n############\n";
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(String::from_utf8_lossy(&bytes), want);
    assert_eq!(
        Design::parse(&bytes, "one.txt")
            .unwrap()
            .to_text()
            .as_bytes(),
        bytes
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!(
            "{0}: a blank 12x5 level; astar-rogue play {0} and e edits it\n",
            path.display()
        )
    );
    // Never over a file: not a second time, not over anything else.
    let again = run(&["new".as_ref(), "4x4".as_ref(), path.as_os_str()]);
    assert_eq!(again.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&again.stderr),
        format!(
            "{}: it exists already; nothing was written\n",
            path.display()
        )
    );
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
    // A title, and the smallest room there is.
    let titled = dir.path().join("two.txt");
    let out = run(&[
        "new".as_ref(),
        "3x3".as_ref(),
        titled.as_os_str(),
        "--title".as_ref(),
        "Two".as_ref(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        std::fs::read_to_string(&titled).unwrap(),
        "title: Two\nsize: 3x3\nmap:\n###\n#@#\n###\n"
    );
    for bad in ["2x9", "9", "0x0"] {
        let p = dir.path().join("bad.txt");
        let out = run(&["new".as_ref(), bad.as_ref(), p.as_os_str()]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(!p.exists(), "{bad}: nothing written");
    }
}

#[test]
fn a_blank_level_from_the_game_opens_in_the_editor_and_saves_beside_the_level() {
    let dir = Scratch::new();
    let path = dir.write("room.txt", ROOM);
    let mut a = app(&path);
    common::frame(&mut a, "e C-n");
    assert_eq!(a.screen().mode(), astar_rogue::app::Mode::Edit);
    let g = a.session().design().level().grid.clone();
    assert_eq!(a.world().player().pos, a.cursor());
    common::frame(&mut a, "s");
    let name = format!("blank-{}x{}.txt", g.width(), g.height());
    assert_eq!(last_log(&a), format!("Saved {name}."));
    let bytes = std::fs::read(dir.path().join(&name)).unwrap();
    assert_eq!(
        Design::parse(&bytes, "b").unwrap().level(),
        a.session().design().level()
    );
    // With unsaved edits it asks first.
    common::frame(&mut a, "l w C-n");
    assert_eq!(
        a.screen().question(),
        Some(&astar_rogue::app::Confirm::BlankLevel)
    );
}
