//! The design: a level as its file says it, with the file's own text around the map, so
//! that writing it back changes only what was edited.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Feature, FeatureKind, Level, SizeError, Spawn, check_dims, parse_text, tile_glyph};
use crate::content::map::{Tile, TileMap};
use crate::content::serial;
use crate::engine::grid::Pos;

use crate::text::{BOM, ParseError};

/// A level as designed: tiles, the player's and each creature's starting cell, the title,
/// and, when it came from a text file, that file's text around the map (comments, blank
/// lines, header order, line endings). The game in play is built from it and never
/// written into it; the editor changes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Design {
    level: Level,
    text: Option<FileText>,
    /// The `next:` header: the file of the designed floor below, as written.
    next: Option<String>,
}

/// The text of a level file, line by line.
#[derive(Debug, Clone, PartialEq, Eq)]
struct FileText {
    /// Whether the file starts with a UTF-8 byte-order mark.
    bom: bool,
    /// Every line without its ending.
    lines: Vec<String>,
    /// The ending after each line: `"\n"`, `"\r\n"`, or `""` for a last line without one.
    endings: Vec<&'static str>,
    /// For each map row written in the file, the index of its line.
    rows: Vec<usize>,
    /// For each note of the parsed level, the index of its header's line.
    notes: Vec<usize>,
    /// For each note shown at a cell, the column (from 1) of that cell in its header.
    note_cols: Vec<Option<usize>>,
    /// The index of the `next:` header's line, and the column (from 1) of the file name.
    next: Option<(usize, usize)>,
    /// The index of the `size:` header's line.
    size: Option<usize>,
    /// The index of the `map:` marker's line.
    map: Option<usize>,
    /// The index of the last header's line before the map.
    last_header: Option<usize>,
    /// The ending for lines added to the file: the one it uses most.
    newline: &'static str,
}

impl FileText {
    /// The index of the line where the map starts: its `map:` marker, else its first row.
    fn map_start(&self) -> usize {
        self.map
            .or(self.rows.first().copied())
            .unwrap_or(self.lines.len())
    }

    /// Every line index the text keeps, to move them when lines come and go.
    fn indices(&mut self) -> impl Iterator<Item = &mut usize> {
        self.rows
            .iter_mut()
            .chain(self.notes.iter_mut())
            .chain(self.next.iter_mut().map(|(i, _)| i))
            .chain(self.size.iter_mut())
            .chain(self.map.iter_mut())
            .chain(self.last_header.iter_mut())
    }

    /// Inserts a line before the line at index `at`; the lines after it keep their text.
    fn insert_line(&mut self, at: usize, text: String) {
        for i in self.indices() {
            if *i >= at {
                *i += 1;
            }
        }
        let mut ending = self.newline;
        if at == self.lines.len() && self.endings.last() == Some(&"") {
            // The new line goes after a last line that had no ending: it gets one.
            if let Some(e) = self.endings.last_mut() {
                *e = self.newline;
            }
            ending = "";
        }
        self.lines.insert(at, text);
        self.endings.insert(at, ending);
    }

    /// Removes the line at index `at`, which no index names any more.
    fn remove_line(&mut self, at: usize) {
        self.lines.remove(at);
        self.endings.remove(at);
        for i in self.indices() {
            if *i > at {
                *i -= 1;
            }
        }
    }
}

/// How a kept run's save writes a design: a design is its file, so one with a file's text
/// is that text as it would be written now, with its creatures and features in the order
/// it holds them (which decides the monsters' ids when a game starts on it); one without
/// is its level.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum DesignForm {
    Text {
        text: String,
        monsters: Vec<Spawn>,
        features: Vec<Feature>,
    },
    Level {
        level: Box<Level>,
        next: Option<String>,
    },
}

impl Serialize for Design {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let form = if self.text.is_some() {
            DesignForm::Text {
                text: self.to_text(),
                monsters: self.level.monsters.clone(),
                features: self.level.features.clone(),
            }
        } else {
            DesignForm::Level {
                level: Box::new(self.level.clone()),
                next: self.next.clone(),
            }
        };
        form.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Design {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        match DesignForm::deserialize(d)? {
            DesignForm::Level { level, next } => {
                check_dims(level.grid.width(), level.grid.height()).map_err(D::Error::custom)?;
                Ok(Design {
                    level: *level,
                    text: None,
                    next,
                })
            }
            DesignForm::Text {
                text,
                monsters,
                features,
            } => {
                let mut design = Design::parse(text.as_bytes(), "a floor kept in the save")
                    .map_err(|e| D::Error::custom(e.headline()))?;
                // The same creatures and features as its text, in the order it held them.
                let sorted_spawns = |v: &[Spawn]| {
                    let mut v: Vec<(i32, i32, char)> =
                        v.iter().map(|m| (m.pos.y, m.pos.x, m.kind)).collect();
                    v.sort_unstable();
                    v
                };
                let sorted_features = |v: &[Feature]| {
                    let mut v: Vec<(i32, i32, char)> = v
                        .iter()
                        .map(|f| (f.pos.y, f.pos.x, f.kind.glyph()))
                        .collect();
                    v.sort_unstable();
                    v
                };
                if sorted_spawns(&monsters) != sorted_spawns(&design.level.monsters)
                    || sorted_features(&features) != sorted_features(&design.level.features)
                {
                    return Err(D::Error::custom(
                        "a floor's creatures or features differ from its text",
                    ));
                }
                design.level.monsters = monsters;
                design.level.features = features;
                Ok(design)
            }
        }
    }
}

impl Design {
    /// A design with no file text behind it: it is written in the canonical text format.
    pub fn new(level: Level) -> Self {
        Self {
            level,
            text: None,
            next: None,
        }
    }

    /// Parses a level in the text format, keeping the file's text to write it back.
    pub fn parse(bytes: &[u8], file: &str) -> Result<Self, ParseError> {
        let (level, source) = parse_text(bytes, file)?;
        let bom = bytes.starts_with(BOM);
        let body = if bom { &bytes[BOM.len()..] } else { bytes };
        // The parser has checked every line as UTF-8.
        let body = String::from_utf8_lossy(body);
        let mut lines = Vec::new();
        let mut endings = Vec::new();
        let mut rest: &str = &body;
        while !rest.is_empty() {
            let (line, ending, next) = match rest.find('\n') {
                Some(i) if rest[..i].ends_with('\r') => (&rest[..i - 1], "\r\n", &rest[i + 1..]),
                Some(i) => (&rest[..i], "\n", &rest[i + 1..]),
                None => (rest, "", ""),
            };
            lines.push(line.to_string());
            endings.push(ending);
            rest = next;
        }
        let crlf = endings.iter().filter(|e| **e == "\r\n").count();
        let lf = endings.iter().filter(|e| **e == "\n").count();
        let newline = if crlf > lf { "\r\n" } else { "\n" };
        let index = |n: usize| n - 1;
        let text = FileText {
            bom,
            lines,
            endings,
            rows: source.rows.into_iter().map(index).collect(),
            notes: source.notes.into_iter().map(index).collect(),
            note_cols: source.note_cols,
            next: source.next.as_ref().map(|&(_, n, col)| (index(n), col)),
            size: source.size.map(index),
            map: source.map.map(index),
            last_header: source.last_header.map(index),
            newline,
        };
        Ok(Self {
            level,
            text: Some(text),
            next: source.next.map(|(file, ..)| file),
        })
    }

    /// The file its `next:` header names: the designed floor below, relative to this
    /// level's file.
    pub fn next(&self) -> Option<&str> {
        self.next.as_deref()
    }

    /// Where the `next:` header is in the file: its line and the column of the file name,
    /// from 1 (`None` without a header or without a file's text).
    pub fn next_source(&self) -> Option<(usize, usize)> {
        let (line, col) = self.text.as_ref()?.next?;
        Some((line + 1, col))
    }

    /// The text of line `n` (from 1) of the file, if the design has it.
    pub fn line_text(&self, n: usize) -> Option<&str> {
        let t = self.text.as_ref()?;
        t.lines.get(n.checked_sub(1)?).map(String::as_str)
    }

    /// Makes the `next:` header name `file`: the header is written over, or added after
    /// the last header; every other line stays as it is.
    pub fn set_next(&mut self, file: &str) {
        let file = file.replace(['\n', '\r'], " ").trim().to_string();
        if let Some(t) = &mut self.text {
            let line = format!("next: {file}");
            match t.next {
                Some((i, _)) => t.lines[i] = line,
                None => {
                    let at = t.last_header.map_or_else(|| t.map_start(), |h| h + 1);
                    t.insert_line(at, line);
                    t.last_header = Some(at);
                    t.next = Some((at, 0));
                }
            }
            if let Some((_, col)) = &mut t.next {
                *col = "next: ".len() + 1;
            }
        }
        self.next = Some(file);
    }

    /// The level as designed.
    pub fn level(&self) -> &Level {
        &self.level
    }

    /// The level as designed, without the file's text.
    pub fn into_level(self) -> Level {
        self.level
    }

    /// Where cell `p`'s glyph is in the file: line and column, from 1 (`None` without a
    /// file's text, or for a row the file does not write).
    pub fn cell_source(&self, p: Pos) -> Option<(usize, usize)> {
        let t = self.text.as_ref()?;
        let line = *t.rows.get(usize::try_from(p.y).ok()?)?;
        Some((line + 1, usize::try_from(p.x).ok()? + 1))
    }

    /// The line, from 1, of the header that wrote the level's `notes[i]` (`None` without a
    /// file's text).
    pub fn note_line(&self, i: usize) -> Option<usize> {
        self.text.as_ref()?.notes.get(i).map(|i| i + 1)
    }

    /// Whether the design keeps a file's text (it came from a text level file).
    pub fn has_file_text(&self) -> bool {
        self.text.is_some()
    }

    /// The design in the text format. With the file's text behind it, every line but the
    /// map rows is written as it was, and a map row changes only in the cells that were
    /// edited; parsing the result gives this design's level back. Where edits leave a map
    /// that a reader would take otherwise (a first row all void, void at the edges of a
    /// map without a `size:` header), a `map:` marker and a `size:` header are added.
    pub fn to_text(&self) -> String {
        let Some(t) = &self.text else {
            return canonical(&self.level, self.next.as_deref());
        };
        let (w, h) = (self.level.grid.width(), self.level.grid.height());
        let marks = self.marks();
        let mut row_of = vec![None; t.lines.len()];
        for (y, &line) in t.rows.iter().enumerate() {
            row_of[line] = Some(y);
        }
        let written: Vec<String> = t
            .rows
            .iter()
            .enumerate()
            .map(|(y, &line)| self.render_row(&marks, y, &t.lines[line]))
            .collect();
        // Rows past the written ones (void rows a `size:` header adds) that now hold
        // something go right after the last written row.
        let last_used = (t.rows.len()..h)
            .rev()
            .find(|&y| (0..w).any(|x| self.glyph(&marks, x, y) != ' '));
        let extra: Vec<String> = last_used.map_or_else(Vec::new, |last| {
            (t.rows.len()..=last)
                .map(|y| self.render_row(&marks, y, ""))
                .collect()
        });
        let blank = |r: &String| r.trim().is_empty();
        // A reader skips blank lines before the map unless `map:` marks its start.
        let add_marker = t.map.is_none() && written.first().is_some_and(blank);
        let add_size = t.size.is_none() && {
            let rows: Vec<&String> = written.iter().chain(&extra).collect();
            let used = rows.iter().rposition(|r| !blank(r)).map_or(0, |i| i + 1);
            let width = rows[..used].iter().map(|r| r.chars().count()).max();
            (width.unwrap_or(0), used) != (w, h)
        };
        let start = t.map_start();
        let mut out = String::with_capacity(t.lines.iter().map(|l| l.len() + 2).sum());
        if t.bom {
            out.push('\u{feff}');
        }
        for (i, line) in t.lines.iter().enumerate() {
            if i == start {
                if add_size {
                    out.push_str(&format!("size: {w}x{h}{}", t.newline));
                }
                if add_marker {
                    out.push_str("map:");
                    out.push_str(t.newline);
                }
            }
            match row_of[i] {
                Some(y) => out.push_str(&written[y]),
                None => out.push_str(line),
            }
            let mut ending = t.endings[i];
            let after_last_row = t.rows.last() == Some(&i);
            if after_last_row && !extra.is_empty() {
                if ending.is_empty() {
                    ending = t.newline;
                }
                out.push_str(ending);
                for row in &extra {
                    out.push_str(row);
                    out.push_str(t.newline);
                }
                continue;
            }
            out.push_str(ending);
        }
        out
    }

    /// Row `y` written over its old text `old`: only cells whose glyph differs change.
    fn render_row(&self, marks: &[(usize, char)], y: usize, old: &str) -> String {
        let mut chars: Vec<char> = old.chars().collect();
        for x in 0..self.level.grid.width() {
            let want = self.glyph(marks, x, y);
            match chars.get_mut(x) {
                Some(c) if *c != want => *c = want,
                Some(_) => {}
                None if want != ' ' => {
                    chars.resize(x, ' ');
                    chars.push(want);
                }
                None => {}
            }
        }
        chars.into_iter().collect()
    }

    /// Creatures and features by cell index, sorted: the player over monsters over features.
    fn marks(&self) -> Vec<(usize, char)> {
        let grid = &self.level.grid;
        let mut marks: Vec<(usize, char)> = self
            .level
            .monsters
            .iter()
            .filter_map(|m| Some((grid.index(m.pos)?, m.kind)))
            .collect();
        marks.sort_unstable();
        for f in &self.level.features {
            if let Some(c) = grid.index(f.pos)
                && let Err(i) = marks.binary_search_by_key(&c, |m| m.0)
            {
                marks.insert(i, (c, f.kind.glyph()));
            }
        }
        if let Some(c) = self.level.player.and_then(|p| grid.index(p)) {
            match marks.binary_search_by_key(&c, |m| m.0) {
                Ok(i) => marks[i].1 = '@',
                Err(i) => marks.insert(i, (c, '@')),
            }
        }
        marks
    }

    fn glyph(&self, marks: &[(usize, char)], x: usize, y: usize) -> char {
        let grid = &self.level.grid;
        let c = y * grid.width() + x;
        match marks.binary_search_by_key(&c, |m| m.0) {
            Ok(i) => marks[i].1,
            Err(_) => tile_glyph(grid.tiles()[c]),
        }
    }

    /// What starts on a cell: `'@'` for the player, a monster's letter, or `None`.
    pub fn creature_at(&self, p: Pos) -> Option<char> {
        if self.level.player == Some(p) {
            return Some('@');
        }
        self.level
            .monsters
            .iter()
            .find(|m| m.pos == p)
            .map(|m| m.kind)
    }

    /// The feature lying on a cell.
    pub fn feature_at(&self, p: Pos) -> Option<FeatureKind> {
        self.level.feature_at(p)
    }

    /// Whether `op` may be done, and what it would change: the one validator of edits. The
    /// design's own rules (a file has one glyph per cell, so creatures and features start on
    /// plain floor, never in water or brush) and the game in play (`live`: no wall is laid
    /// under the player, who may wade) are checked here, so applying the change can never be
    /// refused, in the design or in play.
    /// `Ok(None)` when the edit changes nothing.
    pub fn check(&self, op: EditOp, live: &dyn Occupants) -> Result<Option<Change>, Refusal> {
        let grid = &self.level.grid;
        let outside = |p: Pos| !grid.contains(p);
        match op {
            EditOp::SetTile(pos, after) => {
                let before = grid.get(pos);
                if outside(pos) || before == after {
                    return Ok(None);
                }
                // A door stands in a wall between two cells: the file refuses one on the
                // map's edge, so the editor does too.
                if after.is_door() && grid.is_edge(pos) {
                    return Err(Refusal::DoorOnEdge);
                }
                // The file writes a creature's or a feature's glyph in place of its cell's
                // floor: water or brush there could not be written.
                if after != Tile::Floor {
                    if let Some(c) = self.creature_at(pos) {
                        return Err(Refusal::StartsHere(c));
                    }
                    if !after.is_passable() && live.player() == pos {
                        return Err(Refusal::PlayerStandsThere);
                    }
                    if let Some(f) = self.feature_at(pos) {
                        return Err(Refusal::LiesHere(f));
                    }
                }
                Ok(Some(Change::Tile { pos, before, after }))
            }
            EditOp::AddMonster(pos, kind) => {
                if grid.get(pos) != Tile::Floor {
                    return Err(Refusal::NeedsFloor(Needs::Monster));
                }
                if let Some(c) = self.creature_at(pos) {
                    return Err(Refusal::Taken(c));
                }
                if let Some(f) = self.feature_at(pos) {
                    return Err(Refusal::LiesHere(f));
                }
                Ok(Some(Change::Added(Spawn { pos, kind })))
            }
            EditOp::RemoveMonster(pos) => {
                // The start on this cell, else the start of the monster standing here.
                let start = self.level.monsters.iter().find(|m| m.pos == pos).copied();
                let standing = live.monster_origin(pos);
                let spawn = start.or_else(|| {
                    let origin = standing??;
                    self.level
                        .monsters
                        .iter()
                        .find(|m| m.pos == origin)
                        .copied()
                });
                if spawn.is_none() && standing.is_none() {
                    return Err(Refusal::NoMonster);
                }
                Ok(Some(Change::Removed { spawn, at: pos }))
            }
            EditOp::MovePlayer(to) => {
                let from = self.level.player.unwrap_or(to);
                if grid.get(to) != Tile::Floor {
                    return Err(Refusal::NeedsFloor(Needs::Player));
                }
                if self.creature_at(to).is_some_and(|c| c != '@') {
                    return Err(Refusal::MonsterStartsThere);
                }
                if let Some(f) = self.feature_at(to) {
                    return Err(Refusal::LiesHere(f));
                }
                let moves = to != from || to != live.player();
                Ok(moves.then_some(Change::Player { from, to }))
            }
            EditOp::PlaceFeature(pos, kind) => {
                if grid.get(pos) != Tile::Floor {
                    return Err(Refusal::NeedsFloor(Needs::Feature));
                }
                if let Some(c) = self.creature_at(pos) {
                    return Err(Refusal::Taken(c));
                }
                // It would lie unnoticed under the player until they stepped off and back.
                if live.player() == pos {
                    return Err(Refusal::PlayerStandsThere);
                }
                let before = self.feature_at(pos);
                Ok((before != Some(kind)).then_some(Change::Feature {
                    pos,
                    before,
                    after: Some(kind),
                }))
            }
            EditOp::RemoveFeature(pos) => match self.feature_at(pos) {
                Some(before) => Ok(Some(Change::Feature {
                    pos,
                    before: Some(before),
                    after: None,
                })),
                None => Err(Refusal::NothingLies),
            },
        }
    }

    /// Makes a change that [`Design::check`] returned (or undoes it, `forward` false).
    pub fn apply(&mut self, change: &Change, forward: bool) {
        let level = &mut self.level;
        match (change, forward) {
            (Change::Tile { pos, after, .. }, true)
            | (
                Change::Tile {
                    pos, before: after, ..
                },
                false,
            ) => {
                level.grid.set(*pos, *after);
            }
            (Change::Added(spawn), true)
            | (
                Change::Removed {
                    spawn: Some(spawn), ..
                },
                false,
            ) => level.monsters.push(*spawn),
            (Change::Added(spawn), false)
            | (
                Change::Removed {
                    spawn: Some(spawn), ..
                },
                true,
            ) => level.monsters.retain(|m| m.pos != spawn.pos),
            (Change::Removed { spawn: None, .. }, _) => {}
            (Change::Player { to, .. }, true) | (Change::Player { from: to, .. }, false) => {
                level.player = Some(*to);
            }
            (Change::Feature { pos, after, .. }, true)
            | (
                Change::Feature {
                    pos, before: after, ..
                },
                false,
            ) => {
                level.features.retain(|f| f.pos != *pos);
                if let Some(kind) = after {
                    level.features.push(Feature {
                        pos: *pos,
                        kind: *kind,
                    });
                }
            }
        }
    }
}

impl Design {
    /// A blank level (see [`Level::blank`]) as its new file says it, so that edits to it
    /// and its saves change only what was edited.
    pub fn blank(w: usize, h: usize, title: Option<&str>, file: &str) -> Result<Self, BlankError> {
        let text = Level::blank(w, h, title)?.to_text();
        Design::parse(text.as_bytes(), file).map_err(|e| BlankError::Unread(Box::new(e)))
    }

    /// The design with its map grown (positive) or cropped (negative) at each side. The
    /// tiles, creatures, features and message cells move with the map; monsters and
    /// features cropped away are dropped (counted in [`Resized`]); the player and a
    /// message cell may not be. The file's text changes only in the map rows, the
    /// `size:` header (added when missing), the cells of `message at` headers, and a
    /// `map:` marker added before void rows grown at the top; comments, other headers,
    /// line endings stay as they were.
    pub fn resized(&self, sides: Sides) -> Result<(Design, Resized), ResizeRefusal> {
        let grid = &self.level.grid;
        let nw = grid.width() as i64 + i64::from(sides.left) + i64::from(sides.right);
        let nh = grid.height() as i64 + i64::from(sides.top) + i64::from(sides.bottom);
        if nw < 1 || nh < 1 {
            return Err(ResizeRefusal::Empty);
        }
        let (nw, nh) = (nw as usize, nh as usize);
        check_dims(nw, nh).map_err(|e| ResizeRefusal::Limit(e.to_string()))?;
        let shift = |p: Pos| Pos::new(p.x + sides.left, p.y + sides.top);
        let inside = |p: Pos| p.x >= 0 && p.y >= 0 && (p.x as usize) < nw && (p.y as usize) < nh;
        let mut level = self.level.clone();
        if let Some(p) = level.player {
            if !inside(shift(p)) {
                return Err(ResizeRefusal::PlayerOutside(p));
            }
            level.player = Some(shift(p));
        }
        for (i, n) in level.notes.iter_mut().enumerate() {
            if let Some(p) = n.at {
                if !inside(shift(p)) {
                    return Err(ResizeRefusal::NoteOutside {
                        at: p,
                        line: self.note_line(i),
                    });
                }
                n.at = Some(shift(p));
            }
        }
        let mut tiles = vec![Tile::Void; nw * nh];
        for (y, row) in tiles.chunks_mut(nw).enumerate() {
            for (x, t) in row.iter_mut().enumerate() {
                let old = Pos::new(x as i32 - sides.left, y as i32 - sides.top);
                if grid.contains(old) {
                    *t = grid.get(old);
                }
                // A door the new edge runs through is a wall there: the file refuses a
                // door on the edge.
                let edge = x == 0 || y == 0 || x + 1 == nw || y + 1 == nh;
                if edge && t.is_door() {
                    *t = Tile::Wall;
                }
            }
        }
        // The terrain weights are the level's (its `cost:` headers), whatever its size.
        level.grid = TileMap::from_tiles(nw, nh, tiles)
            .with_weights(grid.weights())
            .with_kinds(grid.kinds().clone());
        let (monsters, features) = (level.monsters.len(), level.features.len());
        level.monsters = std::mem::take(&mut level.monsters)
            .into_iter()
            .map(|m| Spawn {
                pos: shift(m.pos),
                ..m
            })
            .filter(|m| inside(m.pos))
            .collect();
        level.features = std::mem::take(&mut level.features)
            .into_iter()
            .map(|f| Feature {
                pos: shift(f.pos),
                ..f
            })
            .filter(|f| inside(f.pos))
            .collect();
        let resized = Resized {
            width: nw,
            height: nh,
            dropped_monsters: monsters - level.monsters.len(),
            dropped_features: features - level.features.len(),
        };
        let mut text = self.text.clone();
        if let Some(t) = &mut text {
            t.resize(sides, (nw, nh), &level.notes);
        }
        let design = Design {
            level,
            text,
            next: self.next.clone(),
        };
        Ok((design, resized))
    }
}

impl FileText {
    /// The text's side of [`Design::resized`]: rows removed or added, row text shifted and
    /// cut, the size written, message cells moved to `notes`' (the moved notes).
    fn resize(&mut self, sides: Sides, (nw, nh): (usize, usize), notes: &[super::Note]) {
        if sides.top < 0 {
            let k = (sides.top.unsigned_abs() as usize).min(self.rows.len());
            let gone: Vec<usize> = self.rows.drain(..k).collect();
            for &i in gone.iter().rev() {
                self.remove_line(i);
            }
        } else if sides.top > 0 {
            // Before the first row: after the `map:` marker, if there is one.
            let mut at = self
                .rows
                .first()
                .copied()
                .unwrap_or_else(|| self.map.map_or(self.lines.len(), |m| m + 1));
            if self.map.is_none() {
                // Without the marker a reader would skip the new blank rows.
                self.insert_line(at, "map:".into());
                self.map = Some(at);
                at += 1;
            }
            let k = sides.top as usize;
            for _ in 0..k {
                self.insert_line(at, String::new());
            }
            self.rows.splice(0..0, at..at + k);
        }
        if self.rows.len() > nh {
            let gone: Vec<usize> = self.rows.drain(nh..).collect();
            for &i in gone.iter().rev() {
                self.remove_line(i);
            }
        }
        for &i in &self.rows {
            let mut chars: Vec<char> = self.lines[i].chars().collect();
            if sides.left < 0 {
                chars.drain(..(sides.left.unsigned_abs() as usize).min(chars.len()));
            } else if sides.left > 0 && !chars.is_empty() {
                chars.splice(0..0, std::iter::repeat_n(' ', sides.left as usize));
            }
            chars.truncate(nw);
            self.lines[i] = chars.into_iter().collect();
        }
        let value = format!("{nw}x{nh}");
        match self.size {
            Some(i) => {
                let line = &self.lines[i];
                let colon = line.find(':').map_or(line.len(), |c| c + 1);
                let (key, rest) = line.split_at(colon);
                let lead = rest.len() - rest.trim_start().len();
                let trail = rest.len() - rest.trim_end().len();
                self.lines[i] = format!(
                    "{key}{}{value}{}",
                    &rest[..lead],
                    &rest[(rest.len() - trail).max(lead)..]
                );
            }
            None => {
                let at = self.last_header.map_or_else(|| self.map_start(), |h| h + 1);
                self.insert_line(at, format!("size: {value}"));
                self.size = Some(at);
                self.last_header = Some(at);
            }
        }
        if sides.left != 0 || sides.top != 0 {
            for (k, &li) in self.notes.iter().enumerate() {
                let (Some(col), Some(Some(p))) = (self.note_cols[k], notes.get(k).map(|n| n.at))
                else {
                    continue;
                };
                let chars: Vec<char> = self.lines[li].chars().collect();
                let colon = chars.iter().position(|&c| c == ':').unwrap_or(chars.len());
                let start = (col - 1).min(colon);
                let mut end = colon;
                while end > start && chars[end - 1].is_whitespace() {
                    end -= 1;
                }
                let cell = p.to_string();
                self.lines[li] = chars[..start]
                    .iter()
                    .copied()
                    .chain(cell.chars())
                    .chain(chars[end..].iter().copied())
                    .collect();
            }
        }
    }
}

/// The canonical text of a level, with its `next:` header after the title and messages.
fn canonical(level: &Level, next: Option<&str>) -> String {
    let mut text = level.to_text();
    if let Some(next) = next {
        // `Level::to_text` writes the title and each message on a line, then the size.
        let before = usize::from(level.title.is_some()) + level.notes.len();
        let at = match before {
            0 => 0,
            n => text
                .match_indices('\n')
                .nth(n - 1)
                .map_or(0, |(i, _)| i + 1),
        };
        text.insert_str(at, &format!("next: {next}\n"));
    }
    text
}

/// A side of the map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The west edge: column 0.
    Left,
    /// The north edge: row 0.
    Top,
    /// The east edge.
    Right,
    /// The south edge.
    Bottom,
}

impl Side {
    /// Its name in messages.
    pub const fn name(self) -> &'static str {
        match self {
            Side::Left => "left",
            Side::Top => "top",
            Side::Right => "right",
            Side::Bottom => "bottom",
        }
    }
}

/// Cells added (positive) or cut away (negative) at each side of a map.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Sides {
    /// At the west edge.
    pub left: i32,
    /// At the north edge.
    pub top: i32,
    /// At the east edge.
    pub right: i32,
    /// At the south edge.
    pub bottom: i32,
}

impl Sides {
    /// `by` cells at one side only.
    pub fn one(side: Side, by: i32) -> Self {
        let mut s = Sides::default();
        *match side {
            Side::Left => &mut s.left,
            Side::Top => &mut s.top,
            Side::Right => &mut s.right,
            Side::Bottom => &mut s.bottom,
        } = by;
        s
    }
}

/// What a resize made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resized {
    /// The map's width now.
    pub width: usize,
    /// Its height now.
    pub height: usize,
    /// Monsters' starts that were cropped away.
    pub dropped_monsters: usize,
    /// Stairs and potions that were cropped away.
    pub dropped_features: usize,
}

/// Why [`Design::blank`] made no design.
#[derive(Debug, thiserror::Error)]
pub enum BlankError {
    /// The size is out of bounds.
    #[error(transparent)]
    Size(#[from] SizeError),
    /// The blank level's own text did not read back (a fault of the game's, not the player's).
    #[error("{}", .0.headline())]
    Unread(Box<ParseError>),
}

/// Why a resize was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResizeRefusal {
    /// Nothing would be left of the map.
    Empty,
    /// The map would pass a size limit (the reason).
    Limit(String),
    /// The player's start (this cell) would be cropped away.
    PlayerOutside(Pos),
    /// A message's cell would be cropped away: the cell, and its header's line.
    NoteOutside {
        /// The message's cell.
        at: Pos,
        /// Its header's line in the file, from 1.
        line: Option<usize>,
    },
}

/// One edit asked of a design.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditOp {
    /// Put a tile.
    SetTile(Pos, Tile),
    /// Place a monster's start of a kind.
    AddMonster(Pos, char),
    /// Remove the monster that starts on, or stands on, a cell.
    RemoveMonster(Pos),
    /// Move the player's start (and the player) to a cell.
    MovePlayer(Pos),
    /// Lay stairs or a potion on a cell, in place of what lay there.
    PlaceFeature(Pos, FeatureKind),
    /// Take away the stairs or potion lying on a cell.
    RemoveFeature(Pos),
}

/// A change [`Design::check`] allowed, with what it replaced, so it can be undone exactly.
/// The game in play follows the same value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Change {
    /// A tile changed.
    Tile {
        /// The cell.
        #[serde(with = "serial::pos")]
        pos: Pos,
        /// The tile before.
        #[serde(with = "serial::tile")]
        before: Tile,
        /// The tile after.
        #[serde(with = "serial::tile")]
        after: Tile,
    },
    /// A monster's start was added.
    Added(Spawn),
    /// A monster was removed: its start, if the design had one, and the cell where the
    /// monster in play stood when asked (for a monster with no start of its own).
    Removed {
        /// The start taken out of the design.
        spawn: Option<Spawn>,
        /// The cell named by the edit.
        #[serde(with = "serial::pos")]
        at: Pos,
    },
    /// The player's start moved.
    Player {
        /// The start before.
        #[serde(with = "serial::pos")]
        from: Pos,
        /// The start after.
        #[serde(with = "serial::pos")]
        to: Pos,
    },
    /// What lay on a cell, and what lies there now.
    Feature {
        /// The cell.
        #[serde(with = "serial::pos")]
        pos: Pos,
        /// What lay there.
        before: Option<FeatureKind>,
        /// What lies there now.
        after: Option<FeatureKind>,
    },
}

/// What stands where in the game in play, as far as an edit must know.
pub trait Occupants {
    /// Where the player stands.
    fn player(&self) -> Pos;
    /// For a monster standing on `p`: `Some(its start in the design, if any)`.
    fn monster_origin(&self, p: Pos) -> Option<Option<Pos>>;
}

/// What needs a floor cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Needs {
    /// A monster.
    Monster,
    /// The player.
    Player,
    /// Stairs or a potion.
    Feature,
}

/// Why an edit was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// A creature starts on the cell (`'@'` for the player).
    StartsHere(char),
    /// The player stands on the cell in play.
    PlayerStandsThere,
    /// Stairs or a potion lie on the cell.
    LiesHere(FeatureKind),
    /// It needs floor.
    NeedsFloor(Needs),
    /// Another creature starts on the cell.
    Taken(char),
    /// No monster starts or stands on the cell.
    NoMonster,
    /// A monster starts where the player would.
    MonsterStartsThere,
    /// Nothing lies on the cell.
    NothingLies,
    /// A door on the map's edge.
    DoorOnEdge,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn design(text: &str) -> Design {
        Design::parse(text.as_bytes(), "t.txt").expect("valid level")
    }

    /// A game in play with nobody on the map: only the design's own rules apply.
    struct Nobody;

    impl Occupants for Nobody {
        fn player(&self) -> Pos {
            Pos::new(-1, -1)
        }
        fn monster_origin(&self, _: Pos) -> Option<Option<Pos>> {
            None
        }
    }

    /// Checks and applies an edit; whether it changed the design.
    fn edit(d: &mut Design, op: EditOp) -> bool {
        match d.check(op, &Nobody) {
            Ok(Some(change)) => {
                d.apply(&change, true);
                true
            }
            _ => false,
        }
    }

    #[test]
    fn an_unedited_design_writes_its_file_back_byte_for_byte() {
        for text in [
            "; a comment\ntitle: T\n\n; another\n#####\n#@.g#\n#####\n; trailing\n\n",
            "title: crlf\r\n#####\r\n#@..#\r\n#####\r\n",
            "\u{feff}size: 6x4\n; inside\n#####\n#@..#\n  \n#####",
            "map:\n\n..@..\n   ..\n",
            "message:  Hello \r\n; between\r\nmessage at 3,1:Go\r\n#####\r\n#@..#\r\n#####\r\n",
        ] {
            assert_eq!(design(text).to_text(), text);
        }
    }

    #[test]
    fn messages_write_back_as_written_beside_edits() {
        let text = "title: T\nmessage:   Walk east. \n; why\nmessage   at 3,1 :  Here.\n\
                    #####\n#@..#\n#####\n";
        let mut d = design(text);
        assert_eq!(d.level().notes.len(), 2);
        assert!(edit(&mut d, EditOp::SetTile(Pos::new(2, 1), Tile::Wall)));
        // The note's cell may become a wall: the file still reads back.
        assert!(edit(&mut d, EditOp::SetTile(Pos::new(3, 1), Tile::Wall)));
        let out = d.to_text();
        assert_eq!(out, text.replace("#@..#", "#@###"));
        assert_eq!(Design::parse(out.as_bytes(), "t").unwrap().level, d.level);
        // Without the file's text they are written as headers before the map.
        let canonical = Design::new(d.level.clone()).to_text();
        assert!(
            canonical.starts_with("title: T\nmessage: Walk east.\nmessage at 3,1: Here.\nsize:"),
            "{canonical}"
        );
        assert_eq!(
            Design::parse(canonical.as_bytes(), "t").unwrap().level,
            d.level
        );
    }

    #[test]
    fn one_edited_cell_changes_one_glyph() {
        let text = "; keep me\r\ntitle: T\r\n#####\r\n#@..#\r\n#####\r\n";
        let mut d = design(text);
        assert!(edit(&mut d, EditOp::SetTile(Pos::new(3, 1), Tile::Wall)));
        assert_eq!(d.to_text(), text.replace("#@..#", "#@.##"));
        assert!(edit(&mut d, EditOp::AddMonster(Pos::new(2, 1), 'o')));
        assert!(edit(&mut d, EditOp::MovePlayer(Pos::new(1, 1))));
        assert_eq!(d.to_text(), text.replace("#@..#", "#@o##"));
        assert_eq!(
            Design::parse(d.to_text().as_bytes(), "t").unwrap().level,
            d.level
        );
    }

    #[test]
    fn short_rows_grow_only_as_far_as_the_edit_and_extra_rows_follow_the_map() {
        // A ragged map under a size header: row 1 is short, rows 3 and 4 are not written.
        let text = "size: 6x5\n######\n#@\n######\n; the end\n";
        let mut d = design(text);
        assert!(edit(&mut d, EditOp::SetTile(Pos::new(4, 1), Tile::Floor)));
        assert!(edit(&mut d, EditOp::SetTile(Pos::new(0, 4), Tile::Wall)));
        let out = d.to_text();
        assert_eq!(out, "size: 6x5\n######\n#@  .\n######\n\n#\n; the end\n");
        assert_eq!(Design::parse(out.as_bytes(), "t").unwrap().level, d.level);
    }

    #[test]
    fn stairs_and_potions_write_back_byte_for_byte_and_beside_edits() {
        let text = "; features\r\ntitle: F\r\n#######\r\n#@.!.>#\r\n#..!..#\r\n#######";
        let d = design(text);
        let kinds: Vec<(Pos, FeatureKind)> =
            d.level().features.iter().map(|f| (f.pos, f.kind)).collect();
        assert_eq!(
            kinds,
            [
                (Pos::new(3, 1), FeatureKind::Potion),
                (Pos::new(5, 1), FeatureKind::Stairs),
                (Pos::new(3, 2), FeatureKind::Potion),
            ]
        );
        assert_eq!(d.to_text(), text);
        // Edits beside them change only the edited glyphs.
        let mut d = design(text);
        assert!(edit(&mut d, EditOp::SetTile(Pos::new(4, 1), Tile::Wall)));
        assert!(edit(&mut d, EditOp::AddMonster(Pos::new(2, 2), 'g')));
        let want = text
            .replace("#@.!.>#", "#@.!#>#")
            .replace("#..!..#", "#.g!..#");
        assert_eq!(d.to_text(), want);
        assert_eq!(
            Design::parse(d.to_text().as_bytes(), "t").unwrap().level,
            d.level
        );
        // Without the file's text they are written in the canonical format.
        let canonical = Design::new(d.level.clone()).to_text();
        assert!(canonical.contains("#@.!#>#\n#.g!..#\n"), "{canonical}");
        assert_eq!(
            Design::parse(canonical.as_bytes(), "t").unwrap().level,
            d.level
        );
    }

    #[test]
    fn features_keep_their_cells_floor_and_to_themselves() {
        let mut d = design("######\n#@>.!#\n######\n");
        for p in [Pos::new(2, 1), Pos::new(4, 1)] {
            assert!(
                !edit(&mut d, EditOp::SetTile(p, Tile::Wall)),
                "a wall over {p}"
            );
            assert!(!edit(&mut d, EditOp::MovePlayer(p)), "the player onto {p}");
            assert!(!edit(&mut d, EditOp::AddMonster(p, 'r')), "a rat onto {p}");
        }
        assert_eq!(d.feature_at(Pos::new(2, 1)), Some(FeatureKind::Stairs));
        assert_eq!(d.feature_at(Pos::new(3, 1)), None);
        assert!(edit(&mut d, EditOp::MovePlayer(Pos::new(3, 1))));
    }

    #[test]
    fn next_is_read_and_written_in_place_or_after_the_last_header() {
        let text = "; c\r\ntitle: T\r\n; between\r\n#####\r\n#@>.#\r\n#####\r\n";
        let mut d = design(text);
        assert_eq!(d.next(), None);
        d.set_next("two.txt");
        assert_eq!(
            d.to_text(),
            text.replace("title: T\r\n", "title: T\r\nnext: two.txt\r\n")
        );
        assert_eq!(d.next_source(), Some((3, 7)));
        // A header that is there is written over, on its own line.
        let mut d = design("next:  old.txt \n###\n#@#\n###\n");
        assert_eq!((d.next(), d.next_source()), (Some("old.txt"), Some((1, 8))));
        d.set_next("new.txt");
        assert_eq!(d.to_text(), "next: new.txt\n###\n#@#\n###\n");
        // Without headers it goes before the map; without a file's text, canonically.
        let mut d = design("###\n#@#\n###");
        d.set_next("b.txt");
        assert_eq!(d.to_text(), "next: b.txt\n###\n#@#\n###");
        let mut level = d.level().clone();
        level.set_title("T");
        let mut d = Design::new(level);
        d.set_next("b.txt");
        assert_eq!(
            d.to_text(),
            "title: T\nnext: b.txt\nsize: 3x3\nmap:\n###\n#@#\n###\n"
        );
        assert_eq!(
            Design::parse(d.to_text().as_bytes(), "t").unwrap().next(),
            Some("b.txt")
        );
    }

    #[test]
    fn a_resize_keeps_the_size_headers_spacing_the_endings_and_the_mark() {
        let text =
            "\u{feff}size:  5x3 \r\nmessage   at 3,1 :  Here.\r\n#####\r\n#@..#\r\n#####\r\n";
        let d = design(text);
        let (d, r) = d
            .resized(Sides {
                left: 2,
                top: 0,
                right: 1,
                bottom: -1,
            })
            .unwrap();
        assert_eq!((r.width, r.height), (8, 2));
        assert_eq!(
            d.to_text(),
            "\u{feff}size:  8x2 \r\nmessage   at 5,1 :  Here.\r\n  #####\r\n  #@..#\r\n"
        );
        let back = Design::parse(d.to_text().as_bytes(), "t").unwrap();
        assert_eq!(back.level(), d.level());
        assert_eq!(d.level().notes[0].at, Some(Pos::new(5, 1)));
    }

    #[test]
    fn edits_that_leave_a_map_a_reader_would_misread_add_its_marker_and_size() {
        // The first row all void: without `map:` a reader would skip it.
        let mut d = design("; top\n.#.\n#@#\n");
        for x in 0..3 {
            assert!(edit(&mut d, EditOp::SetTile(Pos::new(x, 0), Tile::Void)));
        }
        assert_eq!(d.to_text(), "; top\nmap:\n   \n#@#\n");
        // A void last row, no size header: the reader would make the map shorter.
        let mut d = design("###\n#@#\n###\n; end\n");
        for x in 0..3 {
            assert!(edit(&mut d, EditOp::SetTile(Pos::new(x, 2), Tile::Void)));
        }
        assert_eq!(d.to_text(), "size: 3x3\n###\n#@#\n   \n; end\n");
        assert_eq!(
            Design::parse(d.to_text().as_bytes(), "t").unwrap().level(),
            d.level()
        );
    }

    #[test]
    fn terrain_and_its_costs_write_back_byte_for_byte_and_beside_edits() {
        let text = "title: Pond\r\ncost: ~ 4\r\n; brush is cheap here\r\ncost:  \"  1\r\n\
                    ########\r\n#@.~~\"g#\r\n#..~~\"\"#\r\n########";
        let d = design(text);
        assert_eq!(d.to_text(), text);
        let grid = &d.level().grid;
        assert_eq!(grid.get(Pos::new(3, 1)), Tile::Water);
        assert_eq!(grid.get(Pos::new(5, 2)), Tile::Brush);
        assert_eq!(
            (grid.weight(Pos::new(3, 1)), grid.weight(Pos::new(5, 2))),
            (4, 1)
        );
        let mut d = design(text);
        assert!(edit(&mut d, EditOp::SetTile(Pos::new(2, 2), Tile::Water)));
        assert!(edit(&mut d, EditOp::SetTile(Pos::new(3, 2), Tile::Brush)));
        assert!(edit(&mut d, EditOp::SetTile(Pos::new(4, 1), Tile::Floor)));
        let want = text
            .replace("#@.~~\"g#", "#@.~.\"g#")
            .replace("#..~~\"\"#", "#.~\"~\"\"#");
        assert_eq!(d.to_text(), want);
        assert_eq!(Design::parse(want.as_bytes(), "t").unwrap().level, d.level);
        // Without the file's text the weights that differ from the defaults are headers.
        let canonical = Design::new(d.level.clone()).to_text();
        assert!(
            canonical.contains("cost: ~ 4\ncost: \" 1\nsize:"),
            "{canonical}"
        );
        assert_eq!(
            Design::parse(canonical.as_bytes(), "t").unwrap().level,
            d.level
        );
    }

    #[test]
    fn creatures_and_features_start_on_plain_floor_only() {
        let mut d = design("#######\n#@~\"g>#\n#######\n");
        for p in [Pos::new(2, 1), Pos::new(3, 1)] {
            assert!(!edit(&mut d, EditOp::AddMonster(p, 'r')), "a rat into {p}");
            assert!(!edit(&mut d, EditOp::MovePlayer(p)), "the player into {p}");
            let potion = EditOp::PlaceFeature(p, FeatureKind::Potion);
            assert!(!edit(&mut d, potion), "a potion into {p}");
        }
        // Nor may water or brush be laid under a start or a feature.
        for p in [Pos::new(1, 1), Pos::new(4, 1), Pos::new(5, 1)] {
            for t in [Tile::Water, Tile::Brush] {
                assert!(!edit(&mut d, EditOp::SetTile(p, t)), "{t:?} under {p}");
            }
        }
        assert!(edit(&mut d, EditOp::SetTile(Pos::new(2, 1), Tile::Floor)));
        assert!(edit(&mut d, EditOp::AddMonster(Pos::new(2, 1), 'r')));
    }

    /// The game in play: the player stands on `at`, nobody else anywhere.
    struct PlayerAt(Pos);

    impl Occupants for PlayerAt {
        fn player(&self) -> Pos {
            self.0
        }
        fn monster_origin(&self, _: Pos) -> Option<Option<Pos>> {
            None
        }
    }

    #[test]
    fn water_may_be_laid_under_the_player_in_play_but_no_wall() {
        let d = design("######\n#@...#\n######\n");
        let at = Pos::new(3, 1);
        let water = d.check(EditOp::SetTile(at, Tile::Water), &PlayerAt(at));
        assert!(matches!(water, Ok(Some(Change::Tile { .. }))), "{water:?}");
        let wall = d.check(EditOp::SetTile(at, Tile::Wall), &PlayerAt(at));
        assert_eq!(wall, Err(Refusal::PlayerStandsThere));
    }

    #[test]
    fn creatures_keep_their_cells_free() {
        let mut d = design("#####\n#@.g#\n#####\n");
        assert!(
            !edit(&mut d, EditOp::SetTile(Pos::new(3, 1), Tile::Wall)),
            "a goblin starts there"
        );
        assert!(
            !edit(&mut d, EditOp::SetTile(Pos::new(1, 1), Tile::Wall)),
            "the player starts there"
        );
        assert!(!edit(&mut d, EditOp::MovePlayer(Pos::new(3, 1))));
        assert!(!edit(&mut d, EditOp::AddMonster(Pos::new(0, 0), 'r')));
        assert_eq!(d.creature_at(Pos::new(3, 1)), Some('g'));
        assert!(edit(&mut d, EditOp::RemoveMonster(Pos::new(3, 1))));
        assert_eq!(d.creature_at(Pos::new(3, 1)), None);
        assert!(edit(&mut d, EditOp::SetTile(Pos::new(3, 1), Tile::Wall)));
    }
}
