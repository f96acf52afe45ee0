//! Issue 30, robust at the new edges: recordings, `test`, half-written outside edits, input
//! floods, long lines, stopped terminals, no terminal, recovery files. Each numbered item of
//! the issue has a test here (the terminal ones are in `terminal.rs`).

use crate::common;

use std::time::{Duration, Instant};

use common::Scratch;

/// Item 6: a message of a megabyte without a space is wrapped only as far as it shows,
/// in the log at any size and in the history, and its cut is marked.
#[test]
fn a_megabyte_message_draws_at_once_and_its_cut_is_marked() {
    let dir = Scratch::new();
    let text = format!(
        "title: Long\nmessage: {}\n........\n..g.#.@.\n........\n",
        "x".repeat(1_000_000)
    );
    let level = dir.write("long.txt", text);
    for size in [(100, 32), (40, 12)] {
        let mut app = common::app(&level, 1, size);
        let began = Instant::now();
        let frame = common::frame(&mut app, "snap");
        let history = common::frame(&mut app, "C-p");
        let took = began.elapsed();
        assert!(took < Duration::from_secs(2), "{size:?}: {took:?}");
        let rows: Vec<&str> = frame.lines().collect();
        // The log's last row: the message, cut with the mark at the right edge.
        let last_log_row = rows[rows.len() - 2];
        assert!(
            last_log_row.trim_end().ends_with("x…"),
            "{size:?}: {last_log_row:?}\n{frame}"
        );
        assert!(
            history.lines().any(|l| l.trim_end().ends_with("x…│")),
            "{size:?}:\n{history}"
        );
    }
}

/// Item 4: a million tokens on one line parse in linear time (the column of each token
/// was counted from the start of the line: 43 s in release for this line).
#[test]
fn a_million_tokens_on_one_line_parse_in_linear_time() {
    use astar_rogue::frontend::script;
    let line = ". ".repeat(1_000_000) + "Bogus";
    let began = Instant::now();
    let e = script::parse(line.as_bytes(), "one.keys").unwrap_err();
    assert_eq!((e.line, e.col), (1, 2_000_001), "{e}");
    let good = script::parse(". ".repeat(1_000_000).as_bytes(), "one.keys").unwrap();
    assert_eq!(good.steps.len(), 1_000_000);
    assert_eq!(good.steps[999_999].token, 1_000_000);
    let took = began.elapsed();
    assert!(took < Duration::from_secs(5), "{took:?}");
}
