//! Errors of level loading, printed as `FILE:LINE:COL: message` with the line and a caret.

use std::fmt;

/// A syntax or limit error at a place in a file.
///
/// It keeps only a window of the offending line around the column, never the whole line: a
/// 60 MB line must not take hundreds of megabytes to report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// The file's name as given.
    pub file: String,
    /// Line number, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub col: usize,
    /// What is wrong.
    pub message: String,
    /// The offending line's text around the column: at most [`CONTEXT`] characters on each
    /// side of it (the whole line when it is short).
    pub text: String,
    /// The column, from 1, of the line at which `text` starts.
    pub text_col: usize,
    /// Whether the line goes on past the end of `text`.
    pub text_cut: bool,
}

/// How much of a long line is kept (and shown) on each side of the caret.
pub const CONTEXT: usize = 60;

impl ParseError {
    /// An error at `file:line:col` in the line `text` (of which only a window is kept).
    pub fn new(
        file: String,
        line: usize,
        col: usize,
        message: String,
        text: impl AsRef<str>,
    ) -> Self {
        Self::in_part(file, line, col, message, text.as_ref(), 1, false)
    }

    /// An error at `file:line:col`, given only `part` of the line: the characters from
    /// column `part_col` on, with `more` telling whether the line goes on past `part`.
    pub fn in_part(
        file: String,
        line: usize,
        col: usize,
        message: String,
        part: &str,
        part_col: usize,
        more: bool,
    ) -> Self {
        let at = col.saturating_sub(part_col.max(1));
        let from = at.saturating_sub(CONTEXT);
        let len = at + CONTEXT - from;
        let byte = |chars: usize| {
            part.char_indices()
                .nth(chars)
                .map_or(part.len(), |(i, _)| i)
        };
        let start = byte(from);
        let rest = &part[start..];
        let end = rest.char_indices().nth(len).map_or(rest.len(), |(i, _)| i);
        Self {
            file,
            line,
            col,
            message,
            text: rest[..end].to_string(),
            text_col: part_col.max(1) + part[..start].chars().count(),
            text_cut: more || end < rest.len(),
        }
    }

    /// Just `FILE:LINE:COL: message`, without the excerpt, control characters escaped.
    pub fn headline(&self) -> String {
        let line = format!("{}:{}:{}: {}", self.file, self.line, self.col, self.message);
        super::escape::escape_controls(&line).into_owned()
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.headline())?;
        let mut shown: String = self
            .text
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        let mut caret = self.col.saturating_sub(self.text_col);
        if self.text_col > 1 {
            shown.insert(0, '…');
            caret += 1;
        }
        if self.text_cut {
            shown.push('…');
        }
        let num = self.line.to_string();
        let pad = " ".repeat(num.len());
        writeln!(f, "{pad} |")?;
        writeln!(f, "{num} | {shown}")?;
        write!(f, "{pad} | {}^", " ".repeat(caret))
    }
}

impl std::error::Error for ParseError {}

/// Why a level could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("{file}: {message}")]
    Io {
        /// The file's name as given.
        file: String,
        /// The system's reason.
        message: String,
    },
    /// The file's content is wrong.
    #[error("{0}")]
    Parse(#[from] ParseError),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_line_keeps_only_a_window_around_the_column() {
        let line = format!("{}X{}", "a".repeat(1000), "b".repeat(1000));
        let e = ParseError::new("f".into(), 3, 1001, "bad".into(), &line);
        assert_eq!(e.text_col, 1001 - CONTEXT);
        assert_eq!(e.text, format!("{}X{}", "a".repeat(60), "b".repeat(59)));
        assert!(e.text_cut);
        let shown = e.to_string();
        let lines: Vec<&str> = shown.lines().collect();
        assert_eq!(
            lines[2],
            format!("3 | …{}X{}…", "a".repeat(60), "b".repeat(59))
        );
        let column = |s: &str, c: char| s.chars().position(|x| x == c);
        assert_eq!(column(lines[3], '^'), column(lines[2], 'X'));
    }

    #[test]
    fn a_short_line_is_kept_whole() {
        let e = ParseError::new("f".into(), 1, 3, "bad".into(), "..X.");
        assert_eq!(
            (e.text.as_str(), e.text_col, e.text_cut),
            ("..X.", 1, false)
        );
        assert_eq!(e.to_string(), "f:1:3: bad\n  |\n1 | ..X.\n  |   ^");
    }

    #[test]
    fn a_part_of_a_line_counts_from_its_own_column() {
        let e = ParseError::in_part("f".into(), 1, 205, "bad".into(), "xyz", 200, true);
        assert_eq!(
            (e.text.as_str(), e.text_col, e.text_cut),
            ("xyz", 200, true)
        );
    }
}
