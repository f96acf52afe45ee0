//! Every key binding in one table: key dispatch and the help screen both read it, so the
//! help can never miss a binding.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::content::level::FeatureKind;

/// Where a binding applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Context {
    /// Playing, looking and editing alike.
    Global,
    /// Playing.
    Play,
    /// With the search overlay on (playing or looking).
    Overlay,
    /// Look mode.
    Look,
    /// Edit mode.
    Edit,
    /// The search lab.
    Lab,
}

impl Context {
    /// The heading of this context on the help screen.
    pub fn title(self) -> &'static str {
        match self {
            Context::Global => "Everywhere",
            Context::Play => "Playing",
            Context::Overlay => "Search overlay (o)",
            Context::Look => "Look mode (x)",
            Context::Edit => "Edit mode (e)",
            Context::Lab => "Search lab (L)",
        }
    }
}

/// Something the player asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Move (or move the cursor) by a king step.
    Move(i32, i32),
    /// Let a turn pass.
    Wait,
    /// Show or hide the help screen.
    Help,
    /// Select the next monster.
    NextMonster,
    /// Select the previous monster.
    PrevMonster,
    /// Quit (asks while a game is in progress).
    Quit,
    /// Start the level again.
    Restart,
    /// Show or hide the search overlay.
    ToggleOverlay,
    /// Show or hide the selected monster's planned path.
    TogglePath,
    /// Enter or leave look mode.
    Look,
    /// Enter or leave edit mode.
    Edit,
    /// Leave the current mode.
    Back,
    /// Save the level.
    Save,
    /// Generate a new level with the next seed (and, after a generated one, the next kind).
    NewLevel,
    /// One expansion back.
    StepBack,
    /// One expansion forward.
    StepForward,
    /// To the first expansion.
    StepStart,
    /// To the finished search.
    StepEnd,
    /// Start or stop autoplay.
    Autoplay,
    /// Autoplay faster.
    Faster,
    /// Autoplay slower.
    Slower,
    /// Next neighbourhood rule.
    CycleNeighbourhood,
    /// Next heuristic.
    CycleHeuristic,
    /// Next weight on H.
    CycleWeight,
    /// Back to the default search options.
    ResetOptions,
    /// Put a wall under the cursor.
    PutWall,
    /// Put floor under the cursor.
    PutFloor,
    /// Swap wall and floor under the cursor.
    ToggleTile,
    /// Place a monster of the chosen kind.
    PlaceMonster,
    /// Choose the next monster kind.
    CycleKind,
    /// Delete the monster, or else the stairs or potion, under the cursor.
    Delete,
    /// Lay stairs or a potion under the cursor.
    PlaceFeature(FeatureKind),
    /// Move the player here.
    MovePlayer,
    /// Undo the last edit.
    Undo,
    /// Redo the last undone edit.
    Redo,
    /// Switch greedy best-first search on or off.
    ToggleGreedy,
    /// Show the next whole-map layer (states, G, H, F, parents).
    CycleLayer,
    /// Let the inspector follow the node being expanded, or not.
    ToggleFollow,
    /// Open or leave the search lab.
    Lab,
    /// Put the lab's start at the cursor.
    SetStart,
    /// Put the lab's goal at the cursor.
    SetGoal,
    /// Compare with a second search side by side (none, Dijkstra, weight 2, 4-way, greedy).
    CycleCompare,
    /// Let the mouse paint walls in the lab, or move the start and goal.
    TogglePaint,
    /// How the monsters plan: own A*, capped A*, one Dijkstra map, own JPS.
    CyclePlanning,
    /// Take the stairs down.
    Descend,
    /// Drink a healing potion.
    Drink,
    /// Show only what the player sees, or the whole map.
    ToggleSight,
    /// Open or close the message history (the movement keys scroll it).
    History,
}

/// A key as written in the table: a code and whether Ctrl is held.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key(pub KeyCode, pub bool);

const fn ch(c: char) -> Key {
    Key(KeyCode::Char(c), false)
}

const fn ctrl(c: char) -> Key {
    Key(KeyCode::Char(c), true)
}

const fn code(c: KeyCode) -> Key {
    Key(c, false)
}

/// One line of the help screen: keys and what they do, and the bit the hint bar shows.
pub struct Binding {
    /// Where it applies.
    pub context: Context,
    /// The keys as shown on the help screen.
    pub label: &'static str,
    /// The keys, none for rows that [`direction`] or the mouse handler serve.
    pub keys: &'static [Key],
    /// What the keys do (the first key; a second key of a pair does the opposite), `None`
    /// for rows that only describe the movement keys or the mouse.
    pub action: Option<Action>,
    /// The description on the help screen.
    pub help: &'static str,
    /// What the hint bar shows for it, if anything (`o search`).
    pub hint: &'static str,
}

/// A row of keys: `key!(Context, "label", [keys], Action, "help", "hint")`.
macro_rules! key {
    ($ctx:ident, $label:expr, [$($k:expr),*], $action:expr, $help:expr, $hint:expr) => {
        Binding {
            context: Context::$ctx,
            label: $label,
            keys: &[$($k),*],
            action: Some($action),
            help: $help,
            hint: $hint,
        }
    };
}

/// A row that describes keys served elsewhere (movement, the mouse).
macro_rules! info {
    ($ctx:ident, $label:expr, $help:expr, $hint:expr) => {
        Binding {
            context: Context::$ctx,
            label: $label,
            keys: &[],
            action: None,
            help: $help,
            hint: $hint,
        }
    };
}

use Action as A;
use KeyCode as K;

/// Every binding, in help-screen order.
pub const BINDINGS: &[Binding] = &[
    info!(Global, "←↓↑→ hjkl", "move W S N E", ""),
    info!(Global, "y u b n", "move NW NE SW SE", ""),
    info!(Global, "numpad 1-9", "move; Home PgUp End PgDn", ""),
    key!(Global, "?", [ch('?')], A::Help, "this help", "? help"),
    key!(
        Global,
        "Esc",
        [code(K::Esc)],
        A::Back,
        "leave look, edit or lab",
        ""
    ),
    key!(
        Global,
        "C-p",
        [ctrl('p')],
        A::History,
        "messages; ↑↓ PgUp PgDn",
        ""
    ),
    info!(Play, "moves", "move or attack", "hjklyubn move"),
    key!(
        Play,
        ". 5",
        [ch('.'), ch('5')],
        A::Wait,
        "wait a turn",
        ". wait"
    ),
    key!(Play, ">", [ch('>')], A::Descend, "take the stairs down", ""),
    key!(Play, "!", [ch('!')], A::Drink, "drink a healing potion", ""),
    key!(
        Play,
        "V",
        [ch('V')],
        A::ToggleSight,
        "sight / whole map",
        ""
    ),
    key!(
        Play,
        "Tab S-Tab",
        [code(K::Tab), code(K::BackTab)],
        A::NextMonster,
        "select next / prev foe",
        "Tab select"
    ),
    key!(
        Play,
        "p",
        [ch('p')],
        A::TogglePath,
        "show selected foe's path",
        ""
    ),
    key!(
        Play,
        "o",
        [ch('o')],
        A::ToggleOverlay,
        "search overlay with F G H",
        "o search"
    ),
    key!(Play, "x", [ch('x')], A::Look, "look mode", "x look"),
    key!(Play, "L", [ch('L')], A::Lab, "search lab", ""),
    key!(Play, "e", [ch('e')], A::Edit, "edit mode", "e edit"),
    key!(
        Play,
        "s C-s",
        [ch('s'), ctrl('s')],
        A::Save,
        "save the level file",
        ""
    ),
    key!(
        Play,
        "G",
        [ch('G')],
        A::NewLevel,
        "generate a new level",
        ""
    ),
    key!(
        Play,
        "P",
        [ch('P')],
        A::CyclePlanning,
        "planning: A*/cap/map/JPS",
        ""
    ),
    key!(
        Play,
        "r",
        [ch('r')],
        A::Restart,
        "restart the run (asks)",
        ""
    ),
    key!(
        Play,
        "q C-c",
        [ch('q')],
        A::Quit,
        "quit (asks mid-game)",
        "q quit"
    ),
    info!(Play, "click", "travel there / select foe", ""),
    key!(
        Overlay,
        "[ ]",
        [ch('['), ch(']')],
        A::StepBack,
        "one expansion back / on",
        "[ ] step"
    ),
    key!(
        Overlay,
        "{ }",
        [ch('{'), ch('}')],
        A::StepStart,
        "first / last expansion",
        "{ } ends"
    ),
    key!(
        Overlay,
        "a",
        [ch('a')],
        A::Autoplay,
        "autoplay: play / pause",
        "a play"
    ),
    key!(
        Overlay,
        "+ -",
        [ch('+'), ch('-')],
        A::Faster,
        "autoplay faster / slower",
        "+- speed"
    ),
    key!(
        Overlay,
        "N",
        [ch('N')],
        A::CycleNeighbourhood,
        "neighbours: 8, 8cut, 4",
        "N H W B options"
    ),
    key!(
        Overlay,
        "H",
        [ch('H')],
        A::CycleHeuristic,
        "heuristic: octile..zero",
        ""
    ),
    key!(
        Overlay,
        "W",
        [ch('W')],
        A::CycleWeight,
        "weight on H: 1 to 5",
        ""
    ),
    key!(
        Overlay,
        "B",
        [ch('B')],
        A::ToggleGreedy,
        "greedy best-first on/off",
        ""
    ),
    key!(
        Overlay,
        "D",
        [ch('D')],
        A::ResetOptions,
        "default search options",
        "D reset"
    ),
    key!(
        Overlay,
        "v",
        [ch('v')],
        A::CycleLayer,
        "layers: states G H F ↑",
        "v layer"
    ),
    key!(
        Overlay,
        "f",
        [ch('f')],
        A::ToggleFollow,
        "inspector follows steps",
        ""
    ),
    info!(Overlay, "click", "look at the cell", ""),
    info!(Look, "moves click", "move the cursor", ""),
    key!(Look, "x", [ch('x')], A::Look, "leave look mode", ""),
    info!(Edit, "moves", "move the cursor", ""),
    info!(Edit, "click drag", "walls; right button floor", ""),
    key!(Edit, "w", [ch('w')], A::PutWall, "put a wall", "w wall"),
    key!(
        Edit,
        ". f",
        [ch('.'), ch('f')],
        A::PutFloor,
        "put floor",
        ". floor"
    ),
    key!(
        Edit,
        "Space",
        [code(K::Char(' '))],
        A::ToggleTile,
        "swap wall and floor",
        ""
    ),
    key!(
        Edit,
        "m",
        [ch('m')],
        A::PlaceMonster,
        "place a monster",
        "m monster"
    ),
    key!(
        Edit,
        "K",
        [ch('K')],
        A::CycleKind,
        "choose the monster kind",
        "K kind"
    ),
    key!(
        Edit,
        "d Delete",
        [ch('d'), code(K::Delete)],
        A::Delete,
        "delete a monster or item",
        "d del"
    ),
    key!(
        Edit,
        ">",
        [ch('>')],
        A::PlaceFeature(FeatureKind::Stairs),
        "lay stairs down here",
        ""
    ),
    key!(
        Edit,
        "!",
        [ch('!')],
        A::PlaceFeature(FeatureKind::Potion),
        "lay a healing potion here",
        ""
    ),
    key!(
        Edit,
        "@",
        [ch('@')],
        A::MovePlayer,
        "move the player here",
        "@ player"
    ),
    key!(
        Edit,
        "U C-z",
        [ch('U'), ctrl('z')],
        A::Undo,
        "undo",
        "U/R undo/redo"
    ),
    key!(Edit, "R C-y", [ch('R'), ctrl('y')], A::Redo, "redo", ""),
    key!(
        Edit,
        "s C-s",
        [ch('s'), ctrl('s')],
        A::Save,
        "save the level file",
        "s save"
    ),
    key!(Edit, "e", [ch('e')], A::Edit, "leave edit mode", "e done"),
    info!(Lab, "moves", "move the cursor", ""),
    info!(Lab, "click drag", "start; right button goal", ""),
    key!(
        Lab,
        "s",
        [ch('s')],
        A::SetStart,
        "start at the cursor",
        "s start"
    ),
    key!(
        Lab,
        "g",
        [ch('g')],
        A::SetGoal,
        "goal at the cursor",
        "g goal"
    ),
    key!(Lab, "w", [ch('w')], A::PutWall, "put a wall", "w wall"),
    key!(Lab, ".", [ch('.')], A::PutFloor, "put floor", ""),
    key!(
        Lab,
        "Space",
        [code(K::Char(' '))],
        A::ToggleTile,
        "swap wall and floor",
        ""
    ),
    key!(
        Lab,
        "e",
        [ch('e')],
        A::TogglePaint,
        "mouse: paint or set ends",
        "e paint"
    ),
    key!(
        Lab,
        "c",
        [ch('c')],
        A::CycleCompare,
        "compare side by side",
        "c compare"
    ),
    key!(Lab, "L Esc", [ch('L')], A::Lab, "leave the lab", "L leave"),
];

/// The hint bar's text for the contexts that apply (most specific first): the help key
/// first, then the hints of each context's bindings, in table order.
pub fn hints(contexts: &[Context]) -> String {
    let mut parts: Vec<&str> = Vec::new();
    let global = contexts.iter().filter(|c| **c == Context::Global);
    let others = contexts.iter().filter(|c| **c != Context::Global);
    for &ctx in global.chain(others) {
        parts.extend(
            BINDINGS
                .iter()
                .filter(|b| b.context == ctx && !b.hint.is_empty())
                .map(|b| b.hint),
        );
    }
    parts.join("  ")
}

/// The direction a movement key stands for.
pub fn direction(key: &KeyEvent) -> Option<(i32, i32)> {
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        return None;
    }
    Some(match key.code {
        K::Left | K::Char('h') | K::Char('4') => (-1, 0),
        K::Right | K::Char('l') | K::Char('6') => (1, 0),
        K::Up | K::Char('k') | K::Char('8') => (0, -1),
        K::Down | K::Char('j') | K::Char('2') => (0, 1),
        K::Char('y') | K::Char('7') | K::Home => (-1, -1),
        K::Char('u') | K::Char('9') | K::PageUp => (1, -1),
        K::Char('b') | K::Char('1') | K::End => (-1, 1),
        K::Char('n') | K::Char('3') | K::PageDown => (1, 1),
        _ => return None,
    })
}

/// The command a key gives in the active contexts, most specific first.
pub fn lookup(contexts: &[Context], key: &KeyEvent) -> Option<Action> {
    let ctrl_held = key.modifiers.contains(KeyModifiers::CONTROL);
    for &ctx in contexts {
        for b in BINDINGS.iter().filter(|b| b.context == ctx) {
            if let Some(i) = b
                .keys
                .iter()
                .position(|k| k.0 == key.code && k.1 == ctrl_held)
            {
                return b.action.map(|a| pair(a, i));
            }
        }
    }
    if !ctrl_held && let Some((dx, dy)) = direction(key) {
        return Some(Action::Move(dx, dy));
    }
    None
}

/// The second key of a pair binding does the opposite of the first.
fn pair(command: Action, index: usize) -> Action {
    match (command, index) {
        (A::NextMonster, 1) => A::PrevMonster,
        (A::StepBack, 1) => A::StepForward,
        (A::StepStart, 1) => A::StepEnd,
        (A::Faster, 1) => A::Slower,
        (c, _) => c,
    }
}
