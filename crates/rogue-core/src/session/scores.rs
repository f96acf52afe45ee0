//! The score table: one line of JSON per ended run in `scores.jsonl` in the data folder,
//! ranked best first.
//!
//! Two games may end at the same moment: each takes the lock file `scores.lock` (waiting
//! for the other), reads the table, adds its run and writes the whole file atomically, so
//! neither run is lost and a reader never sees half a file. Lines that do not read (a
//! hand edit, a newer game's) are kept as they are and reported, never dropped.

use std::cmp::Ordering;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::data;

/// The file name of the table in the data folder.
pub const SCORES_FILE: &str = "scores.jsonl";
/// The lock file beside it.
const LOCK_FILE: &str = "scores.lock";
/// How long a game waits for another to finish writing the table.
const LOCK_WAIT: Duration = Duration::from_secs(10);
/// The largest table read.
const MAX_SCORES_BYTES: u64 = 64 * 1024 * 1024;

/// One ended run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Score {
    /// `won`, `dead` or `abandoned`.
    pub outcome: String,
    /// What killed the player, for a death (`goblin`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub killer: Option<String>,
    /// The floor the run ended on.
    pub depth: u32,
    /// The run's deepest floor.
    pub final_depth: u32,
    /// Turns played.
    pub turns: u32,
    /// Monsters killed.
    pub kills: u32,
    /// Damage dealt.
    pub dealt: u32,
    /// Damage taken.
    pub taken: u32,
    /// Potions drunk.
    pub drunk: u32,
    /// The run's seed.
    pub seed: u64,
    /// The level's file name.
    pub level: String,
    /// The level's file, absolute, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level_path: Option<PathBuf>,
    /// When the run ended (seconds since 1970, UTC).
    pub date: u64,
    /// The run's morgue file, when one was written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub morgue: Option<PathBuf>,
}

impl Score {
    /// How the run ended, in words: `won`, `killed by a goblin`, `abandoned`.
    pub fn how(&self) -> String {
        match (self.outcome.as_str(), &self.killer) {
            ("dead", Some(k)) => format!("killed by {}", with_article(k)),
            ("dead", None) => "died".into(),
            (other, _) => other.into(),
        }
    }
}

/// `a goblin`, `an orc`.
pub fn with_article(name: &str) -> String {
    let vowel = name.starts_with(['a', 'e', 'i', 'o', 'u']);
    format!("{} {name}", if vowel { "an" } else { "a" })
}

/// Best first: a win before a death before an abandoned run; then deeper; then more
/// kills; then, for wins, fewer turns, and for the others more; then earlier.
pub fn rank(a: &Score, b: &Score) -> Ordering {
    let outcome = |s: &Score| match s.outcome.as_str() {
        "won" => 2,
        "dead" => 1,
        _ => 0,
    };
    outcome(b)
        .cmp(&outcome(a))
        .then(b.depth.cmp(&a.depth))
        .then(b.kills.cmp(&a.kills))
        .then(if a.outcome == "won" {
            a.turns.cmp(&b.turns)
        } else {
            b.turns.cmp(&a.turns)
        })
        .then(a.date.cmp(&b.date))
}

/// The table as read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Table {
    /// The runs, ranked best first.
    pub scores: Vec<Score>,
    /// The numbers (from 1) of lines that did not read, kept in the file as they are.
    pub unreadable: Vec<usize>,
}

/// Reads the table in `dir` (an empty one when there is no file yet).
pub fn load(dir: &Path) -> std::io::Result<Table> {
    Ok(parse(&read(dir)?))
}

/// The bytes of the table in `dir`, none when there is no file yet. Errors name the file.
fn read(dir: &Path) -> std::io::Result<Vec<u8>> {
    let path = dir.join(SCORES_FILE);
    // Only a name that is not there means no runs yet: a data folder that is a file (or
    // `/dev/null`) is an error to show, not an empty table.
    match std::fs::symlink_metadata(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => {
            return Err(std::io::Error::new(
                e.kind(),
                format!("{}: {e}", path.display()),
            ));
        }
        Ok(_) => {}
    }
    crate::text::read_limited(&path, MAX_SCORES_BYTES, "score table")
        .map_err(|e| std::io::Error::other(e.to_string()))
}

/// The runs of a table's bytes, and which lines did not read.
fn parse(bytes: &[u8]) -> Table {
    let mut table = Table::default();
    for (i, line) in String::from_utf8_lossy(bytes).lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Score>(line) {
            Ok(s) => table.scores.push(s),
            Err(_) => table.unreadable.push(i + 1),
        }
    }
    table.scores.sort_by(rank);
    table
}

/// Adds a run to the table in `dir`, under the lock; returns its place (from 1) and the
/// number of runs in the table.
///
/// The run's line goes on the end of the file's bytes, which stay as they were, so that the
/// file reads as a log of runs in the order they ended and a line this version cannot read
/// (a later version's, or one edited by hand) is kept byte for byte where it was.
pub fn add(dir: &Path, score: &Score) -> std::io::Result<(usize, usize)> {
    data::ensure(dir)?;
    let _lock = data::lock(&dir.join(LOCK_FILE), Some(LOCK_WAIT))?.ok_or_else(|| {
        std::io::Error::other("another game held the score table's lock too long")
    })?;
    let mut bytes = read(dir)?;
    let mut table = parse(&bytes);
    if !bytes.is_empty() && !bytes.ends_with(b"\n") {
        bytes.push(b'\n');
    }
    bytes.extend(
        serde_json::to_string(score)
            .map_err(std::io::Error::other)?
            .bytes(),
    );
    bytes.push(b'\n');
    super::create::write_atomic(&dir.join(SCORES_FILE), &bytes)?;
    table.scores.push(score.clone());
    table.scores.sort_by(rank);
    let place = table
        .scores
        .iter()
        .position(|s| s == score)
        .map_or(table.scores.len(), |i| i + 1);
    Ok((place, table.scores.len()))
}

/// `1st`, `2nd`, `3rd`, `4th`, `11th`, `21st`.
pub fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn score(outcome: &str, depth: u32, kills: u32, turns: u32, date: u64) -> Score {
        Score {
            outcome: outcome.into(),
            killer: (outcome == "dead").then(|| "orc".into()),
            depth,
            final_depth: 3,
            turns,
            kills,
            dealt: 0,
            taken: 0,
            drunk: 0,
            seed: date,
            level: "x.txt".into(),
            level_path: None,
            date,
            morgue: None,
        }
    }

    #[test]
    fn wins_first_then_depth_kills_and_turns() {
        let mut v = [
            score("abandoned", 3, 9, 10, 1),
            score("dead", 2, 5, 100, 2),
            score("won", 3, 9, 300, 3),
            score("dead", 2, 5, 200, 4),
            score("won", 3, 9, 200, 5),
            score("dead", 3, 1, 50, 6),
        ];
        v.sort_by(rank);
        let dates: Vec<u64> = v.iter().map(|s| s.date).collect();
        assert_eq!(dates, [5, 3, 6, 4, 2, 1]);
        assert_eq!(v[2].how(), "killed by an orc");
        assert_eq!(ordinal(1), "1st");
        assert_eq!(ordinal(12), "12th");
        assert_eq!(ordinal(22), "22nd");
        assert_eq!(ordinal(103), "103rd");
    }

    #[test]
    fn adding_keeps_every_run_and_every_unreadable_line() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(SCORES_FILE), "not json\n").unwrap();
        assert_eq!(
            add(dir.path(), &score("dead", 1, 0, 5, 10)).unwrap(),
            (1, 1)
        );
        assert_eq!(add(dir.path(), &score("won", 3, 4, 9, 11)).unwrap(), (1, 2));
        assert_eq!(
            add(dir.path(), &score("dead", 1, 0, 2, 12)).unwrap(),
            (3, 3)
        );
        let t = load(dir.path()).unwrap();
        assert_eq!(t.scores.len(), 3);
        assert_eq!(t.unreadable, [1]);
        let text = std::fs::read_to_string(dir.path().join(SCORES_FILE)).unwrap();
        assert!(text.starts_with("not json\n"), "{text}");
    }

    #[test]
    fn adding_leaves_every_byte_of_the_table_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let run = serde_json::to_string(&score("won", 3, 4, 9, 20)).unwrap();
        // Lines this version cannot read (bytes that are not UTF-8, a NUL, a CR), a run
        // between them, and no newline at the end.
        let before = [
            &b"x\xffy\n"[..],
            b"bad\r\n",
            run.as_bytes(),
            b"\nnul\x00here",
        ]
        .concat();
        std::fs::write(dir.path().join(SCORES_FILE), &before).unwrap();
        assert_eq!(
            add(dir.path(), &score("dead", 1, 0, 5, 10)).unwrap(),
            (2, 2)
        );
        let after = std::fs::read(dir.path().join(SCORES_FILE)).unwrap();
        let added = serde_json::to_string(&score("dead", 1, 0, 5, 10)).unwrap();
        assert_eq!(
            after,
            [&before[..], b"\n", added.as_bytes(), b"\n"].concat()
        );
        assert_eq!(load(dir.path()).unwrap().unreadable, [1, 2, 4]);
    }
}
