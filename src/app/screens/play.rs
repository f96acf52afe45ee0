//! Playing, with the search overlay or without, and aiming an attack in place. The
//! contexts its keys are looked up in, most specific first, are here; the game's commands
//! are carried out on the session by the app's `play` and `travel` (the long actions).

use crate::app::command::Context as C;

/// Playing.
pub const CONTEXTS: &[C] = &[C::Play, C::Global, C::Always];
/// Playing with the search overlay on: its keys first.
pub const OVERLAY: &[C] = &[C::Overlay, C::Play, C::Global, C::Always];
/// Playing, `F` pressed: the next direction attacks.
pub const AIM: &[C] = &[C::Aim, C::Always];

/// The contexts of playing, with the overlay `on` or not.
pub fn contexts(overlay: bool) -> &'static [C] {
    if overlay { OVERLAY } else { CONTEXTS }
}
