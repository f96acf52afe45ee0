//! What the player's long actions need from the rules: the monsters in view, what counts as
//! something new (the moment resting, travel and exploring stop), the stairs seen, and the
//! way to the nearest unexplored part of the floor.
//!
//! Exploring walks a Dijkstra search over the cells the player has seen (king moves that
//! cut no corner, 10 straight and 14 diagonal times the terrain's weight: the monsters'
//! costs) to the nearest seen item (a potion or a tool) or frontier cell: seen floor beside a cell never seen. Every neighbour of the cell
//! the player stands on is always in sight, so reaching a frontier cell uncovers it, and
//! exploring ends.
//!
//! Here are the values a long action keeps; the world's methods that make them are in
//! `world.rs`, a file that `game.rs` does not name, so that the two do not import each other.

use crate::content::level::FeatureKind;
use crate::engine::grid::Pos;

mod world;

/// What the player knew when a long action began: it stops at anything beyond this.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Watch {
    /// The monsters in view, by id.
    monsters: Vec<u32>,
    /// The cells of the stairs and potions seen.
    #[serde(with = "crate::content::serial::positions")]
    features: Vec<Pos>,
    /// The floor's messages not said yet.
    notes: usize,
    /// The player's hit points.
    hp: i32,
}

/// Something new that stops a long action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Alarm {
    /// A monster came into view (its kind letter); the log has said so.
    Monster(char),
    /// A monster seen a moment ago came back into view (its kind's name): the log does not
    /// announce it again, so the long action says why it stopped.
    Back(crate::content::kinds::Name),
    /// The player lost hit points.
    Hurt,
    /// A feature came into view.
    Feature(FeatureKind),
    /// The floor said a message.
    Note,
}

impl Alarm {
    /// The log's line for it, if the game has not said it already (a hit, a level's
    /// message and a monster coming into view say themselves).
    pub fn message(self) -> Option<String> {
        match self {
            Alarm::Back(k) => Some(format!("The {k} is back in view.")),
            Alarm::Feature(FeatureKind::Stairs) => Some("You see the stairs >.".into()),
            Alarm::Feature(FeatureKind::Potion) => Some("You see a healing potion !.".into()),
            Alarm::Feature(k) => Some(format!("You see a {} {}.", k.name(), k.glyph())),
            Alarm::Monster(_) | Alarm::Hurt | Alarm::Note => None,
        }
    }
}

/// The next move of exploring.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Explore {
    /// Step by this king move.
    Step(i32, i32),
    /// Everything the player can reach is seen, and no item is left in reach.
    Done,
}
