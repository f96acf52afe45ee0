//! Scripts as tests: a script `NAME.keys` and its expected output `NAME.snap` beside it.
//!
//! The expected file is in insta's `.snap` format (a `---` header of `key: value` lines, a
//! `---` line, then the output), so `astar-rogue test` and the project's own insta tests
//! (`tests/suite/snapshots.rs`) read and write the very same files, and `cargo insta review`
//! works on them. The output is what [`render`] prints: every `snap` and the final frame
//! (with their styles when the script says `#! styles: on`) and a JSON state line after
//! every turn, the level played from a scratch copy so that saves touch nothing real.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::script::{self, Frames, Output, RunOptions, ScriptError};
use super::term::ENDING_SIGNALS;
use crate::app::OpenError;
use crate::content::level::read_level_file;
use crate::text::LoadError;

/// The expected output of a script: `NAME.snap` beside `NAME.keys`.
pub fn expected_path(script: &Path) -> PathBuf {
    script.with_extension("snap")
}

/// Largest expected-output file `test` reads (a `.snap` of a thousand frames of 200x60 is
/// about 40 MB); beyond it the file is refused, as every reader refuses past its limit.
pub const MAX_SNAP_BYTES: u64 = 64 * 1024 * 1024;

/// Reads a script's expected output: `None` when there is none yet. Like every reader it is
/// bounded and never blocks: a FIFO, a device (`/dev/zero`), a folder or a file past
/// [`MAX_SNAP_BYTES`] is an error naming the file.
pub fn read_expected(path: &Path) -> Result<Option<String>, LoadError> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        _ => {}
    }
    let bytes = crate::text::read_limited(path, MAX_SNAP_BYTES, "snapshot file")?;
    Ok(Some(String::from_utf8_lossy(&bytes).into_owned()))
}

/// What a script prints as a test, played on a scratch copy of its level.
pub fn render(script_path: &Path) -> Result<String, ScriptError> {
    Ok(render_traced(script_path)?.text)
}

/// A script's output as a test, with where each of its lines comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    /// The output, as [`render`] gives it.
    pub text: String,
    /// For each line of `text`, the step that made it: its token and its line in the
    /// script (a frame's lines come from the step its header names, a state line from the
    /// step after which the turn it shows had come).
    pub origins: Vec<(usize, usize)>,
}

/// The (token, line) a frame header `--- frame NAME (token K, line L) ---` names.
fn header_origin(header: &str) -> Option<(usize, usize)> {
    let (_, rest) = header.rsplit_once("(token ")?;
    let (token, rest) = rest.split_once(", line ")?;
    let line = rest.split(')').next()?;
    Some((token.parse().ok()?, line.parse().ok()?))
}

/// [`render`], with where each line comes from.
pub fn render_traced(script_path: &Path) -> Result<Rendered, ScriptError> {
    let parsed = script::load(script_path)?;
    let scratch = Scratch::new().map_err(ScriptError::Output)?;
    // The level as the header names it (or the default level), copied so that the
    // script's saves and edits land in the scratch folder. It is read as the game reads
    // it (within the level limit, never blocking on a FIFO), so nothing unbounded reaches
    // the temporary folder.
    let level = match &parsed.header.level {
        Some(level) => {
            let name = level.file_name().unwrap_or(level.as_os_str());
            let copy = scratch.0.join(name);
            let bytes = read_level_file(level).map_err(OpenError::Load)?;
            std::fs::write(&copy, bytes).map_err(|e| {
                OpenError::Load(LoadError::Io {
                    file: level.display().to_string(),
                    message: format!("cannot copy it to a scratch folder: {e}"),
                })
            })?;
            copy_campaign(level, &scratch.0);
            copy
        }
        // The built-in default level, not whatever levels/default.txt the current folder
        // has: a test must give the same frames wherever it runs.
        None => {
            let copy = scratch.0.join("default.txt");
            std::fs::write(&copy, crate::app::DEFAULT_LEVEL).map_err(ScriptError::Output)?;
            copy
        }
    };
    let options = RunOptions {
        level: Some(level),
        output: Output {
            frames: Frames::Snaps,
            state: true,
        },
        ..RunOptions::default()
    };
    let mut out = Vec::new();
    script::run_file_marked(script_path, &options, &mut out)?;
    let marked = String::from_utf8_lossy(&out);
    let mut text = String::with_capacity(marked.len());
    let mut origins = Vec::new();
    let (mut frame, mut mark) = ((0, 0), None);
    for line in marked.lines() {
        if let Some(at) = line.strip_prefix(script::STEP_MARK) {
            let mut parts = at.split(' ').map(|n| n.parse().unwrap_or(0));
            mark = Some((parts.next().unwrap_or(0), parts.next().unwrap_or(0)));
            continue;
        }
        let origin = if line.starts_with("--- frame ") {
            frame = header_origin(line).unwrap_or(frame);
            frame
        } else {
            mark.take().unwrap_or(frame)
        };
        text.push_str(line);
        text.push('\n');
        origins.push(origin);
    }
    Ok(Rendered { text, origins })
}

/// Copies the floors a level's `next:` headers lead to into `scratch`, where they lie
/// beside the level (a floor outside the level's folder is left out, and the game says it
/// cannot read it).
fn copy_campaign(level: &Path, scratch: &Path) {
    use std::path::Component;
    let dir = level.parent().unwrap_or(Path::new(""));
    for file in crate::content::level::campaign::files(level)
        .into_iter()
        .skip(1)
    {
        let Ok(rel) = file.strip_prefix(dir) else {
            continue;
        };
        if !rel.components().all(|c| matches!(c, Component::Normal(_))) {
            continue;
        }
        let to = scratch.join(rel);
        if let Some(parent) = to.parent() {
            let _ = std::fs::create_dir_all(parent);
        }
        let _ = std::fs::copy(&file, &to);
    }
}

/// The scratch folders that exist now, so that a signal can remove them before the process
/// ends (a `Drop` never runs then).
static SCRATCHES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// From now on, a signal that ends the process (see [`ENDING_SIGNALS`]) first removes
/// every scratch folder, then exits with 128 + its number as a shell reports it.
pub fn remove_scratch_on_signals() -> std::io::Result<()> {
    let mut signals = signal_hook::iterator::Signals::new(ENDING_SIGNALS)?;
    std::thread::Builder::new()
        .name("scratch-signals".into())
        .spawn(move || {
            if let Some(n) = signals.forever().next() {
                // Held to the end: no scratch folder can be made after these are gone.
                let dirs = SCRATCHES.lock().unwrap_or_else(|p| p.into_inner());
                for dir in dirs.iter() {
                    let _ = std::fs::remove_dir_all(dir);
                }
                std::process::exit(128 + n);
            }
        })?;
    Ok(())
}

/// A temporary folder of ours, removed when dropped (and by a signal, see
/// [`remove_scratch_on_signals`]).
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> std::io::Result<Self> {
        use std::sync::atomic::{AtomicU64, Ordering};
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let mut live = SCRATCHES.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let dir = std::env::temp_dir().join(format!(
                "astar-rogue-test-{}-{n}-{}",
                std::process::id(),
                rand::random::<u32>()
            ));
            match std::fs::create_dir(&dir) {
                Ok(()) => {
                    live.push(dir.clone());
                    return Ok(Self(dir));
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let mut live = SCRATCHES.lock().unwrap_or_else(|p| p.into_inner());
        let _ = std::fs::remove_dir_all(&self.0);
        live.retain(|d| d != &self.0);
    }
}

/// The output stored in a `.snap` file (its body after the header), as insta reads it.
pub fn snap_body(file: &str) -> String {
    let mut lines = file.lines();
    let body: Vec<&str> = if file.lines().next().map(str::trim_end) == Some("---") {
        lines.next();
        lines.by_ref().find(|l| l.trim_end() == "---");
        lines.collect()
    } else {
        lines.collect()
    };
    normalize(&body.join("\n"))
}

/// Output as insta compares it: trailing whitespace at the end cut, CRLF read as LF.
pub fn normalize(output: &str) -> String {
    output.trim_end().replace("\r\n", "\n")
}

/// What a `.snap` file written by `astar-rogue test` names as its source, where insta's own
/// name the test file that wrote them: whoever reads the file can tell which one to rerun.
pub const SNAP_SOURCE: &str = "astar-rogue test";

/// The text of a `.snap` file holding `output` for the script named `script_name`, as
/// `astar-rogue test --bless` writes it.
pub fn snap_file(output: &str, script_name: &str) -> String {
    format!(
        "---\nsource: {SNAP_SOURCE}\nexpression: out\ninput_file: {script_name}\n---\n{}\n",
        normalize(output)
    )
}

/// One difference between the expected and the actual output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrameDiff {
    /// The frame's header line (`--- frame NAME (token K, line L) ---`), or a note when the
    /// outputs have different frames.
    pub frame: String,
    /// The unified diff of that frame's lines: `@@` hunks and ` `, `-`, `+` lines.
    pub lines: Vec<String>,
    /// For each `@@` line of `lines` (by its index there), the step (token, script line)
    /// that made the hunk's first changed line of the actual output, when it is known.
    pub hunks: Vec<(usize, (usize, usize))>,
}

/// The frames (with their styles and state lines) that differ, each with a unified diff.
pub fn diff(expected: &str, actual: &str) -> Vec<FrameDiff> {
    diff_traced(expected, actual, &[])
}

/// [`diff`], each hunk told the step that made its first changed line, from `origins`
/// (one per line of `actual`, as [`Rendered::origins`]; none known when empty).
pub fn diff_traced(expected: &str, actual: &str, origins: &[(usize, usize)]) -> Vec<FrameDiff> {
    let (e, a) = (split_frames(expected), split_frames(actual));
    // Where each frame's lines start in `actual`, to find their origins.
    let mut starts = Vec::with_capacity(a.len());
    let mut at = 0;
    for (head, lines) in &a {
        let header = usize::from(head.starts_with("--- frame "));
        starts.push(at + header);
        at += header + lines.len();
    }
    let mut out = Vec::new();
    for i in 0..e.len().max(a.len()) {
        let empty = (String::new(), Vec::new());
        let (eh, el) = e.get(i).unwrap_or(&empty);
        let (ah, al) = a.get(i).unwrap_or(&empty);
        if eh == ah && el == al {
            continue;
        }
        let frame = match (e.get(i), a.get(i)) {
            (Some(_), None) => format!("{eh} (expected, missing from the output)"),
            (None, Some(_)) => format!("{ah} (not expected)"),
            _ if eh != ah => format!("{ah} (expected {eh})"),
            _ => ah.clone(),
        };
        let (lines, firsts) = unified_at(el, al, 3);
        let start = starts.get(i).copied();
        let hunks = firsts
            .into_iter()
            .filter_map(|(at, nj)| {
                let origin = origins.get(start? + nj.min(al.len().saturating_sub(1)))?;
                Some((at, *origin))
            })
            .collect();
        out.push(FrameDiff {
            frame,
            lines,
            hunks,
        });
    }
    out
}

/// The fields of two state lines (JSON objects) that differ, as `name: old -> new`
/// (`player.hp: 30 -> 27`, `monsters[1].x: 4 -> 5`); `None` when either is not one.
pub fn state_changes(old: &str, new: &str) -> Option<Vec<String>> {
    fn flat(prefix: &str, v: &serde_json::Value, out: &mut Vec<(String, String)>) {
        match v {
            serde_json::Value::Object(map) => {
                for (k, v) in map {
                    let name = if prefix.is_empty() {
                        k.clone()
                    } else {
                        format!("{prefix}.{k}")
                    };
                    flat(&name, v, out);
                }
            }
            serde_json::Value::Array(items) => {
                for (i, v) in items.iter().enumerate() {
                    flat(&format!("{prefix}[{i}]"), v, out);
                }
                if items.is_empty() {
                    out.push((prefix.to_string(), "[]".into()));
                }
            }
            other => out.push((prefix.to_string(), other.to_string())),
        }
    }
    let parse = |t: &str| -> Option<Vec<(String, String)>> {
        let v: serde_json::Value = serde_json::from_str(t).ok()?;
        v.is_object().then(|| {
            let mut out = Vec::new();
            flat("", &v, &mut out);
            out
        })
    };
    let (a, b) = (parse(old)?, parse(new)?);
    let find = |list: &[(String, String)], k: &str| {
        list.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone())
    };
    let mut names: Vec<&String> = a.iter().map(|(n, _)| n).collect();
    for (n, _) in &b {
        if !names.contains(&n) {
            names.push(n);
        }
    }
    Some(
        names
            .into_iter()
            .filter_map(|n| {
                let (x, y) = (find(&a, n), find(&b, n));
                (x != y).then(|| {
                    let show = |v: Option<String>| v.unwrap_or_else(|| "(none)".into());
                    format!("{n}: {} -> {}", show(x), show(y))
                })
            })
            .collect(),
    )
}

/// The output cut at each frame header: (header, the lines under it until the next one).
fn split_frames(output: &str) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for line in output.lines() {
        if line.starts_with("--- frame ") || out.is_empty() {
            let head = if line.starts_with("--- frame ") {
                line.to_string()
            } else {
                "(before the first frame)".to_string()
            };
            out.push((head, Vec::new()));
            if line.starts_with("--- frame ") {
                continue;
            }
        }
        if let Some(last) = out.last_mut() {
            last.1.push(line.to_string());
        }
    }
    out
}

/// A unified diff of two line lists with `context` lines around each change.
#[cfg(test)]
fn unified(old: &[String], new: &[String], context: usize) -> Vec<String> {
    unified_at(old, new, context).0
}

/// A unified diff of two line lists with `context` lines around each change, with, for
/// each hunk, the index of its `@@` line in the diff and the index in `new` of its first
/// changed line (where a line would go, for one only removed).
fn unified_at(
    old: &[String],
    new: &[String],
    context: usize,
) -> (Vec<String>, Vec<(usize, usize)>) {
    // Longest common subsequence by dynamic programming: frames are tens of lines.
    let (n, m) = (old.len(), new.len());
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if old[i] == new[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    // The edit script: (kind, old index, new index).
    let mut ops = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        if i < n && j < m && old[i] == new[j] {
            ops.push((' ', i, j));
            i += 1;
            j += 1;
        } else if i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1]) {
            // Removals before additions, as diff(1) shows a changed line.
            ops.push(('-', i, j));
            i += 1;
        } else {
            ops.push(('+', i, j));
            j += 1;
        }
    }
    let changed: Vec<usize> = (0..ops.len()).filter(|&k| ops[k].0 != ' ').collect();
    let mut out = Vec::new();
    let mut firsts = Vec::new();
    let mut k = 0;
    while k < changed.len() {
        let start = changed[k].saturating_sub(context);
        let mut end = changed[k];
        while k < changed.len() && changed[k] <= end + 2 * context + 1 {
            end = changed[k];
            k += 1;
        }
        let end = (end + context + 1).min(ops.len());
        let hunk = &ops[start..end];
        let old_count = hunk.iter().filter(|o| o.0 != '+').count();
        let new_count = hunk.iter().filter(|o| o.0 != '-').count();
        if let Some(first) = hunk.iter().find(|o| o.0 != ' ') {
            firsts.push((out.len(), first.2));
        }
        out.push(format!(
            "@@ -{},{old_count} +{},{new_count} @@",
            hunk[0].1 + 1,
            hunk[0].2 + 1
        ));
        for &(kind, oi, nj) in hunk {
            let text = if kind == '+' { &new[nj] } else { &old[oi] };
            out.push(format!("{kind}{text}"));
        }
    }
    (out, firsts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_snap_file_reads_back_its_output() {
        let out = "--- frame last (token 1, line 2) ---\nab\ncd  \n\n";
        let file = snap_file(out, "x.keys");
        assert!(
            file.starts_with("---\nsource: astar-rogue test\n"),
            "{file}"
        );
        assert_eq!(snap_body(&file), normalize(out));
        assert_eq!(snap_body("legacy\nbody\n"), "legacy\nbody");
    }

    #[test]
    fn diffs_name_the_frame_and_show_changed_lines_in_context() {
        let e = "--- frame a (token 1, line 1) ---\n1\n2\n3\n--- frame last (token 2, line 3) ---\nx\ny\nz\n";
        let a = "--- frame a (token 1, line 1) ---\n1\n2\n3\n--- frame last (token 2, line 3) ---\nx\nY\nz\n";
        let d = diff(e, a);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].frame, "--- frame last (token 2, line 3) ---");
        assert_eq!(d[0].lines, ["@@ -1,3 +1,3 @@", " x", "-y", "+Y", " z"]);
        assert!(diff(e, e).is_empty());
        let shorter = "--- frame a (token 1, line 1) ---\n1\n2\n3\n";
        let d = diff(e, shorter);
        assert_eq!(d.len(), 1);
        assert!(d[0].frame.ends_with("(expected, missing from the output)"));
    }

    #[test]
    fn far_apart_changes_make_separate_hunks() {
        let old: Vec<String> = (0..20).map(|i| i.to_string()).collect();
        let mut new = old.clone();
        new[2] = "two".into();
        new[17] = "seventeen".into();
        let d = unified(&old, &new, 1);
        let hunks: Vec<&String> = d.iter().filter(|l| l.starts_with("@@")).collect();
        assert_eq!(hunks, ["@@ -2,3 +2,3 @@", "@@ -17,3 +17,3 @@"]);
    }
}
