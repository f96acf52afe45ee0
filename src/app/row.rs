//! How a row of the key table is written: the row itself and the macros that write a row of
//! keys, so that the table (`keymap`) reads as the table alone.

use crossterm::event::KeyCode;

use super::command::{Action, Context, Key};

/// A character key.
pub(super) const fn ch(c: char) -> Key {
    Key {
        code: KeyCode::Char(c),
        ctrl: false,
    }
}

/// A character key with Ctrl held.
pub(super) const fn ctrl(c: char) -> Key {
    Key {
        code: KeyCode::Char(c),
        ctrl: true,
    }
}

/// A key by its code, without Ctrl.
pub(super) const fn code(c: KeyCode) -> Key {
    Key {
        code: c,
        ctrl: false,
    }
}

/// One row of the help screen: keys and what each does, and the bit the hint bar shows.
pub struct Binding {
    /// Where it applies.
    pub context: Context,
    /// The keys as shown on the help screen (a test holds it to name every key of the row).
    pub label: &'static str,
    /// Each key with what it does; empty for rows that describe the mouse.
    pub keys: &'static [(Key, Action)],
    /// The description on the help screen.
    pub help: &'static str,
    /// What the hint bar shows for it, if anything (`o search`).
    pub hint: &'static str,
}

/// A row whose keys all do one thing: `key!(Context, "label", [keys], Action, "help", "hint")`.
macro_rules! key {
    ($ctx:ident, $label:expr, [$($k:expr),*], $action:expr, $help:expr, $hint:expr) => {
        Binding {
            context: Context::$ctx,
            label: $label,
            keys: &[$(($k, $action)),*],
            help: $help,
            hint: $hint,
        }
    };
}

/// A row whose keys do different things (a pair of opposites, the movement keys):
/// `keys!(Context, "label", [key => action, ...], "help", "hint")`.
macro_rules! keys {
    ($ctx:ident, $label:expr, [$($k:expr => $action:expr),*], $help:expr, $hint:expr) => {
        Binding {
            context: Context::$ctx,
            label: $label,
            keys: &[$(($k, $action)),*],
            help: $help,
            hint: $hint,
        }
    };
}

/// The row of the straight steps (vi keys and arrows) for an action built from a step
/// `(dx, dy)`: with `diagonal!` and `numpad!`, the one layout that moving and aiming an
/// attack share. `straight!(Context, Action::Ctor, "help", "hint")`.
macro_rules! straight {
    ($ctx:ident, $f:path, $help:expr, $hint:expr) => {
        keys!(
            $ctx,
            "←↓↑→ hjkl",
            [
                ch('h') => $f(-1, 0),
                ch('j') => $f(0, 1),
                ch('k') => $f(0, -1),
                ch('l') => $f(1, 0),
                code(K::Left) => $f(-1, 0),
                code(K::Down) => $f(0, 1),
                code(K::Up) => $f(0, -1),
                code(K::Right) => $f(1, 0)
            ],
            $help,
            $hint
        )
    };
}

/// The row of the diagonal steps (vi keys) of `straight!`'s layout.
macro_rules! diagonal {
    ($ctx:ident, $f:path, $help:expr, $hint:expr) => {
        keys!(
            $ctx,
            "y u b n",
            [
                ch('y') => $f(-1, -1),
                ch('u') => $f(1, -1),
                ch('b') => $f(-1, 1),
                ch('n') => $f(1, 1)
            ],
            $help,
            $hint
        )
    };
}

/// The numpad's row of `straight!`'s layout: digits, and Home, PgUp, End and PgDn for the
/// diagonals.
macro_rules! numpad {
    ($ctx:ident, $f:path, $help:expr, $hint:expr) => {
        keys!(
            $ctx,
            "numpad 1-9",
            [
                ch('4') => $f(-1, 0),
                ch('2') => $f(0, 1),
                ch('8') => $f(0, -1),
                ch('6') => $f(1, 0),
                ch('7') => $f(-1, -1),
                ch('9') => $f(1, -1),
                ch('1') => $f(-1, 1),
                ch('3') => $f(1, 1),
                code(K::Home) => $f(-1, -1),
                code(K::PageUp) => $f(1, -1),
                code(K::End) => $f(-1, 1),
                code(K::PageDown) => $f(1, 1)
            ],
            $help,
            $hint
        )
    };
}

/// A row that describes keys bound in another row (the movement keys) or the mouse.
macro_rules! note {
    ($ctx:ident, $label:expr, $help:expr, $hint:expr) => {
        Binding {
            context: Context::$ctx,
            label: $label,
            keys: &[],
            help: $help,
            hint: $hint,
        }
    };
}

pub(super) use {diagonal, key, keys, note, numpad, straight};
