//! Reading the start of a file the program may be about to write over, to tell whether it
//! is one of its own (a recording, a cast) before replacing it.

use std::io::Read;
use std::path::Path;

/// The regular file at `path` opened for reading, at most its first `limit` bytes: `None`
/// for anything else (missing, a folder, a FIFO, a device). Opened without blocking, so a
/// FIFO at the path never hangs the check.
pub fn open_regular(path: &Path, limit: u64) -> Option<std::io::Take<std::fs::File>> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).ok()?;
    file.metadata()
        .is_ok_and(|m| m.is_file())
        .then(|| file.take(limit))
}
