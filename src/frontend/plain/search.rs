//! `search`: the selected monster's A* in words (what it found, its cost and the nodes it
//! expanded, its next steps, and F, G and H of the cells around the player, the search's
//! goal). The search is the one the overlay shows, read from a copy of the app with the
//! overlay on, so that asking changes nothing in the game (nor in its recording).

use super::look::next_step;
use super::words::{count, way};
use crate::app::App;
use crate::app::keymap::{Action, Context};
use crate::engine::grid::Pos;
use crate::game::Planning;

/// Next steps said at most.
const STEPS: usize = 8;

/// The lines `search` says.
pub fn lines(app: &App) -> Vec<String> {
    if let Some(lab) = app.screen().lab() {
        // The lab's own searches, as its panel sums them up.
        return lab
            .searches
            .iter()
            .map(|s| {
                format!(
                    "Lab search, {}: {}.",
                    crate::view::describe::options(&s.options),
                    crate::view::summary(&s.result, lab.start, lab.goal)
                )
            })
            .collect();
    }
    let w = app.world();
    let Some(m) = app.ui().selected().and_then(|id| w.monster(id)) else {
        return vec![format!(
            "No monster is selected: {} selects one.",
            app.ui()
                .settings()
                .bindings
                .key_of(Context::Play, Action::NextMonster)
        )];
    };
    let name = format!("the {} #{}", w.kind(m.kind).name, m.id);
    if w.planning() == Planning::Map {
        let cost = m.plan.cost.map_or("the map does not reach it".into(), |c| {
            format!("its cell costs {c} to you")
        });
        return vec![format!(
            "The monsters plan by one Dijkstra map from you, not by A*: {name}: {cost}."
        )];
    }
    // The overlay's search of the selected monster, finished, on a copy.
    let mut probe = app.clone();
    if !probe.ui().overlay().on {
        probe.apply(Action::ToggleOverlay);
    }
    probe.apply(Action::StepEnd);
    let (Some(trace), Some(snap)) = (probe.world().trace(), probe.ui().snapshot(probe.world()))
    else {
        return vec![format!("{name} has no search to show.")];
    };
    let (open, closed) = snap.counts();
    let plan = &m.plan;
    let cost = plan.cost.map_or("no path".into(), |c| format!("cost {c}"));
    let mut out = vec![format!(
        "Search of {name} from {} to you at {}, options {}: {}, {}, {} expanded, {open} open and {closed} closed at the end.",
        trace.start,
        trace.goal,
        crate::view::describe::options(&trace.options),
        crate::content::searches::status_name(plan.status),
        cost,
        count(trace.expansions() as usize, "node", "nodes"),
    )];
    if trace.start != m.pos {
        out.push(format!(
            "It planned from {}, then stepped to {}.",
            trace.start, m.pos
        ));
    }
    if let Some(why) = plan.fallback {
        out.push(crate::view::describe::fallback(why));
    }
    out.push(steps(m));
    out.push("F, G and H around you (G: cost from the monster, H: estimate to you, F: G plus weighted H):".into());
    let me = w.player().pos;
    let around = std::iter::once(me).chain(
        // Clockwise from north, as a compass reads.
        [
            (0, -1),
            (1, -1),
            (1, 0),
            (1, 1),
            (0, 1),
            (-1, 1),
            (-1, 0),
            (-1, -1),
        ]
        .into_iter()
        .map(|(dx, dy)| me.offset(dx, dy)),
    );
    for p in around {
        let place = if p == me {
            format!("your cell {p}")
        } else {
            format!("{} {p}", way(me, p))
        };
        out.push(format!("{place}: {}.", node(app, &snap, p)));
    }
    out
}

/// The monster's next steps along its plan, as ways: `west, west, north-west`.
fn steps(m: &crate::game::Monster) -> String {
    let path = &m.plan.path;
    let ahead = match path.iter().position(|&p| p == m.pos) {
        Some(here) if next_step(m).is_some() => &path[here..],
        _ => return "It has no step planned.".into(),
    };
    let ways: Vec<String> = ahead
        .windows(2)
        .take(STEPS)
        .map(|pair| way(pair[0], pair[1]))
        .collect();
    let left = ahead.len().saturating_sub(1);
    let more = if left > STEPS {
        format!(", then {} more", count(left - STEPS, "step", "steps"))
    } else {
        String::new()
    };
    format!("Its next steps: {}{more}.", ways.join(", "))
}

/// What the search knew of one cell.
fn node(app: &App, snap: &crate::engine::astar::Snapshot, p: Pos) -> String {
    let grid = app.world().grid();
    if !grid.contains(p) {
        return "off the map".into();
    }
    if !grid.is_passable(p) {
        return grid.get(p).name().into();
    }
    let Some(n) = snap.get(p) else {
        return "not touched by the search".into();
    };
    let mut s = format!("F {}, G {}, H {}, {}", n.f, n.g, n.h, n.state.name());
    if let Some(o) = n.order {
        s.push_str(&format!(" as expansion {o}"));
    }
    if snap.path.contains(&p) {
        s.push_str(", on the path");
    }
    s
}
