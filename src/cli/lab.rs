//! `astar-rogue lab LEVEL [--from X,Y] [--to X,Y] [search options]`: the search lab on
//! exactly the query `path` runs with the same arguments.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use clap::Args;

use super::error::CliError;
use super::query::{QueryArgs, check_endpoints};
use crate::app::{App, open_level};
use crate::content::level::Level;
use crate::frontend::record::Recorder;

/// Arguments of `lab`.
#[derive(Debug, Args)]
pub struct LabArgs {
    /// The level and the search.
    #[command(flatten)]
    pub query: QueryArgs,
    /// Seed (for placing creatures on maps that have none).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Settings file to use, instead of the usual one (`astar-rogue config` prints where
    /// that is).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// Opens the lab in the terminal until the player quits.
pub(super) fn lab(args: &LabArgs) -> Result<i32, CliError> {
    let q = &args.query;
    // The endpoints and the refusals exactly as `path` has them, before the terminal is
    // touched (on the level as its file says it: a Moving AI map has no monster to start from).
    let (mut level, _) = Level::load(&q.level)?;
    let (from, to) = q.endpoints(&level)?;
    check_endpoints(&level, from, to)?;
    let kind = q.kind_on(&level)?;
    QueryArgs::check_kind_endpoints(kind.as_ref(), q.grid(&mut level, kind.as_ref()), from, to)?;
    // The lab searches as the kind itself: its moves, weight and cap over these options,
    // and its costs.
    let (options, kind) = (q.base_options(), kind.map(|k| k.glyph));
    let (design, source) = open_level(Some(&q.level), args.seed)?;
    let settings = settings(args.config.as_deref())?;
    crate::frontend::term::require_terminal()?;
    let seed = args.seed;
    // Nothing is recorded: the lab's own scripts start with `#! lab:` instead.
    let recorder = Recorder::new(None, seed, None, false).map_err(CliError::Terminal)?;
    let keys = settings.bindings.clone();
    let ending = crate::frontend::term::play(
        move |size, progress| {
            let mut app = App::with_progress(design, source, seed, size, progress);
            app.apply_settings(settings);
            app.open_lab(from, to, options, kind);
            app
        },
        Arc::new(Mutex::new(recorder)),
        keys,
    )
    .map_err(CliError::Terminal)?;
    Ok(ending.exit_code())
}

/// The settings an interactive command plays with: `file`, or else the user's own
/// (`app::config::load_user`).
fn settings(file: Option<&std::path::Path>) -> Result<crate::app::config::Settings, CliError> {
    Ok(match file {
        Some(f) => crate::app::config::load(f)?,
        None => crate::app::config::load_user()?,
    })
}
