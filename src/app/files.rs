//! Where the level lives on disk: atomic saves, change detection and hot reload.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::{App, Confirm};
use crate::content::level::{Format, Level, LoadError};
use crate::engine::grid::{Grid, Pos};

/// What kind of thing the level came from, which decides where it saves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceKind {
    /// A text level file: saves go back into it.
    Text,
    /// A Moving AI map: saves go to a new `.txt` beside it.
    MovingAi,
    /// Made by the generator: saves go to a new `.txt` named after it.
    Generated,
}

/// The level's file and what we last knew of it.
#[derive(Debug, Clone)]
pub struct Source {
    /// The file, if any.
    pub path: Option<PathBuf>,
    /// What it is.
    pub kind: SourceKind,
    /// Length and modification time when last read or written.
    stamp: Option<(u64, Option<SystemTime>)>,
    /// The bytes last read or written, to tell a real outside change from a touch.
    content: Option<Vec<u8>>,
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
        }
    }

    /// A source with no file behind it (generated levels).
    pub fn generated(suggested: PathBuf) -> Self {
        Self {
            path: Some(suggested),
            kind: SourceKind::Generated,
            stamp: None,
            content: None,
        }
    }

    /// The file name for messages (never a full path, so frames stay reproducible).
    pub fn name(&self) -> String {
        self.path
            .as_deref()
            .and_then(Path::file_name)
            .map_or_else(|| "(no file)".into(), |n| n.to_string_lossy().into_owned())
    }
}

fn stamp_of(path: &Path) -> Option<(u64, Option<SystemTime>)> {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.len(), meta.modified().ok()))
}

/// Writes `bytes` to `path` atomically: a temporary file in the same folder, flushed, then
/// renamed over the target, so readers see the old file or the new one, never a mixture.
/// A symbolic link is written through (the link stays), and an existing file keeps its
/// permissions.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let linked = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    let target = if linked {
        std::fs::canonicalize(path)?
    } else {
        path.to_path_buf()
    };
    let path = target.as_path();
    let permissions = std::fs::metadata(path).ok().map(|m| m.permissions());
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| std::io::Error::other("the path names no file"))?;
    if path.is_dir() {
        return Err(std::io::Error::other("a directory is in the way"));
    }
    let tmp = dir.join(format!(
        ".{}.tmp-{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let result = (|| {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        f.write_all(bytes)?;
        if let Some(permissions) = permissions {
            f.set_permissions(permissions)?;
        }
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)?;
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

/// The passable cell nearest to `from` (by king moves, then reading order) not in `taken`.
fn nearest_free(grid: &Grid, from: Pos, taken: &[Pos]) -> Option<Pos> {
    let reach = grid.width().max(grid.height()) as i32;
    (1..=reach).find_map(|r| {
        (-r..=r)
            .flat_map(|dy| (-r..=r).map(move |dx| (dx, dy)))
            .filter(|&(dx, dy)| dx.abs() == r || dy.abs() == r)
            .map(|(dx, dy)| from.offset(dx, dy))
            .find(|&p| grid.is_passable(p) && !taken.contains(&p))
    })
}

/// A file name beside `wanted` that does not exist yet (`x.txt`, `x-1.txt`, ...).
fn fresh_path(wanted: &Path) -> PathBuf {
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
        .find(|p| !p.exists())
        .unwrap_or_else(|| dir.join(format!("{stem}.txt")))
}

impl App {
    /// Saves the level: into its text file, or a new `.txt` for maps and generated levels.
    pub(super) fn save(&mut self, force: bool) {
        let Some(path) = self.source.path.clone() else {
            self.world.say("This level has no file to save to.");
            return;
        };
        let target = match self.source.kind {
            SourceKind::Text => path,
            SourceKind::MovingAi | SourceKind::Generated => fresh_path(&path),
        };
        if self.source.kind == SourceKind::Text && !force && self.changed_on_disk() {
            self.confirm = Some(Confirm::Overwrite);
            self.world.say(format!(
                "{} changed on disk since it was loaded. Overwrite it? (y/n)",
                self.source.name()
            ));
            return;
        }
        let level = self.world.to_level(self.level.title.clone());
        let text = level.to_text();
        let name = target
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        match write_atomic(&target, text.as_bytes()) {
            Ok(()) => {
                self.source = Source::file(target, Format::Text, text.into_bytes());
                self.level = level;
                self.world.say(format!("Saved {name}."));
            }
            Err(e) => self.world.say(format!(
                "Could not save {name}: {e}. The file on disk is unchanged."
            )),
        }
    }

    /// Whether the file differs from what was last read or written.
    fn changed_on_disk(&self) -> bool {
        let Some(path) = &self.source.path else {
            return false;
        };
        match (std::fs::read(path), &self.source.content) {
            (Ok(now), Some(before)) => &now != before,
            (Err(_), Some(_)) => true,
            _ => false,
        }
    }

    /// Checks the file's length and time; reloads when they moved. Cheap enough to poll.
    pub fn poll_disk(&mut self) {
        if !matches!(self.source.kind, SourceKind::Text | SourceKind::MovingAi) {
            return;
        }
        let Some(path) = &self.source.path else {
            return;
        };
        let now = stamp_of(path);
        if now.is_some() && now != self.source.stamp {
            self.reload();
        }
    }

    /// Reloads the level file: the map is replaced, the player and monsters keep their places
    /// where still valid. A file that no longer parses leaves the game as it is.
    pub fn reload(&mut self) {
        let Some(path) = self.source.path.clone() else {
            self.world.say("This level has no file to reload.");
            return;
        };
        self.source.stamp = stamp_of(&path);
        let bytes = match crate::text::read_limited(
            &path,
            crate::content::level::MAX_LEVEL_BYTES,
            "level file",
        ) {
            Ok(b) => b,
            Err(e) => {
                let why = match e {
                    crate::content::level::LoadError::Io { message, .. } => {
                        format!("{}: {message}", self.source.name())
                    }
                    crate::content::level::LoadError::Parse(p) => p.headline(),
                };
                self.world.say(format!("Reload failed, level kept: {why}"));
                return;
            }
        };
        if self.source.content.as_deref() == Some(&bytes[..]) {
            return;
        }
        let name = self.source.name();
        let (new, format) = match Level::parse_any(&bytes, &name) {
            Ok(x) => x,
            Err(e) => {
                self.source.content = Some(bytes);
                self.world
                    .say(format!("Reload failed, level kept: {}", e.headline()));
                return;
            }
        };
        let fresh: Vec<_> = new
            .monsters
            .iter()
            .filter(|s| !self.level.monsters.contains(s))
            .copied()
            .collect();
        let w = &mut self.world;
        // Creatures whose cell became impassable step to the nearest free cell instead of
        // vanishing: an outside edit should not silently delete a monster. The player's
        // cell is settled first, so that a refusal leaves the game untouched.
        let player = if new.grid.is_passable(w.player.pos) {
            w.player.pos
        } else if let Some(p) = nearest_free(&new.grid, w.player.pos, &[]) {
            p
        } else {
            w.say(format!(
                "Reload refused: {name} leaves no floor for the player."
            ));
            return;
        };
        w.grid = new.grid.clone();
        w.player.pos = player;
        let mut taken: Vec<Pos> = vec![player];
        let mut kept = Vec::with_capacity(w.monsters.len());
        for mut m in std::mem::take(&mut w.monsters) {
            if !w.grid.is_passable(m.pos) || taken.contains(&m.pos) {
                match nearest_free(&w.grid, m.pos, &taken) {
                    Some(p) => m.pos = p,
                    None => continue,
                }
            }
            taken.push(m.pos);
            kept.push(m);
        }
        w.monsters = kept;
        for s in fresh {
            if w.grid.is_passable(s.pos) && !taken.contains(&s.pos) {
                taken.push(s.pos);
                w.add_monster(s.pos, s.kind);
            }
        }
        let count = w.monsters.len();
        let plural = if count == 1 { "" } else { "s" };
        w.say(format!("Reloaded {name} ({count} monster{plural})."));
        self.source = Source::file(path, format, bytes);
        self.level = new;
        if self.level.player.is_none() {
            self.level.player = Some(self.world.player.pos);
        }
        // A restart plays this file as loading it would: a Moving AI map gets its creatures
        // from the seed again.
        if let Err(why) = populate_if_empty(&mut self.level, &self.source, self.world.seed) {
            self.world.say(why);
        }
        // Undo steps recorded against the old map could put creatures in new walls.
        self.editor.forget_history();
        self.after_edit();
    }
}

/// The default level, built in so the game plays anywhere.
pub const DEFAULT_LEVEL: &str = include_str!("../../levels/default.txt");
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
pub fn open_level(path: Option<&Path>, seed: u64) -> Result<(Level, Source), OpenError> {
    let (mut level, source) = match path {
        Some(p) => {
            let (level, format, bytes) = Level::load_keeping_bytes(p)?;
            (level, Source::file(p.to_path_buf(), format, bytes))
        }
        None if Path::new(DEFAULT_LEVEL_PATH).is_file() => {
            let p = Path::new(DEFAULT_LEVEL_PATH);
            let (level, format, bytes) = Level::load_keeping_bytes(p)?;
            (level, Source::file(p.to_path_buf(), format, bytes))
        }
        None => {
            let level = Level::parse(DEFAULT_LEVEL.as_bytes(), DEFAULT_LEVEL_PATH)
                .map_err(LoadError::from)?;
            (level, Source::generated(PathBuf::from("default.txt")))
        }
    };
    populate_if_empty(&mut level, &source, seed).map_err(OpenError::Populate)?;
    Ok((level, source))
}

/// Gives a Moving AI map, which has no creatures, its player and monsters from `seed`.
fn populate_if_empty(level: &mut Level, source: &Source, seed: u64) -> Result<(), String> {
    if source.kind != SourceKind::MovingAi {
        return Ok(());
    }
    let (w, h) = (level.grid.width(), level.grid.height());
    crate::content::generate::populate(
        level,
        seed,
        crate::content::generate::default_monsters(w, h),
    )
    .map_err(|e| format!("{}: {e}", source.name()))
}
