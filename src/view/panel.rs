//! The side panel: the player, the turn, the selected monster, search work, overlay totals.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget};

use super::{inspector, kind_color};
use crate::app::App;
use crate::content::kinds::kind;
use crate::engine::astar::{Snapshot, Status};
use crate::game::PLAYER_HP;

pub(super) fn render(app: &App, snap: Option<&Snapshot>, area: Rect, buf: &mut Buffer) {
    let block = Block::bordered().title(" status ");
    let inner = block.inner(area);
    block.render(area, buf);
    let w = &app.world;
    let dim = Style::new().fg(Color::DarkGray);
    let head = Style::new().add_modifier(Modifier::BOLD);
    let mut lines = vec![Line::from(vec![
        Span::styled("HP ", head),
        Span::raw(format!("{}/{} ", w.player().hp, PLAYER_HP)),
        Span::styled("Turn ", head),
        Span::raw(format!("{} ", w.turn())),
        Span::styled("Foes ", head),
        Span::raw(w.monsters().len().to_string()),
    ])];
    lines.push(Line::from(vec![
        Span::styled("Depth ", head),
        Span::raw(format!("{}/{} ", w.run().depth, w.final_depth())),
        Span::styled("Potions ", head),
        Span::raw(w.player().potions.to_string()),
    ]));
    match app.selected.and_then(|id| w.monster(id)) {
        Some(m) => {
            let info = kind(m.kind);
            lines.push(Line::from(vec![
                Span::styled(
                    m.kind.to_string(),
                    Style::new()
                        .fg(kind_color(m.kind))
                        .add_modifier(Modifier::BOLD),
                ),
                Span::raw(format!(" {} #{} HP {}/{}", info.name, m.id, m.hp, info.hp)),
                Span::styled(format!(" {}", info.speed.name()), dim),
            ]));
            let plan = match (m.plan.status, m.plan.cost) {
                (Status::Found, Some(c)) => {
                    let steps = m.plan.path.len().saturating_sub(1);
                    format!(
                        "path cost {c}, {steps} step{}",
                        if steps == 1 { "" } else { "s" }
                    )
                }
                (s, _) => format!("path: {}", s.name()),
            };
            lines.push(Line::from(plan));
            lines.push(Line::from(format!("expanded {}", m.plan.expanded)));
        }
        None => lines.push(Line::styled("no monster selected", dim)),
    }
    // Per-monster A* against one reverse Dijkstra map from the player (Brogue's way); the
    // overlay needs the rows on short terminals, where its own totals say enough.
    if !app.overlay.on || inner.height >= 24 {
        lines.push(Line::styled("expanded this turn:", dim));
        lines.push(Line::from(format!(
            "A* {} in {} searches",
            w.stats().astar_expanded,
            w.stats().searches
        )));
        lines.push(Line::from(format!(
            "Dijkstra map {}",
            w.stats().dijkstra_expanded
        )));
    }
    if app.overlay.on {
        overlay_lines(app, snap, &mut lines);
    }
    let used = lines.len() as u16;
    Paragraph::new(lines).render(inner, buf);
    if app.overlay.on && inner.height > used + 5 {
        let rest = Rect::new(inner.x, inner.y + used, inner.width, inner.height - used);
        inspector::render(app, snap, rest, buf);
    }
}

fn overlay_lines(app: &App, snap: Option<&Snapshot>, lines: &mut Vec<Line<'static>>) {
    let dim = Style::new().fg(Color::DarkGray);
    let Some(snap) = snap else {
        lines.push(Line::styled("overlay: no search to show", dim));
        return;
    };
    let total = app.world.trace().map_or(0, |t| t.expansions());
    let (open, closed) = snap.counts();
    let o = &app.world.options();
    lines.push(Line::from(vec![
        Span::styled("search ", Style::new().add_modifier(Modifier::BOLD)),
        Span::raw(format!(
            "{} {} w{}",
            o.neighbourhood.name(),
            o.heuristic.name(),
            o.weight
        )),
        if o.is_default() {
            Span::raw("")
        } else {
            Span::styled(
                " CUSTOM",
                Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
            )
        },
    ]));
    let mut step = format!("step {}/{total}", snap.step);
    if app.overlay.autoplay {
        step.push_str(" ▶");
    }
    lines.push(Line::from(format!("{step}  open {open} closed {closed}")));
    lines.push(Line::from(vec![
        Span::styled("+", Style::new().bg(Color::Green).fg(Color::White)),
        Span::raw("open "),
        Span::styled(":", Style::new().bg(Color::Blue).fg(Color::White)),
        Span::raw("closed "),
        Span::styled("*", Style::new().bg(Color::Yellow).fg(Color::Black)),
        Span::raw("path "),
        Span::styled("%", Style::new().bg(Color::Magenta).fg(Color::White)),
        Span::raw("now"),
    ]));
}
