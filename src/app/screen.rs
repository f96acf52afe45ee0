//! Screen geometry: where the map, panel, log and hint go for a terminal size, and which map
//! cell the camera shows at the top-left. The view draws with it and the app turns mouse
//! positions into map cells with it, so both agree on where everything is.

use ratatui::layout::Rect;
use ratatui::widgets::Block;

use super::App;
use super::screens::{Mode, Screen};
use super::ui::Ui;
use crate::engine::grid::Pos;
use crate::game::World;

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
    split(app.ui(), app.screen(), area)
}

/// [`layout`] for the UI state `ui` with `screen` up.
fn split(ui: &Ui, screen: &Screen, area: Rect) -> Option<Layout> {
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        return None;
    }
    let hint = Rect::new(area.x, area.bottom() - 1, area.width, 1);
    // The log grows with the terminal: a sixth of the height from 30 rows on, so a fight's
    // messages stay in view; short terminals keep their rows for the map.
    let searching = ui.overlay.on || screen.mode() == Mode::Lab;
    let log_h = if area.height >= 30 || area.height >= 20 && !searching {
        ((area.height - 6) / 6).max(4)
    } else {
        2
    };
    let log = Rect::new(area.x, hint.y - log_h, area.width, log_h);
    let top_h = log.y - area.y;
    // The panel narrows on small terminals so that the map keeps most of the width; the
    // overlay's keeps room for the inspector's boxes.
    // Below 14 rows the inspector has no room (the overlay shows it from 50x14), so the
    // overlay's panel is as narrow as play's and the map keeps the width.
    let side_w = if searching && area.height >= 14 {
        (area.width * 2 / 5).clamp(28, 90)
    } else if area.width >= 80 {
        28
    } else {
        (area.width * 3 / 10).clamp(18, 28)
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

/// Where the camera goes for `view` (the map cell drawn at its top-left), from where it is
/// now (`cam`), with `screen` up on `world`: while playing, centred on the player; in look
/// and edit modes it stays put and scrolls only when the cursor comes within a margin of the
/// view's edge. Either way it is clamped to the map, and a map smaller than the view is
/// centred.
fn camera_for(cam: Pos, screen: &Screen, world: &World, view: Rect) -> Pos {
    let grid = world.grid();
    let (w, h) = (grid.width(), grid.height());
    match screen.mode() {
        Mode::Look | Mode::Edit | Mode::Lab => {
            let cursor = screen.cursor(world);
            Pos::new(
                scroll(cam.x, cursor.x, w, view.width),
                scroll(cam.y, cursor.y, h, view.height),
            )
        }
        _ => {
            let p = world.player().pos;
            Pos::new(centre(p.x, w, view.width), centre(p.y, h, view.height))
        }
    }
}

/// One axis of a camera centred on `focus`.
fn centre(focus: i32, len: usize, view: u16) -> i32 {
    let (len, view) = (len as i32, i32::from(view));
    if len <= view {
        -((view - len) / 2)
    } else {
        (focus - view / 2).clamp(0, len - view)
    }
}

/// One axis of a camera at `cam` that keeps `focus` at least a margin from the edges.
fn scroll(cam: i32, focus: i32, len: usize, view: u16) -> i32 {
    let (len, view) = (len as i32, i32::from(view));
    if len <= view {
        return -((view - len) / 2);
    }
    let margin = (view / 5).min(4);
    let mut cam = cam.clamp(0, len - view);
    if focus < cam + margin {
        cam = focus - margin;
    } else if focus > cam + view - 1 - margin {
        cam = focus - (view - 1 - margin);
    }
    cam.clamp(0, len - view)
}

/// The map views: the map area, or in the lab, comparing two searches, its two halves
/// (side by side when wide enough, else one above the other), each below its caption's
/// row. All show the same cells, so the view, the camera and the mouse agree on them.
pub fn map_views(app: &App, layout: &Layout) -> Vec<Rect> {
    views(app.screen(), layout)
}

/// [`map_views`] with `screen` up.
fn views(screen: &Screen, layout: &Layout) -> Vec<Rect> {
    let map = layout.map;
    let comparing =
        screen.mode() == Mode::Lab && screen.lab().is_some_and(|l| l.searches.len() > 1);
    if !comparing {
        return vec![map];
    }
    // The row above each view is its caption.
    let below_caption = |r: Rect| Rect::new(r.x, r.y + 1, r.width, r.height.saturating_sub(1));
    let halves = if map.width >= 2 * map.height {
        let w = (map.width - 1) / 2;
        [
            Rect::new(map.x, map.y, w, map.height),
            Rect::new(map.x + w + 1, map.y, w, map.height),
        ]
    } else {
        let h = (map.height - 1) / 2;
        [
            Rect::new(map.x, map.y, map.width, h),
            Rect::new(map.x, map.y + h + 1, map.width, h),
        ]
    };
    halves.into_iter().map(below_caption).collect()
}

/// The view the camera is settled for: the first map view, for the UI state `ui` with
/// `screen` up.
fn first_view(ui: &Ui, screen: &Screen, area: Rect) -> Option<Rect> {
    let l = split(ui, screen, area)?;
    views(screen, &l).first().copied()
}

/// The map cell under a screen cell, if the map is drawn there (with the camera the last
/// frame was drawn with).
pub fn map_cell(app: &App, col: u16, row: u16) -> Option<Pos> {
    let area = Rect::new(0, 0, app.ui.size.0, app.ui.size.1);
    let l = layout(app, area)?;
    map_views(app, &l).into_iter().find_map(|view| {
        if col < view.x || row < view.y || col >= view.right() || row >= view.bottom() {
            return None;
        }
        let p = Pos::new(
            app.ui().camera().x + i32::from(col - view.x),
            app.ui().camera().y + i32::from(row - view.y),
        );
        app.world().grid().contains(p).then_some(p)
    })
}

/// The screen cell a map cell is drawn on in the first map view, if it is on screen (the
/// inverse of [`map_cell`]).
pub fn screen_cell(app: &App, p: Pos) -> Option<(u16, u16)> {
    cell_in(app, Rect::new(0, 0, app.ui.size.0, app.ui.size.1), p)
}

/// [`screen_cell`] for a frame drawn in `area`: where the view draws map cell `p`.
pub fn cell_in(app: &App, area: Rect, p: Pos) -> Option<(u16, u16)> {
    drawn_at(app.ui(), app.screen(), app.world(), area, p)
}

/// [`cell_in`] for the UI state `ui` with `screen` up on `world`.
fn drawn_at(ui: &Ui, screen: &Screen, world: &World, area: Rect, p: Pos) -> Option<(u16, u16)> {
    let view = first_view(ui, screen, area)?;
    let (dx, dy) = (p.x - ui.camera.x, p.y - ui.camera.y);
    let inside = world.grid().contains(p)
        && (0..i32::from(view.width)).contains(&dx)
        && (0..i32::from(view.height)).contains(&dy);
    inside.then(|| (view.x + dx as u16, view.y + dy as u16))
}

pub use crate::content::level::tools::line;

impl Ui {
    /// Keeps the camera where `screen` wants it on `world`: on the player while playing;
    /// in look and edit modes it moves only when the cursor nears the edge of the view, so
    /// the map does not jump under the pointer.
    pub(crate) fn settle_camera(&mut self, screen: &Screen, world: &World) {
        let area = Rect::new(0, 0, self.size.0, self.size.1);
        if let Some(view) = first_view(self, screen, area) {
            self.camera = camera_for(self.camera, screen, world, view);
        }
    }

    /// Where look and edit cursors start, and what the inspector shows, with `screen` up
    /// on `world`: the selected monster when it is on screen, else the player (always on
    /// screen while playing), so the camera need not move and the inspector never shows
    /// cells the map does not.
    pub fn focus_default(&self, screen: &Screen, world: &World) -> Pos {
        let area = Rect::new(0, 0, self.size.0, self.size.1);
        self.selection
            .id
            .and_then(|id| world.monster(id))
            .map(|m| m.pos)
            .filter(|&p| drawn_at(self, screen, world, area, p).is_some())
            .unwrap_or(world.player().pos)
    }

    /// The map view's size in cells with `screen` up, for a level made to fill it;
    /// nothing fits a terminal too small for the game.
    pub(crate) fn map_view_size(&self, screen: &Screen) -> Option<(usize, usize)> {
        split(self, screen, Rect::new(0, 0, self.size.0, self.size.1))
            .map(|l| (usize::from(l.map.width), usize::from(l.map.height)))
    }
}
