//! `help`: the plain front end's words, then the keys bound where the game stands now (or
//! everywhere, `help all`), read from the live key table under the player's settings and
//! named as scripts name keys, so that what it lists is what a line of input can say.

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};

use crate::app::App;
use crate::app::config::{slot_words, slots};
use crate::app::keymap::{Action, BINDINGS, Context, Key};
use crate::frontend::script;

/// The lines `help` says; `all` lists every part of the game, not only those that apply
/// now.
pub fn lines(app: &App, all: bool) -> Vec<String> {
    let mut out: Vec<String> = [
        "Plain play reads one command a line and answers in lines.",
        "Words: look (what is in view), map (the rows around you), search (the selected monster's A*),",
        "help (the keys that apply now; help all: every part of the game), quit (leave; your run is kept).",
        "A command by its name in the settings file plays your key for it, as wait, rest, close doors.",
        "Keys as scripts name them: one character as typed, as l, Z or . (dot); C-x for Ctrl-x; Esc, Enter, Tab, Space,",
        "Backspace, Left, Right, Up, Down, Home, End, PageUp, PageDown, F1 to F12, and Hash for # (hash).",
        "N*KEY plays a key N times, as 3*. (dot); several keys on one line play in order, as F h.",
        "The end of input quits as quit does. Punctuation keys are named after them below, as . (dot).",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    let bindings = &app.ui().settings().bindings;
    let contexts: Vec<Context> = if all {
        Context::ALL.to_vec()
    } else {
        app.contexts().to_vec()
    };
    for ctx in contexts {
        // The busy box and the replay viewer are the terminal's; plain play waits for
        // every turn and has no replay.
        if matches!(ctx, Context::Busy | Context::Replay) {
            continue;
        }
        out.push(format!("{}:", bindings.title(ctx)));
        for row in BINDINGS.iter().filter(|b| b.context == ctx) {
            // Ctrl-C is no slot of the settings: always the table's.
            if let Some((k, _)) = row.keys.iter().find(|(_, a)| *a == Action::Interrupt) {
                out.push(format!("  {}: {}", row.help, spoken(*k)));
            }
        }
        for (i, slot) in slots().iter().enumerate() {
            // Plain play has no terminal to hand back: the shell's job control stops it.
            if slot.context != ctx || slot.action == Action::Suspend {
                continue;
            }
            let keys: Vec<String> = bindings.keys(i).iter().map(|k| spoken(*k)).collect();
            let keys = if keys.is_empty() {
                "no key".to_string()
            } else {
                keys.join(" ")
            };
            out.push(format!("  {}: {keys}", slot_words(i)));
        }
    }
    out
}

/// A key as a line of input names it, with the name of a punctuation mark after it: a
/// screen reader at its usual punctuation level says nothing for `.` or `?`.
fn spoken(key: Key) -> String {
    let token = token(key);
    let name = match key.code {
        KeyCode::Char(c) if !key.ctrl => match c {
            '.' => "dot",
            ',' => "comma",
            '?' => "question mark",
            '!' => "exclamation mark",
            '>' => "greater than",
            '<' => "less than",
            '[' => "left bracket",
            ']' => "right bracket",
            '{' => "left brace",
            '}' => "right brace",
            '(' => "left paren",
            ')' => "right paren",
            '+' => "plus",
            '-' => "minus",
            '=' => "equals",
            '*' => "star",
            '/' => "slash",
            '\\' => "backslash",
            ';' => "semicolon",
            ':' => "colon",
            '\'' => "apostrophe",
            '"' => "quote",
            '`' => "backtick",
            '~' => "tilde",
            '@' => "at",
            '$' => "dollar",
            '%' => "percent",
            '^' => "caret",
            '&' => "ampersand",
            '|' => "bar",
            '_' => "underscore",
            _ => return token,
        },
        _ => return token,
    };
    format!("{token} ({name})")
}

/// A key as a line of input names it (the script token that reads back as it).
fn token(key: Key) -> String {
    let mods = match key.code {
        _ if key.ctrl => KeyModifiers::CONTROL,
        KeyCode::Char(c) if c.is_ascii_uppercase() => KeyModifiers::SHIFT,
        KeyCode::BackTab => KeyModifiers::SHIFT,
        _ => KeyModifiers::NONE,
    };
    script::token(&Event::Key(KeyEvent::new(key.code, mods)))
        .unwrap_or_else(|| crate::app::config::label(key))
}
