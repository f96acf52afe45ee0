//! The printer: a frame's cells as text and its styles in a diffable form, and which frames
//! a run prints.

use ratatui::buffer::Buffer;

use super::token::TokenError;

/// Which frames the runner prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Frames {
    /// Only the final frame.
    #[default]
    Last,
    /// Every `snap` and the final frame.
    Snaps,
    /// A frame after every step.
    All,
}

impl Frames {
    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Frames::Last => "last",
            Frames::Snaps => "snaps",
            Frames::All => "all",
        }
    }
}

impl std::fmt::Display for Frames {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Frames {
    type Err = TokenError;

    /// Parses `last`, `snaps` or `all`.
    fn from_str(s: &str) -> Result<Self, TokenError> {
        [Frames::Last, Frames::Snaps, Frames::All]
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| TokenError::Frames(s.to_string()))
    }
}

/// Output settings of a run.
#[derive(Debug, Clone, Copy, Default)]
pub struct Output {
    /// Which frames to print.
    pub frames: Frames,
    /// Whether to print a JSON state line after every turn.
    pub state: bool,
}

/// The rendered cells of a buffer as text, one line per row.
pub fn buffer_text(buf: &Buffer) -> String {
    let area = buf.area;
    let mut out = String::with_capacity(usize::from(area.width + 1) * usize::from(area.height));
    for y in area.top()..area.bottom() {
        for x in area.left()..area.right() {
            out.push_str(buf[(x, y)].symbol());
        }
        out.push('\n');
    }
    out
}

/// The styles of a buffer in a compact, diffable form: one character per cell, lined up
/// with the frame's text (a space for the default style, else a letter), then a legend line
/// naming each letter's foreground, background and modifiers. Letters are given in order
/// of first appearance, so the same frame always reads the same, and a cell whose shading
/// changes shows up in a diff at its own row and column.
pub fn styles_text(buf: &Buffer) -> String {
    use ratatui::style::{Color, Modifier};
    const LETTERS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let area = buf.area;
    let mut seen: Vec<(Color, Color, Modifier)> = Vec::new();
    let mut grid = String::with_capacity(usize::from(area.width + 1) * usize::from(area.height));
    for y in area.top()..area.bottom() {
        for x in area.left()..area.right() {
            let cell = &buf[(x, y)];
            let key = (cell.fg, cell.bg, cell.modifier);
            if key == (Color::Reset, Color::Reset, Modifier::empty()) {
                grid.push(' ');
                continue;
            }
            let i = seen.iter().position(|k| *k == key).unwrap_or_else(|| {
                seen.push(key);
                seen.len() - 1
            });
            // Past 62 styles in one frame (never seen), letters repeat with a mark.
            grid.push(LETTERS.chars().nth(i % LETTERS.len()).unwrap_or('?'));
        }
        grid.push('\n');
    }
    let legend: Vec<String> = seen
        .iter()
        .enumerate()
        .map(|(i, (fg, bg, m))| {
            let mut parts = Vec::new();
            if *fg != Color::Reset {
                parts.push(format!("fg:{fg}"));
            }
            if *bg != Color::Reset {
                parts.push(format!("bg:{bg}"));
            }
            for (name, _) in m.iter_names() {
                parts.push(name.to_ascii_lowercase());
            }
            let letter = LETTERS.chars().nth(i % LETTERS.len()).unwrap_or('?');
            format!("{letter}={}", parts.join(","))
        })
        .collect();
    grid.push_str(&format!("styles: {}\n", legend.join(" ")));
    grid
}
