//! `astar-rogue cast SCRIPT -o FILE.cast [--level L] [--size WxH] [--seed N]`: a script's
//! frames as an asciicast v2 file, to play in a terminal or embed in a page.

use std::path::PathBuf;

use clap::Args;

use super::error::CliError;
use crate::frontend::cast;
use crate::frontend::script::{self, RunOptions};

/// Arguments of `cast`.
#[derive(Debug, Args)]
pub struct CastArgs {
    /// The script file.
    pub script: PathBuf,
    /// The cast to write (asciicast v2). A file already there is replaced only when it is a
    /// cast astar-rogue made; anything else is left as it is.
    #[arg(short, long, value_name = "FILE.cast")]
    pub output: PathBuf,
    /// The level (overrides the script's header).
    #[arg(long)]
    pub level: Option<PathBuf>,
    /// Terminal size `WxH` (default 80x24).
    #[arg(long, value_parser = script::terminal_size)]
    pub size: Option<(u16, u16)>,
    /// Seed (default 1).
    #[arg(long)]
    pub seed: Option<u64>,
}

/// Plays the script headless, as `script` does, and writes its frames as a cast.
pub(super) fn cast(args: &CastArgs) -> Result<i32, CliError> {
    let options = RunOptions {
        level: args.level.clone(),
        size: args.size,
        seed: args.seed,
        ..RunOptions::default()
    };
    let bytes = cast::render(&args.script, &options, cast::INPUT_MS)?;
    write(&args.output, &bytes)
}

/// Writes a cast made in memory to `path` (see [`cast::save`]), naming the file in an error.
pub(super) fn write(path: &std::path::Path, bytes: &[u8]) -> Result<i32, CliError> {
    cast::save(path, bytes).map_err(|e| CliError::BadInput(format!("{}: {e}", path.display())))?;
    Ok(0)
}
