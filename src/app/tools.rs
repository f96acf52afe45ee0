//! The editor's state while edit mode is up: the shape under way, the glyph, a key waiting
//! for the next. Plain data, below the key table (a tool is part of an action) and the
//! editor's handling alike.

use crate::content::map::Tile;
use crate::engine::grid::Pos;
/// A shape or region the editor draws (or copies) between two cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tool {
    /// A rectangle's border.
    Rect,
    /// A filled rectangle.
    Box,
    /// A straight line.
    Line,
    /// A flood fill of the region under the cursor (one cell: the anchor does not matter).
    Fill,
    /// A rectangular region copied to the clipboard.
    Copy,
}

impl Tool {
    /// Its name in the panel and messages.
    pub const fn name(self) -> &'static str {
        match self {
            Tool::Rect => "rectangle",
            Tool::Box => "filled rectangle",
            Tool::Line => "line",
            Tool::Fill => "fill",
            Tool::Copy => "copy",
        }
    }
}

/// A key that waits for another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Prefix {
    /// `m`: the next key is the monster's letter.
    Monster,
    /// `Z`: the keys grow and crop the map's sides until `Z`, `Enter` or `Esc`.
    Resize,
}

/// The editor's state while edit mode is up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Tools {
    /// The shape under way and the cell it started on.
    #[serde(with = "pending_form")]
    pub pending: Option<(Tool, Pos)>,
    /// The tile `Enter` draws with: the one last put.
    #[serde(with = "crate::content::serial::tile")]
    pub glyph: Tile,
    /// A key waiting for the next one.
    pub prefix: Option<Prefix>,
}

impl Tools {
    /// Esc in the editor: forgets the key waiting or the shape under way; false when there
    /// was neither (so Esc leaves edit mode).
    pub(crate) fn cancel(&mut self) -> bool {
        self.prefix.take().is_some() || self.pending.take().is_some()
    }
}

impl Default for Tools {
    fn default() -> Self {
        Self {
            pending: None,
            glyph: Tile::Wall,
            prefix: None,
        }
    }
}

/// A shape under way as a kept run's save holds it: the tool and `[x, y]`.
mod pending_form {
    use super::{Pos, Tool};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(p: &Option<(Tool, Pos)>, s: S) -> Result<S::Ok, S::Error> {
        p.map(|(t, p)| (t, [p.x, p.y])).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<(Tool, Pos)>, D::Error> {
        Ok(Option::<(Tool, [i32; 2])>::deserialize(d)?.map(|(t, [x, y])| (t, Pos::new(x, y))))
    }
}

/// A tile's name in the editor's messages and panel.
pub fn tile_name(t: Tile) -> &'static str {
    // The palette is narrow: a closed door is the door a designer paints.
    match t {
        Tile::DoorClosed => "door",
        t => t.name(),
    }
}

/// A mouse stroke in the editor or the lab: cells painted while a button is held.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stroke {
    /// The last cell painted.
    pub(crate) last: Pos,
    /// What the stroke paints.
    pub(crate) tile: Tile,
    /// Whether an edit happened, so the monsters replan once the stroke ends.
    pub(crate) replan: bool,
}
