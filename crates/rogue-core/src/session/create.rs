//! Writing files of ours: new level files written whole and at once, never over a file
//! that exists; saves written atomically over a regular file; and the temporary files both
//! go through.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Writes `bytes` to a new file at `path`, refusing when anything is there already (a file,
/// a folder, a link, even a broken one). The data goes to a temporary file beside it,
/// flushed, then is linked in under the name, which the system refuses if the name was
/// taken meanwhile: readers see no file or the whole one, and nothing is ever replaced.
pub fn write_new(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if path.starts_with("/dev") || path.starts_with("/proc") {
        return Err(std::io::Error::other(
            "it is a device or process file, not a regular file; nothing was written",
        ));
    }
    if std::fs::symlink_metadata(path).is_ok() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::AlreadyExists,
            "it exists already; nothing was written",
        ));
    }
    let (dir, name) = folder_and_name(path)?;
    let (tmp, mut file) = create_temporary(&dir, &name)?;
    let written = (|| {
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        std::fs::hard_link(&tmp, path)
    })();
    let _ = std::fs::remove_file(&tmp);
    match written {
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(std::io::Error::new(
            e.kind(),
            "it exists already; nothing was written",
        )),
        Err(e) => Err(e),
        Ok(()) => {
            if let Ok(folder) = std::fs::File::open(&dir) {
                let _ = folder.sync_all();
            }
            Ok(())
        }
    }
}

/// A name for the floor at `depth` below the level at `path`, beside it and not taken:
/// `castle.txt` gives `castle-2.txt` for depth 2 and `castle-2.txt` gives `castle-3.txt`
/// (a `-N` ending is the depth's), then `castle-2-1.txt` and on when those exist (or are
/// `taken` otherwise: a replay's files).
pub fn below_name(path: &Path, depth: u32, taken: impl Fn(&Path) -> bool) -> PathBuf {
    let stem = path
        .file_stem()
        .map_or_else(|| "level".into(), |s| s.to_string_lossy().into_owned());
    let base = match stem.rsplit_once('-') {
        Some((head, tail))
            if !head.is_empty() && !tail.is_empty() && tail.bytes().all(|b| b.is_ascii_digit()) =>
        {
            head.to_string()
        }
        _ => stem,
    };
    let dir = path.parent().unwrap_or(Path::new(""));
    (0..)
        .map(|i| match i {
            0 => dir.join(format!("{base}-{depth}.txt")),
            i => dir.join(format!("{base}-{depth}-{i}.txt")),
        })
        .find(|p| std::fs::symlink_metadata(p).is_err() && !taken(p))
        .unwrap_or_else(|| dir.join(format!("{base}-{depth}.txt")))
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
    let (dir, name) = folder_and_name(&target)?;
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
    let (dir, name) = folder_and_name(&target)?;
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
fn create_temporary(dir: &Path, name: &str) -> std::io::Result<(PathBuf, std::fs::File)> {
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

/// The folder a file goes in (`.` for a bare name) and its name: where its temporary file
/// is made beside it.
fn folder_and_name(path: &Path) -> std::io::Result<(PathBuf, String)> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| std::io::Error::other("the path names no file"))?
        .to_string_lossy()
        .into_owned();
    Ok((dir, name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_file_is_written_once_and_never_over_another() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("new.txt");
        write_new(&p, b"one").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"one");
        let e = write_new(&p, b"two").unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read(&p).unwrap(), b"one");
        // A link, even one to nothing, is something there.
        #[cfg(unix)]
        {
            let link = dir.path().join("link.txt");
            std::os::unix::fs::symlink(dir.path().join("nowhere"), &link).unwrap();
            assert!(write_new(&link, b"x").is_err());
            assert!(!dir.path().join("nowhere").exists());
        }
        // No temporary file is left behind.
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), if cfg!(unix) { 2 } else { 1 });
    }

    #[test]
    fn floors_below_are_named_after_the_level_and_their_depth() {
        let dir = tempfile::tempdir().unwrap();
        let castle = dir.path().join("castle.txt");
        assert_eq!(
            below_name(&castle, 2, |_| false),
            dir.path().join("castle-2.txt")
        );
        std::fs::write(dir.path().join("castle-2.txt"), "").unwrap();
        assert_eq!(
            below_name(&castle, 2, |_| false),
            dir.path().join("castle-2-1.txt")
        );
        let two = dir.path().join("castle-2.txt");
        assert_eq!(
            below_name(&two, 3, |_| false),
            dir.path().join("castle-3.txt")
        );
        assert_eq!(
            below_name(Path::new("-5.txt"), 2, |_| false),
            Path::new("-5-2.txt")
        );
    }
}
