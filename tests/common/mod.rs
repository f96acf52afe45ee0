//! What the integration tests share: apps driven by inline scripts, scratch copies of
//! levels, and the proptest configuration. Each test file uses part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use astar_rogue::app::{App, open_level};
use astar_rogue::frontend::script::{self, Frames, Output};
use proptest::prelude::ProptestConfig;

/// A proptest configuration running `PROPTEST_CASES` cases when set, else `default`, and
/// keeping no failure files (CI runs on clean clones; a failure prints its seed).
pub fn config(default: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default);
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// A path inside the repository.
pub fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// An app playing `level` with `seed` in a terminal of `size`.
pub fn app(level: &Path, seed: u64, size: (u16, u16)) -> App {
    let (level, source) = open_level(Some(level), seed).unwrap_or_else(|e| panic!("{e}"));
    App::new(level, source, seed, size)
}

/// Plays `keys` (script tokens) on `app` and returns the last frame.
pub fn frame(app: &mut App, keys: &str) -> String {
    play(app, keys, Frames::Last)
}

/// Plays `keys` (script tokens) on `app` and returns what the runner prints.
pub fn play(app: &mut App, keys: &str, frames: Frames) -> String {
    let s = script::parse(keys.as_bytes(), "inline.keys").expect("valid keys");
    let size = app.size;
    let mut out = Vec::new();
    let output = Output {
        frames,
        state: false,
    };
    script::play(&s, app, size, output, &mut out).expect("writing to memory");
    String::from_utf8(out).expect("frames are UTF-8")
}

/// A folder removed when dropped, holding copies of repository files.
pub struct Scratch(pub tempfile::TempDir);

impl Scratch {
    /// An empty scratch folder.
    pub fn new() -> Self {
        Self(tempfile::tempdir().expect("a temporary folder"))
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        self.0.path()
    }

    /// Copies a repository file (such as `levels/pillar.txt`) into the folder.
    pub fn copy(&self, file: &str) -> PathBuf {
        let to = self
            .path()
            .join(Path::new(file).file_name().expect("a file name"));
        std::fs::copy(repo(file), &to).unwrap_or_else(|e| panic!("copy {file}: {e}"));
        to
    }

    /// Writes a file into the folder.
    pub fn write(&self, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let to = self.path().join(name);
        std::fs::write(&to, bytes).expect("write into the scratch folder");
        to
    }
}
