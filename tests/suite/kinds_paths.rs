//! `path --kind NAME` for every kind `kinds --json` lists, on held-out levels of walls, water,
//! brush and closed doors, against the tests' own Dijkstra under that kind's costs as
//! `kinds --json` states them ([`CostModel`]): a legal path for that kind (its 4 or 8 moves,
//! no corner cut past a cell it cannot enter), whose steps add up to its cost; that cost the
//! optimum for a plain kind, between the optimum and weight times it for a weighted kind; a
//! capped kind stops exactly where its own search without the cap would have gone past the
//! cap, and answers as that search does otherwise.

use std::path::Path;

use proptest::prelude::*;
use proptest::sample::Index;
use serde_json::Value;

use crate::common::{CostModel, Moves, PathJson, config, path_json};

/// One kind as `kinds --json` gives it.
#[derive(Debug, Clone)]
struct KindJson {
    name: String,
    moves: Moves,
    /// The weight on H in thousandths.
    weight_millis: u64,
    cap: Option<u64>,
    /// What entering floor, water, brush, a closed door and an inside wall costs (0: never).
    floor: u32,
    water: u32,
    brush: u32,
    door: u32,
    wall: u32,
}

/// Every kind, from the command the player reads.
fn kinds() -> Vec<KindJson> {
    kinds_on(&[])
}

/// Every kind `kinds --json` lists with `args` (a level file, whose own kinds come last).
fn kinds_on(args: &[&std::ffi::OsStr]) -> Vec<KindJson> {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_astar-rogue"))
        .args(["kinds", "--json"])
        .args(args)
        .output()
        .expect("run astar-rogue kinds");
    assert!(out.status.success());
    let all: Vec<Value> = serde_json::from_slice(&out.stdout).expect("a JSON array");
    let cost = |k: &Value, tile: &str| match &k["cost"][tile] {
        Value::Null => 0,
        v => v.as_u64().expect("a cost or null") as u32,
    };
    all.iter()
        .map(|k| KindJson {
            name: k["name"].as_str().expect("a name").to_string(),
            moves: match k["moves"].as_u64() {
                Some(4) => Moves::Four,
                Some(8) => Moves::Eight,
                m => panic!("moves {m:?}"),
            },
            weight_millis: (k["weight"].as_f64().expect("a weight") * 1000.0).round() as u64,
            cap: k["cap"].as_u64(),
            floor: cost(k, "floor"),
            water: cost(k, "water"),
            brush: cost(k, "brush"),
            door: cost(k, "door"),
            wall: cost(k, "wall"),
        })
        .collect()
}

/// A held-out level: its map's rows (a wall border, the player on floor), floor, water,
/// brush, walls and closed doors inside; and the cells every kind may start and end on.
#[derive(Debug, Clone)]
struct Held {
    rows: Vec<Vec<u8>>,
    ends: Vec<(i32, i32)>,
}

impl Held {
    fn text(&self, headers: &str) -> String {
        let mut t = format!("title: held out\n{headers}");
        for r in &self.rows {
            t.push_str(std::str::from_utf8(r).expect("ASCII"));
            t.push('\n');
        }
        t
    }

    /// What entering each cell costs `k`: the map's outer edge nobody enters.
    fn model(&self, k: &KindJson) -> CostModel {
        let (w, h) = (self.rows[0].len(), self.rows.len());
        let costs = (0..w * h)
            .map(|i| {
                let (x, y) = (i % w, i / w);
                let edge = x == 0 || y == 0 || x == w - 1 || y == h - 1;
                match self.rows[y][x] {
                    b'#' if edge => 0,
                    b'#' => k.wall,
                    b'~' => k.water,
                    b'"' => k.brush,
                    b'+' => k.door,
                    _ => k.floor,
                }
            })
            .collect();
        CostModel {
            width: w,
            height: h,
            costs,
        }
    }
}

fn held_out() -> impl Strategy<Value = Held> {
    (4usize..=18, 3usize..=10, 0u8..=35, 0u8..=50, 0u8..=15)
        .prop_flat_map(|(w, h, walls, terrain, doors)| {
            let cells = prop::collection::vec((0u8..100, 0u8..100), w * h);
            (Just((w, h, walls, terrain, doors)), cells, any::<Index>())
        })
        .prop_map(|((w, h, walls, terrain, doors), cells, player)| {
            let mut inside: Vec<u8> = cells
                .iter()
                .map(|&(r, t)| {
                    if r < walls {
                        b'#'
                    } else if r < walls + doors {
                        b'+'
                    } else if t < terrain {
                        if t % 2 == 0 { b'~' } else { b'"' }
                    } else {
                        b'.'
                    }
                })
                .collect();
            inside[player.index(w * h)] = b'@';
            let border = vec![b'#'; w + 2];
            let mut rows = vec![border.clone()];
            for r in inside.chunks(w) {
                rows.push([&b"#"[..], r, b"#"].concat());
            }
            rows.push(border);
            let ends = (0..rows.len())
                .flat_map(|y| (0..w + 2).map(move |x| (x, y)))
                .filter(|&(x, y)| matches!(rows[y][x], b'.' | b'@' | b'~' | b'"'))
                .map(|(x, y)| (x as i32, y as i32))
                .collect();
            Held { rows, ends }
        })
}

/// The same level for the player's own search with `k`'s costs, when the level file can say
/// them (`cost:` headers for the terrain; a door it never enters walled, or one at the
/// player's cost of 2; no inside wall it may enter): what `k` would search without its cap.
fn as_the_players(held: &Held, k: &KindJson) -> Option<String> {
    let ok = |c: u32| (1..=9).contains(&c);
    if !ok(k.floor) || !ok(k.water) || !ok(k.brush) || k.wall != 0 || !matches!(k.door, 0 | 2) {
        return None;
    }
    let mut h = held.clone();
    if k.door == 0 {
        for r in &mut h.rows {
            for c in r.iter_mut().filter(|c| **c == b'+') {
                *c = b'#';
            }
        }
    }
    let headers = format!(
        "cost: . {}\ncost: ~ {}\ncost: \" {}\n",
        k.floor, k.water, k.brush
    );
    Some(h.text(&headers))
}

/// What `path --kind` promises for `k` from `from` to `to`, given the model's optimum.
fn check(
    k: &KindJson,
    model: &CostModel,
    got: &PathJson,
    from: (i32, i32),
    to: (i32, i32),
) -> Result<(), TestCaseError> {
    let best = model.dijkstra(from, to, k.moves);
    let Some(best) = best else {
        prop_assert_eq!(got.status.as_str(), "unreachable", "{}", k.name);
        prop_assert!(got.path.is_empty() && got.cost.is_none());
        return Ok(());
    };
    if got.status == "cap" {
        prop_assert!(k.cap.is_some(), "{} has no cap", k.name);
        prop_assert_eq!(Some(got.expanded), k.cap);
        prop_assert!(got.path.is_empty() && got.cost.is_none());
        return Ok(());
    }
    prop_assert_eq!(got.status.as_str(), "found", "{}", k.name);
    let cost = got.cost.unwrap_or(0);
    prop_assert_eq!(
        model.walk(&got.path, from, to, k.moves),
        Ok(cost),
        "{}",
        k.name
    );
    if let Some(cap) = k.cap {
        prop_assert!(got.expanded <= cap);
    }
    if k.weight_millis == 1000 {
        prop_assert_eq!(cost, best, "{}", k.name);
        prop_assert_eq!(got.optimal, None);
    } else {
        prop_assert!(
            cost >= best && cost * 1000 <= best * k.weight_millis,
            "{}: {} against {}",
            k.name,
            cost,
            best
        );
        prop_assert_eq!(
            got.optimal,
            Some(best),
            "{}: the optimum beside the cost",
            k.name
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(24))]

    /// Every kind's `path --kind` on held-out levels keeps its kind's rules and costs.
    #[test]
    fn path_kind_keeps_each_kinds_rules_on_held_out_levels(
        held in held_out(),
        ends in prop::collection::vec((any::<Index>(), any::<Index>()), 1..3),
    ) {
        let dir = tempfile::tempdir().expect("a scratch folder");
        let file = dir.path().join("held-out.txt");
        std::fs::write(&file, held.text("")).expect("write the level");
        let all = kinds();
        prop_assert!(all.len() >= 8, "{:?}", all);
        for (a, b) in ends {
            let (from, to) = (held.ends[a.index(held.ends.len())], held.ends[b.index(held.ends.len())]);
            for k in &all {
                let model = held.model(k);
                let got = path_json(&file, from, to, &["--kind", &k.name]);
                check(k, &model, &got, from, to)?;
                if let (Some(cap), Some(text)) = (k.cap, as_the_players(&held, k)) {
                    let uncapped = uncapped(dir.path(), &text, k, from, to);
                    check(&KindJson { cap: None, ..k.clone() }, &model, &uncapped, from, to)?;
                    if uncapped.expanded <= cap {
                        prop_assert_eq!(&got, &uncapped, "{} within its cap", k.name);
                    } else {
                        prop_assert_eq!((got.status.as_str(), got.expanded), ("cap", cap), "{}", k.name);
                    }
                }
            }
        }
    }
}

/// `k`'s search without its cap: the player's search on the level rewritten with `k`'s
/// costs, with `k`'s moves and weight.
fn uncapped(dir: &Path, text: &str, k: &KindJson, from: (i32, i32), to: (i32, i32)) -> PathJson {
    let file = dir.join("as-the-players.txt");
    std::fs::write(&file, text).expect("write the level");
    let moves = if k.moves == Moves::Four { "4" } else { "8" };
    let weight = format!("{}", k.weight_millis as f64 / 1000.0);
    path_json(
        &file,
        from,
        to,
        &["--neighbours", moves, "--weight", &weight],
    )
}

/// A door's or a wall's cost in a `kind` header, or none: never, or a number.
fn own_cost() -> impl Strategy<Value = Option<String>> {
    prop_oneof![
        Just(None),
        Just(Some("-".to_string())),
        (1u8..=9).prop_map(|n| Some(n.to_string())),
    ]
}

/// A `kind` header of random fields, for a letter no kind of the game's takes: every field a
/// level may give, each sometimes left out.
fn own_kind() -> impl Strategy<Value = String> {
    let cost = || {
        prop_oneof![
            Just(None),
            Just(Some("-".to_string())),
            Just(Some("level".to_string())),
            (1u8..=9).prop_map(|n| Some(n.to_string())),
        ]
    };
    (
        prop_oneof![Just(None), Just(Some(4)), Just(Some(8))],
        prop_oneof![
            Just(None),
            Just(Some("1.5")),
            Just(Some("2")),
            Just(Some("1.25"))
        ],
        prop_oneof![Just(None), (5u32..300).prop_map(Some)],
        (1u8..=3).prop_map(|n| Some(n.to_string())),
        cost(),
        cost(),
        own_cost(),
        own_cost(),
    )
        .prop_map(|(moves, weight, cap, floor, water, brush, door, wall)| {
            let mut h = "kind w: wraith".to_string();
            let fields = [
                ("moves", moves.map(|m| m.to_string())),
                ("weight", weight.map(str::to_string)),
                ("cap", cap.map(|c| c.to_string())),
                ("floor", floor),
                ("water", water),
                ("brush", brush),
                ("door", door),
                ("wall", wall),
            ];
            for (name, value) in fields {
                if let Some(v) = value {
                    h.push_str(&format!(", {name} {v}"));
                }
            }
            h
        })
}

proptest! {
    #![proptest_config(config(24))]

    /// A kind a level defines in a `kind` header is listed by `kinds --json LEVEL` as the
    /// header says, and `path --kind` searches as it: its moves, weight, cap and costs, on
    /// the same held-out levels and against the same Dijkstra.
    #[test]
    fn a_levels_own_kind_searches_as_its_header_says(
        held in held_out(),
        header in own_kind(),
        ends in prop::collection::vec((any::<Index>(), any::<Index>()), 1..3),
    ) {
        let dir = tempfile::tempdir().expect("a scratch folder");
        let file = dir.path().join("own.txt");
        std::fs::write(&file, held.text(&format!("{header}\n"))).expect("write the level");
        let all = kinds_on(&[file.as_os_str()]);
        let k = all.last().expect("the level's kind, last").clone();
        prop_assert_eq!(k.name.as_str(), "wraith");
        // What the header said, field by field, as the listing has it.
        let said = |field: &str| {
            header.split(", ").find_map(|f| f.strip_prefix(field)?.strip_prefix(' ').map(str::to_string))
        };
        let expect_moves = if said("moves").as_deref() == Some("4") { Moves::Four } else { Moves::Eight };
        prop_assert_eq!(k.moves, expect_moves);
        let weight = said("weight").map_or(1000, |w| (w.parse::<f64>().unwrap() * 1000.0).round() as u64);
        prop_assert_eq!(k.weight_millis, weight);
        prop_assert_eq!(k.cap, said("cap").map(|c| c.parse::<u64>().unwrap()));
        let terrain = |field: &str, level: u32| match said(field).as_deref() {
            None | Some("level") => level,
            Some("-") => 0,
            Some(n) => n.parse().unwrap(),
        };
        prop_assert_eq!(
            (k.floor, k.water, k.brush, k.door, k.wall),
            (terrain("floor", 1), terrain("water", 3), terrain("brush", 2), terrain("door", 2),
             terrain("wall", 0))
        );
        for (a, b) in ends {
            let (from, to) = (held.ends[a.index(held.ends.len())], held.ends[b.index(held.ends.len())]);
            let model = held.model(&k);
            let enterable = |(x, y): (i32, i32)| model.costs[y as usize * model.width + x as usize] > 0;
            if !enterable(from) || !enterable(to) {
                // Water or brush the kind keeps out of: refused as a wall would be.
                let out = std::process::Command::new(env!("CARGO_BIN_EXE_astar-rogue"))
                    .arg("path")
                    .arg(&file)
                    .args(["--from", &format!("{},{}", from.0, from.1)])
                    .args(["--to", &format!("{},{}", to.0, to.1), "--kind", "wraith"])
                    .output()
                    .expect("run astar-rogue path");
                prop_assert_eq!(out.status.code(), Some(2));
                let err = String::from_utf8_lossy(&out.stderr);
                prop_assert!(err.contains("a cell the wraith cannot enter"), "{}", err);
                continue;
            }
            let got = path_json(&file, from, to, &["--kind", "wraith"]);
            check(&k, &model, &got, from, to)?;
            let by_letter = path_json(&file, from, to, &["--kind", "w"]);
            prop_assert_eq!(&by_letter, &got);
        }
    }
}
