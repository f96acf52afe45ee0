//! The map view: tiles, the search overlay, the planned path, creatures and the cursor.

use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Span;
use ratatui::widgets::{Block, Widget};

use super::{Layout, kind_color};
use crate::app::{App, Mode};
use crate::engine::astar::{NodeState, Snapshot};
use crate::engine::grid::{Pos, Tile};

/// Overlay glyphs, readable without colour: open `+`, closed `:`, path `*`, current `%`.
const OPEN: char = '+';
const CLOSED: char = ':';
const PATH: char = '*';
const CURRENT: char = '%';

pub(super) fn render(app: &App, snapshot: Option<&Snapshot>, l: &Layout, buf: &mut Buffer) {
    let title = app
        .design
        .level()
        .title
        .clone()
        .unwrap_or_else(|| app.source.name());
    // The title is the file's text: escaped, it can never drive the terminal.
    let title = crate::text::escape_controls(&title);
    let mut block = Block::bordered().title(format!(" {title} "));
    if !app.world.options().is_default() {
        let o = &app.world.options();
        block = block.title_bottom(Span::styled(
            format!(
                " custom search: {} {} w{} ",
                o.neighbourhood.name(),
                o.heuristic.name(),
                o.weight
            ),
            Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
        ));
    }
    if app.mode == Mode::Edit {
        block = block.border_style(Style::new().fg(Color::Yellow));
    }
    block.render(l.map_block, buf);

    let view = l.map;
    let cam = app.camera;
    let grid = &app.world.grid();
    let selected = app.selected.and_then(|id| app.world.monster(id));
    for row in 0..view.height {
        for col in 0..view.width {
            let p = Pos::new(cam.x + i32::from(col), cam.y + i32::from(row));
            let tile = grid.get(p);
            let style = match tile {
                Tile::Wall => Style::new().fg(Color::Gray),
                Tile::Floor => Style::new().fg(Color::DarkGray),
                Tile::Void => Style::new(),
            };
            let ch = crate::content::level::tile_glyph(tile);
            buf[(view.x + col, view.y + row)]
                .set_char(ch)
                .set_style(style);
        }
    }
    let mut put = |p: Pos, ch: Option<char>, style: Style| {
        let (dx, dy) = (p.x - cam.x, p.y - cam.y);
        if dx >= 0 && dy >= 0 && dx < i32::from(view.width) && dy < i32::from(view.height) {
            let cell = &mut buf[(view.x + dx as u16, view.y + dy as u16)];
            if let Some(c) = ch {
                cell.set_char(c);
            }
            cell.set_style(style);
        }
    };
    if let Some(snap) = snapshot {
        for n in &snap.nodes {
            let (ch, bg) = match n.state {
                NodeState::Open => (OPEN, Color::Green),
                NodeState::Closed => (CLOSED, Color::Blue),
            };
            put(n.pos, Some(ch), Style::new().fg(Color::White).bg(bg));
        }
        for &p in &snap.path {
            put(
                p,
                Some(PATH),
                Style::new().fg(Color::Black).bg(Color::Yellow),
            );
        }
        if let Some(c) = snap.current.filter(|_| app.overlay.step.is_some()) {
            put(
                c,
                Some(CURRENT),
                Style::new().fg(Color::White).bg(Color::Magenta),
            );
        }
    } else if app.show_path
        && let Some(m) = selected
    {
        for &p in m.plan.path.iter().skip(1) {
            put(p, Some(PATH), Style::new().fg(Color::Yellow));
        }
    }
    if app.mode == Mode::Edit {
        // The design's starts whose creature has moved away, dimmed: what a save writes.
        let design = app.design.level();
        let dim = Style::new()
            .fg(Color::DarkGray)
            .add_modifier(Modifier::ITALIC);
        for s in &design.monsters {
            if app.world.monster_from(s.pos).map(|m| m.pos) != Some(s.pos) {
                put(s.pos, Some(s.kind), dim);
            }
        }
        if let Some(p) = design.player.filter(|&p| p != app.world.player().pos) {
            put(p, Some('@'), dim);
        }
    }
    for m in app.world.monsters() {
        let mut style = Style::new()
            .fg(kind_color(m.kind))
            .add_modifier(Modifier::BOLD);
        if Some(m.id) == app.selected {
            style = style.add_modifier(Modifier::UNDERLINED | Modifier::REVERSED);
        }
        put(m.pos, Some(m.kind), style);
    }
    put(
        app.world.player().pos,
        Some('@'),
        Style::new().fg(Color::White).add_modifier(Modifier::BOLD),
    );
    if matches!(app.mode, Mode::Look | Mode::Edit) {
        put(
            app.cursor,
            None,
            Style::new().fg(Color::Black).bg(Color::White),
        );
    }
}
