//! Caves: fractal Perlin noise cut at a quantile, then smoothed by a cellular automaton.

use noise::{Fbm, MultiFractal, NoiseFn, Perlin};
use rand::RngExt;
use rand::rngs::Xoshiro256PlusPlus;

use crate::content::map::Tile;

/// Noise cycles per cell: features (caverns, pillars) of roughly a dozen cells.
const FREQUENCY: f64 = 1.0 / 14.0;
/// Octaves of the fractal sum; more add detail the smoothing would erase anyway.
const OCTAVES: usize = 3;
/// Noise is computed on every `STEP`th cell of each axis and interpolated in between.
const STEP: usize = 2;
/// Cellular-automaton passes: enough to round off single-cell spurs and specks.
const SMOOTHING: usize = 2;

/// Row-major tiles of a cave map with a solid wall border; floor may be in several pieces.
/// `wall_share` of the interior is rock before smoothing. (The default, 0.42, is a little
/// under the median: cutting noise at its median sits right at the percolation threshold
/// and shatters big maps into pockets, while a little more floor makes one cave system
/// span the map and leaves the tunnels little to join.)
pub(super) fn carve(
    width: usize,
    height: usize,
    wall_share: f64,
    rng: &mut Xoshiro256PlusPlus,
) -> Vec<Tile> {
    let fbm = Fbm::<Perlin>::new(rng.random())
        .set_octaves(OCTAVES)
        .set_frequency(FREQUENCY);
    // A random origin so that maps of different sizes from one seed are not crops of each
    // other, and off the integer lattice where every Perlin octave is zero.
    let ox = rng.random_range(0.0..1.0e4) + 0.5;
    let oy = rng.random_range(0.0..1.0e4) + 0.5;
    let (iw, ih) = (width - 2, height - 2);
    // Noise is sampled on every other cell and interpolated between: the finest octave is
    // a few cells across and the smoothing rounds off anything smaller, so full resolution
    // would only cost four times the time (most of it on large maps).
    let (cw, ch) = (iw / STEP + 2, ih / STEP + 2);
    let mut coarse = Vec::with_capacity(cw * ch);
    for cy in 0..ch {
        for cx in 0..cw {
            let p = [ox + (cx * STEP) as f64, oy + (cy * STEP) as f64];
            coarse.push(fbm.get(p) as f32);
        }
    }
    let mut values = Vec::with_capacity(iw * ih);
    for y in 0..ih {
        let (cy, fy) = (y / STEP, (y % STEP) as f32 / STEP as f32);
        let (top, bottom) = (&coarse[cy * cw..], &coarse[(cy + 1) * cw..]);
        for x in 0..iw {
            let (cx, fx) = (x / STEP, (x % STEP) as f32 / STEP as f32);
            let upper = top[cx] + (top[cx + 1] - top[cx]) * fx;
            let lower = bottom[cx] + (bottom[cx + 1] - bottom[cx]) * fx;
            values.push(upper + (lower - upper) * fy);
        }
    }
    // Cutting at a quantile rather than a fixed level keeps the floor share steady on tiny
    // maps, where a window of noise can be all high or all low.
    let mut sorted = values.clone();
    let cut = (wall_share * sorted.len() as f64) as usize;
    let cut = cut.min(sorted.len() - 1);
    let (_, &mut threshold, _) = sorted.select_nth_unstable_by(cut, f32::total_cmp);

    // 1 = wall. The border stays wall through every pass.
    let mut cells = vec![1u8; width * height];
    for y in 0..ih {
        let row = (y + 1) * width + 1;
        for x in 0..iw {
            cells[row + x] = u8::from(values[y * iw + x] < threshold);
        }
    }
    let mut next = cells.clone();
    // A pass that would leave less floor than an attempt needs is not taken: on thin maps,
    // where every cell is near the rock border, smoothing would fill nearly everything in.
    let least_floor = super::fill::least_floor(width, height, wall_share);
    for _ in 0..SMOOTHING {
        smooth(width, height, &cells, &mut next);
        if next.iter().filter(|&&c| c == 0).count() < least_floor {
            break;
        }
        std::mem::swap(&mut cells, &mut next);
    }
    cells
        .into_iter()
        .map(|c| if c == 1 { Tile::Wall } else { Tile::Floor })
        .collect()
}

/// One pass of the 4-5 rule: a cell with five or more walls among its eight neighbours
/// becomes wall, one with three or fewer becomes floor, four leaves it as it was.
fn smooth(width: usize, height: usize, cells: &[u8], next: &mut [u8]) {
    for y in 1..height - 1 {
        let (up, mid, down) = ((y - 1) * width, y * width, (y + 1) * width);
        for x in 1..width - 1 {
            let walls = cells[up + x - 1]
                + cells[up + x]
                + cells[up + x + 1]
                + cells[mid + x - 1]
                + cells[mid + x + 1]
                + cells[down + x - 1]
                + cells[down + x]
                + cells[down + x + 1];
            next[mid + x] = match walls {
                0..=3 => 0,
                4 => cells[mid + x],
                _ => 1,
            };
        }
    }
}
