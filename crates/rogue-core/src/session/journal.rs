//! What the session asked of the disk, kept in order so that a replay of the run gets the
//! same answers without touching the disk again.
//!
//! A run is rebuilt by replaying its inputs, and almost all of a run follows from its inputs
//! alone. The exceptions are the level files': a save chooses a file name by what exists, and
//! can fail, find the file changed or held open by a writer; a reload reads whatever the
//! file holds then (or finds it changing under the read); a descent to a designed floor
//! (`next:`) reads that floor's file, and the chain's depth is read from all of them. Each such
//! answer goes through the [`Journal`]: while it records, it notes the answer; while it
//! replays, it gives back the noted answer instead of asking the disk, so a replay neither
//! writes the level nor depends on what the file holds now.

use std::collections::VecDeque;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// One answer the disk gave the session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Io {
    /// The level file was read again: its bytes, or why they could not be read.
    Read {
        /// The bytes read.
        #[serde(with = "bytes_text", default, skip_serializing_if = "Option::is_none")]
        bytes: Option<Vec<u8>>,
        /// Why the read failed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        error: Option<String>,
    },
    /// Whether the file differed from what the game had seen, before a save.
    Changed(bool),
    /// The file name a save of a map or a generated level chose.
    Fresh(PathBuf),
    /// A save's write (or a new floor's): `None` when it was done, else why it failed.
    Write(Option<String>),
    /// The level file changed while it was read, so the read was not taken.
    Unsettled,
    /// A save or a poll found the level file open for writing by this process, or by none.
    Writer(Option<u32>),
    /// How deep the designed floors below the one in play go (`next:` headers followed).
    Chain(Option<u32>),
    /// The designed floor below: its file and bytes, none, or why it cannot be had.
    Below {
        /// The file of the floor below.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        path: Option<PathBuf>,
        /// Its bytes.
        #[serde(with = "bytes_text", default, skip_serializing_if = "Option::is_none")]
        bytes: Option<Vec<u8>>,
        /// Why the way down is blocked.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        error: Option<String>,
    },
}

/// What a read of the level file found: its bytes, a change under way, or a failure.
pub(super) type Read = Result<Option<Vec<u8>>, String>;

/// The session's dealings with the disk: not kept, recorded, or replayed.
#[derive(Debug, Clone, Default)]
pub enum Journal {
    /// Nothing is kept (scripts, tests): the disk answers and is forgotten.
    #[default]
    Off,
    /// Every answer is kept, in order.
    Live(Vec<Io>),
    /// Answers come from these, in order; `diverged` once one was missing or of the wrong
    /// kind (the disk answered instead).
    Replay {
        /// The answers not given yet.
        queue: VecDeque<Io>,
        /// Whether the replay asked for an answer the journal did not have.
        diverged: bool,
    },
}

/// What a replay that has no answer for a question gives instead of asking the disk: the
/// answer that does least (a read or write that failed, a change found, nobody writing),
/// and the replay is marked as gone its own way.
const NO_ANSWER: &str = "the replay has no answer from the disk for this";

/// Why a save's write (through the journal) failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WriteError {
    /// The disk refused it: the system's words, which are all a recording keeps of it.
    #[error("{0}")]
    Failed(String),
    /// A replay ran out of the disk's answers.
    #[error("{}", NO_ANSWER)]
    NoAnswer,
}

impl Journal {
    /// Asks the disk through the journal: `ask` runs unless the journal replays, which
    /// gives its next answer instead (`back` reads it from its record) and never asks the
    /// disk: when it has no answer of this kind, it gives `refused` and is marked as gone
    /// its own way. Live, `note` turns the disk's answer into its record.
    pub(super) fn pass<T: Clone>(
        &mut self,
        ask: impl FnOnce() -> T,
        note: impl FnOnce(T) -> Io,
        back: impl FnOnce(Io) -> Option<T>,
        refused: impl FnOnce() -> T,
    ) -> T {
        if let Journal::Replay { queue, diverged } = self {
            return match queue.pop_front().and_then(back) {
                Some(answer) => answer,
                None => {
                    *diverged = true;
                    refused()
                }
            };
        }
        let answer = ask();
        if let Journal::Live(kept) = self {
            kept.push(note(answer.clone()));
        }
        answer
    }

    /// Whether answers come from a recording rather than the disk.
    pub fn replaying(&self) -> bool {
        matches!(self, Journal::Replay { .. })
    }

    /// A read of the level file. It never finds the file changing under it: replayed, an
    /// [`Io::Unsettled`] is an answer the run never had here.
    pub(super) fn read(
        &mut self,
        ask: impl FnOnce() -> Result<Vec<u8>, String>,
    ) -> Result<Vec<u8>, String> {
        self.pass(
            ask,
            |r| note_read(r.map(Some)),
            |io| back_read(io).and_then(Result::transpose),
            || Err(NO_ANSWER.into()),
        )
    }

    /// A reload's read of the level file: `Ok(None)` when it changed while read.
    pub(super) fn reread(&mut self, ask: impl FnOnce() -> Read) -> Read {
        self.pass(ask, note_read, back_read, || Err(NO_ANSWER.into()))
    }

    /// Which process has the level file open for writing, if any.
    pub(super) fn writer(&mut self, ask: impl FnOnce() -> Option<u32>) -> Option<u32> {
        self.pass(
            ask,
            Io::Writer,
            |io| match io {
                Io::Writer(w) => Some(w),
                _ => None,
            },
            || None,
        )
    }

    /// In a replay whose next answer is a writer found by a poll, that writer (taken).
    pub(super) fn replayed_writer(&mut self) -> Option<u32> {
        let Journal::Replay { queue, .. } = self else {
            return None;
        };
        let Some(Io::Writer(Some(pid))) = queue.front() else {
            return None;
        };
        let pid = *pid;
        queue.pop_front();
        Some(pid)
    }

    /// How deep the designed floors go.
    pub(super) fn chain(&mut self, ask: impl FnOnce() -> Option<u32>) -> Option<u32> {
        self.pass(
            ask,
            Io::Chain,
            |io| match io {
                Io::Chain(d) => Some(d),
                _ => None,
            },
            || None,
        )
    }

    /// The designed floor below: its file and bytes.
    pub(super) fn below(
        &mut self,
        ask: impl FnOnce() -> Result<Option<(PathBuf, Vec<u8>)>, String>,
    ) -> Result<Option<(PathBuf, Vec<u8>)>, String> {
        self.pass(
            ask,
            |r| match r {
                Ok(found) => {
                    let (path, bytes) = found.unzip();
                    Io::Below {
                        path,
                        bytes,
                        error: None,
                    }
                }
                Err(e) => Io::Below {
                    path: None,
                    bytes: None,
                    error: Some(e),
                },
            },
            |io| match io {
                Io::Below {
                    path: Some(p),
                    bytes: Some(b),
                    error: None,
                } => Some(Ok(Some((p, b)))),
                Io::Below {
                    path: None,
                    bytes: None,
                    error: None,
                } => Some(Ok(None)),
                Io::Below {
                    path: None,
                    bytes: None,
                    error: Some(e),
                } => Some(Err(e)),
                _ => None,
            },
            || Err(NO_ANSWER.into()),
        )
    }

    /// Whether the file changed on disk, before a save.
    pub(super) fn changed(&mut self, ask: impl FnOnce() -> bool) -> bool {
        self.pass(
            ask,
            Io::Changed,
            |io| match io {
                Io::Changed(b) => Some(b),
                _ => None,
            },
            || true,
        )
    }

    /// The new file name a save chose; `wanted` when a replay has none.
    pub(super) fn fresh(
        &mut self,
        wanted: &std::path::Path,
        ask: impl FnOnce() -> PathBuf,
    ) -> PathBuf {
        self.pass(
            ask,
            Io::Fresh,
            |io| match io {
                Io::Fresh(p) => Some(p),
                _ => None,
            },
            || wanted.to_path_buf(),
        )
    }

    /// A save's write: replayed, it writes nothing and answers as it did.
    pub(super) fn write(
        &mut self,
        ask: impl FnOnce() -> std::io::Result<()>,
    ) -> Result<(), WriteError> {
        self.pass(
            || ask().map_err(|e| WriteError::Failed(e.to_string())),
            |r| {
                Io::Write(r.err().map(|e| match e {
                    WriteError::Failed(why) => why,
                    WriteError::NoAnswer => NO_ANSWER.into(),
                }))
            },
            |io| match io {
                Io::Write(e) => Some(e.map_or(Ok(()), |why| Err(WriteError::Failed(why)))),
                _ => None,
            },
            || Err(WriteError::NoAnswer),
        )
    }
}

/// The record of a read of the level file (both kinds of read keep the same records).
fn note_read(read: Read) -> Io {
    match read {
        Ok(None) => Io::Unsettled,
        Ok(Some(b)) => Io::Read {
            bytes: Some(b),
            error: None,
        },
        Err(e) => Io::Read {
            bytes: None,
            error: Some(e),
        },
    }
}

/// A read of the level file back from its record; `None` for a record of anything else.
fn back_read(io: Io) -> Option<Read> {
    match io {
        Io::Unsettled => Some(Ok(None)),
        Io::Read {
            bytes: Some(b),
            error: None,
        } => Some(Ok(Some(b))),
        Io::Read {
            bytes: None,
            error: Some(e),
        } => Some(Err(e)),
        _ => None,
    }
}

/// Bytes in JSON as text when they are UTF-8 (`t:` then the text), else as hexadecimal
/// (`x:` then two digits a byte): a level file stays readable in a save.
pub mod bytes_text {
    use serde::{Deserialize, Deserializer, Serializer};

    /// The bytes as `t:TEXT` or `x:HEX`.
    pub fn encode(bytes: &[u8]) -> String {
        use std::fmt::Write;
        match std::str::from_utf8(bytes) {
            Ok(text) => format!("t:{text}"),
            Err(_) => {
                let mut out = String::with_capacity(2 + 2 * bytes.len());
                out.push_str("x:");
                for b in bytes {
                    // Written in place: a string per byte on every autosave of a large level.
                    let _ = write!(out, "{b:02x}");
                }
                out
            }
        }
    }

    /// The bytes of `t:TEXT` or `x:HEX`.
    pub fn decode(s: &str) -> Result<Vec<u8>, String> {
        if let Some(text) = s.strip_prefix("t:") {
            return Ok(text.as_bytes().to_vec());
        }
        let hex = s
            .strip_prefix("x:")
            .ok_or_else(|| "bytes must start with t: or x:".to_string())?;
        if !hex.len().is_multiple_of(2) {
            return Err("odd number of hexadecimal digits".into());
        }
        (0..hex.len())
            .step_by(2)
            .map(|i| {
                hex.get(i..i + 2)
                    .and_then(|d| u8::from_str_radix(d, 16).ok())
                    .ok_or_else(|| format!("bad hexadecimal digits at {i}"))
            })
            .collect()
    }

    /// For `#[serde(with)]` on an `Option<Vec<u8>>`.
    pub fn serialize<S: Serializer>(bytes: &Option<Vec<u8>>, s: S) -> Result<S::Ok, S::Error> {
        match bytes {
            Some(b) => s.serialize_some(&encode(b)),
            None => s.serialize_none(),
        }
    }

    /// For `#[serde(with)]` on an `Option<Vec<u8>>`.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<u8>>, D::Error> {
        let text: Option<String> = Option::deserialize(d)?;
        text.map(|t| decode(&t).map_err(serde::de::Error::custom))
            .transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replay_answers_as_the_disk_did_and_asks_it_nothing() {
        let mut live = Journal::Live(Vec::new());
        assert_eq!(live.read(|| Ok(b"ab".to_vec())), Ok(b"ab".to_vec()));
        assert!(live.changed(|| true));
        assert_eq!(
            live.fresh(std::path::Path::new("x.txt"), || "x-1.txt".into()),
            PathBuf::from("x-1.txt")
        );
        assert_eq!(
            live.write(|| Err(std::io::Error::other("disk full"))),
            Err(WriteError::Failed("disk full".into()))
        );
        assert_eq!(live.read(|| Err("gone".into())), Err("gone".into()));
        assert_eq!(live.reread(|| Ok(None)), Ok(None));
        assert_eq!(live.writer(|| Some(7)), Some(7));
        assert_eq!(live.chain(|| Some(3)), Some(3));
        let two = || Ok(Some(("two.txt".into(), b"@>".to_vec())));
        assert_eq!(live.below(two), two());
        assert_eq!(live.below(|| Ok(None)), Ok(None));
        assert_eq!(live.below(|| Err("loop".into())), Err("loop".into()));
        let Journal::Live(kept) = live else {
            unreachable!()
        };
        let json = serde_json::to_string(&kept).unwrap();
        let back: Vec<Io> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, kept);
        let mut replay = Journal::Replay {
            queue: back.into(),
            diverged: false,
        };
        let never = || -> Result<Vec<u8>, String> { panic!("the disk was asked") };
        assert_eq!(replay.read(never), Ok(b"ab".to_vec()));
        assert!(replay.changed(|| panic!("asked")));
        assert_eq!(
            replay.fresh(std::path::Path::new("x.txt"), || panic!("asked")),
            PathBuf::from("x-1.txt")
        );
        assert_eq!(
            replay.write(|| panic!("asked")),
            Err(WriteError::Failed("disk full".into()))
        );
        assert_eq!(replay.read(never), Err("gone".into()));
        assert_eq!(replay.reread(|| panic!("asked")), Ok(None));
        assert_eq!(replay.writer(|| panic!("asked")), Some(7));
        assert_eq!(replay.chain(|| panic!("asked")), Some(3));
        assert_eq!(replay.below(|| panic!("asked")), two());
        assert_eq!(replay.below(|| panic!("asked")), Ok(None));
        assert_eq!(replay.below(|| panic!("asked")), Err("loop".into()));
        // Out of answers: the disk is never asked (a rebuilt run must not write the level
        // or read what it holds now); the replay gets the answer that does least, and
        // knows it went its own way.
        assert!(replay.changed(|| panic!("asked")));
        assert_eq!(replay.write(|| panic!("asked")), Err(WriteError::NoAnswer));
        assert!(replay.read(|| panic!("asked")).is_err());
        assert!(matches!(replay, Journal::Replay { diverged: true, .. }));
    }

    #[test]
    fn a_read_that_must_settle_takes_no_unsettled_answer() {
        // A reload's read that found the file changing is kept as such...
        let mut live = Journal::Live(Vec::new());
        assert_eq!(live.reread(|| Ok(None)), Ok(None));
        assert_eq!(
            live.reread(|| Ok(Some(b"@".to_vec()))),
            Ok(Some(b"@".to_vec()))
        );
        let Journal::Live(kept) = live else {
            unreachable!()
        };
        assert_eq!(kept[0], Io::Unsettled);
        // ...and a plain read given it in a replay fails, without asking the disk: the
        // replay diverged.
        let mut replay = Journal::Replay {
            queue: kept.into(),
            diverged: false,
        };
        assert!(replay.read(|| panic!("asked")).is_err());
        assert!(matches!(replay, Journal::Replay { diverged: true, .. }));
        // A plain read and a reread of bytes keep the same record.
        let mut replay = Journal::Replay {
            queue: vec![Io::Read {
                bytes: Some(b"@".to_vec()),
                error: None,
            }]
            .into(),
            diverged: false,
        };
        assert_eq!(replay.read(|| panic!("asked")), Ok(b"@".to_vec()));
        assert!(matches!(
            replay,
            Journal::Replay {
                diverged: false,
                ..
            }
        ));
    }

    #[test]
    fn bytes_read_as_text_or_hexadecimal() {
        for bytes in [&b"a level\n"[..], b"", b"\xff\x00ok"] {
            assert_eq!(
                bytes_text::decode(&bytes_text::encode(bytes)).unwrap(),
                bytes
            );
        }
        assert_eq!(bytes_text::encode(b"\xff\x01"), "x:ff01");
        assert!(bytes_text::decode("x:f").is_err());
        assert!(bytes_text::decode("plain").is_err());
    }
}
