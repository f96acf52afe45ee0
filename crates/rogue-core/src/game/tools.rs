//! Doors and the player's tools, each a way to change the monsters' searches: closing a
//! door (a wall to the door-shy, two turns to an opener), jamming one with a spike (a wall
//! to all but a tunneller), sowing brush (dear ground most searches route round) and
//! sounding a lure (the goal of every monster near it for a few turns).
//!
//! Here are the tools and lures the world holds; the world's methods that use them are in
//! `world.rs`, a file that `game.rs` does not name, so that the two do not import each other.

use serde::{Deserialize, Serialize};

use crate::content::level::FeatureKind;
use crate::engine::grid::Pos;

mod world;

/// A lure draws the monsters within this many king moves of it.
pub const LURE_RADIUS: i32 = 10;
/// ...for this many turns.
pub const LURE_TURNS: u32 = 8;

/// The tools the player carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Tools {
    /// Lures (`&`).
    pub lures: u32,
    /// Bags of brush seeds (`,`).
    pub seeds: u32,
    /// Iron spikes (`)`).
    pub spikes: u32,
}

impl Tools {
    /// How many of a tool are carried (0 for features that are not tools).
    pub fn count(&self, kind: FeatureKind) -> u32 {
        match kind {
            FeatureKind::Lure => self.lures,
            FeatureKind::Seeds => self.seeds,
            FeatureKind::Spike => self.spikes,
            FeatureKind::Stairs | FeatureKind::Potion => 0,
        }
    }

    fn slot(&mut self, kind: FeatureKind) -> Option<&mut u32> {
        match kind {
            FeatureKind::Lure => Some(&mut self.lures),
            FeatureKind::Seeds => Some(&mut self.seeds),
            FeatureKind::Spike => Some(&mut self.spikes),
            FeatureKind::Stairs | FeatureKind::Potion => None,
        }
    }
}

/// The tools, in the order the panel lists them.
pub const TOOLS: [FeatureKind; 3] = [FeatureKind::Lure, FeatureKind::Seeds, FeatureKind::Spike];

/// A lure sounding on the floor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lure {
    /// Where it lies.
    #[serde(with = "crate::content::serial::pos")]
    pub pos: Pos,
    /// Turns it sounds on for.
    pub turns: u32,
}

/// Where a monster at `at` heads: the player, unless a lure sounds within
/// [`LURE_RADIUS`] of it and the player is not next to it; then the nearest such lure
/// (ties to the first in reading order).
pub fn goal_of(lures: &[Pos], at: Pos, player: Pos) -> Pos {
    if at.chebyshev(player) <= 1 {
        return player;
    }
    lures
        .iter()
        .filter(|l| l.chebyshev(at) <= LURE_RADIUS)
        .min_by_key(|l| (l.chebyshev(at), l.y, l.x))
        .copied()
        .unwrap_or(player)
}
