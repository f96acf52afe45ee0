//! The headless script runner: a script of inputs drives the real [`App`] on ratatui's
//! `TestBackend`, and the rendered frames come out as plain text, byte for byte the same on
//! every run.
//!
//! Syntax: whitespace-separated tokens; `#` starts a comment to the end of the line. A token
//! is a key (`h`, `.`, `?`, `Left`, `Esc`, `F1`, `C-c`, `Hash` for `#`), a mouse action
//! (`click:COL,ROW`, `rclick:COL,ROW`, `drag:COL,ROW`, `rdrag:COL,ROW`, `release:COL,ROW`),
//! `resize:WxH`, `snap` or `snap:NAME`, `reload`, `tick`, or `N*TOKEN` for N repeats.
//! Header lines `#! level: PATH`, `#! size: WxH` and `#! seed: N` make one file a complete
//! reproduction (paths are relative to the script), and `#! config: FILE` plays it with a
//! settings file (never the user's own); `#! ticks: manual` (as recordings say)
//! advances travel and autoplay only at `tick` tokens instead of to the end after each
//! token; `#! runs: kept` (as `play` records) plays as a game whose runs are kept: its
//! questions say so and `r` draws the next run's seed.

use std::io::Write;
use std::path::{Path, PathBuf};

use crossterm::event::{
    Event, KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use serde::Serialize;

use crate::app::{App, Input, OpenError, open_level};
use crate::content::endpoints::BadEndpoint;
use crate::engine::grid::Pos;
use crate::game::Planning;
use crate::text::{LoadError, ParseError, parse_size};

/// Most repeats of one token, and most steps in a whole script, so no script exhausts memory.
pub const MAX_REPEAT: u32 = 1_000_000;
/// Most steps in a script after repeats are expanded.
pub const MAX_STEPS: usize = 5_000_000;
/// Most ticks run after one step while the app is busy (travel, autoplay).
const MAX_TICKS: u32 = 100_000;
/// Largest terminal a script may ask for.
pub const MAX_TERMINAL: u16 = 1000;
/// Largest script file accepted: as large as a save, since a recording carries copies of
/// the floors it reaches (a level is up to 64 MiB); its tokens are bounded apart
/// ([`MAX_STEPS`]).
pub const MAX_SCRIPT_BYTES: u64 = 512 * 1024 * 1024;

/// What one token does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// An input event for the app.
    Event(Event),
    /// Capture the frame, with an optional name.
    Snap(Option<String>),
    /// Resize the terminal.
    Resize(u16, u16),
    /// Reload the level file, as the terminal loop does when it changes on disk.
    Reload,
    /// One tick of travel and autoplay, as the terminal loop runs every 60 ms.
    Tick,
}

/// A token with where it stands in the script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// What it does.
    pub action: Action,
    /// How many times.
    pub repeat: u32,
    /// Its number among the script's tokens, from 1.
    pub token: usize,
    /// Its line, from 1.
    pub line: usize,
}

/// Settings a script carries in its header.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Header {
    /// The level to play.
    pub level: Option<PathBuf>,
    /// Where the `level` header's value stands, for the error when the file cannot be read.
    pub level_at: Option<HeaderValue>,
    /// The terminal size.
    pub size: Option<(u16, u16)>,
    /// The seed.
    pub seed: Option<u64>,
    /// Start in the lab on this query: `(start, goal)`.
    pub lab: Option<(Pos, Pos)>,
    /// Where the `lab` header's value stands, for the error when the level turns out not to
    /// have its cells (only known once the level is open).
    pub lab_at: Option<HeaderValue>,
    /// How the monsters plan (`#! planning: map`), as `play --planning` sets it.
    pub planning: Option<Planning>,
    /// Whether ticks run only at `tick` tokens (`#! ticks: manual`), not to the end of
    /// travel and autoplay after every token.
    pub manual_ticks: bool,
    /// Whether every frame printed carries its styles (`#! styles: on`), see
    /// [`styles_text`].
    pub styles: bool,
    /// Whether the game kept its runs (`#! runs: kept`, as `play` records): its questions
    /// said so and each new run drew the next seed ([`App::set_keeping`]).
    pub kept_runs: bool,
    /// The settings file to play with (`#! config: FILE`); without one, the defaults.
    pub config: Option<PathBuf>,
}

/// Where a header's value stands in its script.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HeaderValue {
    /// The script's name.
    pub file: String,
    /// The header's line, from 1.
    pub line: usize,
    /// The value's first column, from 1.
    pub col: usize,
    /// The header's line.
    pub text: String,
}

impl HeaderValue {
    /// An error about the value, pointing at it.
    pub fn error(&self, message: String) -> ParseError {
        ParseError::new(self.file.clone(), self.line, self.col, message, &self.text)
    }
}

/// A parsed script.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Script {
    /// Its header settings.
    pub header: Header,
    /// Its tokens in order.
    pub steps: Vec<Step>,
    /// What a recording carries (its `#=` lines): none in a hand-written script.
    pub carried: Carried,
}

/// What a recording carries of what it replays (see [`super::record`]): the level and the
/// settings as the game began on them, and the disk's answers in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Carried {
    /// The level's bytes (`#= level KEY`).
    pub level: Option<Vec<u8>>,
    /// The settings file's bytes (`#= config KEY`).
    pub config: Option<Vec<u8>>,
    /// The disk's answers (`#= io JSON`), in order.
    pub io: Vec<crate::session::Io>,
}

impl Carried {
    /// Whether the script carries anything (it is a recording that does).
    pub fn any(&self) -> bool {
        self.level.is_some() || self.config.is_some() || !self.io.is_empty()
    }
}

/// Reads a `#=` line of a recording into what it carries so far: `carry` lines into
/// `bytes` by key, the others into `carried` (disk answers kept as written, their bytes
/// named by key, until every copy is read).
fn carried_line(
    rest: &str,
    bytes: &mut std::collections::HashMap<String, Vec<u8>>,
    carried: &mut Carried,
    answers: &mut Vec<(usize, usize, String)>,
    (n, col0): (usize, usize),
) -> Result<(), (usize, String)> {
    let (kind, value) = rest.split_once(' ').unwrap_or((rest, ""));
    let value_col = col0 + kind.len() + 1;
    let copy = |key: &str| -> Result<Vec<u8>, (usize, String)> {
        bytes.get(key.trim()).cloned().ok_or_else(|| {
            (
                value_col,
                format!("no copy {:?} is carried before this line", key.trim()),
            )
        })
    };
    match kind {
        "carry" => {
            let (key, json) = value.split_once(' ').ok_or_else(|| {
                (
                    value_col,
                    "a carried copy needs a key and its bytes".to_string(),
                )
            })?;
            let text: String = serde_json::from_str(json).map_err(|e| {
                (
                    value_col + key.len() + 1,
                    format!("a carried copy does not read: {e}"),
                )
            })?;
            let data = crate::session::journal::bytes_text::decode(&text).map_err(|e| {
                (
                    value_col + key.len() + 1,
                    format!("a carried copy does not read: {e}"),
                )
            })?;
            if carry_key(&data) != key {
                return Err((
                    value_col,
                    format!("the copy carried as {key} is damaged: its bytes do not match its key"),
                ));
            }
            bytes.insert(key.to_string(), data);
        }
        "level" => carried.level = Some(copy(value)?),
        "config" => carried.config = Some(copy(value)?),
        "io" => answers.push((n, value_col, value.to_string())),
        other => {
            return Err((
                col0,
                format!("unknown carried line {other:?} (known: carry, level, config, io)"),
            ));
        }
    }
    Ok(())
}

/// The key of carried bytes (`#= carry KEY ..`): their FNV-1a hash and their length.
pub fn carry_key(bytes: &[u8]) -> String {
    format!(
        "{:016x}-{}",
        crate::session::data::fnv64(bytes),
        bytes.len()
    )
}

/// A disk answer as a recording writes it, its bytes named `@KEY`, read back with the
/// bytes it names.
fn answer_of(
    json: &str,
    bytes: &std::collections::HashMap<String, Vec<u8>>,
) -> Result<crate::session::Io, AnswerError> {
    fn fill(
        v: &mut serde_json::Value,
        bytes: &std::collections::HashMap<String, Vec<u8>>,
    ) -> Result<(), AnswerError> {
        match v {
            serde_json::Value::Object(map) => {
                for (k, v) in map.iter_mut() {
                    if k == "bytes"
                        && let Some(key) = v.as_str().and_then(|t| t.strip_prefix('@'))
                    {
                        let data = bytes
                            .get(key)
                            .ok_or_else(|| AnswerError::NoCopy(key.to_string()))?;
                        *v = serde_json::Value::String(
                            crate::session::journal::bytes_text::encode(data),
                        );
                    } else {
                        fill(v, bytes)?;
                    }
                }
            }
            serde_json::Value::Array(items) => {
                for v in items {
                    fill(v, bytes)?;
                }
            }
            _ => {}
        }
        Ok(())
    }
    let mut value: serde_json::Value = serde_json::from_str(json).map_err(AnswerError::Json)?;
    fill(&mut value, bytes)?;
    serde_json::from_value(value).map_err(AnswerError::Json)
}

/// Why a carried disk answer (`#= io ..`) cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum AnswerError {
    /// Its bytes name a copy (`@KEY`) that no `#= carry` line gave.
    #[error("no copy {0:?} is carried")]
    NoCopy(String),
    /// It is not the JSON of a disk answer.
    #[error("a disk answer does not read: {0}")]
    Json(#[source] serde_json::Error),
}

/// Parses a script; `file` names it in errors and anchors relative header paths.
pub fn parse(bytes: &[u8], file: &str) -> Result<Script, ParseError> {
    let err = |line: usize, col: usize, msg: String, text: &str| {
        ParseError::new(file.to_string(), line, col, msg, text)
    };
    let base = Path::new(file).parent().unwrap_or(Path::new(""));
    let mut script = Script::default();
    let mut total = 0usize;
    let mut token = 0usize;
    let mut copies = std::collections::HashMap::new();
    let mut answers = Vec::new();
    for item in crate::text::lines(bytes, file) {
        let (n, line) = item?;
        if let Some(rest) = line.trim_start().strip_prefix("#= ") {
            let col0 = line.chars().count() - line.trim_start().chars().count() + 4;
            carried_line(
                rest,
                &mut copies,
                &mut script.carried,
                &mut answers,
                (n, col0),
            )
            .map_err(|(col, m)| err(n, col, m, line))?;
            continue;
        }
        if let Some(rest) = line.trim_start().strip_prefix("#!")
            && script.steps.is_empty()
        {
            let col = line.chars().count() - line.trim_start().chars().count() + 3;
            let (key, value) = rest
                .split_once(':')
                .ok_or_else(|| err(n, col, "header needs `key: value`".into(), line))?;
            let value_col = line[..line.len() - value.trim_start().len()]
                .chars()
                .count()
                + 1;
            let value = value.trim();
            // Where the value stands, for errors found only once the level is open.
            let here = || HeaderValue {
                file: file.to_string(),
                line: n,
                col: value_col,
                text: line.to_string(),
            };
            match key.trim() {
                "level" => {
                    // Quoted when the name needs it (a leading space, a newline): see
                    // `text::quote_path`, which recordings write it with.
                    let path = crate::text::unquote_path(value)
                        .map_err(|e| err(n, col, e.to_string(), line))?;
                    if path.as_os_str().is_empty() {
                        // At the header, as every header error of the parser is.
                        return Err(err(
                            n,
                            col,
                            "empty level: name the level file, e.g. `#! level: pillar.txt`".into(),
                            line,
                        ));
                    }
                    script.header.level = Some(base.join(path));
                    script.header.level_at = Some(here());
                }
                "config" => script.header.config = Some(base.join(value)),
                "size" => {
                    script.header.size =
                        Some(terminal_size(value).map_err(|e| err(n, col, e.to_string(), line))?)
                }
                "seed" => {
                    script.header.seed = Some(
                        value
                            .parse()
                            .map_err(|_| err(n, col, format!("bad seed {value:?}"), line))?,
                    )
                }
                "lab" => {
                    script.header.lab =
                        Some(lab_query(value).map_err(|e| err(n, col, e.to_string(), line))?);
                    script.header.lab_at = Some(here());
                }
                "planning" => {
                    script.header.planning =
                        Some(value.parse().map_err(|m: String| err(n, col, m, line))?)
                }
                "styles" => {
                    script.header.styles = match value {
                        "on" => true,
                        "off" => false,
                        _ => {
                            return Err(err(
                                n,
                                col,
                                format!("bad styles {value:?}: use on or off"),
                                line,
                            ));
                        }
                    }
                }
                "ticks" => {
                    script.header.manual_ticks = match value {
                        "manual" => true,
                        "auto" => false,
                        _ => {
                            return Err(err(
                                n,
                                col,
                                format!("bad ticks {value:?}: use manual or auto"),
                                line,
                            ));
                        }
                    }
                }
                "runs" => {
                    script.header.kept_runs = match value {
                        "kept" => true,
                        "plain" => false,
                        _ => {
                            return Err(err(
                                n,
                                col,
                                format!("bad runs {value:?}: use kept or plain"),
                                line,
                            ));
                        }
                    }
                }
                other => {
                    return Err(err(
                        n,
                        col,
                        format!(
                            "unknown header {other:?} (known: level, size, seed, lab, planning, ticks, styles, config, runs)"
                        ),
                        line,
                    ));
                }
            }
            continue;
        }
        let code = line.split('#').next().unwrap_or("");
        // Columns are counted as the words go by: counting from the start of the line for
        // each token made a line of a million tokens take minutes.
        let mut next_col = 1;
        for word in code.split([' ', '\t']) {
            let col = next_col;
            next_col += word.chars().count() + 1;
            if word.is_empty() {
                continue;
            }
            token += 1;
            let (repeat, body, body_col) = match word.split_once('*') {
                Some((count, body))
                    if !count.is_empty() && count.bytes().all(|b| b.is_ascii_digit()) =>
                {
                    let r: u32 = count
                        .parse()
                        .ok()
                        .filter(|r| (1..=MAX_REPEAT).contains(r))
                        .ok_or_else(|| {
                            err(
                                n,
                                col,
                                format!("repeat count must be 1 to {MAX_REPEAT}"),
                                line,
                            )
                        })?;
                    (r, body, col + count.len() + 1)
                }
                _ => (1, word, col),
            };
            let action = parse_token(body).map_err(|e| err(n, body_col, e.to_string(), line))?;
            if matches!(action, Action::Snap(_)) && repeat > 1 {
                return Err(err(n, col, "a snap cannot be repeated".into(), line));
            }
            total += repeat as usize;
            if total > MAX_STEPS {
                return Err(err(
                    n,
                    col,
                    format!("script expands to more than {MAX_STEPS} steps"),
                    line,
                ));
            }
            script.steps.push(Step {
                action,
                repeat,
                token,
                line: n,
            });
        }
    }
    for (n, col, json) in answers {
        let answer = answer_of(&json, &copies).map_err(|e| {
            ParseError::new(
                file.to_string(),
                n,
                col,
                e.to_string(),
                format!("#= io {json}"),
            )
        })?;
        script.carried.io.push(answer);
    }
    Ok(script)
}

/// A lab query `X1,Y1:X2,Y2`: the start, then the goal.
pub fn lab_query(s: &str) -> Result<(Pos, Pos), TokenError> {
    let bad = || TokenError::LabQuery(s.to_string());
    let (a, b) = s.trim().split_once(':').ok_or_else(bad)?;
    Ok((a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?))
}

/// A terminal size `WxH` within the runner's limits.
pub fn terminal_size(s: &str) -> Result<(u16, u16), TokenError> {
    match parse_size(s) {
        Some((w, h))
            if (1..=usize::from(MAX_TERMINAL)).contains(&w)
                && (1..=usize::from(MAX_TERMINAL)).contains(&h) =>
        {
            Ok((w as u16, h as u16))
        }
        _ => Err(TokenError::TerminalSize(s.to_string())),
    }
}

/// A word of a script or of the command line that does not read; each keeps the word.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    /// Not a lab query `X1,Y1:X2,Y2`.
    #[error("bad lab query {0:?}: expected X1,Y1:X2,Y2 (start:goal)")]
    LabQuery(String),
    /// Not a terminal size within the runner's limits.
    #[error("bad terminal size {0:?}: expected WxH, 1x1 to {max}x{max}", max = MAX_TERMINAL)]
    TerminalSize(String),
    /// A mouse token's cell is not `COL,ROW`.
    #[error("bad cell {0:?}: expected COL,ROW")]
    Cell(String),
    /// `C-` with other than one character.
    #[error("unknown token {0:?}: C- takes one character, as in C-c")]
    Control(String),
    /// A `NAME:ARG` token of no known name, or an `F` key past F12.
    #[error("unknown token {0:?}")]
    Unknown(String),
    /// No key name nor token at all.
    #[error(
        "unknown token {0:?}: expected a key (h, Left, C-c, F1, Hash), click:C,R, rclick:C,R, drag:C,R, rdrag:C,R, release:C,R, resize:WxH, snap[:NAME], reload, tick or N*TOKEN"
    )]
    NotAToken(String),
    /// Not one of the frame choices.
    #[error("{0:?} is not a frame choice: use last, snaps or all")]
    Frames(String),
}

fn key(code: KeyCode, modifiers: KeyModifiers) -> Action {
    Action::Event(Event::Key(KeyEvent::new(code, modifiers)))
}

fn mouse(kind: MouseEventKind, at: &str) -> Result<Action, TokenError> {
    let (c, r) = at
        .split_once(',')
        .and_then(|(c, r)| Some((c.parse::<u16>().ok()?, r.parse::<u16>().ok()?)))
        .ok_or_else(|| TokenError::Cell(at.to_string()))?;
    Ok(Action::Event(Event::Mouse(MouseEvent {
        kind,
        column: c,
        row: r,
        modifiers: KeyModifiers::NONE,
    })))
}

/// Parses one token (without its repeat count).
pub fn parse_token(t: &str) -> Result<Action, TokenError> {
    let none = KeyModifiers::NONE;
    let mut chars = t.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        let m = if c.is_ascii_uppercase() {
            KeyModifiers::SHIFT
        } else {
            none
        };
        return Ok(key(KeyCode::Char(c), m));
    }
    if let Some(c) = t.strip_prefix("C-") {
        let mut cs = c.chars();
        return match (cs.next(), cs.next()) {
            (Some(c), None) => Ok(key(
                KeyCode::Char(c.to_ascii_lowercase()),
                KeyModifiers::CONTROL,
            )),
            _ => Err(TokenError::Control(t.to_string())),
        };
    }
    if let Some((name, arg)) = t.split_once(':') {
        return match name {
            "click" => mouse(MouseEventKind::Down(MouseButton::Left), arg),
            "rclick" => mouse(MouseEventKind::Down(MouseButton::Right), arg),
            "drag" => mouse(MouseEventKind::Drag(MouseButton::Left), arg),
            "rdrag" => mouse(MouseEventKind::Drag(MouseButton::Right), arg),
            "release" => mouse(MouseEventKind::Up(MouseButton::Left), arg),
            "resize" => terminal_size(arg).map(|(w, h)| Action::Resize(w, h)),
            "snap" if !arg.is_empty() => Ok(Action::Snap(Some(arg.to_string()))),
            _ => Err(TokenError::Unknown(t.to_string())),
        };
    }
    let code = match t {
        "snap" => return Ok(Action::Snap(None)),
        "reload" => return Ok(Action::Reload),
        "tick" => return Ok(Action::Tick),
        "Hash" => KeyCode::Char('#'),
        "Space" => KeyCode::Char(' '),
        "Left" => KeyCode::Left,
        "Right" => KeyCode::Right,
        "Up" => KeyCode::Up,
        "Down" => KeyCode::Down,
        "Enter" => KeyCode::Enter,
        "Esc" => KeyCode::Esc,
        "Tab" => KeyCode::Tab,
        "BackTab" => KeyCode::BackTab,
        "Backspace" => KeyCode::Backspace,
        "Delete" => KeyCode::Delete,
        "Insert" => KeyCode::Insert,
        "Home" => KeyCode::Home,
        "End" => KeyCode::End,
        "PageUp" => KeyCode::PageUp,
        "PageDown" => KeyCode::PageDown,
        f if f.starts_with('F') => match f[1..].parse::<u8>() {
            Ok(n @ 1..=12) => KeyCode::F(n),
            _ => return Err(TokenError::Unknown(t.to_string())),
        },
        _ => return Err(TokenError::NotAToken(t.to_string())),
    };
    let m = if code == KeyCode::BackTab {
        KeyModifiers::SHIFT
    } else {
        none
    };
    Ok(key(code, m))
}

/// The token that [`parse_token`] reads back as `event`, or `None` for an event a script
/// cannot express (mouse moves and scrolls, focus, paste, Ctrl with a named key, media
/// keys). Keys keep what the app looks at: the key and whether Ctrl is held.
pub fn token(event: &Event) -> Option<String> {
    match event {
        Event::Key(k) => key_token(k),
        Event::Mouse(m) => {
            let kind = match m.kind {
                MouseEventKind::Down(MouseButton::Left) => "click",
                // The app treats every button but the left one alike.
                MouseEventKind::Down(_) => "rclick",
                MouseEventKind::Drag(MouseButton::Left) => "drag",
                MouseEventKind::Drag(_) => "rdrag",
                MouseEventKind::Up(_) => "release",
                _ => return None,
            };
            Some(format!("{kind}:{},{}", m.column, m.row))
        }
        Event::Resize(w, h) => Some(format!("resize:{w}x{h}")),
        _ => None,
    }
}

fn key_token(k: &KeyEvent) -> Option<String> {
    if k.modifiers.contains(KeyModifiers::CONTROL) {
        return match k.code {
            // `#` would start a comment and whitespace would end the token.
            KeyCode::Char(c) if c != '#' && !c.is_whitespace() && !c.is_control() => {
                Some(format!("C-{}", c.to_ascii_lowercase()))
            }
            _ => None,
        };
    }
    Some(match k.code {
        KeyCode::Char(' ') => "Space".into(),
        KeyCode::Char('#') => "Hash".into(),
        KeyCode::Char(c) if c.is_whitespace() || c.is_control() => return None,
        KeyCode::Char(c) => c.to_string(),
        KeyCode::F(n @ 1..=12) => format!("F{n}"),
        KeyCode::Left => "Left".into(),
        KeyCode::Right => "Right".into(),
        KeyCode::Up => "Up".into(),
        KeyCode::Down => "Down".into(),
        KeyCode::Enter => "Enter".into(),
        KeyCode::Esc => "Esc".into(),
        KeyCode::Tab => "Tab".into(),
        KeyCode::BackTab => "BackTab".into(),
        KeyCode::Backspace => "Backspace".into(),
        KeyCode::Delete => "Delete".into(),
        KeyCode::Insert => "Insert".into(),
        KeyCode::Home => "Home".into(),
        KeyCode::End => "End".into(),
        KeyCode::PageUp => "PageUp".into(),
        KeyCode::PageDown => "PageDown".into(),
        _ => return None,
    })
}

/// Which frames the runner prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Frames {
    /// Only the final frame.
    #[default]
    Last,
    /// Every `snap` and the final frame.
    Snaps,
    /// A frame after every step.
    All,
}

impl Frames {
    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Frames::Last => "last",
            Frames::Snaps => "snaps",
            Frames::All => "all",
        }
    }
}

impl std::fmt::Display for Frames {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Frames {
    type Err = TokenError;

    /// Parses `last`, `snaps` or `all`.
    fn from_str(s: &str) -> Result<Self, TokenError> {
        [Frames::Last, Frames::Snaps, Frames::All]
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| TokenError::Frames(s.to_string()))
    }
}

/// Output settings of a run.
#[derive(Debug, Clone, Copy, Default)]
pub struct Output {
    /// Which frames to print.
    pub frames: Frames,
    /// Whether to print a JSON state line after every turn.
    pub state: bool,
}

/// The rendered cells of a buffer as text, one line per row.
pub fn buffer_text(buf: &Buffer) -> String {
    let area = buf.area;
    let mut out = String::with_capacity(usize::from(area.width + 1) * usize::from(area.height));
    for y in area.top()..area.bottom() {
        for x in area.left()..area.right() {
            out.push_str(buf[(x, y)].symbol());
        }
        out.push('\n');
    }
    out
}

/// The styles of a buffer in a compact, diffable form: one character per cell, lined up
/// with the frame's text (a space for the default style, else a letter), then a legend line
/// naming each letter's foreground, background and modifiers. Letters are given in order
/// of first appearance, so the same frame always reads the same, and a cell whose shading
/// changes shows up in a diff at its own row and column.
pub fn styles_text(buf: &Buffer) -> String {
    use ratatui::style::{Color, Modifier};
    const LETTERS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let area = buf.area;
    let mut seen: Vec<(Color, Color, Modifier)> = Vec::new();
    let mut grid = String::with_capacity(usize::from(area.width + 1) * usize::from(area.height));
    for y in area.top()..area.bottom() {
        for x in area.left()..area.right() {
            let cell = &buf[(x, y)];
            let key = (cell.fg, cell.bg, cell.modifier);
            if key == (Color::Reset, Color::Reset, Modifier::empty()) {
                grid.push(' ');
                continue;
            }
            let i = seen.iter().position(|k| *k == key).unwrap_or_else(|| {
                seen.push(key);
                seen.len() - 1
            });
            // Past 62 styles in one frame (never seen), letters repeat with a mark.
            grid.push(LETTERS.chars().nth(i % LETTERS.len()).unwrap_or('?'));
        }
        grid.push('\n');
    }
    let legend: Vec<String> = seen
        .iter()
        .enumerate()
        .map(|(i, (fg, bg, m))| {
            let mut parts = Vec::new();
            if *fg != Color::Reset {
                parts.push(format!("fg:{fg}"));
            }
            if *bg != Color::Reset {
                parts.push(format!("bg:{bg}"));
            }
            for (name, _) in m.iter_names() {
                parts.push(name.to_ascii_lowercase());
            }
            let letter = LETTERS.chars().nth(i % LETTERS.len()).unwrap_or('?');
            format!("{letter}={}", parts.join(","))
        })
        .collect();
    grid.push_str(&format!("styles: {}\n", legend.join(" ")));
    grid
}

/// The game state that `--state` prints, taken from the app: numbers only, so that taking
/// it is cheap; [`StateLine::line`] writes it as its JSON line, when one is wanted.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StateLine {
    turn: u32,
    state: &'static str,
    depth: u32,
    player: PlayerState,
    monsters: Vec<MonsterState>,
    selected: Option<SelectedState>,
    run: RunState,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
struct PlayerState {
    x: i32,
    y: i32,
    hp: i32,
    potions: u32,
}

/// The run's figures, as the end screen shows them.
#[derive(Debug, Clone, PartialEq, Serialize)]
struct RunState {
    kills: u32,
    dealt: u32,
    taken: u32,
    drunk: u32,
    expanded: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
struct MonsterState {
    id: u32,
    /// Written as a string of one character, as JSON has no characters.
    kind: char,
    x: i32,
    y: i32,
    hp: i32,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
struct SelectedState {
    id: u32,
    cost: Option<u32>,
    expanded: u32,
}

/// The game state as one JSON line.
pub fn state_line(app: &App) -> String {
    StateLine::of(app).line()
}

impl StateLine {
    /// The state of `app`'s game now.
    pub fn of(app: &App) -> StateLine {
        let w = &app.world();
        let run = w.run();
        StateLine {
            turn: w.turn(),
            state: w.state().name(),
            depth: run.depth,
            player: PlayerState {
                x: w.player().pos.x,
                y: w.player().pos.y,
                hp: w.player().hp,
                potions: w.player().potions,
            },
            monsters: w
                .monsters()
                .iter()
                .map(|m| MonsterState {
                    id: m.id,
                    kind: m.kind,
                    x: m.pos.x,
                    y: m.pos.y,
                    hp: m.hp,
                })
                .collect(),
            selected: app
                .ui()
                .selected()
                .and_then(|id| w.monster(id))
                .map(|m| SelectedState {
                    id: m.id,
                    cost: m.plan.cost,
                    expanded: m.plan.expanded,
                }),
            run: RunState {
                kills: run.kills,
                dealt: run.damage_dealt,
                taken: run.damage_taken,
                drunk: run.potions_drunk,
                expanded: run.astar_expanded,
            },
        }
    }

    /// Its JSON line.
    pub fn line(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

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
    let frame = |terminal: &mut Terminal<TestBackend>,
                 app: &App,
                 name: &str,
                 at: (usize, usize),
                 out: &mut dyn Write|
     -> std::io::Result<()> {
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
    };
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
                        frame(&mut terminal, app, &name, last, out)?;
                    }
                }
                _ => {}
            }
            note_turn(app, out, &mut turn, last)
        }
        Moment::Ticked => note_turn(app, out, &mut turn, last),
        Moment::Settled(step) => {
            if output.frames == Frames::All && !matches!(step.action, Action::Snap(_)) {
                frame(&mut terminal, app, &step_name(&step.action), last, out)?;
            }
            Ok(())
        }
    })?;
    if output.frames != Frames::All || script.steps.is_empty() {
        frame(&mut terminal, app, "last", last, out)?;
    }
    out.flush()
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

/// Reads a script file of at most [`MAX_SCRIPT_BYTES`] and parses it.
pub fn load(path: &Path) -> Result<Script, LoadError> {
    let bytes = crate::text::read_limited(path, MAX_SCRIPT_BYTES, "script")?;
    Ok(parse(&bytes, &path.display().to_string())?)
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
    let (level, source) = opened.map_err(|e| {
        // A file the header names that cannot be read is the script's error, at the header
        // (one that reads but does not parse has its own place in the level).
        match (&options.level, &script.header.level_at, &e) {
            (None, Some(at), OpenError::Load(LoadError::Io { .. })) => {
                ScriptError::Script(at.error(e.to_string()).into())
            }
            _ => e.into(),
        }
    })?;
    let settings = match (
        &options.config,
        &script.carried.config,
        &script.header.config,
    ) {
        (Some(file), ..) => crate::app::config::load(file)?,
        // The recording's copy of the settings, as the game read them.
        (None, Some(bytes), file) => {
            let name = carried_copy_name(file.as_deref());
            let mut settings = crate::app::config::parse(bytes, &name).map_err(LoadError::from)?;
            settings.file = file.clone();
            settings
        }
        (None, None, Some(file)) => crate::app::config::load(file)?,
        (None, None, None) => crate::app::config::Settings::default(),
    };
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_repeats_comments_and_positions() {
        let s = parse(
            b"#! size: 60x20\nh 3*j # a comment\n  C-c click:4,5 Hash snap:first\n",
            "s.keys",
        )
        .unwrap();
        assert_eq!(s.header.size, Some((60, 20)));
        let brief: Vec<(u32, usize, usize)> = s
            .steps
            .iter()
            .map(|t| (t.repeat, t.token, t.line))
            .collect();
        assert_eq!(
            brief,
            vec![
                (1, 1, 2),
                (3, 2, 2),
                (1, 3, 3),
                (1, 4, 3),
                (1, 5, 3),
                (1, 6, 3)
            ]
        );
        assert_eq!(s.steps[5].action, Action::Snap(Some("first".into())));
        assert_eq!(
            s.steps[4].action,
            key(KeyCode::Char('#'), KeyModifiers::NONE)
        );
    }

    #[test]
    fn every_token_reads_back_as_the_input_it_names() {
        use KeyCode as K;
        let none = KeyModifiers::NONE;
        let ctrl = KeyModifiers::CONTROL;
        let mut events = Vec::new();
        for c in (' '..='~').chain(['é', 'ß']) {
            events.push(Event::Key(KeyEvent::new(K::Char(c), none)));
            events.push(Event::Key(KeyEvent::new(K::Char(c), ctrl)));
            events.push(Event::Key(KeyEvent::new(K::Char(c), KeyModifiers::SHIFT)));
        }
        for code in [
            K::Left,
            K::Right,
            K::Up,
            K::Down,
            K::Enter,
            K::Esc,
            K::Tab,
            K::BackTab,
            K::Backspace,
            K::Delete,
            K::Insert,
            K::Home,
            K::End,
            K::PageUp,
            K::PageDown,
            K::F(1),
            K::F(12),
            K::F(13),
            K::Null,
            K::CapsLock,
        ] {
            events.push(Event::Key(KeyEvent::new(code, none)));
            events.push(Event::Key(KeyEvent::new(code, ctrl)));
        }
        for kind in [
            MouseEventKind::Down(MouseButton::Left),
            MouseEventKind::Down(MouseButton::Right),
            MouseEventKind::Down(MouseButton::Middle),
            MouseEventKind::Drag(MouseButton::Left),
            MouseEventKind::Drag(MouseButton::Right),
            MouseEventKind::Up(MouseButton::Left),
            MouseEventKind::Up(MouseButton::Right),
            MouseEventKind::Moved,
            MouseEventKind::ScrollUp,
        ] {
            events.push(Event::Mouse(MouseEvent {
                kind,
                column: 12,
                row: 7,
                modifiers: none,
            }));
        }
        events.push(Event::Resize(120, 40));
        events.push(Event::FocusGained);
        let mut recorded = 0;
        for e in &events {
            let Some(t) = token(e) else { continue };
            recorded += 1;
            // The token survives a script line: one word, no comment.
            let s = parse(format!("{t}\n").as_bytes(), "t.keys")
                .unwrap_or_else(|err| panic!("{t:?} from {e:?}: {err}"));
            assert_eq!(s.steps.len(), 1, "{t:?}");
            let back = &s.steps[0].action;
            match (e, back) {
                (Event::Key(k), Action::Event(Event::Key(b))) => {
                    let ctrl_of = |k: &KeyEvent| k.modifiers.contains(KeyModifiers::CONTROL);
                    let code = |k: &KeyEvent| match k.code {
                        K::Char(c) if ctrl_of(k) => K::Char(c.to_ascii_lowercase()),
                        c => c,
                    };
                    assert_eq!((code(k), ctrl_of(k)), (code(b), ctrl_of(b)), "{t:?}");
                }
                (Event::Mouse(m), Action::Event(Event::Mouse(b))) => {
                    let left = |k: MouseEventKind| match k {
                        MouseEventKind::Down(b) => (0, b == MouseButton::Left),
                        MouseEventKind::Drag(b) => (1, b == MouseButton::Left),
                        _ => (2, true),
                    };
                    assert_eq!(
                        (left(m.kind), m.column, m.row),
                        (left(b.kind), b.column, b.row),
                        "{t:?}"
                    );
                }
                (Event::Resize(w, h), Action::Resize(bw, bh)) => assert_eq!((w, h), (bw, bh)),
                other => panic!("{t:?} read back as {other:?}"),
            }
        }
        // Printable keys with and without Ctrl, named keys, clicks, drags, releases, resize.
        assert!(recorded > 250, "{recorded}");
        assert_eq!(token(&Event::FocusGained), None);
        assert_eq!(
            token(&Event::Key(KeyEvent::new(
                KeyCode::F(13),
                KeyModifiers::NONE
            ))),
            None
        );
    }

    #[test]
    fn styles_are_one_letter_per_cell_with_a_legend() {
        use ratatui::layout::Rect;
        use ratatui::style::{Color, Modifier, Style};
        let mut buf = Buffer::empty(Rect::new(0, 0, 4, 2));
        buf.set_string(0, 0, "ab", Style::new().fg(Color::Green));
        buf.set_string(
            3,
            0,
            "c",
            Style::new().bg(Color::Blue).add_modifier(Modifier::BOLD),
        );
        buf.set_string(1, 1, "d", Style::new().fg(Color::Green));
        assert_eq!(
            styles_text(&buf),
            "AA B\n A  \nstyles: A=fg:Green B=bg:Blue,bold\n"
        );
    }

    #[test]
    fn manual_ticks_run_only_at_tick_tokens() {
        let s = parse(b"#! ticks: manual\nh 3*tick\n", "s.keys").unwrap();
        assert!(s.header.manual_ticks);
        assert_eq!(s.steps[1].action, Action::Tick);
        assert_eq!(s.steps[1].repeat, 3);
        assert!(!parse(b"h", "s.keys").unwrap().header.manual_ticks);
        let e = parse(b"#! ticks: sometimes\n", "s.keys").unwrap_err();
        assert_eq!(
            e.headline(),
            "s.keys:1:3: bad ticks \"sometimes\": use manual or auto"
        );
    }

    #[test]
    fn a_word_that_does_not_read_is_told_in_the_words_it_had() {
        let max = MAX_TERMINAL;
        for (got, error, words) in [
            (
                lab_query("1,1-2,2").map(drop),
                TokenError::LabQuery("1,1-2,2".into()),
                "bad lab query \"1,1-2,2\": expected X1,Y1:X2,Y2 (start:goal)".to_string(),
            ),
            (
                terminal_size("0x5").map(drop),
                TokenError::TerminalSize("0x5".into()),
                format!("bad terminal size \"0x5\": expected WxH, 1x1 to {max}x{max}"),
            ),
            (
                parse_token("click:3").map(drop),
                TokenError::Cell("3".into()),
                "bad cell \"3\": expected COL,ROW".into(),
            ),
            (
                parse_token("C-ab").map(drop),
                TokenError::Control("C-ab".into()),
                "unknown token \"C-ab\": C- takes one character, as in C-c".into(),
            ),
            (
                parse_token("F13").map(drop),
                TokenError::Unknown("F13".into()),
                "unknown token \"F13\"".into(),
            ),
            (
                "most".parse::<Frames>().map(drop),
                TokenError::Frames("most".into()),
                "\"most\" is not a frame choice: use last, snaps or all".into(),
            ),
        ] {
            assert_eq!(got, Err(error.clone()));
            assert_eq!(error.to_string(), words);
        }
        let e = parse_token("Bogus").unwrap_err();
        assert_eq!(e, TokenError::NotAToken("Bogus".into()));
        assert!(
            e.to_string()
                .starts_with("unknown token \"Bogus\": expected a key (h, Left,")
        );
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = parse(b"h j\n  k Bogus\n", "s.keys").unwrap_err();
        assert_eq!(
            e.headline().split(':').take(3).collect::<Vec<_>>(),
            ["s.keys", "2", "5"]
        );
        assert!(e.message.starts_with("unknown token \"Bogus\""));
        let e = parse(b"0*h", "s.keys").unwrap_err();
        assert_eq!(
            e.headline(),
            "s.keys:1:1: repeat count must be 1 to 1000000"
        );
        let e = parse(b"3*click:x,1", "s.keys").unwrap_err();
        assert_eq!(
            e.headline(),
            "s.keys:1:3: bad cell \"x,1\": expected COL,ROW"
        );
        let e = parse(b"resize:0x5", "s.keys").unwrap_err();
        assert_eq!((e.line, e.col), (1, 1));
        let e = parse(b"#! colour: red\n", "s.keys").unwrap_err();
        assert_eq!(
            e.headline(),
            "s.keys:1:3: unknown header \"colour\" (known: level, size, seed, lab, planning, ticks, styles, config, runs)"
        );
    }
}
