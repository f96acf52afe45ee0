//! The headless script runner: a script of inputs drives the real [`App`](crate::app::App) on ratatui's
//! `TestBackend`, and the rendered frames come out as plain text, byte for byte the same on
//! every run.
//!
//! Syntax: whitespace-separated tokens; `#` starts a comment to the end of the line. A token
//! is a key (`h`, `.`, `?`, `Left`, `Esc`, `F1`, `C-c`, `Hash` for `#`), a mouse action
//! (`click:COL,ROW`, `rclick:COL,ROW`, `drag:COL,ROW`, `rdrag:COL,ROW`, `release:COL,ROW`),
//! `resize:WxH`, `snap` or `snap:NAME`, `reload`, `tick`, or `N*TOKEN` for N repeats.
//! Header lines `#! level: PATH`, `#! size: WxH` and `#! seed: N` make one file a complete
//! reproduction (paths are relative to the script), and `#! config: FILE` plays it with a
//! settings file (never the user's own); `#! ticks: manual` (as recordings say)
//! advances travel and autoplay only at `tick` tokens instead of to the end after each
//! token; `#! runs: kept` (as `play` records) plays as a game whose runs are kept: its
//! questions say so and `r` draws the next run's seed.

mod parse;
mod print;
mod run;
mod state;
mod token;

pub use parse::{
    AnswerError, Carried, Header, HeaderValue, MAX_REPEAT, MAX_SCRIPT_BYTES, MAX_STEPS, Script,
    Step, carry_key, load, parse,
};
pub use print::{Frames, Output, buffer_text, styles_text};
pub use run::{
    Moment, RunOptions, STEP_MARK, ScriptError, carried_level_note, drive, play, play_marked,
    run_file, run_file_marked, say_note, start_app,
};
pub use state::{StateLine, state_line};
pub use token::{Action, MAX_TERMINAL, TokenError, lab_query, parse_token, terminal_size, token};

#[cfg(test)]
mod tests {
    use crossterm::event::{
        Event, KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
    };
    use ratatui::buffer::Buffer;

    use super::token::key;
    use super::*;

    #[test]
    fn tokens_repeats_comments_and_positions() {
        let s = parse(
            b"#! size: 60x20\nh 3*j # a comment\n  C-c click:4,5 Hash snap:first\n",
            "s.keys",
        )
        .unwrap();
        assert_eq!(s.header.size, Some((60, 20)));
        let brief: Vec<(u32, usize, usize)> = s
            .steps
            .iter()
            .map(|t| (t.repeat, t.token, t.line))
            .collect();
        assert_eq!(
            brief,
            vec![
                (1, 1, 2),
                (3, 2, 2),
                (1, 3, 3),
                (1, 4, 3),
                (1, 5, 3),
                (1, 6, 3)
            ]
        );
        assert_eq!(s.steps[5].action, Action::Snap(Some("first".into())));
        assert_eq!(
            s.steps[4].action,
            key(KeyCode::Char('#'), KeyModifiers::NONE)
        );
    }

    #[test]
    fn every_token_reads_back_as_the_input_it_names() {
        use KeyCode as K;
        let none = KeyModifiers::NONE;
        let ctrl = KeyModifiers::CONTROL;
        let mut events = Vec::new();
        for c in (' '..='~').chain(['é', 'ß']) {
            events.push(Event::Key(KeyEvent::new(K::Char(c), none)));
            events.push(Event::Key(KeyEvent::new(K::Char(c), ctrl)));
            events.push(Event::Key(KeyEvent::new(K::Char(c), KeyModifiers::SHIFT)));
        }
        for code in [
            K::Left,
            K::Right,
            K::Up,
            K::Down,
            K::Enter,
            K::Esc,
            K::Tab,
            K::BackTab,
            K::Backspace,
            K::Delete,
            K::Insert,
            K::Home,
            K::End,
            K::PageUp,
            K::PageDown,
            K::F(1),
            K::F(12),
            K::F(13),
            K::Null,
            K::CapsLock,
        ] {
            events.push(Event::Key(KeyEvent::new(code, none)));
            events.push(Event::Key(KeyEvent::new(code, ctrl)));
        }
        for kind in [
            MouseEventKind::Down(MouseButton::Left),
            MouseEventKind::Down(MouseButton::Right),
            MouseEventKind::Down(MouseButton::Middle),
            MouseEventKind::Drag(MouseButton::Left),
            MouseEventKind::Drag(MouseButton::Right),
            MouseEventKind::Up(MouseButton::Left),
            MouseEventKind::Up(MouseButton::Right),
            MouseEventKind::Moved,
            MouseEventKind::ScrollUp,
        ] {
            events.push(Event::Mouse(MouseEvent {
                kind,
                column: 12,
                row: 7,
                modifiers: none,
            }));
        }
        events.push(Event::Resize(120, 40));
        events.push(Event::FocusGained);
        let mut recorded = 0;
        for e in &events {
            let Some(t) = token(e) else { continue };
            recorded += 1;
            // The token survives a script line: one word, no comment.
            let s = parse(format!("{t}\n").as_bytes(), "t.keys")
                .unwrap_or_else(|err| panic!("{t:?} from {e:?}: {err}"));
            assert_eq!(s.steps.len(), 1, "{t:?}");
            let back = &s.steps[0].action;
            match (e, back) {
                (Event::Key(k), Action::Event(Event::Key(b))) => {
                    let ctrl_of = |k: &KeyEvent| k.modifiers.contains(KeyModifiers::CONTROL);
                    let code = |k: &KeyEvent| match k.code {
                        K::Char(c) if ctrl_of(k) => K::Char(c.to_ascii_lowercase()),
                        c => c,
                    };
                    assert_eq!((code(k), ctrl_of(k)), (code(b), ctrl_of(b)), "{t:?}");
                }
                (Event::Mouse(m), Action::Event(Event::Mouse(b))) => {
                    let left = |k: MouseEventKind| match k {
                        MouseEventKind::Down(b) => (0, b == MouseButton::Left),
                        MouseEventKind::Drag(b) => (1, b == MouseButton::Left),
                        _ => (2, true),
                    };
                    assert_eq!(
                        (left(m.kind), m.column, m.row),
                        (left(b.kind), b.column, b.row),
                        "{t:?}"
                    );
                }
                (Event::Resize(w, h), Action::Resize(bw, bh)) => assert_eq!((w, h), (bw, bh)),
                other => panic!("{t:?} read back as {other:?}"),
            }
        }
        // Printable keys with and without Ctrl, named keys, clicks, drags, releases, resize.
        assert!(recorded > 250, "{recorded}");
        assert_eq!(token(&Event::FocusGained), None);
        assert_eq!(
            token(&Event::Key(KeyEvent::new(
                KeyCode::F(13),
                KeyModifiers::NONE
            ))),
            None
        );
    }

    #[test]
    fn styles_are_one_letter_per_cell_with_a_legend() {
        use ratatui::layout::Rect;
        use ratatui::style::{Color, Modifier, Style};
        let mut buf = Buffer::empty(Rect::new(0, 0, 4, 2));
        buf.set_string(0, 0, "ab", Style::new().fg(Color::Green));
        buf.set_string(
            3,
            0,
            "c",
            Style::new().bg(Color::Blue).add_modifier(Modifier::BOLD),
        );
        buf.set_string(1, 1, "d", Style::new().fg(Color::Green));
        assert_eq!(
            styles_text(&buf),
            "AA B\n A  \nstyles: A=fg:Green B=bg:Blue,bold\n"
        );
    }

    #[test]
    fn manual_ticks_run_only_at_tick_tokens() {
        let s = parse(b"#! ticks: manual\nh 3*tick\n", "s.keys").unwrap();
        assert!(s.header.manual_ticks);
        assert_eq!(s.steps[1].action, Action::Tick);
        assert_eq!(s.steps[1].repeat, 3);
        assert!(!parse(b"h", "s.keys").unwrap().header.manual_ticks);
        let e = parse(b"#! ticks: sometimes\n", "s.keys").unwrap_err();
        assert_eq!(
            e.headline(),
            "s.keys:1:3: bad ticks \"sometimes\": use manual or auto"
        );
    }

    #[test]
    fn a_word_that_does_not_read_is_told_in_the_words_it_had() {
        let max = MAX_TERMINAL;
        for (got, error, words) in [
            (
                lab_query("1,1-2,2").map(drop),
                TokenError::LabQuery("1,1-2,2".into()),
                "bad lab query \"1,1-2,2\": expected X1,Y1:X2,Y2 (start:goal)".to_string(),
            ),
            (
                terminal_size("0x5").map(drop),
                TokenError::TerminalSize("0x5".into()),
                format!("bad terminal size \"0x5\": expected WxH, 1x1 to {max}x{max}"),
            ),
            (
                parse_token("click:3").map(drop),
                TokenError::Cell("3".into()),
                "bad cell \"3\": expected COL,ROW".into(),
            ),
            (
                parse_token("C-ab").map(drop),
                TokenError::Control("C-ab".into()),
                "unknown token \"C-ab\": C- takes one character, as in C-c".into(),
            ),
            (
                parse_token("F13").map(drop),
                TokenError::Unknown("F13".into()),
                "unknown token \"F13\"".into(),
            ),
            (
                "most".parse::<Frames>().map(drop),
                TokenError::Frames("most".into()),
                "\"most\" is not a frame choice: use last, snaps or all".into(),
            ),
        ] {
            assert_eq!(got, Err(error.clone()));
            assert_eq!(error.to_string(), words);
        }
        let e = parse_token("Bogus").unwrap_err();
        assert_eq!(e, TokenError::NotAToken("Bogus".into()));
        assert!(
            e.to_string()
                .starts_with("unknown token \"Bogus\": expected a key (h, Left,")
        );
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = parse(b"h j\n  k Bogus\n", "s.keys").unwrap_err();
        assert_eq!(
            e.headline().split(':').take(3).collect::<Vec<_>>(),
            ["s.keys", "2", "5"]
        );
        assert!(e.message.starts_with("unknown token \"Bogus\""));
        let e = parse(b"0*h", "s.keys").unwrap_err();
        assert_eq!(
            e.headline(),
            "s.keys:1:1: repeat count must be 1 to 1000000"
        );
        let e = parse(b"3*click:x,1", "s.keys").unwrap_err();
        assert_eq!(
            e.headline(),
            "s.keys:1:3: bad cell \"x,1\": expected COL,ROW"
        );
        let e = parse(b"resize:0x5", "s.keys").unwrap_err();
        assert_eq!((e.line, e.col), (1, 1));
        let e = parse(b"#! colour: red\n", "s.keys").unwrap_err();
        assert_eq!(
            e.headline(),
            "s.keys:1:3: unknown header \"colour\" (known: level, size, seed, lab, planning, ticks, styles, config, runs)"
        );
    }
}
