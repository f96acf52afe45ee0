//! The session's side of the level file: saving the design, reloading it, polling the
//! disk for changes, and what a signal must keep. The files' own rules are in `files`.
//!
//! The session names nothing here: this file only adds methods to [`Session`], so that the
//! two do not import each other (as they did when these methods lived in `files`, which
//! the session takes its types from).

use std::path::PathBuf;
use std::time::{Instant, SystemTime};

use super::Session;
use super::create::write_atomic;
use super::files::*;
use crate::content::level::design::Design;
use crate::content::level::{Format, LoadError};

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
                write_atomic(&target, text.as_bytes())
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
            Err(error) => Saved::Failed {
                name,
                error: error.to_string(),
            },
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
            Err(why) => return Reloaded::Failed(why.to_string()),
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
