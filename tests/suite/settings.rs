//! The settings file from the outside: where the game looks for it, `astar-rogue config`,
//! bad files refused whole with their line and column (exit 2), and scripts and `test`
//! never reading the user's own file. (The parser's cases are unit tests in
//! `app::config`; a script with settings, `tests/scripts/settings.keys`, shows them
//! honoured in play.)

use std::path::Path;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_astar-rogue");

/// Runs the binary from the repository with `XDG_CONFIG_HOME` at `config_home` (and
/// `HOME` beside it), no `ASTAR_ROGUE_CONFIG` unless `env` sets it, and no terminal.
fn run(config_home: &Path, args: &[&str], env: &[(&str, &Path)]) -> Output {
    let mut cmd = Command::new(BIN);
    cmd.args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("XDG_CONFIG_HOME", config_home)
        .env("HOME", config_home)
        .env_remove("ASTAR_ROGUE_CONFIG")
        .env_remove("ASTAR_ROGUE_PANIC")
        .stdin(Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("run astar-rogue")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A settings file in the user's config folder under `home`.
fn user_file(home: &Path, content: &str) -> std::path::PathBuf {
    let dir = home.join("astar-rogue");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("config.toml");
    std::fs::write(&file, content).unwrap();
    file
}

const REBINDING: &str = "[keys.everywhere]\nmove_w = [\"j\"]\nmove_s = [\"k\"]\nmove_n = [\"i\"]\nhelp = [\"F1\"]\n[game]\nsight = false\n";

#[test]
fn config_prints_the_path_and_the_whole_default_file() {
    let home = tempfile::tempdir().unwrap();
    let out = run(home.path(), &["config"], &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let path = home.path().join("astar-rogue/config.toml");
    let mut lines = stdout.lines();
    assert_eq!(
        lines.next(),
        Some(format!("# The settings file: {}", path.display()).as_str())
    );
    assert_eq!(
        lines.next(),
        Some("# (there is none yet, so the game plays with the defaults below)")
    );
    assert!(
        stdout.ends_with(&astar_rogue::app::config::default_file()),
        "{stdout}"
    );
    // The whole output is a settings file too: saved as it is, it changes nothing.
    let parsed = astar_rogue::app::config::parse(stdout.as_bytes(), "out").unwrap();
    assert_eq!(
        parsed,
        astar_rogue::app::config::Settings::default(),
        "the printed file reads back as the defaults"
    );
    user_file(home.path(), "");
    let out = run(home.path(), &["config"], &[]);
    assert!(text(&out.stdout).contains("# (it exists; below are the defaults, not what it says)"));
}

#[test]
fn the_environment_variable_names_another_file() {
    let home = tempfile::tempdir().unwrap();
    let other = home.path().join("mine.toml");
    std::fs::write(&other, "[game]\nautoplay_speed = 7\n").unwrap();
    let env = [("ASTAR_ROGUE_CONFIG", other.as_path())];
    let out = run(home.path(), &["config"], &env);
    assert!(
        text(&out.stdout).starts_with(&format!(
            "# The settings file (from ASTAR_ROGUE_CONFIG): {}\n",
            other.display()
        )),
        "{}",
        text(&out.stdout)
    );
    let out = run(home.path(), &["config", "--check"], &env);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.starts_with(&format!(
            "{}:2:18: autoplay_speed is one of 1, 2, 5, 10, 25, 60, 150, 400, 1000, 4000",
            other.display()
        )),
        "{err}"
    );
    // The named file must exist: asked for, it is not silently skipped.
    let gone = home.path().join("gone.toml");
    let out = run(home.path(), &["play"], &[("ASTAR_ROGUE_CONFIG", &gone)]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).starts_with(&format!("{}: ", gone.display())));
}

/// A settings file linked to nothing is not "no settings": `config --check` and `play`
/// refuse it, naming it (exit 2), and `config` says what it is.
#[test]
fn a_settings_link_to_nothing_is_refused_not_taken_for_the_defaults() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("astar-rogue");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("config.toml");
    std::os::unix::fs::symlink(home.path().join("moved.toml"), &file).unwrap();
    for args in [&["config", "--check"][..], &["play"]] {
        let out = run(home.path(), args, &[]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.starts_with(&format!("{}: ", file.display())),
            "{args:?}: {err}"
        );
    }
    let out = run(home.path(), &["config"], &[]);
    assert!(
        text(&out.stdout).contains(
            "# (it is a link to nothing: the game will not start until it is mended or removed)\n"
        ),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn play_reads_the_users_file_and_refuses_a_bad_one_whole() {
    let home = tempfile::tempdir().unwrap();
    // Good lines first: none of them may take effect when a later one is wrong.
    let file = user_file(
        home.path(),
        "[keys.everywhere]\nhelp = [\"F1\"]\n\n[keys.playing]\nwait = [\"h\"]\n",
    );
    for args in [
        &["play"][..],
        &["levels/pillar.txt"],
        &["lab", "levels/pillar.txt"],
    ] {
        let out = run(home.path(), args, &[]);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(out.stdout.is_empty());
        let err = text(&out.stderr);
        assert_eq!(
            err.lines().next().unwrap(),
            format!(
                "{}:5:9: \"h\" is bound to both everywhere.move_w (its default) and playing.wait: one key can do one thing",
                file.display()
            ),
            "{args:?}"
        );
        assert!(err.contains("5 | wait = [\"h\"]\n  |         ^"), "{err}");
    }
}

#[test]
fn a_bad_file_given_on_the_command_line_or_in_a_header_is_a_positioned_error() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "[colours]\nopen = \"purpel\"\n").unwrap();
    let script = dir.path().join("s.keys");
    std::fs::write(&script, "#! config: bad.toml\nl\n").unwrap();
    let plain = dir.path().join("plain.keys");
    std::fs::write(&plain, "l\n").unwrap();
    let bad_s = bad.to_str().unwrap();
    for args in [
        vec!["script", script.to_str().unwrap()],
        vec!["script", plain.to_str().unwrap(), "--config", bad_s],
        vec!["play", "--config", bad_s],
        vec!["config", "--check", bad_s],
    ] {
        let out = run(dir.path(), &args, &[]);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = text(&out.stderr);
        assert!(
            err.starts_with(&format!(
                "{}:2:8: \"purpel\" is not a colour",
                bad.display()
            )),
            "{args:?}: {err}"
        );
    }
}

/// A script's frames are the same on every machine: the user's settings, even a broken
/// file, never reach `script` or `test`.
#[test]
fn scripts_and_test_never_read_the_users_settings() {
    let clean = tempfile::tempdir().unwrap();
    let with = tempfile::tempdir().unwrap();
    user_file(with.path(), REBINDING);
    let broken = with.path().join("broken.toml");
    std::fs::write(&broken, "[[[").unwrap();
    let env = [("ASTAR_ROGUE_CONFIG", broken.as_path())];
    let args = ["script", "tests/scripts/moves.keys", "--state"];
    let expected = run(clean.path(), &args, &[]);
    assert!(expected.status.success());
    for env in [&[][..], &env] {
        let out = run(with.path(), &args, env);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert_eq!(text(&out.stdout), text(&expected.stdout));
        let out = run(with.path(), &["test", "tests/scripts/moves.keys"], env);
        assert!(out.status.success(), "{}", text(&out.stdout));
    }
    // The same file given on purpose does change them.
    let file = with.path().join("astar-rogue/config.toml");
    let out = run(
        clean.path(),
        &[
            "script",
            "tests/scripts/moves.keys",
            "--state",
            "--config",
            file.to_str().unwrap(),
        ],
        &[],
    );
    assert!(out.status.success());
    assert_ne!(text(&out.stdout), text(&expected.stdout));
}

/// The clash check knows which parts of the game apply together: every set of contexts the
/// app uses (on each of its screens, the busy box's and the replay viewer's) is one of
/// `config::STACKS`, and each of those is one the game uses.
#[test]
fn every_context_stack_the_app_uses_is_checked_for_clashes() {
    use astar_rogue::app::config::{BUSY_STACK, REPLAY_STACK, STACKS};
    let level = super::common::repo("levels/pillar.txt");
    let mut used: Vec<&[astar_rogue::app::keymap::Context]> = vec![BUSY_STACK, REPLAY_STACK];
    // Each screen: playing, the overlay, look mode with and without it, the editor and its
    // monster and resize keys, the lab, aiming, the help, the history and a question.
    let screens = [
        "", "o", "x", "o x", "e", "e m", "e Z", "L", "F", "?", "C-p", "l q",
    ];
    for keys in screens {
        let mut app = super::common::app(&level, 1, (80, 24));
        super::common::frame(&mut app, keys);
        let stack = app.contexts();
        assert!(
            STACKS.contains(&stack),
            "after {keys:?} the app uses {stack:?}, which the settings' clash check misses"
        );
        used.push(stack);
    }
    for stack in STACKS {
        assert!(
            used.contains(&stack),
            "the clash check has {stack:?}, which no screen uses"
        );
    }
    assert_eq!(used.len(), STACKS.len(), "{used:?}");
}

/// A question names the player's keys for its answers, in its box and in the hint bar, and
/// the end screen names theirs for a new run and quitting.
#[test]
fn questions_and_the_end_screen_name_the_players_keys() {
    let file =
        b"[keys.questions]\nyes = [\"j\"]\nno = [\"x\"]\n[keys.playing]\nrestart = [\"R\"]\n";
    let settings = astar_rogue::app::config::parse(file, "config.toml").unwrap();
    let mut a = crate::common::app(std::path::Path::new("levels/pillar.txt"), 1, (80, 24));
    a.apply_settings(settings);
    let frame = crate::common::frame(&mut a, "l q");
    assert!(frame.contains("j  quit    x  keep playing"), "{frame}");
    let hint = frame.lines().last().unwrap();
    assert_eq!(hint.trim_end(), "j quit x keep playing");
    // Answered with the player's own key.
    let frame = crate::common::frame(&mut a, "x");
    assert!(!frame.contains("keep playing"), "{frame}");
    // The run won (as the victory script wins it), the end box names R for a new run.
    let settings = astar_rogue::app::config::parse(file, "config.toml").unwrap();
    let level = std::path::Path::new("tests/levels/rathole.txt");
    let mut a = crate::common::app(level, 2, (60, 16));
    a.apply_settings(settings);
    let frame = crate::common::frame(&mut a, "l l l l l l l l l");
    assert!(frame.contains("R  new run    q  quit"), "{frame}");
}

/// Aiming follows the moves: a move key rebound in `[keys.everywhere]` gives the direction
/// of an attack in place too, the key it replaced no longer aims, and the hint bar and the
/// help name the new key; `[keys.attack_in_place]`, when it binds a direction, still wins.
#[test]
fn a_rebound_move_key_aims_an_attack_in_place() {
    let level = std::path::Path::new("tests/levels/troll.txt");
    let file = b"[keys.everywhere]\nmove_e = [\"t\", \"Right\", \"6\"]\n";
    let settings = astar_rogue::app::config::parse(file, "config.toml").unwrap();
    let mut a = crate::common::app(level, 1, (80, 24));
    a.apply_settings(settings);
    let frame = crate::common::frame(&mut a, "F");
    let hint = frame.lines().last().unwrap();
    assert_eq!(
        hint.trim_end(),
        "ATTACK IN PLACE: which way?  hjktyubn attack  F Esc cancel"
    );
    // The old key does nothing now; the new one hits the troll east of the player.
    let frame = crate::common::frame(&mut a, "l");
    assert!(!frame.contains("You hit the troll"), "{frame}");
    let frame = crate::common::frame(&mut a, "Esc F t");
    assert!(frame.contains("You hit the troll"), "{frame}");
    assert_eq!(
        a.world().player().pos,
        astar_rogue::engine::grid::Pos::new(2, 2)
    );
    // The attack section is on one of the help's pages, whichever the other keys leave it.
    let mut help = crate::common::frame(&mut a, "?");
    for _ in 0..4 {
        if help.contains("attack W S N E") {
            break;
        }
        help = crate::common::frame(&mut a, "Space");
    }
    assert!(help.contains("h j k t     attack W S N E"), "{help}");
    // An attack bound on purpose keeps its own key.
    let file = b"[keys.everywhere]\nmove_e = [\"t\"]\n[keys.attack_in_place]\nattack_e = [\"T\"]\n";
    let settings = astar_rogue::app::config::parse(file, "config.toml").unwrap();
    let mut a = crate::common::app(level, 1, (80, 24));
    a.apply_settings(settings);
    let frame = crate::common::frame(&mut a, "F t");
    assert!(!frame.contains("You hit the troll"), "{frame}");
    let frame = crate::common::frame(&mut a, "Esc F T");
    assert!(frame.contains("You hit the troll"), "{frame}");
}

/// The keys every fixed message of the app and the view names, rebound (none of them left
/// on its default, so a message still naming the table's key fails).
const MESSAGE_KEYS: &str = "\
[keys.everywhere]
help = [\"F1\"]
[keys.playing]
overlay = [\"F2\"]
edit = [\"F3\"]
explore = [\"F4\"]
rest = [\"F5\"]
drink = [\"F6\"]
save = [\"F7\"]
descend = [\"F8\"]
new_level = [\"F9\"]
[keys.look]
overlay = [\"F2\"]
[keys.overlay]
layer = [\"F10\"]
step_back = [\"C-b\"]
step_forward = [\"F11\"]
[keys.questions]
yes = [\"j\"]
no = [\"x\"]
take_file = [\"t\"]
keep_mine = [\"m\"]
[keys.edit]
save = [\"F7\"]
undo = [\"F12\"]
delete = [\"C-d\"]
paste = [\"P\"]
copy = [\"C\"]
finish = [\"F8\"]
floor_below = [\"F9\"]
floor_down = [\"F11\"]
player = [\"F6\"]
[keys.resize]
grow_left = [\"F1\"]
[keys.history]
close = [\"F9\"]
[keys.lab]
start = [\"S\"]
goal = [\"C-g\"]
compare = [\"C\"]
paint = [\"E\"]
lab = [\"F12\"]
";

/// An app on `level` playing with [`MESSAGE_KEYS`].
fn rebound(level: &std::path::Path, seed: u64, size: (u16, u16)) -> astar_rogue::app::App {
    let settings = astar_rogue::app::config::parse(MESSAGE_KEYS.as_bytes(), "keys.toml")
        .unwrap_or_else(|e| panic!("{e}"));
    let mut a = crate::common::app(level, seed, size);
    a.apply_settings(settings);
    a
}

/// What the game said last.
fn last_said(a: &astar_rogue::app::App) -> String {
    a.world()
        .log()
        .last()
        .map(|m| m.text.clone())
        .unwrap_or_default()
}

/// What the game said last once it has played `keys` and drawn the frame.
fn said_after(a: &mut astar_rogue::app::App, keys: &str) -> String {
    crate::common::frame(a, keys);
    last_said(a)
}

/// Every message that names a key names the player's: the welcome (said before the
/// settings are read), the game's badly-hurt advice and the panel's LOW HP line, look
/// mode's lines, the message history's keys, the overlay's layer legend, the lab's, the
/// editor's, travel's and exploring's, generating, saving over a changed file and an
/// outside edit's question.
#[test]
fn fixed_messages_name_the_players_keys() {
    use crate::common::{Scratch, frame};
    // The welcome, and the game's advice once badly hurt (the melee script's fight).
    let mut a = rebound(&crate::common::repo("tests/levels/melee.txt"), 2, (80, 24));
    let f = frame(&mut a, "");
    assert!(
        f.contains("F1 lists keys; F2 shows A* searches; F4 explores; F5 rests."),
        "{f}"
    );
    let f = frame(&mut a, "n n");
    assert!(
        f.contains("no potion left: get clear, then rest (F5)."),
        "{f}"
    );
    assert!(f.contains("LOW HP: get clear, F5 "), "{f}");
    // The game's own text keeps the table's keys, for the records.
    assert!(a.world().log().iter().any(|m| {
        m.text
            .ends_with("no potion left: get clear, then rest (Z).")
    }));

    let dir = Scratch::new();
    let pillar = dir.copy("levels/pillar.txt");
    let mut a = rebound(&pillar, 1, (80, 24));
    // The message history's keys.
    let f = frame(&mut a, "C-p");
    assert!(f.contains(" ↑↓ PgUp PgDn F9 "), "{f}");
    frame(&mut a, "F9");
    // Look mode, the search not shown.
    let f = frame(&mut a, "x");
    let hint = f.lines().last().unwrap();
    assert!(hint.starts_with("x q Esc leave "), "{hint}");
    assert!(hint.contains("(F2 shows the search)"), "{hint}");
    // The overlay's layer legend names the layer key.
    let f = frame(&mut a, "Esc F2 F10");
    assert!(f.contains("(F10)"), "{f}");
    // The lab's welcome and its map title.
    let f = frame(&mut a, "F2 L");
    assert_eq!(
        last_said(&a),
        "The lab: S and C-g (or the mouse) set start and goal, C-b F11 step, F10 layers, C compares, F12 leaves."
    );
    assert!(f.contains("(E paints)"), "{f}");
    frame(&mut a, "F12");

    // The editor's: undo after a shape, a copy, a refusal, resizing, a floor below.
    frame(&mut a, "F3");
    let corner = astar_rogue::engine::grid::Pos::new(0, 0);
    a.set_cursor(corner);
    assert_eq!(
        said_after(&mut a, "r l l F8"),
        "Rectangle 3x1 of wall: 3 changes (F12 undoes them at once)."
    );
    a.set_cursor(a.world().player().pos);
    assert_eq!(
        said_after(&mut a, "w"),
        "The player starts here; move the start (F6) first."
    );
    a.set_cursor(corner.offset(0, 1));
    let said = said_after(&mut a, "C l C");
    assert!(
        said.ends_with("P pastes it here or on another floor."),
        "{said}"
    );
    assert_eq!(
        said_after(&mut a, "C w"),
        "Copying: C or F8 copies the region, Esc forgets it."
    );
    frame(&mut a, "Esc");
    a.set_cursor(a.session().design().level().monsters[0].pos);
    assert_eq!(
        said_after(&mut a, "w"),
        "A goblin starts here; delete it (C-d) first."
    );
    assert_eq!(
        said_after(&mut a, "Z"),
        "Resizing the 8x6 map: F1 j k l grow a side, HJKL crop it; Z ends."
    );
    let said = said_after(&mut a, "Esc F9");
    assert!(
        said.contains(": F7 saves the next: header, F11 goes down to edit it."),
        "{said}"
    );
    assert_eq!(
        said_after(&mut a, "F11"),
        "Save (F7) or undo your edits first: the other floor replaces this design."
    );
    // An outside edit while the game has unsaved edits asks which to keep.
    std::fs::write(
        &pillar,
        std::fs::read_to_string(&pillar).unwrap() + "; outside\n",
    )
    .unwrap();
    let said = said_after(&mut a, "e reload");
    assert!(
        said.ends_with(": t takes the file's, m keeps yours."),
        "{said}"
    );
    let said = said_after(&mut a, "m");
    assert!(said.ends_with("(F7 asks before overwriting it)."), "{said}");
    // Saving over the newer file asks.
    let said = said_after(&mut a, "F7");
    assert!(said.ends_with("Overwrite it? (j/x)"), "{said}");
    frame(&mut a, "x");
    // A new level, asked for mid-game.
    frame(&mut a, "F9 j");
    let said: Vec<&str> = a.world().log().iter().map(|m| m.text.as_str()).collect();
    assert!(
        said.iter().any(|t| t.starts_with("Generated ")
            && t.contains("; F9 for ")
            && t.contains(", F7 saves it as ")),
        "{said:?}"
    );

    // Travel and exploring toward stairs round a corner.
    let level = dir.write("corner.txt", "######\n#@...#\n####.#\n#>...#\n######\n");
    let mut a = rebound(&level, 1, (80, 24));
    assert_eq!(
        said_after(&mut a, "F8"),
        "You have not found the stairs yet: F4 explores."
    );
    // Exploring stops when the stairs come into view; again, it ends.
    assert_eq!(
        said_after(&mut a, "F4 F4"),
        "Explored: nothing more to see from here. F8 goes to the stairs."
    );
    frame(&mut a, "x");
    a.set_cursor(astar_rogue::engine::grid::Pos::new(1, 3));
    let f = frame(&mut a, "");
    assert!(f.contains("stairs down >: open, F8 "), "{f}");
    // The editor on a floor that names none below, then a blank level.
    assert_eq!(
        said_after(&mut a, "Esc F3 F11"),
        "This floor names no floor below: F9 makes one (a next: header)."
    );
    // Mid-run it asks first, answered with the player's yes.
    frame(&mut a, "C-n");
    assert!(a.screen().question().is_some());
    let said = said_after(&mut a, "j");
    assert!(
        said.contains("level: F3 edits it, F7 saves it as "),
        "{said}"
    );
}

/// The tutorial's lessons mark their keys (`` `l` ``): the log and the lesson box name the
/// player's keys there, and the table's, unmarked, for a player who rebinds nothing.
#[test]
fn the_tutorials_lessons_name_the_players_keys() {
    let file = b"[keys.everywhere]\nmove_e = [\"t\", \"Right\", \"6\"]\nhelp = [\"F1\"]\n";
    let settings = astar_rogue::app::config::parse(file, "config.toml").unwrap();
    let level = crate::common::repo("levels/tutorial.txt");
    let mut a = crate::common::app(&level, 1, (80, 24));
    a.apply_settings(settings);
    let f = crate::common::frame(&mut a, "");
    let lines: Vec<&str> = f.lines().map(str::trim_end).collect();
    assert!(
        lines.contains(
            &"You are the @. Walk east with t or the right arrow; h j k t y u b n move 8 ways."
        ),
        "{f}"
    );
    assert!(lines.contains(&"F1 lists every key."), "{f}");
    assert!(
        lines.contains(
            &"│arrow; h j k t y u b n move 8 ways. F1 lists every││                          │"
        ),
        "{f}"
    );
    // The log's own text, for the records, is the table's.
    assert!(a.world().log().iter().any(|m| m.text
        == "You are the @. Walk east with l or the right arrow; h j k l y u b n move 8 ways. ? lists every key."));
}

/// Resizing the map and scrolling the history follow the moves as aiming does, except where
/// resizing binds the key itself (K crops the top): the editor's message and the history's
/// footer name the keys that do it.
#[test]
fn resizing_and_the_history_follow_the_moves() {
    let file =
        b"[keys.everywhere]\nmove_w = [\"A\", \"Left\", \"4\"]\nmove_n = [\"K\", \"Up\", \"8\"]\n";
    let settings = astar_rogue::app::config::parse(file, "config.toml").unwrap();
    let dir = crate::common::Scratch::new();
    let pillar = dir.copy("levels/pillar.txt");
    let mut a = crate::common::app(&pillar, 1, (80, 24));
    a.apply_settings(settings);
    crate::common::frame(&mut a, "e Z");
    assert_eq!(
        last_said(&a),
        "Resizing the 8x6 map: Aj8l or arrows grow a side, HJKL crop it; Z ends."
    );
    let size = |a: &astar_rogue::app::App| {
        let g = &a.session().design().level().grid;
        (g.width(), g.height())
    };
    crate::common::frame(&mut a, "A");
    assert_eq!(size(&a), (9, 6), "A grows the left");
    crate::common::frame(&mut a, "h K 8");
    assert_eq!(
        size(&a),
        (9, 6),
        "h grows nothing, K crops the top, 8 grows it"
    );
    crate::common::frame(&mut a, "Esc Esc");
    let f = crate::common::frame(&mut a, "C-p");
    assert!(f.contains(" K↓ PgUp PgDn Esc "), "{f}");
    // The table's keys, the footer as the table writes it.
    let mut a = crate::common::app(&pillar, 1, (80, 24));
    let f = crate::common::frame(&mut a, "C-p");
    assert!(f.contains(" ↑↓ PgUp PgDn Esc "), "{f}");
    crate::common::frame(&mut a, "Esc e Z");
    assert_eq!(
        last_said(&a),
        "Resizing the 8x6 map: hjkl or arrows grow a side, HJKL crop it; Z ends."
    );
}

/// The help rewords the numpad's rows when a move no longer has its digit.
#[test]
fn the_help_rewords_the_numpad_rows_when_a_move_loses_its_digit() {
    let file = b"[keys.everywhere]\nmove_n = [\"K\"]\n";
    let settings = astar_rogue::app::config::parse(file, "config.toml").unwrap();
    let mut a = crate::common::app(std::path::Path::new("levels/pillar.txt"), 1, (80, 24));
    a.apply_settings(settings);
    let mut help = crate::common::frame(&mut a, "?");
    for _ in 0..4 {
        help.push_str(&crate::common::frame(&mut a, "PageDown"));
    }
    let lines: Vec<&str> = help.lines().collect();
    let has = |row: &str| lines.iter().any(|l| l.contains(row));
    assert!(has(" 1234679     move; Home PgUp End PgDn"), "{help}");
    assert!(has(" 1234679     hit; Home PgUp End PgDn"), "{help}");
    assert!(has(" numpad 246  grow, as the moves"), "{help}");
    assert!(!has("numpad 1-9"), "{help}");
}

/// A long key in a row's words goes on to the next line, under them, instead of being cut
/// (or running into the next column).
#[test]
fn a_long_key_in_a_help_rows_words_goes_on_below_them() {
    let file = b"[keys.playing]\nattack = [\"F2\"]\n";
    let settings = astar_rogue::app::config::parse(file, "config.toml").unwrap();
    let mut a = crate::common::app(std::path::Path::new("levels/pillar.txt"), 1, (80, 24));
    a.apply_settings(settings);
    let help = crate::common::frame(&mut a, "?");
    let lines: Vec<&str> = help.lines().collect();
    let row = " F2          attack in place: F2, a";
    let at = lines
        .iter()
        .position(|l| l.contains(row))
        .unwrap_or_else(|| panic!("{help}"));
    // Under its words, in the same column.
    let col = lines[at].split(row).next().unwrap().chars().count();
    let below: String = lines[at + 1].chars().skip(col).take(16).collect();
    assert_eq!(below, format!("{:13}way", ""), "{}", lines[at + 1]);
}

/// Look mode's words for an open door name the player's key for closing doors, not the
/// table's `C`.
#[test]
fn look_at_an_open_door_names_the_players_close_key() {
    let dir = crate::common::Scratch::new();
    let level = dir.write("door.txt", "title: Door\n......\n.@'...\n......\n");
    let file = b"[keys.playing]\nclose_doors = [\"K\"]\n";
    let settings = astar_rogue::app::config::parse(file, "config.toml").unwrap();
    let mut a = crate::common::app(&level, 1, (80, 24));
    a.apply_settings(settings);
    crate::common::frame(&mut a, "x");
    a.set_cursor(astar_rogue::engine::grid::Pos::new(2, 1));
    let f = crate::common::frame(&mut a, "");
    // The panel wraps the line after "beside it".
    assert!(f.contains("│open door: K beside it"), "{f}");
    assert!(!f.contains(" C beside it"), "{f}");
}
