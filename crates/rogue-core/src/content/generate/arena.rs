//! Arenas: open ground with a few long walls and some pillars, where most paths could go
//! many equally short ways, so tie-breaking and the heuristic's shape show most.

use rand::RngExt;
use rand::rngs::Xoshiro256PlusPlus;

use crate::content::map::Tile;

/// Thousandths of the rock budget that goes to long walls; pillars take the rest.
const WALL_PART: usize = 667;
/// A long wall's length, in hundredths of the side it runs along.
const WALL_LENGTH: (usize, usize) = (30, 70);

/// Row-major tiles of an arena with a solid wall border: walls and pillars are laid until
/// `wall_share` of the interior is rock (or placement gives up). Everything keeps one cell
/// clear of the border, so nothing seals a corner off against it; walls that cross can
/// still close a space in, which the caller's joining opens again.
pub(super) fn carve(
    width: usize,
    height: usize,
    wall_share: f64,
    rng: &mut Xoshiro256PlusPlus,
) -> Vec<Tile> {
    let (iw, ih) = (width - 2, height - 2);
    let mut tiles = vec![Tile::Wall; width * height];
    for y in 1..height - 1 {
        tiles[y * width + 1..y * width + width - 1].fill(Tile::Floor);
    }
    let budget = (wall_share * (iw * ih) as f64).round() as usize;
    let wall_budget = budget * WALL_PART / 1000;
    // Every try adds at least one cell unless it lands on rock already laid, so this bounds
    // the work without cutting a normal arena short.
    let max_tries = 64 + 2 * budget;
    let mut placed = 0;
    let mut tries = 0;
    let put = |tiles: &mut [Tile], x: usize, y: usize| {
        let t = &mut tiles[y * width + x];
        let new = *t == Tile::Floor;
        *t = Tile::Wall;
        usize::from(new)
    };
    // A wall along an axis needs a cell clear at both ends and two rows clear beside it.
    let can_run = |along: usize, across: usize| along >= 5 && across >= 3;
    let (horizontal_ok, vertical_ok) = (can_run(iw, ih), can_run(ih, iw));
    while placed < wall_budget && tries < max_tries && (horizontal_ok || vertical_ok) {
        tries += 1;
        let horizontal = if horizontal_ok && vertical_ok {
            rng.random_bool(0.5)
        } else {
            horizontal_ok
        };
        let (along, across) = if horizontal { (iw, ih) } else { (ih, iw) };
        let len = rng
            .random_range(along * WALL_LENGTH.0 / 100..=along * WALL_LENGTH.1 / 100)
            .clamp(2, along - 2);
        // Interior coordinates run from 1; the first and last stay clear.
        let start = rng.random_range(2..=along - len);
        let line = rng.random_range(2..=across - 1);
        for i in start..start + len {
            let (x, y) = if horizontal { (i, line) } else { (line, i) };
            placed += put(&mut tiles, x, y);
        }
    }
    while placed < budget && tries < max_tries && iw >= 3 && ih >= 3 {
        tries += 1;
        let size = if iw >= 4 && ih >= 4 && rng.random_bool(0.5) {
            2
        } else {
            1
        };
        let x = rng.random_range(2..=iw - size);
        let y = rng.random_range(2..=ih - size);
        for dy in 0..size {
            for dx in 0..size {
                placed += put(&mut tiles, x + dx, y + dy);
            }
        }
    }
    tiles
}
