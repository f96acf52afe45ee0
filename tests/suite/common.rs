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
    let size = app.size();
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

/// The start of a kept-run test: a scratch folder holding a copy of the repository's
/// `level`, that copy, and the data folder the runs are kept in (inside the scratch folder,
/// not made yet: the game makes it).
pub fn fresh(level: &str) -> (Scratch, PathBuf, PathBuf) {
    let scratch = Scratch::new();
    let copy = scratch.copy(level);
    let data = scratch.path().join("data");
    (scratch, copy, data)
}

/// The lines of a file as the readers number them: a byte-order mark at the start skipped,
/// split at `\n`, a `\r` before it dropped, no extra line after a final `\n`; each decoded
/// lossily.
pub fn source_lines(bytes: &[u8]) -> Vec<String> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if bytes.is_empty() {
        return Vec::new();
    }
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    body.split(|&b| b == b'\n')
        .map(|l| String::from_utf8_lossy(l.strip_suffix(b"\r").unwrap_or(l)).into_owned())
        .collect()
}

/// Checks the excerpt an error keeps of its line: exactly the window of
/// `astar_rogue::text::CONTEXT` characters on each side of the column, cut where the line
/// goes on, with the column inside it or just past its end. `line` is the file's line
/// (`None` past the end of the file, where the excerpt must be empty).
pub fn check_excerpt(e: &astar_rogue::text::ParseError, line: Option<&str>) -> Result<(), String> {
    use astar_rogue::text::CONTEXT;
    let window = e.text.chars().count();
    if e.text_col < 1 || e.text_col > e.col.max(1) {
        return Err(format!(
            "excerpt starts at column {} after the error's: {e:?}",
            e.text_col
        ));
    }
    if e.col > e.text_col + window {
        return Err(format!(
            "col {} past the end of the quoted text: {e:?}",
            e.col
        ));
    }
    if e.text.is_empty() {
        return Ok(());
    }
    let Some(line) = line else {
        return Err(format!(
            "an excerpt of a line past the end of the file: {e:?}"
        ));
    };
    let want: String = line.chars().skip(e.text_col - 1).take(window).collect();
    if e.text != want {
        return Err(format!(
            "excerpt {:?} is not the line's {want:?} at column {}",
            e.text, e.text_col
        ));
    }
    let len = line.chars().count();
    let from = (e.col - 1).saturating_sub(CONTEXT);
    let to = (e.col - 1 + CONTEXT).min(len);
    if (e.text_col - 1, e.text_col - 1 + window, e.text_cut) != (from, to, to < len) {
        return Err(format!(
            "excerpt covers {}..{} (cut: {}), expected {from}..{to} of a {len}-character line: {e:?}",
            e.text_col - 1,
            e.text_col - 1 + window,
            e.text_cut
        ));
    }
    Ok(())
}
