//! The session: the one value that owns a run. It holds the design of the floor being
//! played and where it came from, the undo history of its edits, the game world, and the
//! run's first floor while the player is deeper; it carries out saves, reloads, descents,
//! restarts, new levels and edits, and says what happened. No terminal code: the app
//! turns what it returns into messages and screens.

pub mod files;

use std::path::PathBuf;
use std::sync::Arc;

use crate::content::generate::{self, GenKind, GenParams};
use crate::content::level::{Change, Design, EditOp, Level, Refusal};
use crate::engine::astar::SearchOptions;
use crate::game::{Monster, Progress, World};
pub use files::{
    DEFAULT_LEVEL, DEFAULT_LEVEL_PATH, DISK_SETTLE, DiskPoll, OpenError, PendingReload, Polled,
    Reloaded, Replacing, Saved, Source, SourceKind, create_for_writing, open_level, write_atomic,
};

/// A floor's design and where it came from, said once.
#[derive(Debug, Clone)]
pub struct Floor {
    /// The level as designed: what its file says, with the editor's changes. The game in
    /// play is built from it (restart starts from it) and a save writes it.
    pub design: Design,
    /// Where it came from and where it saves.
    pub source: Source,
    /// The generator kind and seed that made it, when it was generated.
    pub generated: Option<(GenKind, u64)>,
}

/// One change made, with the monster it took out of play (to put back as it was).
#[derive(Debug, Clone)]
struct Done {
    change: Change,
    removed: Option<Monster>,
}

/// A group of changes that undo together, with a serial so that "saved" can name a point
/// in the history.
#[derive(Debug, Clone)]
struct Group {
    serial: u64,
    changes: Vec<Done>,
}

/// The undo and redo history of the design's edits.
#[derive(Debug, Clone)]
struct History {
    undo: Vec<Group>,
    redo: Vec<Group>,
    /// Whether the next change joins the last group (a mouse stroke).
    in_stroke: bool,
    next_serial: u64,
    /// The serial of the newest undo group when the design was last saved or loaded.
    saved: Option<u64>,
}

impl Default for History {
    fn default() -> Self {
        Self {
            undo: Vec::new(),
            redo: Vec::new(),
            in_stroke: false,
            next_serial: 1,
            saved: None,
        }
    }
}

impl History {
    /// Whether the history is not where it was at the last save or load (undoing back to
    /// that point makes the design clean again).
    fn unsaved(&self) -> bool {
        self.undo.last().map(|g| g.serial) != self.saved
    }

    fn mark_saved(&mut self) {
        self.saved = self.undo.last().map(|g| g.serial);
    }

    /// Forgets every step (they describe a design that was replaced); whether there were any.
    fn forget(&mut self) -> bool {
        let had = !self.undo.is_empty() || !self.redo.is_empty();
        *self = Self {
            next_serial: self.next_serial,
            ..Self::default()
        };
        had
    }

    fn record(&mut self, done: Done, stroke: bool) {
        match self.undo.last_mut() {
            Some(group) if stroke && self.in_stroke => group.changes.push(done),
            _ => {
                let serial = self.next_serial;
                self.next_serial += 1;
                self.undo.push(Group {
                    serial,
                    changes: vec![done],
                });
            }
        }
        self.in_stroke = stroke;
        self.redo.clear();
    }
}

/// How taking the stairs went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Descended {
    /// The floor below is in play (a generated one, which saves to a new file).
    Down,
    /// Unsaved edits: the floor below would replace the design.
    Unsaved,
    /// The game refused (no stairs, sealed stairs): it said why.
    Refused,
}

/// A level made by `G`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewLevel {
    /// The generator.
    pub kind: GenKind,
    /// Its size.
    pub size: (usize, usize),
    /// Its seed.
    pub seed: u64,
    /// The file name it saves as.
    pub name: String,
}

/// One run on a level: the design, its file, its edits and the game.
#[derive(Debug)]
pub struct Session {
    world: World,
    floor: Floor,
    /// The run's first floor while the player is deeper: restarting goes back to it.
    first: Option<Box<Floor>>,
    history: History,
    /// How far the planning of a turn is, for every game of the run.
    progress: Arc<Progress>,
}

impl Session {
    /// A run of `design`, loaded from `source`, from `seed`.
    pub fn new(design: Design, source: Source, seed: u64) -> Self {
        Self::with_progress(design, source, seed, Arc::default())
    }

    /// A run as [`Session::new`] whose planning, on every floor and after every restart,
    /// reports how far it is to `progress`.
    pub fn with_progress(
        design: Design,
        source: Source,
        seed: u64,
        progress: Arc<Progress>,
    ) -> Self {
        let options = SearchOptions::default();
        Self {
            world: World::with_progress(design.level(), seed, options, Arc::clone(&progress)),
            progress,
            floor: Floor {
                design,
                source,
                generated: None,
            },
            first: None,
            history: History::default(),
        }
    }

    /// The game.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The game, to play.
    pub fn world_mut(&mut self) -> &mut World {
        &mut self.world
    }

    /// The floor being played: its design and where it came from.
    pub fn floor(&self) -> &Floor {
        &self.floor
    }

    /// The design of the floor being played.
    pub fn design(&self) -> &Design {
        &self.floor.design
    }

    /// Where the floor being played came from and where it saves.
    pub fn source(&self) -> &Source {
        &self.floor.source
    }

    /// Whether the design has edits that are not saved in its file.
    pub fn unsaved(&self) -> bool {
        self.history.unsaved()
    }

    /// Checks an edit against the design (the one validator) and, when allowed, applies the
    /// one change to the design and to the game in play; `stroke` joins it to the mouse
    /// stroke under way, to undo together. `Ok(false)` when it changes nothing.
    pub fn edit(&mut self, op: EditOp, stroke: bool) -> Result<bool, Refusal> {
        let Some(change) = self.floor.design.check(op, &self.world)? else {
            return Ok(false);
        };
        let done = self.make(change, true, None);
        self.history.record(done, stroke);
        Ok(true)
    }

    /// Starts a mouse stroke: its changes undo together.
    pub fn begin_stroke(&mut self) {
        self.history.in_stroke = false;
    }

    /// Applies a change (or its inverse) to the design and the game alike.
    fn make(&mut self, change: Change, forward: bool, removed: Option<Monster>) -> Done {
        let mut removed = removed;
        self.floor.design.apply(&change, forward);
        self.world.follow(&change, forward, &mut removed);
        Done { change, removed }
    }

    /// Undoes the last edit (a whole mouse stroke at once); false when there is none.
    pub fn undo(&mut self) -> bool {
        let Some(group) = self.history.undo.pop() else {
            return false;
        };
        let mut changes: Vec<Done> = group
            .changes
            .into_iter()
            .rev()
            .map(|d| self.make(d.change, false, d.removed))
            .collect();
        changes.reverse();
        self.history.redo.push(Group {
            serial: group.serial,
            changes,
        });
        self.history.in_stroke = false;
        true
    }

    /// Redoes the last undone edit; false when there is none.
    pub fn redo(&mut self) -> bool {
        let Some(group) = self.history.redo.pop() else {
            return false;
        };
        let changes = group
            .changes
            .into_iter()
            .map(|d| self.make(d.change, true, d.removed))
            .collect();
        self.history.undo.push(Group {
            serial: group.serial,
            changes,
        });
        self.history.in_stroke = false;
        true
    }

    /// Starts a new game on the design from `seed`, keeping the search options and the
    /// planning (and the undo history: the design is the same).
    pub fn begin(&mut self, seed: u64) {
        let options = self.world.options();
        let progress = Arc::clone(&self.progress);
        self.world = World::with_progress(self.floor.design.level(), seed, options, progress);
    }

    /// Starts the run again from its first floor, with the run's seed.
    pub fn restart(&mut self) {
        if let Some(first) = self.first.take() {
            self.floor = *first;
        }
        self.begin(self.world.seed());
    }

    /// Takes the stairs: the next floor becomes the design in play (a generated one, which
    /// saves to a new file beside the level), and the first floor is kept for restarting.
    pub fn descend(&mut self) -> Descended {
        if self.unsaved() {
            return Descended::Unsaved;
        }
        let Some(level) = self.world.descend() else {
            return Descended::Refused;
        };
        let depth = self.world.run().depth;
        let (kind, seed) = crate::game::run::floor_origin(self.world.seed(), depth);
        if self.first.is_none() {
            self.first = Some(Box::new(self.floor.clone()));
        }
        let name = format!("depth{depth}-{kind}-seed{seed}.txt");
        self.take_generated(level, self.floor.source.folder().join(name), (kind, seed));
        Descended::Down
    }

    /// Replaces the level by a generated one (no file yet).
    fn take_generated(&mut self, level: Level, suggested: PathBuf, origin: (GenKind, u64)) {
        let mut source = Source::generated(suggested);
        if self.floor.source.is_replay() {
            source = source.for_replay();
        }
        self.floor = Floor {
            design: Design::new(level),
            source,
            generated: Some(origin),
        };
        self.history.forget();
    }

    /// Generates a level with the next seed and starts a new run on it: caves of `size`
    /// (clamped to at least 40x20), or, when a generated level is in play, the next kind in
    /// [`GenKind::ALL`] at that level's size, so that asking again and again shows every
    /// kind.
    pub fn new_level(&mut self, size: (usize, usize)) -> Result<NewLevel, String> {
        const MIN_GENERATED: (usize, usize) = (40, 20);
        let (kind, seed) = match self.floor.generated {
            Some((kind, seed)) => (kind.next(), seed.wrapping_add(1)),
            None => (GenKind::Caves, self.world.seed().wrapping_add(1)),
        };
        // A generated level keeps its size; otherwise the new one has the size asked for.
        let (w, h) = match self.floor.generated {
            Some(_) => (self.world.grid().width(), self.world.grid().height()),
            None => size,
        };
        let (w, h) = (
            w.clamp(MIN_GENERATED.0, generate::MAX_GENERATED_SIDE),
            h.clamp(MIN_GENERATED.1, generate::MAX_GENERATED_SIDE),
        );
        let level =
            generate::generate(&GenParams::new(kind, w, h, seed)).map_err(|e| e.to_string())?;
        let name = format!("{kind}-{w}x{h}-seed{seed}.txt");
        let suggested = self.floor.source.folder().join(&name);
        self.take_generated(level, suggested, (kind, seed));
        self.first = None;
        self.begin(seed);
        Ok(NewLevel {
            kind,
            size: (w, h),
            seed,
            name,
        })
    }
}
