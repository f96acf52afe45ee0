//! Every key, with and without Ctrl, Shift and Alt, in every screen: a key the screen's
//! contexts do not bind (so the help does not list it there) must change nothing at all,
//! neither the frame nor the game. The help is built from the same table, so it is complete
//! by construction; this holds the dispatch to the table.

use std::path::Path;

use astar_rogue::app::keymap;
use astar_rogue::app::{App, Effect};
use astar_rogue::frontend::script::state_line;
use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};

use crate::common;

/// The screens, each reached from a fresh game by script tokens.
const SCREENS: [(&str, &str); 13] = [
    ("play", ""),
    ("attack in place", "F"),
    ("overlay", "o"),
    ("look", "x"),
    ("look with the overlay", "o x"),
    ("edit", "e"),
    ("edit, a rectangle under way", "e r"),
    ("edit, waiting for a monster's letter", "e m"),
    ("edit, resizing", "e Z"),
    ("lab", "L"),
    ("help", "?"),
    ("history", "C-p"),
    ("question", ". q"),
];

fn codes() -> Vec<KeyCode> {
    let mut out: Vec<KeyCode> = (' '..='~').map(KeyCode::Char).collect();
    out.extend([
        KeyCode::Esc,
        KeyCode::Enter,
        KeyCode::Tab,
        KeyCode::BackTab,
        KeyCode::Backspace,
        KeyCode::Delete,
        KeyCode::Insert,
        KeyCode::Home,
        KeyCode::End,
        KeyCode::PageUp,
        KeyCode::PageDown,
        KeyCode::Left,
        KeyCode::Right,
        KeyCode::Up,
        KeyCode::Down,
    ]);
    out.extend((1..=12).map(KeyCode::F));
    out
}

const MODIFIERS: [KeyModifiers; 5] = [
    KeyModifiers::NONE,
    KeyModifiers::SHIFT,
    KeyModifiers::CONTROL,
    KeyModifiers::ALT,
    KeyModifiers::CONTROL.union(KeyModifiers::SHIFT),
];

fn app_in(tokens: &str) -> App {
    let mut a = common::app(Path::new("levels/pillar.txt"), 1, (80, 24));
    common::frame(&mut a, tokens);
    a
}

/// All that shows of the app: its frame and its state line.
fn seen(a: &mut App) -> String {
    let frame = common::frame(a, "");
    format!("{frame}\n{}", state_line(a))
}

#[test]
fn no_screen_reacts_to_a_key_its_help_does_not_list() {
    let mut unbound = 0;
    for (name, tokens) in SCREENS {
        // One app per screen for the unbound keys: they must leave it exactly as it was,
        // so the same app serves them all (a reaction would show in the next comparison).
        let mut a = app_in(tokens);
        let before = seen(&mut a);
        for code in codes() {
            for mods in MODIFIERS {
                let key = KeyEvent::new(code, mods);
                if keymap::lookup(&a.ui().settings().bindings, a.contexts(), &key).is_some() {
                    continue;
                }
                unbound += 1;
                let effect = a.handle_event(&Event::Key(key));
                assert_eq!(effect, Effect::None, "{name}: {key:?}");
                let after = seen(&mut a);
                assert!(
                    after == before,
                    "{name}: the unbound key {code:?} {mods:?} changed the screen:\n{before}\n---\n{after}"
                );
            }
        }
    }
    assert!(unbound > 2000, "only {unbound} unbound keys tried");
}
