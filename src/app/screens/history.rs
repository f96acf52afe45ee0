//! The message history, scrolled back through.

use super::transition::Transition;
use crate::app::command::{Action, Context};

/// The contexts the history's keys are looked up in.
pub const CONTEXTS: &[Context] = &[Context::History, Context::Always];

/// The message history.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct History {
    /// Messages hidden below its bottom line: 0 shows the newest.
    pub scroll: usize,
}

impl History {
    /// Scrolls by messages, by pages of `page` messages, or to either end of a log whose
    /// oldest message is `last` back; or closes the history.
    pub fn handle(&mut self, action: Action, page: usize, last: usize) -> Transition {
        let page = page.max(1) as isize;
        let by = match action {
            Action::Scroll(n) => isize::from(n),
            Action::ScrollPage(n) => isize::from(n) * page,
            Action::ScrollEnd(true) => isize::MAX,
            Action::ScrollEnd(false) => isize::MIN,
            Action::Close => return Transition::Close,
            _ => return Transition::Stay,
        };
        self.scroll = self.scroll.saturating_add_signed(by).min(last);
        Transition::Stay
    }
}
