//! Perfect mazes: corridors one cell wide with exactly one way between any two cells, so the
//! straight-line heuristic says little about the real distance (A*'s worst case).

use rand::RngExt;
use rand::rngs::Xoshiro256PlusPlus;

use crate::content::map::Tile;

/// Row-major tiles of a maze with a solid wall border. Maze cells sit on odd coordinates
/// and the walls between them on even ones; a depth-first walk with random turns (the
/// "recursive backtracker") knocks through walls, which makes long winding corridors with
/// few branches. A map of even width or height leaves its last interior column or row rock.
pub(super) fn carve(width: usize, height: usize, rng: &mut Xoshiro256PlusPlus) -> Vec<Tile> {
    let (cols, rows) = ((width - 1) / 2, (height - 1) / 2);
    let mut floor = vec![false; width * height];
    let mut visited = vec![false; cols * rows];
    let at = |cx: usize, cy: usize| (2 * cy + 1) * width + 2 * cx + 1;
    let start = rng.random_range(0..cols * rows);
    visited[start] = true;
    floor[at(start % cols, start / cols)] = true;
    let mut stack = vec![start];
    let mut options = Vec::with_capacity(4);
    while let Some(&cell) = stack.last() {
        let (cx, cy) = (cell % cols, cell / cols);
        options.clear();
        if cy > 0 && !visited[cell - cols] {
            options.push(cell - cols);
        }
        if cx + 1 < cols && !visited[cell + 1] {
            options.push(cell + 1);
        }
        if cy + 1 < rows && !visited[cell + cols] {
            options.push(cell + cols);
        }
        if cx > 0 && !visited[cell - 1] {
            options.push(cell - 1);
        }
        if options.is_empty() {
            stack.pop();
            continue;
        }
        let next = options[rng.random_range(0..options.len())];
        visited[next] = true;
        let (nx, ny) = (next % cols, next / cols);
        let (a, b) = (at(cx, cy), at(nx, ny));
        // The wall between two maze cells is halfway between their tiles.
        floor[(a + b) / 2] = true;
        floor[b] = true;
        stack.push(next);
    }
    floor
        .into_iter()
        .map(|f| if f { Tile::Floor } else { Tile::Wall })
        .collect()
}
