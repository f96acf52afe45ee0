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
    /// Settings file to play with, instead of the usual one (`astar-rogue config` prints
    /// where that is).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// With --record: replace FILE when it is an earlier recording (nothing else is ever
    /// replaced).
    #[arg(long, requires = "record")]
    pub force: bool,
}

/// Plays in the terminal until the player quits; a signal that ends the game gives
/// 128 + its number.
pub(super) fn play(args: PlayArgs) -> Result<i32, CliError> {
    // Read and check the level before touching the terminal, so bad input is reported on
    // the plain screen; planning its monsters (seconds on a huge level) comes later, with
    // progress on screen.
    let (level, source) = open_level(args.level.as_deref(), args.seed)?;
    // The settings too: a bad file is refused whole, on the plain screen.
    let settings = super::settings(args.config.as_deref())?;
    // Nothing is written (no recording) and no mode touched without a terminal to play on.
    crate::frontend::term::require_terminal().map_err(CliError::BadInput)?;
    let recovered = match source
        .path
        .as_deref()
        .filter(|_| source.kind != SourceKind::Generated)
    {
        Some(path) => match offer_recovery(path)? {
            Offer::Quit => return Ok(0),
            Offer::Take(design, file) => Some((design, file)),
            Offer::Leave => None,
        },
        None => None,
    };
    let file = match source.kind {
        SourceKind::Text | SourceKind::MovingAi => source.path.clone(),
        SourceKind::Generated => None,
    };
    let mut recorder = Recorder::new(
        file.as_deref(),
        args.seed,
        args.record.as_deref(),
        args.force,
    )
    .map_err(|e| {
        let name = args.record.as_deref().unwrap_or(std::path::Path::new(""));
        CliError::BadInput(format!("{}: cannot record: {e}", name.display()))
    })?;
    let planning = args.planning;
    if planning != Planning::AStar {
        // The replay must plan as the game did.
        recorder = recorder.with_header("planning", planning);
    }
    if let Some(file) = &settings.file {
        // The replay must read the keys as the game did.
        let file = std::fs::canonicalize(file).unwrap_or_else(|_| file.clone());
        recorder = recorder.with_header("config", file.display());
    }
    let seed = args.seed;
    let recorder = Arc::new(Mutex::new(recorder));
    let keys = settings.bindings.clone();
    let ending = crate::frontend::term::play(
        move |size, progress| {
            let mut app = App::with_progress(level, source, seed, size, progress);
            app.apply_settings(settings);
            if planning != Planning::AStar {
                app.set_planning(planning);
            }
            if let Some((design, file)) = recovered {
                app.take_recovery(*design, file);
            }
            app
        },
        Arc::clone(&recorder),
        keys,
    )
    .map_err(CliError::Terminal)?;
    Ok(ending.exit_code())
}

/// What the player chose to do with a recovery file.
enum Offer {
    /// Play its edits.
    Take(Box<crate::content::level::Design>, PathBuf),
    /// Play the level as it is (the recovery file kept, or deleted).
    Leave,
    /// Do nothing at all.
    Quit,
}

/// Offers the unsaved edits a signal kept beside the level, as vim offers a swap file:
/// asked on the plain terminal before the game starts. Nothing is deleted unless the
/// player says so: declined, the file stays and is offered again next time (and a
/// hang-up of this game writes to another name, never over it); recovered, it goes once
/// the edits are saved into the level.
fn offer_recovery(level: &std::path::Path) -> Result<Offer, CliError> {
    use std::io::{BufRead, Write};
    let Some(file) = crate::app::find_recovery(level) else {
        return Ok(Offer::Leave);
    };
    let esc =
        |p: &std::path::Path| crate::text::escape_controls(&p.display().to_string()).into_owned();
    let design = crate::app::read_recovery(&file);
    let newer = |p: &std::path::Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{} has unsaved edits from a game that a signal ended, kept in {}.",
        esc(level),
        esc(&file)
    )?;
    let choices = match &design {
        Ok(_) => {
            if newer(level) > newer(&file) {
                writeln!(
                    out,
                    "The level file changed after they were kept: saving them would replace that change."
                )?;
            }
            writeln!(
                out,
                "  y  play them (the level file stays as it is until you save; the recovery file goes then)"
            )?;
            "y/n/d/q"
        }
        Err(e) => {
            for line in e.to_string().lines() {
                writeln!(out, "  {}", crate::text::escape_controls(line))?;
            }
            writeln!(out, "It cannot be read back.")?;
            "n/d/q"
        }
    };
    writeln!(
        out,
        "  n  play the level as it is, and keep the recovery file for next time"
    )?;
    writeln!(
        out,
        "  d  delete the recovery file, and play the level as it is"
    )?;
    writeln!(out, "  q  quit, and change nothing")?;
    let stdin = std::io::stdin();
    loop {
        write!(out, "Recover the edits? [{choices}] ")?;
        out.flush()?;
        let mut answer = String::new();
        if stdin.lock().read_line(&mut answer)? == 0 {
            // End of input: nobody to answer, so nothing changes.
            writeln!(out)?;
            return Ok(Offer::Quit);
        }
        match (answer.trim().to_ascii_lowercase().as_str(), &design) {
            ("y" | "yes", Ok(d)) => return Ok(Offer::Take(Box::new(d.clone()), file)),
            ("n" | "no", _) => return Ok(Offer::Leave),
            ("d" | "delete", _) => {
                std::fs::remove_file(&file).map_err(|e| {
                    CliError::BadInput(format!("{}: cannot delete it: {e}", esc(&file)))
                })?;
                writeln!(out, "Deleted {}.", esc(&file))?;
                return Ok(Offer::Leave);
            }
            ("q" | "quit", _) => return Ok(Offer::Quit),
            _ => {}
        }
    }
}
