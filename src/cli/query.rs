//! The search that `path` and `lab` share: the level, the endpoints with their defaults, and
//! the options, so both commands run exactly the same query for the same arguments.

use std::path::PathBuf;

use clap::Args;

use super::error::CliError;
use crate::content::endpoints::BadEndpoint;
use crate::content::kinds::Kind;
use crate::content::level::Level;
use crate::engine::astar::{Algorithm, Heuristic, Invalid, SearchOptions, Ties, Weight};
use crate::engine::grid::{Grid, Neighbourhood, Pos};

/// A level and one search on it.
#[derive(Debug, Args)]
pub struct QueryArgs {
    /// The level file.
    pub level: PathBuf,
    /// Start cell `X,Y` (default: the first monster in reading order). Negative values
    /// are read as values, not flags: `--from -1,0` and `--from=-1,0` both work.
    #[arg(long, allow_hyphen_values = true)]
    pub from: Option<Pos>,
    /// Goal cell `X,Y` (default: the player); negative values work as for `--from`.
    #[arg(long, allow_hyphen_values = true)]
    pub to: Option<Pos>,
    /// Movement rule: 8, 8cut or 4.
    #[arg(long, default_value_t = Neighbourhood::Eight)]
    pub neighbours: Neighbourhood,
    /// Heuristic: octile, manhattan, chebyshev, euclidean or zero (dijkstra).
    #[arg(long, default_value_t = Heuristic::Octile)]
    pub heuristic: Heuristic,
    /// Weight on H (weighted A*), e.g. 1.5.
    #[arg(long, default_value_t = Weight::ONE)]
    pub weight: Weight,
    /// Stop after this many expansions.
    #[arg(long)]
    pub cap: Option<u32>,
    /// Greedy best-first search: order the open list by H alone.
    #[arg(long)]
    pub greedy: bool,
    /// Which node of equal F goes first: lower-h (the lower H, then reading order: the
    /// game's rule), lifo (the last queued) or fifo (the first queued).
    #[arg(long, default_value_t = Ties::LowerH)]
    pub ties: Ties,
    /// The search: astar, or jps (Jump Point Search, where it applies: 8-way, weight 1,
    /// octile, Chebyshev or zero; elsewhere A* runs and says so).
    #[arg(long, default_value_t = Algorithm::AStar)]
    pub algorithm: Algorithm,
    /// Search as a kind of monster does (its name or letter: `astar-rogue kinds` lists
    /// them): its moves, weight and cap over the options above, and its costs.
    #[arg(long)]
    pub kind: Option<KindName>,
}

/// A kind of monster named on the command line, by name (`goblin`) or letter (`g`): looked
/// up on the level, which may define kinds of its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KindName(pub String);

impl std::str::FromStr for KindName {
    type Err = std::convert::Infallible;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(KindName(s.to_string()))
    }
}

impl QueryArgs {
    /// The search options these arguments ask for, with the kind's own search over them
    /// (the kind [`QueryArgs::kind_on`] found).
    pub fn options(&self, kind: Option<&Kind>) -> SearchOptions {
        let o = self.base_options();
        match kind {
            Some(k) => k.search.options(o),
            None => o,
        }
    }

    /// The kind `--kind` names on `level`: one of the game's, or one the level defines.
    pub fn kind_on(&self, level: &Level) -> Result<Option<Kind>, CliError> {
        let Some(KindName(name)) = &self.kind else {
            return Ok(None);
        };
        let kinds = level.grid.kinds();
        let mut letters = name.chars();
        let letter = letters.next().filter(|_| letters.next().is_none());
        let found = kinds
            .named(name)
            .or_else(|| kinds.all().find(|k| Some(k.glyph) == letter));
        match found {
            Some(k) => Ok(Some(k)),
            None => {
                let names: Vec<String> = kinds.all().map(|k| k.name.to_string()).collect();
                Err(CliError::BadInput(format!(
                    "{name:?} is not a kind on {}: use {}",
                    self.level.display(),
                    names.join(", ")
                )))
            }
        }
    }

    /// The search options these arguments ask for, without `--kind`'s own search over them.
    pub fn base_options(&self) -> SearchOptions {
        SearchOptions::default()
            .with_neighbourhood(self.neighbours)
            .with_heuristic(self.heuristic)
            .with_weight(self.weight)
            .with_cap(self.cap)
            .with_greedy(self.greedy)
            .with_ties(self.ties)
            .with_algorithm(self.algorithm)
    }

    /// The grid of costs the search reads on `level`: the player's, or as `kind` that
    /// kind's (kept on the level's map from now on).
    pub fn grid<'a>(&self, level: &'a mut Level, kind: Option<&Kind>) -> &'a Grid {
        let Some(k) = kind else {
            return level.grid.cost_grid();
        };
        let table = k.search.costs.table(level.grid.weights());
        level.grid.add_view(table);
        level
            .grid
            .grid_for(&table)
            .unwrap_or_else(|| level.grid.cost_grid())
    }

    /// The endpoints on `level`: the arguments', or the first monster and the player.
    pub fn endpoints(&self, level: &Level) -> Result<(Pos, Pos), CliError> {
        let missing = |what: &str| CliError::BadInput(format!("{}: {what}", self.level.display()));
        let from = match self.from {
            Some(p) => p,
            None => level
                .monsters
                .first()
                .map(|m| m.pos)
                .ok_or_else(|| missing("no monster to start from; give --from X,Y"))?,
        };
        let to = match self.to {
            Some(p) => p,
            None => level
                .player
                .ok_or_else(|| missing("no player to go to; give --to X,Y"))?,
        };
        Ok((from, to))
    }

    /// The error for a search as `--kind` whose start or goal is a cell that kind cannot
    /// enter (a closed door, to the rat), on `grid`, that kind's grid of costs: the words
    /// `check_endpoints` uses for a wall, with the kind's name.
    pub fn check_kind_endpoints(
        kind: Option<&Kind>,
        grid: &Grid,
        from: Pos,
        to: Pos,
    ) -> Result<(), CliError> {
        let Some(k) = kind else {
            return Ok(());
        };
        for (what, at) in [("start", from), ("goal", to)] {
            if Invalid::of(grid, at).is_some() {
                return Err(CliError::BadInput(format!(
                    "invalid {what} {at}: a cell the {} cannot enter",
                    k.name
                )));
            }
        }
        Ok(())
    }
}

/// The error for a search whose start or goal cannot be searched, if one cannot.
pub fn check_endpoints(level: &Level, from: Pos, to: Pos) -> Result<(), CliError> {
    match BadEndpoint::find(&level.grid, from, to) {
        Some(bad) => Err(CliError::BadInput(bad.describe(&level.grid))),
        None => Ok(()),
    }
}
