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
pub mod design;
pub mod lint;
mod load;
mod movingai;
pub mod tools;

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
    pub fn blank(w: usize, h: usize, title: Option<&str>) -> Result<Level, SizeError> {
        if w < 3 || h < 3 {
            return Err(SizeError::BelowBlank(w, h));
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
    let mut heads = Headers::default();
    let mut rows: Vec<(usize, &str)> = Vec::new();
    let (mut last_line, mut last_text) = (0, "");
    for item in lines(bytes, file) {
        let (n, line) = item?;
        (last_line, last_text) = (n, line);
        if line.starts_with(';') {
            continue;
        }
        let at = Spot { file, n, line };
        if rows.is_empty() && heads.map_line.is_none() {
            if line.trim().is_empty() {
                continue;
            }
            if let Some((key, value)) = header(line) {
                heads.read(at, key, value)?;
                continue;
            }
            if let Some(word) = header_without_colon(line) {
                return Err(no_colon(at, word));
            }
        } else if header(line).is_some() {
            return Err(at.err(1, "header after the map has started".into()));
        }
        rows.push((n, line));
    }
    while rows.last().is_some_and(|(_, r)| r.trim().is_empty()) {
        rows.pop();
    }
    if rows.is_empty() {
        let at = Spot {
            file,
            n: last_line.max(1),
            line: last_text,
        };
        return Err(at.err(
            1,
            "no map: expected rows of '#', '.', '@' and monster letters".into(),
        ));
    }
    let (width, height) = map_size(file, &rows, heads.size.as_ref())?;
    let cells = read_cells(file, &rows, width, height)?;
    let grid = TileMap::from_tiles(width, height, cells.tiles)
        .with_weights(heads.weights)
        .with_kinds(heads.kinds);
    for (note, n, col, line) in &heads.notes {
        if let Some(p) = note.at.filter(|&p| !grid.contains(p)) {
            let at = Spot { file, n: *n, line };
            return Err(at.err(
                *col,
                format!("message cell {p} is outside the {width}x{height} map"),
            ));
        }
    }
    let level = Level {
        title: heads.title,
        grid,
        player: Some(cells.player),
        monsters: cells.monsters,
        features: cells.features,
        notes: heads.notes.iter().map(|(note, ..)| note.clone()).collect(),
    };
    let lines = Lines {
        rows: rows.iter().map(|&(n, _)| n).collect(),
        notes: heads.notes.iter().map(|&(_, n, ..)| n).collect(),
        note_cols: heads
            .notes
            .iter()
            .map(|(note, _, col, _)| note.at.map(|_| *col))
            .collect(),
        next: heads.next,
        size: heads.size.as_ref().map(|s| s.2),
        map: heads.map_line,
        last_header: heads.last_header,
    };
    Ok((level, lines))
}

/// A line of a level file, for the errors found on it.
#[derive(Clone, Copy)]
struct Spot<'t> {
    file: &'t str,
    /// Its number, from 1.
    n: usize,
    line: &'t str,
}

impl Spot<'_> {
    /// The error at column `col` of this line.
    fn err(self, col: usize, msg: String) -> ParseError {
        ParseError::new(self.file.to_string(), self.n, col, msg, self.line)
    }

    /// A header given again: `what` is the header (or the terrain's cost).
    fn again(self, what: &str, first: usize) -> ParseError {
        self.err(1, format!("a second {what} (the first is on line {first})"))
    }
}

/// What the headers before the map say, read one line at a time.
struct Headers<'t> {
    title: Option<String>,
    title_line: Option<usize>,
    /// The `size:` header: width, height, its line and its text.
    size: Option<(usize, usize, usize, String)>,
    weights: TerrainWeights,
    kinds: Kinds,
    /// The line of the `cost:` header of each terrain, to refuse a second one.
    cost_lines: [Option<usize>; 3],
    /// Each note with its line, the column of its cell and the line's text, to check the
    /// cell once the map's size is known.
    notes: Vec<(Note, usize, usize, &'t str)>,
    next: Option<(String, usize, usize)>,
    /// The line of the `map:` marker, once it is read.
    map_line: Option<usize>,
    last_header: Option<usize>,
}

impl Default for Headers<'_> {
    fn default() -> Self {
        Headers {
            title: None,
            title_line: None,
            size: None,
            weights: TerrainWeights::DEFAULT,
            kinds: Kinds::default(),
            cost_lines: [None; 3],
            notes: Vec::new(),
            next: None,
            map_line: None,
            last_header: None,
        }
    }
}

impl<'t> Headers<'t> {
    /// Reads the header `key: value` written on the line `at`.
    fn read(&mut self, at: Spot<'t>, key: &str, value: &str) -> Result<(), ParseError> {
        let n = at.n;
        if key != "map" {
            self.last_header = Some(n);
        }
        // The value's first character, past the key, the colon and spaces.
        let value_col =
            key.chars().count() + 2 + value.chars().take_while(|c| c.is_whitespace()).count();
        match key {
            "map" if value.trim().is_empty() => self.map_line = Some(n),
            "next" => {
                let file = value.trim();
                if file.is_empty() {
                    return Err(at.err(
                        value_col,
                        "empty next: name the file of the floor below, e.g. next: two.txt".into(),
                    ));
                }
                if let Some((_, first, _)) = &self.next {
                    return Err(at.again("next: header", *first));
                }
                self.next = Some((file.to_string(), n, value_col));
            }
            "title" => {
                if let Some(first) = self.title_line {
                    return Err(at.again("title: header", first));
                }
                self.title_line = Some(n);
                self.title = Some(value.trim().to_string()).filter(|t| !t.is_empty());
            }
            _ if key == "message" || key.starts_with("message ") => {
                let (note, col) = parse_note(key, value).map_err(|(col, msg)| at.err(col, msg))?;
                self.notes.push((note, n, col, at.line));
            }
            _ if key == "kind" || key.starts_with("kind ") => {
                self.kinds
                    .add_header(key, value)
                    .map_err(|e| at.err(e.col, e.message))?;
            }
            "cost" => {
                let (tile, weight) = parse_cost(value).map_err(|(col, msg)| at.err(col, msg))?;
                let slot = Tile::TERRAIN.iter().position(|&t| t == tile).unwrap_or(0);
                if let Some(first) = self.cost_lines[slot] {
                    return Err(at.again(&format!("cost for {:?}", tile_glyph(tile)), first));
                }
                self.cost_lines[slot] = Some(n);
                self.weights = self.weights.with(tile, weight).unwrap_or(self.weights);
            }
            "size" => {
                if let Some((.., first, _)) = &self.size {
                    return Err(at.again("size: header", *first));
                }
                let (w, h) = parse_size(value).ok_or_else(|| {
                    let value = value.trim();
                    at.err(
                        value_col,
                        format!("bad size {value:?}: expected WIDTHxHEIGHT, e.g. 40x20"),
                    )
                })?;
                check_dims(w, h).map_err(|m| at.err(value_col, m.to_string()))?;
                self.size = Some((w, h, n, at.line.to_string()));
            }
            _ => {
                let known = HEADERS.join(", ");
                return Err(at.err(1, format!("unknown header {key:?} (known: {known})")));
            }
        }
        Ok(())
    }
}

/// The error for a header name written without its colon (`title The Crypt`).
fn no_colon(at: Spot, word: &str) -> ParseError {
    let form = if word == "message" {
        MESSAGE_FORMS.to_string()
    } else {
        format!("`{word}: ...`")
    };
    at.err(
        word.len() + 1,
        format!(
            "{word:?} with no colon: a header is written {form} (to mean a map row of \
             monsters, put `map:` above it)"
        ),
    )
}

/// The map's width and height: its rows', or the `size:` header's when there is one (which
/// the rows must fit).
fn map_size<'t>(
    file: &'t str,
    rows: &[(usize, &'t str)],
    size: Option<&(usize, usize, usize, String)>,
) -> Result<(usize, usize), ParseError> {
    let at = |(n, line): (usize, &'t str)| Spot { file, n, line };
    let mut width = 0;
    for &(n, row) in rows {
        let len = row.chars().count();
        if len > MAX_LEVEL_SIDE {
            return Err(at((n, row)).err(
                MAX_LEVEL_SIDE + 1,
                format!("row is longer than the limit of {MAX_LEVEL_SIDE} cells"),
            ));
        }
        width = width.max(len);
    }
    let mut height = rows.len();
    if let Some((w, h, n, line)) = size {
        if let Some(&row) = rows.iter().find(|(_, r)| r.chars().count() > *w) {
            let msg = format!("row is wider than the size header says ({w}, line {n})");
            return Err(at(row).err(w + 1, msg));
        }
        if rows.len() > *h {
            let msg = format!("more rows than the size header says ({h}, line {n}: {line})");
            return Err(at(rows[*h]).err(1, msg));
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
        return Err(at(rows[first_over]).err(1, m.to_string()));
    }
    Ok((width, height))
}

/// What a level's map rows put on its cells.
struct Cells {
    tiles: Vec<Tile>,
    player: Pos,
    monsters: Vec<Spawn>,
    features: Vec<Feature>,
}

/// Reads the map rows into a `width`x`height` map's cells (void past the rows).
fn read_cells(
    file: &str,
    rows: &[(usize, &str)],
    width: usize,
    height: usize,
) -> Result<Cells, ParseError> {
    let mut tiles = vec![Tile::Void; width * height];
    let mut player: Option<(Pos, usize, usize)> = None;
    let (mut monsters, mut features) = (Vec::new(), Vec::new());
    for (y, &(n, row)) in rows.iter().enumerate() {
        let at = Spot { file, n, line: row };
        for (x, c) in row.chars().enumerate() {
            let p = Pos::new(x as i32, y as i32);
            tiles[y * width + x] = match c {
                '#' => Tile::Wall,
                '.' => Tile::Floor,
                ' ' => Tile::Void,
                '~' => Tile::Water,
                '"' => Tile::Brush,
                '+' | '\'' | '=' => {
                    if x == 0 || y == 0 || x + 1 == width || y + 1 == height {
                        return Err(at.err(
                            x + 1,
                            format!(
                                "a door {c:?} on the map's edge: a door stands in a wall between two cells"
                            ),
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
                        let msg = format!("a second player '@' (the first is at {pl}:{pc})");
                        return Err(at.err(x + 1, msg));
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
                    None => return Err(at.err(x + 1, unknown_glyph(c))),
                },
            };
        }
    }
    let Some((player, _, _)) = player else {
        let at = Spot {
            file,
            n: rows[0].0,
            line: rows[0].1,
        };
        return Err(at.err(1, "no player: the map needs exactly one '@'".into()));
    };
    Ok(Cells {
        tiles,
        player,
        monsters,
        features,
    })
}

/// The error's words for a map character that is no glyph.
fn unknown_glyph(c: char) -> String {
    format!(
        "unknown glyph {c:?}: use '#' wall, '.' floor, '~' water, '\"' brush, '+' closed door, \"'\" open door, '=' jammed door, '@' player, 'a'-'z' monster, '>' stairs, '!' potion, '&' lure, ',' brush seeds, ')' spike, space void"
    )
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

/// Why a map's size is refused; the words are the ones a level file's error shows.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SizeError {
    /// A side is zero.
    #[error("map size {0}x{1} is empty")]
    Empty(usize, usize),
    /// A side is longer than [`MAX_LEVEL_SIDE`].
    #[error("map size {0}x{1} exceeds the limit of {MAX_LEVEL_SIDE} cells a side")]
    Side(usize, usize),
    /// More cells than [`MAX_LEVEL_CELLS`].
    #[error(
        "map size {0}x{1} has {cells} cells, more than the limit of {MAX_LEVEL_CELLS} (4096x4096)",
        cells = .0 * .1
    )]
    Cells(usize, usize),
    /// Too small for [`Level::blank`]'s walls around a floor.
    #[error("a blank level is at least 3x3 (walls around one floor cell), not {0}x{1}")]
    BelowBlank(usize, usize),
}

/// Checks a map size against the limits.
pub fn check_dims(w: usize, h: usize) -> Result<(), SizeError> {
    if w == 0 || h == 0 {
        Err(SizeError::Empty(w, h))
    } else if w > MAX_LEVEL_SIDE || h > MAX_LEVEL_SIDE {
        Err(SizeError::Side(w, h))
    } else if w * h > MAX_LEVEL_CELLS {
        Err(SizeError::Cells(w, h))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests;
