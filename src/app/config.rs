//! The player's settings: key bindings for every action of the key table, colours (a theme
//! and the overlay's state colours), sight on or off at the start, and the autoplay speed.
//!
//! They are read from a TOML file, `$XDG_CONFIG_HOME/astar-rogue/config.toml` (the
//! platform's config folder, through `directories`), or the file `ASTAR_ROGUE_CONFIG` names.
//! Only the interactive commands read it by themselves; scripts, `test` and CI read a file
//! only when given one (`--config FILE`, `#! config: FILE`), so a snapshot is the same on
//! every machine. A file is taken whole or not at all: the first error, with its line and
//! column, and nothing of it applies.
//!
//! The keys themselves, and their words, are [`super::bindings`]'.

use std::borrow::Cow;
use std::ops::Range;
use std::path::{Path, PathBuf};

use ratatui::style::Color;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

pub use super::bindings::{
    Bindings, Slot, followed, label, parse_key, section, shown_key, slot_words, slots,
};
use super::bindings::{CONTEXTS, file_name, followed_keys};
use super::keymap::{Context, Key};
use super::overlay::{DEFAULT_SPEED, SPEEDS};
use crate::text::{LoadError, ParseError};

/// The environment variable naming a settings file to read instead of the usual one.
pub const ENV: &str = "ASTAR_ROGUE_CONFIG";

/// Largest settings file accepted.
pub const MAX_CONFIG_BYTES: u64 = 1024 * 1024;

/// Everything the settings file sets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// Which keys do what.
    pub bindings: Bindings,
    /// The colours.
    pub theme: Theme,
    /// Whether a game starts with sight on (`V` toggles it).
    pub sight: bool,
    /// Autoplay's starting speed, in expansions a second (one of [`SPEEDS`]).
    pub autoplay_speed: u32,
    /// The file they came from, if any.
    pub file: Option<PathBuf>,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            bindings: Bindings::default(),
            theme: Theme::default(),
            sight: true,
            autoplay_speed: SPEEDS[DEFAULT_SPEED],
            file: None,
        }
    }
}

/// The colours a theme sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    /// Background of open cells in the search overlay and the lab.
    pub open: Color,
    /// Background of closed cells.
    pub closed: Color,
    /// Background of the path (and the colour of a monster's planned path).
    pub path: Color,
    /// Background of the node being expanded.
    pub now: Color,
    /// Walls in sight.
    pub wall: Color,
    /// Floor in sight.
    pub floor: Color,
    /// The player.
    pub player: Color,
}

/// The themes by name: the game's own, and one whose overlay states stay apart for
/// red-green colour blindness (blue, orange, white and purple, after Okabe and Ito).
pub const THEMES: [(&str, Theme); 2] = [
    (
        "default",
        Theme {
            open: Color::Green,
            closed: Color::Blue,
            path: Color::Yellow,
            now: Color::Magenta,
            wall: Color::Gray,
            floor: Color::DarkGray,
            player: Color::White,
        },
    ),
    (
        "colour-blind",
        Theme {
            open: Color::Indexed(33),
            closed: Color::Indexed(208),
            path: Color::White,
            now: Color::Indexed(162),
            wall: Color::Gray,
            floor: Color::DarkGray,
            player: Color::White,
        },
    ),
];

impl Default for Theme {
    fn default() -> Self {
        THEMES[0].1
    }
}

/// The colour settings, in the file's order: name, what it colours, and its field.
/// A colour setting: its name, what it colours, and its field of the theme.
type ColourSetting = (&'static str, &'static str, fn(&mut Theme) -> &mut Color);

const COLOURS: [ColourSetting; 7] = [
    ("open", "open cells of a search", |t| &mut t.open),
    ("closed", "closed cells", |t| &mut t.closed),
    ("path", "the path", |t| &mut t.path),
    ("now", "the node being expanded", |t| &mut t.now),
    ("wall", "walls", |t| &mut t.wall),
    ("floor", "floor", |t| &mut t.floor),
    ("player", "the player", |t| &mut t.player),
];

/// The contexts the terminal's busy box consults while a long turn is worked out.
pub const BUSY_STACK: &[Context] = &[Context::Busy, Context::Always];

/// The contexts the replay viewer consults for its own keys.
pub const REPLAY_STACK: &[Context] = &[Context::Replay, Context::Always];

/// The contexts that are active together (each screen's, from [`super::screens`], the busy
/// box's and the replay viewer's): one key may do one thing in each of these, so two
/// actions on one key within one is an error.
pub const STACKS: [&[Context]; 14] = {
    let s = super::screens::STACKS;
    [
        s[0],
        s[1],
        s[2],
        s[3],
        s[4],
        s[5],
        s[6],
        s[7],
        s[8],
        s[9],
        s[10],
        s[11],
        BUSY_STACK,
        REPLAY_STACK,
    ]
};

/// Where the game looks for the settings file: `ASTAR_ROGUE_CONFIG` when it is set, else
/// `config.toml` in the platform's config folder (`$XDG_CONFIG_HOME/astar-rogue` on Linux).
/// `None` when there is no home folder to find it in.
pub fn user_path() -> Option<(PathBuf, bool)> {
    if let Some(p) = std::env::var_os(ENV).filter(|p| !p.is_empty()) {
        return Some((PathBuf::from(p), true));
    }
    let dirs = directories::ProjectDirs::from("", "", "astar-rogue")?;
    Some((dirs.config_dir().join("config.toml"), false))
}

/// Whether nothing at all is at `path`, so that the defaults apply: a link to nothing is
/// something (a settings file the player linked is meant to be read, and must say it cannot
/// be rather than play with the defaults unasked).
pub fn absent(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_err()
}

/// The settings the interactive game plays with: the file [`user_path`] names, or the
/// defaults when nothing is there ([`absent`]; a file `ASTAR_ROGUE_CONFIG` names must exist).
pub fn load_user() -> Result<Settings, LoadError> {
    match user_path() {
        Some((path, false)) if absent(&path) => Ok(Settings::default()),
        Some((path, _)) => load(&path),
        None => Ok(Settings::default()),
    }
}

/// Reads a settings file: all of it, or the first error with its line and column.
pub fn load(path: &Path) -> Result<Settings, LoadError> {
    let bytes = crate::text::read_limited(path, MAX_CONFIG_BYTES, "settings file")?;
    let name = path.display().to_string();
    let mut settings = parse(&bytes, &name)?;
    settings.file = Some(path.to_path_buf());
    Ok(settings)
}

/// A byte offset's line and column (in characters), both from 1, and the line's text.
fn position(text: &str, at: usize) -> (usize, usize, &str) {
    let at = at.min(text.len());
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    let line = text[..start].matches('\n').count() + 1;
    let col = text[start..at].chars().count() + 1;
    (line, col, text[start..end].trim_end_matches('\r'))
}

/// Parses a settings file's bytes; `file` names it in errors.
pub fn parse(bytes: &[u8], file: &str) -> Result<Settings, ParseError> {
    let bytes = bytes.strip_prefix(crate::text::BOM).unwrap_or(bytes);
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let good = std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or("");
        let (line, col, _) = position(good, good.len());
        // The line as far as it reads, the bad byte shown as U+FFFD under the caret.
        let start = good.rfind('\n').map_or(0, |i| i + 1);
        let end = bytes[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |i| start + i);
        let row = String::from_utf8_lossy(&bytes[start..end]);
        ParseError::new(file.into(), line, col, "not UTF-8 text".into(), &row)
    })?;
    let err = |span: Range<usize>, message: String| {
        let (line, col, row) = position(text, span.start);
        ParseError::new(file.to_string(), line, col, message, row)
    };
    // TOML's own error for a stray control character points at the value before it
    // (`sight = true` and a NUL: "invalid boolean"); name the character where it is.
    if let Some((at, c)) = text
        .char_indices()
        .find(|&(_, c)| c.is_ascii_control() && !matches!(c, '\t' | '\n' | '\r'))
    {
        return Err(err(
            at..at,
            format!("control character {c:?}: a settings file is plain text"),
        ));
    }
    let doc = DeTable::parse(text).map_err(|e| {
        let message = e.message().trim().trim_end_matches('.').to_string();
        err(e.span().unwrap_or(0..0), message)
    })?;
    let mut settings = Settings::default();
    // Where each slot's keys were written, to point at a clash.
    let mut written: Vec<Option<Vec<Range<usize>>>> = vec![None; slots().len()];
    let mut entries: Vec<(&Spanned<Cow<str>>, &Spanned<DeValue>)> = doc.get_ref().iter().collect();
    entries.sort_by_key(|(k, _)| k.span().start);
    for (key, value) in entries {
        match key.get_ref().as_ref() {
            "keys" => keys_section(value, &mut settings.bindings, &mut written, &err)?,
            "colours" => settings.theme = colours_section(value, &err)?,
            "game" => game_section(value, &mut settings, &err)?,
            other => {
                return Err(err(
                    key.span(),
                    format!("unknown section [{other}] (known: keys, colours, game)"),
                ));
            }
        }
    }
    // What the file leaves unbound follows its slot's keys as the file bound them.
    for (i, from) in followed().iter().enumerate() {
        if !from.is_empty() && written[i].is_none() {
            settings.bindings.keys[i] = followed_keys(&settings.bindings.keys, i);
        }
    }
    settings.bindings = Bindings::of(std::mem::take(&mut settings.bindings.keys));
    check_clashes(&settings.bindings, &written, &err)?;
    Ok(settings)
}

/// The `[keys]` section: each slot's keys as the file writes them, and where, to point at
/// a clash.
fn keys_section(
    value: &Spanned<DeValue<'_>>,
    bindings: &mut Bindings,
    written: &mut [Option<Vec<Range<usize>>>],
    err: &impl Fn(Range<usize>, String) -> ParseError,
) -> Result<(), ParseError> {
    let sections = table(value, "[keys]", err)?;
    for (name, body) in sections {
        let Some(&context) = CONTEXTS.iter().find(|c| section(**c) == name.get_ref()) else {
            return Err(err(
                name.span(),
                format!(
                    "unknown section [keys.{}] (known: {})",
                    name.get_ref(),
                    CONTEXTS.map(section).join(", ")
                ),
            ));
        };
        let where_ = format!("[keys.{}]", section(context));
        for (action, list) in table(body, &where_, err)? {
            let Some(i) = slots()
                .iter()
                .position(|s| s.context == context && s.name == action.get_ref())
            else {
                let known: Vec<&str> = slots()
                    .iter()
                    .filter(|s| s.context == context)
                    .map(|s| s.name)
                    .collect();
                return Err(err(
                    action.span(),
                    format!(
                        "unknown action {:?} in {where_} (known: {})",
                        action.get_ref(),
                        known.join(", ")
                    ),
                ));
            };
            let DeValue::Array(items) = list.get_ref() else {
                return Err(err(
                    list.span(),
                    format!(
                        "{} takes a list of keys, as [\"h\", \"Left\"]",
                        action.get_ref()
                    ),
                ));
            };
            let mut keys = Vec::new();
            let mut spans = Vec::new();
            for item in items.iter() {
                let Some(s) = item.get_ref().as_str() else {
                    return Err(err(item.span(), "a key is a string, as \"h\"".into()));
                };
                let k = parse_key(s).map_err(|m| err(item.span(), m.to_string()))?;
                if !keys.contains(&k) {
                    keys.push(k);
                    spans.push(item.span());
                }
            }
            bindings.keys[i] = keys;
            written[i] = Some(spans);
        }
    }
    Ok(())
}

/// The `[colours]` section: a theme, and colours of its own over it.
fn colours_section(
    value: &Spanned<DeValue<'_>>,
    err: &impl Fn(Range<usize>, String) -> ParseError,
) -> Result<Theme, ParseError> {
    let mut chosen: Option<Theme> = None;
    let mut own: Vec<(usize, Color)> = Vec::new();
    for (name, v) in table(value, "[colours]", err)? {
        if name.get_ref() == "theme" {
            let s = string(v, "theme", err)?;
            let Some((_, t)) = THEMES.iter().find(|(n, _)| *n == s) else {
                return Err(err(
                    v.span(),
                    format!(
                        "unknown theme {s:?} (known: {})",
                        THEMES.map(|t| t.0).join(", ")
                    ),
                ));
            };
            chosen = Some(*t);
            continue;
        }
        let Some(i) = COLOURS.iter().position(|c| c.0 == name.get_ref()) else {
            return Err(err(
                name.span(),
                format!(
                    "unknown colour setting {:?} (known: theme, {})",
                    name.get_ref(),
                    COLOURS.map(|c| c.0).join(", ")
                ),
            ));
        };
        let s = string(v, COLOURS[i].0, err)?;
        let colour: Color = s.parse().map_err(|_| {
            err(
                v.span(),
                format!(
                    "{s:?} is not a colour: use a name (red, light-blue, dark-gray, ...), a number from 0 to 255 or #rrggbb"
                ),
            )
        })?;
        own.push((i, colour));
    }
    // The theme first, wherever it is written; then the colours that differ.
    let mut theme = chosen.unwrap_or_default();
    for (i, colour) in own {
        *(COLOURS[i].2)(&mut theme) = colour;
    }
    Ok(theme)
}

/// The `[game]` section: sight at the start and autoplay's speed.
fn game_section(
    value: &Spanned<DeValue<'_>>,
    settings: &mut Settings,
    err: &impl Fn(Range<usize>, String) -> ParseError,
) -> Result<(), ParseError> {
    for (name, v) in table(value, "[game]", err)? {
        match name.get_ref().as_ref() {
            "sight" => {
                settings.sight = v
                    .get_ref()
                    .as_bool()
                    .ok_or_else(|| err(v.span(), "sight is true or false".into()))?;
            }
            "autoplay_speed" => {
                let speeds = SPEEDS.map(|s| s.to_string()).join(", ");
                let bad = || {
                    err(
                        v.span(),
                        format!("autoplay_speed is one of {speeds} (expansions a second)"),
                    )
                };
                let n = v
                    .get_ref()
                    .as_integer()
                    .and_then(|n| u32::from_str_radix(n.as_str(), n.radix()).ok())
                    .filter(|n| SPEEDS.contains(n))
                    .ok_or_else(bad)?;
                settings.autoplay_speed = n;
            }
            other => {
                return Err(err(
                    name.span(),
                    format!("unknown setting {other:?} in [game] (known: sight, autoplay_speed)"),
                ));
            }
        }
    }
    Ok(())
}

/// A key of a table with its value, each with its place in the file.
type Entry<'a, 'i> = (&'a Spanned<Cow<'i, str>>, &'a Spanned<DeValue<'i>>);

/// The entries of a table value in the file's order, or an error naming where it is.
fn table<'a, 'i>(
    value: &'a Spanned<DeValue<'i>>,
    what: &str,
    err: &impl Fn(Range<usize>, String) -> ParseError,
) -> Result<Vec<Entry<'a, 'i>>, ParseError> {
    let DeValue::Table(t) = value.get_ref() else {
        return Err(err(value.span(), format!("{what} is a table")));
    };
    let mut out: Vec<_> = t.iter().collect();
    out.sort_by_key(|(k, _)| k.span().start);
    Ok(out)
}

fn string<'a>(
    value: &'a Spanned<DeValue<'_>>,
    name: &str,
    err: &impl Fn(Range<usize>, String) -> ParseError,
) -> Result<&'a str, ParseError> {
    value
        .get_ref()
        .as_str()
        .ok_or_else(|| err(value.span(), format!("{name} is a string, in quotes")))
}

/// Two actions on one key where they apply together is an error naming both, at the key
/// written last in the file.
fn check_clashes(
    bindings: &Bindings,
    written: &[Option<Vec<Range<usize>>>],
    err: &impl Fn(Range<usize>, String) -> ParseError,
) -> Result<(), ParseError> {
    let name = |i: usize| format!("{}.{}", section(slots()[i].context), slots()[i].name);
    // A slot the file left to follow others has their keys, each written where its own
    // slot is: `from` is the one that gave it `k`.
    let from = |i: usize, k: Key| {
        if written[i].is_some() {
            return None;
        }
        followed()[i]
            .iter()
            .copied()
            .find(|&m| bindings.keys[m].contains(&k))
    };
    let full = |i: usize, k: Key, default: bool| {
        let default = if default { "its default" } else { "" };
        match from(i, k) {
            Some(m) if default.is_empty() => format!("{} (as {})", name(i), name(m)),
            Some(m) => format!("{} (as {}, {default})", name(i), name(m)),
            None if default.is_empty() => name(i),
            None => format!("{} ({default})", name(i)),
        }
    };
    let span = |i: usize, k: Key| {
        let i = from(i, k).unwrap_or(i);
        let at = bindings.keys[i].iter().position(|x| *x == k)?;
        written[i].as_ref()?.get(at).cloned()
    };
    let mut worst: Option<(Range<usize>, String)> = None;
    for stack in STACKS {
        let mut seen: Vec<(Key, usize)> = Vec::new();
        for (i, s) in slots().iter().enumerate() {
            if !stack.contains(&s.context) {
                continue;
            }
            for &k in &bindings.keys[i] {
                let Some(&(_, j)) = seen.iter().find(|(x, _)| *x == k) else {
                    seen.push((k, i));
                    continue;
                };
                // The table itself lets a more specific part of the game take a key over
                // (the editor's C-z undoes; elsewhere it suspends): only a key the
                // settings moved can clash.
                let table_own =
                    slots()[i].defaults.contains(&k) && slots()[j].defaults.contains(&k);
                if j == i || table_own {
                    continue;
                }
                // Point at whichever of the two the file wrote last.
                let (a, b) = (span(j, k), span(i, k));
                let at = match (&a, &b) {
                    (Some(a), Some(b)) if a.start > b.start => a.clone(),
                    (_, Some(b)) => b.clone(),
                    (Some(a), None) => a.clone(),
                    (None, None) => 0..0,
                };
                let message = format!(
                    "{:?} is bound to both {} and {}: one key can do one thing",
                    label(k),
                    full(j, k, a.is_none()),
                    full(i, k, b.is_none()),
                );
                if worst.as_ref().is_none_or(|(w, _)| at.start < w.start) {
                    worst = Some((at, message));
                }
            }
        }
    }
    match worst {
        Some((at, message)) => Err(err(at, message)),
        None => Ok(()),
    }
}

/// The full default settings file, every setting with its default and a comment.
pub fn default_file() -> String {
    let mut out = String::new();
    out.push_str(
        "# astar-rogue settings: key bindings, colours, sight and the autoplay speed.\n\
         #\n\
         # The game reads them from config.toml in your config folder ($XDG_CONFIG_HOME/astar-rogue\n\
         # on Linux; `astar-rogue config` prints the path), or from the file ASTAR_ROGUE_CONFIG\n\
         # names. Scripts, `astar-rogue test` and CI never read it unless given one (--config\n\
         # FILE, or a `#! config: FILE` script header). A file with an error is refused whole,\n\
         # with its line and column, before the game starts. Leave out what you do not change.\n",
    );
    out.push_str(
        "\n# Keys, one section per part of the game as the help screen (?) lists them. A key is one\n\
         # character (\"h\", \"?\", \"G\"), C-x for Ctrl-x, F1 to F12, or a name: Left Right Up Down\n\
         # Enter Esc Tab S-Tab Space Backspace Delete Insert Home End PageUp PageDown. An action's\n\
         # list replaces its keys; [] leaves it without one. One key may not do two things where\n\
         # they apply together (everywhere, the overlay and the other sections). C-c always quits.\n",
    );
    for context in CONTEXTS {
        out.push_str(&format!("\n[keys.{}]\n", section(context)));
        for (i, s) in slots().iter().enumerate() {
            if s.context != context {
                continue;
            }
            let keys: Vec<String> = s
                .defaults
                .iter()
                .map(|k| format!("{:?}", label(*k)))
                .collect();
            let mut line = format!("{} = [{}]", s.name, keys.join(", "));
            let mut help = slot_words(i);
            if !followed()[i].is_empty() {
                // Written out, it would stop following: a file saved from this one and
                // changed in its moves would aim with the old keys.
                line = format!("# {line}");
                let names: Vec<String> = followed()[i].iter().map(|&m| file_name(m)).collect();
                help = format!("{help}; unset, the keys of {}", names.join(" and "));
            }
            // A long line still keeps a space before its comment.
            let gap = if line.chars().count() < 36 { "" } else { " " };
            out.push_str(&format!("{line:<36}{gap}# {help}\n"));
        }
    }
    out.push_str("\n# Colours: a theme, then any colour of it changed. A colour is a name (red, light-blue,\n# dark-gray, ...), a number from 0 to 255 (the terminal's palette) or #rrggbb. NO_COLOR\n# still turns every colour off.\n[colours]\n");
    out.push_str(&format!(
        "{:<36}# {}\n",
        "theme = \"default\"",
        "or \"colour-blind\": the overlay's states in blue, orange, white and purple"
    ));
    let standard = Theme::default();
    for (name, what, field) in COLOURS {
        let mut t = standard;
        let colour = *field(&mut t);
        out.push_str(&format!(
            "{:<36}# {what}\n",
            format!("# {name} = \"{}\"", colour_name(colour))
        ));
    }
    out.push_str("\n[game]\n");
    out.push_str(&format!(
        "{:<36}# sight on when a game starts (V toggles it)\n",
        "sight = true"
    ));
    out.push_str(&format!(
        "{:<36}# expansions a second: {}\n",
        format!("autoplay_speed = {}", SPEEDS[DEFAULT_SPEED]),
        SPEEDS.map(|s| s.to_string()).join(", ")
    ));
    out
}

/// A colour as the file writes it (read back by ratatui's parser).
fn colour_name(c: Color) -> String {
    match c {
        Color::DarkGray => "dark-gray".into(),
        Color::Gray => "gray".into(),
        other => other.to_string().to_lowercase(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::bindings::row_slots;
    use super::super::command::NAMED;
    use super::super::keymap::{Action, BINDINGS};
    use super::super::tools::Tool;
    use super::*;
    use crate::content::level::design::Side;
    use crate::game::Command;
    use crossterm::event::KeyCode;

    fn parse_str(s: &str) -> Result<Settings, ParseError> {
        parse(s.as_bytes(), "c.toml")
    }

    #[test]
    fn the_default_file_reads_back_as_the_defaults() {
        let text = default_file();
        let s = parse_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(s, Settings::default());
        assert_eq!(parse_str("").unwrap(), Settings::default());
    }

    #[test]
    fn bytes_that_are_not_text_are_named_where_they_are() {
        let e = parse(b"[game]\nsight = true\0\n", "c.toml").unwrap_err();
        assert_eq!(
            e.headline(),
            "c.toml:2:13: control character '\\0': a settings file is plain text"
        );
        let e = parse(b"[game]\nsight = \"\xff\"\n", "c.toml").unwrap_err();
        assert_eq!(e.headline(), "c.toml:2:10: not UTF-8 text");
        // The line is shown as far as it reads, the bad byte as U+FFFD under the caret.
        assert!(
            e.to_string()
                .ends_with("2 | sight = \"\u{fffd}\"\n  |          ^"),
            "{e}"
        );
    }

    #[test]
    fn every_action_of_the_table_has_one_slot_and_a_unique_name() {
        for (r, b) in BINDINGS.iter().enumerate() {
            let only_interrupt = b.keys.iter().all(|(_, a)| *a == Action::Interrupt);
            if !b.keys.is_empty() && !only_interrupt {
                assert!(!row_slots()[r].is_empty(), "row {r} {:?}", b.label);
            }
        }
        for ctx in CONTEXTS {
            let mut names: Vec<&str> = slots()
                .iter()
                .filter(|s| s.context == ctx)
                .map(|s| s.name)
                .collect();
            let n = names.len();
            names.sort_unstable();
            names.dedup();
            assert_eq!(names.len(), n, "names in {:?} repeat", section(ctx));
        }
    }

    #[test]
    fn commands_that_share_a_row_s_words_have_their_own_in_the_file() {
        // "select next / prev foe" would be said of both; each declares its own words.
        let mut shared = 0;
        for (r, b) in BINDINGS.iter().enumerate() {
            if row_slots()[r].len() < 2 || !b.help.contains(" / ") {
                continue;
            }
            shared += 1;
            for &i in &row_slots()[r] {
                assert_ne!(
                    slot_words(i),
                    b.help,
                    "{} in {:?}",
                    slots()[i].name,
                    b.label
                );
            }
        }
        assert_eq!(shared, 9);
        // Nor does a row of several commands of one kind say the same of each.
        for (r, b) in BINDINGS.iter().enumerate() {
            let mut said: Vec<String> = row_slots()[r].iter().map(|&i| slot_words(i)).collect();
            said.sort();
            let before = said.len();
            said.dedup();
            assert_eq!(
                said.len(),
                before,
                "{:?} {:?}: {said:?}",
                b.context,
                b.label
            );
        }
        let words = |name: &str| {
            let i = slots().iter().position(|s| s.name == name).unwrap();
            slot_words(i)
        };
        assert_eq!(words("prev_monster"), "select prev foe");
        assert_eq!(words("newer"), "newer message");
        assert_eq!(words("oldest"), "oldest");
    }

    #[test]
    fn the_bindings_are_the_table_when_every_key_is_the_table_s() {
        use crate::game::KeyNames;
        assert!(Bindings::standard().is_table());
        // Written out, but as the table has it: still the table, so nothing is worded again.
        assert!(
            parse_str("[keys.everywhere]\nmove_w = [\"h\", \"Left\", \"4\"]\n")
                .unwrap()
                .bindings
                .is_table()
        );
        for file in [
            "[keys.everywhere]\nmove_w = [\"F2\"]\n",
            "[keys.everywhere]\nmove_w = [\"h\"]\n",
            "[keys.playing]\nwait = [\".\", \"F2\"]\n",
        ] {
            assert!(!parse_str(file).unwrap().bindings.is_table(), "{file}");
        }
    }

    #[test]
    fn the_default_bindings_do_not_clash() {
        let none = vec![None; slots().len()];
        let e = |_: Range<usize>, m: String| ParseError::new("x".into(), 1, 1, m, "");
        check_clashes(&Bindings::default(), &none, &e).unwrap();
    }

    #[test]
    fn the_standard_bindings_give_what_the_table_gives() {
        use crossterm::event::{KeyEvent, KeyModifiers};
        let mut codes: Vec<KeyCode> = (' '..='~').map(KeyCode::Char).collect();
        codes.extend(NAMED.iter().map(|n| n.1));
        for stack in STACKS {
            for &code in &codes {
                for mods in [KeyModifiers::NONE, KeyModifiers::CONTROL] {
                    let event = KeyEvent::new(code, mods);
                    let key = Key::of(&event).unwrap();
                    assert_eq!(
                        Bindings::standard().lookup(stack, key),
                        super::super::keymap::lookup_table(stack, &event),
                        "{code:?} {mods:?} in {stack:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn keys_read_back_from_their_labels() {
        for s in slots() {
            for &k in &s.defaults {
                assert_eq!(parse_key(&label(k)), Ok(k), "{}", label(k));
            }
        }
        assert_eq!(
            parse_key("BackTab"),
            Ok(Key {
                code: KeyCode::BackTab,
                ctrl: false
            })
        );
        assert_eq!(
            parse_key("C-P"),
            Ok(Key {
                code: KeyCode::Char('p'),
                ctrl: true
            })
        );
        assert!(parse_key("C-c").is_err());
        assert!(
            parse_key("Lfet")
                .unwrap_err()
                .to_string()
                .contains("is not a key")
        );
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = parse_str("[game]\nsight = yes\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 9), "{e}");
        let e = parse_str("[keys.playing]\nwiat = [\".\"]\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 1), "{e}");
        assert!(
            e.message
                .starts_with("unknown action \"wiat\" in [keys.playing]"),
            "{e}"
        );
        let e = parse_str("[colours]\nopen = \"purpel\"\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 8), "{e}");
        let e = parse_str("[game]\nautoplay_speed = 30\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 18), "{e}");
        let e = parse_str("[keys.everywhere]\nmove_w = [\"h\", \"Lfet\"]\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 16), "{e}");
    }

    #[test]
    fn two_actions_on_one_key_name_both() {
        let e = parse_str("[keys.playing]\nwait = [\"h\"]\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 9), "{e}");
        assert_eq!(
            e.message,
            "\"h\" is bound to both everywhere.move_w (its default) and playing.wait: one key can do one thing"
        );
        // Different parts of the game that never apply together may share a key.
        parse_str("[keys.edit]\nwall = [\"s\"]\nsave = [\"C-s\"]\n").unwrap();
    }

    /// Which slots follow which, written out by their names in the file as [`followed`]
    /// promises them, so that a follower it misses, one too many or one that follows the
    /// wrong way fails; and the table gives each follower the keys of those it follows.
    #[test]
    fn each_follower_has_the_keys_it_follows_in_the_table_too() {
        let follows: [(&str, &[&str]); 17] = [
            ("attack_in_place.attack_w", &["everywhere.move_w"]),
            ("attack_in_place.attack_s", &["everywhere.move_s"]),
            ("attack_in_place.attack_n", &["everywhere.move_n"]),
            ("attack_in_place.attack_e", &["everywhere.move_e"]),
            ("attack_in_place.attack_nw", &["everywhere.move_nw"]),
            ("attack_in_place.attack_ne", &["everywhere.move_ne"]),
            ("attack_in_place.attack_sw", &["everywhere.move_sw"]),
            ("attack_in_place.attack_se", &["everywhere.move_se"]),
            (
                "attack_in_place.attack",
                &["playing.attack", "everywhere.back"],
            ),
            ("resize.grow_left", &["everywhere.move_w"]),
            ("resize.grow_right", &["everywhere.move_e"]),
            ("resize.grow_top", &["everywhere.move_n"]),
            ("resize.grow_bottom", &["everywhere.move_s"]),
            ("history.older", &["everywhere.move_n"]),
            ("history.newer", &["everywhere.move_s"]),
            ("busy.quit", &["playing.quit"]),
            ("busy.yes", &["questions.yes"]),
        ];
        let name = |i: usize| format!("{}.{}", section(slots()[i].context), slots()[i].name);
        let mut want: Vec<(String, Vec<String>)> = follows
            .iter()
            .map(|(f, from)| (f.to_string(), from.iter().map(|m| m.to_string()).collect()))
            .collect();
        let mut got: Vec<(String, Vec<String>)> = followed()
            .iter()
            .enumerate()
            .filter(|(_, from)| !from.is_empty())
            .map(|(i, from)| (name(i), from.iter().map(|&m| name(m)).collect()))
            .collect();
        want.sort();
        got.sort();
        assert_eq!(got, want);
        let table: Vec<Vec<Key>> = slots().iter().map(|s| s.defaults.clone()).collect();
        for (i, from) in followed().iter().enumerate() {
            if !from.is_empty() {
                assert_eq!(slots()[i].defaults, followed_keys(&table, i), "{}", name(i));
            }
        }
    }

    /// Resizing and the history follow the moves as aiming does, but a key that part of
    /// the game binds itself stays its own; the busy box follows quit and yes.
    #[test]
    fn resizing_the_history_and_the_busy_box_follow_the_moves_quit_and_yes() {
        let key = |c| Key {
            code: c,
            ctrl: false,
        };
        let resize = [Context::Resize, Context::Always];
        let history = [Context::History, Context::Always];
        let busy = [Context::Busy, Context::Always];
        let s = parse_str(
            "[keys.everywhere]\nmove_n = [\"K\", \"I\"]\nmove_w = [\"A\"]\n[keys.playing]\nquit = [\"C-q\"]\n[keys.questions]\nyes = [\"o\"]\n",
        )
        .unwrap();
        let b = &s.bindings;
        let (k, w, a) = (KeyCode::Char('K'), KeyCode::Char('I'), KeyCode::Char('A'));
        // K crops the top while resizing, as the table has it; I grows it.
        assert_eq!(
            b.lookup(&resize, key(k)),
            Some(Action::Resize(Side::Top, -1))
        );
        assert_eq!(
            b.lookup(&resize, key(w)),
            Some(Action::Resize(Side::Top, 1))
        );
        assert_eq!(
            b.lookup(&resize, key(a)),
            Some(Action::Resize(Side::Left, 1))
        );
        assert_eq!(b.lookup(&resize, key(KeyCode::Char('h'))), None);
        assert_eq!(b.lookup(&resize, key(KeyCode::Up)), None);
        assert_eq!(b.lookup(&history, key(k)), Some(Action::Scroll(1)));
        assert_eq!(b.lookup(&history, key(w)), Some(Action::Scroll(1)));
        assert_eq!(b.lookup(&history, key(KeyCode::Char('k'))), None);
        assert_eq!(
            b.lookup(&history, key(KeyCode::Down)),
            Some(Action::Scroll(-1))
        );
        let c_q = Key {
            code: KeyCode::Char('q'),
            ctrl: true,
        };
        assert_eq!(b.lookup(&busy, c_q), Some(Action::Quit));
        assert_eq!(b.lookup(&busy, key(KeyCode::Char('q'))), None);
        assert_eq!(b.lookup(&busy, key(KeyCode::Char('o'))), Some(Action::Yes));
        assert_eq!(b.lookup(&busy, key(KeyCode::Char('y'))), None);
        // Bound on purpose, they keep their own keys.
        let s = parse_str(
            "[keys.everywhere]\nmove_n = [\"I\"]\n[keys.resize]\ngrow_top = [\"T\"]\n[keys.busy]\nquit = [\"Q\"]\n",
        )
        .unwrap();
        let b = &s.bindings;
        assert_eq!(b.lookup(&resize, key(w)), None);
        assert_eq!(
            b.lookup(&resize, key(KeyCode::Char('T'))),
            Some(Action::Resize(Side::Top, 1))
        );
        assert_eq!(b.lookup(&busy, key(KeyCode::Char('Q'))), Some(Action::Quit));
    }

    #[test]
    fn attacks_in_place_follow_the_moves_unless_bound() {
        let aim = [Context::Aim, Context::Always];
        let key = |c| Key {
            code: c,
            ctrl: false,
        };
        let (a, d, z) = (KeyCode::F(2), KeyCode::F(3), KeyCode::F(4));
        let (h, j) = (KeyCode::Char('h'), KeyCode::Char('j'));
        let s = parse_str("[keys.everywhere]\nmove_w = [\"F2\"]\nmove_e = [\"F3\"]\n").unwrap();
        let b = &s.bindings;
        assert_eq!(b.lookup(&aim, key(a)), Some(Action::AttackToward(-1, 0)));
        assert_eq!(b.lookup(&aim, key(d)), Some(Action::AttackToward(1, 0)));
        assert_eq!(b.lookup(&aim, key(h)), None);
        assert_eq!(b.lookup(&aim, key(j)), Some(Action::AttackToward(0, 1)));
        let row = BINDINGS
            .iter()
            .position(|r| r.context == Context::Aim && !r.hint.is_empty())
            .unwrap();
        assert_eq!(b.label(row), "F2 j k F3");
        assert_eq!(b.hint(row), "F2jkF3yubn attack");
        // Bound on purpose, an attack keeps its own keys whatever the moves are.
        let s = parse_str(
            "[keys.attack_in_place]\nattack_w = [\"F4\"]\n[keys.everywhere]\nmove_w = [\"F2\"]\n",
        )
        .unwrap();
        assert_eq!(
            s.bindings.lookup(&aim, key(z)),
            Some(Action::AttackToward(-1, 0))
        );
        assert_eq!(s.bindings.lookup(&aim, key(a)), None);
        // The cancel follows the attack key (and the way back), in the hint too.
        let s = parse_str("[keys.playing]\nattack = [\"F4\"]\n").unwrap();
        assert_eq!(s.bindings.lookup(&aim, key(z)), Some(Action::Attack));
        assert_eq!(
            s.bindings.lookup(&aim, key(KeyCode::Esc)),
            Some(Action::Attack)
        );
        assert_eq!(s.bindings.lookup(&aim, key(KeyCode::Char('F'))), None);
        let cancel = BINDINGS
            .iter()
            .position(|r| r.context == Context::Aim && r.hint.ends_with(" cancel"))
            .unwrap();
        assert_eq!(s.bindings.hint(cancel), "F4 Esc cancel");
        // A move key that cancels the attack too is a clash, at the move's key.
        let e = parse_str("[keys.attack_in_place]\nattack = [\"F\", \"u\"]\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 16), "{e}");
        assert_eq!(
            e.message,
            "\"u\" is bound to both attack_in_place.attack_ne (as everywhere.move_ne, its default) and attack_in_place.attack: one key can do one thing"
        );
        let e = parse_str(
            "[keys.attack_in_place]\nattack = [\"F\", \"w\"]\n[keys.everywhere]\nmove_n = [\"w\"]\n",
        )
        .unwrap_err();
        assert_eq!((e.line, e.col), (4, 11), "{e}");
        assert_eq!(
            e.message,
            "\"w\" is bound to both attack_in_place.attack_n (as everywhere.move_n) and attack_in_place.attack: one key can do one thing"
        );
    }

    #[test]
    fn headings_and_the_help_title_name_the_bound_keys() {
        let s = parse_str(
            "[keys.playing]\noverlay = [\"F2\"]\nattack = [\"F3\"]\n[keys.help]\nclose = [\"c\"]\n",
        )
        .unwrap();
        let b = &s.bindings;
        assert_eq!(b.title(Context::Overlay), "Search overlay (F2)");
        assert_eq!(b.title(Context::Aim), "Attack in place (F3)");
        assert_eq!(b.title(Context::Look), "Look mode (x)");
        let row = |ctx, action| {
            BINDINGS
                .iter()
                .position(|r| r.context == ctx && r.keys.iter().any(|(_, a)| *a == action))
                .unwrap()
        };
        assert_eq!(
            b.help(row(Context::Play, Action::Attack)),
            "attack in place: F3, a way"
        );
        assert_eq!(b.help(row(Context::Play, Action::Wait)), "wait a turn");
        let s = parse_str("[keys.edit]\ncopy = [\"C\"]\n").unwrap();
        let copy = row(Context::Edit, Action::Tool(Tool::Copy));
        assert_eq!(s.bindings.help(copy), "copy: corner, C again");
        assert_eq!(Bindings::standard().help(copy), "copy: corner, c again");
        assert_eq!(
            super::super::help::title(b, 1, 3, 80),
            " help 2/3: Space or PgDn next, PgUp back, c closes "
        );
        assert_eq!(
            super::super::help::title(Bindings::standard(), 1, 3, 80),
            " help 2/3: Space or PgDn next, PgUp back, Esc closes "
        );
    }

    #[test]
    fn the_log_names_the_tables_keys_for_its_commands() {
        for c in Command::ALL {
            assert_eq!(Bindings::standard().command_key(c), c.table_key(), "{c:?}");
        }
    }

    #[test]
    fn a_theme_then_its_colours() {
        let s = parse_str("[colours]\nopen = \"cyan\"\ntheme = \"colour-blind\"\n").unwrap();
        assert_eq!(s.theme.open, Color::Cyan);
        assert_eq!(s.theme.closed, THEMES[1].1.closed);
    }

    #[test]
    fn bound_keys_show_in_labels_and_hints() {
        let s = parse_str(
            "[keys.everywhere]\nhelp = [\"F1\"]\nmove_w = [\"F2\"]\n[keys.overlay]\nautoplay = [\"A\"]\nstep_back = [\",\"]\n",
        )
        .unwrap();
        let b = &s.bindings;
        let row = |label: &str| BINDINGS.iter().position(|r| r.label == label).unwrap();
        assert_eq!(b.label(row("?")), "F1");
        assert_eq!(b.hint(row("?")), "F1 help");
        assert_eq!(b.label(row("[ ]")), ", ]");
        assert_eq!(b.hint(row("[ ]")), ", ] step");
        assert_eq!(b.label(row("←↓↑→ hjkl")), "F2 j k l");
        assert_eq!(b.hint(row("moves")), "F2jklyubn move");
        assert_eq!(b.hint(row("o")), "o search");
        assert_eq!(b.hint(row("+ -")), "+- speed");
        // Keys with names show as the table writes them, not as the file does.
        let arrows = parse_str("[keys.everywhere]\nmove_w = [\"Left\"]\nmove_ne = [\"PageUp\"]\n")
            .unwrap()
            .bindings;
        assert_eq!(arrows.label(row("←↓↑→ hjkl")), "← j k l");
        assert_eq!(arrows.hint(row("moves")), "←jklyPgUpbn move");
        assert_eq!(arrows.key_of(Context::Global, Action::Move(-1, 0)), "←");
        // A hint that names keys of other rows, or several keys of its own.
        let s = parse_str(
            "[keys.overlay]\nheuristic = [\"F3\"]\n[keys.resize]\ngrow_left = [\"F1\"]\ncrop_top = [\"I\"]\n[keys.history]\nolder = [\"F5\"]\n[keys.look]\nlook = [\"F6\"]\n",
        )
        .unwrap();
        let b = &s.bindings;
        let row = |ctx: Context, label: &str| {
            BINDINGS
                .iter()
                .position(|r| r.context == ctx && r.label == label)
                .unwrap()
        };
        assert_eq!(b.hint(row(Context::Overlay, "N")), "N F3 W B options");
        assert_eq!(b.hint(row(Context::Resize, "←↓↑→ hjkl")), "F1 j k l grow");
        assert_eq!(b.hint(row(Context::Resize, "H L K J")), "HJIL crop");
        assert_eq!(
            b.hint(row(Context::History, "↑↓ k j 8 2")),
            "F5 ↓ PgUp PgDn scroll"
        );
        assert_eq!(b.hint(row(Context::Look, "x q")), "F6 Esc leave");
        assert_eq!(b.hint(row(Context::Edit, "U C-z")), "U/R undo/redo");
    }
}
