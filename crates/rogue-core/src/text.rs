//! Reading text input: files read within a size limit, lines checked as UTF-8, sizes like
//! `40x20`, and errors that point at a line and column. Level files, scripts and scenario
//! files all read through here.

mod error;
mod escape;

pub use error::{CONTEXT, LoadError, ParseError};
pub use escape::escape_controls;
use escape::needs_escape;

use std::path::Path;

/// Words joined as prose: `a`, `a and b`, `a, b and c`.
pub fn and_list(words: &[String]) -> String {
    match words {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Reads a whole regular file of at most `limit` bytes.
///
/// Anything else is refused without blocking and without reading past the limit: a
/// directory, a FIFO or a device (opened non-blocking, so a FIFO with no writer cannot
/// hang the caller), or a file longer than `limit`, which is reported as an error at its
/// line 1, column 1 naming `what` ("level file", "script").
pub fn read_limited(path: &Path, limit: u64, what: &str) -> Result<Vec<u8>, LoadError> {
    use std::io::Read;
    let file_name = path.display().to_string();
    let io = |e: std::io::Error| LoadError::Io {
        file: file_name.clone(),
        message: e.to_string(),
    };
    let file = open_nonblocking(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(LoadError::Io {
            file: file_name.clone(),
            message: format!("is {}, not a {what}", file_kind(&meta)),
        });
    }
    let too_large = || {
        LoadError::Parse(ParseError::new(
            file_name.clone(),
            1,
            1,
            format!("{what} is larger than the limit of {}", format_bytes(limit)),
            "",
        ))
    };
    // A file that says it is too large is refused before a byte is read (a 2 GB sparse
    // file costs nothing); one that grows while it is read still stops at the limit.
    if meta.len() > limit {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > limit {
        return Err(too_large());
    }
    Ok(bytes)
}

/// Opens a file for reading without waiting for a writer (FIFOs) or a device.
fn open_nonblocking(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

/// The regular file at `path`, opened for reading at most its first `limit` bytes; `None`
/// for anything else (missing, a folder, a FIFO, a device), found without blocking. For a
/// glance at a file's start: whether a file about to be replaced is one of the program's own.
pub fn open_start(path: &Path, limit: u64) -> Option<std::io::Take<std::fs::File>> {
    use std::io::Read;
    let file = open_nonblocking(path).ok()?;
    file.metadata()
        .is_ok_and(|m| m.is_file())
        .then(|| file.take(limit))
}

/// "a directory", "a FIFO", "a device"...: what a non-regular file is, for messages.
pub fn file_kind(meta: &std::fs::Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        return "a directory";
    }
    if t.is_symlink() {
        return "a symbolic link";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_block_device() || t.is_char_device() {
            return "a device";
        }
    }
    if t.is_file() {
        "a regular file"
    } else {
        "not a regular file"
    }
}

/// `64 MiB`, `16 MiB`, `512 KiB` or `100 bytes`.
fn format_bytes(n: u64) -> String {
    const MIB: u64 = 1024 * 1024;
    if n >= MIB && n.is_multiple_of(MIB) {
        format!("{} MiB", n / MIB)
    } else if n >= 1024 && n.is_multiple_of(1024) {
        format!("{} KiB", n / 1024)
    } else {
        format!("{n} bytes")
    }
}

/// The UTF-8 byte-order mark some editors put at the start of a file; readers skip it.
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Splits bytes into numbered lines (`\n`, with an optional `\r` before it), each checked
/// as UTF-8; an invalid line is an error at its first bad character. A byte-order mark at
/// the start is skipped.
pub fn lines<'a>(
    bytes: &'a [u8],
    file: &'a str,
) -> impl Iterator<Item = Result<(usize, &'a str), ParseError>> + 'a {
    let bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
    let mut rest = if bytes.is_empty() { None } else { Some(bytes) };
    let mut number = 0usize;
    std::iter::from_fn(move || {
        let chunk = rest?;
        number += 1;
        let (line, next) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], (i + 1 < chunk.len()).then(|| &chunk[i + 1..])),
            None => (chunk, None),
        };
        rest = next;
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        Some(match std::str::from_utf8(line) {
            Ok(s) => Ok((number, s)),
            Err(e) => {
                let valid = std::str::from_utf8(&line[..e.valid_up_to()]).unwrap_or("");
                let col = valid.chars().count() + 1;
                // Only the window the error shows is decoded: the line may be 60 MB.
                let before = valid
                    .char_indices()
                    .rev()
                    .nth(error::CONTEXT - 1)
                    .map_or(0, |(i, _)| i);
                let after = (e.valid_up_to() + 4 * error::CONTEXT).min(line.len());
                let part = String::from_utf8_lossy(&line[before..after]);
                Err(ParseError::in_part(
                    file.to_string(),
                    number,
                    col,
                    "invalid UTF-8".into(),
                    &part,
                    col - valid[before..].chars().count(),
                    after < line.len(),
                ))
            }
        })
    })
}

/// A path for messages, whole, with its control characters escaped (see
/// [`escape_controls`]): a name can hold anything.
pub fn shown_path(path: &Path) -> String {
    escape_controls(&path.display().to_string()).into_owned()
}

/// A path's file name for messages (never a full path, so frames stay reproducible), its
/// control characters escaped; `""` for a path with no file name.
pub fn shown_file_name(path: &Path) -> String {
    path.file_name().map_or_else(String::new, |n| {
        escape_controls(&n.to_string_lossy()).into_owned()
    })
}

/// Why a quoted path (see [`unquote_path`]) cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QuotedPathError {
    /// The quote is never closed.
    #[error("the quoted path has no closing quote")]
    Unclosed,
    /// `\x` is not followed by two hex digits (the text after it, up to two characters).
    #[error("bad byte escape \\x{0} in the quoted path")]
    ByteEscape(String),
    /// `\u` is not followed by `{..}` holding a character's code.
    #[error("bad \\u{{..}} escape in the quoted path")]
    CharEscape,
    /// A backslash before a character that is no escape (or before the end).
    #[error(
        "bad escape \\{} in the quoted path (use \\\\, \\\", \\u{{..}} or \\xNN)",
        .0.map_or_else(String::new, String::from)
    )]
    Escape(Option<char>),
    /// Something follows the closing quote.
    #[error("text after the closing quote of the path")]
    TextAfter,
}

/// A path as a script header writes it, so that [`unquote_path`] reads back exactly the same
/// path: as it is when it reads back plainly, else in double quotes with `\\`, `\"`,
/// `\u{..}` for control and bidirectional characters and `\xNN` for bytes that are not
/// UTF-8 (a name may start with a space or hold a newline).
pub fn quote_path(path: &Path) -> String {
    let bytes = path.as_os_str().as_encoded_bytes();
    let plain = std::str::from_utf8(bytes).ok().filter(|s| {
        !s.is_empty()
            && s.trim() == *s
            && !s.starts_with('"')
            && !s.chars().any(|c| needs_escape(c) || c == '\u{feff}')
    });
    if let Some(s) = plain {
        return s.to_string();
    }
    let mut out = String::from("\"");
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\\' => out.push_str("\\\\"),
                '"' => out.push_str("\\\""),
                c if needs_escape(c) || c == '\u{feff}' => out.extend(c.escape_unicode()),
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out.push('"');
    out
}

/// Reads a path written by [`quote_path`]: a plain value as it is (surrounding whitespace
/// dropped), a quoted one with its escapes undone. The error says what is wrong.
pub fn unquote_path(value: &str) -> Result<std::path::PathBuf, QuotedPathError> {
    let value = value.trim();
    let Some(body) = value.strip_prefix('"') else {
        return Ok(std::path::PathBuf::from(value));
    };
    let mut bytes = Vec::with_capacity(body.len());
    let mut chars = body.chars();
    loop {
        match chars.next() {
            None => return Err(QuotedPathError::Unclosed),
            Some('"') => break,
            Some('\\') => match chars.next() {
                Some('\\') => bytes.push(b'\\'),
                Some('"') => bytes.push(b'"'),
                Some('x') => {
                    let hex: String = chars.by_ref().take(2).collect();
                    let b = (hex.len() == 2)
                        .then(|| u8::from_str_radix(&hex, 16).ok())
                        .flatten()
                        .ok_or(QuotedPathError::ByteEscape(hex))?;
                    bytes.push(b);
                }
                Some('u') => {
                    let rest = chars.as_str();
                    let c = rest
                        .strip_prefix('{')
                        .and_then(|r| r.split_once('}'))
                        .filter(|(hex, _)| (1..=6).contains(&hex.len()))
                        .and_then(|(hex, _)| u32::from_str_radix(hex, 16).ok())
                        .and_then(char::from_u32)
                        .ok_or(QuotedPathError::CharEscape)?;
                    let used = rest.find('}').map_or(0, |i| i + 1);
                    chars = rest[used..].chars();
                    bytes.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                }
                other => return Err(QuotedPathError::Escape(other)),
            },
            Some(c) => bytes.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
        }
    }
    if !chars.as_str().trim().is_empty() {
        return Err(QuotedPathError::TextAfter);
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        Ok(std::ffi::OsString::from_vec(bytes).into())
    }
    #[cfg(not(unix))]
    {
        Ok(String::from_utf8_lossy(&bytes).into_owned().into())
    }
}

/// Parses `WxH` (as in `40x20`): two decimal numbers of at most nine digits.
pub fn parse_size(s: &str) -> Option<(usize, usize)> {
    let (w, h) = s.trim().split_once(['x', 'X'])?;
    let dim = |d: &str| {
        (!d.is_empty() && d.len() <= 9 && d.bytes().all(|b| b.is_ascii_digit()))
            .then(|| d.parse().ok())
            .flatten()
    };
    Some((dim(w)?, dim(h)?))
}

/// Splits text into lines of at most `width` characters, at spaces where possible.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    wrap_lines(text, width).map(str::to_string).collect()
}

/// The lines [`wrap`] makes, one at a time and borrowed from `text`: each costs the
/// characters it shows (and the spaces skipped before it), so taking the first few lines of
/// a long text never looks at the rest. A word longer than a line is cut into pieces of
/// `width` characters; spaces that would start a line after a break are dropped.
pub fn wrap_lines(text: &str, width: usize) -> WrapLines<'_> {
    WrapLines {
        text,
        width: width.max(1),
        next_word: Some(0),
        line: (0, 0),
        line_chars: 0,
        done: false,
    }
}

/// Iterator of [`wrap_lines`].
#[derive(Debug, Clone)]
pub struct WrapLines<'a> {
    text: &'a str,
    width: usize,
    /// Where the next word starts; `None` once every word is on a line.
    next_word: Option<usize>,
    /// The line being filled, as a byte range of `text` (its words and the single spaces
    /// between them are contiguous in `text`).
    line: (usize, usize),
    line_chars: usize,
    done: bool,
}

impl<'a> WrapLines<'a> {
    /// The word at `at`: its end, whether a space follows it, and its length in characters
    /// when that is at most `limit` (`None`: longer, and then the end is where `limit`
    /// characters end). Looks at no more than `limit + 1` characters.
    fn word(&self, at: usize, limit: usize) -> (usize, bool, Option<usize>) {
        let mut chars = 0;
        for (i, c) in self.text[at..].char_indices() {
            if c == ' ' {
                return (at + i, true, Some(chars));
            }
            if chars == limit {
                return (at + i, false, None);
            }
            chars += 1;
        }
        (self.text.len(), false, Some(chars))
    }

    fn take_line(&mut self) -> &'a str {
        let (a, b) = self.line;
        self.line = (b, b);
        self.line_chars = 0;
        &self.text[a..b]
    }
}

impl<'a> Iterator for WrapLines<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        loop {
            let Some(at) = self.next_word else {
                if self.done {
                    return None;
                }
                self.done = true;
                return Some(self.take_line());
            };
            let after = |end: usize, space: bool| space.then_some(end + 1);
            if self.line_chars == 0 {
                // The word starts the line; a word longer than the line gives up a piece.
                match self.word(at, self.width) {
                    (end, space, Some(chars)) => {
                        self.line = (at, end);
                        self.line_chars = chars;
                        self.next_word = after(end, space);
                    }
                    (cut, _, None) => {
                        self.next_word = Some(cut);
                        self.line = (at, cut);
                        return Some(self.take_line());
                    }
                }
            } else {
                // The word joins the line after one space if it fits, else the line is done.
                let room = self.width.saturating_sub(self.line_chars + 1);
                let fits = self.line_chars < self.width;
                match self.word(at, room) {
                    (end, space, Some(chars)) if fits => {
                        self.line.1 = end;
                        self.line_chars += 1 + chars;
                        self.next_word = after(end, space);
                    }
                    _ => return Some(self.take_line()),
                }
            }
        }
    }
}

/// The first `max` lines of [`wrap`]; when the text goes on past them, the last one ends
/// with `…` (in place of its last character when it is full), so a cut is never silent.
/// Costs what the lines show.
pub fn wrap_cut(text: &str, width: usize, max: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines: Vec<String> = wrap_lines(text, width)
        .take(max.saturating_add(1))
        .map(str::to_string)
        .collect();
    if lines.len() > max {
        lines.truncate(max);
        if let Some(last) = lines.last_mut() {
            if last.chars().count() >= width {
                last.pop();
            }
            last.push('…');
        }
    }
    lines
}

/// `text` cut to at most `width` characters for a frame's title: whole when it fits, else
/// whole words and `…`. A label whose value is cut away goes with it (`seed` without its
/// number), so a number is never shown in part: a copied seed is right or absent. Only a
/// first word longer than the room is cut inside, and then the `…` says so.
pub fn fit_title(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    // A frame's title is padded with spaces; the last one may go alone.
    if let Some(t) = text.strip_suffix(' ')
        && t.chars().count() <= width
    {
        return t.to_string();
    }
    if width == 0 {
        return String::new();
    }
    let words: Vec<&str> = text.split(' ').collect();
    let mut kept = 0;
    let mut chars = 0;
    for (i, w) in words.iter().enumerate() {
        let n = w.chars().count() + usize::from(i > 0);
        // The room left for the mark.
        if chars + n + 1 > width {
            break;
        }
        chars += n;
        kept = i + 1;
    }
    // A label before a dropped number goes too.
    let is_value = |w: &str| !w.is_empty() && w.chars().all(|c| c.is_ascii_digit());
    let is_label = |w: &str| !w.is_empty() && w.chars().all(char::is_alphabetic);
    if kept > 1 && kept < words.len() && is_value(words[kept]) && is_label(words[kept - 1]) {
        kept -= 1;
    }
    let head = words[..kept].join(" ");
    let head = head.trim_end_matches([' ', ',', ';']);
    if head.is_empty() {
        let mut cut: String = text.chars().take(width - 1).collect();
        cut.push('…');
        return cut;
    }
    format!("{head}…")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_title_too_wide_loses_whole_words_and_says_so() {
        let t = "Depth 3 of 3: caves 52x22 seed 404872759832441700";
        assert_eq!(fit_title(t, 60), t);
        assert_eq!(fit_title(t, t.chars().count()), t);
        // One column short: the seed goes whole, its label with it.
        assert_eq!(fit_title(t, 48), "Depth 3 of 3: caves 52x22…");
        assert_eq!(fit_title(t, 26), "Depth 3 of 3: caves 52x22…");
        assert_eq!(fit_title(t, 25), "Depth 3 of 3: caves…");
        assert_eq!(fit_title("Crowdedcorridor", 8), "Crowded…");
        assert_eq!(fit_title("Crowd", 0), "");
        assert_eq!(
            fit_title(" inspector 6,5 · F = G + H ", 26),
            " inspector 6,5 · F = G + H"
        );
        for w in 0..60 {
            let fit = fit_title(t, w);
            assert!(fit.chars().count() <= w, "{fit:?} wider than {w}");
            // Never a part of the seed.
            assert!(!fit.contains("4048") || fit.contains("404872759832441700"));
        }
    }

    #[test]
    fn control_characters_are_escaped_and_the_rest_kept() {
        assert_eq!(
            escape_controls("title \x1b]0;PWNED\x07\x1b[2J é\u{9b}"),
            "title \\u{1b}]0;PWNED\\u{7}\\u{1b}[2J é\\u{9b}"
        );
        assert!(matches!(
            escape_controls("plain"),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    #[test]
    fn paths_and_file_names_are_shown_escaped() {
        let p = Path::new("/levels/a\x1b[2J/cr\u{202e}ypt.txt");
        assert_eq!(shown_path(p), "/levels/a\\u{1b}[2J/cr\\u{202e}ypt.txt");
        assert_eq!(shown_file_name(p), "cr\\u{202e}ypt.txt");
        assert_eq!(shown_file_name(Path::new("/")), "");
    }

    #[test]
    fn bidirectional_controls_are_escaped() {
        assert_eq!(
            escape_controls("abc\u{202e}txt.exe \u{2066}x\u{2069} \u{200f}"),
            "abc\\u{202e}txt.exe \\u{2066}x\\u{2069} \\u{200f}"
        );
        assert!(matches!(
            escape_controls("é ß 中 ←"),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    #[test]
    fn quoted_paths_read_back_exactly() {
        use std::path::PathBuf;
        #[cfg(unix)]
        let odd = {
            use std::os::unix::ffi::OsStringExt;
            PathBuf::from(std::ffi::OsString::from_vec(b"bad\xff\xfe.txt".to_vec()))
        };
        #[cfg(not(unix))]
        let odd = PathBuf::from("odd.txt");
        for p in [
            PathBuf::from("plain.txt"),
            PathBuf::from("dir/with space.txt"),
            PathBuf::from(" lead.txt"),
            PathBuf::from("trail.txt "),
            PathBuf::from("new\nline.txt"),
            PathBuf::from("\"quoted\".txt"),
            PathBuf::from("back\\slash \" \u{202e}\u{1b}[2J.txt"),
            PathBuf::from("\u{feff}bom.txt"),
            PathBuf::from("é中.txt"),
            odd,
        ] {
            let q = quote_path(&p);
            assert!(!q.contains(['\n', '\r', '\u{1b}', '\u{202e}']), "{q:?}");
            assert_eq!(q.trim(), q, "{q:?}");
            assert_eq!(unquote_path(&q).as_ref(), Ok(&p), "{q:?}");
        }
        assert_eq!(quote_path(std::path::Path::new("a b.txt")), "a b.txt");
        assert_eq!(quote_path(std::path::Path::new(" a")), "\" a\"");
        assert!(unquote_path("\"open").is_err());
        assert!(unquote_path("\"a\\q\"").is_err());
        assert!(unquote_path("\"a\" b").is_err());
    }

    #[test]
    fn a_quoted_path_that_does_not_read_says_why_in_its_words() {
        let (esc, tail) = (
            QuotedPathError::Escape,
            "in the quoted path (use \\\\, \\\", \\u{..} or \\xNN)",
        );
        for (text, error, words) in [
            (
                r#""open"#,
                QuotedPathError::Unclosed,
                "the quoted path has no closing quote".to_string(),
            ),
            (r#""a\q""#, esc(Some('q')), format!(r"bad escape \q {tail}")),
            (r#""a\"#, esc(None), format!(r"bad escape \ {tail}")),
            (
                r#""\xZZ""#,
                QuotedPathError::ByteEscape("ZZ".into()),
                r"bad byte escape \xZZ in the quoted path".into(),
            ),
            (
                r#""\u{zz}""#,
                QuotedPathError::CharEscape,
                r"bad \u{..} escape in the quoted path".into(),
            ),
            (
                r#""a" b"#,
                QuotedPathError::TextAfter,
                "text after the closing quote of the path".into(),
            ),
        ] {
            let e = unquote_path(text).expect_err(text);
            assert_eq!(e, error, "{text}");
            assert_eq!(e.to_string(), words, "{text}");
        }
    }

    #[test]
    fn bad_utf8_in_a_long_line_is_reported_in_a_window() {
        let mut line = vec![b'.'; 100_000];
        line[70_000] = 0xff;
        let e = lines(&line, "f").next().unwrap().unwrap_err();
        assert_eq!((e.line, e.col), (1, 70_001));
        assert_eq!(e.text_col, 70_001 - CONTEXT);
        assert_eq!(e.text.chars().count(), 2 * CONTEXT);
        assert_eq!(e.text.chars().nth(CONTEXT), Some('\u{fffd}'));
        assert!(e.text_cut);
    }

    /// The wrapping as it was first written (quadratic on long words): the reference the
    /// lazy one must match line for line.
    fn wrap_reference(text: &str, width: usize) -> Vec<String> {
        let mut out = Vec::new();
        let mut line = String::new();
        for word in text.split(' ') {
            let needed =
                line.chars().count() + usize::from(!line.is_empty()) + word.chars().count();
            if needed > width && !line.is_empty() {
                out.push(std::mem::take(&mut line));
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
            while line.chars().count() > width {
                let head: String = line.chars().take(width).collect();
                line = line.chars().skip(width).collect();
                out.push(head);
            }
        }
        out.push(line);
        out
    }

    proptest::proptest! {
        #[test]
        fn wrap_matches_the_reference(text in "[ ab\u{e9}\u{4e2d}]{0,40}", width in 1usize..12) {
            proptest::prop_assert_eq!(wrap(&text, width), wrap_reference(&text, width));
        }
    }

    #[test]
    fn wrap_cut_marks_a_cut_and_only_a_cut() {
        assert_eq!(wrap_cut("aaaa bbbb cccc", 4, 2), ["aaaa", "bbb…"]);
        assert_eq!(wrap_cut("aa bb cc", 5, 1), ["aa b…"]);
        assert_eq!(wrap_cut("aa bb cc", 5, 2), ["aa bb", "cc"]);
        assert_eq!(wrap_cut("aa bb cc", 5, 9), ["aa bb", "cc"]);
        assert!(wrap_cut("aa bb cc", 5, 0).is_empty());
    }

    #[test]
    fn the_first_lines_of_a_huge_word_cost_only_what_they_show() {
        // 4 MB without a space: the old wrapping took minutes for this.
        let huge = "x".repeat(4 << 20);
        let began = std::time::Instant::now();
        for _ in 0..1000 {
            let lines = wrap_cut(&huge, 40, 10);
            assert_eq!(lines.len(), 10);
            assert!(lines[9].ends_with('…'));
        }
        assert!(
            began.elapsed() < std::time::Duration::from_secs(2),
            "{:?}",
            began.elapsed()
        );
        assert_eq!(wrap(&"y".repeat(100_000), 7).len(), 14_286);
    }

    #[test]
    fn wrap_breaks_at_spaces_and_splits_long_words() {
        assert_eq!(wrap("a bb ccc dddd", 6), ["a bb", "ccc", "dddd"]);
        assert_eq!(wrap("abcdefgh", 3), ["abc", "def", "gh"]);
        assert_eq!(wrap("", 5), [""]);
    }
}
