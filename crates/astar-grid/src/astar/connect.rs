//! Which cells are connected, kept up to date as single cells change, so that a search
//! between two cells that cannot meet ends at once instead of flooding its region.
//!
//! Labels are computed once ([`Regions::compute`]) and then patched: a cell that opens takes
//! a neighbour's label and joins every neighbour's region into one (a union-find over the
//! labels), a cell that closes loses its label. Closing may split a region, which the labels
//! do not see, so they may join cells that are apart but never part cells that are joined:
//! "different labels" stays an exact "unreachable", and a search between cells that share a
//! label finds out for itself. When one does find no path, the labels are recomputed before
//! the next search, so a map cut in two by a closed door pays one flood, not one per search.

use std::sync::Arc;

use crate::grid::{Grid, Neighbourhood, Regions, rule_directions};

/// More changes than this at once are cheaper to label afresh than to patch one by one.
const PATCH_MAX: usize = 256;

/// Connectivity under one movement rule (the four straight directions, or all eight when
/// corners may be cut).
#[derive(Debug, Clone, Default)]
pub(super) struct Connectivity {
    /// The revision of the grid the labels follow, or 0 (no grid has it): label afresh.
    revision: u64,
    /// Whether the labels connect all eight directions (corner cutting).
    eight: bool,
    /// Per cell, its label, or [`Regions::NONE`] where blocked; shared by the engines it was
    /// handed to (see [`Connectivity::adopt`]) until one of them patches it.
    labels: Arc<Vec<u32>>,
    /// Per label, the label it was joined into (itself for a root).
    parent: Vec<u32>,
    /// Whether a cell has closed since the labels were computed: two cells with one label
    /// may then be apart.
    split: bool,
}

impl Connectivity {
    /// Whether cells `a` and `b` of `grid` may be connected: `false` only if they certainly
    /// are not.
    pub(super) fn may_connect(&mut self, grid: &Grid, a: usize, b: usize) -> bool {
        self.follow(grid);
        let (la, lb) = (self.labels[a], self.labels[b]);
        la != Regions::NONE && lb != Regions::NONE && self.root(la) == self.root(lb)
    }

    /// A search found `a` and `b` apart though they may have shared a label: label afresh
    /// before the next search if the labels may be out of date.
    pub(super) fn found_apart(&mut self, grid: &Grid) {
        if self.split && self.revision == grid.revision() {
            self.revision = 0;
        }
    }

    /// Takes `other`'s labels, which follow `from` (a grid of the same size and the same
    /// open cells), as labels of `grid`, if this one's do not follow `grid` already: what one
    /// engine labelled, the engines of other threads or of other costs over the same open
    /// cells need not label again. Returns whether it took them.
    pub(super) fn adopt(&mut self, grid: &Grid, other: &Connectivity, from: &Grid) -> bool {
        let usable = self.revision != grid.revision()
            && other.eight == self.eight
            && other.revision != 0
            && other.revision == from.revision()
            && (from.revision() == grid.revision() || same_open_cells(grid, from));
        if usable {
            self.labels = Arc::clone(&other.labels);
            self.parent.clone_from(&other.parent);
            self.split = other.split;
            self.revision = grid.revision();
        }
        usable
    }

    /// Takes `regions`, labelled on `from` as it stands under this connectivity's rule, as
    /// labels of `grid` (of the same size and open cells), if this one's do not follow
    /// `grid` already. Returns whether it took them.
    pub(super) fn take_regions(&mut self, grid: &Grid, regions: &Regions, from: &Grid) -> bool {
        let usable = self.revision != grid.revision()
            && regions.labels().len() == grid.len()
            && (from.revision() == grid.revision() || same_open_cells(grid, from));
        if usable {
            self.labels = Arc::new(regions.labels().to_vec());
            self.parent = (0..regions.count() as u32).collect();
            self.split = false;
            self.revision = grid.revision();
        }
        usable
    }

    /// Brings the labels up to the grid's revision: patched cell by cell when the grid
    /// still knows what changed, computed afresh otherwise.
    pub(super) fn follow(&mut self, grid: &Grid) {
        if self.revision == grid.revision() {
            return;
        }
        // Counted first, then walked again to patch: no list of them is made, so a search
        // after a change allocates nothing more than one after none.
        let few = self.revision != 0
            && self.labels.len() == grid.len()
            && grid
                .changes_since(self.revision)
                .is_some_and(|c| c.take(PATCH_MAX + 1).count() <= PATCH_MAX);
        match grid.changes_since(self.revision).filter(|_| few) {
            Some(cells) => {
                for c in cells {
                    self.patch(grid, c);
                }
            }
            None => self.relabel(grid),
        }
        self.revision = grid.revision();
    }

    fn rule(&self) -> Neighbourhood {
        if self.eight {
            Neighbourhood::EightCutCorners
        } else {
            Neighbourhood::Eight
        }
    }

    fn relabel(&mut self, grid: &Grid) {
        let regions = Regions::compute(grid, self.rule());
        self.labels = Arc::new(regions.labels().to_vec());
        self.parent = (0..regions.count() as u32).collect();
        self.split = false;
    }

    /// Follows one cell's change (its cost now is the grid's).
    fn patch(&mut self, grid: &Grid, c: usize) {
        let open = grid.costs()[c] != 0;
        let labelled = self.labels[c] != Regions::NONE;
        if open == labelled {
            // A change of cost alone, or the cell came back as it was.
            return;
        }
        if !open {
            Arc::make_mut(&mut self.labels)[c] = Regions::NONE;
            self.split = true;
            return;
        }
        let p = grid.pos(c);
        let mut joined = None;
        for &(dx, dy) in rule_directions(self.rule()) {
            let Some(n) = grid.index(p.offset(dx, dy)) else {
                continue;
            };
            let l = self.labels[n];
            if l == Regions::NONE {
                continue;
            }
            let r = self.root(l);
            match joined {
                None => joined = Some(r),
                Some(j) if j != r => self.parent[r as usize] = j,
                Some(_) => {}
            }
        }
        let label = joined.unwrap_or_else(|| {
            self.parent.push(self.parent.len() as u32);
            self.parent.len() as u32 - 1
        });
        Arc::make_mut(&mut self.labels)[c] = label;
    }

    /// The label `l` was joined into, halving the way there as it goes.
    fn root(&mut self, mut l: u32) -> u32 {
        while self.parent[l as usize] != l {
            let up = self.parent[self.parent[l as usize] as usize];
            self.parent[l as usize] = up;
            l = up;
        }
        l
    }

    /// Connectivity under `rule`.
    pub(super) fn new(rule: Neighbourhood) -> Self {
        Self {
            eight: rule == Neighbourhood::EightCutCorners,
            ..Self::default()
        }
    }
}

/// Whether two grids have the same size and the same open cells (whatever their costs).
fn same_open_cells(a: &Grid, b: &Grid) -> bool {
    a.width() == b.width()
        && a.height() == b.height()
        && a.costs()
            .iter()
            .zip(b.costs())
            .all(|(&x, &y)| (x == 0) == (y == 0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Pos;

    /// Whether the labels' answer agrees with a fresh labelling for every pair of cells:
    /// never apart when connected, and (with no split) never joined when apart.
    fn agrees(conn: &mut Connectivity, grid: &Grid, rule: Neighbourhood) {
        let fresh = Regions::compute(grid, rule);
        for a in 0..grid.len() {
            for b in 0..grid.len() {
                let joined = fresh.label(a) != Regions::NONE && fresh.label(a) == fresh.label(b);
                let may = conn.may_connect(grid, a, b);
                assert!(
                    !joined || may,
                    "{a} and {b} are connected but labelled apart"
                );
                if !conn.split {
                    assert_eq!(may, joined, "{a} and {b}");
                }
            }
        }
    }

    #[test]
    fn patched_labels_never_part_connected_cells() {
        for rule in [Neighbourhood::Eight, Neighbourhood::EightCutCorners] {
            let mut grid = Grid::from_rows(&["..#..", "..#..", "#####", "..#.."]);
            let mut conn = Connectivity::new(rule);
            agrees(&mut conn, &grid, rule);
            // Opening walls joins the four rooms one by one, and a cell on its own.
            for p in [(2, 0), (1, 2), (3, 2), (4, 2)] {
                grid.set(Pos::new(p.0, p.1), 1);
                agrees(&mut conn, &grid, rule);
            }
            assert!(!conn.split);
            // Closing a cell may split: the labels then only over-join.
            grid.set(Pos::new(2, 0), 0);
            agrees(&mut conn, &grid, rule);
            assert!(conn.split);
            // A search that found two cells apart has them labelled afresh.
            conn.found_apart(&grid);
            agrees(&mut conn, &grid, rule);
            assert!(!conn.split);
        }
    }

    #[test]
    fn labels_pass_only_to_grids_of_the_same_open_cells_and_rule() {
        let walk = Grid::from_rows(&["..#..", "..#.."]);
        let wade = Grid::from_rows(&["33#..", "..#33"]);
        let open = Grid::from_rows(&["..1..", "..#.."]);
        let mut first = Connectivity::new(Neighbourhood::Eight);
        first.follow(&walk);
        let mut other = Connectivity::new(Neighbourhood::Eight);
        assert!(!other.adopt(&open, &first, &walk), "another open cell");
        agrees(&mut other, &open, Neighbourhood::Eight);
        let mut cut = Connectivity::new(Neighbourhood::EightCutCorners);
        assert!(!cut.adopt(&wade, &first, &walk), "another rule");
        let mut second = Connectivity::new(Neighbourhood::Eight);
        assert!(second.adopt(&wade, &first, &walk));
        agrees(&mut second, &wade, Neighbourhood::Eight);
        assert!(
            Arc::ptr_eq(&first.labels, &second.labels),
            "taken, not labelled"
        );
    }

    #[test]
    fn a_diagonal_gap_joins_only_when_corners_may_be_cut() {
        let mut grid = Grid::from_rows(&[".#.", "#.#", ".#."]);
        let mut eight = Connectivity::new(Neighbourhood::Eight);
        let mut cut = Connectivity::new(Neighbourhood::EightCutCorners);
        assert!(!eight.may_connect(&grid, 0, 8));
        assert!(cut.may_connect(&grid, 0, 8));
        grid.set(Pos::new(1, 0), 1);
        assert!(eight.may_connect(&grid, 0, 4));
        assert!(!eight.may_connect(&grid, 0, 8));
        grid.set(Pos::new(2, 1), 1);
        assert!(eight.may_connect(&grid, 0, 8));
    }
}
