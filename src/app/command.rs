//! The words of input: the parts of the game a key can apply in ([`Context`]), what the
//! player can ask for ([`Action`]) and the keys themselves ([`Key`]), with the names the
//! settings file and the scripts write them by. Every other part of the app (the key
//! table, the bindings, the screens) is built on these, and these on nothing of the app but
//! the editor's tool names.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::tools::Tool;
use crate::content::level::FeatureKind;
use crate::content::level::design::Side;
use crate::content::map::Tile;

/// Where a binding applies. Each screen consults a few contexts, most specific first
/// ([`crate::app::App::contexts`]), and nothing else: a key that none of them binds does
/// nothing there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Context {
    /// Every screen (interrupt and suspend).
    Always,
    /// Playing, looking, editing and the lab alike.
    Global,
    /// Playing.
    Play,
    /// With the search overlay on (playing or looking).
    Overlay,
    /// Look mode.
    Look,
    /// Edit mode.
    Edit,
    /// Edit mode after `m`: the monster's letter.
    Monster,
    /// Edit mode after `Z`: resizing the map.
    Resize,
    /// The search lab.
    Lab,
    /// The help screen.
    Help,
    /// The message history.
    History,
    /// A question waiting for an answer.
    Confirm,
    /// While a long turn is being worked out (the terminal's busy box).
    Busy,
    /// After `F`, waiting for the direction of an attack in place.
    Aim,
    /// Watching a recording (`astar-rogue replay`); the game's own keys look into it
    /// while it is paused.
    Replay,
}

impl Context {
    /// Every context, in help-screen order.
    pub const ALL: [Context; 15] = [
        Context::Always,
        Context::Global,
        Context::Play,
        Context::Aim,
        Context::Overlay,
        Context::Look,
        Context::Edit,
        Context::Monster,
        Context::Resize,
        Context::Lab,
        Context::Help,
        Context::History,
        Context::Confirm,
        Context::Busy,
        Context::Replay,
    ];

    /// The heading of this context on the help screen.
    pub fn title(self) -> &'static str {
        match self {
            Context::Always => "Anywhere",
            Context::Global => "Play, look, edit, lab",
            Context::Play => "Playing",
            Context::Overlay => "Search overlay (o)",
            Context::Look => "Look mode (x)",
            Context::Edit => "Edit mode (e)",
            Context::Monster => "Edit: monster (m)",
            Context::Resize => "Edit: resize (Z)",
            Context::Lab => "Search lab (L)",
            Context::Help => "This help (?)",
            Context::History => "Messages (C-p)",
            Context::Confirm => "Questions",
            Context::Busy => "While a turn works",
            Context::Aim => "Attack in place (F)",
            Context::Replay => "Replay viewer",
        }
    }
}

impl Context {
    /// The key and its context that lead here, which the help's heading names
    /// (`Search overlay (o)`); `None` for the parts of the game no one key opens.
    pub fn entered_by(self) -> Option<(Context, Action)> {
        Some(match self {
            Context::Overlay => (Context::Play, Action::ToggleOverlay),
            Context::Look => (Context::Play, Action::Look),
            Context::Edit => (Context::Play, Action::Edit),
            Context::Monster => (Context::Edit, Action::MonsterPrefix),
            Context::Resize => (Context::Edit, Action::ResizePrefix),
            Context::Lab => (Context::Play, Action::Lab),
            Context::Help => (Context::Global, Action::Help),
            Context::History => (Context::Global, Action::History),
            Context::Aim => (Context::Play, Action::Attack),
            Context::Always
            | Context::Global
            | Context::Play
            | Context::Confirm
            | Context::Busy
            | Context::Replay => return None,
        })
    }
}

/// Declares every command once: its doc, its variant of [`Action`] (with its fields) and
/// its name in the settings file (a string, or for a command with fields a function of
/// them), from which `Action` and [`Action::name`] are made.
macro_rules! commands {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident $(( $($field:ident: $ty:ty),+ ))? = $name:expr,
    )*) => {
        /// Something the player asks for.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Action {
            $(
                $(#[doc = $doc])*
                $variant $(( $($ty),+ ))?,
            )*
        }

        impl Action {
            /// The command's name in the settings file (`wait`, `move_w`, `grow_left`).
            pub fn name(self) -> &'static str {
                match self {
                    $(Action::$variant $(( $($field),+ ))? => commands!(@name $name $(, $($field),+)?),)*
                }
            }
        }
    };
    (@name $name:expr) => {
        $name
    };
    (@name $name:expr, $($field:ident),+) => {
        $name($($field),+)
    };
}

commands! {
    /// Move (or move the cursor) by a king step.
    Move(dx: i32, dy: i32) = move_name,
    /// Let a turn pass.
    Wait = "wait",
    /// Show or hide the help screen.
    Help = "help",
    /// Select the next monster.
    NextMonster = "next_monster",
    /// Select the previous monster.
    PrevMonster = "prev_monster",
    /// Quit (asks while a game is in progress).
    Quit = "quit",
    /// Start the level again.
    Restart = "restart",
    /// Give the run up (asks).
    Abandon = "abandon",
    /// Show or hide the search overlay.
    ToggleOverlay = "overlay",
    /// Show or hide the selected monster's planned path.
    TogglePath = "path",
    /// Enter or leave look mode.
    Look = "look",
    /// Travel to the look cursor's cell, one step a turn (as a click there does in play).
    TravelTo = "travel_to",
    /// Enter or leave edit mode.
    Edit = "edit",
    /// Leave the current mode.
    Back = "back",
    /// Save the level.
    Save = "save",
    /// Generate a new level with the next seed (and, after a generated one, the next kind).
    NewLevel = "new_level",
    /// One expansion back.
    StepBack = "step_back",
    /// One expansion forward.
    StepForward = "step_forward",
    /// To the first expansion.
    StepStart = "step_first",
    /// To the finished search.
    StepEnd = "step_last",
    /// Start or stop autoplay.
    Autoplay = "autoplay",
    /// Autoplay faster.
    Faster = "faster",
    /// Autoplay slower.
    Slower = "slower",
    /// Next neighbourhood rule.
    CycleNeighbourhood = "neighbours",
    /// Next heuristic.
    CycleHeuristic = "heuristic",
    /// Next weight on H.
    CycleWeight = "weight",
    /// Back to the default search options.
    ResetOptions = "reset_options",
    /// Put a tile under the cursor; in the editor, end the shape under way with it.
    PutTile(tile: Tile) = tile_setting,
    /// Swap wall and floor under the cursor.
    ToggleTile = "swap_tile",
    /// Start a shape (or a copy) at the cursor; a second time, end it with the glyph.
    Tool(tool: Tool) = tool_setting,
    /// End the shape under way with the glyph, or put the glyph under the cursor.
    Finish = "finish",
    /// Lay the copied region with its top-left corner at the cursor.
    Paste = "paste",
    /// Wait for a monster's letter, to place one.
    MonsterPrefix = "monster",
    /// Place a monster of this kind under the cursor.
    PlaceKind(kind: char) = crate::content::kinds::builtin_name,
    /// Start or end resizing the map.
    ResizePrefix = "resize",
    /// Grow (positive) or crop (negative) the map at a side by one cell.
    Resize(side: Side, by: i8) = resize_name,
    /// Make a blank floor below this one, named by a `next:` header.
    FloorBelow = "floor_below",
    /// Go to the designed floor below, to edit it.
    FloorDown = "floor_down",
    /// Go to the designed floor above, to edit it.
    FloorUp = "floor_up",
    /// Start a new run on a blank level.
    BlankLevel = "blank_level",
    /// Delete the monster, or else the stairs or potion, under the cursor.
    Delete = "delete",
    /// Lay stairs or a potion under the cursor.
    PlaceFeature(kind: FeatureKind) = place_name,
    /// Move the player here.
    MovePlayer = "player",
    /// Undo the last edit.
    Undo = "undo",
    /// Redo the last undone edit.
    Redo = "redo",
    /// Switch greedy best-first search on or off.
    ToggleGreedy = "greedy",
    /// Show the next whole-map layer (states, G, H, F, parents).
    CycleLayer = "layer",
    /// Let the inspector follow the node being expanded, or not.
    ToggleFollow = "follow",
    /// Open or leave the search lab.
    Lab = "lab",
    /// Put the lab's start at the cursor.
    SetStart = "start",
    /// Put the lab's goal at the cursor.
    SetGoal = "goal",
    /// Compare with a second search side by side (none, Dijkstra, weight 2, 4-way, greedy).
    CycleCompare = "compare",
    /// Next tie rule of the search: lower H, LIFO, FIFO.
    CycleTies = "ties",
    /// Set the other tie rules beside the lab's search, one after the other.
    CompareTies = "compare_ties",
    /// Search the lab's query as a kind of monster does: every kind in turn, then plain.
    LabKind = "lab_kind",
    /// Set a kind of monster's search beside the lab's: every kind in turn, then none.
    CompareKind = "compare_kind",
    /// Start or stop the lab's quiz: predict each expansion.
    Quiz = "quiz",
    /// Answer the quiz: the cursor's cell is the one the search expands next.
    Answer = "answer",
    /// Let the mouse paint walls in the lab, or move the start and goal.
    TogglePaint = "paint",
    /// How the monsters plan: own A*, capped A*, one Dijkstra map, own JPS.
    CyclePlanning = "planning",
    /// Take the stairs down.
    Descend = "descend",
    /// Drink a healing potion.
    Drink = "drink",
    /// Close the open doors beside the player.
    CloseDoors = "close_doors",
    /// Use a tool: sound a lure, sow brush seeds, spike a door.
    UseTool(kind: FeatureKind) = use_name,
    /// Show only what the player sees, or the whole map.
    ToggleSight = "sight",
    /// Open or close the message history.
    History = "history",
    /// Quit at once; asks first only when that would drop unsaved edits.
    Interrupt = "interrupt",
    /// Hand the terminal back to the shell (`fg` resumes).
    Suspend = "suspend",
    /// The next help page.
    NextPage = "next_page",
    /// The previous help page.
    PrevPage = "prev_page",
    /// Close the help or the message history.
    Close = "close",
    /// Scroll the message history by messages: positive is older.
    Scroll(by: i8) = scroll_name,
    /// Scroll the message history by pages: positive is older.
    ScrollPage(by: i8) = scroll_page_name,
    /// To the oldest message (`true`) or the newest.
    ScrollEnd(oldest: bool) = scroll_end_name,
    /// Rest until healed, or wait for something to happen (stops at anything new).
    Rest = "rest",
    /// Explore the unseen part of the floor (stops at anything new).
    Explore = "explore",
    /// Ask for a direction to attack in place, or (asked already) cancel.
    Attack = "attack",
    /// Attack the cell a king step away without moving.
    AttackToward(dx: i32, dy: i32) = attack_name,
    /// Answer yes.
    Yes = "yes",
    /// Answer no.
    No = "no",
    /// Save the level file, then quit.
    SaveAndQuit = "save_and_quit",
    /// Take the file's version of a level changed on disk.
    TakeFile = "take_file",
    /// Keep the game's version of a level changed on disk.
    KeepMine = "keep_mine",
    /// Play or pause a replay.
    ReplayPause = "pause",
    /// One input of a replay on, paused.
    ReplayStep = "step",
    /// Replay faster.
    ReplayFaster = "replay_faster",
    /// Replay slower.
    ReplaySlower = "replay_slower",
    /// Ask for a turn to jump to.
    ReplayJump = "jump_to_turn",
    /// Back to the start of the replay.
    ReplayStart = "replay_start",
    /// Leave the replay viewer.
    ReplayQuit = "leave_replay",
}

/// The eight steps with their names in the file, as a move and as an attack in place.
const COMPASS: [((i32, i32), &str, &str); 8] = [
    ((-1, 0), "move_w", "attack_w"),
    ((0, 1), "move_s", "attack_s"),
    ((0, -1), "move_n", "attack_n"),
    ((1, 0), "move_e", "attack_e"),
    ((-1, -1), "move_nw", "attack_nw"),
    ((1, -1), "move_ne", "attack_ne"),
    ((-1, 1), "move_sw", "attack_sw"),
    ((1, 1), "move_se", "attack_se"),
];

/// A king step's names in the file, `None` for what is not one.
fn compass(dx: i32, dy: i32) -> Option<&'static ((i32, i32), &'static str, &'static str)> {
    COMPASS.iter().find(|c| c.0 == (dx, dy))
}

/// Growing (`by` > 0) or cropping a side's name in the file.
fn resize_name(side: Side, by: i8) -> &'static str {
    match (side, by > 0) {
        (Side::Left, true) => "grow_left",
        (Side::Left, false) => "crop_left",
        (Side::Top, true) => "grow_top",
        (Side::Top, false) => "crop_top",
        (Side::Right, true) => "grow_right",
        (Side::Right, false) => "crop_right",
        (Side::Bottom, true) => "grow_bottom",
        (Side::Bottom, false) => "crop_bottom",
    }
}

/// Putting a tile's name in the file.
fn tile_setting(tile: Tile) -> &'static str {
    match tile {
        Tile::Wall => "wall",
        Tile::Floor => "floor",
        Tile::Void => "void",
        Tile::Water => "water",
        Tile::Brush => "brush",
        Tile::DoorClosed => "door",
        Tile::DoorOpen => "open_door",
        Tile::DoorJammed => "jammed_door",
    }
}

/// An editor tool's name in the file.
fn tool_setting(tool: Tool) -> &'static str {
    match tool {
        Tool::Rect => "rectangle",
        Tool::Box => "filled_rectangle",
        Tool::Line => "line",
        Tool::Fill => "fill",
        Tool::Copy => "copy",
    }
}

/// A feature's names in the file: laying it in the editor, and using it as a tool.
fn feature_setting(kind: FeatureKind) -> (&'static str, &'static str) {
    match kind {
        FeatureKind::Stairs => ("stairs", "use_tool"),
        FeatureKind::Potion => ("potion", "use_tool"),
        FeatureKind::Lure => ("lure", "use_lure"),
        FeatureKind::Seeds => ("seeds", "use_seeds"),
        FeatureKind::Spike => ("spike", "use_spike"),
    }
}

/// A king step's name in the file as a move.
fn move_name(dx: i32, dy: i32) -> &'static str {
    compass(dx, dy).map_or("move", |c| c.1)
}

/// A king step's name in the file as an attack in place.
fn attack_name(dx: i32, dy: i32) -> &'static str {
    compass(dx, dy).map_or("attack_toward", |c| c.2)
}

/// Laying a feature's name in the file.
fn place_name(kind: FeatureKind) -> &'static str {
    feature_setting(kind).0
}

/// Using a feature as a tool's name in the file.
fn use_name(kind: FeatureKind) -> &'static str {
    feature_setting(kind).1
}

/// Scrolling the history by messages' name in the file.
fn scroll_name(by: i8) -> &'static str {
    if by > 0 { "older" } else { "newer" }
}

/// Scrolling the history by pages' name in the file.
fn scroll_page_name(by: i8) -> &'static str {
    if by > 0 { "older_page" } else { "newer_page" }
}

/// Scrolling the history to an end's name in the file.
fn scroll_end_name(oldest: bool) -> &'static str {
    if oldest { "oldest" } else { "newest" }
}

/// A key as written in the table: a code and whether Ctrl is held. Shift is part of the
/// character (`G`, `?`); Alt and the other modifiers never match, so Alt+x does not do x.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    /// The key.
    pub code: KeyCode,
    /// Whether Ctrl is held.
    pub ctrl: bool,
}

impl Key {
    /// The key an input event names, `None` for what no binding can name (Alt held, Shift
    /// on a key whose character does not show it).
    pub fn of(event: &KeyEvent) -> Option<Key> {
        let mods = event.modifiers;
        let shift_shown = matches!(event.code, KeyCode::Char(_) | KeyCode::BackTab);
        let allowed = KeyModifiers::CONTROL
            | if shift_shown {
                KeyModifiers::SHIFT
            } else {
                KeyModifiers::NONE
            };
        if !allowed.contains(mods) {
            return None;
        }
        Some(Key {
            code: event.code,
            ctrl: mods.contains(KeyModifiers::CONTROL),
        })
    }

    /// The key as the help and the scripts write it: `q`, `C-c`, `Esc`, `PgUp`, `←`.
    pub fn name(self) -> String {
        let base = match self.code {
            KeyCode::Char(' ') => "Space".to_string(),
            KeyCode::Char(c) => c.to_string(),
            KeyCode::Left => "←".into(),
            KeyCode::Right => "→".into(),
            KeyCode::Up => "↑".into(),
            KeyCode::Down => "↓".into(),
            KeyCode::PageUp => "PgUp".into(),
            KeyCode::PageDown => "PgDn".into(),
            KeyCode::BackTab => "S-Tab".into(),
            KeyCode::Esc => "Esc".into(),
            other => other.to_string(),
        };
        if self.ctrl { format!("C-{base}") } else { base }
    }
}

/// The names of keys that are not one character, as scripts write them.
pub(super) const NAMED: [(&str, KeyCode); 16] = [
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
pub fn parse_key(s: &str) -> Result<Key, KeyError> {
    let mut chars = s.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        if c.is_control() || c.is_whitespace() {
            return Err(KeyError::ByName(s.to_string()));
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
                return Err(KeyError::CtrlC);
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
    Err(KeyError::Unknown(s.to_string()))
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

/// Why a settings file's key does not read as a key; the words are the file error's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeyError {
    /// One character that no key types as itself (a space, a control character).
    #[error("{0:?} is not a key: write Space, Tab or Enter by name")]
    ByName(String),
    /// Ctrl-C, which always quits.
    #[error("C-c always quits and cannot be bound")]
    CtrlC,
    /// Nothing a key is called.
    #[error(
        "{0:?} is not a key: use one character (\"h\", \"?\"), C-x for Ctrl-x, F1 to F12 or a name ({names})",
        names = NAMED.map(|n| n.0).join(", ")
    )]
    Unknown(String),
}

impl std::str::FromStr for Key {
    type Err = KeyError;

    fn from_str(s: &str) -> Result<Key, KeyError> {
        parse_key(s)
    }
}

impl std::fmt::Display for Key {
    /// As the settings file writes it ([`label`]).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&label(*self))
    }
}
