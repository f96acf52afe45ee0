//! `astar-rogue test [PATH...] [--bless]`: every script found (`NAME.keys`) is run and its
//! output compared with `NAME.snap` beside it.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::Args;

use super::error::CliError;
use crate::frontend::snapshot;

/// Arguments of `test`.
#[derive(Debug, Args)]
pub struct TestArgs {
    /// Scripts (`NAME.keys`) or folders searched for them (default: the current folder;
    /// hidden folders and `target` are skipped).
    pub paths: Vec<PathBuf>,
    /// Write or update each script's expected output (`NAME.snap`) instead of comparing.
    #[arg(long)]
    pub bless: bool,
}

/// Runs every script; exit code 1 when any failed. The last line is `N passed, F failed`.
pub(super) fn test(args: &TestArgs) -> Result<i32, CliError> {
    // Interrupted, the scratch copies of levels go too.
    snapshot::remove_scratch_on_signals()?;
    let scripts = gather(args)?;
    let colour = std::io::stdout().is_terminal() && !crate::frontend::term::no_color();
    let mut out = std::io::stdout().lock();
    let (mut passed, mut failed) = (0usize, 0usize);
    for script in &scripts {
        if check(script, args.bless, colour, &mut out)? {
            passed += 1;
        } else {
            failed += 1;
        }
    }
    writeln!(out, "{passed} passed, {failed} failed")?;
    Ok(if failed > 0 { 1 } else { 0 })
}

/// The scripts named and those found in the folders named (the current folder when none
/// is), sorted.
fn gather(args: &TestArgs) -> Result<Vec<PathBuf>, CliError> {
    let roots = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    let mut scripts = Vec::new();
    for root in &roots {
        if root.is_dir() {
            find_scripts(root, &mut scripts)?;
        } else if std::fs::metadata(root).is_ok() {
            // Whatever it is: reading it as a script says what is wrong (a FIFO never
            // blocks the reader).
            scripts.push(root.clone());
        } else {
            return Err(CliError::BadInput(format!(
                "{}: no such script or folder",
                crate::text::shown_path(root)
            )));
        }
    }
    scripts.sort();
    Ok(scripts)
}

/// Runs one script and compares its output with the expected (or blesses it), saying how it
/// went: whether it passed.
fn check(script: &Path, bless: bool, colour: bool, out: &mut impl Write) -> Result<bool, CliError> {
    // Names and file content never drive the terminal: every path and every line of a
    // frame is printed with its control (and bidirectional) characters escaped.
    let esc = crate::text::shown_path;
    let name = esc(script);
    let expected_path = snapshot::expected_path(script);
    let shown_expected = esc(&expected_path);
    let rendered = match snapshot::render_traced(script) {
        Ok(rendered) => rendered,
        Err(e) => return fail(out, &format!("FAIL {name}: cannot run:"), &e),
    };
    let actual = rendered.text;
    let stored = match snapshot::read_expected(&expected_path) {
        Ok(stored) => stored,
        Err(e) => {
            let head = format!("FAIL {name}: cannot read its expected output:");
            return fail(out, &head, &e);
        }
    };
    let expected = stored.as_deref().map(snapshot::snap_body);
    if bless {
        if expected.as_deref() != Some(snapshot::normalize(&actual).as_str()) {
            let file_name = script
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            crate::app::write_atomic(
                &expected_path,
                snapshot::snap_file(&actual, &file_name).as_bytes(),
            )
            .map_err(|e| CliError::BadInput(format!("{shown_expected}: {e}")))?;
            writeln!(out, "blessed {name} -> {shown_expected}")?;
        }
        return Ok(true);
    }
    let Some(expected) = expected else {
        writeln!(
            out,
            "FAIL {name}: no expected output {shown_expected} (write it with --bless)"
        )?;
        return Ok(false);
    };
    let diffs = snapshot::diff_traced(&expected, &snapshot::normalize(&actual), &rendered.origins);
    if diffs.is_empty() {
        writeln!(out, "ok   {name}")?;
        return Ok(true);
    }
    writeln!(out, "FAIL {name}: {} frame(s) differ", diffs.len())?;
    for d in &diffs {
        print_diff(out, d, &name, &shown_expected, colour)?;
    }
    Ok(false)
}

/// A failure's header, then its error's lines indented; it did not pass.
fn fail(out: &mut impl Write, head: &str, e: &dyn std::fmt::Display) -> Result<bool, CliError> {
    writeln!(out, "{head}")?;
    for line in e.to_string().lines() {
        writeln!(out, "  {}", crate::text::escape_controls(line))?;
    }
    Ok(false)
}

/// One frame's difference: its header with the script's FILE:LINE, then its lines, each
/// hunk with the input that made it and a state line changed told field by field.
fn print_diff(
    out: &mut impl Write,
    d: &snapshot::FrameDiff,
    name: &str,
    shown_expected: &str,
    colour: bool,
) -> Result<(), CliError> {
    let frame = crate::text::escape_controls(&d.frame);
    // The header names the line already; the script's path with it makes a
    // FILE:LINE an editor opens.
    match script_line(&frame) {
        Some(line) => writeln!(out, "  {frame}  at {name}:{line}")?,
        None => writeln!(out, "  {frame}")?,
    }
    writeln!(out, "  --- expected {shown_expected}")?;
    writeln!(out, "  +++ actual")?;
    // The removed lines of the run of changes under way, to pair with the added
    // ones: a state line changed is told field by field.
    let mut removed: Vec<&str> = Vec::new();
    let mut paired = 0;
    for (i, line) in d.lines.iter().enumerate() {
        let paint = match line.chars().next() {
            Some('-') if colour => "\x1b[31m",
            Some('+') if colour => "\x1b[32m",
            Some('@') if colour => "\x1b[36m",
            _ => "",
        };
        let reset = if paint.is_empty() { "" } else { "\x1b[0m" };
        // A hunk names the input that made its first difference, which the frame
        // above it may not (state lines come from the steps after the frame's).
        // (Said only where it is not the frame's own step.)
        let own = frame_step(&d.frame);
        let from = d
            .hunks
            .iter()
            .find(|(at, origin)| *at == i && Some(*origin) != own)
            .map_or(String::new(), |(_, (token, line))| {
                format!("  from token {token} at {name}:{line}")
            });
        let shown = crate::text::escape_controls(line);
        writeln!(out, "  {paint}{shown}{reset}{from}")?;
        match line.as_bytes().first() {
            Some(b'-') => removed.push(&line[1..]),
            Some(b'+') => {
                if let Some(old) = removed.get(paired) {
                    paired += 1;
                    for change in snapshot::state_changes(old, &line[1..]).unwrap_or_default() {
                        let change = crate::text::escape_controls(&change);
                        writeln!(out, "      ~ {change}")?;
                    }
                }
            }
            _ => {
                removed.clear();
                paired = 0;
            }
        }
    }
    Ok(())
}

/// (K, L) from a frame header `--- frame NAME (token K, line L) ---`, if it has them.
fn frame_step(header: &str) -> Option<(usize, usize)> {
    let (_, rest) = header.split_once("(token ")?;
    let (token, rest) = rest.split_once(", line ")?;
    let line = rest.split(')').next()?;
    Some((token.parse().ok()?, line.parse().ok()?))
}

/// "L" from a frame header `--- frame NAME (token K, line L) ---`, if it has one.
fn script_line(header: &str) -> Option<String> {
    header
        .rsplit_once("line ")
        .and_then(|(_, rest)| rest.split(')').next())
        .filter(|l| !l.is_empty() && l.bytes().all(|b| b.is_ascii_digit()))
        .map(str::to_owned)
}

/// Every `*.keys` below `dir`, skipping hidden folders and `target`.
fn find_scripts(dir: &Path, found: &mut Vec<PathBuf>) -> Result<(), CliError> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| CliError::BadInput(format!("{}: {e}", dir.display())))?;
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            if !name.starts_with('.') && name != "target" {
                find_scripts(&path, found)?;
            }
        } else if kind.is_file() && name.ends_with(".keys") {
            found.push(path);
        }
    }
    Ok(())
}
