//! `map`: the rows of the map around the player, one line each, drawn with the map's own
//! glyphs and as much as the map shows: with sight on, what the player sees, and of the
//! rest what they remember (tiles, stairs and potions, never creatures); unseen cells are
//! blank.

use crate::app::App;
use crate::content::level::tile_glyph;
use crate::engine::grid::Pos;

/// Rows above and below the player's.
const ROWS: i32 = 7;
/// Columns left and right of the player's: a row's line stays well under the width.
const COLS: i32 = 30;

/// The lines `map` says: where the rows start, then one line a row, each `y 12: ...`.
pub fn lines(app: &App) -> Vec<String> {
    let w = app.world();
    let grid = w.grid();
    let me = w.player().pos;
    let clamp = |v: i32, r: i32, len: usize| {
        let lo = (v - r).max(0);
        let hi = (v + r).min(len as i32 - 1);
        (lo, hi)
    };
    let (x0, x1) = clamp(me.x, COLS, grid.width());
    let (y0, y1) = clamp(me.y, ROWS, grid.height());
    let width = (y1.max(0)).to_string().len();
    let mut out = vec![format!(
        "Map rows {y0} to {y1}, columns {x0} to {x1}; you are the @ at {me}, north is up{}.",
        if app.ui().sight() {
            ", blank is unseen"
        } else {
            ""
        }
    )];
    for y in y0..=y1 {
        let row: String = (x0..=x1).map(|x| glyph(app, Pos::new(x, y))).collect();
        out.push(format!("y {y:>width$}: {}", row.trim_end()));
    }
    out
}

/// What the map shows at a cell.
fn glyph(app: &App, p: Pos) -> char {
    let w = app.world();
    let seen = !app.ui().sight() || w.is_visible(p);
    if p == w.player().pos {
        return '@';
    }
    if seen && let Some(m) = w.monster_at(p) {
        return m.kind;
    }
    if !seen && !w.is_seen(p) {
        return ' ';
    }
    match w.feature_at(p) {
        Some(f) => f.glyph(),
        None => tile_glyph(w.grid().get(p)),
    }
}
