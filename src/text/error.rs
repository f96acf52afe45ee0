//! Errors of level loading, printed as `FILE:LINE:COL: message` with the line and a caret.

use std::fmt;

/// A syntax or limit error at a place in a file.
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
    /// The offending line's text.
    pub text: String,
}

/// How much of a long line is shown on each side of the caret.
const CONTEXT: usize = 60;

impl ParseError {
    /// An error at `file:line:col`.
    pub fn new(file: String, line: usize, col: usize, message: String, text: String) -> Self {
        Self {
            file,
            line,
            col,
            message,
            text,
        }
    }

    /// Just `FILE:LINE:COL: message`, without the excerpt.
    pub fn headline(&self) -> String {
        format!("{}:{}:{}: {}", self.file, self.line, self.col, self.message)
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.headline())?;
        let chars: Vec<char> = self
            .text
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        // Long lines are cut to a window around the column so the caret stays on screen.
        let at = self.col.saturating_sub(1);
        let from = at.saturating_sub(CONTEXT);
        let to = (at + CONTEXT).min(chars.len());
        let mut shown: String = chars[from.min(to)..to].iter().collect();
        let mut caret = at - from;
        if from > 0 {
            shown.insert(0, '…');
            caret += 1;
        }
        if to < chars.len() {
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
