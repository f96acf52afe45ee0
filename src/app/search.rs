//! Which search the screen shows and how far: the overlay on a monster's search in the game,
//! and the lab's searches; stepping, autoplay, layers and the replays they draw from.

use super::keymap::{Action, Context};
use super::lab::Lab;
use super::options;
use super::screens::lab::{self as lab_screen, Outcome};
use super::travel::Play;
use super::ui::Ui;
use super::{App, Mode, Screen};
use crate::engine::astar::SearchOptions;
use crate::engine::grid::Pos;
use crate::game::World;
use crate::session::Session;

impl App {
    /// Opens the lab on the level's map (with the game's walls as they are now), searching
    /// from `start` to `goal` with `options`, as `kind` searches over them if one is given.
    pub fn open_lab(&mut self, start: Pos, goal: Pos, options: SearchOptions, kind: Option<char>) {
        let world = self.session.world_mut();
        self.screen
            .open_lab(world, &mut self.ui, start, goal, options, kind);
    }
}

/// The search screens' side of the screen stack, here and not in `screens` (which the
/// shared UI state's settings read): each is given the session or its game and the UI
/// state it changes.
impl Screen {
    /// Carries out a command of the search overlay, the lab's or the monsters' search in
    /// `session`: `None` once it is carried out, else the action, for another part of the
    /// app.
    pub(super) fn search_action(
        &mut self,
        session: &mut Session,
        ui: &mut Ui,
        action: Action,
    ) -> Option<Action> {
        let total = self.shown_expansions(session.world());
        let action = ui.overlay.handle(action, total)?;
        if let Screen::Lab { lab, cursor, .. } = self.base_mut() {
            let bindings = &ui.settings.bindings;
            match lab_screen::handle(lab, *cursor, &mut ui.overlay, bindings, action) {
                Outcome::Done => return None,
                Outcome::Say(text) => {
                    session.say(text);
                    return None;
                }
                Outcome::Not(_) => {}
            }
        }
        if let Some(change) = options::change(action) {
            Play::new(session, ui).change_options(change);
            return None;
        }
        match action {
            Action::Lab => {
                if self.mode() == Mode::Lab {
                    self.leave_lab(ui, session.world());
                } else {
                    self.enter_lab(session.world_mut(), ui);
                }
            }
            // The lab's own commands with no lab open do nothing.
            Action::SetStart
            | Action::SetGoal
            | Action::CycleCompare
            | Action::TogglePaint
            | Action::CompareTies
            | Action::LabKind
            | Action::CompareKind
            | Action::Quiz
            | Action::Answer => {}
            other => return Some(other),
        }
        None
    }

    /// Opens the lab on the map of `world` (with the game's walls as they are now),
    /// searching from `start` to `goal` with `options`, as `kind` searches over them if one
    /// is given; the lab's welcome goes to the game's log.
    pub(super) fn open_lab(
        &mut self,
        world: &mut World,
        ui: &mut Ui,
        start: Pos,
        goal: Pos,
        options: SearchOptions,
        kind: Option<char>,
    ) {
        let grid = world.grid().clone();
        let mut lab = Box::new(Lab::new(grid, start, goal, options));
        if kind.is_some() {
            lab.set_kind(kind);
        }
        // A lab opened from the lab replaces it and returns where the first one would.
        let back = match std::mem::replace(self, Screen::Play) {
            Screen::Lab { back, .. } => back,
            other => Box::new(other),
        };
        *self = Screen::Lab {
            lab,
            cursor: start,
            stroke: None,
            back,
        };
        ui.overlay.step = None;
        ui.overlay.autoplay = false;
        ui.settle_camera(self, world);
        let key = |c, a| ui.key(c, a);
        let text = format!(
            "The lab: {} and {} (or the mouse) set start and goal, {} {} step, {} layers, {} compares, {} leaves.",
            key(Context::Lab, Action::SetStart),
            key(Context::Lab, Action::SetGoal),
            key(Context::Overlay, Action::StepBack),
            key(Context::Overlay, Action::StepForward),
            key(Context::Overlay, Action::CycleLayer),
            key(Context::Lab, Action::CycleCompare),
            key(Context::Lab, Action::Lab),
        );
        world.say(text);
    }

    /// Opens the lab on the search the overlay shows (or from the cursor to the player).
    fn enter_lab(&mut self, world: &mut World, ui: &mut Ui) {
        // The overlay's search is the selected monster's, from where it planned.
        let (start, goal, searcher) = match world.trace() {
            Some(t) if ui.overlay.on => (t.start, t.goal, ui.selection.id),
            _ => {
                // The cursor in look mode, else the selected monster, else the player.
                let start = if self.mode() == Mode::Look {
                    self.cursor(world)
                } else {
                    ui.selection
                        .id
                        .and_then(|id| world.monster(id))
                        .map_or(world.player().pos, |m| m.pos)
                };
                let at = world.monster_at(start).map(|m| m.id);
                (start, world.player().pos, at)
            }
        };
        // Under JPS planning the lab searches as the monsters do, and its caption says so.
        let mut options = world.options();
        if world.planning() == crate::game::Planning::Jps {
            options.algorithm = crate::engine::astar::Algorithm::Jps;
        }
        // From a monster's search, the lab searches as that monster's kind does, as the
        // overlay showed it (a kind that searches as plain A* does here is left plain).
        let map = world.grid();
        let kind = searcher
            .and_then(|id| world.monster(id))
            .map(|m| m.kind)
            .filter(|&k| !map.searches_plainly(&map.kind(k).search));
        self.open_lab(world, ui, start, goal, options, kind);
    }

    /// Leaves the lab: the game in `world` is as it was.
    pub(super) fn leave_lab(&mut self, ui: &mut Ui, world: &World) {
        if let Screen::Lab { back, .. } = std::mem::replace(self, Screen::Play) {
            *self = *back;
        }
        ui.overlay.step = None;
        ui.overlay.autoplay = false;
        ui.settle_camera(self, world);
    }
}
