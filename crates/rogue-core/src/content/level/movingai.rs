//! Moving AI benchmark maps (`type octile`): `.` `G` `S` open, `T` `W` walls, `@` `O` void.

use super::{Level, ParseError, check_dims, lines};
use crate::content::map::{Tile, TileMap};

/// Parses a `.map` file: `type octile`, `height H`, `width W`, `map`, then H rows of W cells.
pub(super) fn parse(bytes: &[u8], file: &str) -> Result<Level, ParseError> {
    let err = |line: usize, col: usize, msg: String, text: &str| {
        ParseError::new(file.to_string(), line, col, msg, text)
    };
    let mut it = lines(bytes, file);
    let mut next = |what: &str, last: usize| -> Result<(usize, &str), ParseError> {
        it.next()
            .unwrap_or_else(|| Err(err(last + 1, 1, format!("file ends before {what}"), "")))
    };
    let (n, line) = next("the type header", 0)?;
    if line.trim() != "type octile" {
        return Err(err(n, 1, "expected `type octile`".into(), line));
    }
    // Each side's value, with its line number, text and column for errors.
    let mut dims = [(0usize, 0usize, "", 0usize); 2];
    let mut last = n;
    for (i, key) in ["height", "width"].into_iter().enumerate() {
        let (n, line) = next(key, last)?;
        last = n;
        let rest = line
            .strip_prefix(key)
            .ok_or_else(|| err(n, 1, format!("expected `{key} N`"), line))?;
        let col = key.len() + 1 + rest.chars().take_while(|c| c.is_whitespace()).count();
        let value = rest.trim();
        let v = value
            .parse()
            .map_err(|_| err(n, col, format!("bad {key} {value:?}"), line))?;
        dims[i] = (v, n, line, col);
    }
    let [(height, hn, hline, hcol), (width, wn, wline, wcol)] = dims;
    // check_dims refuses a zero or too long side before multiplying, so any parsed values
    // are safe to pass. Blame the side its message is about: the zero one for an empty map,
    // the too long one (height first) for a side over the limit, else the width, which
    // completes a product over the cell limit.
    check_dims(width, height).map_err(|m| {
        let m = m.to_string();
        if height == 0 || (width != 0 && height > super::MAX_LEVEL_SIDE) {
            err(hn, hcol, m, hline)
        } else {
            err(wn, wcol, m, wline)
        }
    })?;
    let (n, line) = next("the `map` line", last)?;
    if line.trim() != "map" {
        return Err(err(n, 1, "expected `map`".into(), line));
    }
    last = n;
    let mut tiles = Vec::with_capacity(width * height);
    for _ in 0..height {
        let (n, row) = next("all the map rows", last)?;
        last = n;
        let mut count = 0;
        for (x, c) in row.chars().enumerate() {
            if x >= width {
                return Err(err(
                    n,
                    x + 1,
                    format!("row is wider than the header's width {width}"),
                    row,
                ));
            }
            tiles.push(match c {
                '.' | 'G' | 'S' => Tile::Floor,
                'T' | 'W' => Tile::Wall,
                '@' | 'O' => Tile::Void,
                _ => {
                    return Err(err(n, x + 1, format!("unknown Moving AI glyph {c:?}"), row));
                }
            });
            count += 1;
        }
        if count < width {
            return Err(err(
                n,
                count + 1,
                format!("row has {count} cells, the header's width is {width}"),
                row,
            ));
        }
    }
    for item in it {
        let (n, line) = item?;
        if !line.trim().is_empty() {
            return Err(err(
                n,
                1,
                format!("more rows than the header's height {height}"),
                line,
            ));
        }
    }
    Ok(Level {
        title: None,
        grid: TileMap::from_tiles(width, height, tiles),
        player: None,
        monsters: Vec::new(),
        features: Vec::new(),
        notes: Vec::new(),
    })
}
