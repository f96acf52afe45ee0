//! `astar-rogue generate [--kind K] [--size WxH] [--seed N] [--monsters M] [--density D]
//! [--terrain SHARE] [-o FILE]`: every argument has a default, so a bare `generate` prints a
//! level. `-o` never writes over a file that exists.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::error::{CliError, GenerateError};
use crate::content::generate::{self, Density, GenKind, GenParams};

/// Arguments of `generate`.
#[derive(Debug, Args)]
#[command(
    override_usage = "astar-rogue generate [--kind KIND] [--size WxH] [--seed N] [--monsters M] [--density DENSITY] [--terrain SHARE] [-o FILE]"
)]
pub struct GenerateArgs {
    /// Which generator.
    #[arg(long, value_name = "KIND", default_value = "caves", value_parser = kinds())]
    pub kind: GenKind,
    /// Size `WxH`, from 10x5 to 1024x1024.
    #[arg(long, value_name = "WxH", default_value = "80x40")]
    pub size: String,
    /// Seed: the same seed (with the same kind and size) makes the same level.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// Number of monsters (default: about one per 400 cells, at most 40; a count given here is
    /// not capped so).
    #[arg(long, value_name = "M")]
    pub monsters: Option<usize>,
    /// Share of the interior that starts as wall, as a fraction (0.3) or a percentage
    /// (30%); caves, cells, scatter and arena take one (default: the kind's own).
    #[arg(long)]
    pub density: Option<Density>,
    /// Share of the floor laid as water and brush, as a fraction (0.1) or a percentage
    /// (10%): pools in caves and cells (default 0.06), marsh in arena (0.12), pools in the
    /// other kinds (default 0). 0 makes the level as it was before terrain.
    #[arg(long, value_name = "SHARE")]
    pub terrain: Option<Density>,
    /// Output file, which must not exist: a level there is never replaced (standard output
    /// when omitted or `-`).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// The generators' names, listed in `--help` and in the error for an unknown one.
fn kinds() -> impl clap::builder::TypedValueParser<Value = GenKind> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(GenKind::ALL.map(GenKind::name))
        .try_map(|s| s.parse::<GenKind>())
}

/// Generates a level and writes it to the output file or standard output.
pub(super) fn generate(args: &GenerateArgs) -> Result<i32, CliError> {
    let text = generate_text(args)?;
    match &args.output {
        // `-` is standard output, as for every Unix tool.
        Some(path) if path.as_os_str() == "-" => {
            std::io::stdout().lock().write_all(text.as_bytes())?
        }
        // As `new` does: a file at that name may be a level someone designed, or any other
        // file of theirs, and a mistyped name must not cost it.
        Some(path) => {
            crate::app::write_new(path, text.as_bytes())
                .map_err(|e| CliError::BadInput(format!("{}: {e}", path.display())))?;
        }
        None => std::io::stdout().lock().write_all(text.as_bytes())?,
    }
    Ok(0)
}

/// The text of the level `generate` makes, or why it cannot be made.
pub fn generate_text(args: &GenerateArgs) -> Result<String, GenerateError> {
    let (width, height) = crate::text::parse_size(&args.size)
        .ok_or_else(|| GenerateError::Size(args.size.clone()))?;
    let params = GenParams {
        kind: args.kind,
        width,
        height,
        seed: args.seed,
        monsters: args
            .monsters
            .unwrap_or_else(|| generate::default_monsters(width, height)),
        density: args.density,
        terrain: args.terrain,
        depth: astar_rogue_core::content::generate::DEEPEST,
    };
    Ok(generate::generate(&params)?.to_text())
}
