//! `path --json` on weighted level files it has never seen, against the tests' own weighted
//! Dijkstra ([`CostModel`]), written from the documented rule alone: a step costs 10 straight
//! or 14 diagonal times the weight of the cell it enters (floor 1, water 3, brush 2 unless a
//! `cost:` header says otherwise); a diagonal needs both cells it passes between enterable,
//! unless corners may be cut.

use proptest::prelude::*;
use proptest::sample::Index;

use crate::common::{CostModel, Moves, config, path_json, repo};

/// A weighted level file: a map of floor, water, brush and walls inside a wall border, the
/// player on floor, sometimes `cost:` headers; with the model of its costs and its enterable
/// cells.
fn level_file() -> impl Strategy<Value = (String, CostModel, Vec<(i32, i32)>)> {
    (
        4usize..=18,
        3usize..=10,
        0u8..=30,
        10u8..=70,
        prop::collection::vec((0usize..3, 1u32..=9), 0..3),
    )
        .prop_flat_map(|(w, h, walls, terrain, costs)| {
            let cells = prop::collection::vec((0u8..100, 0u8..100), w * h);
            (
                Just((w, h, costs)),
                cells,
                any::<Index>(),
                Just((walls, terrain)),
            )
        })
        .prop_map(|((w, h, costs), cells, player, (walls, terrain))| {
            // Floor, water, brush: the defaults, then what the headers say.
            let mut weights = [1u32, 3, 2];
            let mut headers = String::new();
            let mut seen = [false; 3];
            for (t, k) in costs {
                if !seen[t] {
                    seen[t] = true;
                    weights[t] = k;
                    headers.push_str(&format!("cost: {} {k}\n", ['.', '~', '"'][t]));
                }
            }
            let mut glyphs: Vec<char> = cells
                .iter()
                .map(|&(r, t)| {
                    if r < walls {
                        '#'
                    } else if t < terrain {
                        if t % 2 == 0 { '~' } else { '"' }
                    } else {
                        '.'
                    }
                })
                .collect();
            glyphs[player.index(w * h)] = '@';
            let border: String = std::iter::repeat_n('#', w + 2).collect();
            let mut text = format!("title: held out\n{headers}{border}\n");
            for row in glyphs.chunks(w) {
                text.push('#');
                text.extend(row);
                text.push_str("#\n");
            }
            text.push_str(&border);
            text.push('\n');
            let (width, height) = (w + 2, h + 2);
            let mut model = CostModel {
                width,
                height,
                costs: vec![0; width * height],
            };
            let mut open = Vec::new();
            for (i, &c) in glyphs.iter().enumerate() {
                let (x, y) = (i % w + 1, i / w + 1);
                let cost = match c {
                    '#' => 0,
                    '~' => weights[1],
                    '"' => weights[2],
                    _ => weights[0],
                };
                model.costs[y * width + x] = cost;
                if cost > 0 {
                    open.push((x as i32, y as i32));
                }
            }
            (text, model, open)
        })
}

proptest! {
    #![proptest_config(config(40))]

    /// `path --json` on level files it has never seen (terrain, cost headers), under each
    /// movement rule, with the octile and the zero heuristic, answers the model's cost, on a
    /// legal path whose steps add up to it, and `unreachable` exactly when there is no way.
    #[test]
    fn path_json_matches_a_weighted_dijkstra_on_held_out_levels(
        (text, model, open) in level_file(),
        ends in prop::collection::vec((any::<Index>(), any::<Index>()), 1..4),
        rule in prop::sample::select(vec![("8", Moves::Eight), ("8cut", Moves::EightCut), ("4", Moves::Four)]),
    ) {
        let dir = tempfile::tempdir().expect("a scratch folder");
        let file = dir.path().join("held-out.txt");
        std::fs::write(&file, &text).expect("write the level");
        for (a, b) in ends {
            let (from, to) = (open[a.index(open.len())], open[b.index(open.len())]);
            let want = model.dijkstra(from, to, rule.1);
            for extra in [&["--neighbours", rule.0][..], &["--neighbours", rule.0, "--heuristic", "zero"]] {
                let got = path_json(&file, from, to, extra);
                prop_assert_eq!(got.cost, want, "{:?} from {:?} to {:?} {:?}\n{}", got.status, from, to, extra, text);
                if want.is_some() {
                    prop_assert_eq!(got.status.as_str(), "found");
                    let walked = model.walk(&got.path, from, to, rule.1);
                    prop_assert_eq!(walked, Ok(want.unwrap_or(0)), "{:?}\n{}", extra, text);
                } else {
                    prop_assert_eq!(got.status.as_str(), "unreachable");
                    prop_assert!(got.path.is_empty());
                }
            }
        }
    }
}

/// The shipped pond: the goblin's way to the player goes round the water, 106 in 9 steps,
/// not 130 straight across (what the level's comments say).
#[test]
fn path_json_on_the_shipped_pond_goes_round() {
    let got = path_json(&repo("levels/pond.txt"), (6, 1), (6, 6), &[]);
    assert_eq!(
        (got.status.as_str(), got.cost, got.path.len()),
        ("found", Some(106), 10)
    );
}
