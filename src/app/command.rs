//! The words of input: the parts of the game a key can apply in ([`Context`]), what the
//! player can ask for ([`Action`]) and the keys themselves ([`Key`]), with the names the
//! settings file and the scripts write them by. Every other part of the app (the key
//! table, the bindings, the screens) is built on these, and these on nothing of the app but
//! the editor's tool names.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::tools::Tool;
use crate::content::level::{FeatureKind, Side};
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
    /// Give the run up (asks).
    Abandon,
    /// Show or hide the search overlay.
    ToggleOverlay,
    /// Show or hide the selected monster's planned path.
    TogglePath,
    /// Enter or leave look mode.
    Look,
    /// Travel to the look cursor's cell, one step a turn (as a click there does in play).
    TravelTo,
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
    /// Put a tile under the cursor; in the editor, end the shape under way with it.
    PutTile(Tile),
    /// Swap wall and floor under the cursor.
    ToggleTile,
    /// Start a shape (or a copy) at the cursor; a second time, end it with the glyph.
    Tool(Tool),
    /// End the shape under way with the glyph, or put the glyph under the cursor.
    Finish,
    /// Lay the copied region with its top-left corner at the cursor.
    Paste,
    /// Wait for a monster's letter, to place one.
    MonsterPrefix,
    /// Place a monster of this kind under the cursor.
    PlaceKind(char),
    /// Start or end resizing the map.
    ResizePrefix,
    /// Grow (positive) or crop (negative) the map at a side by one cell.
    Resize(Side, i8),
    /// Make a blank floor below this one, named by a `next:` header.
    FloorBelow,
    /// Go to the designed floor below, to edit it.
    FloorDown,
    /// Go to the designed floor above, to edit it.
    FloorUp,
    /// Start a new run on a blank level.
    BlankLevel,
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
    /// Next tie rule of the search: lower H, LIFO, FIFO.
    CycleTies,
    /// Set the other tie rules beside the lab's search, one after the other.
    CompareTies,
    /// Search the lab's query as a kind of monster does: every kind in turn, then plain.
    LabKind,
    /// Set a kind of monster's search beside the lab's: every kind in turn, then none.
    CompareKind,
    /// Start or stop the lab's quiz: predict each expansion.
    Quiz,
    /// Answer the quiz: the cursor's cell is the one the search expands next.
    Answer,
    /// Let the mouse paint walls in the lab, or move the start and goal.
    TogglePaint,
    /// How the monsters plan: own A*, capped A*, one Dijkstra map, own JPS.
    CyclePlanning,
    /// Take the stairs down.
    Descend,
    /// Drink a healing potion.
    Drink,
    /// Close the open doors beside the player.
    CloseDoors,
    /// Use a tool: sound a lure, sow brush seeds, spike a door.
    UseTool(FeatureKind),
    /// Show only what the player sees, or the whole map.
    ToggleSight,
    /// Open or close the message history.
    History,
    /// Quit at once; asks first only when that would drop unsaved edits.
    Interrupt,
    /// Hand the terminal back to the shell (`fg` resumes).
    Suspend,
    /// The next help page.
    NextPage,
    /// The previous help page.
    PrevPage,
    /// Close the help or the message history.
    Close,
    /// Scroll the message history by messages: positive is older.
    Scroll(i8),
    /// Scroll the message history by pages: positive is older.
    ScrollPage(i8),
    /// To the oldest message (`true`) or the newest.
    ScrollEnd(bool),
    /// Rest until healed, or wait for something to happen (stops at anything new).
    Rest,
    /// Explore the unseen part of the floor (stops at anything new).
    Explore,
    /// Ask for a direction to attack in place, or (asked already) cancel.
    Attack,
    /// Attack the cell a king step away without moving.
    AttackToward(i32, i32),
    /// Answer yes.
    Yes,
    /// Answer no.
    No,
    /// Save the level file, then quit.
    SaveAndQuit,
    /// Take the file's version of a level changed on disk.
    TakeFile,
    /// Keep the game's version of a level changed on disk.
    KeepMine,
    /// Play or pause a replay.
    ReplayPause,
    /// One input of a replay on, paused.
    ReplayStep,
    /// Replay faster.
    ReplayFaster,
    /// Replay slower.
    ReplaySlower,
    /// Ask for a turn to jump to.
    ReplayJump,
    /// Back to the start of the replay.
    ReplayStart,
    /// Leave the replay viewer.
    ReplayQuit,
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
