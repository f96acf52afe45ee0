//! Where the level lives on disk: opening it, saving the design safely, and noticing when
//! the file changes outside the game.
//!
//! The file is the user's work. A save writes the design (never where the monsters have
//! walked to) and keeps everything else the file says; a file changed outside the game is
//! the truth, so the game restarts from it, unless there are unsaved edits in the game, in
//! which case the player chooses. Nothing is written over a file without asking when it
//! changed since it was read, and nothing but regular files is ever written.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use super::create::write_atomic;
use super::morgue::RunEnd;
use crate::content::level::design::Design;
use crate::content::level::{Format, LoadError, MAX_LEVEL_BYTES, read_level_file};

/// What kind of thing the level came from, which decides where it saves.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SourceKind {
    /// A text level file: saves go back into it.
    Text,
    /// A Moving AI map: saves go to a new `.txt` beside it.
    MovingAi,
    /// Made by the generator: saves go to a new `.txt` named after it.
    Generated,
}

/// The level's file and what we last knew of it.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Source {
    /// The file, if any.
    pub path: Option<PathBuf>,
    /// What it is.
    pub kind: SourceKind,
    /// Length and modification time when last looked at, to notice changes cheaply.
    pub(super) stamp: Option<(u64, Option<SystemTime>)>,
    /// The bytes last read into the game or written by it: what the game has seen.
    #[serde(with = "super::journal::bytes_text")]
    pub(super) content: Option<Vec<u8>>,
    /// A change on disk not taken yet, waiting for the file to settle.
    #[serde(skip)]
    pub(super) settling: Option<Settling>,
    /// The recovery file whose edits this game took: removed once they are saved, and the
    /// one a hang-up writes again.
    pub(super) recovered_from: Option<PathBuf>,
}

impl Source {
    /// A source read from `path` with these bytes.
    pub fn file(path: PathBuf, format: Format, bytes: Vec<u8>) -> Self {
        let stamp = stamp_of(&path);
        Self {
            path: Some(path),
            kind: match format {
                Format::Text => SourceKind::Text,
                Format::MovingAi => SourceKind::MovingAi,
            },
            stamp,
            content: Some(bytes),
            settling: None,
            recovered_from: None,
        }
    }

    /// A source with no file behind it (generated levels).
    pub fn generated(suggested: PathBuf) -> Self {
        Self {
            path: Some(suggested),
            kind: SourceKind::Generated,
            stamp: None,
            content: None,
            settling: None,
            recovered_from: None,
        }
    }

    /// The folder the level's file is in (where files made from it go), `""` for none.
    pub fn folder(&self) -> PathBuf {
        self.path
            .as_deref()
            .and_then(Path::parent)
            .map(Path::to_path_buf)
            .unwrap_or_default()
    }

    /// The bytes of the file the game last read or wrote: what it has seen of it.
    pub fn seen(&self) -> Option<&[u8]> {
        self.content.as_deref()
    }

    /// Forgets what the game has seen of the file (a save writes it elsewhere).
    pub(super) fn forget_seen(&mut self) {
        self.content = None;
    }

    /// Takes `bytes` as what the game has seen of the file (a save read back).
    pub(super) fn saw(&mut self, bytes: Vec<u8>) {
        self.content = Some(bytes);
    }

    /// The file name for messages (never a full path, so frames stay reproducible), its
    /// control characters escaped.
    pub fn name(&self) -> String {
        self.path
            .as_deref()
            .map_or_else(|| "(no file)".into(), crate::text::shown_file_name)
    }
}

/// A file's length and modification time: what a cheap poll compares.
pub(super) type Stamp = (u64, Option<SystemTime>);

/// How long a changed file must stay unchanged (same length and time, by our clock or by
/// its own modification time) before it is read, as editors' file watchers wait: a writer
/// midway through its file must never have its fragment taken for the level.
pub const DISK_SETTLE: Duration = Duration::from_millis(500);

/// A change seen on disk and not taken yet.
#[derive(Debug, Clone)]
pub(super) struct Settling {
    /// The file's stamp when last looked at.
    pub(super) stamp: Stamp,
    /// Since when it has had that stamp.
    pub(super) since: Instant,
    /// Whether the log has said that another program is writing it.
    pub(super) said: bool,
}

/// What a poll of the level file found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiskPoll {
    /// Nothing new to show.
    Quiet,
    /// The file is changing and the log said so (the screen should be drawn again).
    Waiting,
    /// The file changed, settled, and was read (taken, refused, or waiting for the player
    /// to choose): what a recording writes as `reload`.
    Reloaded,
}

pub(super) fn stamp_of(path: &Path) -> Option<(u64, Option<SystemTime>)> {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.len(), meta.modified().ok()))
}

/// The default level, built in so the game plays anywhere.
pub const DEFAULT_LEVEL: &str = include_str!("../../../../levels/default.txt");
/// Where the default level lives in a clone of the repository; played from there when it
/// exists, so that saves land in it.
pub const DEFAULT_LEVEL_PATH: &str = "levels/default.txt";

/// Why a level cannot be opened for play.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OpenError {
    /// The file cannot be read or parsed.
    #[error("{0}")]
    Load(#[from] LoadError),
    /// A map without creatures cannot take the ones it needs.
    #[error("{0}")]
    Populate(#[from] PopulateError),
}

/// A Moving AI map cannot take the player and monsters it needs.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{map}: {error}")]
pub struct PopulateError {
    /// The map, as named in messages.
    pub map: String,
    /// Why the generator could not place them.
    #[source]
    pub error: crate::content::generate::GenError,
}

/// Opens a level for play: the default level when `path` is `None`. Maps without a player
/// or monsters (Moving AI maps) get them placed from `seed`.
pub fn open_level(path: Option<&Path>, seed: u64) -> Result<(Design, Source), OpenError> {
    let read = read_level_file;
    match path {
        Some(p) => open_level_bytes(Some(p), &read(p)?, seed),
        None if Path::new(DEFAULT_LEVEL_PATH).is_file() => {
            let p = Path::new(DEFAULT_LEVEL_PATH);
            open_level_bytes(Some(p), &read(p)?, seed)
        }
        None => open_level_bytes(None, DEFAULT_LEVEL.as_bytes(), seed),
    }
}

/// Opens a level for play from bytes read before (a saved run's), as [`open_level`] opens
/// the file at `path` (`None`: the built-in level): the same design and source, without
/// reading the disk.
pub fn open_level_bytes(
    path: Option<&Path>,
    bytes: &[u8],
    seed: u64,
) -> Result<(Design, Source), OpenError> {
    open_bytes_named(path, bytes, seed, |p| p.display().to_string())
}

/// [`open_level_bytes`] for a level file's `bytes` read from `path` and already parsed
/// (`read`, by [`Design::parse_any`]): a caller that checked the file before anything else
/// need not parse a big level again.
pub fn open_read_level(
    path: &Path,
    bytes: &[u8],
    (design, format): (Design, Format),
    seed: u64,
) -> Result<(Design, Source), OpenError> {
    let source = Source::file(path.to_path_buf(), format, bytes.to_vec());
    let design = populate_if_empty(design, &source, seed).map_err(OpenError::Populate)?;
    Ok((design, source))
}

/// [`open_level_bytes`] for the copy of the level a saved run holds: its errors name that
/// copy (`the run's copy of crypt.txt:3:7: …`), not the file at `path`, which may read
/// well and must not be blamed for the save's bytes.
pub fn open_saved_level_bytes(
    path: Option<&Path>,
    bytes: &[u8],
    seed: u64,
) -> Result<(Design, Source), OpenError> {
    open_bytes_named(path, bytes, seed, saved_copy_name)
}

/// How errors name the copy of the file at `path` that a saved run holds.
pub fn saved_copy_name(path: &Path) -> String {
    format!("the run's copy of {}", path.display())
}

/// [`open_level_bytes`], with the name its errors give the bytes read from `path`.
fn open_bytes_named(
    path: Option<&Path>,
    bytes: &[u8],
    seed: u64,
    name: impl Fn(&Path) -> String,
) -> Result<(Design, Source), OpenError> {
    let (design, source) = match path {
        Some(p) => {
            let read = Design::parse_any(bytes, &name(p)).map_err(LoadError::from)?;
            return open_read_level(p, bytes, read, seed);
        }
        None => {
            let design = Design::parse(bytes, DEFAULT_LEVEL_PATH).map_err(LoadError::from)?;
            (design, Source::generated(PathBuf::from("default.txt")))
        }
    };
    let design = populate_if_empty(design, &source, seed).map_err(OpenError::Populate)?;
    Ok((design, source))
}

/// Whether the game can play a design read from `path` in `format` as it opens it: a Moving
/// AI map must take its player and monsters ([`open_level`] places them from the seed; the
/// seed does not decide whether they fit). `check` asks, on the design it read.
pub fn playable(design: &Design, path: &Path, format: Format) -> Result<(), OpenError> {
    if format != Format::MovingAi {
        return Ok(());
    }
    let name = path.display().to_string();
    populate_map(design.clone(), &name, 1)
        .map(drop)
        .map_err(OpenError::Populate)
}

/// Gives a Moving AI map, which has no creatures, its player and monsters from `seed`.
pub(super) fn populate_if_empty(
    design: Design,
    source: &Source,
    seed: u64,
) -> Result<Design, PopulateError> {
    if source.kind != SourceKind::MovingAi {
        return Ok(design);
    }
    populate_map(design, &source.name(), seed)
}

/// Places a Moving AI map's player and monsters from `seed`; an error names the map as
/// `name`.
fn populate_map(design: Design, name: &str, seed: u64) -> Result<Design, PopulateError> {
    use crate::content::generate::{GenError, default_monsters, populate};
    let mut level = design.into_level();
    let (w, h) = (level.grid.width(), level.grid.height());
    let player = level.player;
    let result = match populate(&mut level, seed, default_monsters(w, h)) {
        // A tiny map cannot take the usual count: play it with as many as fit, maybe none.
        // A failed populate leaves the monsters alone; the player it may have placed is
        // undone, so the retry places everyone from the same seed.
        Err(GenError::TooManyMonsters { available, .. }) => {
            level.player = player;
            populate(&mut level, seed, available)
        }
        other => other,
    };
    result.map_err(|error| PopulateError {
        map: name.to_string(),
        error,
    })?;
    Ok(Design::new(level))
}

/// A level read from disk while unsaved edits were in the game, waiting for the player to
/// choose which to keep.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingReload {
    pub(super) design: Design,
    pub(super) format: Format,
    pub(super) bytes: Vec<u8>,
}

/// A file name beside `wanted` that does not exist yet (`x.txt`, `x-1.txt`, ...) and is
/// not `taken` otherwise (a replay's files).
pub(super) fn fresh_path(wanted: &Path, taken: impl Fn(&Path) -> bool) -> PathBuf {
    let stem = wanted
        .file_stem()
        .map_or_else(|| "level".into(), |s| s.to_string_lossy().into_owned());
    let dir = wanted.parent().unwrap_or(Path::new(""));
    (0..)
        .map(|i| {
            if i == 0 {
                dir.join(format!("{stem}.txt"))
            } else {
                dir.join(format!("{stem}-{i}.txt"))
            }
        })
        .find(|p| std::fs::symlink_metadata(p).is_err() && !taken(p))
        .unwrap_or_else(|| dir.join(format!("{stem}.txt")))
}

/// A process that has `path` open for writing, if one can be seen: every process whose
/// descriptors we may read (`/proc/PID/fd` and `fdinfo`, as `fuser` looks), this one
/// included (it never holds a level open for writing: saves write a temporary file).
/// Elsewhere than Linux, `None`.
#[cfg(target_os = "linux")]
pub(super) fn writer_of(path: &Path) -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(path).ok()?;
    let (dev, ino) = (meta.dev(), meta.ino());
    let real = std::fs::canonicalize(path).ok()?;
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(fds) = std::fs::read_dir(entry.path().join("fd")) else {
            continue;
        };
        for fd in fds.flatten() {
            let Ok(m) = std::fs::metadata(fd.path()) else {
                continue;
            };
            // The same device and inode, and the same name: on an overlay file system two
            // files can report one inode number (a test run saw "open for writing by
            // process N" for a level no program had open).
            if (m.dev(), m.ino()) != (dev, ino)
                || std::fs::read_link(fd.path()).ok().as_deref() != Some(real.as_path())
            {
                continue;
            }
            let info = entry.path().join("fdinfo").join(fd.file_name());
            let flags = std::fs::read_to_string(info).ok().and_then(|t| {
                let line = t.lines().find(|l| l.starts_with("flags:"))?.to_string();
                u32::from_str_radix(line["flags:".len()..].trim(), 8).ok()
            });
            // The descriptor may have been closed and reused for another file between the
            // look at it and the read of its flags: they count only if it still is the level.
            let same = std::fs::metadata(fd.path()).is_ok_and(|m| (m.dev(), m.ino()) == (dev, ino));
            // The access mode: O_WRONLY or O_RDWR.
            if same && flags.is_some_and(|f| matches!(f & 0o3, 1 | 2)) {
                return Some(pid);
            }
        }
    }
    None
}

#[cfg(not(target_os = "linux"))]
pub(super) fn writer_of(_: &Path) -> Option<u32> {
    None
}

/// The suffix of recovery files: `.NAME.astar-rogue-recover` beside the level (then
/// `-1`, `-2`... while an older one is kept).
const RECOVER_MARK: &str = ".astar-rogue-recover";

/// The recovery file names for the level `level`, in the order they are used: the plain
/// one, then numbered ones.
pub(super) fn recovery_names(level: &Path) -> impl Iterator<Item = PathBuf> + '_ {
    let dir = level.parent().unwrap_or(Path::new(""));
    let name = level
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    (0..100).map(move |i| {
        let suffix = if i == 0 {
            String::new()
        } else {
            format!("-{i}")
        };
        dir.join(format!(".{name}{RECOVER_MARK}{suffix}"))
    })
}

/// The first recovery file kept beside `level`, if any: edits of a game that was hung up
/// (or killed by another signal) before they were saved.
pub fn find_recovery(level: &Path) -> Option<PathBuf> {
    recovery_names(level).find(|p| std::fs::symlink_metadata(p).is_ok())
}

/// Unsaved edits to keep on disk when the game ends by a signal: the design and where it
/// goes.
#[derive(Debug, Clone)]
pub struct Recovery {
    /// The recovery file.
    pub path: PathBuf,
    pub(super) design: Design,
}

impl Recovery {
    /// Writes the design to its recovery file (atomically, as a save is).
    pub fn write(&self) -> std::io::Result<()> {
        write_atomic(&self.path, self.design.to_text().as_bytes())
    }
}

/// Reads a recovery file (within the level limits, never blocking): its design, and its
/// bytes, which a kept run keeps.
pub fn read_recovery(path: &Path) -> Result<(Design, Vec<u8>), LoadError> {
    let bytes = crate::text::read_limited(path, MAX_LEVEL_BYTES, "recovery file")?;
    Ok((parse_recovery(&bytes, path)?, bytes))
}

/// The design in the bytes of the recovery file at `path` (a kept run keeps them).
pub fn parse_recovery(bytes: &[u8], path: &Path) -> Result<Design, LoadError> {
    let (design, _) = Design::parse_any(bytes, &path.display().to_string())?;
    Ok(design)
}

/// How a save went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Saved {
    /// Written to the file named; in a replay, carried out in the game and written nowhere.
    Written {
        /// The file.
        name: String,
        /// Whether it was a replay's save (nothing written).
        replay: bool,
    },
    /// The level has no file to save to.
    NoFile,
    /// The file changed on disk since it was read, or another program is writing it:
    /// overwrite it only when asked.
    Asks {
        /// The file.
        name: String,
        /// Why it asks, to follow the name: "changed on disk since it was loaded".
        why: String,
    },
    /// Writing failed; the file on disk is unchanged.
    Failed {
        /// The file.
        name: String,
        /// Why.
        error: String,
    },
}

/// How reading the level file again went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reloaded {
    /// The level has no file to reload.
    NoFile,
    /// The file is as the game last saw it.
    Unchanged,
    /// The file changed while it was read: not taken, the next poll waits for it to settle.
    Unsettled,
    /// The file could not be read or parsed; the level in play stays.
    Failed(String),
    /// The file changed and the game has unsaved edits: which to keep is the player's call.
    Conflict(Box<PendingReload>),
    /// The game restarted from the file; `history_cleared` when undo steps were dropped.
    Restarted {
        /// The file.
        name: String,
        /// Whether the undo history, which belonged to the level before, was dropped.
        history_cleared: bool,
        /// The run in progress that the restart replaced, ended as abandoned (as a new run
        /// or a new level ends it), taken just before.
        replaced: Option<Box<RunEnd>>,
    },
}

/// What a poll of the level file found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Polled {
    /// Nothing new.
    Quiet,
    /// The file changed and settled, but another program has it open for writing: it is
    /// read once that is done (said once per change).
    Writing {
        /// The file.
        name: String,
        /// The writer's process.
        pid: u32,
    },
    /// The file changed, settled, and was read.
    Read(Reloaded),
}
