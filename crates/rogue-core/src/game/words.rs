//! The game's words: the log's messages, the advice they end with and the keys they name,
//! which the game words with the key table's keys and a view words again with the player's.

use serde::{Deserialize, Serialize};

/// A command of the player's whose key a message names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    /// The key list (help).
    Help,
    /// The search overlay.
    Overlay,
    /// Exploring.
    Explore,
    /// Resting.
    Rest,
    /// Drinking a potion.
    Drink,
}

impl Command {
    /// Every command, for the app's test that the table gives each the key below.
    pub const ALL: [Command; 5] = [
        Command::Help,
        Command::Overlay,
        Command::Explore,
        Command::Rest,
        Command::Drink,
    ];

    /// The key the key table gives it, which the log's text names: the game never knows the
    /// player's keys, so the text (for records: the morgue file, a save's check) names the
    /// table's, and the view names the player's ([`Message::worded`]). A test in
    /// `app::config` holds these equal to the table's.
    pub fn table_key(self) -> &'static str {
        match self {
            Command::Help => "?",
            Command::Overlay => "o",
            Command::Explore => "X",
            Command::Rest => "Z",
            Command::Drink => "!",
        }
    }
}

/// Advice a message ends with, which names keys: the game says which advice, and whoever
/// shows it words it with the keys they know ([`Advice::words`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Advice {
    /// The first words of a run: where the keys are, and what to try; `searches` when
    /// there are monsters whose searches to show.
    Welcome {
        /// Whether the floor has monsters (and so searches to show).
        searches: bool,
    },
    /// Badly hurt with a potion: drink it, or get clear and rest.
    DrinkOrRest,
    /// Badly hurt without one: get clear, then rest.
    Rest,
}

impl Advice {
    /// The advice in words, `key` naming the key of each command.
    pub fn words(self, key: impl Fn(Command) -> String) -> String {
        match self {
            Advice::Welcome { searches: false } => format!(
                "{} lists keys; {} explores.",
                key(Command::Help),
                key(Command::Explore)
            ),
            Advice::Welcome { searches: true } => format!(
                "{} lists keys; {} shows A* searches; {} explores; {} rests.",
                key(Command::Help),
                key(Command::Overlay),
                key(Command::Explore),
                key(Command::Rest)
            ),
            Advice::DrinkOrRest => format!(
                "drink a potion ({}), or get clear and rest ({}).",
                key(Command::Drink),
                key(Command::Rest)
            ),
            Advice::Rest => format!(
                "no potion left: get clear, then rest ({}).",
                key(Command::Rest)
            ),
        }
    }

    /// The advice with the key table's keys, as the log's text has it.
    pub fn table_words(self) -> String {
        self.words(|c| c.table_key().to_string())
    }
}

/// One line of the message log: a message and how many times in a row it was said.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    /// The turn it last happened on.
    pub turn: u32,
    /// The text.
    pub text: String,
    /// How many times in a row it was said (repeats fold into one line).
    pub count: u32,
    /// A warning the log shows in bold (low hit points), not an ordinary message.
    pub urgent: bool,
    /// Said while the player acted: the deed or the monsters' answers to it, which the log
    /// joins into one paragraph with the rest of that act's messages. Everything else (the
    /// floor's welcome, a refused move, the app's replies) stands on its own.
    pub act: bool,
    /// The advice the text ends with, worded there with the key table's keys, and the byte
    /// where it begins in the text.
    pub advice: Option<(Advice, usize)>,
    /// A level's message as the level wrote it, its keys between backticks (`` `l` ``):
    /// the text is it without them, and a view names the player's keys there instead.
    pub marked: Option<String>,
    /// The monster whose deed it tells, if one's: two orcs' hits read alike, and fold
    /// only when one orc hit twice.
    #[serde(default)]
    pub who: Option<u32>,
    /// It announces the monsters that came into view (a front end that says where each
    /// one is may say it in its own words instead).
    #[serde(default)]
    pub sighting: bool,
}

/// Names the player's keys, for text that names the key table's: the game never knows
/// them, so a view words its messages again ([`Message::worded`]).
pub trait KeyNames {
    /// The player's key for a command.
    fn command(&self, command: Command) -> String;
    /// The player's key for what the key table gives `key` (a key as a level writes it:
    /// `l`, `C-p`, `Esc`), or `None` to keep it as written.
    fn rebound(&self, key: &str) -> Option<String>;
    /// Whether these are the key table's own keys, so that the log's text already names
    /// them and nothing need be worded again.
    fn is_table(&self) -> bool {
        false
    }
}

/// The keys of the key table, as the log's text names them.
pub struct TableKeys;

impl KeyNames for TableKeys {
    fn command(&self, command: Command) -> String {
        command.table_key().to_string()
    }

    fn rebound(&self, _: &str) -> Option<String> {
        None
    }

    fn is_table(&self) -> bool {
        true
    }
}

/// `text` with each key between backticks named by `keys` and the backticks dropped (a
/// lone backtick stays as it is).
pub fn name_keys<'a>(text: &'a str, keys: &impl KeyNames) -> std::borrow::Cow<'a, str> {
    if !text.contains('`') {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('`') {
        let Some(len) = rest[open + 1..].find('`') else {
            break;
        };
        let key = &rest[open + 1..open + 1 + len];
        out.push_str(&rest[..open]);
        match keys.rebound(key) {
            Some(mine) => out.push_str(&mine),
            None => out.push_str(key),
        }
        rest = &rest[open + len + 2..];
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

impl Message {
    /// The text with the keys it names named by `keys` instead of the table's: its advice
    /// worded again, a level's marked keys named (borrowed when that changes nothing),
    /// without the repeat count.
    pub fn worded(&self, keys: &impl KeyNames) -> std::borrow::Cow<'_, str> {
        // Every frame words every message shown: with the table's keys, at no cost.
        if keys.is_table() {
            return std::borrow::Cow::Borrowed(&self.text);
        }
        if let Some(marked) = &self.marked {
            return match name_keys(marked, keys) {
                std::borrow::Cow::Owned(s) if s != self.text => std::borrow::Cow::Owned(s),
                _ => std::borrow::Cow::Borrowed(&self.text),
            };
        }
        let Some((advice, at)) = self.advice else {
            return std::borrow::Cow::Borrowed(&self.text);
        };
        let mine = advice.words(|c| keys.command(c));
        match (self.text.get(..at), self.text.get(at..)) {
            (Some(head), Some(table)) if mine != table => {
                std::borrow::Cow::Owned(format!("{head}{mine}"))
            }
            _ => std::borrow::Cow::Borrowed(&self.text),
        }
    }
}

impl std::fmt::Display for Message {
    /// The text, with `xN` when it was said N times in a row.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)?;
        if self.count > 1 {
            write!(f, " x{}", self.count)?;
        }
        Ok(())
    }
}
