//! The side panel: the player, the turn, the selected monster and its plan, the turn's
//! search work, the overlay's totals and the inspector. Lines that do not fit wrap between
//! units (a figure stays with its word), figures too long are shortened, and when rows run
//! short the least needed lines go first. The inspector's size follows the panel's height
//! alone, so it keeps its boxes while stepping rewraps the lines above it.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget};

use super::inspector;
use super::words::{dim, format_count, head, kind_color, pack, pack_spans, plural};
use crate::app::App;
use crate::engine::astar::{Snapshot, Status};
use crate::game::{Command, Monster, PLAYER_HP, Planning, low_hp};
use crate::text::wrap;

/// Rows for one row of boxes and the title: the inspector on short terminals.
const SMALL_INSPECTOR_ROWS: u16 = 6;

/// How much a line matters when rows run short: the least needed go first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Need {
    Optional,
    Useful,
    Essential,
}

/// How the monsters plan, in a few words.
fn planning_name(p: Planning) -> String {
    match p {
        Planning::AStar => "A* each".into(),
        Planning::Capped(n) => format!("A* cap {}", format_count(u64::from(n))),
        Planning::Map => "one map".into(),
        Planning::Jps => "JPS each".into(),
    }
}

/// The panel's lines so far, each with its need, wrapped to the panel's width.
struct Lines {
    width: usize,
    rows: Vec<(Line<'static>, Need)>,
}

impl Lines {
    /// Units that share a line while they fit, a space between them.
    fn text(&mut self, units: &[String], style: Style, need: Need) {
        for part in pack(units, " ", self.width) {
            self.rows.push((Line::styled(part, style), need));
        }
    }

    /// Styled units that share a line while they fit.
    fn spans(&mut self, units: Vec<Vec<Span<'static>>>, need: Need) {
        for line in pack_spans(units, self.width) {
            self.rows.push((line, need));
        }
    }
}

fn field(name: &'static str, value: String) -> Vec<Span<'static>> {
    vec![Span::styled(name, head()), Span::raw(value)]
}

pub(super) fn render(app: &App, snap: Option<&Snapshot>, area: Rect, buf: &mut Buffer) {
    let block = Block::bordered().title(" status ");
    let inner = block.inner(area);
    block.render(area, buf);
    let mut lines = Lines {
        width: usize::from(inner.width).max(1),
        rows: Vec::new(),
    };
    player_lines(app, &mut lines);
    lure_lines(app, &mut lines);
    warning_lines(app, snap, &mut lines);
    match app.ui().selected().and_then(|id| app.world().monster(id)) {
        Some(m) => monster_lines(app, m, &mut lines),
        None => lines.text(
            &["no monster".into(), "selected".into()],
            dim(),
            Need::Essential,
        ),
    }
    in_view_lines(app, lines.width, &mut lines.rows);
    work_lines(app, &mut lines);
    if app.ui().overlay().on {
        overlay_lines(app, snap, lines.width, &mut lines.rows);
    }
    // The inspector's size comes from the panel's height alone, so that it keeps its boxes
    // while stepping changes how the lines above it wrap; the lines get the rows above it,
    // the least needed dropped first.
    let wanted = if app.ui().overlay().on {
        inspector_rows(inner.height)
    } else {
        0
    };
    let room = inner.height - wanted;
    let rows = fit(lines.rows, room);
    let text_area = Rect::new(inner.x, inner.y, inner.width, room);
    Paragraph::new(rows).render(text_area, buf);
    if wanted > 0 {
        let rest = Rect::new(inner.x, inner.y + room, inner.width, wanted);
        inspector::render(app, snap, rest, buf);
    }
}

/// The lines that fit in `room` rows: those of the least need go first, all of them, until
/// the rest fit.
fn fit(mut rows: Vec<(Line<'static>, Need)>, room: u16) -> Vec<Line<'static>> {
    while rows.len() > usize::from(room) {
        let Some(least) = rows.iter().map(|(_, n)| *n).min() else {
            break;
        };
        if least == Need::Essential {
            break;
        }
        // A need's lines go together: half a section (a heading without its figures)
        // would say less than none.
        rows.retain(|(_, n)| *n != least);
    }
    rows.into_iter().map(|(l, _)| l).collect()
}

/// The player's figures: hit points, turn, foes, depth, potions and tools.
fn player_lines(app: &App, lines: &mut Lines) {
    let w = &app.world();
    let hp = w.player().hp;
    lines.spans(
        vec![
            vec![
                Span::styled("HP ", head()),
                Span::styled(format!("{hp}/{PLAYER_HP}{}", hp_word(hp)), hp_style(hp)),
            ],
            field("Turn ", format_count(u64::from(w.turn()))),
            field("Foes ", format_count(w.monsters().len() as u64)),
        ],
        Need::Essential,
    );
    // The run's depth matters less than the inspector's rows while studying a search.
    let depth_need = if app.ui().overlay().on {
        Need::Useful
    } else {
        Need::Essential
    };
    lines.spans(
        vec![
            field("Depth ", format!("{}/{}", w.run().depth, w.final_depth())),
            field("Potions ", w.player().potions.to_string()),
        ],
        depth_need,
    );
    let tools = w.player().tools;
    if crate::game::tools::TOOLS
        .iter()
        .any(|&t| tools.count(t) > 0)
    {
        let mut units = vec![vec![Span::styled("Tools", head())]];
        for t in crate::game::tools::TOOLS {
            let n = tools.count(t);
            if n > 0 {
                units.push(vec![Span::raw(format!("{} {} {n}", t.glyph(), t.name()))]);
            }
        }
        lines.spans(units, Need::Essential);
    }
}

/// Each lure: where it is, its turns left and whom it holds.
fn lure_lines(app: &App, lines: &mut Lines) {
    let w = &app.world();
    for lure in w.lures() {
        let held: Vec<String> = w
            .held_by(lure.pos)
            .into_iter()
            .filter_map(|id| w.monster(id))
            .map(|m| format!("{}#{}", m.kind, m.id))
            .collect();
        let mut units = vec![
            format!("lure at {}:", lure.pos),
            plural(u64::from(lure.turns), "turn", "turns") + ",",
        ];
        if held.is_empty() {
            units.push("holds nobody".into());
        } else {
            units.push("holds".into());
            units.extend(held);
        }
        lines.text(&units, Style::new().fg(Color::LightYellow), Need::Essential);
    }
}

/// The low hit points warning with its keys, and what look mode's cursor is on.
fn warning_lines(app: &App, snap: Option<&Snapshot>, lines: &mut Lines) {
    let w = &app.world();
    let hp = w.player().hp;
    if low_hp(hp) && w.state() == crate::game::GameState::Playing {
        let key = |c| app.ui().settings().bindings.command_key(c);
        let rest = key(Command::Rest);
        let what = if w.player().potions > 0 {
            format!("LOW HP: {} drinks, {rest} rests", key(Command::Drink))
        } else {
            format!("LOW HP: get clear, {rest} rests")
        };
        lines.text(&[what], hp_style(hp), Need::Essential);
    }
    if app.screen().mode() == crate::app::Mode::Look {
        let p = app.cursor();
        lines
            .rows
            .push((Line::styled(format!("look {p}"), head()), Need::Essential));
        lines.text(
            &super::look::look_units(app, snap, p),
            Style::new(),
            Need::Essential,
        );
    }
}

/// The selected monster: its kind, hit points and speed, how it searches, its goal and its
/// plan.
fn monster_lines(app: &App, m: &Monster, lines: &mut Lines) {
    let w = &app.world();
    let info = w.kind(m.kind);
    lines.spans(
        vec![
            vec![
                Span::styled(
                    m.kind.to_string(),
                    Style::new()
                        .fg(kind_color(w.grid(), m.kind))
                        .add_modifier(Modifier::BOLD),
                ),
                Span::raw(format!(" {} #{}", info.name, m.id)),
            ],
            vec![Span::raw(format!("HP {}/{}", m.hp, info.hp))],
            vec![Span::styled(info.speed.name(), dim())],
        ],
        Need::Essential,
    );
    let search = super::describe::kind_search(&info, w.grid());
    if !search.is_empty() {
        let mut units = vec!["searches".to_string()];
        units.extend(search);
        lines.text(&units, Style::new(), Need::Useful);
    }
    let lured = w.goal_at(m.pos);
    if lured != w.player().pos {
        lines.text(
            &["goes for the lure at".into(), lured.to_string()],
            Style::new().fg(Color::LightYellow),
            Need::Essential,
        );
    }
    lines.text(&plan_units(app, m), Style::new(), Need::Essential);
    let expanded = plural(u64::from(m.plan.expanded), "node", "nodes");
    // The overlay's step line says the same: it can go when rows run short.
    if w.planning() != Planning::Map && !m.boxed {
        lines.text(
            &["its search:".into(), expanded],
            Style::new(),
            Need::Useful,
        );
    }
    let (from, _) = m.planned;
    if from != m.pos {
        lines.text(
            &["planned from".into(), from.to_string()],
            dim(),
            Need::Useful,
        );
    }
}

/// What the selected monster's plan came to: a path's cost and steps, the map's cost, or
/// why there is none.
fn plan_units(app: &App, m: &Monster) -> Vec<String> {
    let w = &app.world();
    match (m.plan.status, m.plan.cost) {
        // Its planner skipped the search: every step it could take was held.
        _ if m.boxed => vec!["boxed in,".into(), "no search".into()],
        _ if w.planning() == Planning::Map => match m.plan.cost {
            Some(c) => vec![
                format!("{} to you", format_count(u64::from(c))),
                "on the map".into(),
            ],
            None => vec!["the map does not reach it".into()],
        },
        (Status::Found, Some(c)) => {
            let steps = m.plan.path.len().saturating_sub(1) as u64;
            vec![
                format!("path cost {},", format_count(u64::from(c))),
                plural(steps, "step", "steps"),
            ]
        }
        (s, _) => vec![format!(
            "path: {}",
            crate::content::searches::status_name(s)
        )],
    }
}

/// The turn's search work: nodes and searches of the monsters' planner and the Dijkstra
/// map's nodes.
fn work_lines(app: &App, lines: &mut Lines) {
    let w = &app.world();
    // Per-monster A* against one reverse Dijkstra map from the player (Brogue's way).
    let stats = w.stats();
    let planning = w.planning();
    lines.text(
        &[
            "work this turn,".into(),
            format!("{}:", planning_name(planning)),
        ],
        dim(),
        Need::Optional,
    );
    if planning != Planning::Map {
        lines.text(
            &[
                // Under JPS the nodes are jump points.
                format!(
                    "{} {},",
                    if planning == Planning::Jps {
                        "JPS"
                    } else {
                        "A*"
                    },
                    plural(stats.astar_expanded, "node", "nodes")
                ),
                plural(u64::from(stats.searches), "search", "searches"),
            ],
            Style::new(),
            Need::Optional,
        );
    }
    let map = if planning == Planning::Map {
        "the Dijkstra"
    } else {
        "one Dijkstra"
    };
    lines.text(
        &[
            map.into(),
            format!("map: {}", format_count(stats.dijkstra_expanded)),
        ],
        Style::new(),
        Need::Optional,
    );
}

/// Rows of the panel the inspector takes, from the panel's height alone: as many rows of
/// boxes (an odd number, up to seven) as leave the lines above a few rows, a dozen on tall
/// panels; none when not even one row of boxes fits.
fn inspector_rows(height: u16) -> u16 {
    // The title and the top border, then four rows per row of boxes.
    const FRAME: u16 = 2;
    let reserve = if height >= 30 { 12 } else { 5 };
    let down = (height.saturating_sub(reserve + FRAME) / 4).min(7);
    let down = if down.is_multiple_of(2) {
        down.saturating_sub(1)
    } else {
        down
    };
    if down == 0 && height >= SMALL_INSPECTOR_ROWS + 3 {
        return SMALL_INSPECTOR_ROWS;
    }
    if down == 0 { 0 } else { FRAME + 4 * down }
}

/// The style of the player's hit points: green, yellow from two thirds down, bold red below
/// a third.
pub(super) fn hp_style(hp: i32) -> Style {
    if low_hp(hp) {
        Style::new().fg(Color::Red).add_modifier(Modifier::BOLD)
    } else if hp * 3 < PLAYER_HP * 2 {
        Style::new().fg(Color::Yellow)
    } else {
        Style::new().fg(Color::Green)
    }
}

/// The word the hit points' yellow carries, so that it reads without colour: ` hurt` from
/// two thirds down; below a third the LOW HP line says it.
fn hp_word(hp: i32) -> &'static str {
    if hp * 3 < PLAYER_HP * 2 && !low_hp(hp) {
        " hurt"
    } else {
        ""
    }
}

/// The monsters in view, nearest first: glyph, kind and HP, the selected one marked `▸`.
fn in_view_lines(app: &App, width: usize, lines: &mut Vec<(Line<'static>, Need)>) {
    let dim = Style::new().fg(Color::DarkGray);
    let seen = app.world().monsters_in_view();
    // While playing it is what the player needs most; the overlay's inspector comes first.
    let need = if app.ui().overlay().on {
        Need::Useful
    } else {
        Need::Essential
    };
    if seen.is_empty() {
        lines.push((Line::styled("nothing in view", dim), need));
        return;
    }
    lines.push((
        Line::styled(
            if width >= 26 {
                format!("in view ({}), nearest first", seen.len())
            } else {
                format!("in view ({})", seen.len())
            },
            Style::new().add_modifier(Modifier::BOLD),
        ),
        need,
    ));
    let w = app.world();
    for m in seen {
        let info = w.kind(m.kind);
        let selected = Some(m.id) == app.ui().selected();
        let mark = if selected { "▸" } else { " " };
        let row = format!(" {} {}/{}", info.name, m.hp, info.hp);
        let mut style = Style::new();
        if selected {
            style = style.add_modifier(Modifier::BOLD);
        }
        let line = Line::from(vec![
            Span::styled(mark, style),
            Span::styled(
                m.kind.to_string(),
                Style::new()
                    .fg(kind_color(w.grid(), m.kind))
                    .add_modifier(Modifier::BOLD),
            ),
            Span::styled(
                row.chars()
                    .take(width.saturating_sub(2))
                    .collect::<String>(),
                style,
            ),
        ]);
        lines.push((line, need));
    }
}

fn overlay_lines(
    app: &App,
    snap: Option<&Snapshot>,
    width: usize,
    lines: &mut Vec<(Line<'static>, Need)>,
) {
    let dim = Style::new().fg(Color::DarkGray);
    let Some(snap) = snap else {
        let why = if app.world().planning() == Planning::Map {
            "the map: each cell shaded by its cost to you (0 near, 9 far)"
        } else {
            "overlay: no search to show"
        };
        for part in wrap(why, width) {
            lines.push((Line::styled(part, dim), Need::Essential));
        }
        return;
    };
    let total = app.world().trace().map_or(0, |t| t.expansions());
    let (open, closed) = snap.counts();
    // The options the shown search ran with: under JPS planning that names jps, which the
    // world's own options (the ones the player can change) do not.
    let ran = app
        .world()
        .trace()
        .map_or(app.world().options(), |t| t.options);
    // CUSTOM is a unit of its own: on a narrow panel it wraps rather than being cut.
    let mut units = vec![vec![
        Span::styled("search", Style::new().add_modifier(Modifier::BOLD)),
        Span::raw(format!(" {}", super::describe::options(&ran))),
    ]];
    if !app.world().options().is_default() {
        units.push(vec![Span::styled(
            "CUSTOM",
            Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
        )]);
    }
    for line in pack_spans(units, width) {
        lines.push((line, Need::Essential));
    }
    let handed = app
        .ui()
        .selected()
        .and_then(|id| app.world().monster(id))
        .and_then(|m| m.plan.fallback);
    if let Some(why) = handed {
        for part in wrap(&super::describe::fallback(why), width) {
            lines.push((Line::styled(part, dim), Need::Essential));
        }
    }
    let mut units = vec![format!("step {}/{total}", snap.step)];
    if app.ui().overlay().autoplay {
        units.push(format!("▶ {}/s", app.ui().overlay().speed()));
    }
    units.push(format!("open {}", format_count(open as u64)));
    units.push(format!("closed {}", format_count(closed as u64)));
    let mut parts = pack(&units, " ", width);
    if parts.len() > 1 && app.screen().mode() == crate::app::Mode::Play {
        // The hint bar gives the step too: on a narrow panel the counts keep one row.
        parts = pack(&units[1..], " ", width);
    }
    for part in parts {
        lines.push((Line::from(part), Need::Essential));
    }
}
