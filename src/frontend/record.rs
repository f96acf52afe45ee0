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

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use crossterm::event::{Event, MouseEventKind};

use super::script::token;
use crate::app::{Replacing, create_for_writing};

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
        })
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
            let header = header(self.level.as_deref(), self.seed, first, path, &self.extra);
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
        let mut out = header(
            self.level.as_deref(),
            self.seed,
            self.size,
            &dir.join("x"),
            &self.extra,
        );
        for line in self.lines.iter().chain(&self.pending) {
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
        match std::mem::take(&mut self.ticks) {
            0 => {}
            1 => self.push("tick".into()),
            n => self.push(format!("{n}*tick")),
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
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let Ok(file) = options.open(path) else {
        return false;
    };
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        return false;
    }
    let mut start = Vec::new();
    let _ = file
        .take(RECORDING_MARK.len() as u64)
        .read_to_end(&mut start);
    start == RECORDING_MARK.as_bytes()
}

/// The header of a recording written to `file`: the level relative to the file's folder
/// when it lies below it, else absolute.
fn header(
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
