//! `astar-rogue kinds [--json]`: every kind of monster, and how each searches for you.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use serde_json::{Value, json};

use super::error::CliError;
use crate::content::kinds::own::Kinds;
use crate::content::kinds::{KINDS, Kind};
use crate::content::level::Level;
use crate::content::map::{TerrainWeights, Tile};
use crate::engine::grid::Neighbourhood;

/// Arguments of `kinds`.
#[derive(Debug, Args)]
pub struct KindsArgs {
    /// A level file: list its own kinds too (those its `kind` headers define), after the
    /// game's.
    pub level: Option<PathBuf>,
    /// Print a JSON array: for each kind its glyph, name, hp, damage, speed, moves (4 or 8),
    /// weight (1 for plain A*), cap (null or a number), cost (floor, water, brush, door,
    /// wall: a number that multiplies the 10/14 step, or null where it cannot go), its
    /// search in words and whether a level defines it (own).
    #[arg(long)]
    pub json: bool,
}

/// The tiles a kind's `cost` names, with their JSON keys: what entering each costs it on a
/// level of default weights.
const COSTED: [(&str, Tile); 5] = [
    ("floor", Tile::Floor),
    ("water", Tile::Water),
    ("brush", Tile::Brush),
    ("door", Tile::DoorClosed),
    ("wall", Tile::Wall),
];

/// What entering each costed tile costs `k` on a level of `weights`: `None` where it cannot
/// go.
fn costs(k: &Kind, weights: TerrainWeights) -> [(&'static str, Option<u8>); 5] {
    COSTED.map(|(name, tile)| {
        let c = k.search.costs.of(tile, weights, false);
        (name, (c > 0).then_some(c))
    })
}

/// One kind as JSON.
fn kind_json(k: &Kind, weights: TerrainWeights) -> Value {
    let cost: serde_json::Map<String, Value> = costs(k, weights)
        .into_iter()
        .map(|(name, c)| (name.to_string(), c.map_or(Value::Null, Value::from)))
        .collect();
    let moves = if k.search.moves == Neighbourhood::Four {
        4
    } else {
        8
    };
    let weight = f64::from(k.search.weight_millis) / 1000.0;
    json!({
        "glyph": k.glyph.to_string(),
        "name": k.name.as_str(),
        "hp": k.hp,
        "damage": [k.min_damage, k.max_damage],
        "speed": k.speed.word(),
        "depth": k.depth,
        "moves": moves,
        "weight": weight,
        "cap": k.search.cap,
        "cost": cost,
        "search": k.about(),
        "own": !k.is_builtin(),
    })
}

/// One kind in words, three lines: its traits, its search with its costs, and what that
/// means for a player.
fn kind_line(k: &Kind, weights: TerrainWeights) -> String {
    let moves = if k.search.moves == Neighbourhood::Four {
        "4-way"
    } else {
        "8-way"
    };
    let formula = if k.search.weight_millis == 1000 {
        "F = G + H".to_string()
    } else {
        format!("F = G + {}H", k.search.weight())
    };
    let cap = k.search.cap.map_or(String::new(), |c| format!(", cap {c}"));
    let costs: Vec<String> = costs(k, weights)
        .iter()
        .map(|(name, c)| match c {
            Some(c) => format!("{name} {c}"),
            None => format!("{name} -"),
        })
        .collect();
    format!(
        "{} {:<7} HP {}, hits {}-{}, {}, from depth {}\n          {moves}, {formula}{cap}; costs {}\n          {}",
        k.glyph,
        k.name,
        k.hp,
        k.min_damage,
        k.max_damage,
        k.speed.word(),
        k.depth,
        costs.join(" "),
        k.about()
    )
}

/// Prints every kind.
pub(super) fn kinds(args: &KindsArgs) -> Result<i32, CliError> {
    // On a level, what each costs there: its own kinds, and its terrain's weights.
    let (kinds, weights) = match &args.level {
        Some(path) => {
            let grid = Level::load(path)?.0.grid;
            (grid.kinds().clone(), grid.weights())
        }
        None => (Kinds::default(), TerrainWeights::DEFAULT),
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if args.json {
        let all: Vec<Value> = kinds.all().map(|k| kind_json(&k, weights)).collect();
        serde_json::to_writer_pretty(&mut out, &all).map_err(std::io::Error::from)?;
        writeln!(out)?;
    } else {
        writeln!(
            out,
            "Each monster replans every turn with its kind's search. Costs multiply the 10/14 step\n\
             (- cannot enter); a cost is also time: a step into a cell of cost k takes k turns.\n"
        )?;
        for k in &KINDS {
            writeln!(out, "{}", kind_line(k, weights))?;
        }
        if let (Some(file), false) = (&args.level, kinds.is_empty()) {
            writeln!(out, "\nThe kinds {} defines:\n", file.display())?;
            for k in kinds.own() {
                writeln!(out, "{}", kind_line(k, weights))?;
            }
        }
    }
    out.flush()?;
    Ok(0)
}
