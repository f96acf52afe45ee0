//! Look mode: a cursor moved over the map to read its cells, and travel to the one looked
//! at. Its commands are carried out by the app (`app.rs`); the screen's own are here.

use crate::app::command::Context as C;

/// Look mode.
pub const CONTEXTS: &[C] = &[C::Look, C::Global, C::Always];
/// Look mode with the search overlay on.
pub const OVERLAY: &[C] = &[C::Look, C::Overlay, C::Global, C::Always];

/// The contexts of look mode, with the overlay `on` or not.
pub fn contexts(overlay: bool) -> &'static [C] {
    if overlay { OVERLAY } else { CONTEXTS }
}
