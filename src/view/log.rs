//! The message log under the map, newest last: each of the player's acts (the deed and the
//! monsters' answers, all stamped with the turn it began on) is one wrapped paragraph, as
//! DCSS and Brogue put several short messages on a line, so a fight's blows both ways fit
//! in a few rows. Other messages (a floor's welcome, a refused move, the app's replies) are
//! paragraphs of their own.
//!
//! What does not fit is cut at the top, and never silently: the rows above the newest whole
//! paragraphs show the tail of the one before, its first row marked `…`. The one exception is
//! a newest paragraph of a single message taller than the whole log (a file's error): its
//! beginning, which names the file, line and column, shows, ended with `…`.

use std::borrow::Cow;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget};

use crate::app::App;
use crate::app::config::Bindings;
use crate::game::Message;

/// The mark of text cut away.
const CUT: &str = "…";

/// A row of the log: pieces of text, each with the index in the log of the message it is from.
pub(super) type Row = Vec<(String, usize)>;

pub(super) fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let block = Block::new().borders(Borders::TOP).title(" log ");
    let inner = block.inner(area);
    block.render(area, buf);
    let log = app.world().log();
    // The latest act's messages (and any said since) are the news; older ones are dimmed.
    let now = app.world().acted_turn();
    let style = |m: &Message| match (m.urgent, m.turn >= now) {
        (true, true) => Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
        (true, false) => Style::new().fg(Color::Red),
        (false, true) => Style::new(),
        (false, false) => Style::new().fg(Color::DarkGray),
    };
    let width = usize::from(inner.width).max(1);
    // The front end's notice (a resumed run) is the newest line, in its own colour.
    let mut notice: Vec<Line> = app.notice().map_or_else(Vec::new, |text| {
        crate::text::wrap_cut(text, width, usize::from(inner.height))
            .into_iter()
            .map(|p| Line::styled(p, Style::new().fg(Color::Yellow)))
            .collect()
    });
    let room = usize::from(inner.height) - notice.len();
    let rows = layout(&app.settings().bindings, log, width, room);
    let mut lines: Vec<Line> = rows
        .into_iter()
        .map(|row| {
            Line::from(
                row.into_iter()
                    .map(|(text, i)| Span::styled(text, style(&log[i])))
                    .collect::<Vec<_>>(),
            )
        })
        .collect();
    lines.append(&mut notice);
    Paragraph::new(lines).render(inner, buf);
}

/// The log's rows, top to bottom, for `height` rows of `width` columns: the newest
/// paragraphs whole, and above them the tail of the one before, marked. Costs what shows:
/// a message of a megabyte is looked at no further than the rows it could fill.
pub(super) fn layout(
    bindings: &Bindings,
    log: &[Message],
    width: usize,
    height: usize,
) -> Vec<Row> {
    let width = width.max(1);
    let mut rows: Vec<Row> = Vec::new();
    let mut end = log.len();
    while end > 0 && rows.len() < height {
        let room = height - rows.len();
        let last = &log[end - 1];
        let first = if last.act {
            log[..end]
                .iter()
                .rposition(|m| !m.act || m.turn != last.turn)
                .map_or(0, |i| i + 1)
        } else {
            end - 1
        };
        let newest = end == log.len();
        let para = if newest && end - first == 1 {
            lone(bindings, &log[first], first, width, room)
        } else {
            paragraph(bindings, &log[first..end], first, width, room)
        };
        rows.splice(0..0, para);
        end = first;
    }
    rows
}

/// A newest paragraph of one message: whole, or its first `room` rows with the cut marked at the
/// end (its beginning is what matters: a file error's place, a lesson's start).
fn lone(bindings: &Bindings, m: &Message, index: usize, width: usize, room: usize) -> Vec<Row> {
    crate::text::wrap_cut(&super::message_text(bindings, m), width, room)
        .into_iter()
        .map(|part| vec![(part, index)])
        .collect()
}

/// The messages of one act (`log[base..]` of the whole log) as one paragraph: whole when
/// it fits in `room` rows, else its last rows, the first of them starting with `…`.
fn paragraph(
    bindings: &Bindings,
    msgs: &[Message],
    base: usize,
    width: usize,
    room: usize,
) -> Vec<Row> {
    // Characters that certainly fill more than the room: `room` rows hold at most
    // `width + 1` characters each, counting the space a break drops.
    let budget = (room + 1) * (width + 1);
    // From the newest back, as many messages as could show; `cut` once some text is left out.
    let mut pieces: Vec<(Cow<'_, str>, usize)> = Vec::new();
    let mut chars = 0;
    let mut cut = false;
    for (i, m) in msgs.iter().enumerate().rev() {
        if chars > budget {
            cut = true;
            break;
        }
        let text = super::message_text(bindings, m);
        let n = text.chars().take(budget + 1).count();
        if n > budget {
            // Only its end can show.
            let at = text
                .char_indices()
                .rev()
                .nth(budget - 1)
                .map_or(0, |(b, _)| b);
            pieces.push((Cow::Owned(text[at..].to_string()), base + i));
            cut = true;
            break;
        }
        chars += n + 3;
        pieces.push((text, base + i));
    }
    pieces.reverse();
    // The joined text, and where each message's piece starts in it.
    let mut text = String::new();
    let mut starts: Vec<(usize, usize)> = Vec::new();
    for (piece, index) in &pieces {
        starts.push((text.len(), *index));
        if !text.is_empty() {
            text.push_str(separator(&text));
        }
        text.push_str(piece);
    }
    let lines: Vec<&str> = crate::text::wrap_lines(&text, width).collect();
    if !cut && lines.len() <= room {
        return lines
            .iter()
            .map(|l| spans(&starts, offset(&text, l), l, None))
            .collect();
    }
    // The longest tail that fits behind the mark, starting at a word: from the start of the
    // row that would begin it, a word later while the mark pushes a row out, then a word
    // earlier while one more still fits.
    let fits = |from: usize| {
        crate::text::wrap_lines(&format!("{CUT}{}", &text[from..]), width).count() <= room
    };
    let mut from = if lines.len() > room {
        offset(&text, lines[lines.len() - room])
    } else {
        0
    };
    while !fits(from) {
        let rest = &text[from..];
        from += match rest.find(' ') {
            Some(i) => i + 1,
            None => rest.chars().next().map_or(rest.len(), char::len_utf8),
        };
    }
    while from > 0 {
        // Before the character before `from` (a space, or the end of a row cut inside a
        // word, which may be of several bytes).
        let before = text[..from]
            .char_indices()
            .next_back()
            .map_or(0, |(i, _)| i);
        let earlier = text[..before].rfind(' ').map_or(0, |i| i + 1);
        if !fits(earlier) {
            break;
        }
        from = earlier;
    }
    let shown = format!("{CUT}{}", &text[from..]);
    crate::text::wrap_lines(&shown, width)
        .enumerate()
        .map(|(row, l)| {
            if row == 0 {
                spans(&starts, from, &l[CUT.len().min(l.len())..], Some(CUT))
            } else {
                spans(&starts, from + offset(&shown, l) - CUT.len(), l, None)
            }
        })
        .collect()
}

/// What joins a message to the one before: a space after a sentence's end, else a dot, so
/// two messages never read as one.
fn separator(before: &str) -> &'static str {
    match before.chars().last() {
        Some('.' | '!' | '?' | ')' | '…' | '"' | '\'') => " ",
        _ => " · ",
    }
}

/// Where `part` (a slice of `whole`) starts in it.
fn offset(whole: &str, part: &str) -> usize {
    part.as_ptr() as usize - whole.as_ptr() as usize
}

/// A row's text (`line`, starting at byte `at` of the joined text) split where messages
/// start, each piece with its message; `mark` goes first, as part of the first piece.
fn spans(starts: &[(usize, usize)], at: usize, line: &str, mark: Option<&str>) -> Row {
    let end = at + line.len();
    let mut row: Row = Vec::new();
    for (j, &(start, index)) in starts.iter().enumerate() {
        let next = starts.get(j + 1).map_or(usize::MAX, |n| n.0);
        let (a, b) = (start.max(at), next.min(end));
        if a < b || (a == b && row.is_empty() && start <= at && at < next.max(at + 1)) {
            row.push((line[a - at..b - at].to_string(), index));
        }
    }
    if row.is_empty() {
        row.push((String::new(), starts.last().map_or(0, |s| s.1)));
    }
    if let Some(mark) = mark {
        row[0].0.insert_str(0, mark);
    }
    row
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(turn: u32, text: &str) -> Message {
        Message {
            turn,
            text: text.to_string(),
            count: 1,
            urgent: false,
            advice: None,
            marked: None,
            act: true,
        }
    }

    fn texts(rows: &[Row]) -> Vec<String> {
        rows.iter()
            .map(|r| r.iter().map(|(t, _)| t.as_str()).collect())
            .collect()
    }

    #[test]
    fn a_turns_messages_share_rows() {
        let log = [
            msg(3, "You walk."),
            msg(4, "You hit the rat for 2."),
            msg(4, "The orc hits you for 4."),
            msg(4, "The rat hits you for 2."),
        ];
        let rows = layout(Bindings::standard(), &log, 78, 3);
        assert_eq!(
            texts(&rows),
            [
                "You walk.",
                "You hit the rat for 2. The orc hits you for 4. The rat hits you for 2."
            ]
        );
        // Each piece is styled as its message.
        let owners: Vec<usize> = rows[1].iter().map(|p| p.1).collect();
        assert_eq!(owners, [1, 2, 3]);
        assert_eq!(rows[1][1].0, " The orc hits you for 4.");
    }

    #[test]
    fn an_older_turn_shows_its_tail_marked_never_its_head_cut() {
        // The play-tester's frame: the tutorial's two lessons, a turn apart, in three rows.
        let older = "You see what your eyes reach: V shows the whole map, X explores the unseen, \
                     C-p shows the message history.";
        let newer = "A goblin and a troll hunt you: monsters always know where you are and plan \
                     with A*. . or 5 waits a turn.";
        let log = [msg(6, older), msg(7, newer)];
        let rows = texts(&layout(Bindings::standard(), &log, 78, 3));
        assert_eq!(
            rows,
            [
                "…V shows the whole map, X explores the unseen, C-p shows the message history.",
                "A goblin and a troll hunt you: monsters always know where you are and plan",
                "with A*. . or 5 waits a turn.",
            ]
        );
    }

    #[test]
    fn a_newest_turn_taller_than_the_log_shows_its_end_behind_the_mark() {
        let log = [
            msg(1, "You hit the rat for 2."),
            msg(1, "The orc hits you for 4."),
            msg(1, "The rat hits you for 2."),
            msg(1, "The goblin misses."),
        ];
        let rows = texts(&layout(Bindings::standard(), &log, 40, 1));
        assert_eq!(rows, ["…rat hits you for 2. The goblin misses."]);
        let rows = texts(&layout(Bindings::standard(), &log, 40, 2));
        assert_eq!(
            rows,
            [
                "…rat for 2. The orc hits you for 4. The",
                "rat hits you for 2. The goblin misses."
            ]
        );
        for w in 1..50 {
            for h in 1..5 {
                for row in layout(Bindings::standard(), &log, w, h) {
                    let n: usize = row.iter().map(|p| p.0.chars().count()).sum();
                    assert!(n <= w, "{row:?} is wider than {w}");
                }
            }
        }
    }

    #[test]
    fn a_lone_newest_message_taller_than_the_log_shows_its_beginning() {
        let error = format!("levels/x.txt:3:7: unknown tile 'Q' {}", "word ".repeat(40));
        let rows = texts(&layout(
            Bindings::standard(),
            &[msg(0, "Welcome."), msg(2, &error)],
            30,
            2,
        ));
        assert_eq!(
            rows,
            [
                "levels/x.txt:3:7: unknown tile",
                "'Q' word word word word word…"
            ]
        );
    }

    #[test]
    fn messages_said_outside_an_act_stand_alone() {
        let mut welcome = msg(0, "Kill the rat to win the run.");
        welcome.act = false;
        let mut saved = msg(1, "Saved rat.txt.");
        saved.act = false;
        let log = [
            welcome,
            msg(0, "You hit the rat for 2."),
            msg(1, "A wall blocks your way."),
            saved,
        ];
        assert_eq!(
            texts(&layout(Bindings::standard(), &log, 78, 4)),
            [
                "Kill the rat to win the run.",
                "You hit the rat for 2.",
                "A wall blocks your way.",
                "Saved rat.txt."
            ]
        );
    }

    #[test]
    fn messages_without_a_full_stop_are_kept_apart() {
        let log = [msg(2, "levels/a.txt:1:1: no start"), msg(2, "You wait.")];
        assert_eq!(
            texts(&layout(Bindings::standard(), &log, 78, 2)),
            ["levels/a.txt:1:1: no start · You wait."]
        );
    }

    #[test]
    fn an_older_word_longer_than_a_row_may_be_of_any_characters() {
        // Cut into rows inside a word of two-byte characters, the tail starts there.
        let log = [msg(1, &"é".repeat(30)), msg(2, "You wait.")];
        assert_eq!(
            texts(&layout(Bindings::standard(), &log, 10, 3)),
            ["…ééééééééé", "éééééééééé", "You wait."]
        );
    }

    #[test]
    fn a_megabyte_message_costs_what_shows() {
        let huge = "word ".repeat(200_000);
        let log = [msg(0, &huge), msg(1, "You wait.")];
        let start = std::time::Instant::now();
        for _ in 0..100 {
            let rows = texts(&layout(Bindings::standard(), &log, 78, 3));
            assert!(rows[0].starts_with('…'), "{rows:?}");
            assert_eq!(rows[2], "You wait.");
        }
        assert!(start.elapsed() < std::time::Duration::from_secs(2));
    }
}
