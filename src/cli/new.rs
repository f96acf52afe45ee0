//! `astar-rogue new WxH FILE [--title TEXT]`: writes a blank level (walls around floor,
//! the player in the middle) to start designing from. An existing file is never
//! overwritten, whatever it is.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::error::CliError;
use crate::content::level::Level;

/// Arguments of `new`.
#[derive(Debug, Args)]
pub struct NewArgs {
    /// Size `WxH`, at least 3x3.
    #[arg(value_name = "WxH")]
    pub size: String,
    /// The level file to make (it must not exist).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The level's title (its `title:` header).
    #[arg(long, value_name = "TEXT")]
    pub title: Option<String>,
}

/// Writes the blank level and says how to go on.
pub(super) fn new(args: &NewArgs) -> Result<i32, CliError> {
    let (w, h) = crate::text::parse_size(&args.size).ok_or_else(|| {
        CliError::BadInput(format!(
            "bad size {:?}: expected WxH, e.g. 40x16",
            args.size
        ))
    })?;
    let text = Level::blank(w, h, args.title.as_deref())
        .map_err(|e| CliError::BadInput(e.to_string()))?
        .to_text();
    let name = args.file.display();
    crate::app::write_new(&args.file, text.as_bytes())
        .map_err(|e| CliError::BadInput(format!("{name}: {e}")))?;
    writeln!(
        std::io::stdout().lock(),
        "{}: a blank {w}x{h} level; astar-rogue play {} and e edits it",
        crate::text::escape_controls(&name.to_string()),
        crate::text::escape_controls(&name.to_string()),
    )?;
    Ok(0)
}
