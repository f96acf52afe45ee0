//! The terminal front end: raw mode, the alternate screen and mouse capture, always undone
//! on quit, on Ctrl-C, on SIGTERM/SIGHUP/SIGINT and on a panic.

use std::io::{self, stdout};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crossterm::cursor::Show;
use crossterm::event::{self, DisableMouseCapture, EnableMouseCapture};
use crossterm::execute;
use crossterm::terminal::{self, EnterAlternateScreen, LeaveAlternateScreen};

use crate::app::App;

/// How often travel and autoplay advance.
const TICK: Duration = Duration::from_millis(60);
/// How often the level file is checked for outside changes.
const DISK_POLL: Duration = Duration::from_millis(400);

/// Environment variable that injects a panic (`draw` or `turn`), for the restore tests.
pub const PANIC_ENV: &str = "ASTAR_ROGUE_PANIC";

/// Plays `app` in the terminal until the player quits or a signal arrives.
pub fn play(app: &mut App) -> io::Result<()> {
    let inject = std::env::var(PANIC_ENV).unwrap_or_default();
    let stop = Arc::new(AtomicBool::new(false));
    watch_signals(Arc::clone(&stop))?;
    // Our own panic hook rather than ratatui's: its restore prints with `eprintln!`, which
    // panics again (and aborts) when the terminal is gone.
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore_terminal();
        previous(info);
    }));
    let result = enter_terminal().and_then(|mut terminal| {
        let size = terminal.size()?;
        app.size = (size.width, size.height);
        let result = event_loop(&mut terminal, app, &stop, &inject);
        // ratatui's `Drop` for `Terminal` reports a failed cursor restore with `eprintln!`,
        // which panics when the terminal is gone; `restore_terminal` shows the cursor instead.
        std::mem::forget(terminal);
        result
    });
    restore_terminal();
    result
}

/// Raw mode, the alternate screen and mouse capture, and a terminal to draw on.
fn enter_terminal() -> io::Result<ratatui::DefaultTerminal> {
    terminal::enable_raw_mode()?;
    execute!(stdout(), EnterAlternateScreen, EnableMouseCapture)?;
    ratatui::Terminal::new(ratatui::backend::CrosstermBackend::new(stdout()))
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

/// On SIGTERM, SIGHUP or SIGINT: ask the main loop to stop; if it has not within
/// [`SIGNAL_GRACE`], restore the terminal and exit from here. The main loop can be stuck: when
/// the terminal disappears (a closed window, `tmux kill-server`), crossterm 0.29's event
/// reader spins forever on a tty that reads EOF and `event::poll` never returns
/// (crossterm-rs/crossterm#793), which left an orphaned game burning a core.
fn watch_signals(stop: Arc<AtomicBool>) -> io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGTERM, SIGHUP, SIGINT])?;
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            if signals.forever().next().is_some() {
                stop.store(true, Ordering::Relaxed);
                std::thread::sleep(SIGNAL_GRACE);
                restore_terminal();
                std::process::exit(0);
            }
        })?;
    Ok(())
}

/// Draws, waits for input, and ticks, until the app stops running or a signal arrives.
///
/// `inject` is the [`PANIC_ENV`] test hook: `draw` panics while drawing, `turn` once a turn
/// has been played, so the restore tests see both kinds of crash.
fn event_loop(
    terminal: &mut ratatui::DefaultTerminal,
    app: &mut App,
    stop: &AtomicBool,
    inject: &str,
) -> io::Result<()> {
    let panic_in_draw = inject == "draw";
    let panic_after_turn = inject == "turn";
    let mut last_tick = Instant::now();
    let mut last_poll = Instant::now();
    while app.running && !stop.load(Ordering::Relaxed) {
        terminal.draw(|f| {
            f.render_widget(&*app, f.area());
            assert!(
                !panic_in_draw,
                "injected panic in drawing ({PANIC_ENV}=draw)"
            );
        })?;
        let wait = if app.is_busy() {
            TICK.saturating_sub(last_tick.elapsed())
        } else {
            DISK_POLL
        };
        if event::poll(wait)? {
            let ev = event::read()?;
            app.handle_event(&ev);
            assert!(
                !(panic_after_turn && app.world.turn() > 0),
                "injected panic after a turn ({PANIC_ENV}=turn)"
            );
        }
        if app.is_busy() && last_tick.elapsed() >= TICK {
            app.tick();
            last_tick = Instant::now();
        }
        if last_poll.elapsed() >= DISK_POLL {
            app.poll_disk();
            last_poll = Instant::now();
        }
    }
    Ok(())
}
