//! Every tie rule the engine has finds the optimal cost, under every algorithm, movement
//! rule and consistent estimate, toward one goal or the nearest of several; and the lists of
//! option values these tests run through name every value the engine has (its enums are
//! `#[non_exhaustive]` and list nothing, but each one's parse error names them all).

use std::collections::HashSet;
use std::fmt::{Debug, Display};
use std::str::FromStr;

use astar_grid::astar::{Goals, Pathfinder, Query, SearchOptions, SearchResult, Status};
use astar_grid::grid::ParseError;
use proptest::prelude::*;

use crate::common::{
    ALGORITHMS, Case, HEURISTICS, Palette, RULES, TIES, any_model, case_on, config, consistent,
    long_model,
};

/// The names a parse error offers: the list after "use ", up to any remark in brackets,
/// e.g. `"?" is not a tie rule: use lower-h or lifo`.
fn offered(e: &ParseError) -> Vec<String> {
    let text = e.to_string();
    let list = text.split_once("use ").map_or("", |(_, l)| l);
    let list = list.split_once(" (").map_or(list, |(l, _)| l);
    list.split(", ")
        .flat_map(|part| part.split(" or "))
        .map(str::to_string)
        .collect()
}

/// Checks that `list` holds every value the engine parses, each once, and each printed
/// value parses back to itself.
fn names_everything<T>(list: &[T])
where
    T: FromStr<Err = ParseError> + Display + Debug + PartialEq + Copy,
{
    let e = "no such thing".parse::<T>().expect_err("not a name");
    let names = offered(&e);
    assert!(!names.is_empty(), "{e}");
    let printed: Vec<String> = list.iter().map(T::to_string).collect();
    assert_eq!(
        names.iter().collect::<HashSet<_>>(),
        printed.iter().collect::<HashSet<_>>(),
        "the engine offers {names:?} (\"{e}\"), the tests list {list:?}"
    );
    assert_eq!(names.len(), list.len(), "{names:?}");
    for v in list {
        assert_eq!(v.to_string().parse::<T>().ok(), Some(*v));
    }
}

#[test]
fn the_lists_name_every_value_the_engine_has() {
    names_everything(&TIES);
    names_everything(&HEURISTICS);
    names_everything(&RULES);
    names_everything(&ALGORITHMS);
}

proptest! {
    #![proptest_config(config(500))]

    /// Under every tie rule, A* and JPS (or A* in its place on a grid of costs), every rule
    /// and consistent estimate, with and without people in the way, and toward the goal as
    /// the nearest of one: exactly the cost of the model's Dijkstra.
    #[test]
    fn every_tie_rule_finds_the_optimal_cost(
        case in prop_oneof![
            4 => case_on(any_model(20, 20, 50)),
            1 => case_on(long_model(Palette::Uniform)),
            1 => case_on(long_model(Palette::High)),
        ],
    ) {
        let Case { model, grid, start, goal, .. } = &case;
        let (occupied, cells) = (case.taken(), case.occupancy());
        let none = HashSet::new();
        let mut pf = Pathfinder::new();
        let mut r = SearchResult::default();
        for nb in RULES {
            let want = model.expected(*start, *goal, nb, &none);
            let crowded = model.expected(*start, *goal, nb, &occupied);
            for &h in consistent(nb) {
                for ties in TIES {
                    let o = SearchOptions::default().with_neighbourhood(nb).with_heuristic(h).with_ties(ties);
                    for algorithm in ALGORITHMS {
                        let o = o.with_algorithm(algorithm);
                        let q = Query::new(*start, *goal).options(o);
                        pf.search(grid, q, &mut r, &mut ());
                        prop_assert_eq!((r.status, r.cost), want, "{:?}", o);
                        pf.search(grid, q.occupied(&cells), &mut r, &mut ());
                        prop_assert_eq!((r.status, r.cost), crowded, "{:?} crowded", o);
                    }
                    // A goal nobody can stand on is one never reached.
                    let toward = match want.0 {
                        Status::InvalidGoal(_) => (Status::Unreachable, None),
                        _ => want,
                    };
                    pf.search_to(grid, *start, &Goals::new(&[*goal], h), o, &mut r);
                    prop_assert_eq!((r.status, r.cost), toward, "{:?} toward goals", o);
                }
            }
        }
    }
}
