//! The script parser: header lines, a recording's carried lines and the tokens of the rest.

use std::path::{Path, PathBuf};

use super::token::{Action, lab_query, parse_token, terminal_size};
use crate::engine::grid::Pos;
use crate::game::Planning;
use crate::text::{LoadError, ParseError};

/// Most repeats of one token, and most steps in a whole script, so no script exhausts memory.
pub const MAX_REPEAT: u32 = 1_000_000;
/// Most steps in a script after repeats are expanded.
pub const MAX_STEPS: usize = 5_000_000;
/// Largest script file accepted: as large as a save, since a recording carries copies of
/// the floors it reaches (a level is up to 64 MiB); its tokens are bounded apart
/// ([`MAX_STEPS`]).
pub const MAX_SCRIPT_BYTES: u64 = 512 * 1024 * 1024;

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
    /// [`styles_text`](super::styles_text).
    pub styles: bool,
    /// Whether the game kept its runs (`#! runs: kept`, as `play` records): its questions
    /// said so and each new run drew the next seed ([`Front::set_keeping`](crate::app::Front::set_keeping)).
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

/// What a recording carries of what it replays (see [`super::super::record`]): the level and the
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
    let mut script = Script::default();
    let mut total = 0usize;
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
            .map_err(|(col, m)| ParseError::new(file.to_string(), n, col, m, line))?;
            continue;
        }
        if let Some(rest) = line.trim_start().strip_prefix("#!")
            && script.steps.is_empty()
        {
            header_line(&mut script.header, rest, (file, n, line))?;
            continue;
        }
        token_line(&mut script.steps, &mut total, (file, n, line))?;
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

/// A line of a script: its file's name, its number from 1 and its text.
type At<'a> = (&'a str, usize, &'a str);

/// Reads a header line `#! key: value` (`rest` follows the `#!`) into `header`.
fn header_line(header: &mut Header, rest: &str, (file, n, line): At<'_>) -> Result<(), ParseError> {
    let col = line.chars().count() - line.trim_start().chars().count() + 3;
    let err = |msg: String| ParseError::new(file.to_string(), n, col, msg, line);
    let (key, value) = rest
        .split_once(':')
        .ok_or_else(|| err("header needs `key: value`".into()))?;
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
    let base = Path::new(file).parent().unwrap_or(Path::new(""));
    match key.trim() {
        "level" => {
            // Quoted when the name needs it (a leading space, a newline): see
            // `text::quote_path`, which recordings write it with.
            let path = crate::text::unquote_path(value).map_err(|e| err(e.to_string()))?;
            if path.as_os_str().is_empty() {
                // At the header, as every header error of the parser is.
                return Err(err(
                    "empty level: name the level file, e.g. `#! level: pillar.txt`".into(),
                ));
            }
            header.level = Some(base.join(path));
            header.level_at = Some(here());
        }
        "config" => header.config = Some(base.join(value)),
        "size" => header.size = Some(terminal_size(value).map_err(|e| err(e.to_string()))?),
        "seed" => {
            header.seed = Some(
                value
                    .parse()
                    .map_err(|_| err(format!("bad seed {value:?}")))?,
            )
        }
        "lab" => {
            header.lab = Some(lab_query(value).map_err(|e| err(e.to_string()))?);
            header.lab_at = Some(here());
        }
        "planning" => header.planning = Some(value.parse().map_err(err)?),
        "styles" => header.styles = switch("styles", value, ("on", "off"), err)?,
        "ticks" => header.manual_ticks = switch("ticks", value, ("manual", "auto"), err)?,
        "runs" => header.kept_runs = switch("runs", value, ("kept", "plain"), err)?,
        other => {
            return Err(err(format!(
                "unknown header {other:?} (known: level, size, seed, lab, planning, ticks, styles, config, runs)"
            )));
        }
    }
    Ok(())
}

/// A header that is one of two words: whether it is the first (`yes`).
fn switch(
    name: &str,
    value: &str,
    (yes, no): (&str, &str),
    err: impl Fn(String) -> ParseError,
) -> Result<bool, ParseError> {
    match value {
        v if v == yes => Ok(true),
        v if v == no => Ok(false),
        _ => Err(err(format!("bad {name} {value:?}: use {yes} or {no}"))),
    }
}

/// Reads the tokens of a line (up to a comment) into `steps`, `total` counting the steps
/// they expand to.
fn token_line(
    steps: &mut Vec<Step>,
    total: &mut usize,
    (file, n, line): At<'_>,
) -> Result<(), ParseError> {
    let err = |col: usize, msg: String| ParseError::new(file.to_string(), n, col, msg, line);
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
        let (repeat, body, body_col) = match word.split_once('*') {
            Some((count, body))
                if !count.is_empty() && count.bytes().all(|b| b.is_ascii_digit()) =>
            {
                let r: u32 = count
                    .parse()
                    .ok()
                    .filter(|r| (1..=MAX_REPEAT).contains(r))
                    .ok_or_else(|| err(col, format!("repeat count must be 1 to {MAX_REPEAT}")))?;
                (r, body, col + count.len() + 1)
            }
            _ => (1, word, col),
        };
        let action = parse_token(body).map_err(|e| err(body_col, e.to_string()))?;
        if matches!(action, Action::Snap(_)) && repeat > 1 {
            return Err(err(col, "a snap cannot be repeated".into()));
        }
        *total += repeat as usize;
        if *total > MAX_STEPS {
            return Err(err(
                col,
                format!("script expands to more than {MAX_STEPS} steps"),
            ));
        }
        steps.push(Step {
            action,
            repeat,
            token: steps.len() + 1,
            line: n,
        });
    }
    Ok(())
}

/// Reads a script file of at most [`MAX_SCRIPT_BYTES`] and parses it.
pub fn load(path: &Path) -> Result<Script, LoadError> {
    let bytes = crate::text::read_limited(path, MAX_SCRIPT_BYTES, "script")?;
    Ok(parse(&bytes, &path.display().to_string())?)
}
