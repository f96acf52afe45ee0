//! Which search the screen shows and how far: the overlay on a monster's search in the game,
//! and the lab's searches; stepping, autoplay, layers and the replays they draw from.

use std::sync::Arc;

use super::keymap::{Action, Context};
use super::lab::Lab;
use super::overlay::{SPEEDS, TICK_MS};
use super::{App, Mode, Screen};
use crate::content::searches;
use crate::engine::astar::{SearchOptions, Snapshot, Trace, Weight};
use crate::engine::grid::Pos;
use crate::game::Planning;

/// Weights the overlay cycles through, in thousandths.
const WEIGHTS: [u32; 5] = [1000, 1500, 2000, 3000, 5000];

impl App {
    /// Carries out a command of the search overlay or the lab: `None` once it is carried
    /// out, else the action, for another part of the app.
    pub(super) fn search_action(&mut self, action: Action) -> Option<Action> {
        match action {
            Action::StepBack => {
                self.ui.overlay.autoplay = false;
                self.step_to(self.current_step().saturating_sub(1));
            }
            Action::StepForward => {
                self.ui.overlay.autoplay = false;
                self.step_to(self.current_step().saturating_add(1));
            }
            Action::StepStart => {
                self.ui.overlay.autoplay = false;
                self.step_to(0);
            }
            Action::StepEnd => {
                self.ui.overlay.autoplay = false;
                self.ui.overlay.step = None;
            }
            Action::Autoplay => self.toggle_autoplay(),
            Action::Faster => {
                self.ui.overlay.speed = (self.ui.overlay.speed + 1).min(SPEEDS.len() - 1)
            }
            Action::Slower => self.ui.overlay.speed = self.ui.overlay.speed.saturating_sub(1),
            Action::CycleNeighbourhood => self.change_options(|o| {
                o.neighbourhood = searches::next(&searches::RULES, o.neighbourhood)
            }),
            Action::CycleHeuristic => self.change_options(|o| {
                o.heuristic = searches::next(&searches::HEURISTICS, o.heuristic)
            }),
            Action::CycleWeight => self.change_options(App::next_weight),
            Action::ToggleGreedy => self.change_options(|o| o.greedy = !o.greedy),
            Action::ResetOptions => self.change_options(|o| *o = SearchOptions::default()),
            Action::CycleLayer => self.ui.overlay.layer = self.ui.overlay.layer.next(),
            Action::CyclePlanning => {
                let next = self.world().planning().next();
                self.session.world_mut().set_planning(next);
                self.say(match next {
                    Planning::AStar => "Monsters plan: each its own A*, every turn.".to_string(),
                    Planning::Capped(n) => format!(
                        "Monsters plan: A* capped at {n} expansions; a capped one heads for the nearest node it reached."
                    ),
                    Planning::Map => {
                        "Monsters plan: one Dijkstra map from you, for all of them.".to_string()
                    }
                    Planning::Jps => {
                        "Monsters plan: each its own Jump Point Search, every turn.".to_string()
                    }
                });
                self.ui.overlay.step = None;
                self.sync_trace();
            }
            Action::ToggleFollow => self.ui.overlay.follow = !self.ui.overlay.follow,
            Action::Lab => {
                if self.mode() == Mode::Lab {
                    self.leave_lab();
                } else {
                    self.enter_lab();
                }
            }
            Action::SetStart => self.lab_endpoint(true),
            Action::SetGoal => self.lab_endpoint(false),
            Action::CycleCompare => self.rerun_lab(Lab::cycle_compare),
            Action::TogglePaint => {
                if let Some(lab) = self.lab_mut() {
                    lab.paint = !lab.paint;
                }
            }
            Action::CycleTies => self.change_options(|o| {
                o.ties = searches::next(&searches::TIES, o.ties);
            }),
            Action::CompareTies => self.rerun_lab(Lab::cycle_ties),
            Action::LabKind => self.rerun_lab(Lab::cycle_kind),
            Action::CompareKind => self.rerun_lab(Lab::cycle_compare_kind),
            Action::Quiz => self.toggle_quiz(),
            Action::Answer => self.answer_quiz(),
            other => return Some(other),
        }
        None
    }

    /// Sets the lab's start (or goal) at the cursor.
    pub(super) fn lab_endpoint(&mut self, start: bool) {
        let cursor = self.cursor();
        let Some(lab) = self.lab_mut() else { return };
        let done = if start {
            lab.set_start(cursor)
        } else {
            lab.set_goal(cursor)
        };
        if done {
            self.lab_reran();
        } else {
            self.say("The start and the goal stand on floor.");
        }
    }

    /// The lab, while it is open.
    pub fn lab(&self) -> Option<&Lab> {
        match self.screen.base() {
            Screen::Lab { lab, .. } => Some(lab),
            _ => None,
        }
    }

    /// The lab, while it is open, to change.
    pub(super) fn lab_mut(&mut self) -> Option<&mut Lab> {
        match self.screen.base_mut() {
            Screen::Lab { lab, .. } => Some(lab),
            _ => None,
        }
    }

    /// Expansions of the search shown (in the lab, the longest of its searches).
    pub fn shown_expansions(&self) -> u32 {
        match self.lab() {
            Some(lab) => lab.expansions(),
            None => self.world().trace().map_or(0, Trace::expansions),
        }
    }

    /// The expansions shown now.
    pub fn current_step(&self) -> u32 {
        self.ui
            .overlay
            .step
            .unwrap_or_else(|| self.shown_expansions())
    }

    /// Shows the search after `step` expansions (the finished search from the last on).
    pub(super) fn step_to(&mut self, step: u32) {
        let total = self.shown_expansions();
        self.ui.overlay.step = (step < total).then_some(step);
    }

    /// Changes the lab's searches with `change` (a comparison, a tie rule, a kind) and shows
    /// them from their start.
    pub(super) fn rerun_lab(&mut self, change: fn(&mut Lab)) {
        if let Some(lab) = self.lab_mut() {
            change(lab);
            self.lab_reran();
        }
    }

    /// Shows the lab's searches after they ran on a new query, options or comparison:
    /// finished, or during a quiz from the first expansion, so that the quiz goes on over
    /// the new search.
    pub(super) fn lab_reran(&mut self) {
        let quizzing = self.lab().is_some_and(|l| l.quiz.is_some());
        self.ui.overlay.step = quizzing.then_some(0);
    }

    /// Keeps the step shown after the lab's searches ran again on an edited map: mid-search
    /// the new search is shown as far as the old one was (at most finished), so an edit is
    /// watched where it was made.
    pub(super) fn keep_step(&mut self) {
        if let Some(step) = self.ui.overlay.step {
            self.step_to(step);
        }
    }

    /// Starts or pauses autoplay; from the finished search it starts from the beginning.
    pub(super) fn toggle_autoplay(&mut self) {
        if self.ui.overlay.autoplay {
            self.ui.overlay.autoplay = false;
            return;
        }
        if self.ui.overlay.step.is_none() {
            self.ui.overlay.step = Some(0);
        }
        self.ui.overlay.owed = 0;
        self.ui.overlay.autoplay = true;
    }

    /// One tick of autoplay: as many expansions as the speed owes by now.
    pub(super) fn autoplay_tick(&mut self) {
        let o = &mut self.ui.overlay;
        o.owed += o.speed() * TICK_MS;
        let steps = o.owed / 1000;
        o.owed %= 1000;
        let total = self.shown_expansions();
        let next = self.current_step().saturating_add(steps);
        if next >= total {
            self.ui.overlay.step = None;
            self.ui.overlay.autoplay = false;
        } else {
            self.ui.overlay.step = Some(next);
        }
    }

    /// The lab's search `i` at the overlay's step.
    pub fn lab_snapshot(&self, i: usize) -> Option<Arc<Snapshot>> {
        self.lab()?
            .snapshot(i, self.ui.overlay.step.unwrap_or(u32::MAX))
    }

    /// Opens the lab on the level's map (with the game's walls as they are now), searching
    /// from `start` to `goal` with `options`, as `kind` searches over them if one is given.
    pub fn open_lab(&mut self, start: Pos, goal: Pos, options: SearchOptions, kind: Option<char>) {
        let grid = self.world().grid().clone();
        let mut lab = Box::new(Lab::new(grid, start, goal, options));
        if kind.is_some() {
            lab.set_kind(kind);
        }
        // A lab opened from the lab replaces it and returns where the first one would.
        let back = match std::mem::replace(&mut self.screen, Screen::Play) {
            Screen::Lab { back, .. } => back,
            other => Box::new(other),
        };
        self.screen = Screen::Lab {
            lab,
            cursor: start,
            stroke: None,
            back,
        };
        self.ui.overlay.step = None;
        self.ui.overlay.autoplay = false;
        self.settle_camera();
        let key = |c, a| self.ui.key(c, a);
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
        self.say(text);
    }

    /// Opens the lab on the search the overlay shows (or from the cursor to the player).
    pub(super) fn enter_lab(&mut self) {
        // The overlay's search is the selected monster's, from where it planned.
        let (start, goal, searcher) = match self.world().trace() {
            Some(t) if self.ui.overlay.on => (t.start, t.goal, self.ui.selection.id),
            _ => {
                let start = self.cursor_or_selected();
                let at = self.world().monster_at(start).map(|m| m.id);
                (start, self.world().player().pos, at)
            }
        };
        // Under JPS planning the lab searches as the monsters do, and its caption says so.
        let mut options = self.world().options();
        if self.world().planning() == crate::game::Planning::Jps {
            options.algorithm = crate::engine::astar::Algorithm::Jps;
        }
        // From a monster's search, the lab searches as that monster's kind does, as the
        // overlay showed it (a kind that searches as plain A* does here is left plain).
        let map = self.world().grid();
        let kind = searcher
            .and_then(|id| self.world().monster(id))
            .map(|m| m.kind)
            .filter(|&k| !map.searches_plainly(&map.kind(k).search));
        self.open_lab(start, goal, options, kind);
    }

    /// Leaves the lab: the game is as it was.
    pub(super) fn leave_lab(&mut self) {
        if let Screen::Lab { back, .. } = std::mem::replace(&mut self.screen, Screen::Play) {
            self.screen = *back;
        }
        self.ui.overlay.step = None;
        self.ui.overlay.autoplay = false;
        self.settle_camera();
    }

    /// The options the option keys change: the lab's in the lab, else the monsters'.
    pub(super) fn change_options(&mut self, change: impl FnOnce(&mut SearchOptions)) {
        if let Some(lab) = self.lab_mut() {
            let mut o = lab.options;
            change(&mut o);
            lab.set_options(o);
            self.lab_reran();
            return;
        }
        let mut o = self.world().options();
        change(&mut o);
        self.say(format!("Search: {}.", describe_for_log(&o)));
        self.ui.overlay.step = None;
        self.session.world_mut().set_options(o);
    }

    /// The next weight of the cycle 1, 1.5, 2, 3, 5.
    pub(super) fn next_weight(o: &mut SearchOptions) {
        let i = WEIGHTS
            .iter()
            .position(|&w| w == o.weight.millis())
            .map_or(0, |i| i + 1);
        o.weight = Weight::from_millis(WEIGHTS[i % WEIGHTS.len()]);
    }
}

/// Options in words for the log: `8 neighbours, zero (Dijkstra), weight 1`.
fn describe_for_log(o: &SearchOptions) -> String {
    let h = if o.heuristic == crate::engine::astar::Heuristic::Zero {
        "zero (Dijkstra)"
    } else {
        return format!(
            "{} neighbours, {}, {}",
            o.neighbourhood,
            o.heuristic,
            how(o)
        );
    };
    format!("{} neighbours, {h}, {}", o.neighbourhood, how(o))
}

/// Greedy or A* in words for the log: `greedy best-first`, `weight 1.5`.
fn how(o: &SearchOptions) -> String {
    if o.greedy {
        "greedy best-first".to_string()
    } else {
        format!("weight {}", o.weight)
    }
}
