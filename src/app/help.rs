//! The help screen's layout: what the game is, then every binding of the key table in
//! columns headed by their context; when they do not fit, on pages. The view draws it; the
//! app pages through it.

use ratatui::layout::Rect;

use super::bindings::Bindings;
use super::keymap::{Action, BINDINGS, Context};

/// What the game is and how a run is won, two lines above the keys of the first page
/// (each fits 78 columns, one line of an 80-column help; narrower, they wrap).
pub const ABOUT: [&str; 2] = [
    "A roguelike whose monsters plan with A* every turn. Learn: levels/tutorial.txt",
    "Win: kill a floor's monsters to open its stairs >; clearing the last wins.",
];

pub use super::bindings::KEYS_W;

/// Widest a column is: a row of the table fits it (a test holds them to it), so the help
/// of a 40-column terminal shows every row whole.
pub const COL_W: usize = 38;

/// Blank columns between two columns of the help, so that a row that fills its column
/// never reads on into the next column's words.
pub const GAP: usize = 2;

/// One row of the help: a heading or a binding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Row {
    /// A context's title.
    Heading(Context),
    /// Keys (as the player bound them) and what they do: the words' first row, or none
    /// when the keys fill the key column (see [`Row::More`]).
    Binding(String, String),
    /// The binding above's words that its row does not hold: the rest when the player's
    /// keys make them too long for the column, all of them when its keys fill the key
    /// column. Shown in the words' column.
    More(String),
}

impl Row {
    /// The row's text as the column shows it (the heading's as the table titles it).
    pub fn text(&self, bindings: &Bindings) -> String {
        match self {
            Row::Heading(ctx) => bindings.title(*ctx).into_owned(),
            Row::Binding(label, help) => format!(" {label:<w$} {help}", w = KEYS_W - 1),
            Row::More(rest) => format!("{:w$}{rest}", "", w = KEYS_W + 1),
        }
    }
}

/// Whether a binding's words start on its keys' row: unless its keys fill the key column
/// ("moves click"), where one space would leave them reading on into the words.
pub fn words_beside(label: &str) -> bool {
    label.chars().count() < KEYS_W - 1
}

/// Every row of the help for columns `col_w` wide, in the pieces a column keeps whole: a
/// heading alone, or a binding with the [`Row::More`] rows that go on with its words.
fn units(bindings: &Bindings, col_w: usize) -> Vec<Vec<Row>> {
    let words_w = col_w.saturating_sub(KEYS_W + 1).max(1);
    let mut out = Vec::new();
    for ctx in Context::ALL {
        out.push(vec![Row::Heading(ctx)]);
        for (r, _) in BINDINGS
            .iter()
            .enumerate()
            .filter(|(_, b)| b.context == ctx)
        {
            let label = bindings.label(r).into_owned();
            let help = bindings.help(r);
            let mut lines = crate::text::wrap(&help, words_w).into_iter();
            let first = if words_beside(&label) {
                lines.next().unwrap_or_default()
            } else {
                String::new()
            };
            let mut unit = vec![Row::Binding(label, first)];
            unit.extend(lines.map(Row::More));
            out.push(unit);
        }
    }
    out
}

/// The help's columns `col_w` wide, column `i` at most `height(i)` rows, each headed by
/// its context; a binding and the rows that go on with its words stay in one column.
fn columns(bindings: &Bindings, col_w: usize, height: impl Fn(usize) -> usize) -> Vec<Vec<Row>> {
    let mut cols: Vec<Vec<Row>> = Vec::new();
    let mut current: Vec<Row> = Vec::new();
    let mut context = None;
    let mut units = units(bindings, col_w).into_iter().peekable();
    while let Some(unit) = units.next() {
        let height = height(cols.len()).max(2);
        if let Row::Heading(c) = unit[0] {
            context = Some(c);
            // A heading never sits alone at the bottom of a column: the binding under it
            // goes with it, all its rows when they go on to a new column together.
            let first = units
                .peek()
                .map_or(1, |next| if next.len() < height { next.len() } else { 1 });
            if current.len() + 1 + first > height {
                cols.push(std::mem::take(&mut current));
            }
            current.extend(unit);
            continue;
        }
        // A binding and its rows go on to a new column together, unless they are taller
        // than one can hold under its heading: then row by row.
        let whole = unit.len() < height;
        if whole && current.len() + unit.len() > height {
            new_column(&mut cols, &mut current, context);
        }
        for row in unit {
            if current.len() >= height {
                new_column(&mut cols, &mut current, context);
            }
            current.push(row);
        }
    }
    if !current.is_empty() {
        cols.push(current);
    }
    cols
}

/// Ends the column under way and starts the next, headed by the context it goes on with (a
/// continued heading is marked by its column starting with a binding's context).
fn new_column(cols: &mut Vec<Vec<Row>>, current: &mut Vec<Row>, context: Option<Context>) {
    cols.push(std::mem::take(current));
    if let Some(c) = context {
        current.push(Row::Heading(c));
    }
}

/// How the help lays out in an area.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HelpLayout {
    /// The about text's lines, shown above the keys of the first page.
    pub about: Vec<String>,
    /// Width of a column.
    pub col_w: usize,
    /// Columns on a page.
    pub per_page: usize,
    /// Every column, in order; the first page's are shorter by the about text.
    pub cols: Vec<Vec<Row>>,
}

impl HelpLayout {
    /// How many pages.
    pub fn pages(&self) -> usize {
        self.cols.len().div_ceil(self.per_page).max(1)
    }
}

/// How the help lays out in `area` (the whole screen): the about text and a blank line
/// above the first page's columns, then pages of columns as tall as the box, each binding
/// with the keys `bindings` gives it.
pub fn layout(bindings: &Bindings, area: Rect) -> HelpLayout {
    let inner_w = usize::from(area.width.saturating_sub(2)).max(1);
    let about: Vec<String> = ABOUT
        .iter()
        .flat_map(|line| crate::text::wrap(line, inner_w))
        .collect();
    let body_h = usize::from(area.height.saturating_sub(2));
    let first_h = body_h.saturating_sub(about.len() + 1);
    let col_w = COL_W.min(inner_w);
    let per_page = ((inner_w + GAP) / (col_w + GAP)).max(1);
    let cols = columns(
        bindings,
        col_w,
        |i| {
            if i < per_page { first_h } else { body_h }
        },
    );
    HelpLayout {
        about,
        col_w,
        per_page,
        cols,
    }
}

/// The help's title for a box `width` columns wide: the longest that fits, naming the
/// player's keys for paging and closing.
pub fn title(bindings: &Bindings, page: usize, pages: usize, width: usize) -> String {
    let key = |a| bindings.key_of(Context::Help, a);
    // The next page's first two keys (the table's are the two most reach for).
    let nexts = bindings.keys_of(Context::Help, Action::NextPage);
    let short = nexts.first().cloned().unwrap_or_else(|| "-".into());
    let next = match &nexts[..] {
        [a, b, ..] => format!("{a} or {b}"),
        _ => short.clone(),
    };
    let (back, close) = (key(Action::PrevPage), key(Action::Close));
    if pages <= 1 {
        return format!(" help: {close} closes ");
    }
    let n = format!("{}/{pages}", page + 1);
    [
        format!(" help {n}: {next} next, {back} back, {close} closes "),
        format!(" help {n}: {short} next, {back} back "),
        format!(" help {n} "),
    ]
    .into_iter()
    .find(|t| t.chars().count() + 2 <= width)
    .unwrap_or_else(|| format!(" help {n} "))
}

/// `" (cont.)"` when column `i` continues the context of the column before it.
pub fn continued(cols: &[Vec<Row>], i: usize, ctx: Context) -> &'static str {
    let before = i.checked_sub(1).and_then(|j| cols.get(j));
    let runs_on = before.is_some_and(|col| {
        col.iter().rev().find_map(|r| match r {
            Row::Heading(c) => Some(*c),
            Row::Binding(..) | Row::More(_) => None,
        }) == Some(ctx)
    });
    if runs_on { " (cont.)" } else { "" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_binding_fits_a_forty_column_help() {
        for b in BINDINGS.iter() {
            let row = format!(" {:<w$} {}", b.label, b.help, w = KEYS_W - 1);
            assert!(
                row.chars().count() <= COL_W,
                "{row:?} is too wide for 40 columns"
            );
        }
    }

    #[test]
    fn the_about_text_is_two_lines_at_80_columns() {
        for line in ABOUT {
            assert!(line.chars().count() <= 78, "{line:?}");
        }
        let l = layout(Bindings::standard(), Rect::new(0, 0, 80, 24));
        assert_eq!(l.about, ABOUT);
    }

    #[test]
    fn titles_fit_their_box() {
        for width in 12..120 {
            let t = title(Bindings::standard(), 3, 12, width);
            assert!(t.chars().count() + 2 <= width.max(13), "{width}: {t:?}");
            assert!(t.contains("4/12"), "{width}: {t:?}");
        }
        assert_eq!(title(Bindings::standard(), 0, 1, 40), " help: Esc closes ");
    }

    #[test]
    fn keys_that_fill_their_column_have_their_words_below() {
        let rows: Vec<Row> = units(Bindings::standard(), COL_W).concat();
        let at = rows
            .iter()
            .position(|r| matches!(r, Row::Binding(label, _) if label == "moves click"))
            .expect("look mode's moves and click");
        assert_eq!(rows[at], Row::Binding("moves click".into(), String::new()));
        assert_eq!(rows[at + 1], Row::More("move the cursor".into()));
        assert_eq!(
            rows[at + 1].text(Bindings::standard()),
            "             move the cursor"
        );
        // Shorter keys keep their words beside them, two blanks or more between.
        for row in &rows {
            if let Row::Binding(label, words) = row {
                assert!(
                    words.is_empty() || label.chars().count() <= KEYS_W - 2,
                    "{label:?} {words:?}"
                );
            }
        }
    }

    #[test]
    fn columns_keep_their_headings() {
        for height in 2..30 {
            for col in columns(Bindings::standard(), COL_W, |_| height) {
                assert!(matches!(col[0], Row::Heading(_)), "height {height}");
                assert!(col.len() <= height.max(2));
                assert!(
                    !matches!(col.last(), Some(Row::Heading(_))),
                    "a heading alone at the bottom"
                );
            }
        }
    }
}
