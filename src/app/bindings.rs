//! The player's keys for the key table's actions: which keys each action of each context
//! has (the table's, or the settings file's), the names the file gives them, and the help's,
//! the hints' and the messages' words with those keys in them.
//!
//! The key table (`keymap`) stays the one authority on what a key does where: a binding
//! here only says which keys stand for one of its actions. [`Bindings::default`] is the
//! table exactly as written.

use std::borrow::Cow;
use std::sync::OnceLock;

use crossterm::event::KeyCode;

use super::command::{Action, COMPASS, Context, Key};
pub use super::command::{label, parse_key, shown_key};
use super::keymap::{BINDINGS, Keys};
use crate::content::level::design::Side;
use crate::game::Command;

/// Width of the help's key column, labels included (the help lays its columns out by it).
pub const KEYS_W: usize = 12;

/// One action of the key table that keys can be bound to, in one context.
#[derive(Debug, Clone)]
pub struct Slot {
    /// Where it applies: its section of the file, `[keys.SECTION]`.
    pub context: Context,
    /// Its name in the section.
    pub name: &'static str,
    /// What it does.
    pub action: Action,
    /// The rows of [`BINDINGS`] it has keys in, the first first.
    pub rows: Vec<usize>,
    /// Its keys as the table has them, in the table's order.
    pub defaults: Vec<Key>,
    /// What it does, for the file's comments: its own words in its first row, else that
    /// row's help.
    pub help: &'static str,
}

/// The eight moves in the order the hint bar writes their keys (`hjklyubn move`): the
/// compass's.
pub(super) const MOVES: [(i32, i32); 8] = {
    let mut steps = [(0, 0); 8];
    let mut i = 0;
    while i < steps.len() {
        steps[i] = COMPASS[i].step;
        i += 1;
    }
    steps
};

/// The section name of a context in the file.
pub fn section(context: Context) -> &'static str {
    match context {
        Context::Always => "anywhere",
        Context::Global => "everywhere",
        Context::Play => "playing",
        Context::Overlay => "overlay",
        Context::Look => "look",
        Context::Edit => "edit",
        Context::Lab => "lab",
        Context::Help => "help",
        Context::History => "history",
        Context::Confirm => "questions",
        Context::Busy => "busy",
        Context::Aim => "attack_in_place",
        Context::Monster => "monster",
        Context::Resize => "resize",
        Context::Replay => "replay",
    }
}

/// The contexts in the file's order.
pub(super) const CONTEXTS: [Context; 15] = Context::ALL;

/// The distinct actions of a row, in the order its keys first give them.
fn row_actions(row: usize) -> Vec<Action> {
    let mut out: Vec<Action> = Vec::new();
    for &(_, a) in &BINDINGS[row].keys {
        if !out.contains(&a) {
            out.push(a);
        }
    }
    out
}

/// The slot of `action` in `context` (by index into [`slots`]), if it can be bound there.
fn slot_of(context: Context, action: Action) -> Option<usize> {
    slots()
        .iter()
        .position(|s| s.context == context && s.action == action)
}

/// The first of `keys` as the help writes keys; a dash when there is none.
fn first_shown(keys: &[Key]) -> String {
    keys.first().map_or_else(|| "-".into(), |k| shown_key(*k))
}

/// Every bindable action, by context, in the key table's order. Interrupt is not among
/// them: Ctrl-C always quits.
pub fn slots() -> &'static [Slot] {
    static SLOTS: OnceLock<Vec<Slot>> = OnceLock::new();
    SLOTS.get_or_init(|| {
        let mut out: Vec<Slot> = Vec::new();
        for (r, b) in BINDINGS.iter().enumerate() {
            for &(key, action) in &b.keys {
                if action == Action::Interrupt {
                    continue;
                }
                match out
                    .iter_mut()
                    .find(|s| s.context == b.context && s.action == action)
                {
                    Some(slot) => {
                        if !slot.defaults.contains(&key) {
                            slot.defaults.push(key);
                        }
                        if !slot.rows.contains(&r) {
                            slot.rows.push(r);
                        }
                    }
                    None => out.push(Slot {
                        context: b.context,
                        name: action.name(),
                        action,
                        rows: vec![r],
                        defaults: vec![key],
                        help: b
                            .file
                            .iter()
                            .find(|(a, _)| *a == action)
                            .map_or(b.help, |&(_, words)| words),
                    }),
                }
            }
        }
        out
    })
}

/// The slots of each row of [`BINDINGS`], by index into [`slots`], in the row's order.
pub(super) fn row_slots() -> &'static [Vec<usize>] {
    static ROWS: OnceLock<Vec<Vec<usize>>> = OnceLock::new();
    ROWS.get_or_init(|| {
        (0..BINDINGS.len())
            .map(|r| {
                row_actions(r)
                    .into_iter()
                    .filter_map(|a| slot_of(BINDINGS[r].context, a))
                    .collect()
            })
            .collect()
    })
}

/// For each slot of [`slots`], the slots whose keys it takes, in order, when the settings
/// do not bind it (none for most). The directions of an attack in place follow the moves
/// (`everywhere.move_w` for `attack_in_place.attack_w`), so a player who moves with other
/// keys aims with them too, and its cancel follows the attack key and the way back (`F`
/// again or `Esc`); growing a side of the map while resizing follows the move toward it,
/// and the message history scrolls with the moves north and south; the busy box quits
/// with the playing quit key and confirms with the questions' yes.
pub fn followed() -> &'static [Vec<usize>] {
    static FOLLOWED: OnceLock<Vec<Vec<usize>>> = OnceLock::new();
    FOLLOWED.get_or_init(|| {
        slots()
            .iter()
            .map(|s| match (s.context, s.action) {
                (Context::Aim, Action::AttackToward(dx, dy)) => {
                    slot_of(Context::Global, Action::Move(dx, dy))
                        .into_iter()
                        .collect()
                }
                (Context::Aim, Action::Attack) => [
                    slot_of(Context::Play, Action::Attack),
                    slot_of(Context::Global, Action::Back),
                ]
                .into_iter()
                .flatten()
                .collect(),
                (Context::Resize, Action::Resize(side, n)) if n > 0 => {
                    let (dx, dy) = match side {
                        Side::Left => (-1, 0),
                        Side::Right => (1, 0),
                        Side::Top => (0, -1),
                        Side::Bottom => (0, 1),
                    };
                    slot_of(Context::Global, Action::Move(dx, dy))
                        .into_iter()
                        .collect()
                }
                (Context::History, Action::Scroll(n)) => {
                    let dy = if n > 0 { -1 } else { 1 };
                    slot_of(Context::Global, Action::Move(0, dy))
                        .into_iter()
                        .collect()
                }
                (Context::Busy, Action::Quit) => {
                    slot_of(Context::Play, Action::Quit).into_iter().collect()
                }
                (Context::Busy, Action::Yes) => {
                    slot_of(Context::Confirm, Action::Yes).into_iter().collect()
                }
                _ => Vec::new(),
            })
            .collect()
    })
}

/// The keys slot `i` takes from the slots it follows, in order, each once: all but those
/// its own part of the game binds to an action that follows nothing (a move on `K` does
/// not grow the top while resizing, where `K` crops it).
pub(super) fn followed_keys(keys: &[Vec<Key>], i: usize) -> Vec<Key> {
    let context = slots()[i].context;
    let own = |k: &Key| {
        (0..slots().len()).any(|j| {
            slots()[j].context == context && followed()[j].is_empty() && keys[j].contains(k)
        })
    };
    let mut out: Vec<Key> = Vec::new();
    for &m in &followed()[i] {
        for &k in &keys[m] {
            if !out.contains(&k) && !own(&k) {
                out.push(k);
            }
        }
    }
    out
}

/// The slot a table key that is `named` gives in `context`, as a key pressed there is read:
/// a slot of `context` itself, else a [`Context::Global`] one, else a [`Context::Always`]
/// one. The hint bar and a level's messages both read the table's keys this way.
fn table_slot(context: Context, named: impl Fn(&Key) -> bool) -> Option<usize> {
    [context, Context::Global, Context::Always]
        .into_iter()
        .find_map(|c| {
            slots()
                .iter()
                .position(|s| s.context == c && s.defaults.iter().any(&named))
        })
}

/// The eight direction slots of `context` (the moves everywhere, the attacks in place), in
/// [`MOVES`]' order.
fn direction_slots(context: Context) -> Vec<usize> {
    MOVES
        .iter()
        .filter_map(|&(dx, dy)| {
            slots().iter().position(|s| {
                s.context == context
                    && matches!(s.action,
                        Action::Move(x, y) | Action::AttackToward(x, y) if (x, y) == (dx, dy))
            })
        })
        .collect()
}

/// Which keys stand for each action of the key table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bindings {
    /// The keys of each slot, by index into [`slots`].
    pub(super) keys: Vec<Vec<Key>>,
    /// Whether `keys` are the table's (most players'): a view then words no message again.
    table: bool,
    /// What the hint bar shows for each row of [`BINDINGS`], worked out once from `keys`:
    /// the bar, the help and the history's footer ask for every hint on every frame.
    hints: Vec<Cow<'static, str>>,
}

impl Default for Bindings {
    /// The key table as written.
    fn default() -> Self {
        Self::of(slots().iter().map(|s| s.defaults.clone()).collect())
    }
}

impl Bindings {
    /// The bindings that give each slot of [`slots`] these keys, with what the views read
    /// of them on every frame worked out now, once.
    pub(super) fn of(keys: Vec<Vec<Key>>) -> Self {
        let table = keys.iter().zip(slots()).all(|(k, s)| *k == s.defaults);
        let mut b = Self {
            keys,
            table,
            hints: Vec::new(),
        };
        b.hints = (0..BINDINGS.len())
            .map(|row| {
                if table {
                    Cow::Borrowed(BINDINGS[row].hint)
                } else {
                    b.rebound_hint(row)
                }
            })
            .collect();
        b
    }

    /// The key table as written, shared.
    pub fn standard() -> &'static Bindings {
        static STANDARD: OnceLock<Bindings> = OnceLock::new();
        STANDARD.get_or_init(Bindings::default)
    }

    /// The keys bound to slot `i` of [`slots`].
    pub fn keys(&self, i: usize) -> &[Key] {
        &self.keys[i]
    }

    /// The action a key gives in the active contexts, most specific first. Ctrl-C is
    /// always the table's.
    pub fn lookup(&self, contexts: &[Context], key: Key) -> Option<Action> {
        if key
            == (Key {
                code: KeyCode::Char('c'),
                ctrl: true,
            })
        {
            return contexts
                .contains(&Context::Always)
                .then_some(Action::Interrupt);
        }
        contexts.iter().find_map(|&ctx| {
            slots()
                .iter()
                .zip(&self.keys)
                .find(|(s, keys)| s.context == ctx && keys.contains(&key))
                .map(|(s, _)| s.action)
        })
    }

    fn is_default_row(&self, row: usize) -> bool {
        row_slots()[row]
            .iter()
            .all(|&i| self.keys[i] == slots()[i].defaults)
    }

    /// The first key bound to `action` in `context`, as the help writes keys; a dash when
    /// the player left it none.
    pub fn key_of(&self, context: Context, action: Action) -> String {
        slot_of(context, action).map_or_else(|| "-".into(), |i| first_shown(&self.keys[i]))
    }

    /// The player's key for a command a message names (the log's text names the table's).
    pub fn command_key(&self, command: Command) -> String {
        let (context, action) = match command {
            Command::Help => (Context::Global, Action::Help),
            Command::Overlay => (Context::Play, Action::ToggleOverlay),
            Command::Explore => (Context::Play, Action::Explore),
            Command::Rest => (Context::Play, Action::Rest),
            Command::Drink => (Context::Play, Action::Drink),
        };
        self.key_of(context, action)
    }

    /// Whether every key of `context` is the table's.
    pub fn is_default_context(&self, context: Context) -> bool {
        slots()
            .iter()
            .zip(&self.keys)
            .all(|(s, keys)| s.context != context || *keys == s.defaults)
    }

    /// A context's heading on the help screen, naming the player's key that leads there
    /// (`Search overlay (o)`).
    pub fn title(&self, context: Context) -> Cow<'static, str> {
        let title = context.title();
        match context.entered_by() {
            Some((ctx, action)) => Cow::Owned(format!("{title} ({})", self.key_of(ctx, action))),
            None => Cow::Borrowed(title),
        }
    }

    /// Every key bound to `action` in `context`, as the help writes keys.
    pub fn keys_of(&self, context: Context, action: Action) -> Vec<String> {
        slot_of(context, action)
            .map(|i| self.keys[i].iter().map(|k| shown_key(*k)).collect())
            .unwrap_or_default()
    }

    /// The keys of row `row` as the help shows them: the table's label, or the first bound
    /// key of each of its actions (an action with keys in several rows shows in its first).
    pub fn label(&self, row: usize) -> Cow<'static, str> {
        let b = &BINDINGS[row];
        // A row that only repeats keys of actions shown first in other rows (the numpad's)
        // keeps its own words.
        let shows_first = row_slots()[row].iter().any(|&i| slots()[i].rows[0] == row);
        if b.keys.is_empty() || self.is_default_row(row) {
            return Cow::Borrowed(b.label);
        }
        if !shows_first {
            return match self.repeated(row) {
                Some((label, _)) => Cow::Owned(fit(&label)),
                None => Cow::Borrowed(b.label),
            };
        }
        let keys: Vec<String> = row_slots()[row]
            .iter()
            .filter(|&&i| slots()[i].rows[0] == row || self.keys[i] == slots()[i].defaults)
            .map(|&i| {
                if slots()[i].rows[0] != row {
                    // Untouched, with its keys shown first in another row: this row's own.
                    let mine = b.keys.iter().find(|(_, a)| *a == slots()[i].action);
                    return mine.map_or_else(|| "-".into(), |(k, _)| shown_key(*k));
                }
                first_shown(&self.keys[i])
            })
            .collect();
        let text = if keys.is_empty() {
            "(none)".to_string()
        } else {
            keys.join(" ")
        };
        Cow::Owned(fit(&text))
    }

    /// The help's words for row `row`: the table's, with the row's own key (the `F` of
    /// "attack in place: F, a way") replaced by the bound one when its one action has
    /// other keys.
    pub fn help(&self, row: usize) -> Cow<'static, str> {
        let b = &BINDINGS[row];
        if let Some((_, help)) = self.repeated(row) {
            return Cow::Owned(help);
        }
        let (slots_here, Some(&(own, _))) = (&row_slots()[row], b.keys.first()) else {
            return Cow::Borrowed(b.help);
        };
        if slots_here.len() != 1 || self.is_default_row(row) {
            return Cow::Borrowed(b.help);
        }
        let own = shown_key(own);
        let bound = first_shown(&self.keys[slots_here[0]]);
        let words: Vec<String> = b
            .help
            .split(' ')
            .map(|w| match w.strip_suffix(',') {
                Some(k) if k == own => format!("{bound},"),
                _ if w == own => bound.clone(),
                _ => w.to_string(),
            })
            .collect();
        Cow::Owned(words.join(" "))
    }

    /// The label and words of a row that only repeats keys of actions shown first in other
    /// rows (the numpad's), when some of its keys no longer do what it says: the keys that
    /// still do, its digits together ("numpad 1234679" when the player moved north with
    /// another key), and its words up to the keys they named, then those still bound
    /// ("move; Home PgUp End PgDn"). `None` for every other row, and while all its keys
    /// still do what the table has them do.
    fn repeated(&self, row: usize) -> Option<(String, String)> {
        let b = &BINDINGS[row];
        let shows_first = row_slots()[row].iter().any(|&i| slots()[i].rows[0] == row);
        if b.keys.is_empty() || shows_first || self.is_default_row(row) {
            return None;
        }
        let kept: Vec<Key> = b
            .keys
            .iter()
            .filter(|(k, a)| slot_of(b.context, *a).is_some_and(|i| self.keys[i].contains(k)))
            .map(|&(k, _)| k)
            .collect();
        if kept.len() == b.keys.len() {
            return None;
        }
        let mut digits: Vec<char> = kept
            .iter()
            .filter_map(|k| match k.code {
                KeyCode::Char(c) if c.is_ascii_digit() && !k.ctrl => Some(c),
                _ => None,
            })
            .collect();
        digits.sort_unstable();
        let digits: String = digits.into_iter().collect();
        let named: Vec<String> = kept
            .iter()
            .filter(|k| !matches!(k.code, KeyCode::Char(c) if c.is_ascii_digit() && !k.ctrl))
            .map(|k| shown_key(*k))
            .collect();
        let (what, _) = b.help.split_once(';').unwrap_or((b.help, ""));
        // The label's word for where the digits are ("numpad"), when it has one.
        let place = b
            .label
            .split(' ')
            .next()
            .filter(|w| w.chars().all(char::is_alphabetic));
        let label = match (place, digits.is_empty(), named.is_empty()) {
            (_, true, true) => "(none)".to_string(),
            (_, true, false) => return Some((named.join(" "), what.to_string())),
            (Some(place), false, _) if place.len() + 1 + digits.len() < KEYS_W => {
                format!("{place} {digits}")
            }
            _ => digits,
        };
        let help = if named.is_empty() {
            what.to_string()
        } else {
            format!("{what}; {}", named.join(" "))
        };
        Some((label, help))
    }

    /// What the hint bar shows for row `row`: the table's hint, its keys replaced by the
    /// bound ones.
    pub fn hint(&self, row: usize) -> &str {
        &self.hints[row]
    }

    /// [`Bindings::hint`], worked out: the table's hint with its keys replaced by the
    /// bound ones.
    fn rebound_hint(&self, row: usize) -> Cow<'static, str> {
        let b = &BINDINGS[row];
        if b.hint.is_empty() {
            return Cow::Borrowed(b.hint);
        }
        let (keys, what) = b.hint.rsplit_once(' ').unwrap_or(("", b.hint));
        // Each key the hint names stands for what the table gives it in the row's part of
        // the game ("x q Esc leave" names look mode's way out and the way back).
        let resolve = |token: &str| table_slot(b.context, |k| k.name() == token);
        let sep = if keys.contains('/') { "/" } else { " " };
        // Each written token: its keys' slots, and whether its keys were written together
        // ("+-", "hjkl").
        let mut tokens: Vec<(Vec<(String, usize)>, bool)> = Vec::new();
        for token in keys.split(sep).filter(|t| !t.is_empty()) {
            if let Some(i) = resolve(token) {
                tokens.push((vec![(token.to_string(), i)], false));
                continue;
            }
            let glued: Option<Vec<(String, usize)>> = token
                .chars()
                .map(|c| resolve(&c.to_string()).map(|i| (c.to_string(), i)))
                .collect();
            match glued {
                Some(keys) if keys.len() > 1 => tokens.push((keys, true)),
                // Words the table's keys cannot read: the hint as written.
                _ => return Cow::Borrowed(b.hint),
            }
        }
        let touched = |i: usize| self.keys[i] != slots()[i].defaults;
        if !tokens.iter().flat_map(|(t, _)| t).any(|&(_, i)| touched(i)) {
            return Cow::Borrowed(b.hint);
        }
        // A slot named by several keys shows once, with all the player's keys; one the
        // player left alone keeps the key the hint wrote.
        let count = |i: usize| {
            tokens
                .iter()
                .flat_map(|(t, _)| t)
                .filter(|&&(_, j)| j == i)
                .count()
        };
        let mut shown: Vec<usize> = Vec::new();
        let mut parts: Vec<String> = Vec::new();
        for (keys, glued) in &tokens {
            let mut out: Vec<String> = Vec::new();
            for (written, i) in keys {
                if !touched(*i) {
                    out.push(written.clone());
                    continue;
                }
                if shown.contains(i) {
                    continue;
                }
                shown.push(*i);
                let bound: Vec<String> = self.keys[*i].iter().map(|k| shown_key(*k)).collect();
                out.push(match (bound.first(), count(*i) > 1) {
                    (None, _) => "-".to_string(),
                    (Some(_), true) => bound.join(" "),
                    (Some(k), false) => k.clone(),
                });
            }
            if out.is_empty() {
                continue;
            }
            // The eight ways of a part of the game (the moves, the attacks in place) stay
            // written together whatever their keys: apart, they would crowd the bar.
            let ways = CONTEXTS.iter().any(|&c| {
                let eight = direction_slots(c);
                eight.len() == MOVES.len()
                    && keys.len() == eight.len()
                    && keys.iter().all(|(_, i)| eight.contains(i))
            });
            parts.push(match (*glued, ways) {
                (false, _) => out.join(" "),
                (true, true) => out.concat(),
                (true, false) => together(&out),
            });
        }
        Cow::Owned(format!("{} {what}", parts.join(sep)))
    }
}

impl Keys for Bindings {
    fn hint(&self, row: usize) -> &str {
        Bindings::hint(self, row)
    }

    fn lookup(&self, contexts: &[Context], key: Key) -> Option<Action> {
        Bindings::lookup(self, contexts, key)
    }
}

impl crate::game::KeyNames for Bindings {
    fn command(&self, command: Command) -> String {
        self.command_key(command)
    }

    fn is_table(&self) -> bool {
        self.table
    }

    /// A key a level's message names stands for what the table gives it while playing
    /// (or, failing that, with the search shown, in look mode, aiming): the player's
    /// first key for that, when they bound it otherwise.
    fn rebound(&self, key: &str) -> Option<String> {
        let key = parse_key(key).ok()?;
        let i = [Context::Play, Context::Overlay, Context::Look, Context::Aim]
            .into_iter()
            .find_map(|c| table_slot(c, |k| *k == key))?;
        (self.keys[i] != slots()[i].defaults).then(|| first_shown(&self.keys[i]))
    }
}

/// A label cut to fit the help's key column.
fn fit(text: &str) -> String {
    let w = KEYS_W - 1;
    if text.chars().count() <= w {
        return text.to_string();
    }
    let mut out: String = text.chars().take(w - 1).collect();
    out.push('…');
    out
}

/// Keys the table writes together ("hjkl", "+-") as the hint bar and the messages write
/// them: still together when each is one character, else apart ("F2 F3"), where the names
/// would run into one another.
pub(super) fn together(keys: &[String]) -> String {
    let sep = if keys.iter().all(|k| k.chars().count() == 1) {
        ""
    } else {
        " "
    };
    keys.join(sep)
}

/// What slot `i` of [`slots`] does, in the words of the file's comments: `move west`,
/// `place a rat`, its own words (`select next foe`), or its row's help.
pub fn slot_words(i: usize) -> String {
    let s = &slots()[i];
    s.action.own_words().unwrap_or_else(|| s.help.to_string())
}

/// Slot `i`'s name as the file's comments write it: with its section when another
/// section has an action of that name (`playing.quit`, `busy.quit`).
pub(super) fn file_name(i: usize) -> String {
    let s = &slots()[i];
    if slots().iter().filter(|t| t.name == s.name).count() > 1 {
        format!("{}.{}", section(s.context), s.name)
    } else {
        s.name.to_string()
    }
}
