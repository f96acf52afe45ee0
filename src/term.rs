//! The terminal front end: raw mode, the alternate screen and mouse capture, always undone
//! on quit, on Ctrl-C, on SIGTERM/SIGHUP/SIGINT and on a panic.

use std::io::{self, stdout};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use ratatui::crossterm::event::{self, DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::execute;

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
    if inject == "turn" {
        crate::game::inject_turn_panic();
    }
    let stop = Arc::new(AtomicBool::new(false));
    for sig in [
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGHUP,
        signal_hook::consts::SIGINT,
    ] {
        signal_hook::flag::register(sig, Arc::clone(&stop))?;
    }
    // Mouse capture is ours to undo; ratatui's own hook (installed by init) restores the rest.
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = execute!(stdout(), DisableMouseCapture);
        previous(info);
    }));
    let mut terminal = ratatui::try_init()?;
    let result = execute!(stdout(), EnableMouseCapture).and_then(|()| {
        let size = terminal.size()?;
        app.size = (size.width, size.height);
        run(&mut terminal, app, &stop, inject == "draw")
    });
    let _ = execute!(stdout(), DisableMouseCapture);
    ratatui::restore();
    result
}

fn run(
    terminal: &mut ratatui::DefaultTerminal,
    app: &mut App,
    stop: &AtomicBool,
    panic_in_draw: bool,
) -> io::Result<()> {
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
