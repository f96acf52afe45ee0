//! How the engine's values that the game's own types hold are written in a kept run's save:
//! cells, tiles, maps, search options and bit sets, in forms this crate owns (a map is its
//! tiles as the level format's glyphs, never the engine's layout), for `#[serde(with)]` on
//! the fields that hold them. Everything read back is checked before anything is allocated
//! from it: a map's size against the level limits, its cells against its size.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::level::{SizeError, check_dims, terrain_of_glyph, tile_glyph};
use crate::content::map::{TerrainWeights, Tile, TileMap};
use crate::engine::astar::{Algorithm, Heuristic, SearchOptions, Ties, Weight};
use crate::engine::grid::{Neighbourhood, Pos};

/// A cell as `[x, y]`.
pub mod pos {
    use super::*;

    /// For `#[serde(with)]`.
    pub fn serialize<S: Serializer>(p: &Pos, s: S) -> Result<S::Ok, S::Error> {
        [p.x, p.y].serialize(s)
    }

    /// For `#[serde(with)]`.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Pos, D::Error> {
        let [x, y] = <[i32; 2]>::deserialize(d)?;
        Ok(Pos::new(x, y))
    }
}

/// A cell or none, as `[x, y]` or `null`.
pub mod opt_pos {
    use super::*;

    /// For `#[serde(with)]`.
    pub fn serialize<S: Serializer>(p: &Option<Pos>, s: S) -> Result<S::Ok, S::Error> {
        p.map(|p| [p.x, p.y]).serialize(s)
    }

    /// For `#[serde(with)]`.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Pos>, D::Error> {
        Ok(Option::<[i32; 2]>::deserialize(d)?.map(|[x, y]| Pos::new(x, y)))
    }
}

/// Two cells, as `[x1, y1, x2, y2]`.
pub mod pos_pair {
    use super::*;

    /// For `#[serde(with)]`.
    pub fn serialize<S: Serializer>(p: &(Pos, Pos), s: S) -> Result<S::Ok, S::Error> {
        [p.0.x, p.0.y, p.1.x, p.1.y].serialize(s)
    }

    /// For `#[serde(with)]`.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<(Pos, Pos), D::Error> {
        let [a, b, c, e] = <[i32; 4]>::deserialize(d)?;
        Ok((Pos::new(a, b), Pos::new(c, e)))
    }
}

/// Cells, each as `[x, y]`.
pub mod positions {
    use super::*;

    /// For `#[serde(with)]`.
    pub fn serialize<S: Serializer>(v: &[Pos], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(v.iter().map(|p| [p.x, p.y]))
    }

    /// For `#[serde(with)]`.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Pos>, D::Error> {
        Ok(Vec::<[i32; 2]>::deserialize(d)?
            .into_iter()
            .map(|[x, y]| Pos::new(x, y))
            .collect())
    }
}

/// The tile a glyph of the level format stands for (`#` wall, space void, `.` `~` `"`,
/// doors `+` `'` `=`).
pub fn tile_of_glyph(c: char) -> Option<Tile> {
    Tile::ALL
        .into_iter()
        .find(|&t| tile_glyph(t) == c)
        .or_else(|| terrain_of_glyph(c))
}

/// A tile as its glyph in the level format.
pub mod tile {
    use super::*;

    /// For `#[serde(with)]`.
    pub fn serialize<S: Serializer>(t: &Tile, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_char(tile_glyph(*t))
    }

    /// For `#[serde(with)]`.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Tile, D::Error> {
        let c = char::deserialize(d)?;
        tile_of_glyph(c).ok_or_else(|| D::Error::custom(format!("{c:?} is not a tile")))
    }
}

/// Tiles as one string of glyphs.
pub mod tiles {
    use super::*;

    /// For `#[serde(with)]`.
    pub fn serialize<S: Serializer>(t: &[Tile], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&t.iter().map(|&t| tile_glyph(t)).collect::<String>())
    }

    /// For `#[serde(with)]`.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Tile>, D::Error> {
        let text = String::deserialize(d)?;
        glyphs(&text).map_err(D::Error::custom)
    }
}

/// The tiles of a string of glyphs.
fn glyphs(text: &str) -> Result<Vec<Tile>, MapFormError> {
    text.chars()
        .map(|c| tile_of_glyph(c).ok_or(MapFormError::Glyph(c)))
        .collect()
}

/// A map as the level format would draw its tiles: its size, its cells row by row as one
/// string of glyphs, and the weights of its terrains.
#[derive(Serialize, Deserialize)]
struct MapForm {
    width: usize,
    height: usize,
    cells: String,
    /// Floor, water and brush.
    costs: [u32; 3],
    /// The level's own kinds, as the `kind` headers that define them (none in a save from
    /// before levels had kinds of their own).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    kinds: Vec<String>,
}

/// A [`TileMap`] as its size, its cells as one string of glyphs and its terrains' weights
/// (its grids of costs are made again from them).
pub mod grid {
    use super::*;

    /// For `#[serde(with)]`.
    pub fn serialize<S: Serializer>(g: &TileMap, s: S) -> Result<S::Ok, S::Error> {
        let weights = g.weights();
        MapForm {
            width: g.width(),
            height: g.height(),
            cells: g.tiles().iter().map(|&t| tile_glyph(t)).collect(),
            costs: Tile::TERRAIN.map(|t| weights.get(t)),
            kinds: g.kinds().headers().collect(),
        }
        .serialize(s)
    }

    /// For `#[serde(with)]`.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<TileMap, D::Error> {
        let form = MapForm::deserialize(d)?;
        super::map_of(form).map_err(D::Error::custom)
    }
}

/// Why a saved map does not read back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MapFormError {
    /// The size is empty or past the limits (the words of `check_dims`).
    #[error(transparent)]
    Size(SizeError),
    /// The cells written are not width times height.
    #[error("a map of {width}x{height} has {written} cells written, not {}", .width * .height)]
    Cells {
        /// The map's width.
        width: usize,
        /// The map's height.
        height: usize,
        /// How many cells are written.
        written: usize,
    },
    /// A character that is no tile's glyph.
    #[error("{0:?} is not a tile")]
    Glyph(char),
    /// A terrain weight out of the range the engine takes.
    #[error("a terrain weight of {0} is out of range")]
    Weight(u32),
    /// A level's own kind that does not read as its header.
    #[error("{header:?}: {error}")]
    Kind {
        /// The header as the save has it.
        header: String,
        /// Why it does not read.
        error: crate::content::kinds::own::KindError,
    },
}

/// The map of a map's form, its size checked before the map is made.
fn map_of(form: MapForm) -> Result<TileMap, MapFormError> {
    let (w, h) = (form.width, form.height);
    // `check_dims` multiplies only sides it has found within the limits.
    check_dims(w, h).map_err(MapFormError::Size)?;
    if form.cells.len() != w * h {
        return Err(MapFormError::Cells {
            width: w,
            height: h,
            written: form.cells.len(),
        });
    }
    let tiles = glyphs(&form.cells)?;
    let mut weights = TerrainWeights::DEFAULT;
    for (t, c) in Tile::TERRAIN.into_iter().zip(form.costs) {
        weights = weights.with(t, c).ok_or(MapFormError::Weight(c))?;
    }
    let mut kinds = crate::content::kinds::own::Kinds::default();
    for header in &form.kinds {
        let (key, value) = header.split_once(':').unwrap_or((header, ""));
        kinds
            .add_header(key, value)
            .map_err(|error| MapFormError::Kind {
                header: header.clone(),
                error,
            })?;
    }
    Ok(TileMap::from_tiles(w, h, tiles)
        .with_weights(weights)
        .with_kinds(kinds))
}

/// Search options as their command-line names.
#[derive(Serialize, Deserialize)]
struct OptionsForm {
    neighbourhood: String,
    heuristic: String,
    /// The weight on H, in thousandths.
    weight: u32,
    cap: Option<u32>,
    greedy: bool,
    ties: String,
    algorithm: String,
}

/// [`SearchOptions`] as the command-line names of their parts.
pub mod options {
    use super::*;

    /// For `#[serde(with)]`.
    pub fn serialize<S: Serializer>(o: &SearchOptions, s: S) -> Result<S::Ok, S::Error> {
        OptionsForm {
            neighbourhood: o.neighbourhood.to_string(),
            heuristic: o.heuristic.to_string(),
            weight: o.weight.millis(),
            cap: o.cap,
            greedy: o.greedy,
            ties: o.ties.to_string(),
            algorithm: o.algorithm.to_string(),
        }
        .serialize(s)
    }

    /// For `#[serde(with)]`.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<SearchOptions, D::Error> {
        let f = OptionsForm::deserialize(d)?;
        Ok(SearchOptions::default()
            .with_neighbourhood(
                f.neighbourhood
                    .parse::<Neighbourhood>()
                    .map_err(D::Error::custom)?,
            )
            .with_heuristic(f.heuristic.parse::<Heuristic>().map_err(D::Error::custom)?)
            .with_weight(Weight::from_millis(f.weight))
            .with_cap(f.cap)
            .with_greedy(f.greedy)
            .with_ties(f.ties.parse::<Ties>().map_err(D::Error::custom)?)
            .with_algorithm(f.algorithm.parse::<Algorithm>().map_err(D::Error::custom)?))
    }
}

/// Bit sets (64 cells a word) as hexadecimal, sixteen digits a word.
pub mod bits {
    use super::*;

    /// For `#[serde(with)]`.
    pub fn serialize<S: Serializer>(words: &[u64], s: S) -> Result<S::Ok, S::Error> {
        use std::fmt::Write;
        let mut out = String::with_capacity(words.len() * 16);
        for w in words {
            let _ = write!(out, "{w:016x}");
        }
        s.serialize_str(&out)
    }

    /// For `#[serde(with)]`.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u64>, D::Error> {
        let text = String::deserialize(d)?;
        if !text.len().is_multiple_of(16) {
            return Err(D::Error::custom("a bit set is not whole words"));
        }
        (0..text.len())
            .step_by(16)
            .map(|i| {
                text.get(i..i + 16)
                    .and_then(|w| u64::from_str_radix(w, 16).ok())
                    .ok_or_else(|| D::Error::custom("a bit set is not hexadecimal"))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Holder {
        #[serde(with = "grid")]
        grid: TileMap,
        #[serde(with = "options")]
        options: SearchOptions,
        #[serde(with = "bits")]
        bits: Vec<u64>,
        #[serde(with = "opt_pos")]
        at: Option<Pos>,
    }

    #[test]
    fn maps_options_and_bits_read_back_as_written() {
        let grid = TileMap::from_rows(&["#.~\"", " ..#"])
            .with_weights(TerrainWeights::DEFAULT.with(Tile::Water, 7).unwrap());
        let h = Holder {
            grid,
            options: SearchOptions::default()
                .with_cap(Some(40))
                .with_heuristic(Heuristic::Zero),
            bits: vec![0, u64::MAX, 5],
            at: Some(Pos::new(3, -1)),
        };
        let json = serde_json::to_string(&h).unwrap();
        assert!(json.contains(r##""cells":"#.~\" ..#""##), "{json}");
        let back: Holder = serde_json::from_str(&json).unwrap();
        assert_eq!(back, h);
        assert_eq!(back.grid.weights(), h.grid.weights());
    }

    #[test]
    fn a_map_past_the_limits_is_refused_before_it_is_made() {
        let form = |w: usize, h: usize, cells: &str| {
            format!(
                r#"{{"grid":{{"width":{w},"height":{h},"cells":"{cells}","costs":[1,3,2]}},"options":{{"neighbourhood":"8","heuristic":"octile","weight":1000,"cap":null,"greedy":false,"ties":"lower-h","algorithm":"astar"}},"bits":"","at":null}}"#
            )
        };
        let e = serde_json::from_str::<Holder>(&form(65535, 65535, "."))
            .unwrap_err()
            .to_string();
        assert!(e.contains("65535"), "{e}");
        let e = serde_json::from_str::<Holder>(&form(3, 1, "..")).unwrap_err();
        assert!(e.to_string().contains("has 2 cells written, not 3"), "{e}");
        let e = serde_json::from_str::<Holder>(&form(2, 1, ".x")).unwrap_err();
        assert!(e.to_string().contains("'x' is not a tile"), "{e}");
    }
}
