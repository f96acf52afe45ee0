//! The app driven headless: the help screen, and the overlay's numbers against the CLI trace.

use std::path::Path;
use std::process::Command;

use astar_rogue::app::App;
use astar_rogue::app::keymap::BINDINGS;
use astar_rogue::engine::grid::Pos;
use astar_rogue::view::look_line;

mod common;

#[test]
fn the_help_screen_lists_every_binding() {
    for size in [(80, 24), (120, 40)] {
        let mut a = common::app(Path::new("levels/default.txt"), 1, size);
        let frame = common::frame(&mut a, "?");
        // Each binding's whole row, keys then description: a lone key letter alone would be
        // found anywhere in the frame.
        for b in BINDINGS {
            let row = format!(" {:<11} {}", b.label, b.help);
            assert!(
                frame.contains(&row),
                "{size:?}: help misses {row:?}\n{frame}"
            );
        }
    }
}

#[derive(serde::Deserialize)]
struct Node {
    x: i32,
    y: i32,
    g: u32,
    h: u32,
    f: u32,
    parent: Option<[i32; 2]>,
    state: String,
    order: Option<u32>,
}

#[derive(serde::Deserialize)]
struct Traced {
    cost: Option<u32>,
    nodes: Vec<Node>,
}

fn cli_trace(level: &str, extra: &[&str]) -> Traced {
    let out = Command::new(env!("CARGO_BIN_EXE_astar-rogue"))
        .args(["path", level, "--json", "--trace"])
        .args(extra)
        .output()
        .expect("binary runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

fn check_overlay_matches(level: &str, keys: &str, extra: &[&str]) {
    let size = (120, 40);
    let mut a = common::app(Path::new(level), 1, size);
    let frame = common::frame(&mut a, keys);
    let traced = cli_trace(level, extra);
    let selected = a
        .selected
        .and_then(|id| a.world.monster(id))
        .expect("a monster");
    assert_eq!(selected.plan.cost, traced.cost);
    for n in &traced.nodes {
        let line = look_line(&a, Pos::new(n.x, n.y));
        let mut want = format!("F {} G {} H {}", n.f, n.g, n.h);
        match n.parent {
            Some([px, py]) => want.push_str(&format!("  parent {px},{py}")),
            None => want.push_str("  start"),
        }
        want.push_str(&format!("  {}", n.state));
        if let Some(o) = n.order {
            want.push_str(&format!(" #{o}"));
        }
        assert!(line.ends_with(&want), "{line:?} should end with {want:?}");
    }
    // The inspector box of the monster's own cell shows the start's F, G and H.
    let start = traced
        .nodes
        .iter()
        .find(|n| n.parent.is_none())
        .expect("start node");
    assert!(frame.contains(&format!("F{}", start.f)), "{frame}");
    assert!(
        frame.contains(&format!(
            "│0{}{}│",
            " ".repeat(10 - 1 - start.h.to_string().len()),
            start.h
        )),
        "{frame}"
    );
}

#[test]
fn the_overlay_shows_the_engines_trace() {
    check_overlay_matches("levels/bracket.txt", "o", &[]);
    check_overlay_matches("levels/pillar.txt", "o", &[]);
}

#[test]
fn the_overlay_follows_changed_options() {
    // H twice: Chebyshev; N twice: 4-way; W once: weight 1.5.
    check_overlay_matches(
        "levels/bracket.txt",
        "o H H N N W",
        &[
            "--heuristic",
            "chebyshev",
            "--neighbours",
            "4",
            "--weight",
            "1.5",
        ],
    );
}

#[test]
fn travel_survives_a_resize_and_any_key_stops_it() {
    use astar_rogue::engine::grid::Pos;
    use crossterm::event::{Event, KeyCode, KeyEvent};
    let mut a = common::app(Path::new("tests/levels/open.txt"), 1, (80, 24));
    a.start_travel(Pos::new(5, 5));
    a.tick();
    a.handle_event(&Event::Resize(20, 5));
    assert!(a.is_busy(), "a resize does not stop travel");
    a.tick();
    assert_eq!(a.world.turn(), 2);
    a.handle_event(&Event::Resize(120, 40));
    a.tick();
    assert_eq!(a.world.player().pos, Pos::new(5, 5));
    assert!(!a.is_busy(), "travel ends on arrival");
    a.start_travel(Pos::new(1, 1));
    a.tick();
    a.handle_event(&Event::Key(KeyEvent::from(KeyCode::Char('x'))));
    assert!(!a.is_busy(), "a key stops travel");
    assert_eq!(a.world.log().last().unwrap().text, "You stop.");
}

#[test]
fn the_overlay_replays_the_newest_search_after_each_turn() {
    let size = (100, 30);
    let mut a = common::app(Path::new("levels/pillar.txt"), 1, size);
    common::frame(&mut a, "o {");
    let before = a.snapshot().expect("a search to show");
    common::frame(&mut a, ". . {");
    let after = a.snapshot().expect("a search to show");
    let fresh = a.world.trace().unwrap().snapshot(0);
    assert_eq!(after.nodes, fresh.nodes);
    assert_ne!(
        before.nodes, after.nodes,
        "the goblin moved, so its newest search starts elsewhere"
    );
}

#[test]
fn the_speed_keys_change_how_many_expansions_an_autoplay_tick_takes() {
    use astar_rogue::app::keymap::Action;
    // Frames do not show the speed, and scripts tick until idle: checked on the app itself.
    let mut a = common::app(Path::new("levels/bracket.txt"), 1, (100, 30));
    let step_after_one_tick = |a: &mut App, faster: usize, slower: usize| {
        a.apply(Action::ToggleOverlay);
        a.apply(Action::StepStart);
        for _ in 0..faster {
            a.apply(Action::Faster);
        }
        for _ in 0..slower {
            a.apply(Action::Slower);
        }
        a.apply(Action::Autoplay);
        a.tick();
        let step = a.overlay.step;
        a.apply(Action::ToggleOverlay);
        step
    };
    // The speed is kept between uses: 4 expansions a tick, then 8 after one faster, then 2
    // after two slower.
    assert_eq!(step_after_one_tick(&mut a, 0, 0), Some(4));
    assert_eq!(step_after_one_tick(&mut a, 1, 0), Some(8));
    assert_eq!(step_after_one_tick(&mut a, 0, 2), Some(2));
}
