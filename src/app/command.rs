//! The words of input: the parts of the game a key can apply in ([`Context`]), what the
//! player can ask for ([`Action`]) and the keys themselves ([`Key`]), with the names the
//! settings file and the scripts write them by. Each command is declared here once, with
//! its default keys and its words for the help and the hint bar ([`DECLARED`]). Every
//! other part of the app (the key table, the bindings, the screens) is built on these, and
//! these on nothing of the app but the editor's tool names.

use crossterm::event::{KeyCode, KeyCode as K, KeyEvent, KeyModifiers};

use super::tools::Tool;
use crate::content::level::FeatureKind;
use crate::content::level::design::Side;
use crate::content::map::Tile;

/// Where a binding applies. Each screen consults a few contexts, most specific first
/// ([`crate::app::App::contexts`]), and nothing else: a key that none of them binds does
/// nothing there. Declared (and ordered) as the key table lists its rows, which the
/// settings file's actions and the order a clash names them in follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
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
    /// After `F`, waiting for the direction of an attack in place.
    Aim,
    /// While a long turn is being worked out (the terminal's busy box).
    Busy,
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

    /// The heading of this context on the help screen; the player's key that leads there
    /// ([`Context::entered_by`]) follows it (`Search overlay (o)`).
    pub fn title(self) -> &'static str {
        match self {
            Context::Always => "Anywhere",
            Context::Global => "Play, look, edit, lab",
            Context::Play => "Playing",
            Context::Overlay => "Search overlay",
            Context::Look => "Look mode",
            Context::Edit => "Edit mode",
            Context::Monster => "Edit: monster",
            Context::Resize => "Edit: resize",
            Context::Lab => "Search lab",
            Context::Help => "This help",
            Context::History => "Messages",
            Context::Confirm => "Questions",
            Context::Busy => "While a turn works",
            Context::Aim => "Attack in place",
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

/// A part of a row of the key table as declared: a command's default keys in one context
/// and the row of the help (and of the hint bar) they show in there, or a note's words for
/// a row with no keys of its own.
#[derive(Debug, Clone, Copy)]
pub struct Declared {
    /// Where the keys apply.
    pub context: Context,
    /// The place of its row among its context's rows (the help lists them by it, and so
    /// do the hint bar and the settings file). Commands that share a row (the opposites
    /// `[ ]`) give it the same number, and their keys go in the order they are declared.
    pub row: u16,
    /// Each key with the command it gives: one command, or for a command with fields
    /// (the moves, the tiles) its instances.
    pub keys: &'static [(Key, Action)],
    /// The row's words, given by one of the commands that share it.
    pub words: Option<Words>,
    /// What these keys do, in the settings file's comment, where the row's help words
    /// several commands at once (`select next / prev foe`); else the row's help is.
    pub file: Option<&'static str>,
}

/// The words of a row of the help and the hint bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Words {
    /// The keys as the help shows them (a test holds it to name every key of the row).
    pub label: &'static str,
    /// What the keys do, on the help screen.
    pub help: &'static str,
    /// What the hint bar shows for them, if anything (`o search`).
    pub hint: &'static str,
}

/// Declares every command once: its doc, its variant of [`Action`] (with its fields), its
/// name in the settings file (a string, or for a command with fields a function of them)
/// and, after `=>`, its default keys in each context it is bound in, with the help's and
/// the hint bar's words. From these come `Action`, [`Action::name`] and [`DECLARED`], which
/// the key table (`keymap`) sorts into the help's rows.
///
/// A binding is `Context ROW [keys] ("label", "help", "hint");`: the context, the row's
/// place among the context's rows, the keys (for a command with fields, each `key =>
/// (fields)`, or one of the layouts `straight`, `diagonal` and `numpad`, which moving and
/// aiming an attack share) and the row's words. A command that shares a row with one
/// declared before it (`]` beside `[`) gives the same context and row and no words; where
/// a row's help words several commands at once, each of them ends with `= "its words"`
/// for the settings file's comment.
macro_rules! commands {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident $(( $($field:ident: $ty:ty),+ ))? = $name:expr => {
            $( $ctx:ident $row:literal $keys:tt $(( $($words:tt)* ))? $(= $file:literal)? ; )*
        }
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

        /// Every command's default keys and words, in the order the commands are declared.
        pub const DECLARED: &[Declared] = &[
            $($(
                Declared {
                    context: Context::$ctx,
                    row: $row,
                    keys: commands!(@keys $variant $keys),
                    words: commands!(@words $(( $($words)* ))?),
                    file: commands!(@file $($file)?),
                },
            )*)*
        ];
    };
    (@name $name:expr) => {
        $name
    };
    (@name $name:expr, $($field:ident),+) => {
        $name($($field),+)
    };
    // The straight steps: vi keys, then arrows.
    (@keys $v:ident straight) => {
        &[
            (ch('h'), Action::$v(-1, 0)),
            (ch('j'), Action::$v(0, 1)),
            (ch('k'), Action::$v(0, -1)),
            (ch('l'), Action::$v(1, 0)),
            (code(K::Left), Action::$v(-1, 0)),
            (code(K::Down), Action::$v(0, 1)),
            (code(K::Up), Action::$v(0, -1)),
            (code(K::Right), Action::$v(1, 0)),
        ]
    };
    // The diagonal steps, vi keys.
    (@keys $v:ident diagonal) => {
        &[
            (ch('y'), Action::$v(-1, -1)),
            (ch('u'), Action::$v(1, -1)),
            (ch('b'), Action::$v(-1, 1)),
            (ch('n'), Action::$v(1, 1)),
        ]
    };
    // The numpad: digits, and Home, PgUp, End and PgDn for the diagonals.
    (@keys $v:ident numpad) => {
        &[
            (ch('4'), Action::$v(-1, 0)),
            (ch('2'), Action::$v(0, 1)),
            (ch('8'), Action::$v(0, -1)),
            (ch('6'), Action::$v(1, 0)),
            (ch('7'), Action::$v(-1, -1)),
            (ch('9'), Action::$v(1, -1)),
            (ch('1'), Action::$v(-1, 1)),
            (ch('3'), Action::$v(1, 1)),
            (code(K::Home), Action::$v(-1, -1)),
            (code(K::PageUp), Action::$v(1, -1)),
            (code(K::End), Action::$v(-1, 1)),
            (code(K::PageDown), Action::$v(1, 1)),
        ]
    };
    (@keys $v:ident [$($key:expr $(=> $fields:tt)?),* $(,)?]) => {
        &[$(($key, Action::$v $($fields)?)),*]
    };
    (@words) => {
        None
    };
    (@words ($label:expr, $help:expr, $hint:expr)) => {
        Some(Words {
            label: $label,
            help: $help,
            hint: $hint,
        })
    };
    (@file) => {
        None
    };
    (@file $file:literal) => {
        Some($file)
    };
}

commands! {
    /// Move (or move the cursor) by a king step.
    Move(dx: i32, dy: i32) = move_name => {
        Global 10 straight ("←↓↑→ hjkl", "move W S N E", "");
        Global 20 diagonal ("y u b n", "move NW NE SW SE", "");
        Global 30 numpad ("numpad 1-9", "move; Home PgUp End PgDn", "");
    }
    /// Let a turn pass.
    Wait = "wait" => {
        Play 20 [ch('.'), ch('5')] (". 5", "wait a turn", ". wait");
    }
    /// Show or hide the help screen.
    Help = "help" => {
        Global 40 [ch('?')] ("?", "this help", "? help");
    }
    /// Select the next monster.
    NextMonster = "next_monster" => {
        Play 130 [code(K::Tab)] ("Tab S-Tab", "select next / prev foe", "") = "select next foe";
    }
    /// Select the previous monster.
    PrevMonster = "prev_monster" => {
        Play 130 [code(K::BackTab)] = "select prev foe";
    }
    /// Quit (asks while a game is in progress).
    Quit = "quit" => {
        Play 250 [ch('q')] ("q", "quit (asks mid-game)", "q quit");
        // The playing quit key (`config::followed`).
        Busy 10 [ch('q')] ("q", "quit (asks)", "");
    }
    /// Start the level again.
    Restart = "restart" => {
        Play 230 [ch('r')] ("r", "restart the run (asks)", "");
    }
    /// Give the run up (asks).
    Abandon = "abandon" => {
        Play 240 [ch('Q')] ("Q", "abandon the run (asks)", "");
    }
    /// Show or hide the search overlay.
    ToggleOverlay = "overlay" => {
        Play 150 [ch('o')] ("o", "search overlay with F G H", "o search");
        Look 40 [ch('o')] ("o", "leave; overlay on / off", "");
    }
    /// Show or hide the selected monster's planned path.
    TogglePath = "path" => {
        Play 140 [ch('p')] ("p", "show selected foe's path", "");
    }
    /// Enter or leave look mode.
    Look = "look" => {
        Play 160 [ch('x')] ("x", "look mode", "x look");
        Look 20 [ch('x'), ch('q')] ("x q", "leave look mode", "x q Esc leave");
    }
    /// Travel to the look cursor's cell, one step a turn (as a click there does in play).
    TravelTo = "travel_to" => {
        Look 30 [code(K::Enter)] ("Enter", "travel to the cell", "Enter go");
    }
    /// Enter or leave edit mode.
    Edit = "edit" => {
        Play 180 [ch('e')] ("e", "edit mode", "");
        Edit 340 [ch('e')] ("e", "leave edit mode", "e done");
    }
    /// Leave the current mode.
    Back = "back" => {
        Global 50 [code(K::Esc)] ("Esc", "leave look, edit or lab", "");
        Monster 30 [code(K::Esc), ch('m')] ("Esc m", "place none", "Esc none");
    }
    /// Save the level.
    Save = "save" => {
        Play 190 [ch('s'), ctrl('s')] ("s C-s", "save the level file", "");
        Edit 300 [ch('s'), ctrl('s')] ("s C-s", "save the level file", "s save");
    }
    /// Generate a new level with the next seed (and, after a generated one, the next kind).
    NewLevel = "new_level" => {
        Play 200 [ch('G')] ("G", "generate a new level", "");
    }
    /// One expansion back.
    StepBack = "step_back" => {
        Overlay 10 [ch('[')] ("[ ]", "one expansion back / on", "[ ] step") = "one expansion back";
    }
    /// One expansion forward.
    StepForward = "step_forward" => {
        Overlay 10 [ch(']')] = "one expansion on";
    }
    /// To the first expansion.
    StepStart = "step_first" => {
        Overlay 20 [ch('{')] ("{ }", "first / last expansion", "{ } ends") = "first expansion";
    }
    /// To the finished search.
    StepEnd = "step_last" => {
        Overlay 20 [ch('}')] = "last expansion";
    }
    /// Start or stop autoplay.
    Autoplay = "autoplay" => {
        Overlay 30 [ch('a')] ("a", "autoplay: play / pause", "a play");
    }
    /// Autoplay faster.
    Faster = "faster" => {
        Overlay 40 [ch('+')] ("+ -", "autoplay faster / slower", "+- speed") = "autoplay faster";
    }
    /// Autoplay slower.
    Slower = "slower" => {
        Overlay 40 [ch('-')] = "autoplay slower";
    }
    /// Next neighbourhood rule.
    CycleNeighbourhood = "neighbours" => {
        Overlay 50 [ch('N')] ("N", "neighbours: 8, 8cut, 4", "N H W B options");
    }
    /// Next heuristic.
    CycleHeuristic = "heuristic" => {
        Overlay 60 [ch('H')] ("H", "heuristic: octile..zero", "");
    }
    /// Next weight on H.
    CycleWeight = "weight" => {
        Overlay 70 [ch('W')] ("W", "weight on H: 1 to 5", "");
    }
    /// Back to the default search options.
    ResetOptions = "reset_options" => {
        Overlay 100 [ch('D')] ("D", "default search options", "D reset");
    }
    /// Put a tile under the cursor; in the editor, end the shape under way with it.
    PutTile(tile: Tile) = tile_setting => {
        Edit 30 [ch('w') => (Tile::Wall)] ("w", "wall (ends a shape)", "w . v tile");
        Edit 40 [
            ch('.') => (Tile::Floor), ch('f') => (Tile::Floor),
        ] (". f", "floor (ends a shape)", "");
        Edit 50 [ch('v') => (Tile::Void)] ("v", "void (ends a shape)", "");
        Edit 60 [ch('~') => (Tile::Water)] ("~", "put water (weight 3)", "");
        Edit 70 [ch('"') => (Tile::Brush)] ("\"", "put brush (weight 2)", "");
        Edit 80 [ch('+') => (Tile::DoorClosed)] ("+", "put a closed door", "");
        Edit 90 [ch('\'') => (Tile::DoorOpen)] ("'", "put an open door", "");
        Edit 100 [ch('=') => (Tile::DoorJammed)] ("=", "put a jammed door", "");
        Lab 50 [ch('w') => (Tile::Wall)] ("w", "put a wall", "w wall");
        Lab 60 [ch('.') => (Tile::Floor)] (".", "put floor", "");
        Lab 70 [ch('~') => (Tile::Water)] ("~", "put water (weight 3)", "");
        Lab 80 [ch('"') => (Tile::Brush)] ("\"", "put brush (weight 2)", "");
    }
    /// Swap wall and floor under the cursor.
    ToggleTile = "swap_tile" => {
        Edit 110 [ch(' ')] ("Space", "swap wall and floor", "Space swap");
        Lab 90 [ch(' ')] ("Space", "swap wall and floor", "");
    }
    /// Start a shape (or a copy) at the cursor; a second time, end it with the glyph.
    Tool(tool: Tool) = tool_setting => {
        Edit 120 [ch('r') => (Tool::Rect)] ("r", "rectangle from here", "r rect");
        Edit 130 [ch('a') => (Tool::Box)] ("a", "filled rectangle (area)", "a area");
        Edit 140 [ch('/') => (Tool::Line)] ("/", "straight line from here", "/ line");
        Edit 150 [ch('F') => (Tool::Fill)] ("F", "flood fill, then a tile", "F fill");
        Edit 170 [ch('c') => (Tool::Copy)] ("c", "copy: corner, c again", "c copy");
    }
    /// End the shape under way with the glyph, or put the glyph under the cursor.
    Finish = "finish" => {
        Edit 160 [code(K::Enter)] ("Enter", "end shape with the glyph", "Enter end");
    }
    /// Lay the copied region with its top-left corner at the cursor.
    Paste = "paste" => {
        Edit 180 [ch('p')] ("p", "paste at the cursor", "p paste");
    }
    /// Wait for a monster's letter, to place one.
    MonsterPrefix = "monster" => {
        Edit 190 [ch('m')] ("m", "monster: m, its letter", "m monster");
    }
    /// Place a monster of this kind under the cursor.
    PlaceKind(kind: char) = crate::content::kinds::builtin_name => {
        Monster 10 [
            ch('r') => ('r'), ch('k') => ('k'), ch('g') => ('g'), ch('b') => ('b'),
        ] ("r k g b", "rat kobold goblin bat", "r k g b o n d t kind");
        Monster 20 [
            ch('o') => ('o'), ch('n') => ('n'), ch('d') => ('d'), ch('t') => ('t'),
        ] ("o n d t", "orc naga dwarf troll", "");
    }
    /// Start or end resizing the map.
    ResizePrefix = "resize" => {
        Edit 270 [ch('Z')] ("Z", "resize the map", "Z resize");
        Resize 40 [
            code(K::Esc), code(K::Enter), ch('Z'),
        ] ("Esc Enter Z", "done resizing", "Esc done");
    }
    /// Grow (positive) or crop (negative) the map at a side by one cell.
    Resize(side: Side, by: i8) = resize_name => {
        // Growing a side takes the move keys toward it, as aiming does (`config::followed`):
        // these rows are the moves' keys in the moves' order, and a test holds them equal.
        Resize 10 [
            ch('h') => (Side::Left, 1), ch('j') => (Side::Bottom, 1), ch('k') => (Side::Top, 1),
            ch('l') => (Side::Right, 1), code(K::Left) => (Side::Left, 1),
            code(K::Down) => (Side::Bottom, 1), code(K::Up) => (Side::Top, 1),
            code(K::Right) => (Side::Right, 1),
        ] ("←↓↑→ hjkl", "grow that side by one", "hjkl grow");
        Resize 20 [
            ch('4') => (Side::Left, 1), ch('2') => (Side::Bottom, 1), ch('8') => (Side::Top, 1),
            ch('6') => (Side::Right, 1),
        ] ("numpad 4286", "grow, as the moves", "");
        Resize 30 [
            ch('H') => (Side::Left, -1), ch('L') => (Side::Right, -1), ch('K') => (Side::Top, -1),
            ch('J') => (Side::Bottom, -1),
        ] ("H L K J", "crop that side by one", "HJKL crop");
    }
    /// Make a blank floor below this one, named by a `next:` header.
    FloorBelow = "floor_below" => {
        Edit 310 [ch('N')] ("N", "new floor below (next:)", "N floor below");
    }
    /// Go to the designed floor below, to edit it.
    FloorDown = "floor_down" => {
        Edit 320 [ch(']')] ("] [", "edit floor below / above", "] [ floors") = "edit floor below";
    }
    /// Go to the designed floor above, to edit it.
    FloorUp = "floor_up" => {
        Edit 320 [ch('[')] = "edit floor above";
    }
    /// Start a new run on a blank level.
    BlankLevel = "blank_level" => {
        Play 210 [ctrl('n')] ("C-n", "new blank level to edit", "");
        Edit 330 [ctrl('n')] ("C-n", "new blank level", "C-n blank");
    }
    /// Delete the monster, or else the stairs or potion, under the cursor.
    Delete = "delete" => {
        Edit 200 [ch('d'), code(K::Delete)] ("d Delete", "delete a monster or item", "d del");
    }
    /// Lay stairs or a potion under the cursor.
    PlaceFeature(kind: FeatureKind) = place_name => {
        Edit 210 [ch('>') => (FeatureKind::Stairs)] (">", "lay stairs down here", "> stairs");
        Edit 220 [ch('!') => (FeatureKind::Potion)] ("!", "lay a healing potion here", "! potion");
        Edit 230 [ch('&') => (FeatureKind::Lure)] ("&", "lay a lure here", "");
        Edit 240 [ch(',') => (FeatureKind::Seeds)] (",", "lay brush seeds here", "");
        Edit 250 [ch(')') => (FeatureKind::Spike)] (")", "lay a spike here", "");
    }
    /// Move the player here.
    MovePlayer = "player" => {
        Edit 260 [ch('@')] ("@", "move the player here", "@ player");
    }
    /// Undo the last edit.
    Undo = "undo" => {
        Edit 280 [ch('U'), ctrl('z')] ("U C-z", "undo", "U/R undo/redo");
    }
    /// Redo the last undone edit.
    Redo = "redo" => {
        Edit 290 [ch('R'), ctrl('y')] ("R C-y", "redo", "");
    }
    /// Switch greedy best-first search on or off.
    ToggleGreedy = "greedy" => {
        Overlay 80 [ch('B')] ("B", "greedy best-first on/off", "");
    }
    /// Show the next whole-map layer (states, G, H, F, parents).
    CycleLayer = "layer" => {
        Overlay 110 [ch('v')] ("v", "cycle states G H F ↑ cost", "v layer");
    }
    /// Let the inspector follow the node being expanded, or not.
    ToggleFollow = "follow" => {
        Overlay 120 [ch('f')] ("f", "inspector follows steps", "");
    }
    /// Open or leave the search lab.
    Lab = "lab" => {
        Play 170 [ch('L')] ("L", "search lab", "");
        Lab 170 [ch('L'), code(K::Esc)] ("L Esc", "leave the lab", "L leave");
    }
    /// Put the lab's start at the cursor.
    SetStart = "start" => {
        Lab 30 [ch('s')] ("s", "start at the cursor", "s start");
    }
    /// Put the lab's goal at the cursor.
    SetGoal = "goal" => {
        Lab 40 [ch('g')] ("g", "goal at the cursor", "g goal");
    }
    /// Compare with a second search side by side (none, Dijkstra, weight 2, 4-way, greedy).
    CycleCompare = "compare" => {
        Lab 110 [ch('c')] ("c", "compare side by side", "c compare");
    }
    /// Next tie rule of the search: lower H, LIFO, FIFO.
    CycleTies = "ties" => {
        Overlay 90 [ch('T')] ("T", "ties: lower H, LIFO, FIFO", "");
    }
    /// Set the other tie rules beside the lab's search, one after the other.
    CompareTies = "compare_ties" => {
        Lab 120 [ch('O')] ("O", "other tie orders beside", "O ties");
    }
    /// Search the lab's query as a kind of monster does: every kind in turn, then plain.
    LabKind = "lab_kind" => {
        Lab 130 [ch('m')] ("m", "search as a monster kind", "m kind");
    }
    /// Set a kind of monster's search beside the lab's: every kind in turn, then none.
    CompareKind = "compare_kind" => {
        Lab 140 [ch('M')] ("M", "a monster kind beside", "M beside");
    }
    /// Start or stop the lab's quiz: predict each expansion.
    Quiz = "quiz" => {
        Lab 150 [ch('Q')] ("Q", "quiz: predict each step", "Q quiz");
    }
    /// Answer the quiz: the cursor's cell is the one the search expands next.
    Answer = "answer" => {
        Lab 160 [code(K::Enter)] ("Enter", "answer: cursor is next", "Enter answer");
    }
    /// Let the mouse paint walls in the lab, or move the start and goal.
    TogglePaint = "paint" => {
        Lab 100 [ch('e')] ("e", "mouse: paint or set ends", "e paint");
    }
    /// How the monsters plan: own A*, capped A*, one Dijkstra map, own JPS.
    CyclePlanning = "planning" => {
        Play 220 [ch('P')] ("P", "planning: A*/cap/map/JPS", "");
    }
    /// Take the stairs down.
    Descend = "descend" => {
        Play 60 [ch('>')] (">", "stairs: take, or go to", "");
    }
    /// Drink a healing potion.
    Drink = "drink" => {
        Play 70 [ch('!')] ("!", "drink a healing potion", "");
    }
    /// Close the open doors beside the player.
    CloseDoors = "close_doors" => {
        Play 80 [ch('C')] ("C", "close doors beside you", "");
    }
    /// Use a tool: sound a lure, sow brush seeds, spike a door.
    UseTool(kind: FeatureKind) = use_name => {
        Play 90 [ch('&') => (FeatureKind::Lure)] ("&", "sound a lure here", "");
        Play 100 [ch('"') => (FeatureKind::Seeds)] ("\"", "sow brush around you", "");
        Play 110 [ch(')') => (FeatureKind::Spike)] (")", "spike a closed door shut", "");
    }
    /// Show only what the player sees, or the whole map.
    ToggleSight = "sight" => {
        Play 120 [ch('V')] ("V", "sight / whole map", "");
    }
    /// Open or close the message history.
    History = "history" => {
        Global 60 [ctrl('p')] ("C-p", "message history", "");
    }
    /// Quit at once; asks first only when that would drop unsaved edits.
    Interrupt = "interrupt" => {
        Always 10 [ctrl('c')] ("C-c", "quit; asks if unsaved", "");
    }
    /// Hand the terminal back to the shell (`fg` resumes).
    Suspend = "suspend" => {
        Always 20 [ctrl('z')] ("C-z", "suspend; fg resumes", "");
    }
    /// The next help page.
    NextPage = "next_page" => {
        Help 10 [
            ch(' '), code(K::PageDown), code(K::Down), code(K::Right),
        ] ("Space PgDn", "next page (also ↓ →)", "PgDn next");
    }
    /// The previous help page.
    PrevPage = "prev_page" => {
        Help 20 [
            code(K::PageUp), code(K::Up), code(K::Left),
        ] ("PgUp", "previous page (also ↑ ←)", "");
    }
    /// Close the help or the message history.
    Close = "close" => {
        Help 30 [
            code(K::Esc), ch('?'), ch('q'), code(K::Enter),
        ] ("Esc ? q", "close (also Enter)", "Esc close");
        History 40 [
            code(K::Esc), ctrl('p'), ch('q'),
        ] ("Esc C-p q", "close the messages", "Esc close");
    }
    /// Scroll the message history by messages: positive is older.
    Scroll(by: i8) = scroll_name => {
        // Scrolling takes the moves north and south (`config::followed`), in their order.
        History 10 [ch('k') => (1), code(K::Up) => (1), ch('8') => (1)] (
            "↑↓ k j 8 2", "older / newer message", "↑↓ PgUp PgDn scroll"
        ) = "older message";
        History 10 [ch('j') => (-1), code(K::Down) => (-1), ch('2') => (-1)] = "newer message";
    }
    /// Scroll the message history by pages: positive is older.
    ScrollPage(by: i8) = scroll_page_name => {
        History 20 [code(K::PageUp) => (1)] ("PgUp PgDn", "older / newer page", "") = "older page";
        History 20 [code(K::PageDown) => (-1)] = "newer page";
    }
    /// To the oldest message (`true`) or the newest.
    ScrollEnd(oldest: bool) = scroll_end_name => {
        History 30 [code(K::Home) => (true)] ("Home End", "oldest / newest", "") = "oldest";
        History 30 [code(K::End) => (false)] = "newest";
    }
    /// Rest until healed, or wait for something to happen (stops at anything new).
    Rest = "rest" => {
        Play 30 [ch('Z')] ("Z", "rest, or await foes", "Z rest");
    }
    /// Explore the unseen part of the floor (stops at anything new).
    Explore = "explore" => {
        Play 40 [ch('X')] ("X", "explore the unseen", "X explore");
    }
    /// Ask for a direction to attack in place, or (asked already) cancel.
    Attack = "attack" => {
        Play 50 [ch('F')] ("F", "attack in place: F, a way", "");
        Aim 40 [ch('F'), code(K::Esc)] ("F Esc", "cancel the attack", "F Esc cancel");
    }
    /// Attack the cell a king step away without moving.
    AttackToward(dx: i32, dy: i32) = attack_name => {
        // The moves' layout: unless the settings bind them, the attacks take the player's
        // move keys (`config::followed`), and a test holds the two equal.
        Aim 10 straight ("←↓↑→ hjkl", "attack W S N E", "hjklyubn attack");
        Aim 20 diagonal ("y u b n", "attack NW NE SW SE", "");
        Aim 30 numpad ("numpad 1-9", "hit; Home PgUp End PgDn", "");
    }
    /// Answer yes.
    Yes = "yes" => {
        Confirm 10 [ch('y'), ch('Y')] ("y", "yes", "");
        // The questions' yes (`config::followed`).
        Busy 20 [ch('y'), ch('Y')] ("y", "yes, quit", "");
    }
    /// Answer no.
    No = "no" => {
        Confirm 20 [ch('n'), ch('N'), code(K::Esc)] ("n Esc", "no", "");
    }
    /// Save the level file, then quit.
    SaveAndQuit = "save_and_quit" => {
        Confirm 30 [ch('s'), ch('S')] ("s", "save the level, then quit", "");
    }
    /// Take the file's version of a level changed on disk.
    TakeFile = "take_file" => {
        Confirm 40 [ch('f'), ch('F')] ("f", "take the file's version", "");
    }
    /// Keep the game's version of a level changed on disk.
    KeepMine = "keep_mine" => {
        Confirm 50 [ch('k'), ch('K')] ("k", "keep the game's version", "");
    }
    /// Play or pause a replay.
    ReplayPause = "pause" => {
        Replay 10 [ch(' ')] ("Space", "play / pause", "Space play/pause");
    }
    /// One input of a replay on, paused.
    ReplayStep = "step" => {
        Replay 20 [ch('.')] (".", "one input on", ". step");
    }
    /// Replay faster.
    ReplayFaster = "replay_faster" => {
        Replay 30 [ch('+')] ("+ -", "faster / slower", "+- speed") = "faster";
    }
    /// Replay slower.
    ReplaySlower = "replay_slower" => {
        Replay 30 [ch('-')] = "slower";
    }
    /// Ask for a turn to jump to.
    ReplayJump = "jump_to_turn" => {
        Replay 40 [ch('g')] ("g", "jump to a turn (type it)", "g turn");
    }
    /// Back to the start of the replay.
    ReplayStart = "replay_start" => {
        Replay 50 [ch('0')] ("0", "back to the start", "0 start");
    }
    /// Leave the replay viewer.
    ReplayQuit = "leave_replay" => {
        Replay 60 [ch('q')] ("q", "leave the replay", "q quit");
    }
}

/// A king step and its names: in the file, as a move and as an attack in place, and the
/// way it goes, in the file's comments.
pub(super) struct Way {
    /// The step, as `(dx, dy)`.
    pub step: (i32, i32),
    /// The move's name in the file (`move_w`).
    move_name: &'static str,
    /// The attack in place's name in the file (`attack_w`).
    attack_name: &'static str,
    /// Where it goes (`west`).
    words: &'static str,
}

/// The eight steps, in the order the hint bar writes their keys (`hjklyubn move`).
pub(super) const COMPASS: [Way; 8] = [
    way((-1, 0), "move_w", "attack_w", "west"),
    way((0, 1), "move_s", "attack_s", "south"),
    way((0, -1), "move_n", "attack_n", "north"),
    way((1, 0), "move_e", "attack_e", "east"),
    way((-1, -1), "move_nw", "attack_nw", "north-west"),
    way((1, -1), "move_ne", "attack_ne", "north-east"),
    way((-1, 1), "move_sw", "attack_sw", "south-west"),
    way((1, 1), "move_se", "attack_se", "south-east"),
];

const fn way(
    step: (i32, i32),
    move_name: &'static str,
    attack_name: &'static str,
    words: &'static str,
) -> Way {
    Way {
        step,
        move_name,
        attack_name,
        words,
    }
}

/// A king step's names, `None` for what is not one.
fn compass(dx: i32, dy: i32) -> Option<&'static Way> {
    COMPASS.iter().find(|c| c.step == (dx, dy))
}

impl Action {
    /// What one of a row's several commands of one kind does, in the file's comments and
    /// the plain help (`move west`, `attack north-east`, `place a rat`): their row's words
    /// name them all at once. `None` for every other command, whose words are its row's.
    pub fn own_words(self) -> Option<String> {
        let (verb, (dx, dy)) = match self {
            Action::Move(dx, dy) => ("move", (dx, dy)),
            Action::AttackToward(dx, dy) => ("attack", (dx, dy)),
            Action::Resize(side, by) => {
                let verb = if by > 0 { "grow" } else { "crop" };
                return Some(format!("{verb} the {} side by one", side.name()));
            }
            Action::PlaceKind(kind) => {
                let name = crate::content::kinds::builtin_name(kind);
                return Some(format!("place {}", crate::content::kinds::a_name(name)));
            }
            _ => return None,
        };
        compass(dx, dy).map(|c| format!("{verb} {}", c.words))
    }
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
    compass(dx, dy).map_or("move", |c| c.move_name)
}

/// A king step's name in the file as an attack in place.
fn attack_name(dx: i32, dy: i32) -> &'static str {
    compass(dx, dy).map_or("attack_toward", |c| c.attack_name)
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

/// A character key.
pub const fn ch(c: char) -> Key {
    Key {
        code: KeyCode::Char(c),
        ctrl: false,
    }
}

/// A character key with Ctrl held.
pub const fn ctrl(c: char) -> Key {
    Key {
        code: KeyCode::Char(c),
        ctrl: true,
    }
}

/// A key by its code, without Ctrl.
pub const fn code(c: KeyCode) -> Key {
    Key {
        code: c,
        ctrl: false,
    }
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
