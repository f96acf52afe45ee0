//! Moving AI benchmark maps (`type octile`): `.` `G` `S` open, `T` `W` walls, `@` `O` void.

use super::{Level, ParseError, check_dims, lines};
use crate::grid::{Grid, Tile};

/// Parses a `.map` file: `type octile`, `height H`, `width W`, `map`, then H rows of W cells.
pub(super) fn parse(bytes: &[u8], file: &str) -> Result<Level, ParseError> {
    let err = |line: usize, col: usize, msg: String, text: &str| {
        ParseError::new(file.to_string(), line, col, msg, text.to_string())
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
    let mut dims = [0usize; 2];
    let mut last = n;
    for (i, key) in ["height", "width"].into_iter().enumerate() {
        let (n, line) = next(key, last)?;
        last = n;
        let value = line
            .strip_prefix(key)
            .map(str::trim)
            .ok_or_else(|| err(n, 1, format!("expected `{key} N`"), line))?;
        dims[i] = value
            .parse()
            .ok()
            .filter(|v: &usize| *v <= super::MAX_SIDE * 2)
            .ok_or_else(|| {
                let col = (key.len() + 2).min(line.chars().count() + 1);
                err(n, col, format!("bad {key} {value:?}"), line)
            })?;
    }
    let [height, width] = dims;
    check_dims(width, height).map_err(|m| err(last, 1, m, ""))?;
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
        grid: Grid::from_tiles(width, height, tiles),
        player: None,
        monsters: Vec::new(),
    })
}
