//! Dijkstra maps: the cost from one cell to every cell it can reach, computed once and read by
//! many (Brogue's way of letting a crowd of monsters chase the player with one search).

use crate::grid::{DIAGONAL, DIRECTIONS, Grid, Neighbourhood, Pos, STRAIGHT};

/// No path: the cell is a wall or cut off.
pub const UNREACHED: u32 = u32::MAX;

/// The cheapest cost from a source cell to every cell, under a movement rule, with the
/// game's integer costs (10 straight, 14 diagonal, times the weight of the cell entered on a
/// weighted grid). Buffers are kept between computations.
#[derive(Debug, Clone, Default)]
pub struct DistanceMap {
    width: usize,
    dist: Vec<u32>,
    source: Option<Pos>,
    rule: Neighbourhood,
    expanded: u32,
    /// Dial's buckets: costs grow by at most 14 per step (times the heaviest weight, at most
    /// 9), so 16 (or 128) buckets by cost modulo their number hold every cell waiting to be
    /// settled.
    buckets: Vec<Vec<u32>>,
}

impl DistanceMap {
    /// An empty map; [`DistanceMap::compute`] fills it.
    pub fn new() -> Self {
        Self::default()
    }

    /// Computes the costs from `from` to every cell of `grid` under `rule`. A source that is
    /// not a floor cell reaches nothing.
    ///
    /// ```
    /// use astar_grid::dijkstra::DistanceMap;
    /// use astar_grid::grid::{Grid, Neighbourhood, Pos};
    ///
    /// let grid = Grid::from_rows(&["....", ".##.", "...."]);
    /// let mut map = DistanceMap::new();
    /// map.compute(&grid, Pos::new(0, 1), Neighbourhood::Eight);
    /// // Round the wall: no diagonal may cut its corners, so five straight steps.
    /// assert_eq!(map.get(Pos::new(3, 1)), Some(50));
    /// assert_eq!(map.get(Pos::new(1, 1)), None);
    /// ```
    pub fn compute(&mut self, grid: &Grid, from: Pos, rule: Neighbourhood) {
        self.fill(grid, from, rule, false);
    }

    /// Computes the cost of reaching `to` from every cell of `grid` under `rule`: the map a
    /// crowd rolls downhill on toward `to`. A step costs the weight of the cell it enters,
    /// so on a weighted grid the way there and the way back may cost differently; on an
    /// unweighted grid this is [`DistanceMap::compute`].
    ///
    /// ```
    /// use astar_grid::dijkstra::DistanceMap;
    /// use astar_grid::grid::{Grid, Neighbourhood, Pos};
    ///
    /// let grid = Grid::from_rows(&["~.."]);
    /// let (mut from, mut to) = (DistanceMap::new(), DistanceMap::new());
    /// from.compute(&grid, Pos::new(2, 0), Neighbourhood::Eight);
    /// to.compute_to(&grid, Pos::new(2, 0), Neighbourhood::Eight);
    /// // Wading into the water costs 30; walking out of it 10.
    /// assert_eq!((from.get(Pos::new(0, 0)), to.get(Pos::new(0, 0))), (Some(40), Some(20)));
    /// ```
    pub fn compute_to(&mut self, grid: &Grid, to: Pos, rule: Neighbourhood) {
        self.fill(grid, to, rule, true);
    }

    /// Dial's algorithm from `from`; `toward` counts each step's cost the other way round
    /// (the weight of the cell stepped from, in the search's direction).
    fn fill(&mut self, grid: &Grid, from: Pos, rule: Neighbourhood, toward: bool) {
        self.width = grid.width();
        self.dist.clear();
        self.dist.resize(grid.len(), UNREACHED);
        self.source = Some(from);
        self.rule = rule;
        self.expanded = 0;
        let weighted = grid.is_weighted();
        let slots = if weighted { 128 } else { 16 };
        if self.buckets.len() != slots {
            self.buckets.resize_with(slots, Vec::new);
        }
        for b in &mut self.buckets {
            b.clear();
        }
        let mask = slots as u32 - 1;
        let Some(start) = grid.index(from).filter(|_| grid.is_passable(from)) else {
            return;
        };
        self.dist[start] = 0;
        self.buckets[0].push(start as u32);
        let mut pending = 1usize;
        let mut cost = 0u32;
        let dirs: &[(i32, i32)] = if rule == Neighbourhood::Four {
            &DIRECTIONS[..4]
        } else {
            &DIRECTIONS
        };
        while pending > 0 {
            let slot = (cost & mask) as usize;
            while let Some(c) = self.buckets[slot].pop() {
                pending -= 1;
                let c = c as usize;
                if self.dist[c] != cost {
                    continue;
                }
                self.expanded += 1;
                let p = grid.pos(c);
                for (d, &(dx, dy)) in dirs.iter().enumerate() {
                    if !grid.can_step(p, dx, dy, rule) {
                        continue;
                    }
                    let n = c
                        .wrapping_add_signed(dx as isize)
                        .wrapping_add_signed(dy as isize * self.width as isize);
                    let base = if d < 4 { STRAIGHT } else { DIAGONAL };
                    let nd = cost
                        + match (weighted, toward) {
                            (false, _) => base,
                            (true, false) => base * grid.weight(p.offset(dx, dy)),
                            (true, true) => base * grid.weight(p),
                        };
                    if nd < self.dist[n] {
                        self.dist[n] = nd;
                        self.buckets[(nd & mask) as usize].push(n as u32);
                        pending += 1;
                    }
                }
            }
            cost += 1;
        }
    }

    /// The cost from the source to `p`, if `p` can be reached.
    pub fn get(&self, p: Pos) -> Option<u32> {
        if p.x < 0 || p.y < 0 || p.x as usize >= self.width {
            return None;
        }
        let d = *self.dist.get(p.y as usize * self.width + p.x as usize)?;
        (d != UNREACHED).then_some(d)
    }

    /// Every cell's cost, row-major ([`UNREACHED`] where none).
    pub fn costs(&self) -> &[u32] {
        &self.dist
    }

    /// The cell the map was computed from.
    pub fn source(&self) -> Option<Pos> {
        self.source
    }

    /// Cells settled by the last computation: the work of one search for everyone.
    pub fn expanded(&self) -> u32 {
        self.expanded
    }

    /// The best legal step from `at` toward the source: the neighbour with the lowest cost,
    /// lower than `at`'s own, among those `free` allows (ties go to the first in
    /// [`DIRECTIONS`] order). `None` when no step gets closer. On a weighted grid (a map made
    /// by [`DistanceMap::compute_to`]) the lowest cost counts the step too: what entering
    /// the neighbour costs plus its cost from there, so the step is on a cheapest way.
    pub fn downhill(&self, grid: &Grid, at: Pos, free: impl Fn(Pos) -> bool) -> Option<Pos> {
        let here = self.get(at)?;
        let dirs: &[(i32, i32)] = if self.rule == Neighbourhood::Four {
            &DIRECTIONS[..4]
        } else {
            &DIRECTIONS
        };
        if grid.is_weighted() {
            return dirs
                .iter()
                .filter(|&&(dx, dy)| grid.can_step(at, dx, dy, self.rule))
                .map(|&(dx, dy)| at.offset(dx, dy))
                .filter_map(|n| Some((self.get(n)? + grid.step_cost(at, n)?, self.get(n)?, n)))
                .filter(|&(_, d, n)| d < here && free(n))
                .min_by_key(|&(total, _, _)| total)
                .map(|(_, _, n)| n);
        }
        dirs.iter()
            .filter(|&&(dx, dy)| grid.can_step(at, dx, dy, self.rule))
            .map(|&(dx, dy)| at.offset(dx, dy))
            .filter_map(|n| Some((self.get(n)?, n)))
            .filter(|&(d, n)| d < here && free(n))
            .min_by_key(|&(d, _)| d)
            .map(|(_, n)| n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::astar::{Pathfinder, Query, SearchOptions};

    #[test]
    fn costs_equal_a_star_from_every_cell() {
        let grid = Grid::from_rows(&[
            "..........",
            "..###.....",
            "....#..#..",
            ".#..#..#..",
            ".#.....#..",
            "..........",
        ]);
        let goal = Pos::new(9, 0);
        for rule in Neighbourhood::ALL {
            let mut map = DistanceMap::new();
            map.compute(&grid, goal, rule);
            let mut pf = Pathfinder::new();
            let opts = SearchOptions {
                neighbourhood: rule,
                heuristic: crate::astar::Heuristic::Zero,
                ..SearchOptions::default()
            };
            for i in 0..grid.len() {
                let p = grid.pos(i);
                let want = grid
                    .is_passable(p)
                    .then(|| pf.find(&grid, Query::new(p, goal).options(opts)).cost)
                    .flatten();
                assert_eq!(map.get(p), want, "{rule:?} {p}");
            }
        }
    }

    #[test]
    fn weighted_costs_equal_a_star_from_every_cell() {
        let grid = Grid::from_rows(&[
            "....~~....",
            "..###~~\"..",
            "...~#..#..",
            ".#.~#..#\".",
            ".#..~~~#..",
            "....\"\"....",
        ]);
        assert!(grid.is_weighted());
        let goal = Pos::new(9, 0);
        for rule in Neighbourhood::ALL {
            let mut map = DistanceMap::new();
            map.compute(&grid, goal, rule);
            let mut pf = Pathfinder::new();
            let opts = SearchOptions {
                neighbourhood: rule,
                ..SearchOptions::default()
            };
            for i in 0..grid.len() {
                let p = grid.pos(i);
                // From p to the goal and back cost the same only on unweighted grids: the
                // map holds the cost of reaching each cell from the source.
                let want = grid
                    .is_passable(p)
                    .then(|| pf.find(&grid, Query::new(goal, p).options(opts)).cost)
                    .flatten();
                assert_eq!(map.get(p), want, "{rule:?} {p}");
            }
        }
    }

    #[test]
    fn costs_toward_a_cell_equal_a_star_to_it_and_downhill_follows_them() {
        let grid = Grid::from_rows(&[
            "....~~....",
            "..###~~\"..",
            "...~#..#..",
            ".#.~#..#\".",
            ".#..~~~#..",
            "....\"\"....",
        ]);
        let goal = Pos::new(9, 0);
        for rule in Neighbourhood::ALL {
            let mut map = DistanceMap::new();
            map.compute_to(&grid, goal, rule);
            let mut pf = Pathfinder::new();
            let opts = SearchOptions {
                neighbourhood: rule,
                ..SearchOptions::default()
            };
            for i in 0..grid.len() {
                let p = grid.pos(i);
                let want = grid
                    .is_passable(p)
                    .then(|| pf.find(&grid, Query::new(p, goal).options(opts)).cost)
                    .flatten();
                assert_eq!(map.get(p), want, "{rule:?} {p}");
                // Rolling downhill from anywhere reached costs exactly the map's cost.
                if let Some(total) = want {
                    let (mut at, mut paid) = (p, 0);
                    while let Some(next) = map.downhill(&grid, at, |_| true) {
                        paid += grid.step_cost(at, next).unwrap();
                        at = next;
                    }
                    assert_eq!((at, paid), (goal, total), "{rule:?} from {p}");
                }
            }
        }
    }

    #[test]
    fn downhill_steps_toward_the_source_and_respects_corners() {
        let grid = Grid::from_rows(&["...", ".#.", "..."]);
        let mut map = DistanceMap::new();
        map.compute(&grid, Pos::new(0, 0), Neighbourhood::Eight);
        // From the far corner: a diagonal into the wall's corner is illegal.
        let step = map.downhill(&grid, Pos::new(2, 2), |_| true).unwrap();
        assert!(step == Pos::new(2, 1) || step == Pos::new(1, 2));
        assert_eq!(map.downhill(&grid, Pos::new(0, 0), |_| true), None);
        // A taken best cell: the next best, never uphill.
        let next = map.downhill(&grid, Pos::new(1, 0), |p| p != Pos::new(0, 0));
        assert_eq!(next, None);
    }
}
