//! The session: the one value that owns a run. It holds the design of the floor being
//! played and where it came from, the undo history of its edits, the game world, and the
//! run's first floor while the player is deeper; it carries out saves, reloads, descents,
//! restarts, new levels and edits, and says what happened. No terminal code: the app
//! turns what it returns into messages and screens.

mod create;
pub mod data;
mod disk;
mod ending;
pub mod files;
pub mod journal;
pub mod morgue;
pub mod save;
pub mod scores;

use std::path::PathBuf;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::content::generate::{self, GenError, GenKind, GenParams};
use crate::content::level::design::{
    Change, Design, EditOp, Refusal, ResizeRefusal, Resized, Sides,
};
use crate::content::level::{Format, Level, campaign, read_level_file};
use crate::engine::astar::SearchOptions;
use crate::game::kept::RestoreError;
use crate::game::run::FINAL_DEPTH;
use crate::game::{GameState, Monster, Progress, World};
pub use create::write_new;
pub use create::{Replacing, create_for_writing, write_atomic};
pub use files::{
    DEFAULT_LEVEL, DEFAULT_LEVEL_PATH, DISK_SETTLE, DiskPoll, OpenError, PendingReload, Polled,
    PopulateError, Recovery, Reloaded, Saved, Source, SourceKind, find_recovery, open_level,
    open_level_bytes, open_read_level, open_saved_level_bytes, parse_recovery, playable,
    read_recovery, saved_copy_name,
};
pub use journal::{Io, Journal, WriteError};
use morgue::{Outcome, RunEnd};

/// A floor's design and where it came from, said once.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(into = "FloorForm", from = "FloorForm")]
pub struct Floor {
    /// The level as designed: what its file says, with the editor's changes. The game in
    /// play is built from it (restart starts from it) and a save writes it.
    pub design: Design,
    /// Where it came from and where it saves.
    pub source: Source,
    /// The generator kind and seed that made it, when it was generated.
    pub generated: Option<(GenKind, u64)>,
    /// Where it is in the run: what a saved run needs to find it again.
    pub origin: Origin,
}

/// A floor as a kept run's save holds it: the bytes the game has seen of its file are not
/// written a second time when they are the design's own text (an unedited floor), which
/// keeps a save within a few times the size of its floors.
#[derive(Serialize, Deserialize)]
struct FloorForm {
    design: Design,
    source: Source,
    /// The file's bytes as the game has seen them are the design's text.
    #[serde(default)]
    seen_is_design: bool,
    generated: Option<(GenKind, u64)>,
    origin: Origin,
}

impl From<Floor> for FloorForm {
    fn from(f: Floor) -> Self {
        let mut source = f.source;
        let seen_is_design =
            f.design.has_file_text() && source.seen() == Some(f.design.to_text().as_bytes());
        if seen_is_design {
            source.forget_seen();
        }
        FloorForm {
            design: f.design,
            source,
            seen_is_design,
            generated: f.generated,
            origin: f.origin,
        }
    }
}

impl From<FloorForm> for Floor {
    fn from(f: FloorForm) -> Self {
        let mut source = f.source;
        if f.seen_is_design {
            source.saw(f.design.to_text().into_bytes());
        }
        Floor {
            design: f.design,
            source,
            generated: f.generated,
            origin: f.origin,
        }
    }
}

/// Where a floor is in the run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// The floor the run began on: the level opened, or one made in the game.
    First,
    /// A designed floor that `next:` headers led to, one floor below the last of these
    /// files: the files of the floors above it, the first floor's first (its own file is
    /// its source's path).
    Chain(Vec<PathBuf>),
    /// A floor generated at this depth, from the run's seed, below the designed ones.
    Generated(u32),
}

impl Floor {
    /// Its depth in the run, from 1.
    pub fn depth(&self) -> u32 {
        match &self.origin {
            Origin::First => 1,
            Origin::Chain(above) => above.len() as u32 + 1,
            Origin::Generated(depth) => *depth,
        }
    }

    /// The files of the designed floors above it, the first floor's first.
    pub fn above(&self) -> &[PathBuf] {
        match &self.origin {
            Origin::Chain(above) => above,
            _ => &[],
        }
    }
}

/// One change made, with the monster it took out of play (to put back as it was).
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Done {
    change: Change,
    removed: Option<Monster>,
}

/// A group of changes that undo together, with a serial so that "saved" can name a point
/// in the history.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Group {
    serial: u64,
    step: Step,
}

/// What one undo step holds.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Step {
    /// Changes to cells, undone one by one, last first.
    Changes(Vec<Done>),
    /// A change of the whole design (a resize, a `next:` header), undone by putting the
    /// design back as it was: the file's text around it is the design's.
    Whole {
        before: Box<Design>,
        after: Box<Design>,
    },
}

/// The undo and redo history of the design's edits.
#[derive(Debug, Clone, Serialize, Deserialize)]
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

    /// Marks the design as holding edits its file lacks, with no history to undo them
    /// (edits recovered after a hang-up): unsaved until the next save.
    fn mark_unsaved(&mut self) {
        // Serials start at 1: no history ever stands at 0.
        self.saved = Some(0);
    }

    /// Where the history stands: a different value whenever the design has been edited
    /// (a stroke growing included), the same after an undo and redo that come back.
    fn revision(&self) -> (Option<u64>, usize) {
        self.undo.last().map_or((None, 0), |g| {
            let len = match &g.step {
                Step::Changes(c) => c.len(),
                Step::Whole { .. } => 1,
            };
            (Some(g.serial), len)
        })
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
            Some(Group {
                step: Step::Changes(changes),
                ..
            }) if stroke && self.in_stroke => changes.push(done),
            _ => self.push(Step::Changes(vec![done])),
        }
        self.in_stroke = stroke;
        self.redo.clear();
    }

    /// Records a change of the whole design, as a step of its own.
    fn record_whole(&mut self, before: Design, after: Design) {
        self.push(Step::Whole {
            before: Box::new(before),
            after: Box::new(after),
        });
        self.in_stroke = false;
        self.redo.clear();
    }

    fn push(&mut self, step: Step) {
        let serial = self.next_serial;
        self.next_serial += 1;
        self.undo.push(Group { serial, step });
    }
}

/// About how many bytes of undo history a kept run's save holds at most: its newest steps
/// (a resize keeps the whole design twice), so that a save follows the run's floors, not
/// how long it was edited. Older steps cannot be undone after a resume.
pub const HISTORY_BUDGET: usize = 1024 * 1024;

impl History {
    /// The history with only its newest steps, as many as fit `budget` bytes (roughly:
    /// a change of a cell is some 100 bytes, a whole design two bytes a cell).
    fn within(&self, budget: usize) -> History {
        let size = |g: &Group| match &g.step {
            Step::Changes(c) => 100 * c.len(),
            Step::Whole { before, after } => {
                let cells = |d: &Design| d.level().grid.len() + 1024;
                2 * (cells(before) + cells(after))
            }
        };
        let mut kept = self.clone();
        let mut used = 0;
        let fits = |g: &Group, used: &mut usize| {
            *used += size(g);
            *used <= budget
        };
        // The steps nearest the present are kept: the top of each stack.
        let undo_keep = self
            .undo
            .iter()
            .rev()
            .take_while(|g| fits(g, &mut used))
            .count();
        let redo_keep = self
            .redo
            .iter()
            .rev()
            .take_while(|g| fits(g, &mut used))
            .count();
        kept.undo.drain(..self.undo.len() - undo_keep);
        kept.redo.drain(..self.redo.len() - redo_keep);
        kept
    }
}

fn history_within<S: serde::Serializer>(h: &History, s: S) -> Result<S::Ok, S::Error> {
    h.within(HISTORY_BUDGET).serialize(s)
}

/// What a group of edits did ([`Session::edit_group`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Grouped {
    /// The changes made.
    pub changed: usize,
    /// The edits refused.
    pub refused: usize,
    /// Why the first refused one was.
    pub first_refusal: Option<Refusal>,
}

/// Why the editor cannot go to another floor of the campaign.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoFloor {
    /// Unsaved edits: the other floor would replace the design.
    Unsaved,
    /// This floor names no `next:` floor.
    NoNext,
    /// This is the run's first floor.
    Top,
    /// A generated floor: only designed floors are gone to.
    Generated,
    /// The floor could not be read or the chain is wrong: why, in a sentence.
    Broken(String),
}

/// A floor below made by [`Session::add_floor_below`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewFloor {
    /// Its file name, as the `next:` header says it.
    pub name: String,
    /// Its size.
    pub size: (usize, usize),
}

/// Why no floor below was made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoNewFloor {
    /// The floor has no file yet: the floor below goes beside it.
    NoFile,
    /// The floor names one below already.
    HasNext(String),
    /// The new file could not be written.
    Failed {
        /// Its name.
        name: String,
        /// Why.
        error: String,
    },
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
    /// The run in progress it replaced, ended as abandoned.
    pub replaced: Option<Box<RunEnd>>,
}

/// Why a blank level cannot be made: the level's words for its refused size.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BlankRefused(pub String);

/// A blank level made by `C-n`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewBlank {
    /// The file name it saves as.
    pub name: String,
    /// The run in progress it replaced, ended as abandoned.
    pub replaced: Option<Box<RunEnd>>,
}

/// Why a new run did not begin: the floor in play is below the first and has unsaved
/// edits, which going back to the first floor would drop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnsavedBelow;

/// One run on a level: the design, its file, its edits and the game.
///
/// A kept run's save is this value as serde writes it (see [`save`]): the game, the floor
/// in play and the first floor with their designs and sources, and the undo history; what
/// belongs to the process (the disk's answers being kept, the progress shared with a front
/// end, whether it is a replay) is not kept, and [`Session::restore`] makes the rest again.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Session {
    world: World,
    floor: Floor,
    /// The run's first floor while the player is deeper: restarting goes back to it.
    first: Option<Box<Floor>>,
    /// Kept in a save as its newest steps within [`HISTORY_BUDGET`].
    #[serde(serialize_with = "history_within")]
    history: History,
    /// What the disk answered the saves and reloads, for a recording to carry.
    #[serde(skip)]
    io: Journal,
    /// How far the planning of a turn is, for every game of the run.
    #[serde(skip)]
    progress: Arc<Progress>,
    /// A replay (`script`, `test`): the saves of every floor, whatever its source, are
    /// carried out in the game and said in the log, but nothing is written to disk. The
    /// session's, not a floor source's, so that no floor put in play can lose it.
    #[serde(skip)]
    replay: bool,
    /// What a replay "wrote" (its saves, its new floors), by path: a replay writes nothing
    /// to disk, and reads these back where the game would read the files it wrote.
    #[serde(skip)]
    written: std::collections::BTreeMap<PathBuf, Vec<u8>>,
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
        let mut session = Self {
            world: World::with_progress(design.level(), seed, options, Arc::clone(&progress)),
            progress,
            floor: Floor {
                design,
                source,
                generated: None,
                origin: Origin::First,
            },
            first: None,
            history: History::default(),
            io: Journal::Off,
            replay: false,
            written: Default::default(),
        };
        session.refresh_chain();
        session
    }

    /// Tells the world how deep the designed floors below this one go (reading them,
    /// through the journal: a rebuilt run gets the depth its game was told).
    fn refresh_chain(&mut self) {
        let depth = self.floor.depth();
        let floor = &self.floor;
        let written = &self.written;
        let designed = self
            .io
            .chain(|| match (&floor.source.path, floor.design.next()) {
                (Some(path), Some(_)) => {
                    let chain = campaign::follow_with(
                        path,
                        floor.design.clone(),
                        Format::Text,
                        floor.above(),
                        |p| read_written(written, p),
                    );
                    let last = depth + chain.floors.len() as u32 - 1;
                    Some(if chain.ends_with_stairs() {
                        FINAL_DEPTH.max(last + 1)
                    } else {
                        last
                    })
                }
                _ => None,
            });
        self.world.set_designed_final(designed);
    }

    /// Readies a session loaded from a kept run's save (see [`Session`]): the game makes
    /// again what the save leaves out, and plans report to `progress`. A game that cannot
    /// be is refused with why.
    pub fn restore(&mut self, progress: Arc<Progress>) -> Result<(), RestoreError> {
        self.world.restore(Arc::clone(&progress))?;
        self.progress = progress;
        self.io = Journal::Off;
        self.replay = false;
        Ok(())
    }

    /// The run's first floor's file holds `bytes`, which are the text of that floor's design
    /// as the run holds it (the design was saved into it just before the game ended, and
    /// the run's save did not catch up): the game takes them as what it has seen of the
    /// file, and the design as saved.
    pub fn file_caught_up(&mut self, bytes: Vec<u8>) {
        let on_first = self.first.is_none();
        let first = self.first.as_deref_mut().unwrap_or(&mut self.floor);
        let Some(path) = first.source.path.clone() else {
            return;
        };
        let recovered = first.source.recovered_from.take();
        first.source = Source::file(path, Format::Text, bytes);
        first.source.recovered_from = recovered;
        if on_first {
            self.history.mark_saved();
        }
    }

    /// Makes this session a replay (or not): its saves write nothing, on every floor (a
    /// replay of someone's recording must never rewrite the level it names).
    pub fn set_replay(&mut self, replay: bool) {
        self.replay = replay;
    }

    /// The run's first floor (the one in play when the run is on it).
    pub fn first_floor(&self) -> &Floor {
        self.first.as_deref().unwrap_or(&self.floor)
    }

    /// The game.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The game, to play.
    pub fn world_mut(&mut self) -> &mut World {
        &mut self.world
    }

    /// Words for the game's log: what the session's flows (saving, reloading, new runs)
    /// tell the player.
    pub fn say(&mut self, text: impl Into<String>) {
        self.world.say(text);
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

    /// Where the edit history stands: it changes with every edit, so a front end can tell
    /// when its copy of the unsaved edits is out of date.
    pub fn revision(&self) -> (Option<u64>, usize) {
        self.history.revision()
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
        self.world.edits_done();
        Ok(true)
    }

    /// Starts a mouse stroke: its changes undo together.
    pub fn begin_stroke(&mut self) {
        self.history.in_stroke = false;
    }

    /// Checks and applies several edits as one group that undoes in one step (a rectangle,
    /// a line, a fill, a paste): each is checked against the design as the ones before it
    /// left it, and one refused is skipped (counted), the others still made.
    pub fn edit_group(&mut self, ops: impl IntoIterator<Item = EditOp>) -> Grouped {
        self.history.in_stroke = false;
        let mut out = Grouped::default();
        for op in ops {
            match self.floor.design.check(op, &self.world) {
                Ok(Some(change)) => {
                    let done = self.make(change, true, None);
                    self.history.record(done, true);
                    out.changed += 1;
                }
                Ok(None) => {}
                Err(why) => {
                    out.refused += 1;
                    out.first_refusal.get_or_insert(why);
                }
            }
        }
        self.history.in_stroke = false;
        self.world.edits_done();
        out
    }

    /// Grows or crops the map at its sides ([`Design::resized`]), as one undo step that
    /// puts the whole design back; the floor's play starts over on the new map (the run's
    /// figures kept).
    pub fn resize(&mut self, sides: Sides) -> Result<Resized, ResizeRefusal> {
        let (after, resized) = self.floor.design.resized(sides)?;
        let before = std::mem::replace(&mut self.floor.design, after);
        self.history.record_whole(before, self.floor.design.clone());
        self.world
            .enter_at(self.floor.design.level(), self.floor.depth());
        Ok(resized)
    }

    /// Puts a whole design in place of the one in play (undoing or redoing a whole step);
    /// the play starts over on it when its level differs.
    fn put_design(&mut self, design: Design) {
        let replay = design.level() != self.floor.design.level();
        self.floor.design = design;
        if replay {
            self.world
                .enter_at(self.floor.design.level(), self.floor.depth());
        }
        self.refresh_chain();
    }

    /// Applies a change (or its inverse) to the design and the game alike.
    fn make(&mut self, change: Change, forward: bool, removed: Option<Monster>) -> Done {
        let mut removed = removed;
        self.floor.design.apply(&change, forward);
        self.world.follow(&change, forward, &mut removed);
        Done { change, removed }
    }

    /// Undoes the last edit (a whole mouse stroke, shape or resize at once); false when
    /// there is none.
    pub fn undo(&mut self) -> bool {
        let Some(group) = self.history.undo.pop() else {
            return false;
        };
        let step = match group.step {
            Step::Changes(changes) => {
                let mut changes: Vec<Done> = changes
                    .into_iter()
                    .rev()
                    .map(|d| self.make(d.change, false, d.removed))
                    .collect();
                changes.reverse();
                Step::Changes(changes)
            }
            Step::Whole { before, after } => {
                self.put_design((*before).clone());
                Step::Whole { before, after }
            }
        };
        self.history.redo.push(Group {
            serial: group.serial,
            step,
        });
        self.history.in_stroke = false;
        self.world.edits_done();
        true
    }

    /// Redoes the last undone edit; false when there is none.
    pub fn redo(&mut self) -> bool {
        let Some(group) = self.history.redo.pop() else {
            return false;
        };
        let step = match group.step {
            Step::Changes(changes) => Step::Changes(
                changes
                    .into_iter()
                    .map(|d| self.make(d.change, true, d.removed))
                    .collect(),
            ),
            Step::Whole { before, after } => {
                self.put_design((*after).clone());
                Step::Whole { before, after }
            }
        };
        self.history.undo.push(Group {
            serial: group.serial,
            step,
        });
        self.history.in_stroke = false;
        self.world.edits_done();
        true
    }

    /// Starts a new game on the design from `seed`, keeping the search options and the
    /// planning (and the undo history: the design is the same). On a floor below the first
    /// the game starts at that floor's depth.
    pub fn begin(&mut self, seed: u64) {
        let options = self.world.options();
        let progress = Arc::clone(&self.progress);
        self.world = World::with_progress(self.floor.design.level(), seed, options, progress);
        let depth = self.floor.depth();
        if depth > 1 {
            self.world.enter_at(self.floor.design.level(), depth);
        }
        self.refresh_chain();
    }

    /// Whether a run is under way: playing, with turns played. Leaving it keeps it; a new
    /// run or level in its place ends it, abandoned.
    pub fn in_progress(&self) -> bool {
        self.world.state() == GameState::Playing && self.world.turn() > 0
    }

    /// The run in progress, ended as abandoned, for the score table and the morgue file:
    /// taken just before a new run, a new level or the level file's reload replaces it
    /// (`None` when no run is under way). The one place a replaced run is taken, private so
    /// that no front end can take it a second time.
    fn replaced(&self) -> Option<Box<RunEnd>> {
        self.in_progress()
            .then(|| Box::new(RunEnd::of(self, Outcome::Abandoned)))
    }

    /// Starts a new run from the first floor with `seed`; the run in progress it replaced
    /// comes back, ended as abandoned. Refused, nothing done, on a
    /// deeper floor with unsaved edits, which going back would drop.
    pub fn new_run(&mut self, seed: u64) -> Result<Option<Box<RunEnd>>, UnsavedBelow> {
        if self.first.is_some() && self.unsaved() {
            return Err(UnsavedBelow);
        }
        // Taken before the first floor comes back: the run ends where it stood.
        let replaced = self.replaced();
        if let Some(first) = self.first.take() {
            self.floor = *first;
            self.history.forget();
        }
        self.begin(seed);
        Ok(replaced)
    }

    /// Starts keeping the disk's answers to saves and reloads (see [`Journal`]), for a run
    /// that is to be saved and rebuilt. The first answer kept is how deep the designed
    /// floors go, read when the session was made.
    pub fn keep_io(&mut self) {
        self.io = Journal::Live(Vec::new());
        self.refresh_chain();
    }

    /// The disk's answers kept since the last call (none unless they are kept).
    pub fn take_io(&mut self) -> Vec<Io> {
        match &mut self.io {
            Journal::Live(kept) => std::mem::take(kept),
            _ => Vec::new(),
        }
    }

    /// Answers saves and reloads with `answers`, in order, instead of the disk: a run
    /// rebuilt from its inputs neither writes its level nor reads it again. The first
    /// answer is the depth of the designed floors ([`Session::keep_io`] kept it).
    pub fn replay_io(&mut self, answers: Vec<Io>) {
        self.io = Journal::Replay {
            queue: answers.into(),
            diverged: false,
        };
        self.refresh_chain();
    }

    /// Ends a replay of the disk's answers and keeps new ones from now on; an error when
    /// the replay asked for answers the recording did not have, or left some unasked.
    pub fn end_replay(&mut self) -> Result<(), String> {
        let was = std::mem::replace(&mut self.io, Journal::Live(Vec::new()));
        match was {
            Journal::Replay { diverged: true, .. } => {
                Err("the replay asked the disk what the run never asked".into())
            }
            Journal::Replay { queue, .. } if !queue.is_empty() => Err(format!(
                "the replay left {} of the disk's answers unasked",
                queue.len()
            )),
            _ => Ok(()),
        }
    }

    /// Keeps the first floor for restarting, before the run leaves it.
    fn keep_first(&mut self) {
        if self.first.is_none() {
            self.first = Some(Box::new(self.floor.clone()));
        }
    }

    /// The designed floor below this one, read: its design, its source and the files of
    /// the floors above it. `Ok(None)` when this floor names none; `Err` with why, in a
    /// sentence, when the chain is wrong or the file cannot be read.
    fn floor_below(&mut self) -> Result<Option<(Design, Source, Vec<PathBuf>)>, String> {
        let Some(path) = self.floor.source.path.clone() else {
            return Ok(None);
        };
        let mut above = self.floor.above().to_vec();
        let name = crate::text::shown_file_name;
        // Which file is below and what it holds are the disk's answers: through the
        // journal, so a rebuilt run goes down to the floor its game found.
        let design = &self.floor.design;
        let written = &self.written;
        let found = self.io.below(|| {
            let below = match campaign::next_of(&path, design, &above) {
                Ok(Some(below)) => below,
                Ok(None) => return Ok(None),
                Err(mut e) => {
                    e.file = name(&path);
                    return Err(e.headline());
                }
            };
            match read_written(written, &below) {
                Ok(bytes) => Ok(Some((below, bytes))),
                Err(crate::text::LoadError::Io { message, .. }) => {
                    Err(format!("cannot read {}: {message}", name(&below)))
                }
                Err(crate::text::LoadError::Parse(mut p)) => {
                    p.file = name(&below);
                    Err(p.headline())
                }
            }
        });
        let Some((below, bytes)) = found? else {
            return Ok(None);
        };
        let (design, source) =
            open_level_bytes(Some(&below), &bytes, self.world.seed()).map_err(|e| match e {
                OpenError::Load(crate::text::LoadError::Parse(mut p)) => {
                    p.file = name(&below);
                    p.headline()
                }
                OpenError::Load(crate::text::LoadError::Io { message, .. }) => {
                    format!("cannot read {}: {message}", name(&below))
                }
                other => other.to_string(),
            })?;
        above.push(path);
        Ok(Some((design, source, above)))
    }

    /// Puts the designed floor below in play, its history empty.
    fn take_below(&mut self, design: Design, source: Source, above: Vec<PathBuf>) {
        self.keep_first();
        self.floor = Floor {
            design,
            source,
            generated: None,
            origin: Origin::Chain(above),
        };
        self.history.forget();
        self.refresh_chain();
    }

    /// Takes the stairs: the next floor becomes the design in play (the designed floor the
    /// `next:` header names, else a generated one, which saves to a new file beside the
    /// level), and the first floor is kept for restarting.
    pub fn descend(&mut self) -> Descended {
        if self.unsaved() {
            return Descended::Unsaved;
        }
        if !self.world.stairs_open() {
            return Descended::Refused;
        }
        match self.floor_below() {
            Ok(Some((design, source, above))) => {
                self.take_below(design, source, above);
                self.world.go_down(self.floor.design.level());
                return Descended::Down;
            }
            Ok(None) => {}
            Err(why) => {
                self.world.say(format!("The way down is blocked: {why}"));
                return Descended::Refused;
            }
        }
        let Some(level) = self.world.descend() else {
            return Descended::Refused;
        };
        let depth = self.world.run().depth;
        let (kind, seed) = crate::game::run::floor_origin(self.world.seed(), depth);
        self.keep_first();
        let name = format!("depth{depth}-{kind}-seed{seed}.txt");
        self.take_generated(level, self.floor.source.folder().join(name), (kind, seed));
        self.floor.origin = Origin::Generated(depth);
        Descended::Down
    }

    /// The editor goes down to the designed floor below, without taking the stairs: it
    /// is put in play at its depth, the run's figures kept. Returns the new depth.
    pub fn floor_down(&mut self) -> Result<u32, NoFloor> {
        if self.unsaved() {
            return Err(NoFloor::Unsaved);
        }
        match self.floor_below() {
            Ok(Some((design, source, above))) => {
                self.take_below(design, source, above);
                let depth = self.floor.depth();
                self.world.enter_at(self.floor.design.level(), depth);
                Ok(depth)
            }
            Ok(None) => Err(NoFloor::NoNext),
            Err(why) => Err(NoFloor::Broken(why)),
        }
    }

    /// The editor goes up to the designed floor above, read again from its file (the
    /// first floor as the run keeps it). Returns the new depth.
    pub fn floor_up(&mut self) -> Result<u32, NoFloor> {
        if self.unsaved() {
            return Err(NoFloor::Unsaved);
        }
        let mut above = match &self.floor.origin {
            Origin::First => return Err(NoFloor::Top),
            Origin::Generated(_) => return Err(NoFloor::Generated),
            Origin::Chain(above) => above.clone(),
        };
        let path = above.pop().ok_or(NoFloor::Top)?;
        if above.is_empty() {
            if let Some(first) = self.first.take() {
                self.floor = *first;
            }
        } else {
            let written = &self.written;
            let bytes = self
                .io
                .read(|| read_written(written, &path).map_err(|e| e.to_string()));
            let (design, source) = bytes.map_err(NoFloor::Broken).and_then(|b| {
                open_level_bytes(Some(&path), &b, self.world.seed())
                    .map_err(|e| NoFloor::Broken(e.to_string()))
            })?;
            self.floor = Floor {
                design,
                source,
                generated: None,
                origin: Origin::Chain(above),
            };
        }
        self.history.forget();
        self.refresh_chain();
        let depth = self.floor.depth();
        self.world.enter_at(self.floor.design.level(), depth);
        Ok(depth)
    }

    /// Makes a blank floor below this one: a new file beside this floor's (never over
    /// one), as large as this floor, that this floor's `next:` header now names (one undo
    /// step; a save writes it).
    pub fn add_floor_below(&mut self) -> Result<NewFloor, NoNewFloor> {
        let source = &self.floor.source;
        let Some(path) = source
            .path
            .clone()
            .filter(|_| source.kind == SourceKind::Text)
        else {
            return Err(NoNewFloor::NoFile);
        };
        if let Some(next) = self.floor.design.next() {
            return Err(NoNewFloor::HasNext(next.to_string()));
        }
        let grid = &self.floor.design.level().grid;
        let size = (grid.width().max(3), grid.height().max(3));
        let depth = self.floor.depth();
        let written = &self.written;
        let wanted = create::below_name(&path, depth + 1, |p| written.contains_key(p));
        let target = self.io.fresh(&wanted, || wanted.clone());
        let name = target
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let failed = |error: String| NoNewFloor::Failed {
            name: name.clone(),
            error,
        };
        let text = Level::blank(size.0, size.1, None)
            .map_err(|e| failed(e.to_string()))?
            .to_text();
        // A replay writes nothing: the new floor is kept with what it "wrote", where the
        // floor below is read from; replayed answers say how the write went.
        let (replay, written) = (self.replay, &mut self.written);
        self.io
            .write(|| {
                if replay {
                    written.insert(target.clone(), text.clone().into_bytes());
                    Ok(())
                } else {
                    write_new(&target, text.as_bytes())
                }
            })
            .map_err(|e| failed(e.to_string()))?;
        let mut after = self.floor.design.clone();
        after.set_next(&name);
        let before = std::mem::replace(&mut self.floor.design, after);
        self.history.record_whole(before, self.floor.design.clone());
        self.refresh_chain();
        Ok(NewFloor { name, size })
    }

    /// Replaces the level by a generated one (no file yet).
    fn take_generated(&mut self, level: Level, suggested: PathBuf, origin: (GenKind, u64)) {
        self.floor = Floor {
            design: Design::new(level),
            source: Source::generated(suggested),
            generated: Some(origin),
            origin: Origin::First,
        };
        self.history.forget();
    }

    /// Starts a new run on a blank level of `size` (see [`Level::blank`]), which saves to a
    /// new file beside the level; returns that file's name and the run it replaced.
    pub fn new_blank(&mut self, size: (usize, usize)) -> Result<NewBlank, BlankRefused> {
        let (w, h) = size;
        let name = format!("blank-{w}x{h}.txt");
        let design = Design::blank(w, h, None, &name).map_err(|e| BlankRefused(e.to_string()))?;
        let replaced = self.replaced();
        self.floor = Floor {
            design,
            source: Source::generated(self.floor.source.folder().join(&name)),
            generated: None,
            origin: Origin::First,
        };
        self.history.forget();
        self.first = None;
        self.begin(self.world.seed());
        Ok(NewBlank { name, replaced })
    }

    /// Generates a level with the next seed and starts a new run on it: caves of `size`
    /// (clamped to at least 40x20), or, when a generated level is in play, the next kind in
    /// [`GenKind::ALL`] at that level's size, so that asking again and again shows every
    /// kind.
    pub fn new_level(&mut self, size: (usize, usize)) -> Result<NewLevel, GenError> {
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
        let level = generate::generate(&GenParams::new(kind, w, h, seed))?;
        let name = format!("{kind}-{w}x{h}-seed{seed}.txt");
        let suggested = self.floor.source.folder().join(&name);
        let replaced = self.replaced();
        self.take_generated(level, suggested, (kind, seed));
        self.first = None;
        self.begin(seed);
        Ok(NewLevel {
            kind,
            size: (w, h),
            seed,
            name,
            replaced,
        })
    }
}

/// The bytes of the level file at `path`, as a replay that has "written" some files sees
/// them: those it wrote from `written`, the others from disk.
fn read_written(
    written: &std::collections::BTreeMap<PathBuf, Vec<u8>>,
    path: &std::path::Path,
) -> Result<Vec<u8>, crate::text::LoadError> {
    match written.get(path) {
        Some(bytes) => Ok(bytes.clone()),
        None => read_level_file(path),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::map::Tile;
    use crate::engine::grid::Pos;

    #[test]
    fn a_save_keeps_the_levels_own_kinds_and_its_plain_creatures() {
        let text = b"kind w: wraith, hp 7, moves 4, water 1\n#######\n#@.~wx#\n#######\n";
        let design = Design::parse(text, "own.txt").unwrap();
        let s = Session::new(design, Source::generated("own.txt".into()), 1);
        let json = serde_json::to_string(&s).unwrap();
        let mut back: Session = serde_json::from_str(&json).unwrap();
        back.restore(Arc::default()).unwrap();
        let w = back.world();
        let wraith = w.kind('w');
        assert_eq!((wraith.name.as_str(), wraith.hp), ("wraith", 7));
        assert_eq!(
            wraith.search.moves,
            crate::engine::grid::Neighbourhood::Four
        );
        assert_eq!(w.kind('x').name.as_str(), "creature");
        let kinds: Vec<char> = w.monsters().iter().map(|m| m.kind).collect();
        assert_eq!(kinds, ['w', 'x']);
        assert_eq!(w.monsters()[0].hp, 7);
    }

    #[test]
    fn a_save_keeps_the_newest_undo_steps_within_its_budget() {
        let design = Design::parse(b"#####\n#@..#\n#####\n", "x.txt").unwrap();
        let mut s = Session::new(design, Source::generated("x.txt".into()), 1);
        let cell = Pos::new(3, 1);
        let steps = HISTORY_BUDGET / 100 + 500;
        for i in 0..steps {
            let tile = if i % 2 == 0 { Tile::Wall } else { Tile::Floor };
            assert_eq!(s.edit(EditOp::SetTile(cell, tile), false), Ok(true));
        }
        let newest = s.history.undo.last().map(|g| g.serial);
        let json = serde_json::to_string(&s).unwrap();
        let mut back: Session = serde_json::from_str(&json).unwrap();
        back.restore(Arc::default()).unwrap();
        assert_eq!(
            back.history.undo.len(),
            HISTORY_BUDGET / 100,
            "the newest steps"
        );
        assert_eq!(back.history.undo.last().map(|g| g.serial), newest);
        assert_eq!(back.design().to_text(), s.design().to_text());
        // The steps kept undo as they did.
        assert!(back.undo());
        assert_eq!(back.world().grid().get(cell), Tile::Floor);
    }
}
