//! The message history: the whole run's log on one screen, newest at the bottom, scrolled
//! back a message at a time or a page at a time.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget};

use crate::app::App;
use crate::app::keymap::{BINDINGS, Context};

/// Columns of the turn number before each message.
const TURN_WIDTH: usize = 5;

pub(super) fn render(app: &App, area: Rect, buf: &mut Buffer) {
    Clear.render(area, buf);
    let log = app.world().log();
    let scroll = app
        .screen()
        .history_scroll()
        .min(log.len().saturating_sub(1));
    // Messages up to the one at the bottom.
    let shown = log.len() - scroll;
    let inner = Block::bordered().inner(area);
    let height = usize::from(inner.height);
    let text_width = usize::from(inner.width)
        .saturating_sub(TURN_WIDTH + 1)
        .max(1);
    let dim = Style::new().fg(Color::DarkGray);
    // At most `max` lines of a message; one taller than the screen is cut with a mark.
    // Only what shows is wrapped, so a message of a megabyte opens the history at once.
    let message_lines = |m: &crate::game::Message, max: usize| -> Vec<Line<'static>> {
        let mut parts = crate::text::wrap_cut(
            &super::words::message_text(&app.ui().settings().bindings, m),
            text_width,
            height,
        );
        parts.truncate(max);
        parts
            .into_iter()
            .enumerate()
            .map(|(i, part)| {
                let turn = if i == 0 {
                    format!("{:>TURN_WIDTH$} ", m.turn)
                } else {
                    " ".repeat(TURN_WIDTH + 1)
                };
                Line::from(vec![Span::styled(turn, dim), Span::raw(part)])
            })
            .collect()
    };
    // The last message shown sits at the bottom with the ones before it above; scrolled back
    // to the first messages, the screen fills with the ones after instead, so it is never
    // half empty. A message taller than the space left shows its first lines.
    let mut lines: Vec<Line> = Vec::new();
    let (mut first, mut last) = (shown, shown);
    for (i, m) in log[..shown].iter().enumerate().rev() {
        if lines.len() >= height {
            break;
        }
        let parts = message_lines(m, height - lines.len());
        lines.splice(0..0, parts);
        first = i;
    }
    for m in &log[shown..] {
        if lines.len() >= height {
            break;
        }
        lines.extend(message_lines(m, height - lines.len()));
        last += 1;
    }
    lines.truncate(height);
    // Messages numbered from 1, as far as they show.
    let b = &app.ui().settings().bindings;
    // The keys of the history's hints, without their words ("↑↓ PgUp PgDn scroll" and
    // "Esc close" give "↑↓ PgUp PgDn Esc"), as the player bound them.
    let keys: Vec<String> = BINDINGS
        .iter()
        .enumerate()
        .filter(|(_, r)| r.context == Context::History && !r.hint.is_empty())
        .map(|(i, _)| {
            let hint = b.hint(i);
            hint.rsplit_once(' ')
                .map_or_else(|| hint.to_string(), |(keys, _)| keys.to_string())
        })
        .collect();
    let keys = keys.join(" ");
    let block = Block::bordered()
        .title(" message history ")
        .title_bottom(format!(" {}-{last} of {} {keys} ", first + 1, log.len()));
    block.render(area, buf);
    // Short logs sit at the bottom, where the newest message always is.
    let top = inner.y + inner.height.saturating_sub(lines.len() as u16);
    let rect = Rect::new(inner.x, top, inner.width, inner.bottom() - top);
    Paragraph::new(lines).render(rect, buf);
}
