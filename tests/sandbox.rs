//! The sandbox's files: reload after outside edits, broken edits, atomic and careful saves.

use std::path::Path;

use astar_rogue::app::{App, Confirm, write_atomic};
use astar_rogue::engine::grid::{Pos, Tile};

mod common;

use common::Scratch;

fn app(path: &Path) -> App {
    common::app(path, 1, (70, 20))
}

const PILLAR_WIDER_WALL: &str =
    "title: Pillar, edited outside\n........\n....#...\n....#...\n..g.#.@.\n....#...\n........\n";

#[test]
fn an_outside_edit_is_reloaded_and_creatures_keep_their_places() {
    let dir = Scratch::new();
    let path = dir.copy("levels/pillar.txt");
    let mut a = app(&path);
    common::frame(&mut a, "3*.");
    let goblin = a.world.monsters[0].pos;
    assert_eq!(
        goblin,
        Pos::new(4, 1),
        "the goblin stands where the new wall goes"
    );
    std::fs::write(&path, PILLAR_WIDER_WALL).unwrap();
    let out = common::frame(&mut a, "reload snap");
    assert_eq!(a.world.grid.get(Pos::new(4, 1)), Tile::Wall);
    assert_eq!(a.world.monsters.len(), 1);
    let moved = a.world.monsters[0].pos;
    assert_eq!(
        moved,
        Pos::new(3, 0),
        "walled in, the goblin steps to the nearest free cell"
    );
    assert_eq!(
        a.world.player.pos,
        Pos::new(6, 3),
        "the player keeps their place"
    );
    assert_eq!(a.world.turn, 3);
    insta::assert_snapshot!("reload_after_outside_edit", out);
}

#[test]
fn a_broken_outside_edit_leaves_the_level_in_play() {
    let dir = Scratch::new();
    let path = dir.copy("levels/pillar.txt");
    let mut a = app(&path);
    let before = a.world.grid.clone();
    std::fs::write(&path, "........\n..g.X.@.\n").unwrap();
    let out = common::frame(&mut a, "reload");
    assert_eq!(a.world.grid, before);
    let last = &a.world.log.last().unwrap().text;
    assert_eq!(
        last,
        "Reload failed, level kept: pillar.txt:2:5: unknown glyph 'X': use '#' wall, '.' floor, '@' player, 'a'-'z' monster, space void"
    );
    insta::assert_snapshot!("reload_broken_edit", out);
    // Mending the file brings the reload back.
    std::fs::write(&path, PILLAR_WIDER_WALL).unwrap();
    common::frame(&mut a, "reload");
    assert_eq!(a.world.grid.get(Pos::new(4, 1)), Tile::Wall);
}

#[test]
fn polling_notices_a_change_on_disk() {
    let dir = Scratch::new();
    let path = dir.copy("levels/pillar.txt");
    let mut a = app(&path);
    a.poll_disk();
    assert!(a.world.log.iter().all(|m| !m.text.starts_with("Reloaded")));
    std::fs::write(&path, PILLAR_WIDER_WALL).unwrap();
    a.poll_disk();
    assert!(
        a.world
            .log
            .last()
            .unwrap()
            .text
            .starts_with("Reloaded pillar.txt")
    );
}

#[test]
fn saving_writes_the_level_and_it_reads_back() {
    let dir = Scratch::new();
    let path = dir.copy("levels/pillar.txt");
    let mut a = app(&path);
    common::frame(&mut a, "e k w e s");
    assert_eq!(a.world.log.last().unwrap().text, "Saved pillar.txt.");
    let (saved, _) = astar_rogue::content::level::Level::load(&path).unwrap();
    assert_eq!(saved.grid.get(Pos::new(2, 2)), Tile::Wall);
    assert_eq!(saved.title.as_deref(), Some("Pillar (8x6)"));
    assert_eq!(saved.player, Some(Pos::new(6, 3)));
    let leftovers: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(leftovers.len(), 1, "no temporary file is left behind");
}

#[test]
fn a_file_changed_on_disk_is_not_overwritten_without_asking() {
    let dir = Scratch::new();
    let path = dir.copy("levels/pillar.txt");
    let mut a = app(&path);
    std::fs::write(&path, PILLAR_WIDER_WALL).unwrap();
    common::frame(&mut a, "s");
    assert_eq!(a.confirm, Some(Confirm::Overwrite));
    common::frame(&mut a, "n");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), PILLAR_WIDER_WALL);
    common::frame(&mut a, "s y");
    assert_ne!(std::fs::read_to_string(&path).unwrap(), PILLAR_WIDER_WALL);
    assert_eq!(a.world.log.last().unwrap().text, "Saved pillar.txt.");
}

#[test]
fn a_failed_save_leaves_the_old_file_byte_identical() {
    let dir = Scratch::new();
    let path = dir.copy("levels/pillar.txt");
    let old = std::fs::read(&path).unwrap();
    let mut a = app(&path);
    // The temporary file's name is taken by a directory: the write fails before the rename.
    let tmp = dir
        .path()
        .join(format!(".pillar.txt.tmp-{}", std::process::id()));
    std::fs::create_dir(&tmp).unwrap();
    common::frame(&mut a, "e k w e s");
    let msg = &a.world.log.last().unwrap().text;
    assert!(msg.starts_with("Could not save pillar.txt:"), "{msg}");
    assert!(msg.ends_with("The file on disk is unchanged."), "{msg}");
    assert_eq!(std::fs::read(&path).unwrap(), old);
    std::fs::remove_dir(&tmp).unwrap();

    // The level file became a directory: refused, the directory untouched.
    std::fs::remove_file(&path).unwrap();
    std::fs::create_dir(&path).unwrap();
    assert!(write_atomic(&path, b"x").is_err());
    assert!(path.is_dir());

    // A folder that no longer exists.
    let gone = dir.path().join("gone/level.txt");
    let e = write_atomic(&gone, b"x").unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::NotFound);
}

#[test]
fn a_moving_ai_map_saves_beside_itself_and_never_over_the_source() {
    let dir = Scratch::new();
    let map = dir.path().join("arena.map");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/movingai/arena.map"),
        &map,
    )
    .unwrap();
    let original = std::fs::read(&map).unwrap();
    let mut a = app(&map);
    assert!(
        a.world.grid.is_passable(a.world.player.pos),
        "the player is placed on floor"
    );
    assert!(
        !a.world.monsters.is_empty(),
        "creatures are placed from the seed"
    );
    common::frame(&mut a, "s");
    assert_eq!(a.world.log.last().unwrap().text, "Saved arena.txt.");
    assert_eq!(std::fs::read(&map).unwrap(), original);
    let (saved, format) =
        astar_rogue::content::level::Level::load(&dir.path().join("arena.txt")).unwrap();
    assert_eq!(format, astar_rogue::content::level::Format::Text);
    assert_eq!(saved.player, Some(a.world.player.pos));
    // The text copy is the level's file from now on: the next save goes into it.
    common::frame(&mut a, "e w e s");
    assert_eq!(a.world.log.last().unwrap().text, "Saved arena.txt.");
    assert!(!dir.path().join("arena-1.txt").exists());
}

#[test]
fn undo_after_a_reload_cannot_bring_back_the_old_map() {
    let dir = Scratch::new();
    let path = dir.copy("levels/pillar.txt");
    let mut a = app(&path);
    // A wall painted in game, then the file is edited outside and reloaded.
    common::frame(&mut a, "e k w e");
    let painted = a.cursor;
    assert_eq!(a.world.grid.get(painted), Tile::Wall);
    std::fs::write(&path, PILLAR_WIDER_WALL).unwrap();
    a.reload();
    let reloaded = a.world.grid.clone();
    // The undo step described the old map: after the reload there is nothing to undo.
    common::frame(&mut a, "e U R e");
    assert_eq!(a.world.grid, reloaded);
}

#[test]
fn a_refused_reload_leaves_the_game_untouched() {
    let dir = Scratch::new();
    let map = dir.path().join("tiny.map");
    let floor = "type octile\nheight 3\nwidth 4\nmap\n....\n....\n....\n";
    std::fs::write(&map, floor).unwrap();
    let mut a = app(&map);
    let (grid, player, monsters) = (
        a.world.grid.clone(),
        a.world.player.pos,
        a.world.monsters.len(),
    );
    std::fs::write(
        &map,
        "type octile\nheight 3\nwidth 4\nmap\nTTTT\nTTTT\nTTTT\n",
    )
    .unwrap();
    a.reload();
    assert!(
        a.world
            .log
            .last()
            .unwrap()
            .text
            .starts_with("Reload refused")
    );
    assert_eq!(a.world.grid, grid, "the old map stays in play");
    assert_eq!(
        (a.world.player.pos, a.world.monsters.len()),
        (player, monsters)
    );
}

#[test]
fn a_reloaded_moving_ai_map_still_restarts_with_creatures() {
    let dir = Scratch::new();
    let map = dir.path().join("room.map");
    let room = |wall_row: &str| {
        format!(
            "type octile\nheight 6\nwidth 12\nmap\n............\n............\n{wall_row}\n............\n............\n............\n"
        )
    };
    std::fs::write(&map, room("............")).unwrap();
    let mut a = app(&map);
    assert!(!a.world.monsters.is_empty());
    std::fs::write(&map, room("....TTTT....")).unwrap();
    a.reload();
    assert!(
        !a.level.monsters.is_empty(),
        "the level a restart plays has creatures again"
    );
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
