//! The help screen: the key table laid out in pages, paged through.

use super::transition::Transition;
use crate::app::command::{Action, Context};

/// The contexts the help's keys are looked up in.
pub const CONTEXTS: &[Context] = &[Context::Help, Context::Always];

/// The help, on a page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Help {
    /// The page shown.
    pub page: usize,
}

impl Help {
    /// Pages through the help's `pages` pages, or closes it.
    pub fn handle(&mut self, action: Action, pages: usize) -> Transition {
        match action {
            Action::Close => return Transition::Close,
            Action::NextPage if self.page + 1 < pages => self.page += 1,
            Action::PrevPage => self.page = self.page.saturating_sub(1),
            _ => {}
        }
        Transition::Stay
    }
}
