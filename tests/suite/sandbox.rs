//! The level file is the user's work: the design apart from the game in play, saves that
//! write the design and nothing else, outside edits, unsaved edits, and careful writes.
//! Each numbered repro of the level-model issue has a test here.

use crate::common;

use std::path::Path;

use astar_rogue::app::screen::{map_cell, screen_cell};
use astar_rogue::app::{App, Confirm, Mode, write_atomic};
use astar_rogue::content::map::Tile;
use astar_rogue::engine::grid::Pos;
use common::Scratch;

fn app(path: &Path) -> App {
    common::app(path, 1, (70, 20))
}

fn last_log(a: &App) -> String {
    a.world()
        .log()
        .last()
        .map(|m| m.text.clone())
        .unwrap_or_default()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).expect("the level file is readable")
}

/// Pillar with the wall one row longer at the top.
const PILLAR_EDITED_OUTSIDE: &str =
    "title: Pillar, edited outside\n........\n....#...\n....#...\n..g.#.@.\n....#...\n........\n";

#[test]
fn play_and_save_without_editing_writes_the_file_back_byte_for_byte() {
    let dir = Scratch::new();
    // Comments, a blank line before the map, CRLF endings, no newline at the end.
    let text =
        "; my level\r\ntitle: Corridor\r\n\r\n; the map\r\n#########\r\n#@.....g#\r\n#########";
    let path = dir.write("corridor.txt", text);
    let mut a = app(&path);
    common::frame(&mut a, "10*.");
    assert_eq!(a.world().turn(), 10);
    assert_ne!(
        a.world().monsters()[0].pos,
        Pos::new(7, 1),
        "the goblin moved"
    );
    common::frame(&mut a, "s");
    assert_eq!(last_log(&a), "Saved corridor.txt.");
    assert_eq!(std::fs::read(&path).unwrap(), text.as_bytes());
}

#[test]
fn edits_at_turn_n_change_exactly_the_edited_glyphs() {
    let dir = Scratch::new();
    let path = dir.copy("levels/pillar.txt");
    let before = read(&path);
    let mut a = app(&path);
    // Five turns: the goblin walks; then a wall at 1,0 and a rat at 0,5.
    common::frame(&mut a, "5*. e");
    let (wall, rat) = (Pos::new(1, 0), Pos::new(0, 5));
    a.set_cursor(wall);
    common::frame(&mut a, "w");
    a.set_cursor(rat);
    common::frame(&mut a, "m r e s");
    assert_eq!(last_log(&a), "Saved pillar.txt.");
    let after = read(&path);
    let (old_lines, new_lines): (Vec<&str>, Vec<&str>) =
        (before.lines().collect(), after.lines().collect());
    assert_eq!(old_lines.len(), new_lines.len());
    let changed: Vec<(usize, usize)> = old_lines
        .iter()
        .zip(&new_lines)
        .enumerate()
        .flat_map(|(n, (o, w))| {
            o.chars()
                .zip(w.chars())
                .enumerate()
                .filter(|(_, (a, b))| a != b)
                .map(move |(x, _)| (n, x))
        })
        .collect();
    // Line 5 is map row 0, line 10 map row 5 (four comment and title lines come first).
    assert_eq!(changed, [(4, 1), (9, 0)], "{after}");
    assert_eq!(&new_lines[4][..2], ".#");
    assert_eq!(&new_lines[9][..1], "r");
}

#[test]
fn repro_1_walls_painted_then_an_outside_comment_asks_which_to_keep() {
    let dir = Scratch::new();
    let path = dir.copy("levels/pillar.txt");
    let mut a = app(&path);
    common::frame(&mut a, "e k w l w e");
    assert!(a.session().unsaved());
    let painted = a.session().design().level().clone();
    std::fs::write(&path, read(&path) + "; a note from outside\n").unwrap();
    common::frame(&mut a, "reload");
    assert!(
        matches!(a.screen().question().cloned(), Some(Confirm::Reload(_))),
        "asks"
    );
    // Any other key does not answer the question: neither version is dropped silently.
    common::frame(&mut a, "x");
    assert!(matches!(
        a.screen().question().cloned(),
        Some(Confirm::Reload(_))
    ));
    common::frame(&mut a, "k");
    assert_eq!(a.session().design().level(), &painted, "the walls stay");
    common::frame(&mut a, "e U");
    assert_ne!(
        a.session().design().level(),
        &painted,
        "and undo still has them"
    );
    common::frame(&mut a, "R e");
    // The file is newer than what the game saw: saving asks first.
    common::frame(&mut a, "s");
    assert_eq!(a.screen().question().cloned(), Some(Confirm::Overwrite));
    common::frame(&mut a, "n");
    assert!(read(&path).contains("a note from outside"));

    // Taking the file's version instead drops the walls, says so, and clears the history.
    let mut b = app(&dir.copy("levels/pillar.txt"));
    common::frame(&mut b, "e k w e");
    assert!(b.session().unsaved());
    std::fs::write(
        b.session().source().path.as_ref().unwrap(),
        PILLAR_EDITED_OUTSIDE,
    )
    .unwrap();
    common::frame(&mut b, "reload f");
    assert!(b.screen().question().cloned().is_none());
    assert_eq!(
        b.session().design().level().title.as_deref(),
        Some("Pillar, edited outside")
    );
    assert!(!b.session().unsaved());
    let log: Vec<&str> = b.world().log().iter().map(|m| m.text.as_str()).collect();
    assert!(log.contains(&"pillar.txt changed on disk: the game restarts from the file."));
    assert!(log.contains(&"Undo history cleared: it belonged to the level before."));
    common::frame(&mut b, "e U");
    assert_eq!(last_log(&b), "Nothing to undo.");
}

#[test]
fn repro_2_a_broken_outside_edit_changes_nothing_and_the_next_save_asks() {
    let dir = Scratch::new();
    let path = dir.copy("levels/pillar.txt");
    let mut a = app(&path);
    let design = a.session().design().clone();
    std::fs::write(&path, "title: half written\n..X..\n").unwrap();
    common::frame(&mut a, "reload");
    assert!(
        last_log(&a).starts_with("Reload failed, level kept: pillar.txt:2:3: unknown glyph 'X'"),
        "{}",
        last_log(&a)
    );
    assert_eq!(a.session().design(), &design);
    common::frame(&mut a, "s");
    assert_eq!(
        a.screen().question().cloned(),
        Some(Confirm::Overwrite),
        "the newer file is not overwritten silently"
    );
    common::frame(&mut a, "n");
    assert_eq!(read(&path), "title: half written\n..X..\n");
}

#[test]
fn repro_3_saving_after_turns_writes_the_design_not_where_monsters_stand() {
    let dir = Scratch::new();
    let path = dir.copy("levels/pillar.txt");
    let original = std::fs::read(&path).unwrap();
    let mut a = app(&path);
    common::frame(&mut a, ". . s");
    assert_ne!(a.world().monsters()[0].pos, Pos::new(2, 3));
    assert_eq!(
        std::fs::read(&path).unwrap(),
        original,
        "comments and the goblin's start kept"
    );
}

#[test]
fn repro_4_quit_new_level_and_restart_ask_before_dropping_anything() {
    let dir = Scratch::new();
    let path = dir.copy("levels/pillar.txt");
    let mut a = app(&path);
    common::frame(&mut a, "e k w e q");
    assert!(
        a.front().is_running(),
        "an unsaved edit at turn 0 is not dropped by q"
    );
    assert_eq!(a.screen().question().cloned(), Some(Confirm::Quit));
    let frame = common::frame(&mut a, "");
    assert!(frame.contains("s  save and quit"), "{frame}");
    common::frame(&mut a, "n");
    assert!(a.front().is_running());
    // Ctrl-C asks too; a second one quits.
    common::frame(&mut a, "C-c");
    assert!(a.front().is_running() && a.screen().question().cloned() == Some(Confirm::Quit));
    common::frame(&mut a, "C-c");
    assert!(!a.front().is_running());

    // s saves and quits.
    let mut b = app(&path);
    common::frame(&mut b, "e k w e q s");
    assert!(!b.front().is_running());
    assert_eq!(last_log(&b), "Saved pillar.txt.");

    // G and r mid-game ask; n keeps the game.
    let mut c = app(&dir.copy("levels/bracket.txt"));
    common::frame(&mut c, ". G");
    assert_eq!(c.screen().question().cloned(), Some(Confirm::NewLevel));
    common::frame(&mut c, "n r");
    assert_eq!(c.screen().question().cloned(), Some(Confirm::Restart));
    common::frame(&mut c, "y");
    assert_eq!(c.world().turn(), 0, "restarted");
}

#[test]
fn repro_5_an_outside_edit_moving_a_goblin_shows_the_files_goblin_only() {
    let dir = Scratch::new();
    let a_txt = "#######\n#.....#\n#.....#\n#.g..@#\n#.....#\n#######\n";
    let b_txt = "#######\n#.....#\n#.....#\n#....@#\n#.g...#\n#######\n";
    let path = dir.write("a.txt", a_txt);
    let mut a = app(&path);
    std::fs::write(&path, b_txt).unwrap();
    common::frame(&mut a, "reload");
    let goblins: Vec<Pos> = a.world().monsters().iter().map(|m| m.pos).collect();
    assert_eq!(goblins, [Pos::new(2, 4)]);
    assert_eq!(
        last_log(&a),
        "a.txt changed on disk: the game restarts from the file."
    );
    common::frame(&mut a, "s");
    assert_eq!(read(&path), b_txt, "one goblin, where the file has it");
}

#[test]
fn repro_6_a_different_level_copied_over_shows_exactly_that_level() {
    let dir = Scratch::new();
    let path = dir.copy("levels/default.txt");
    let mut a = app(&path);
    common::frame(&mut a, "e 30*l");
    std::fs::copy(common::repo("levels/pillar.txt"), &path).unwrap();
    common::frame(&mut a, "reload");
    assert_eq!(a.world().grid().width(), 8);
    assert_eq!(a.world().player().pos, Pos::new(6, 3));
    let monsters: Vec<(char, Pos)> = a
        .world()
        .monsters()
        .iter()
        .map(|m| (m.kind, m.pos))
        .collect();
    assert_eq!(monsters, [('g', Pos::new(2, 3))]);
    // The editor stays open (the designer was editing); its cursor, past the smaller map's
    // edge, comes back to the player.
    assert_eq!(a.screen().mode(), Mode::Edit);
    assert_eq!(
        a.cursor(),
        Pos::new(6, 3),
        "the cursor is inside the new map"
    );
}

#[test]
fn repro_7_a_smaller_level_copied_over_a_wide_one_loads() {
    let dir = Scratch::new();
    let wide = format!(
        "{}\n#{}@..#\n{}\n",
        "#".repeat(60),
        ".".repeat(54),
        "#".repeat(60)
    );
    let path = dir.write("wide.txt", &wide);
    let mut a = app(&path);
    assert_eq!(a.world().player().pos, Pos::new(55, 1));
    std::fs::copy(common::repo("levels/pillar.txt"), &path).unwrap();
    common::frame(&mut a, "reload");
    assert_eq!(a.world().player().pos, Pos::new(6, 3));
}

#[test]
fn repro_8_a_mouse_stroke_paints_the_cells_under_the_pointer() {
    let dir = Scratch::new();
    let path = dir.copy("levels/default.txt");
    let mut a = common::app(&path, 1, (80, 24));
    common::frame(&mut a, "e");
    let camera = a.ui().camera();
    let under: Vec<Pos> = (10..=13).map(|c| map_cell(&a, c, 12).unwrap()).collect();
    let before = a.world().grid().clone();
    common::frame(
        &mut a,
        "click:10,12 drag:11,12 drag:12,12 drag:13,12 release:13,12",
    );
    assert_eq!(a.ui().camera(), camera, "the camera did not move");
    // Exactly the four cells under the pointer became walls, nothing else changed.
    let changed: Vec<Pos> = (0..before.len())
        .filter(|&i| before.tiles()[i] != a.world().grid().tiles()[i])
        .map(|i| before.pos(i))
        .collect();
    let want: Vec<Pos> = under
        .iter()
        .copied()
        .filter(|p| before.get(*p) != Tile::Wall)
        .collect();
    assert!(!want.is_empty());
    assert_eq!(changed, want);
    for p in &under {
        assert_eq!(a.session().design().level().grid.get(*p), Tile::Wall, "{p}");
    }
}

#[test]
fn a_fast_drag_paints_the_line_between_two_pointer_cells_and_replans_once() {
    let dir = Scratch::new();
    let path = dir.write(
        "open.txt",
        "..........\n..........\n..........\n..........\n....@.....\n.g......g.\n",
    );
    let mut a = common::app(&path, 1, (70, 20));
    common::frame(&mut a, "o e");
    let (from, to) = (Pos::new(1, 0), Pos::new(6, 2));
    let (c0, r0) = screen_cell(&a, from).unwrap();
    let (c1, r1) = screen_cell(&a, to).unwrap();
    let serial = a.world().planner().trace_serial();
    common::frame(&mut a, &format!("click:{c0},{r0} drag:{c1},{r1}"));
    assert_eq!(
        a.world().planner().trace_serial(),
        serial,
        "no replan during the stroke"
    );
    common::frame(&mut a, &format!("release:{c1},{r1}"));
    assert_ne!(
        a.world().planner().trace_serial(),
        serial,
        "one replan when it ends"
    );
    let line = astar_rogue::app::screen::line(from, to);
    assert_eq!(line.len(), 6);
    for p in line {
        assert_eq!(a.world().grid().get(p), Tile::Wall, "{p}");
    }
    // The whole stroke undoes in one step.
    common::frame(&mut a, "U");
    assert!(a.world().grid().tiles().iter().all(|t| *t == Tile::Floor));
}

#[test]
fn the_camera_stays_put_when_edit_mode_starts_and_scrolls_near_the_edge() {
    let dir = Scratch::new();
    let path = dir.copy("levels/default.txt");
    let mut a = common::app(&path, 1, (50, 16));
    let playing = a.ui().camera();
    common::frame(&mut a, "e");
    assert_eq!(a.ui().camera(), playing);
    // Walking the cursor right: the camera follows only once the cursor nears the edge.
    let mut moved_at = None;
    for i in 0..40 {
        common::frame(&mut a, "l");
        if a.ui().camera() != playing && moved_at.is_none() {
            moved_at = Some(i);
        }
    }
    let view_left = a.ui().camera().x;
    assert!(moved_at.is_some_and(|i| i > 0), "{moved_at:?}");
    // At 50 columns the panel narrows to 18, leaving the map 30 cells.
    assert!(a.cursor().x - view_left < 30, "the cursor stays in view");
}

#[cfg(unix)]
#[test]
fn repro_9_a_fifo_in_place_of_the_level_never_hangs() {
    let dir = Scratch::new();
    let path = dir.copy("levels/pillar.txt");
    let mut a = app(&path);
    std::fs::remove_file(&path).unwrap();
    nix::unistd::mkfifo(&path, nix::sys::stat::Mode::from_bits_truncate(0o644)).unwrap();
    let began = std::time::Instant::now();
    common::frame(&mut a, "reload");
    assert!(began.elapsed() < std::time::Duration::from_secs(2));
    assert_eq!(
        last_log(&a),
        format!("Reload failed, level kept: pillar.txt: is a FIFO, not a level file")
    );
    // Saving over it is refused: it stays a FIFO.
    common::frame(&mut a, "s y");
    assert!(
        last_log(&a).starts_with("Could not save pillar.txt: it is a FIFO"),
        "{}",
        last_log(&a)
    );
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata(&path).unwrap().file_type().is_fifo());
}

#[cfg(unix)]
#[test]
fn repro_10_a_link_to_a_device_is_neither_read_whole_nor_written() {
    let dir = Scratch::new();
    let path = dir.copy("levels/pillar.txt");
    let mut a = app(&path);
    std::fs::remove_file(&path).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
    common::frame(&mut a, "e k w e s");
    assert_eq!(
        a.screen().question().cloned(),
        Some(Confirm::Overwrite),
        "a device is not the file we saw"
    );
    common::frame(&mut a, "y");
    assert!(
        last_log(&a).starts_with("Could not save pillar.txt: it is a device"),
        "{}",
        last_log(&a)
    );
    assert_eq!(std::fs::read_link(&path).unwrap(), Path::new("/dev/zero"));
}

#[cfg(unix)]
#[test]
fn repro_11_saves_refuse_non_regular_and_read_only_files_and_keep_the_owner() {
    use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
    let dir = Scratch::new();
    assert!(write_atomic(Path::new("/dev/stdout"), b"x").is_err());
    assert!(write_atomic(Path::new("/dev/null"), b"x").is_err());
    let fifo = dir.path().join("fifo");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o644)).unwrap();
    let e = write_atomic(&fifo, b"x").unwrap_err();
    assert_eq!(
        e.to_string(),
        "it is a FIFO, not a regular file; nothing was written"
    );
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    let link = dir.path().join("to-stdout");
    std::os::unix::fs::symlink("/dev/stdout", &link).unwrap();
    assert!(write_atomic(&link, b"x").is_err());

    let locked = dir.write("locked.txt", "mine\n");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o444)).unwrap();
    let e = write_atomic(&locked, b"theirs\n").unwrap_err();
    assert_eq!(e.to_string(), "the file is read-only");
    assert_eq!(read(&locked), "mine\n");

    let shared = dir.write("shared.txt", "old\n");
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o664)).unwrap();
    // Files we create are ours; owned by root, we are root: then another user's file
    // saved by root must stay theirs.
    if std::fs::metadata(&shared).unwrap().uid() == 0 {
        std::os::unix::fs::chown(&shared, Some(1234), Some(2345)).unwrap();
    }
    let (uid, gid) = {
        let m = std::fs::metadata(&shared).unwrap();
        (m.uid(), m.gid())
    };
    write_atomic(&shared, b"new\n").unwrap();
    let m = std::fs::metadata(&shared).unwrap();
    assert_eq!(
        (m.uid(), m.gid(), m.permissions().mode() & 0o777),
        (uid, gid, 0o664)
    );
    assert_eq!(read(&shared), "new\n");
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "no temporary file is left behind");
}

#[test]
fn repro_12_reloading_a_huge_level_with_many_monsters_is_quick() {
    let dir = Scratch::new();
    let side = 2048;
    let mut rows: Vec<String> = vec![".".repeat(side); side];
    rows[0].replace_range(0..1, "@");
    for i in 0..201 {
        let (x, y) = (7 + (i * 37) % (side - 8), 5 + (i * 53) % (side - 6));
        rows[y].replace_range(x..x + 1, "g");
    }
    let open = rows.join("\n") + "\n";
    let path = dir.write("huge.txt", &open);
    let mut a = common::app(&path, 1, (100, 30));
    assert_eq!(a.world().monsters().len(), 201);
    // Walls everywhere but the creatures' own cells.
    let walled: String = open
        .chars()
        .map(|c| if c == '.' { '#' } else { c })
        .collect();
    std::fs::write(&path, walled).unwrap();
    let began = std::time::Instant::now();
    common::frame(&mut a, "reload");
    let took = began.elapsed();
    assert_eq!(a.world().monsters().len(), 201);
    assert!(
        took < std::time::Duration::from_secs(20),
        "reload took {took:?}"
    );
}

#[test]
fn repro_13_stale_temporary_files_of_ours_are_cleaned_and_no_other_file_is_touched() {
    let dir = Scratch::new();
    let path = dir.copy("levels/pillar.txt");
    // What a crashed save of ours leaves (a process that no longer exists), and files that
    // only look similar.
    let stale = dir.write(
        ".pillar.txt.astar-rogue-4000000000-0123456789abcdef.tmp",
        "x",
    );
    let other = dir.write(".pillar.txt.tmp-123", "not ours");
    let blocker = dir
        .path()
        .join(format!(".pillar.txt.tmp-{}", std::process::id()));
    std::fs::create_dir(&blocker).unwrap();
    let mut a = app(&path);
    common::frame(&mut a, "e k w e s");
    assert_eq!(last_log(&a), "Saved pillar.txt.");
    assert!(!stale.exists(), "our stale temporary file is cleaned up");
    assert!(
        other.exists() && blocker.is_dir(),
        "other files are left alone"
    );
}

#[test]
fn long_file_names_still_save() {
    let dir = Scratch::new();
    let name = format!("{}.txt", "l".repeat(250));
    let path = dir.write(&name, read(&common::repo("levels/pillar.txt")));
    let mut a = app(&path);
    common::frame(&mut a, "e k w e s");
    assert_eq!(last_log(&a), format!("Saved {name}."));
}

#[test]
fn undo_survives_a_save_and_undoing_to_the_save_is_clean_again() {
    let dir = Scratch::new();
    let path = dir.copy("levels/pillar.txt");
    let mut a = app(&path);
    // The cursor starts on the goblin: one step up first.
    common::frame(&mut a, "e k w");
    assert!(a.session().unsaved());
    common::frame(&mut a, "s");
    assert!(!a.session().unsaved());
    common::frame(&mut a, "l w U");
    assert!(!a.session().unsaved(), "back where it was saved");
    common::frame(&mut a, "U");
    assert!(a.session().unsaved());
    assert_eq!(
        a.session()
            .design()
            .level()
            .grid
            .get(a.cursor().offset(-1, 0)),
        Tile::Floor
    );
}

#[test]
fn editing_changes_the_design_and_the_game_follows() {
    let dir = Scratch::new();
    let path = dir.copy("levels/pillar.txt");
    let mut a = app(&path);
    // Two turns: the goblin leaves its start at 2,3.
    common::frame(&mut a, ". .");
    let goblin = a.world().monsters()[0].pos;
    assert_ne!(goblin, Pos::new(2, 3));
    common::frame(&mut a, "e");
    // A wall on the goblin's start is refused: the design has it there.
    a.set_cursor(Pos::new(2, 3));
    common::frame(&mut a, "w");
    assert_eq!(last_log(&a), "A goblin starts here; delete it (d) first.");
    // A wall under the goblin where it stands now moves it to the nearest free cell.
    a.set_cursor(goblin);
    common::frame(&mut a, "w");
    let moved = a.world().monsters()[0].pos;
    assert!(a.world().grid().is_passable(moved) && moved.chebyshev(goblin) == 1);
    // d on its start removes it from the design and from play.
    a.set_cursor(Pos::new(2, 3));
    common::frame(&mut a, "d");
    assert!(a.world().monsters().is_empty() && a.session().design().level().monsters.is_empty());
    common::frame(&mut a, "U");
    assert_eq!(a.world().monsters().len(), 1, "undo brings it back");
    // @ moves the player's start and the player.
    a.set_cursor(Pos::new(0, 0));
    common::frame(&mut a, "@");
    assert_eq!(a.world().player().pos, Pos::new(0, 0));
    assert_eq!(a.session().design().level().player, Some(Pos::new(0, 0)));
    // A restart plays the design.
    common::frame(&mut a, "e r y");
    assert_eq!(a.world().turn(), 0);
    assert_eq!(a.world().monsters()[0].pos, Pos::new(2, 3));
    assert_eq!(a.world().grid(), &a.session().design().level().grid);
}

#[test]
fn a_file_changed_on_disk_is_not_overwritten_without_asking() {
    let dir = Scratch::new();
    let path = dir.copy("levels/pillar.txt");
    let mut a = app(&path);
    // Not reloaded yet (the poll has not run): a save notices the change itself.
    std::fs::write(&path, PILLAR_EDITED_OUTSIDE).unwrap();
    common::frame(&mut a, "s");
    assert_eq!(a.screen().question().cloned(), Some(Confirm::Overwrite));
    common::frame(&mut a, "n");
    assert_eq!(read(&path), PILLAR_EDITED_OUTSIDE);
    common::frame(&mut a, "s y");
    assert_ne!(read(&path), PILLAR_EDITED_OUTSIDE);
    assert_eq!(last_log(&a), "Saved pillar.txt.");
}

#[test]
fn outside_edits_are_noticed_by_polling() {
    let dir = Scratch::new();
    let path = dir.copy("levels/pillar.txt");
    let mut a = app(&path);
    a.poll_disk();
    assert_eq!(
        a.session().design().level().title.as_deref(),
        Some("Pillar (8x6)"),
        "nothing changed yet"
    );
    std::fs::write(&path, PILLAR_EDITED_OUTSIDE).unwrap();
    // Taken once it has settled: unchanged for a moment, as a writer midway may pause.
    a.poll_disk();
    assert_eq!(
        a.session().design().level().title.as_deref(),
        Some("Pillar (8x6)"),
        "not before it settles"
    );
    std::thread::sleep(astar_rogue::app::DISK_SETTLE);
    a.poll_disk();
    assert_eq!(
        a.session().design().level().title.as_deref(),
        Some("Pillar, edited outside")
    );
}

#[test]
fn a_failed_save_leaves_the_old_file_byte_identical() {
    let dir = Scratch::new();
    let path = dir.copy("levels/pillar.txt");
    let old = std::fs::read(&path).unwrap();
    let mut a = app(&path);
    // The folder cannot take a new file: the temporary file cannot be created.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let readonly = std::fs::Permissions::from_mode(0o555);
        std::fs::set_permissions(dir.path(), readonly).unwrap();
        let writable = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(dir.path().join("probe"))
            .is_ok();
        if !writable {
            common::frame(&mut a, "e k w e s");
            let msg = last_log(&a);
            assert!(msg.starts_with("Could not save pillar.txt:"), "{msg}");
            assert!(msg.ends_with("The file on disk is unchanged."), "{msg}");
            assert_eq!(std::fs::read(&path).unwrap(), old);
        }
        // Root writes anyway; the directory cases below cover failures for everyone.
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    // The level file became a directory: refused, the directory untouched.
    std::fs::remove_file(&path).unwrap();
    std::fs::create_dir(&path).unwrap();
    let e = write_atomic(&path, b"x").unwrap_err();
    assert_eq!(
        e.to_string(),
        "it is a directory, not a regular file; nothing was written"
    );
    assert!(path.is_dir());
    // A folder that no longer exists.
    let gone = dir.path().join("gone/level.txt");
    let e = write_atomic(&gone, b"x").unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::NotFound);
}

/// A small Moving AI map (the format of the benchmark set CI keeps beside the clone), written
/// here so the test needs nothing outside the repository.
const ROOM_MAP: &str = "type octile\nheight 6\nwidth 12\nmap\n............\n............\n............\n............\n............\n............\n";

#[test]
fn a_moving_ai_map_saves_beside_itself_and_never_over_the_source() {
    let dir = Scratch::new();
    let map = dir.write("room.map", ROOM_MAP);
    let mut a = app(&map);
    assert!(a.world().grid().is_passable(a.world().player().pos));
    assert!(
        !a.world().monsters().is_empty(),
        "creatures are placed from the seed"
    );
    common::frame(&mut a, "s");
    assert_eq!(last_log(&a), "Saved room.txt.");
    assert_eq!(read(&map), ROOM_MAP);
    let (saved, format) =
        astar_rogue::content::level::Level::load(&dir.path().join("room.txt")).unwrap();
    assert_eq!(format, astar_rogue::content::level::Format::Text);
    assert_eq!(&saved, a.session().design().level());
    // The text copy is the level's file from now on: the next save goes into it.
    common::frame(&mut a, "e k w e s");
    assert_eq!(last_log(&a), "Saved room.txt.");
    assert!(!dir.path().join("room-1.txt").exists());
}

#[test]
fn a_moving_ai_map_that_loses_all_floor_is_refused_and_the_game_stays() {
    let dir = Scratch::new();
    let map = dir.write("room.map", ROOM_MAP);
    let mut a = app(&map);
    let design = a.session().design().clone();
    std::fs::write(&map, ROOM_MAP.replace('.', "T")).unwrap();
    common::frame(&mut a, "reload");
    assert!(
        last_log(&a).starts_with("Reload failed, level kept: room.map:"),
        "{}",
        last_log(&a)
    );
    assert_eq!(a.session().design(), &design);
    // A map that keeps floor reloads with creatures placed again.
    std::fs::write(&map, ROOM_MAP.replacen("............", "....TTTT....", 1)).unwrap();
    common::frame(&mut a, "reload");
    assert!(!a.session().design().level().monsters.is_empty());
    assert_eq!(a.world().grid().get(Pos::new(4, 0)), Tile::Wall);
}

#[cfg(unix)]
#[test]
fn a_save_writes_through_a_symbolic_link_and_keeps_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = Scratch::new();
    let real = dir.copy("levels/pillar.txt");
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).unwrap();
    let link = dir.path().join("link.txt");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    write_atomic(&link, b"saved\n").unwrap();
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read(&real).unwrap(), b"saved\n");
    let mode = std::fs::metadata(&real).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
}

#[test]
fn stairs_and_potions_are_laid_deleted_undone_and_saved_as_glyphs() {
    use astar_rogue::content::level::FeatureKind::{Potion, Stairs};
    let dir = Scratch::new();
    let path = dir.copy("levels/pillar.txt");
    let before = read(&path);
    let mut a = app(&path);
    let (stairs, potion, goblin) = (Pos::new(7, 0), Pos::new(0, 5), Pos::new(2, 3));
    common::frame(&mut a, "e");
    a.set_cursor(stairs);
    common::frame(&mut a, ">");
    assert_eq!(
        last_log(&a),
        "Kill the monster to open the stairs > (depth 1 of 3)."
    );
    a.set_cursor(potion);
    common::frame(&mut a, "!");
    assert_eq!(a.world().feature_at(stairs), Some(Stairs));
    assert_eq!(a.world().feature_at(potion), Some(Potion));
    // On a monster's start, or on a wall, nothing is laid.
    a.set_cursor(goblin);
    common::frame(&mut a, ">");
    assert_eq!(last_log(&a), "That cell is taken: a goblin starts there.");
    a.set_cursor(Pos::new(4, 2));
    common::frame(&mut a, "!");
    assert_eq!(
        last_log(&a),
        "Stairs and potions lie on floor: put floor first."
    );
    assert_eq!(a.world().feature_at(Pos::new(4, 2)), None);
    // A wall over the stairs is refused in the design and in play alike.
    a.set_cursor(stairs);
    common::frame(&mut a, "w");
    assert_eq!(
        last_log(&a),
        "The stairs down lie here; delete them (d) first."
    );
    assert_eq!(a.world().grid().get(stairs), Tile::Floor);
    assert_eq!(a.session().design().level().grid.get(stairs), Tile::Floor);
    common::frame(&mut a, "s");
    let after = read(&path);
    let mut want: Vec<String> = before.lines().map(String::from).collect();
    // The map starts on the file's fifth line.
    want[4].replace_range(7..8, ">");
    want[9].replace_range(0..1, "!");
    assert_eq!(after.lines().collect::<Vec<_>>(), want);

    // `d` takes the potion; undo brings it back, in play too; redo takes it again.
    a.set_cursor(potion);
    common::frame(&mut a, "d");
    assert_eq!(a.world().feature_at(potion), None);
    assert_eq!(a.session().design().feature_at(potion), None);
    common::frame(&mut a, "U");
    assert_eq!(a.world().feature_at(potion), Some(Potion));
    assert_eq!(a.session().design().feature_at(potion), Some(Potion));
    common::frame(&mut a, "R");
    assert_eq!(a.world().feature_at(potion), None);
    // Potions swap for stairs in one step, and `d` on an empty cell says so.
    a.set_cursor(stairs);
    common::frame(&mut a, "!");
    assert_eq!(a.session().design().feature_at(stairs), Some(Potion));
    assert_eq!(
        last_log(&a),
        "Kill the monster to win the run (depth 1 of 1)."
    );
    common::frame(&mut a, "U");
    assert_eq!(a.session().design().feature_at(stairs), Some(Stairs));
    a.set_cursor(Pos::new(1, 1));
    common::frame(&mut a, "d");
    assert_eq!(last_log(&a), "Nothing here to delete.");
    // `d` on the goblin still deletes the goblin, not a feature.
    a.set_cursor(goblin);
    common::frame(&mut a, "d");
    assert!(a.world().monsters().is_empty());
    // The floor it leaves has its way down open, and says so; undo closes it again.
    assert_eq!(
        last_log(&a),
        "No monsters here: the stairs > are open (depth 1 of 3)."
    );
    common::frame(&mut a, "U");
    assert_eq!(
        last_log(&a),
        "Kill the monster to open the stairs > (depth 1 of 3)."
    );
    common::frame(&mut a, "R");
    common::frame(&mut a, "s");
    let saved = read(&path);
    assert_eq!(saved.lines().nth(4), Some(".......>"));
    assert_eq!(saved.lines().nth(7), Some("....#.@."));
    assert_eq!(saved.lines().nth(9), Some("........"));
}

#[test]
fn nothing_else_goes_where_stairs_or_a_potion_lie() {
    let dir = Scratch::new();
    let path = dir.write("f.txt", "########\n#@.>.!.#\n#.....g#\n########\n");
    let mut a = app(&path);
    // One step east: the player stands beside their start.
    common::frame(&mut a, "l e");
    let (stairs, potion) = (Pos::new(3, 1), Pos::new(5, 1));
    a.set_cursor(stairs);
    common::frame(&mut a, "m r");
    assert_eq!(
        last_log(&a),
        "The stairs down lie here; delete them (d) first."
    );
    a.set_cursor(potion);
    common::frame(&mut a, "@");
    assert_eq!(
        last_log(&a),
        "A healing potion lies here; delete it (d) first."
    );
    assert_eq!(a.world().monsters().len(), 1);
    assert_eq!(a.world().player().pos, Pos::new(2, 1));
    // Nor is anything laid under the player.
    a.set_cursor(Pos::new(2, 1));
    common::frame(&mut a, "!");
    assert_eq!(last_log(&a), "You stand there; step aside first.");
    assert_eq!(a.world().feature_at(Pos::new(2, 1)), None);
    common::frame(&mut a, "s");
    assert_eq!(read(&path), "########\n#@.>.!.#\n#.....g#\n########\n");
}

#[test]
fn an_outside_edit_while_editing_keeps_the_game_in_its_editor() {
    // A designer with the level open in the game's editor and in their own: saving in
    // their editor restarts the game from the file, and the game's editor stays open on
    // the same cell with the same glyph.
    let dir = Scratch::new();
    let mut a = app(&dir.copy("levels/pillar.txt"));
    common::frame(&mut a, "e h ~ s");
    assert!(!a.session().unsaved());
    let cell = a.cursor();
    std::fs::write(
        a.session().source().path.as_ref().unwrap(),
        PILLAR_EDITED_OUTSIDE,
    )
    .unwrap();
    common::frame(&mut a, "reload");
    let log: Vec<&str> = a.world().log().iter().map(|m| m.text.as_str()).collect();
    assert!(log.contains(&"pillar.txt changed on disk: the game restarts from the file."));
    assert_eq!(a.screen().mode(), Mode::Edit);
    assert_eq!(a.cursor(), cell);
    assert_eq!(a.screen().tools().map(|t| t.glyph), Some(Tile::Water));
}
