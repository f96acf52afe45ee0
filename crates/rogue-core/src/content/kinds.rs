//! Creature kinds: what each monster letter of a level file stands for. One table holds
//! every trait of a kind, so the rules, the generator, the editor and the view agree.

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
    /// How it is named in look mode and on the panel (empty for normal speed).
    pub fn name(self) -> &'static str {
        match self {
            Speed::Slow => "slow",
            Speed::Normal => "",
            Speed::Fast => "fast",
        }
    }
}

/// The fixed traits of a monster kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kind {
    /// The letter that stands for it in level files.
    pub glyph: char,
    /// Its name in messages.
    pub name: &'static str,
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
}

/// The kinds with their own traits, weakest first (the order the editor offers them, and the
/// order in which deeper floors promote monsters); any other letter is a [`GENERIC`] creature.
pub const KINDS: [Kind; 4] = [
    Kind {
        glyph: 'r',
        name: "rat",
        hp: 3,
        min_damage: 1,
        max_damage: 2,
        speed: Speed::Fast,
        hue: Hue::Yellow,
        spawn_weight: 6,
    },
    Kind {
        glyph: 'g',
        name: "goblin",
        hp: 6,
        min_damage: 1,
        max_damage: 3,
        speed: Speed::Normal,
        hue: Hue::Green,
        spawn_weight: 3,
    },
    Kind {
        glyph: 'o',
        name: "orc",
        hp: 10,
        min_damage: 2,
        max_damage: 4,
        speed: Speed::Normal,
        hue: Hue::Red,
        spawn_weight: 1,
    },
    Kind {
        glyph: 't',
        name: "troll",
        hp: 16,
        min_damage: 3,
        max_damage: 6,
        speed: Speed::Slow,
        hue: Hue::Magenta,
        spawn_weight: 0,
    },
];

/// The traits of a letter without a kind of its own.
pub const GENERIC: Kind = Kind {
    glyph: '?',
    name: "creature",
    hp: 5,
    min_damage: 1,
    max_damage: 3,
    speed: Speed::Normal,
    hue: Hue::Cyan,
    spawn_weight: 0,
};

/// The kind a monster letter stands for.
pub fn kind(glyph: char) -> Kind {
    KINDS
        .iter()
        .copied()
        .find(|k| k.glyph == glyph)
        .unwrap_or(Kind { glyph, ..GENERIC })
}

/// `a goblin`, `an orc`: a kind's name with its indefinite article.
pub fn a_name(glyph: char) -> String {
    let name = kind(glyph).name;
    let article = if name.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {name}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn names_take_a_or_an() {
        assert_eq!(super::a_name('o'), "an orc");
        assert_eq!(super::a_name('g'), "a goblin");
    }
}
