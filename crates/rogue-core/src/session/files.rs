//! Where the level lives on disk: opening it, saving the design safely, and noticing when
//! the file changes outside the game.
//!
//! The file is the user's work. A save writes the design (never where the monsters have
//! walked to) and keeps everything else the file says; a file changed outside the game is
//! the truth, so the game restarts from it, unless there are unsaved edits in the game, in
//! which case the player chooses. Nothing is written over a file without asking when it
//! changed since it was read, and nothing but regular files is ever written.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use super::Session;
use super::morgue::RunEnd;
use crate::content::level::{Design, Format, LoadError, MAX_LEVEL_BYTES, read_level_file};

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
    stamp: Option<(u64, Option<SystemTime>)>,
    /// The bytes last read into the game or written by it: what the game has seen.
    #[serde(with = "super::journal::bytes_text")]
    content: Option<Vec<u8>>,
    /// A change on disk not taken yet, waiting for the file to settle.
    #[serde(skip)]
    settling: Option<Settling>,
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
type Stamp = (u64, Option<SystemTime>);

/// How long a changed file must stay unchanged (same length and time, by our clock or by
/// its own modification time) before it is read, as editors' file watchers wait: a writer
/// midway through its file must never have its fragment taken for the level.
pub const DISK_SETTLE: Duration = Duration::from_millis(500);

/// A change seen on disk and not taken yet.
#[derive(Debug, Clone)]
struct Settling {
    /// The file's stamp when last looked at.
    stamp: Stamp,
    /// Since when it has had that stamp.
    since: Instant,
    /// Whether the log has said that another program is writing it.
    said: bool,
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

fn stamp_of(path: &Path) -> Option<(u64, Option<SystemTime>)> {
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
    Populate(String),
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
            let (design, format) = Design::parse_any(bytes, &name(p)).map_err(LoadError::from)?;
            (
                design,
                Source::file(p.to_path_buf(), format, bytes.to_vec()),
            )
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
fn populate_if_empty(design: Design, source: &Source, seed: u64) -> Result<Design, String> {
    if source.kind != SourceKind::MovingAi {
        return Ok(design);
    }
    populate_map(design, &source.name(), seed)
}

/// Places a Moving AI map's player and monsters from `seed`; an error names the map as
/// `name`.
fn populate_map(design: Design, name: &str, seed: u64) -> Result<Design, String> {
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
    result.map_err(|e| format!("{name}: {e}"))?;
    Ok(Design::new(level))
}

/// A level read from disk while unsaved edits were in the game, waiting for the player to
/// choose which to keep.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingReload {
    design: Design,
    format: Format,
    bytes: Vec<u8>,
}

/// A file name beside `wanted` that does not exist yet (`x.txt`, `x-1.txt`, ...) and is
/// not `taken` otherwise (a replay's files).
fn fresh_path(wanted: &Path, taken: impl Fn(&Path) -> bool) -> PathBuf {
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

/// The part of a temporary file's name that marks it as ours.
const TEMP_MARK: &str = ".astar-rogue-";
/// The suffix of our temporary files.
const TEMP_SUFFIX: &str = ".tmp";
/// The longest file name most file systems take, in bytes.
const NAME_MAX: usize = 255;

/// Writes `bytes` to `path` atomically and carefully.
///
/// - Only regular files are written: a directory, a FIFO, a device, anything under `/dev`
///   or `/proc` (such as `/dev/stdout`), or a link to one of these, is refused and nothing
///   changes. A link to a regular file is written through (the link stays).
/// - A read-only file is refused, even for root. A file that exists keeps its permissions,
///   owner and group.
/// - The data goes to a temporary file in the same folder, created exclusively under an
///   unpredictable name that says it is ours (`.NAME.astar-rogue-PID-RANDOM.tmp`), flushed,
///   then renamed over the target: readers see the old file or the new one, never a mixture.
///   Only that temporary file is ever deleted (when the save fails), and temporary files
///   of the same target left by a crashed process are cleaned up.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let target = regular_target(path)?;
    let existing = std::fs::metadata(&target).ok();
    if existing
        .as_ref()
        .is_some_and(|m| m.permissions().readonly())
    {
        return Err(std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            "the file is read-only",
        ));
    }
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = target
        .file_name()
        .ok_or_else(|| std::io::Error::other("the path names no file"))?
        .to_string_lossy()
        .into_owned();
    clean_stale_temporaries(&dir, &name);
    let (tmp, mut file) = create_temporary(&dir, &name)?;
    let result = (|| {
        file.write_all(bytes)?;
        if let Some(meta) = &existing {
            file.set_permissions(meta.permissions())?;
            keep_owner(&file, meta)?;
        }
        file.sync_all()?;
        drop(file);
        std::fs::rename(&tmp, &target)?;
        // The rename itself is durable once the folder is flushed (best effort: not every
        // system can open a folder for that).
        if let Ok(folder) = std::fs::File::open(&dir) {
            let _ = folder.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// A file being written from the start under the save rules, by [`create_for_writing`]:
/// either created anew, or (to replace a file) a temporary file beside it that
/// [`Replacing::commit`] renames over it. Dropped uncommitted, the temporary file goes.
#[derive(Debug)]
pub struct Replacing {
    /// The temporary file to rename over `target`, until committed.
    tmp: Option<PathBuf>,
    target: PathBuf,
}

impl Replacing {
    /// The file written: the regular file the path named (links followed).
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Puts the new file in place of the old one (once; later calls do nothing): `file`,
    /// the one [`create_for_writing`] gave, is flushed to disk and renamed over the
    /// target, so a reader sees the old file or the new one. Writes to `file` go on into
    /// the target.
    pub fn commit(&mut self, file: &std::fs::File) -> std::io::Result<()> {
        let Some(tmp) = self.tmp.take() else {
            return Ok(());
        };
        file.sync_all()?;
        if let Err(e) = std::fs::rename(&tmp, &self.target) {
            let _ = std::fs::remove_file(&tmp);
            return Err(e);
        }
        Ok(())
    }
}

impl Drop for Replacing {
    fn drop(&mut self) {
        if let Some(tmp) = self.tmp.take() {
            let _ = std::fs::remove_file(tmp);
        }
    }
}

/// Opens `path` to write a file of ours from its first byte, under the rules of
/// [`write_atomic`]: only regular files, through links only to regular files, never over a
/// read-only file, anything under `/dev` or `/proc` refused.
///
/// A path where nothing is yet is created exclusively (so nothing slipped in meanwhile is
/// ever truncated). A path where something is (a file, or a link, even to nothing) is only
/// replaced when `may_replace` agrees, given the regular file it leads to; the new content
/// then goes to a temporary file beside it (keeping the old one's permissions and owner)
/// until [`Replacing::commit`]: until then, and if the caller never commits, the old file
/// stays as it was.
pub fn create_for_writing(
    path: &Path,
    may_replace: impl FnOnce(&Path) -> std::io::Result<()>,
) -> std::io::Result<(std::fs::File, Replacing)> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let target = regular_target(path)?;
            let file = std::fs::File::create_new(&target)?;
            return Ok((file, Replacing { tmp: None, target }));
        }
        Err(e) => return Err(e),
        Ok(_) => {}
    }
    let target = regular_target(path)?;
    let meta = std::fs::metadata(&target).map_err(|e| {
        std::io::Error::new(
            e.kind(),
            format!("it is a link to nothing ({e}); nothing was written"),
        )
    })?;
    if meta.permissions().readonly() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            "the file is read-only; nothing was written",
        ));
    }
    may_replace(&target)?;
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = target
        .file_name()
        .ok_or_else(|| std::io::Error::other("the path names no file"))?
        .to_string_lossy()
        .into_owned();
    clean_stale_temporaries(&dir, &name);
    let (tmp, file) = create_temporary(&dir, &name)?;
    let pending = Replacing {
        tmp: Some(tmp),
        target,
    };
    file.set_permissions(meta.permissions())?;
    keep_owner(&file, &meta)?;
    Ok((file, pending))
}

/// The regular file `path` names, following links; refuses anything else.
fn regular_target(path: &Path) -> std::io::Result<PathBuf> {
    let refuse = |what: &str| {
        Err(std::io::Error::other(format!(
            "{what}, not a regular file; nothing was written"
        )))
    };
    let mut at = path.to_path_buf();
    for _ in 0..40 {
        if at.starts_with("/dev") || at.starts_with("/proc") {
            return refuse("it is a device or process file");
        }
        match std::fs::symlink_metadata(&at) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(at),
            Err(e) => return Err(e),
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = std::fs::read_link(&at)?;
                at = match at.parent() {
                    Some(dir) => dir.join(link),
                    None => link,
                };
            }
            Ok(meta) if meta.is_file() => return Ok(at),
            Ok(meta) => return refuse(&format!("it is {}", crate::text::file_kind(&meta))),
        }
    }
    refuse("it is a loop of symbolic links")
}

/// Creates our temporary file beside `name`, exclusively, under a fresh random name.
pub(super) fn create_temporary(
    dir: &Path,
    name: &str,
) -> std::io::Result<(PathBuf, std::fs::File)> {
    use std::hash::{BuildHasher, RandomState};
    let pid = std::process::id();
    let keep = temp_base(name);
    let mut last = None;
    for attempt in 0u64..16 {
        // Seeded from the system's randomness, once per process, then hashed anew.
        let random = RandomState::new().hash_one((pid, attempt, SystemTime::now()));
        let tmp = dir.join(format!(
            ".{keep}{TEMP_MARK}{pid}-{random:016x}{TEMP_SUFFIX}"
        ));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no temporary name was free")))
}

/// The part of `name` a temporary file of it starts with: all of it, or for a long name
/// as much as leaves room for our mark (cut at a character boundary).
fn temp_base(name: &str) -> &str {
    let fixed = 1 + TEMP_MARK.len() + 10 + 1 + 16 + TEMP_SUFFIX.len();
    let mut keep = name.len().min(NAME_MAX - fixed);
    while !name.is_char_boundary(keep) {
        keep -= 1;
    }
    &name[..keep]
}

/// Removes temporary files of `name` that a process which is gone left behind: only those
/// whose name is exactly the one [`create_temporary`] gives `name` (saving `r13.txt` must
/// never touch a temporary file of `r1`).
fn clean_stale_temporaries(dir: &Path, name: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some(file) = file.to_str() else { continue };
        let Some(rest) = file
            .strip_prefix('.')
            .and_then(|f| f.strip_suffix(TEMP_SUFFIX))
        else {
            continue;
        };
        let Some((base, tail)) = rest.rsplit_once(TEMP_MARK) else {
            continue;
        };
        let Some((pid, random)) = tail.split_once('-') else {
            continue;
        };
        let ours = !base.is_empty() && base == temp_base(name);
        let well_formed = random.len() == 16 && random.bytes().all(|b| b.is_ascii_hexdigit());
        let Ok(pid) = pid.parse::<u32>() else {
            continue;
        };
        if ours && well_formed && pid != std::process::id() && !process_alive(pid) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// A process that has `path` open for writing, if one can be seen: every process whose
/// descriptors we may read (`/proc/PID/fd` and `fdinfo`, as `fuser` looks), this one
/// included (it never holds a level open for writing: saves write a temporary file).
/// Elsewhere than Linux, `None`.
#[cfg(target_os = "linux")]
fn writer_of(path: &Path) -> Option<u32> {
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
fn writer_of(_: &Path) -> Option<u32> {
    None
}

/// The suffix of recovery files: `.NAME.astar-rogue-recover` beside the level (then
/// `-1`, `-2`... while an older one is kept).
const RECOVER_MARK: &str = ".astar-rogue-recover";

/// The recovery file names for the level `level`, in the order they are used: the plain
/// one, then numbered ones.
fn recovery_names(level: &Path) -> impl Iterator<Item = PathBuf> + '_ {
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
    design: Design,
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

/// Whether a process is running (on systems without `/proc`, assumed so: never clean).
fn process_alive(pid: u32) -> bool {
    let proc = Path::new("/proc");
    !proc.join("self").exists() || proc.join(pid.to_string()).exists()
}

/// Gives the temporary file the owner and group of the file it replaces.
#[cfg(unix)]
fn keep_owner(file: &std::fs::File, meta: &std::fs::Metadata) -> std::io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    let mine = file.metadata()?;
    if (mine.uid(), mine.gid()) == (meta.uid(), meta.gid()) {
        return Ok(());
    }
    std::os::unix::fs::fchown(file, Some(meta.uid()), Some(meta.gid())).map_err(|e| {
        std::io::Error::new(
            e.kind(),
            format!("cannot keep the file's owner and group ({e})"),
        )
    })
}

#[cfg(not(unix))]
fn keep_owner(_: &std::fs::File, _: &std::fs::Metadata) -> std::io::Result<()> {
    Ok(())
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

impl Session {
    /// Saves the design: into its text file, or a new `.txt` for maps and generated levels.
    /// A text file that changed on disk since it was read is only overwritten with `force`.
    pub fn save(&mut self, force: bool) -> Saved {
        let Some(path) = self.floor.source.path.clone() else {
            return Saved::NoFile;
        };
        let source = &self.floor.source;
        let kind = source.kind.clone();
        // The disk's answers go through the journal, so a replayed run answers alike.
        let target = match kind {
            SourceKind::Text => path,
            SourceKind::MovingAi | SourceKind::Generated => {
                let written = &self.written;
                let wanted = fresh_path(&path, |p| written.contains_key(p));
                self.io.fresh(&wanted, || wanted.clone())
            }
        };
        if kind == SourceKind::Text && !force {
            // Never over what the game has not read (a settled read) without asking, nor
            // under a program writing the file: its remaining bytes would go to a file
            // that no longer has a name.
            let why = if self.changed_on_disk() {
                Some("changed on disk since it was loaded".to_string())
            } else {
                self.io
                    .writer(|| writer_of(&target))
                    .map(|pid| format!("is open for writing by another program (process {pid})"))
            };
            if let Some(why) = why {
                return Saved::Asks {
                    name: self.floor.source.name(),
                    why,
                };
            }
        }
        let text = self.floor.design.to_text();
        let name = crate::text::shown_file_name(&target);
        let replay = self.replay;
        // A replay goes on exactly as if the save had been made (what follows may depend
        // on it: a quit that does not ask), but writes nothing: it keeps what it "wrote",
        // to read it back where the game would read the file. Replayed answers say how the
        // write went.
        let kept = &mut self.written;
        let written = self.io.write(|| {
            if replay {
                kept.insert(target.clone(), text.clone().into_bytes());
                Ok(())
            } else {
                write_atomic(&target, text.as_bytes()).map_err(|e| e.to_string())
            }
        });
        let replay = replay || self.io.replaying();
        match written {
            Ok(()) => {
                if !self.floor.design.has_file_text() {
                    // From now on the file's own text is kept, as for any text level.
                    if let Ok(d) = Design::parse(text.as_bytes(), &name) {
                        self.floor.design = d;
                    }
                }
                let recovered = self.floor.source.recovered_from.take();
                self.floor.source = Source::file(target, Format::Text, text.into_bytes());
                // The recovered edits are in the level now; their copy can go.
                if let Some(recovery) = recovered.filter(|_| !replay) {
                    let _ = std::fs::remove_file(recovery);
                }
                self.history.mark_saved();
                Saved::Written { name, replay }
            }
            Err(error) => Saved::Failed { name, error },
        }
    }

    /// What a signal ending the game must keep of it: the design, when it has unsaved
    /// edits and a level file to keep them beside. It goes to the recovery file this game
    /// took its edits from, else to the first free name (so a recovery file kept from an
    /// earlier game is never written over).
    pub fn recovery(&self) -> Option<Recovery> {
        let source = &self.floor.source;
        if !self.unsaved() || self.replay {
            return None;
        }
        if !matches!(source.kind, SourceKind::Text | SourceKind::MovingAi) {
            return None;
        }
        let level = source.path.as_deref()?;
        let path = match &source.recovered_from {
            Some(p) => p.clone(),
            None => recovery_names(level).find(|p| std::fs::symlink_metadata(p).is_err())?,
        };
        Some(Recovery {
            path,
            design: self.floor.design.clone(),
        })
    }

    /// Plays the design kept in `recovery` (a recovery file of this level) as unsaved
    /// edits: the level file is untouched until a save, which then removes the recovery
    /// file. Returns the recovery file's name.
    pub fn take_recovery(&mut self, design: Design, recovery: PathBuf) -> String {
        let name = crate::text::shown_file_name(&recovery);
        self.floor.design = design;
        self.history.forget();
        self.history.mark_unsaved();
        self.floor.source.recovered_from = Some(recovery);
        self.begin(self.world.seed());
        name
    }

    /// Whether the file differs from what the game last read or wrote (a file that cannot
    /// be read, or is no longer a regular file, counts as changed).
    fn changed_on_disk(&mut self) -> bool {
        let source = &self.floor.source;
        let (Some(path), Some(seen)) = (&source.path, &source.content) else {
            return false;
        };
        let written = &self.written;
        self.io
            .changed(|| super::read_written(written, path).map_or(true, |now| &now != seen))
    }

    /// Checks the file's length and time, cheap enough to poll; when they moved, reads
    /// the file again once it has settled: unchanged for [`DISK_SETTLE`] (by the game's
    /// clock or by the file's own time) and open for writing by no program (on Linux, where
    /// that can be seen), so a writer pausing midway is never taken at its word.
    pub fn poll_disk(&mut self) -> Polled {
        let source = &mut self.floor.source;
        if !matches!(source.kind, SourceKind::Text | SourceKind::MovingAi) {
            return Polled::Quiet;
        }
        let Some(path) = source.path.clone() else {
            return Polled::Quiet;
        };
        let now = stamp_of(&path);
        let Some(stamp) = now.filter(|_| now != source.stamp) else {
            source.settling = None;
            return Polled::Quiet;
        };
        let settling = match &mut source.settling {
            Some(s) if s.stamp == stamp => s,
            slot => slot.insert(Settling {
                stamp,
                since: Instant::now(),
                said: false,
            }),
        };
        let untouched_since = stamp
            .1
            .and_then(|t| SystemTime::now().duration_since(t).ok());
        let settled = settling.since.elapsed() >= DISK_SETTLE
            || untouched_since.is_some_and(|d| d >= DISK_SETTLE);
        if !settled {
            return Polled::Quiet;
        }
        if let Some(pid) = writer_of(&path) {
            if std::mem::replace(&mut settling.said, true) {
                return Polled::Quiet;
            }
            let name = source.name();
            // A kept run's recording marks this poll as a `reload`: the journal tells its
            // replay that the poll found a writer (see [`Session::replay_reload`]).
            self.io.writer(|| Some(pid));
            return Polled::Writing { name, pid };
        }
        source.settling = None;
        Polled::Read(self.reload())
    }

    /// What a recording's `reload` does: reads the file again, or, in a rebuilt run whose
    /// poll found a program writing the file, says that again.
    pub fn replay_reload(&mut self) -> Polled {
        if let Some(pid) = self.io.replayed_writer() {
            return Polled::Writing {
                name: self.floor.source.name(),
                pid,
            };
        }
        Polled::Read(self.reload())
    }

    /// Reads the level file again. The file is the truth: when it changed, the game
    /// restarts from it; with unsaved edits in the game, the player is asked which to keep.
    /// A file that cannot be read or parsed changes nothing and is not taken as seen, so a
    /// later save asks before overwriting it.
    pub fn reload(&mut self) -> Reloaded {
        let Some(path) = self.floor.source.path.clone() else {
            return Reloaded::NoFile;
        };
        let before = stamp_of(&path);
        let name = self.floor.source.name();
        // What the file holds, and whether it held still while read, is the disk's
        // answer: through the journal, so a rebuilt run reloads what its game did.
        let written = &self.written;
        let read = self.io.reread(|| {
            let read = super::read_written(written, &path);
            if stamp_of(&path) != before {
                return Ok(None);
            }
            read.map(Some).map_err(|e| match e {
                LoadError::Io { message, .. } => format!("{name}: {message}"),
                LoadError::Parse(p) => p.headline(),
            })
        });
        let Some(read) = read.transpose() else {
            // It changed while it was read: not a settled read. Not taken as seen, so the
            // next poll waits for it to settle again.
            return Reloaded::Unsettled;
        };
        self.floor.source.stamp = before;
        let bytes = match read {
            Ok(b) => b,
            Err(why) => return Reloaded::Failed(why),
        };
        if self.floor.source.content.as_deref() == Some(&bytes[..]) {
            return Reloaded::Unchanged;
        }
        let (design, format) = match Design::parse_any(&bytes, &name) {
            Ok(x) => x,
            Err(e) => return Reloaded::Failed(e.headline()),
        };
        let pending = PendingReload {
            design,
            format,
            bytes,
        };
        if self.unsaved() {
            Reloaded::Conflict(Box::new(pending))
        } else {
            self.take_reload(*Box::new(pending))
        }
    }

    /// Keeps the game's design over the file's newer one (the player's answer to a file
    /// changed on disk while the game had unsaved edits): no point of the undo history is
    /// the file any more, so undoing them all leaves the design unsaved, as it differs from
    /// the file; the next save asks before overwriting it.
    pub fn keep_own_design(&mut self) {
        self.history.mark_unsaved();
    }

    /// Replaces the design by the file's and restarts the play from it.
    pub fn take_reload(&mut self, pending: PendingReload) -> Reloaded {
        let PendingReload {
            design,
            format,
            bytes,
        } = pending;
        let Some(path) = self.floor.source.path.clone() else {
            return Reloaded::NoFile;
        };
        let source = Source::file(path, format, bytes);
        let name = source.name();
        let design = match populate_if_empty(design, &source, self.world.seed()) {
            Ok(d) => d,
            Err(why) => return Reloaded::Failed(why),
        };
        let replaced = self.replaced();
        self.floor.source = source;
        self.floor.design = design;
        let history_cleared = self.history.forget();
        self.begin(self.world.seed());
        Reloaded::Restarted {
            name,
            history_cleared,
            replaced,
        }
    }
}
