//! Dijkstra maps from several roots against the model's plain Dijkstra from the same roots,
//! and against the least of the engine's own single-root maps: `compute_from` (the cost from
//! the nearest root) and `compute_to_any` (the cost to the nearest root), on uniform grids,
//! grids of costs and other steps (Dial's buckets and the heap alike).

use std::collections::HashSet;

use astar_grid::dijkstra::{DistanceMap, UNREACHED};
use astar_grid::grid::{Grid, Neighbourhood, Pos};
use proptest::prelude::*;

use crate::common::{Case, Model, RULES, any_model, case_on, config, pick, resolve};

/// Checks `map` cell by cell against the model's costs and against the least of `singles`.
fn check_map(
    m: &Model,
    map: &DistanceMap,
    want: &[Option<u64>],
    singles: &[Vec<u32>],
    what: &str,
) -> Result<(), TestCaseError> {
    for (i, want) in want.iter().enumerate() {
        let p = m.pos(i);
        let want = want.map(|c| c as u32);
        prop_assert_eq!(map.get(p), want, "{} at {}", what, p);
        prop_assert_eq!(
            map.costs()[i],
            want.unwrap_or(UNREACHED),
            "{} costs() at {}",
            what,
            p
        );
        let least = singles.iter().map(|s| s[i]).min().unwrap_or(UNREACHED);
        prop_assert_eq!(
            map.costs()[i],
            least,
            "{} against the single maps at {}",
            what,
            p
        );
    }
    // Each reached cell is settled once.
    prop_assert_eq!(
        map.expanded() as usize,
        want.iter().flatten().count(),
        "{} settled",
        what
    );
    // Off the grid there is nothing.
    for p in [
        Pos::new(-1, 0),
        Pos::new(0, -1),
        Pos::new(m.width as i32, 0),
        Pos::new(0, m.height as i32),
    ] {
        prop_assert_eq!(map.get(p), None);
    }
    Ok(())
}

/// Rolls downhill from every reached cell of a map toward its roots: each step is legal and
/// the steps add up to the map's cost of the cell, ending on a root.
fn check_downhill(
    m: &Model,
    grid: &Grid,
    map: &DistanceMap,
    roots: &[Pos],
    nb: Neighbourhood,
) -> Result<(), TestCaseError> {
    let none = HashSet::new();
    for i in 0..m.len() {
        let p = m.pos(i);
        let Some(total) = map.get(p) else { continue };
        let (mut at, mut paid) = (p, 0u64);
        while let Some(next) = map.downhill(grid, at, |_| true) {
            let step = m.step(&none, at, next, nb);
            prop_assert!(
                step.is_some(),
                "downhill from {} steps illegally {} -> {}",
                p,
                at,
                next
            );
            paid += u64::from(step.unwrap_or(0));
            at = next;
        }
        prop_assert!(
            roots.contains(&at),
            "downhill from {} stops at {}, no root",
            p,
            at
        );
        prop_assert_eq!(paid, u64::from(total), "downhill from {} to {}", p, at);
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(500))]

    /// A map from several roots (enterable, blocked, outside, repeated, or none) is the
    /// model's Dijkstra from all of them at once and the least of the single-root maps, from
    /// them and toward them, under every rule; its source is the first root given; rolling
    /// downhill on the map toward them pays exactly its cost. One map is reused throughout,
    /// as a game keeps one.
    #[test]
    fn maps_from_several_roots_are_the_least_of_single_root_maps(
        case in case_on(any_model(20, 20, 50)),
        picks in prop::collection::vec(pick(), 0..6),
    ) {
        let Case { model, grid, .. } = &case;
        let open = model.open_cells();
        let roots: Vec<Pos> = picks.into_iter().map(|p| resolve(model, &open, p)).collect();
        let none = HashSet::new();
        let mut map = DistanceMap::new();
        for nb in RULES {
            let mut single = DistanceMap::new();
            let from: Vec<Vec<u32>> = roots
                .iter()
                .map(|&r| {
                    single.compute(grid, r, nb);
                    single.costs().to_vec()
                })
                .collect();
            map.compute_from(grid, &roots, nb);
            prop_assert_eq!(map.source(), roots.first().copied());
            check_map(model, &map, &model.distances(&roots, nb, &none, false), &from, "from")?;

            let to: Vec<Vec<u32>> = roots
                .iter()
                .map(|&r| {
                    single.compute_to(grid, r, nb);
                    single.costs().to_vec()
                })
                .collect();
            map.compute_to_any(grid, &roots, nb);
            prop_assert_eq!(map.source(), roots.first().copied());
            check_map(model, &map, &model.distances(&roots, nb, &none, true), &to, "to")?;
            // On uniform grids `downhill` takes the neighbour of least cost, which is not
            // always on a cheapest way (see `downhill_on_a_uniform_grid_pays_what_the_map_says`).
            if !model.is_uniform() {
                check_downhill(model, grid, &map, &roots, nb)?;
            }
        }
    }
}

#[test]
fn two_exits_split_a_corridor_between_them() {
    // A corridor with a dear stretch: from the exits, the cost of entering the cells; to
    // them, the cost of leaving.
    let grid = Grid::from_rows(&["..5.......", "##########"]);
    let exits = [Pos::new(0, 0), Pos::new(9, 0)];
    let mut map = DistanceMap::new();
    map.compute_from(&grid, &exits, Neighbourhood::Eight);
    let from: Vec<Option<u32>> = (0..10).map(|x| map.get(Pos::new(x, 0))).collect();
    let f = |v: u32| Some(v);
    assert_eq!(
        from,
        [
            f(0),
            f(10),
            f(60),
            f(60),
            f(50),
            f(40),
            f(30),
            f(20),
            f(10),
            f(0)
        ]
    );
    map.compute_to_any(&grid, &exits, Neighbourhood::Eight);
    let to: Vec<Option<u32>> = (0..10).map(|x| map.get(Pos::new(x, 0))).collect();
    assert_eq!(
        to,
        [
            f(0),
            f(10),
            f(20),
            f(60),
            f(50),
            f(40),
            f(30),
            f(20),
            f(10),
            f(0)
        ]
    );
    // No root that can be stood on: nothing is reached.
    map.compute_from(
        &grid,
        &[Pos::new(3, 1), Pos::new(-4, 0)],
        Neighbourhood::Eight,
    );
    assert!(map.costs().iter().all(|&c| c == UNREACHED));
    assert_eq!(map.source(), Some(Pos::new(3, 1)));
}

/// `DistanceMap::downhill` says it takes the neighbour that minimises its cost plus the cost
/// of stepping onto it, so that on a map made by `compute_to` every step is on a cheapest
/// way to the source, uniform grids too. (It once took the neighbour of least cost alone
/// there: from (0,2) the diagonal to (1,1), 48 from the source, beat the straight step to
/// (1,2), 50, and the walk paid 14 + 48 = 62 where the map says 60.)
#[test]
fn downhill_on_a_uniform_grid_pays_what_the_map_says() {
    let grid = Grid::from_rows(&["......", "...#..", ".....#"]);
    let root = Pos::new(5, 1);
    let mut map = DistanceMap::new();
    map.compute_to(&grid, root, Neighbourhood::Eight);
    let from = Pos::new(0, 2);
    assert_eq!(map.get(from), Some(60));
    let (mut at, mut paid) = (from, 0);
    while let Some(next) = map.downhill(&grid, at, |_| true) {
        paid += grid.step_cost(at, next).expect("a legal step");
        at = next;
    }
    assert_eq!((at, paid), (root, 60));
}
