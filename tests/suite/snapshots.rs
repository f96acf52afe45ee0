//! Every script in tests/scripts runs headless; its frames (with styles where the script asks)
//! and state lines are compared with `NAME.snap` beside it. The comparison is the one
//! `astar-rogue test` makes, on the same files: the output comes from
//! `frontend::snapshot::render` and the expected files are insta's `.snap` format, read and
//! written through insta here so that `cargo insta review` works on them.

use std::path::{Path, PathBuf};

use astar_rogue::frontend::snapshot;

fn script_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scripts");
    let mut found: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/scripts")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "keys"))
        .collect();
    found.sort();
    assert!(found.len() > 10, "the scripts are there: {found:?}");
    found
}

/// Runs one script and compares its output with the `.snap` beside it.
fn check(name: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/scripts")
        .join(format!("{name}.keys"));
    let out = snapshot::render(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(path.parent().unwrap());
    settings.set_prepend_module_to_snapshot(false);
    settings.set_input_file(&path);
    settings.bind(|| insta::assert_snapshot!(name, out));
}

/// One test case per script, so a failing script names itself and the others still run.
macro_rules! scripts {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                check(stringify!($name));
            }
        )*

        /// The scripts that have a test case, for the check that none is left out.
        const LISTED: &[&str] = &[$(stringify!($name)),*];
    };
}

scripts!(
    attack_in_place,
    autoplay,
    campaign,
    chase_bracket,
    chase_pillar,
    combat,
    corner,
    corridor,
    crypt_door,
    descent,
    editor,
    editor_tools,
    explore,
    first_frame,
    generate,
    generate_kinds,
    help,
    history,
    inspector_far,
    lab_compare,
    lab_edit,
    lab_kinds,
    lab_layers,
    lab_mouse,
    lab_quiz,
    lab_side_click,
    lab_terrain,
    lab_ties,
    lab_weight,
    lab_wide,
    lesson_narrow,
    look_door,
    look_travel,
    melee,
    moves,
    overlay,
    panel_figures,
    path_feature,
    planning,
    planning_jps,
    planning_jps_pond,
    pond,
    potion,
    resize,
    resize_modes,
    rest,
    settings,
    sight,
    sizes,
    speed,
    stairs_travel,
    travel,
    victory,
);

/// A script added to tests/scripts without a line above would never run: it fails here.
#[test]
fn every_script_has_its_test_case() {
    let found: Vec<String> = script_files()
        .iter()
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        found, LISTED,
        "add each script to `scripts!` in tests/suite/snapshots.rs"
    );
}

/// The same files pass through the reader `astar-rogue test` uses: one format, not two.
#[test]
fn the_test_command_reads_the_same_expected_files() {
    for path in script_files() {
        let stored = std::fs::read_to_string(snapshot::expected_path(&path))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let out = snapshot::render(&path).unwrap();
        let diffs = snapshot::diff(&snapshot::snap_body(&stored), &snapshot::normalize(&out));
        assert!(diffs.is_empty(), "{}: {diffs:#?}", path.display());
    }
}

/// A `.snap` written by `astar-rogue test` (its header names that command) passes insta's
/// own assertion, so `cargo insta review` and the insta tests take what `--bless` wrote.
#[test]
fn insta_reads_what_the_test_command_writes() {
    let dir = tempfile::tempdir().unwrap();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scripts/moves.keys");
    let out = snapshot::render(&path).unwrap();
    let written = snapshot::snap_file(&out, "moves.keys");
    assert!(
        written.starts_with("---\nsource: astar-rogue test\n"),
        "{written}"
    );
    std::fs::write(dir.path().join("moves.snap"), &written).unwrap();
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(dir.path());
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| insta::assert_snapshot!("moves", out));
    // Nothing for a reviewer: no pending snapshot was left beside it.
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["moves.snap"]);
}

/// A `.snap` as insta writes it (its header names the test file and the assertion's line)
/// passes `astar-rogue test`, as one it wrote itself does.
#[test]
fn the_test_command_reads_what_insta_writes() {
    let dir = tempfile::tempdir().unwrap();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(
        repo.join("tests/levels/open.txt"),
        dir.path().join("open.txt"),
    )
    .unwrap();
    let keys = std::fs::read_to_string(repo.join("tests/scripts/moves.keys")).unwrap();
    std::fs::write(
        dir.path().join("moves.keys"),
        keys.replace("../levels/", ""),
    )
    .unwrap();
    let out = snapshot::render(&dir.path().join("moves.keys")).unwrap();
    let insta_style = format!(
        "---\nsource: tests/suite/snapshots.rs\nassertion_line: 34\nexpression: out\ninput_file: tests/scripts/moves.keys\n---\n{}\n",
        snapshot::normalize(&out)
    );
    std::fs::write(dir.path().join("moves.snap"), insta_style).unwrap();
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_astar-rogue"))
        .arg("test")
        .arg(dir.path().join("moves.keys"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{stdout}");
    assert!(stdout.ends_with("1 passed, 0 failed\n"), "{stdout}");
}
