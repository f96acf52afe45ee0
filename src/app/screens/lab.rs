//! The search lab. Its commands are carried out on its own copy of the map by the app's
//! `search` and `quiz`; its searches are `app::lab`'s; the contexts its keys are looked up
//! in are here.

use crate::app::command::Context as C;

/// The search lab (its search is always shown, so the overlay's keys apply).
pub const CONTEXTS: &[C] = &[C::Lab, C::Overlay, C::Global, C::Always];
