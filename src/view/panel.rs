//! The side panel: the player, the turn, the selected monster and its plan, the turn's
//! search work, the overlay's totals and the inspector. Lines that do not fit wrap, figures
//! too long are shortened, and when rows run short the least needed lines go first so the
//! inspector keeps its full 3x3.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget};

use super::{format_count, inspector, kind_color, wrap};
use crate::app::App;
use crate::content::kinds::kind;
use crate::engine::astar::{Snapshot, Status};
use crate::game::{PLAYER_HP, Planning};

/// Rows the inspector needs for three rows of boxes and its title.
const INSPECTOR_ROWS: u16 = 14;

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
    }
}

/// `1 search`, `3 searches`: a count with its noun in the right number.
pub(super) fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", format_count(n), if n == 1 { one } else { many })
}

pub(super) fn render(app: &App, snap: Option<&Snapshot>, area: Rect, buf: &mut Buffer) {
    let block = Block::bordered().title(" status ");
    let inner = block.inner(area);
    block.render(area, buf);
    let width = usize::from(inner.width).max(1);
    let w = &app.world;
    let dim = Style::new().fg(Color::DarkGray);
    let head = Style::new().add_modifier(Modifier::BOLD);
    let mut lines: Vec<(Line<'static>, Need)> = Vec::new();
    let text = |lines: &mut Vec<(Line<'static>, Need)>, s: String, style: Style, need| {
        for part in wrap(&s, width) {
            lines.push((Line::styled(part, style), need));
        }
    };
    lines.push((
        Line::from(vec![
            Span::styled("HP ", head),
            Span::raw(format!("{}/{} ", w.player().hp, PLAYER_HP)),
            Span::styled("Turn ", head),
            Span::raw(format!("{} ", format_count(u64::from(w.turn())))),
            Span::styled("Foes ", head),
            Span::raw(format_count(w.monsters().len() as u64)),
        ]),
        Need::Essential,
    ));
    // The run's depth matters less than the inspector's rows while studying a search.
    let depth_need = if app.overlay.on {
        Need::Useful
    } else {
        Need::Essential
    };
    lines.push((
        Line::from(vec![
            Span::styled("Depth ", head),
            Span::raw(format!("{}/{} ", w.run().depth, w.final_depth())),
            Span::styled("Potions ", head),
            Span::raw(w.player().potions.to_string()),
        ]),
        depth_need,
    ));
    match app.selected.and_then(|id| w.monster(id)) {
        Some(m) => {
            let info = kind(m.kind);
            lines.push((
                Line::from(vec![
                    Span::styled(
                        m.kind.to_string(),
                        Style::new()
                            .fg(kind_color(m.kind))
                            .add_modifier(Modifier::BOLD),
                    ),
                    Span::raw(format!(" {} #{} HP {}/{}", info.name, m.id, m.hp, info.hp)),
                    Span::styled(format!(" {}", info.speed.name()), dim),
                ]),
                Need::Essential,
            ));
            let plan = match (m.plan.status, m.plan.cost) {
                _ if w.planning() == Planning::Map => match m.plan.cost {
                    Some(c) => format!("{} to you on the map", format_count(u64::from(c))),
                    None => "the map does not reach it".into(),
                },
                (Status::Found, Some(c)) => {
                    let steps = m.plan.path.len().saturating_sub(1) as u64;
                    format!(
                        "path cost {}, {}",
                        format_count(u64::from(c)),
                        plural(steps, "step", "steps")
                    )
                }
                (s, _) => format!("path: {}", s.name()),
            };
            text(&mut lines, plan, Style::new(), Need::Essential);
            let expanded = plural(u64::from(m.plan.expanded), "node", "nodes");
            // The overlay's step line says the same: it can go when rows run short.
            if w.planning() != Planning::Map {
                text(
                    &mut lines,
                    format!("its search: {expanded}"),
                    Style::new(),
                    Need::Useful,
                );
            }
            let (from, _) = m.planned;
            if from != m.pos {
                text(
                    &mut lines,
                    format!("planned from {from}"),
                    dim,
                    Need::Useful,
                );
            }
        }
        None => lines.push((Line::styled("no monster selected", dim), Need::Essential)),
    }
    // Per-monster A* against one reverse Dijkstra map from the player (Brogue's way).
    let stats = w.stats();
    let planning = w.planning();
    text(
        &mut lines,
        format!("work this turn, {}:", planning_name(planning)),
        dim,
        Need::Optional,
    );
    if planning != Planning::Map {
        text(
            &mut lines,
            format!(
                "A* {}, {}",
                plural(stats.astar_expanded, "node", "nodes"),
                plural(u64::from(stats.searches), "search", "searches")
            ),
            Style::new(),
            Need::Optional,
        );
    }
    let map = if planning == Planning::Map {
        "the Dijkstra map"
    } else {
        "one Dijkstra map"
    };
    text(
        &mut lines,
        format!("{map}: {}", format_count(stats.dijkstra_expanded)),
        Style::new(),
        Need::Optional,
    );
    if app.overlay.on {
        overlay_lines(app, snap, width, &mut lines);
    }
    // Drop the least needed lines until the inspector has its rows (or nothing is left
    // to drop).
    let wanted = if app.overlay.on { INSPECTOR_ROWS } else { 0 };
    for need in [Need::Optional, Need::Useful] {
        if lines.len() as u16 + wanted <= inner.height {
            break;
        }
        lines.retain(|(_, n)| *n != need);
    }
    let used = lines.len() as u16;
    Paragraph::new(lines.into_iter().map(|(l, _)| l).collect::<Vec<_>>()).render(inner, buf);
    if app.overlay.on && inner.height > used + 5 {
        let rest = Rect::new(inner.x, inner.y + used, inner.width, inner.height - used);
        inspector::render(app, snap, rest, buf);
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
        let why = if app.world.planning() == Planning::Map {
            "the map: each cell shaded by its cost to you (0 near, 9 far)"
        } else {
            "overlay: no search to show"
        };
        for part in wrap(why, width) {
            lines.push((Line::styled(part, dim), Need::Essential));
        }
        return;
    };
    let total = app.world.trace().map_or(0, |t| t.expansions());
    let (open, closed) = snap.counts();
    let o = app.world.options();
    lines.push((
        Line::from(vec![
            Span::styled("search ", Style::new().add_modifier(Modifier::BOLD)),
            Span::raw(o.describe()),
            if o.is_default() {
                Span::raw("")
            } else {
                Span::styled(
                    " CUSTOM",
                    Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
                )
            },
        ]),
        Need::Essential,
    ));
    let mut step = format!("step {}/{total}", snap.step);
    if app.overlay.autoplay {
        step.push_str(&format!(" ▶ {}/s", app.overlay.speed()));
    }
    let line = format!(
        "{step}  open {}  closed {}",
        format_count(open as u64),
        format_count(closed as u64)
    );
    for part in wrap(&line, width) {
        lines.push((Line::from(part), Need::Essential));
    }
}
