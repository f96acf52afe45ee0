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
    let size = app.ui().size();
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

/// The moves a search may make, in the tests' own words (the command line's `--neighbours`
/// 8, 8cut and 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moves {
    /// Eight moves; a diagonal needs both cells beside it enterable.
    Eight,
    /// Eight moves, corners cut.
    EightCut,
    /// Four moves.
    Four,
}

/// What entering each cell of a map costs (0: it cannot be entered), written out by a test
/// from the documented rules alone: a step costs 10 straight or 14 diagonal times the cost of
/// the cell it enters. The reference the engine's answers are held to.
#[derive(Debug, Clone)]
pub struct CostModel {
    /// Cells a row.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Row by row.
    pub costs: Vec<u32>,
}

impl CostModel {
    /// The cost of entering `(x, y)`: 0 outside the map.
    pub fn cost(&self, (x, y): (i32, i32)) -> u32 {
        if x < 0 || y < 0 || x as usize >= self.width || y as usize >= self.height {
            0
        } else {
            self.costs[y as usize * self.width + x as usize]
        }
    }

    /// What one move from `a` to `b` costs, or `None` when it is not a legal move.
    pub fn step(&self, a: (i32, i32), b: (i32, i32), moves: Moves) -> Option<u64> {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        if (dx, dy) == (0, 0) || dx.abs() > 1 || dy.abs() > 1 {
            return None;
        }
        let c = u64::from(self.cost(b));
        if c == 0 {
            return None;
        }
        if dx == 0 || dy == 0 {
            return Some(10 * c);
        }
        let sides = self.cost((a.0 + dx, a.1)) > 0 && self.cost((a.0, a.1 + dy)) > 0;
        match moves {
            Moves::Four => None,
            Moves::EightCut => Some(14 * c),
            Moves::Eight => sides.then_some(14 * c),
        }
    }

    /// A plain Dijkstra: the cheapest cost from `from` to `to`, if there is a way.
    pub fn dijkstra(&self, from: (i32, i32), to: (i32, i32), moves: Moves) -> Option<u64> {
        use std::cmp::Reverse;
        use std::collections::{BTreeMap, BinaryHeap};
        if self.cost(from) == 0 || self.cost(to) == 0 {
            return None;
        }
        let mut best = BTreeMap::from([(from, 0u64)]);
        let mut heap = BinaryHeap::from([Reverse((0u64, from))]);
        while let Some(Reverse((d, p))) = heap.pop() {
            if p == to {
                return Some(d);
            }
            if best.get(&p).is_some_and(|&b| b < d) {
                continue;
            }
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let q = (p.0 + dx, p.1 + dy);
                    if let Some(c) = self.step(p, q, moves)
                        && best.get(&q).is_none_or(|&b| d + c < b)
                    {
                        best.insert(q, d + c);
                        heap.push(Reverse((d + c, q)));
                    }
                }
            }
        }
        None
    }

    /// The cost of walking `path` from `from` to `to` by legal moves, or why it is no such
    /// walk.
    pub fn walk(
        &self,
        path: &[(i32, i32)],
        from: (i32, i32),
        to: (i32, i32),
        moves: Moves,
    ) -> Result<u64, String> {
        if path.first() != Some(&from) || path.last() != Some(&to) {
            return Err(format!(
                "the path does not run from {from:?} to {to:?}: {path:?}"
            ));
        }
        path.windows(2).try_fold(0, |sum, w| {
            self.step(w[0], w[1], moves)
                .map(|c| sum + c)
                .ok_or_else(|| format!("illegal step {:?} -> {:?} ({moves:?})", w[0], w[1]))
        })
    }
}

/// What `astar-rogue path --json` answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathJson {
    /// `found`, `unreachable`, `cap`, ...
    pub status: String,
    /// The path's cost, when found.
    pub cost: Option<u64>,
    /// Nodes expanded.
    pub expanded: u64,
    /// The cells, from the start to the goal.
    pub path: Vec<(i32, i32)>,
    /// The optimal cost, given beside a search that may overestimate.
    pub optimal: Option<u64>,
}

/// Runs `astar-rogue path LEVEL --from X,Y --to X,Y --json EXTRA...`, which must succeed
/// with one JSON object.
pub fn path_json(level: &Path, from: (i32, i32), to: (i32, i32), extra: &[&str]) -> PathJson {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_astar-rogue"))
        .arg("path")
        .arg(level)
        .args(["--from", &format!("{},{}", from.0, from.1)])
        .args(["--to", &format!("{},{}", to.0, to.1), "--json"])
        .args(extra)
        .output()
        .expect("run astar-rogue path");
    assert!(
        out.status.success(),
        "path {extra:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    let cell = |p: &serde_json::Value| {
        let xy = |i: usize| p[i].as_i64().expect("a coordinate") as i32;
        (xy(0), xy(1))
    };
    PathJson {
        status: v["status"].as_str().expect("a status").to_string(),
        cost: v["cost"].as_u64(),
        expanded: v["expanded"].as_u64().expect("expanded"),
        path: v["path"]
            .as_array()
            .expect("a path")
            .iter()
            .map(cell)
            .collect(),
        optimal: v["optimal"].as_u64(),
    }
}
