//! The creatures and the player's acts: the plain types that the rules in [`super`] and
//! their helpers (exploring, planning, the run, the tools) share. It names nothing of the
//! game module's own files but the tools the player carries, so that those helpers can use
//! these types without importing `game.rs` back.

use serde::{Deserialize, Serialize};

use super::tools::Tools;
use crate::content::level::FeatureKind;
use crate::engine::astar::SearchResult;
use crate::engine::grid::Pos;

/// The player's hit points at the start.
pub const PLAYER_HP: i32 = 30;

/// A monster in play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Monster {
    /// Stable id, unique in a game.
    pub id: u32,
    /// Its kind letter.
    pub kind: char,
    /// Where it is.
    #[serde(with = "crate::content::serial::pos")]
    pub pos: Pos,
    /// Hit points left.
    pub hp: i32,
    /// The design's start cell this monster stands for (`None` for one the design does not
    /// know, such as a monster added in play only).
    #[serde(with = "crate::content::serial::opt_pos")]
    pub origin: Option<Pos>,
    /// Its latest plan: the search toward the player (detours around other monsters count
    /// in the turn's figures, not here). Not kept in a save: made again from `planned`.
    #[serde(skip)]
    pub plan: SearchResult,
    /// Where that search ran from and to: the monster may have stepped since, and the
    /// overlay shows the search that decided its step.
    #[serde(with = "crate::content::serial::pos_pair")]
    pub planned: (Pos, Pos),
    /// Other monsters held every cell it could step to when the plans were made, so it ran
    /// no search (its plan is empty); it plans at its turn if a way has opened by then.
    pub boxed: bool,
    /// Its turns still spent wading into the cell it entered: a cell of weight k holds it
    /// k − 1 of its turns after the step.
    pub wading: u32,
}

/// The player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// Where the player is.
    #[serde(with = "crate::content::serial::pos")]
    pub pos: Pos,
    /// Hit points left.
    pub hp: i32,
    /// Healing potions carried.
    pub potions: u32,
    /// The tools carried.
    pub tools: Tools,
}

/// Whether the game goes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameState {
    /// The player is alive.
    Playing,
    /// The player died.
    Dead,
    /// The player cleared the last floor of the run.
    Won,
    /// The player gave the run up (an asked-for action): it ends as a loss.
    Abandoned,
}

impl GameState {
    /// Its name in `--state` lines.
    pub fn name(self) -> &'static str {
        match self {
            GameState::Playing => "playing",
            GameState::Dead => "dead",
            GameState::Won => "won",
            GameState::Abandoned => "abandoned",
        }
    }
}

/// What the player wants to do this turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Act {
    /// Step (or attack) by one king move.
    Move(i32, i32),
    /// Let a turn pass.
    Wait,
    /// Drink a healing potion.
    Drink,
    /// Attack the monster one king move away without moving (refused, costing no turn,
    /// when nobody stands there).
    Attack(i32, i32),
    /// Close the open doors next to the player.
    CloseDoors,
    /// Use a tool: a lure, brush seeds or a spike.
    Use(FeatureKind),
}

/// What came of a player's act.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActResult {
    /// A turn passed.
    Acted,
    /// Nothing happened; no turn passed.
    Refused,
}
