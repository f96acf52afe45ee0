//! `astar-rogue check [--strict] LEVEL...`: validates level files, prints a summary of each,
//! and warns about what makes a level unplayable as designed (see
//! [`crate::content::level::lint`]). A level that names a `next:` floor starts a campaign:
//! every floor of it is checked, and a chain that is wrong is an error at the `next:` header
//! (see [`crate::content::level::campaign`]). Only reads: a level file is the user's work.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use super::error::{CliError, EXIT_BAD_INPUT};
use crate::content::level::campaign::{self, ChainFloor};
use crate::content::level::design::Design;
use crate::content::level::lint::{Subject, lint};
use crate::content::level::{Format, read_level_file};
use crate::text::{LoadError, escape_controls};

/// Arguments of `check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Level files.
    #[arg(required = true)]
    pub levels: Vec<PathBuf>,
    /// Treat warnings as errors (exit 2), to guard levels in CI.
    #[arg(long)]
    pub strict: bool,
}

/// Checks every file, and every floor of the campaign it starts (its `next:` headers
/// followed); exit code 2 when any of them is invalid, or has warnings under `--strict`.
pub(super) fn check(args: &CheckArgs) -> Result<i32, CliError> {
    let mut failed = false;
    let mut out = std::io::stdout().lock();
    for p in &args.levels {
        let name = p.display().to_string();
        let (design, format) = match load(p, &name) {
            Ok(x) => x,
            Err(e) => {
                failed = true;
                super::error::report(&e);
                continue;
            }
        };
        let chain = campaign::follow(p, design, format, &[]);
        let floors = chain.floors.len();
        for (i, floor) in chain.floors.iter().enumerate() {
            // A campaign's floors are named by their place in it.
            let place = match (floors, &chain.error) {
                (1, None) => String::new(),
                (n, None) => format!(", floor {} of {n}", i + 1),
                (_, Some(_)) => format!(", floor {}", i + 1),
            };
            // A map the game refuses to play must not pass the check.
            if let Err(e) = crate::session::playable(&floor.design, &floor.path, floor.format) {
                failed = true;
                super::error::report(&e);
                continue;
            }
            let name = floor.path.display().to_string();
            failed |= check_floor(&name, floor, args.strict, &place, &mut out)?;
        }
        if let Some(e) = chain.error {
            failed = true;
            super::error::report(&e);
        }
    }
    Ok(if failed { EXIT_BAD_INPUT } else { 0 })
}

/// The terrain of a map, for its summary line: ` (22 water x3, 4 brush x2)`, or nothing on
/// a map of plain floor.
fn terrain_counts(grid: &crate::content::map::TileMap) -> String {
    use crate::content::map::Tile;
    let parts: Vec<String> = Tile::TERRAIN
        .into_iter()
        .filter_map(|t| {
            let n = grid.tiles().iter().filter(|&&c| c == t).count();
            let k = grid.weights().get(t);
            let shown = n > 0 && (t != Tile::Floor || k != 1);
            shown.then(|| format!("{n} {} x{k}", t.name()))
        })
        .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!(" ({})", parts.join(", "))
    }
}

/// Prints a floor's warnings and its summary line (ending with `place`); whether it fails
/// the check.
fn check_floor(
    name: &str,
    floor: &ChainFloor,
    strict: bool,
    place: &str,
    out: &mut impl Write,
) -> std::io::Result<bool> {
    let design = &floor.design;
    let l = design.level();
    let severity = if strict { "error" } else { "warning" };
    let warnings = lint(l);
    for w in &warnings {
        // A warning names the glyph, or the message header, it is about.
        let (line, col) = match w.subject {
            Subject::Cell(c) => design.cell_source(c),
            Subject::Note(i) => design.note_line(i).map(|n| (n, 1)),
        }
        .unwrap_or((1, 1));
        super::error::report(&format!("{name}:{line}:{col}: {severity}: {}", w.message));
    }
    if strict && !warnings.is_empty() {
        return Ok(true);
    }
    let kind = match floor.format {
        Format::Text => "level",
        Format::MovingAi => "Moving AI map",
    };
    let cells = l.grid.tiles().iter().filter(|t| t.is_passable()).count();
    let terrain = terrain_counts(&l.grid);
    let player = l
        .player
        .map_or("no player".to_string(), |p| format!("player at {p}"));
    let n = l.monsters.len();
    let own = match l.grid.kinds().own().len() {
        0 => String::new(),
        1 => " (1 kind of its own)".to_string(),
        k => format!(" ({k} kinds of its own)"),
    };
    writeln!(
        out,
        "{}: ok, {kind} {}x{}, {cells} floor cell{}{terrain}, {player}, {n} monster{}{own}{}{}{place}",
        escape_controls(name),
        l.grid.width(),
        l.grid.height(),
        if cells == 1 { "" } else { "s" },
        if n == 1 { "" } else { "s" },
        // A title is the file's text: it must not drive the terminal.
        l.title
            .as_ref()
            .map(|t| format!(", \"{}\"", escape_controls(t)))
            .unwrap_or_default(),
        match warnings.len() {
            0 => String::new(),
            1 => ", 1 warning".to_string(),
            w => format!(", {w} warnings"),
        }
    )?;
    Ok(false)
}

/// Reads and parses a level file of either format, keeping its text for positions.
fn load(path: &Path, name: &str) -> Result<(Design, Format), LoadError> {
    let bytes = read_level_file(path)?;
    Ok(Design::parse_any(&bytes, name)?)
}
