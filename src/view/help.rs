//! The help screen, drawn from [`crate::app::help`]'s layout of the key table.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget};

use crate::app::config::Bindings;
use crate::app::help::{GAP, KEYS_W, Row, continued, layout, title};

/// Draws help page `page`; its bottom border names the run's seed, which plays the run
/// again (`--seed`).
pub(super) fn render(bindings: &Bindings, page: usize, seed: u64, area: Rect, buf: &mut Buffer) {
    Clear.render(area, buf);
    let help = layout(bindings, area);
    let (about, col_w, per_page, cols) = (&help.about, help.col_w, help.per_page, &help.cols);
    let total = help.pages();
    let page = page.min(total - 1);
    let title = title(bindings, page, total, usize::from(area.width));
    let block = Block::bordered()
        .title(title)
        .title_bottom(Line::from(format!(" run seed {seed} ")).right_aligned());
    let inner = block.inner(area);
    block.render(area, buf);
    let mut y = inner.y;
    if page == 0 {
        let h = about.len() as u16;
        let lines: Vec<Line> = about.iter().map(|l| Line::from(l.as_str())).collect();
        Paragraph::new(lines)
            .style(Style::new().fg(Color::White))
            .render(Rect::new(inner.x, y, inner.width, h.min(inner.height)), buf);
        y += h + 1;
    }
    let head = Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD);
    let key = Style::new().fg(Color::Cyan);
    for (c, col) in cols.iter().skip(page * per_page).take(per_page).enumerate() {
        let x = inner.x + (c * (col_w + GAP)) as u16;
        if x >= inner.right() || y >= inner.bottom() {
            break;
        }
        let mut lines = Vec::new();
        for (i, row) in col.iter().enumerate() {
            lines.push(match row {
                Row::Heading(ctx) => {
                    let cont = if i == 0 {
                        continued(cols, page * per_page + c, *ctx)
                    } else {
                        ""
                    };
                    Line::styled(format!("{}{cont}", bindings.title(*ctx)), head)
                }
                Row::Binding(label, help) => Line::from(vec![
                    Span::styled(format!(" {label:<w$} ", w = KEYS_W - 1), key),
                    Span::raw(help.as_str()),
                ]),
                Row::More(_) => Line::raw(row.text(bindings)),
            });
        }
        let rect = Rect::new(
            x,
            y,
            (col_w as u16).min(inner.right() - x),
            inner.bottom() - y,
        );
        Paragraph::new(lines).render(rect, buf);
    }
}
