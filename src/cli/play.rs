//! `astar-rogue play [LEVEL] [--seed N]` (also the default without a subcommand).

use std::path::PathBuf;

use clap::Args;

use super::CliError;
use crate::app::{App, open_level};
use crate::game::Planning;

/// Arguments of `play`.
#[derive(Debug, Args, Default)]
pub struct PlayArgs {
    /// A level file (text or Moving AI `.map`); the default level when omitted.
    pub level: Option<PathBuf>,
    /// Seed for combat rolls and for placing creatures on maps that have none.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// How the monsters plan: astar (each its own, every turn), capped[:N] (A* capped at N
    /// expansions, 5000 by default) or map (one Dijkstra map from the player for all).
    #[arg(long, default_value_t = Planning::AStar)]
    pub planning: Planning,
}

/// Plays in the terminal until the player quits.
pub(super) fn play(args: PlayArgs) -> Result<i32, CliError> {
    let (level, source) = open_level(args.level.as_deref(), args.seed)?;
    let mut app = App::new(level, source, args.seed, (80, 24));
    if args.planning != Planning::AStar {
        app.world.set_planning(args.planning);
    }
    crate::frontend::term::play(&mut app).map_err(CliError::Terminal)?;
    Ok(0)
}
