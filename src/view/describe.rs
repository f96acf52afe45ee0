//! The words for the engine's options and a trace's fates, as the panels, captions and the
//! lab show them (the engine itself builds no text).

use crate::content::kinds::{Costs, Kind};
use crate::content::map::{Tile, TileMap};
use crate::engine::astar::{Algorithm, Fallback, Fate, SearchOptions, Ties, Weight};
use crate::engine::grid::Neighbourhood;

/// A short description of search options: `8 octile w1`, `4 zero w1 cap 500`,
/// `8 octile greedy`, `8 octile w1 ties lifo`.
pub fn options(o: &SearchOptions) -> String {
    let mut s = format!("{} {}", o.neighbourhood, o.heuristic);
    if o.greedy {
        s.push_str(" greedy");
    } else {
        s.push_str(&format!(" w{}", o.weight));
    }
    if let Some(cap) = o.cap {
        s.push_str(&format!(" cap {cap}"));
    }
    if o.ties != Ties::LowerH {
        s.push_str(&format!(" ties {}", o.ties));
    }
    if o.algorithm != Algorithm::AStar {
        s.push_str(&format!(" {}", o.algorithm));
    }
    s
}

/// Why Jump Point Search was asked for and A* ran: `JPS does not apply to 4-way moves: A*
/// ran instead.`
pub fn fallback(why: Fallback) -> String {
    let what = match why {
        Fallback::Neighbourhood => "moves other than 8-way without corner cutting",
        Fallback::Estimate => "an inconsistent estimate or a weight other than 1",
        Fallback::Greedy => "greedy best-first search",
        Fallback::Occupied => "cells held by others",
        Fallback::Steps => "base steps other than 10 straight and 14 diagonal",
        Fallback::Cluttered => {
            return "JPS hands this map over to A*: its straight runs are too short for \
                    jumping to pay (scattered walls, narrow mazes)."
                .into();
        }
        _ => "this search",
    };
    format!("JPS does not apply to {what}: A* ran instead.")
}

/// What the open list is ordered by: `F = G + H`, `F = G + 1.5·H`, or `F = H` (greedy).
pub fn formula(o: &SearchOptions) -> String {
    if o.greedy {
        "F = H".into()
    } else if o.weight == Weight::ONE {
        "F = G + H".into()
    } else {
        format!("F = G + {}·H", o.weight)
    }
}

/// A kind's search in a few short words, where it is not the player's and matters on `map`:
/// `4-way`, `F = G + 1.5·H`, `cap 40`, `no doors`, `water x1`, `walls x6` (a cost shows
/// only when the map has such cells); nothing for a plain searcher. Each word a unit, so
/// that a narrow panel wraps between them.
pub fn kind_search(kind: &Kind, map: &TileMap) -> Vec<String> {
    let s = kind.search;
    let mut words = Vec::new();
    if s.moves == Neighbourhood::Four {
        words.push("4-way".to_string());
    }
    if s.weight_millis != 1000 {
        words.push(format!("F = G + {}·H", s.weight()));
    }
    if let Some(cap) = s.cap {
        words.push(format!("cap {cap}"));
    }
    words.extend(kind_costs(kind, map));
    words
}

/// The costs in [`kind_search`]'s words alone (`no doors`, `water x1`), for where the moves,
/// the weight and the cap are shown with the search's options.
pub fn kind_costs(kind: &Kind, map: &TileMap) -> Vec<String> {
    let weights = map.weights();
    let s = kind.search;
    let mut words = Vec::new();
    let plain = Costs::PLAIN;
    for (tile, word) in [
        (Tile::Water, "water"),
        (Tile::Brush, "brush"),
        (Tile::DoorClosed, "doors"),
        (Tile::Wall, "walls"),
    ] {
        let (mine, theirs) = (
            s.costs.of(tile, weights, false),
            plain.of(tile, weights, false),
        );
        let present = match tile {
            Tile::DoorClosed => map.count(Tile::DoorClosed) + map.count(Tile::DoorOpen) > 0,
            t => map.count(t) > 0,
        };
        if mine != theirs && present {
            words.push(match mine {
                0 => format!("no {word}"),
                k => format!("{word} x{k}"),
            });
        }
    }
    words
}

/// What an expansion did with a neighbour: `new G 24`, `G 38 -> 34`, `kept`, `closed`,
/// `wall`, `corner`.
pub fn fate(f: Fate) -> String {
    match f {
        Fate::New { g } => format!("new G {g}"),
        Fate::Improved { old, new } => format!("G {old} -> {new}"),
        Fate::NotBetter => "kept".into(),
        Fate::Closed => "closed".into(),
        Fate::Wall => "wall".into(),
        Fate::Outside => "off the map".into(),
        Fate::Corner => "corner".into(),
        // The engine may add fates in a minor release: its own name until this learns a word.
        other => format!("{other:?}").to_lowercase(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::astar::Heuristic;

    #[test]
    fn options_read_as_the_panels_show_them() {
        let lifo = SearchOptions::default().with_ties(Ties::Lifo);
        assert_eq!(options(&lifo), "8 octile w1 ties lifo");
        // Every search follows the rule, so every description names it.
        let manhattan = lifo.with_heuristic(Heuristic::Manhattan);
        assert_eq!(options(&manhattan), "8 manhattan w1 ties lifo");
        assert_eq!(options(&SearchOptions::default()), "8 octile w1");
        let weighted = SearchOptions::default()
            .with_weight(Weight::from_millis(1500))
            .with_cap(Some(500));
        assert_eq!(options(&weighted), "8 octile w1.5 cap 500");
        assert_eq!(formula(&weighted), "F = G + 1.5·H");
        assert_eq!(fate(Fate::Improved { old: 38, new: 34 }), "G 38 -> 34");
    }
}
