//! The search overlay's state, shared by the game's overlay and the lab: what it shows and
//! how autoplay runs, and its own commands (stepping, autoplay, layers), which it carries
//! out on itself. The settings and the screens both read it.

use super::command::Action;

/// Autoplay speeds, in expansions per second (one tick is [`TICK_MS`] milliseconds).
pub const SPEEDS: [u32; 10] = [1, 2, 5, 10, 25, 60, 150, 400, 1000, 4000];
/// The autoplay speed a new overlay starts at (an index into [`SPEEDS`]).
pub const DEFAULT_SPEED: usize = 4;
/// Milliseconds of one tick of the front ends' clock.
pub const TICK_MS: u32 = 60;

/// What the map shows of every touched cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Layer {
    /// Open, closed, path and the node being expanded, as glyphs and colours.
    #[default]
    States,
    /// Each cell shaded by its G.
    G,
    /// Each cell shaded by its H.
    H,
    /// Each cell shaded by its F.
    F,
    /// An arrow from each cell toward its parent.
    Parents,
    /// Each cell's terrain weight: what a step into it multiplies the base cost by.
    Cost,
}

impl Layer {
    /// The layers in the order the key cycles them.
    pub const ALL: [Layer; 6] = [
        Layer::States,
        Layer::G,
        Layer::H,
        Layer::F,
        Layer::Parents,
        Layer::Cost,
    ];

    /// The next layer.
    pub fn next(self) -> Self {
        let i = Self::ALL.iter().position(|&l| l == self).unwrap_or(0);
        Self::ALL[(i + 1) % Self::ALL.len()]
    }

    /// Its name on screen.
    pub fn name(self) -> &'static str {
        match self {
            Layer::States => "states",
            Layer::G => "G",
            Layer::H => "H",
            Layer::F => "F",
            Layer::Parents => "parents",
            Layer::Cost => "cost",
        }
    }
}

/// The search overlay's state, shared by the game's overlay and the lab.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Overlay {
    /// Whether it is shown (in the game; the lab always shows its search).
    pub on: bool,
    /// The expansions shown, or `None` for the finished search.
    pub step: Option<u32>,
    /// Whether autoplay runs.
    pub autoplay: bool,
    /// Index into [`SPEEDS`].
    pub speed: usize,
    /// What the map shows of touched cells.
    pub layer: Layer,
    /// Whether the inspector follows the node being expanded.
    pub follow: bool,
    /// Thousandths of an expansion autoplay owes, so slow speeds step between ticks.
    pub(super) owed: u32,
}

impl Default for Overlay {
    fn default() -> Self {
        Self {
            on: false,
            step: None,
            autoplay: false,
            speed: DEFAULT_SPEED,
            layer: Layer::States,
            follow: false,
            owed: 0,
        }
    }
}

impl Overlay {
    /// Expansions per second autoplay runs at.
    pub fn speed(&self) -> u32 {
        SPEEDS[self.speed]
    }
}

impl Overlay {
    /// The expansions shown of a search of `total` expansions.
    pub fn current(&self, total: u32) -> u32 {
        self.step.unwrap_or(total)
    }

    /// Shows the search after `step` of its `total` expansions (the finished search from
    /// the last on).
    pub(super) fn step_to(&mut self, step: u32, total: u32) {
        self.step = (step < total).then_some(step);
    }

    /// Keeps the step shown after the search ran again (now `total` expansions long):
    /// mid-search the new search is shown as far as the old one was (at most finished), so
    /// an edit is watched where it was made.
    pub(super) fn keep_step(&mut self, total: u32) {
        if let Some(step) = self.step {
            self.step_to(step, total);
        }
    }

    /// Starts or pauses autoplay; from the finished search it starts from the beginning.
    pub(super) fn toggle_autoplay(&mut self) {
        if self.autoplay {
            self.autoplay = false;
            return;
        }
        if self.step.is_none() {
            self.step = Some(0);
        }
        self.owed = 0;
        self.autoplay = true;
    }

    /// One tick of autoplay over a search of `total` expansions: as many expansions as the
    /// speed owes by now.
    pub(super) fn tick(&mut self, total: u32) {
        self.owed += self.speed() * TICK_MS;
        let steps = self.owed / 1000;
        self.owed %= 1000;
        let next = self.current(total).saturating_add(steps);
        if next >= total {
            self.step = None;
            self.autoplay = false;
        } else {
            self.step = Some(next);
        }
    }

    /// Carries out a command of the overlay's own (stepping, autoplay, layers) over a
    /// search of `total` expansions: `None` once carried out, else the action.
    pub(super) fn handle(&mut self, action: Action, total: u32) -> Option<Action> {
        match action {
            Action::StepBack => {
                self.autoplay = false;
                self.step_to(self.current(total).saturating_sub(1), total);
            }
            Action::StepForward => {
                self.autoplay = false;
                self.step_to(self.current(total).saturating_add(1), total);
            }
            Action::StepStart => {
                self.autoplay = false;
                self.step_to(0, total);
            }
            Action::StepEnd => {
                self.autoplay = false;
                self.step = None;
            }
            Action::Autoplay => self.toggle_autoplay(),
            Action::Faster => self.speed = (self.speed + 1).min(SPEEDS.len() - 1),
            Action::Slower => self.speed = self.speed.saturating_sub(1),
            Action::CycleLayer => self.layer = self.layer.next(),
            Action::ToggleFollow => self.follow = !self.follow,
            other => return Some(other),
        }
        None
    }
}
