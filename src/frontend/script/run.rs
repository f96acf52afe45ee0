//! The runner: a script's steps played on an app, its frames and state lines written out.

use std::io::Write;
use std::path::{Path, PathBuf};

use crossterm::event::Event;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::parse::{Script, Step, load};
use super::print::{Frames, Output, buffer_text, styles_text};
use super::state::state_line;
use super::token::{Action, token};
use crate::app::config::Settings;
use crate::app::{App, Input, OpenError, open_level};
use crate::content::endpoints::BadEndpoint;
use crate::content::level::design::Design;
use crate::engine::grid::Pos;
use crate::session::Source;
use crate::text::LoadError;

/// Most ticks run after one step while the app is busy (travel, autoplay).
const MAX_TICKS: u32 = 100_000;
/// What a run of a script has just done, for the watcher [`drive`] calls.
#[derive(Debug, Clone, Copy)]
pub enum Moment<'a> {
    /// One repetition of a step's action was carried out (a snap carries out nothing: it
    /// asks for the frame).
    Acted(&'a Step),
    /// A tick the runner ran after an action, to the end of travel or autoplay.
    Ticked,
    /// The action and its ticks are done: the app is idle (or the script ticks by hand).
    Settled(&'a Step),
}

/// Plays a script's steps on `app` as every runner plays them (`script`, `cast`, the
/// replay's export): each action, then ticks until the app is idle unless the script ticks
/// by hand, until the steps end or the game quits; `watch` sees each moment.
pub fn drive(
    script: &Script,
    app: &mut App,
    mut watch: impl FnMut(Moment<'_>, &App) -> std::io::Result<()>,
) -> std::io::Result<()> {
    'steps: for step in &script.steps {
        for _ in 0..step.repeat {
            match &step.action {
                // Headless, a suspend or a quit has no terminal to act on.
                Action::Event(e) => _ = app.drive(&Input::Event(e.clone())),
                Action::Resize(w, h) => _ = app.drive(&Input::Event(Event::Resize(*w, *h))),
                Action::Reload => _ = app.drive(&Input::Reload),
                Action::Tick => _ = app.drive(&Input::Tick),
                Action::Snap(_) => {}
            }
            watch(Moment::Acted(step), app)?;
            let mut ticks = 0;
            while !script.header.manual_ticks && app.is_busy() && ticks < MAX_TICKS {
                app.drive(&Input::Tick);
                ticks += 1;
                watch(Moment::Ticked, app)?;
            }
            watch(Moment::Settled(step), app)?;
            if !app.front().is_running() {
                break 'steps;
            }
        }
    }
    Ok(())
}

/// The start of a line [`play_marked`] writes before each state line: the step that made
/// it follows, as `token line`.
pub const STEP_MARK: &str = "\u{1}step ";

/// Plays a script on `app` in a test terminal of `size`, writing the frames and state lines
/// to `out` as they are produced (so memory stays flat however long the output).
pub fn play(
    script: &Script,
    app: &mut App,
    size: (u16, u16),
    output: Output,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    play_with(script, app, size, output, out, false)
}

/// [`play`], each state line after a line that names the step that made it
/// ([`STEP_MARK`], then its token and its line): `test` labels a difference with the
/// input that made it, which the output itself does not say.
pub fn play_marked(
    script: &Script,
    app: &mut App,
    size: (u16, u16),
    output: Output,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    play_with(script, app, size, output, out, true)
}

fn play_with(
    script: &Script,
    app: &mut App,
    size: (u16, u16),
    output: Output,
    out: &mut dyn Write,
    marks: bool,
) -> std::io::Result<()> {
    // A test backend cannot fail: its error type is uninhabited.
    let mut terminal =
        Terminal::new(TestBackend::new(size.0, size.1)).unwrap_or_else(|e| match e {});
    app.set_size(size);
    let mut turn = app.world().turn();
    let mut snaps = 0;
    let mut last = (0, 0);
    let styles = script.header.styles;
    let note_turn = |app: &App,
                     out: &mut dyn Write,
                     turn: &mut u32,
                     at: (usize, usize)|
     -> std::io::Result<()> {
        if output.state && app.world().turn() != *turn {
            if marks {
                writeln!(out, "{STEP_MARK}{} {}", at.0, at.1)?;
            }
            writeln!(out, "{}", state_line(app))?;
        }
        *turn = app.world().turn();
        Ok(())
    };
    drive(script, app, |moment, app| match moment {
        Moment::Acted(step) => {
            last = (step.token, step.line);
            match &step.action {
                Action::Resize(w, h) => terminal.backend_mut().resize(*w, *h),
                Action::Snap(name) => {
                    snaps += 1;
                    if output.frames != Frames::Last {
                        let name = name.clone().unwrap_or_else(|| format!("snap{snaps}"));
                        frame(&mut terminal, app, (&name, last), styles, out)?;
                    }
                }
                _ => {}
            }
            note_turn(app, out, &mut turn, last)
        }
        Moment::Ticked => note_turn(app, out, &mut turn, last),
        Moment::Settled(step) => {
            if output.frames == Frames::All && !matches!(step.action, Action::Snap(_)) {
                let name = step_name(&step.action);
                frame(&mut terminal, app, (&name, last), styles, out)?;
            }
            Ok(())
        }
    })?;
    if output.frames != Frames::All || script.steps.is_empty() {
        frame(&mut terminal, app, ("last", last), styles, out)?;
    }
    out.flush()
}

/// Draws `app` and writes the frame, named and placed at the step that made it (its token
/// and its line), with its styles when asked.
fn frame(
    terminal: &mut Terminal<TestBackend>,
    app: &App,
    (name, at): (&str, (usize, usize)),
    styles: bool,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    terminal
        .draw(|f| f.render_widget(app, f.area()))
        .unwrap_or_else(|e| match e {});
    // A name is the script writer's text: an escape in it must not reach the terminal
    // that shows the frames (the frames themselves are drawn cells, escaped by the view).
    let name = crate::text::escape_controls(name);
    writeln!(out, "--- frame {name} (token {}, line {}) ---", at.0, at.1)?;
    out.write_all(buffer_text(terminal.backend().buffer()).as_bytes())?;
    if styles {
        writeln!(out, "--- styles {name} ---")?;
        out.write_all(styles_text(terminal.backend().buffer()).as_bytes())?;
    }
    Ok(())
}

/// What a script run uses instead of the script's header, and what it prints.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// The level, instead of the header's (default: the default level).
    pub level: Option<PathBuf>,
    /// The terminal size, instead of the header's (default 80x24).
    pub size: Option<(u16, u16)>,
    /// The seed, instead of the header's (default 1).
    pub seed: Option<u64>,
    /// Start in the lab on this query (start, goal), instead of the header's.
    pub lab: Option<(Pos, Pos)>,
    /// Which frames and lines to print.
    pub output: Output,
    /// Print every frame's styles too, as the header `#! styles: on` asks.
    pub styles: bool,
    /// The settings file, instead of the header's (default: none, the default settings).
    pub config: Option<PathBuf>,
    /// Let the script's saves write files (`script --allow-saves`); by default a replay
    /// carries its saves out in the game and writes nothing.
    pub allow_saves: bool,
}

/// Why a script could not run to its end.
#[derive(Debug, thiserror::Error)]
pub enum ScriptError {
    /// The script file cannot be read or parsed.
    #[error("{0}")]
    Script(#[from] LoadError),
    /// Its level cannot be opened.
    #[error("{0}")]
    Level(#[from] OpenError),
    /// Writing the output failed (a closed pipe, a full disk).
    #[error("{0}")]
    Output(#[from] std::io::Error),
    /// The lab query given instead of the header's ([`RunOptions::lab`], `script --lab`)
    /// cannot be searched on the level.
    #[error("--lab {}:{}: {why}", .query.0, .query.1)]
    LabOption {
        /// The query, start then goal.
        query: (Pos, Pos),
        /// What is wrong with it.
        why: String,
    },
}

/// The game at a script's start, as `script` (and the replay viewer, whose frames must be
/// the same) sets it up: the level, seed and size of the header or the options, the settings
/// file the run names (never the user's own: they must not change a script's frames), saves
/// carried out in the game without writing anything unless asked, the planning mode, and
/// the lab when the script opens in it.
pub fn start_app(script: &Script, options: &RunOptions) -> Result<App, ScriptError> {
    let size = options.size.or(script.header.size).unwrap_or((80, 24));
    let seed = options.seed.or(script.header.seed).unwrap_or(1);
    // A recording plays the level it carries, whatever the file holds now; `--level`
    // plays a file instead, and then the disk answers as it does.
    let carried = options.level.is_none() && script.carried.level.is_some();
    let (level, source) = open_script_level(script, options, seed, carried)?;
    let settings = script_settings(script, options)?;
    let mut app = App::new(level, source, seed, size);
    app.session_mut().set_replay(!options.allow_saves);
    app.apply_settings(settings);
    if let Some(planning) = script.header.planning {
        app.set_planning(planning);
    }
    app.front_mut().set_keeping(script.header.kept_runs);
    if carried && !options.allow_saves {
        // The disk's answers the game had, in order: the replay asks the disk nothing.
        app.session_mut().replay_io(script.carried.io.clone());
    }
    if let Some((start, goal)) = options.lab.or(script.header.lab) {
        // Refused as `lab` refuses it: a lab opened on a cell the search cannot take shows
        // nothing but `invalid_start`, and the script would pass for a good one.
        let grid = app.world().grid();
        if let Some(bad) = BadEndpoint::find(grid, start, goal) {
            let why = bad.describe(grid);
            return Err(match (options.lab, &script.header.lab_at) {
                (None, Some(at)) => ScriptError::Script(at.error(why).into()),
                _ => ScriptError::LabOption {
                    query: (start, goal),
                    why,
                },
            });
        }
        let search = app.world().options();
        app.open_lab(start, goal, search, None);
    }
    Ok(app)
}

/// The level a script plays: the recording's copy when `carried`, else the file the
/// options or the header name (the default level without one).
fn open_script_level(
    script: &Script,
    options: &RunOptions,
    seed: u64,
    carried: bool,
) -> Result<(Design, Source), ScriptError> {
    let level = options.level.clone().or(script.header.level.clone());
    let opened = match (&script.carried.level, carried) {
        (Some(bytes), true) => crate::session::open_level_bytes(level.as_deref(), bytes, seed)
            .map_err(|e| match e {
                OpenError::Load(LoadError::Parse(mut p)) => {
                    p.file = carried_copy_name(level.as_deref());
                    OpenError::Load(LoadError::Parse(p))
                }
                other => other,
            }),
        _ => open_level(level.as_deref(), seed),
    };
    opened.map_err(|e| {
        // A file the header names that cannot be read is the script's error, at the header
        // (one that reads but does not parse has its own place in the level).
        match (&options.level, &script.header.level_at, &e) {
            (None, Some(at), OpenError::Load(LoadError::Io { .. })) => {
                ScriptError::Script(at.error(e.to_string()).into())
            }
            _ => e.into(),
        }
    })
}

/// The settings a script plays with: the options' file, else the recording's copy, else
/// the header's file, else the defaults (never the user's own).
fn script_settings(script: &Script, options: &RunOptions) -> Result<Settings, ScriptError> {
    Ok(
        match (
            &options.config,
            &script.carried.config,
            &script.header.config,
        ) {
            (Some(file), ..) => crate::app::config::load(file)?,
            // The recording's copy of the settings, as the game read them.
            (None, Some(bytes), file) => {
                let name = carried_copy_name(file.as_deref());
                let mut settings =
                    crate::app::config::parse(bytes, &name).map_err(LoadError::from)?;
                settings.file = file.clone();
                settings
            }
            (None, None, Some(file)) => crate::app::config::load(file)?,
            (None, None, None) => Settings::default(),
        },
    )
}

/// How errors and notes name the copy of a file that a recording carries.
fn carried_copy_name(file: Option<&Path>) -> String {
    match file {
        Some(p) => format!("the recording's copy of {}", p.display()),
        None => "the recording's copy of the default level".into(),
    }
}

/// When a recording carries its level and the file its header names holds something else
/// (edited, moved, deleted since), a note that says so: the replay plays the copy.
pub fn carried_level_note(script: &Script, options: &RunOptions) -> Option<String> {
    let copy = script
        .carried
        .level
        .as_ref()
        .filter(|_| options.level.is_none())?;
    let path = script.header.level.as_ref()?;
    let name = crate::text::shown_path(path);
    match crate::content::level::read_level_file(path) {
        Ok(now) if &now == copy => None,
        Ok(_) => Some(format!(
            "{name} differs from the level this recording carries: the replay plays its copy, the game that was played (--level {name} plays the file as it is)."
        )),
        Err(e) => Some(format!(
            "{name} cannot be read ({e}): the replay plays the copy of it the recording carries."
        )),
    }
}

/// Says a note on standard error (where a replay's frames never go).
pub fn say_note(note: &str) {
    let _ = writeln!(
        std::io::stderr(),
        "note: {}",
        crate::text::escape_controls(note)
    );
}

/// Runs a script file as `astar-rogue script` does, writing its output to `out`.
pub fn run_file(path: &Path, options: &RunOptions, out: &mut dyn Write) -> Result<(), ScriptError> {
    run_file_with(path, options, out, false)
}

/// [`run_file`], with [`play_marked`]'s marks before the state lines.
pub fn run_file_marked(
    path: &Path,
    options: &RunOptions,
    out: &mut dyn Write,
) -> Result<(), ScriptError> {
    run_file_with(path, options, out, true)
}

fn run_file_with(
    path: &Path,
    options: &RunOptions,
    out: &mut dyn Write,
    marks: bool,
) -> Result<(), ScriptError> {
    let mut script = load(path)?;
    if let Some(note) = carried_level_note(&script, options) {
        say_note(&note);
    }
    script.header.styles |= options.styles;
    let size = options.size.or(script.header.size).unwrap_or((80, 24));
    let mut app = start_app(&script, options)?;
    play_with(&script, &mut app, size, options.output, out, marks)?;
    Ok(())
}

fn step_name(action: &Action) -> String {
    match action {
        Action::Event(e) => token(e).unwrap_or_else(|| "event".into()),
        Action::Resize(w, h) => format!("resize:{w}x{h}"),
        Action::Reload => "reload".into(),
        Action::Tick => "tick".into(),
        Action::Snap(_) => "snap".into(),
    }
}
