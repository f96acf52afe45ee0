//! Every key binding in one table: key dispatch and the help screen both read it, so the
//! help can never miss a binding.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

pub use super::command::{Action, Context, Key};
use super::tools::Tool;
use crate::content::level::FeatureKind;
use crate::content::level::design::Side;
use crate::content::map::Tile;

/// The keys the player gave the table's actions (the settings' bindings): the table is
/// built first, and what rebinds it is built on it, so the table asks through this.
pub trait Keys {
    /// The hint bar's words for the table's row `row`, with the player's keys.
    fn hint(&self, row: usize) -> &str;
    /// The action `key` gives in `contexts`, most specific first.
    fn lookup(&self, contexts: &[Context], key: Key) -> Option<Action>;
}

pub use super::row::Binding;
use super::row::{ch, code, ctrl, diagonal, key, keys, note, numpad, straight};

use Action as A;
use KeyCode as K;

/// Every binding, in help-screen order.
pub const BINDINGS: &[Binding] = &[
    key!(
        Always,
        "C-c",
        [ctrl('c')],
        A::Interrupt,
        "quit; asks if unsaved",
        ""
    ),
    key!(
        Always,
        "C-z",
        [ctrl('z')],
        A::Suspend,
        "suspend; fg resumes",
        ""
    ),
    straight!(Global, A::Move, "move W S N E", ""),
    diagonal!(Global, A::Move, "move NW NE SW SE", ""),
    numpad!(Global, A::Move, "move; Home PgUp End PgDn", ""),
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
        "message history",
        ""
    ),
    note!(Play, "moves", "move or attack", "hjklyubn move"),
    key!(
        Play,
        ". 5",
        [ch('.'), ch('5')],
        A::Wait,
        "wait a turn",
        ". wait"
    ),
    key!(
        Play,
        "Z",
        [ch('Z')],
        A::Rest,
        "rest, or await foes",
        "Z rest"
    ),
    key!(
        Play,
        "X",
        [ch('X')],
        A::Explore,
        "explore the unseen",
        "X explore"
    ),
    key!(
        Play,
        "F",
        [ch('F')],
        A::Attack,
        "attack in place: F, a way",
        ""
    ),
    key!(
        Play,
        ">",
        [ch('>')],
        A::Descend,
        "stairs: take, or go to",
        ""
    ),
    key!(Play, "!", [ch('!')], A::Drink, "drink a healing potion", ""),
    key!(
        Play,
        "C",
        [ch('C')],
        A::CloseDoors,
        "close doors beside you",
        ""
    ),
    key!(
        Play,
        "&",
        [ch('&')],
        A::UseTool(FeatureKind::Lure),
        "sound a lure here",
        ""
    ),
    key!(
        Play,
        "\"",
        [ch('"')],
        A::UseTool(FeatureKind::Seeds),
        "sow brush around you",
        ""
    ),
    key!(
        Play,
        ")",
        [ch(')')],
        A::UseTool(FeatureKind::Spike),
        "spike a closed door shut",
        ""
    ),
    key!(
        Play,
        "V",
        [ch('V')],
        A::ToggleSight,
        "sight / whole map",
        ""
    ),
    keys!(
        Play,
        "Tab S-Tab",
        [code(K::Tab) => A::NextMonster, code(K::BackTab) => A::PrevMonster],
        "select next / prev foe",
        ""
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
    key!(Play, "e", [ch('e')], A::Edit, "edit mode", ""),
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
        "C-n",
        [ctrl('n')],
        A::BlankLevel,
        "new blank level to edit",
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
        "Q",
        [ch('Q')],
        A::Abandon,
        "abandon the run (asks)",
        ""
    ),
    key!(
        Play,
        "q",
        [ch('q')],
        A::Quit,
        "quit (asks mid-game)",
        "q quit"
    ),
    note!(Play, "click", "travel there / select foe", ""),
    keys!(
        Overlay,
        "[ ]",
        [ch('[') => A::StepBack, ch(']') => A::StepForward],
        "one expansion back / on",
        "[ ] step"
    ),
    keys!(
        Overlay,
        "{ }",
        [ch('{') => A::StepStart, ch('}') => A::StepEnd],
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
    keys!(
        Overlay,
        "+ -",
        [ch('+') => A::Faster, ch('-') => A::Slower],
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
        "T",
        [ch('T')],
        A::CycleTies,
        "ties: lower H, LIFO, FIFO",
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
        "cycle states G H F ↑ cost",
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
    note!(Overlay, "click", "look at the cell", ""),
    note!(Look, "moves click", "move the cursor", ""),
    key!(
        Look,
        "x q",
        [ch('x'), ch('q')],
        A::Look,
        "leave look mode",
        "x q Esc leave"
    ),
    key!(
        Look,
        "Enter",
        [code(K::Enter)],
        A::TravelTo,
        "travel to the cell",
        "Enter go"
    ),
    key!(
        Look,
        "o",
        [ch('o')],
        A::ToggleOverlay,
        "leave; overlay on / off",
        ""
    ),
    note!(Edit, "moves", "move the cursor", ""),
    note!(Edit, "click drag", "walls; right button floor", ""),
    key!(
        Edit,
        "w",
        [ch('w')],
        A::PutTile(Tile::Wall),
        "wall (ends a shape)",
        "w . v tile"
    ),
    key!(
        Edit,
        ". f",
        [ch('.'), ch('f')],
        A::PutTile(Tile::Floor),
        "floor (ends a shape)",
        ""
    ),
    key!(
        Edit,
        "v",
        [ch('v')],
        A::PutTile(Tile::Void),
        "void (ends a shape)",
        ""
    ),
    key!(
        Edit,
        "~",
        [ch('~')],
        A::PutTile(Tile::Water),
        "put water (weight 3)",
        ""
    ),
    key!(
        Edit,
        "\"",
        [ch('"')],
        A::PutTile(Tile::Brush),
        "put brush (weight 2)",
        ""
    ),
    key!(
        Edit,
        "+",
        [ch('+')],
        A::PutTile(Tile::DoorClosed),
        "put a closed door",
        ""
    ),
    key!(
        Edit,
        "'",
        [ch('\'')],
        A::PutTile(Tile::DoorOpen),
        "put an open door",
        ""
    ),
    key!(
        Edit,
        "=",
        [ch('=')],
        A::PutTile(Tile::DoorJammed),
        "put a jammed door",
        ""
    ),
    key!(
        Edit,
        "Space",
        [code(K::Char(' '))],
        A::ToggleTile,
        "swap wall and floor",
        "Space swap"
    ),
    key!(
        Edit,
        "r",
        [ch('r')],
        A::Tool(Tool::Rect),
        "rectangle from here",
        "r rect"
    ),
    key!(
        Edit,
        "a",
        [ch('a')],
        A::Tool(Tool::Box),
        "filled rectangle (area)",
        "a area"
    ),
    key!(
        Edit,
        "/",
        [ch('/')],
        A::Tool(Tool::Line),
        "straight line from here",
        "/ line"
    ),
    key!(
        Edit,
        "F",
        [ch('F')],
        A::Tool(Tool::Fill),
        "flood fill, then a tile",
        "F fill"
    ),
    key!(
        Edit,
        "Enter",
        [code(K::Enter)],
        A::Finish,
        "end shape with the glyph",
        "Enter end"
    ),
    key!(
        Edit,
        "c",
        [ch('c')],
        A::Tool(Tool::Copy),
        "copy: corner, c again",
        "c copy"
    ),
    key!(
        Edit,
        "p",
        [ch('p')],
        A::Paste,
        "paste at the cursor",
        "p paste"
    ),
    key!(
        Edit,
        "m",
        [ch('m')],
        A::MonsterPrefix,
        "monster: m, its letter",
        "m monster"
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
        "> stairs"
    ),
    key!(
        Edit,
        "!",
        [ch('!')],
        A::PlaceFeature(FeatureKind::Potion),
        "lay a healing potion here",
        "! potion"
    ),
    key!(
        Edit,
        "&",
        [ch('&')],
        A::PlaceFeature(FeatureKind::Lure),
        "lay a lure here",
        ""
    ),
    key!(
        Edit,
        ",",
        [ch(',')],
        A::PlaceFeature(FeatureKind::Seeds),
        "lay brush seeds here",
        ""
    ),
    key!(
        Edit,
        ")",
        [ch(')')],
        A::PlaceFeature(FeatureKind::Spike),
        "lay a spike here",
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
        "Z",
        [ch('Z')],
        A::ResizePrefix,
        "resize the map",
        "Z resize"
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
    key!(
        Edit,
        "N",
        [ch('N')],
        A::FloorBelow,
        "new floor below (next:)",
        "N floor below"
    ),
    keys!(
        Edit,
        "] [",
        [ch(']') => A::FloorDown, ch('[') => A::FloorUp],
        "edit floor below / above",
        "] [ floors"
    ),
    key!(
        Edit,
        "C-n",
        [ctrl('n')],
        A::BlankLevel,
        "new blank level",
        "C-n blank"
    ),
    key!(Edit, "e", [ch('e')], A::Edit, "leave edit mode", "e done"),
    keys!(
        Monster,
        "r k g b",
        [
            ch('r') => A::PlaceKind('r'),
            ch('k') => A::PlaceKind('k'),
            ch('g') => A::PlaceKind('g'),
            ch('b') => A::PlaceKind('b')
        ],
        "rat kobold goblin bat",
        "r k g b o n d t kind"
    ),
    keys!(
        Monster,
        "o n d t",
        [
            ch('o') => A::PlaceKind('o'),
            ch('n') => A::PlaceKind('n'),
            ch('d') => A::PlaceKind('d'),
            ch('t') => A::PlaceKind('t')
        ],
        "orc naga dwarf troll",
        ""
    ),
    key!(
        Monster,
        "Esc m",
        [code(K::Esc), ch('m')],
        A::Back,
        "place none",
        "Esc none"
    ),
    // Growing a side takes the move keys toward it, as aiming does (`config::followed`):
    // these rows are the moves' keys in the moves' order, and a test holds them equal.
    keys!(
        Resize,
        "←↓↑→ hjkl",
        [
            ch('h') => A::Resize(Side::Left, 1),
            ch('j') => A::Resize(Side::Bottom, 1),
            ch('k') => A::Resize(Side::Top, 1),
            ch('l') => A::Resize(Side::Right, 1),
            code(K::Left) => A::Resize(Side::Left, 1),
            code(K::Down) => A::Resize(Side::Bottom, 1),
            code(K::Up) => A::Resize(Side::Top, 1),
            code(K::Right) => A::Resize(Side::Right, 1)
        ],
        "grow that side by one",
        "hjkl grow"
    ),
    keys!(
        Resize,
        "numpad 4286",
        [
            ch('4') => A::Resize(Side::Left, 1),
            ch('2') => A::Resize(Side::Bottom, 1),
            ch('8') => A::Resize(Side::Top, 1),
            ch('6') => A::Resize(Side::Right, 1)
        ],
        "grow, as the moves",
        ""
    ),
    keys!(
        Resize,
        "H L K J",
        [
            ch('H') => A::Resize(Side::Left, -1),
            ch('L') => A::Resize(Side::Right, -1),
            ch('K') => A::Resize(Side::Top, -1),
            ch('J') => A::Resize(Side::Bottom, -1)
        ],
        "crop that side by one",
        "HJKL crop"
    ),
    key!(
        Resize,
        "Esc Enter Z",
        [code(K::Esc), code(K::Enter), ch('Z')],
        A::ResizePrefix,
        "done resizing",
        "Esc done"
    ),
    note!(Lab, "moves", "move the cursor", ""),
    note!(Lab, "click drag", "start; right button goal", ""),
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
    key!(
        Lab,
        "w",
        [ch('w')],
        A::PutTile(Tile::Wall),
        "put a wall",
        "w wall"
    ),
    key!(
        Lab,
        ".",
        [ch('.')],
        A::PutTile(Tile::Floor),
        "put floor",
        ""
    ),
    key!(
        Lab,
        "~",
        [ch('~')],
        A::PutTile(Tile::Water),
        "put water (weight 3)",
        ""
    ),
    key!(
        Lab,
        "\"",
        [ch('"')],
        A::PutTile(Tile::Brush),
        "put brush (weight 2)",
        ""
    ),
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
    key!(
        Lab,
        "O",
        [ch('O')],
        A::CompareTies,
        "other tie orders beside",
        "O ties"
    ),
    key!(
        Lab,
        "m",
        [ch('m')],
        A::LabKind,
        "search as a monster kind",
        "m kind"
    ),
    key!(
        Lab,
        "M",
        [ch('M')],
        A::CompareKind,
        "a monster kind beside",
        "M beside"
    ),
    key!(
        Lab,
        "Q",
        [ch('Q')],
        A::Quiz,
        "quiz: predict each step",
        "Q quiz"
    ),
    key!(
        Lab,
        "Enter",
        [code(K::Enter)],
        A::Answer,
        "answer: cursor is next",
        "Enter answer"
    ),
    key!(
        Lab,
        "L Esc",
        [ch('L'), code(K::Esc)],
        A::Lab,
        "leave the lab",
        "L leave"
    ),
    key!(
        Help,
        "Space PgDn",
        [
            code(K::Char(' ')),
            code(K::PageDown),
            code(K::Down),
            code(K::Right)
        ],
        A::NextPage,
        "next page (also ↓ →)",
        "PgDn next"
    ),
    key!(
        Help,
        "PgUp",
        [code(K::PageUp), code(K::Up), code(K::Left)],
        A::PrevPage,
        "previous page (also ↑ ←)",
        ""
    ),
    key!(
        Help,
        "Esc ? q",
        [code(K::Esc), ch('?'), ch('q'), code(K::Enter)],
        A::Close,
        "close (also Enter)",
        "Esc close"
    ),
    // Scrolling takes the moves north and south (`config::followed`), in their order.
    keys!(
        History,
        "↑↓ k j 8 2",
        [
            ch('k') => A::Scroll(1),
            code(K::Up) => A::Scroll(1),
            ch('8') => A::Scroll(1),
            ch('j') => A::Scroll(-1),
            code(K::Down) => A::Scroll(-1),
            ch('2') => A::Scroll(-1)
        ],
        "older / newer message",
        "↑↓ PgUp PgDn scroll"
    ),
    keys!(
        History,
        "PgUp PgDn",
        [code(K::PageUp) => A::ScrollPage(1), code(K::PageDown) => A::ScrollPage(-1)],
        "older / newer page",
        ""
    ),
    keys!(
        History,
        "Home End",
        [code(K::Home) => A::ScrollEnd(true), code(K::End) => A::ScrollEnd(false)],
        "oldest / newest",
        ""
    ),
    key!(
        History,
        "Esc C-p q",
        [code(K::Esc), ctrl('p'), ch('q')],
        A::Close,
        "close the messages",
        "Esc close"
    ),
    key!(Confirm, "y", [ch('y'), ch('Y')], A::Yes, "yes", ""),
    key!(
        Confirm,
        "n Esc",
        [ch('n'), ch('N'), code(K::Esc)],
        A::No,
        "no",
        ""
    ),
    key!(
        Confirm,
        "s",
        [ch('s'), ch('S')],
        A::SaveAndQuit,
        "save the level, then quit",
        ""
    ),
    key!(
        Confirm,
        "f",
        [ch('f'), ch('F')],
        A::TakeFile,
        "take the file's version",
        ""
    ),
    key!(
        Confirm,
        "k",
        [ch('k'), ch('K')],
        A::KeepMine,
        "keep the game's version",
        ""
    ),
    // The attacks' keys are the moves' in the same order: unless the settings bind them,
    // they take the player's move keys (`config::followed`), and a test holds the two equal.
    straight!(Aim, A::AttackToward, "attack W S N E", "hjklyubn attack"),
    diagonal!(Aim, A::AttackToward, "attack NW NE SW SE", ""),
    numpad!(Aim, A::AttackToward, "hit; Home PgUp End PgDn", ""),
    key!(
        Aim,
        "F Esc",
        [ch('F'), code(K::Esc)],
        A::Attack,
        "cancel the attack",
        "F Esc cancel"
    ),
    // The playing quit key and the questions' yes (`config::followed`).
    key!(Busy, "q", [ch('q')], A::Quit, "quit (asks)", ""),
    key!(Busy, "y", [ch('y'), ch('Y')], A::Yes, "yes, quit", ""),
    key!(
        Replay,
        "Space",
        [code(K::Char(' '))],
        A::ReplayPause,
        "play / pause",
        "Space play/pause"
    ),
    key!(
        Replay,
        ".",
        [ch('.')],
        A::ReplayStep,
        "one input on",
        ". step"
    ),
    keys!(
        Replay,
        "+ -",
        [ch('+') => A::ReplayFaster, ch('-') => A::ReplaySlower],
        "faster / slower",
        "+- speed"
    ),
    key!(
        Replay,
        "g",
        [ch('g')],
        A::ReplayJump,
        "jump to a turn (type it)",
        "g turn"
    ),
    key!(
        Replay,
        "0",
        [ch('0')],
        A::ReplayStart,
        "back to the start",
        "0 start"
    ),
    key!(
        Replay,
        "q",
        [ch('q')],
        A::ReplayQuit,
        "leave the replay",
        "q quit"
    ),
    note!(Replay, "o x Tab", "look into it, paused", ""),
];

/// The hint bar's text for the contexts that apply (most specific first): the help key
/// first, then the hints of each context's bindings, in table order.
pub fn hints(bindings: &impl Keys, contexts: &[Context]) -> String {
    let mut parts: Vec<&str> = Vec::new();
    let global = contexts.iter().filter(|c| **c == Context::Global);
    let others = contexts.iter().filter(|c| **c != Context::Global);
    for &ctx in global.chain(others) {
        parts.extend(
            BINDINGS
                .iter()
                .enumerate()
                .filter(|(_, b)| b.context == ctx && !b.hint.is_empty())
                // Settings hook: the player's keys in the hint (`app::config`).
                .map(|(r, _)| bindings.hint(r)),
        );
    }
    parts.join("  ")
}

/// The command a key gives in the active contexts, most specific first, with the keys
/// `bindings` gives the table's actions (the settings' bindings, or the table as written);
/// `None` when none of them binds it.
pub fn lookup(bindings: &impl Keys, contexts: &[Context], event: &KeyEvent) -> Option<Action> {
    if event.kind == KeyEventKind::Release {
        return None;
    }
    // Settings hook: the player's keys for the table's actions (`app::config`).
    bindings.lookup(contexts, Key::of(event)?)
}

/// In the editor's monster mode, the letter of a kind the level defines places it (the key
/// table binds the game's kinds; a level's are known only once it is read).
pub fn own_kind_key(
    contexts: &[Context],
    kinds: &crate::content::kinds::own::Kinds,
    key: &KeyEvent,
) -> Option<Action> {
    let KeyCode::Char(c) = key.code else {
        return None;
    };
    (contexts.first() == Some(&Context::Monster)
        && key.modifiers.difference(KeyModifiers::SHIFT).is_empty()
        && kinds.own().iter().any(|k| k.glyph == c))
    .then_some(Action::PlaceKind(c))
}

/// The command a key gives in the table as written, without any settings.
pub fn lookup_table(contexts: &[Context], event: &KeyEvent) -> Option<Action> {
    if event.kind == KeyEventKind::Release {
        return None;
    }
    let key = Key::of(event)?;
    contexts.iter().find_map(|&ctx| {
        BINDINGS
            .iter()
            .filter(|b| b.context == ctx)
            .find_map(|b| b.keys.iter().find(|(k, _)| *k == key).map(|&(_, a)| a))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::KeyModifiers;

    /// Whether a row's label or help names a key: its name appears, or for the digits the
    /// label's `1-9`.
    fn names(b: &Binding, key: Key) -> bool {
        let name = key.name();
        let digit = matches!(key.code, KeyCode::Char('1'..='9')) && !key.ctrl;
        b.label.contains(&name) || b.help.contains(&name) || digit && b.label.contains("1-9")
    }

    #[test]
    fn every_row_names_each_of_its_keys() {
        for b in BINDINGS {
            for &(key, _) in b.keys {
                // Upper-case answers to a question (and the busy box's yes, the questions') are the
                // lower-case ones with Shift.
                let shown = match key.code {
                    KeyCode::Char(c)
                        if matches!(b.context, Context::Confirm | Context::Busy) || c == 'N' =>
                    {
                        Key {
                            code: KeyCode::Char(c.to_ascii_lowercase()),
                            ..key
                        }
                    }
                    _ => key,
                };
                assert!(
                    names(b, key) || names(b, shown),
                    "{:?} row {:?} does not name {}",
                    b.context,
                    b.label,
                    key.name()
                );
            }
        }
    }

    #[test]
    fn a_label_names_no_key_its_row_does_not_bind() {
        // The row that said `q C-c` while binding only `q` is the case this catches.
        for b in BINDINGS.iter().filter(|b| !b.keys.is_empty()) {
            for word in b.label.split(' ').filter(|w| w.starts_with("C-")) {
                assert!(
                    b.keys.iter().any(|(k, _)| k.name() == word),
                    "{:?} row {:?} names {word} but does not bind it",
                    b.context,
                    b.label
                );
            }
        }
    }

    #[test]
    fn no_key_is_bound_twice_in_one_context() {
        for ctx in Context::ALL {
            let mut seen: Vec<Key> = Vec::new();
            for b in BINDINGS.iter().filter(|b| b.context == ctx) {
                for &(k, _) in b.keys {
                    assert!(!seen.contains(&k), "{ctx:?} binds {} twice", k.name());
                    seen.push(k);
                }
            }
        }
    }

    #[test]
    fn every_monster_kind_is_placed_by_its_own_letter() {
        let monster = [Context::Monster, Context::Always];
        for k in crate::content::kinds::KINDS {
            let key = KeyEvent::new(KeyCode::Char(k.glyph), KeyModifiers::NONE);
            assert_eq!(
                lookup_table(&monster, &key),
                Some(Action::PlaceKind(k.glyph)),
                "{}",
                k.name
            );
        }
    }

    #[test]
    fn ctrl_z_suspends_except_in_the_editor_where_it_undoes() {
        let c_z = KeyEvent::new(KeyCode::Char('z'), KeyModifiers::CONTROL);
        let play = [Context::Play, Context::Global, Context::Always];
        let edit = [Context::Edit, Context::Global, Context::Always];
        assert_eq!(lookup_table(&play, &c_z), Some(Action::Suspend));
        assert_eq!(lookup_table(&edit, &c_z), Some(Action::Undo));
    }

    #[test]
    fn alt_never_matches_and_shift_only_where_the_character_shows_it() {
        let play = [Context::Play, Context::Global, Context::Always];
        let k = |c, m| KeyEvent::new(c, m);
        assert_eq!(
            lookup_table(&play, &k(KeyCode::Char('G'), KeyModifiers::SHIFT)),
            Some(Action::NewLevel)
        );
        assert_eq!(
            lookup_table(&play, &k(KeyCode::Char('x'), KeyModifiers::ALT)),
            None
        );
        assert_eq!(
            lookup_table(&play, &k(KeyCode::Left, KeyModifiers::SHIFT)),
            None
        );
        assert_eq!(
            lookup_table(&play, &k(KeyCode::BackTab, KeyModifiers::SHIFT)),
            Some(Action::PrevMonster)
        );
    }
}
