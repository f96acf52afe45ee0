//! Screen geometry: where the map, panel, log and hint go for a terminal size, and which map
//! cell the camera shows at the top-left. The view draws with it and the app turns mouse
//! positions into map cells with it, so both agree on where everything is.

use ratatui::layout::Rect;
use ratatui::widgets::Block;

use super::{App, Mode};
use crate::engine::grid::Pos;

/// The smallest terminal the game draws in.
pub const MIN_SIZE: (u16, u16) = (40, 12);

/// Where each part of the screen goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// The map's frame.
    pub map_block: Rect,
    /// The map cells inside the frame.
    pub map: Rect,
    /// The side panel.
    pub side: Rect,
    /// The message log.
    pub log: Rect,
    /// The one-line key hint.
    pub hint: Rect,
}

/// Splits the screen, or `None` when it is smaller than [`MIN_SIZE`].
pub fn layout(app: &App, area: Rect) -> Option<Layout> {
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        return None;
    }
    let hint = Rect::new(area.x, area.bottom() - 1, area.width, 1);
    let log_h = if area.height >= 30 || area.height >= 20 && !app.overlay.on {
        4
    } else {
        2
    };
    let log = Rect::new(area.x, hint.y - log_h, area.width, log_h);
    let top_h = log.y - area.y;
    let side_w = if app.overlay.on {
        (area.width * 2 / 5).clamp(28, 90)
    } else if area.width >= 70 {
        28
    } else {
        24
    };
    let map_block = Rect::new(area.x, area.y, area.width - side_w, top_h);
    let side = Rect::new(map_block.right(), area.y, side_w, top_h);
    let map = Block::bordered().inner(map_block);
    Some(Layout {
        map_block,
        map,
        side,
        log,
        hint,
    })
}

/// The map cell drawn at the top-left of `view`: follows the cursor or the player, clamped
/// to the map, and centres maps smaller than the view.
pub fn camera(app: &App, view: Rect) -> Pos {
    let focus = match app.mode {
        Mode::Look | Mode::Edit => app.cursor,
        _ => app.world.player.pos,
    };
    let axis = |focus: i32, len: usize, view: u16| -> i32 {
        let (len, view) = (len as i32, i32::from(view));
        if len <= view {
            -((view - len) / 2)
        } else {
            (focus - view / 2).clamp(0, len - view)
        }
    };
    Pos::new(
        axis(focus.x, app.world.grid.width(), view.width),
        axis(focus.y, app.world.grid.height(), view.height),
    )
}

/// The map cell under a screen cell, if the map is drawn there.
pub fn map_cell(app: &App, col: u16, row: u16) -> Option<Pos> {
    let area = Rect::new(0, 0, app.size.0, app.size.1);
    let view = layout(app, area)?.map;
    if col < view.x || row < view.y || col >= view.right() || row >= view.bottom() {
        return None;
    }
    let camera = camera(app, view);
    let p = Pos::new(
        camera.x + i32::from(col - view.x),
        camera.y + i32::from(row - view.y),
    );
    app.world.grid.contains(p).then_some(p)
}
