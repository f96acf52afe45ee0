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

use std::collections::VecDeque;
use std::io::{self, stdout};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crossterm::cursor::Show;
use crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, Event};
use crossterm::execute;
use crossterm::terminal::{self, EnterAlternateScreen, LeaveAlternateScreen};
use ratatui::buffer::Buffer;

use super::record::Recorder;
use crate::app::keymap::{self, Action, Context};
use crate::app::{App, DiskPoll, Effect, Input};

/// How often travel and autoplay advance.
const TICK: Duration = Duration::from_millis(60);
/// How often the level file is checked for outside changes (taken once settled, see
/// [`crate::app::DISK_SETTLE`]).
const DISK_POLL: Duration = Duration::from_millis(250);
/// The longest this thread waits for input before looking at signals and the worker.
pub const SLICE: Duration = Duration::from_millis(20);
/// How long work may run before the screen says the game is busy.
pub const SHOW_BUSY: Duration = Duration::from_millis(100);
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
}

/// What the signal watcher tells the main loop.
#[derive(Default)]
struct Flags {
    /// The number of a signal that ends the process, or 0.
    stop: AtomicI32,
    /// SIGTSTP arrived: restore the terminal and stop.
    suspend: AtomicBool,
    /// SIGCONT arrived: set the terminal up again and redraw.
    resumed: AtomicBool,
}

/// Set by the panic hook, so the main loop draws nothing more over the panic message.
static PANICKING: AtomicBool = AtomicBool::new(false);

/// Whether `NO_COLOR` asks for no colour (set and not empty, as no-color.org says).
pub fn no_color() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

/// Plays in the terminal until the player quits or a signal ends the game. `make_app` builds
/// the app for the terminal's size (planning a huge level's monsters takes seconds, so it
/// runs with the busy box on screen). Every input the app gets goes to `recorder`; after a
/// panic, the recording is written to a crash file and its path printed.
pub fn play(
    make_app: impl FnOnce((u16, u16), Arc<crate::game::Progress>) -> App + Send,
    recorder: Arc<Mutex<Recorder>>,
) -> io::Result<Ending> {
    let inject = std::env::var(PANIC_ENV).unwrap_or_default();
    let flags = Arc::new(Flags::default());
    watch_signals(Arc::clone(&flags))?;
    // Our own panic hook rather than ratatui's: its restore prints with `eprintln!`, which
    // panics again (and aborts) when the terminal is gone.
    let previous = std::panic::take_hook();
    let crash_recorder = Arc::clone(&recorder);
    std::panic::set_hook(Box::new(move |info| {
        PANICKING.store(true, Ordering::SeqCst);
        restore_terminal();
        previous(info);
        write_crash_file(&crash_recorder);
    }));
    let result = enter_terminal().and_then(|terminal| {
        let mut ui = Ui {
            terminal,
            flags,
            no_color: no_color(),
            last_frame: Buffer::empty(ratatui::layout::Rect::default()),
            queue: VecDeque::new(),
            recorder,
            progress: None,
        };
        let size = ui.terminal.size()?;
        let size = (size.width, size.height);
        ui.record(|r| r.start(size));
        // The level is loaded and first planned on the worker: the busy box reads its
        // progress before the app exists.
        let progress = Arc::new(crate::game::Progress::default());
        ui.progress = Some(Arc::clone(&progress));
        let result = match ui.wait(Guard::Nothing, move || make_app(size, progress))? {
            Some(mut app) => ui.event_loop(&mut app, &inject),
            None => Ok(ui.ending()),
        };
        // ratatui's `Drop` for `Terminal` reports a failed cursor restore with `eprintln!`,
        // which panics when the terminal is gone; `restore_terminal` shows the cursor instead.
        std::mem::forget(ui.terminal);
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
    execute!(stdout(), EnterAlternateScreen, EnableMouseCapture)
}

/// Undoes [`enter_terminal`], each step on its own: a step that fails (the terminal may be
/// gone) must not keep the others from running, and nothing here may panic.
fn restore_terminal() {
    let _ = execute!(stdout(), DisableMouseCapture);
    let _ = terminal::disable_raw_mode();
    let _ = execute!(stdout(), LeaveAlternateScreen, Show);
}

/// How long the main loop gets to notice a signal before the watcher ends the process itself.
const SIGNAL_GRACE: Duration = Duration::from_millis(1500);

/// Watches for signals: one that ends the process asks the main loop to stop, and if it has
/// not within [`SIGNAL_GRACE`], the watcher restores the terminal and exits itself. The main
/// loop can be stuck: when the terminal disappears (a closed window, `tmux kill-server`),
/// crossterm 0.29's event reader spins forever on a tty that reads EOF and `event::poll`
/// never returns (crossterm-rs/crossterm#793), which left an orphaned game burning a core.
/// SIGTSTP and SIGCONT are passed on to the main loop, which owns the terminal.
fn watch_signals(flags: Arc<Flags>) -> io::Result<()> {
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
                        restore_terminal();
                        std::process::exit(128 + n);
                    }
                }
            }
        })?;
    Ok(())
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

/// What a key means while the app is busy on the worker, read from the key table's
/// busy context (the app itself is not at hand then).
fn front_key(ev: &Event) -> FrontKey {
    let Event::Key(key) = ev else {
        return FrontKey::Other;
    };
    // The app and its settings are on the worker: the busy keys are the table's own.
    match keymap::lookup_table(&[Context::Busy, Context::Always], key) {
        Some(Action::Interrupt) => FrontKey::CtrlC,
        Some(Action::Suspend) => FrontKey::Suspend,
        Some(Action::Quit) => FrontKey::Quit,
        Some(Action::Yes) => FrontKey::Yes,
        _ => FrontKey::Other,
    }
}

/// The terminal loop's state.
struct Ui {
    terminal: ratatui::DefaultTerminal,
    flags: Arc<Flags>,
    no_color: bool,
    /// The last frame drawn of the app, which the busy box is drawn over.
    last_frame: Buffer,
    /// Inputs that arrived during short work, handled next.
    queue: VecDeque<Event>,
    recorder: Arc<Mutex<Recorder>>,
    /// The planning progress of the app's game, read while it works on the worker.
    progress: Option<Arc<crate::game::Progress>>,
}

impl Ui {
    fn record(&self, f: impl FnOnce(&mut Recorder)) {
        if let Ok(mut r) = self.recorder.lock() {
            f(&mut r);
        }
    }

    /// The ending a stop signal asks for, or a quit.
    fn ending(&self) -> Ending {
        match self.flags.stop.load(Ordering::SeqCst) {
            0 => Ending::Quit,
            n => Ending::Signal(n),
        }
    }

    /// Ends the process at once, with the terminal restored and the recording finished; for
    /// quitting while work runs, which cannot be interrupted.
    fn exit_now(&self, ending: Ending) -> ! {
        self.record(|r| r.finish());
        restore_terminal();
        std::process::exit(ending.exit_code())
    }

    /// Handles SIGTSTP and SIGCONT; returns whether the screen must be drawn anew.
    fn job_control(&mut self) -> io::Result<bool> {
        let mut redraw = false;
        if self.flags.suspend.swap(false, Ordering::SeqCst) {
            self.suspend()?;
            redraw = true;
        }
        if self.flags.resumed.swap(false, Ordering::SeqCst) {
            // A SIGCONT after a stop we did not make (SIGSTOP): the shell may have reset
            // the terminal meanwhile.
            set_up_terminal()?;
            self.redraw_all()?;
            redraw = true;
        }
        Ok(redraw)
    }

    /// Ctrl-Z: hands the terminal back, stops the process as SIGTSTP would, and on `fg`
    /// takes the terminal again and redraws all of it.
    fn suspend(&mut self) -> io::Result<()> {
        self.record(|r| r.flush());
        restore_terminal();
        signal_hook::low_level::emulate_default_handler(libc::SIGTSTP)?;
        // Running again: SIGCONT came.
        set_up_terminal()?;
        self.flags.resumed.store(false, Ordering::SeqCst);
        self.redraw_all()
    }

    /// Clears the screen and makes the next draw write every cell. Not `Terminal::clear`:
    /// it asks the terminal for the cursor position and fails when no answer comes.
    fn redraw_all(&mut self) -> io::Result<()> {
        execute!(stdout(), terminal::Clear(terminal::ClearType::All))?;
        // Both buffers end up blank, so the next frame is diffed against a blank screen.
        self.terminal.swap_buffers();
        self.terminal.swap_buffers();
        Ok(())
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
        lines.push(match asking {
            Some(FrontKey::Quit) => "Quit now? y quits, other keys wait".into(),
            Some(_) => "Unsaved edits! y or Ctrl-C quits anyway".into(),
            None => "Ctrl-C or q ends the game; keys typed now are dropped".into(),
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
        })?;
        Ok(())
    }

    /// Runs `job` on a worker thread while this one keeps reading the terminal; returns its
    /// result, or `None` when a stop signal came first (the worker is then abandoned, as
    /// the process ends). Quitting while it runs ends the process from here.
    fn wait<R: Send>(
        &mut self,
        guard: Guard,
        job: impl FnOnce() -> R + Send,
    ) -> io::Result<Option<R>> {
        std::thread::scope(|scope| {
            let worker = scope.spawn(job);
            let began = Instant::now();
            let mut asking = None;
            let mut dropped = 0;
            let mut drawn: Option<Instant> = None;
            while !worker.is_finished() {
                if self.flags.stop.load(Ordering::SeqCst) != 0 {
                    self.exit_now(self.ending());
                }
                let mut redraw = self.job_control()?;
                if event::poll(SLICE)? {
                    let ev = event::read()?;
                    let shown = drawn.is_some();
                    match (
                        front_key(&ev),
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
                        (FrontKey::Quit, _) if guard == Guard::Nothing => {
                            self.exit_now(Ending::Quit)
                        }
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
                        _ if matches!(ev, Event::Resize(..)) || !shown => self.queue.push_back(ev),
                        _ => {
                            dropped += 1;
                            redraw = true;
                        }
                    }
                }
                let due =
                    drawn.map_or(began.elapsed() >= SHOW_BUSY, |d| d.elapsed() >= BUSY_REDRAW);
                if due || (redraw && drawn.is_some()) || asking.is_some() && drawn.is_none() {
                    self.draw_busy(began, asking.as_ref().map(|a| a.0), dropped)?;
                    drawn = Some(Instant::now());
                }
            }
            // A worker only panics on a bug, and the panic hook has reported it: go on
            // unwinding here.
            let result = worker
                .join()
                .unwrap_or_else(|p| std::panic::resume_unwind(p));
            // A quit still waiting for its answer goes to the app, which asks its own way.
            if let Some((_, ev)) = asking {
                self.queue.push_front(ev);
            }
            Ok(Some(result))
        })
    }

    /// Draws, waits for input, and ticks, until the app stops running or a signal arrives.
    ///
    /// `inject` is the [`PANIC_ENV`] test hook: `draw` panics while drawing, `turn` once a
    /// turn has been played, so the restore tests see both kinds of crash.
    fn event_loop(&mut self, app: &mut App, inject: &str) -> io::Result<Ending> {
        let panic_in_draw = inject == "draw";
        let panic_after_turn = inject == "turn";
        let mut last_tick = Instant::now();
        let mut last_poll = Instant::now();
        let mut dirty = true;
        loop {
            if self.flags.stop.load(Ordering::SeqCst) != 0 {
                self.record(|r| r.finish());
                return Ok(self.ending());
            }
            if !app.is_running() {
                self.record(|r| r.finish());
                return Ok(Ending::Quit);
            }
            dirty |= self.job_control()?;
            if dirty {
                self.draw(app)?;
                assert!(
                    !panic_in_draw,
                    "injected panic in drawing ({PANIC_ENV}=draw)"
                );
                dirty = false;
            }
            let wait = if app.is_busy() {
                TICK.saturating_sub(last_tick.elapsed()).min(SLICE)
            } else {
                SLICE
            };
            let input = match self.queue.pop_front() {
                Some(ev) => Some(ev),
                None if event::poll(wait)? => Some(event::read()?),
                None => None,
            };
            if let Some(ev) = input {
                self.record(|r| r.event(&ev));
                let guard = self.guard(app);
                if self.wait(guard, || app.drive(&Input::Event(ev.clone())))?
                    == Some(Effect::Suspend)
                {
                    self.suspend()?;
                }
                self.record(|r| {
                    if app.is_running() {
                        r.commit()
                    } else {
                        r.commit_as_quit()
                    }
                });
                dirty = true;
                assert!(
                    !(panic_after_turn && app.world().turn() > 0),
                    "injected panic after a turn ({PANIC_ENV}=turn)"
                );
            }
            if app.is_busy() && last_tick.elapsed() >= TICK {
                self.record(|r| r.tick());
                let guard = self.guard(app);
                self.wait(guard, || app.drive(&Input::Tick))?;
                last_tick = Instant::now();
                dirty = true;
            }
            if last_poll.elapsed() >= DISK_POLL {
                let guard = self.guard(app);
                match self.wait(guard, || app.poll_disk())? {
                    Some(DiskPoll::Reloaded) => {
                        self.record(|r| r.reload());
                        dirty = true;
                    }
                    Some(DiskPoll::Waiting) => dirty = true,
                    _ => {}
                }
                last_poll = Instant::now();
            }
        }
    }

    /// What quitting during the work on `app` drops; also takes the app's planning progress
    /// for the busy box, which is drawn while the app is on the worker.
    fn guard(&mut self, app: &App) -> Guard {
        self.progress = Some(app.world().progress());
        if app.unsaved() {
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
}
