//! What the search option keys change, for the game's monsters and the lab alike.

use super::command::Action;
use crate::content::searches;
use crate::engine::astar::{SearchOptions, Weight};

/// Weights the option key cycles through, in thousandths.
const WEIGHTS: [u32; 5] = [1000, 1500, 2000, 3000, 5000];

/// The change to the search options `action` asks for, if it is an option key.
pub(super) fn change(action: Action) -> Option<fn(&mut SearchOptions)> {
    Some(match action {
        Action::CycleNeighbourhood => |o: &mut SearchOptions| {
            o.neighbourhood = searches::next(&searches::RULES, o.neighbourhood)
        },
        Action::CycleHeuristic => {
            |o: &mut SearchOptions| o.heuristic = searches::next(&searches::HEURISTICS, o.heuristic)
        }
        Action::CycleWeight => next_weight,
        Action::ToggleGreedy => |o: &mut SearchOptions| o.greedy = !o.greedy,
        Action::ResetOptions => |o: &mut SearchOptions| *o = SearchOptions::default(),
        Action::CycleTies => {
            |o: &mut SearchOptions| o.ties = searches::next(&searches::TIES, o.ties)
        }
        _ => return None,
    })
}

/// The next weight of the cycle 1, 1.5, 2, 3, 5.
fn next_weight(o: &mut SearchOptions) {
    let i = WEIGHTS
        .iter()
        .position(|&w| w == o.weight.millis())
        .map_or(0, |i| i + 1);
    o.weight = Weight::from_millis(WEIGHTS[i % WEIGHTS.len()]);
}

/// Options in words for the log: `8 neighbours, zero (Dijkstra), weight 1`.
pub(super) fn describe_for_log(o: &SearchOptions) -> String {
    let h = if o.heuristic == crate::engine::astar::Heuristic::Zero {
        "zero (Dijkstra)"
    } else {
        return format!(
            "{} neighbours, {}, {}",
            o.neighbourhood,
            o.heuristic,
            how(o)
        );
    };
    format!("{} neighbours, {h}, {}", o.neighbourhood, how(o))
}

/// Greedy or A* in words for the log: `greedy best-first`, `weight 1.5`.
fn how(o: &SearchOptions) -> String {
    if o.greedy {
        "greedy best-first".to_string()
    } else {
        format!("weight {}", o.weight)
    }
}
