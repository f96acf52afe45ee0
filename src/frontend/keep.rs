//! Keeping the terminal's runs: the run is saved as what it is (its session and the screen
//! it shows: [`RunSave`]) when the game is left (a quit, a signal, a vanished terminal),
//! after every save of a design and every few turns, and loaded again on the next start;
//! a run that ends (death, victory, abandoning it) goes into the score table and gets a
//! morgue file with its tape beside it, and only then is its save let go.
//!
//! Each run has its tape: the recording of that run alone, from its first turn, with its
//! own seed in its header and copies of what it played on (see [`super::record`]), kept
//! beside the save (`saves/NAME-HASH.keys`) and written as the run goes. A new run (`r`, a
//! new level, an outside edit that restarts the game) starts a new tape. The save says how
//! long the tape was when it was written, so a run resumed after a kill goes on from the
//! tape's matching point.
//!
//! The [`Keeper`] follows the game through the terminal loop's [`Hooks`]: after every
//! input it writes the run's tape and scores a run that ended ([`Keeper::note`]); when the
//! game waits for input it takes the run as it stands ([`Keeper::settle`]), so that whoever
//! ends the process (the main loop, the quit while a turn works, the signal watcher when
//! the terminal is gone) saves a run as it stood after an input, never half-way through
//! one.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::record::{self, Recorder};
use super::script::{self, Frames, Output, StateLine};
use super::term::Hooks;
use crate::app::App;
use crate::app::config::Settings;
use crate::game::{Message, Planning};
use crate::session::data::{self, Lock};
use crate::session::morgue::{self, RunEnd};
use crate::session::save::{GAME, LegacySave, RunSave, Slot, TapeMark, Unscored, seen_hash};
use crate::session::{Session, SourceKind, scores};

/// How often a run in progress is saved while it is played, at the least, so that a crash
/// or a kill that no signal announces loses at most this much...
const AUTOSAVE: Duration = Duration::from_secs(30);
/// ...or this many turns, whichever comes first.
const AUTOSAVE_TURNS: u32 = 20;

/// What a kept game started from: the same for the whole game.
#[derive(Debug, Clone)]
pub struct Start {
    /// The level file, absolute (links not resolved, so that names show as given); `None`
    /// for the built-in level.
    pub level: Option<PathBuf>,
    /// The level's bytes when the game began (a new run's; a resumed run has its own).
    pub bytes: Vec<u8>,
    /// The seed the game began with.
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
    pub design: crate::content::level::design::Design,
    /// The recovery file.
    pub path: PathBuf,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// The app of a run from `start` (its level opened as `design` and `source`), as the
/// terminal plays it: the settings applied, the planning set, the recovered edits taken.
pub fn start_app(
    start: &Start,
    design: crate::content::level::design::Design,
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

    /// What the run of a format 1 save started from.
    pub fn of_legacy(save: &LegacySave) -> Result<Start, RebuildError> {
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
pub fn extra_headers(
    planning: Planning,
    settings_file: Option<&Path>,
) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    if planning != Planning::AStar {
        // The replay must plan as the game did.
        out.push(("planning", planning.to_string()));
    }
    if let Some(file) = settings_file {
        // The replay reads the keys as the game did (from the copy the recording carries;
        // the file is named for messages).
        let file = std::fs::canonicalize(file).unwrap_or_else(|_| file.to_path_buf());
        out.push(("config", file.display().to_string()));
    }
    out.push(("runs", "kept".to_string()));
    out
}

/// The settings a kept run plays with: its copy of the settings file, read again (`None`:
/// the defaults); errors name the copy, not the file, which may read well.
pub fn saved_settings(text: Option<&str>, file: Option<&Path>) -> Result<Settings, RebuildError> {
    let Some(text) = text else {
        return Ok(Settings::default());
    };
    let name = file.map_or_else(
        || "the run's settings".into(),
        crate::session::saved_copy_name,
    );
    let mut settings = crate::app::config::parse(text.as_bytes(), &name)
        .map_err(|e| RebuildError::Settings(e.headline()))?;
    settings.file = file.map(Path::to_path_buf);
    Ok(settings)
}

/// Why a save could not be made into its run again.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RebuildError {
    /// The save holds no level to start from, or its level does not open.
    #[error("its level does not open: {0}")]
    Level(String),
    /// Its copy of the settings file does not read.
    #[error("its settings do not read: {0}")]
    Settings(String),
    /// What it holds is not a game that can be.
    #[error("its game does not load: {0}")]
    Game(String),
    /// What it holds is not a game that can be, as the game found when readying it.
    #[error("its game does not load: {0}")]
    Restore(#[from] crate::game::kept::RestoreError),
    /// Its recording does not read (a format 1 save).
    #[error("its recording does not read: {0}")]
    Tape(String),
    /// The replay did not come back to where the run was saved (a format 1 save).
    #[error("replayed, it does not come back to where it was saved ({0})")]
    Diverged(String),
}

/// The app of a kept run of format 2: its session loaded and readied, the screen it showed,
/// its own copy of the settings, at the terminal's `size`. Nothing is replayed and no file
/// is read.
pub fn resume(
    save: &RunSave,
    size: (u16, u16),
    progress: Arc<crate::game::Progress>,
) -> Result<App, RebuildError> {
    check_size(save.size)?;
    let settings = saved_settings(save.settings.as_deref(), save.settings_file.as_deref())?;
    let mut session: Session = save.session.clone();
    session.restore(progress)?;
    let view = serde_json::from_value(save.view.clone())
        .map_err(|e| RebuildError::Game(format!("its screen does not read: {e}")))?;
    let mut app = App::resumed(session, settings, save.size, view);
    app.session_mut().keep_io();
    if size != save.size {
        app.drive(&crate::app::Input::Event(crossterm::event::Event::Resize(
            size.0, size.1,
        )));
    }
    Ok(app)
}

/// Refuses a saved terminal size past the script runner's limits (a save edited by hand):
/// nothing is made of that size.
fn check_size((w, h): (u16, u16)) -> Result<(), RebuildError> {
    let max = script::MAX_TERMINAL;
    if (1..=max).contains(&w) && (1..=max).contains(&h) {
        Ok(())
    } else {
        Err(RebuildError::Game(format!(
            "its terminal size {w}x{h} is past the limits (1x1 to {max}x{max})"
        )))
    }
}

/// What the game's state must come back to after a replay of a format 1 save: the
/// `--state` line, the length of the log and its last message.
fn check_line(app: &App) -> String {
    let log = app.world().log();
    format!(
        "{} log {} {}",
        StateLine::of(app).line(),
        log.len(),
        log.last().map_or(String::new(), Message::to_string)
    )
}

/// Rebuilds the run of a format 1 save: the game from the level's saved bytes and seed,
/// then every input of its recording replayed headless (ticks where they ran, the disk's
/// answers from the save, never the disk's own), then checked against the state it was
/// saved in. A replayed save of the level writes nothing and removes no recovery file.
pub fn rebuild(save: &LegacySave) -> Result<App, RebuildError> {
    // Its replay draws every frame in a terminal of this size: checked before one is made.
    check_size(save.size)?;
    let bytes = save
        .level_bytes
        .as_deref()
        .ok_or_else(|| RebuildError::Level("the save has no level".into()))?;
    let (design, source) =
        crate::session::open_saved_level_bytes(save.level.as_deref(), bytes, save.seed)
            .map_err(|e| RebuildError::Level(e.to_string()))?;
    let start = Start::of_legacy(save)?;
    let settings = saved_settings(save.settings.as_deref(), save.settings_file.as_deref())?;
    let mut app = start_app(&start, design, source, settings, save.size, Arc::default());
    app.front_mut().set_keeping(save.fresh_runs);
    app.session_mut().replay_io(save.io.clone());
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
    app.session_mut()
        .end_replay()
        .map_err(RebuildError::Diverged)?;
    let now = check_line(&app);
    if now != save.check {
        return Err(RebuildError::Diverged(format!(
            "the game's rules or the recording changed: saved at turn {}, the replay is at turn {}",
            save.turn,
            app.world().turn()
        )));
    }
    // What the replay left for the front end was already dealt with when it happened.
    app.front_mut().take_ended();
    let _ = app.session_mut().take_io();
    Ok(app)
}

/// The line a resumed run shows below its log until the first input: not the game's own
/// (its log stays the run's), but the terminal's.
pub fn resumed_notice(name: &str, turn: u32, depth: u32, seed: u64) -> String {
    format!("Resumed your run on {name}: turn {turn}, depth {depth}, seed {seed}. Q gives it up.")
}

/// The run as it stood when the game last waited for input with no question open.
#[derive(Debug, Clone)]
struct Snap {
    session: Session,
    view: crate::app::KeptView,
    /// Whether a run was in progress (a save is kept) or not (any save is removed).
    in_progress: bool,
    turn: u32,
    depth: u32,
    run_seed: u64,
    size: (u16, u16),
    /// The hash of what the run had seen its level file hold, while it plays from it.
    seen: Option<String>,
    /// How long the run's tape was then.
    tape_len: u64,
}

/// The run's tape, written as the run goes: the lines of the recording since the run
/// began, with the copies they need.
#[derive(Debug, Default)]
struct Tape {
    file: Option<std::fs::File>,
    /// Its length in bytes.
    len: u64,
    /// The recorder's lines written to it.
    lines: usize,
    /// Ticks of the recorder's pending count already written (as `N*tick`).
    ticks: u32,
    /// The keys of the copies it carries.
    carried: std::collections::HashSet<String>,
    /// Why it could not be written, once it could not.
    failed: Option<String>,
}

impl Tape {
    fn write(&mut self, text: &str) {
        let Some(file) = &mut self.file else { return };
        match file.write_all(text.as_bytes()) {
            Ok(()) => self.len += text.len() as u64,
            Err(e) => {
                self.failed.get_or_insert(e.to_string());
                self.file = None;
            }
        }
    }

    /// Writes a recording's line, with the copies it needs that the tape lacks.
    fn line(&mut self, line: &str, recorder: &Recorder) {
        let mut out = String::new();
        for key in record::carried_keys(line) {
            if self.carried.insert(key.to_string())
                && let Some(bytes) = recorder.carried(key)
            {
                out.push_str(&record::carry_line(key, &bytes));
                out.push('\n');
            }
        }
        out.push_str(line);
        out.push('\n');
        self.write(&out);
    }
}

/// The keeper's state, behind one lock.
#[derive(Debug)]
struct Kept {
    /// The run as it stood when last settled.
    snap: Option<Snap>,
    /// Something happened since the snap was taken.
    dirty: bool,
    /// The save is to be written at the next settle (the disk moved: a design save, a new
    /// floor), whenever the last one was.
    due: bool,
    /// When the save was last written, and at which turn.
    written: (Instant, u32),
    /// Runs that ended and whose score line or morgue file could not be written: kept in
    /// the save until they are.
    unscored: Vec<Unscored>,
    /// Whether the latest snap is written in the save.
    snap_written: bool,
    /// The run whose tape is being written ([`Front::run_serial`](crate::app::Front::run_serial)).
    run: u64,
    tape: Tape,
    /// The recorder's disk answers seen so far.
    answers: usize,
    /// Set once the game ends: what was said to the player (an error if the run could not
    /// be kept), so it is done once.
    finished: Option<Result<String, KeepError>>,
}

/// Keeps a terminal game's runs: its save slot (locked while the game runs), what it
/// started from, the recording, the run's tape and the run as it last stood.
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
    /// folder `data` (its `lock` held). `app` is the game as it starts: a new run (its
    /// tape begins), or a resumed one whose save said where its tape stood (`tape`), and
    /// which ended runs of it are still to be scored (`unscored`).
    pub fn new(
        data: PathBuf,
        slot: Slot,
        lock: Lock,
        start: Start,
        recorder: Arc<Mutex<Recorder>>,
        app: &App,
        resumed: Option<(Option<TapeMark>, Vec<Unscored>)>,
    ) -> Self {
        // A resumed run's tape goes on with every line of this recording (which continues
        // the tape); a new run's begins after the lines recorded before it.
        let lines = match resumed {
            Some(_) => 0,
            None => recorder
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .tape()
                .0
                .len(),
        };
        let keeper = Self {
            data,
            slot,
            lock: Mutex::new(Some(lock)),
            start,
            recorder,
            kept: Mutex::new(Kept {
                snap: None,
                dirty: true,
                due: false,
                written: (Instant::now(), app.world().turn()),
                unscored: Vec::new(),
                snap_written: false,
                run: app.front().run_serial(),
                tape: Tape {
                    lines,
                    ..Tape::default()
                },
                answers: 0,
                finished: None,
            }),
            autosave: AUTOSAVE,
        };
        {
            let mut kept = keeper.kept();
            match resumed {
                Some((mark, unscored)) => {
                    kept.unscored = unscored;
                    kept.tape = keeper.continue_tape(mark, lines);
                }
                None => kept.tape = keeper.new_tape(app, lines),
            }
        }
        keeper
    }

    /// Saves the run in progress at least every `every` while it is played, instead of
    /// every 30 seconds (zero: at every settle, as a test may want).
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

    /// A new run's tape, in place of the slot's: its header says the run as it begins
    /// (the first floor's file and a copy of what the run begins on, its seed, its
    /// settings); the recorder's lines from `lines` on follow as they come.
    fn new_tape(&self, app: &App, lines: usize) -> Tape {
        let session = app.session();
        let first = session.first_floor();
        // The file the run's first floor comes from, for the replay's messages; the copy
        // is what the run begins on: the bytes the game read when its design is theirs
        // (a Moving AI map is populated again from the seed), else the design's text.
        let level = match first.source.kind {
            SourceKind::Text | SourceKind::MovingAi => first.source.path.clone(),
            SourceKind::Generated => first.source.path.clone().filter(|_| false),
        };
        let level = level.map(|p| std::path::absolute(&p).unwrap_or(p));
        let copy = match first.source.seen() {
            Some(seen) if !app.session().unsaved() => seen.to_vec(),
            _ => first.design.to_text().into_bytes(),
        };
        let world = app.world();
        let mut header = record::header(
            level.as_deref(),
            world.seed(),
            app.ui().size(),
            &self.slot.tape,
            &[],
        );
        for (k, v) in extra_headers(world.planning(), self.start.settings_file.as_deref()) {
            header.push_str(&format!("#! {k}: {v}\n"));
        }
        let mut tape = Tape {
            lines,
            ..Tape::default()
        };
        let settings = self.start.settings.as_deref().map(str::as_bytes);
        for (what, bytes) in [("level", Some(&copy[..])), ("config", settings)] {
            if let Some(bytes) = bytes {
                let key = record::carry_key(bytes);
                header.push_str(&record::carry_line(&key, bytes));
                header.push('\n');
                header.push_str(&format!("#= {what} {key}\n"));
                tape.carried.insert(key);
            }
        }
        let made = data::ensure(self.slot.tape.parent().unwrap_or(Path::new(".")))
            .and_then(|()| crate::session::write_atomic(&self.slot.tape, header.as_bytes()))
            .and_then(|()| {
                std::fs::OpenOptions::new()
                    .append(true)
                    .open(&self.slot.tape)
            });
        match made {
            Ok(file) => {
                tape.file = Some(file);
                tape.len = header.len() as u64;
            }
            Err(e) => tape.failed = Some(e.to_string()),
        }
        tape
    }

    /// A resumed run's tape: the slot's, cut back to where it stood when the save was
    /// written (a game killed after its last save went further), written on from there.
    fn continue_tape(&self, mark: Option<TapeMark>, lines: usize) -> Tape {
        let mut tape = Tape {
            lines,
            ..Tape::default()
        };
        let Some(mark) = mark else {
            tape.failed = Some("the run's save names no tape".into());
            return tape;
        };
        let opened = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&self.slot.tape)
            .and_then(|f| {
                let len = f.metadata()?.len();
                if len < mark.len {
                    return Err(std::io::Error::other(format!(
                        "it is shorter ({len} bytes) than when the run was saved ({} bytes)",
                        mark.len
                    )));
                }
                f.set_len(mark.len)?;
                Ok(f)
            });
        match opened {
            Ok(mut file) => {
                use std::io::{Read, Seek};
                // The copies the tape carries already are not carried again.
                let mut text = String::new();
                let _ = file.read_to_string(&mut text);
                for line in text.lines() {
                    if let Some(rest) = line.strip_prefix("#= carry ")
                        && let Some((key, _)) = rest.split_once(' ')
                    {
                        tape.carried.insert(key.to_string());
                    }
                }
                let _ = file.seek(std::io::SeekFrom::End(0));
                tape.len = mark.len;
                tape.file = Some(file);
            }
            Err(e) => tape.failed = Some(e.to_string()),
        }
        tape
    }

    /// Writes the recorder's new lines to the run's tape, and the ticks it counts since
    /// its last line (so that the tape matches the run whenever it is saved).
    fn write_tape(&self, kept: &mut Kept) {
        let recorder = self.recorder();
        let (lines, ticks) = recorder.tape();
        let tape = &mut kept.tape;
        for (i, line) in lines.iter().enumerate().skip(tape.lines) {
            // The recorder writes the ticks it counted as one line before the next input:
            // those written already are taken off it.
            if i == tape.lines && tape.ticks > 0 {
                let n = line
                    .strip_suffix("*tick")
                    .and_then(|n| n.parse::<u32>().ok())
                    .or((line == "tick").then_some(1));
                if let Some(n) = n {
                    let left = n.saturating_sub(std::mem::take(&mut tape.ticks));
                    if let Some(l) = record::tick_line(left) {
                        tape.line(&l, &recorder);
                    }
                    continue;
                }
                tape.ticks = 0;
            }
            tape.line(line, &recorder);
        }
        tape.lines = lines.len();
        if ticks > tape.ticks {
            if let Some(l) = record::tick_line(ticks - tape.ticks) {
                tape.line(&l, &recorder);
            }
            tape.ticks = ticks;
        }
        if let Some(file) = &mut tape.file {
            let _ = file.flush();
        }
    }

    /// Notes what the last input did: writes the run's tape, scores a run that ended (its
    /// morgue file and score line first, the save let go only once both are written), and
    /// starts the tape of a run that began. Cheap: the run itself is taken when the game
    /// settles ([`Keeper::settle`]).
    pub fn note(&self, app: &mut App) {
        let mut kept = self.kept();
        if kept.finished.is_some() {
            return;
        }
        self.write_tape(&mut kept);
        let answers = self.recorder().answers();
        if std::mem::replace(&mut kept.answers, answers) != answers {
            // The disk moved (a design saved, a floor read): the save follows at once, so
            // that a crash right after cannot leave a save that disagrees with the files.
            kept.due = true;
        }
        if let Some(end) = app.front_mut().take_ended() {
            let tape = std::fs::read_to_string(&self.slot.tape)
                .unwrap_or_else(|e| format!("# The run's tape could not be read back: {e}\n"));
            let note = match score_run(&self.data, &end, &tape) {
                Ok(note) => {
                    // Written: the run's save can go (a new run in its place is saved at
                    // the next settle), so no kill can bring a scored run back.
                    let _ = std::fs::remove_file(&self.slot.save);
                    note
                }
                Err(why) => {
                    kept.unscored.push(Unscored { end, tape });
                    kept.due = true;
                    format!(
                        "{why}\nThe run is kept until it is scored: the next `{}` scores it.",
                        self.start.command()
                    )
                }
            };
            // The note goes on the end screen; a run abandoned for a new one has none.
            if app.world().state() != crate::game::GameState::Playing {
                app.front_mut().set_end_note(Some(note));
            }
        }
        if app.front().run_serial() != kept.run {
            kept.run = app.front().run_serial();
            let lines = self.recorder().tape().0.len();
            kept.tape = self.new_tape(app, lines);
            kept.due = true;
        }
        kept.dirty = true;
    }

    /// The game waits for input: takes the run as it stands (unless a question is open or
    /// the game is left: the run is kept as it stood before the question), and writes the
    /// save when it is due.
    pub fn settle(&self, app: &App) {
        let mut kept = self.kept();
        if kept.finished.is_some() || app.screen().question().is_some() || !app.front().is_running()
        {
            return;
        }
        if kept.dirty || kept.snap.is_none() {
            self.write_tape(&mut kept);
            kept.snap = Some(Snap {
                session: app.session().clone(),
                view: crate::app::KeptView::of(app.screen(), app.ui()),
                in_progress: app.session().in_progress(),
                turn: app.world().turn(),
                depth: app.world().run().depth,
                run_seed: app.world().seed(),
                size: app.ui().size(),
                seen: self.seen_of(app),
                tape_len: kept.tape.len,
            });
            kept.dirty = false;
            kept.snap_written = false;
        }
        let Some(snap) = &kept.snap else { return };
        let (at, turn) = kept.written;
        let due = kept.due
            || at.elapsed() >= self.autosave
            || snap.turn >= turn.saturating_add(AUTOSAVE_TURNS);
        if due && !kept.snap_written && (snap.in_progress || !kept.unscored.is_empty()) {
            // A failed autosave is said when the game ends, which tries again.
            let _ = self.write(&kept);
            kept.written = (Instant::now(), snap.turn);
            kept.due = false;
            kept.snap_written = true;
        }
    }

    /// [`Keeper::note`] then [`Keeper::settle`]: an input handled with nothing waiting
    /// after it.
    pub fn handled_and_settled(&self, app: &mut App) {
        self.note(app);
        self.settle(app);
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

    /// The save of the run as it stood when last settled.
    fn save_of(&self, kept: &Kept) -> Option<RunSave> {
        let snap = kept.snap.as_ref()?;
        Some(RunSave {
            game: GAME.into(),
            level: self.start.level.clone(),
            seen: snap.seen.clone(),
            run_seed: snap.run_seed,
            turn: snap.turn,
            depth: snap.depth,
            name: self.start.name(),
            saved: data::now(),
            settings: self.start.settings.clone(),
            settings_file: self.start.settings_file.clone(),
            size: snap.size,
            tape: kept.tape.failed.is_none().then(|| TapeMark {
                file: self
                    .slot
                    .tape
                    .file_name()
                    .map(PathBuf::from)
                    .unwrap_or_default(),
                len: snap.tape_len,
            }),
            ended: kept.unscored.clone(),
            session: snap.session.clone(),
            view: serde_json::to_value(&snap.view).unwrap_or_default(),
        })
    }

    fn write(&self, kept: &Kept) -> std::io::Result<()> {
        match self.save_of(kept) {
            Some(save) => save.write(&self.slot.save),
            None => Ok(()),
        }
    }

    /// The game ends (however it ends): saves the run in progress (or a run whose end is
    /// not scored yet), or removes a save and a tape left of a run that is over, and the
    /// slot's lock file with them. Returns what to tell the player, or, when the run could
    /// not be saved, why; a second call does nothing more and says the same.
    pub fn finish(&self) -> Result<String, KeepError> {
        let mut kept = self.kept();
        if let Some(said) = &kept.finished {
            return said.clone();
        }
        self.write_tape(&mut kept);
        let in_progress = kept.snap.as_ref().is_some_and(|s| s.in_progress);
        let said = if in_progress || !kept.unscored.is_empty() {
            let snap = kept.snap.clone();
            match self.write(&kept) {
                Ok(()) if in_progress => {
                    let snap = snap.expect("a run in progress was taken");
                    Ok(format!(
                        "Your run on {} is kept (turn {}, depth {}, seed {}): `{}` resumes it.",
                        self.start.name(),
                        snap.turn,
                        snap.depth,
                        snap.run_seed,
                        self.start.command()
                    ))
                }
                Ok(()) => Ok(format!(
                    "A run that ended is kept until it is scored: `{}` scores it.",
                    self.start.command()
                )),
                Err(e) => Err(KeepError {
                    save: self.slot.save.clone(),
                    source: Arc::new(e),
                }),
            }
        } else {
            let _ = std::fs::remove_file(&self.slot.save);
            kept.tape.file = None;
            let _ = std::fs::remove_file(&self.slot.tape);
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

/// Why a run could not be kept when its game ended: its save could not be written.
#[derive(Debug, Clone, thiserror::Error)]
#[error(
    "Could not keep your run: {}: {source}. A save written before, if any, is unchanged.",
    save.display()
)]
pub struct KeepError {
    /// The save file.
    pub save: PathBuf,
    /// The failed write (shared: a second [`Keeper::finish`] says the same).
    pub source: Arc<std::io::Error>,
}

/// Why an ended run could not be scored (then it is kept, and scored later).
#[derive(Debug, thiserror::Error)]
pub enum ScoreError {
    /// Its morgue file could not be written.
    #[error("no morgue file: {0}")]
    Morgue(#[source] std::io::Error),
    /// Its score line could not be added to the table.
    #[error("not scored: {0}")]
    Scores(#[source] std::io::Error),
}

/// Writes an ended run's morgue file (with its `tape`) and its score line, in that order:
/// the lines for the end screen, or why they could not both be written (then neither is
/// left: the run is scored later, whole).
pub fn score_run(data: &Path, end: &RunEnd, tape: &str) -> Result<String, ScoreError> {
    let date = data::now();
    let dir = data.join("morgue");
    let (text, keys) =
        morgue::write(&dir, end, date, |_| tape.to_string()).map_err(ScoreError::Morgue)?;
    let name = text
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    match scores::add(data, &end.score(date, Some(text.clone()))) {
        Ok((place, total)) => Ok(format!(
            "{} of {total} in the scores (astar-rogue scores)\nmorgue: {name}",
            scores::ordinal(place)
        )),
        Err(e) => {
            // The morgue file would name a run the table lacks: it goes, and the run is
            // scored later with a morgue file of its own.
            let _ = std::fs::remove_file(&text);
            let _ = std::fs::remove_file(&keys);
            Err(ScoreError::Scores(e))
        }
    }
}

impl Hooks for Keeper {
    fn handled(&self, app: &mut App) {
        self.note(app);
    }

    fn idle(&self, app: &App) {
        self.settle(app);
    }

    fn ending(&self) -> bool {
        self.finish_and_say()
    }
}
