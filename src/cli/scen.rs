//! `astar-rogue scen FILE.map.scen... [--map FILE.map]`: every scenario of Moving AI
//! scenario files through the engine, each path checked.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::CliError;
use crate::content::scen::{self, Report};

/// Arguments of `scen`.
#[derive(Debug, Args)]
pub struct ScenArgs {
    /// Scenario files (`.map.scen`).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// The map, when it is not next to the scenario file.
    #[arg(long)]
    pub map: Option<PathBuf>,
}

/// A line per file (with its first failures), then the total as the last line. Exit code 1
/// when any scenario failed.
pub(super) fn scen(args: &ScenArgs) -> Result<i32, CliError> {
    let mut total = Report::default();
    let mut out = std::io::stdout().lock();
    for file in &args.files {
        let report = scen::run_file(file, args.map.as_deref())
            .map_err(|e| CliError::BadInput(e.to_string()))?;
        writeln!(out, "{}: {}", file.display(), scen::format_summary(&report))?;
        for f in &report.failures {
            writeln!(out, "  FAILED {f}")?;
        }
        total += &report;
    }
    writeln!(out, "{}", scen::format_summary(&total))?;
    Ok(if total.failed > 0 { 1 } else { 0 })
}
