//! The plain front end's output: lines of at most [`WIDTH`] characters, short enough to be
//! read whole, with every control character from level text or file names written as a
//! visible escape, so that nothing written can drive a terminal or a speech synthesizer.

use std::io::{self, Write};

/// The longest line written.
pub const WIDTH: usize = 120;

/// Writes lines to the plain front end's output.
pub struct Lines<'w> {
    out: &'w mut dyn Write,
    /// Lines written since the count was last taken, to know whether a command said
    /// anything.
    written: usize,
}

impl<'w> Lines<'w> {
    /// Lines onto `out`.
    pub fn new(out: &'w mut dyn Write) -> Self {
        Self { out, written: 0 }
    }

    /// Writes `text`: each of its lines escaped, then wrapped at [`WIDTH`] between words.
    pub fn say(&mut self, text: &str) -> io::Result<()> {
        for line in text.split('\n') {
            let line = crate::text::escape_controls(line);
            if line.chars().count() <= WIDTH {
                // Whole, its indent kept (wrapping drops the spaces a line starts with).
                writeln!(self.out, "{}", line.trim_end())?;
                self.written += 1;
                continue;
            }
            for part in crate::text::wrap_lines(&line, WIDTH) {
                writeln!(self.out, "{}", part.trim_end())?;
                self.written += 1;
            }
        }
        Ok(())
    }

    /// Writes each of `lines` as [`Lines::say`] does.
    pub fn say_all<S: AsRef<str>>(&mut self, lines: &[S]) -> io::Result<()> {
        lines.iter().try_for_each(|l| self.say(l.as_ref()))
    }

    /// Hands what was written to the reader: a screen reader speaks a command's answer
    /// as soon as it is whole.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// How many lines were written since the last call.
    pub fn take_count(&mut self) -> usize {
        std::mem::take(&mut self.written)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(text: &str) -> String {
        let mut out = Vec::new();
        Lines::new(&mut out).say(text).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn lines_are_escaped_and_never_longer_than_the_width() {
        assert_eq!(said("a\x1b[31mred"), "a\\u{1b}[31mred\n");
        assert_eq!(said("two\nlines"), "two\nlines\n");
        assert_eq!(said("  #  .#"), "  #  .#\n");
        let long = "word ".repeat(60) + &"x".repeat(300);
        let out = said(&long);
        assert!(out.lines().all(|l| l.chars().count() <= WIDTH), "{out}");
        assert_eq!(out.replace('\n', " ").split_whitespace().count(), 60 + 3);
    }
}
