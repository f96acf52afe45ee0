//! `look`: the player, then every creature in view, nearest first (its kind, where it is in
//! compass words, how many steps away, its next step and what its path costs), then the
//! items and stairs in view.

use super::words::{compass, count, steps_away, way};
use crate::app::App;
use crate::app::keymap::{Action, Context};
use crate::content::level::FeatureKind;
use crate::engine::astar::Status;
use crate::engine::grid::{Neighbourhood, Pos};
use crate::game::{Monster, PLAYER_HP, Planning};

/// The lines `look` says.
pub fn lines(app: &App) -> Vec<String> {
    let w = app.world();
    let me = w.player().pos;
    let mut out = vec![format!(
        "You are at {me}, HP {} of {PLAYER_HP}, {}, turn {}, floor {} of {}.",
        w.player().hp,
        count(w.player().potions as usize, "potion", "potions"),
        w.turn(),
        w.run().depth,
        w.final_depth()
    )];
    let seen = w.monsters_in_view();
    if seen.is_empty() {
        out.push("No monster in view.".into());
    } else {
        out.push(format!(
            "In view, nearest first: {}.",
            count(seen.len(), "monster", "monsters")
        ));
        for m in seen {
            out.push(monster(app, m));
        }
    }
    let items: Vec<String> = w
        .features()
        .iter()
        .filter(|f| w.is_visible(f.pos))
        .map(|f| {
            let what = match f.kind {
                FeatureKind::Stairs => match w.monsters().len() {
                    0 => format!(
                        "open: {} takes them",
                        app.ui()
                            .settings()
                            .bindings
                            .key_of(Context::Play, Action::Descend)
                    ),
                    n => format!("sealed while {} live", count(n, "monster", "monsters")),
                },
                FeatureKind::Potion => "walk on it to take it".into(),
                FeatureKind::Lure | FeatureKind::Seeds | FeatureKind::Spike => {
                    format!("walk on it to take it; {} uses it", f.kind.glyph())
                }
            };
            format!(
                "{} {}, {}, {}: {what}.",
                f.kind.name(),
                f.kind.glyph(),
                compass(me, f.pos),
                steps_away(me, f.pos)
            )
        })
        .collect();
    if items.is_empty() {
        out.push("No item or stairs in view.".into());
    } else {
        out.extend(items);
    }
    out
}

/// One creature: `goblin #3, 5 east and 2 north, 5 steps away, HP 6 of 6: next step
/// west, its path costs 70 (5 steps).`
pub fn monster(app: &App, m: &Monster) -> String {
    let me = app.world().player().pos;
    let info = app.world().kind(m.kind);
    let mut head = format!("{} {} #{}", info.name, m.kind, m.id);
    if !info.speed.name().is_empty() {
        head.push_str(&format!(" ({})", info.speed.name()));
    }
    let selected = if app.ui().selected() == Some(m.id) {
        " Selected."
    } else {
        ""
    };
    format!(
        "{head}, {}, {}, HP {} of {}: {}.{selected}",
        compass(me, m.pos),
        steps_away(me, m.pos),
        m.hp,
        info.hp,
        plan(app, m)
    )
}

/// A monster's plan in words: its next step and what its path costs.
fn plan(app: &App, m: &Monster) -> String {
    if m.boxed {
        return "boxed in by the others, so no search this turn".into();
    }
    let w = app.world();
    let me = w.player().pos;
    // A monster that can reach the player in one legal move attacks, whatever its plan.
    let (dx, dy) = (me.x - m.pos.x, me.y - m.pos.y);
    let next_to =
        m.pos.chebyshev(me) == 1 && w.grid().can_step(m.pos, dx, dy, Neighbourhood::Eight);
    let step = match next_step(m) {
        _ if next_to => "next to you, it attacks".to_string(),
        Some(p) if p == me => "next to you, it attacks".to_string(),
        Some(p) => format!("next step {}", way(m.pos, p)),
        // Its plan was made from a cell it has left (another took its way): it plans
        // again at its turn.
        None => "it plans its next step at its turn".to_string(),
    };
    let steps = m.plan.path.len().saturating_sub(1);
    let cost = match m.plan.cost {
        Some(c) if app.world().planning() == Planning::Map => {
            format!("{c} to you on the Dijkstra map")
        }
        // Planned before its step (every monster steps after planning): that plan's.
        Some(c) if m.planned.0 != m.pos => format!(
            "it planned a path of cost {c} ({}) from {}",
            count(steps, "step", "steps"),
            m.planned.0
        ),
        Some(c) => format!("its path costs {c} ({})", count(steps, "step", "steps")),
        None if m.plan.status == Status::Unreachable => "no way to you".into(),
        None => format!(
            "its search ended: {}",
            crate::content::searches::status_name(m.plan.status)
        ),
    };
    format!("{step}, {cost}")
}

/// The cell a monster steps to next along its plan: the one after where it stands (a fast
/// monster may have taken a step of it already).
pub fn next_step(m: &Monster) -> Option<Pos> {
    let path = &m.plan.path;
    let here = path.iter().position(|&p| p == m.pos)?;
    path.get(here + 1).copied()
}
