//! The terminal's cursor follows the action, shown, so that a screen reader or a magnifier
//! that follows the cursor reads the game: on the `@` while playing, on the cell looked at
//! in look mode. The real binary on a pty ([`crate::pty`]), the screen read back with the
//! vt100 crate.

use std::time::{Duration, Instant};

use crate::common::Scratch;
use crate::pty::Pty;

const DEADLINE: Duration = Duration::from_secs(10);

/// Where a row of the screen shows `glyph` in the map's columns (the panel is the last 28
/// of 80), as (row, column).
fn find(pty: &Pty, glyph: char) -> Option<(u16, u16)> {
    pty.screen().iter().enumerate().find_map(|(row, text)| {
        let col = text.chars().take(52).position(|c| c == glyph)?;
        Some((row as u16, col as u16))
    })
}

/// Waits until the cursor stands at `want()` (asked again each time: the screen may still
/// be drawing) and shows.
fn wait_cursor(pty: &Pty, what: &str, want: impl Fn(&Pty) -> Option<(u16, u16)>) {
    let start = Instant::now();
    loop {
        let (at, shown) = pty.cursor();
        if shown && want(pty) == Some(at) {
            return;
        }
        assert!(
            start.elapsed() < DEADLINE,
            "the cursor is at {at:?} (shown: {shown}), not on {what} at {:?}:\n{}",
            want(pty),
            pty.screen().join("\n")
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The cell look mode's hint bar names: `LOOK 5,2 ...`.
fn look_cell(pty: &Pty) -> Option<(i32, i32)> {
    let screen = pty.screen();
    let hint = screen.iter().find_map(|r| r.split("LOOK ").nth(1))?;
    let cell = hint.split_whitespace().next()?;
    let (x, y) = cell.split_once(',')?;
    Some((x.parse().ok()?, y.parse().ok()?))
}

#[test]
fn the_cursor_stands_on_the_player_and_on_the_cell_looked_at() {
    let scratch = Scratch::new();
    let level = scratch.copy("levels/pillar.txt");
    let config = Scratch::new();
    let data = Scratch::new();
    let mut pty = Pty::spawn(
        &["play".as_ref(), level.as_os_str()],
        &[
            ("ASTAR_ROGUE_DATA", data.path().as_os_str()),
            ("XDG_CONFIG_HOME", config.path().as_os_str()),
        ],
    );
    pty.wait_screen("quit", DEADLINE);
    wait_cursor(&pty, "the @", |p| find(p, '@'));
    // East, then north: the player ends at 7,2.
    pty.send(b"l");
    pty.wait_screen("Turn 1", DEADLINE);
    wait_cursor(&pty, "the @", |p| find(p, '@'));
    pty.send(b"k");
    pty.wait_screen("Turn 2", DEADLINE);
    wait_cursor(&pty, "the @", |p| find(p, '@'));
    let (row, col) = find(&pty, '@').expect("the @ on screen");
    // Look mode: on the cell the hint bar names, wherever the look cursor goes.
    let looked = |p: &Pty| {
        let (x, y) = look_cell(p)?;
        Some((
            (i32::from(row) + y - 2) as u16,
            (i32::from(col) + x - 7) as u16,
        ))
    };
    pty.send(b"x");
    pty.wait_screen("LOOK", DEADLINE);
    wait_cursor(&pty, "the cell looked at", looked);
    let first = look_cell(&pty);
    pty.send(b"j");
    let start = Instant::now();
    while look_cell(&pty) == first && start.elapsed() < DEADLINE {
        std::thread::sleep(Duration::from_millis(10));
    }
    wait_cursor(&pty, "the cell looked at", looked);
    // Back to play, then quit: the cursor goes back on the @ first.
    pty.send(b"\x1b");
    pty.wait_screen("Turn 2", DEADLINE);
    wait_cursor(&pty, "the @", |p| find(p, '@'));
    pty.send(b"q");
    pty.wait_screen("Quit?", DEADLINE);
    pty.send(b"y");
    let status = pty.wait_exit(DEADLINE);
    assert!(status.success(), "{status}");
}

/// The frame of `app` in its size, and where the cursor stands in it.
fn drawn(app: &astar_rogue::app::App) -> (ratatui::buffer::Buffer, (u16, u16)) {
    let (w, h) = app.ui().size();
    let area = ratatui::layout::Rect::new(0, 0, w, h);
    let mut buf = ratatui::buffer::Buffer::empty(area);
    ratatui::widgets::Widget::render(app, area, &mut buf);
    let at = astar_rogue::view::cursor_position(app, area);
    (buf, (at.x, at.y))
}

/// The text of row `y` of `buf` from column `x` on.
fn from(buf: &ratatui::buffer::Buffer, (x, y): (u16, u16)) -> String {
    (x..buf.area.right())
        .map(|c| buf[(c, y)].symbol())
        .collect()
}

#[test]
fn every_screen_puts_the_cursor_where_its_words_or_its_cell_are() {
    use crate::common::{app, frame, repo};
    let mut a = app(&repo("levels/tutorial.txt"), 1, (80, 24));
    let (buf, at) = drawn(&a);
    assert!(from(&buf, at).starts_with('@'), "{at:?}");
    // Walk far enough that the camera scrolls: the cursor stays on the @.
    frame(&mut a, "12*l");
    let (buf, at) = drawn(&a);
    assert!(from(&buf, at).starts_with('@'), "{at:?}");
    // Look mode: on the cell looked at, as far from the @ on screen as on the map.
    frame(&mut a, "x 2*h");
    let (_, at) = drawn(&a);
    let (looked, p) = (a.cursor(), a.world().player().pos);
    assert_ne!(looked, p);
    frame(&mut a, "Esc");
    let (buf, at_player) = drawn(&a);
    assert!(from(&buf, at_player).starts_with('@'));
    let offset = |a: u16, b: u16| i32::from(a) - i32::from(b);
    assert_eq!(
        (offset(at.0, at_player.0), offset(at.1, at_player.1)),
        (looked.x - p.x, looked.y - p.y)
    );
    // A question: on its first line.
    frame(&mut a, "q");
    let (buf, at) = drawn(&a);
    assert!(
        from(&buf, at).starts_with("The game is"),
        "{}",
        from(&buf, at)
    );
    // The help: on its first line; the history: on its newest line.
    frame(&mut a, "n ?");
    let (buf, at) = drawn(&a);
    assert!(
        from(&buf, at).starts_with("A roguelike"),
        "{}",
        from(&buf, at)
    );
    frame(&mut a, "Esc C-p");
    let (buf, at) = drawn(&a);
    assert_eq!(at.1, 22, "{}", from(&buf, at));
    // The lab: on its cursor, which starts on the search's start, S.
    frame(&mut a, "Esc L");
    let (buf, at) = drawn(&a);
    assert!(from(&buf, at).starts_with('S'), "{}", from(&buf, at));
}
