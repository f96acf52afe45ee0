//! The side panel in edit mode: which floor of the campaign is edited, the cell under the
//! cursor, the tool and the glyph, the clipboard, then the keys of what the editor waits
//! for now, read from the key table (so the panel cannot miss one).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget};

use super::words::pack;
use crate::app::keymap::{self, Action, BINDINGS, Context};
use crate::app::{App, Prefix, Tools, tile_name};
use crate::content::level::tile_glyph;
use crate::engine::grid::Pos;
use crate::text::wrap;

/// What the editor holds now, in a few words: the cursor, the glyph, the shape under way or
/// the key waited for (the hint bar's start).
pub(super) fn state_line(app: &App) -> String {
    let Some(tools) = app.screen().tools() else {
        return app.cursor().to_string();
    };
    // The cell first, as the panel's "At" says it, then what the brush lays: a bare glyph
    // name after the cell read as the cell's own; each field two spaces from the next, or
    // the glyph's name runs on into what follows ("wall rectangle from 3,1").
    let glyph = format!("{} {}", tile_glyph(tools.glyph), tile_name(tools.glyph));
    let mut s = format!(
        "{} {}  glyph {}",
        app.cursor(),
        cell_words(app, app.cursor()),
        glyph.trim()
    );
    match (tools.prefix, tools.pending) {
        (Some(Prefix::Monster), _) => s.push_str("  monster: its letter"),
        (Some(Prefix::Resize), _) => {
            let g = &app.session().design().level().grid;
            s.push_str(&format!("  resizing {}x{}", g.width(), g.height()));
        }
        (None, Some((tool, from))) => s.push_str(&format!("  {} from {from}", tool.name())),
        (None, None) => {}
    }
    s
}

/// What the design has on a cell, in words.
fn cell_words(app: &App, p: Pos) -> String {
    let design = app.session().design();
    match design.creature_at(p) {
        Some('@') => "the player".into(),
        Some(c) => format!("{c} {}", design.level().grid.kind(c).name),
        None => match design.feature_at(p) {
            Some(f) => format!("{} {}", f.glyph(), f.name()),
            None => {
                let t = design.level().grid.get(p);
                format!("{} {}", tile_glyph(t), tile_name(t)).trim().into()
            }
        },
    }
}

pub(super) fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let block = Block::bordered().title(" editor ");
    let inner = block.inner(area);
    block.render(area, buf);
    // Outside the editor there is nothing to show in its panel.
    let Some(tools) = app.screen().tools() else {
        return;
    };
    let width = usize::from(inner.width).max(1);
    let mut lines: Vec<Line<'static>> = Vec::new();
    field_lines(app, tools, width, &mut lines);
    // What the editor waits for, above its keys; idle, the keys speak for themselves.
    let waiting = match (tools.prefix, tools.pending) {
        (Some(Prefix::Monster), _) => Some("type the monster's letter:"),
        (Some(Prefix::Resize), _) => Some("resizing the map:"),
        (None, Some((crate::app::Tool::Copy, _))) => Some("to the far corner, then c:"),
        (None, Some(_)) => Some("to the end, then a tile:"),
        (None, None) => None,
    };
    if let Some(what) = waiting {
        lines.push(Line::styled(
            what.to_string(),
            Style::new().fg(Color::DarkGray),
        ));
    }
    key_lines(app, width, &mut lines);
    Paragraph::new(lines).render(inner, buf);
}

/// A named field, its value wrapped beside the name.
fn field(lines: &mut Vec<Line<'static>>, width: usize, name: &'static str, value: String) {
    let head = Style::new().add_modifier(Modifier::BOLD);
    let mut first = true;
    for part in wrap(&value, width.saturating_sub(name.len() + 1).max(1)) {
        let label = if first { name } else { "" };
        first = false;
        lines.push(Line::from(vec![
            Span::styled(format!("{label:<w$} ", w = name.len()), head),
            Span::raw(part),
        ]));
    }
}

/// The floor, the file, the next floor, the cell at the cursor, the tool, the glyph and the
/// clipboard.
fn field_lines(app: &App, tools: &Tools, width: usize, lines: &mut Vec<Line<'static>>) {
    let w = app.world();
    let grid = &app.session().design().level().grid;
    field(
        lines,
        width,
        "Floor",
        format!(
            "{} of {}, map {}x{}",
            w.run().depth,
            w.final_depth(),
            grid.width(),
            grid.height()
        ),
    );
    field(lines, width, "File", app.session().source().name());
    if let Some(next) = app.session().design().next() {
        field(
            lines,
            width,
            "Next",
            crate::text::escape_controls(next).into_owned(),
        );
    }
    field(
        lines,
        width,
        "At",
        format!("{} {}", app.cursor(), cell_words(app, app.cursor())),
    );
    let tool = match tools.pending {
        Some((tool, from)) => format!("{} from {from}", tool.name()),
        None => "brush".into(),
    };
    field(lines, width, "Tool", tool);
    let glyph = format!("{} {}", tile_glyph(tools.glyph), tile_name(tools.glyph));
    field(lines, width, "Glyph", glyph.trim().to_string());
    if let Some(clip) = app.ui().clipboard() {
        field(
            lines,
            width,
            "Clip",
            format!("{}x{}", clip.width(), clip.height()),
        );
    }
}

/// The keys of what the editor waits for now: a question's answers, the editor's hints, or
/// the table's keys of the context it is in.
fn key_lines(app: &App, width: usize, lines: &mut Vec<Line<'static>>) {
    let context = app.contexts()[0];
    if let Some(question) = app.screen().question() {
        // A question's own answers, as its box gives them: the keys of other questions do
        // nothing now (the question about a file changed on disk takes neither y nor n).
        let answers = super::question::question_answers(app, question);
        let units: Vec<&str> = answers.split("  ").collect();
        lines.extend(pack(&units, "  ", width).into_iter().map(Line::raw));
    } else if context == Context::Edit {
        // Every key in a few words, as the hint bar has them.
        let hints = keymap::hints(&app.ui().settings().bindings, &[context]);
        let units: Vec<&str> = hints.split("  ").collect();
        lines.extend(pack(&units, "  ", width).into_iter().map(Line::raw));
    } else {
        table_lines(app, context, width, lines);
    }
}

/// The key table's keys of `context`, a monster's key with its kind's name; under the
/// monster prefix, the level's own kinds too.
fn table_lines(app: &App, context: Context, width: usize, lines: &mut Vec<Line<'static>>) {
    for b in BINDINGS.iter().filter(|b| b.context == context) {
        // A monster's key with its kind's name, one to a line.
        let kinds: Vec<String> = b
            .keys
            .iter()
            .filter_map(|(k, a)| match a {
                Action::PlaceKind(c) => Some(format!(
                    "{} {}",
                    k.name(),
                    app.session().design().level().grid.kind(*c).name
                )),
                _ => None,
            })
            .collect();
        if kinds.is_empty() {
            let text = format!("{} {}", b.label, b.help);
            lines.extend(wrap(&text, width).into_iter().map(Line::raw));
        } else {
            lines.extend(pack(&kinds, "  ", width).into_iter().map(Line::raw));
        }
    }
    if context == Context::Monster {
        // The level's own kinds, each placed by its letter.
        let own: Vec<String> = app
            .session()
            .design()
            .level()
            .grid
            .kinds()
            .own()
            .iter()
            .map(|k| format!("{} {}", k.glyph, k.name))
            .collect();
        lines.extend(pack(&own, "  ", width).into_iter().map(Line::raw));
    }
}
