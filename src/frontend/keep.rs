//! Keeping the terminal's runs: the run is saved when the game is left (a quit, a signal,
//! a vanished terminal) and rebuilt exactly on the next start; a run that ends (death,
//! victory, abandoning it) goes into the score table and gets a morgue file with its key
//! tape beside it, and its save is deleted.
//!
//! A save is the run's recording (the [`Recorder`]'s lines, which a resumed run continues)
//! with the level's bytes, the seed and the disk's answers ([`Io`]); [`rebuild`] replays it
//! headless exactly as `astar-rogue script` would and checks that it comes back to the
//! state line written with the save. The [`Keeper`] follows the game through the terminal
//! loop's [`Hooks`]: after every input it notes where the recording and the game are, so
//! that whoever ends the process (the main loop, the quit while a turn works, the signal
//! watcher when the terminal is gone) saves a recording and a state that belong together.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::record::Recorder;
use super::script::{self, Frames, Output, StateLine};
use super::term::Hooks;
use crate::app::App;
use crate::app::config::Settings;
use crate::game::{Message, Planning};
use crate::session::data::{self, Lock};
use crate::session::morgue;
use crate::session::save::{GAME, RunSave, Slot, seen_hash};
use crate::session::{Io, SourceKind, scores};

/// How often a run in progress is saved while it is played, so that a crash or a kill
/// that no signal announces loses at most this much.
const AUTOSAVE: Duration = Duration::from_secs(30);

/// What a kept game started from: the same for the whole game.
#[derive(Debug, Clone)]
pub struct Start {
    /// The level file, absolute (links not resolved, so that names show as given); `None`
    /// for the built-in level.
    pub level: Option<PathBuf>,
    /// The level's bytes when the recording began.
    pub bytes: Vec<u8>,
    /// The seed the recording began with.
    pub seed: u64,
    /// How the monsters planned at the start.
    pub planning: Planning,
    /// The text of the settings file the run plays with (its keys decide what each input
    /// of the recording does); `None` for the defaults.
    pub settings: Option<String>,
    /// That settings file, for the recording's `#! config:` header.
    pub settings_file: Option<PathBuf>,
    /// The unsaved edits of a recovery file the run began with.
    pub recovered: Option<Recovered>,
}

/// The unsaved edits of a recovery file that a run began with.
#[derive(Debug, Clone)]
pub struct Recovered {
    /// Their design.
    pub design: crate::content::level::Design,
    /// The recovery file.
    pub path: PathBuf,
    /// Its bytes, which the save keeps.
    pub bytes: Vec<u8>,
}

/// The app of a run from `start` (its level opened as `design` and `source`), as the
/// terminal plays it and as a rebuild replays it: the settings applied, the planning set,
/// the recovered edits taken.
pub fn start_app(
    start: &Start,
    design: crate::content::level::Design,
    source: crate::session::Source,
    settings: Settings,
    size: (u16, u16),
    progress: Arc<crate::game::Progress>,
) -> App {
    let mut app = App::with_progress(design, source, start.seed, size, progress);
    app.apply_settings(settings);
    if start.planning != Planning::AStar {
        app.set_planning(start.planning);
    }
    if let Some(r) = &start.recovered {
        app.take_recovery(r.design.clone(), r.path.clone());
    }
    app
}

impl Start {
    /// The level's file name, for messages.
    pub fn name(&self) -> String {
        self.level
            .as_deref()
            .filter(|p| p.file_name().is_some())
            .map_or_else(|| "the default level".into(), crate::text::shown_file_name)
    }

    /// What the run of `save` started from.
    pub fn of(save: &RunSave) -> Result<Start, RebuildError> {
        let planning: Planning = save.planning.parse().map_err(RebuildError::Level)?;
        let recovered = match (&save.recovery_file, &save.recovery_bytes) {
            (Some(path), Some(bytes)) => Some(Recovered {
                design: crate::app::parse_recovery(bytes, path)
                    .map_err(|e| RebuildError::Level(e.to_string()))?,
                path: path.clone(),
                bytes: bytes.clone(),
            }),
            _ => None,
        };
        Ok(Start {
            level: save.level.clone(),
            bytes: save.level_bytes.clone().unwrap_or_default(),
            seed: save.seed,
            planning,
            settings: save.settings.clone(),
            settings_file: save.settings_file.clone(),
            recovered,
        })
    }

    /// The command that resumes the run.
    pub fn command(&self) -> String {
        play_command(self.level.as_deref())
    }
}

/// The command that plays `level` again (`None`: the built-in level), which resumes its
/// run when one is kept.
pub fn play_command(level: Option<&Path>) -> String {
    match level {
        Some(p) => format!("astar-rogue play {}", p.display()),
        None => "astar-rogue".into(),
    }
}

/// The header lines beyond level, size, seed and ticks that a kept game's recording
/// carries: its planning (when not the default), its settings file (when one was read)
/// and that its runs are kept.
pub fn extra_headers(start: &Start) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    if start.planning != Planning::AStar {
        // The replay must plan as the game did.
        out.push(("planning", start.planning.to_string()));
    }
    if let Some(file) = &start.settings_file {
        // The replay must read the keys as the game did.
        let file = std::fs::canonicalize(file).unwrap_or_else(|_| file.clone());
        out.push(("config", file.display().to_string()));
    }
    out.push(("runs", "kept".to_string()));
    out
}

/// What the game's state must come back to after a replay: the `--state` line, the
/// length of the log and its last message.
pub fn check_line(app: &App) -> String {
    Check::of(app).line()
}

/// What the check line is made of, taken from the game after an input: the state's
/// numbers and the log's last message. The line itself (every monster as JSON) is written
/// only with a save, which most inputs never see.
#[derive(Debug, Clone)]
struct Check {
    state: StateLine,
    log: usize,
    last: Option<Message>,
}

impl Check {
    fn of(app: &App) -> Check {
        let log = app.world().log();
        Check {
            state: StateLine::of(app),
            log: log.len(),
            last: log.last().cloned(),
        }
    }

    /// The check line ([`check_line`]).
    fn line(&self) -> String {
        format!(
            "{} log {} {}",
            self.state.line(),
            self.log,
            self.last.as_ref().map_or(String::new(), |m| m.to_string())
        )
    }
}

/// Why a save could not be rebuilt into its run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RebuildError {
    /// The save holds no level to start from, or its level does not open.
    #[error("its level does not open: {0}")]
    Level(String),
    /// Its copy of the settings file does not read.
    #[error("its settings do not read: {0}")]
    Settings(String),
    /// Its recording does not read.
    #[error("its recording does not read: {0}")]
    Tape(String),
    /// The replay did not come back to where the run was saved.
    #[error("replayed, it does not come back to where it was saved ({0})")]
    Diverged(String),
}

/// Rebuilds the run of `save`: the game from the level's saved bytes and seed, then every
/// input of its recording replayed headless (ticks where they ran, the disk's answers from
/// the save), then checked against the state it was saved in.
pub fn rebuild(save: &RunSave) -> Result<App, RebuildError> {
    let bytes = save
        .level_bytes
        .as_deref()
        .ok_or_else(|| RebuildError::Level("the save has no level".into()))?;
    let (design, source) =
        crate::session::open_saved_level_bytes(save.level.as_deref(), bytes, save.seed)
            .map_err(|e| RebuildError::Level(e.to_string()))?;
    let start = Start::of(save)?;
    let settings = match &save.settings {
        Some(text) => {
            // The save's copy, not the file, which may read well.
            let name = save.settings_file.as_deref().map_or_else(
                || "the run's settings".into(),
                crate::session::saved_copy_name,
            );
            let mut settings = crate::app::config::parse(text.as_bytes(), &name)
                .map_err(|e| RebuildError::Settings(e.headline()))?;
            settings.file = save.settings_file.clone();
            settings
        }
        None => Settings::default(),
    };
    let mut app = start_app(&start, design, source, settings, save.size, Arc::default());
    app.set_keeping(save.fresh_runs);
    app.replay_io(save.io.clone());
    let mut text = String::from("#! ticks: manual\n");
    for line in &save.tape {
        text.push_str(line);
        text.push('\n');
    }
    let tape = script::parse(text.as_bytes(), "the saved run")
        .map_err(|e| RebuildError::Tape(e.headline()))?;
    let output = Output {
        frames: Frames::Last,
        state: false,
    };
    script::play(&tape, &mut app, save.size, output, &mut std::io::sink())
        .map_err(|e| RebuildError::Tape(e.to_string()))?;
    app.end_replay().map_err(RebuildError::Diverged)?;
    let now = check_line(&app);
    if now != save.check {
        return Err(RebuildError::Diverged(format!(
            "the game's rules or the recording changed: saved at turn {}, the replay is at turn {}",
            save.turn,
            app.world().turn()
        )));
    }
    // What the replay left for the front end was already dealt with when it happened.
    app.take_ended();
    let _ = app.take_io();
    Ok(app)
}

/// The line a resumed run shows below its log until the first input: not the game's own
/// (its log stays the run's), but the terminal's.
pub fn resumed_notice(save: &RunSave) -> String {
    format!(
        "Resumed your run on {}: turn {}, depth {}, seed {}. Q gives it up.",
        save.name, save.turn, save.depth, save.run_seed
    )
}

/// Where the recording and the game stood after the last input, together.
#[derive(Debug, Clone, Default)]
struct Checkpoint {
    /// Lines of the recording and ticks after them.
    lines: usize,
    ticks: u32,
    /// The disk's answers given by then.
    io: usize,
    /// What the game's check line is made of then (`None` before the first input noted).
    check: Option<Check>,
    /// Whether a run was in progress (a save is kept) or not (any save is removed).
    in_progress: bool,
    turn: u32,
    depth: u32,
    run_seed: u64,
    /// The hash of what the run had seen its level file hold, while it plays from it.
    seen: Option<String>,
}

/// The keeper's state, behind one lock.
#[derive(Debug)]
struct Kept {
    /// Every disk answer since the recording began (a resumed run's first).
    io: Vec<Io>,
    at: Checkpoint,
    /// When the save was last written.
    written: Instant,
    /// Set once the game ends: what was said to the player (an error if the run could not
    /// be kept), so it is done once.
    finished: Option<Result<String, String>>,
}

/// Keeps a terminal game's runs: its save slot (locked while the game runs), what it
/// started from, the recording, and where they stood after the last input.
pub struct Keeper {
    data: PathBuf,
    slot: Slot,
    /// The slot's lock, held while the game runs; let go (its file removed) when the game
    /// ends keeping no run.
    lock: Mutex<Option<Lock>>,
    start: Start,
    recorder: Arc<Mutex<Recorder>>,
    kept: Mutex<Kept>,
    /// How often the run in progress is saved while it is played.
    autosave: Duration,
}

impl Keeper {
    /// A keeper for the game recorded by `recorder`, with the save slot `slot` of the data
    /// folder `data` (its `lock` held); `io` are the disk's answers of the run resumed, if
    /// one was.
    pub fn new(
        data: PathBuf,
        slot: Slot,
        lock: Lock,
        start: Start,
        recorder: Arc<Mutex<Recorder>>,
        io: Vec<Io>,
    ) -> Self {
        Self {
            data,
            slot,
            lock: Mutex::new(Some(lock)),
            start,
            recorder,
            kept: Mutex::new(Kept {
                io,
                at: Checkpoint::default(),
                written: Instant::now(),
                finished: None,
            }),
            autosave: AUTOSAVE,
        }
    }

    /// Saves the run in progress at least every `every` while it is played, instead of
    /// every 30 seconds (zero: after every input, as a test may want).
    pub fn with_autosave(mut self, every: Duration) -> Self {
        self.autosave = every;
        self
    }

    fn kept(&self) -> MutexGuard<'_, Kept> {
        self.kept.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn recorder(&self) -> MutexGuard<'_, Recorder> {
        self.recorder.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Notes where the recording and the game stand now (after an input was handled and
    /// recorded); scores a run that ended; saves now and then.
    pub fn note(&self, app: &mut App) {
        let mut kept = self.kept();
        if kept.finished.is_some() {
            return;
        }
        let io = app.take_io();
        let disk_moved = !io.is_empty() || kept.at.check.is_none();
        kept.io.extend(io);
        if let Some(end) = app.take_ended() {
            let note = self.score(&end);
            // The note goes on the end screen; a run abandoned for a new one has none.
            if app.world().state() != crate::game::GameState::Playing {
                app.set_end_note(Some(note));
            }
            // Permadeath: the run is over, so is its save.
            let _ = std::fs::remove_file(&self.slot.save);
        }
        // Leaving the game through a question (`q` asks, `y` quits) must not bring the
        // question back on resuming: while a question is open, and once the game is left,
        // the run is kept as it stood before.
        if app.question().is_some() || !app.is_running() {
            return;
        }
        let (lines, ticks) = {
            let r = self.recorder();
            let (l, t) = r.tape();
            (l.len(), t)
        };
        let seen = if disk_moved {
            self.seen_of(app)
        } else {
            kept.at.seen.clone()
        };
        let w = app.world();
        kept.at = Checkpoint {
            lines,
            ticks,
            io: kept.io.len(),
            check: Some(Check::of(app)),
            in_progress: app.in_progress(),
            turn: w.turn(),
            depth: w.run().depth,
            run_seed: w.seed(),
            seen,
        };
        if kept.at.in_progress && kept.written.elapsed() >= self.autosave {
            // A failed autosave is said when the game ends, which tries again.
            let _ = self.write(&kept);
            kept.written = Instant::now();
        }
    }

    /// The hash of what the game has seen its level file hold, while its first floor
    /// still plays from that file.
    fn seen_of(&self, app: &App) -> Option<String> {
        let level = self.start.level.as_deref()?;
        let source = &app.session().first_floor().source;
        if !matches!(source.kind, SourceKind::Text | SourceKind::MovingAi) {
            return None;
        }
        let path = std::path::absolute(source.path.as_deref()?).ok()?;
        (path == level).then(|| source.seen().map(seen_hash))?
    }

    /// Puts an ended run in the score table and the morgue; the line for the end screen.
    fn score(&self, end: &morgue::RunEnd) -> String {
        let date = data::now();
        let dir = self.data.join("morgue");
        let recorder = &self.recorder;
        let written = morgue::write(&dir, end, date, |keys| {
            let dir = keys.parent().unwrap_or(Path::new("."));
            recorder
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .script_in(dir)
        });
        let (morgue_file, morgue_note) = match written {
            Ok((text, _)) => {
                let name = text
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                (Some(text), format!("morgue: {name}"))
            }
            Err(e) => (None, format!("no morgue file: {e}")),
        };
        let place = match scores::add(&self.data, &end.score(date, morgue_file)) {
            Ok((place, total)) => format!(
                "{} of {total} in the scores (astar-rogue scores)",
                scores::ordinal(place)
            ),
            Err(e) => format!("not scored: {e}"),
        };
        format!("{place}\n{morgue_note}")
    }

    /// The save of the run as it stood after the last input, with the check line of the
    /// game as it stood then.
    fn save_of(&self, kept: &Kept) -> RunSave {
        let r = self.recorder();
        let (lines, _) = r.tape();
        let at = &kept.at;
        let check = at.check.as_ref().map_or_else(String::new, Check::line);
        let mut tape: Vec<String> = lines[..at.lines.min(lines.len())].to_vec();
        match at.ticks {
            0 => {}
            1 => tape.push("tick".into()),
            n => tape.push(format!("{n}*tick")),
        }
        RunSave {
            game: GAME.into(),
            level: self.start.level.clone(),
            level_bytes: Some(self.start.bytes.clone()),
            seen: at.seen.clone(),
            seed: self.start.seed,
            run_seed: at.run_seed,
            planning: self.start.planning.to_string(),
            fresh_runs: true,
            settings: self.start.settings.clone(),
            settings_file: self.start.settings_file.clone(),
            recovery_file: self.start.recovered.as_ref().map(|r| r.path.clone()),
            recovery_bytes: self.start.recovered.as_ref().map(|r| r.bytes.clone()),
            size: r.start_size(),
            tape,
            io: kept.io[..at.io.min(kept.io.len())].to_vec(),
            check,
            turn: at.turn,
            depth: at.depth,
            name: self.start.name(),
            saved: data::now(),
        }
    }

    fn write(&self, kept: &Kept) -> std::io::Result<()> {
        self.save_of(kept).write(&self.slot.save)
    }

    /// The game ends (however it ends): saves the run in progress, or removes a save left
    /// of a run that is over, and the slot's lock file with it. Returns what to tell the
    /// player, or, when the run in progress could not be saved, why; a second call does
    /// nothing more and says the same.
    pub fn finish(&self) -> Result<String, String> {
        let mut kept = self.kept();
        if let Some(said) = &kept.finished {
            return said.clone();
        }
        let at = kept.at.clone();
        let said = if at.in_progress {
            match self.write(&kept) {
                Ok(()) => Ok(format!(
                    "Your run on {} is kept (turn {}, depth {}, seed {}): `{}` resumes it.",
                    self.start.name(),
                    at.turn,
                    at.depth,
                    at.run_seed,
                    self.start.command()
                )),
                Err(e) => Err(format!(
                    "Could not keep your run: {}: {e}. A save written before, if any, is unchanged.",
                    self.slot.save.display()
                )),
            }
        } else {
            let _ = std::fs::remove_file(&self.slot.save);
            // Nothing is kept in the slot, so its lock file goes too (it is ours and
            // empty; a game waiting for it takes a new one).
            let lock = self.lock.lock().unwrap_or_else(|p| p.into_inner()).take();
            if let Some(lock) = lock {
                lock.remove();
            }
            Ok(String::new())
        };
        kept.finished = Some(said.clone());
        said
    }

    /// [`Keeper::finish`], telling the player: what was kept on standard output, why the
    /// run could not be kept on standard error. Returns whether it was kept. The terminal
    /// may be gone (a hang-up kept the run): nowhere to say it then, and no reason to panic.
    pub fn finish_and_say(&self) -> bool {
        use std::io::Write;
        match self.finish() {
            Ok(said) => {
                if !said.is_empty() {
                    let _ = writeln!(std::io::stdout(), "{said}");
                }
                true
            }
            Err(why) => {
                let _ = writeln!(std::io::stderr(), "{why}");
                false
            }
        }
    }
}

impl Hooks for Keeper {
    fn handled(&self, app: &mut App) {
        self.note(app);
    }

    fn ending(&self) -> bool {
        self.finish_and_say()
    }
}
