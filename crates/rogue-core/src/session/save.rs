//! A saved run: what it takes to rebuild a run exactly where it was left.
//!
//! The game is deterministic from the level's bytes, the seed, the planning and the inputs,
//! so a save holds those (the inputs as the lines of a recording, with the disk's answers of
//! the [`Journal`](super::Journal)) and resuming replays them headless; a check line written
//! with the save (the game's state as `--state` prints it) must come out of the replay
//! again, or the save is refused. The file is text: a first line naming the format, a
//! checksum line, then one JSON object.
//!
//! A save that cannot be used (another format, a damaged or cut file, a level file changed
//! since) is refused with a message that says what to do, and is never deleted or replaced
//! by the game: only ending the run (death, victory, abandoning it) removes its save.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::data::{self, fnv64};
use super::journal::{Io, bytes_text};

/// The format this game writes and reads.
pub const FORMAT: u32 = 1;
/// The start of a save's first line, before its format number.
const MAGIC: &str = "astar-rogue run save, format ";
/// The start of its second line, before the checksum of the rest.
const CHECKSUM: &str = "checksum fnv1a64 ";
/// The largest save read (a level is at most 64 MiB, and its bytes are in the save).
pub const MAX_SAVE_BYTES: u64 = 512 * 1024 * 1024;
/// The game that writes saves, and which must read them: a replay by other rules would not
/// come back to the same place.
pub const GAME: &str = concat!("astar-rogue ", env!("CARGO_PKG_VERSION"));

/// A run, saved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunSave {
    /// The game that wrote it ([`GAME`]).
    pub game: String,
    /// The level file the recording began on, absolute; `None` for the built-in level.
    pub level: Option<PathBuf>,
    /// The level's bytes when the recording began: the replay starts from them.
    #[serde(with = "bytes_text")]
    pub level_bytes: Option<Vec<u8>>,
    /// The FNV-1a hash (hexadecimal) of what the run last saw its level file hold, while
    /// the run still plays from that file: a file changed since is refused.
    pub seen: Option<String>,
    /// The seed the recording began with.
    pub seed: u64,
    /// The seed of the run in play (new runs draw new seeds).
    pub run_seed: u64,
    /// How the monsters planned at the start (`astar`, `capped:N`, `map`).
    pub planning: String,
    /// Whether new runs draw fresh seeds (`#! runs: fresh`).
    pub fresh_runs: bool,
    /// The text of the settings file the run plays with (its keys read the recording);
    /// `None` for the defaults.
    #[serde(default)]
    pub settings: Option<String>,
    /// That settings file, for messages and the recording's header.
    #[serde(default)]
    pub settings_file: Option<PathBuf>,
    /// The recovery file whose unsaved edits the run began with, if it did.
    #[serde(default)]
    pub recovery_file: Option<PathBuf>,
    /// That recovery file's bytes.
    #[serde(with = "bytes_text", default)]
    pub recovery_bytes: Option<Vec<u8>>,
    /// The terminal size the recording began at.
    pub size: (u16, u16),
    /// The recording's lines after its header, as `astar-rogue script` reads them.
    pub tape: Vec<String>,
    /// The disk's answers to the run's saves and reloads, in order.
    pub io: Vec<Io>,
    /// What the replay must come back to: the game's state line when it was saved.
    pub check: String,
    /// The turn, the depth and the level's name when saved, for messages.
    pub turn: u32,
    /// The depth when saved.
    pub depth: u32,
    /// The name of the run's level file, for messages.
    pub name: String,
    /// When the run was saved (seconds since 1970, UTC).
    pub saved: u64,
}

/// Why a save cannot be resumed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SaveError {
    /// It cannot be read.
    #[error("cannot read it: {0}")]
    Read(String),
    /// It is not a save of ours.
    #[error("it is not an astar-rogue run save")]
    NotASave,
    /// It is in another format.
    #[error("it is in save format {found}, and this game reads format {FORMAT}")]
    Format {
        /// The format it says.
        found: String,
    },
    /// It is damaged or cut short.
    #[error("it is damaged or cut short ({0})")]
    Damaged(String),
    /// Another version of the game wrote it.
    #[error("it was saved by {0}, and this is {GAME}: its rules may differ")]
    Game(String),
}

impl RunSave {
    /// The file's text: the format line, the checksum line, then the JSON.
    pub fn encode(&self) -> String {
        let json = serde_json::to_string(self).unwrap_or_default();
        format!(
            "{MAGIC}{FORMAT}\n{CHECKSUM}{:016x}\n{json}\n",
            fnv64(json.as_bytes())
        )
    }

    /// Reads a save's text back, checking its format, its checksum and its game.
    pub fn decode(bytes: &[u8]) -> Result<RunSave, SaveError> {
        let (first, rest) = split_line(bytes).ok_or(SaveError::NotASave)?;
        let first = std::str::from_utf8(first).map_err(|_| SaveError::NotASave)?;
        let format = first.strip_prefix(MAGIC).ok_or(SaveError::NotASave)?;
        if format != FORMAT.to_string() {
            return Err(SaveError::Format {
                found: crate::text::escape_controls(format)
                    .chars()
                    .take(20)
                    .collect(),
            });
        }
        let (second, json) =
            split_line(rest).ok_or_else(|| SaveError::Damaged("no checksum line".into()))?;
        let sum = std::str::from_utf8(second)
            .ok()
            .and_then(|l| l.strip_prefix(CHECKSUM))
            .and_then(|h| u64::from_str_radix(h, 16).ok())
            .ok_or_else(|| SaveError::Damaged("its checksum line is unreadable".into()))?;
        let json = json.strip_suffix(b"\n").unwrap_or(json);
        if fnv64(json) != sum {
            return Err(SaveError::Damaged(
                "its checksum does not match its content".into(),
            ));
        }
        let save: RunSave = serde_json::from_slice(json)
            .map_err(|e| SaveError::Damaged(format!("its content does not read: {e}")))?;
        if save.game != GAME {
            return Err(SaveError::Game(
                crate::text::escape_controls(&save.game).into_owned(),
            ));
        }
        Ok(save)
    }

    /// Reads the save at `path`.
    pub fn read(path: &Path) -> Result<RunSave, SaveError> {
        let bytes = crate::text::read_limited(path, MAX_SAVE_BYTES, "run save")
            .map_err(|e| SaveError::Read(e.to_string()))?;
        Self::decode(&bytes)
    }

    /// Writes the save to `path`, atomically (the old save stays whole until the new one
    /// is).
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        if let Some(dir) = path.parent() {
            data::ensure(dir)?;
        }
        super::write_atomic(path, self.encode().as_bytes())
    }
}

fn split_line(bytes: &[u8]) -> Option<(&[u8], &[u8])> {
    let at = bytes.iter().position(|&b| b == b'\n')?;
    Some((&bytes[..at], &bytes[at + 1..]))
}

/// Where the save of a level's run lives, and the lock that a game playing it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slot {
    /// The save file.
    pub save: PathBuf,
    /// The lock file beside it.
    pub lock: PathBuf,
}

impl Slot {
    /// The slot of the run on `level` (absolute; `None` for the built-in level) in the
    /// data folder `data`: `saves/NAME-HASH.save`, the hash being of the level's path, so
    /// two levels of one name keep apart and the same file finds its run from any folder.
    pub fn of(data: &Path, level: Option<&Path>) -> Slot {
        let stem = match level {
            Some(p) => {
                let safe = data::file_stem(p, "level");
                let hash = fnv64(p.as_os_str().as_encoded_bytes());
                format!("{safe}-{:08x}", hash >> 32)
            }
            None => "built-in-default".into(),
        };
        let dir = data.join("saves");
        Slot {
            save: dir.join(format!("{stem}.save")),
            lock: dir.join(format!("{stem}.lock")),
        }
    }

    /// The slot whose save was written last, if any save is kept.
    pub fn latest(data: &Path) -> Option<Slot> {
        let dir = data.join("saves");
        let newest = std::fs::read_dir(&dir)
            .ok()?
            .flatten()
            .filter(|e| e.path().extension().is_some_and(|x| x == "save"))
            .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
            .max()?
            .1;
        Some(Slot {
            lock: newest.with_extension("lock"),
            save: newest,
        })
    }
}

/// The hash that [`RunSave::seen`] holds, of a level file's bytes.
pub fn seen_hash(bytes: &[u8]) -> String {
    format!("{:016x}", fnv64(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> RunSave {
        RunSave {
            game: GAME.into(),
            level: Some("/levels/crypt.txt".into()),
            level_bytes: Some(b"@.g\n".to_vec()),
            seen: Some(seen_hash(b"@.g\n")),
            seed: 5,
            run_seed: 5,
            planning: "astar".into(),
            fresh_runs: true,
            settings: Some("[keys]\n".into()),
            settings_file: Some("/config/config.toml".into()),
            recovery_file: None,
            recovery_bytes: None,
            size: (80, 24),
            tape: vec!["l".into(), "2*tick".into()],
            io: vec![Io::Changed(false)],
            check: "{}".into(),
            turn: 3,
            depth: 1,
            name: "crypt.txt".into(),
            saved: 0,
        }
    }

    #[test]
    fn a_save_reads_back_as_written() {
        let s = sample();
        let text = s.encode();
        assert!(text.starts_with("astar-rogue run save, format 1\nchecksum fnv1a64 "));
        assert_eq!(RunSave::decode(text.as_bytes()), Ok(s));
    }

    #[test]
    fn a_damaged_cut_or_foreign_save_says_what_is_wrong() {
        let text = sample().encode();
        let cut = &text.as_bytes()[..text.len() - 20];
        assert!(matches!(
            RunSave::decode(cut),
            Err(SaveError::Damaged(m)) if m.contains("checksum does not match")
        ));
        let flipped = text.replace("crypt", "crypT");
        assert!(matches!(
            RunSave::decode(flipped.as_bytes()),
            Err(SaveError::Damaged(_))
        ));
        let old = text.replacen("format 1", "format 0", 1);
        assert_eq!(
            RunSave::decode(old.as_bytes()).unwrap_err().to_string(),
            "it is in save format 0, and this game reads format 1"
        );
        assert_eq!(RunSave::decode(b"hello\n"), Err(SaveError::NotASave));
        assert_eq!(RunSave::decode(b""), Err(SaveError::NotASave));
        let mut other = sample();
        other.game = "astar-rogue 0.0.1".into();
        assert!(matches!(
            RunSave::decode(other.encode().as_bytes()),
            Err(SaveError::Game(g)) if g == "astar-rogue 0.0.1"
        ));
    }

    #[test]
    fn slots_keep_levels_of_one_name_apart() {
        let data = Path::new("/data");
        let a = Slot::of(data, Some(Path::new("/a/crypt.txt")));
        let b = Slot::of(data, Some(Path::new("/b/crypt.txt")));
        assert_ne!(a, b);
        assert!(a.save.starts_with("/data/saves"));
        assert!(
            a.save
                .file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("crypt-")
        );
        assert_eq!(a.lock.extension().unwrap(), "lock");
        assert_eq!(
            Slot::of(data, None).save,
            Path::new("/data/saves/built-in-default.save")
        );
        let odd = Slot::of(data, Some(Path::new("/x/a b\n*.txt")));
        assert!(
            odd.save
                .file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("a_b__-")
        );
    }
}
