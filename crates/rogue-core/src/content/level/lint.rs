//! What `check` warns about in a level that parses: things that make it unplayable or
//! unwinnable as designed. Reach is the game's movement rule, 8-way without cutting corners,
//! whose regions are those of 4-way steps: a diagonal step is legal only when both
//! orthogonal cells beside it are free, so it never joins what 4-way steps do not. Water and
//! brush are passable however much they weigh: they slow a monster, never stop it.

use super::{FeatureKind, Level};
use crate::engine::grid::{DIRECTIONS, Neighbourhood, Pos, Regions};

/// Where a warning points: a cell of the map, or a message header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subject {
    /// A cell of the map (the glyph there).
    Cell(Pos),
    /// The level's `notes[i]` (its header line).
    Note(usize),
}

/// A problem that does not stop the level from loading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// What it is about.
    pub subject: Subject,
    /// What is wrong, in a sentence without the position.
    pub message: String,
}

/// The warnings for a level, in reading order of the map (the player, then monsters, then
/// stairs and potions), then its messages. A level without a player has none.
pub fn lint(level: &Level) -> Vec<Warning> {
    let Some(player) = level.player else {
        return Vec::new();
    };
    let grid = &level.grid;
    let regions = Regions::compute(grid.cost_grid(), Neighbourhood::Eight);
    let home = grid.index(player).map(|c| regions.label(c));
    let reachable = |p: Pos| grid.index(p).map(|c| regions.label(c)) == home;
    let mut out = Vec::new();
    let mut warn = |subject, message: String| out.push(Warning { subject, message });
    let moves = DIRECTIONS
        .iter()
        .any(|&(dx, dy)| grid.can_step(player, dx, dy, Neighbourhood::Eight));
    if !moves {
        warn(
            Subject::Cell(player),
            format!("the player at {player} is boxed in: no legal move from the start"),
        );
    }
    for m in &level.monsters {
        if !reachable(m.pos) {
            warn(
                Subject::Cell(m.pos),
                format!(
                    "the {} '{}' at {} can never reach the player: walls part them",
                    level.grid.kind(m.kind).name,
                    m.kind,
                    m.pos
                ),
            );
        }
    }
    for f in &level.features {
        if !reachable(f.pos) {
            let is = if f.kind == FeatureKind::Stairs {
                "are"
            } else {
                "is"
            };
            let what = match f.kind {
                FeatureKind::Stairs => "the stairs".to_string(),
                FeatureKind::Potion => "the potion".to_string(),
                other => format!("the {}", other.name()),
            };
            warn(
                Subject::Cell(f.pos),
                format!(
                    "{what} '{}' at {} {is} out of the player's reach",
                    f.kind.glyph(),
                    f.pos
                ),
            );
        }
    }
    for (i, n) in level.notes.iter().enumerate() {
        if let Some(p) = n.at
            && !reachable(p)
        {
            warn(
                Subject::Note(i),
                format!("the message at {p} never shows: the player cannot reach that cell"),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn warnings(src: &str) -> Vec<(Subject, String)> {
        let level = Level::parse(src.as_bytes(), "t.txt").unwrap();
        lint(&level)
            .into_iter()
            .map(|w| (w.subject, w.message))
            .collect()
    }

    #[test]
    fn a_playable_level_has_no_warnings() {
        assert!(warnings("#######\n#@.#.g#\n#..#..#\n#.....#\n#######\n").is_empty());
        for file in ["default", "pillar", "bracket", "tutorial", "pond"] {
            let levels = concat!(env!("CARGO_MANIFEST_DIR"), "/../../levels");
            let text = std::fs::read(format!("{levels}/{file}.txt")).unwrap();
            let level = Level::parse(&text, file).unwrap();
            assert_eq!(lint(&level), [], "{file}");
        }
    }

    #[test]
    fn water_and_brush_are_reach_however_heavy() {
        // The goblin can only come through the water and the brush: slow, but it comes.
        let src = "cost: ~ 9\ncost: \" 9\n#########\n#@.#~#.g#\n#..~\"~..#\n#########\n";
        assert!(warnings(src).is_empty());
        // A wall where the water was parts them.
        let dry = "#########\n#@.#~#.g#\n#..~#~..#\n#########\n";
        assert_eq!(warnings(dry).len(), 1);
    }

    #[test]
    fn a_diagonal_past_a_corner_does_not_count_as_reach() {
        // The goblin touches the player's room only corner to corner.
        let w = warnings("#####\n#@.##\n#.#g#\n#####\n");
        assert_eq!(
            w,
            [(
                Subject::Cell(Pos::new(3, 2)),
                "the goblin 'g' at 3,2 can never reach the player: walls part them".into()
            )]
        );
    }

    #[test]
    fn walled_off_things_are_named_by_their_cell() {
        let src = "message at 5,1: beyond\nmessage at 2,1: here\n\
                   ########\n#@.#r>!#\n########\n";
        let w = warnings(src);
        assert_eq!(
            w,
            [
                (
                    Subject::Cell(Pos::new(4, 1)),
                    "the rat 'r' at 4,1 can never reach the player: walls part them".into()
                ),
                (
                    Subject::Cell(Pos::new(5, 1)),
                    "the stairs '>' at 5,1 are out of the player's reach".into()
                ),
                (
                    Subject::Cell(Pos::new(6, 1)),
                    "the potion '!' at 6,1 is out of the player's reach".into()
                ),
                (
                    Subject::Note(0),
                    "the message at 5,1 never shows: the player cannot reach that cell".into()
                ),
            ]
        );
    }

    #[test]
    fn a_boxed_in_player_is_named() {
        let w = warnings("###\n#@#\n###\n");
        assert_eq!(
            w,
            [(
                Subject::Cell(Pos::new(1, 1)),
                "the player at 1,1 is boxed in: no legal move from the start".into()
            )]
        );
        // Only corner-cutting diagonals lead out: boxed in too.
        assert_eq!(warnings(".#.\n#@#\n###\n").len(), 1);
    }
}
