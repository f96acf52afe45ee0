//! The player's settings: key bindings for every action of the key table, colours (a theme
//! and the overlay's state colours), sight on or off at the start, and the autoplay speed.
//!
//! They are read from a TOML file, `$XDG_CONFIG_HOME/astar-rogue/config.toml` (the
//! platform's config folder, through `directories`), or the file `ASTAR_ROGUE_CONFIG` names.
//! Only the interactive commands read it by themselves; scripts, `test` and CI read a file
//! only when given one (`--config FILE`, `#! config: FILE`), so a snapshot is the same on
//! every machine. A file is taken whole or not at all: the first error, with its line and
//! column, and nothing of it applies.
//!
//! The key table (`keymap`) stays the one authority on what a key does where: a binding
//! here only says which keys stand for one of its actions. [`Bindings::default`] is the
//! table exactly as written.

use std::borrow::Cow;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crossterm::event::KeyCode;
use ratatui::style::Color;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::editor::Tool;
use super::help::KEYS_W;
use super::keymap::{Action, BINDINGS, Context, Key};
use super::search::{DEFAULT_SPEED, SPEEDS};
use crate::content::level::{FeatureKind, Side};
use crate::content::map::Tile;
use crate::game::Command;
use crate::text::{LoadError, ParseError};

/// The environment variable naming a settings file to read instead of the usual one.
pub const ENV: &str = "ASTAR_ROGUE_CONFIG";

/// Largest settings file accepted.
pub const MAX_CONFIG_BYTES: u64 = 1024 * 1024;

/// Everything the settings file sets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// Which keys do what.
    pub bindings: Bindings,
    /// The colours.
    pub theme: Theme,
    /// Whether a game starts with sight on (`V` toggles it).
    pub sight: bool,
    /// Autoplay's starting speed, in expansions a second (one of [`SPEEDS`]).
    pub autoplay_speed: u32,
    /// The file they came from, if any.
    pub file: Option<PathBuf>,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            bindings: Bindings::default(),
            theme: Theme::default(),
            sight: true,
            autoplay_speed: SPEEDS[DEFAULT_SPEED],
            file: None,
        }
    }
}

/// The colours a theme sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    /// Background of open cells in the search overlay and the lab.
    pub open: Color,
    /// Background of closed cells.
    pub closed: Color,
    /// Background of the path (and the colour of a monster's planned path).
    pub path: Color,
    /// Background of the node being expanded.
    pub now: Color,
    /// Walls in sight.
    pub wall: Color,
    /// Floor in sight.
    pub floor: Color,
    /// The player.
    pub player: Color,
}

/// The themes by name: the game's own, and one whose overlay states stay apart for
/// red-green colour blindness (blue, orange, white and purple, after Okabe and Ito).
pub const THEMES: [(&str, Theme); 2] = [
    (
        "default",
        Theme {
            open: Color::Green,
            closed: Color::Blue,
            path: Color::Yellow,
            now: Color::Magenta,
            wall: Color::Gray,
            floor: Color::DarkGray,
            player: Color::White,
        },
    ),
    (
        "colour-blind",
        Theme {
            open: Color::Indexed(33),
            closed: Color::Indexed(208),
            path: Color::White,
            now: Color::Indexed(162),
            wall: Color::Gray,
            floor: Color::DarkGray,
            player: Color::White,
        },
    ),
];

impl Default for Theme {
    fn default() -> Self {
        THEMES[0].1
    }
}

/// The colour settings, in the file's order: name, what it colours, and its field.
/// A colour setting: its name, what it colours, and its field of the theme.
type ColourSetting = (&'static str, &'static str, fn(&mut Theme) -> &mut Color);

const COLOURS: [ColourSetting; 7] = [
    ("open", "open cells of a search", |t| &mut t.open),
    ("closed", "closed cells", |t| &mut t.closed),
    ("path", "the path", |t| &mut t.path),
    ("now", "the node being expanded", |t| &mut t.now),
    ("wall", "walls", |t| &mut t.wall),
    ("floor", "floor", |t| &mut t.floor),
    ("player", "the player", |t| &mut t.player),
];

/// One action of the key table that keys can be bound to, in one context.
#[derive(Debug, Clone)]
pub struct Slot {
    /// Where it applies: its section of the file, `[keys.SECTION]`.
    pub context: Context,
    /// Its name in the section.
    pub name: &'static str,
    /// What it does.
    pub action: Action,
    /// The rows of [`BINDINGS`] it has keys in, the first first.
    pub rows: Vec<usize>,
    /// Which of its first row's actions it is (0, or 1 for the second of a pair row such
    /// as `]` of `[ ]`, which does the opposite of the first).
    pub half: usize,
    /// Its keys as the table has them, in the table's order.
    pub defaults: Vec<Key>,
    /// What it does, for the file's comments: its first row's help.
    pub help: &'static str,
}

/// The eight moves in the order the hint bar writes their keys (`hjklyubn move`).
const MOVES: [(i32, i32); 8] = [
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 0),
    (-1, -1),
    (1, -1),
    (-1, 1),
    (1, 1),
];

/// The section name of a context in the file.
pub fn section(context: Context) -> &'static str {
    match context {
        Context::Always => "anywhere",
        Context::Global => "everywhere",
        Context::Play => "playing",
        Context::Overlay => "overlay",
        Context::Look => "look",
        Context::Edit => "edit",
        Context::Lab => "lab",
        Context::Help => "help",
        Context::History => "history",
        Context::Confirm => "questions",
        Context::Busy => "busy",
        Context::Aim => "attack_in_place",
        Context::Monster => "monster",
        Context::Resize => "resize",
        Context::Replay => "replay",
    }
}

/// The contexts in the file's order.
const CONTEXTS: [Context; 15] = Context::ALL;

/// The contexts the terminal's busy box consults while a long turn is worked out.
pub const BUSY_STACK: &[Context] = &[Context::Busy, Context::Always];

/// The contexts the replay viewer consults for its own keys.
pub const REPLAY_STACK: &[Context] = &[Context::Replay, Context::Always];

/// The contexts that are active together (as `App::contexts` gives them, the busy box's
/// and the replay viewer's): one key may do one thing in each of these, so two actions on
/// one key within one is an error.
pub const STACKS: [&[Context]; 14] = [
    &[Context::Monster, Context::Always],
    &[Context::Resize, Context::Always],
    &[Context::Aim, Context::Always],
    &[Context::Help, Context::Always],
    &[Context::History, Context::Always],
    &[Context::Confirm, Context::Always],
    &[Context::Edit, Context::Global, Context::Always],
    &[
        Context::Lab,
        Context::Overlay,
        Context::Global,
        Context::Always,
    ],
    &[
        Context::Look,
        Context::Overlay,
        Context::Global,
        Context::Always,
    ],
    &[Context::Look, Context::Global, Context::Always],
    &[
        Context::Overlay,
        Context::Play,
        Context::Global,
        Context::Always,
    ],
    &[Context::Play, Context::Global, Context::Always],
    BUSY_STACK,
    REPLAY_STACK,
];

/// An action's name in the file. Every action has one: a new action does not compile until
/// it is named here.
fn action_name(action: Action) -> &'static str {
    match action {
        Action::Move(-1, 0) => "move_w",
        Action::Move(0, 1) => "move_s",
        Action::Move(0, -1) => "move_n",
        Action::Move(1, 0) => "move_e",
        Action::Move(-1, -1) => "move_nw",
        Action::Move(1, -1) => "move_ne",
        Action::Move(-1, 1) => "move_sw",
        Action::Move(1, 1) => "move_se",
        Action::Move(..) => "move",
        Action::Wait => "wait",
        Action::Help => "help",
        Action::NextMonster => "next_monster",
        Action::PrevMonster => "prev_monster",
        Action::Quit => "quit",
        Action::Restart => "restart",
        Action::Abandon => "abandon",
        Action::ToggleOverlay => "overlay",
        Action::TogglePath => "path",
        Action::Look => "look",
        Action::Edit => "edit",
        Action::Back => "back",
        Action::Save => "save",
        Action::NewLevel => "new_level",
        Action::StepBack => "step_back",
        Action::StepForward => "step_forward",
        Action::StepStart => "step_first",
        Action::StepEnd => "step_last",
        Action::Autoplay => "autoplay",
        Action::Faster => "faster",
        Action::Slower => "slower",
        Action::CycleNeighbourhood => "neighbours",
        Action::CycleHeuristic => "heuristic",
        Action::CycleWeight => "weight",
        Action::ResetOptions => "reset_options",
        Action::PutTile(Tile::Wall) => "wall",
        Action::PutTile(Tile::Floor) => "floor",
        Action::PutTile(Tile::Void) => "void",
        Action::PutTile(Tile::Water) => "water",
        Action::PutTile(Tile::Brush) => "brush",
        Action::PutTile(Tile::DoorClosed) => "door",
        Action::PutTile(Tile::DoorOpen) => "open_door",
        Action::PutTile(Tile::DoorJammed) => "jammed_door",
        Action::Tool(Tool::Rect) => "rectangle",
        Action::Tool(Tool::Box) => "filled_rectangle",
        Action::Tool(Tool::Line) => "line",
        Action::Tool(Tool::Fill) => "fill",
        Action::Tool(Tool::Copy) => "copy",
        Action::Finish => "finish",
        Action::Paste => "paste",
        Action::MonsterPrefix => "monster",
        Action::PlaceKind(c) => crate::content::kinds::builtin_name(c),
        Action::ResizePrefix => "resize",
        Action::Resize(Side::Left, n) if n > 0 => "grow_left",
        Action::Resize(Side::Left, _) => "crop_left",
        Action::Resize(Side::Top, n) if n > 0 => "grow_top",
        Action::Resize(Side::Top, _) => "crop_top",
        Action::Resize(Side::Right, n) if n > 0 => "grow_right",
        Action::Resize(Side::Right, _) => "crop_right",
        Action::Resize(Side::Bottom, n) if n > 0 => "grow_bottom",
        Action::Resize(Side::Bottom, _) => "crop_bottom",
        Action::FloorBelow => "floor_below",
        Action::FloorDown => "floor_down",
        Action::FloorUp => "floor_up",
        Action::BlankLevel => "blank_level",
        Action::ToggleTile => "swap_tile",
        Action::Delete => "delete",
        Action::PlaceFeature(FeatureKind::Stairs) => "stairs",
        Action::PlaceFeature(FeatureKind::Potion) => "potion",
        Action::PlaceFeature(FeatureKind::Lure) => "lure",
        Action::PlaceFeature(FeatureKind::Seeds) => "seeds",
        Action::PlaceFeature(FeatureKind::Spike) => "spike",
        Action::MovePlayer => "player",
        Action::Undo => "undo",
        Action::Redo => "redo",
        Action::ToggleGreedy => "greedy",
        Action::CycleLayer => "layer",
        Action::ToggleFollow => "follow",
        Action::Lab => "lab",
        Action::SetStart => "start",
        Action::SetGoal => "goal",
        Action::CycleCompare => "compare",
        Action::TogglePaint => "paint",
        Action::CycleTies => "ties",
        Action::CompareTies => "compare_ties",
        Action::LabKind => "lab_kind",
        Action::CompareKind => "compare_kind",
        Action::Quiz => "quiz",
        Action::Answer => "answer",
        Action::ReplayPause => "pause",
        Action::ReplayStep => "step",
        Action::ReplayFaster => "replay_faster",
        Action::ReplaySlower => "replay_slower",
        Action::ReplayJump => "jump_to_turn",
        Action::ReplayStart => "replay_start",
        Action::ReplayQuit => "leave_replay",
        Action::CyclePlanning => "planning",
        Action::Descend => "descend",
        Action::Drink => "drink",
        Action::CloseDoors => "close_doors",
        Action::UseTool(FeatureKind::Lure) => "use_lure",
        Action::UseTool(FeatureKind::Seeds) => "use_seeds",
        Action::UseTool(FeatureKind::Spike) => "use_spike",
        Action::UseTool(_) => "use_tool",
        Action::ToggleSight => "sight",
        Action::History => "history",
        Action::Interrupt => "interrupt",
        Action::Suspend => "suspend",
        Action::NextPage => "next_page",
        Action::PrevPage => "prev_page",
        Action::Close => "close",
        Action::Scroll(n) if n > 0 => "older",
        Action::Scroll(_) => "newer",
        Action::ScrollPage(n) if n > 0 => "older_page",
        Action::ScrollPage(_) => "newer_page",
        Action::ScrollEnd(true) => "oldest",
        Action::ScrollEnd(false) => "newest",
        Action::Yes => "yes",
        Action::No => "no",
        Action::SaveAndQuit => "save_and_quit",
        Action::TakeFile => "take_file",
        Action::KeepMine => "keep_mine",
        Action::Rest => "rest",
        Action::TravelTo => "travel_to",
        Action::Explore => "explore",
        Action::Attack => "attack",
        Action::AttackToward(-1, 0) => "attack_w",
        Action::AttackToward(0, 1) => "attack_s",
        Action::AttackToward(0, -1) => "attack_n",
        Action::AttackToward(1, 0) => "attack_e",
        Action::AttackToward(-1, -1) => "attack_nw",
        Action::AttackToward(1, -1) => "attack_ne",
        Action::AttackToward(-1, 1) => "attack_sw",
        Action::AttackToward(1, 1) => "attack_se",
        Action::AttackToward(..) => "attack_toward",
    }
}

/// What a move does, for the file's comments.
fn move_help(action: Action) -> Option<&'static str> {
    Some(match action {
        Action::Move(-1, 0) => "move west",
        Action::Move(0, 1) => "move south",
        Action::Move(0, -1) => "move north",
        Action::Move(1, 0) => "move east",
        Action::Move(-1, -1) => "move north-west",
        Action::Move(1, -1) => "move north-east",
        Action::Move(-1, 1) => "move south-west",
        Action::Move(1, 1) => "move south-east",
        _ => return None,
    })
}

/// What an attack in place does, for the file's comments.
fn aim_help(action: Action) -> Option<String> {
    let Action::AttackToward(dx, dy) = action else {
        return None;
    };
    let way = move_help(Action::Move(dx, dy))?.strip_prefix("move ")?;
    Some(format!("attack {way}"))
}

/// The distinct actions of a row, in the order its keys first give them.
fn row_actions(row: usize) -> Vec<Action> {
    let mut out: Vec<Action> = Vec::new();
    for &(_, a) in BINDINGS[row].keys {
        if !out.contains(&a) {
            out.push(a);
        }
    }
    out
}

/// The slot of `action` in `context` (by index into [`slots`]), if it can be bound there.
fn slot_of(context: Context, action: Action) -> Option<usize> {
    slots()
        .iter()
        .position(|s| s.context == context && s.action == action)
}

/// The first of `keys` as the help writes keys; a dash when there is none.
fn first_shown(keys: &[Key]) -> String {
    keys.first().map_or_else(|| "-".into(), |k| shown_key(*k))
}

/// Every bindable action, by context, in the key table's order. Interrupt is not among
/// them: Ctrl-C always quits.
pub fn slots() -> &'static [Slot] {
    static SLOTS: OnceLock<Vec<Slot>> = OnceLock::new();
    SLOTS.get_or_init(|| {
        let mut out: Vec<Slot> = Vec::new();
        for (r, b) in BINDINGS.iter().enumerate() {
            let actions = row_actions(r);
            for &(key, action) in b.keys {
                if action == Action::Interrupt {
                    continue;
                }
                match out
                    .iter_mut()
                    .find(|s| s.context == b.context && s.action == action)
                {
                    Some(slot) => {
                        if !slot.defaults.contains(&key) {
                            slot.defaults.push(key);
                        }
                        if !slot.rows.contains(&r) {
                            slot.rows.push(r);
                        }
                    }
                    None => out.push(Slot {
                        context: b.context,
                        name: action_name(action),
                        action,
                        rows: vec![r],
                        half: actions.iter().position(|&a| a == action).unwrap_or(0),
                        defaults: vec![key],
                        help: b.help,
                    }),
                }
            }
        }
        out
    })
}

/// The slots of each row of [`BINDINGS`], by index into [`slots`], in the row's order.
fn row_slots() -> &'static [Vec<usize>] {
    static ROWS: OnceLock<Vec<Vec<usize>>> = OnceLock::new();
    ROWS.get_or_init(|| {
        (0..BINDINGS.len())
            .map(|r| {
                row_actions(r)
                    .into_iter()
                    .filter_map(|a| slot_of(BINDINGS[r].context, a))
                    .collect()
            })
            .collect()
    })
}

/// For each slot of [`slots`], the slots whose keys it takes, in order, when the settings
/// do not bind it (none for most). The directions of an attack in place follow the moves
/// (`everywhere.move_w` for `attack_in_place.attack_w`), so a player who moves with other
/// keys aims with them too, and its cancel follows the attack key and the way back (`F`
/// again or `Esc`); growing a side of the map while resizing follows the move toward it,
/// and the message history scrolls with the moves north and south; the busy box quits
/// with the playing quit key and confirms with the questions' yes.
pub fn followed() -> &'static [Vec<usize>] {
    static FOLLOWED: OnceLock<Vec<Vec<usize>>> = OnceLock::new();
    FOLLOWED.get_or_init(|| {
        slots()
            .iter()
            .map(|s| match (s.context, s.action) {
                (Context::Aim, Action::AttackToward(dx, dy)) => {
                    slot_of(Context::Global, Action::Move(dx, dy))
                        .into_iter()
                        .collect()
                }
                (Context::Aim, Action::Attack) => [
                    slot_of(Context::Play, Action::Attack),
                    slot_of(Context::Global, Action::Back),
                ]
                .into_iter()
                .flatten()
                .collect(),
                (Context::Resize, Action::Resize(side, n)) if n > 0 => {
                    let (dx, dy) = match side {
                        Side::Left => (-1, 0),
                        Side::Right => (1, 0),
                        Side::Top => (0, -1),
                        Side::Bottom => (0, 1),
                    };
                    slot_of(Context::Global, Action::Move(dx, dy))
                        .into_iter()
                        .collect()
                }
                (Context::History, Action::Scroll(n)) => {
                    let dy = if n > 0 { -1 } else { 1 };
                    slot_of(Context::Global, Action::Move(0, dy))
                        .into_iter()
                        .collect()
                }
                (Context::Busy, Action::Quit) => {
                    slot_of(Context::Play, Action::Quit).into_iter().collect()
                }
                (Context::Busy, Action::Yes) => {
                    slot_of(Context::Confirm, Action::Yes).into_iter().collect()
                }
                _ => Vec::new(),
            })
            .collect()
    })
}

/// The keys slot `i` takes from the slots it follows, in order, each once: all but those
/// its own part of the game binds to an action that follows nothing (a move on `K` does
/// not grow the top while resizing, where `K` crops it).
fn followed_keys(keys: &[Vec<Key>], i: usize) -> Vec<Key> {
    let context = slots()[i].context;
    let own = |k: &Key| {
        (0..slots().len()).any(|j| {
            slots()[j].context == context && followed()[j].is_empty() && keys[j].contains(k)
        })
    };
    let mut out: Vec<Key> = Vec::new();
    for &m in &followed()[i] {
        for &k in &keys[m] {
            if !out.contains(&k) && !own(&k) {
                out.push(k);
            }
        }
    }
    out
}

/// The slot a table key that is `named` gives in `context`, as a key pressed there is read:
/// a slot of `context` itself, else a [`Context::Global`] one, else a [`Context::Always`]
/// one. The hint bar and a level's messages both read the table's keys this way.
fn table_slot(context: Context, named: impl Fn(&Key) -> bool) -> Option<usize> {
    [context, Context::Global, Context::Always]
        .into_iter()
        .find_map(|c| {
            slots()
                .iter()
                .position(|s| s.context == c && s.defaults.iter().any(&named))
        })
}

/// The eight direction slots of `context` (the moves everywhere, the attacks in place), in
/// [`MOVES`]' order.
fn direction_slots(context: Context) -> Vec<usize> {
    MOVES
        .iter()
        .filter_map(|&(dx, dy)| {
            slots().iter().position(|s| {
                s.context == context
                    && matches!(s.action,
                        Action::Move(x, y) | Action::AttackToward(x, y) if (x, y) == (dx, dy))
            })
        })
        .collect()
}

/// Which keys stand for each action of the key table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bindings {
    /// The keys of each slot, by index into [`slots`].
    keys: Vec<Vec<Key>>,
    /// Whether `keys` are the table's (most players'): a view then words no message again.
    table: bool,
    /// What the hint bar shows for each row of [`BINDINGS`], worked out once from `keys`:
    /// the bar, the help and the history's footer ask for every hint on every frame.
    hints: Vec<Cow<'static, str>>,
}

impl Default for Bindings {
    /// The key table as written.
    fn default() -> Self {
        Self::of(slots().iter().map(|s| s.defaults.clone()).collect())
    }
}

impl Bindings {
    /// The bindings that give each slot of [`slots`] these keys, with what the views read
    /// of them on every frame worked out now, once.
    fn of(keys: Vec<Vec<Key>>) -> Self {
        let table = keys.iter().zip(slots()).all(|(k, s)| *k == s.defaults);
        let mut b = Self {
            keys,
            table,
            hints: Vec::new(),
        };
        b.hints = (0..BINDINGS.len())
            .map(|row| {
                if table {
                    Cow::Borrowed(BINDINGS[row].hint)
                } else {
                    b.rebound_hint(row)
                }
            })
            .collect();
        b
    }

    /// The key table as written, shared.
    pub fn standard() -> &'static Bindings {
        static STANDARD: OnceLock<Bindings> = OnceLock::new();
        STANDARD.get_or_init(Bindings::default)
    }

    /// The keys bound to slot `i` of [`slots`].
    pub fn keys(&self, i: usize) -> &[Key] {
        &self.keys[i]
    }

    /// The action a key gives in the active contexts, most specific first. Ctrl-C is
    /// always the table's.
    pub fn lookup(&self, contexts: &[Context], key: Key) -> Option<Action> {
        if key
            == (Key {
                code: KeyCode::Char('c'),
                ctrl: true,
            })
        {
            return contexts
                .contains(&Context::Always)
                .then_some(Action::Interrupt);
        }
        contexts.iter().find_map(|&ctx| {
            slots()
                .iter()
                .zip(&self.keys)
                .find(|(s, keys)| s.context == ctx && keys.contains(&key))
                .map(|(s, _)| s.action)
        })
    }

    fn is_default_row(&self, row: usize) -> bool {
        row_slots()[row]
            .iter()
            .all(|&i| self.keys[i] == slots()[i].defaults)
    }

    /// The first key bound to `action` in `context`, as the help writes keys; a dash when
    /// the player left it none.
    pub fn key_of(&self, context: Context, action: Action) -> String {
        slot_of(context, action).map_or_else(|| "-".into(), |i| first_shown(&self.keys[i]))
    }

    /// The player's key for a command a message names (the log's text names the table's).
    pub fn command_key(&self, command: Command) -> String {
        let (context, action) = match command {
            Command::Help => (Context::Global, Action::Help),
            Command::Overlay => (Context::Play, Action::ToggleOverlay),
            Command::Explore => (Context::Play, Action::Explore),
            Command::Rest => (Context::Play, Action::Rest),
            Command::Drink => (Context::Play, Action::Drink),
        };
        self.key_of(context, action)
    }

    /// Whether every key of `context` is the table's.
    pub fn is_default_context(&self, context: Context) -> bool {
        slots()
            .iter()
            .zip(&self.keys)
            .all(|(s, keys)| s.context != context || *keys == s.defaults)
    }

    /// A context's heading on the help screen, naming the player's key that leads there
    /// (`Search overlay (o)`).
    pub fn title(&self, context: Context) -> Cow<'static, str> {
        let title = context.title();
        let Some((ctx, action)) = context.entered_by() else {
            return Cow::Borrowed(title);
        };
        let key = self.key_of(ctx, action);
        match title.rsplit_once(" (") {
            Some((head, _)) if key != Bindings::standard().key_of(ctx, action) => {
                Cow::Owned(format!("{head} ({key})"))
            }
            _ => Cow::Borrowed(title),
        }
    }

    /// Every key bound to `action` in `context`, as the help writes keys.
    pub fn keys_of(&self, context: Context, action: Action) -> Vec<String> {
        slot_of(context, action)
            .map(|i| self.keys[i].iter().map(|k| shown_key(*k)).collect())
            .unwrap_or_default()
    }

    /// The keys of row `row` as the help shows them: the table's label, or the first bound
    /// key of each of its actions (an action with keys in several rows shows in its first).
    pub fn label(&self, row: usize) -> Cow<'static, str> {
        let b = &BINDINGS[row];
        // A row that only repeats keys of actions shown first in other rows (the numpad's)
        // keeps its own words.
        let shows_first = row_slots()[row].iter().any(|&i| slots()[i].rows[0] == row);
        if b.keys.is_empty() || self.is_default_row(row) {
            return Cow::Borrowed(b.label);
        }
        if !shows_first {
            return match self.repeated(row) {
                Some((label, _)) => Cow::Owned(fit(&label)),
                None => Cow::Borrowed(b.label),
            };
        }
        let keys: Vec<String> = row_slots()[row]
            .iter()
            .filter(|&&i| slots()[i].rows[0] == row || self.keys[i] == slots()[i].defaults)
            .map(|&i| {
                if slots()[i].rows[0] != row {
                    // Untouched, with its keys shown first in another row: this row's own.
                    let mine = b.keys.iter().find(|(_, a)| *a == slots()[i].action);
                    return mine.map_or_else(|| "-".into(), |(k, _)| shown_key(*k));
                }
                first_shown(&self.keys[i])
            })
            .collect();
        let text = if keys.is_empty() {
            "(none)".to_string()
        } else {
            keys.join(" ")
        };
        Cow::Owned(fit(&text))
    }

    /// The help's words for row `row`: the table's, with the row's own key (the `F` of
    /// "attack in place: F, a way") replaced by the bound one when its one action has
    /// other keys.
    pub fn help(&self, row: usize) -> Cow<'static, str> {
        let b = &BINDINGS[row];
        if let Some((_, help)) = self.repeated(row) {
            return Cow::Owned(help);
        }
        let (slots_here, Some(&(own, _))) = (&row_slots()[row], b.keys.first()) else {
            return Cow::Borrowed(b.help);
        };
        if slots_here.len() != 1 || self.is_default_row(row) {
            return Cow::Borrowed(b.help);
        }
        let own = shown_key(own);
        let bound = first_shown(&self.keys[slots_here[0]]);
        let words: Vec<String> = b
            .help
            .split(' ')
            .map(|w| match w.strip_suffix(',') {
                Some(k) if k == own => format!("{bound},"),
                _ if w == own => bound.clone(),
                _ => w.to_string(),
            })
            .collect();
        Cow::Owned(words.join(" "))
    }

    /// The label and words of a row that only repeats keys of actions shown first in other
    /// rows (the numpad's), when some of its keys no longer do what it says: the keys that
    /// still do, its digits together ("numpad 1234679" when the player moved north with
    /// another key), and its words up to the keys they named, then those still bound
    /// ("move; Home PgUp End PgDn"). `None` for every other row, and while all its keys
    /// still do what the table has them do.
    fn repeated(&self, row: usize) -> Option<(String, String)> {
        let b = &BINDINGS[row];
        let shows_first = row_slots()[row].iter().any(|&i| slots()[i].rows[0] == row);
        if b.keys.is_empty() || shows_first || self.is_default_row(row) {
            return None;
        }
        let kept: Vec<Key> = b
            .keys
            .iter()
            .filter(|(k, a)| slot_of(b.context, *a).is_some_and(|i| self.keys[i].contains(k)))
            .map(|&(k, _)| k)
            .collect();
        if kept.len() == b.keys.len() {
            return None;
        }
        let mut digits: Vec<char> = kept
            .iter()
            .filter_map(|k| match k.code {
                KeyCode::Char(c) if c.is_ascii_digit() && !k.ctrl => Some(c),
                _ => None,
            })
            .collect();
        digits.sort_unstable();
        let digits: String = digits.into_iter().collect();
        let named: Vec<String> = kept
            .iter()
            .filter(|k| !matches!(k.code, KeyCode::Char(c) if c.is_ascii_digit() && !k.ctrl))
            .map(|k| shown_key(*k))
            .collect();
        let (what, _) = b.help.split_once(';').unwrap_or((b.help, ""));
        // The label's word for where the digits are ("numpad"), when it has one.
        let place = b
            .label
            .split(' ')
            .next()
            .filter(|w| w.chars().all(char::is_alphabetic));
        let label = match (place, digits.is_empty(), named.is_empty()) {
            (_, true, true) => "(none)".to_string(),
            (_, true, false) => return Some((named.join(" "), what.to_string())),
            (Some(place), false, _) if place.len() + 1 + digits.len() < KEYS_W => {
                format!("{place} {digits}")
            }
            _ => digits,
        };
        let help = if named.is_empty() {
            what.to_string()
        } else {
            format!("{what}; {}", named.join(" "))
        };
        Some((label, help))
    }

    /// What the hint bar shows for row `row`: the table's hint, its keys replaced by the
    /// bound ones.
    pub fn hint(&self, row: usize) -> &str {
        &self.hints[row]
    }

    /// [`Bindings::hint`], worked out: the table's hint with its keys replaced by the
    /// bound ones.
    fn rebound_hint(&self, row: usize) -> Cow<'static, str> {
        let b = &BINDINGS[row];
        if b.hint.is_empty() {
            return Cow::Borrowed(b.hint);
        }
        let (keys, what) = b.hint.rsplit_once(' ').unwrap_or(("", b.hint));
        // Each key the hint names stands for what the table gives it in the row's part of
        // the game ("x q Esc leave" names look mode's way out and the way back).
        let resolve = |token: &str| table_slot(b.context, |k| k.name() == token);
        let sep = if keys.contains('/') { "/" } else { " " };
        // Each written token: its keys' slots, and whether its keys were written together
        // ("+-", "hjkl").
        let mut tokens: Vec<(Vec<(String, usize)>, bool)> = Vec::new();
        for token in keys.split(sep).filter(|t| !t.is_empty()) {
            if let Some(i) = resolve(token) {
                tokens.push((vec![(token.to_string(), i)], false));
                continue;
            }
            let glued: Option<Vec<(String, usize)>> = token
                .chars()
                .map(|c| resolve(&c.to_string()).map(|i| (c.to_string(), i)))
                .collect();
            match glued {
                Some(keys) if keys.len() > 1 => tokens.push((keys, true)),
                // Words the table's keys cannot read: the hint as written.
                _ => return Cow::Borrowed(b.hint),
            }
        }
        let touched = |i: usize| self.keys[i] != slots()[i].defaults;
        if !tokens.iter().flat_map(|(t, _)| t).any(|&(_, i)| touched(i)) {
            return Cow::Borrowed(b.hint);
        }
        // A slot named by several keys shows once, with all the player's keys; one the
        // player left alone keeps the key the hint wrote.
        let count = |i: usize| {
            tokens
                .iter()
                .flat_map(|(t, _)| t)
                .filter(|&&(_, j)| j == i)
                .count()
        };
        let mut shown: Vec<usize> = Vec::new();
        let mut parts: Vec<String> = Vec::new();
        for (keys, glued) in &tokens {
            let mut out: Vec<String> = Vec::new();
            for (written, i) in keys {
                if !touched(*i) {
                    out.push(written.clone());
                    continue;
                }
                if shown.contains(i) {
                    continue;
                }
                shown.push(*i);
                let bound: Vec<String> = self.keys[*i].iter().map(|k| shown_key(*k)).collect();
                out.push(match (bound.first(), count(*i) > 1) {
                    (None, _) => "-".to_string(),
                    (Some(_), true) => bound.join(" "),
                    (Some(k), false) => k.clone(),
                });
            }
            if out.is_empty() {
                continue;
            }
            // The eight ways of a part of the game (the moves, the attacks in place) stay
            // written together whatever their keys: apart, they would crowd the bar.
            let ways = CONTEXTS.iter().any(|&c| {
                let eight = direction_slots(c);
                eight.len() == MOVES.len()
                    && keys.len() == eight.len()
                    && keys.iter().all(|(_, i)| eight.contains(i))
            });
            parts.push(match (*glued, ways) {
                (false, _) => out.join(" "),
                (true, true) => out.concat(),
                (true, false) => together(&out),
            });
        }
        Cow::Owned(format!("{} {what}", parts.join(sep)))
    }
}

impl crate::game::KeyNames for Bindings {
    fn command(&self, command: Command) -> String {
        self.command_key(command)
    }

    fn is_table(&self) -> bool {
        self.table
    }

    /// A key a level's message names stands for what the table gives it while playing
    /// (or, failing that, with the search shown, in look mode, aiming): the player's
    /// first key for that, when they bound it otherwise.
    fn rebound(&self, key: &str) -> Option<String> {
        let key = parse_key(key).ok()?;
        let i = [Context::Play, Context::Overlay, Context::Look, Context::Aim]
            .into_iter()
            .find_map(|c| table_slot(c, |k| *k == key))?;
        (self.keys[i] != slots()[i].defaults).then(|| first_shown(&self.keys[i]))
    }
}

/// A label cut to fit the help's key column.
fn fit(text: &str) -> String {
    let w = KEYS_W - 1;
    if text.chars().count() <= w {
        return text.to_string();
    }
    let mut out: String = text.chars().take(w - 1).collect();
    out.push('…');
    out
}

/// The names of keys that are not one character, as scripts write them.
const NAMED: [(&str, KeyCode); 16] = [
    ("Left", KeyCode::Left),
    ("Right", KeyCode::Right),
    ("Up", KeyCode::Up),
    ("Down", KeyCode::Down),
    ("Enter", KeyCode::Enter),
    ("Esc", KeyCode::Esc),
    ("Tab", KeyCode::Tab),
    ("S-Tab", KeyCode::BackTab),
    ("Space", KeyCode::Char(' ')),
    ("Backspace", KeyCode::Backspace),
    ("Delete", KeyCode::Delete),
    ("Insert", KeyCode::Insert),
    ("Home", KeyCode::Home),
    ("End", KeyCode::End),
    ("PageUp", KeyCode::PageUp),
    ("PageDown", KeyCode::PageDown),
];

/// A key as the file writes it: one character, a name (`Left`, `Esc`, `F1`; `BackTab` for
/// `S-Tab` as scripts write it), or `C-x` for Ctrl-x.
pub fn parse_key(s: &str) -> Result<Key, String> {
    let mut chars = s.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        if c.is_control() || c.is_whitespace() {
            return Err(format!(
                "{s:?} is not a key: write Space, Tab or Enter by name"
            ));
        }
        return Ok(Key {
            code: KeyCode::Char(c),
            ctrl: false,
        });
    }
    if let Some(rest) = s.strip_prefix("C-") {
        let mut cs = rest.chars();
        if let (Some(c), None) = (cs.next(), cs.next())
            && !c.is_control()
            && !c.is_whitespace()
        {
            // Ctrl-C always quits: it cannot be given to another action.
            if c.eq_ignore_ascii_case(&'c') {
                return Err("C-c always quits and cannot be bound".into());
            }
            return Ok(Key {
                code: KeyCode::Char(c.to_ascii_lowercase()),
                ctrl: true,
            });
        }
    }
    if s == "BackTab" {
        return Ok(Key {
            code: KeyCode::BackTab,
            ctrl: false,
        });
    }
    if let Some(&(_, code)) = NAMED.iter().find(|(name, _)| *name == s) {
        return Ok(Key { code, ctrl: false });
    }
    if let Some(n) = s.strip_prefix('F').and_then(|n| n.parse::<u8>().ok())
        && (1..=12).contains(&n)
    {
        return Ok(Key {
            code: KeyCode::F(n),
            ctrl: false,
        });
    }
    Err(format!(
        "{s:?} is not a key: use one character (\"h\", \"?\"), C-x for Ctrl-x, F1 to F12 or a name ({})",
        NAMED.map(|n| n.0).join(", ")
    ))
}

/// Keys the table writes together ("hjkl", "+-") as the hint bar and the messages write
/// them: still together when each is one character, else apart ("F2 F3"), where the names
/// would run into one another.
pub(super) fn together(keys: &[String]) -> String {
    let sep = if keys.iter().all(|k| k.chars().count() == 1) {
        ""
    } else {
        " "
    };
    keys.join(sep)
}

/// A key as the help, the hints and the messages show it: as the key table's own labels
/// write it (`PgDn`, `↑`), which the file's names (`PageDown`, `Up`) would not match.
pub fn shown_key(key: Key) -> String {
    match key.code {
        KeyCode::PageUp
        | KeyCode::PageDown
        | KeyCode::Left
        | KeyCode::Right
        | KeyCode::Up
        | KeyCode::Down
            if !key.ctrl =>
        {
            key.name()
        }
        _ => label(key),
    }
}

/// A key as the file writes it; [`parse_key`] reads it back.
pub fn label(key: Key) -> String {
    match key {
        Key {
            code: KeyCode::Char(c),
            ctrl: true,
        } => format!("C-{c}"),
        Key {
            code: KeyCode::F(n),
            ..
        } => format!("F{n}"),
        Key { code, .. } => NAMED
            .iter()
            .find(|(_, c)| *c == code)
            .map(|(name, _)| name.to_string())
            .unwrap_or_else(|| match code {
                KeyCode::Char(c) => c.to_string(),
                other => format!("{other:?}"),
            }),
    }
}

/// Where the game looks for the settings file: `ASTAR_ROGUE_CONFIG` when it is set, else
/// `config.toml` in the platform's config folder (`$XDG_CONFIG_HOME/astar-rogue` on Linux).
/// `None` when there is no home folder to find it in.
pub fn user_path() -> Option<(PathBuf, bool)> {
    if let Some(p) = std::env::var_os(ENV).filter(|p| !p.is_empty()) {
        return Some((PathBuf::from(p), true));
    }
    let dirs = directories::ProjectDirs::from("", "", "astar-rogue")?;
    Some((dirs.config_dir().join("config.toml"), false))
}

/// Whether nothing at all is at `path`, so that the defaults apply: a link to nothing is
/// something (a settings file the player linked is meant to be read, and must say it cannot
/// be rather than play with the defaults unasked).
pub fn absent(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_err()
}

/// The settings the interactive game plays with: the file [`user_path`] names, or the
/// defaults when nothing is there ([`absent`]; a file `ASTAR_ROGUE_CONFIG` names must exist).
pub fn load_user() -> Result<Settings, LoadError> {
    match user_path() {
        Some((path, false)) if absent(&path) => Ok(Settings::default()),
        Some((path, _)) => load(&path),
        None => Ok(Settings::default()),
    }
}

/// Reads a settings file: all of it, or the first error with its line and column.
pub fn load(path: &Path) -> Result<Settings, LoadError> {
    let bytes = crate::text::read_limited(path, MAX_CONFIG_BYTES, "settings file")?;
    let name = path.display().to_string();
    let mut settings = parse(&bytes, &name)?;
    settings.file = Some(path.to_path_buf());
    Ok(settings)
}

/// A byte offset's line and column (in characters), both from 1, and the line's text.
fn position(text: &str, at: usize) -> (usize, usize, &str) {
    let at = at.min(text.len());
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    let line = text[..start].matches('\n').count() + 1;
    let col = text[start..at].chars().count() + 1;
    (line, col, text[start..end].trim_end_matches('\r'))
}

/// Parses a settings file's bytes; `file` names it in errors.
pub fn parse(bytes: &[u8], file: &str) -> Result<Settings, ParseError> {
    let bytes = bytes.strip_prefix(crate::text::BOM).unwrap_or(bytes);
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let good = std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or("");
        let (line, col, _) = position(good, good.len());
        // The line as far as it reads, the bad byte shown as U+FFFD under the caret.
        let start = good.rfind('\n').map_or(0, |i| i + 1);
        let end = bytes[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |i| start + i);
        let row = String::from_utf8_lossy(&bytes[start..end]);
        ParseError::new(file.into(), line, col, "not UTF-8 text".into(), &row)
    })?;
    let err = |span: Range<usize>, message: String| {
        let (line, col, row) = position(text, span.start);
        ParseError::new(file.to_string(), line, col, message, row)
    };
    // TOML's own error for a stray control character points at the value before it
    // (`sight = true` and a NUL: "invalid boolean"); name the character where it is.
    if let Some((at, c)) = text
        .char_indices()
        .find(|&(_, c)| c.is_ascii_control() && !matches!(c, '\t' | '\n' | '\r'))
    {
        return Err(err(
            at..at,
            format!("control character {c:?}: a settings file is plain text"),
        ));
    }
    let doc = DeTable::parse(text).map_err(|e| {
        let message = e.message().trim().trim_end_matches('.').to_string();
        err(e.span().unwrap_or(0..0), message)
    })?;
    let mut settings = Settings::default();
    // Where each slot's keys were written, to point at a clash.
    let mut written: Vec<Option<Vec<Range<usize>>>> = vec![None; slots().len()];
    let mut entries: Vec<(&Spanned<Cow<str>>, &Spanned<DeValue>)> = doc.get_ref().iter().collect();
    entries.sort_by_key(|(k, _)| k.span().start);
    for (key, value) in entries {
        match key.get_ref().as_ref() {
            "keys" => {
                let sections = table(value, "[keys]", &err)?;
                for (name, body) in sections {
                    let Some(&context) = CONTEXTS.iter().find(|c| section(**c) == name.get_ref())
                    else {
                        return Err(err(
                            name.span(),
                            format!(
                                "unknown section [keys.{}] (known: {})",
                                name.get_ref(),
                                CONTEXTS.map(section).join(", ")
                            ),
                        ));
                    };
                    let where_ = format!("[keys.{}]", section(context));
                    for (action, list) in table(body, &where_, &err)? {
                        let Some(i) = slots()
                            .iter()
                            .position(|s| s.context == context && s.name == action.get_ref())
                        else {
                            let known: Vec<&str> = slots()
                                .iter()
                                .filter(|s| s.context == context)
                                .map(|s| s.name)
                                .collect();
                            return Err(err(
                                action.span(),
                                format!(
                                    "unknown action {:?} in {where_} (known: {})",
                                    action.get_ref(),
                                    known.join(", ")
                                ),
                            ));
                        };
                        let DeValue::Array(items) = list.get_ref() else {
                            return Err(err(
                                list.span(),
                                format!(
                                    "{} takes a list of keys, as [\"h\", \"Left\"]",
                                    action.get_ref()
                                ),
                            ));
                        };
                        let mut keys = Vec::new();
                        let mut spans = Vec::new();
                        for item in items.iter() {
                            let Some(s) = item.get_ref().as_str() else {
                                return Err(err(item.span(), "a key is a string, as \"h\"".into()));
                            };
                            let k = parse_key(s).map_err(|m| err(item.span(), m))?;
                            if !keys.contains(&k) {
                                keys.push(k);
                                spans.push(item.span());
                            }
                        }
                        settings.bindings.keys[i] = keys;
                        written[i] = Some(spans);
                    }
                }
            }
            "colours" => {
                let mut chosen: Option<Theme> = None;
                let mut own: Vec<(usize, Color)> = Vec::new();
                for (name, v) in table(value, "[colours]", &err)? {
                    if name.get_ref() == "theme" {
                        let s = string(v, "theme", &err)?;
                        let Some((_, t)) = THEMES.iter().find(|(n, _)| *n == s) else {
                            return Err(err(
                                v.span(),
                                format!(
                                    "unknown theme {s:?} (known: {})",
                                    THEMES.map(|t| t.0).join(", ")
                                ),
                            ));
                        };
                        chosen = Some(*t);
                        continue;
                    }
                    let Some(i) = COLOURS.iter().position(|c| c.0 == name.get_ref()) else {
                        return Err(err(
                            name.span(),
                            format!(
                                "unknown colour setting {:?} (known: theme, {})",
                                name.get_ref(),
                                COLOURS.map(|c| c.0).join(", ")
                            ),
                        ));
                    };
                    let s = string(v, COLOURS[i].0, &err)?;
                    let colour: Color = s.parse().map_err(|_| {
                        err(
                            v.span(),
                            format!(
                                "{s:?} is not a colour: use a name (red, light-blue, dark-gray, ...), a number from 0 to 255 or #rrggbb"
                            ),
                        )
                    })?;
                    own.push((i, colour));
                }
                // The theme first, wherever it is written; then the colours that differ.
                let mut theme = chosen.unwrap_or_default();
                for (i, colour) in own {
                    *(COLOURS[i].2)(&mut theme) = colour;
                }
                settings.theme = theme;
            }
            "game" => {
                for (name, v) in table(value, "[game]", &err)? {
                    match name.get_ref().as_ref() {
                        "sight" => {
                            settings.sight = v
                                .get_ref()
                                .as_bool()
                                .ok_or_else(|| err(v.span(), "sight is true or false".into()))?;
                        }
                        "autoplay_speed" => {
                            let speeds = SPEEDS.map(|s| s.to_string()).join(", ");
                            let bad = || {
                                err(
                                    v.span(),
                                    format!(
                                        "autoplay_speed is one of {speeds} (expansions a second)"
                                    ),
                                )
                            };
                            let n = v
                                .get_ref()
                                .as_integer()
                                .and_then(|n| u32::from_str_radix(n.as_str(), n.radix()).ok())
                                .filter(|n| SPEEDS.contains(n))
                                .ok_or_else(bad)?;
                            settings.autoplay_speed = n;
                        }
                        other => {
                            return Err(err(
                                name.span(),
                                format!(
                                    "unknown setting {other:?} in [game] (known: sight, autoplay_speed)"
                                ),
                            ));
                        }
                    }
                }
            }
            other => {
                return Err(err(
                    key.span(),
                    format!("unknown section [{other}] (known: keys, colours, game)"),
                ));
            }
        }
    }
    // What the file leaves unbound follows its slot's keys as the file bound them.
    for (i, from) in followed().iter().enumerate() {
        if !from.is_empty() && written[i].is_none() {
            settings.bindings.keys[i] = followed_keys(&settings.bindings.keys, i);
        }
    }
    settings.bindings = Bindings::of(std::mem::take(&mut settings.bindings.keys));
    check_clashes(&settings.bindings, &written, &err)?;
    Ok(settings)
}

/// A key of a table with its value, each with its place in the file.
type Entry<'a, 'i> = (&'a Spanned<Cow<'i, str>>, &'a Spanned<DeValue<'i>>);

/// The entries of a table value in the file's order, or an error naming where it is.
fn table<'a, 'i>(
    value: &'a Spanned<DeValue<'i>>,
    what: &str,
    err: &impl Fn(Range<usize>, String) -> ParseError,
) -> Result<Vec<Entry<'a, 'i>>, ParseError> {
    let DeValue::Table(t) = value.get_ref() else {
        return Err(err(value.span(), format!("{what} is a table")));
    };
    let mut out: Vec<_> = t.iter().collect();
    out.sort_by_key(|(k, _)| k.span().start);
    Ok(out)
}

fn string<'a>(
    value: &'a Spanned<DeValue<'_>>,
    name: &str,
    err: &impl Fn(Range<usize>, String) -> ParseError,
) -> Result<&'a str, ParseError> {
    value
        .get_ref()
        .as_str()
        .ok_or_else(|| err(value.span(), format!("{name} is a string, in quotes")))
}

/// Two actions on one key where they apply together is an error naming both, at the key
/// written last in the file.
fn check_clashes(
    bindings: &Bindings,
    written: &[Option<Vec<Range<usize>>>],
    err: &impl Fn(Range<usize>, String) -> ParseError,
) -> Result<(), ParseError> {
    let name = |i: usize| format!("{}.{}", section(slots()[i].context), slots()[i].name);
    // A slot the file left to follow others has their keys, each written where its own
    // slot is: `from` is the one that gave it `k`.
    let from = |i: usize, k: Key| {
        if written[i].is_some() {
            return None;
        }
        followed()[i]
            .iter()
            .copied()
            .find(|&m| bindings.keys[m].contains(&k))
    };
    let full = |i: usize, k: Key, default: bool| {
        let default = if default { "its default" } else { "" };
        match from(i, k) {
            Some(m) if default.is_empty() => format!("{} (as {})", name(i), name(m)),
            Some(m) => format!("{} (as {}, {default})", name(i), name(m)),
            None if default.is_empty() => name(i),
            None => format!("{} ({default})", name(i)),
        }
    };
    let span = |i: usize, k: Key| {
        let i = from(i, k).unwrap_or(i);
        let at = bindings.keys[i].iter().position(|x| *x == k)?;
        written[i].as_ref()?.get(at).cloned()
    };
    let mut worst: Option<(Range<usize>, String)> = None;
    for stack in STACKS {
        let mut seen: Vec<(Key, usize)> = Vec::new();
        for (i, s) in slots().iter().enumerate() {
            if !stack.contains(&s.context) {
                continue;
            }
            for &k in &bindings.keys[i] {
                let Some(&(_, j)) = seen.iter().find(|(x, _)| *x == k) else {
                    seen.push((k, i));
                    continue;
                };
                // The table itself lets a more specific part of the game take a key over
                // (the editor's C-z undoes; elsewhere it suspends): only a key the
                // settings moved can clash.
                let table_own =
                    slots()[i].defaults.contains(&k) && slots()[j].defaults.contains(&k);
                if j == i || table_own {
                    continue;
                }
                // Point at whichever of the two the file wrote last.
                let (a, b) = (span(j, k), span(i, k));
                let at = match (&a, &b) {
                    (Some(a), Some(b)) if a.start > b.start => a.clone(),
                    (_, Some(b)) => b.clone(),
                    (Some(a), None) => a.clone(),
                    (None, None) => 0..0,
                };
                let message = format!(
                    "{:?} is bound to both {} and {}: one key can do one thing",
                    label(k),
                    full(j, k, a.is_none()),
                    full(i, k, b.is_none()),
                );
                if worst.as_ref().is_none_or(|(w, _)| at.start < w.start) {
                    worst = Some((at, message));
                }
            }
        }
    }
    match worst {
        Some((at, message)) => Err(err(at, message)),
        None => Ok(()),
    }
}

/// The full default settings file, every setting with its default and a comment.
pub fn default_file() -> String {
    let mut out = String::new();
    out.push_str(
        "# astar-rogue settings: key bindings, colours, sight and the autoplay speed.\n\
         #\n\
         # The game reads them from config.toml in your config folder ($XDG_CONFIG_HOME/astar-rogue\n\
         # on Linux; `astar-rogue config` prints the path), or from the file ASTAR_ROGUE_CONFIG\n\
         # names. Scripts, `astar-rogue test` and CI never read it unless given one (--config\n\
         # FILE, or a `#! config: FILE` script header). A file with an error is refused whole,\n\
         # with its line and column, before the game starts. Leave out what you do not change.\n",
    );
    out.push_str(
        "\n# Keys, one section per part of the game as the help screen (?) lists them. A key is one\n\
         # character (\"h\", \"?\", \"G\"), C-x for Ctrl-x, F1 to F12, or a name: Left Right Up Down\n\
         # Enter Esc Tab S-Tab Space Backspace Delete Insert Home End PageUp PageDown. An action's\n\
         # list replaces its keys; [] leaves it without one. One key may not do two things where\n\
         # they apply together (everywhere, the overlay and the other sections). C-c always quits.\n",
    );
    for context in CONTEXTS {
        out.push_str(&format!("\n[keys.{}]\n", section(context)));
        for (i, s) in slots().iter().enumerate() {
            if s.context != context {
                continue;
            }
            let keys: Vec<String> = s
                .defaults
                .iter()
                .map(|k| format!("{:?}", label(*k)))
                .collect();
            let mut line = format!("{} = [{}]", s.name, keys.join(", "));
            let mut help = slot_words(i);
            if !followed()[i].is_empty() {
                // Written out, it would stop following: a file saved from this one and
                // changed in its moves would aim with the old keys.
                line = format!("# {line}");
                let names: Vec<String> = followed()[i].iter().map(|&m| file_name(m)).collect();
                help = format!("{help}; unset, the keys of {}", names.join(" and "));
            }
            // A long line still keeps a space before its comment.
            let gap = if line.chars().count() < 36 { "" } else { " " };
            out.push_str(&format!("{line:<36}{gap}# {help}\n"));
        }
    }
    out.push_str("\n# Colours: a theme, then any colour of it changed. A colour is a name (red, light-blue,\n# dark-gray, ...), a number from 0 to 255 (the terminal's palette) or #rrggbb. NO_COLOR\n# still turns every colour off.\n[colours]\n");
    out.push_str(&format!(
        "{:<36}# {}\n",
        "theme = \"default\"",
        "or \"colour-blind\": the overlay's states in blue, orange, white and purple"
    ));
    let standard = Theme::default();
    for (name, what, field) in COLOURS {
        let mut t = standard;
        let colour = *field(&mut t);
        out.push_str(&format!(
            "{:<36}# {what}\n",
            format!("# {name} = \"{}\"", colour_name(colour))
        ));
    }
    out.push_str("\n[game]\n");
    out.push_str(&format!(
        "{:<36}# sight on when a game starts (V toggles it)\n",
        "sight = true"
    ));
    out.push_str(&format!(
        "{:<36}# expansions a second: {}\n",
        format!("autoplay_speed = {}", SPEEDS[DEFAULT_SPEED]),
        SPEEDS.map(|s| s.to_string()).join(", ")
    ));
    out
}

/// What slot `i` of [`slots`] does, in the words of the file's comments: `move west`,
/// `select next foe` (a pair row's half), or its row's help.
pub fn slot_words(i: usize) -> String {
    let s = &slots()[i];
    let pair = row_slots()[s.rows[0]].len() == 2 && s.help.contains(" / ");
    if let Some(way) = move_help(s.action) {
        way.to_string()
    } else if let Some(way) = aim_help(s.action) {
        way
    } else if pair {
        let halves: Vec<&str> = s.help.splitn(2, " / ").collect();
        pair_help(&halves, s.half)
    } else {
        s.help.to_string()
    }
}

/// Slot `i`'s name as the file's comments write it: with its section when another
/// section has an action of that name (`playing.quit`, `busy.quit`).
fn file_name(i: usize) -> String {
    let s = &slots()[i];
    if slots().iter().filter(|t| t.name == s.name).count() > 1 {
        format!("{}.{}", section(s.context), s.name)
    } else {
        s.name.to_string()
    }
}

/// One half of a pair row's help ("select next / prev foe" gives "select next foe" and
/// "select prev foe" where it can).
fn pair_help(halves: &[&str], half: usize) -> String {
    match halves {
        [a, b] => {
            // "one expansion back / on": the words before the first half's last word are
            // shared, as are those after the second half's first word.
            let (lead, first) = a.rsplit_once(' ').unwrap_or(("", a));
            let (second, tail) = b.split_once(' ').unwrap_or((b, ""));
            let word = if half == 0 { first } else { second };
            [lead, word, tail]
                .iter()
                .filter(|s| !s.is_empty())
                .copied()
                .collect::<Vec<_>>()
                .join(" ")
        }
        _ => halves.concat(),
    }
}

/// A colour as the file writes it (read back by ratatui's parser).
fn colour_name(c: Color) -> String {
    match c {
        Color::DarkGray => "dark-gray".into(),
        Color::Gray => "gray".into(),
        other => other.to_string().to_lowercase(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(s: &str) -> Result<Settings, ParseError> {
        parse(s.as_bytes(), "c.toml")
    }

    #[test]
    fn the_default_file_reads_back_as_the_defaults() {
        let text = default_file();
        let s = parse_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(s, Settings::default());
        assert_eq!(parse_str("").unwrap(), Settings::default());
    }

    #[test]
    fn bytes_that_are_not_text_are_named_where_they_are() {
        let e = parse(b"[game]\nsight = true\0\n", "c.toml").unwrap_err();
        assert_eq!(
            e.headline(),
            "c.toml:2:13: control character '\\0': a settings file is plain text"
        );
        let e = parse(b"[game]\nsight = \"\xff\"\n", "c.toml").unwrap_err();
        assert_eq!(e.headline(), "c.toml:2:10: not UTF-8 text");
        // The line is shown as far as it reads, the bad byte as U+FFFD under the caret.
        assert!(
            e.to_string()
                .ends_with("2 | sight = \"\u{fffd}\"\n  |          ^"),
            "{e}"
        );
    }

    #[test]
    fn every_action_of_the_table_has_one_slot_and_a_unique_name() {
        for (r, b) in BINDINGS.iter().enumerate() {
            let only_interrupt = b.keys.iter().all(|(_, a)| *a == Action::Interrupt);
            if !b.keys.is_empty() && !only_interrupt {
                assert!(!row_slots()[r].is_empty(), "row {r} {:?}", b.label);
            }
        }
        for ctx in CONTEXTS {
            let mut names: Vec<&str> = slots()
                .iter()
                .filter(|s| s.context == ctx)
                .map(|s| s.name)
                .collect();
            let n = names.len();
            names.sort_unstable();
            names.dedup();
            assert_eq!(names.len(), n, "names in {:?} repeat", section(ctx));
        }
    }

    #[test]
    fn the_bindings_are_the_table_when_every_key_is_the_table_s() {
        use crate::game::KeyNames;
        assert!(Bindings::standard().is_table());
        // Written out, but as the table has it: still the table, so nothing is worded again.
        assert!(
            parse_str("[keys.everywhere]\nmove_w = [\"h\", \"Left\", \"4\"]\n")
                .unwrap()
                .bindings
                .is_table()
        );
        for file in [
            "[keys.everywhere]\nmove_w = [\"F2\"]\n",
            "[keys.everywhere]\nmove_w = [\"h\"]\n",
            "[keys.playing]\nwait = [\".\", \"F2\"]\n",
        ] {
            assert!(!parse_str(file).unwrap().bindings.is_table(), "{file}");
        }
    }

    #[test]
    fn the_default_bindings_do_not_clash() {
        let none = vec![None; slots().len()];
        let e = |_: Range<usize>, m: String| ParseError::new("x".into(), 1, 1, m, "");
        check_clashes(&Bindings::default(), &none, &e).unwrap();
    }

    #[test]
    fn the_standard_bindings_give_what_the_table_gives() {
        use crossterm::event::{KeyEvent, KeyModifiers};
        let mut codes: Vec<KeyCode> = (' '..='~').map(KeyCode::Char).collect();
        codes.extend(NAMED.iter().map(|n| n.1));
        for stack in STACKS {
            for &code in &codes {
                for mods in [KeyModifiers::NONE, KeyModifiers::CONTROL] {
                    let event = KeyEvent::new(code, mods);
                    let key = Key::of(&event).unwrap();
                    assert_eq!(
                        Bindings::standard().lookup(stack, key),
                        super::super::keymap::lookup_table(stack, &event),
                        "{code:?} {mods:?} in {stack:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn keys_read_back_from_their_labels() {
        for s in slots() {
            for &k in &s.defaults {
                assert_eq!(parse_key(&label(k)), Ok(k), "{}", label(k));
            }
        }
        assert_eq!(
            parse_key("BackTab"),
            Ok(Key {
                code: KeyCode::BackTab,
                ctrl: false
            })
        );
        assert_eq!(
            parse_key("C-P"),
            Ok(Key {
                code: KeyCode::Char('p'),
                ctrl: true
            })
        );
        assert!(parse_key("C-c").is_err());
        assert!(parse_key("Lfet").unwrap_err().contains("is not a key"));
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = parse_str("[game]\nsight = yes\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 9), "{e}");
        let e = parse_str("[keys.playing]\nwiat = [\".\"]\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 1), "{e}");
        assert!(
            e.message
                .starts_with("unknown action \"wiat\" in [keys.playing]"),
            "{e}"
        );
        let e = parse_str("[colours]\nopen = \"purpel\"\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 8), "{e}");
        let e = parse_str("[game]\nautoplay_speed = 30\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 18), "{e}");
        let e = parse_str("[keys.everywhere]\nmove_w = [\"h\", \"Lfet\"]\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 16), "{e}");
    }

    #[test]
    fn two_actions_on_one_key_name_both() {
        let e = parse_str("[keys.playing]\nwait = [\"h\"]\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 9), "{e}");
        assert_eq!(
            e.message,
            "\"h\" is bound to both everywhere.move_w (its default) and playing.wait: one key can do one thing"
        );
        // Different parts of the game that never apply together may share a key.
        parse_str("[keys.edit]\nwall = [\"s\"]\nsave = [\"C-s\"]\n").unwrap();
    }

    /// Which slots follow which, written out by their names in the file as [`followed`]
    /// promises them, so that a follower it misses, one too many or one that follows the
    /// wrong way fails; and the table gives each follower the keys of those it follows.
    #[test]
    fn each_follower_has_the_keys_it_follows_in_the_table_too() {
        let follows: [(&str, &[&str]); 17] = [
            ("attack_in_place.attack_w", &["everywhere.move_w"]),
            ("attack_in_place.attack_s", &["everywhere.move_s"]),
            ("attack_in_place.attack_n", &["everywhere.move_n"]),
            ("attack_in_place.attack_e", &["everywhere.move_e"]),
            ("attack_in_place.attack_nw", &["everywhere.move_nw"]),
            ("attack_in_place.attack_ne", &["everywhere.move_ne"]),
            ("attack_in_place.attack_sw", &["everywhere.move_sw"]),
            ("attack_in_place.attack_se", &["everywhere.move_se"]),
            (
                "attack_in_place.attack",
                &["playing.attack", "everywhere.back"],
            ),
            ("resize.grow_left", &["everywhere.move_w"]),
            ("resize.grow_right", &["everywhere.move_e"]),
            ("resize.grow_top", &["everywhere.move_n"]),
            ("resize.grow_bottom", &["everywhere.move_s"]),
            ("history.older", &["everywhere.move_n"]),
            ("history.newer", &["everywhere.move_s"]),
            ("busy.quit", &["playing.quit"]),
            ("busy.yes", &["questions.yes"]),
        ];
        let name = |i: usize| format!("{}.{}", section(slots()[i].context), slots()[i].name);
        let mut want: Vec<(String, Vec<String>)> = follows
            .iter()
            .map(|(f, from)| (f.to_string(), from.iter().map(|m| m.to_string()).collect()))
            .collect();
        let mut got: Vec<(String, Vec<String>)> = followed()
            .iter()
            .enumerate()
            .filter(|(_, from)| !from.is_empty())
            .map(|(i, from)| (name(i), from.iter().map(|&m| name(m)).collect()))
            .collect();
        want.sort();
        got.sort();
        assert_eq!(got, want);
        let table: Vec<Vec<Key>> = slots().iter().map(|s| s.defaults.clone()).collect();
        for (i, from) in followed().iter().enumerate() {
            if !from.is_empty() {
                assert_eq!(slots()[i].defaults, followed_keys(&table, i), "{}", name(i));
            }
        }
    }

    /// Resizing and the history follow the moves as aiming does, but a key that part of
    /// the game binds itself stays its own; the busy box follows quit and yes.
    #[test]
    fn resizing_the_history_and_the_busy_box_follow_the_moves_quit_and_yes() {
        let key = |c| Key {
            code: c,
            ctrl: false,
        };
        let resize = [Context::Resize, Context::Always];
        let history = [Context::History, Context::Always];
        let busy = [Context::Busy, Context::Always];
        let s = parse_str(
            "[keys.everywhere]\nmove_n = [\"K\", \"I\"]\nmove_w = [\"A\"]\n[keys.playing]\nquit = [\"C-q\"]\n[keys.questions]\nyes = [\"o\"]\n",
        )
        .unwrap();
        let b = &s.bindings;
        let (k, w, a) = (KeyCode::Char('K'), KeyCode::Char('I'), KeyCode::Char('A'));
        // K crops the top while resizing, as the table has it; I grows it.
        assert_eq!(
            b.lookup(&resize, key(k)),
            Some(Action::Resize(Side::Top, -1))
        );
        assert_eq!(
            b.lookup(&resize, key(w)),
            Some(Action::Resize(Side::Top, 1))
        );
        assert_eq!(
            b.lookup(&resize, key(a)),
            Some(Action::Resize(Side::Left, 1))
        );
        assert_eq!(b.lookup(&resize, key(KeyCode::Char('h'))), None);
        assert_eq!(b.lookup(&resize, key(KeyCode::Up)), None);
        assert_eq!(b.lookup(&history, key(k)), Some(Action::Scroll(1)));
        assert_eq!(b.lookup(&history, key(w)), Some(Action::Scroll(1)));
        assert_eq!(b.lookup(&history, key(KeyCode::Char('k'))), None);
        assert_eq!(
            b.lookup(&history, key(KeyCode::Down)),
            Some(Action::Scroll(-1))
        );
        let c_q = Key {
            code: KeyCode::Char('q'),
            ctrl: true,
        };
        assert_eq!(b.lookup(&busy, c_q), Some(Action::Quit));
        assert_eq!(b.lookup(&busy, key(KeyCode::Char('q'))), None);
        assert_eq!(b.lookup(&busy, key(KeyCode::Char('o'))), Some(Action::Yes));
        assert_eq!(b.lookup(&busy, key(KeyCode::Char('y'))), None);
        // Bound on purpose, they keep their own keys.
        let s = parse_str(
            "[keys.everywhere]\nmove_n = [\"I\"]\n[keys.resize]\ngrow_top = [\"T\"]\n[keys.busy]\nquit = [\"Q\"]\n",
        )
        .unwrap();
        let b = &s.bindings;
        assert_eq!(b.lookup(&resize, key(w)), None);
        assert_eq!(
            b.lookup(&resize, key(KeyCode::Char('T'))),
            Some(Action::Resize(Side::Top, 1))
        );
        assert_eq!(b.lookup(&busy, key(KeyCode::Char('Q'))), Some(Action::Quit));
    }

    #[test]
    fn attacks_in_place_follow_the_moves_unless_bound() {
        let aim = [Context::Aim, Context::Always];
        let key = |c| Key {
            code: c,
            ctrl: false,
        };
        let (a, d, z) = (KeyCode::F(2), KeyCode::F(3), KeyCode::F(4));
        let (h, j) = (KeyCode::Char('h'), KeyCode::Char('j'));
        let s = parse_str("[keys.everywhere]\nmove_w = [\"F2\"]\nmove_e = [\"F3\"]\n").unwrap();
        let b = &s.bindings;
        assert_eq!(b.lookup(&aim, key(a)), Some(Action::AttackToward(-1, 0)));
        assert_eq!(b.lookup(&aim, key(d)), Some(Action::AttackToward(1, 0)));
        assert_eq!(b.lookup(&aim, key(h)), None);
        assert_eq!(b.lookup(&aim, key(j)), Some(Action::AttackToward(0, 1)));
        let row = BINDINGS
            .iter()
            .position(|r| r.context == Context::Aim && !r.hint.is_empty())
            .unwrap();
        assert_eq!(b.label(row), "F2 j k F3");
        assert_eq!(b.hint(row), "F2jkF3yubn attack");
        // Bound on purpose, an attack keeps its own keys whatever the moves are.
        let s = parse_str(
            "[keys.attack_in_place]\nattack_w = [\"F4\"]\n[keys.everywhere]\nmove_w = [\"F2\"]\n",
        )
        .unwrap();
        assert_eq!(
            s.bindings.lookup(&aim, key(z)),
            Some(Action::AttackToward(-1, 0))
        );
        assert_eq!(s.bindings.lookup(&aim, key(a)), None);
        // The cancel follows the attack key (and the way back), in the hint too.
        let s = parse_str("[keys.playing]\nattack = [\"F4\"]\n").unwrap();
        assert_eq!(s.bindings.lookup(&aim, key(z)), Some(Action::Attack));
        assert_eq!(
            s.bindings.lookup(&aim, key(KeyCode::Esc)),
            Some(Action::Attack)
        );
        assert_eq!(s.bindings.lookup(&aim, key(KeyCode::Char('F'))), None);
        let cancel = BINDINGS
            .iter()
            .position(|r| r.context == Context::Aim && r.hint.ends_with(" cancel"))
            .unwrap();
        assert_eq!(s.bindings.hint(cancel), "F4 Esc cancel");
        // A move key that cancels the attack too is a clash, at the move's key.
        let e = parse_str("[keys.attack_in_place]\nattack = [\"F\", \"u\"]\n").unwrap_err();
        assert_eq!((e.line, e.col), (2, 16), "{e}");
        assert_eq!(
            e.message,
            "\"u\" is bound to both attack_in_place.attack_ne (as everywhere.move_ne, its default) and attack_in_place.attack: one key can do one thing"
        );
        let e = parse_str(
            "[keys.attack_in_place]\nattack = [\"F\", \"w\"]\n[keys.everywhere]\nmove_n = [\"w\"]\n",
        )
        .unwrap_err();
        assert_eq!((e.line, e.col), (4, 11), "{e}");
        assert_eq!(
            e.message,
            "\"w\" is bound to both attack_in_place.attack_n (as everywhere.move_n) and attack_in_place.attack: one key can do one thing"
        );
    }

    #[test]
    fn headings_and_the_help_title_name_the_bound_keys() {
        let s = parse_str(
            "[keys.playing]\noverlay = [\"F2\"]\nattack = [\"F3\"]\n[keys.help]\nclose = [\"c\"]\n",
        )
        .unwrap();
        let b = &s.bindings;
        assert_eq!(b.title(Context::Overlay), "Search overlay (F2)");
        assert_eq!(b.title(Context::Aim), "Attack in place (F3)");
        assert_eq!(b.title(Context::Look), "Look mode (x)");
        let row = |ctx, action| {
            BINDINGS
                .iter()
                .position(|r| r.context == ctx && r.keys.iter().any(|(_, a)| *a == action))
                .unwrap()
        };
        assert_eq!(
            b.help(row(Context::Play, Action::Attack)),
            "attack in place: F3, a way"
        );
        assert_eq!(b.help(row(Context::Play, Action::Wait)), "wait a turn");
        let s = parse_str("[keys.edit]\ncopy = [\"C\"]\n").unwrap();
        let copy = row(Context::Edit, Action::Tool(Tool::Copy));
        assert_eq!(s.bindings.help(copy), "copy: corner, C again");
        assert_eq!(Bindings::standard().help(copy), "copy: corner, c again");
        assert_eq!(
            super::super::help::title(b, 1, 3, 80),
            " help 2/3: Space or PgDn next, PgUp back, c closes "
        );
        assert_eq!(
            super::super::help::title(Bindings::standard(), 1, 3, 80),
            " help 2/3: Space or PgDn next, PgUp back, Esc closes "
        );
    }

    #[test]
    fn the_log_names_the_tables_keys_for_its_commands() {
        for c in Command::ALL {
            assert_eq!(Bindings::standard().command_key(c), c.table_key(), "{c:?}");
        }
    }

    #[test]
    fn a_theme_then_its_colours() {
        let s = parse_str("[colours]\nopen = \"cyan\"\ntheme = \"colour-blind\"\n").unwrap();
        assert_eq!(s.theme.open, Color::Cyan);
        assert_eq!(s.theme.closed, THEMES[1].1.closed);
    }

    #[test]
    fn bound_keys_show_in_labels_and_hints() {
        let s = parse_str(
            "[keys.everywhere]\nhelp = [\"F1\"]\nmove_w = [\"F2\"]\n[keys.overlay]\nautoplay = [\"A\"]\nstep_back = [\",\"]\n",
        )
        .unwrap();
        let b = &s.bindings;
        let row = |label: &str| BINDINGS.iter().position(|r| r.label == label).unwrap();
        assert_eq!(b.label(row("?")), "F1");
        assert_eq!(b.hint(row("?")), "F1 help");
        assert_eq!(b.label(row("[ ]")), ", ]");
        assert_eq!(b.hint(row("[ ]")), ", ] step");
        assert_eq!(b.label(row("←↓↑→ hjkl")), "F2 j k l");
        assert_eq!(b.hint(row("moves")), "F2jklyubn move");
        assert_eq!(b.hint(row("o")), "o search");
        assert_eq!(b.hint(row("+ -")), "+- speed");
        // Keys with names show as the table writes them, not as the file does.
        let arrows = parse_str("[keys.everywhere]\nmove_w = [\"Left\"]\nmove_ne = [\"PageUp\"]\n")
            .unwrap()
            .bindings;
        assert_eq!(arrows.label(row("←↓↑→ hjkl")), "← j k l");
        assert_eq!(arrows.hint(row("moves")), "←jklyPgUpbn move");
        assert_eq!(arrows.key_of(Context::Global, Action::Move(-1, 0)), "←");
        // A hint that names keys of other rows, or several keys of its own.
        let s = parse_str(
            "[keys.overlay]\nheuristic = [\"F3\"]\n[keys.resize]\ngrow_left = [\"F1\"]\ncrop_top = [\"I\"]\n[keys.history]\nolder = [\"F5\"]\n[keys.look]\nlook = [\"F6\"]\n",
        )
        .unwrap();
        let b = &s.bindings;
        let row = |ctx: Context, label: &str| {
            BINDINGS
                .iter()
                .position(|r| r.context == ctx && r.label == label)
                .unwrap()
        };
        assert_eq!(b.hint(row(Context::Overlay, "N")), "N F3 W B options");
        assert_eq!(b.hint(row(Context::Resize, "←↓↑→ hjkl")), "F1 j k l grow");
        assert_eq!(b.hint(row(Context::Resize, "H L K J")), "HJIL crop");
        assert_eq!(
            b.hint(row(Context::History, "↑↓ k j 8 2")),
            "F5 ↓ PgUp PgDn scroll"
        );
        assert_eq!(b.hint(row(Context::Look, "x q")), "F6 Esc leave");
        assert_eq!(b.hint(row(Context::Edit, "U C-z")), "U/R undo/redo");
    }
}
