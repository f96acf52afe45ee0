//! A level's own kinds: `kind LETTER: NAME, FIELD VALUE, ...` headers, and the table a map
//! looks its monsters' letters up in.
//!
//! ```text
//! kind w: wraith, hp 6, hits 1-3, speed fast, moves 4, cap 60, water 1, door -
//! ```
//!
//! Every field but the name may be left out; one left out is a plain creature's (hp 5,
//! hits 1-3, normal speed, 8-way, weight 1, no cap, the player's costs, colour cyan).

use super::{Cost, Costs, GENERIC, Hue, KINDS, Kind, Name, Speed, builtin};
use crate::engine::astar::Weight;
use crate::engine::grid::Neighbourhood;

/// The kinds a map's monster letters stand for: the game's own ([`KINDS`]) and those its
/// level defines in `kind` headers, for letters the game's own do not take. Any other
/// letter is a plain creature.
///
/// ```
/// use astar_rogue_core::content::kinds::own::Kinds;
///
/// let mut kinds = Kinds::default();
/// kinds.add_header("kind w", " wraith, hp 6, moves 4, water 1").unwrap();
/// assert_eq!(kinds.get('w').name.as_str(), "wraith");
/// assert_eq!(kinds.get('r').name.as_str(), "rat");
/// let err = kinds.add_header("kind r", " ghoul").unwrap_err();
/// assert_eq!(err.col, 6);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Kinds {
    own: Vec<Kind>,
}

/// Why a `kind` header cannot be read: where on its line (a column from 1) and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct KindError {
    /// The column, from 1, of what is wrong.
    pub col: usize,
    /// What is wrong, in words.
    pub message: String,
}

impl KindError {
    fn new(col: usize, message: impl Into<String>) -> Self {
        KindError {
            col,
            message: message.into(),
        }
    }
}

/// The fields a `kind` header may give after the name, in the order it is written back.
const FIELDS: [&str; 12] = [
    "hp", "hits", "speed", "moves", "weight", "cap", "floor", "water", "brush", "door", "wall",
    "colour",
];

/// The colours a kind may be drawn in, by name.
const HUES: [(&str, Hue); 7] = [
    ("yellow", Hue::Yellow),
    ("green", Hue::Green),
    ("red", Hue::Red),
    ("magenta", Hue::Magenta),
    ("cyan", Hue::Cyan),
    ("blue", Hue::Blue),
    ("white", Hue::White),
];

impl Kinds {
    /// The kind a monster letter stands for here.
    pub fn get(&self, glyph: char) -> Kind {
        self.own
            .iter()
            .copied()
            .find(|k| k.glyph == glyph)
            .unwrap_or_else(|| builtin(glyph))
    }

    /// The kinds the level defines, in the order of its headers.
    pub fn own(&self) -> &[Kind] {
        &self.own
    }

    /// Whether the level defines no kinds.
    pub fn is_empty(&self) -> bool {
        self.own.is_empty()
    }

    /// Every kind with traits of its own: the game's, then the level's.
    pub fn all(&self) -> impl Iterator<Item = Kind> + '_ {
        KINDS.iter().copied().chain(self.own.iter().copied())
    }

    /// The kind of a name (`rat`, or a level's `wraith`), whatever its case.
    pub fn named(&self, name: &str) -> Option<Kind> {
        self.all().find(|k| k.name.eq_ignore_ascii_case(name))
    }

    /// Reads one `kind LETTER: ...` header (`key` is the part before the colon, `value`
    /// the part after it) and adds the kind it defines; the error's column counts from the
    /// start of the line.
    pub fn add_header(&mut self, key: &str, value: &str) -> Result<(), KindError> {
        let kind = parse(key, value)?;
        let name_col = key.chars().count() + 2 + leading(value);
        if let Some(other) = self.all().find(|k| k.name == kind.name.as_str()) {
            return Err(KindError::new(
                name_col,
                format!(
                    "the name {:?} is taken by the kind '{}': each kind needs a name of its own",
                    kind.name.as_str(),
                    other.glyph
                ),
            ));
        }
        if self.own.iter().any(|k| k.glyph == kind.glyph) {
            return Err(KindError::new(
                6,
                format!("a second kind '{}' on this level", kind.glyph),
            ));
        }
        self.own.push(kind);
        Ok(())
    }

    /// Each kind the level defines as the header that defines it, every field written out:
    /// reading these headers gives these kinds back.
    pub fn headers(&self) -> impl Iterator<Item = String> + '_ {
        self.own.iter().map(header)
    }
}

/// The header that defines `k`, every field written out.
fn header(k: &Kind) -> String {
    let s = k.search;
    let speed = k.speed.word();
    let moves = if s.moves == Neighbourhood::Four { 4 } else { 8 };
    let cap = s.cap.map_or("none".to_string(), |c| c.to_string());
    let cost = |c: Cost| match c {
        Cost::Never => "-".to_string(),
        Cost::Terrain => "level".to_string(),
        Cost::Times(n) => n.to_string(),
    };
    let colour = HUES
        .iter()
        .find(|(_, h)| *h == k.hue)
        .map_or("cyan", |(n, _)| n);
    format!(
        "kind {}: {}, hp {}, hits {}-{}, speed {speed}, moves {moves}, weight {}, cap {cap}, \
         floor {}, water {}, brush {}, door {}, wall {}, colour {colour}",
        k.glyph,
        k.name,
        k.hp,
        k.min_damage,
        k.max_damage,
        s.weight(),
        cost(s.costs.floor),
        cost(s.costs.water),
        cost(s.costs.brush),
        cost(s.costs.door),
        cost(s.costs.wall),
    )
}

/// How many whitespace characters `s` starts with.
fn leading(s: &str) -> usize {
    s.chars().take_while(|c| c.is_whitespace()).count()
}

/// The kind a `kind` header defines, without checking it against other kinds.
fn parse(key: &str, value: &str) -> Result<Kind, KindError> {
    let letter = key.strip_prefix("kind").map(str::trim_start).unwrap_or("");
    let letter_col = key.chars().count() - letter.chars().count() + 1;
    let mut chars = letter.chars();
    let glyph = match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_lowercase() => c,
        _ => {
            return Err(KindError::new(
                letter_col,
                "expected `kind LETTER: NAME, FIELD VALUE, ...` with one letter from a to z, \
                 e.g. `kind w: wraith, hp 6, moves 4`",
            ));
        }
    };
    if KINDS.iter().any(|k| k.glyph == glyph) {
        let taken: String = KINDS.iter().map(|k| k.glyph).collect();
        return Err(KindError::new(
            letter_col,
            format!(
                "'{glyph}' is the {}'s letter: a level's own kind takes a letter the game's \
                 kinds ({taken}) do not",
                builtin(glyph).name
            ),
        ));
    }
    let mut kind = Kind {
        glyph,
        lore: "",
        ..GENERIC
    };
    // Column of the first character of each comma-separated part, from the line's start.
    let mut col = key.chars().count() + 2;
    let mut seen = [false; FIELDS.len()];
    for (i, part) in value.split(',').enumerate() {
        let at = col + leading(part);
        col += part.chars().count() + 1;
        let part = part.trim();
        if i == 0 {
            kind.name = parse_name(part, at)?;
            continue;
        }
        let (field, arg) = part.split_once(char::is_whitespace).unwrap_or((part, ""));
        let arg_col = at + field.chars().count() + leading(arg) + usize::from(!arg.is_empty());
        let arg = arg.trim();
        let Some(slot) = FIELDS.iter().position(|&f| f == field) else {
            let what = if part.is_empty() {
                "an empty field".to_string()
            } else {
                format!("unknown field {field:?}")
            };
            return Err(KindError::new(
                at,
                format!("{what} of a kind: known are {}", FIELDS.join(", ")),
            ));
        };
        if std::mem::replace(&mut seen[slot], true) {
            return Err(KindError::new(
                at,
                format!("a second {field:?} in this kind"),
            ));
        }
        if arg.is_empty() {
            return Err(KindError::new(
                arg_col,
                format!("{field} needs a value, e.g. {}", example(field)),
            ));
        }
        set(&mut kind, field, arg, arg_col)?;
    }
    Ok(kind)
}

/// A field as it might be written, for the errors that say how.
fn example(field: &str) -> &'static str {
    match field {
        "hp" => "`hp 6`",
        "hits" => "`hits 1-3`",
        "speed" => "`speed fast`",
        "moves" => "`moves 4`",
        "weight" => "`weight 1.5`",
        "cap" => "`cap 60`",
        "colour" => "`colour red`",
        "door" | "wall" => "`door -` or `wall 6`",
        _ => "`water 1`, `brush -` or `brush level`",
    }
}

/// A kind's name: one word of lowercase letters (and `-`), at most [`Name::MAX`] bytes.
fn parse_name(s: &str, col: usize) -> Result<Name, KindError> {
    let at = |m: String| KindError::new(col, m);
    if s.is_empty()
        || !s.bytes().all(|b| b.is_ascii_lowercase() || b == b'-')
        || FIELDS.contains(&s)
    {
        return Err(at(format!(
            "bad name {s:?}: a kind's name is one word of lowercase letters, e.g. `wraith`"
        )));
    }
    Name::try_new(s).ok_or_else(|| at(format!("the name {s:?} is over {} letters", Name::MAX)))
}

/// Sets one field of `kind` from its written value, which starts at column `col`.
fn set(kind: &mut Kind, field: &str, arg: &str, col: usize) -> Result<(), KindError> {
    let at = |m: String| KindError::new(col, m);
    let number = |lo: u32, hi: u32| {
        arg.parse::<u32>()
            .ok()
            .filter(|n| (lo..=hi).contains(n))
            .ok_or_else(|| {
                at(format!(
                    "bad {field} {arg:?}: a whole number from {lo} to {hi}"
                ))
            })
    };
    match field {
        "hp" => kind.hp = number(1, 999)? as i32,
        "hits" => (kind.min_damage, kind.max_damage) = read_hits(arg, col)?,
        "speed" => {
            kind.speed = Speed::ALL
                .into_iter()
                .find(|s| s.word() == arg)
                .ok_or_else(|| at(format!("bad speed {arg:?}: slow, normal or fast")))?;
        }
        "moves" => {
            kind.search.moves = match arg {
                "4" => Neighbourhood::Four,
                "8" => Neighbourhood::Eight,
                _ => return Err(at(format!("bad moves {arg:?}: 4 or 8"))),
            }
        }
        "weight" => {
            kind.search.weight_millis = arg
                .parse::<Weight>()
                .ok()
                .map(Weight::millis)
                .filter(|m| (1000..=10_000).contains(m))
                .ok_or_else(|| {
                    at(format!(
                        "bad weight {arg:?}: the weight on H, from 1 (plain A*) to 10 with at \
                         most 3 decimals"
                    ))
                })?;
        }
        "cap" => {
            kind.search.cap = match arg {
                "none" => None,
                _ => Some(number(1, 1_000_000).map_err(|e| at(format!("{e}, or none")))?),
            }
        }
        "colour" => {
            kind.hue = HUES
                .iter()
                .find(|(n, _)| *n == arg)
                .map(|(_, h)| *h)
                .ok_or_else(|| {
                    let names: Vec<&str> = HUES.iter().map(|(n, _)| *n).collect();
                    at(format!("bad colour {arg:?}: one of {}", names.join(", ")))
                })?;
        }
        _ => set_cost(&mut kind.search.costs, field, arg, col)?,
    }
    Ok(())
}

/// The least and most damage of a `hits` field (`1-3`).
fn read_hits(arg: &str, col: usize) -> Result<(i32, i32), KindError> {
    let bad = || {
        KindError::new(
            col,
            format!("bad hits {arg:?}: the least and most damage, e.g. 1-3"),
        )
    };
    let (lo, hi) = arg.split_once('-').ok_or_else(bad)?;
    match (lo.parse::<i32>(), hi.parse::<i32>()) {
        (Ok(lo), Ok(hi)) if 0 <= lo && lo <= hi && hi <= 99 => Ok((lo, hi)),
        _ => Err(bad()),
    }
}

/// Sets the cost `field` (floor, water, brush, door or wall) from its written value.
fn set_cost(costs: &mut Costs, field: &str, arg: &str, col: usize) -> Result<(), KindError> {
    let at = |m: String| KindError::new(col, m);
    let cost = match arg {
        "-" => Cost::Never,
        // Only terrain has a level's cost (`cost: ~ 4`); a door's and a wall's are
        // the kind's own.
        "level" if !matches!(field, "wall" | "door") => Cost::Terrain,
        _ => match arg.parse::<u8>() {
            Ok(n @ 1..=9) => Cost::Times(n),
            _ => {
                let level = if matches!(field, "wall" | "door") {
                    ""
                } else {
                    ", level"
                };
                return Err(at(format!(
                    "bad {field} cost {arg:?}: - (cannot enter){level} (the level's \
                     cost) or a whole number from 1 to 9"
                )));
            }
        },
    };
    match field {
        "floor" if cost == Cost::Never => {
            return Err(at(
                "a kind walks on floor (its monsters start there): give floor a cost".into(),
            ));
        }
        "floor" => costs.floor = cost,
        "water" => costs.water = cost,
        "brush" => costs.brush = cost,
        "door" => costs.door = cost,
        _ => costs.wall = cost,
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::Search;
    use super::*;

    fn one(line: &str) -> Result<Kind, KindError> {
        let (key, value) = line.split_once(':').unwrap();
        let mut kinds = Kinds::default();
        kinds.add_header(key, value)?;
        Ok(kinds.get(key.chars().last().unwrap()))
    }

    #[test]
    fn a_header_gives_every_field_and_the_rest_are_a_plain_creatures() {
        let w = one("kind w: wraith, hp 6, hits 2-4, speed fast, moves 4, weight 1.25, cap 60, water 1, brush -, door 3, wall 6, colour red").unwrap();
        assert_eq!((w.glyph, w.name.as_str(), w.hp), ('w', "wraith", 6));
        assert_eq!((w.min_damage, w.max_damage, w.speed), (2, 4, Speed::Fast));
        assert_eq!(w.hue, Hue::Red);
        let s = w.search;
        assert_eq!(
            (s.moves, s.weight_millis, s.cap),
            (Neighbourhood::Four, 1250, Some(60))
        );
        assert_eq!(
            s.costs,
            Costs {
                floor: Cost::Terrain,
                water: Cost::Times(1),
                brush: Cost::Never,
                door: Cost::Times(3),
                wall: Cost::Times(6),
            }
        );
        let plain = one("kind x: ghost").unwrap();
        assert_eq!(plain.search, Search::PLAIN);
        assert_eq!(
            (plain.hp, plain.speed, plain.hue),
            (5, Speed::Normal, Hue::Cyan)
        );
        assert_eq!(plain.about(), "plain A*; opens doors");
        assert_eq!(
            w.about(),
            "moves 4-way; weighted search, F = G + 1.25H; its search stops at 60 nodes; swims; \
             keeps out of brush; opens doors in 3 turns; digs through walls, 6 turns each"
        );
    }

    #[test]
    fn headers_read_back_to_the_same_kinds() {
        let mut kinds = Kinds::default();
        kinds
            .add_header("kind w", " wraith, moves 4, cap 9")
            .unwrap();
        kinds
            .add_header("kind x", " ghost-lord, weight 2, wall 3, floor 2")
            .unwrap();
        let mut again = Kinds::default();
        for h in kinds.headers() {
            let (key, value) = h.split_once(':').unwrap();
            again.add_header(key, value).unwrap();
        }
        assert_eq!(again, kinds);
        assert_eq!(again.named("GHOST-LORD").map(|k| k.glyph), Some('x'));
        assert_eq!(again.named("rat").map(|k| k.glyph), Some('r'));
    }

    #[test]
    fn bad_headers_say_where_and_why() {
        let err = |line: &str| {
            let e = one(line).unwrap_err();
            (e.col, e.message)
        };
        assert_eq!(
            err("kind r: ghoul"),
            (
                6,
                "'r' is the rat's letter: a level's own kind takes a letter the game's kinds \
                 (rkgbondt) do not"
                    .into()
            )
        );
        assert_eq!(err("kind ww: ghoul").0, 6);
        assert_eq!(err("kind w:").0, 8);
        assert_eq!(
            err("kind w: wraith, hp 0"),
            (20, "bad hp \"0\": a whole number from 1 to 999".into())
        );
        assert_eq!(
            err("kind w: wraith,  speedy 3").1,
            "unknown field \"speedy\" of a kind: known are hp, hits, speed, moves, weight, cap, \
             floor, water, brush, door, wall, colour"
        );
        assert_eq!(err("kind w: wraith,  speedy 3").0, 18);
        assert_eq!(err("kind w: wraith, hp 3, hp 4").0, 23);
        assert_eq!(err("kind w: wraith, hp").0, 19);
        assert_eq!(err("kind w: wraith, wall level").0, 22);
        assert_eq!(err("kind w: wraith, floor -").0, 23);
        assert_eq!(err("kind w: Wraith").0, 9);
        assert_eq!(err("kind w: wraith, weight 0.5").0, 24);
        assert_eq!(
            err("kind w: rat").1,
            "the name \"rat\" is taken by the kind 'r': each kind needs a name of its own"
        );
    }
}
