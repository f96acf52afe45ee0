//! The help screen's layout: what the game is, then every binding of the key table in
//! columns headed by their context; when they do not fit, on pages. The view draws it; the
//! app pages through it.

use ratatui::layout::Rect;

use super::keymap::{BINDINGS, Context};

const CONTEXTS: [Context; 6] = [
    Context::Global,
    Context::Play,
    Context::Overlay,
    Context::Look,
    Context::Edit,
    Context::Lab,
];

/// What the game is and how a run is won, above the keys.
pub const ABOUT: &str = "A roguelike whose monsters each plan with A* every turn: o shows a \
monster's search, with the F, G and H of every cell. Clear a floor to open its stairs (>), \
clear the last to win; ! drinks a potion. L opens the search lab, e the level editor. New? \
Play levels/tutorial.txt.";

/// Width of the key column.
pub const KEYS_W: usize = 12;

/// One row of the help: a heading or a binding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Row {
    /// A context's title.
    Heading(Context),
    /// Keys and what they do.
    Binding(&'static str, &'static str),
}

fn rows() -> Vec<Row> {
    let mut out = Vec::new();
    for ctx in CONTEXTS {
        out.push(Row::Heading(ctx));
        out.extend(
            BINDINGS
                .iter()
                .filter(|b| b.context == ctx)
                .map(|b| Row::Binding(b.label, b.help)),
        );
    }
    out
}

/// The help's columns for a page area: each a list of lines, headed by its context.
fn columns(height: usize) -> Vec<Vec<Row>> {
    let height = height.max(2);
    let mut cols: Vec<Vec<Row>> = Vec::new();
    let mut current: Vec<Row> = Vec::new();
    let mut context = None;
    for row in rows() {
        if let Row::Heading(c) = row {
            context = Some(c);
            // A heading never sits alone at the bottom of a column.
            if current.len() + 2 > height {
                cols.push(std::mem::take(&mut current));
            }
            current.push(row);
            continue;
        }
        if current.len() == height {
            cols.push(std::mem::take(&mut current));
            if let Some(c) = context {
                current.push(Row::Heading(c));
            }
            // A continued heading is marked by its column starting with a binding's context.
        }
        current.push(row);
    }
    if !current.is_empty() {
        cols.push(current);
    }
    cols
}

/// How the help lays out in an area.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HelpLayout {
    /// The about text's lines (none when the area is too short for them).
    pub about: Vec<String>,
    /// Width of a column.
    pub col_w: usize,
    /// Columns on a page.
    pub per_page: usize,
    /// Every column, in order.
    pub cols: Vec<Vec<Row>>,
}

impl HelpLayout {
    /// How many pages.
    pub fn pages(&self) -> usize {
        self.cols.len().div_ceil(self.per_page).max(1)
    }
}

/// How the help lays out in `area` (the whole screen).
pub fn layout(area: Rect) -> HelpLayout {
    let inner_w = usize::from(area.width.saturating_sub(2)).max(1);
    let about = crate::text::wrap(ABOUT, inner_w);
    let about_h = if area.height >= 16 {
        about.len() + 1
    } else {
        0
    };
    let body_h = usize::from(area.height.saturating_sub(3)).saturating_sub(about_h);
    let cols = columns(body_h);
    // Rows are at most 38 characters (a test holds them to it).
    let col_w = 38.min(inner_w);
    let per_page = ((inner_w + 1) / (col_w + 1)).max(1);
    HelpLayout {
        about: if about_h > 0 { about } else { Vec::new() },
        col_w,
        per_page,
        cols,
    }
}

/// `" (cont.)"` when column `i` continues the context of the column before it.
pub fn continued(cols: &[Vec<Row>], i: usize, ctx: Context) -> &'static str {
    let before = i.checked_sub(1).and_then(|j| cols.get(j));
    let runs_on = before.is_some_and(|col| {
        col.iter().rev().find_map(|r| match r {
            Row::Heading(c) => Some(*c),
            Row::Binding(..) => None,
        }) == Some(ctx)
    });
    if runs_on { " (cont.)" } else { "" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_binding_fits_a_forty_column_help() {
        for b in BINDINGS {
            let row = format!(" {:<w$} {}", b.label, b.help, w = KEYS_W - 1);
            assert!(
                row.chars().count() <= 38,
                "{row:?} is too wide for 40 columns"
            );
        }
    }

    #[test]
    fn columns_keep_their_headings() {
        for height in 2..30 {
            for col in columns(height) {
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
