//! Drawing: `impl Widget for &App`, one file per view. Renders from state, changes nothing.

mod help;
mod inspector;
mod map;
mod panel;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Widget, Wrap};

use crate::app::{App, Confirm, Mode};
use crate::engine::astar::Snapshot;
use crate::engine::grid::Pos;
use crate::game::GameState;

pub use inspector::format_number;

use crate::app::screen::{Layout, MIN_SIZE, layout};
use crate::content::kinds::Hue;

/// The colour of a monster kind.
pub fn kind_color(glyph: char) -> Color {
    match crate::content::kinds::kind(glyph).hue {
        Hue::Yellow => Color::Yellow,
        Hue::Green => Color::Green,
        Hue::Red => Color::Red,
        Hue::Magenta => Color::Magenta,
        Hue::Cyan => Color::Cyan,
    }
}

impl Widget for &App {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let Some(l) = layout(self, area) else {
            too_small(area, buf);
            return;
        };
        // One replay of the trace per frame, shared by every view.
        let snap = if self.overlay.on {
            self.snapshot()
        } else {
            None
        };
        let snap = snap.as_deref();
        map::render(self, snap, &l, buf);
        panel::render(self, snap, l.side, buf);
        render_log(self, l.log, buf);
        render_hint(self, snap, l.hint, buf);
        if self.mode == Mode::Help {
            help::render(area, buf);
        } else if self.world.state() == GameState::Dead {
            popup(
                area,
                buf,
                " You died ",
                &[
                    format!("Slain on turn {}.", self.world.turn()),
                    String::new(),
                    "r  restart    q  quit".into(),
                ],
            );
        }
        if let Some(question) = &self.confirm {
            let (title, lines) = question_text(self, question);
            popup(area, buf, title, &lines);
        }
    }
}

/// The title and lines of the popup that asks `question`.
fn question_text(app: &App, question: &Confirm) -> (&'static str, Vec<String>) {
    let file = app.source.name();
    let unsaved = format!("{file} has unsaved edits.");
    match question {
        Confirm::Quit if app.unsaved() => (
            " Quit? ",
            vec![
                unsaved,
                "s  save and quit".into(),
                "y  quit without saving".into(),
                "n  keep playing".into(),
            ],
        ),
        Confirm::Quit => (
            " Quit? ",
            vec![
                "The game is in progress.".into(),
                "y  quit    n  keep playing".into(),
            ],
        ),
        Confirm::Overwrite => (
            " Overwrite? ",
            vec![
                format!("{file} changed on disk."),
                "y  overwrite    n  keep it".into(),
            ],
        ),
        Confirm::Restart => (
            " Restart? ",
            vec![
                "The game is in progress.".into(),
                "y  restart    n  keep playing".into(),
            ],
        ),
        Confirm::NewLevel => (
            " New level? ",
            vec![
                if app.unsaved() {
                    format!("{unsaved} A new level drops them.")
                } else {
                    "The game in progress ends.".into()
                },
                "y  generate    n  keep this level".into(),
            ],
        ),
        Confirm::Reload(_) => (
            " Changed on disk ",
            vec![
                format!("{file} changed on disk, and the game"),
                "has unsaved edits. Which to keep?".into(),
                "f  the file's (drop the game's edits)".into(),
                "k  the game's (saving asks first)".into(),
            ],
        ),
    }
}

/// A box over the frame with a front end's own message (a long turn, a level loading),
/// drawn as the game's questions are.
pub fn notice(area: Rect, buf: &mut Buffer, title: &str, lines: &[String]) {
    popup(area, buf, title, lines);
}

/// Drops the colours of every cell and keeps its glyph and modifiers (reversed, bold,
/// dim): what `NO_COLOR` asks for. Everything the view shows in colour also has a glyph.
pub fn strip_colours(buf: &mut Buffer) {
    for cell in &mut buf.content {
        cell.set_fg(Color::Reset).set_bg(Color::Reset);
    }
}

fn too_small(area: Rect, buf: &mut Buffer) {
    let text = format!("terminal too small: need {}x{}", MIN_SIZE.0, MIN_SIZE.1);
    Paragraph::new(text)
        .wrap(Wrap { trim: true })
        .render(area, buf);
}

fn popup(area: Rect, buf: &mut Buffer, title: &str, lines: &[String]) {
    let w = lines
        .iter()
        .map(|l| l.chars().count())
        .chain([title.chars().count()])
        .max()
        .unwrap_or(0) as u16
        + 4;
    let h = lines.len() as u16 + 2;
    let rect = Rect::new(
        area.x + area.width.saturating_sub(w) / 2,
        area.y + area.height.saturating_sub(h) / 2,
        w.min(area.width),
        h.min(area.height),
    );
    Clear.render(rect, buf);
    let block = Block::bordered()
        .title(title)
        .border_style(Style::new().fg(Color::Yellow));
    let text: Vec<Line> = lines.iter().map(|l| Line::from(format!(" {l}"))).collect();
    Paragraph::new(text).block(block).render(rect, buf);
}

fn render_log(app: &App, area: Rect, buf: &mut Buffer) {
    let block = Block::new().borders(Borders::TOP).title(" log ");
    let inner = block.inner(area);
    block.render(area, buf);
    let n = inner.height as usize;
    let width = usize::from(inner.width).max(1);
    // Newest last; long messages wrap so file errors stay readable in full.
    let mut lines: Vec<Line> = Vec::new();
    for m in app.world.log().iter().rev() {
        if lines.len() >= n {
            break;
        }
        let style = if m.turn == app.world.turn() {
            Style::new()
        } else {
            Style::new().fg(Color::DarkGray)
        };
        // A message too long for the space left shows its beginning.
        let mut parts = wrap(&m.text, width);
        parts.truncate(n - lines.len());
        for part in parts.into_iter().rev() {
            lines.insert(0, Line::styled(part, style));
        }
    }
    Paragraph::new(lines).render(inner, buf);
}

fn render_hint(app: &App, snap: Option<&Snapshot>, area: Rect, buf: &mut Buffer) {
    let text = match app.mode {
        Mode::Look => describe_cell(app, snap, app.cursor),
        Mode::Edit => format!(
            "EDIT {}  w wall  . floor  m {}  K kind  d del  @ player  U/R undo/redo  s save  e done",
            app.cursor,
            app.editor.kind()
        ),
        _ if app.overlay.on => {
            let total = app.world.trace().map_or(0, |t| t.expansions());
            let step = app.overlay.step.unwrap_or(total);
            format!(
                "step {step}/{total}  [ ] step  {{ }} ends  a play  +- speed  N H W options  D reset"
            )
        }
        _ => "hjklyubn move  . wait  Tab select  o search  x look  e edit  ? help  q quit"
            .to_string(),
    };
    Paragraph::new(Line::from(Span::styled(
        text,
        Style::new().add_modifier(Modifier::REVERSED),
    )))
    .render(area, buf);
    for x in area.x..area.right() {
        buf[(x, area.y)].set_style(Style::new().add_modifier(Modifier::REVERSED));
    }
}

/// Splits text into lines of at most `width` characters, at spaces where possible.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let needed = line.chars().count() + usize::from(!line.is_empty()) + word.chars().count();
        if needed > width && !line.is_empty() {
            out.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
        while line.chars().count() > width {
            let head: String = line.chars().take(width).collect();
            line = line.chars().skip(width).collect();
            out.push(head);
        }
    }
    out.push(line);
    out
}

/// The look-mode description of a cell: its F, G, H, parent, state and order.
pub fn look_line(app: &App, p: Pos) -> String {
    let snap = if app.overlay.on { app.snapshot() } else { None };
    describe_cell(app, snap.as_deref(), p)
}

fn describe_cell(app: &App, snap: Option<&Snapshot>, p: Pos) -> String {
    let tile = app.world.grid().get(p);
    let mut s = format!("LOOK {p}");
    if let Some(m) = app.world.monster_at(p) {
        s.push_str(&format!(
            " {} {}",
            m.kind,
            crate::content::kinds::kind(m.kind).name
        ));
    } else if app.world.player().pos == p {
        s.push_str(" you");
    } else if !tile.is_passable() {
        s.push_str(match tile {
            crate::engine::grid::Tile::Wall => " wall",
            _ => " void",
        });
    }
    let Some(snap) = snap else {
        s.push_str("  (o shows the search)");
        return s;
    };
    match snap.get(p) {
        Some(n) => {
            s.push_str(&format!("  F {} G {} H {}", n.f, n.g, n.h));
            match n.parent {
                Some(q) => s.push_str(&format!("  parent {q}")),
                None => s.push_str("  start"),
            }
            s.push_str(&format!("  {}", n.state.name()));
            if let Some(o) = n.order {
                s.push_str(&format!(" #{o}"));
            }
        }
        None => s.push_str("  never touched by the search"),
    }
    s
}

#[cfg(test)]
mod tests {
    use super::wrap;

    #[test]
    fn wrap_breaks_at_spaces_and_splits_long_words() {
        assert_eq!(wrap("a bb ccc dddd", 6), ["a bb", "ccc", "dddd"]);
        assert_eq!(wrap("abcdefgh", 3), ["abc", "def", "gh"]);
        assert_eq!(wrap("", 5), [""]);
    }
}
