//! Joining a map's separate floor regions with tunnels, so that a level keeps all the floor
//! its generator made instead of only the largest piece.

use std::collections::VecDeque;

use crate::content::map::{Tile, TileMap};
use crate::engine::grid::{Neighbourhood, Regions};

/// No predecessor (a cell of the root region, or one not reached).
const NO_STEP: u8 = u8::MAX;

/// The four straight steps as index offsets' signs: up, right, down, left. Tunnels are
/// 4-connected, since that is what 8-way movement without corner cutting needs.
const STEPS: [(isize, isize); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];

/// Joins every floor region to the largest one by carving the fewest walls: one 0-1
/// breadth-first search from the largest region, in which floor costs nothing and wall
/// costs one, gives every cell its cheapest way back; each other region then carves its way
/// back until it meets floor that is already joined. The border is never carved.
///
/// Cost: linear in the map's cells, whatever the number of regions.
pub(super) fn join_regions(width: usize, height: usize, tiles: &mut [Tile]) {
    let grid = TileMap::from_tiles(width, height, tiles.to_vec());
    let regions = Regions::compute(grid.cost_grid(), Neighbourhood::Eight);
    let Some(root) = regions.largest() else {
        return;
    };
    if regions.count() < 2 {
        return;
    }
    let labels = regions.labels();
    let n = width * height;
    let mut dist = vec![u32::MAX; n];
    // The step taken to reach each cell, as an index into STEPS.
    let mut came_by = vec![NO_STEP; n];
    let mut queue = VecDeque::new();
    for (i, &l) in labels.iter().enumerate() {
        if l == root {
            dist[i] = 0;
            queue.push_back(i);
        }
    }
    while let Some(c) = queue.pop_front() {
        let (x, y) = (c % width, c / width);
        for (step, &(dx, dy)) in STEPS.iter().enumerate() {
            let (nx, ny) = (x.wrapping_add_signed(dx), y.wrapping_add_signed(dy));
            // Interior cells only: the border stays wall.
            if nx == 0 || ny == 0 || nx >= width - 1 || ny >= height - 1 {
                continue;
            }
            let next = ny * width + nx;
            let floor = labels[next] != Regions::NONE;
            let d = dist[c] + u32::from(!floor);
            if d < dist[next] {
                dist[next] = d;
                came_by[next] = step as u8;
                // Floor is free, so it goes to the front: the queue stays sorted by cost.
                if floor {
                    queue.push_front(next);
                } else {
                    queue.push_back(next);
                }
            }
        }
    }
    let mut joined = vec![false; regions.count()];
    joined[root as usize] = true;
    let mut carved = vec![false; n];
    // Regions in label order, which is reading order of their first cells: deterministic.
    let mut first_cell = vec![usize::MAX; regions.count()];
    for (i, &l) in labels.iter().enumerate().rev() {
        if l != Regions::NONE {
            first_cell[l as usize] = i;
        }
    }
    for (label, &start) in first_cell.iter().enumerate() {
        if joined[label] {
            continue;
        }
        joined[label] = true;
        let mut c = start;
        // Walk back along the cheapest way; every region it crosses is joined by it too. A
        // cheapest way never comes back into a region it has left (every cell of a region
        // costs the same), so only meeting a new region can end the walk.
        let mut crossing = label as u32;
        loop {
            let step = came_by[c];
            if step == NO_STEP {
                break;
            }
            let (dx, dy) = STEPS[step as usize];
            let (x, y) = (c % width, c / width);
            c = y.wrapping_add_signed(-dy) * width + x.wrapping_add_signed(-dx);
            let l = labels[c];
            if l == Regions::NONE {
                if carved[c] {
                    break;
                }
                carved[c] = true;
                tiles[c] = Tile::Floor;
            } else if l != crossing {
                if joined[l as usize] {
                    break;
                }
                joined[l as usize] = true;
                crossing = l;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn joined(rows: &[&str]) -> Vec<String> {
        let g = TileMap::from_rows(rows);
        let mut tiles = g.tiles().to_vec();
        join_regions(g.width(), g.height(), &mut tiles);
        let g = TileMap::from_tiles(g.width(), g.height(), tiles);
        (0..g.height())
            .map(|y| {
                (0..g.width())
                    .map(|x| {
                        let t = g.get(crate::engine::grid::Pos::new(x as i32, y as i32));
                        crate::content::level::tile_glyph(t)
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn regions_are_joined_through_the_fewest_walls() {
        let rows = [
            "##########",
            "#...#....#",
            "#...#....#",
            "#####.####",
            "#.#.##...#",
            "##########",
        ];
        let out = joined(&rows);
        let g = TileMap::from_rows(&out.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(
            Regions::compute(g.cost_grid(), Neighbourhood::Eight).count(),
            1
        );
        // The left room, the bottom-right pocket and the two lone cells each need one wall
        // carved; nothing else changes.
        let carved: usize = out
            .iter()
            .zip(rows)
            .map(|(a, b)| a.bytes().zip(b.bytes()).filter(|(x, y)| x != y).count())
            .sum();
        assert_eq!(carved, 4, "{out:#?}");
        assert!(out.iter().all(|r| r.starts_with('#') && r.ends_with('#')));
        assert_eq!(out[0], rows[0]);
        assert_eq!(out[5], rows[5]);
    }

    #[test]
    fn a_tunnel_through_a_middle_region_carries_on_to_the_largest() {
        // The left pocket's cheapest way crosses the middle room, several cells wide,
        // before it reaches the large right room: both walls on the way are carved.
        let rows = [
            "###############",
            "#..#....#.....#",
            "#..#....#.....#",
            "###############",
        ];
        let out = joined(&rows);
        let g = TileMap::from_rows(&out.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(
            Regions::compute(g.cost_grid(), Neighbourhood::Eight).count(),
            1,
            "{out:#?}"
        );
        let carved: usize = out
            .iter()
            .zip(rows)
            .map(|(a, b)| a.bytes().zip(b.bytes()).filter(|(x, y)| x != y).count())
            .sum();
        assert_eq!(carved, 2, "{out:#?}");
    }

    #[test]
    fn one_region_or_none_is_left_alone() {
        let rows = ["#####", "#...#", "#####"];
        assert_eq!(joined(&rows), rows);
        let rock = ["#####", "#####", "#####"];
        assert_eq!(joined(&rock), rock);
    }

    #[test]
    fn a_far_pocket_gets_a_tunnel_of_exactly_its_distance() {
        let rows = [
            "############",
            "#..#########",
            "#..#########",
            "#########..#",
            "############",
        ];
        let out = joined(&rows);
        let carved: usize = out
            .iter()
            .zip(rows)
            .map(|(a, b)| a.bytes().zip(b.bytes()).filter(|(x, y)| x != y).count())
            .sum();
        // (2,2) and (9,3) are 8 straight steps apart: 7 cells of rock between them.
        assert_eq!(carved, 7, "{out:#?}");
    }
}
