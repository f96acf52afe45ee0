//! `astar-rogue config [--check [FILE]]`: where the settings file is and the full default
//! file with its comments, or whether a settings file reads.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::error::CliError;
use crate::app::config;

/// Arguments of `config`.
#[derive(Debug, Args)]
pub struct ConfigArgs {
    /// Read the settings file instead (FILE, or the one the game reads) and say whether it
    /// is good: `FILE: ok`, or its first error with its line and column (exit 2).
    #[arg(long)]
    pub check: bool,
    /// The settings file to check (with --check).
    #[arg(requires = "check")]
    pub file: Option<PathBuf>,
}

/// Prints the settings file's path and the default file, or checks a file.
pub(super) fn config(args: &ConfigArgs) -> Result<i32, CliError> {
    let mut out = std::io::stdout().lock();
    let name = crate::text::shown_path;
    if args.check {
        let (path, must_exist) = match &args.file {
            Some(p) => (p.clone(), true),
            None => config::user_path().ok_or_else(|| CliError::BadInput(no_home()))?,
        };
        if !must_exist && config::absent(&path) {
            writeln!(out, "{}: none, the defaults apply", name(&path))?;
            return Ok(0);
        }
        config::load(&path)?;
        writeln!(out, "{}: ok", name(&path))?;
        return Ok(0);
    }
    match config::user_path() {
        Some((path, from_env)) => {
            let whence = if from_env {
                format!(" (from {})", config::ENV)
            } else {
                String::new()
            };
            let state = if config::absent(&path) {
                "there is none yet, so the game plays with the defaults below"
            } else if path.exists() {
                "it exists; below are the defaults, not what it says"
            } else {
                "it is a link to nothing: the game will not start until it is mended or removed"
            };
            writeln!(out, "# The settings file{whence}: {}", name(&path))?;
            writeln!(out, "# ({state})")?;
        }
        None => writeln!(out, "# {}", no_home())?,
    }
    writeln!(out, "#")?;
    out.write_all(config::default_file().as_bytes())?;
    Ok(0)
}

fn no_home() -> String {
    format!(
        "there is no home folder to keep the settings file in: set {}=FILE",
        config::ENV
    )
}
