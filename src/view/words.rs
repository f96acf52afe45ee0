//! Small words and units of the views: counts, packed lines, a kind's colour, a message as
//! the log shows it. Below every view, so that each can use them.

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

use crate::app::config::Bindings;
use crate::content::kinds::Hue;
use crate::text::wrap;

/// A heading's style in the panels: bold.
pub(crate) fn head() -> Style {
    Style::new().add_modifier(Modifier::BOLD)
}

/// A quiet line's style in the panels: dark grey.
pub(crate) fn dim() -> Style {
    Style::new().fg(Color::DarkGray)
}

/// The colour of a monster of `glyph` on a map of `grid` (which knows its level's own kinds).
pub fn kind_color(grid: &crate::content::map::TileMap, glyph: char) -> Color {
    match grid.kind(glyph).hue {
        Hue::Yellow => Color::Yellow,
        Hue::Green => Color::Green,
        Hue::Red => Color::Red,
        Hue::Magenta => Color::Magenta,
        Hue::Cyan => Color::Cyan,
        Hue::Blue => Color::LightBlue,
        Hue::White => Color::White,
    }
}

/// A message as the log shows it, its advice naming the player's keys: borrowed unless
/// it carries a repeat count or other keys.
pub(crate) fn message_text<'a>(
    bindings: &Bindings,
    m: &'a crate::game::Message,
) -> std::borrow::Cow<'a, str> {
    let text = m.worded(bindings);
    if m.count > 1 {
        std::borrow::Cow::Owned(format!("{text} x{}", m.count))
    } else {
        text
    }
}

/// Units of text (a figure with its word, such as `closed 99`) in lines of at most `width`
/// characters, joined by `sep` where they share a line: a figure never parts from its
/// word. A unit wider than a line is wrapped at its spaces.
pub fn pack<S: AsRef<str>>(units: &[S], sep: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut out: Vec<String> = Vec::new();
    let mut line = String::new();
    for unit in units {
        let unit = unit.as_ref();
        let len = unit.chars().count();
        if len == 0 {
            continue;
        }
        let joined = line.chars().count() + sep.chars().count() + len;
        if !line.is_empty() && joined <= width {
            line.push_str(sep);
            line.push_str(unit);
            continue;
        }
        if !line.is_empty() {
            out.push(std::mem::take(&mut line));
        }
        if len <= width {
            line.push_str(unit);
        } else {
            out.extend(wrap(unit, width));
        }
    }
    if !line.is_empty() || out.is_empty() {
        out.push(line);
    }
    out
}

/// [`pack`] for styled units: each unit is spans, joined by one space.
pub(super) fn pack_spans(units: Vec<Vec<Span<'static>>>, width: usize) -> Vec<Line<'static>> {
    let width = width.max(1);
    let mut out = Vec::new();
    let mut line: Vec<Span<'static>> = Vec::new();
    let mut used = 0;
    for unit in units {
        let len: usize = unit.iter().map(|s| s.content.chars().count()).sum();
        if len == 0 {
            continue;
        }
        if !line.is_empty() && used + 1 + len <= width {
            line.push(Span::raw(" "));
            used += 1 + len;
        } else {
            if !line.is_empty() {
                out.push(Line::from(std::mem::take(&mut line)));
            }
            used = len;
        }
        line.extend(unit);
    }
    out.push(Line::from(line));
    out
}

/// A count in at most five characters below 1000G: `953`, `12345`, `123k`, `79.1M`, `4.20G`.
pub fn format_count(n: u64) -> String {
    if n < 100_000 {
        return n.to_string();
    }
    let mut v = n as f64 / 1e3;
    for suffix in ['k', 'M'] {
        // Rounded before the unit is chosen, so that 999,999 is 1.00M and not 1000k.
        if let Some(text) = three_figures(v) {
            return format!("{text}{suffix}");
        }
        v /= 1e3;
    }
    format!("{}G", three_figures(v).unwrap_or_else(|| format!("{v:.0}")))
}

/// `v` (at least 1) to three significant figures, or `None` once it rounds to 1000 or more.
fn three_figures(v: f64) -> Option<String> {
    [(2, 10.0), (1, 100.0), (0, 1000.0)]
        .into_iter()
        .map(|(decimals, below)| (format!("{v:.decimals$}"), below))
        .find(|(text, below)| text.parse::<f64>().is_ok_and(|r| r < *below))
        .map(|(text, _)| text)
}

/// `1 search`, `3 searches`: a count with its noun in the right number.
pub(super) fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", format_count(n), if n == 1 { one } else { many })
}
