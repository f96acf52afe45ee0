//! The help screen, drawn from the key table so it lists every binding.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget};

use crate::app::App;
use crate::app::keymap::{BINDINGS, HELP_CONTEXTS};
use crate::app::screen::help_layout;

/// The help lines: a heading per context, then `keys  what they do`.
pub fn lines() -> Vec<Line<'static>> {
    let head = Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD);
    let key = Style::new().fg(Color::Cyan);
    let mut out = Vec::new();
    for ctx in HELP_CONTEXTS {
        out.push(Line::styled(ctx.title(), head));
        for b in BINDINGS.iter().filter(|b| b.context == ctx) {
            out.push(Line::from(vec![
                Span::styled(format!(" {:<11} ", b.label), key),
                Span::raw(b.help),
            ]));
        }
    }
    out
}

pub(super) fn render(app: &App, area: Rect, buf: &mut Buffer) {
    Clear.render(area, buf);
    let all = lines();
    let layout = help_layout(area, all.len());
    let page = app.help_page.min(layout.pages - 1);
    let title = if layout.pages > 1 {
        format!(
            " help {}/{}: PgDn PgUp, any other key closes ",
            page + 1,
            layout.pages
        )
    } else {
        " help: any key closes ".to_string()
    };
    let block = Block::bordered().title(title);
    let inner = block.inner(area);
    block.render(area, buf);
    let per_page = layout.rows * layout.columns;
    let shown = all.chunks(per_page).nth(page).unwrap_or_default();
    // As many columns as this page needs, side by side.
    let columns = shown.len().div_ceil(layout.rows).max(1) as u16;
    let col_w = (inner.width.saturating_sub(columns - 1) / columns).clamp(1, 48);
    for (c, chunk) in shown.chunks(layout.rows).enumerate() {
        let x = inner.x + c as u16 * (col_w + 1);
        if x >= inner.right() {
            break;
        }
        let rect = Rect::new(x, inner.y, col_w.min(inner.right() - x), inner.height);
        Paragraph::new(chunk.to_vec()).render(rect, buf);
    }
}
