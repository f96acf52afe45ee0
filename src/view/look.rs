//! What the player is told of a cell: the look line, the lab's cell and the panel's units.

use super::{editor, map};
use crate::app::keymap::{Action, Context};
use crate::app::{App, Mode};
use crate::engine::astar::Snapshot;
use crate::engine::grid::Pos;

/// What the hint bar says of the cursor's cell in look mode, the editor and the lab
/// (without their keys), for a front end that reads it out; `None` on the other screens.
pub fn cursor_line(app: &App) -> Option<String> {
    match app.screen().mode() {
        Mode::Look => Some(look_line(app, app.cursor())),
        Mode::Edit => Some(format!("EDIT {}", editor::state_line(app))),
        Mode::Lab => {
            let snap = app.screen().lab_snapshot(0, app.ui().overlay());
            Some(describe_lab_cell(app, snap.as_deref(), app.cursor()))
        }
        _ => None,
    }
}

/// The look-mode description of a cell: its F, G, H, parent, state and order.
pub fn look_line(app: &App, p: Pos) -> String {
    let snap = if app.ui().overlay().on {
        app.ui().snapshot(app.world())
    } else {
        None
    };
    describe_cell(app, snap.as_deref(), p)
}

pub(super) fn describe_cell(app: &App, snap: Option<&Snapshot>, p: Pos) -> String {
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
        // A wall, void, or a closed or jammed door: what stands in the way, by its name.
        s.push_str(&format!(" {}", tile.name()));
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
    app.ui().key(Context::Look, Action::ToggleOverlay)
}

/// What look mode tells of a cell, for the panel: what stands or lies there (a monster's
/// kind, HP, damage, speed and plan), the terrain, and what the search knew of it.
pub(super) fn look_units(app: &App, snap: Option<&Snapshot>, p: Pos) -> Vec<String> {
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
                app.ui().key(Context::Play, Action::Descend)
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
    units.push(match w.grid().get(p) {
        crate::content::map::Tile::Floor => "floor".into(),
        crate::content::map::Tile::Wall => "wall".into(),
        crate::content::map::Tile::Void => "void".into(),
        crate::content::map::Tile::Water => "shallow water".into(),
        crate::content::map::Tile::Brush => "brush".into(),
        crate::content::map::Tile::DoorClosed => "closed door: walk into it to open it".into(),
        crate::content::map::Tile::DoorOpen => format!(
            "open door: {} beside it closes it",
            app.ui().key(Context::Play, Action::CloseDoors)
        ),
        crate::content::map::Tile::DoorJammed => "jammed door: a wall to all but diggers".into(),
    });
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
pub(super) fn describe_lab_cell(app: &App, snap: Option<&Snapshot>, p: Pos) -> String {
    let Some(lab) = app.screen().lab() else {
        return String::new();
    };
    let mut s = String::new();
    if lab.quiz.is_some() {
        // The quiz's keys lead: a narrow bar cuts from the end.
        let key = |a| app.ui().key(Context::Lab, a);
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
