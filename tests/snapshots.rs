//! Every script in tests/scripts runs headless; its frames and state lines are snapshots.
//! Each run plays a fresh copy of its level in a temporary folder, so saves touch nothing real.

use std::path::{Path, PathBuf};

use astar_rogue::frontend::script::{self, Frames, Output, RunOptions};

fn scratch_copy(script_path: &Path) -> (PathBuf, PathBuf) {
    let bytes = std::fs::read(script_path).expect("script readable");
    let parsed = script::parse(&bytes, &script_path.display().to_string()).expect("script parses");
    let level = parsed
        .header
        .level
        .unwrap_or_else(|| PathBuf::from("levels/default.txt"));
    let name = script_path
        .file_stem()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let dir = std::env::temp_dir().join(format!("astar-rogue-snap-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let copy = dir.join(level.file_name().unwrap());
    std::fs::copy(&level, &copy).unwrap_or_else(|e| panic!("copy {}: {e}", level.display()));
    (dir, copy)
}

#[test]
fn scripts() {
    insta::glob!("scripts/*.keys", |path| {
        let (dir, level) = scratch_copy(path);
        let options = RunOptions {
            level: Some(level),
            output: Output {
                frames: Frames::Snaps,
                state: true,
            },
            ..RunOptions::default()
        };
        let mut out = Vec::new();
        script::run_file(path, &options, &mut out).unwrap_or_else(|e| panic!("{e}"));
        let out = String::from_utf8(out).expect("frames are UTF-8");
        let _ = std::fs::remove_dir_all(&dir);
        insta::assert_snapshot!(out);
    });
}
