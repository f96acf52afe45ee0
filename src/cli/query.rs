//! The search that `path` and `lab` share: the level, the endpoints with their defaults, and
//! the options, so both commands run exactly the same query for the same arguments.

use std::path::PathBuf;

use clap::Args;

use super::CliError;
use crate::content::endpoints::BadEndpoint;
use crate::content::level::Level;
use crate::engine::astar::{Algorithm, Heuristic, SearchOptions, Ties, Weight};
use crate::engine::grid::{Neighbourhood, Pos};

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
}

impl QueryArgs {
    /// The search options these arguments ask for.
    pub fn options(&self) -> SearchOptions {
        SearchOptions {
            neighbourhood: self.neighbours,
            heuristic: self.heuristic,
            weight: self.weight,
            cap: self.cap,
            greedy: self.greedy,
            ties: self.ties,
            algorithm: self.algorithm,
        }
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
}

/// The error for a search whose start or goal cannot be searched, if one cannot.
pub fn check_endpoints(level: &Level, from: Pos, to: Pos) -> Result<(), CliError> {
    match BadEndpoint::find(&level.grid, from, to) {
        Some(bad) => Err(CliError::BadInput(bad.describe(&level.grid))),
        None => Ok(()),
    }
}
