//! Cellular-automaton caves, as the roguelike development wikis describe them: random fill,
//! then passes of a neighbour-count rule that turn noise into caverns.

use rand::RngExt;
use rand::rngs::Xoshiro256PlusPlus;

use crate::content::map::Tile;

/// Passes that also wall a cell with almost no rock within two steps, so that no cavern
/// grows into one featureless hall.
const OPENING_PASSES: usize = 4;
/// Passes of the plain rule, which round the caverns off and clear single-cell specks.
const SMOOTHING_PASSES: usize = 3;
/// Rock from this many of the 3x3 block (the cell itself included) makes a cell rock.
const ROCK_NEAR: u32 = 5;
/// Rock from at most this many of the 5x5 block makes a cell rock in the opening passes.
const ROCK_FAR: u32 = 2;
/// Cells of always-rock padding around the map, so that blocks near the edge need no
/// bounds checks (outside the map counts as rock).
const PAD: usize = 2;

/// Row-major tiles of a cellular-automaton cave with a solid wall border: every interior
/// cell starts as rock with odds `wall_share`, then the rule "rock if five or more of its
/// 3x3 block are rock (or, in the first passes, two or fewer of its 5x5 block)" runs over
/// the map. Floor may be in several pieces.
pub(super) fn carve(
    width: usize,
    height: usize,
    wall_share: f64,
    rng: &mut Xoshiro256PlusPlus,
) -> Vec<Tile> {
    let (pw, ph) = (width + 2 * PAD, height + 2 * PAD);
    // 1 = rock; the padding and the map's border stay rock through every pass.
    let mut cells = vec![1u8; pw * ph];
    for y in 1..height - 1 {
        for x in 1..width - 1 {
            cells[(y + PAD) * pw + x + PAD] = u8::from(rng.random_bool(wall_share));
        }
    }
    // A pass that would leave less floor than an attempt needs is not taken: on thin maps,
    // where every cell is near the rock border, the rule would fill nearly everything in.
    let least_floor = super::fill::least_floor(width, height, wall_share);
    let mut sums = vec![0u32; (pw + 1) * (ph + 1)];
    let mut next = cells.clone();
    for pass in 0..OPENING_PASSES + SMOOTHING_PASSES {
        let opening = pass < OPENING_PASSES;
        prefix_sums(pw, ph, &cells, &mut sums);
        let block = |x: usize, y: usize, r: usize| {
            // Rock in the (2r+1)-square around padded cell (x, y).
            let (x0, y0, x1, y1) = (x - r, y - r, x + r + 1, y + r + 1);
            let s = |x: usize, y: usize| sums[y * (pw + 1) + x];
            s(x1, y1) + s(x0, y0) - s(x0, y1) - s(x1, y0)
        };
        for y in PAD + 1..PAD + height - 1 {
            for x in PAD + 1..PAD + width - 1 {
                let rock = block(x, y, 1) >= ROCK_NEAR || (opening && block(x, y, 2) <= ROCK_FAR);
                next[y * pw + x] = u8::from(rock);
            }
        }
        if next.iter().filter(|&&c| c == 0).count() < least_floor {
            break;
        }
        std::mem::swap(&mut cells, &mut next);
    }
    let mut tiles = Vec::with_capacity(width * height);
    for y in 0..height {
        let row = &cells[(y + PAD) * pw + PAD..(y + PAD) * pw + PAD + width];
        tiles.extend(
            row.iter()
                .map(|&c| if c == 1 { Tile::Wall } else { Tile::Floor }),
        );
    }
    tiles
}

/// Fills `sums` with the summed-area table of `cells` (`pw` by `ph`): entry (x, y) of the
/// `(pw + 1)`-wide table is the count of rock above and left of cell (x, y).
fn prefix_sums(pw: usize, ph: usize, cells: &[u8], sums: &mut [u32]) {
    let stride = pw + 1;
    for y in 0..ph {
        let mut row = 0u32;
        for x in 0..pw {
            row += u32::from(cells[y * pw + x]);
            sums[(y + 1) * stride + x + 1] = sums[y * stride + x + 1] + row;
        }
    }
}
