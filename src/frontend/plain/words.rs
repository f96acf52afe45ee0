//! Words for places and ways: where something is from the player in compass words ("5 east
//! and 2 north"), how many steps away, and which way one step goes. North is up the map.

use crate::engine::grid::Pos;

/// Where `to` is from `from`, as steps along each axis: `5 east and 2 north`, `3 south`,
/// `here`.
pub fn compass(from: Pos, to: Pos) -> String {
    let (dx, dy) = (to.x - from.x, to.y - from.y);
    let ew = match dx {
        0 => None,
        d if d > 0 => Some(format!("{d} east")),
        d => Some(format!("{} west", -d)),
    };
    let ns = match dy {
        0 => None,
        d if d > 0 => Some(format!("{d} south")),
        d => Some(format!("{} north", -d)),
    };
    match (ew, ns) {
        (Some(a), Some(b)) => format!("{a} and {b}"),
        (Some(a), None) | (None, Some(a)) => a,
        (None, None) => "here".into(),
    }
}

/// How many moves it takes to walk from `from` to `to` on an open floor (diagonal moves
/// count one): `1 step away`, `5 steps away`.
pub fn steps_away(from: Pos, to: Pos) -> String {
    let n = from.chebyshev(to);
    if n == 1 {
        "1 step away".into()
    } else {
        format!("{n} steps away")
    }
}

/// The way of one step from `from` to the cell `to` next to it: `north`, `south-west`;
/// for cells further apart, where `to` lies ([`compass`]).
pub fn way(from: Pos, to: Pos) -> String {
    let (dx, dy) = (to.x - from.x, to.y - from.y);
    if dx.abs() > 1 || dy.abs() > 1 {
        return compass(from, to);
    }
    match (dx, dy) {
        (0, -1) => "north",
        (1, -1) => "north-east",
        (1, 0) => "east",
        (1, 1) => "south-east",
        (0, 1) => "south",
        (-1, 1) => "south-west",
        (-1, 0) => "west",
        (-1, -1) => "north-west",
        _ => "here",
    }
    .into()
}

/// `1 step`, `3 steps`: a count with its noun in the right number.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `text` with its first letter capital, to start a sentence.
pub fn capital(text: &str) -> String {
    let mut cs = text.chars();
    match cs.next() {
        Some(c) => c.to_uppercase().chain(cs).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compass_words_say_east_west_then_north_south() {
        let me = Pos::new(10, 10);
        assert_eq!(compass(me, Pos::new(15, 8)), "5 east and 2 north");
        assert_eq!(compass(me, Pos::new(7, 13)), "3 west and 3 south");
        assert_eq!(compass(me, Pos::new(10, 4)), "6 north");
        assert_eq!(compass(me, Pos::new(9, 10)), "1 west");
        assert_eq!(compass(me, me), "here");
        assert_eq!(steps_away(me, Pos::new(15, 8)), "5 steps away");
        assert_eq!(steps_away(me, Pos::new(11, 11)), "1 step away");
        assert_eq!(way(me, Pos::new(11, 9)), "north-east");
        assert_eq!(way(me, Pos::new(10, 11)), "south");
        assert_eq!(way(me, Pos::new(12, 10)), "2 east");
    }
}
