//! `astar-rogue play [LEVEL] [--seed N] [--record FILE.keys]` (also the default without a
//! subcommand).

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use clap::Args;

use super::CliError;
use crate::app::{App, SourceKind, open_level};
use crate::frontend::record::Recorder;
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
    /// expansions, 5000 by default), map (one Dijkstra map from the player for all) or jps
    /// (each its own Jump Point Search, every turn).
    #[arg(long, default_value_t = Planning::AStar)]
    pub planning: Planning,
    /// Record every input into this script file as it happens; `astar-rogue script FILE`
    /// replays the game to the last frame shown.
    #[arg(long, value_name = "FILE.keys")]
    pub record: Option<PathBuf>,
}

/// Plays in the terminal until the player quits; a signal that ends the game gives
/// 128 + its number.
pub(super) fn play(args: PlayArgs) -> Result<i32, CliError> {
    // Read and check the level before touching the terminal, so bad input is reported on
    // the plain screen; planning its monsters (seconds on a huge level) comes later, with
    // progress on screen.
    let (level, source) = open_level(args.level.as_deref(), args.seed)?;
    let file = match source.kind {
        SourceKind::Text | SourceKind::MovingAi => source.path.clone(),
        SourceKind::Generated => None,
    };
    let mut recorder =
        Recorder::new(file.as_deref(), args.seed, args.record.as_deref()).map_err(|e| {
            let name = args.record.as_deref().unwrap_or(std::path::Path::new(""));
            CliError::BadInput(format!("{}: cannot record: {e}", name.display()))
        })?;
    let planning = args.planning;
    if planning != Planning::AStar {
        // The replay must plan as the game did.
        recorder = recorder.with_header("planning", planning);
    }
    let seed = args.seed;
    let recorder = Arc::new(Mutex::new(recorder));
    let ending = crate::frontend::term::play(
        move |size| {
            let mut app = App::new(level, source, seed, size);
            if planning != Planning::AStar {
                app.world.set_planning(planning);
            }
            app
        },
        Arc::clone(&recorder),
    )
    .map_err(CliError::Terminal)?;
    Ok(ending.exit_code())
}
