//! Creature kinds: what each monster letter of a level file stands for. One table holds
//! every trait of a kind, its search among them, so the rules, the planner, the generator,
//! the editor, the view and `astar-rogue kinds` agree.
//!
//! A kind's search is what makes it a kind: how it moves (4 or 8 neighbours), the weight on
//! H (F = G + w·H: above 1 it dives at you and can be led into a dead end), a cap on the
//! nodes it expands (it loses you behind enough walls and heads for the nearest cell its
//! search reached), and what entering each tile costs it, or that it cannot (see [`Costs`]).

pub mod own;

use crate::content::tile::{TerrainWeights, Tile};
use crate::engine::astar::{SearchOptions, Weight};
use crate::engine::grid::Neighbourhood;

/// A colour for drawing a kind, named here so that the content needs no terminal library.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hue {
    /// Yellow.
    Yellow,
    /// Green.
    Green,
    /// Red.
    Red,
    /// Magenta.
    Magenta,
    /// Cyan.
    Cyan,
    /// Blue.
    Blue,
    /// White.
    White,
}

/// How often a kind acts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Speed {
    /// Every other turn (on even turns).
    Slow,
    /// Once a turn.
    Normal,
    /// Twice a turn, planning afresh before each move.
    Fast,
}

impl Speed {
    /// Every speed, slowest first.
    pub const ALL: [Speed; 3] = [Speed::Slow, Speed::Normal, Speed::Fast];

    /// Its word in `kind` headers and in `astar-rogue kinds`: `slow`, `normal` or `fast`.
    pub fn word(self) -> &'static str {
        match self {
            Speed::Slow => "slow",
            Speed::Normal => "normal",
            Speed::Fast => "fast",
        }
    }

    /// How it is named in look mode and on the panel (empty for normal speed).
    pub fn name(self) -> &'static str {
        match self {
            Speed::Slow => "slow",
            Speed::Normal => "",
            Speed::Fast => "fast",
        }
    }
}

/// What entering one kind of tile costs a kind: the step's base cost (10 straight, 14
/// diagonal) times a number, or nothing because it cannot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cost {
    /// It cannot enter.
    Never,
    /// The level's weight for that terrain (floor 1, water 3, brush 2 unless the level
    /// says otherwise): what the player pays too.
    Terrain,
    /// This many times the step, whatever the level says.
    Times(u8),
}

/// What entering each tile costs a kind. A cost is also time: a step into a cell of cost k
/// takes k turns (the step, and k − 1 turns held there wading, opening or digging).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Costs {
    /// Floor, and open doors.
    pub floor: Cost,
    /// Shallow water.
    pub water: Cost,
    /// Brush.
    pub brush: Cost,
    /// A closed door, which it opens by stepping in.
    pub door: Cost,
    /// A wall inside the map (never its outer edge), or a jammed door, which becomes floor
    /// as it digs in.
    pub wall: Cost,
}

impl Costs {
    /// The player's costs and a plain monster's: the level's terrain, a closed door opened
    /// in one turn and entered in the next, no walls.
    pub const PLAIN: Costs = Costs {
        floor: Cost::Terrain,
        water: Cost::Terrain,
        brush: Cost::Terrain,
        door: Cost::Times(2),
        wall: Cost::Never,
    };

    /// What entering `tile` costs under these costs on a level of `weights`: 0 where it
    /// cannot. `edge` says the cell is on the map's outer edge, which nobody digs through.
    pub fn of(&self, tile: Tile, weights: TerrainWeights, edge: bool) -> u8 {
        let (cost, terrain) = match tile {
            Tile::Floor | Tile::DoorOpen => (self.floor, Tile::Floor),
            Tile::Water => (self.water, Tile::Water),
            Tile::Brush => (self.brush, Tile::Brush),
            Tile::DoorClosed => (self.door, Tile::Floor),
            Tile::Wall | Tile::DoorJammed if !edge => (self.wall, Tile::Wall),
            Tile::Wall | Tile::DoorJammed | Tile::Void => return 0,
        };
        match cost {
            Cost::Never => 0,
            Cost::Terrain => weights.cost(terrain).max(1),
            Cost::Times(n) => n,
        }
    }

    /// The engine's cost of every tile, in [`Tile::ALL`] order, for the middle of the map
    /// (walls on the edge cost 0 whatever this says): what a map's cost grid is made from.
    pub fn table(&self, weights: TerrainWeights) -> CostTable {
        CostTable(Tile::ALL.map(|t| self.of(t, weights, false)))
    }
}

/// What entering each tile costs, in [`Tile::ALL`] order (0: cannot), on the map's inside;
/// a wall on the map's outer edge costs 0 under every table. Two kinds with one table
/// search the same grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CostTable(pub [u8; Tile::COUNT]);

impl CostTable {
    /// The cost of `tile`, on the edge of the map or not.
    #[inline]
    pub fn get(&self, tile: Tile, edge: bool) -> u8 {
        if edge && tile == Tile::Wall {
            0
        } else {
            self.0[tile as usize]
        }
    }
}

/// How a kind searches (see the module's words).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Search {
    /// 4 or 8 neighbours (8 without corner cutting).
    pub moves: Neighbourhood,
    /// The weight on H in thousandths: 1000 is plain A*.
    pub weight_millis: u32,
    /// The most nodes one search may expand, if capped.
    pub cap: Option<u32>,
    /// What entering each tile costs it.
    pub costs: Costs,
}

impl Search {
    /// Plain A* on 8 neighbours, uncapped, at the player's costs.
    pub const PLAIN: Search = Search {
        moves: Neighbourhood::Eight,
        weight_millis: 1000,
        cap: None,
        costs: Costs::PLAIN,
    };

    /// The options this kind searches with, over the game's `base` options (the overlay's
    /// and the command line's): its own moves when it moves 4-way, its own weight when not
    /// plain, and the smaller of the two caps.
    pub fn options(&self, base: SearchOptions) -> SearchOptions {
        let mut o = base;
        if self.moves == Neighbourhood::Four {
            o = o.with_neighbourhood(Neighbourhood::Four);
        }
        if self.weight_millis != 1000 {
            o = o.with_weight(Weight::from_millis(self.weight_millis));
        }
        if let Some(cap) = self.cap {
            o = o.with_cap(Some(base.cap.map_or(cap, |c| c.min(cap))));
        }
        o
    }

    /// The weight on H.
    pub fn weight(&self) -> Weight {
        Weight::from_millis(self.weight_millis)
    }

    /// How it differs from plain A* at the player's costs, in a few words: `moves 4-way;
    /// swims; cannot open doors`, or `plain A*; opens doors`.
    pub fn words(&self) -> String {
        let mut parts = Vec::new();
        if self.moves == Neighbourhood::Four {
            parts.push("moves 4-way".to_string());
        }
        if self.weight_millis != 1000 {
            parts.push(format!("weighted search, F = G + {}H", self.weight()));
        }
        if let Some(cap) = self.cap {
            parts.push(format!("its search stops at {cap} nodes"));
        }
        if parts.is_empty() {
            parts.push("plain A*".to_string());
        }
        let c = self.costs;
        for (cost, name, free, never) in [
            (c.floor, "floor", "", "keeps off floor"),
            (c.water, "water", "swims", "keeps out of water"),
            (c.brush, "brush", "tramples brush", "keeps out of brush"),
        ] {
            match cost {
                Cost::Terrain => {}
                Cost::Never => parts.push(never.to_string()),
                Cost::Times(1) if !free.is_empty() => parts.push(free.to_string()),
                Cost::Times(n) => parts.push(format!("{name} costs it {n}")),
            }
        }
        parts.push(match c.door {
            Cost::Never => "cannot open doors".to_string(),
            Cost::Terrain | Cost::Times(2) => "opens doors".to_string(),
            Cost::Times(n) => format!("opens doors in {n} turns"),
        });
        if let Cost::Times(n) = c.wall {
            parts.push(format!("digs through walls, {n} turns each"));
        }
        parts.join("; ")
    }
}

/// A kind's name: a word of at most [`Name::MAX`] bytes, kept inline so that a [`Kind`],
/// a level's own among them, stays `Copy` and is looked up every turn without allocating.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Name {
    bytes: [u8; Name::MAX],
    len: u8,
}

impl Name {
    /// The longest name, in bytes.
    pub const MAX: usize = 16;

    /// A name known when compiling.
    ///
    /// # Panics
    ///
    /// When `s` is longer than [`Name::MAX`] bytes (a constant that does not compile).
    pub const fn new(s: &str) -> Name {
        match Name::try_new(s) {
            Some(n) => n,
            None => panic!("a kind's name is at most 16 bytes"),
        }
    }

    /// `s` as a name, if it is short enough.
    pub const fn try_new(s: &str) -> Option<Name> {
        let b = s.as_bytes();
        if b.len() > Name::MAX {
            return None;
        }
        let mut bytes = [0; Name::MAX];
        let mut i = 0;
        while i < b.len() {
            bytes[i] = b[i];
            i += 1;
        }
        Some(Name {
            bytes,
            len: b.len() as u8,
        })
    }

    /// The name as text.
    pub fn as_str(&self) -> &str {
        // Made only from whole `&str`s, so always UTF-8.
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or_default()
    }
}

impl std::ops::Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl std::fmt::Display for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // `pad`, so that `{:<7}` lines names up as it does a `&str`.
        f.pad(self.as_str())
    }
}

impl std::fmt::Debug for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// The fixed traits of a monster kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kind {
    /// The letter that stands for it in level files.
    pub glyph: char,
    /// Its name in messages.
    pub name: Name,
    /// Hit points at spawn.
    pub hp: i32,
    /// Smallest damage of one attack.
    pub min_damage: i32,
    /// Largest damage of one attack.
    pub max_damage: i32,
    /// How often it acts.
    pub speed: Speed,
    /// How it is drawn.
    pub hue: Hue,
    /// How often the generator draws it, relative to the others (0: never).
    pub spawn_weight: u32,
    /// The shallowest floor of a run the generator puts it on.
    pub depth: u32,
    /// How it searches for you.
    pub search: Search,
    /// What a player learns of it: how its search differs, in a few words (empty for a
    /// level's own kind: [`Kind::about`] words its search instead).
    pub lore: &'static str,
}

impl Kind {
    /// What a player learns of it: its lore, or for a level's own kind its search in words.
    pub fn about(&self) -> std::borrow::Cow<'static, str> {
        if self.lore.is_empty() {
            self.search.words().into()
        } else {
            self.lore.into()
        }
    }

    /// Whether it is one of the game's own kinds ([`KINDS`]), not a level's.
    pub fn is_builtin(&self) -> bool {
        KINDS.iter().any(|k| k.glyph == self.glyph)
    }
}

/// A door-opener's costs at the level's terrain: a closed door in two turns.
const OPENER: Costs = Costs::PLAIN;

/// A door-shy kind's: a closed door is a wall to it.
const DOOR_SHY: Costs = Costs {
    door: Cost::Never,
    ..Costs::PLAIN
};

/// The kinds with their own traits, weakest first (the order the editor offers them, and the
/// order in which deeper floors promote monsters); any other letter is a [`GENERIC`] creature.
pub const KINDS: [Kind; 8] = [
    Kind {
        glyph: 'r',
        name: Name::new("rat"),
        hp: 3,
        min_damage: 1,
        max_damage: 2,
        speed: Speed::Fast,
        hue: Hue::Yellow,
        spawn_weight: 6,
        depth: 1,
        search: Search {
            costs: DOOR_SHY,
            ..Search::PLAIN
        },
        lore: "fast; plain A*; cannot open doors",
    },
    Kind {
        glyph: 'k',
        name: Name::new("kobold"),
        hp: 4,
        min_damage: 1,
        max_damage: 3,
        speed: Speed::Normal,
        hue: Hue::Blue,
        spawn_weight: 4,
        depth: 1,
        search: Search {
            moves: Neighbourhood::Four,
            ..Search::PLAIN
        },
        lore: "moves 4-way, never diagonally: a diagonal step gains a turn on it",
    },
    Kind {
        glyph: 'g',
        name: Name::new("goblin"),
        hp: 6,
        min_damage: 1,
        max_damage: 3,
        speed: Speed::Normal,
        hue: Hue::Green,
        spawn_weight: 3,
        depth: 1,
        search: Search {
            costs: OPENER,
            ..Search::PLAIN
        },
        lore: "plain A*; opens doors",
    },
    Kind {
        glyph: 'b',
        name: Name::new("bat"),
        hp: 4,
        min_damage: 1,
        max_damage: 2,
        speed: Speed::Fast,
        hue: Hue::White,
        spawn_weight: 3,
        depth: 2,
        search: Search {
            cap: Some(40),
            costs: Costs {
                water: Cost::Times(1),
                brush: Cost::Times(1),
                ..DOOR_SHY
            },
            ..Search::PLAIN
        },
        lore: "fast, flies over water and brush; short-sighted: its search stops at 40 nodes",
    },
    Kind {
        glyph: 'o',
        name: Name::new("orc"),
        hp: 10,
        min_damage: 2,
        max_damage: 4,
        speed: Speed::Normal,
        hue: Hue::Red,
        spawn_weight: 2,
        depth: 2,
        search: Search {
            weight_millis: 1500,
            costs: OPENER,
            ..Search::PLAIN
        },
        lore: "weighted search, F = G + 1.5H: dives straight at you, into dead ends",
    },
    Kind {
        glyph: 'n',
        name: Name::new("naga"),
        hp: 8,
        min_damage: 2,
        max_damage: 3,
        speed: Speed::Normal,
        hue: Hue::Cyan,
        spawn_weight: 2,
        depth: 2,
        search: Search {
            costs: Costs {
                water: Cost::Times(1),
                ..OPENER
            },
            ..Search::PLAIN
        },
        lore: "swims: water costs it as floor does",
    },
    Kind {
        glyph: 'd',
        name: Name::new("dwarf"),
        hp: 9,
        min_damage: 2,
        max_damage: 4,
        speed: Speed::Normal,
        hue: Hue::Yellow,
        spawn_weight: 1,
        depth: 3,
        search: Search {
            costs: Costs {
                wall: Cost::Times(6),
                ..OPENER
            },
            ..Search::PLAIN
        },
        lore: "tunnels: a wall costs it 6 and becomes floor behind it",
    },
    Kind {
        glyph: 't',
        name: Name::new("troll"),
        hp: 16,
        min_damage: 3,
        max_damage: 6,
        speed: Speed::Slow,
        hue: Hue::Magenta,
        spawn_weight: 1,
        depth: 3,
        search: Search {
            costs: Costs {
                brush: Cost::Times(1),
                door: Cost::Times(3),
                ..Costs::PLAIN
            },
            ..Search::PLAIN
        },
        lore: "slow; tramples brush; smashes doors in three turns",
    },
];

/// The traits of a letter without a kind of its own.
pub const GENERIC: Kind = Kind {
    glyph: '?',
    name: Name::new("creature"),
    hp: 5,
    min_damage: 1,
    max_damage: 3,
    speed: Speed::Normal,
    hue: Hue::Cyan,
    spawn_weight: 0,
    depth: 1,
    search: Search::PLAIN,
    lore: "plain A*; opens doors",
};

/// The game's own kind a monster letter stands for, or a plain creature: what a letter means
/// on a level that defines no kinds of its own (a level's are in its [`own::Kinds`]).
pub fn builtin(glyph: char) -> Kind {
    KINDS
        .iter()
        .copied()
        .find(|k| k.glyph == glyph)
        .unwrap_or(Kind { glyph, ..GENERIC })
}

/// The name of the game's own kind of `glyph` ("creature" for any other letter), for as long
/// as the program runs: what the settings file calls the editor's key that places it.
pub fn builtin_name(glyph: char) -> &'static str {
    let all: &'static [Kind] = &KINDS;
    let generic: &'static Kind = &GENERIC;
    all.iter()
        .find(|k| k.glyph == glyph)
        .unwrap_or(generic)
        .name
        .as_str()
}

/// `a goblin`, `an orc`: a kind's name with its indefinite article.
pub fn a_name(name: &str) -> String {
    let article = if name.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {name}")
}

/// `n` monsters of a kind, by its name, in words: `a goblin`, `two rats`, `12 orcs`.
pub fn some_of(name: &str, n: usize) -> String {
    const WORDS: [&str; 9] = [
        "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ];
    if n == 1 {
        return a_name(name);
    }
    let plural = if let Some(stem) = name.strip_suffix('f') {
        format!("{stem}ves")
    } else if name.ends_with(['s', 'x']) || name.ends_with("ch") || name.ends_with("sh") {
        format!("{name}es")
    } else {
        format!("{name}s")
    };
    match WORDS.get(n.wrapping_sub(2)) {
        Some(word) => format!("{word} {plural}"),
        None => format!("{n} {plural}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn some_of_counts_in_words_and_plurals() {
        assert_eq!(some_of("goblin", 1), "a goblin");
        assert_eq!(some_of("orc", 1), "an orc");
        assert_eq!(some_of("rat", 2), "two rats");
        assert_eq!(some_of("dwarf", 3), "three dwarves");
        assert_eq!(some_of("troll", 10), "ten trolls");
        assert_eq!(some_of("kobold", 11), "11 kobolds");
    }

    #[test]
    fn names_take_a_or_an() {
        assert_eq!(super::a_name("orc"), "an orc");
        assert_eq!(super::a_name("goblin"), "a goblin");
    }

    #[test]
    fn costs_follow_the_level_unless_the_kind_has_its_own() {
        let w = TerrainWeights::DEFAULT;
        let plain = Costs::PLAIN;
        assert_eq!(plain.of(Tile::Water, w, false), 3);
        assert_eq!(plain.of(Tile::DoorClosed, w, false), 2);
        assert_eq!(plain.of(Tile::DoorOpen, w, false), 1);
        assert_eq!(plain.of(Tile::Wall, w, false), 0);
        let heavy = w.with(Tile::Water, 7).unwrap();
        assert_eq!(plain.of(Tile::Water, heavy, false), 7);
        let naga = builtin('n').search.costs;
        assert_eq!(naga.of(Tile::Water, heavy, false), 1);
        let dwarf = builtin('d').search.costs;
        assert_eq!(
            (
                dwarf.of(Tile::Wall, w, false),
                dwarf.of(Tile::Wall, w, true)
            ),
            (6, 0)
        );
        assert_eq!(builtin('r').search.costs.of(Tile::DoorClosed, w, false), 0);
        let t = dwarf.table(w);
        assert_eq!((t.get(Tile::Wall, false), t.get(Tile::Wall, true)), (6, 0));
    }

    #[test]
    fn the_kinds_search_in_at_least_four_ways() {
        let mut ways: Vec<(Neighbourhood, u32, Option<u32>, Costs)> = KINDS
            .iter()
            .map(|k| {
                let s = k.search;
                (s.moves, s.weight_millis, s.cap, s.costs)
            })
            .collect();
        ways.dedup();
        assert!(ways.len() >= 4, "{ways:?}");
        let base = SearchOptions::default().with_cap(Some(10));
        let bat = builtin('b').search.options(base);
        assert_eq!(bat.cap, Some(10), "the smaller cap");
        let kobold = builtin('k').search.options(SearchOptions::default());
        assert_eq!(kobold.neighbourhood, Neighbourhood::Four);
        let orc = builtin('o').search.options(SearchOptions::default());
        assert_eq!(orc.weight.millis(), 1500);
    }
}
