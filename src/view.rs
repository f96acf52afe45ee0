//! Drawing: `impl Widget for &App`, one file per view. Renders from state, changes nothing.

pub mod describe;
mod editor;
mod help;
mod history;
mod inspector;
mod lab;
mod log;
mod map;
mod panel;

use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Widget, Wrap};

use crate::app::config::Bindings;
use crate::app::keymap::{Action, Context};
use crate::app::{App, Confirm, Mode};
use crate::engine::astar::Snapshot;
use crate::engine::grid::Pos;
use crate::game::GameState;

pub use crate::text::wrap;
pub use inspector::format_number;
pub use lab::summary;

use crate::app::screen::{Layout, MIN_SIZE, layout};
use crate::content::kinds::Hue;

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

impl Widget for &App {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let Some(l) = layout(self, area) else {
            too_small(area, buf);
            return;
        };
        if self.mode() == Mode::Lab {
            lab::render(self, &l, buf);
            log::render(self, l.log, buf);
            let snap = self.lab_snapshot(0);
            render_hint(self, snap.as_deref(), l.hint, buf);
            return;
        }
        // One replay of the trace per frame, shared by every view.
        let snap = if self.overlay().on {
            self.snapshot()
        } else {
            None
        };
        let snap = snap.as_deref();
        map::render(self, snap, &l, buf);
        if self.mode() == Mode::Edit {
            editor::render(self, l.side, buf);
        } else {
            panel::render(self, snap, l.side, buf);
        }
        // After the panel: on a narrow screen the lesson's box goes over it too.
        if matches!(self.mode(), Mode::Play | Mode::Look)
            && self.world().state() == GameState::Playing
        {
            render_lesson(self, &l, buf);
        }
        log::render(self, l.log, buf);
        render_hint(self, snap, l.hint, buf);
        if self.mode() == Mode::Help {
            help::render(
                &self.settings().bindings,
                self.help_page(),
                self.world().seed(),
                area,
                buf,
            );
        } else if self.mode() == Mode::History {
            history::render(self, area, buf);
        } else if self.world().state() != GameState::Playing {
            let (title, lines) = end_text(self);
            popup(over_map(&l, area, &lines, title), buf, title, &lines);
        }
        if let Some(question) = self.question() {
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
    if let Some(question) = app.question() {
        let (title, lines, _) = question_text(app, question);
        return box_text(over_map(&l, area, &lines, title).rect);
    }
    let whole = Block::bordered().inner(area);
    match app.mode() {
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
    let text = crate::game::name_keys(lesson, &app.settings().bindings);
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
        let top = (map.y as i32 - app.camera().y).clamp(map.y as i32, map.bottom() as i32) as u16;
        let bottom = (map.y as i32 - app.camera().y + grid_h)
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

/// The end screen of a run: how it ended and what it took, the figures of `--state`, the
/// seed that plays it again, and the front end's note (its place in the scores).
pub(crate) fn end_text(app: &App) -> (&'static str, Vec<String>) {
    let w = &app.world();
    let run = w.run();
    let (title, how) = match w.state() {
        GameState::Won => (" You won ", "The last floor is clear.".to_string()),
        GameState::Abandoned => (
            " Run abandoned ",
            format!("Given up at depth {}.", run.depth),
        ),
        _ => {
            let by = run.killer.map_or("Slain".to_string(), |k| {
                format!(
                    "Slain by {}",
                    crate::content::kinds::a_name(&w.kind(k).name)
                )
            });
            (" You died ", format!("{by} at depth {}.", run.depth))
        }
    };
    let mut lines = vec![
        how,
        format!(
            "turns {}  depth {}/{}  seed {}",
            w.turn(),
            run.depth,
            w.final_depth(),
            w.seed()
        ),
        format!("kills {}", run.kills),
        format!(
            "potions drunk {}, carried {}",
            run.potions_drunk,
            w.player().potions
        ),
        format!(
            "damage dealt {} taken {}",
            run.damage_dealt, run.damage_taken
        ),
        format!(
            "monsters' A* {}",
            panel::plural(run.astar_expanded, "node", "nodes")
        ),
    ];
    if let Some(note) = app.end_note() {
        for part in note.lines() {
            lines.extend(wrap(part, 44));
        }
    }
    lines.push(String::new());
    let key = |a| app.settings().bindings.key_of(Context::Play, a);
    lines.push(format!(
        "{}  new run    {}  quit",
        key(Action::Restart),
        key(Action::Quit)
    ));
    (title, lines)
}

/// A question's answer line, `template`'s `{}` each replaced by the player's key for the
/// matching action of the question's context.
fn answers(app: &App, template: &str, actions: &[Action]) -> String {
    let mut out = String::new();
    let mut rest = template;
    for &a in actions {
        let Some((head, tail)) = rest.split_once("{}") else {
            break;
        };
        out.push_str(head);
        out.push_str(&app.settings().bindings.key_of(Context::Confirm, a));
        rest = tail;
    }
    out.push_str(rest);
    out
}

/// The answer lines of `question`'s box, in one line for the hint bar.
pub(crate) fn question_answers(app: &App, question: &Confirm) -> String {
    let (_, lines, answers) = question_text(app, question);
    lines[lines.len() - answers..]
        .iter()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("  ")
}

/// The title and lines of the popup that asks `question`, and how many of its last lines
/// are the answers (the keys to press).
pub(crate) fn question_text(app: &App, question: &Confirm) -> (&'static str, Vec<String>, usize) {
    let file = app.source().name();
    let unsaved = format!("{file} has unsaved edits.");
    let kept = app.keeping();
    match question {
        Confirm::Quit if app.unsaved() => {
            let mut lines = if kept {
                vec![
                    format!("{file} has unsaved edits"),
                    "to its design (the level file).".into(),
                ]
            } else {
                vec![unsaved]
            };
            if kept && app.in_progress() {
                lines.push("Your run is kept either way.".into());
            }
            let without = if kept {
                "{}  quit without saving the level"
            } else {
                "{}  quit without saving"
            };
            let save = if kept {
                "{}  save the level, then quit"
            } else {
                "{}  save and quit"
            };
            lines.push(answers(app, save, &[Action::SaveAndQuit]));
            lines.push(answers(app, without, &[Action::Yes]));
            lines.push(answers(app, "{}  keep playing", &[Action::No]));
            (" Quit? ", lines, 3)
        }
        Confirm::Quit if kept => (
            " Quit? ",
            vec![
                "Your run is kept: play again to go on.".into(),
                format!(
                    "({} gives it up instead.)",
                    app.settings()
                        .bindings
                        .key_of(Context::Play, Action::Abandon)
                ),
                answers(
                    app,
                    "{}  quit    {}  keep playing",
                    &[Action::Yes, Action::No],
                ),
            ],
            1,
        ),
        Confirm::Quit => (
            " Quit? ",
            vec![
                "The game is in progress.".into(),
                answers(
                    app,
                    "{}  quit    {}  keep playing",
                    &[Action::Yes, Action::No],
                ),
            ],
            1,
        ),
        Confirm::Overwrite => (
            " Overwrite? ",
            vec![
                format!("{file} changed on disk."),
                answers(
                    app,
                    "{}  overwrite    {}  keep it",
                    &[Action::Yes, Action::No],
                ),
            ],
            1,
        ),
        Confirm::Restart if kept => (
            " New run? ",
            vec![
                "The run in progress ends, abandoned,".into(),
                "and goes into the scores.".into(),
                answers(
                    app,
                    "{}  new run    {}  keep playing",
                    &[Action::Yes, Action::No],
                ),
            ],
            1,
        ),
        Confirm::Restart => (
            " Restart? ",
            vec![
                "The game is in progress.".into(),
                answers(
                    app,
                    "{}  restart    {}  keep playing",
                    &[Action::Yes, Action::No],
                ),
            ],
            1,
        ),
        Confirm::Abandon => {
            let mut lines = vec!["The run ends here, as a loss.".to_string()];
            if kept {
                lines.push("It goes into the scores and the".into());
                lines.push("morgue, and its save is deleted.".into());
            }
            lines.push(answers(
                app,
                "{}  abandon    {}  keep playing",
                &[Action::Yes, Action::No],
            ));
            (" Abandon the run? ", lines, 1)
        }
        Confirm::NewLevel => (
            " New level? ",
            vec![
                if app.unsaved() {
                    format!("{unsaved} A new level drops them.")
                } else if kept {
                    "The run in progress ends, abandoned.".into()
                } else {
                    "The game in progress ends.".into()
                },
                answers(
                    app,
                    "{}  generate    {}  keep this level",
                    &[Action::Yes, Action::No],
                ),
            ],
            1,
        ),
        Confirm::BlankLevel => (
            " Blank level? ",
            vec![
                if app.unsaved() {
                    format!("{unsaved} A blank level drops them.")
                } else {
                    "The game in progress ends.".into()
                },
                answers(
                    app,
                    "{}  start blank    {}  keep this level",
                    &[Action::Yes, Action::No],
                ),
            ],
            1,
        ),
        Confirm::Reload(_) => (
            " Changed on disk ",
            vec![
                format!("{file} changed on disk, and the game"),
                "has unsaved edits. Which to keep?".into(),
                answers(
                    app,
                    "{}  the file's (drop the game's edits)",
                    &[Action::TakeFile],
                ),
                answers(
                    app,
                    "{}  the game's (saving asks first)",
                    &[Action::KeepMine],
                ),
            ],
            2,
        ),
    }
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

fn render_hint(app: &App, snap: Option<&Snapshot>, area: Rect, buf: &mut Buffer) {
    let keys = crate::app::keymap::hints(&app.settings().bindings, app.hint_contexts());
    let text = match app.mode() {
        // A question's answers, as its box gives them: the keys behind it do nothing now.
        _ if app.question().is_some() => app
            .question()
            .map(|q| question_answers(app, q))
            .unwrap_or_default(),
        // The run is over: only a new run and quitting do anything, as the end box says.
        Mode::Play if app.world().state() != GameState::Playing => {
            let key = |c, a| app.settings().bindings.key_of(c, a);
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
            let b = &app.settings().bindings;
            let mut leave = b.keys_of(Context::Look, Action::Look);
            leave.push(b.key_of(Context::Global, Action::Back));
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
        _ if app.overlay().on => {
            let total = app.world().trace().map_or(0, |t| t.expansions());
            let step = app.overlay().step.unwrap_or(total);
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

/// What the hint bar says of the cursor's cell in look mode, the editor and the lab
/// (without their keys), for a front end that reads it out; `None` on the other screens.
pub fn cursor_line(app: &App) -> Option<String> {
    match app.mode() {
        Mode::Look => Some(look_line(app, app.cursor())),
        Mode::Edit => Some(format!("EDIT {}", editor::state_line(app))),
        Mode::Lab => {
            let snap = app.lab_snapshot(0);
            Some(describe_lab_cell(app, snap.as_deref(), app.cursor()))
        }
        _ => None,
    }
}

/// The look-mode description of a cell: its F, G, H, parent, state and order.
pub fn look_line(app: &App, p: Pos) -> String {
    let snap = if app.overlay().on {
        app.snapshot()
    } else {
        None
    };
    describe_cell(app, snap.as_deref(), p)
}

fn describe_cell(app: &App, snap: Option<&Snapshot>, p: Pos) -> String {
    let tile = app.world().grid().get(p);
    let mut s = format!("LOOK {p}");
    if let Some(m) = app.world().monster_at(p) {
        let info = app.world().kind(m.kind);
        s.push_str(&format!(" {} {}", m.kind, info.name));
        if !info.speed.name().is_empty() {
            s.push_str(&format!(" ({})", info.speed.name()));
        }
        s.push_str(&format!(
            " HP {}/{} hits {}-{}",
            m.hp, info.hp, info.min_damage, info.max_damage
        ));
    } else if app.world().player().pos == p {
        s.push_str(" you");
    } else if let Some(f) = app.world().feature_at(p) {
        s.push_str(&format!(" {}", f.name()));
    } else if !tile.is_passable() {
        s.push_str(match tile {
            crate::content::map::Tile::Wall => " wall",
            _ => " void",
        });
    }
    s.push_str(&terrain_note(app.world().grid(), p));
    match snap {
        Some(snap) => s.push_str(&describe_node(snap, p)),
        None => s.push_str(&format!("  ({} shows the search)", look_overlay_key(app))),
    }
    s
}

/// The key that shows the search from look mode.
fn look_overlay_key(app: &App) -> String {
    app.settings()
        .bindings
        .key_of(Context::Look, Action::ToggleOverlay)
}

/// What look mode tells of a cell, for the panel: what stands or lies there (a monster's
/// kind, HP, damage, speed and plan), the terrain, and what the search knew of it.
fn look_units(app: &App, snap: Option<&Snapshot>, p: Pos) -> Vec<String> {
    use crate::content::level::FeatureKind;
    let w = &app.world();
    let mut units: Vec<String> = Vec::new();
    if let Some(m) = w.monster_at(p) {
        let info = w.kind(m.kind);
        let speed = match info.speed.name() {
            "" => "normal speed",
            s => s,
        };
        units.push(format!("{} {} #{}", m.kind, info.name, m.id));
        units.push(format!("HP {}/{},", m.hp, info.hp));
        units.push(format!("hits {}-{},", info.min_damage, info.max_damage));
        units.push(format!("{speed};"));
        units.push(match (m.plan.cost, m.boxed) {
            (_, true) => "boxed in, no search".into(),
            (Some(c), _) => format!(
                "its plan: cost {c}, {} steps",
                m.plan.path.len().saturating_sub(1)
            ),
            (None, _) => "no way to you".into(),
        });
    } else if w.player().pos == p {
        units.push(format!(
            "you, HP {}/{}",
            w.player().hp,
            crate::game::PLAYER_HP
        ));
    }
    match w.feature_at(p) {
        Some(FeatureKind::Stairs) => units.push(match w.monsters().len() {
            0 => format!(
                "stairs down >: open, {} takes them",
                app.settings()
                    .bindings
                    .key_of(Context::Play, Action::Descend)
            ),
            n => format!("stairs down >: sealed while {n} live"),
        }),
        Some(FeatureKind::Potion) => units.push("healing potion !: walk on it".into()),
        Some(k) => units.push(format!(
            "{} {}: walk on it to pick it up",
            k.name(),
            k.glyph()
        )),
        None => {}
    }
    units.push(
        match w.grid().get(p) {
            crate::content::map::Tile::Floor => "floor",
            crate::content::map::Tile::Wall => "wall",
            crate::content::map::Tile::Void => "void",
            crate::content::map::Tile::Water => "shallow water",
            crate::content::map::Tile::Brush => "brush",
            crate::content::map::Tile::DoorClosed => "closed door: walk into it to open it",
            crate::content::map::Tile::DoorOpen => "open door: C beside it closes it",
            crate::content::map::Tile::DoorJammed => "jammed door: a wall to all but diggers",
        }
        .into(),
    );
    match snap {
        Some(snap) => units.extend(
            describe_node(snap, p)
                .split("  ")
                .filter(|u| !u.is_empty())
                .map(str::to_owned),
        ),
        None => units.push(format!("({} shows the search)", look_overlay_key(app))),
    }
    units
}

/// The lab's line for the cursor: the cell, and what the search knew of it.
fn describe_lab_cell(app: &App, snap: Option<&Snapshot>, p: Pos) -> String {
    let Some(lab) = app.lab() else {
        return String::new();
    };
    let mut s = String::new();
    if lab.quiz.is_some() {
        // The quiz's keys lead: a narrow bar cuts from the end.
        let key = |a| app.settings().bindings.key_of(Context::Lab, a);
        s.push_str(&format!(
            "QUIZ {} answers  {} ends  ",
            key(Action::Answer),
            key(Action::Quiz)
        ));
    }
    s.push_str(&format!("LAB {p}"));
    if p == lab.start {
        s.push_str(" start");
    } else if p == lab.goal {
        s.push_str(" goal");
    } else if !lab.grid.contains(p) {
        s.push_str(" off the map");
    } else if !lab.grid.is_passable(p) {
        s.push_str(" wall");
    }
    s.push_str(&terrain_note(&lab.grid, p));
    if let Some(snap) = snap {
        s.push_str(&describe_node(snap, p));
    }
    s
}

/// What stepping onto a cell costs, when it is not plain floor of weight 1:
/// `  water x3: a step in costs 30 (42 diagonal)`; empty otherwise.
fn terrain_note(grid: &crate::content::map::TileMap, p: Pos) -> String {
    if map::terrain_glyph(grid, p).is_none() {
        return String::new();
    }
    let k = grid.weight(p);
    let name = grid.get(p).name();
    format!(
        "  {name} x{k}: a step in costs {} ({} diagonal)",
        crate::engine::grid::STRAIGHT * k,
        crate::engine::grid::DIAGONAL * k
    )
}

/// What a search knew of a cell: `  F 68 G 14 H 54  parent 2,3  closed #2`.
fn describe_node(snap: &Snapshot, p: Pos) -> String {
    let Some(n) = snap.get(p) else {
        return "  never touched by the search".into();
    };
    let mut s = format!("  F {} G {} H {}", n.f, n.g, n.h);
    match n.parent {
        Some(q) => s.push_str(&format!("  parent {q}")),
        None => s.push_str("  start"),
    }
    s.push_str(&format!("  {}", n.state.name()));
    if let Some(o) = n.order {
        s.push_str(&format!(" #{o}"));
    }
    s
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
fn pack_spans(units: Vec<Vec<Span<'static>>>, width: usize) -> Vec<Line<'static>> {
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
