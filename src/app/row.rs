//! How the key table's rows are made: the commands declare their keys and words
//! ([`super::command::DECLARED`]), and the rows of the help that only describe (the mouse,
//! the moves' keys in another part of the game) are notes; each row gathers the keys
//! declared for it.

use super::command::{Action, Context, Declared, Key};

/// One row of the help screen: keys and what each does, and the bit the hint bar shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    /// Where it applies.
    pub context: Context,
    /// The keys as shown on the help screen (a test holds it to name every key of the row).
    pub label: &'static str,
    /// Each key with what it does, in the order the commands declare them; empty for rows
    /// that describe the mouse.
    pub keys: Vec<(Key, Action)>,
    /// The description on the help screen.
    pub help: &'static str,
    /// What the hint bar shows for it, if anything (`o search`).
    pub hint: &'static str,
    /// What each of its commands does in the settings file's comment, where its help
    /// words several at once (`select next / prev foe`); the others' is the help.
    pub file: Vec<(Action, &'static str)>,
}

/// A row that describes keys bound in another row (the movement keys) or the mouse:
/// `note!(Context ROW, "label", "help", "hint")`, placed among the commands' rows by `ROW`.
macro_rules! note {
    ($ctx:ident $row:literal, $label:expr, $help:expr, $hint:expr) => {
        $crate::app::command::Declared {
            context: $crate::app::command::Context::$ctx,
            row: $row,
            keys: &[],
            words: Some($crate::app::command::Words {
                label: $label,
                help: $help,
                hint: $hint,
            }),
            file: None,
        }
    };
}

pub(super) use note;

/// The rows of `declared` (the commands' keys and the notes) in table order: by context as
/// [`Context`] declares them, then by row; a row's keys in declaration order, its words
/// from the one declaration that gives them.
///
/// # Panics
/// When a row has no words or two declarations give it words: each row is worded once.
pub(super) fn rows<'a>(declared: impl IntoIterator<Item = &'a Declared>) -> Vec<Binding> {
    let mut declared: Vec<&Declared> = declared.into_iter().collect();
    // Stable: the keys of a shared row stay in declaration order.
    declared.sort_by_key(|d| (d.context, d.row));
    let mut out: Vec<Binding> = Vec::new();
    for group in declared.chunk_by(|a, b| (a.context, a.row) == (b.context, b.row)) {
        let mut worded = group.iter().filter_map(|d| d.words);
        let (Some(words), None) = (worded.next(), worded.next()) else {
            panic!(
                "{:?} row {} must be worded by exactly one declaration",
                group[0].context, group[0].row
            );
        };
        out.push(Binding {
            context: group[0].context,
            label: words.label,
            keys: group.iter().flat_map(|d| d.keys.iter().copied()).collect(),
            help: words.help,
            hint: words.hint,
            file: group
                .iter()
                .filter_map(|d| d.file.map(|f| (d.keys, f)))
                .flat_map(|(keys, f)| keys.iter().map(move |&(_, a)| (a, f)))
                .collect(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::command::{Words, ch};

    const WORDS: Option<Words> = Some(Words {
        label: "[ ]",
        help: "back / on",
        hint: "",
    });
    const BACK: &[(Key, Action)] = &[(ch('['), Action::StepBack)];
    const ON: &[(Key, Action)] = &[(ch(']'), Action::StepForward)];
    const PLAY: &[(Key, Action)] = &[(ch('a'), Action::Autoplay)];
    const HELP: &[(Key, Action)] = &[(ch('?'), Action::Help)];

    fn part(row: u16, keys: &'static [(Key, Action)], words: Option<Words>) -> Declared {
        Declared {
            context: Context::Overlay,
            row,
            keys,
            words,
            file: None,
        }
    }

    #[test]
    fn a_shared_row_takes_its_keys_in_declaration_order_and_is_placed_by_its_number() {
        let help = Declared {
            context: Context::Global,
            ..part(30, HELP, WORDS)
        };
        let declared = [
            part(20, BACK, WORDS),
            help,
            part(20, ON, None),
            part(10, PLAY, WORDS),
        ];
        let rows = rows(&declared);
        let keys: Vec<Vec<Key>> = rows
            .iter()
            .map(|r| r.keys.iter().map(|k| k.0).collect())
            .collect();
        // Global is declared before Overlay; row 10 before row 20.
        assert_eq!(keys, [vec![ch('?')], vec![ch('a')], vec![ch('['), ch(']')]]);
        assert_eq!(rows[2].label, "[ ]");
    }

    #[test]
    #[should_panic(expected = "Overlay row 20 must be worded by exactly one declaration")]
    fn a_row_worded_twice_is_refused() {
        rows(&[part(20, BACK, WORDS), part(20, ON, WORDS)]);
    }
}
