//! `astar-rogue play [LEVEL] [--seed N] [--planning P] [--record FILE.keys]` (also the
//! default without a subcommand).
//!
//! Runs are kept: each new run draws a fresh seed (unless `--seed` names one), leaving the
//! game saves the run in the data folder, and the next `play` of the same level (or a
//! plain `astar-rogue`, for the run saved last) resumes it exactly where it was.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use clap::Args;

use super::CliError;
use crate::app::App;
use crate::app::config::Settings;
use crate::frontend::keep::{self, Keeper, Recovered, Start};
use crate::frontend::record::Recorder;
use crate::game::Planning;
use crate::session::data::{self, Lock};
use crate::session::save::{RunSave, Slot, seen_hash};
use crate::session::{DEFAULT_LEVEL, DEFAULT_LEVEL_PATH, SourceKind, open_level_bytes};

/// Arguments of `play`.
#[derive(Debug, Args, Default)]
pub struct PlayArgs {
    /// A level file (text or Moving AI `.map`); without it, the run saved last, else the
    /// default level.
    pub level: Option<PathBuf>,
    /// Seed for combat rolls and for placing creatures on maps that have none: plays that
    /// exact run. Without it, each run draws a fresh seed.
    #[arg(long)]
    pub seed: Option<u64>,
    // The text is also `--help`'s, where `[:N]` reads as optional, not as a link.
    #[allow(rustdoc::broken_intra_doc_links)]
    /// How the monsters plan: astar (each its own, every turn), capped[:N] (A* capped at N
    /// expansions, 5000 by default), map (one Dijkstra map from the player for all) or jps
    /// (each its own Jump Point Search, every turn).
    #[arg(long)]
    pub planning: Option<Planning>,
    /// Record every input into this script file as it happens; `astar-rogue script FILE`
    /// replays the game to the last frame shown.
    #[arg(long, value_name = "FILE.keys")]
    pub record: Option<PathBuf>,
    /// Settings file to play with, instead of the usual one (`astar-rogue config` prints
    /// where that is). A resumed run plays with the settings it began with.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// With --record: replace FILE when it is an earlier recording (nothing else is ever
    /// replaced).
    #[arg(long, requires = "record")]
    pub force: bool,
    /// Play over plain lines on standard input and output, for a screen reader or a pipe:
    /// no terminal needed, one command a line (`help` lists them), the same game and run.
    #[arg(long)]
    pub plain: bool,
}

/// A seed for a new run: from the system's randomness, below a billion so it reads and
/// types easily.
fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, RandomState};
    let r = RandomState::new().hash_one((std::process::id(), std::time::SystemTime::now()));
    r % 1_000_000_000
}

/// The level a game is about: its file, absolute (links kept as given), or `None` for the
/// built-in level, and the key of its save slot (the file with links resolved).
struct LevelRef {
    path: Option<PathBuf>,
    key: Option<PathBuf>,
}

impl LevelRef {
    fn of(path: Option<&Path>) -> LevelRef {
        let path = path.map(|p| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf()));
        let key = path
            .as_ref()
            .map(|p| p.canonicalize().unwrap_or_else(|_| p.clone()));
        LevelRef { path, key }
    }

    /// The level played when none is named: `levels/default.txt` here, else the built-in.
    fn default_level() -> LevelRef {
        let here = Path::new(DEFAULT_LEVEL_PATH);
        LevelRef::of(here.is_file().then_some(here))
    }
}

/// Plays in the terminal (or in plain lines, `--plain`) until the player quits; a signal
/// that ends the game gives 128 + its number.
pub(super) fn play(args: PlayArgs) -> Result<i32, CliError> {
    let data = match data::data_dir() {
        Ok(dir) => Some(dir),
        Err(e) => {
            crate::cli::report(&format!("Runs are not kept: {e}"));
            None
        }
    };
    // The level (read now, so that a bad one is reported before anything else), and the
    // slot where its run is kept.
    let (level, bytes, slot) = match (&args.level, &data) {
        (Some(p), dir) => {
            let bytes = crate::content::level::read_level_file(p)?;
            // A level that does not parse is reported before the data folder is touched.
            crate::content::level::Design::parse_any(&bytes, &p.display().to_string())
                .map_err(crate::text::LoadError::from)?;
            let level = LevelRef::of(Some(p));
            let slot = dir.as_ref().map(|d| Slot::of(d, level.key.as_deref()));
            (level, Some(bytes), slot)
        }
        (None, Some(dir)) => match Slot::latest(dir) {
            Some(slot) => {
                let save = read_save(&slot, None)?;
                (LevelRef::of(save.level.as_deref()), None, Some(slot))
            }
            None => {
                let level = LevelRef::default_level();
                let slot = Slot::of(dir, level.key.as_deref());
                (level, None, Some(slot))
            }
        },
        (None, None) => (LevelRef::default_level(), None, None),
    };
    // The settings too: a bad file is refused whole, on the plain screen.
    let (settings, settings_text) = load_settings(args.config.as_deref())?;
    // What can be refused without writing anything is refused first, on the plain screen
    // and with or without a terminal: a kept run that cannot be resumed, or that another
    // game plays (its lock file exists then, so taking the lock writes nothing).
    let vet = |save: &RunSave, slot: &Slot| -> Result<(), CliError> {
        if let Some(seed) = args.seed.filter(|&s| s != save.run_seed) {
            return Err(CliError::BadInput(format!(
                "{} has a run in progress (seed {}, turn {}): `{}` resumes it, and Q in the game abandons it; then --seed {seed} starts that run.",
                save.name,
                save.run_seed,
                save.turn,
                keep::play_command(level.path.as_deref())
            )));
        }
        check_level(save, slot)
    };
    if let (Some(_), Some(slot)) = (&data, &slot)
        && slot.save.exists()
    {
        vet(&read_save(slot, level.path.as_deref())?, slot)?;
    }
    let early = match (&data, &slot) {
        (Some(dir), Some(slot)) if slot.lock.is_file() => Some(take_lock(dir, slot)?),
        _ => None,
    };
    // Nothing is written (no lock, no recording) and no mode touched without a terminal
    // to play on, unless the game is to be played in plain lines.
    if !args.plain {
        crate::frontend::term::require_terminal().map_err(CliError::BadInput)?;
    }
    let mut kept = Taken(match (&data, slot) {
        (Some(dir), Some(slot)) => {
            let lock = match early {
                Some(lock) => lock,
                None => take_lock(dir, &slot)?,
            };
            Some((dir.clone(), lock, slot))
        }
        _ => None,
    });
    // Read again under the lock: the one that counts.
    let saved = match &kept.0 {
        Some((_, _, slot)) if slot.save.exists() => Some(read_save(slot, level.path.as_deref())?),
        _ => None,
    };
    let keeping = kept.0.is_some();
    let (resumed, fresh, start, tape, io) = match saved {
        Some(save) => {
            let slot = &kept.0.as_ref().expect("a save has a slot").2;
            vet(&save, slot)?;
            if save.settings.as_deref().map(str::as_bytes) != settings_text.as_deref() {
                crate::cli::report(
                    &"The settings changed since this run began: it goes on with the settings it began with.",
                );
            }
            // The run's own unsaved edits come back with it; a recovery file beside the
            // level stays for a later game, untouched.
            let (app, start) = resume(&save, slot)?;
            let tape = Some((save.size, save.tape.clone()));
            (Some(app), None, start, tape, save.io)
        }
        None => {
            let seed = args.seed.unwrap_or_else(fresh_seed);
            let bytes = match (bytes, &level.path) {
                (Some(b), _) => b,
                (None, Some(p)) => crate::content::level::read_level_file(p)?,
                (None, None) => DEFAULT_LEVEL.as_bytes().to_vec(),
            };
            // Checked before the terminal is touched, so bad input is reported on the
            // plain screen; planning its monsters (seconds on a huge level) comes later,
            // with progress on screen.
            let opened = open_level_bytes(level.path.as_deref(), &bytes, seed)?;
            let recovered = match opened
                .1
                .path
                .as_deref()
                .filter(|_| opened.1.kind != SourceKind::Generated)
            {
                Some(path) => match offer_recovery(path)? {
                    // "Change nothing": not even the lock file taken for the run, which
                    // dropping the slot's guard on this return removes.
                    Offer::Quit => return Ok(0),
                    Offer::Take(design, file, bytes) => Some(Recovered {
                        design: *design,
                        path: file,
                        bytes,
                    }),
                    Offer::Leave => None,
                },
                None => None,
            };
            let start = Start {
                level: level.path.clone(),
                bytes,
                seed,
                planning: args.planning.unwrap_or(Planning::AStar),
                settings: settings_text.and_then(|t| String::from_utf8(t).ok()),
                settings_file: settings.file.clone(),
                recovered,
            };
            (None, Some((opened, settings)), start, None, Vec::new())
        }
    };
    let mut recorder = Recorder::new(
        start.level.as_deref(),
        start.seed,
        args.record.as_deref(),
        args.force,
    )
    .map_err(|e| {
        let name = args.record.as_deref().unwrap_or(Path::new(""));
        CliError::BadInput(format!("{}: cannot record: {e}", name.display()))
    })?;
    for (k, v) in keep::extra_headers(&start) {
        if keeping || k != "runs" {
            recorder = recorder.with_header(k, v);
        }
    }
    if let Some((size, lines)) = tape {
        recorder = recorder.continuing(size, lines);
    }
    let recorder = Arc::new(Mutex::new(recorder));
    let keeper = kept.0.take().map(|(dir, lock, slot)| {
        Arc::new(Keeper::new(
            dir,
            slot,
            lock,
            start.clone(),
            Arc::clone(&recorder),
            io,
        ))
    });
    let mut resumed = resumed;
    if let (Some(app), Some(k)) = (&mut resumed, &keeper) {
        // Where the resumed run stands before any input: what leaving at once keeps.
        k.note(app);
    }
    let hooks = keeper
        .clone()
        .map(|k| k as Arc<dyn crate::frontend::term::Hooks>);
    // The busy box's keys: those the run plays with (a resumed run keeps its own).
    let keys = match (&resumed, &fresh) {
        (Some(app), _) => app.settings().bindings.clone(),
        (None, Some((_, settings))) => settings.bindings.clone(),
        (None, None) => Default::default(),
    };
    // Plain play keeps a resumed run's screen size: nothing to resize to.
    let plain_size = resumed
        .as_ref()
        .map_or(crate::frontend::plain::SIZE, App::size);
    let make_app = move |size: (u16, u16), progress: Arc<crate::game::Progress>| match resumed {
        Some(mut app) => {
            // The recording says so too (the recorder's start).
            if app.size() != size {
                app.drive(&crate::app::Input::Event(crossterm::event::Event::Resize(
                    size.0, size.1,
                )));
            }
            app
        }
        None => {
            let ((design, source), settings) = fresh.expect("a new run has its level");
            let mut app = keep::start_app(&start, design, source, settings, size, progress);
            app.set_keeping(keeping);
            app.keep_io();
            app
        }
    };
    if args.plain {
        let ending =
            crate::frontend::plain::play_kept(make_app, Arc::clone(&recorder), hooks, plain_size);
        // Kept however the lines ended, a closed output too: the run is the player's.
        let kept = keeper
            .as_ref()
            .is_none_or(|k| crate::frontend::plain::finish(k));
        return Ok(ending?.exit_code_kept(kept));
    }
    let ending = crate::frontend::term::play_kept(make_app, Arc::clone(&recorder), hooks, keys)
        .map_err(CliError::Terminal)?;
    let kept = keeper.as_ref().is_none_or(|k| k.finish_and_say());
    Ok(ending.exit_code_kept(kept))
}

/// The settings to play with (the file `--config` names, else the user's) and the bytes
/// of their file, which a kept run keeps so that it replays with the same keys.
fn load_settings(config: Option<&Path>) -> Result<(Settings, Option<Vec<u8>>), CliError> {
    let path = match config {
        Some(p) => Some(p.to_path_buf()),
        None => match crate::app::config::user_path() {
            Some((path, false)) if crate::app::config::absent(&path) => None,
            Some((path, _)) => Some(path),
            None => None,
        },
    };
    let Some(path) = path else {
        return Ok((Settings::default(), None));
    };
    let bytes =
        crate::text::read_limited(&path, crate::app::config::MAX_CONFIG_BYTES, "settings file")?;
    let mut settings = crate::app::config::parse(&bytes, &path.display().to_string())
        .map_err(crate::text::LoadError::from)?;
    settings.file = Some(path);
    Ok((settings, Some(bytes)))
}

/// The data folder, the lock and the slot of the run being set up, until the keeper takes
/// them: a game that stops on the way (a save that cannot be resumed, a level that cannot
/// be read, a recording that cannot be made) removes the lock file it took when it keeps
/// no run there, leaving the folder as it found it.
struct Taken(Option<(PathBuf, Lock, Slot)>);

impl Drop for Taken {
    fn drop(&mut self) {
        if let Some((_, lock, slot)) = self.0.take()
            && !slot.save.exists()
        {
            lock.remove();
        }
    }
}

/// Takes the lock of a save slot: one game at a time plays a level's run.
fn take_lock(dir: &Path, slot: &Slot) -> Result<Lock, CliError> {
    let failed =
        |e: String| CliError::BadInput(format!("{}: cannot keep runs there: {e}", dir.display()));
    if let Some(parent) = slot.lock.parent() {
        data::ensure(parent).map_err(|e| failed(e.to_string()))?;
    }
    data::lock(&slot.lock, None)
        .map_err(|e| failed(e.to_string()))?
        .ok_or_else(|| {
            CliError::BadInput(
                "This level's run is being played in another terminal: one game at a time plays a run.".into(),
            )
        })
}

/// Reads a kept run, or says why it cannot be resumed and that it is kept.
fn read_save(slot: &Slot, level: Option<&Path>) -> Result<RunSave, CliError> {
    RunSave::read(&slot.save).map_err(|e| {
        let what = match level {
            Some(p) => format!("a new run on {}", p.display()),
            None => "a new run".into(),
        };
        CliError::BadInput(format!(
            "{}: the run saved here cannot be resumed: {e}.\nThe save is kept as it is; to start {what}, move it away or delete it.",
            slot.save.display()
        ))
    })
}

/// Refuses a save whose level file changed or went away since the run saw it.
fn check_level(save: &RunSave, slot: &Slot) -> Result<(), CliError> {
    let (Some(path), Some(seen)) = (&save.level, &save.seen) else {
        return Ok(());
    };
    let kept = format!(
        "The save is kept ({}); put the level back as it was to resume the run, or move the save away to start a new one.",
        slot.save.display()
    );
    let now = crate::content::level::read_level_file(path).map_err(|e| {
        CliError::BadInput(format!(
            "{}: the saved run's level cannot be read: {e}.\n{kept}",
            path.display()
        ))
    })?;
    if &seen_hash(&now) != seen {
        return Err(CliError::BadInput(format!(
            "{}: the level file changed since the run was saved (turn {}), so the run cannot go on as it was.\n{kept}",
            path.display(),
            save.turn
        )));
    }
    Ok(())
}

/// Rebuilds a kept run, with the notice that says so.
fn resume(save: &RunSave, slot: &Slot) -> Result<(App, Start), CliError> {
    // Replaying is quick on most levels (some 25 µs a turn on the default one) but takes
    // as long as the turns took on a huge one: say what is going on meanwhile.
    crate::cli::report(&format!(
        "Resuming your run on {} (turn {}): replaying its {} recorded lines...",
        save.name,
        save.turn,
        save.tape.len()
    ));
    let mut app = keep::rebuild(save).map_err(|e| {
        CliError::BadInput(format!(
            "{}: the run saved here cannot be resumed: {e}.\nThe save is kept as it is.",
            slot.save.display()
        ))
    })?;
    app.set_notice(Some(keep::resumed_notice(save)));
    let start = Start::of(save).map_err(|e| {
        CliError::BadInput(format!(
            "{}: the run saved here cannot be resumed: {e}.\nThe save is kept as it is.",
            slot.save.display()
        ))
    })?;
    Ok((app, start))
}

/// What the player chose to do with a recovery file.
enum Offer {
    /// Play its edits (the design, the file and its bytes).
    Take(Box<crate::content::level::Design>, PathBuf, Vec<u8>),
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
    let esc = crate::text::shown_path;
    let read = crate::app::read_recovery(&file);
    let design = read.as_ref().map(|(d, _)| d);
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
            ("y" | "yes", Ok(d)) => {
                let bytes = read.as_ref().map(|(_, b)| b.clone()).unwrap_or_default();
                return Ok(Offer::Take(Box::new((*d).clone()), file, bytes));
            }
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
