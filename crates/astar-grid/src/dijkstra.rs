//! Dijkstra maps: the cost from one or several cells to every cell they can reach, computed
//! once and read by many (Brogue's way of letting a crowd of monsters chase the player with
//! one search).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::grid::{DIRECTIONS, Grid, Neighbourhood, Pos};

/// No path: the cell is blocked or cut off.
pub const UNREACHED: u32 = u32::MAX;

/// The largest cost a map holds; cells dearer than this to reach are [`UNREACHED`].
const LIMIT: u32 = crate::astar::MAX_COST;

/// Steps dearer than this are settled from a binary heap: Dial's buckets, one per cost
/// below the dearest step, would be too many to sweep.
const DIAL_MAX_STEP: u32 = 1 << 12;

/// The cheapest cost from a set of source cells to every cell, under a movement rule and the
/// grid's costs (a step's base cost times the cost of the cell entered). Buffers are kept
/// between computations.
#[derive(Debug, Clone, Default)]
pub struct DistanceMap {
    width: usize,
    dist: Vec<u32>,
    source: Option<Pos>,
    rule: Neighbourhood,
    expanded: u32,
    /// Set when the last computation stopped early: every cell it left unreached costs
    /// at least this much (see [`DistanceMap::bound`]).
    bound: Option<u32>,
    /// Dial's buckets: a step costs at most the dearest step, so that many buckets (a power
    /// of two) by cost modulo their number hold every cell waiting to be settled.
    buckets: Vec<Vec<u32>>,
    /// The queue for grids whose dearest step is too dear for buckets.
    heap: BinaryHeap<Reverse<(u32, u32)>>,
    /// The grid's costs with a blocked border, as of `padded_revision`.
    padded: Vec<u8>,
    /// The highest of those costs (at least 1): it sizes the buckets.
    highest: u32,
    padded_revision: u64,
    /// The costs found, laid out as `padded`, while a computation runs.
    around: Scratch,
}

/// A buffer refilled by every use, so a clone of its owner starts it empty: a map is cloned
/// with the world that holds it, and copying 4 MB of a 1024x1024 map's scratch would be
/// wasted.
#[derive(Debug, Default)]
struct Scratch(Vec<u32>);

impl Clone for Scratch {
    fn clone(&self) -> Self {
        Self::default()
    }
}

/// The cells waiting to be settled, cheapest first.
trait Frontier {
    fn push(&mut self, cost: u32, cell: usize);
    fn pop(&mut self) -> Option<(u32, usize)>;
}

/// Dial's buckets: a step costs at most the dearest step, so that many buckets (a power of
/// two) by cost modulo their number hold every cell waiting.
struct Dial<'a> {
    buckets: &'a mut [Vec<u32>],
    mask: u32,
    /// The cost of the bucket being emptied.
    cost: u32,
    /// Cells in the buckets: none left ends the search without sweeping every bucket.
    pending: usize,
}

impl Dial<'_> {
    fn clear(&mut self) {
        for b in self.buckets.iter_mut() {
            b.clear();
        }
    }
}

impl Frontier for Dial<'_> {
    #[inline]
    fn push(&mut self, cost: u32, cell: usize) {
        self.buckets[(cost & self.mask) as usize].push(cell as u32);
        self.pending += 1;
    }

    #[inline]
    fn pop(&mut self) -> Option<(u32, usize)> {
        while self.pending != 0 {
            if let Some(c) = self.buckets[(self.cost & self.mask) as usize].pop() {
                self.pending -= 1;
                return Some((self.cost, c as usize));
            }
            self.cost += 1;
        }
        None
    }
}

impl Frontier for BinaryHeap<Reverse<(u32, u32)>> {
    #[inline]
    fn push(&mut self, cost: u32, cell: usize) {
        BinaryHeap::push(self, Reverse((cost, cell as u32)));
    }

    #[inline]
    fn pop(&mut self) -> Option<(u32, usize)> {
        BinaryHeap::pop(self).map(|Reverse((d, c))| (d, c as usize))
    }
}

/// A movement rule's steps on the padded layout.
struct Moves {
    /// Each direction's step, as an index offset (wrapping: negative ones too).
    offsets: [usize; 8],
    /// A diagonal's two side cells, which must both be open unless corners may be cut.
    sides: [[usize; 2]; 8],
    moves: usize,
    cut: bool,
    /// The base cost of a straight and of a diagonal step.
    base: [u32; 2],
    /// Whether a step costs the cell left (maps toward the roots) or the cell entered.
    toward: bool,
}

impl Moves {
    fn new(grid: &Grid, rule: Neighbourhood, stride: usize, toward: bool) -> Self {
        let offset = |(dx, dy): (i32, i32)| (dx as isize + dy as isize * stride as isize) as usize;
        let steps = grid.steps();
        Self {
            offsets: DIRECTIONS.map(offset),
            sides: DIRECTIONS.map(|(dx, dy)| [offset((dx, 0)), offset((0, dy))]),
            moves: if rule == Neighbourhood::Four { 4 } else { 8 },
            cut: rule == Neighbourhood::EightCutCorners,
            base: [steps.straight(), steps.diagonal()],
            toward,
        }
    }
}

/// Settles every cell reachable from `roots` (padded indices) into `dist`, which holds
/// [`UNREACHED`] everywhere; returns the cells settled. Given `until` (padded indices), it
/// stops once each of them has its final cost, at the first cost `c` of the frontier at which
/// they all have: it returns `c` too, and then a cell of `dist` is final where it is at most
/// `c`, and every other cell costs more than `c`.
fn settle<F: Frontier>(
    cost_of: &[u8],
    dist: &mut [u32],
    frontier: &mut F,
    moves: &Moves,
    roots: impl Iterator<Item = usize>,
    until: Option<&[usize]>,
) -> (u32, Option<u32>) {
    for c in roots {
        if dist[c] != 0 {
            dist[c] = 0;
            frontier.push(0, c);
        }
    }
    let mut expanded = 0;
    // The cells of `until` up to `done` are final; checked whenever the frontier's cost
    // rises. Once the frontier pops cost `c`, every cell cheaper than `c` is settled, so a
    // cost of `dist` at most `c` can drop no further.
    let (mut done, mut level) = (0, None);
    while let Some((cost, c)) = frontier.pop() {
        if let Some(until) = until
            && level != Some(cost)
        {
            level = Some(cost);
            while done < until.len() && dist[until[done]] <= cost {
                done += 1;
            }
            if done == until.len() {
                return (expanded, Some(cost));
            }
        }
        if dist[c] == cost {
            expanded += 1;
            relax(cost_of, dist, frontier, moves, c, cost);
        }
    }
    (expanded, None)
}

/// Offers each neighbour of the settled cell `c` (at `cost`) the way through `c`.
#[inline(always)]
fn relax<F: Frontier>(
    cost_of: &[u8],
    dist: &mut [u32],
    frontier: &mut F,
    m: &Moves,
    c: usize,
    cost: u32,
) {
    let here = u32::from(cost_of[c]);
    for d in 0..m.moves {
        let n = c.wrapping_add(m.offsets[d]);
        let there = u32::from(cost_of[n]);
        if there == 0 {
            continue;
        }
        if d >= 4
            && !m.cut
            && (cost_of[c.wrapping_add(m.sides[d][0])] == 0
                || cost_of[c.wrapping_add(m.sides[d][1])] == 0)
        {
            continue;
        }
        let entered = if m.toward { here } else { there };
        let nd = cost + m.base[usize::from(d >= 4)] * entered;
        if nd < dist[n] && nd <= LIMIT {
            dist[n] = nd;
            frontier.push(nd, n);
        }
    }
}

impl DistanceMap {
    /// An empty map; [`DistanceMap::compute`] fills it.
    pub fn new() -> Self {
        Self::default()
    }

    /// Computes the costs from `from` to every cell of `grid` under `rule`. A source that is
    /// blocked reaches nothing.
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
        self.fill(grid, &[from], rule, false);
    }

    /// Computes the costs from the nearest of several sources to every cell: one map for
    /// "how far is the nearest exit", as tcod's and bracket-lib's maps take several roots.
    /// Blocked or outside sources are left out.
    ///
    /// ```
    /// use astar_grid::dijkstra::DistanceMap;
    /// use astar_grid::grid::{Grid, Neighbourhood, Pos};
    ///
    /// let grid = Grid::from_rows(&["........"]);
    /// let mut map = DistanceMap::new();
    /// map.compute_from(&grid, &[Pos::new(0, 0), Pos::new(7, 0)], Neighbourhood::Eight);
    /// assert_eq!((map.get(Pos::new(2, 0)), map.get(Pos::new(5, 0))), (Some(20), Some(20)));
    /// ```
    pub fn compute_from(&mut self, grid: &Grid, sources: &[Pos], rule: Neighbourhood) {
        self.fill(grid, sources, rule, false);
    }

    /// Computes the cost of reaching `to` from every cell of `grid` under `rule`: the map a
    /// crowd rolls downhill on toward `to`. A step costs what the cell it enters costs, so
    /// on a grid of several costs the way there and the way back may cost differently; on a
    /// uniform grid this is [`DistanceMap::compute`].
    ///
    /// ```
    /// use astar_grid::dijkstra::DistanceMap;
    /// use astar_grid::grid::{Grid, Neighbourhood, Pos};
    ///
    /// let grid = Grid::from_rows(&["3.."]);
    /// let (mut from, mut to) = (DistanceMap::new(), DistanceMap::new());
    /// from.compute(&grid, Pos::new(2, 0), Neighbourhood::Eight);
    /// to.compute_to(&grid, Pos::new(2, 0), Neighbourhood::Eight);
    /// // Wading into the costly cell costs 30; walking out of it 10.
    /// assert_eq!((from.get(Pos::new(0, 0)), to.get(Pos::new(0, 0))), (Some(40), Some(20)));
    /// ```
    pub fn compute_to(&mut self, grid: &Grid, to: Pos, rule: Neighbourhood) {
        self.fill(grid, &[to], rule, true);
    }

    /// Computes the cost of reaching the nearest of several cells from every cell (see
    /// [`DistanceMap::compute_to`]).
    pub fn compute_to_any(&mut self, grid: &Grid, targets: &[Pos], rule: Neighbourhood) {
        self.fill(grid, targets, rule, true);
    }

    /// [`DistanceMap::compute_to`], stopped as soon as every cell of `reaching` has its
    /// cost: a crowd's map need not cover the cells beyond its farthest member. When it
    /// stops early, [`DistanceMap::bound`] is a lower bound of the cost from every cell it
    /// left unreached; a cell of `reaching` that cannot reach `to` makes it cover the whole
    /// region, as [`DistanceMap::compute_to`] does.
    ///
    /// ```
    /// use astar_grid::dijkstra::DistanceMap;
    /// use astar_grid::grid::{Grid, Neighbourhood, Pos};
    ///
    /// let grid = Grid::from_rows(&["........"]);
    /// let mut map = DistanceMap::new();
    /// map.compute_to_reaching(&grid, Pos::new(0, 0), Neighbourhood::Eight, &[Pos::new(2, 0)]);
    /// assert_eq!(map.get(Pos::new(2, 0)), Some(20));
    /// assert_eq!(map.get(Pos::new(7, 0)), None);
    /// // It stopped at 20: every cell left unreached costs at least that.
    /// assert_eq!(map.bound(), Some(20));
    /// ```
    pub fn compute_to_reaching(
        &mut self,
        grid: &Grid,
        to: Pos,
        rule: Neighbourhood,
        reaching: &[Pos],
    ) {
        self.fill_until(grid, &[to], rule, true, Some(reaching));
    }

    /// When the last computation stopped early ([`DistanceMap::compute_to_reaching`]): a
    /// cost that every cell it left unreached is at least that far from the sources, if it
    /// can reach them at all. `None` when it settled every cell it could reach: then a cell
    /// unreached cannot be reached.
    pub fn bound(&self) -> Option<u32> {
        self.bound
    }

    /// Dijkstra's algorithm from `roots` (Dial's, on buckets, when steps are cheap enough);
    /// `toward` counts each step's cost the other way round (the cost of the cell stepped
    /// from, in the search's direction).
    ///
    /// It runs on a copy of the costs with a blocked border (kept while the grid's revision
    /// stands), so that no neighbour needs a bounds check, and writes the costs found back
    /// row-major: on a 1024x1024 cave about half the time of stepping through [`Grid`]'s
    /// checked accessors.
    fn fill(&mut self, grid: &Grid, roots: &[Pos], rule: Neighbourhood, toward: bool) {
        self.fill_until(grid, roots, rule, toward, None);
    }

    /// [`DistanceMap::fill`], stopped once every cell of `until` (if given) has its cost.
    fn fill_until(
        &mut self,
        grid: &Grid,
        roots: &[Pos],
        rule: Neighbourhood,
        toward: bool,
        until: Option<&[Pos]>,
    ) {
        let w = grid.width();
        self.width = w;
        self.bound = None;
        self.source = roots.first().copied();
        self.rule = rule;
        self.expanded = 0;
        self.dist.clear();
        self.dist.resize(grid.len(), UNREACHED);
        if grid.is_empty() {
            return;
        }
        let stride = w + 2;
        self.pad(grid, stride);
        let dist = &mut self.around.0;
        dist.clear();
        dist.resize(self.padded.len(), UNREACHED);
        let moves = Moves::new(grid, rule, stride, toward);
        let dearest = grid.steps().diagonal() * self.highest;
        let padded = |i: usize| (i / w + 1) * stride + i % w + 1;
        let roots = roots.iter().filter_map(|&root| {
            let i = grid.index(root).filter(|_| grid.is_passable(root))?;
            Some(padded(i))
        });
        // A cell outside the grid is never reached: the map then runs to the end.
        let until: Option<Vec<usize>> = until.map(|cells| {
            cells
                .iter()
                .map(|&p| grid.index(p).map_or(0, padded))
                .collect()
        });
        let until = until.as_deref();
        let (expanded, bound) = if dearest <= DIAL_MAX_STEP {
            let slots = (dearest as usize + 1).next_power_of_two().max(16);
            if self.buckets.len() != slots {
                self.buckets.resize_with(slots, Vec::new);
            }
            let mut dial = Dial {
                mask: slots as u32 - 1,
                buckets: &mut self.buckets,
                cost: 0,
                pending: 0,
            };
            dial.clear();
            settle(&self.padded, dist, &mut dial, &moves, roots, until)
        } else {
            self.heap.clear();
            settle(&self.padded, dist, &mut self.heap, &moves, roots, until)
        };
        (self.expanded, self.bound) = (expanded, bound);
        match bound {
            None => {
                for (y, row) in self.dist.chunks_mut(w).enumerate() {
                    row.copy_from_slice(&dist[(y + 1) * stride + 1..][..w]);
                }
            }
            // Costs above the bound are only the best found so far: left unreached.
            Some(bound) => {
                for (y, row) in self.dist.chunks_mut(w).enumerate() {
                    let found = &dist[(y + 1) * stride + 1..][..w];
                    for (d, &f) in row.iter_mut().zip(found) {
                        *d = if f <= bound { f } else { UNREACHED };
                    }
                }
            }
        }
    }

    /// Brings the padded copy of `grid`'s costs, and their highest, up to its revision.
    fn pad(&mut self, grid: &Grid, stride: usize) {
        let cells = stride * (grid.height() + 2);
        if self.padded_revision == grid.revision() && self.padded.len() == cells {
            return;
        }
        self.padded.clear();
        self.padded.resize(cells, 0);
        let w = grid.width();
        for (y, row) in grid.costs().chunks(w).enumerate() {
            self.padded[(y + 1) * stride + 1..][..w].copy_from_slice(row);
        }
        self.highest = grid
            .costs()
            .iter()
            .copied()
            .max()
            .map_or(1, u32::from)
            .max(1);
        self.padded_revision = grid.revision();
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

    /// The cell the map was computed from (the first of several).
    pub fn source(&self) -> Option<Pos> {
        self.source
    }

    /// Cells settled by the last computation: the work of one search for everyone.
    pub fn expanded(&self) -> u32 {
        self.expanded
    }

    /// The best legal step from `at` toward the source: the neighbour that minimises its
    /// cost plus the cost of stepping onto it, among those `free` allows and whose cost is
    /// lower than `at`'s own (ties go to the first in [`DIRECTIONS`] order). `None` when no
    /// step gets closer. On a map made by [`DistanceMap::compute_to`], every step taken this
    /// way is on a cheapest way to the source.
    pub fn downhill(&self, grid: &Grid, at: Pos, free: impl Fn(Pos) -> bool) -> Option<Pos> {
        let here = self.get(at)?;
        let dirs: &[(i32, i32)] = if self.rule == Neighbourhood::Four {
            &DIRECTIONS[..4]
        } else {
            &DIRECTIONS
        };
        dirs.iter()
            .filter(|&&(dx, dy)| grid.can_step(at, dx, dy, self.rule))
            .map(|&(dx, dy)| at.offset(dx, dy))
            .filter_map(|n| {
                let d = self.get(n)?;
                // The step counts too: a diagonal to a cell 2 cheaper costs 4 more to take
                // than a straight step, so the lowest cell is not always on a cheapest way.
                Some((d + grid.step_cost(at, n)?, d, n))
            })
            .filter(|&(_, d, n)| d < here && free(n))
            .min_by_key(|&(total, _, _)| total)
            .map(|(_, _, n)| n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::astar::{Pathfinder, Query, SearchOptions};

    /// Every movement rule, each test's maps made under each.
    const RULES: [Neighbourhood; 3] = [
        Neighbourhood::Eight,
        Neighbourhood::EightCutCorners,
        Neighbourhood::Four,
    ];

    /// Walls and dearer ground (costs 2 and 3) that bend the cheapest ways.
    const TERRAIN: [&str; 6] = [
        "....33....",
        "..###332..",
        "...3#..#..",
        ".#.3#..#2.",
        ".#..333#..",
        "....22....",
    ];

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
        for rule in RULES {
            let mut map = DistanceMap::new();
            map.compute(&grid, goal, rule);
            let mut pf = Pathfinder::new();
            let opts = SearchOptions::default()
                .with_neighbourhood(rule)
                .with_heuristic(crate::astar::Heuristic::Zero);
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
        let grid = Grid::from_rows(&TERRAIN);
        assert!(!grid.is_uniform());
        let goal = Pos::new(9, 0);
        for rule in RULES {
            let mut map = DistanceMap::new();
            map.compute(&grid, goal, rule);
            let mut pf = Pathfinder::new();
            let opts = SearchOptions::default().with_neighbourhood(rule);
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
        let grid = Grid::from_rows(&TERRAIN);
        let goal = Pos::new(9, 0);
        for rule in RULES {
            let mut map = DistanceMap::new();
            map.compute_to(&grid, goal, rule);
            let mut pf = Pathfinder::new();
            let opts = SearchOptions::default().with_neighbourhood(rule);
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
    fn a_map_stopped_at_its_cells_is_exact_there_and_bounds_the_rest() {
        let grid = Grid::from_rows(&TERRAIN);
        let goal = Pos::new(9, 0);
        for rule in RULES {
            let mut whole = DistanceMap::new();
            whole.compute_to(&grid, goal, rule);
            let mut stopped = 0;
            for i in 0..grid.len() {
                let cell = grid.pos(i);
                let mut map = DistanceMap::new();
                map.compute_to_reaching(&grid, goal, rule, &[cell, Pos::new(8, 1)]);
                let Some(bound) = map.bound() else {
                    assert_eq!(map.costs(), whole.costs(), "{rule:?} {cell}");
                    continue;
                };
                stopped += 1;
                assert_eq!(map.get(cell), whole.get(cell), "{rule:?} {cell}");
                for j in 0..grid.len() {
                    let p = grid.pos(j);
                    match map.get(p) {
                        Some(d) => assert_eq!(Some(d), whole.get(p), "{rule:?} {cell}: {p}"),
                        None => assert!(
                            whole.get(p).is_none_or(|d| d >= bound),
                            "{rule:?} {cell}: {p} below {bound}"
                        ),
                    }
                }
            }
            assert!(stopped > 20, "{rule:?}: {stopped} maps stopped early");
            // A cell that cannot be reached (a wall) makes the map whole.
            let mut map = DistanceMap::new();
            map.compute_to_reaching(&grid, goal, rule, &[Pos::new(4, 2)]);
            assert_eq!((map.bound(), map.costs()), (None, whole.costs()));
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
