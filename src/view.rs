//! Drawing: `impl Widget for &App`, one file per view. Renders from state, changes nothing.

pub mod describe;
mod editor;
mod help;
mod history;
mod inspector;
mod lab;
mod log;
mod look;
mod map;
mod panel;
mod question;
mod words;

use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Widget, Wrap};

use crate::app::keymap::{Action, Context};
use crate::app::{App, Mode};
use crate::engine::astar::Snapshot;
use crate::game::GameState;

pub use crate::text::wrap;
pub use inspector::format_number;
pub use lab::summary;
pub use look::{cursor_line, look_line};
use look::{describe_cell, describe_lab_cell};
pub(crate) use question::{end_text, question_answers, question_text};
pub(crate) use words::message_text;
pub use words::{format_count, kind_color, pack};

use crate::app::screen::{Layout, MIN_SIZE, layout};

impl Widget for &App {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let Some(l) = layout(self, area) else {
            too_small(area, buf);
            return;
        };
        if self.screen().mode() == Mode::Lab {
            lab::render(self, &l, buf);
            log::render(self, l.log, buf);
            let snap = self.screen().lab_snapshot(0, self.ui().overlay());
            render_hint(self, snap.as_deref(), l.hint, buf);
            return;
        }
        // One replay of the trace per frame, shared by every view.
        let snap = if self.ui().overlay().on {
            self.ui().snapshot(self.world())
        } else {
            None
        };
        let snap = snap.as_deref();
        map::render(self, snap, &l, buf);
        if self.screen().mode() == Mode::Edit {
            editor::render(self, l.side, buf);
        } else {
            panel::render(self, snap, l.side, buf);
        }
        // After the panel: on a narrow screen the lesson's box goes over it too.
        if matches!(self.screen().mode(), Mode::Play | Mode::Look)
            && self.world().state() == GameState::Playing
        {
            render_lesson(self, &l, buf);
        }
        log::render(self, l.log, buf);
        render_hint(self, snap, l.hint, buf);
        if self.screen().mode() == Mode::Help {
            help::render(
                &self.ui().settings().bindings,
                self.screen().help_page(),
                self.world().seed(),
                area,
                buf,
            );
        } else if self.screen().mode() == Mode::History {
            history::render(self, area, buf);
        } else if self.world().state() != GameState::Playing {
            let (title, lines) = end_text(self);
            popup(over_map(&l, area, &lines, title), buf, title, &lines);
        }
        if let Some(question) = self.screen().question() {
            let (title, lines, _) = question_text(self, question);
            popup(over_map(&l, area, &lines, title), buf, title, &lines);
        }
    }
}

/// Where the terminal's cursor stands in a frame of `area`, shown, so that a screen reader
/// or a magnifier that follows it follows the game: on the player's cell while playing, on
/// the cell looked at, edited or inspected in look mode, the editor and the lab (the map's
/// own geometry places it); on a question's first line while one is asked, on the end of a
/// run's box, on the help's first line and on the history's newest.
pub fn cursor_position(app: &App, area: Rect) -> Position {
    let Some(l) = layout(app, area) else {
        // "terminal too small" starts there.
        return area.as_position();
    };
    // The boxes over the map, in the order the frame draws them: the topmost wins.
    if let Some(question) = app.screen().question() {
        let (title, lines, _) = question_text(app, question);
        return box_text(over_map(&l, area, &lines, title).rect);
    }
    let whole = Block::bordered().inner(area);
    match app.screen().mode() {
        Mode::Help => return whole.as_position(),
        Mode::History => return Position::new(whole.x, whole.bottom().saturating_sub(1)),
        Mode::Lab => {}
        _ if app.world().state() != GameState::Playing => {
            let (title, lines) = end_text(app);
            return box_text(over_map(&l, area, &lines, title).rect);
        }
        _ => {}
    }
    crate::app::screen::cell_in(app, area, app.cursor())
        .map_or(l.map.as_position(), |(x, y)| Position::new(x, y))
}

/// Where the text of a box drawn by [`popup`] at `rect` starts: inside its border, after
/// the space each line begins with.
fn box_text(rect: Rect) -> Position {
    Position::new(
        (rect.x + 2).min(rect.right().saturating_sub(1)),
        (rect.y + 1).min(rect.bottom().saturating_sub(1)),
    )
}

/// Where the terminal's cursor stands while a front end's box ([`notice`]) of `lines`
/// under `title` is up: on its first line.
pub fn notice_cursor(area: Rect, title: &str, lines: &[String]) -> Position {
    let (w, h) = popup_size(lines, title);
    box_text(centred(area, w, h))
}

/// The level's last message (the tutorial's lesson) in a box on the map, until the next:
/// the log scrolls, the lesson stays. The box takes the half of the map away from the
/// player, at most half its rows; when its lines do not fit there (a narrow map), it takes
/// the whole width, panel too, and the rows on the far side of the player's, without its
/// rule when that is what the last line needs.
fn render_lesson(app: &App, l: &Layout, buf: &mut Buffer) {
    let Some(lesson) = app.world().lesson() else {
        return;
    };
    let map = l.map;
    if map.width < 12 || map.height < 6 {
        return;
    }
    let text = crate::game::name_keys(lesson, &app.ui().settings().bindings);
    let lines = wrap(&text, usize::from(map.width));
    let player_row = crate::app::screen::screen_cell(app, app.world().player().pos)
        .map_or(map.y, |(_, row)| row);
    // A rule with its title above the text: one row of frame, so it fits the blank rows a
    // small level leaves.
    if lines.len() < usize::from(map.height / 2) {
        let h = lines.len() as u16 + 1;
        // Where the level's rows are drawn: a box in the blank rows above or below them
        // hides nothing; else it takes the half away from the player.
        let grid_h = app.world().grid().height() as i32;
        let top =
            (map.y as i32 - app.ui().camera().y).clamp(map.y as i32, map.bottom() as i32) as u16;
        let bottom = (map.y as i32 - app.ui().camera().y + grid_h)
            .clamp(map.y as i32, map.bottom() as i32) as u16;
        let y = if map.bottom() - bottom >= h {
            map.bottom() - h
        } else if top - map.y >= h {
            map.y
        } else if player_row < map.y + map.height / 2 {
            map.bottom() - h
        } else {
            map.y
        };
        draw_lesson(Rect::new(map.x, y, map.width, h), lines, true, buf);
        return;
    }
    // Too tall for half the map: over the map and the panel, below the player's row when
    // it fits there (the panel's HP stays in view), else where there is more room.
    let whole = Rect::new(
        l.map_block.x,
        l.map_block.y,
        l.side.right() - l.map_block.x,
        l.map_block.height,
    );
    let lines = wrap(&text, usize::from(whole.width));
    let above = player_row.saturating_sub(whole.y).min(whole.height);
    let below = whole.bottom().saturating_sub(player_row + 1);
    let room = usize::from(above.max(below));
    let rule = lines.len() < room;
    let h = (lines.len() + usize::from(rule)).min(room) as u16;
    let y = if below >= h || below >= above {
        whole.bottom() - h
    } else {
        whole.y
    };
    draw_lesson(Rect::new(whole.x, y, whole.width, h), lines, rule, buf);
}

/// The lesson's box: its lines in cyan, under a rule titled " lesson " if `rule`.
fn draw_lesson(rect: Rect, lines: Vec<String>, rule: bool, buf: &mut Buffer) {
    Clear.render(rect, buf);
    let style = Style::new().fg(Color::Cyan);
    let text: Vec<Line> = lines.into_iter().map(|l| Line::styled(l, style)).collect();
    let mut paragraph = Paragraph::new(text);
    if rule {
        paragraph = paragraph.block(
            Block::new()
                .borders(Borders::TOP)
                .title(" lesson ")
                .border_style(style),
        );
    }
    paragraph.render(rect, buf);
}

/// A box over the frame with a front end's own message (a long turn, a level loading),
/// drawn as the game's questions are.
pub fn notice(area: Rect, buf: &mut Buffer, title: &str, lines: &[String]) {
    let (w, h) = popup_size(lines, title);
    popup(centred(area, w, h).into(), buf, title, lines);
}

/// Drops the colours of every cell and keeps its glyph and modifiers (reversed, bold,
/// dim): what `NO_COLOR` asks for. Everything the view shows in colour also has a glyph,
/// a word or such a mark (docs/playing.md lists them).
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

/// Where a box of `lines` under `title` goes: over the map's frame when it fits there, so
/// that the panel beside stays whole; else over the screen, with the panel's rows it
/// crosses cleared so that no cut words show beside it.
fn over_map(l: &Layout, area: Rect, lines: &[String], title: &str) -> Popup {
    let (w, h) = popup_size(lines, title);
    if w <= l.map_block.width && h <= l.map_block.height {
        return Popup {
            rect: centred(l.map_block, w, h),
            clear: None,
        };
    }
    // Over the map and the panel, the log and the hint below it left whole, when it fits
    // there; else over the whole screen.
    let top = Rect::new(area.x, area.y, area.width, l.log.y.saturating_sub(area.y));
    let rect = centred(if h <= top.height { top } else { area }, w, h);
    let panel = Rect::new(
        l.side.x + 1,
        l.side.y + 1,
        l.side.width.saturating_sub(2),
        l.side.height.saturating_sub(2),
    );
    let rows = rect.intersection(panel);
    let clear = (!rows.is_empty()).then(|| Rect::new(panel.x, rows.y, panel.width, rows.height));
    Popup { rect, clear }
}

/// A box's place, and what beside it to clear.
struct Popup {
    /// The box.
    rect: Rect,
    /// Cells to blank first: the panel's rows the box cuts.
    clear: Option<Rect>,
}

impl From<Rect> for Popup {
    /// A box centred in `area`, clearing nothing else.
    fn from(area: Rect) -> Self {
        Popup {
            rect: area,
            clear: None,
        }
    }
}

/// The width and height of a box of `lines` under `title`, borders and margins included.
fn popup_size(lines: &[String], title: &str) -> (u16, u16) {
    let w = lines
        .iter()
        .map(|l| l.chars().count())
        .chain([title.chars().count()])
        .max()
        .unwrap_or(0) as u16
        + 4;
    (w, lines.len() as u16 + 2)
}

/// A `w` by `h` rectangle centred in `area` (cut to it).
fn centred(area: Rect, w: u16, h: u16) -> Rect {
    Rect::new(
        area.x + area.width.saturating_sub(w) / 2,
        area.y + area.height.saturating_sub(h) / 2,
        w.min(area.width),
        h.min(area.height),
    )
}

fn popup(at: Popup, buf: &mut Buffer, title: &str, lines: &[String]) {
    if let Some(clear) = at.clear {
        Clear.render(clear, buf);
    }
    let rect = at.rect;
    Clear.render(rect, buf);
    let block = Block::bordered()
        .title(title)
        .border_style(Style::new().fg(Color::Yellow));
    let text: Vec<Line> = lines.iter().map(|l| Line::from(format!(" {l}"))).collect();
    Paragraph::new(text).block(block).render(rect, buf);
}

fn render_hint(app: &App, snap: Option<&Snapshot>, area: Rect, buf: &mut Buffer) {
    let keys = crate::app::keymap::hints(
        &app.ui().settings().bindings,
        app.screen().hint_contexts(app.ui().overlay().on),
    );
    let text = match app.screen().mode() {
        // A question's answers, as its box gives them: the keys behind it do nothing now.
        _ if app.screen().question().is_some() => app
            .screen()
            .question()
            .map(|q| question_answers(app, q))
            .unwrap_or_default(),
        // The run is over: only a new run and quitting do anything, as the end box says.
        Mode::Play if app.world().state() != GameState::Playing => {
            let key = |c, a| app.ui().key(c, a);
            format!(
                "{} new run  {} quit  {} help  {} messages",
                key(Context::Play, Action::Restart),
                key(Context::Play, Action::Quit),
                key(Context::Global, Action::Help),
                key(Context::Global, Action::History)
            )
        }
        // How to leave comes first: a narrow bar cuts from the end.
        Mode::Look => {
            let b = &app.ui().settings().bindings;
            let mut leave = b.keys_of(Context::Look, Action::Look);
            leave.push(app.ui().key(Context::Global, Action::Back));
            format!(
                "{} leave  {}",
                leave.join(" "),
                describe_cell(app, snap, app.cursor())
            )
        }
        _ if matches!(app.screen(), crate::app::Screen::Aim) => {
            format!("ATTACK IN PLACE: which way?  {keys}")
        }
        Mode::Lab => describe_lab_cell(app, snap, app.cursor()),
        Mode::Edit => format!("EDIT {}  {keys}", editor::state_line(app)),
        _ if app.ui().overlay().on => {
            let total = app.world().trace().map_or(0, |t| t.expansions());
            let step = app.ui().overlay().step.unwrap_or(total);
            format!("step {step}/{total}  {keys}")
        }
        _ => keys,
    };
    let text = cut_at_separator(&text, usize::from(area.width));
    Paragraph::new(Line::from(Span::styled(
        text,
        Style::new().add_modifier(Modifier::REVERSED),
    )))
    .render(area, buf);
    for x in area.x..area.right() {
        buf[(x, area.y)].set_style(Style::new().add_modifier(Modifier::REVERSED));
    }
}

/// `text` cut to `width` characters at the last double space that fits, so a hint bar
/// never ends in half a word; text without such a break is cut anywhere.
fn cut_at_separator(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let head: String = text.chars().take(width + 2).collect();
    // The last break whose text before it fits (a break right at the edge fits too).
    let fits = head
        .match_indices("  ")
        .map(|(i, _)| i)
        .filter(|&i| i > 0 && head[..i].chars().count() <= width)
        .last();
    match fits {
        Some(i) => head[..i].to_string(),
        None => text.chars().take(width).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::format_count;

    #[test]
    fn packed_figures_stay_with_their_words() {
        use super::pack;
        let units = ["step 98/100", "open 19", "closed 98"];
        assert_eq!(
            pack(&units, "  ", 30),
            ["step 98/100  open 19", "closed 98"]
        );
        assert_eq!(pack(&units, "  ", 40), ["step 98/100  open 19  closed 98"]);
        assert_eq!(
            pack(&units, "  ", 9),
            ["step", "98/100", "open 19", "closed 98"]
        );
        assert_eq!(
            pack(&["A* 10.8M nodes,", "1200 searches"], " ", 26),
            ["A* 10.8M nodes,", "1200 searches"]
        );
        assert_eq!(pack::<&str>(&[], " ", 10), [""]);
    }

    #[test]
    fn counts_shorten_to_about_five_characters() {
        assert_eq!(format_count(953), "953");
        assert_eq!(format_count(99_999), "99999");
        assert_eq!(format_count(123_456), "123k");
        assert_eq!(format_count(79_132_813), "79.1M");
        assert_eq!(format_count(4_200_000_000), "4.20G");
        // Rounding that reaches the next decade or unit takes its form.
        assert_eq!(format_count(999_999), "1.00M");
        assert_eq!(format_count(999_499), "999k");
        assert_eq!(format_count(9_999_999), "10.0M");
        assert_eq!(format_count(99_960_000), "100M");
        assert_eq!(format_count(999_999_999), "1.00G");
        assert_eq!(format_count(u64::MAX), "18446744074G");
    }

    #[test]
    fn hints_are_cut_between_words() {
        use super::cut_at_separator as cut;
        assert_eq!(cut("a b  c d  e", 11), "a b  c d  e");
        assert_eq!(cut("a b  c d  e", 10), "a b  c d");
        assert_eq!(cut("a b  c d  e", 8), "a b  c d");
        assert_eq!(cut("a b  c d  e", 7), "a b");
        assert_eq!(cut("abcdef", 3), "abc");
    }
}
