//! One line of input read as a command: a word of the plain front end's own (`look`,
//! `map`, `search`, `help`, `quit`), or keys named as scripts name them, read by the
//! script runner's own parser so that `l`, `.`, `Z`, `F h` and `3*.` mean here what they
//! mean in a script.

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};

use crate::app::config::{Bindings, slots};
use crate::app::keymap::{Context, Key};
use crate::frontend::script::{self, Action};

/// What a line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Nothing: a blank line or a comment.
    Nothing,
    /// Keys for the game, each with how many times, in order.
    Keys(Vec<(KeyEvent, u32)>),
    /// Every creature, item and stairs in view.
    Look,
    /// The rows of the map around the player.
    Map,
    /// The selected monster's search in words.
    Search,
    /// The commands and the keys bound; `true` for every part of the game, not only the
    /// parts that apply now.
    Help(bool),
    /// Leave, keeping the run, as the end of input does.
    Quit,
    /// Not a command: the one line to answer.
    Bad(String),
}

/// Reads one line of input (without its line ending).
pub fn parse(line: &str) -> Command {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        [] => return Command::Nothing,
        ["look"] => return Command::Look,
        ["map"] => return Command::Map,
        ["search"] => return Command::Search,
        ["help"] => return Command::Help(false),
        ["help", "all"] => return Command::Help(true),
        ["quit"] => return Command::Quit,
        _ => {}
    }
    // A header line would set up a script, not play a key.
    if line.trim_start().starts_with("#!") {
        return Command::Bad(
            "A `#!` header belongs in a script file, not in play: help lists the commands.".into(),
        );
    }
    let parsed = match script::parse(line.as_bytes(), "input") {
        Ok(p) => p,
        Err(e) => return Command::Bad(bad_token(&e.message)),
    };
    let mut keys = Vec::new();
    for step in parsed.steps {
        match step.action {
            Action::Event(Event::Key(k)) => keys.push((k, step.repeat)),
            Action::Event(_) => {
                return Command::Bad(
                    "The mouse has no place in plain play: look and map say where things are."
                        .into(),
                );
            }
            Action::Snap(_) | Action::Resize(..) => {
                return Command::Bad(
                    "snap and resize are for scripts' frames; plain play has none: help lists the commands.".into(),
                );
            }
            Action::Tick | Action::Reload => {
                return Command::Bad(
                    "tick and reload are script words: plain play runs travel to its end and reads a changed level itself.".into(),
                );
            }
        }
    }
    if keys.is_empty() {
        Command::Nothing
    } else {
        Command::Keys(keys)
    }
}

/// A command named as the settings file names it (`wait`, `rest`, `close_doors`, with a
/// space or a dash for the underscore) in one of `contexts`, most specific first: the
/// player's first key for it as an input, or why it has none. `None` when no command
/// there has that name. A screen-reader user need not learn a key to say what they mean.
pub fn named(
    line: &str,
    contexts: &[Context],
    bindings: &Bindings,
) -> Option<Result<KeyEvent, String>> {
    let lower = line.trim().to_lowercase();
    let words: Vec<&str> = lower.split([' ', '-']).filter(|w| !w.is_empty()).collect();
    let name = words.join("_");
    let i = contexts.iter().find_map(|&c| {
        slots()
            .iter()
            .position(|s| s.context == c && s.name == name)
    })?;
    let Some(&key) = bindings.keys(i).first() else {
        return Some(Err(format!(
            "{name} has no key in your settings: nothing was done."
        )));
    };
    Some(Ok(event_of(key)))
}

/// The input a key stands for, as the script parser reads it.
fn event_of(key: Key) -> KeyEvent {
    let mut mods = if key.ctrl {
        KeyModifiers::CONTROL
    } else {
        KeyModifiers::NONE
    };
    if matches!(key.code, KeyCode::Char(c) if c.is_uppercase()) || key.code == KeyCode::BackTab {
        mods |= KeyModifiers::SHIFT;
    }
    KeyEvent::new(key.code, mods)
}

/// The answer to a line the script parser refused: short, on one line, naming the way to
/// the commands (the parser's own message lists every token form, too long to hear).
fn bad_token(message: &str) -> String {
    match message.strip_prefix("unknown token ") {
        Some(rest) => {
            let token = rest.split(':').next().unwrap_or(rest).trim();
            format!("{token} is neither a command nor a key: help lists them.")
        }
        None => format!("{message}: help lists the commands."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::{KeyCode, KeyModifiers};

    fn key(c: char) -> KeyEvent {
        let m = if c.is_ascii_uppercase() {
            KeyModifiers::SHIFT
        } else {
            KeyModifiers::NONE
        };
        KeyEvent::new(KeyCode::Char(c), m)
    }

    #[test]
    fn keys_read_as_scripts_read_them() {
        assert_eq!(parse("l"), Command::Keys(vec![(key('l'), 1)]));
        assert_eq!(
            parse("F h"),
            Command::Keys(vec![(key('F'), 1), (key('h'), 1)])
        );
        assert_eq!(parse(" 3*. "), Command::Keys(vec![(key('.'), 3)]));
        assert_eq!(parse("Z"), Command::Keys(vec![(key('Z'), 1)]));
        assert_eq!(
            parse("Esc"),
            Command::Keys(vec![(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE), 1)])
        );
    }

    #[test]
    fn words_blank_lines_and_comments() {
        assert_eq!(parse("look"), Command::Look);
        assert_eq!(parse("  map "), Command::Map);
        assert_eq!(parse("search"), Command::Search);
        assert_eq!(parse("help"), Command::Help(false));
        assert_eq!(parse("help all"), Command::Help(true));
        assert_eq!(parse("quit"), Command::Quit);
        assert_eq!(parse(""), Command::Nothing);
        assert_eq!(parse("   "), Command::Nothing);
        assert_eq!(parse("# a note"), Command::Nothing);
    }

    #[test]
    fn bad_lines_get_one_short_answer() {
        assert_eq!(
            parse("jump"),
            Command::Bad("\"jump\" is neither a command nor a key: help lists them.".into())
        );
        assert_eq!(
            parse("0*l"),
            Command::Bad("repeat count must be 1 to 1000000: help lists the commands.".into())
        );
        for line in [
            "click:3,4",
            "snap",
            "resize:80x24",
            "tick",
            "reload",
            "#! seed: 3",
            "look l",
        ] {
            let Command::Bad(answer) = parse(line) else {
                panic!("{line:?} was taken")
            };
            assert!(
                answer.chars().count() <= 120 && !answer.contains('\n'),
                "{answer}"
            );
        }
    }
}
