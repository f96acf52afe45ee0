//! `astar-rogue scen FILE.map.scen... [--map FILE.map] [--jobs N] [--ties RULE]
//! [--algorithm astar|jps]`: every scenario of Moving AI scenario files through the engine,
//! each path checked.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::error::CliError;
use crate::content::scen::{self, Report};
use crate::engine::astar::{Algorithm, SearchOptions, Ties};

/// Arguments of `scen`.
#[derive(Debug, Args)]
pub struct ScenArgs {
    /// Scenario files (`.map.scen`). Where `FILE.map.scen.1014` lies beside one, every
    /// path's cost must equal the exact cost it gives; otherwise it must lie within the
    /// bounds around the file's `optimal_length`.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// The map, when it is not next to the scenario file.
    #[arg(long)]
    pub map: Option<PathBuf>,
    /// Threads to run the scenarios on (default: every core). Each search is still timed on
    /// its own; the results do not depend on it.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub jobs: Option<u16>,
    /// Which node of equal F goes first: lower-h (the game's rule), lifo (the last queued) or
    /// fifo (the first queued).
    #[arg(long, default_value_t = Ties::LowerH)]
    pub ties: Ties,
    /// The search: astar, or jps (Jump Point Search: the same optimal costs, other paths).
    #[arg(long, default_value_t = Algorithm::AStar)]
    pub algorithm: Algorithm,
}

/// A line per file (with the check it ran and its first failures), then the total as the
/// last line. Exit code 1 when any scenario failed.
pub(super) fn scen(args: &ScenArgs) -> Result<i32, CliError> {
    let jobs = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, usize::from),
        usize::from,
    );
    let mut total = Report::default();
    let mut out = std::io::stdout().lock();
    let options = SearchOptions::default()
        .with_ties(args.ties)
        .with_algorithm(args.algorithm);
    for file in &args.files {
        let report = scen::run_file_on(file, args.map.as_deref(), jobs, options)
            .map_err(|e| CliError::BadInput(e.to_string()))?;
        let exact = scen::exact_path(file);
        let check = if exact.is_file() {
            format!("exact costs from {}", exact.display())
        } else {
            "bounds around optimal_length (no .1014 file)".to_string()
        };
        writeln!(
            out,
            "{}: {} (checked: {check})",
            file.display(),
            scen::format_summary(&report)
        )?;
        if let Some(why) = report.fallback {
            writeln!(out, "  {}", crate::view::describe::fallback(why))?;
        }
        for f in &report.failures {
            writeln!(out, "  FAILED {f}")?;
        }
        total += &report;
    }
    writeln!(out, "{}", scen::format_summary(&total))?;
    Ok(if total.failed > 0 { 1 } else { 0 })
}
