//! `astar-rogue script SCRIPT [--level L] [--size WxH] [--seed N] [--frames F] [--state]`.

use std::path::PathBuf;

use clap::Args;

use super::error::CliError;
use crate::engine::grid::Pos;
use crate::frontend::script::{self, Frames, Output, RunOptions};

/// Arguments of `script`.
#[derive(Debug, Args)]
pub struct ScriptArgs {
    /// The script file.
    pub script: PathBuf,
    /// The level (overrides the script's header).
    #[arg(long)]
    pub level: Option<PathBuf>,
    /// Terminal size `WxH` (default 80x24).
    #[arg(long, value_parser = script::terminal_size)]
    pub size: Option<(u16, u16)>,
    /// Seed (default 1).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Start in the search lab on the query `X1,Y1:X2,Y2` (start:goal).
    #[arg(long, value_parser = script::lab_query, allow_hyphen_values = true)]
    pub lab: Option<(Pos, Pos)>,
    /// Which frames to print: last, snaps or all.
    #[arg(long, default_value_t = Frames::Last)]
    pub frames: Frames,
    /// Print a JSON state line after every turn.
    #[arg(long)]
    pub state: bool,
    /// Print every frame's colours and modifiers too, one letter per cell with a legend (as
    /// the header `#! styles: on` does).
    #[arg(long)]
    pub styles: bool,
    /// Settings file to play with (overrides the script's `#! config:` header). Without
    /// either, the defaults: a script never reads the user's own settings.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Let the script's saves (`s`) write the level files; without it a replay shows a
    /// save in the log and writes nothing, so replaying someone's recording never rewrites
    /// a level.
    #[arg(long)]
    pub allow_saves: bool,
}

/// Runs the script headless and prints its frames as they come.
pub(super) fn script(args: &ScriptArgs) -> Result<i32, CliError> {
    let options = RunOptions {
        level: args.level.clone(),
        size: args.size,
        seed: args.seed,
        lab: args.lab,
        output: Output {
            frames: args.frames,
            state: args.state,
        },
        styles: args.styles,
        config: args.config.clone(),
        allow_saves: args.allow_saves,
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    script::run_file(&args.script, &options, &mut out)?;
    Ok(0)
}
