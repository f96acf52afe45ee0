//! The editor. Its commands are carried out on the design by the app's `editor`; its
//! state's data (the tools) is `tools`; the contexts its keys are looked up in are here.

use crate::app::command::Context as C;
use crate::app::tools::Prefix;

/// The editor.
pub const CONTEXTS: &[C] = &[C::Edit, C::Global, C::Always];
/// The editor after `m`, waiting for a monster's letter.
pub const MONSTER: &[C] = &[C::Monster, C::Always];
/// The editor after `Z`, resizing the map.
pub const RESIZE: &[C] = &[C::Resize, C::Always];

/// The contexts of the editor with a key waiting for the next (`prefix`) or none.
pub fn contexts(prefix: Option<Prefix>) -> &'static [C] {
    match prefix {
        Some(Prefix::Monster) => MONSTER,
        Some(Prefix::Resize) => RESIZE,
        None => CONTEXTS,
    }
}
