//! Level files: the hand-written text format, Moving AI `.map` files, and precise errors.
//!
//! The text format, line by line:
//! - `; anything`: a comment (a line whose first character is `;`), allowed anywhere.
//! - `title: The Pillar Room` and `size: 40x20`: optional headers, before the map; `map:`
//!   optionally marks where the map starts, so that leading blank lines count as void rows.
//! - `next: two.txt`: the designed floor below (a file relative to this one); its stairs
//!   lead there instead of to a generated floor (see [`campaign`]).
//! - `message: Welcome!` and `message at 12,3: Press o.`: messages for the log, any number,
//!   before the map like every header. A plain one shows when the level starts; one `at X,Y`
//!   (the column and row of a cell, from 0) shows the first time the player steps there.
//!   Their text is the rest of the line; the map never holds them.
//! - `cost: ~ 4`: the weight of a terrain (`.` floor, `~` water, `"` brush), from 1 to 9,
//!   at most once per terrain: a step into a cell costs 10 straight or 14 diagonal times the
//!   weight of the cell (floor 1, water 3, brush 2 by default). See docs/terrain.md.
//! - `kind w: wraith, hp 6, moves 4, water 1`: a kind of monster of the level's own, for a
//!   letter the game's kinds do not take (see [`Kinds`]).
//! - the map: `#` wall, `.` floor, `~` shallow water, `"` brush, `@` the player's start
//!   (exactly one), `a`..`z` a monster of that kind (standing on floor), `>` stairs down and
//!   `!` a healing potion (both on floor), space for void. Short rows are padded with void; a blank
//!   line inside the map is a row of void. Without `size`, the map is as wide as its longest
//!   row and ends at its last non-blank row.

pub mod campaign;
mod design;
pub mod lint;
mod movingai;
pub mod tools;

pub use design::{
    Change, Design, EditOp, Needs, Occupants, Refusal, ResizeRefusal, Resized, Side, Sides,
};

pub use crate::text::{LoadError, ParseError};
use crate::text::{lines, parse_size};

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::content::kinds::own::Kinds;
use crate::content::map::{TerrainWeights, Tile, TileMap};
use crate::engine::grid::Pos;

/// Widest and tallest map accepted, in cells.
pub const MAX_LEVEL_SIDE: usize = 8192;
/// Most cells accepted in one map (4096x4096): as many as the engine searches.
pub const MAX_LEVEL_CELLS: usize = crate::engine::grid::MAX_CELLS;
/// Largest level file accepted, in bytes.
pub const MAX_LEVEL_BYTES: u64 = 64 * 1024 * 1024;

/// Reads a level file's bytes as every reader of one does: regular files only (never
/// blocking on a FIFO), and refused past [`MAX_LEVEL_BYTES`] before a byte is read.
pub fn read_level_file(path: &Path) -> Result<Vec<u8>, LoadError> {
    crate::text::read_limited(path, MAX_LEVEL_BYTES, "level file")
}

/// A monster's starting place and kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Spawn {
    /// Where it starts.
    #[serde(with = "super::serial::pos")]
    pub pos: Pos,
    /// Its kind, a lowercase ASCII letter.
    pub kind: char,
}

/// What lies on a floor cell besides creatures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FeatureKind {
    /// Stairs down to the next floor of a run: `>`.
    Stairs,
    /// A healing potion: `!`.
    Potion,
    /// A lure: sounded where the player stands, it draws the monsters near it for a few
    /// turns: `&`.
    Lure,
    /// Brush seeds: sown, brush springs up on the floor around the player, dear to most
    /// monsters' searches: `,`.
    Seeds,
    /// A spike: it jams a closed door next to the player shut: `)`.
    Spike,
}

impl FeatureKind {
    /// Every feature kind.
    pub const ALL: [FeatureKind; 5] = [
        FeatureKind::Stairs,
        FeatureKind::Potion,
        FeatureKind::Lure,
        FeatureKind::Seeds,
        FeatureKind::Spike,
    ];

    /// Its glyph in level files.
    pub const fn glyph(self) -> char {
        match self {
            FeatureKind::Stairs => '>',
            FeatureKind::Potion => '!',
            FeatureKind::Lure => '&',
            FeatureKind::Seeds => ',',
            FeatureKind::Spike => ')',
        }
    }

    /// Whether the player picks it up by stepping on it (everything but the stairs).
    pub const fn is_item(self) -> bool {
        !matches!(self, FeatureKind::Stairs)
    }

    /// The feature a glyph stands for.
    pub fn from_glyph(c: char) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.glyph() == c)
    }

    /// Its name in messages.
    pub const fn name(self) -> &'static str {
        match self {
            FeatureKind::Stairs => "stairs down",
            FeatureKind::Potion => "healing potion",
            FeatureKind::Lure => "lure",
            FeatureKind::Seeds => "bag of brush seeds",
            FeatureKind::Spike => "iron spike",
        }
    }
}

/// A feature and its floor cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Feature {
    /// Where it lies.
    #[serde(with = "super::serial::pos")]
    pub pos: Pos,
    /// What it is.
    pub kind: FeatureKind,
}

/// A message a level shows in the log: when it starts, or the first time the player steps
/// on a cell (a `message:` or `message at X,Y:` header).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Note {
    /// The cell that shows it, or `None` for a message shown when the level starts.
    #[serde(with = "super::serial::opt_pos")]
    pub at: Option<Pos>,
    /// The text: one line, trimmed, never empty.
    pub text: String,
}

impl Note {
    /// A note with its text kept to one trimmed line; `None` when nothing is left of it.
    pub fn new(at: Option<Pos>, text: &str) -> Option<Self> {
        let text = text.replace(['\n', '\r'], " ").trim().to_string();
        (!text.is_empty()).then_some(Self { at, text })
    }

    /// The header line that writes it, without a line ending.
    pub fn header(&self) -> String {
        match self.at {
            Some(p) => format!("message at {p}: {}", self.text),
            None => format!("message: {}", self.text),
        }
    }
}

/// A map with the player's start, the monsters and the features.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Level {
    /// A human-readable name, from the `title:` header.
    pub title: Option<String>,
    /// The tiles.
    #[serde(with = "super::serial::grid")]
    pub grid: TileMap,
    /// The player's start (Moving AI maps have none).
    #[serde(with = "super::serial::opt_pos")]
    pub player: Option<Pos>,
    /// The monsters, in reading order when parsed.
    pub monsters: Vec<Spawn>,
    /// Stairs and potions, in reading order when parsed; never on a creature's cell.
    pub features: Vec<Feature>,
    /// The messages it shows, in the order of the file (cells inside the map).
    pub notes: Vec<Note>,
}

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

/// Which file format a level was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// This project's text format.
    Text,
    /// A Moving AI benchmark `.map`.
    MovingAi,
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

    /// The level in the text format; parsing it gives this level back.
    pub fn to_text(&self) -> String {
        let (w, h) = (self.grid.width(), self.grid.height());
        let mut out = String::with_capacity((w + 1) * h + 64);
        if let Some(title) = &self.title {
            out.push_str("title: ");
            out.push_str(title);
            out.push('\n');
        }
        for note in &self.notes {
            out.push_str(&note.header());
            out.push('\n');
        }
        for line in cost_headers(self.grid.weights())
            .into_iter()
            .chain(self.grid.kinds().headers())
        {
            out.push_str(&line);
            out.push('\n');
        }
        out.push_str(&format!("size: {w}x{h}\nmap:\n"));
        // The creatures and features by cell index, as `glyph_at` would pick them: the player
        // over monsters over features, and the first listed on a cell over later ones. Sorting these
        // and walking them alongside the tiles keeps a save linear in cells plus creatures.
        let mut marks: Vec<(usize, usize, char)> = self
            .player
            .iter()
            .map(|&p| (p, '@'))
            .chain(self.monsters.iter().map(|m| (m.pos, m.kind)))
            .chain(self.features.iter().map(|f| (f.pos, f.kind.glyph())))
            .enumerate()
            .filter_map(|(rank, (p, glyph))| Some((self.grid.index(p)?, rank, glyph)))
            .collect();
        marks.sort_unstable();
        marks.dedup_by_key(|m| m.0);
        let mut marks = marks.into_iter().peekable();
        let mut row = String::with_capacity(w);
        let tiles = self.grid.tiles();
        for y in 0..h {
            row.clear();
            let start = y * w;
            for (i, &t) in (start..).zip(&tiles[start..start + w]) {
                let glyph = match marks.next_if(|m| m.0 == i) {
                    Some((_, _, glyph)) => glyph,
                    None => tile_glyph(t),
                };
                row.push(glyph);
            }
            out.push_str(row.trim_end_matches(' '));
            out.push('\n');
        }
        out
    }

    /// The glyph the text format uses for a cell: creatures over features over tiles.
    pub fn glyph_at(&self, p: Pos) -> char {
        if self.player == Some(p) {
            return '@';
        }
        if let Some(m) = self.monsters.iter().find(|m| m.pos == p) {
            return m.kind;
        }
        if let Some(f) = self.feature_at(p) {
            return f.glyph();
        }
        tile_glyph(self.grid.get(p))
    }

    /// The feature lying on a cell.
    pub fn feature_at(&self, p: Pos) -> Option<FeatureKind> {
        self.features.iter().find(|f| f.pos == p).map(|f| f.kind)
    }

    /// A blank level of `w`x`h` cells: walls around floor, the player in the middle, and
    /// nothing else: what `astar-rogue new` writes and a designer starts from.
    pub fn blank(w: usize, h: usize, title: Option<&str>) -> Result<Level, String> {
        if w < 3 || h < 3 {
            return Err(format!(
                "a blank level is at least 3x3 (walls around one floor cell), not {w}x{h}"
            ));
        }
        check_dims(w, h)?;
        let mut grid = TileMap::new(w, h, Tile::Floor);
        for x in 0..w as i32 {
            grid.set(Pos::new(x, 0), Tile::Wall);
            grid.set(Pos::new(x, h as i32 - 1), Tile::Wall);
        }
        for y in 0..h as i32 {
            grid.set(Pos::new(0, y), Tile::Wall);
            grid.set(Pos::new(w as i32 - 1, y), Tile::Wall);
        }
        let mut level = Level {
            title: None,
            grid,
            player: Some(Pos::new(w as i32 / 2, h as i32 / 2)),
            monsters: Vec::new(),
            features: Vec::new(),
            notes: Vec::new(),
        };
        if let Some(t) = title {
            level.set_title(t);
        }
        Ok(level)
    }

    /// Sets the title, keeping it on one line.
    pub fn set_title(&mut self, title: &str) {
        let t = title.replace(['\n', '\r'], " ").trim().to_string();
        self.title = (!t.is_empty()).then_some(t);
    }
}

/// The `cost:` headers that set `weights` in a level file: one per terrain whose weight is
/// not its default, in the order of [`Tile::TERRAIN`].
pub fn cost_headers(weights: TerrainWeights) -> Vec<String> {
    Tile::TERRAIN
        .into_iter()
        .filter(|&t| weights.get(t) != TerrainWeights::DEFAULT.get(t))
        .map(|t| format!("cost: {} {}", tile_glyph(t), weights.get(t)))
        .collect()
}

/// The terrain a glyph of the text format stands for, if it is one: `.`, `~` or `"`.
pub fn terrain_of_glyph(c: char) -> Option<Tile> {
    Tile::TERRAIN.into_iter().find(|&t| tile_glyph(t) == c)
}

/// The text-format glyph of a tile.
pub fn tile_glyph(t: Tile) -> char {
    match t {
        Tile::Floor => '.',
        Tile::Wall => '#',
        Tile::Void => ' ',
        Tile::Water => '~',
        Tile::Brush => '"',
        Tile::DoorClosed => '+',
        Tile::DoorOpen => '\'',
        Tile::DoorJammed => '=',
    }
}

/// Where a parsed level's parts are in its file: line numbers, from 1.
struct Lines {
    /// For each map row written in the file, its line (a `size:` header may add void rows
    /// past them).
    rows: Vec<usize>,
    /// For each note, the line of its header.
    notes: Vec<usize>,
    /// For each note shown at a cell, the column of that cell in its header.
    note_cols: Vec<Option<usize>>,
    /// The `next:` header: the file it names, its line, and the column of the name.
    next: Option<(String, usize, usize)>,
    /// The line of the `size:` header.
    size: Option<usize>,
    /// The line of the `map:` marker.
    map: Option<usize>,
    /// The line of the last header before the map.
    last_header: Option<usize>,
}

/// Parses the text format; also returns where its rows and notes are in the file.
fn parse_text(bytes: &[u8], file: &str) -> Result<(Level, Lines), ParseError> {
    let err = |line: usize, col: usize, msg: String, text: &str| {
        ParseError::new(file.to_string(), line, col, msg, text)
    };
    let mut title = None;
    let mut size: Option<(usize, usize, usize, String)> = None;
    let mut weights = TerrainWeights::DEFAULT;
    let mut kinds = Kinds::default();
    // The line of the `cost:` header of each terrain, to refuse a second one.
    let mut cost_lines: [Option<usize>; 3] = [None; 3];
    // Each note with its line, the column of its cell and the line's text, to check the
    // cell once the map's size is known.
    let mut notes: Vec<(Note, usize, usize, &str)> = Vec::new();
    let mut rows: Vec<(usize, &str)> = Vec::new();
    let (mut last_line, mut last_text) = (0, "");
    let mut map_marked = false;
    let mut next: Option<(String, usize, usize)> = None;
    let (mut map_line, mut last_header, mut title_line) = (None, None, None);
    // A header given again, at its line: `what` is the header (or the terrain's cost).
    let again = |n: usize, what: String, first: usize, line: &str| {
        err(
            n,
            1,
            format!("a second {what} (the first is on line {first})"),
            line,
        )
    };
    for item in lines(bytes, file) {
        let (n, line) = item?;
        (last_line, last_text) = (n, line);
        if line.starts_with(';') {
            continue;
        }
        if rows.is_empty() && !map_marked {
            if line.trim().is_empty() {
                continue;
            }
            if let Some((key, value)) = header(line) {
                if key != "map" {
                    last_header = Some(n);
                }
                // The value's first character, past the key, the colon and spaces.
                let value_col = key.chars().count()
                    + 2
                    + value.chars().take_while(|c| c.is_whitespace()).count();
                match key {
                    "map" if value.trim().is_empty() => {
                        map_marked = true;
                        map_line = Some(n);
                    }
                    "next" => {
                        let file = value.trim();
                        if file.is_empty() {
                            return Err(err(
                                n,
                                value_col,
                                "empty next: name the file of the floor below, e.g. next: two.txt"
                                    .into(),
                                line,
                            ));
                        }
                        if let Some((_, first, _)) = &next {
                            return Err(again(n, "next: header".into(), *first, line));
                        }
                        next = Some((file.to_string(), n, value_col));
                    }
                    "title" => {
                        if let Some(first) = title_line {
                            return Err(again(n, "title: header".into(), first, line));
                        }
                        title_line = Some(n);
                        title = Some(value.trim().to_string()).filter(|t| !t.is_empty());
                    }
                    _ if key == "message" || key.starts_with("message ") => {
                        let (note, col) =
                            parse_note(key, value).map_err(|(col, msg)| err(n, col, msg, line))?;
                        notes.push((note, n, col, line));
                    }
                    _ if key == "kind" || key.starts_with("kind ") => {
                        kinds
                            .add_header(key, value)
                            .map_err(|e| err(n, e.col, e.message, line))?;
                    }
                    "cost" => {
                        let (tile, weight) =
                            parse_cost(value).map_err(|(col, msg)| err(n, col, msg, line))?;
                        let slot = Tile::TERRAIN.iter().position(|&t| t == tile).unwrap_or(0);
                        if let Some(first) = cost_lines[slot] {
                            let what = format!("cost for {:?}", tile_glyph(tile));
                            return Err(again(n, what, first, line));
                        }
                        cost_lines[slot] = Some(n);
                        weights = weights.with(tile, weight).unwrap_or(weights);
                    }
                    "size" => {
                        if let Some((.., first, _)) = &size {
                            return Err(again(n, "size: header".into(), *first, line));
                        }
                        let col = value_col;
                        let (w, h) = parse_size(value).ok_or_else(|| {
                            err(
                                n,
                                col,
                                format!(
                                    "bad size {:?}: expected WIDTHxHEIGHT, e.g. 40x20",
                                    value.trim()
                                ),
                                line,
                            )
                        })?;
                        check_dims(w, h).map_err(|m| err(n, col, m, line))?;
                        size = Some((w, h, n, line.to_string()));
                    }
                    _ => {
                        return Err(err(
                            n,
                            1,
                            format!("unknown header {key:?} (known: {})", HEADERS.join(", ")),
                            line,
                        ));
                    }
                }
                continue;
            }
        } else if header(line).is_some() {
            return Err(err(n, 1, "header after the map has started".into(), line));
        }
        if rows.is_empty()
            && !map_marked
            && let Some(word) = header_without_colon(line)
        {
            let form = if word == "message" {
                MESSAGE_FORMS.to_string()
            } else {
                format!("`{word}: ...`")
            };
            return Err(err(
                n,
                word.len() + 1,
                format!(
                    "{word:?} with no colon: a header is written {form} (to mean a map row of \
                     monsters, put `map:` above it)"
                ),
                line,
            ));
        }
        rows.push((n, line));
    }
    while rows.last().is_some_and(|(_, r)| r.trim().is_empty()) {
        rows.pop();
    }
    if rows.is_empty() {
        return Err(err(
            last_line.max(1),
            1,
            "no map: expected rows of '#', '.', '@' and monster letters".into(),
            last_text,
        ));
    }

    let mut width = 0;
    for &(n, row) in &rows {
        let len = row.chars().count();
        if len > MAX_LEVEL_SIDE {
            return Err(err(
                n,
                MAX_LEVEL_SIDE + 1,
                format!("row is longer than the limit of {MAX_LEVEL_SIDE} cells"),
                row,
            ));
        }
        width = width.max(len);
    }
    let mut height = rows.len();
    if let Some((w, h, n, line)) = &size {
        if let Some(&(rn, row)) = rows.iter().find(|(_, r)| r.chars().count() > *w) {
            return Err(err(
                rn,
                w + 1,
                format!("row is wider than the size header says ({w}, line {n})"),
                row,
            ));
        }
        if rows.len() > *h {
            let (rn, row) = rows[*h];
            return Err(err(
                rn,
                1,
                format!("more rows than the size header says ({h}, line {n}: {line})"),
                row,
            ));
        }
        (width, height) = (*w, *h);
    }
    if let Err(m) = check_dims(width, height) {
        // Only a map without `size` gets here (the header's own values were checked), and
        // its rows are all within the side limit and not all blank, so there are too many
        // rows, or too many cells: blame the first row past the limit.
        let first_over = if height > MAX_LEVEL_SIDE {
            MAX_LEVEL_SIDE
        } else {
            MAX_LEVEL_CELLS / width
        };
        let (n, row) = rows[first_over];
        return Err(err(n, 1, m, row));
    }

    let mut tiles = vec![Tile::Void; width * height];
    let mut player: Option<(Pos, usize, usize)> = None;
    let mut monsters = Vec::new();
    let mut features = Vec::new();
    for (y, &(n, row)) in rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            let p = Pos::new(x as i32, y as i32);
            tiles[y * width + x] = match c {
                '#' => Tile::Wall,
                '.' => Tile::Floor,
                ' ' => Tile::Void,
                '~' => Tile::Water,
                '"' => Tile::Brush,
                '+' | '\'' | '=' => {
                    let edge = x == 0 || y == 0 || x + 1 == width || y + 1 == height;
                    if edge {
                        return Err(err(
                            n,
                            x + 1,
                            format!(
                                "a door {c:?} on the map's edge: a door stands in a wall between two cells"
                            ),
                            row,
                        ));
                    }
                    match c {
                        '+' => Tile::DoorClosed,
                        '=' => Tile::DoorJammed,
                        _ => Tile::DoorOpen,
                    }
                }
                '@' => {
                    if let Some((_, pl, pc)) = player {
                        return Err(err(
                            n,
                            x + 1,
                            format!("a second player '@' (the first is at {pl}:{pc})"),
                            row,
                        ));
                    }
                    player = Some((p, n, x + 1));
                    Tile::Floor
                }
                'a'..='z' => {
                    monsters.push(Spawn { pos: p, kind: c });
                    Tile::Floor
                }
                _ => match FeatureKind::from_glyph(c) {
                    Some(kind) => {
                        features.push(Feature { pos: p, kind });
                        Tile::Floor
                    }
                    None => {
                        return Err(err(
                            n,
                            x + 1,
                            format!(
                                "unknown glyph {c:?}: use '#' wall, '.' floor, '~' water, '\"' brush, '+' closed door, \"'\" open door, '=' jammed door, '@' player, 'a'-'z' monster, '>' stairs, '!' potion, '&' lure, ',' brush seeds, ')' spike, space void"
                            ),
                            row,
                        ));
                    }
                },
            };
        }
    }
    let Some((player, _, _)) = player else {
        let (n, row) = rows[0];
        return Err(err(
            n,
            1,
            "no player: the map needs exactly one '@'".into(),
            row,
        ));
    };
    let grid = TileMap::from_tiles(width, height, tiles)
        .with_weights(weights)
        .with_kinds(kinds);
    for (note, n, col, line) in &notes {
        if let Some(p) = note.at.filter(|&p| !grid.contains(p)) {
            return Err(err(
                *n,
                *col,
                format!("message cell {p} is outside the {width}x{height} map"),
                line,
            ));
        }
    }
    let level = Level {
        title,
        grid,
        player: Some(player),
        monsters,
        features,
        notes: notes.iter().map(|(note, ..)| note.clone()).collect(),
    };
    let lines = Lines {
        rows: rows.iter().map(|&(n, _)| n).collect(),
        notes: notes.iter().map(|&(_, n, ..)| n).collect(),
        note_cols: notes
            .iter()
            .map(|(note, _, col, _)| note.at.map(|_| *col))
            .collect(),
        next,
        size: size.as_ref().map(|s| s.2),
        map: map_line,
        last_header,
    };
    Ok((level, lines))
}

/// How a `message` header is written, for the errors that say so.
const MESSAGE_FORMS: &str = "`message: TEXT` or `message at X,Y: TEXT`";

/// The headers a level file may have, each `name: value` before the map.
const HEADERS: [&str; 7] = ["title", "size", "map", "message", "next", "cost", "kind"];

/// The header name a line begins with when it has no colon (`title The Crypt`): read as
/// a map row, such a line is a row of monsters, which no one means as a level's first row.
fn header_without_colon(line: &str) -> Option<&'static str> {
    let word = line.split(' ').next()?;
    let key = HEADERS.into_iter().find(|&k| k == word)?;
    (line.len() > key.len() && !line.contains(':')).then_some(key)
}

/// `key: value` where key is lowercase letters, or `message at X,Y: value` (whose key is
/// checked by [`parse_note`]) or `kind X: value` (checked by [`Kinds::add_header`]); map
/// rows never contain ':'.
fn header(line: &str) -> Option<(&str, &str)> {
    let (key, value) = line.split_once(':')?;
    let word = key.split_once(' ').map_or(key, |(w, _)| w);
    let plain = !key.is_empty() && key.bytes().all(|b| b.is_ascii_lowercase());
    (plain || word == "message" || word == "kind").then_some((key, value))
}

/// A `message` header's note and the column of its cell (or of its text), or the column and
/// the reason it is malformed. `key` is `message` or `message at X,Y`.
fn parse_note(key: &str, value: &str) -> Result<(Note, usize), (usize, String)> {
    let at = match key.strip_prefix("message").map(str::trim_start) {
        Some("") => None,
        Some(rest) => {
            // The column of the cell's first character, past `message` and spaces.
            let col = key.chars().count() - rest.chars().count() + 1;
            let Some(cell) = rest.strip_prefix("at ") else {
                return Err((col, format!("expected {MESSAGE_FORMS}")));
            };
            let col = col + 3 + (cell.chars().count() - cell.trim_start().chars().count());
            let p: Pos = cell.parse().map_err(|_| {
                (
                    col,
                    format!("bad cell {:?}: expected X,Y, e.g. 12,3", cell.trim()),
                )
            })?;
            if p.x < 0 || p.y < 0 {
                return Err((col, format!("message cell {p} is outside the map")));
            }
            Some((p, col))
        }
        None => return Err((1, format!("expected {MESSAGE_FORMS}"))),
    };
    let text_col = key.chars().count() + 2;
    let note = Note::new(at.map(|(p, _)| p), value).ok_or_else(|| {
        (
            text_col,
            "empty message: write its text after the colon".to_string(),
        )
    })?;
    Ok((note, at.map_or(text_col, |(_, c)| c)))
}

/// A `cost` header's value (` ~ 4`): the terrain and its weight, or the column (in the
/// whole line) and the reason it is malformed.
fn parse_cost(value: &str) -> Result<(Tile, u32), (usize, String)> {
    const FORM: &str =
        "expected `cost: GLYPH N`, e.g. `cost: ~ 4`, with GLYPH one of . ~ \" and N from 1 to 9";
    let lead = value.chars().take_while(|c| c.is_whitespace()).count();
    let rest = value.trim_start();
    // Columns from 1, past `cost:` and the spaces.
    let glyph_col = "cost:".len() + lead + 1;
    let mut chars = rest.chars();
    let Some(glyph) = chars.next() else {
        return Err((glyph_col, FORM.to_string()));
    };
    let Some(tile) = terrain_of_glyph(glyph) else {
        return Err((
            glyph_col,
            format!("{glyph:?} has no cost: only '.' floor, '~' water and '\"' brush have one"),
        ));
    };
    let after = chars.as_str();
    let number = after.trim();
    let number_col = glyph_col + 1 + (after.chars().count() - after.trim_start().chars().count());
    if number.is_empty() || after.len() == after.trim_start().len() {
        return Err((number_col, FORM.to_string()));
    }
    match number.parse::<u32>() {
        Ok(n) if (1..=TerrainWeights::MAX).contains(&n) => Ok((tile, n)),
        _ => Err((
            number_col,
            format!(
                "bad cost {number:?} for {glyph:?}: a whole number from 1 to {}",
                TerrainWeights::MAX
            ),
        )),
    }
}

/// Checks a map size against the limits.
pub fn check_dims(w: usize, h: usize) -> Result<(), String> {
    if w == 0 || h == 0 {
        Err(format!("map size {w}x{h} is empty"))
    } else if w > MAX_LEVEL_SIDE || h > MAX_LEVEL_SIDE {
        Err(format!(
            "map size {w}x{h} exceeds the limit of {MAX_LEVEL_SIDE} cells a side"
        ))
    } else if w * h > MAX_LEVEL_CELLS {
        Err(format!(
            "map size {w}x{h} has {} cells, more than the limit of {MAX_LEVEL_CELLS} (4096x4096)",
            w * h
        ))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests;
