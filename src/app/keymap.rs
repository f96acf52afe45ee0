//! Every key binding in one table, gathered from the commands' declarations
//! ([`super::command`]): key dispatch and the help screen both read it, so the help can
//! never miss a binding.

use std::sync::LazyLock;

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

pub use super::command::{Action, Context, Key};
use super::command::{DECLARED, Declared};
pub use super::row::Binding;
use super::row::{note, rows};

/// The keys the player gave the table's actions (the settings' bindings): the table is
/// built first, and what rebinds it is built on it, so the table asks through this.
pub trait Keys {
    /// The hint bar's words for the table's row `row`, with the player's keys.
    fn hint(&self, row: usize) -> &str;
    /// The action `key` gives in `contexts`, most specific first.
    fn lookup(&self, contexts: &[Context], key: Key) -> Option<Action>;
}

/// The rows of the help that bind no key of their own, placed among the commands' rows
/// (`Context ROW`, as [`super::command::Declared::row`]).
const NOTES: &[Declared] = &[
    note!(Play 10, "moves", "move or attack", "hjklyubn move"),
    note!(Play 260, "click", "travel there / select foe", ""),
    note!(Overlay 130, "click", "look at the cell", ""),
    note!(Look 10, "moves click", "move the cursor", ""),
    note!(Edit 10, "moves", "move the cursor", ""),
    note!(Edit 20, "click drag", "walls; right button floor", ""),
    note!(Lab 10, "moves", "move the cursor", ""),
    note!(Lab 20, "click drag", "start; right button goal", ""),
    note!(Replay 70, "o x Tab", "look into it, paused", ""),
];

/// Every row of the help, in table order: the commands' declared keys
/// ([`super::command::DECLARED`]) and the notes, gathered into rows. Key dispatch and the
/// help both read it, so the help can never miss a binding.
pub static BINDINGS: LazyLock<Vec<Binding>> = LazyLock::new(|| rows(DECLARED.iter().chain(NOTES)));

/// The hint bar's text for the contexts that apply (most specific first): the help key
/// first, then the hints of each context's bindings, in table order.
pub fn hints(bindings: &impl Keys, contexts: &[Context]) -> String {
    let mut parts: Vec<&str> = Vec::new();
    let global = contexts.iter().filter(|c| **c == Context::Global);
    let others = contexts.iter().filter(|c| **c != Context::Global);
    for &ctx in global.chain(others) {
        parts.extend(
            BINDINGS
                .iter()
                .enumerate()
                .filter(|(_, b)| b.context == ctx && !b.hint.is_empty())
                // Settings hook: the player's keys in the hint (`app::config`).
                .map(|(r, _)| bindings.hint(r)),
        );
    }
    parts.join("  ")
}

/// The command a key gives in the active contexts, most specific first, with the keys
/// `bindings` gives the table's actions (the settings' bindings, or the table as written);
/// `None` when none of them binds it.
pub fn lookup(bindings: &impl Keys, contexts: &[Context], event: &KeyEvent) -> Option<Action> {
    if event.kind == KeyEventKind::Release {
        return None;
    }
    // Settings hook: the player's keys for the table's actions (`app::config`).
    bindings.lookup(contexts, Key::of(event)?)
}

/// In the editor's monster mode, the letter of a kind the level defines places it (the key
/// table binds the game's kinds; a level's are known only once it is read).
pub fn own_kind_key(
    contexts: &[Context],
    kinds: &crate::content::kinds::own::Kinds,
    key: &KeyEvent,
) -> Option<Action> {
    let KeyCode::Char(c) = key.code else {
        return None;
    };
    (contexts.first() == Some(&Context::Monster)
        && key.modifiers.difference(KeyModifiers::SHIFT).is_empty()
        && kinds.own().iter().any(|k| k.glyph == c))
    .then_some(Action::PlaceKind(c))
}

/// The command a key gives in the table as written, without any settings.
pub fn lookup_table(contexts: &[Context], event: &KeyEvent) -> Option<Action> {
    if event.kind == KeyEventKind::Release {
        return None;
    }
    let key = Key::of(event)?;
    contexts.iter().find_map(|&ctx| {
        BINDINGS
            .iter()
            .filter(|b| b.context == ctx)
            .find_map(|b| b.keys.iter().find(|(k, _)| *k == key).map(|&(_, a)| a))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::KeyModifiers;

    /// Whether a row's label or help names a key: its name appears, or for the digits the
    /// label's `1-9`.
    fn names(b: &Binding, key: Key) -> bool {
        let name = key.name();
        let digit = matches!(key.code, KeyCode::Char('1'..='9')) && !key.ctrl;
        b.label.contains(&name) || b.help.contains(&name) || digit && b.label.contains("1-9")
    }

    #[test]
    fn every_row_names_each_of_its_keys() {
        for b in BINDINGS.iter() {
            for &(key, _) in &b.keys {
                // Upper-case answers to a question (and the busy box's yes, the questions') are the
                // lower-case ones with Shift.
                let shown = match key.code {
                    KeyCode::Char(c)
                        if matches!(b.context, Context::Confirm | Context::Busy) || c == 'N' =>
                    {
                        Key {
                            code: KeyCode::Char(c.to_ascii_lowercase()),
                            ..key
                        }
                    }
                    _ => key,
                };
                assert!(
                    names(b, key) || names(b, shown),
                    "{:?} row {:?} does not name {}",
                    b.context,
                    b.label,
                    key.name()
                );
            }
        }
    }

    #[test]
    fn a_label_names_no_key_its_row_does_not_bind() {
        // The row that said `q C-c` while binding only `q` is the case this catches.
        for b in BINDINGS.iter().filter(|b| !b.keys.is_empty()) {
            for word in b.label.split(' ').filter(|w| w.starts_with("C-")) {
                assert!(
                    b.keys.iter().any(|(k, _)| k.name() == word),
                    "{:?} row {:?} names {word} but does not bind it",
                    b.context,
                    b.label
                );
            }
        }
    }

    #[test]
    fn no_key_is_bound_twice_in_one_context() {
        for ctx in Context::ALL {
            let mut seen: Vec<Key> = Vec::new();
            for b in BINDINGS.iter().filter(|b| b.context == ctx) {
                for &(k, _) in &b.keys {
                    assert!(!seen.contains(&k), "{ctx:?} binds {} twice", k.name());
                    seen.push(k);
                }
            }
        }
    }

    #[test]
    fn every_monster_kind_is_placed_by_its_own_letter() {
        let monster = [Context::Monster, Context::Always];
        for k in crate::content::kinds::KINDS {
            let key = KeyEvent::new(KeyCode::Char(k.glyph), KeyModifiers::NONE);
            assert_eq!(
                lookup_table(&monster, &key),
                Some(Action::PlaceKind(k.glyph)),
                "{}",
                k.name
            );
        }
    }

    #[test]
    fn ctrl_z_suspends_except_in_the_editor_where_it_undoes() {
        let c_z = KeyEvent::new(KeyCode::Char('z'), KeyModifiers::CONTROL);
        let play = [Context::Play, Context::Global, Context::Always];
        let edit = [Context::Edit, Context::Global, Context::Always];
        assert_eq!(lookup_table(&play, &c_z), Some(Action::Suspend));
        assert_eq!(lookup_table(&edit, &c_z), Some(Action::Undo));
    }

    #[test]
    fn alt_never_matches_and_shift_only_where_the_character_shows_it() {
        let play = [Context::Play, Context::Global, Context::Always];
        let k = |c, m| KeyEvent::new(c, m);
        assert_eq!(
            lookup_table(&play, &k(KeyCode::Char('G'), KeyModifiers::SHIFT)),
            Some(Action::NewLevel)
        );
        assert_eq!(
            lookup_table(&play, &k(KeyCode::Char('x'), KeyModifiers::ALT)),
            None
        );
        assert_eq!(
            lookup_table(&play, &k(KeyCode::Left, KeyModifiers::SHIFT)),
            None
        );
        assert_eq!(
            lookup_table(&play, &k(KeyCode::BackTab, KeyModifiers::SHIFT)),
            Some(Action::PrevMonster)
        );
    }
}
