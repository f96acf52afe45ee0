//! `astar-rogue play [LEVEL] [--seed N] [--planning P] [--record FILE.keys]` (also the
//! default without a subcommand).
//!
//! Runs are kept: each new run draws a fresh seed (unless `--seed` names one), leaving the
//! game saves the run in the data folder, and the next `play` of the same level (or a
//! plain `astar-rogue`, for the run saved last) resumes it exactly where it was.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use clap::Args;

use super::error::CliError;
use crate::app::App;
use crate::app::config::{Bindings, Settings};
use crate::content::level::design::Design;
use crate::frontend::keep::{self, Keeper, Recovered, Start};
use crate::frontend::record::Recorder;
use crate::game::Planning;
use crate::session::data::{self, Lock};
use crate::session::save::{Kept, LegacySave, RunSave, Slot, TapeMark, Unscored, seen_hash};
use crate::session::{
    DEFAULT_LEVEL, DEFAULT_LEVEL_PATH, Source, SourceKind, open_level_bytes, open_read_level,
};

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
    let data = data::data_dir()
        .inspect_err(|e| super::error::report(&format!("Runs are not kept: {e}")))
        .ok();
    let (level, read, slot) = locate(&args, data.as_deref())?;
    // The settings too: a bad file is refused whole, on the plain screen.
    let (settings, settings_text) = load_settings(args.config.as_deref())?;
    let mut kept = claim(&args, &level, data.as_deref(), slot)?;
    let keeping = kept.0.is_some();
    let (resumed, fresh, start, tape_mark) =
        match resume_kept(&args, &level, &kept, settings_text.as_deref())? {
            Some(r) => {
                let (going, start, mark) = carry_on(r, &kept);
                (Some(going), None, start, mark)
            }
            None => match new_run(&args, &level, read, settings, settings_text)? {
                Some((fresh, start)) => (None, Some(fresh), start, None),
                // "Change nothing": not even the lock file taken for the run, which
                // dropping the slot's guard on this return removes.
                None => return Ok(0),
            },
        };
    let recorder = recorder(
        &args,
        &start,
        resumed.as_ref(),
        fresh.is_some(),
        keeping,
        tape_mark.as_ref(),
        &kept,
    )?;
    let recorder = Arc::new(Mutex::new(recorder));
    let (resumed, unscored) = match resumed {
        Some((app, unscored, ..)) => (Some(app), unscored),
        None => (None, Vec::new()),
    };
    // The app of a new run is made on the terminal (planning a huge level takes a while);
    // the keeper starts the run's tape once it has it.
    let (keeper, make_keeper) = keeper_maker(
        kept.0.take(),
        start.clone(),
        Arc::clone(&recorder),
        tape_mark,
        unscored,
    );
    let hooks: Option<Arc<dyn crate::frontend::term::Hooks>> = keeping.then(|| {
        Arc::new(LateKeeper(Arc::clone(&keeper))) as Arc<dyn crate::frontend::term::Hooks>
    });
    // The busy box's keys: those the run plays with (a resumed run keeps its own).
    let keys = match (&resumed, &fresh) {
        (Some(app), _) => app.ui().settings().bindings.clone(),
        (None, Some((_, settings))) => settings.bindings.clone(),
        (None, None) => Default::default(),
    };
    // Plain play keeps a resumed run's screen size: nothing to resize to.
    let plain_size = resumed
        .as_ref()
        .map_or(crate::frontend::plain::SIZE, |a| a.ui().size());
    let make_app = app_maker(resumed, fresh, start, keeping, make_keeper);
    play_on(
        args.plain,
        make_app,
        &recorder,
        hooks,
        (keys, plain_size),
        &keeper,
    )
}

/// Plays the game `make_app` makes, in plain lines (at `plain_size`) or in the terminal
/// (its busy box with `keys`), until it ends: its exit code, once the keeper, when runs
/// are kept, has kept the run.
fn play_on(
    plain: bool,
    make_app: impl FnOnce((u16, u16), Arc<crate::game::Progress>) -> App + Send,
    recorder: &Arc<Mutex<Recorder>>,
    hooks: Option<Arc<dyn crate::frontend::term::Hooks>>,
    (keys, plain_size): (Bindings, (u16, u16)),
    keeper: &KeeperSlot,
) -> Result<i32, CliError> {
    if plain {
        let ending =
            crate::frontend::plain::play_kept(make_app, Arc::clone(recorder), hooks, plain_size);
        let keeper = keeper.lock().unwrap_or_else(|p| p.into_inner()).clone();
        // Kept however the lines ended, a closed output too: the run is the player's.
        let kept = keeper
            .as_ref()
            .is_none_or(|k| crate::frontend::plain::finish(k));
        return Ok(ending?.exit_code_kept(kept));
    }
    let ending = crate::frontend::term::play_kept(make_app, Arc::clone(recorder), hooks, keys)
        .map_err(CliError::Terminal)?;
    let keeper = keeper.lock().unwrap_or_else(|p| p.into_inner()).clone();
    let kept = keeper.as_ref().is_none_or(|k| k.finish_and_say());
    Ok(ending.exit_code_kept(kept))
}

/// What makes the game's app at the terminal's size: the resumed run's, resized to it, or a
/// new run's; either way the keeper is made with it.
fn app_maker(
    resumed: Option<App>,
    fresh: Option<Fresh>,
    start: Start,
    keeping: bool,
    make_keeper: impl FnOnce(&App, bool) + Send,
) -> impl FnOnce((u16, u16), Arc<crate::game::Progress>) -> App + Send {
    move |size: (u16, u16), progress: Arc<crate::game::Progress>| match resumed {
        Some(mut app) => {
            // The recording says so too (the recorder's start).
            if app.ui().size() != size {
                app.drive(&crate::app::Input::Event(crossterm::event::Event::Resize(
                    size.0, size.1,
                )));
            }
            make_keeper(&app, true);
            app
        }
        None => {
            let ((design, source), settings) = fresh.expect("a new run has its level");
            let mut app = keep::start_app(&start, design, source, settings, size, progress);
            app.front_mut().set_keeping(keeping);
            // A recording carries the disk's answers.
            app.session_mut().keep_io();
            make_keeper(&app, false);
            app
        }
    }
}

/// A level located: where it is, its bytes and their design when read, and its run's slot.
type Located = (LevelRef, Option<ReadLevel>, Option<Slot>);

/// A level file's bytes and the design they parse to, with its format: read and checked
/// once, before anything else (a 1024x1024 level takes milliseconds to parse).
type ReadLevel = (Vec<u8>, (Design, crate::content::level::Format));

/// The level (read now, so that a bad one is reported before anything else), its bytes
/// when read, and the slot where its run is kept: the named level's, else the run saved
/// last, else the default level's.
fn locate(args: &PlayArgs, data: Option<&Path>) -> Result<Located, CliError> {
    Ok(match (&args.level, data) {
        (Some(p), dir) => {
            let bytes = crate::content::level::read_level_file(p)?;
            // A level that does not parse is reported before the data folder is touched.
            let parsed = Design::parse_any(&bytes, &p.display().to_string())
                .map_err(crate::text::LoadError::from)?;
            let level = LevelRef::of(Some(p));
            let slot = dir.map(|d| Slot::of(d, level.key.as_deref()));
            (level, Some((bytes, parsed)), slot)
        }
        (None, Some(dir)) => match Slot::latest(dir) {
            Some(slot) => {
                let save = read_save(&slot, None)?;
                (LevelRef::of(save.level()), None, Some(slot))
            }
            None => {
                let level = LevelRef::default_level();
                let slot = Slot::of(dir, level.key.as_deref());
                (level, None, Some(slot))
            }
        },
        (None, None) => (LevelRef::default_level(), None, None),
    })
}

/// A kept run that `--seed` would not resume is refused; else the level file's bytes when
/// the save caught up with an edit of it ([`check_level`]).
fn vet(
    seed: Option<u64>,
    level: &LevelRef,
    save: &Kept,
    slot: &Slot,
) -> Result<Option<Vec<u8>>, CliError> {
    if let Some(seed) = seed.filter(|&s| s != save.run_seed()) {
        return Err(CliError::BadInput(format!(
            "{} has a run in progress (seed {}, turn {}): `{}` resumes it, and Q in the game abandons it; then --seed {seed} starts that run.",
            save.name(),
            save.run_seed(),
            save.turn(),
            keep::play_command(level.path.as_deref())
        )));
    }
    check_level(save, slot)
}

/// The slot's lock, once what can be refused without writing anything is refused, on the
/// plain screen and with or without a terminal: a kept run that cannot be resumed, or that
/// another game plays (its lock file exists then, so taking the lock writes nothing).
fn claim(
    args: &PlayArgs,
    level: &LevelRef,
    data: Option<&Path>,
    slot: Option<Slot>,
) -> Result<Taken, CliError> {
    if let (Some(_), Some(slot)) = (data, &slot)
        && slot.save.exists()
    {
        vet(
            args.seed,
            level,
            &read_save(slot, level.path.as_deref())?,
            slot,
        )?;
    }
    let early = match (data, &slot) {
        (Some(dir), Some(slot)) if slot.lock.is_file() => take_lock(dir, slot)?,
        _ => None,
    };
    // Nothing is written (no lock, no recording) and no mode touched without a terminal
    // to play on, unless the game is to be played in plain lines.
    if !args.plain {
        crate::frontend::term::require_terminal()?;
    }
    Ok(Taken(match (data, slot) {
        (Some(dir), Some(slot)) => {
            let lock = match early {
                Some(lock) => Some(lock),
                None => take_lock(dir, &slot)?,
            };
            lock.map(|lock| (dir.to_path_buf(), lock, slot))
        }
        _ => None,
    }))
}

/// The kept run to resume, its save read again under the lock (the read that counts), or
/// `None` for a new run.
fn resume_kept(
    args: &PlayArgs,
    level: &LevelRef,
    kept: &Taken,
    settings_text: Option<&[u8]>,
) -> Result<Option<Resumed>, CliError> {
    let Some((dir, _, slot)) = kept.0.as_ref().filter(|(_, _, s)| s.save.exists()) else {
        return Ok(None);
    };
    let save = read_save(slot, level.path.as_deref())?;
    let caught_up = vet(args.seed, level, &save, slot)?;
    if save.settings().map(str::as_bytes) != settings_text {
        super::error::report(
            &"The settings changed since this run began: it goes on with the settings it began with.",
        );
    }
    match save {
        Kept::Run(save) => resume_run(save, dir, slot, caught_up),
        Kept::Legacy(save) => {
            let (app, start) = resume_legacy(&save, slot)?;
            let tape = legacy_tape(&start, &save);
            Ok(Some(Resumed {
                app,
                start,
                tape: None,
                size: save.size,
                unscored: Vec::new(),
                legacy: Some(tape),
            }))
        }
    }
}

/// A kept run in progress, resumed; a run over and scored leaves its save and tape for a
/// new run (`None`).
fn resume_run(
    mut save: Box<RunSave>,
    dir: &Path,
    slot: &Slot,
    caught_up: Option<Vec<u8>>,
) -> Result<Option<Resumed>, CliError> {
    // Runs that ended unscored are scored first: their morgue files and score
    // lines before anything else.
    save.ended = score_unscored(dir, std::mem::take(&mut save.ended));
    if save.session.in_progress() {
        let (mut app, start) = resume(&save, slot)?;
        if let Some(bytes) = caught_up {
            app.session_mut().file_caught_up(bytes);
        }
        Ok(Some(Resumed {
            app,
            start,
            tape: save.tape.clone(),
            size: save.size,
            unscored: save.ended,
            legacy: None,
        }))
    } else if save.ended.is_empty() {
        // Over and scored: the save and its tape go; a new run begins.
        let _ = std::fs::remove_file(&slot.save);
        let _ = std::fs::remove_file(&slot.tape);
        Ok(None)
    } else {
        Err(CliError::BadInput(format!(
            "{}: a run that ended is kept until it is scored, and it still cannot be; the save is kept.",
            slot.save.display()
        )))
    }
}

/// A resumed run going on: its app, the ended runs it keeps unscored, a format 1 save's
/// recording and the terminal size it was saved at.
type Going = (App, Vec<Unscored>, Option<String>, (u16, u16));

/// A new run's level and its settings, for the app made on the terminal.
type Fresh = ((Design, Source), Settings);

/// A resumed run as the game goes on with it, what it started from and where its tape
/// stands: a format 1 save's recording is the run's tape from now on.
fn carry_on(r: Resumed, kept: &Taken) -> (Going, Start, Option<TapeMark>) {
    let Resumed {
        app,
        start,
        tape: mark,
        size,
        unscored,
        legacy,
    } = r;
    let mark = match (&legacy, &kept.0) {
        (Some(text), Some((_, _, slot))) => {
            crate::session::write_atomic(&slot.tape, text.as_bytes())
                .ok()
                .map(|()| TapeMark {
                    file: slot.tape.file_name().map(PathBuf::from).unwrap_or_default(),
                    len: text.len() as u64,
                })
        }
        _ => mark,
    };
    ((app, unscored, legacy, size), start, mark)
}

/// A new run: its seed, its level opened and what it starts from; `None` when the player,
/// offered a recovery file, chose to change nothing.
fn new_run(
    args: &PlayArgs,
    level: &LevelRef,
    read: Option<ReadLevel>,
    settings: Settings,
    settings_text: Option<Vec<u8>>,
) -> Result<Option<(Fresh, Start)>, CliError> {
    let seed = args.seed.unwrap_or_else(fresh_seed);
    // Checked before the terminal is touched, so bad input is reported on the
    // plain screen; planning its monsters (seconds on a huge level) comes later,
    // with progress on screen.
    let (bytes, opened) = match (read, &level.path) {
        (Some((bytes, parsed)), Some(p)) => {
            let opened = open_read_level(p, &bytes, parsed, seed)?;
            (bytes, opened)
        }
        // `locate` reads a file only when it has its path: none read, or the default level.
        (_, path) => {
            let bytes = match path {
                Some(p) => crate::content::level::read_level_file(p)?,
                None => DEFAULT_LEVEL.as_bytes().to_vec(),
            };
            let opened = open_level_bytes(path.as_deref(), &bytes, seed)?;
            (bytes, opened)
        }
    };
    let recovered = match opened
        .1
        .path
        .as_deref()
        .filter(|_| opened.1.kind != SourceKind::Generated)
    {
        Some(path) => match offer_recovery(path)? {
            Offer::Quit => return Ok(None),
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
    Ok(Some(((opened, settings), start)))
}

/// The recording of the game: a resumed run's starts with the run's tape, so that it
/// replays the run from its first turn.
fn recorder(
    args: &PlayArgs,
    start: &Start,
    resumed: Option<&Going>,
    fresh: bool,
    keeping: bool,
    tape_mark: Option<&TapeMark>,
    kept: &Taken,
) -> Result<Recorder, CliError> {
    let run_seed = resumed.map_or(start.seed, |(app, ..)| app.world().seed());
    let mut recorder = Recorder::new(
        start.level.as_deref(),
        run_seed,
        args.record.as_deref(),
        args.force,
    )
    .map_err(|e| {
        let name = args.record.as_deref().unwrap_or(Path::new(""));
        CliError::BadInput(format!("{}: cannot record: {e}", name.display()))
    })?;
    let planning = resumed.map_or(start.planning, |(app, ..)| app.world().planning());
    for (k, v) in keep::extra_headers(planning, start.settings_file.as_deref()) {
        if keeping || k != "runs" {
            recorder = recorder.with_header(k, v);
        }
    }
    // What the recording replays: the level as the game read it.
    let level_copy = fresh.then_some(&start.bytes[..]);
    recorder = recorder.with_copies(level_copy, start.settings.as_deref().map(str::as_bytes));
    if let Some((_, _, legacy, size)) = resumed {
        let tape = match (legacy, &kept.0) {
            (Some(text), _) => Some(text.clone()),
            (None, Some((_, _, slot))) => tape_mark.and_then(|m| read_tape(&slot.tape, m.len)),
            _ => None,
        };
        if let Some(text) = tape {
            recorder = recorder.continuing_tape(text, *size);
        }
    }
    Ok(recorder)
}

/// Where the keeper goes once the game has made it.
type KeeperSlot = Mutex<Option<Arc<Keeper>>>;

/// The keeper's place, filled once the game has made its app, and what fills it: the
/// keeper of the run in the slot taken, when runs are kept.
fn keeper_maker(
    parts: Option<(PathBuf, Lock, Slot)>,
    start: Start,
    recorder: Arc<Mutex<Recorder>>,
    tape_mark: Option<TapeMark>,
    unscored: Vec<Unscored>,
) -> (Arc<KeeperSlot>, impl FnOnce(&App, bool) + Send) {
    let keeper: Arc<KeeperSlot> = Arc::default();
    let make_keeper = {
        let keeper = Arc::clone(&keeper);
        move |app: &App, resumed: bool| {
            if let Some((dir, lock, slot)) = parts {
                let resumed = resumed.then_some((tape_mark, unscored));
                let k = Arc::new(Keeper::new(dir, slot, lock, start, recorder, app, resumed));
                *keeper.lock().unwrap_or_else(|p| p.into_inner()) = Some(k);
            }
        }
    };
    (keeper, make_keeper)
}

/// A kept run resumed: its app, what its game started from, where its tape stood and the
/// terminal size it was saved at, the ended runs it keeps unscored, and (a format 1 save)
/// its recording as the run's tape.
struct Resumed {
    app: App,
    start: Start,
    tape: Option<TapeMark>,
    size: (u16, u16),
    unscored: Vec<Unscored>,
    legacy: Option<String>,
}

/// The keeper, once the game has made it (the hooks are given before the app exists).
struct LateKeeper(Arc<Mutex<Option<Arc<Keeper>>>>);

impl LateKeeper {
    fn get(&self) -> Option<Arc<Keeper>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }
}

impl crate::frontend::term::Hooks for LateKeeper {
    fn handled(&self, app: &mut App) {
        if let Some(k) = self.get() {
            k.note(app);
        }
    }

    fn idle(&self, app: &App) {
        if let Some(k) = self.get() {
            k.settle(app);
        }
    }

    fn ending(&self) -> bool {
        self.get().is_none_or(|k| k.finish_and_say())
    }
}

/// The first `len` bytes of a run's tape, as text.
fn read_tape(path: &Path, len: u64) -> Option<String> {
    let bytes = std::fs::read(path).ok()?;
    let cut = bytes.get(..usize::try_from(len).ok()?)?;
    String::from_utf8(cut.to_vec()).ok()
}

/// The tape of a run kept in format 1: its recording, from the level it began on.
fn legacy_tape(start: &Start, save: &LegacySave) -> String {
    let mut text = crate::frontend::record::header(
        start.level.as_deref(),
        start.seed,
        save.size,
        Path::new("x"),
        &[],
    );
    for (k, v) in keep::extra_headers(start.planning, start.settings_file.as_deref()) {
        text.push_str(&format!("#! {k}: {v}\n"));
    }
    for line in &save.tape {
        text.push_str(line);
        text.push('\n');
    }
    text
}

/// Scores the runs a save kept unscored (their morgue files and score lines), saying so on
/// the plain screen; those that still cannot be scored come back.
fn score_unscored(data: &Path, unscored: Vec<Unscored>) -> Vec<Unscored> {
    let mut left = Vec::new();
    for u in unscored {
        match keep::score_run(data, &u.end, &u.tape) {
            Ok(note) => super::error::report(&format!(
                "A run that ended unscored is scored now: {} {}",
                u.end.sentence(),
                note.replace('\n', "; ")
            )),
            Err(why) => {
                super::error::report(&format!(
                    "A run that ended still cannot be scored ({why}); it stays kept."
                ));
                left.push(u);
            }
        }
    }
    left
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

/// Takes the lock of a save slot: one game at a time plays a level's run. A data folder
/// that cannot hold the lock (read-only, not a folder) plays with runs not kept, and says
/// so: `Ok(None)`.
fn take_lock(dir: &Path, slot: &Slot) -> Result<Option<Lock>, CliError> {
    let not_kept = |e: String| {
        super::error::report(&format!(
            "Runs are not kept: {}: cannot keep runs there: {e}.",
            dir.display()
        ));
        Ok(None)
    };
    if let Some(parent) = slot.lock.parent()
        && let Err(e) = data::ensure(parent)
    {
        return not_kept(e.to_string());
    }
    match data::lock(&slot.lock, None) {
        Ok(Some(lock)) => Ok(Some(lock)),
        Ok(None) => Err(CliError::BadInput(
            "This level's run is being played in another terminal: one game at a time plays a run."
                .into(),
        )),
        Err(e) => not_kept(e.to_string()),
    }
}

/// Reads a kept run, or says why it cannot be resumed and that it is kept.
fn read_save(slot: &Slot, level: Option<&Path>) -> Result<Kept, CliError> {
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

/// Refuses a save whose level file changed or went away since the run saw it. A file that
/// holds the run's own design of its first floor (saved into it just before the game
/// ended, the save not caught up) is no change: its bytes come back, for the run to take
/// as what it has seen.
fn check_level(save: &Kept, slot: &Slot) -> Result<Option<Vec<u8>>, CliError> {
    let (Some(path), Some(seen)) = (save.level(), save.seen()) else {
        return Ok(None);
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
    if seen_hash(&now) == seen {
        return Ok(None);
    }
    if let Kept::Run(run) = save
        && run.session.first_floor().design.to_text().as_bytes() == now
    {
        return Ok(Some(now));
    }
    Err(CliError::BadInput(format!(
        "{}: the level file changed since the run was saved (turn {}), so the run cannot go on as it was.\n{kept}",
        path.display(),
        save.turn()
    )))
}

/// Loads a kept run, with the notice that says so.
fn resume(save: &RunSave, slot: &Slot) -> Result<(App, Start), CliError> {
    let refused = |e: keep::RebuildError| {
        CliError::BadInput(format!(
            "{}: the run saved here cannot be resumed: {e}.\nThe save is kept as it is.",
            slot.save.display()
        ))
    };
    let mut app = keep::resume(save, save.size, Arc::default()).map_err(refused)?;
    app.front_mut().set_notice(Some(keep::resumed_notice(
        &save.name,
        save.turn,
        save.depth,
        save.run_seed,
    )));
    let start = Start {
        level: save.level.clone(),
        bytes: Vec::new(),
        seed: save.run_seed,
        planning: app.world().planning(),
        settings: save.settings.clone(),
        settings_file: save.settings_file.clone(),
        recovered: None,
    };
    Ok((app, start))
}

/// Rebuilds a run kept in format 1 by replaying it, with the notice that says so.
fn resume_legacy(save: &LegacySave, slot: &Slot) -> Result<(App, Start), CliError> {
    // Replaying is quick on most levels (some 25 µs a turn on the default one) but takes
    // as long as the turns took on a huge one: say what is going on meanwhile.
    super::error::report(&format!(
        "Resuming your run on {} (turn {}), saved in format 1: replaying its {} recorded lines...",
        save.name,
        save.turn,
        save.tape.len()
    ));
    let refused = |e: keep::RebuildError| {
        CliError::BadInput(format!(
            "{}: the run saved here cannot be resumed: {e}.\nThe save is kept as it is.",
            slot.save.display()
        ))
    };
    let mut app = keep::rebuild(save).map_err(refused)?;
    app.front_mut().set_notice(Some(keep::resumed_notice(
        &save.name,
        save.turn,
        save.depth,
        save.run_seed,
    )));
    let start = Start::of_legacy(save).map_err(refused)?;
    Ok((app, start))
}

/// What the player chose to do with a recovery file.
enum Offer {
    /// Play its edits (the design, the file and its bytes).
    Take(Box<crate::content::level::design::Design>, PathBuf, Vec<u8>),
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
