//! Nothing the view shows is carried by colour alone: with every colour stripped (as
//! `NO_COLOR` strips them) each state still reads, by its glyph, a word or a mark that
//! stays (bold, underlined, dim). Frames drawn headless from the real app.

use astar_rogue::app::{App, Layer};
use astar_rogue::content::map::Tile;
use astar_rogue::engine::astar::NodeState;
use astar_rogue::engine::grid::Pos;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;

use crate::common::{app, frame, repo};

/// The frame of `app`, its colours stripped.
fn colourless(app: &App) -> Buffer {
    let (w, h) = app.ui().size();
    let area = Rect::new(0, 0, w, h);
    let mut buf = Buffer::empty(area);
    ratatui::widgets::Widget::render(app, area, &mut buf);
    astar_rogue::view::strip_colours(&mut buf);
    buf
}

/// The glyph and the marks a map cell is drawn with, colours stripped.
fn drawn(app: &App, buf: &Buffer, p: Pos) -> (String, Modifier) {
    let (x, y) = astar_rogue::app::screen::screen_cell(app, p).expect("the cell on screen");
    let cell = &buf[(x, y)];
    (cell.symbol().to_string(), cell.modifier)
}

#[test]
fn the_search_reads_without_colour_on_terrain_and_on_every_layer() {
    let mut a = app(&repo("levels/pond.txt"), 1, (80, 22));
    frame(&mut a, "o");
    let snap = a.ui().snapshot(a.world()).expect("the goblin's search");
    let buf = colourless(&a);
    let grid = a.world().grid();
    let water = |state: NodeState| {
        snap.nodes
            .iter()
            .filter(|n| n.state == state && grid.get(n.pos) == Tile::Water)
            .filter(|n| !snap.path.contains(&n.pos))
            .map(|n| drawn(&a, &buf, n.pos))
            .collect::<Vec<_>>()
    };
    let (open, closed) = (water(NodeState::Open), water(NodeState::Closed));
    assert!(
        !open.is_empty() && !closed.is_empty(),
        "{open:?} {closed:?}"
    );
    // The water keeps its glyph; the open cells are underlined, the closed ones not.
    assert!(
        open.iter()
            .all(|(g, m)| g == "~" && m.contains(Modifier::UNDERLINED)),
        "{open:?}"
    );
    assert!(
        closed
            .iter()
            .all(|(g, m)| g == "~" && !m.contains(Modifier::UNDERLINED)),
        "{closed:?}"
    );
    // On the layers of figures, the path keeps the figure and is bold; nothing else is.
    while a.ui().overlay().layer != Layer::F {
        frame(&mut a, "v");
    }
    let buf = colourless(&a);
    for n in &snap.nodes {
        let (_, m) = drawn(&a, &buf, n.pos);
        let on_path = snap.path.contains(&n.pos);
        let player = n.pos == a.world().player().pos;
        let monster = a.world().monster_at(n.pos).is_some();
        if !player && !monster {
            assert_eq!(m.contains(Modifier::BOLD), on_path, "{:?}", n.pos);
        }
    }
}

/// The rows of a frame, each with whether its first cell is faint.
fn rows(buf: &Buffer) -> Vec<(String, bool)> {
    (0..buf.area.height)
        .map(|y| {
            let text: String = (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect();
            (text, buf[(0, y)].modifier.contains(Modifier::DIM))
        })
        .collect()
}

#[test]
fn old_messages_are_faint_and_the_news_are_not() {
    // The welcome is said at turn 0; a refused step after a move is the news.
    let mut a = app(&repo("levels/pillar.txt"), 1, (80, 24));
    frame(&mut a, "l l");
    let rows = rows(&colourless(&a));
    let log = rows
        .iter()
        .position(|(t, _)| t.starts_with(" log "))
        .expect("the log");
    let shown: Vec<&(String, bool)> = rows[log + 1..rows.len() - 1]
        .iter()
        .filter(|(t, _)| !t.trim().is_empty())
        .collect();
    assert!(shown.first().is_some_and(|(_, dim)| *dim), "{shown:#?}");
    assert!(
        shown
            .last()
            .is_some_and(|(t, dim)| t.starts_with("There is nothing that way.") && !*dim),
        "{shown:#?}"
    );
}

#[test]
fn hurt_hit_points_say_so() {
    // As tests/scripts/melee.keys plays it: four blows in the first turn leave 19 of 30,
    // which the panel shows in yellow.
    let mut a = app(&repo("tests/levels/melee.txt"), 2, (80, 24));
    frame(&mut a, "n");
    assert_eq!(a.world().player().hp, 19);
    let rows = rows(&colourless(&a));
    assert!(
        rows.iter().any(|(t, _)| t.contains("HP 19/30 hurt")),
        "{rows:#?}"
    );
}
