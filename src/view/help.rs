//! The help screen, drawn from the key table so it lists every binding.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget};

use crate::app::keymap::{BINDINGS, Context};

const CONTEXTS: [Context; 5] = [
    Context::Global,
    Context::Play,
    Context::Overlay,
    Context::Look,
    Context::Edit,
];

/// The help lines: a heading per context, then `keys  what they do`.
pub fn lines() -> Vec<Line<'static>> {
    let head = Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD);
    let key = Style::new().fg(Color::Cyan);
    let mut out = Vec::new();
    for ctx in CONTEXTS {
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

pub(super) fn render(area: Rect, buf: &mut Buffer) {
    Clear.render(area, buf);
    let block = Block::bordered().title(" help: any key closes ");
    let inner = block.inner(area);
    block.render(area, buf);
    let all = lines();
    // Columns side by side when one is not tall enough, as many as the width allows.
    let per_col = inner.height.max(1) as usize;
    let columns = all.len().div_ceil(per_col) as u16;
    let col_w = (inner.width.saturating_sub(columns - 1) / columns).clamp(1, 48);
    for (c, chunk) in all.chunks(per_col).enumerate() {
        let x = inner.x + c as u16 * (col_w + 1);
        if x >= inner.right() {
            break;
        }
        let rect = Rect::new(x, inner.y, col_w.min(inner.right() - x), inner.height);
        Paragraph::new(chunk.to_vec()).render(rect, buf);
    }
}
