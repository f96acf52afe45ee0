//! Where a generated floor starts the player: never in a dead-end pocket. A pocket is a part
//! of the floor that one cell (a chokepoint) cuts off from the rest; a player starting there
//! meets every monster of the floor through that one cell. So the start lies in the largest
//! *block* of the floor: a part that no single cell cuts in two (a room with two ways out,
//! a cave loop), found with Tarjan and Hopcroft's biconnected components of the floor's
//! cells under 4-way steps (which connect exactly what 8-way steps without corner cutting
//! connect).

use crate::engine::grid::{DIRECTIONS, Grid};

/// The cells of the largest block of `region`'s cells (cells for which `inside` holds), in
/// index order: the cells that stay together whichever single cell is taken away. A region
/// of one cell is its own block.
pub(super) fn largest_block(grid: &Grid, inside: impl Fn(usize) -> bool) -> Vec<usize> {
    let n = grid.len();
    const UNSEEN: u32 = u32::MAX;
    let mut disc = vec![UNSEEN; n];
    let mut low = vec![0u32; n];
    // Per cell on the walk, the next direction to try.
    let mut next_dir = vec![0u8; n];
    let mut parent = vec![usize::MAX; n];
    let mut edges: Vec<(usize, usize)> = Vec::new();
    let mut stack: Vec<usize> = Vec::new();
    // Which block last counted a cell, so that a block's size counts each cell once.
    let mut counted = vec![u32::MAX; n];
    let mut best: (usize, Vec<usize>) = (0, Vec::new());
    let mut blocks = 0u32;
    let mut time = 0u32;
    let neighbour = |c: usize, d: usize| -> Option<usize> {
        let p = grid.pos(c);
        let (dx, dy) = DIRECTIONS[d];
        grid.index(p.offset(dx, dy)).filter(|&m| inside(m))
    };
    let pop_block = |edges: &mut Vec<(usize, usize)>,
                     until: (usize, usize),
                     counted: &mut Vec<u32>,
                     best: &mut (usize, Vec<usize>),
                     blocks: &mut u32| {
        let mut cells = Vec::new();
        while let Some(e) = edges.pop() {
            for c in [e.0, e.1] {
                if counted[c] != *blocks {
                    counted[c] = *blocks;
                    cells.push(c);
                }
            }
            if e == until {
                break;
            }
        }
        *blocks += 1;
        if cells.len() > best.0 {
            cells.sort_unstable();
            *best = (cells.len(), cells);
        }
    };
    for root in 0..n {
        if disc[root] != UNSEEN || !inside(root) {
            continue;
        }
        disc[root] = time;
        low[root] = time;
        time += 1;
        stack.push(root);
        if best.0 == 0 {
            best = (1, vec![root]);
        }
        while let Some(&c) = stack.last() {
            let d = usize::from(next_dir[c]);
            if d < 4 {
                next_dir[c] += 1;
                let Some(m) = neighbour(c, d) else { continue };
                if disc[m] == UNSEEN {
                    parent[m] = c;
                    disc[m] = time;
                    low[m] = time;
                    time += 1;
                    edges.push((c, m));
                    stack.push(m);
                } else if m != parent[c] && disc[m] < disc[c] {
                    edges.push((c, m));
                    low[c] = low[c].min(disc[m]);
                }
                continue;
            }
            stack.pop();
            let p = parent[c];
            if p == usize::MAX {
                continue;
            }
            low[p] = low[p].min(low[c]);
            if low[c] >= disc[p] {
                // `p` cuts `c`'s side off (or is the root): the edges above close a block.
                pop_block(&mut edges, (p, c), &mut counted, &mut best, &mut blocks);
            }
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(rows: &[&str]) -> Vec<usize> {
        let g = Grid::from_rows(rows);
        let costs = g.costs().to_vec();
        largest_block(&g, |i| costs[i] != 0)
    }

    #[test]
    fn a_room_with_a_dead_end_corridor_keeps_the_corridor_out() {
        // A 3x3 room (a block) and a corridor of four cells hanging off it: each corridor
        // cell is cut off by the one before it.
        let cells = block(&[
            "#########",
            "#...#####",
            "#........",
            "#...#####",
            "#########",
        ]);
        assert_eq!(cells, [10, 11, 12, 19, 20, 21, 28, 29, 30]);
    }

    #[test]
    fn a_loop_is_one_block_and_a_chain_of_rooms_splits_at_each_door() {
        // Two rooms joined twice: one block of all their cells and both passages.
        let loop_ = block(&["#######", "#.....#", "#.#.#.#", "#.....#", "#######"]);
        assert_eq!(loop_.len(), 13);
        // Two rooms joined once through a door cell: the larger room alone (with the door,
        // which sits on its edge by one step).
        let chain = block(&["########", "#...#..#", "#......#", "#...#..#", "########"]);
        assert_eq!(chain, [9, 10, 11, 17, 18, 19, 25, 26, 27]);
    }
}
