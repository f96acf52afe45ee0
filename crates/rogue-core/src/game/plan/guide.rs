//! Guides: Dijkstra maps from the player that the monsters' own plain searches take as their
//! estimate, on big maps.
//!
//! On a 1024x1024 cave each monster's A* with the octile estimate expands tens of thousands
//! of nodes: the estimate sees neither the cave's walls nor its water and brush. Kinds that
//! move alike and may enter the same tiles (at whatever cost) share one guide: a reverse
//! Dijkstra map from the player on the least cost of each tile among their tables. Its cost
//! from a cell never exceeds what any of those kinds pays from there (each step costs them at
//! least as much, and the moves are the same), and it drops by at most a step's cost from one
//! cell to the next: an admissible, consistent estimate, so each monster's A* still finds a
//! cheapest path for its own costs, expanding little more than the cells where its own costs
//! part from the least. A guide of a single table is that table's own map, which its monsters
//! simply walk down while the player stands where it was made.
//!
//! Once the player has moved from `a` to `b`, a guide's cost `d(n)` of reaching `a` still
//! gives one for `b`: `d(n) - d(b)`, at least 0. A way from `n` to `b` and on to `a` costs at
//! least `d(n)`, so the way to `b` costs at least `d(n) - d(b)` (admissible), and from one
//! cell to the next it drops by no more than `d` does (consistent). So a guide serves the
//! next turns too, a little looser each step the player takes away from where it was made;
//! it is made anew, on the planning threads, once the player is [`REMAKE_AFTER`] away from
//! there (by the guide's costs) or the ground changes.
//!
//! The Dijkstra of a guide of several tables stops once it has settled the cells of every
//! monster it serves. Every cell it left unsettled costs at least the cost `c` it stopped at,
//! so such a cell takes `c` as its `d(n)`: still admissible, and still consistent (from a
//! settled cell `a` to an unsettled `b`, `d(a) <= c`; from `b` to a settled `a`, the true
//! cost of `b` is at least `c` and at most a step plus `d(a)`). A monster that later stands
//! beyond `c` is guided by that bound. A single table's map is made whole: map planning and
//! the mapped crowds take it as theirs, and stopping it too made a press of `P` from capped
//! to map planning on the 1024x1024 caves 40 to 70 ms slower (the maps made again) for no
//! gain in the first frame that a paired run could tell from noise.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use crate::content::kinds::CostTable;
use crate::content::map::{Tile, TileMap};
use crate::engine::astar::Target;
use crate::engine::dijkstra::DistanceMap;
use crate::engine::grid::{Grid, Neighbourhood, Pos};

/// How far (by a guide's costs: 10 a straight step on floor) the player may go from where
/// the guides were made before they are made again: on the 1024x1024 caves a guide costs
/// about as much as the guided searches of several turns, and one from a few steps away
/// guides nearly as well.
pub(super) const REMAKE_AFTER: u32 = 100;

/// Which tiles a table lets a monster enter, in [`Tile::ALL`] order: kinds alike in this and
/// in their moves share a guide.
type Enters = [bool; Tile::COUNT];

fn enters(table: &CostTable) -> Enters {
    table.0.map(|c| c != 0)
}

/// One guide: the map of the least costs among `tables`, all of one movement rule and one
/// set of tiles entered.
#[derive(Debug, Clone)]
struct Guide {
    rule: Neighbourhood,
    enters: Enters,
    tables: Vec<CostTable>,
    /// Shared with the maps of map planning and of crowds that need a single table's map.
    map: Arc<DistanceMap>,
}

/// How a monster of a guided table plans.
#[derive(Debug, Clone, Copy)]
pub(super) enum Guidance<'a> {
    /// The map is its table's own: walk down it.
    Own(&'a DistanceMap),
    /// The map, less the second field (its cost from the player's cell), is a lower bound
    /// of its costs to the player: its A*'s estimate.
    Estimate(&'a DistanceMap, u32),
}

/// The guides made for one cell of the player on one revision of the map (see [`Guides::of`]
/// for the other cells).
#[derive(Debug, Clone, Default)]
pub(super) struct Guides {
    /// The player's cell and the map's revision they were made for.
    made: Option<(Pos, u64)>,
    guides: Vec<Guide>,
}

impl Guides {
    /// Whether the guides were made on the map as it stands.
    pub(super) fn fresh(&self, grid: &TileMap) -> bool {
        self.made
            .is_some_and(|(_, revision)| revision == grid.revision())
    }

    /// How many guides there are.
    pub(super) fn len(&self) -> usize {
        self.guides.len()
    }

    /// For tests: where each guide's map stopped early (see [`DistanceMap::bound`]).
    #[cfg(test)]
    pub(super) fn bounds(&self) -> Vec<Option<u32>> {
        self.guides.iter().map(|g| g.map.bound()).collect()
    }

    /// How a monster searching `table` under `rule` plans toward the player at `player` by
    /// the guides, if they were made on the map as it stands, one was made for it and the
    /// player can reach where it was made.
    pub(super) fn of(
        &self,
        grid: &TileMap,
        player: Pos,
        table: &CostTable,
        rule: Neighbourhood,
    ) -> Option<Guidance<'_>> {
        let (at, revision) = self.made?;
        if revision != grid.revision() {
            return None;
        }
        let g = self
            .guides
            .iter()
            .find(|g| g.rule == rule && g.tables.contains(table))?;
        let offset = g.map.get(player)?;
        Some(if g.tables.len() == 1 && player == at {
            Guidance::Own(&g.map)
        } else {
            Guidance::Estimate(&g.map, offset)
        })
    }

    /// The map of the guide of `table` alone under `rule`, if it was made for the player at
    /// `player` on the map as it stands and covers every cell that reaches the player: that
    /// table's own map toward the player, which map planning and a mapped crowd take instead
    /// of making it again.
    pub(super) fn own_map(
        &self,
        grid: &TileMap,
        player: Pos,
        table: &CostTable,
        rule: Neighbourhood,
    ) -> Option<Arc<DistanceMap>> {
        if self.made != Some((player, grid.revision())) {
            return None;
        }
        self.guides
            .iter()
            .find(|g| g.rule == rule && g.tables.len() == 1 && g.tables[0] == *table)
            .filter(|g| g.map.bound().is_none())
            .map(|g| Arc::clone(&g.map))
    }

    /// The guides of `wanted` (tables of costs with their movement rules, each with how many
    /// monsters search it) toward the player at `player`, for each group of alike tables
    /// searched by at least `least` monsters, made on up to `threads` threads, with the
    /// cells their maps settled; `None` when no group is that big or these guides are fresh
    /// and cover every such group. The map of several tables stops once it has settled the
    /// cells in `serves` of its tables and rule (the monsters it serves).
    pub(super) fn make(
        &self,
        grid: &TileMap,
        player: Pos,
        wanted: &[((CostTable, Neighbourhood), usize)],
        serves: &[((CostTable, Neighbourhood), Pos)],
        least: usize,
        threads: usize,
    ) -> Option<(Guides, u64)> {
        let mut guides: Vec<(Guide, usize)> = Vec::new();
        for &((table, rule), n) in wanted {
            let e = enters(&table);
            match guides
                .iter_mut()
                .find(|(g, _)| g.rule == rule && g.enters == e)
            {
                Some((g, m)) => {
                    *m += n;
                    if !g.tables.contains(&table) {
                        g.tables.push(table);
                    }
                }
                None => guides.push((
                    Guide {
                        rule,
                        enters: e,
                        tables: vec![table],
                        map: Arc::default(),
                    },
                    n,
                )),
            }
        }
        let mut guides: Vec<Guide> = guides
            .into_iter()
            .filter(|&(_, n)| n >= least)
            .map(|(g, _)| g)
            .collect();
        // Kept while they cover every group and the player is near where they were made.
        let covered = |g: &Guide| {
            self.guides.iter().any(|kept| {
                kept.rule == g.rule
                    && g.tables.iter().all(|t| kept.tables.contains(t))
                    && kept.map.get(player).is_some_and(|d| d <= REMAKE_AFTER)
            })
        };
        if guides.is_empty() || self.fresh(grid) && guides.iter().all(covered) {
            return None;
        }
        // The longest first, so that the threads end together: a single table's map covers
        // every cell its table enters, one of several stops at its farthest monster. On the
        // 1024x1024 caves the dwarves' map (walls too) is a third of the guides' work and,
        // taken last, left the other thread idle for its whole length.
        let length = |g: &Guide| {
            let entered: usize = Tile::ALL
                .iter()
                .filter(|&&t| g.enters[t as usize])
                .map(|&t| grid.count(t))
                .sum();
            (g.tables.len() == 1, entered)
        };
        guides.sort_by_cached_key(|g| std::cmp::Reverse(length(g)));
        // Each thread takes the next guide left; the maps are the same on any number.
        let next = AtomicUsize::new(0);
        let pieces: Vec<Mutex<&mut Guide>> = guides.iter_mut().map(Mutex::new).collect();
        let work = || {
            loop {
                let Some(piece) = pieces.get(next.fetch_add(1, Ordering::Relaxed)) else {
                    return;
                };
                // Each guide is taken by one thread only: the lock is never contended, and
                // only a panic (a bug, passed on by the scope) could poison it.
                let mut g = piece.lock().unwrap_or_else(|p| p.into_inner());
                let g = &mut **g;
                let map = Arc::get_mut(&mut g.map).expect("made just now, not shared yet");
                let cells: Vec<Pos> = serves
                    .iter()
                    .filter(|((t, r), _)| *r == g.rule && g.tables.contains(t))
                    .map(|&(_, p)| p)
                    .collect();
                match g.tables.as_slice() {
                    // A single table's map is whole: map planning and the crowds take it
                    // as theirs (a press of P into map planning would make it again).
                    [one] => {
                        let own = grid.grid_for(one).unwrap_or_else(|| grid.cost_grid());
                        map.compute_to(own, player, g.rule);
                    }
                    tables => {
                        let least = least_grid(grid, tables);
                        map.compute_to_reaching(&least, player, g.rule, &cells);
                    }
                }
            }
        };
        std::thread::scope(|scope| {
            for _ in 1..threads.min(pieces.len()) {
                scope.spawn(work);
            }
            work();
        });
        drop(pieces);
        let settled = guides.iter().map(|g| u64::from(g.map.expanded())).sum();
        let made = Some((player, grid.revision()));
        Some((Guides { made, guides }, settled))
    }
}

/// The grid of the least cost of each tile among `tables` (which enter the same tiles).
fn least_grid(grid: &TileMap, tables: &[CostTable]) -> Grid {
    let mut least = tables[0];
    for t in &tables[1..] {
        for (l, &c) in least.0.iter_mut().zip(&t.0) {
            *l = (*l).min(c);
        }
    }
    TileMap::grid_of(grid.width(), grid.height(), grid.tiles(), &least)
}

/// The player's cell as an A*'s goal, estimated by a guide's map less its cost from there.
pub(super) struct Toward<'a> {
    pub(super) player: Pos,
    pub(super) map: &'a DistanceMap,
    pub(super) offset: u32,
}

impl Target for Toward<'_> {
    fn is_goal(&self, p: Pos) -> bool {
        p == self.player
    }

    /// The guide's cost from `p` less its cost from the player's cell. A cell its map left
    /// unsettled when it stopped early costs at least the map's bound; one a whole map does
    /// not reach cannot reach the player for any kind it guides, and a cell they cannot
    /// enter is never entered by their searches (0 stands in for both).
    fn estimate(&self, grid: &Grid, p: Pos) -> u32 {
        self.map
            .get(p)
            .or_else(|| self.map.bound().filter(|_| grid.is_passable(p)))
            .map_or(0, |d| d.saturating_sub(self.offset))
    }
}
