//! Every key binding in one table: key dispatch and the help screen both read it, so the
//! help can never miss a binding.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

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
    /// The help screen.
    Help,
}

/// The contexts in the order the help screen lists them.
pub const HELP_CONTEXTS: [Context; 6] = [
    Context::Global,
    Context::Play,
    Context::Overlay,
    Context::Look,
    Context::Edit,
    Context::Help,
];

impl Context {
    /// The heading of this context on the help screen.
    pub fn title(self) -> &'static str {
        match self {
            Context::Global => "Everywhere",
            Context::Play => "Playing",
            Context::Overlay => "Search overlay (o)",
            Context::Look => "Look mode (x)",
            Context::Edit => "Edit mode (e)",
            Context::Help => "Help (?)",
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
    /// Generate a new level with the next seed.
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
    /// Delete the monster under the cursor.
    DeleteMonster,
    /// Move the player here.
    MovePlayer,
    /// Undo the last edit.
    Undo,
    /// Redo the last undone edit.
    Redo,
    /// Take the stairs down.
    Descend,
    /// Drink a healing potion.
    Drink,
    /// Show only what the player sees, or the whole map.
    ToggleSight,
    /// Open or close the message history (the movement keys scroll it).
    History,
    /// The help's previous page.
    PrevPage,
    /// The help's next page.
    NextPage,
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

/// One line of the help screen and the keys behind it (movement keys and mouse rows have
/// no keys here: [`direction`] and the mouse handler serve them).
pub struct Binding {
    /// Where it applies.
    pub context: Context,
    /// The keys as shown on the help screen.
    pub label: &'static str,
    /// The keys.
    pub keys: &'static [Key],
    /// What they do.
    pub command: Action,
    /// The description on the help screen.
    pub help: &'static str,
}

macro_rules! bind {
    ($ctx:ident, $label:expr, [$($k:expr),*], $cmd:expr, $help:expr) => {
        Binding { context: Context::$ctx, label: $label, keys: &[$($k),*], command: $cmd, help: $help }
    };
}

use Action as A;
use KeyCode as K;

/// Every binding, in help-screen order.
pub const BINDINGS: &[Binding] = &[
    bind!(Global, "←↓↑→ hjkl", [], A::Move(0, 0), "move W S N E"),
    bind!(Global, "y u b n", [], A::Move(0, 0), "move NW NE SW SE"),
    bind!(
        Global,
        "numpad 1-9",
        [],
        A::Move(0, 0),
        "move; Home PgUp End PgDn"
    ),
    bind!(Global, "?", [ch('?')], A::Help, "this help"),
    bind!(
        Global,
        "Esc",
        [code(K::Esc)],
        A::Back,
        "leave look or edit mode"
    ),
    bind!(
        Global,
        "C-p",
        [ctrl('p')],
        A::History,
        "messages; ↑↓ PgUp PgDn"
    ),
    bind!(Play, ". 5", [ch('.'), ch('5')], A::Wait, "wait a turn"),
    bind!(Play, ">", [ch('>')], A::Descend, "take the stairs down"),
    bind!(Play, "!", [ch('!')], A::Drink, "drink a healing potion"),
    bind!(Play, "v", [ch('v')], A::ToggleSight, "sight / whole map"),
    bind!(
        Play,
        "Tab S-Tab",
        [code(K::Tab), code(K::BackTab)],
        A::NextMonster,
        "select next / prev foe"
    ),
    bind!(
        Play,
        "p",
        [ch('p')],
        A::TogglePath,
        "show selected foe's path"
    ),
    bind!(
        Play,
        "o",
        [ch('o')],
        A::ToggleOverlay,
        "search overlay with F G H"
    ),
    bind!(Play, "x", [ch('x')], A::Look, "look mode"),
    bind!(Play, "e", [ch('e')], A::Edit, "edit mode"),
    bind!(
        Play,
        "s C-s",
        [ch('s'), ctrl('s')],
        A::Save,
        "save the level file"
    ),
    bind!(Play, "G", [ch('G')], A::NewLevel, "generate a new level"),
    bind!(Play, "r", [ch('r')], A::Restart, "restart the run"),
    bind!(Play, "q C-c", [ch('q')], A::Quit, "quit (q asks mid-game)"),
    bind!(Play, "click", [], A::Wait, "travel there / select foe"),
    bind!(
        Overlay,
        "[ ]",
        [ch('['), ch(']')],
        A::StepBack,
        "one expansion back / on"
    ),
    bind!(
        Overlay,
        "{ }",
        [ch('{'), ch('}')],
        A::StepStart,
        "first / last expansion"
    ),
    bind!(Overlay, "a", [ch('a')], A::Autoplay, "autoplay the search"),
    bind!(
        Overlay,
        "+ -",
        [ch('+'), ch('-')],
        A::Faster,
        "autoplay faster / slower"
    ),
    bind!(
        Overlay,
        "N",
        [ch('N')],
        A::CycleNeighbourhood,
        "neighbours: 8, 8cut, 4"
    ),
    bind!(
        Overlay,
        "H",
        [ch('H')],
        A::CycleHeuristic,
        "heuristic: octile..zero"
    ),
    bind!(
        Overlay,
        "W",
        [ch('W')],
        A::CycleWeight,
        "weight on H: 1 to 5"
    ),
    bind!(
        Overlay,
        "D",
        [ch('D')],
        A::ResetOptions,
        "default search options"
    ),
    bind!(Look, "moves click", [], A::Move(0, 0), "move the cursor"),
    bind!(Look, "x", [ch('x')], A::Look, "leave look mode"),
    bind!(Edit, "moves", [], A::Move(0, 0), "move the cursor"),
    bind!(
        Edit,
        "click drag",
        [],
        A::PutWall,
        "walls; right button floor"
    ),
    bind!(Edit, "w", [ch('w')], A::PutWall, "put a wall"),
    bind!(Edit, ". f", [ch('.'), ch('f')], A::PutFloor, "put floor"),
    bind!(
        Edit,
        "Space",
        [code(K::Char(' '))],
        A::ToggleTile,
        "swap wall and floor"
    ),
    bind!(Edit, "m", [ch('m')], A::PlaceMonster, "place a monster"),
    bind!(
        Edit,
        "K",
        [ch('K')],
        A::CycleKind,
        "choose the monster kind"
    ),
    bind!(
        Edit,
        "d Delete",
        [ch('d'), code(K::Delete)],
        A::DeleteMonster,
        "delete the monster here"
    ),
    bind!(Edit, "@", [ch('@')], A::MovePlayer, "move the player here"),
    bind!(Edit, "U C-z", [ch('U'), ctrl('z')], A::Undo, "undo"),
    bind!(Edit, "R C-y", [ch('R'), ctrl('y')], A::Redo, "redo"),
    bind!(
        Edit,
        "s C-s",
        [ch('s'), ctrl('s')],
        A::Save,
        "save the level file"
    ),
    bind!(Edit, "e", [ch('e')], A::Edit, "leave edit mode"),
    bind!(
        Help,
        "PgUp PgDn",
        [code(K::PageUp), code(K::PageDown)],
        A::PrevPage,
        "pages; other keys close"
    ),
];

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
                return Some(pair(b.command, i));
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
        (A::PrevPage, 1) => A::NextPage,
        (c, _) => c,
    }
}
