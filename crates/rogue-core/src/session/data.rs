//! The user's data folder, where runs are kept: saved runs, the scores, morgue files. Also
//! what the files there share: locks between games, dates, and a stable hash.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The game that writes saves, and which must read them: a game by other rules would not
/// go on in the same way.
pub const GAME: &str = concat!("astar-rogue ", env!("CARGO_PKG_VERSION"));

/// The environment variable naming the data folder, over the usual one.
pub const DATA_ENV: &str = "ASTAR_ROGUE_DATA";

/// The data folder: `$ASTAR_ROGUE_DATA` when set and not empty, else the system's data
/// folder for the user (`$XDG_DATA_HOME/astar-rogue`, else `~/.local/share/astar-rogue` on
/// Linux), which need not exist yet.
pub fn data_dir() -> Result<PathBuf, NoDataDir> {
    if let Some(dir) = std::env::var_os(DATA_ENV).filter(|v| !v.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    directories::BaseDirs::new()
        .map(|b| b.data_dir().join("astar-rogue"))
        .ok_or(NoDataDir)
}

/// There is no data folder: no home folder, and no [`DATA_ENV`] set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("no home folder to keep runs in: set {env} to a folder", env = DATA_ENV)]
pub struct NoDataDir;

/// Creates `dir` (and its parents) unless it exists; an error names it.
pub fn ensure(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| {
        std::io::Error::new(
            e.kind(),
            format!("cannot create the folder {}: {e}", dir.display()),
        )
    })
}

/// An exclusive lock on a file, held until dropped (or the process ends, however it ends:
/// the system drops it then).
#[derive(Debug)]
pub struct Lock {
    file: File,
    path: PathBuf,
}

impl Lock {
    /// Lets the lock go and removes its file, when the file at its path is still the one
    /// locked and still empty (a lock file of ours: never another process's, nor a file put
    /// in its place). It is removed while still held: a game waiting for it then finds
    /// the file gone and takes the lock on a new one (see [`lock`]).
    pub fn remove(self) {
        let ours = std::fs::symlink_metadata(&self.path)
            .is_ok_and(|m| m.is_file() && m.len() == 0 && is_locked_file(&self.file, &self.path));
        if ours {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Whether `path` still leads to the file `file` has open (on systems without inode
/// numbers, assumed so).
fn is_locked_file(file: &File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), std::fs::metadata(path)) {
            (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (file, path);
        true
    }
}

/// Takes the exclusive lock on `path` (created empty when missing; its content is never
/// read or written): at once when `wait` is `None`, else retrying until `wait` has passed.
/// `Ok(None)` when another process holds it.
pub fn lock(path: &Path, wait: Option<Duration>) -> std::io::Result<Option<Lock>> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // A FIFO put in its place must not hang the game.
        options.custom_flags(libc::O_NONBLOCK);
    }
    let began = Instant::now();
    // Each round opens the file at the path anew; only a holder removing it (or something
    // else put there) while this one waits sends it round again.
    'open: for _ in 0..100 {
        let not_a_lock = |meta: &std::fs::Metadata| {
            std::io::Error::other(format!(
                "{} is {}, not a lock file",
                path.display(),
                crate::text::file_kind(meta)
            ))
        };
        let file = options.open(path).map_err(|e| {
            // A folder in its place cannot be opened for writing: say what is there.
            match std::fs::metadata(path) {
                Ok(meta) if !meta.is_file() => not_a_lock(&meta),
                _ => std::io::Error::new(e.kind(), format!("{}: {e}", path.display())),
            }
        })?;
        let meta = file.metadata()?;
        if !meta.is_file() {
            return Err(not_a_lock(&meta));
        }
        loop {
            if try_lock(&file)? {
                // Its holder may have removed the file meanwhile ([`Lock::remove`]): a lock
                // on a file no longer at the path keeps nobody out, so take the one there.
                if !is_locked_file(&file, path) {
                    continue 'open;
                }
                return Ok(Some(Lock {
                    file,
                    path: path.to_path_buf(),
                }));
            }
            match wait {
                Some(w) if began.elapsed() < w => std::thread::sleep(Duration::from_millis(5)),
                _ => return Ok(None),
            }
        }
    }
    Err(std::io::Error::other(format!(
        "{}: the lock file keeps being replaced",
        path.display()
    )))
}

/// `flock` through the standard library (`File::try_lock`, Rust 1.89): the crate forbids
/// the `unsafe` a call to libc would take.
fn try_lock(file: &File) -> std::io::Result<bool> {
    match file.try_lock() {
        Ok(()) => Ok(true),
        Err(std::fs::TryLockError::WouldBlock) => Ok(false),
        Err(std::fs::TryLockError::Error(e)) => Err(e),
    }
}

/// The stem of `path` as a part of a file name of ours (a save slot's, a morgue file's):
/// letters, digits, `-` and `_` kept, anything else (a space, a dot, a control character)
/// `_`, at most 40 characters; `fallback` when it has none.
pub fn file_stem(path: &Path, fallback: &str) -> String {
    let Some(stem) = path.file_stem() else {
        return fallback.into();
    };
    stem.to_string_lossy()
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(40)
        .collect()
}

/// Seconds since 1970 (UTC) now.
pub fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// A time as `YYYY-MM-DD HH:MM` in UTC.
pub fn date(secs: u64) -> String {
    let (y, m, d) = civil(secs / 86_400);
    let rest = secs % 86_400;
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}",
        rest / 3600,
        rest / 60 % 60
    )
}

/// A time as `YYYYMMDD-HHMMSS` in UTC, for file names.
pub fn stamp(secs: u64) -> String {
    let (y, m, d) = civil(secs / 86_400);
    let rest = secs % 86_400;
    format!(
        "{y:04}{m:02}{d:02}-{:02}{:02}{:02}",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// The civil date of a day counted from 1970-01-01 (Howard Hinnant's `civil_from_days`).
fn civil(days: u64) -> (i64, u32, u32) {
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// FNV-1a, 64 bits: a hash that is the same on every machine and in every version, for
/// file names and for noticing changed or damaged files (not against tampering).
pub fn fnv64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lock_that_is_not_a_file_says_what_is_there() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.lock");
        std::fs::create_dir(&path).unwrap();
        let Err(e) = lock(&path, None) else {
            panic!("a folder is no lock")
        };
        assert_eq!(
            e.to_string(),
            format!("{} is a directory, not a lock file", path.display())
        );
        assert!(path.is_dir(), "left as it was");
    }

    #[test]
    fn dates_are_civil_utc() {
        assert_eq!(date(0), "1970-01-01 00:00");
        assert_eq!(date(951_782_400), "2000-02-29 00:00");
        assert_eq!(date(1_796_083_199), "2026-11-30 23:59");
        assert_eq!(stamp(1_796_083_199), "20261130-235959");
        assert_eq!(date(4_107_542_400), "2100-03-01 00:00");
    }

    #[test]
    fn fnv_is_the_published_one() {
        assert_eq!(fnv64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn a_lock_is_exclusive_until_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.lock");
        let held = lock(&path, None).unwrap().expect("free");
        assert!(lock(&path, None).unwrap().is_none(), "taken twice");
        assert!(
            lock(&path, Some(Duration::from_millis(30)))
                .unwrap()
                .is_none()
        );
        drop(held);
        assert!(lock(&path, None).unwrap().is_some());
        let fifo_dir = dir.path().join("d");
        std::fs::create_dir(&fifo_dir).unwrap();
        assert!(lock(&fifo_dir, None).is_err());
    }

    #[test]
    fn a_lock_file_removed_by_its_holder_is_never_held_twice() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.lock");
        let held = lock(&path, None).unwrap().expect("free");
        // A game waiting for the lock has the file open when its holder removes it.
        let waiting = {
            let path = path.clone();
            std::thread::spawn(move || lock(&path, Some(Duration::from_secs(5))).unwrap())
        };
        std::thread::sleep(Duration::from_millis(200));
        held.remove();
        let second = waiting.join().unwrap().expect("the lock, once let go");
        // The waiter holds the lock file that is there now, so no third game gets it.
        assert!(path.exists());
        assert!(lock(&path, None).unwrap().is_none(), "held twice");
        // Removed by its holder: gone.
        second.remove();
        assert!(!path.exists());
    }

    #[test]
    fn a_lock_file_that_is_not_ours_is_not_removed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.lock");
        // Something was written into it: not a lock file of ours.
        let held = lock(&path, None).unwrap().expect("free");
        std::fs::write(&path, "someone's\n").unwrap();
        held.remove();
        assert_eq!(std::fs::read(&path).unwrap(), b"someone's\n");
        // Another file put in its place.
        std::fs::remove_file(&path).unwrap();
        let held = lock(&path, None).unwrap().expect("free");
        std::fs::remove_file(&path).unwrap();
        std::fs::write(&path, "").unwrap();
        held.remove();
        assert!(path.exists(), "another file at the path stays");
    }
}
