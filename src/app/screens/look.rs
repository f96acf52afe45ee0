//! Look mode: a cursor moved over the map to read its cells, and travel to the one looked
//! at. Where its `Enter` goes is decided here; the app moves the cursor and starts travel.

use crate::app::command::Context as C;
use crate::engine::grid::Pos;
use crate::game::{GameState, World};

/// Look mode.
pub const CONTEXTS: &[C] = &[C::Look, C::Global, C::Always];
/// Look mode with the search overlay on.
pub const OVERLAY: &[C] = &[C::Look, C::Overlay, C::Global, C::Always];

/// The contexts of look mode, with the overlay `on` or not.
pub fn contexts(overlay: bool) -> &'static [C] {
    if overlay { OVERLAY } else { CONTEXTS }
}

/// What look mode's `Enter` on a cell does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Go {
    /// Back to play, going nowhere (the run is over).
    Back,
    /// Back to play, travelling to the cell.
    There(Pos),
    /// Look mode stays, with the reason for the log: the player moves the cursor on and
    /// tries again.
    Refused(&'static str),
}

/// Where `Enter` on `cursor` goes in `world`, the player seeing only what they have seen
/// when `sight` is on.
pub fn travel_to(cursor: Pos, world: &World, sight: bool) -> Go {
    if world.state() != GameState::Playing {
        return Go::Back;
    }
    let known = !sight || world.is_seen(cursor);
    if cursor == world.player().pos {
        Go::Refused("You are there already.")
    } else if !known {
        Go::Refused("You have not seen that cell: no way there is known.")
    } else if !world.grid().is_passable(cursor) {
        Go::Refused("Nobody can stand there.")
    } else {
        Go::There(cursor)
    }
}
