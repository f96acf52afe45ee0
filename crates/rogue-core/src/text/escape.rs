//! Escaping the characters that could drive a terminal or disguise text, for showing text
//! that came from a file; apart from the rest of `text` so that its errors can use it too.

/// `s` with every control character (escape, bell, carriage return, C1 codes...) and every
/// bidirectional control (U+202E right-to-left override and its kin, which reorder what a
/// terminal shows) written as a visible escape such as `\u{1b}` or `\u{202e}`, so text from
/// a file can never drive the terminal it is shown on nor disguise itself. Newlines and tabs
/// are escaped too: callers print one line at a time.
pub fn escape_controls(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.chars().any(needs_escape) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if needs_escape(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Control characters and the bidirectional controls (the "Trojan Source" set: marks,
/// embeddings, overrides and isolates).
pub(super) fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}
