//! A script's words: the tokens that name keys, mouse actions and the runner's own steps,
//! read and written back.

use crossterm::event::{
    Event, KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

use crate::engine::grid::Pos;
use crate::text::parse_size;

/// Largest terminal a script may ask for.
pub const MAX_TERMINAL: u16 = 1000;
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

/// The action of a key with its modifiers.
pub(super) fn key(code: KeyCode, modifiers: KeyModifiers) -> Action {
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
        _ => match named_key(t) {
            Some(code) => code,
            None if t.starts_with('F') => match t[1..].parse::<u8>() {
                Ok(n @ 1..=12) => KeyCode::F(n),
                _ => return Err(TokenError::Unknown(t.to_string())),
            },
            None => return Err(TokenError::NotAToken(t.to_string())),
        },
    };
    let m = if code == KeyCode::BackTab {
        KeyModifiers::SHIFT
    } else {
        none
    };
    Ok(key(code, m))
}

/// The key a key's name names (`Left`, `Esc`, `Hash` for `#`), but for the F keys.
fn named_key(name: &str) -> Option<KeyCode> {
    Some(match name {
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
        _ => return None,
    })
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
