//! `astar-rogue play [LEVEL] [--seed N]` (also the default without a subcommand).

use std::path::PathBuf;

use clap::Args;

use super::CliError;
use crate::app::{App, open_level};

/// Arguments of `play`.
#[derive(Debug, Args, Default)]
pub struct PlayArgs {
    /// A level file (text or Moving AI `.map`); the default level when omitted.
    pub level: Option<PathBuf>,
    /// Seed for combat rolls and for placing creatures on maps that have none.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Plays in the terminal until the player quits.
pub(super) fn play(args: PlayArgs) -> Result<i32, CliError> {
    let (level, source) = open_level(args.level.as_deref(), args.seed)?;
    let mut app = App::new(level, source, args.seed, (80, 24));
    crate::frontend::term::play(&mut app).map_err(CliError::Terminal)?;
    Ok(0)
}
