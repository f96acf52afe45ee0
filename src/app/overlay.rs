//! The search overlay's state, shared by the game's overlay and the lab: what it shows and
//! how autoplay runs. Plain data, which the settings and the screens both read.

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
