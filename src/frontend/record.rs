//! Recording a game in the terminal as a script (`play --record FILE.keys`), so that
//! `astar-rogue script FILE.keys` replays it to the very frame the terminal showed last;
//! and, after a panic, a crash file with the same recording.
//!
//! Every input the app handles is written as the script token that the parser reads back
//! as the same input ([`super::script::token`]); resizes as `resize:WxH`, reloads of outside
//! edits as `reload`. Time is not recorded, but ticks are: the script says `#! ticks:
//! manual`, so the runner advances travel and autoplay only at the `tick` tokens, exactly
//! where the terminal did, and a key that stopped travel half-way stops it at the same step.
//! The input that quit the game is written as a comment: the terminal never drew what
//! came after it, and the replay must end on what it drew.
//!
//! A recording carries what it replays, so that it plays the same game after its files
//! change: lines that start with `#=` (comments to any reader that does not know them)
//! hold a copy of the level as the game began on it (`#= level KEY`), of the settings
//! (`#= config KEY`), and every answer the disk gave the game, in order (`#= io JSON`:
//! a reload's bytes, a floor below, how a save went). Each file's bytes are written once,
//! before the first line that needs them (`#= carry KEY "t:TEXT"`, KEY being the bytes'
//! FNV-1a hash and length), and named by `@KEY` after that: a floor visited ten times is
//! carried once.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use crossterm::event::{Event, MouseEventKind};

/// The script format keys the bytes a recording carries.
pub use super::script::carry_key;
use super::script::token;
use crate::app::{Replacing, create_for_writing};
use crate::session::Io;
use crate::session::journal::bytes_text;

/// A recording under way.
#[derive(Debug)]
pub struct Recorder {
    /// The level file, absolute (`None` for the built-in default level).
    level: Option<PathBuf>,
    seed: u64,
    size: (u16, u16),
    /// Lines of tokens and comments, in order.
    lines: Vec<String>,
    /// The line of the input being handled: committed once the app has handled it.
    pending: Option<String>,
    /// Ticks run since the last line.
    ticks: u32,
    /// The file recorded into, and how many lines it has been given.
    file: Option<(PathBuf, BufWriter<File>, usize)>,
    /// Replacing an earlier recording: the new one takes its place once its header is
    /// written.
    replacing: Option<Replacing>,
    /// Whether the last mouse token pressed or dragged a button: a mouse move or scroll
    /// then ends the stroke as a release does, so it is recorded as one.
    in_stroke: bool,
    /// Further header lines (`planning: map`), for games started with options the
    /// replay needs.
    extra: Vec<String>,
    /// Whether this recording continues an earlier one (a resumed run), whose lines it
    /// starts with.
    continued: bool,
    /// The bytes of every file the recording carries, by key ([`carry_key`]).
    carried: std::collections::HashMap<String, std::sync::Arc<Vec<u8>>>,
    /// The keys carried in the file written so far.
    carried_out: std::collections::HashSet<String>,
    /// The carried copies named in the header: the level's and the settings'.
    copies: Vec<(&'static str, String)>,
    /// How many disk answers it has taken.
    answers: usize,
    /// A run's tape this recording continues, written in place of a header.
    prefix: Option<String>,
}

/// The line that carries `bytes` under `key`.
pub fn carry_line(key: &str, bytes: &[u8]) -> String {
    let text = serde_json::to_string(&bytes_text::encode(bytes)).unwrap_or_default();
    format!("#= carry {key} {text}")
}

/// The keys a line names (`@KEY` in a disk answer, or a header's copy), in order.
pub fn carried_keys(line: &str) -> Vec<&str> {
    if let Some(key) = line
        .strip_prefix("#= level ")
        .or_else(|| line.strip_prefix("#= config "))
    {
        return vec![key.trim()];
    }
    let Some(json) = line.strip_prefix("#= io ") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut rest = json;
    while let Some(at) = rest.find("\"@") {
        let tail = &rest[at + 2..];
        let end = tail.find('"').unwrap_or(tail.len());
        out.push(&tail[..end]);
        rest = &tail[end..];
    }
    out
}

/// The line of a disk answer, its bytes named by key, with the bytes to carry.
pub fn io_line(answer: &Io) -> (String, Vec<(String, Vec<u8>)>) {
    let mut value = serde_json::to_value(answer).unwrap_or_default();
    let mut carried = Vec::new();
    name_bytes(&mut value, &mut carried);
    (format!("#= io {value}"), carried)
}

/// Replaces every `bytes` value (`t:...` or `x:...`) in `value` by `@KEY`, keeping the
/// bytes in `carried`.
fn name_bytes(value: &mut serde_json::Value, carried: &mut Vec<(String, Vec<u8>)>) {
    match value {
        serde_json::Value::Object(map) => {
            for (k, v) in map.iter_mut() {
                if k == "bytes"
                    && let Some(text) = v.as_str()
                    && let Ok(bytes) = bytes_text::decode(text)
                {
                    let key = carry_key(&bytes);
                    *v = serde_json::Value::String(format!("@{key}"));
                    carried.push((key, bytes));
                } else {
                    name_bytes(v, carried);
                }
            }
        }
        serde_json::Value::Array(items) => {
            for v in items {
                name_bytes(v, carried);
            }
        }
        _ => {}
    }
}

/// The line of `n` ticks (`tick`, `N*tick`), or none.
pub fn tick_line(n: u32) -> Option<String> {
    match n {
        0 => None,
        1 => Some("tick".into()),
        n => Some(format!("{n}*tick")),
    }
}

impl Recorder {
    /// A recording of a game on `level` (`None`: the built-in level) with `seed`, kept in
    /// memory and, with `file`, written there as it goes.
    ///
    /// The file follows the save rules ([`create_for_writing`]): a new file is created
    /// exclusively; where something exists already, nothing is written unless `force` is
    /// given and it is (or links to) a regular, writable file that is itself a recording
    /// (it starts with the line recordings start with). A slip of the command line never
    /// truncates a level, a hand-written script or anything else, whatever its name. An
    /// earlier recording is replaced atomically once the new header is written.
    pub fn new(
        level: Option<&Path>,
        seed: u64,
        file: Option<&Path>,
        force: bool,
    ) -> io::Result<Self> {
        let level = level.map(std::path::absolute).transpose()?;
        let (file, replacing) = match file {
            Some(p) => {
                let (f, replacing) = create_for_writing(p, |target| {
                    if !force {
                        return Err(io::Error::new(
                            io::ErrorKind::AlreadyExists,
                            "it exists; nothing was written (--force replaces an earlier recording)",
                        ));
                    }
                    if !is_recording(target) {
                        return Err(io::Error::new(
                            io::ErrorKind::AlreadyExists,
                            "it is not a recording (it does not start with the line recordings start with), so even --force does not replace it; nothing was written",
                        ));
                    }
                    Ok(())
                })?;
                let target = replacing.target().to_path_buf();
                (Some((target, BufWriter::new(f), 0)), Some(replacing))
            }
            None => (None, None),
        };
        Ok(Self {
            level,
            seed,
            size: (80, 24),
            lines: Vec::new(),
            pending: None,
            ticks: 0,
            file,
            replacing,
            in_stroke: false,
            extra: Vec::new(),
            continued: false,
            carried: Default::default(),
            carried_out: Default::default(),
            copies: Vec::new(),
            answers: 0,
            prefix: None,
        })
    }

    /// Carries copies of the level's bytes and the settings file's, as the game began on
    /// them: the replay plays these, whatever the files hold by then (before the recording
    /// starts).
    pub fn with_copies(mut self, level: Option<&[u8]>, config: Option<&[u8]>) -> Self {
        for (what, bytes) in [("level", level), ("config", config)] {
            if let Some(bytes) = bytes {
                let key = carry_key(bytes);
                self.carried
                    .insert(key.clone(), std::sync::Arc::new(bytes.to_vec()));
                self.copies.push((what, key));
            }
        }
        self
    }

    /// The disk's answers to the input just handled: recorded in order, each file's bytes
    /// carried once.
    pub fn io(&mut self, answers: Vec<Io>) {
        if answers.is_empty() {
            return;
        }
        self.commit();
        self.write_ticks();
        for answer in &answers {
            let (line, carried) = io_line(answer);
            for (key, bytes) in carried {
                self.carried
                    .entry(key)
                    .or_insert_with(|| std::sync::Arc::new(bytes));
            }
            self.push(line);
        }
        // How deep the designed floors go is asked whenever a game starts: not a move.
        self.answers += answers
            .iter()
            .filter(|a| !matches!(a, Io::Chain(_)))
            .count();
    }

    /// How many disk answers the recording has taken (beyond the depth of the designed
    /// floors, which every game asks when it starts): it changes when the game touched the
    /// disk (a save, a reload, a floor read).
    pub fn answers(&self) -> usize {
        self.answers
    }

    /// The bytes carried under `key`.
    pub fn carried(&self, key: &str) -> Option<std::sync::Arc<Vec<u8>>> {
        self.carried.get(key).cloned()
    }

    /// Continues an earlier recording (a resumed run): its `lines`, recorded in a terminal
    /// of `size`, come first, and the header says that size; [`Recorder::start`] then
    /// records the terminal's own size as a resize when it differs, so the whole recording
    /// replays the run from its very start.
    pub fn continuing(mut self, size: (u16, u16), lines: Vec<String>) -> Self {
        self.size = size;
        self.lines = lines;
        self.continued = true;
        self
    }

    /// Continues a run's tape (a resumed run): the recording starts with `text`, a whole
    /// recording, header and all, written as it is; the lines recorded from now on follow.
    pub fn continuing_tape(mut self, text: String, size: (u16, u16)) -> Self {
        // The tape's game was at `size`: a terminal of another size is an input of the run.
        self.size = size;
        self.continued = true;
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("#= carry ")
                && let Some((key, _)) = rest.split_once(' ')
            {
                self.carried_out.insert(key.to_string());
            }
        }
        self.prefix = Some(text);
        self
    }

    /// The lines recorded so far (after the header) and the ticks run since the last of
    /// them: the input handled so far, without the one being handled.
    pub fn tape(&self) -> (&[String], u32) {
        (&self.lines, self.ticks)
    }

    /// The terminal size the header gives: where the replay starts.
    pub fn start_size(&self) -> (u16, u16) {
        self.size
    }

    /// Adds a header line `#! KEY: VALUE` (before the recording starts).
    pub fn with_header(mut self, key: &str, value: impl std::fmt::Display) -> Self {
        self.extra.push(format!("#! {key}: {value}"));
        self
    }

    /// The game starts in a terminal of `size`: writes the header.
    pub fn start(&mut self, size: (u16, u16)) {
        let first = if self.continued { self.size } else { size };
        self.size = first;
        if let Some((path, out, _)) = &mut self.file {
            let mut header = header(self.level.as_deref(), self.seed, first, path, &self.extra);
            if let Some(prefix) = &self.prefix {
                header.clone_from(prefix);
            }
            let copies = if self.prefix.is_some() {
                &[][..]
            } else {
                &self.copies[..]
            };
            for (what, key) in copies {
                if self.carried_out.insert(key.clone())
                    && let Some(bytes) = self.carried.get(key)
                {
                    header.push_str(&carry_line(key, bytes));
                    header.push('\n');
                }
                header.push_str(&format!("#= {what} {key}\n"));
            }
            let _ = out.write_all(header.as_bytes()).and_then(|()| out.flush());
            if let Some(replacing) = &mut self.replacing {
                let _ = replacing.commit(out.get_ref());
            }
        }
        if self.continued {
            self.flush();
            if size != first {
                self.event(&Event::Resize(size.0, size.1));
                self.commit();
            }
        }
    }

    /// An input about to be handled.
    pub fn event(&mut self, event: &Event) {
        self.commit();
        self.write_ticks();
        let line = match event {
            Event::Mouse(m)
                if matches!(
                    m.kind,
                    MouseEventKind::Moved
                        | MouseEventKind::ScrollUp
                        | MouseEventKind::ScrollDown
                        | MouseEventKind::ScrollLeft
                        | MouseEventKind::ScrollRight
                ) =>
            {
                // Only a stroke cares: anything but a drag ends it. Otherwise the app
                // ignores these, and there are many.
                self.in_stroke
                    .then(|| format!("release:{},{}", m.column, m.row))
            }
            Event::FocusGained | Event::FocusLost => None,
            _ => Some(token(event).unwrap_or_else(|| format!("# not recordable: {event:?}"))),
        };
        if let Event::Mouse(m) = event {
            self.in_stroke = matches!(m.kind, MouseEventKind::Down(_) | MouseEventKind::Drag(_));
        } else if line.is_some() {
            self.in_stroke = false;
        }
        self.pending = line;
    }

    /// The input has been handled and the game goes on.
    pub fn commit(&mut self) {
        if let Some(line) = self.pending.take() {
            self.push(line);
        }
    }

    /// The input has been handled and it quit the game: written as a comment, since the
    /// terminal drew nothing after it.
    pub fn commit_as_quit(&mut self) {
        if let Some(line) = self.pending.take() {
            self.push(format!(
                "# {line}   (quit; not replayed, so the replay ends on the last frame shown)"
            ));
        }
    }

    /// A tick of travel or autoplay is about to run.
    pub fn tick(&mut self) {
        self.commit();
        self.ticks += 1;
    }

    /// The level file was reloaded after an outside edit.
    pub fn reload(&mut self) {
        self.commit();
        self.write_ticks();
        self.push("reload".into());
    }

    /// A comment line.
    pub fn comment(&mut self, text: &str) {
        self.commit();
        self.write_ticks();
        self.push(format!("# {text}"));
    }

    /// Writes what is recorded so far to the file.
    pub fn flush(&mut self) {
        if let Some((_, out, written)) = &mut self.file {
            for line in &self.lines[*written..] {
                for key in carried_keys(line) {
                    if self.carried_out.insert(key.to_string())
                        && let Some(bytes) = self.carried.get(key)
                    {
                        let _ = writeln!(out, "{}", carry_line(key, bytes));
                    }
                }
                let _ = writeln!(out, "{line}");
            }
            *written = self.lines.len();
            let _ = out.flush();
        }
    }

    /// The game ended: writes everything.
    pub fn finish(&mut self) {
        self.commit();
        self.write_ticks();
        self.flush();
    }

    /// The whole recording as a script file placed in `dir` (the level path is relative to
    /// it when the level lies below it).
    pub fn script_in(&self, dir: &Path) -> String {
        if let Some(prefix) = &self.prefix {
            let mut out = prefix.clone();
            let mut carried: std::collections::HashSet<&str> = prefix
                .lines()
                .filter_map(|l| l.strip_prefix("#= carry ")?.split_once(' '))
                .map(|(key, _)| key)
                .collect();
            for line in self.lines.iter().chain(&self.pending) {
                for key in carried_keys(line) {
                    if carried.insert(key)
                        && let Some(bytes) = self.carried.get(key)
                    {
                        out.push_str(&carry_line(key, bytes));
                        out.push('\n');
                    }
                }
                out.push_str(line);
                out.push('\n');
            }
            if self.ticks > 0 {
                out.push_str(&format!("{}*tick\n", self.ticks));
            }
            return out;
        }
        let mut out = header(
            self.level.as_deref(),
            self.seed,
            self.size,
            &dir.join("x"),
            &self.extra,
        );
        let mut carried = std::collections::HashSet::new();
        let copies: Vec<String> = self
            .copies
            .iter()
            .map(|(what, key)| format!("#= {what} {key}"))
            .collect();
        for line in copies.iter().chain(&self.lines).chain(&self.pending) {
            for key in carried_keys(line) {
                if carried.insert(key)
                    && let Some(bytes) = self.carried.get(key)
                {
                    out.push_str(&carry_line(key, bytes));
                    out.push('\n');
                }
            }
            out.push_str(line);
            out.push('\n');
        }
        if self.ticks > 0 {
            out.push_str(&format!("{}*tick\n", self.ticks));
        }
        out
    }

    /// Writes the recording to a new crash file beside the level (or in the current folder
    /// when that fails or there is no level file): `NAME.crash.keys`, `NAME.crash-1.keys`...
    pub fn write_crash_file(&self) -> io::Result<PathBuf> {
        let stem = self.level.as_deref().and_then(Path::file_stem).map_or_else(
            || "astar-rogue".into(),
            |s| s.to_string_lossy().into_owned(),
        );
        let beside = self.level.as_deref().and_then(Path::parent);
        let cwd = std::env::current_dir()?;
        let mut last = None;
        for dir in beside.into_iter().chain([cwd.as_path()]) {
            match self.write_new(dir, &stem) {
                Ok(p) => return Ok(p),
                Err(e) => last = Some(e),
            }
        }
        Err(last.unwrap_or_else(|| io::Error::other("nowhere to write")))
    }

    fn write_new(&self, dir: &Path, stem: &str) -> io::Result<PathBuf> {
        let text = self.script_in(dir);
        for i in 0..1000 {
            let name = if i == 0 {
                format!("{stem}.crash.keys")
            } else {
                format!("{stem}.crash-{i}.keys")
            };
            let path = dir.join(name);
            match File::create_new(&path) {
                Ok(mut f) => {
                    f.write_all(text.as_bytes())?;
                    f.sync_all()?;
                    return Ok(path);
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
        Err(io::Error::other("too many crash files"))
    }

    fn write_ticks(&mut self) {
        if let Some(line) = tick_line(std::mem::take(&mut self.ticks)) {
            self.push(line);
        }
    }

    fn push(&mut self, line: String) {
        self.lines.push(line);
        self.flush();
    }
}

/// The first line of every recording (and crash file), by which an earlier recording is
/// told from any other file.
const RECORDING_MARK: &str =
    "# Recorded by `astar-rogue play --record`; replay: astar-rogue script FILE\n";

/// Whether the regular file `path` starts with [`RECORDING_MARK`] (read without blocking,
/// and no further than the mark).
fn is_recording(path: &Path) -> bool {
    use std::io::Read;
    let Some(mut file) = crate::text::open_start(path, RECORDING_MARK.len() as u64) else {
        return false;
    };
    let mut start = Vec::new();
    let _ = file.read_to_end(&mut start);
    start == RECORDING_MARK.as_bytes()
}

/// The header of a recording written to `file`: the level relative to the file's folder
/// when it lies below it, else absolute.
pub fn header(
    level: Option<&Path>,
    seed: u64,
    size: (u16, u16),
    file: &Path,
    extra: &[String],
) -> String {
    let mut out = String::from(RECORDING_MARK);
    if let Some(level) = level {
        let dir = file
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
        let dir = std::path::absolute(&dir).unwrap_or(dir);
        let dir = dir.canonicalize().unwrap_or(dir);
        let level_real = level.canonicalize().unwrap_or_else(|_| level.to_path_buf());
        let shown = level_real
            .strip_prefix(&dir)
            .map_or_else(|_| level_real.clone(), Path::to_path_buf);
        // Quoted when needed, so that any name (a leading space, a newline) reads back.
        out.push_str(&format!("#! level: {}\n", crate::text::quote_path(&shown)));
    }
    out.push_str(&format!(
        "#! size: {}x{}\n#! seed: {seed}\n#! ticks: manual\n",
        size.0, size.1
    ));
    for line in extra {
        out.push_str(line);
        out.push('\n');
    }
    out
}
