//! The terminal front end: raw mode, the alternate screen and mouse capture, always undone
//! on quit, on every signal that ends the process, on Ctrl-Z (and set up again on `fg`), and
//! on a panic.
//!
//! The app's work (a turn, a tick of travel, a reload, the first plans of a level) runs on a
//! worker thread while this thread keeps reading the terminal, so Ctrl-C, `q`, Ctrl-Z and
//! signals answer within [`SLICE`] however long a turn takes, and a turn that takes longer
//! than [`SHOW_BUSY`] puts a box on the screen with the monsters planned so far.
//!
//! Keys typed while the app works: if the work ends before the box shows, they are kept
//! and handled in order, as typed; once the box shows, they are dropped (the box counts
//! them), as DCSS and Brogue drop typed-ahead keys when something happens: keys typed
//! blind during a long turn must not walk the player into what the turn brought. Resizes
//! are always kept.
//!
//! Input that piles up is drained at once: everything waiting is read without waiting in
//! between, mouse motion the game has no use for is neither asked of the terminal (button
//! tracking, not any-motion tracking) nor kept when it comes anyway, consecutive resizes
//! fold into the last, and the screen is drawn when the backlog is done (or every
//! [`BACKLOG_DRAW`] while it lasts), not once per input.
//!
//! A signal that ends the game while the design has unsaved edits keeps them in a recovery
//! file beside the level (see [`Session::recovery`](crate::session::Session::recovery)), which the next `play` offers.

use std::collections::VecDeque;
use std::io::{self, stdout};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crossterm::cursor::Show;
#[cfg(windows)]
use crossterm::event::EnableMouseCapture;
use crossterm::event::{self, DisableMouseCapture, Event, MouseEvent, MouseEventKind};
use crossterm::execute;
use crossterm::terminal::{self, EnterAlternateScreen, LeaveAlternateScreen};
use ratatui::buffer::Buffer;

use super::record::Recorder;
use crate::app::config::Bindings;
use crate::app::keymap::{self, Action, Context};
use crate::app::{App, DiskPoll, Input, Recovery};

/// How often travel and autoplay advance.
const TICK: Duration = Duration::from_millis(60);
/// How often the level file is checked for outside changes (taken once settled, see
/// [`crate::app::DISK_SETTLE`]).
const DISK_POLL: Duration = Duration::from_millis(250);
/// The longest this thread waits for input before looking at signals and the worker.
pub const SLICE: Duration = Duration::from_millis(20);
/// How long work may run before the screen says the game is busy.
pub const SHOW_BUSY: Duration = Duration::from_millis(100);
/// While work runs past its first [`SLICE`], how often the input is looked at (the worker's
/// end is waited on in between, so long work is not followed by up to a slice of waiting).
const BUSY_SLICE: Duration = Duration::from_millis(5);
/// While a backlog of input is handled, the screen is drawn at most this often.
pub const BACKLOG_DRAW: Duration = Duration::from_millis(50);
/// The timeout that asks crossterm for input already there without waiting for more. Not
/// zero: its level-triggered reader then does not look at all, not even at what it has read
/// and not yet handed out. Under a millisecond its poll of the terminal does not wait, but
/// it polls again until the timeout is over, so it is short.
const DRAIN_POLL: Duration = Duration::from_micros(10);
/// Most inputs read in one go before any is handled, so a flood cannot fill memory.
const MAX_DRAIN: usize = 65_536;
/// While inputs keep coming, the recovery copy of unsaved edits is renewed at most this
/// often (once the input stops, after every edit).
const RECOVERY_EVERY: Duration = Duration::from_secs(1);
/// How long a signal that ends the game waits for work under way, so that the recovery
/// file holds its result (less than [`SIGNAL_GRACE`]).
const STOP_WAIT: Duration = Duration::from_millis(1000);
/// How often the busy box is redrawn.
const BUSY_REDRAW: Duration = Duration::from_millis(100);

/// Environment variable that injects a panic (`draw` or `turn`), for the restore tests.
pub const PANIC_ENV: &str = "ASTAR_ROGUE_PANIC";

/// The signals that end the process. Each restores the terminal first and exits with
/// 128 + its number, as a shell reports a process killed by it. (SIGKILL and SIGSTOP cannot
/// be caught; SIGPIPE is ignored by Rust programs, and a closed terminal also sends SIGHUP.)
pub const ENDING_SIGNALS: [i32; 11] = [
    libc::SIGHUP,
    libc::SIGINT,
    libc::SIGQUIT,
    libc::SIGTERM,
    libc::SIGUSR1,
    libc::SIGUSR2,
    libc::SIGALRM,
    libc::SIGVTALRM,
    libc::SIGPROF,
    libc::SIGXCPU,
    libc::SIGXFSZ,
];

/// How a game in the terminal ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The player quit.
    Quit,
    /// A signal ended it.
    Signal(i32),
}

impl Ending {
    /// The process exit code: 0 for a quit, 128 + N for signal N.
    pub fn exit_code(self) -> i32 {
        match self {
            Ending::Quit => 0,
            Ending::Signal(n) => 128 + n,
        }
    }

    /// [`Ending::exit_code`], but 1 for a quit when what was to be kept on the way out (the
    /// run's save) could not be: a script or a shell must not read that quit as a success.
    pub fn exit_code_kept(self, kept: bool) -> i32 {
        match (self, kept) {
            (Ending::Quit, false) => 1,
            _ => self.exit_code(),
        }
    }
}

/// What the signal watcher tells the main loop (the game's, or the replay viewer's).
#[derive(Default)]
pub(super) struct Flags {
    /// The number of a signal that ends the process, or 0.
    stop: AtomicI32,
    /// SIGTSTP arrived: restore the terminal and stop.
    suspend: AtomicBool,
    /// SIGCONT arrived: set the terminal up again and redraw.
    resumed: AtomicBool,
}

impl Flags {
    /// The number of the signal that asked the process to end, or 0.
    pub(super) fn stop(&self) -> i32 {
        self.stop.load(Ordering::SeqCst)
    }
}

/// Runs `f` on the recorder unless a panic while it was held poisoned it: a recording cut
/// short must not take the terminal's restoring down with it.
fn with_recorder(recorder: &Mutex<Recorder>, f: impl FnOnce(&mut Recorder)) {
    if let Ok(mut r) = recorder.lock() {
        f(&mut r);
    }
}

/// Set by the panic hook, so the main loop draws nothing more over the panic message.
static PANICKING: AtomicBool = AtomicBool::new(false);

/// The unsaved edits to keep if a signal ends the game, shared with the signal watcher and
/// the panic hook (which cannot reach the app).
type RecoverySlot = Arc<Mutex<Option<Recovery>>>;

/// Writes what the slot holds (once) and says where, on standard error.
fn write_recovery(slot: &Mutex<Option<Recovery>>) {
    let mut slot = slot.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(recovery) = slot.take() {
        report_recovery(&recovery);
    }
}

fn report_recovery(recovery: &Recovery) {
    use std::io::Write;
    let shown = crate::text::shown_path(&recovery.path);
    let message = match recovery.write() {
        Ok(()) => format!(
            "Unsaved edits kept in {shown}: the next `astar-rogue play` of the level offers them."
        ),
        Err(e) => format!("Could not keep the unsaved edits in {shown}: {e}"),
    };
    let _ = writeln!(io::stderr(), "{message}");
}

/// Whether standard input and output are both a terminal; else which is not. `play` needs
/// both (raw mode, the alternate screen and every frame go there), and must say so before
/// it touches any of it.
pub fn require_terminal() -> Result<(), NoTerminal> {
    use std::io::IsTerminal;
    match (io::stdin().is_terminal(), io::stdout().is_terminal()) {
        (true, true) => Ok(()),
        (false, true) => Err(NoTerminal::Input),
        (true, false) => Err(NoTerminal::Output),
        (false, false) => Err(NoTerminal::Both),
    }
}

/// Standard input or output (or both) is not a terminal, which the game needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "the game needs a terminal, and {}; nothing was changed. To play without one: `astar-rogue play --plain` reads commands as lines and answers in lines, or write the keys in a script: astar-rogue script FILE.keys",
    self.missing()
)]
pub enum NoTerminal {
    /// Standard input is not a terminal.
    Input,
    /// Standard output is not one (it is redirected).
    Output,
    /// Neither is.
    Both,
}

impl NoTerminal {
    /// What is missing, as the message words it.
    fn missing(self) -> &'static str {
        match self {
            NoTerminal::Input => "standard input is not a terminal",
            NoTerminal::Output => "standard output is not a terminal (it is redirected)",
            NoTerminal::Both => "standard input and output are not a terminal",
        }
    }
}

/// Mouse reports of what the game uses: presses, releases and motion with a button held
/// (normal tracking 1000 with button-event tracking 1002), in SGR encoding (1006; 1015 for
/// terminals without it). Not crossterm's `EnableMouseCapture`, which also asks for
/// any-event tracking (1003): a report for every move of the pointer, which the game ignores
/// and which only builds a backlog.
struct EnableMouseButtons;

impl crossterm::Command for EnableMouseButtons {
    fn write_ansi(&self, f: &mut impl std::fmt::Write) -> std::fmt::Result {
        f.write_str("\x1b[?1000h\x1b[?1002h\x1b[?1015h\x1b[?1006h")
    }

    #[cfg(windows)]
    fn execute_winapi(&self) -> io::Result<()> {
        EnableMouseCapture.execute_winapi()
    }
}

/// Whether `NO_COLOR` asks for no colour (set and not empty, as no-color.org says).
pub fn no_color() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

/// What a front end above this loop does with the game as it goes (the kept runs of
/// `play`). Nothing in the loop depends on it.
pub trait Hooks: Send + Sync {
    /// The app has handled an input, a tick or a reload, and the recorder has it.
    fn handled(&self, app: &mut App);
    /// The game waits for input, with nothing left to handle: a moment at which the game
    /// stands as it was left after an input.
    fn idle(&self, app: &App) {
        let _ = app;
    }
    /// The process is about to end without returning from [`play_kept`] (a quit while
    /// the app works, a signal the loop could not answer, a vanished terminal), with the
    /// terminal restored: keep what must be kept, quickly. Returns false when something
    /// could not be kept (the process then ends with a failure, not 0).
    fn ending(&self) -> bool;
}

/// Plays in the terminal until the player quits or a signal ends the game. `make_app` builds
/// the app for the terminal's size (planning a huge level's monsters takes seconds, so it
/// runs with the busy box on screen). Every input the app gets goes to `recorder`; after a
/// panic, the recording is written to a crash file and its path printed. `keys` are the
/// player's bindings, which the busy box reads while the app is on the worker.
pub fn play(
    make_app: impl FnOnce((u16, u16), Arc<crate::game::Progress>) -> App + Send,
    recorder: Arc<Mutex<Recorder>>,
    keys: Bindings,
) -> io::Result<Ending> {
    play_kept(make_app, recorder, None, keys)
}

/// [`play`], telling `hooks` of every input handled and of an ending that does not return.
pub fn play_kept(
    make_app: impl FnOnce((u16, u16), Arc<crate::game::Progress>) -> App + Send,
    recorder: Arc<Mutex<Recorder>>,
    hooks: Option<Arc<dyn Hooks>>,
    keys: Bindings,
) -> io::Result<Ending> {
    // Callers check first, to refuse with exit 2; this is the last guard before any mode.
    require_terminal().map_err(io::Error::other)?;
    let inject = std::env::var(PANIC_ENV).unwrap_or_default();
    let flags = Arc::new(Flags::default());
    let recovery: RecoverySlot = Arc::default();
    let crash_recorder = Arc::clone(&recorder);
    let crash_recovery = Arc::clone(&recovery);
    let after_panic = move || {
        write_crash_file(&crash_recorder);
        write_recovery(&crash_recovery);
    };
    let watched = (Arc::clone(&flags), Arc::clone(&recovery), hooks.clone());
    in_terminal(watched, after_panic, |terminal| {
        let mut ui = Ui {
            terminal,
            flags,
            no_color: no_color(),
            last_frame: Buffer::empty(ratatui::layout::Rect::default()),
            queue: VecDeque::new(),
            recorder,
            in_stroke: false,
            recovery,
            recovery_of: None,
            recovery_at: Instant::now(),
            progress: None,
            hooks,
            keys,
        };
        let size = ui.terminal.size()?;
        let size = (size.width, size.height);
        ui.record(|r| r.start(size));
        // Planning a huge level's monsters takes seconds: on a worker, with the busy box.
        // The busy box reads the planning's progress before the app exists.
        let progress = Arc::new(crate::game::Progress::default());
        ui.progress = Some(Arc::clone(&progress));
        let made = std::thread::scope(|scope| {
            let (made, done) = mpsc::channel();
            scope.spawn(move || {
                let _ = made.send(make_app(size, progress));
            });
            ui.wait_for(Guard::Nothing, &done)
        });
        made.and_then(|mut app| ui.event_loop(&mut app, &inject))
    })
}

/// What the signal watcher of [`in_terminal`] is given: the flags it raises, the unsaved
/// edits it keeps when the main loop does not answer an ending signal, and the hooks it tells.
pub(super) type Watched = (Arc<Flags>, RecoverySlot, Option<Arc<dyn Hooks>>);

/// Runs `body` on the terminal set up (raw mode, the alternate screen, mouse buttons), with
/// the signal watcher running on `watched`, and restores the terminal the one way on every
/// exit path: `body` returning or failing, the set-up failing half-way, or a panic (our hook
/// restores it before the panic message, then runs `after_panic`). The game and the replay
/// viewer both run in it.
pub(super) fn in_terminal<T>(
    (flags, recovery, hooks): Watched,
    after_panic: impl Fn() + Send + Sync + 'static,
    body: impl FnOnce(&mut ratatui::DefaultTerminal) -> io::Result<T>,
) -> io::Result<T> {
    watch_signals(flags, recovery, hooks)?;
    // Our own panic hook rather than ratatui's: its restore prints with `eprintln!`, which
    // panics again (and aborts) when the terminal is gone.
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        PANICKING.store(true, Ordering::SeqCst);
        restore_terminal();
        previous(info);
        after_panic();
    }));
    let result = enter_terminal().and_then(|mut terminal| {
        let result = body(&mut terminal);
        // ratatui's `Drop` for `Terminal` reports a failed cursor restore with `eprintln!`,
        // which panics when the terminal is gone; `restore_terminal` shows the cursor instead.
        std::mem::forget(terminal);
        result
    });
    restore_terminal();
    result
}

/// Writes the recording of a crashed game beside its level (or in the current folder) and
/// says where, so the crash can be replayed with `astar-rogue script`.
fn write_crash_file(recorder: &Mutex<Recorder>) {
    // A panic while the recorder was locked leaves it poisoned or held: skip rather than hang.
    let Ok(recorder) = recorder.try_lock() else {
        return;
    };
    let message = match recorder.write_crash_file() {
        Ok(path) => format!(
            "The inputs that led here are in {}: replay them with `astar-rogue script {0}`.",
            path.display()
        ),
        Err(e) => format!("Could not write the crash recording: {e}"),
    };
    use std::io::Write;
    let _ = writeln!(io::stderr(), "{message}");
}

/// Raw mode, the alternate screen and mouse capture, and a terminal to draw on.
fn enter_terminal() -> io::Result<ratatui::DefaultTerminal> {
    set_up_terminal()?;
    ratatui::Terminal::new(ratatui::backend::CrosstermBackend::new(stdout()))
}

fn set_up_terminal() -> io::Result<()> {
    terminal::enable_raw_mode()?;
    execute!(stdout(), EnterAlternateScreen, EnableMouseButtons)
}

/// Sets the terminal up again after a stop, whatever happened to it meanwhile. crossterm
/// remembers that it made raw mode and then does nothing when asked again, though the
/// shell has put the terminal back to cooked mode since (a `kill -STOP`, then `fg`): raw
/// mode is let go of first (putting back the modes of before the game) and taken anew.
fn reenter_terminal() -> io::Result<()> {
    terminal::disable_raw_mode()?;
    set_up_terminal()
}

/// Undoes [`enter_terminal`], each step on its own: a step that fails (the terminal may be
/// gone) must not keep the others from running, and nothing here may panic.
fn restore_terminal() {
    let _ = execute!(stdout(), DisableMouseCapture);
    let _ = terminal::disable_raw_mode();
    let _ = execute!(stdout(), LeaveAlternateScreen, Show);
}

/// Ctrl-Z or SIGTSTP: hands the terminal back, stops the process as SIGTSTP would, and on
/// `fg` takes the terminal again and makes the next draw write all of it.
pub(super) fn suspend(terminal: &mut ratatui::DefaultTerminal, flags: &Flags) -> io::Result<()> {
    restore_terminal();
    signal_hook::low_level::emulate_default_handler(libc::SIGTSTP)?;
    // Running again: SIGCONT came.
    reenter_terminal()?;
    flags.resumed.store(false, Ordering::SeqCst);
    redraw_all(terminal)
}

/// Handles the SIGTSTP and SIGCONT the watcher passed on; `before_stop` runs before the
/// process stops. Whether the screen must be drawn anew.
pub(super) fn job_control(
    terminal: &mut ratatui::DefaultTerminal,
    flags: &Flags,
    before_stop: impl FnOnce(),
) -> io::Result<bool> {
    let mut redraw = false;
    if flags.suspend.swap(false, Ordering::SeqCst) {
        before_stop();
        suspend(terminal, flags)?;
        redraw = true;
    }
    if flags.resumed.swap(false, Ordering::SeqCst) {
        // A SIGCONT after a stop we did not make (SIGSTOP): the shell has most likely
        // put the terminal back in cooked mode meanwhile.
        reenter_terminal()?;
        redraw_all(terminal)?;
        redraw = true;
    }
    Ok(redraw)
}

/// Clears the screen and makes the next draw write every cell. Not `Terminal::clear`: it
/// asks the terminal for the cursor position and fails when no answer comes.
fn redraw_all(terminal: &mut ratatui::DefaultTerminal) -> io::Result<()> {
    execute!(stdout(), terminal::Clear(terminal::ClearType::All))?;
    // Both buffers end up blank, so the next frame is diffed against a blank screen.
    terminal.swap_buffers();
    terminal.swap_buffers();
    Ok(())
}

/// How long the main loop gets to notice a signal before the watcher ends the process itself.
const SIGNAL_GRACE: Duration = Duration::from_millis(1500);

/// Watches for signals: one that ends the process asks the main loop to stop, and if it has
/// not within [`SIGNAL_GRACE`], the watcher restores the terminal and exits itself. The main
/// loop can be stuck: when the terminal disappears (a closed window, `tmux kill-server`),
/// crossterm 0.29's event reader spins forever on a tty that reads EOF and `event::poll`
/// never returns (crossterm-rs/crossterm#793), which left an orphaned game burning a core.
/// SIGTSTP and SIGCONT are passed on to the main loop, which owns the terminal.
fn watch_signals(
    flags: Arc<Flags>,
    recovery: RecoverySlot,
    hooks: Option<Arc<dyn Hooks>>,
) -> io::Result<()> {
    let wanted = ENDING_SIGNALS
        .iter()
        .copied()
        .chain([libc::SIGTSTP, libc::SIGCONT]);
    let mut signals = signal_hook::iterator::Signals::new(wanted)?;
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            for signal in signals.forever() {
                match signal {
                    libc::SIGTSTP => flags.suspend.store(true, Ordering::SeqCst),
                    libc::SIGCONT => flags.resumed.store(true, Ordering::SeqCst),
                    n => {
                        flags.stop.store(n, Ordering::SeqCst);
                        std::thread::sleep(SIGNAL_GRACE);
                        // The main loop did not end the game (it may be stuck on a vanished
                        // terminal): the unsaved edits are kept from here.
                        write_recovery(&recovery);
                        restore_terminal();
                        if let Some(h) = &hooks {
                            // The signal's code says how it ended, kept or not.
                            let _ = h.ending();
                        }
                        std::process::exit(128 + n);
                    }
                }
            }
        })?;
    Ok(())
}

/// Work for the worker thread: it is given the app, and answers what a poll of the disk
/// found (other work answers [`DiskPoll::Quiet`]).
type Job = Box<dyn FnOnce(&mut App) -> DiskPoll + Send>;

/// The app, shared by this thread (which draws it between jobs) and the worker (which holds
/// it while it works).
type Shared<'a> = Mutex<&'a mut App>;

/// The app, taken: a panic elsewhere cannot keep the game from being drawn or restored.
fn lock<'m, 'a>(app: &'m Shared<'a>) -> std::sync::MutexGuard<'m, &'a mut App> {
    app.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Which edits a recovery copy is of: the level's file and where its history stood.
type EditsOf = (Option<std::path::PathBuf>, (Option<u64>, usize));

/// The worker thread of a game: where jobs go and where their answers come back.
struct Worker {
    jobs: Sender<Job>,
    done: Receiver<DiskPoll>,
}

/// What quitting during work would drop, which decides whether Ctrl-C and `q` quit at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Guard {
    /// Nothing (a level still loading): both quit at once.
    Nothing,
    /// A game: Ctrl-C quits at once, `q` asks.
    Game,
    /// Unsaved edits: both ask.
    Unsaved,
}

/// What a key means to the front end itself, before the app sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FrontKey {
    CtrlC,
    Quit,
    Yes,
    Suspend,
    Other,
}

/// What a key means while the app is busy on the worker: the key table's busy context under
/// the player's bindings.
fn front_key(keys: &Bindings, ev: &Event) -> FrontKey {
    let Event::Key(key) = ev else {
        return FrontKey::Other;
    };
    match keymap::lookup(keys, crate::app::config::BUSY_STACK, key) {
        Some(Action::Interrupt) => FrontKey::CtrlC,
        Some(Action::Suspend) => FrontKey::Suspend,
        Some(Action::Quit) => FrontKey::Quit,
        Some(Action::Yes) => FrontKey::Yes,
        _ => FrontKey::Other,
    }
}

/// The terminal loop's state.
struct Ui<'t> {
    terminal: &'t mut ratatui::DefaultTerminal,
    flags: Arc<Flags>,
    no_color: bool,
    /// The last frame drawn of the app, which the busy box is drawn over.
    last_frame: Buffer,
    /// Inputs read and not handled yet, in order.
    queue: VecDeque<Event>,
    recorder: Arc<Mutex<Recorder>>,
    /// Whether the last mouse input queued pressed or dragged a button: the first motion
    /// after it ends the stroke and is kept, all other motion is dropped.
    in_stroke: bool,
    /// The unsaved edits a signal would keep, renewed as the design changes.
    recovery: RecoverySlot,
    /// What `recovery` was taken of: the level and where its history stood.
    recovery_of: Option<EditsOf>,
    /// When `recovery` was last renewed.
    recovery_at: Instant,
    /// The planning progress of the app's game, read while it works on the worker.
    progress: Option<Arc<crate::game::Progress>>,
    /// What the front end above does with the game as it goes (kept runs).
    hooks: Option<Arc<dyn Hooks>>,
    /// The player's key bindings, for the busy box (the app holds its own on the worker).
    keys: Bindings,
}

impl Ui<'_> {
    /// Gives the recorder the disk's answers to the input just handled (a recording
    /// carries them), then tells the hooks that the app handled it.
    fn handled(&self, app: &Shared<'_>) {
        let answers = lock(app).session_mut().take_io();
        self.record(|r| r.io(answers));
        if let Some(h) = &self.hooks {
            h.handled(&mut lock(app));
        }
    }

    /// Tells the hooks that the game waits for input.
    fn idle(&self, app: &Shared<'_>) {
        if let Some(h) = &self.hooks {
            h.idle(&lock(app));
        }
    }

    fn record(&self, f: impl FnOnce(&mut Recorder)) {
        with_recorder(&self.recorder, f);
    }

    /// The ending a stop signal asks for, or a quit.
    fn ending(&self) -> Ending {
        match self.flags.stop() {
            0 => Ending::Quit,
            n => Ending::Signal(n),
        }
    }

    /// Ends the process at once, with the terminal restored and the recording finished; for
    /// quitting while work runs, which cannot be interrupted. Ended by a signal, it keeps
    /// the unsaved edits as they were before the work.
    fn exit_now(&self, ending: Ending) -> ! {
        self.record(|r| r.finish());
        restore_terminal();
        if matches!(ending, Ending::Signal(_)) {
            write_recovery(&self.recovery);
        }
        let kept = self.hooks.as_ref().is_none_or(|h| h.ending());
        std::process::exit(ending.exit_code_kept(kept))
    }

    /// Renews the copy of the unsaved edits that a signal would keep, when the design
    /// changed since (while inputs pile up, at most every [`RECOVERY_EVERY`]).
    fn note_edits(&mut self, app: &App) {
        let of = app.session().unsaved().then(|| {
            (
                app.session().source().path.clone(),
                app.session().revision(),
            )
        });
        if of == self.recovery_of
            || of.is_some() && !self.queue.is_empty() && self.recovery_at.elapsed() < RECOVERY_EVERY
        {
            return;
        }
        let copy = app.session().recovery();
        if let Ok(mut slot) = self.recovery.lock() {
            *slot = copy;
        }
        self.recovery_of = of;
        self.recovery_at = Instant::now();
    }

    /// A signal ends the game: its unsaved edits, as they are now, go to a recovery file.
    fn keep_edits(&mut self, app: &App) {
        let mut slot = self.recovery.lock().unwrap_or_else(|p| p.into_inner());
        *slot = None;
        if let Some(recovery) = app.session().recovery() {
            report_recovery(&recovery);
        }
    }

    /// Queues an input read from the terminal: motion the game ignores is dropped, and a
    /// resize replaces one queued just before it (only the last size matters).
    fn enqueue(&mut self, ev: Event) {
        match &ev {
            Event::Mouse(m) => {
                let ends_stroke = std::mem::replace(
                    &mut self.in_stroke,
                    matches!(m.kind, MouseEventKind::Down(_) | MouseEventKind::Drag(_)),
                );
                if m.kind == MouseEventKind::Moved && !ends_stroke {
                    return;
                }
            }
            Event::Resize(..) => {
                if matches!(self.queue.back(), Some(Event::Resize(..))) {
                    self.queue.pop_back();
                }
            }
            Event::FocusGained | Event::FocusLost => return,
            _ => {}
        }
        self.queue.push_back(ev);
    }

    /// Reads every input already waiting, without waiting for more.
    fn drain(&mut self) -> io::Result<()> {
        for _ in 0..MAX_DRAIN {
            if !event::poll(DRAIN_POLL)? {
                break;
            }
            let ev = event::read()?;
            self.enqueue(ev);
        }
        Ok(())
    }

    /// Handles SIGTSTP and SIGCONT; returns whether the screen must be drawn anew.
    fn job_control(&mut self) -> io::Result<bool> {
        let recorder = &self.recorder;
        job_control(self.terminal, &self.flags, || {
            with_recorder(recorder, Recorder::flush)
        })
    }

    /// Ctrl-Z: the recording is flushed, then [`suspend`].
    fn suspend(&mut self) -> io::Result<()> {
        self.record(|r| r.flush());
        suspend(self.terminal, &self.flags)
    }

    fn draw(&mut self, app: &App) -> io::Result<()> {
        if PANICKING.load(Ordering::SeqCst) {
            return Ok(());
        }
        let no_color = self.no_color;
        let frame = self.terminal.draw(|f| {
            f.render_widget(app, f.area());
            if no_color {
                crate::view::strip_colours(f.buffer_mut());
            }
            f.set_cursor_position(crate::view::cursor_position(app, f.area()));
        })?;
        self.last_frame.clone_from(frame.buffer);
        Ok(())
    }

    /// The last frame with a box saying what runs.
    fn draw_busy(
        &mut self,
        began: Instant,
        asking: Option<FrontKey>,
        dropped: usize,
    ) -> io::Result<()> {
        if PANICKING.load(Ordering::SeqCst) {
            return Ok(());
        }
        let (planned, total) = self.progress.as_ref().map_or((0, 0), |p| p.get());
        let mut lines = vec![if total > 0 {
            format!("Monsters planned: {planned} of {total}")
        } else {
            "Working...".to_string()
        }];
        lines.push(format!("{:.1} s", began.elapsed().as_secs_f64()));
        let key = |a| self.keys.key_of(Context::Busy, a);
        lines.push(match asking {
            Some(FrontKey::Quit) => {
                format!("Quit now? {} quits, other keys wait", key(Action::Yes))
            }
            Some(_) => format!("Unsaved edits! {} or Ctrl-C quits anyway", key(Action::Yes)),
            None => format!(
                "Ctrl-C or {} ends the game; keys typed now are dropped",
                key(Action::Quit)
            ),
        });
        if dropped > 0 {
            lines.push(format!(
                "{dropped} key{} dropped",
                if dropped == 1 { "" } else { "s" }
            ));
        }
        let last = &self.last_frame;
        let no_color = self.no_color;
        self.terminal.draw(|f| {
            let area = f.area();
            let buf = f.buffer_mut();
            if buf.area == last.area {
                buf.content.clone_from(&last.content);
            }
            crate::view::notice(area, buf, " Please wait ", &lines);
            if no_color {
                crate::view::strip_colours(buf);
            }
            f.set_cursor_position(crate::view::notice_cursor(area, " Please wait ", &lines));
        })?;
        Ok(())
    }

    /// Waits for the answer of work on the worker thread, while this one keeps reading the
    /// terminal. Quitting while it runs ends the process from here; a signal that ends the
    /// process gives the work [`STOP_WAIT`] to finish first. A worker that panicked (the
    /// panic hook has reported it) goes on unwinding here.
    fn wait_for<T>(&mut self, guard: Guard, done: &Receiver<T>) -> io::Result<T> {
        let gone = || -> ! { std::panic::resume_unwind(Box::new("the worker thread panicked")) };
        // Nearly all work takes microseconds: wait for it alone, without looking at the
        // input, so that a backlog is not read one poll slice per input.
        match done.recv_timeout(SLICE) {
            Ok(answer) => return Ok(answer),
            Err(RecvTimeoutError::Disconnected) => gone(),
            Err(RecvTimeoutError::Timeout) => {}
        }
        let began = Instant::now();
        let mut asking = None;
        let mut dropped = 0;
        let mut drawn: Option<Instant> = None;
        let answer = loop {
            // Waits on the work, a slice at a time, rather than on the input: work that ends
            // is drawn at once, where it waited out the rest of a slice of polling the input
            // (up to 5 ms more before the first frame of a big level).
            match done.recv_timeout(BUSY_SLICE) {
                Ok(answer) => break answer,
                Err(RecvTimeoutError::Disconnected) => gone(),
                Err(RecvTimeoutError::Timeout) => {}
            }
            if self.flags.stop() != 0 {
                // Give the work a moment to end, so that the edits kept are its own.
                match done.recv_timeout(STOP_WAIT) {
                    Ok(answer) => break answer,
                    Err(RecvTimeoutError::Disconnected) => gone(),
                    Err(RecvTimeoutError::Timeout) => self.exit_now(self.ending()),
                }
            }
            let mut redraw = self.job_control()?;
            // Every input waiting (up to a flood's worth), so that a backlog is not read one
            // slice per input.
            for _ in 0..MAX_DRAIN {
                if !event::poll(DRAIN_POLL)? {
                    break;
                }
                let ev = event::read()?;
                let motion = matches!(
                    ev,
                    Event::Mouse(MouseEvent {
                        kind: MouseEventKind::Moved,
                        ..
                    })
                );
                let shown = drawn.is_some();
                match (
                    front_key(&self.keys, &ev),
                    asking.as_ref().map(|a: &(FrontKey, Event)| a.0),
                ) {
                    (FrontKey::Suspend, _) => {
                        self.suspend()?;
                        redraw = true;
                    }
                    (FrontKey::CtrlC, _) if guard != Guard::Unsaved || asking.is_some() => {
                        self.record(|r| r.comment("C-c (quit while the game worked)"));
                        self.exit_now(Ending::Quit);
                    }
                    (FrontKey::Quit, _) if guard == Guard::Nothing => self.exit_now(Ending::Quit),
                    (FrontKey::Yes, Some(_)) => {
                        self.record(|r| r.comment("quit while the game worked"));
                        self.exit_now(Ending::Quit);
                    }
                    (key @ (FrontKey::CtrlC | FrontKey::Quit), None) => {
                        asking = Some((key, ev));
                        redraw = true;
                    }
                    (_, Some(_)) => {
                        asking = None;
                        redraw = true;
                    }
                    _ if matches!(ev, Event::Resize(..)) || !shown => self.enqueue(ev),
                    // Motion is no key typed blind: dropped without a word.
                    _ if motion => {}
                    _ => {
                        dropped += 1;
                        redraw = true;
                    }
                }
            }
            let due = drawn.map_or(began.elapsed() >= SHOW_BUSY, |d| d.elapsed() >= BUSY_REDRAW);
            if due || (redraw && drawn.is_some()) || asking.is_some() && drawn.is_none() {
                self.draw_busy(began, asking.as_ref().map(|a| a.0), dropped)?;
                drawn = Some(Instant::now());
            }
        };
        // A quit still waiting for its answer goes to the app, which asks its own way.
        if let Some((_, ev)) = asking {
            self.queue.push_front(ev);
        }
        Ok(answer)
    }

    /// Hands `job` to the worker thread and waits for it (see [`Ui::wait_for`]).
    fn run(&mut self, guard: Guard, worker: &Worker, job: Job) -> io::Result<DiskPoll> {
        if worker.jobs.send(job).is_err() {
            std::panic::resume_unwind(Box::new("the worker thread panicked"));
        }
        self.wait_for(guard, &worker.done)
    }

    /// Draws, waits for input, and ticks, until the app stops running or a signal arrives.
    /// The app's work runs on one worker thread for the whole game (a thread per input cost
    /// more than most inputs), which holds the app while it works; this thread draws it in
    /// between.
    ///
    /// `inject` is the [`PANIC_ENV`] test hook: `draw` panics while drawing, `turn` once a
    /// turn has been played, so the restore tests see both kinds of crash.
    fn event_loop(&mut self, app: &mut App, inject: &str) -> io::Result<Ending> {
        let app: Shared<'_> = Mutex::new(app);
        std::thread::scope(|scope| {
            let (jobs, inbox) = mpsc::channel::<Job>();
            let (answers, done) = mpsc::channel();
            let shared = &app;
            scope.spawn(move || {
                for job in inbox {
                    let answer = job(&mut lock(shared));
                    if answers.send(answer).is_err() {
                        break;
                    }
                }
            });
            // Dropped on the way out, however it goes: the worker then ends.
            let worker = Worker { jobs, done };
            self.run_loop(&app, &worker, inject)
        })
    }

    fn run_loop(&mut self, app: &Shared<'_>, worker: &Worker, inject: &str) -> io::Result<Ending> {
        let panic_in_draw = inject == "draw";
        let panic_after_turn = inject == "turn";
        let mut last_tick = Instant::now();
        let mut last_poll = Instant::now();
        let mut last_draw = Instant::now();
        let mut dirty = true;
        loop {
            if self.flags.stop() != 0 {
                self.record(|r| r.finish());
                self.keep_edits(&lock(app));
                return Ok(self.ending());
            }
            if !lock(app).front().is_running() {
                self.record(|r| r.finish());
                return Ok(Ending::Quit);
            }
            dirty |= self.job_control()?;
            // Input that came meanwhile, once the backlog read before is handled (it comes
            // after it anyway).
            if self.queue.is_empty() {
                self.drain()?;
            }
            self.note_edits(&lock(app));
            // A backlog is handled first and drawn when done (or now and then while it
            // lasts): a frame per input made every input cost a frame.
            if dirty && (self.queue.is_empty() || last_draw.elapsed() >= BACKLOG_DRAW) {
                self.draw(&lock(app))?;
                assert!(
                    !panic_in_draw,
                    "injected panic in drawing ({PANIC_ENV}=draw)"
                );
                dirty = false;
                last_draw = Instant::now();
            }
            if let Some(ev) = self.next_input(app, last_tick)? {
                dirty = true;
                if self.suspends(app, &ev) {
                    self.suspend()?;
                    continue;
                }
                let turn = self.handle(app, worker, ev)?;
                assert!(
                    !(panic_after_turn && turn > 0),
                    "injected panic after a turn ({PANIC_ENV}=turn)"
                );
            }
            if lock(app).is_busy() && last_tick.elapsed() >= TICK {
                self.tick(app, worker)?;
                last_tick = Instant::now();
                dirty = true;
            }
            if last_poll.elapsed() >= DISK_POLL {
                dirty |= self.poll_disk(app, worker)?;
                last_poll = Instant::now();
            }
        }
    }

    /// The next input to handle: the backlog's first, else what comes within a slice of
    /// time (less while the app is busy, for its next tick).
    fn next_input(&mut self, app: &Shared<'_>, last_tick: Instant) -> io::Result<Option<Event>> {
        let busy = lock(app).is_busy();
        let wait = if busy {
            TICK.saturating_sub(last_tick.elapsed()).min(SLICE)
        } else {
            SLICE
        };
        if self.queue.is_empty() {
            self.idle(app);
        }
        if self.queue.is_empty() && event::poll(wait)? {
            let ev = event::read()?;
            self.enqueue(ev);
            self.drain()?;
        }
        // A resize to the size the app has (as a flood of SIGWINCH gives) is nothing
        // to do and nothing to record.
        let size = lock(app).ui().size();
        Ok(self
            .queue
            .pop_front()
            .filter(|ev| !matches!(*ev, Event::Resize(w, h) if (w, h) == size)))
    }

    /// Whether `ev` suspends the game: in raw mode Ctrl-Z is a key, not SIGTSTP, and the
    /// key table says where it suspends (not in the editor, where it undoes).
    fn suspends(&self, app: &Shared<'_>, ev: &Event) -> bool {
        matches!(ev, Event::Key(k) if {
            let a = lock(app);
            keymap::lookup(&a.ui().settings().bindings, a.contexts(), k) == Some(Action::Suspend)
        })
    }

    /// Records `ev` and has the app handle it on the worker; the game's turn after it.
    fn handle(&mut self, app: &Shared<'_>, worker: &Worker, ev: Event) -> io::Result<u32> {
        self.record(|r| r.event(&ev));
        let guard = self.guard(&lock(app));
        self.run(
            guard,
            worker,
            Box::new(move |a| {
                a.drive(&Input::Event(ev));
                DiskPoll::Quiet
            }),
        )?;
        let (running, turn) = {
            let a = lock(app);
            (a.front().is_running(), a.world().turn())
        };
        self.record(|r| {
            if running {
                r.commit()
            } else {
                r.commit_as_quit()
            }
        });
        self.handled(app);
        Ok(turn)
    }

    /// One tick of travel and autoplay, recorded, on the worker.
    fn tick(&mut self, app: &Shared<'_>, worker: &Worker) -> io::Result<()> {
        self.record(|r| r.tick());
        let guard = self.guard(&lock(app));
        self.run(
            guard,
            worker,
            Box::new(|a| {
                a.drive(&Input::Tick);
                DiskPoll::Quiet
            }),
        )?;
        self.handled(app);
        Ok(())
    }

    /// Looks at the level file on disk, on the worker: whether the frame changes.
    fn poll_disk(&mut self, app: &Shared<'_>, worker: &Worker) -> io::Result<bool> {
        let guard = self.guard(&lock(app));
        Ok(
            match self.run(guard, worker, Box::new(|a| a.poll_disk()))? {
                DiskPoll::Reloaded => {
                    self.record(|r| r.reload());
                    self.handled(app);
                    true
                }
                // A kept run's replay must say it too: the recording marks the poll,
                // and the session's journal has what it found.
                DiskPoll::Waiting if lock(app).front().keeping() => {
                    self.record(|r| r.reload());
                    self.handled(app);
                    true
                }
                DiskPoll::Waiting => true,
                DiskPoll::Quiet => false,
            },
        )
    }

    /// What quitting during the work on `app` drops; also takes the app's planning progress
    /// for the busy box, which is drawn while the app is on the worker.
    fn guard(&mut self, app: &App) -> Guard {
        self.progress = Some(app.world().progress());
        if app.session().unsaved() {
            Guard::Unsaved
        } else {
            Guard::Game
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signal_endings_exit_with_128_plus_the_signal() {
        assert_eq!(Ending::Quit.exit_code(), 0);
        assert_eq!(Ending::Signal(libc::SIGTERM).exit_code(), 143);
        assert_eq!(Ending::Signal(libc::SIGINT).exit_code(), 130);
        assert_eq!(Ending::Signal(libc::SIGHUP).exit_code(), 129);
    }

    #[test]
    fn while_busy_the_key_table_gives_quit_interrupt_suspend_and_yes() {
        use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
        let key = |c, m| Event::Key(KeyEvent::new(KeyCode::Char(c), m));
        let front_key = |ev: &Event| super::front_key(Bindings::standard(), ev);
        assert_eq!(
            front_key(&key('z', KeyModifiers::CONTROL)),
            FrontKey::Suspend
        );
        assert_eq!(front_key(&key('c', KeyModifiers::CONTROL)), FrontKey::CtrlC);
        assert_eq!(front_key(&key('q', KeyModifiers::NONE)), FrontKey::Quit);
        assert_eq!(front_key(&key('y', KeyModifiers::NONE)), FrontKey::Yes);
        assert_eq!(front_key(&key('q', KeyModifiers::ALT)), FrontKey::Other);
        assert_eq!(front_key(&key('h', KeyModifiers::NONE)), FrontKey::Other);
    }

    #[test]
    fn while_busy_the_players_bindings_hold() {
        use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
        let key = |c| Event::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
        let file = b"[keys.busy]\nquit = [\"Q\"]\nyes = [\"j\"]\n";
        let settings = crate::app::config::parse(file, "config.toml").unwrap();
        let keys = &settings.bindings;
        assert_eq!(super::front_key(keys, &key('Q')), FrontKey::Quit);
        assert_eq!(super::front_key(keys, &key('q')), FrontKey::Other);
        assert_eq!(super::front_key(keys, &key('j')), FrontKey::Yes);
    }
}
