//! The app driven headless: the help screen, and the overlay's numbers against the CLI trace.

use std::path::Path;
use std::process::Command;

use astar_rogue::app::App;
use astar_rogue::app::help;
use astar_rogue::app::keymap::BINDINGS;
use astar_rogue::engine::grid::Pos;
use astar_rogue::view::look_line;

use crate::common;

#[test]
fn the_help_screen_lists_every_binding_on_its_pages_at_every_size() {
    for size in [(40, 12), (60, 20), (80, 24), (120, 40)] {
        let mut a = common::app(Path::new("levels/default.txt"), 1, size);
        let pages = help::layout(
            astar_rogue::app::config::Bindings::standard(),
            ratatui::layout::Rect::new(0, 0, size.0, size.1),
        )
        .pages();
        let mut seen = String::new();
        common::frame(&mut a, "?");
        for page in 0..pages {
            assert_eq!(a.screen().help_page(), page);
            let frame = common::frame(&mut a, "");
            // What the game is and how a run is won, above the first page's keys.
            let about = frame.find("A roguelike whose monsters plan with");
            let win = frame.find("Win: kill a floor's monsters to open");
            let keys = frame.find("Anywhere");
            if page == 0 {
                assert!(
                    about < win && win < keys && about.is_some(),
                    "{size:?}\n{frame}"
                );
            }
            let top = frame.lines().find(|l| l.starts_with('┌')).expect("the box");
            assert!(top.ends_with("─┐"), "{size:?}: the title fits: {top:?}");
            seen.push_str(&frame);
            common::frame(&mut a, "PageDown");
        }
        assert_eq!(
            a.screen().help_page(),
            pages - 1,
            "PageDown stops at the last page"
        );
        // Each binding's whole row, keys then description: a lone key letter alone would be
        // found anywhere in the frame. Keys that fill their column have the description on
        // the row below, where the others' descriptions start.
        let rows: Vec<Vec<char>> = seen.lines().map(|l| l.chars().collect()).collect();
        for b in BINDINGS.iter() {
            if help::words_beside(b.label) {
                let row = format!(" {:<w$} {}", b.label, b.help, w = help::KEYS_W - 1);
                assert!(seen.contains(&row), "{size:?}: help misses {row:?}\n{seen}");
                continue;
            }
            let keys: Vec<char> = format!(" {} ", b.label).chars().collect();
            let words: Vec<char> = format!("{:w$}{}", "", b.help, w = help::KEYS_W + 1)
                .chars()
                .collect();
            let found = rows.windows(2).any(|two| {
                (0..two[0].len()).any(|x| {
                    two[0][x..].starts_with(&keys)
                        && two[1].get(x..).is_some_and(|r| r.starts_with(&words))
                })
            });
            assert!(
                found,
                "{size:?}: help misses {:?} above {:?}\n{seen}",
                b.label, b.help
            );
        }
        // A key the help does not bind does nothing there; Esc closes it.
        common::frame(&mut a, "x");
        assert_eq!(a.screen().mode(), astar_rogue::app::Mode::Help);
        common::frame(&mut a, "Esc");
        assert_ne!(a.screen().mode(), astar_rogue::app::Mode::Help);
    }
}

/// Keys that make rows longer than the table's: a key name in a row's words (`F` of
/// "attack in place: F, a way"), a move rebound so that the numpad row is reworded.
const LONG_KEYS: &[u8] = b"[keys.playing]\nattack = [\"Backspace\"]\n[keys.edit]\nmonster = [\"Insert\"]\ncopy = [\"C-x\"]\n[keys.everywhere]\nmove_n = [\"K\"]\n";

/// At every size from 40x12 to 200x60, with the table's keys and with long ones, the help's
/// columns fit its box with two blank columns between them, every row fits its column
/// (words too long for it go on below, as do the words of keys that fill their column),
/// every column fits the box's height, and every binding is there whole.
#[test]
fn help_columns_never_touch_or_cut_a_row_at_any_size() {
    use astar_rogue::app::config::{Bindings, parse};
    use help::{GAP, Row};
    let long = parse(LONG_KEYS, "long.toml").unwrap().bindings;
    for bindings in [Bindings::standard(), &long] {
        // Each binding's row as it should read, words joined again, in the help's order.
        let expected: Vec<String> = astar_rogue::app::keymap::Context::ALL
            .iter()
            .flat_map(|&ctx| (0..BINDINGS.len()).filter(move |&r| BINDINGS[r].context == ctx))
            .map(|r| format!("{} {}", bindings.label(r), bindings.help(r)))
            .collect();
        for w in 40..=200u16 {
            for h in 12..=60u16 {
                let l = help::layout(bindings, ratatui::layout::Rect::new(0, 0, w, h));
                let inner_w = usize::from(w - 2);
                assert!(
                    l.per_page * l.col_w + (l.per_page - 1) * GAP <= inner_w,
                    "{w}x{h}: {} columns of {} do not fit {inner_w}",
                    l.per_page,
                    l.col_w
                );
                let body_h = usize::from(h - 2);
                let mut found: Vec<String> = Vec::new();
                for (i, col) in l.cols.iter().enumerate() {
                    let room = if i < l.per_page {
                        body_h - l.about.len() - 1
                    } else {
                        body_h
                    };
                    assert!(
                        col.len() <= room,
                        "{w}x{h}: column {i} is {} rows",
                        col.len()
                    );
                    for (j, row) in col.iter().enumerate() {
                        let cont = match row {
                            Row::Heading(ctx) if j == 0 => help::continued(&l.cols, i, *ctx),
                            _ => "",
                        };
                        let text = row.text(bindings) + cont;
                        assert!(
                            text.chars().count() <= l.col_w,
                            "{w}x{h}: {text:?} is wider than its column ({})",
                            l.col_w
                        );
                        match row {
                            // Keys that fill their column have their words below: never
                            // one blank between them.
                            Row::Binding(label, words) if words.is_empty() => {
                                found.push(label.clone())
                            }
                            Row::Binding(label, words) => {
                                assert!(
                                    label.chars().count() < help::KEYS_W - 1,
                                    "{w}x{h}: {label:?} runs into {words:?}"
                                );
                                found.push(format!("{label} {words}"))
                            }
                            Row::More(words) => {
                                let last = found.last_mut().expect("a binding above");
                                last.push(' ');
                                last.push_str(words);
                            }
                            Row::Heading(_) => {}
                        }
                    }
                }
                assert_eq!(found, expected, "{w}x{h}");
            }
        }
    }
}

/// The help drawn at 80x24 (where a full row used to run into the next column's heading,
/// "a way Attack in place (F)") and other sizes: the two columns before each column's
/// start are blank on every row of every page.
#[test]
fn the_help_drawn_leaves_a_gap_before_each_column() {
    use astar_rogue::app::config::parse;
    for keys in [&b""[..], LONG_KEYS] {
        for size in [(40u16, 12u16), (80, 24), (81, 25), (118, 30), (200, 60)] {
            let settings = parse(keys, "keys.toml").unwrap();
            let l = help::layout(
                &settings.bindings,
                ratatui::layout::Rect::new(0, 0, size.0, size.1),
            );
            let mut a = common::app(Path::new("levels/default.txt"), 1, size);
            a.apply_settings(settings);
            common::frame(&mut a, "?");
            for page in 0..l.pages() {
                let frame = common::frame(&mut a, "");
                let rows: Vec<Vec<char>> = frame
                    .lines()
                    .skip_while(|r| !r.starts_with('┌'))
                    .skip(1)
                    .take(usize::from(size.1) - 2)
                    .map(|r| r.chars().collect())
                    .collect();
                // The first page's about text runs across the columns, above them.
                let about = if page == 0 { l.about.len() + 1 } else { 0 };
                for c in 1..l.per_page {
                    let x = 1 + c * (l.col_w + help::GAP);
                    for (y, row) in rows.iter().enumerate().skip(about) {
                        // Two, whatever the layout's constant says.
                        let gap: String = row[x - 2..x].iter().collect();
                        assert!(
                            gap.trim().is_empty(),
                            "{size:?} page {page} row {y}: {:?}",
                            row.iter().collect::<String>()
                        );
                    }
                }
                common::frame(&mut a, "PageDown");
            }
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
        .ui()
        .selected()
        .and_then(|id| a.world().monster(id))
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
    let (g, h) = ("G0".to_string(), format!("H{}", start.h));
    assert!(
        frame.contains(&format!("│{g}{}{h}│", " ".repeat(10 - g.len() - h.len()))),
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
    assert_eq!(a.world().turn(), 2);
    a.handle_event(&Event::Resize(120, 40));
    a.tick();
    assert_eq!(a.world().player().pos, Pos::new(5, 5));
    assert!(!a.is_busy(), "travel ends on arrival");
    a.start_travel(Pos::new(1, 1));
    a.tick();
    a.handle_event(&Event::Key(KeyEvent::from(KeyCode::Char('x'))));
    assert!(!a.is_busy(), "a key stops travel");
    assert_eq!(a.world().log().last().unwrap().text, "You stop.");
}

#[test]
fn travel_stops_where_a_level_message_shows_so_that_it_is_read() {
    use astar_rogue::engine::grid::Pos;
    let scratch = common::Scratch::new();
    let level = scratch.write(
        "notes.txt",
        "message: Walk east.\nmessage at 4,1: Stop and read this.\n#########\n#@......#\n#########\n",
    );
    let mut a = common::app(&level, 1, (80, 24));
    let log: Vec<String> = a.world().log().iter().map(|m| m.text.clone()).collect();
    assert_eq!(log.len(), 3, "{log:?}");
    assert!(
        log[0] == "? lists keys; X explores.",
        "no monster: no word on o: {log:?}"
    );
    assert_eq!(log[2], "Walk east.");
    a.start_travel(Pos::new(7, 1));
    while a.is_busy() {
        a.tick();
    }
    assert_eq!(a.world().player().pos, Pos::new(4, 1));
    assert_eq!(a.world().log().last().unwrap().text, "Stop and read this.");
    // Travel on goes to the end: the message shows once.
    a.start_travel(Pos::new(7, 1));
    while a.is_busy() {
        a.tick();
    }
    assert_eq!(a.world().player().pos, Pos::new(7, 1));
    assert_eq!(a.world().log().len(), 4);
}

#[test]
fn the_first_screen_says_the_goal_where_help_is_and_how_to_see_a_search() {
    let mut a = common::app(Path::new("levels/default.txt"), 1, (80, 24));
    let frame = common::frame(&mut a, "");
    let lines: Vec<&str> = frame.lines().map(str::trim_end).collect();
    // At 80 columns the welcome takes two lines of the log, neither cut, the goal after the
    // hint (the level's own first message follows them).
    let at = lines
        .iter()
        .position(|l| l.starts_with(" log ─"))
        .expect("the log");
    assert_eq!(
        lines[at + 1..at + 3],
        [
            "? lists keys; o shows A* searches; X explores; Z rests.",
            "Kill the 8 monsters to open the stairs > (depth 1 of 3)."
        ],
        "{frame}"
    );
}

#[test]
fn the_overlay_replays_the_newest_search_after_each_turn() {
    let size = (100, 30);
    let mut a = common::app(Path::new("levels/pillar.txt"), 1, size);
    common::frame(&mut a, "o {");
    let before = a.ui().snapshot(a.world()).expect("a search to show");
    common::frame(&mut a, ". . {");
    let after = a.ui().snapshot(a.world()).expect("a search to show");
    let fresh = a.world().trace().unwrap().snapshot(0);
    assert_eq!(after.nodes, fresh.nodes);
    assert_ne!(
        before.nodes, after.nodes,
        "the goblin moved, so its newest search starts elsewhere"
    );
}

#[test]
fn autoplay_runs_at_the_speed_shown_and_the_speed_keys_change_it_live() {
    use astar_rogue::app::keymap::Action;
    use astar_rogue::app::{SPEEDS, TICK_MS};
    // Scripts tick until idle, so the pace is checked on the app itself.
    let mut a = common::app(Path::new("levels/bracket.txt"), 1, (100, 30));
    a.apply(Action::ToggleOverlay);
    a.apply(Action::StepStart);
    a.apply(Action::Autoplay);
    let per_second = a.ui().overlay().speed();
    // A second of ticks plays that many expansions (the bracket search has 82).
    let ticks = 1000u32.div_ceil(TICK_MS);
    for _ in 0..ticks {
        a.tick();
    }
    let played = a.ui().overlay().step.expect("still playing");
    let want = per_second * ticks * TICK_MS / 1000;
    assert!(want > 1);
    assert_eq!(played, want, "{per_second}/s for {ticks} ticks");
    // Faster while it plays: it keeps playing, at the next speed.
    a.apply(Action::Faster);
    assert!(a.ui().overlay().autoplay);
    assert_eq!(
        a.ui().overlay().speed(),
        SPEEDS[SPEEDS.iter().position(|&s| s == per_second).unwrap() + 1]
    );
    // Slowest: one expansion a second.
    for _ in 0..SPEEDS.len() {
        a.apply(Action::Slower);
    }
    assert_eq!(a.ui().overlay().speed(), 1);
    // Pausing and resuming starts the count afresh.
    a.apply(Action::Autoplay);
    a.apply(Action::Autoplay);
    let before = a.ui().overlay().step.unwrap();
    for _ in 0..ticks {
        a.tick();
    }
    assert_eq!(a.ui().overlay().step, Some(before + 1), "one a second");
    // `a` pauses; other keys leave it paused or playing as it was.
    a.apply(Action::Autoplay);
    assert!(!a.ui().overlay().autoplay);
    a.tick();
    assert_eq!(a.ui().overlay().step, Some(before + 1));
    a.apply(Action::Autoplay);
    assert!(a.ui().overlay().autoplay, "a resumes");
    // A key press (not a script, which would tick until the search ends).
    use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
    a.handle_event(&Event::Key(KeyEvent::new(
        KeyCode::Char('v'),
        KeyModifiers::NONE,
    )));
    assert!(
        a.ui().overlay().autoplay,
        "changing the layer does not stop it"
    );
}

/// The text of the map view's cell for map cell `p`, and its style's modifiers.
fn map_glyph(a: &App, p: Pos) -> (String, ratatui::style::Modifier) {
    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;
    use ratatui::widgets::Widget;
    let area = Rect::new(0, 0, a.ui().size().0, a.ui().size().1);
    let mut buf = Buffer::empty(area);
    a.render(area, &mut buf);
    let (x, y) = astar_rogue::app::screen::screen_cell(a, p).expect("on screen");
    let cell = &buf[(x, y)];
    (cell.symbol().to_string(), cell.modifier)
}

#[test]
fn sight_hides_the_unseen_dims_the_remembered_and_capital_v_shows_all() {
    use ratatui::style::Modifier;
    let dir = common::Scratch::new();
    let path = dir.write(
        "rooms.txt",
        "###########\n#@....#...#\n#.....#...#\n#.........#\n###########\n",
    );
    let mut a = common::app(&path, 1, (60, 16));
    let behind = Pos::new(8, 1);
    assert!(!a.world().is_seen(behind));
    assert_eq!(map_glyph(&a, behind).0, " ", "behind the wall: unseen");
    assert_eq!(map_glyph(&a, Pos::new(3, 2)).0, ".");
    assert!(!map_glyph(&a, Pos::new(3, 2)).1.contains(Modifier::DIM));
    // Into the right room and back: the room is remembered, dimmed.
    common::frame(&mut a, "3*n 4*l");
    assert!(a.world().is_visible(behind));
    common::frame(&mut a, "4*h 3*y");
    assert_eq!(a.world().player().pos, Pos::new(1, 1));
    assert!(!a.world().is_visible(behind) && a.world().is_seen(behind));
    let (glyph, style) = map_glyph(&a, behind);
    assert_eq!(glyph, ".");
    assert!(style.contains(Modifier::DIM), "remembered cells are dimmed");
    // V shows the whole map; so do the overlay and look mode, whatever sight says.
    common::frame(&mut a, "V");
    assert!(!map_glyph(&a, behind).1.contains(Modifier::DIM));
    assert_eq!(map_glyph(&a, Pos::new(9, 3)).0, ".");
    common::frame(&mut a, "V o");
    assert!(a.ui().sight() && !map_glyph(&a, behind).1.contains(Modifier::DIM));
    common::frame(&mut a, "o x");
    assert!(!map_glyph(&a, behind).1.contains(Modifier::DIM));
}

#[test]
fn the_history_scrolls_back_through_the_whole_run() {
    let mut a = common::app(Path::new("levels/pillar.txt"), 1, (40, 12));
    for i in 0..60 {
        a.session_mut().world_mut().say(format!("note {i}"));
    }
    let frame = common::frame(&mut a, "C-p");
    assert_eq!(a.screen().mode(), astar_rogue::app::Mode::History);
    assert!(frame.contains("message history"), "{frame}");
    assert!(
        frame.contains("note 50") && !frame.contains("note 49"),
        "{frame}"
    );
    // One back, a page back, to the start of the run (the welcome line), and back down.
    let frame = common::frame(&mut a, "k");
    assert!(
        !frame.contains("note 59") && frame.contains("note 58"),
        "{frame}"
    );
    let frame = common::frame(&mut a, "PageUp");
    assert!(
        frame.contains("note 49") && !frame.contains("note 58"),
        "{frame}"
    );
    let frame = common::frame(&mut a, "Home");
    assert!(frame.contains("Kill the monster to win the run"), "{frame}");
    assert!(
        // The welcome takes four of the box's nine rows at 40 columns.
        frame.contains("note 0") && frame.contains("1-8 of 62"),
        "{frame}"
    );
    let frame = common::frame(&mut a, "End");
    assert!(frame.contains("note 59"), "{frame}");
    // Other keys do not reach the game behind the history; Esc closes it.
    let turn = a.world().turn();
    common::frame(&mut a, "h l . Esc");
    assert_eq!(a.world().turn(), turn);
    assert_eq!(a.screen().mode(), astar_rogue::app::Mode::Play);
}

#[test]
fn descending_makes_the_next_floor_the_design_and_restart_goes_back_up() {
    use astar_rogue::app::SourceKind;
    let dir = common::Scratch::new();
    let text = "title: Stairs\n#######\n#@r.>.#\n#######\n";
    let path = dir.write("stairs.txt", text);
    let mut a = common::app(&path, 4, (80, 24));
    while !a.world().monsters().is_empty() {
        common::frame(&mut a, "l");
        assert!(a.world().turn() < 10);
    }
    while a.world().player().pos != Pos::new(4, 1) {
        common::frame(&mut a, "l");
    }
    // Unsaved edits would be lost with the design: the stairs wait until they are saved.
    a.set_cursor(Pos::new(5, 1));
    common::frame(&mut a, "e");
    a.set_cursor(Pos::new(5, 1));
    common::frame(&mut a, "w e >");
    assert_eq!(a.world().run().depth, 1);
    assert!(
        a.world()
            .log()
            .last()
            .unwrap()
            .text
            .contains("Save (s) or undo")
    );
    common::frame(&mut a, "e U e");
    assert!(!a.session().unsaved());
    let frame = common::frame(&mut a, ">");
    assert_eq!(a.world().run().depth, 2);
    assert_eq!(a.session().source().kind, SourceKind::Generated);
    assert_eq!(a.session().design().level().grid, *a.world().grid());
    let title = a.session().design().level().title.clone().unwrap();
    assert!(title.starts_with("Depth 2 of 3"), "{title}");
    assert!(frame.contains("Depth 2/3"), "{frame}");
    // Restarting the run asks (a game is in progress), then starts over on the first floor.
    common::frame(&mut a, "r y");
    assert_eq!(a.world().run().depth, 1);
    assert_eq!(
        a.session().design().level().title.as_deref(),
        Some("Stairs")
    );
    assert_eq!(a.session().source().kind, SourceKind::Text);
    assert_eq!(a.world().turn(), 0);
    assert_eq!(a.world().monsters().len(), 1);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        text,
        "never written"
    );
}

#[test]
fn look_mode_names_speeds_and_features() {
    let dir = common::Scratch::new();
    let path = dir.write("kinds.txt", "##########\n#@.r.t.!>#\n##########\n");
    let a = common::app(&path, 1, (80, 24));
    assert!(look_line(&a, Pos::new(3, 1)).contains(" r rat (fast)"));
    assert!(look_line(&a, Pos::new(5, 1)).contains(" t troll (slow)"));
    assert!(look_line(&a, Pos::new(7, 1)).contains(" healing potion"));
    assert!(look_line(&a, Pos::new(8, 1)).contains(" stairs down"));
}

/// The inspector's boxes stay where they are while the search is stepped, whatever the
/// lines above them do (they used to jump between 3x3 and 1x3 as the step line wrapped),
/// at 80x24 and from 60x16.
#[test]
fn the_inspector_keeps_its_place_while_stepping() {
    for size in [(80, 24), (60, 16)] {
        let mut a = common::app(Path::new("levels/bracket.txt"), 1, size);
        let first = common::frame(&mut a, "o {");
        let row_of = |frame: &str| {
            frame
                .lines()
                .position(|l| l.contains(" inspector "))
                .unwrap_or_else(|| panic!("no inspector at {size:?}:\n{frame}"))
        };
        let rows = first.lines().filter(|l| l.contains("┌─")).count();
        let at = row_of(&first);
        let total = a.world().trace().unwrap().expansions();
        for step in 1..=total {
            let frame = common::frame(&mut a, "]");
            assert_eq!(row_of(&frame), at, "{size:?} step {step}:\n{frame}");
            let boxes = frame.lines().filter(|l| l.contains("┌─")).count();
            assert_eq!(boxes, rows, "{size:?} step {step}:\n{frame}");
        }
    }
}

/// The panel follows the nearest monster in view until the player picks one with Tab; the
/// pick lasts until that monster dies.
#[test]
fn the_selection_follows_the_nearest_monster_in_view_until_one_is_picked() {
    let mut a = common::app(Path::new("levels/default.txt"), 1, (100, 32));
    let nearest = |a: &App| a.world().monsters_in_view().first().map(|m| m.id);
    // Nobody is in view at the start (the rat in the west room keeps to its far corner):
    // the panel follows the first monster until somebody comes into view.
    assert_eq!(nearest(&a), None);
    assert_eq!(a.ui().selected(), Some(1));
    // It follows whoever is nearest in view; with nobody in view the last one stays
    // selected. The walk has steps of both kinds (else it proves only one).
    let (mut followed, mut switched, mut kept) = (0, 0, 0);
    for keys in ["l", "l", "k", "k", "k", "y", "h", "h"] {
        let before = a.ui().selected();
        common::frame(&mut a, keys);
        match nearest(&a) {
            Some(id) => {
                assert_eq!(a.ui().selected(), Some(id), "after {keys}");
                followed += 1;
                switched += usize::from(before != Some(id));
            }
            None => {
                assert!(before.is_some(), "after {keys}: somebody was selected");
                assert_eq!(a.ui().selected(), before, "after {keys}: nobody in view");
                kept += 1;
            }
        }
    }
    assert!(
        followed > 0 && switched > 0 && kept > 0,
        "followed {followed} (to another {switched}), kept {kept}"
    );
    // Tab picks the next by id; it stays picked however the others move.
    common::frame(&mut a, "Tab");
    let picked = a.ui().selected().unwrap();
    assert_ne!(Some(picked), nearest(&a));
    common::frame(&mut a, ". .");
    assert_eq!(a.ui().selected(), Some(picked));
}

/// Tab with no monster to pick selects none as picking one does: the overlay goes back to
/// the whole search (here none) rather than keeping the step it was paused on.
#[test]
fn next_monster_with_none_selects_none_as_picking_does() {
    use astar_rogue::app::keymap::Action;
    let dir = common::Scratch::new();
    let level = dir.write("empty.txt", "title: Empty\n....\n.@..\n....\n");
    let mut a = common::app(&level, 1, (80, 24));
    a.apply(Action::ToggleOverlay);
    a.apply(Action::Autoplay);
    assert_eq!(
        a.ui().overlay().step,
        Some(0),
        "autoplay starts from the start"
    );
    a.apply(Action::NextMonster);
    assert_eq!(a.ui().selected(), None);
    assert_eq!(a.ui().overlay().step, None, "the search shown whole");
}
