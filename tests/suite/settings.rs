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
/// app uses is one of `config::STACKS`.
#[test]
fn every_context_stack_the_app_uses_is_checked_for_clashes() {
    use astar_rogue::app::config::STACKS;
    let level = super::common::repo("levels/pillar.txt");
    for keys in ["", "o", "x", "o x", "e", "L"] {
        let mut app = super::common::app(&level, 1, (80, 24));
        super::common::frame(&mut app, keys);
        let stack = app.contexts();
        assert!(
            STACKS.contains(&stack),
            "after {keys:?} the app uses {stack:?}, which the settings' clash check misses"
        );
    }
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
    let help = crate::common::frame(&mut a, "?");
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
