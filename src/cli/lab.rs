//! `astar-rogue lab LEVEL [--from X,Y] [--to X,Y] [search options]`: the search lab on
//! exactly the query `path` runs with the same arguments.

use clap::Args;

use super::CliError;
use super::query::{QueryArgs, check_endpoints};
use crate::app::{App, open_level};
use crate::content::level::Level;
use crate::engine::astar::{Pathfinder, Query};

/// Arguments of `lab`.
#[derive(Debug, Args)]
pub struct LabArgs {
    /// The level and the search.
    #[command(flatten)]
    pub query: QueryArgs,
    /// Seed (for placing creatures on maps that have none).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Opens the lab in the terminal until the player quits.
pub(super) fn lab(args: &LabArgs) -> Result<i32, CliError> {
    let q = &args.query;
    // The endpoints and the refusals exactly as `path` has them, before the terminal is
    // touched (on the level as its file says it: a Moving AI map has no monster to start from).
    let (level, _) = Level::load(&q.level)?;
    let (from, to) = q.endpoints(&level)?;
    let options = q.options();
    let probe = Pathfinder::new().find(&level.grid, Query::new(from, to).options(options));
    check_endpoints(&level, from, to, probe.status)?;
    let (design, source) = open_level(Some(&q.level), args.seed)?;
    let mut app = App::new(design, source, args.seed, (80, 24));
    app.open_lab(from, to, options);
    crate::frontend::term::play(&mut app).map_err(CliError::Terminal)?;
    Ok(0)
}
