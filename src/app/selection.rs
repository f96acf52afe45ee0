//! The monster selected: the one the inspector shows and whose search the overlay traces,
//! chosen by the player (Tab, a click) or else following the nearest monster in view.

use crate::game::World;

/// The selected monster, and whether the player chose it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Selection {
    /// The selected monster's id.
    pub id: Option<u32>,
    /// Whether the player chose `id`: kept until it is gone. Otherwise the selection
    /// follows the nearest monster in view, turn by turn.
    pub chosen: bool,
}

impl Selection {
    /// Keeps the player's choice while that monster lives; otherwise follows the nearest
    /// monster in view (any with `sight` off).
    pub fn keep(&mut self, world: &World, sight: bool) {
        let alive = self.id.and_then(|id| world.monster(id)).is_some();
        if !(self.chosen && alive) {
            self.chosen = false;
            self.id = self.default_pick(world, sight);
        }
    }

    /// The selection nobody chose: the nearest monster the player can see (any monster with
    /// `sight` off), else the one selected while it lives, else the first. A far monster
    /// out of sight is never preferred to one in view.
    pub fn default_pick(&self, world: &World, sight: bool) -> Option<u32> {
        let me = world.player().pos;
        let nearest = if sight {
            world.nearest_in_view().map(|m| m.id)
        } else {
            world
                .monsters()
                .iter()
                .min_by_key(|m| (m.pos.chebyshev(me), m.id))
                .map(|m| m.id)
        };
        nearest
            .or_else(|| self.id.filter(|&id| world.monster(id).is_some()))
            .or_else(|| world.monsters().first().map(|m| m.id))
    }

    /// Drops the player's choice and selects as nobody chose.
    pub fn pick_default(&mut self, world: &World, sight: bool) {
        *self = Selection::default();
        self.id = self.default_pick(world, sight);
    }

    /// The monster `by` places on from the selected one in the game's order, or the first;
    /// `None` when there is none.
    pub fn cycled(&self, world: &World, by: i32) -> Option<u32> {
        // Every monster, seen or not: their searches are what the game is for studying (the
        // tutorial follows an unseen goblin's), and they all know where the player is.
        let ids: Vec<u32> = world.monsters().iter().map(|m| m.id).collect();
        if ids.is_empty() {
            return None;
        }
        let at = self.id.and_then(|s| ids.iter().position(|&i| i == s));
        let next = match at {
            Some(i) => (i as i32 + by).rem_euclid(ids.len() as i32) as usize,
            None => 0,
        };
        Some(ids[next])
    }
}
