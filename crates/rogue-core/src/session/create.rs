//! New level files: written whole and at once, and never over a file that exists.

use std::io::Write;
use std::path::{Path, PathBuf};

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
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| std::io::Error::other("the path names no file"))?
        .to_string_lossy()
        .into_owned();
    let (tmp, mut file) = super::files::create_temporary(&dir, &name)?;
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
