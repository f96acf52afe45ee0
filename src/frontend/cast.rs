//! Scripts as asciicast v2 files (asciinema's format, which terminal players and web pages
//! embed): a JSON header line, then one `[time, "o", text]` event per frame, the text the
//! escape sequences that turn the previous frame into this one. The frames are the ones
//! `script` draws, at a fixed pace per input and the game's own tick for travel and autoplay,
//! so a player ends on exactly the frame `script` prints last.

use std::io::Write;
use std::path::Path;

use ratatui::buffer::{Buffer, Cell};
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier};
use ratatui::widgets::Widget;
use serde::Serialize;

use super::script::{Action, Moment, Script};
use crate::app::{App, TICK_MS};

/// How long a cast shows each input's frame before the next input, in milliseconds, when
/// nothing else sets the pace: two inputs a second, slow enough to read a stepped search.
pub const INPUT_MS: u64 = 500;

/// The title of every cast this program makes starts with this: it tells them from files
/// someone else made, which `cast -o` never replaces.
pub const TITLE_MARK: &str = "astar-rogue: ";

/// The header line of an asciicast v2 file.
#[derive(Serialize)]
struct Header<'a> {
    version: u8,
    width: u16,
    height: u16,
    title: &'a str,
    env: Env,
}

/// The terminal the cast was drawn for.
#[derive(Serialize)]
struct Env {
    #[serde(rename = "TERM")]
    term: &'static str,
}

/// Writes the cast of `script` played on `app` (set up as `script` sets it up, in a terminal
/// of `size`) to `out`: the header, then a frame at 0 and one after every input and tick
/// that changed the screen, each input `input_ms` after the one before it and each tick
/// [`TICK_MS`] after its input or tick.
pub fn write(
    script: &Script,
    app: &mut App,
    size: (u16, u16),
    title: &str,
    input_ms: u64,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let header = Header {
        version: 2,
        width: size.0,
        height: size.1,
        title: &format!("{TITLE_MARK}{title}"),
        env: Env {
            term: "xterm-256color",
        },
    };
    serde_json::to_writer(&mut *out, &header).map_err(std::io::Error::from)?;
    out.write_all(b"\n")?;
    app.set_size(size);
    let mut screen = Screen::new(size);
    let mut clock = 0u64;
    // The terminal starts blank, the cursor hidden (the game never shows it).
    let first = format!("\x1b[?25l\x1b[0m\x1b[2J{}", screen.draw(app));
    event(out, clock, "o", &first)?;
    super::script::drive(script, app, |moment, app| {
        match moment {
            Moment::Acted(step) => match &step.action {
                Action::Snap(_) => return Ok(()),
                Action::Resize(w, h) => {
                    clock += input_ms;
                    event(out, clock, "r", &format!("{w}x{h}"))?;
                    screen = Screen::new((*w, *h));
                    let text = format!("\x1b[0m\x1b[2J{}", screen.draw(app));
                    return event(out, clock, "o", &text);
                }
                // A tick token is the game's own clock.
                Action::Tick => clock += u64::from(TICK_MS),
                _ => clock += input_ms,
            },
            Moment::Ticked => clock += u64::from(TICK_MS),
            Moment::Settled(_) => return Ok(()),
        }
        let text = screen.draw(app);
        if text.is_empty() {
            return Ok(());
        }
        event(out, clock, "o", &text)
    })?;
    out.flush()
}

/// The cast of the script at `path` run as `script` runs it with `options` (its level, size
/// and seed), each input shown `input_ms` before the next, made in memory.
pub fn render(
    path: &Path,
    options: &super::script::RunOptions,
    input_ms: u64,
) -> Result<Vec<u8>, super::script::ScriptError> {
    let script = super::script::load(path)?;
    let size = options.size.or(script.header.size).unwrap_or((80, 24));
    let mut app = super::script::start_app(&script, options)?;
    let title = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let mut out = Vec::new();
    write(&script, &mut app, size, &title, input_ms, &mut out)?;
    Ok(out)
}

/// One event line: `[1.500, "o", "..."]`, the time in seconds to the millisecond.
fn event(out: &mut dyn Write, ms: u64, kind: &str, text: &str) -> std::io::Result<()> {
    write!(out, "[{}.{:03}, \"{kind}\", ", ms / 1000, ms % 1000)?;
    serde_json::to_writer(&mut *out, text).map_err(std::io::Error::from)?;
    out.write_all(b"]\n")
}

/// The screen a player shows, as far as the cast has drawn it.
struct Screen {
    shown: Buffer,
}

impl Screen {
    /// A blank screen of `size`.
    fn new(size: (u16, u16)) -> Self {
        Self {
            shown: Buffer::empty(Rect::new(0, 0, size.0, size.1)),
        }
    }

    /// Draws the app's frame and returns what turns the screen shown into it: the changed
    /// cells, each run of them after a cursor move, each style change as one SGR sequence.
    fn draw(&mut self, app: &App) -> String {
        let mut next = Buffer::empty(self.shown.area);
        app.render(next.area, &mut next);
        let mut text = String::new();
        let mut at: Option<(u16, u16)> = None;
        let mut style: Option<(Color, Color, Modifier)> = None;
        for (x, y, cell) in self.shown.diff(&next) {
            if at != Some((x, y)) {
                text.push_str(&format!("\x1b[{};{}H", y + 1, x + 1));
            }
            let key = (cell.fg, cell.bg, cell.modifier);
            if style != Some(key) {
                text.push_str(&sgr(cell));
                style = Some(key);
            }
            text.push_str(cell.symbol());
            let width = unicode_width(cell.symbol());
            at = Some((x + width, y));
        }
        if !text.is_empty() {
            text.push_str("\x1b[0m");
        }
        self.shown = next;
        text
    }
}

/// Columns a cell's symbol takes: the game draws none wider than one, but a level's title
/// may hold any character, which the buffer keeps in as many cells as it takes.
fn unicode_width(symbol: &str) -> u16 {
    ratatui::text::Span::raw(symbol).width().max(1) as u16
}

/// The SGR sequence that sets a cell's style from scratch.
fn sgr(cell: &Cell) -> String {
    let mut codes = vec!["0".to_string()];
    let m = cell.modifier;
    for (flag, code) in [
        (Modifier::BOLD, "1"),
        (Modifier::DIM, "2"),
        (Modifier::ITALIC, "3"),
        (Modifier::UNDERLINED, "4"),
        (Modifier::SLOW_BLINK, "5"),
        (Modifier::RAPID_BLINK, "6"),
        (Modifier::REVERSED, "7"),
        (Modifier::HIDDEN, "8"),
        (Modifier::CROSSED_OUT, "9"),
    ] {
        if m.contains(flag) {
            codes.push(code.into());
        }
    }
    if let Some(c) = color(cell.fg, false) {
        codes.push(c);
    }
    if let Some(c) = color(cell.bg, true) {
        codes.push(c);
    }
    format!("\x1b[{}m", codes.join(";"))
}

/// A colour's SGR parameters, foreground or background; `None` for the default.
fn color(c: Color, bg: bool) -> Option<String> {
    let base = |n: u8| Some(if bg { n + 10 } else { n }.to_string());
    match c {
        Color::Reset => None,
        Color::Black => base(30),
        Color::Red => base(31),
        Color::Green => base(32),
        Color::Yellow => base(33),
        Color::Blue => base(34),
        Color::Magenta => base(35),
        Color::Cyan => base(36),
        Color::Gray => base(37),
        Color::DarkGray => base(90),
        Color::LightRed => base(91),
        Color::LightGreen => base(92),
        Color::LightYellow => base(93),
        Color::LightBlue => base(94),
        Color::LightMagenta => base(95),
        Color::LightCyan => base(96),
        Color::White => base(97),
        Color::Indexed(i) => Some(format!("{};5;{i}", if bg { 48 } else { 38 })),
        Color::Rgb(r, g, b) => Some(format!("{};2;{r};{g};{b}", if bg { 48 } else { 38 })),
    }
}

/// Whether the regular file `path` is a cast this program made: its first line is an
/// asciicast v2 header whose title starts with [`TITLE_MARK`]. Read without blocking (a
/// FIFO is not a cast) and no further than the first line's first 64 KiB.
pub fn is_ours(path: &Path) -> bool {
    use std::io::BufRead;
    let Some(file) = crate::text::open_start(path, 64 * 1024) else {
        return false;
    };
    let mut line = Vec::new();
    if std::io::BufReader::new(file)
        .read_until(b'\n', &mut line)
        .is_err()
    {
        return false;
    }
    let Ok(header) = serde_json::from_slice::<serde_json::Value>(&line) else {
        return false;
    };
    header["version"] == 2
        && header["title"]
            .as_str()
            .is_some_and(|t| t.starts_with(TITLE_MARK))
}

/// Writes a cast to `path` atomically: a new file is created whole or not at all, and a file
/// already there is replaced only when it is a cast this program made ([`is_ours`]) and a
/// regular file (through links to one); anything else is refused and left as it was.
pub fn save(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => crate::app::write_new(path, bytes),
        Err(e) => Err(e),
        Ok(meta) if meta.is_file() || meta.file_type().is_symlink() => {
            // A link to nothing, or to a folder or device, is refused by the atomic write
            // itself; a regular file must be ours.
            if std::fs::metadata(path).is_ok_and(|m| m.is_file()) && !is_ours(path) {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::AlreadyExists,
                    "it exists and is not a cast astar-rogue made; nothing was written",
                ));
            }
            crate::app::write_atomic(path, bytes)
        }
        Ok(meta) => Err(std::io::Error::other(format!(
            "it is {}, not a regular file; nothing was written",
            crate::text::file_kind(&meta)
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn styles_are_set_from_scratch() {
        let mut cell = Cell::default();
        cell.set_symbol("x");
        assert_eq!(sgr(&cell), "\x1b[0m");
        cell.set_fg(Color::White)
            .set_bg(Color::Indexed(24))
            .modifier = Modifier::BOLD | Modifier::REVERSED;
        assert_eq!(sgr(&cell), "\x1b[0;1;7;97;48;5;24m");
        assert_eq!(
            color(Color::Rgb(1, 2, 3), false).as_deref(),
            Some("38;2;1;2;3")
        );
        assert_eq!(color(Color::DarkGray, true).as_deref(), Some("100"));
    }
}
