//! A long action under way besides travel: plain data, which a kept run's save holds.

/// A long action under way besides travel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Errand {
    /// Waiting turns until the player's hit points are full.
    Rest,
    /// Walking to the nearest part of the floor not seen yet.
    Explore,
    /// Waiting, turn after turn, for the monsters in view to come next to the player; the
    /// turns waited so far.
    Wait(u32),
    /// Waiting unhurt with nothing in view, until something happens (a monster comes into
    /// view, a hit); the turns waited so far.
    Idle(u32),
}
