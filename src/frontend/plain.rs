//! The plain front end (`play --plain`): the same game as the terminal's, over plain lines
//! on standard input and output, for a screen reader, a braille display or a pipe. No
//! terminal is needed and no escape sequence is ever written.
//!
//! Each line of input is one command: keys named as scripts name them (the script runner's
//! own parser reads them, so `l`, `.`, `Z`, `F h` and `3*.` mean what they mean in a
//! script), or one of the words `look`, `map`, `search`, `help` and `quit`. After keys, a
//! few short lines say what happened, from the game's log and state: the log's new words,
//! monsters coming into view and where, the hit points and the floor when they change, the
//! screen the game went to, a question it asks, the end of the run.
//!
//! Keys drive the very [`App`] of the terminal through [`App::drive`], each recorded as the
//! terminal records it and handed to the same [`Hooks`] (the kept run's keeper), and
//! travel, resting and exploring run tick by tick to their end as the terminal runs them:
//! the run is kept on leaving exactly as the terminal keeps it, and resumes in either.

mod command;
mod help;
mod lines;
mod look;
mod map;
mod news;
mod search;
mod words;

use std::io::{self, BufRead, Write};
use std::sync::{Arc, Mutex};

use crossterm::event::{Event, KeyEvent};

pub use lines::WIDTH;

use super::record::Recorder;
use super::term::{ENDING_SIGNALS, Ending, Hooks};
use crate::app::keymap::{self, Action};
use crate::app::{App, DiskPoll, Input, Recovery};
use command::Command;
use lines::Lines;
use news::Seen;

/// The screen size a new run plays with: the size scripts play in when they name none.
/// What depends on it (a generated level's size, the help's pages) is recorded with it.
pub const SIZE: (u16, u16) = (80, 24);
/// Most ticks of travel, resting, exploring or autoplay after one key, as the script
/// runner allows.
const MAX_TICKS: u32 = 100_000;
/// The longest line of input read: longer ones are refused whole.
const MAX_LINE: usize = 64 * 1024;

/// The unsaved edits to keep if a signal ends the game, renewed after every command.
type RecoverySlot = Arc<Mutex<Option<Recovery>>>;

/// Plays over standard input and output until the input ends, `quit`, or the game is left
/// (a quit answered, Ctrl-C): the same game as [`super::term::play_kept`], from
/// `make_app` at `size`, with every input recorded by `recorder` and told to `hooks`. A
/// signal that ends the process keeps the run (through `hooks`) and exits with 128 + its
/// number.
pub fn play_kept(
    make_app: impl FnOnce((u16, u16), Arc<crate::game::Progress>) -> App,
    recorder: Arc<Mutex<Recorder>>,
    hooks: Option<Arc<dyn Hooks>>,
    size: (u16, u16),
) -> io::Result<Ending> {
    let recovery: RecoverySlot = Arc::default();
    watch_signals(Arc::clone(&recorder), hooks.clone(), Arc::clone(&recovery))?;
    let stdin = io::stdin();
    // Not locked for the game: the signal watcher may have a last line to write.
    let mut out = io::stdout();
    run(
        make_app,
        &recorder,
        hooks.as_deref(),
        size,
        &mut stdin.lock(),
        &mut out,
        &recovery,
    )
}

/// Ends the process on a signal that ends it: the recording as it stands, the unsaved
/// edits in a recovery file, the run kept by the hooks. The main thread may be waiting for
/// input, which a signal does not interrupt.
fn watch_signals(
    recorder: Arc<Mutex<Recorder>>,
    hooks: Option<Arc<dyn Hooks>>,
    recovery: RecoverySlot,
) -> io::Result<()> {
    let mut signals = signal_hook::iterator::Signals::new(ENDING_SIGNALS)?;
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            if let Some(n) = signals.forever().next() {
                if let Ok(mut r) = recorder.lock() {
                    r.flush();
                }
                let edits = recovery.lock().ok().and_then(|mut s| s.take());
                if let Some(r) = edits {
                    let _ = writeln!(io::stderr(), "{}", kept_edits(&r));
                }
                if let Some(h) = &hooks {
                    let _ = h.ending();
                }
                std::process::exit(128 + n);
            }
        })?;
    Ok(())
}

/// Ends a kept run's game as [`super::keep::Keeper::finish_and_say`] does, in plain
/// lines: what was kept on standard output, why the run could not be kept on standard
/// error. Returns whether it was kept.
pub fn finish(keeper: &super::keep::Keeper) -> bool {
    match keeper.finish() {
        Ok(said) => {
            if !said.is_empty() {
                let mut out = io::stdout();
                // The output may be gone (a closed pipe): the run is kept all the same.
                let _ = Lines::new(&mut out).say(&said).and_then(|()| out.flush());
            }
            true
        }
        Err(why) => {
            let _ = writeln!(io::stderr(), "{why}");
            false
        }
    }
}

/// Writes unsaved edits to their recovery file; what to tell the player.
fn kept_edits(recovery: &Recovery) -> String {
    let shown = crate::text::shown_path(&recovery.path);
    match recovery.write() {
        Ok(()) => format!(
            "Unsaved edits kept in {shown}: the next `astar-rogue play` of the level offers them."
        ),
        Err(e) => format!("Could not keep the unsaved edits in {shown}: {e}"),
    }
}

/// Runs `f` on the recorder unless a panic poisoned it.
fn record(recorder: &Mutex<Recorder>, f: impl FnOnce(&mut Recorder)) {
    if let Ok(mut r) = recorder.lock() {
        f(&mut r);
    }
}

/// The game loop over `input` and `out` (see [`play_kept`]).
pub(crate) fn run(
    make_app: impl FnOnce((u16, u16), Arc<crate::game::Progress>) -> App,
    recorder: &Mutex<Recorder>,
    hooks: Option<&dyn Hooks>,
    size: (u16, u16),
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    recovery: &RecoverySlot,
) -> io::Result<Ending> {
    record(recorder, |r| r.start(size));
    let mut app = make_app(size, Arc::default());
    let mut lines = Lines::new(out);
    let played = Player {
        recorder,
        hooks,
        recovery,
    }
    .play(&mut app, input, &mut lines);
    record(recorder, Recorder::finish);
    // Input that ended (or `quit`) with unsaved edits is no answer to "drop them?": they
    // are kept as a signal keeps them, for the next game to offer.
    if app.front().is_running()
        && let Some(r) = app.session().recovery()
    {
        let said = kept_edits(&r);
        if played.is_ok() {
            lines.say(&said)?;
        } else {
            let _ = writeln!(io::stderr(), "{said}");
        }
    }
    played?;
    lines.flush()?;
    Ok(Ending::Quit)
}

/// What the loop hands every input to.
struct Player<'a> {
    recorder: &'a Mutex<Recorder>,
    hooks: Option<&'a dyn Hooks>,
    recovery: &'a RecoverySlot,
}

impl Player<'_> {
    fn play(&self, app: &mut App, input: &mut dyn BufRead, lines: &mut Lines) -> io::Result<()> {
        intro(app, lines)?;
        lines.flush()?;
        let mut buf = Vec::new();
        loop {
            // The game waits for the next line: the moment the keeper takes the run as it
            // stands, as the terminal's loop does when its queue is empty.
            if let Some(h) = self.hooks {
                h.idle(app);
            }
            let Some(too_long) = read_line(input, &mut buf)? else {
                break;
            };
            let before = Seen::of(app);
            // What the terminal's poll of the level file would have found meanwhile.
            self.poll_disk(app);
            let line = String::from_utf8_lossy(&buf);
            let command = if too_long {
                Command::Bad(format!(
                    "That line is longer than {MAX_LINE} bytes: nothing was done."
                ))
            } else {
                let line = line.trim_end_matches(['\n', '\r']);
                match command::parse(line) {
                    // Not a word or a key: perhaps a command by its name.
                    Command::Bad(answer) => {
                        let bindings = &app.ui().settings().bindings;
                        match command::named(line, app.contexts(), bindings) {
                            Some(Ok(key)) => Command::Keys(vec![(key, 1)]),
                            Some(Err(why)) => Command::Bad(why),
                            None => Command::Bad(answer),
                        }
                    }
                    other => other,
                }
            };
            lines.take_count();
            match command {
                Command::Nothing => {}
                Command::Bad(answer) => lines.say(&answer)?,
                Command::Look => lines.say_all(&look::lines(app))?,
                Command::Map => lines.say_all(&map::lines(app))?,
                Command::Search => lines.say_all(&search::lines(app))?,
                Command::Help(all) => lines.say_all(&help::lines(app, all))?,
                Command::Quit => return Ok(()),
                Command::Keys(keys) => {
                    let refused = self.keys(app, &keys);
                    lines.say_all(&news::lines(app, &before))?;
                    if let Some(why) = refused {
                        lines.say(&why)?;
                    }
                    if !app.front().is_running() {
                        lines.say("You leave the game.")?;
                    } else if lines.take_count() == 0 {
                        lines.say(&quiet(app, &before))?;
                    }
                }
            }
            if let Ok(mut slot) = self.recovery.lock() {
                *slot = app.session().recovery();
            }
            lines.flush()?;
            if !app.front().is_running() {
                break;
            }
        }
        Ok(())
    }

    /// Plays keys, each as many times as asked, until the game is left; what refused a
    /// key, if one was.
    fn keys(&self, app: &mut App, keys: &[(KeyEvent, u32)]) -> Option<String> {
        for &(key, times) in keys {
            for _ in 0..times {
                if !app.front().is_running() {
                    return None;
                }
                let suspends = keymap::lookup(&app.ui().settings().bindings, app.contexts(), &key)
                    == Some(Action::Suspend);
                if suspends {
                    // The terminal takes it before the game does, as a key: there is no
                    // terminal to hand back here.
                    return Some(
                        "Suspending is the terminal's: in plain play your shell's job control stops the game."
                            .into(),
                    );
                }
                self.input(app, Event::Key(key));
            }
        }
        None
    }

    /// One input, as the terminal loop handles it: recorded, driven, committed (as a quit
    /// when it left the game), told to the hooks; then travel and the like to their end.
    fn input(&self, app: &mut App, ev: Event) {
        record(self.recorder, |r| r.event(&ev));
        app.drive(&Input::Event(ev));
        let running = app.front().is_running();
        record(self.recorder, |r| {
            if running {
                r.commit()
            } else {
                r.commit_as_quit()
            }
        });
        self.handled(app);
        let mut ticks = 0;
        while app.is_busy() && ticks < MAX_TICKS {
            record(self.recorder, Recorder::tick);
            app.drive(&Input::Tick);
            self.handled(app);
            ticks += 1;
        }
    }

    fn handled(&self, app: &mut App) {
        if let Some(h) = self.hooks {
            h.handled(app);
        }
    }

    /// Reads the level file again when it changed, as the terminal's poll does, recorded
    /// as it records it.
    fn poll_disk(&self, app: &mut App) {
        match app.poll_disk() {
            DiskPoll::Reloaded => {}
            DiskPoll::Waiting if app.front().keeping() => {}
            DiskPoll::Waiting | DiskPoll::Quiet => return,
        }
        record(self.recorder, Recorder::reload);
        self.handled(app);
    }
}

/// What keys that changed nothing one can tell did: a turn passed, the run is over, or
/// nothing happened.
fn quiet(app: &App, before: &Seen) -> String {
    use crate::app::keymap::Context;
    if news::turn_passed(app, before) {
        return format!("Turn {}.", app.world().turn());
    }
    if app.world().state() != crate::game::GameState::Playing {
        let key = |a| app.ui().key(Context::Play, a);
        return format!(
            "The run is over: {} starts a new run, {} quits.",
            key(Action::Restart),
            key(Action::Quit)
        );
    }
    "Nothing happens.".into()
}

/// Reads a line into `buf`: `None` at the end of input, else whether it was longer than
/// [`MAX_LINE`] (then the rest of it is skipped, and `buf` holds its start).
fn read_line(input: &mut dyn BufRead, buf: &mut Vec<u8>) -> io::Result<Option<bool>> {
    buf.clear();
    let limit = MAX_LINE as u64 + 1;
    if io::Read::take(&mut *input, limit).read_until(b'\n', buf)? == 0 {
        return Ok(None);
    }
    if buf.len() <= MAX_LINE || buf.ends_with(b"\n") {
        return Ok(Some(false));
    }
    let mut rest = Vec::new();
    loop {
        rest.clear();
        let n = io::Read::take(&mut *input, limit).read_until(b'\n', &mut rest)?;
        if n == 0 || rest.ends_with(b"\n") {
            return Ok(Some(true));
        }
    }
}

/// The first lines: how to play here, the news of the game (its welcome, or for a resumed
/// run the front end's notice and the last act), the floor, the hit points and who is in
/// view.
fn intro(app: &App, lines: &mut Lines) -> io::Result<()> {
    lines.say("astar-rogue, plain play: one command a line; help lists them, with the keys.")?;
    let w = app.world();
    let bindings = &app.ui().settings().bindings;
    let now = w.acted_turn();
    for m in w.log().iter().filter(|m| m.turn >= now) {
        lines.say(&crate::view::message_text(bindings, m))?;
    }
    if let Some(notice) = app.front().notice() {
        lines.say(notice)?;
    }
    lines.say(&news::floor_line(app))?;
    lines.say(&format!(
        "HP {} of {}.",
        w.player().hp,
        crate::game::PLAYER_HP
    ))?;
    let me = w.player().pos;
    for m in w.monsters_in_view() {
        lines.say(&format!(
            "{} is in view, {}.",
            words::capital(&crate::content::kinds::a_name(&w.kind(m.kind).name)),
            words::compass(me, m.pos)
        ))?;
    }
    lines.say_all(&news::question(app))
}

#[cfg(test)]
mod tests;
