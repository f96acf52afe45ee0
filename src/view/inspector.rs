//! The zoomed inspector: cells around the cursor (or the monster) as boxes with F on top,
//! an arrow toward the parent and the node's state in the middle, G and H at the bottom.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::widgets::{Block, Borders, Widget};

use super::map::arrow;
use crate::app::{App, Mode};
use crate::content::map::Tile;
use crate::engine::astar::{NodeState, Snapshot};
use crate::engine::grid::Pos;

/// Inner height of a box: F, arrow and state, G and H.
const BOX_H: u16 = 3;
/// The most boxes across and down, so boxes stay readable on huge terminals.
const MAX_ACROSS: u16 = 9;
const MAX_DOWN: u16 = 7;

/// A number in at most `width` characters: `1234`, `12k`, `3M`, or `#` when nothing fits.
pub fn format_number(v: u32, width: usize) -> String {
    let plain = v.to_string();
    if plain.len() <= width {
        return plain;
    }
    for (div, suffix) in [(1_000, 'k'), (1_000_000, 'M'), (1_000_000_000, 'G')] {
        let s = format!("{}{suffix}", v / div);
        if v >= div && s.len() <= width {
            return s;
        }
    }
    "#".repeat(width.min(1))
}

/// Boxes across and down, and the inner width of a box, for an area.
fn fit(area: Rect) -> Option<(u16, u16, u16)> {
    let odd = |n: u16| {
        if n.is_multiple_of(2) {
            n.saturating_sub(1)
        } else {
            n
        }
    };
    [10u16, 8, 7].into_iter().find_map(|iw| {
        let across = odd(((area.width.saturating_sub(1)) / (iw + 1)).min(MAX_ACROSS));
        // Odd counts keep the focus in the middle, with as much around it on every side.
        let down = odd(((area.height.saturating_sub(1)) / (BOX_H + 1)).min(MAX_DOWN));
        (across >= 3 && down >= 1 || iw == 7 && across >= 1 && down >= 1)
            .then_some((across, down, iw))
    })
}

pub(super) fn render(app: &App, snap: Option<&Snapshot>, area: Rect, buf: &mut Buffer) {
    let stepping = app.ui().overlay().step.is_some();
    let following = snap
        .and_then(|s| s.current)
        .filter(|_| app.ui().overlay().follow && stepping);
    let focus = match (following, app.screen().mode()) {
        (Some(now), _) => now,
        (None, Mode::Look) => app.cursor(),
        _ => app.ui().focus_default(app.screen(), app.world()),
    };
    let formula = super::describe::formula(&app.world().options());
    let follows = if following.is_some() { " follows" } else { "" };
    let title = Block::new().borders(Borders::TOP).title(inspector_title(
        &format!(" inspector {focus}{follows}"),
        &formula,
        usize::from(area.width),
    ));
    let inner = title.inner(area);
    title.render(area, buf);
    let Some(snap) = snap else { return };
    let Some((across, down, iw)) = fit(inner) else {
        buf.set_string(inner.x, inner.y, "(too small for boxes)", Style::new());
        return;
    };
    let origin = Pos::new(
        focus.x - i32::from(across / 2),
        focus.y - i32::from(down / 2),
    );
    let (x0, y0) = (inner.x, inner.y);
    let border = Style::new().fg(Color::DarkGray);
    for j in 0..=down {
        for i in 0..=across {
            let (x, y) = (x0 + i * (iw + 1), y0 + j * (BOX_H + 1));
            buf[(x, y)]
                .set_char(junction(i, j, across, down))
                .set_style(border);
            if i < across {
                for k in 1..=iw {
                    buf[(x + k, y)].set_char('─').set_style(border);
                }
            }
            if j < down {
                for k in 1..=BOX_H {
                    buf[(x, y + k)].set_char('│').set_style(border);
                }
            }
        }
    }
    for j in 0..down {
        for i in 0..across {
            let p = origin.offset(i32::from(i), i32::from(j));
            let rect = Rect::new(x0 + i * (iw + 1) + 1, y0 + j * (BOX_H + 1) + 1, iw, BOX_H);
            draw_box(app, snap, p, p == focus, rect, buf);
        }
    }
}

fn junction(i: u16, j: u16, across: u16, down: u16) -> char {
    match (i == 0, i == across, j == 0, j == down) {
        (true, _, true, _) => '┌',
        (_, true, true, _) => '┐',
        (true, _, _, true) => '└',
        (_, true, _, true) => '┘',
        (_, _, true, _) => '┬',
        (_, _, _, true) => '┴',
        (true, _, _, _) => '├',
        (_, true, _, _) => '┤',
        _ => '┼',
    }
}

fn draw_box(app: &App, snap: &Snapshot, p: Pos, focused: bool, r: Rect, buf: &mut Buffer) {
    let w = r.width as usize;
    let tile = app.world().grid().get(p);
    if !tile.is_passable() {
        let (ch, style) = match tile {
            Tile::Wall => ('█', Style::new().fg(Color::Gray)),
            _ => (' ', Style::new()),
        };
        for y in r.y..r.bottom() {
            for x in r.x..r.right() {
                buf[(x, y)].set_char(ch).set_style(style);
            }
        }
        return;
    }
    let trace = app.world().trace();
    let on_path = snap.path.contains(&p);
    let mut style = match snap.get(p).map(|n| n.state) {
        _ if on_path => Style::new().fg(Color::Black).bg(Color::Yellow),
        Some(NodeState::Open) => Style::new().fg(Color::Green),
        Some(NodeState::Closed) => Style::new().fg(Color::Cyan),
        None => Style::new().fg(Color::DarkGray),
    };
    if focused {
        style = style.add_modifier(Modifier::BOLD | Modifier::UNDERLINED);
    }
    let who = if app.world().player().pos == p {
        Some('@')
    } else {
        app.world().monster_at(p).map(|m| m.kind)
    };
    // Water and brush say so, with their weight: `~3`.
    let terrain = super::map::terrain_glyph(app.world().grid(), p)
        .map(|c| format!("{c}{}", app.world().grid().weight(p)));
    let Some(n) = snap.get(p) else {
        let label = match (who, &terrain) {
            (Some(c), Some(t)) => format!("{c} {t}"),
            (Some(c), None) => c.to_string(),
            (None, Some(t)) => t.clone(),
            (None, None) => String::new(),
        };
        put_line(buf, r, 1, &center(&label, w), style);
        return;
    };
    let role = if trace.is_some_and(|t| t.start == p) {
        "start"
    } else if trace.is_some_and(|t| t.goal == p) {
        "goal"
    } else if snap.current == Some(p) && app.ui().overlay().step.is_some() {
        "now"
    } else if on_path {
        "path"
    } else {
        n.state.name()
    };
    // Water and brush put their tag before F: `~3 F110`.
    let top = match &terrain {
        Some(t) => format!(
            "{t} F{}",
            format_number(n.f, w.saturating_sub(2 + t.chars().count()))
        ),
        None => format!("F{}", format_number(n.f, w.saturating_sub(1))),
    };
    let mid = match (n.parent, who) {
        (Some(q), Some(c)) => format!("{}{c} {role}", arrow(p, q)),
        (Some(q), None) => format!("{} {role}", arrow(p, q)),
        (None, Some(c)) => format!("{c} {role}"),
        (None, None) => role.to_string(),
    };

    let (g, h) = g_and_h(n.g, n.h, w);
    let bottom = format!("{g}{}{h}", " ".repeat(w - g.len() - h.len()));
    put_line(buf, r, 0, &center(&top, w), style);
    put_line(buf, r, 1, &center(&mid, w), style);
    put_line(buf, r, 2, &bottom, style);
}

/// G bottom left and H bottom right of a box `w` wide, each with its letter and a space
/// between them: a number too wide for what is left shrinks (`12k`), G first kept whole
/// where only one of them fits, so that neither ever loses its name.
fn g_and_h(g: u32, h: u32, w: usize) -> (String, String) {
    let (gd, hd) = (g.to_string().len(), h.to_string().len());
    // Two letters and a space around the digits.
    let room = w.saturating_sub(3);
    let (gw, hw) = if gd + hd <= room {
        (gd, hd)
    } else if gd <= room - room / 2 {
        (gd, room - gd)
    } else if hd <= room / 2 {
        (room - hd, hd)
    } else {
        (room - room / 2, room / 2)
    };
    (
        format!("G{}", format_number(g, gw)),
        format!("H{}", format_number(h, hw)),
    )
}

fn center(s: &str, w: usize) -> String {
    let s: String = s.chars().take(w).collect();
    let len = s.chars().count();
    let left = (w - len) / 2;
    format!("{}{s}{}", " ".repeat(left), " ".repeat(w - len - left))
}

fn put_line(buf: &mut Buffer, r: Rect, row: u16, text: &str, style: Style) {
    for (i, c) in text.chars().take(r.width as usize).enumerate() {
        buf[(r.x + i as u16, r.y + row)]
            .set_char(c)
            .set_style(style);
    }
}

/// The inspector's title in `room` columns: the formula goes whole before the name does.
fn inspector_title(name: &str, formula: &str, room: usize) -> String {
    let full = format!("{name} · {formula} ");
    if full.trim_end().chars().count() <= room {
        return crate::text::fit_title(&full, room);
    }
    crate::text::fit_title(&format!("{name} "), room)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_shrink_to_fit_their_box() {
        assert_eq!(format_number(68, 3), "68");
        assert_eq!(format_number(12345, 3), "12k");
        assert_eq!(format_number(12_345_678, 3), "12M");
        assert_eq!(format_number(123_456_789, 3), "#");
        assert_eq!(format_number(123_456_789, 4), "123M");
    }

    #[test]
    fn g_and_h_keep_their_names_with_four_digits() {
        // Two numbers that fit keep every digit.
        assert_eq!(g_and_h(14, 54, 8), ("G14".into(), "H54".into()));
        assert_eq!(g_and_h(1234, 567, 10), ("G1234".into(), "H567".into()));
        // Four digits each: G stays whole where it can, H shrinks, both keep their letter.
        assert_eq!(g_and_h(1234, 5678, 10), ("G1234".into(), "H5k".into()));
        assert_eq!(g_and_h(1234, 5678, 8), ("G1k".into(), "H5k".into()));
        assert_eq!(g_and_h(98, 5678, 8), ("G98".into(), "H5k".into()));
        assert_eq!(g_and_h(1234, 56, 8), ("G1k".into(), "H56".into()));
        assert_eq!(g_and_h(12_345, 9, 10), ("G12345".into(), "H9".into()));
        for w in [7, 8, 10] {
            for (g, h) in [(0, 0), (9999, 9999), (123_456, 7), (5, 123_456_789)] {
                let (gs, hs) = g_and_h(g, h, w);
                assert!(gs.starts_with('G') && hs.starts_with('H'), "{gs} {hs}");
                assert!(gs.len() + hs.len() < w, "{gs} {hs} in {w}");
            }
        }
    }

    #[test]
    fn boxes_adapt_to_the_space() {
        assert_eq!(fit(Rect::new(0, 0, 100, 30)), Some((9, 7, 10)));
        // Two rows of room show one: the focus keeps the middle, never a row missing below.
        assert_eq!(fit(Rect::new(0, 0, 30, 9)), Some((3, 1, 8)));
        assert_eq!(fit(Rect::new(0, 0, 30, 13)), Some((3, 3, 8)));
        assert_eq!(fit(Rect::new(0, 0, 9, 5)), Some((1, 1, 7)));
        assert_eq!(fit(Rect::new(0, 0, 7, 5)), None);
    }
}
