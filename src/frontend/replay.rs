//! Watching a recording in the terminal (`astar-rogue replay FILE.keys`), as Brogue's
//! viewer plays its recordings: at a chosen speed, paused, one input at a time, faster or
//! slower, or straight to a turn; while paused, the game's own keys (the overlay, look mode,
//! the selection, the help, the messages) look into it without changing the replay.
//!
//! The [`Replay`] steps the recording on the very [`App`] that `astar-rogue script` drives,
//! input by input as `script --frames all` does, so the frame after each input is the one
//! `script` prints for it. Looking into a paused replay works on a copy of the app, which
//! is dropped when the replay goes on.

use std::io;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossterm::event::{self, Event, KeyCode};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::widgets::Widget;

use super::script::{self, Action as Token, RunOptions, Script, ScriptError};
use super::term;
use crate::app::keymap::{self, Action, Context};
use crate::app::{App, Input, Mode};

/// The speeds a replay plays at, in inputs a second.
pub const SPEEDS: [u32; 10] = [1, 2, 5, 10, 20, 50, 100, 200, 500, 2000];
/// The speed a replay starts at (an index into [`SPEEDS`]).
pub const DEFAULT_SPEED: usize = 3;
/// Most ticks run after an input of a script without `#! ticks: manual`, as `script` runs.
const MAX_TICKS: u32 = 100_000;

/// The actions the game's keys may take in a paused replay: those that only look.
fn looks_only(action: Action, mode: Mode) -> bool {
    use Action as A;
    match action {
        A::Move(..) => mode == Mode::Look,
        A::ToggleOverlay
        | A::TogglePath
        | A::Look
        | A::Back
        | A::NextMonster
        | A::PrevMonster
        | A::StepBack
        | A::StepForward
        | A::StepStart
        | A::StepEnd
        | A::CycleLayer
        | A::ToggleFollow
        | A::ToggleSight
        | A::Help
        | A::History
        | A::NextPage
        | A::PrevPage
        | A::Close
        | A::Scroll(_)
        | A::ScrollPage(_)
        | A::ScrollEnd(_) => true,
        _ => false,
    }
}

/// A recording being replayed, one input at a time.
pub struct Replay {
    script: Script,
    options: RunOptions,
    /// Every input in order: (step index), a repeat counted once per repeat.
    units: Vec<usize>,
    /// How many units have been played.
    at: usize,
    /// The replayed game.
    app: App,
    /// A copy to look into while paused, if the player has.
    inspect: Option<App>,
    /// Whether the replay ended early: the recorded game quit.
    quit: bool,
}

impl Replay {
    /// Opens the recording at `path`, as `astar-rogue script` would run it with `options`.
    pub fn open(path: &Path, options: &RunOptions) -> Result<Replay, ScriptError> {
        let mut script = script::load(path)?;
        if let Some(note) = super::script::carried_level_note(&script, options) {
            super::script::say_note(&note);
        }
        script.header.styles |= options.styles;
        let units = script
            .steps
            .iter()
            .enumerate()
            .filter(|(_, s)| !matches!(s.action, Token::Snap(_)))
            .flat_map(|(i, s)| std::iter::repeat_n(i, s.repeat as usize))
            .collect();
        let app = super::script::start_app(&script, options)?;
        Ok(Replay {
            script,
            options: options.clone(),
            units,
            at: 0,
            app,
            inspect: None,
            quit: false,
        })
    }

    /// Inputs in the recording.
    pub fn len(&self) -> usize {
        self.units.len()
    }

    /// Whether the recording has no input.
    pub fn is_empty(&self) -> bool {
        self.units.is_empty()
    }

    /// Inputs played so far.
    pub fn at(&self) -> usize {
        self.at
    }

    /// Whether every input has been played (or the recorded game quit).
    pub fn done(&self) -> bool {
        self.quit || self.at >= self.units.len()
    }

    /// The game as shown: the copy looked into while paused, else the replayed game.
    pub fn app(&self) -> &App {
        self.inspect.as_ref().unwrap_or(&self.app)
    }

    /// The replayed game itself.
    pub fn replayed(&self) -> &App {
        &self.app
    }

    /// Plays the next input, exactly as `script` plays it; false at the end.
    pub fn step(&mut self) -> bool {
        if self.done() {
            return false;
        }
        self.inspect = None;
        let step = &self.script.steps[self.units[self.at]];
        let app = &mut self.app;
        match &step.action {
            Token::Event(e) => _ = app.drive(&Input::Event(e.clone())),
            Token::Resize(w, h) => _ = app.drive(&Input::Event(Event::Resize(*w, *h))),
            Token::Reload => _ = app.drive(&Input::Reload),
            Token::Tick => _ = app.drive(&Input::Tick),
            Token::Snap(_) => {}
        }
        let mut ticks = 0;
        while !self.script.header.manual_ticks && app.is_busy() && ticks < MAX_TICKS {
            app.drive(&Input::Tick);
            ticks += 1;
        }
        self.at += 1;
        if !app.front().is_running() {
            self.quit = true;
        }
        true
    }

    /// Back to the recording's start.
    pub fn restart(&mut self) -> Result<(), ScriptError> {
        self.app = super::script::start_app(&self.script, &self.options)?;
        self.inspect = None;
        self.at = 0;
        self.quit = false;
        Ok(())
    }

    /// Plays on (from the start when it is behind) until the game reaches `turn` or the
    /// recording ends; whether it got there.
    pub fn seek_turn(&mut self, turn: u32) -> Result<bool, ScriptError> {
        if turn < self.app.world().turn() || (turn == 0 && self.at > 0) {
            self.restart()?;
        }
        while self.app.world().turn() < turn {
            if !self.step() {
                return Ok(false);
            }
        }
        self.inspect = None;
        Ok(true)
    }

    /// Looks into the paused replay with a key of the game: only keys that look (the
    /// overlay, look mode, the selection, the help, the messages) are taken, on a copy of
    /// the game. Whether the key was taken.
    pub fn look(&mut self, event: &Event) -> bool {
        let Event::Key(key) = event else {
            return false;
        };
        let view = self.inspect.get_or_insert_with(|| self.app.clone());
        match keymap::lookup(&view.ui().settings().bindings, view.contexts(), key) {
            Some(action) if looks_only(action, view.screen().mode()) => {
                view.drive(&Input::Event(event.clone()));
                true
            }
            _ => false,
        }
    }

    /// The frame of the game as shown, at the game's own size.
    pub fn frame(&self) -> Buffer {
        let mut buf = Buffer::empty(Rect::default());
        self.render(&mut buf);
        buf
    }

    /// Draws the frame of the game as shown into `buf`, made the game's own size: a
    /// terminal smaller than the recording shows the part that fits of the frame `script`
    /// prints, not a frame laid out anew.
    pub fn render(&self, buf: &mut Buffer) {
        let app = self.app();
        let (w, h) = app.ui().size();
        let area = Rect::new(0, 0, w, h);
        buf.resize(area);
        buf.reset();
        app.render(area, buf);
    }
}

/// The viewer's own state: speed, pause, a turn being typed.
struct Viewer {
    speed: usize,
    playing: bool,
    /// The turn being typed after `g`.
    prompt: Option<String>,
    /// A line to show in the status bar until the next key.
    said: Option<String>,
    /// Inputs owed to the speed since the last step.
    clock: Instant,
}

impl Viewer {
    fn status(&self, replay: &Replay, width: usize) -> String {
        let app = replay.replayed();
        let w = app.world();
        let state = if let Some(p) = &self.prompt {
            format!("jump to turn: {p}_  Enter jumps, Esc cancels")
        } else if let Some(s) = &self.said {
            s.clone()
        } else {
            let run = if replay.done() {
                "end".to_string()
            } else if self.playing {
                format!("▶ {}/s", SPEEDS[self.speed])
            } else {
                "paused".to_string()
            };
            let keys = &app.ui().settings().bindings;
            let hints = if self.playing {
                keymap::hints(keys, &[Context::Replay])
            } else {
                // The game's own keys look into it: the player's, as the game names them.
                let look = [Action::ToggleOverlay, Action::Look, Action::NextMonster]
                    .map(|a| keys.key_of(Context::Play, a))
                    .join(" ");
                format!("{}  {look} look", keymap::hints(keys, &[Context::Replay]))
            };
            format!(
                "REPLAY {run}  turn {}  depth {}  input {}/{}  {hints}",
                w.turn(),
                w.run().depth,
                replay.at(),
                replay.len()
            )
        };
        state.chars().take(width).collect()
    }
}

/// Plays `replay` in the terminal until the viewer is left; starts paused when `paused`,
/// at `speed` (an index into [`SPEEDS`]). The exit code: 0, or 128 + a signal's number.
///
/// The terminal is the game's: set up, restored and answering signals by the game's own
/// steps (see `term`), Ctrl-Z and SIGTSTP suspending it until `fg`.
pub fn watch(mut replay: Replay, speed: usize, paused: bool) -> io::Result<i32> {
    let flags = Arc::new(term::Flags::default());
    // As the game does: the signals that end the game end the viewer, restoring the
    // terminal first; raw mode, the alternate screen and mouse buttons only (no report for
    // every move of the pointer, each of which would redraw the whole frame). It has no
    // edits to keep and nothing to tell when it ends.
    let watched = (Arc::clone(&flags), Arc::default(), None);
    term::in_terminal(
        watched,
        || {},
        |terminal| view(terminal, &flags, &mut replay, speed, paused),
    )
}

/// The viewer's loop, on a terminal set up.
fn view(
    terminal: &mut ratatui::DefaultTerminal,
    flags: &term::Flags,
    replay: &mut Replay,
    speed: usize,
    paused: bool,
) -> io::Result<i32> {
    let no_color = term::no_color();
    let mut v = Viewer {
        speed: speed.min(SPEEDS.len() - 1),
        playing: !paused,
        prompt: None,
        said: None,
        clock: Instant::now(),
    };
    // The frame of a recording larger than the terminal, drawn whole and shown in part.
    let mut larger = Buffer::empty(Rect::default());
    let mut dirty = true;
    loop {
        let n = flags.stop();
        if n != 0 {
            return Ok(128 + n);
        }
        if term::job_control(terminal, flags, || {})? {
            dirty = true;
            // The time stopped is not owed to the speed.
            v.clock = Instant::now();
        }
        dirty |= v.advance(replay);
        if dirty {
            v.draw(terminal, replay, &mut larger, no_color)?;
            dirty = false;
        }
        if !event::poll(Duration::from_millis(10))? {
            continue;
        }
        let ev = event::read()?;
        dirty = true;
        v.said = None;
        let Event::Key(key) = &ev else {
            continue;
        };
        if key.kind == event::KeyEventKind::Release {
            continue;
        }
        if v.prompt.is_some() {
            v.type_turn(replay, key.code);
            continue;
        }
        if let Some(code) = v.key(terminal, flags, replay, &ev)? {
            return Ok(code);
        }
    }
}

impl Viewer {
    /// Steps the replay as far as the speed owes, whether it did.
    fn advance(&mut self, replay: &mut Replay) -> bool {
        let mut stepped = false;
        if self.playing && !replay.done() {
            let per = Duration::from_secs_f64(1.0 / f64::from(SPEEDS[self.speed]));
            let mut steps = 0;
            while self.clock.elapsed() >= per && steps < 1000 {
                replay.step();
                self.clock += per;
                steps += 1;
                stepped = true;
            }
            if replay.done() {
                self.playing = false;
            }
        } else {
            self.clock = Instant::now();
        }
        stepped
    }

    /// Draws the replayed game and the status line.
    fn draw(
        &self,
        terminal: &mut ratatui::DefaultTerminal,
        replay: &Replay,
        larger: &mut Buffer,
        no_color: bool,
    ) -> io::Result<()> {
        terminal.draw(|f| {
            let area = f.area();
            let (w, h) = replay.app().ui().size();
            if w <= area.width && h <= area.height {
                f.render_widget(replay.app(), Rect::new(area.x, area.y, w, h));
            } else {
                replay.render(larger);
                copy_into(larger, f.buffer_mut(), area);
            }
            let buf = f.buffer_mut();
            // Below the game when the terminal has room, else over its top row
            // (the map's title): the bottom row is the look line.
            let row = if h < area.height { h } else { 0 };
            let line = self.status(replay, usize::from(area.width));
            let style = Style::new().add_modifier(Modifier::REVERSED);
            for x in area.x..area.right() {
                buf[(x, area.y + row)].reset();
                buf[(x, area.y + row)].set_style(style);
            }
            buf.set_string(area.x, area.y + row, line, style);
            if no_color {
                crate::view::strip_colours(buf);
            }
        })?;
        Ok(())
    }

    /// A key typed at the jump prompt: a digit, a correction, the jump or leaving it.
    fn type_turn(&mut self, replay: &mut Replay, code: KeyCode) {
        let Some(typed) = &mut self.prompt else {
            return;
        };
        match code {
            KeyCode::Char(c) if c.is_ascii_digit() && typed.len() < 9 => typed.push(c),
            KeyCode::Backspace => {
                typed.pop();
            }
            KeyCode::Enter => {
                let turn: u32 = typed.parse().unwrap_or(0);
                self.prompt = None;
                self.playing = false;
                self.said = Some(match replay.seek_turn(turn) {
                    Ok(true) => format!("at turn {turn}: paused"),
                    Ok(false) => format!(
                        "the recording ends at turn {}",
                        replay.replayed().world().turn()
                    ),
                    Err(e) => format!("cannot go back: {e}"),
                });
            }
            KeyCode::Esc => self.prompt = None,
            _ => {}
        }
    }

    /// A key of the viewer's or of the game's, which look into it; the exit code when it
    /// leaves the viewer.
    fn key(
        &mut self,
        terminal: &mut ratatui::DefaultTerminal,
        flags: &term::Flags,
        replay: &mut Replay,
        ev: &Event,
    ) -> io::Result<Option<i32>> {
        let Event::Key(key) = ev else {
            return Ok(None);
        };
        let keys = &replay.replayed().ui().settings().bindings;
        match keymap::lookup(keys, crate::app::config::REPLAY_STACK, key) {
            // C-c is the table's own (it always quits), q the viewer's.
            Some(Action::ReplayQuit | Action::Interrupt) => return Ok(Some(0)),
            // In raw mode Ctrl-Z is a key, not SIGTSTP: suspended as the game is.
            Some(Action::Suspend) => {
                term::suspend(terminal, flags)?;
                self.clock = Instant::now();
            }
            Some(Action::ReplayPause) => {
                self.playing = !self.playing && !replay.done();
                self.clock = Instant::now();
            }
            Some(Action::ReplayStep) => {
                self.playing = false;
                replay.step();
            }
            Some(Action::ReplayFaster) => self.speed = (self.speed + 1).min(SPEEDS.len() - 1),
            Some(Action::ReplaySlower) => self.speed = self.speed.saturating_sub(1),
            Some(Action::ReplayJump) => self.prompt = Some(String::new()),
            Some(Action::ReplayStart) => {
                self.playing = false;
                if let Err(e) = replay.restart() {
                    self.said = Some(format!("cannot go back: {e}"));
                }
            }
            _ => {
                // The game's keys look into it, pausing it first.
                if replay.look(ev) {
                    self.playing = false;
                }
            }
        }
        Ok(None)
    }
}

/// Copies the frame into the terminal's buffer from its top-left cell, as far as it fits.
fn copy_into(frame: &Buffer, buf: &mut Buffer, area: Rect) {
    let w = frame.area.width.min(area.width);
    let h = frame.area.height.min(area.height);
    for y in 0..h {
        for x in 0..w {
            buf[(area.x + x, area.y + y)] = frame[(x, y)].clone();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_paused_status_names_the_players_keys_for_looking_in() {
        let dir = std::env::temp_dir().join(format!("astar-replay-status-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let config = dir.join("keys.toml");
        std::fs::write(
            &config,
            "[keys.playing]\noverlay = [\"O\"]\nlook = [\"F5\"]\nnext_monster = [\"F6\"]\n",
        )
        .unwrap();
        let recording = dir.join("run.keys");
        let level = repo_level().display().to_string();
        std::fs::write(
            &recording,
            format!("#! level: {level}\n#! size: 80x24\n#! config: keys.toml\nl l\n"),
        )
        .unwrap();
        let replay = Replay::open(&recording, &RunOptions::default()).unwrap();
        let viewer = Viewer {
            speed: DEFAULT_SPEED,
            playing: false,
            prompt: None,
            said: None,
            clock: Instant::now(),
        };
        let status = viewer.status(&replay, 200);
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(status.ends_with("  O F5 F6 look"), "{status}");
    }

    /// The repository's default level, by its absolute path.
    fn repo_level() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/default.txt")
    }
}
