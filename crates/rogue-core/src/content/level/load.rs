//! Reading a level in either format (the text format or a Moving AI `.map`), told apart by
//! the Moving AI `type` header.

use std::path::Path;

use super::design::Design;
use super::{Format, Level, LoadError, ParseError, movingai, parse_text, read_level_file};

/// Whether bytes are a Moving AI map: they start with its `type` header.
fn is_movingai(bytes: &[u8]) -> bool {
    bytes
        .strip_prefix(crate::text::BOM)
        .unwrap_or(bytes)
        .starts_with(b"type ")
}

impl Design {
    /// Parses either format into a design: a text level keeps its file's text, a Moving AI
    /// map (which has no creatures) is written in the text format when saved.
    pub fn parse_any(bytes: &[u8], file: &str) -> Result<(Design, Format), ParseError> {
        if is_movingai(bytes) {
            movingai::parse(bytes, file).map(|l| (Design::new(l), Format::MovingAi))
        } else {
            Design::parse(bytes, file).map(|d| (d, Format::Text))
        }
    }
}

impl Level {
    /// Reads a level file of either format.
    pub fn load(path: &Path) -> Result<(Level, Format), LoadError> {
        Self::load_keeping_bytes(path).map(|(level, format, _)| (level, format))
    }

    /// Reads a level file and also returns its bytes (to notice later changes on disk).
    pub fn load_keeping_bytes(path: &Path) -> Result<(Level, Format, Vec<u8>), LoadError> {
        let bytes = read_level_file(path)?;
        let (level, format) = Self::parse_any(&bytes, &path.display().to_string())?;
        Ok((level, format, bytes))
    }

    /// Parses either format, telling them apart by the Moving AI `type` header.
    pub fn parse_any(bytes: &[u8], file: &str) -> Result<(Level, Format), ParseError> {
        if is_movingai(bytes) {
            movingai::parse(bytes, file).map(|l| (l, Format::MovingAi))
        } else {
            Self::parse(bytes, file).map(|l| (l, Format::Text))
        }
    }

    /// Parses the text format; `file` names the source in errors.
    pub fn parse(bytes: &[u8], file: &str) -> Result<Level, ParseError> {
        parse_text(bytes, file).map(|(level, _)| level)
    }

    /// Parses a Moving AI `.map` file.
    pub fn parse_movingai(bytes: &[u8], file: &str) -> Result<Level, ParseError> {
        movingai::parse(bytes, file)
    }
}
