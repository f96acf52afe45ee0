//! A kept run: what the run is, saved so that it goes on exactly where it was left.
//!
//! A save (format 2) is the run's state as it stands: the [`Session`] as serde writes it
//! (every floor of the run as it stands now, with its design and what the game has seen of
//! its file; the game with its creatures, its random generator, its turn and its log; the
//! undo history), the screen the front end showed ([`RunSave::view`]), the settings the
//! run plays with, and where its tape stood. Resuming loads it: nothing is replayed, and no
//! file but the save's own is read. Its size follows the run's floors, never how long the
//! run was played or how often a floor was visited. The file is text: a first line naming
//! the format, a checksum line, then one JSON object.
//!
//! A save of format 1 (the run's recorded inputs, with the disk's answers, which resuming
//! replayed: [`LegacySave`]) still resumes that way, once; the run is kept in format 2 from
//! then on.
//!
//! A save that cannot be used (another format, a damaged or cut file, a level file changed
//! since) is refused with a message that says what to do, and is never deleted or replaced
//! by the game: only ending the run (death, victory, abandoning it) removes its save, and
//! only once the score table and the morgue file have it.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::Session;
use super::data::{self, fnv64};
use super::journal::{Io, bytes_text};
use super::morgue::RunEnd;

/// The format this game writes.
pub const FORMAT: u32 = 2;
/// The earlier format this game still resumes (by replaying it).
pub const LEGACY_FORMAT: u32 = 1;
/// The start of a save's first line, before its format number.
const MAGIC: &str = "astar-rogue run save, format ";
/// The start of its second line, before the checksum of the rest.
const CHECKSUM: &str = "checksum fnv1a64 ";
/// The largest save read (a level is at most 64 MiB; a save holds its floors and the game's
/// map of the floor in play).
pub const MAX_SAVE_BYTES: u64 = 512 * 1024 * 1024;
/// The game that writes saves (and morgue files), which must read them.
pub use super::data::GAME;

/// A run, saved: what it is now.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RunSave {
    /// The game that wrote it ([`GAME`]).
    pub game: String,
    /// The level file the run began on, absolute; `None` for the built-in level.
    pub level: Option<PathBuf>,
    /// The FNV-1a hash (hexadecimal) of what the run last saw its level file hold, while
    /// the run still plays from that file: a file changed since is refused.
    pub seen: Option<String>,
    /// The seed of the run.
    pub run_seed: u64,
    /// The turn when saved, for messages.
    pub turn: u32,
    /// The depth when saved.
    pub depth: u32,
    /// The name of the run's level file, for messages.
    pub name: String,
    /// When the run was saved (seconds since 1970, UTC).
    pub saved: u64,
    /// The text of the settings file the run plays with; `None` for the defaults.
    #[serde(default)]
    pub settings: Option<String>,
    /// That settings file, for messages and recordings' headers.
    #[serde(default)]
    pub settings_file: Option<PathBuf>,
    /// The terminal size the run was saved at.
    pub size: (u16, u16),
    /// The run's tape and how long it was at this save.
    #[serde(default)]
    pub tape: Option<TapeMark>,
    /// Runs that ended and whose morgue file or score line could not be written: the next
    /// start writes them, and lets the save go once they are (and no run is in progress).
    #[serde(default)]
    pub ended: Vec<Unscored>,
    /// The run itself.
    pub session: Session,
    /// What the front end showed (its screen, the selection, the overlay): the front end's
    /// to read.
    #[serde(default)]
    pub view: serde_json::Value,
}

/// A run that ended and is not scored yet: what the morgue file and the score line say
/// of it, and its tape.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unscored {
    /// How it ended.
    pub end: RunEnd,
    /// Its tape, for the morgue file.
    pub tape: String,
}

/// Where a run's tape stood when its save was written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TapeMark {
    /// The tape, in the saves folder.
    pub file: PathBuf,
    /// Its length then, in bytes.
    pub len: u64,
}

/// A run saved in format 1: its recording and the disk's answers, which resuming replays.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LegacySave {
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

/// A save as read: of this format, or of the earlier one.
#[derive(Debug, Clone)]
pub enum Kept {
    /// Format 2: the run as it is.
    Run(Box<RunSave>),
    /// Format 1: the run as its inputs, to replay.
    Legacy(Box<LegacySave>),
}

impl Kept {
    /// The level file the run began on.
    pub fn level(&self) -> Option<&Path> {
        match self {
            Kept::Run(s) => s.level.as_deref(),
            Kept::Legacy(s) => s.level.as_deref(),
        }
    }

    /// The hash of what the run last saw its level file hold, while it plays from it.
    pub fn seen(&self) -> Option<&str> {
        match self {
            Kept::Run(s) => s.seen.as_deref(),
            Kept::Legacy(s) => s.seen.as_deref(),
        }
    }

    /// The run's seed.
    pub fn run_seed(&self) -> u64 {
        match self {
            Kept::Run(s) => s.run_seed,
            Kept::Legacy(s) => s.run_seed,
        }
    }

    /// The turn it was saved at.
    pub fn turn(&self) -> u32 {
        match self {
            Kept::Run(s) => s.turn,
            Kept::Legacy(s) => s.turn,
        }
    }

    /// The depth it was saved at.
    pub fn depth(&self) -> u32 {
        match self {
            Kept::Run(s) => s.depth,
            Kept::Legacy(s) => s.depth,
        }
    }

    /// The name of its level file, for messages.
    pub fn name(&self) -> &str {
        match self {
            Kept::Run(s) => &s.name,
            Kept::Legacy(s) => &s.name,
        }
    }

    /// The settings file's text the run plays with.
    pub fn settings(&self) -> Option<&str> {
        match self {
            Kept::Run(s) => s.settings.as_deref(),
            Kept::Legacy(s) => s.settings.as_deref(),
        }
    }
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
    #[error(
        "it is in save format {found}, and this game reads formats {LEGACY_FORMAT} and {FORMAT}"
    )]
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
    /// It reads, but what it holds is not a game that can be (a creature off the map).
    #[error("it does not hold a game that can be ({0})")]
    Unsound(String),
}

/// The text of a save of `format` holding `json`: the format line, the checksum line,
/// then the JSON.
fn encode_json(format: u32, json: &str) -> String {
    format!(
        "{MAGIC}{format}\n{CHECKSUM}{:016x}\n{json}\n",
        fnv64(json.as_bytes())
    )
}

impl RunSave {
    /// The file's text: the format line, the checksum line, then the JSON.
    pub fn encode(&self) -> Result<String, serde_json::Error> {
        let json = serde_json::to_string(self)?;
        Ok(encode_json(FORMAT, &json))
    }

    /// Reads a save's text back, checking its format, its checksum and its game.
    pub fn decode(bytes: &[u8]) -> Result<Kept, SaveError> {
        let (first, rest) = split_line(bytes).ok_or(SaveError::NotASave)?;
        let first = std::str::from_utf8(first).map_err(|_| SaveError::NotASave)?;
        let format = first.strip_prefix(MAGIC).ok_or(SaveError::NotASave)?;
        let legacy = format == LEGACY_FORMAT.to_string();
        if !legacy && format != FORMAT.to_string() {
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
        let damaged =
            |e: serde_json::Error| SaveError::Damaged(format!("its content does not read: {e}"));
        // The game is checked before the rest is read: another version's save may not read
        // as this one's, and then its version is the reason to give.
        #[derive(Deserialize)]
        struct Game {
            game: String,
        }
        let game: Game = serde_json::from_slice(json).map_err(damaged)?;
        if game.game != GAME {
            return Err(SaveError::Game(
                crate::text::escape_controls(&game.game).into_owned(),
            ));
        }
        if legacy {
            let save: LegacySave = serde_json::from_slice(json).map_err(damaged)?;
            return Ok(Kept::Legacy(Box::new(save)));
        }
        let save: RunSave = serde_json::from_slice(json).map_err(damaged)?;
        Ok(Kept::Run(Box::new(save)))
    }

    /// Reads the save at `path` (refused past [`MAX_SAVE_BYTES`] before a byte is read).
    pub fn read(path: &Path) -> Result<Kept, SaveError> {
        let bytes = crate::text::read_limited(path, MAX_SAVE_BYTES, "run save")
            .map_err(|e| SaveError::Read(e.to_string()))?;
        Self::decode(&bytes)
    }

    /// Writes the save to `path`, atomically (the old save stays whole until the new one
    /// is).
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        let text = self.encode().map_err(std::io::Error::other)?;
        write_text(path, &text)
    }
}

impl LegacySave {
    /// The file's text, in format 1.
    pub fn encode(&self) -> String {
        encode_json(
            LEGACY_FORMAT,
            &serde_json::to_string(self).unwrap_or_default(),
        )
    }
}

/// Writes a save's text to `path`, atomically, making its folder first.
fn write_text(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        data::ensure(dir)?;
    }
    super::create::write_atomic(path, text.as_bytes())
}

fn split_line(bytes: &[u8]) -> Option<(&[u8], &[u8])> {
    let at = bytes.iter().position(|&b| b == b'\n')?;
    Some((&bytes[..at], &bytes[at + 1..]))
}

/// Where the save of a level's run lives, the run's tape, and the lock that a game
/// playing it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slot {
    /// The save file.
    pub save: PathBuf,
    /// The lock file beside it.
    pub lock: PathBuf,
    /// The tape of the run kept there (its inputs from its first turn), beside it.
    pub tape: PathBuf,
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
            tape: dir.join(format!("{stem}.keys")),
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
            tape: newest.with_extension("keys"),
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

    fn legacy() -> LegacySave {
        LegacySave {
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

    fn run() -> RunSave {
        let design = crate::content::level::design::Design::parse(
            b"title: Pit\n#####\n#@.g#\n#####\n",
            "pit.txt",
        )
        .unwrap();
        let source = super::super::Source::generated("pit.txt".into());
        RunSave {
            game: GAME.into(),
            level: None,
            seen: None,
            run_seed: 9,
            turn: 0,
            depth: 1,
            name: "pit.txt".into(),
            saved: 0,
            settings: None,
            settings_file: None,
            size: (80, 24),
            tape: None,
            ended: Vec::new(),
            session: Session::new(design, source, 9),
            view: serde_json::Value::Null,
        }
    }

    #[test]
    fn a_save_of_either_format_reads_back_as_written() {
        let s = legacy();
        let text = s.encode();
        assert!(text.starts_with("astar-rogue run save, format 1\nchecksum fnv1a64 "));
        match RunSave::decode(text.as_bytes()) {
            Ok(Kept::Legacy(back)) => assert_eq!(*back, s),
            other => panic!("{other:?}"),
        }
        let r = run();
        let text = r.encode().unwrap();
        assert!(text.starts_with("astar-rogue run save, format 2\nchecksum fnv1a64 "));
        let Ok(Kept::Run(back)) = RunSave::decode(text.as_bytes()) else {
            panic!("a format 2 save")
        };
        assert_eq!(back.encode().unwrap(), text);
    }

    #[test]
    fn a_damaged_cut_or_foreign_save_says_what_is_wrong() {
        let text = run().encode().unwrap();
        let cut = &text.as_bytes()[..text.len() - 20];
        assert!(matches!(
            RunSave::decode(cut),
            Err(SaveError::Damaged(m)) if m.contains("checksum does not match")
        ));
        let flipped = text.replace("Pit", "PiT");
        assert!(matches!(
            RunSave::decode(flipped.as_bytes()),
            Err(SaveError::Damaged(_))
        ));
        let old = text.replacen("format 2", "format 0", 1);
        assert_eq!(
            RunSave::decode(old.as_bytes()).unwrap_err().to_string(),
            "it is in save format 0, and this game reads formats 1 and 2"
        );
        assert!(matches!(
            RunSave::decode(b"hello\n"),
            Err(SaveError::NotASave)
        ));
        assert!(matches!(RunSave::decode(b""), Err(SaveError::NotASave)));
        let mut other = run();
        other.game = "astar-rogue 0.0.1".into();
        assert!(matches!(
            RunSave::decode(other.encode().unwrap().as_bytes()),
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
        assert_eq!(a.tape.with_extension("save"), a.save);
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
