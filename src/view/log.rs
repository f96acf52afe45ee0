//! The message log under the map, newest last: each of the player's acts (the deed and the
//! monsters' answers, all stamped with the turn it ended on) is one wrapped paragraph, as
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
    // The latest act's messages (and any said since) are the news; older ones are dimmed,
    // in grey and faint, so that without colour they still read as old.
    let now = app.world().acted_turn();
    let style = |m: &Message| match (m.urgent, m.turn >= now) {
        (true, true) => Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
        (true, false) => Style::new().fg(Color::Red).add_modifier(Modifier::DIM),
        (false, true) => Style::new(),
        (false, false) => Style::new().fg(Color::DarkGray).add_modifier(Modifier::DIM),
    };
    let width = usize::from(inner.width).max(1);
    // The front end's notice (a resumed run) is the newest line, in its own colour.
    let mut notice: Vec<Line> = app.front().notice().map_or_else(Vec::new, |text| {
        crate::text::wrap_cut(text, width, usize::from(inner.height))
            .into_iter()
            .map(|p| Line::styled(p, Style::new().fg(Color::Yellow)))
            .collect()
    });
    let room = usize::from(inner.height) - notice.len();
    let rows = layout(&app.ui().settings().bindings, log, width, room);
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
    crate::text::wrap_cut(&super::words::message_text(bindings, m), width, room)
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
        let text = super::words::message_text(bindings, m);
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
    let start = if lines.len() > room {
        offset(&text, lines[lines.len() - room])
    } else {
        0
    };
    let tails = Tails::new(&text, width);
    let from = tail_start(&text, start, |from| tails.rows(from) <= room);
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

/// Where the longest tail of `text` that fits behind the mark starts, at a word: from
/// `start` (the start of the row that would begin it), a word later while the mark pushes a
/// row out, then a word earlier while one more still fits. `fits` says whether the mark and
/// the text from a place fit.
fn tail_start(text: &str, start: usize, fits: impl Fn(usize) -> bool) -> usize {
    let mut from = start;
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
    from
}

/// How many rows the mark and the text from any place in it wrap into, as
/// [`crate::text::wrap_lines`] wraps them, without wrapping the text again for every place
/// tried (that cost the whole tail for each word dropped). The wrapping depends only on the
/// words' lengths in characters (the text split at every space): a row from a word's start
/// is that word's pieces, then the words that join it; the rows after it are those of the
/// text from the first word left out, counted once for every word, from the last.
struct Tails<'a> {
    text: &'a str,
    width: usize,
    /// Each word's byte range: the text split at every space (a word may be empty).
    words: Vec<(usize, usize)>,
    /// `sums[i]`: the characters of the words before word `i`, each with the space before
    /// it when it joins a row (so word `i` is `sums[i + 1] - sums[i] - 1` characters long).
    sums: Vec<usize>,
    /// `rows[t]`: the rows of the text from word `t`'s start.
    rows: Vec<usize>,
}

impl<'a> Tails<'a> {
    fn new(text: &'a str, width: usize) -> Tails<'a> {
        let width = width.max(1);
        let mut words = Vec::new();
        let mut sums = vec![0];
        let mut at = 0;
        for word in text.split(' ') {
            words.push((at, at + word.len()));
            at += word.len() + 1;
            sums.push(sums[sums.len() - 1] + 1 + word.chars().count());
        }
        // From the last word back: each word's rows lean on those of a later word. The
        // row from a word ends no later than the row from the word after it (its words,
        // less the first, fit after the later one's start), so one end moves back once
        // over the words.
        let n = words.len();
        let mut rows = vec![0; n];
        let mut end = n;
        for t in (0..n).rev() {
            let len = sums[t + 1] - sums[t] - 1;
            if len == 0 {
                rows[t] = rows.get(t + 1).copied().unwrap_or(1);
                continue;
            }
            let (pieces, first) = split(len, width);
            while end > t + 1 && sums[end] - sums[t + 1] > width - first {
                end -= 1;
            }
            rows[t] = pieces + 1 + rows.get(end).copied().unwrap_or(0);
        }
        Tails {
            text,
            width,
            words,
            sums,
            rows,
        }
    }

    /// The rows of a text whose first word is `first` characters long (at least one: an
    /// empty word starting a row takes no room, the next word starts it) and whose other
    /// words are those from word `next` on.
    fn rows_of(&self, first: usize, next: usize) -> usize {
        let w = self.width;
        let (pieces, first) = split(first, w);
        // The words that join it, each after a space: no more than `w` of them fit.
        let limit = self.sums[next] + (w - first);
        let end = (next + w + 1).min(self.sums.len());
        let joined = self.sums[next..end].partition_point(|&s| s <= limit) - 1;
        pieces + 1 + self.rows.get(next + joined).copied().unwrap_or(0)
    }

    /// The rows of the mark and the text from byte `from` (a character boundary).
    fn rows(&self, from: usize) -> usize {
        // The word `from` is in (or ends), and what is left of it from there.
        let j = self.words.partition_point(|&(a, _)| a <= from) - 1;
        let (_, end) = self.words[j];
        let left = self.text[from.min(end)..end].chars().count();
        self.rows_of(1 + left, j + 1)
    }
}

/// A first word of `len` characters on rows `width` wide: the rows of `width` characters
/// a word longer than a row gives up, and what is left of it to start the next row.
fn split(len: usize, width: usize) -> (usize, usize) {
    let pieces = if len > width { (len - 1) / width } else { 0 };
    (pieces, len - pieces * width)
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
            who: None,
            sighting: false,
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

    /// The rows of the mark and the text from `from`, wrapped (what the cut used to wrap
    /// for every word it dropped).
    fn rows_by_wrapping(text: &str, width: usize, from: usize) -> usize {
        crate::text::wrap_lines(&format!("{CUT}{}", &text[from..]), width).count()
    }

    /// Texts of words of every kind the wrapping meets: empty ones (two spaces), short and
    /// long ones, longer than a row, with characters of several bytes.
    fn texts_to_wrap() -> Vec<String> {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n) as usize
        };
        let mut out = vec![
            String::new(),
            " ".into(),
            "a".into(),
            "…".into(),
            "word ".repeat(30),
            "x".repeat(45),
            "You hit the rat for 2. The orc hits you for 4. · The rat hits you for 2.".into(),
        ];
        for _ in 0..300 {
            let words = 1 + next(30);
            let mut text = String::new();
            for i in 0..words {
                if i > 0 {
                    text.push(' ');
                }
                let len = match next(10) {
                    0 => 0,
                    1 => 10 + next(30),
                    _ => 1 + next(7),
                };
                for _ in 0..len {
                    text.push(['a', 'é', '·', 'z', '…'][next(5)]);
                }
            }
            out.push(text);
        }
        out
    }

    #[test]
    fn the_rows_behind_the_mark_are_counted_as_wrapping_counts_them() {
        for text in texts_to_wrap() {
            for width in 1..=14 {
                let tails = Tails::new(&text, width);
                for (from, _) in text.char_indices().chain([(text.len(), ' ')]) {
                    assert_eq!(
                        tails.rows(from),
                        rows_by_wrapping(&text, width, from),
                        "{text:?} from {from}, width {width}"
                    );
                }
            }
        }
    }

    #[test]
    fn an_older_paragraphs_tail_starts_where_wrapping_for_every_word_started_it() {
        // Long paragraphs, as a fight's blows and a lesson's sentences make them.
        let mut paragraphs = texts_to_wrap();
        paragraphs.push(
            "You hit the rat for 2. The orc hits you for 4. The rat hits you for 2. ".repeat(12),
        );
        paragraphs.push(format!(
            "{} levels/a-very-long-file-name-that-fills-rows.txt:1:1: no start · You wait.",
            "The goblin misses. ".repeat(20)
        ));
        for text in &paragraphs {
            for width in [1, 2, 3, 5, 8, 13, 20, 40, 78] {
                let tails = Tails::new(text, width);
                let lines: Vec<&str> = crate::text::wrap_lines(text, width).collect();
                for room in 1..=6 {
                    let start = if lines.len() > room {
                        offset(text, lines[lines.len() - room])
                    } else {
                        0
                    };
                    let before =
                        tail_start(text, start, |f| rows_by_wrapping(text, width, f) <= room);
                    let now = tail_start(text, start, |f| tails.rows(f) <= room);
                    assert_eq!(now, before, "{text:?} width {width} room {room}");
                }
            }
        }
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
