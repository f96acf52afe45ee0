//! The app's UI state shared by its screens: what is selected and shown, where the camera
//! and the player's long actions stand, and the settings. The front ends and the view read
//! it whole through [`crate::app::App::ui`]; only the app changes it.

use std::cell::RefCell;
use std::sync::Arc;

use super::command::{Action, Context};
use super::config::Settings;
use super::errand::Errand;
use super::overlay::Overlay;
use super::selection::Selection;
use crate::content::level::tools::Clip;
use crate::engine::astar::Snapshot;
use crate::engine::grid::Pos;
use crate::game::{Watch, World};

/// A replayed snapshot with the (trace serial, step) it was replayed for.
type SnapshotCache = ((u64, u32), Arc<Snapshot>);

/// The UI state every screen shares (each screen's own is in its [`super::Screen`]).
#[derive(Debug, Clone)]
pub struct Ui {
    /// The selected monster.
    pub(crate) selection: Selection,
    /// Whether the selected monster's path is drawn.
    pub(crate) show_path: bool,
    /// The search overlay.
    pub(crate) overlay: Overlay,
    /// The region the editor copied last, kept across floors and edit modes.
    pub(crate) clipboard: Option<Clip>,
    /// Where the player is travelling to.
    pub(crate) travel: Option<Pos>,
    /// Resting or exploring under way, one step a tick.
    pub(crate) errand: Option<Errand>,
    /// What the player knew when travel, resting or exploring began: they stop at
    /// anything new.
    pub(crate) watch: Option<Watch>,
    /// The terminal size the app last saw.
    pub(crate) size: (u16, u16),
    /// The map cell drawn at the top-left of the map view.
    pub(crate) camera: Pos,
    /// Whether the map shows only what the player sees and remembers while playing (the
    /// overlay, look and edit modes always show the whole map).
    pub(crate) sight: bool,
    /// The last replayed snapshot, keyed by trace serial and step.
    snapshot_cache: RefCell<Option<SnapshotCache>>,
    /// The player's settings: bindings, colours and the defaults they set.
    pub(crate) settings: Settings,
}

impl Ui {
    /// The UI of a new app in a terminal of `size`: nothing selected or under way, with the
    /// default settings.
    pub(crate) fn new(size: (u16, u16)) -> Self {
        Self {
            selection: Selection::default(),
            show_path: false,
            overlay: Overlay::default(),
            clipboard: None,
            travel: None,
            errand: None,
            watch: None,
            size,
            camera: Pos::default(),
            sight: true,
            snapshot_cache: RefCell::new(None),
            settings: Settings::default(),
        }
    }

    /// The selected monster's id.
    pub fn selected(&self) -> Option<u32> {
        self.selection.id
    }

    /// Whether the selected monster's planned path is drawn.
    pub fn show_path(&self) -> bool {
        self.show_path
    }

    /// The search overlay's state.
    pub fn overlay(&self) -> &Overlay {
        &self.overlay
    }

    /// The region the editor copied last.
    pub fn clipboard(&self) -> Option<&Clip> {
        self.clipboard.as_ref()
    }

    /// Where the player is travelling to.
    pub fn travel(&self) -> Option<Pos> {
        self.travel
    }

    /// Resting or exploring under way.
    pub fn errand(&self) -> Option<Errand> {
        self.errand
    }

    /// The terminal size the app last saw.
    pub fn size(&self) -> (u16, u16) {
        self.size
    }

    /// The map cell drawn at the top-left of the map view.
    pub fn camera(&self) -> Pos {
        self.camera
    }

    /// Whether the map shows only what the player sees and remembers while playing.
    pub fn sight(&self) -> bool {
        self.sight
    }

    /// The settings the app plays with.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The player's first key for `action` in `context`, for the app's messages and the
    /// views' words.
    pub(crate) fn key(&self, context: Context, action: Action) -> String {
        self.settings.bindings.key_of(context, action)
    }

    /// Whether travel, resting, exploring or autoplay is under way: ticks have work.
    pub(crate) fn busy(&self) -> bool {
        self.travel.is_some() || self.errand.is_some() || self.overlay.autoplay
    }

    /// The monster whose search is recorded: the selected one while the overlay is on.
    pub(crate) fn wanted_trace(&self) -> Option<u32> {
        if self.overlay.on {
            self.selection.id
        } else {
            None
        }
    }

    /// Points the tracing of `world` at [`Ui::wanted_trace`], searching again for that
    /// monster alone.
    pub(crate) fn sync_trace(&self, world: &mut World) {
        let want = self.wanted_trace();
        if world.planner().traced() != want {
            world.set_traced(want);
        }
    }

    /// The player picks a monster (or none) in `world`: the overlay shows its search.
    pub(crate) fn select(&mut self, id: Option<u32>, world: &mut World) {
        self.selection = Selection {
            id,
            chosen: id.is_some(),
        };
        self.overlay.step = None;
        self.sync_trace(world);
    }

    /// Starts over on a new world (a new game, another floor): the default selection,
    /// the overlay's search in full, no long action of the world left behind, and the
    /// trace on the new selection.
    pub(crate) fn reset_for(&mut self, world: &mut World) {
        self.selection.pick_default(world, self.sight);
        self.overlay.step = None;
        self.stop_errands();
        self.sync_trace(world);
    }

    /// Stops travel, resting and exploring; whether any was under way.
    pub(crate) fn stop_errands(&mut self) -> bool {
        let busy = self.travel.take().is_some() | self.errand.take().is_some();
        self.watch = None;
        busy
    }

    /// Keeps the selection valid after monsters died or appeared in `world`, and the
    /// trace and the overlay on the turn played.
    pub(crate) fn after_turn(&mut self, world: &mut World) {
        self.selection.keep(world, self.sight);
        self.sync_trace(world);
        self.overlay.step = None;
    }

    /// The selected monster's search in `world` as it stood at the overlay's step.
    /// Replaying a large search takes milliseconds, so the last replay is kept until the
    /// trace or step changes.
    pub fn snapshot(&self, world: &World) -> Option<Arc<Snapshot>> {
        let trace = world.trace()?;
        let step = self.overlay.step.unwrap_or(u32::MAX);
        let key = (world.planner().trace_serial(), step);
        let mut cache = self.snapshot_cache.borrow_mut();
        if let Some((k, snap)) = cache.as_ref()
            && *k == key
        {
            return Some(Arc::clone(snap));
        }
        let snap = Arc::new(trace.snapshot(step));
        *cache = Some((key, Arc::clone(&snap)));
        Some(snap)
    }

    /// Drops the kept replay, so the next frame replays the search as the first frame after
    /// a turn does (the frame benchmark measures that).
    pub fn forget_snapshot(&self) {
        self.snapshot_cache.borrow_mut().take();
    }
}
