//! `astar-rogue replay FILE.keys [--speed N] [--turn T] [--level L] [--seed N]`: watch a
//! recording in the terminal.

use std::path::PathBuf;

use clap::Args;

use super::error::CliError;
use crate::frontend::replay::{self, DEFAULT_SPEED, Replay, SPEEDS};
use crate::frontend::script::RunOptions;

/// Arguments of `replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The recording (`play --record`, a morgue's `.keys`, a crash file, any script).
    pub script: PathBuf,
    /// Inputs a second to start at: 1, 2, 5, 10, 20, 50, 100, 200, 500 or 2000.
    #[arg(long, default_value_t = SPEEDS[DEFAULT_SPEED])]
    pub speed: u32,
    /// Start paused at this turn (played up to it first).
    #[arg(long)]
    pub turn: Option<u32>,
    /// The level (overrides the recording's header).
    #[arg(long)]
    pub level: Option<PathBuf>,
    /// Seed (overrides the recording's header).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Instead of watching, write the run as an asciicast v2 file (as `cast` does), one
    /// input every 1/speed seconds; the terminal is not touched.
    #[arg(long, value_name = "FILE.cast", conflicts_with = "turn")]
    pub cast: Option<PathBuf>,
}

/// Opens the recording (bad input is reported before the terminal is touched) and plays it.
pub(super) fn replay(args: &ReplayArgs) -> Result<i32, CliError> {
    let speed = SPEEDS
        .iter()
        .position(|&s| s == args.speed)
        .ok_or_else(|| {
            CliError::BadInput(format!(
                "bad speed {}: use one of {}",
                args.speed,
                SPEEDS.map(|s| s.to_string()).join(", ")
            ))
        })?;
    let options = RunOptions {
        level: args.level.clone(),
        seed: args.seed,
        ..RunOptions::default()
    };
    if let Some(file) = &args.cast {
        let input_ms = 1000 / u64::from(SPEEDS[speed]).max(1);
        let bytes = crate::frontend::cast::render(&args.script, &options, input_ms)?;
        return super::cast::write(file, &bytes);
    }
    let mut r = Replay::open(&args.script, &options)?;
    let paused = match args.turn {
        Some(t) => {
            r.seek_turn(t)?;
            true
        }
        None => false,
    };
    replay::watch(r, speed, paused).map_err(CliError::Terminal)
}
