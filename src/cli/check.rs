//! `astar-rogue check LEVEL...`: validates level files and prints a summary of each.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::{CliError, EXIT_BAD_INPUT};
use crate::content::level::{Format, Level};

/// Arguments of `check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Level files.
    #[arg(required = true)]
    pub levels: Vec<PathBuf>,
}

/// Checks every file; exit code 2 when any of them is invalid.
pub(super) fn check(args: &CheckArgs) -> Result<i32, CliError> {
    let mut failed = false;
    let mut out = std::io::stdout().lock();
    for p in &args.levels {
        match Level::load(p) {
            Ok((l, format)) => {
                let kind = match format {
                    Format::Text => "level",
                    Format::MovingAi => "Moving AI map",
                };
                let floor = l.grid.tiles().iter().filter(|t| t.is_passable()).count();
                let player = l
                    .player
                    .map_or("no player".to_string(), |p| format!("player at {p}"));
                let n = l.monsters.len();
                writeln!(
                    out,
                    "{}: ok, {kind} {}x{}, {floor} floor cells, {player}, {n} monster{}{}",
                    crate::text::escape_controls(&p.display().to_string()),
                    l.grid.width(),
                    l.grid.height(),
                    if n == 1 { "" } else { "s" },
                    // A title is the file's text: it must not drive the terminal.
                    l.title
                        .map(|t| format!(", \"{}\"", crate::text::escape_controls(&t)))
                        .unwrap_or_default()
                )?;
            }
            Err(e) => {
                failed = true;
                super::report(&e);
            }
        }
    }
    Ok(if failed { EXIT_BAD_INPUT } else { 0 })
}
