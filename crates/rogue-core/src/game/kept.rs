//! A game kept in a save and loaded again: the planner as a save writes it (how the
//! monsters plan, whose search is traced, the latest turn's work), and what loading makes
//! again from the rest of the game: the occupancy of the cells, what the player sees now,
//! every monster's plan and the traced search.

use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::plan::maps::cores;
use super::plan::{Planner, Planning, Progress, Spread, TurnStats};
use super::{LOG_LIMIT, World};
use crate::engine::grid::Pos;

/// The planner as a save writes it.
#[derive(Serialize, Deserialize)]
struct PlannerForm {
    /// `astar`, `capped:N`, `map` or `jps`.
    planning: String,
    traced: Option<u32>,
    astar_expanded: u64,
    searches: u32,
    dijkstra_expanded: u64,
}

/// [`Planner`] as a [`PlannerForm`], for `#[serde(with)]`: its engines and caches are made
/// anew, and the monsters' plans again by [`World::restore`].
pub(super) mod planner {
    use super::*;

    pub fn serialize<S: Serializer>(p: &Planner, s: S) -> Result<S::Ok, S::Error> {
        let stats = p.stats();
        PlannerForm {
            planning: p.planning().to_string(),
            traced: p.traced(),
            astar_expanded: stats.astar_expanded,
            searches: stats.searches,
            dijkstra_expanded: stats.dijkstra_expanded,
        }
        .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Planner, D::Error> {
        let form = PlannerForm::deserialize(d)?;
        let planning: Planning = form.planning.parse().map_err(serde::de::Error::custom)?;
        let mut planner = Planner::default();
        planner.set_planning(planning);
        planner.trace_next(form.traced);
        planner.set_stats(TurnStats {
            astar_expanded: form.astar_expanded,
            searches: form.searches,
            dijkstra_expanded: form.dijkstra_expanded,
        });
        Ok(planner)
    }
}

/// Why a kept game cannot be (see [`World::restore`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RestoreError {
    /// The player is off the map (where).
    #[error("the player stands off the map, at {0}")]
    PlayerOff(Pos),
    /// A monster's number is not after the one before it, or not below the next to give.
    #[error("monster #{0} is out of order")]
    Order(u32),
    /// A monster is off the map, on the player or on another monster.
    #[error("monster #{0} stands off the map or on a taken cell")]
    MonsterOff(u32),
    /// A monster's kind letter is no kind's (the monster, the letter).
    #[error("monster #{0} is of no kind ({1:?})")]
    Kind(u32, char),
    /// The sight was kept of a map of another size.
    #[error("what the player has seen is of another map")]
    Sight,
}

impl World {
    /// Makes again, after loading a kept game, what the save leaves out: the occupancy of
    /// the cells, what the player sees now, and every monster's plan (the search it made
    /// from where and toward where it planned, with the traced one's trace), all as they
    /// were; the planner reports to `progress`. A game that cannot be (two monsters on one
    /// cell, a creature off the map, a sight of another map) is refused with why.
    pub fn restore(&mut self, progress: Arc<Progress>) -> Result<(), RestoreError> {
        let stats = self.planner.stats();
        let (planning, traced) = (self.planner.planning(), self.planner.traced());
        self.planner = Planner::with_progress(progress);
        self.planner.set_planning(planning);
        self.planner.trace_next(traced);
        if self.grid.index(self.player.pos).is_none() {
            return Err(RestoreError::PlayerOff(self.player.pos));
        }
        self.occupant = vec![0; self.grid.len()];
        let mut last = 0;
        for m in &self.monsters {
            if m.id <= last || m.id >= self.next_id {
                return Err(RestoreError::Order(m.id));
            }
            last = m.id;
            let cell = self
                .grid
                .index(m.pos)
                .filter(|&c| self.occupant[c] == 0 && m.pos != self.player.pos)
                .ok_or(RestoreError::MonsterOff(m.id))?;
            self.occupant[cell] = m.id;
            // Any letter a level may place: the game's kinds, the level's own, or a plain
            // creature.
            if !m.kind.is_ascii_lowercase() {
                return Err(RestoreError::Kind(m.id, m.kind));
            }
        }
        if !self.sight.restored(&self.grid) {
            return Err(RestoreError::Sight);
        }
        if self.log.len() > LOG_LIMIT {
            self.log.drain(..self.log.len() - LOG_LIMIT);
        }
        self.acting = false;
        self.look();
        if planning == Planning::Map {
            // The shared map from the player, as the latest plan of everyone made it (its
            // plans are not kept: each monster's is made again below).
            let mut scratch = self.monsters.clone();
            self.planner.plan_all(
                &self.grid,
                self.player.pos,
                self.options,
                &mut scratch,
                &self.occupant,
                Spread {
                    threads: cores(),
                    ahead: false,
                },
            );
        }
        for m in &mut self.monsters {
            if m.boxed {
                // It ran no search: nothing found, and the flag says why.
                m.plan = Default::default();
                continue;
            }
            // Searched from where it planned, toward where it planned: the same search.
            let (from, goal) = m.planned;
            let at = std::mem::replace(&mut m.pos, from);
            self.planner.plan_one(&self.grid, goal, self.options, m);
            m.pos = at;
        }
        self.planner.set_stats(stats);
        Ok(())
    }
}
