//! Moving AI scenario files (`.map.scen`): parsing, and checking the engine against them.
//!
//! A scenario file starts with `version 1` (or `version 1.0`); every further line is
//! `bucket map width height start_x start_y goal_x goal_y optimal_length`, separated by tabs
//! (or, in older files such as AR0011SR's, by spaces). Lengths use 1 per straight step and
//! sqrt(2) per diagonal, 8-way without corner cutting.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::content::endpoints::BadEndpoint;
use crate::content::level::Level;
use crate::content::map::TileMap;
use crate::engine::astar::{
    Fallback, Invalid, Pathfinder, Query, SearchOptions, SearchResult, Status, path_cost,
};
use crate::engine::grid::{Neighbourhood, Pos};
use crate::text::{LoadError, ParseError, lines, read_limited};

/// How many failures a [`Report`] keeps the details of.
pub const MAX_FAILURE_DETAILS: usize = 10;

/// One start/goal problem from a scenario file.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    /// The line it was read from, from 1.
    pub line: usize,
    /// Difficulty bucket: floor(optimal / 4) in the published files.
    pub bucket: u32,
    /// The map's file name, without the directories the file gives.
    pub map: String,
    /// Map width the file expects.
    pub width: usize,
    /// Map height the file expects.
    pub height: usize,
    /// Where the search starts.
    pub start: Pos,
    /// Where it must end.
    pub goal: Pos,
    /// The optimal length with sqrt(2) diagonals, as stored (rounded).
    pub optimal: f64,
}

impl Scenario {
    /// The allowed rounding slack: `0.005 + 1e-5 * optimal`.
    pub fn tolerance(&self) -> f64 {
        0.005 + 1e-5 * self.optimal
    }
}

/// A scenario the engine got wrong.
#[derive(Debug, Clone, PartialEq)]
pub struct ScenarioFailure {
    /// The scenario.
    pub scenario: Scenario,
    /// What was wrong.
    pub reason: Mismatch,
}

/// What a search got wrong on a scenario.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Mismatch {
    /// The search found no path (how it ended).
    #[error("search ended {}", crate::content::searches::status_name(*.0))]
    NotFound(Status),
    /// The cost differs from the scenario's exact cost.
    #[error("cost {cost}, the exact cost is {want}")]
    NotExact {
        /// The search's cost.
        cost: u32,
        /// The exact cost.
        want: u32,
    },
    /// The cost is past the tolerance over the optimal length.
    #[error("cost {0} is longer than optimal")]
    Longer(u32),
    /// The path does not run from the start to the goal.
    #[error("path does not run from start to goal")]
    Ends,
    /// The path crosses a cell that cannot be entered.
    #[error("path crosses blocked cell {0}")]
    Blocked(Pos),
    /// A step of the path the moves do not allow (corner cutting, a jump).
    #[error("illegal step {0} -> {1}")]
    Step(Pos, Pos),
    /// The path's own cost is not the cost the search reported.
    #[error("path costs {path:?}, the search reported {cost}")]
    PathCost {
        /// The path's cost, if it has one.
        path: Option<u32>,
        /// The reported cost.
        cost: u32,
    },
    /// The path is shorter than the optimal length can be.
    #[error("path length {0:.5} is shorter than optimal")]
    Shorter(f64),
}

impl std::fmt::Display for ScenarioFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = &self.scenario;
        write!(
            f,
            "line {}: {} -> {} (optimal {}): {}",
            s.line, s.start, s.goal, s.optimal, self.reason
        )
    }
}

/// The outcome of running a set of scenarios.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Report {
    /// Scenarios run.
    pub scenarios: usize,
    /// Scenarios that failed a check.
    pub failed: usize,
    /// Details of the first [`MAX_FAILURE_DETAILS`] failures.
    pub failures: Vec<ScenarioFailure>,
    /// Time spent inside the searches alone (no parsing or checking).
    pub search_time: Duration,
    /// Nodes expanded over all searches.
    pub expanded: u64,
    /// Scenarios whose cost was checked for equality with an exact cost (from a `.1014`
    /// file); the others were checked against the bounds around `optimal_length`.
    pub exact: usize,
    /// Why A* ran instead of the Jump Point Search asked for, if it did on any scenario.
    pub fallback: Option<Fallback>,
}

impl std::ops::AddAssign<&Report> for Report {
    /// Adds another run's counts and times; keeps failure details up to the limit.
    fn add_assign(&mut self, other: &Report) {
        self.scenarios += other.scenarios;
        self.failed += other.failed;
        self.search_time += other.search_time;
        self.expanded += other.expanded;
        self.exact += other.exact;
        self.fallback = self.fallback.or(other.fallback);
        let room = MAX_FAILURE_DETAILS.saturating_sub(self.failures.len());
        self.failures
            .extend(other.failures.iter().take(room).cloned());
    }
}

impl Report {
    /// Mean search time per scenario, in microseconds (0 when nothing ran).
    pub fn mean_us_per_query(&self) -> f64 {
        if self.scenarios == 0 {
            0.0
        } else {
            self.search_time.as_secs_f64() * 1e6 / self.scenarios as f64
        }
    }

    /// Expansion rate, in millions per second of search time (0 when nothing was timed).
    pub fn mexpansions_per_sec(&self) -> f64 {
        let secs = self.search_time.as_secs_f64();
        if secs > 0.0 {
            self.expanded as f64 / secs / 1e6
        } else {
            0.0
        }
    }

    /// Whether every scenario passed.
    pub fn passed(&self) -> bool {
        self.failed == 0
    }
}

/// The summary line: `N scenarios, F failed, E exact, B by bounds, mean X us/query, Y M
/// expansions/s`, where E were checked for equality with their exact cost and B against the
/// bounds around `optimal_length`.
pub fn format_summary(report: &Report) -> String {
    format!(
        "{} scenarios, {} failed, {} exact, {} by bounds, mean {:.2} us/query, {:.1} M expansions/s",
        report.scenarios,
        report.failed,
        report.exact,
        report.scenarios - report.exact,
        report.mean_us_per_query(),
        report.mexpansions_per_sec()
    )
}

/// Why a scenario run could not start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScenError {
    /// The scenario file or the map could not be read or parsed.
    #[error("{0}")]
    Load(#[from] LoadError),
    /// The scenario file was read but does not fit the map.
    #[error("{0}")]
    Mismatch(ParseError),
}

/// Parses a scenario file; `file` names it in errors.
pub fn parse(bytes: &[u8], file: &str) -> Result<Vec<Scenario>, ParseError> {
    let err = |line: usize, col: usize, msg: String, text: &str| {
        ParseError::new(file.to_string(), line, col, msg, text)
    };
    let mut it = lines(bytes, file);
    let (n, first) = match it.next() {
        Some(item) => item?,
        None => return Err(err(1, 1, "empty file: expected `version 1`".into(), "")),
    };
    let version = first
        .trim_end()
        .strip_prefix("version")
        .filter(|v| v.starts_with([' ', '\t']))
        .map(str::trim_start)
        .filter(|v| v.bytes().all(|b| b.is_ascii_digit() || b == b'.'))
        .and_then(|v| v.parse::<f64>().ok());
    if version != Some(1.0) {
        return Err(err(
            n,
            1,
            "expected `version 1` or `version 1.0`".into(),
            first,
        ));
    }
    let mut out = Vec::new();
    for item in it {
        let (n, line) = item?;
        if line.trim().is_empty() {
            continue;
        }
        out.push(parse_line(n, line).map_err(|(col, msg)| err(n, col, msg, line))?);
    }
    Ok(out)
}

/// The fields of a line with their 1-based character columns.
fn fields(line: &str) -> Vec<(usize, &str)> {
    // Tab-separated files may hold spaces inside the map path; only older files use spaces.
    let tabs = line.contains('\t');
    let is_sep = |c: char| if tabs { c == '\t' } else { c == ' ' };
    let mut out = Vec::new();
    let mut begin: Option<(usize, usize)> = None;
    let mut col = 0;
    for (byte, c) in line.char_indices() {
        col += 1;
        match (is_sep(c), begin) {
            (true, Some((b, bc))) => {
                out.push((bc, &line[b..byte]));
                begin = None;
            }
            (false, None) => begin = Some((byte, col)),
            _ => {}
        }
    }
    if let Some((b, bc)) = begin {
        out.push((bc, &line[b..]));
    }
    out
}

fn parse_line(n: usize, line: &str) -> Result<Scenario, (usize, String)> {
    const NAMES: [&str; 9] = [
        "bucket",
        "map",
        "width",
        "height",
        "start_x",
        "start_y",
        "goal_x",
        "goal_y",
        "optimal_length",
    ];
    let f = fields(line);
    if f.len() < NAMES.len() {
        return Err((
            line.chars().count() + 1,
            format!(
                "expected 9 fields ({}), found {}; missing {}",
                NAMES.join(" "),
                f.len(),
                NAMES[f.len()]
            ),
        ));
    }
    if f.len() > NAMES.len() {
        return Err((
            f[NAMES.len()].0,
            format!("expected 9 fields, found {}", f.len()),
        ));
    }
    let int = |i: usize, max: u64| -> Result<u64, (usize, String)> {
        let (col, s) = f[i];
        s.parse::<u64>()
            .ok()
            .filter(|&v| v <= max)
            .ok_or_else(|| (col, format!("bad {} {s:?}", NAMES[i])))
    };
    let side = crate::content::level::MAX_LEVEL_SIDE as u64;
    let bucket = int(0, u64::from(u32::MAX))? as u32;
    let map_path = f[1].1;
    let map = map_path
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(map_path)
        .to_string();
    if map.is_empty() {
        return Err((f[1].0, format!("bad map {map_path:?}: no file name")));
    }
    let width = int(2, side)? as usize;
    let height = int(3, side)? as usize;
    let coord = |i: usize| int(i, i32::MAX as u64).map(|v| v as i32);
    let start = Pos::new(coord(4)?, coord(5)?);
    let goal = Pos::new(coord(6)?, coord(7)?);
    let (col, s) = f[8];
    let optimal = s
        .parse::<f64>()
        .ok()
        .filter(|v| {
            v.is_finite() && *v >= 0.0 && s.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        })
        .ok_or_else(|| (col, format!("bad optimal_length {s:?}")))?;
    Ok(Scenario {
        line: n,
        bucket,
        map,
        width,
        height,
        start,
        goal,
        optimal,
    })
}

/// Most bytes of a scenario file (the largest published ones are about 1 MiB).
pub const MAX_SCEN_BYTES: u64 = 64 * 1024 * 1024;

/// Reads and parses a scenario file of at most [`MAX_SCEN_BYTES`].
pub fn load(path: &Path) -> Result<Vec<Scenario>, LoadError> {
    let name = path.display().to_string();
    let bytes = read_limited(path, MAX_SCEN_BYTES, "scenario file")?;
    Ok(parse(&bytes, &name)?)
}

/// The map a scenario file names, looked up by file name beside the scenario file.
pub fn map_path_for(scen_path: &Path, scenarios: &[Scenario]) -> Option<PathBuf> {
    let map = &scenarios.first()?.map;
    Some(
        scen_path
            .parent()
            .unwrap_or_else(|| Path::new(""))
            .join(map),
    )
}

/// Checks that every scenario fits `grid` (and, when `map_name` is given, names that map),
/// its start and goal on floor cells of it.
/// `source` is the scenario file's bytes, for the line an error quotes.
pub fn check_fit(
    scenarios: &[Scenario],
    grid: &TileMap,
    map_name: Option<&str>,
    file: &str,
    source: &[u8],
) -> Result<(), ParseError> {
    for s in scenarios {
        // Errors quote the line and point at the field at fault: the map's name, the width or
        // the coordinate.
        let at = |field: usize, msg: String| {
            let text = lines(source, file)
                .nth(s.line - 1)
                .and_then(Result::ok)
                .map_or("", |(_, t)| t);
            let col = fields(text).get(field).map_or(1, |f| f.0);
            ParseError::new(file.to_string(), s.line, col, msg, text)
        };
        if let Some(name) = map_name
            && s.map != name
        {
            return Err(at(
                1,
                format!(
                    "scenario names map {:?}, but the file's scenarios are for {name:?}",
                    s.map
                ),
            ));
        }
        if (s.width, s.height) != (grid.width(), grid.height()) {
            return Err(at(
                2,
                format!(
                    "scenario expects a {}x{} map, the map is {}x{}",
                    s.width,
                    s.height,
                    grid.width(),
                    grid.height()
                ),
            ));
        }
        // Published files never hold one: a search refusing it would blame the engine for
        // a broken file.
        if let Some(bad) = BadEndpoint::find(grid, s.start, s.goal) {
            let x_field = if bad.goal { 6 } else { 4 };
            let x_fits = usize::try_from(bad.at.x).is_ok_and(|x| x < grid.width());
            let field = match bad.why {
                Invalid::OutOfBounds if x_fits => x_field + 1,
                _ => x_field,
            };
            return Err(at(field, bad.describe(grid)));
        }
    }
    Ok(())
}

/// The file of exact costs beside a scenario file: `X.map.scen.1014`.
pub fn exact_path(scen_path: &Path) -> PathBuf {
    let mut name = scen_path.as_os_str().to_owned();
    name.push(".1014");
    PathBuf::from(name)
}

/// Parses a file of exact costs (`.1014`): line k holds the exact cost, in the engine's
/// 10/14 units, of the scenario on line k + 1 of its scenario file. Returns one cost per
/// scenario, in order; every scenario must have one.
pub fn parse_exact(
    bytes: &[u8],
    file: &str,
    scenarios: &[Scenario],
) -> Result<Vec<u32>, ParseError> {
    let mut costs: Vec<Option<u32>> = Vec::new();
    for item in lines(bytes, file) {
        let (n, line) = item?;
        let value = line.trim();
        if value.is_empty() {
            costs.push(None);
            continue;
        }
        let cost = Some(value)
            .filter(|v| v.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|v| v.parse::<u32>().ok())
            .ok_or_else(|| {
                let col = line.chars().count() - line.trim_start().chars().count() + 1;
                ParseError::new(
                    file.to_string(),
                    n,
                    col,
                    format!("bad exact cost {value:?}: expected a whole number"),
                    line,
                )
            })?;
        costs.push(Some(cost));
    }
    let lines_read = costs.len();
    scenarios
        .iter()
        .map(|s| {
            costs.get(s.line - 2).copied().flatten().ok_or_else(|| {
                ParseError::new(
                    file.to_string(),
                    (s.line - 1).min(lines_read + 1),
                    1,
                    format!(
                        "no exact cost for the scenario on line {} of its scenario file",
                        s.line
                    ),
                    "",
                )
            })
        })
        .collect()
}

/// Most bytes of a file of exact costs.
pub const MAX_EXACT_BYTES: u64 = MAX_SCEN_BYTES;

/// Loads a scenario file and its map (beside it, or `map_override`) and runs every scenario
/// on `jobs` threads with `options`. When the file's exact costs (`X.map.scen.1014`) are beside it, each
/// cost must equal its exact cost; otherwise it must lie within the bounds.
pub fn run_file_on(
    scen_path: &Path,
    map_override: Option<&Path>,
    jobs: usize,
    options: SearchOptions,
) -> Result<Report, ScenError> {
    let name = scen_path.display().to_string();
    let bytes = read_limited(scen_path, MAX_SCEN_BYTES, "scenario file")?;
    let scenarios = parse(&bytes, &name).map_err(LoadError::from)?;
    if scenarios.is_empty() {
        return Ok(Report::default());
    }
    let (map_path, expect_name) = match map_override {
        Some(p) => (p.to_path_buf(), None),
        None => (
            map_path_for(scen_path, &scenarios).unwrap_or_default(),
            Some(scenarios[0].map.as_str()),
        ),
    };
    let (level, _) = Level::load(&map_path)?;
    check_fit(&scenarios, &level.grid, expect_name, &name, &bytes).map_err(ScenError::Mismatch)?;
    let exact_file = exact_path(scen_path);
    // Anything there at all is read as the exact costs: a FIFO, a folder or a link to
    // nothing in its place is refused, never silently taken for "no exact costs".
    let exact = match std::fs::symlink_metadata(&exact_file) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        _ => {
            let exact_bytes = read_limited(&exact_file, MAX_EXACT_BYTES, "file of exact costs")?;
            let exact_name = exact_file.display().to_string();
            Some(parse_exact(&exact_bytes, &exact_name, &scenarios).map_err(LoadError::from)?)
        }
    };
    Ok(run_scenarios_on(
        &scenarios,
        exact.as_deref(),
        &level.grid,
        jobs,
        options,
    ))
}

/// [`run_file_on`] on one thread.
pub fn run_file(scen_path: &Path, map_override: Option<&Path>) -> Result<Report, ScenError> {
    run_file_on(scen_path, map_override, 1, SearchOptions::default())
}

/// Runs the scenarios split in `jobs` runs of neighbouring scenarios, one thread each, and
/// adds up their reports in order, so the result is the same for any `jobs`. Each search is
/// still timed on its own.
pub fn run_scenarios_on(
    scenarios: &[Scenario],
    exact: Option<&[u32]>,
    grid: &TileMap,
    jobs: usize,
    options: SearchOptions,
) -> Report {
    let per_job = scenarios.len().div_ceil(jobs.max(1)).max(1);
    let reports: Vec<Report> = std::thread::scope(|scope| {
        let handles: Vec<_> = scenarios
            .chunks(per_job)
            .enumerate()
            .map(|(i, chunk)| {
                let exact = exact.map(|e| &e[i * per_job..i * per_job + chunk.len()]);
                scope.spawn(move || run_checked(chunk, exact, grid, options))
            })
            .collect();
        handles
            .into_iter()
            // A job only panics on a bug; pass it on rather than hide it.
            .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    let mut total = Report::default();
    for r in &reports {
        total += r;
    }
    total
}

/// Runs every scenario with default [`SearchOptions`] through one reused [`Pathfinder`],
/// checking each cost against the bounds around `optimal_length`.
pub fn run_scenarios(scenarios: &[Scenario], grid: &TileMap) -> Report {
    run_checked(scenarios, None, grid, SearchOptions::default())
}

/// Runs the scenarios through one reused [`Pathfinder`] with `options` (the tie rule and
/// the algorithm matter; the scenarios' rule is the game's); with `exact` (one cost per
/// scenario) each cost must equal its exact cost, else it must lie within the bounds.
pub fn run_checked(
    scenarios: &[Scenario],
    exact: Option<&[u32]>,
    grid: &TileMap,
    options: SearchOptions,
) -> Report {
    let mut pf = Pathfinder::new();
    let mut out = SearchResult::default();
    let mut report = Report::default();
    // Untimed, a first search copies the grid into the engine and labels its regions, as the
    // anchors' harness prepares a map before its clock starts: the times are searches alone.
    if let Some(s) = scenarios.first() {
        let q = Query::new(s.start, s.goal).options(options);
        pf.search(grid.cost_grid(), q, &mut out, &mut ());
    }
    for (i, s) in scenarios.iter().enumerate() {
        let began = Instant::now();
        pf.search(
            grid.cost_grid(),
            Query::new(s.start, s.goal).options(options),
            &mut out,
            &mut (),
        );
        report.search_time += began.elapsed();
        report.scenarios += 1;
        report.expanded += u64::from(out.expanded);
        report.fallback = report.fallback.or(out.fallback);
        let want = exact.and_then(|e| e.get(i).copied());
        report.exact += usize::from(want.is_some());
        let verdict = match (out.status, out.cost) {
            (Status::Found, Some(cost)) => check(s, want, grid, cost, &out.path),
            (status, _) => Err(Mismatch::NotFound(status)),
        };
        if let Err(reason) = verdict {
            report.failed += 1;
            if report.failures.len() < MAX_FAILURE_DETAILS {
                report.failures.push(ScenarioFailure {
                    scenario: s.clone(),
                    reason,
                });
            }
        }
    }
    report
}

/// The path's legality and, for one found path, its cost: equal to `exact` when given,
/// else within the tolerance of `optimal_length`.
fn check(
    s: &Scenario,
    exact: Option<u32>,
    grid: &TileMap,
    cost: u32,
    path: &[Pos],
) -> Result<(), Mismatch> {
    let tol = s.tolerance();
    match exact {
        Some(want) if cost != want => return Err(Mismatch::NotExact { cost, want }),
        Some(_) => {}
        None if f64::from(cost) / 10.0 > s.optimal + tol => return Err(Mismatch::Longer(cost)),
        None => {}
    }
    if path.first() != Some(&s.start) || path.last() != Some(&s.goal) {
        return Err(Mismatch::Ends);
    }
    if let Some(&p) = path.iter().find(|&&p| !grid.is_passable(p)) {
        return Err(Mismatch::Blocked(p));
    }
    let (mut straight, mut diagonal) = (0u32, 0u32);
    for w in path.windows(2) {
        let (dx, dy) = (w[1].x - w[0].x, w[1].y - w[0].y);
        if !grid.can_step(w[0], dx, dy, Neighbourhood::Eight) {
            return Err(Mismatch::Step(w[0], w[1]));
        }
        if dx != 0 && dy != 0 {
            diagonal += 1;
        } else {
            straight += 1;
        }
    }
    if path_cost(path) != Some(cost) {
        return Err(Mismatch::PathCost {
            path: path_cost(path),
            cost,
        });
    }
    let length = f64::from(straight) + f64::from(diagonal) * std::f64::consts::SQRT_2;
    if exact.is_none() && length < s.optimal - tol {
        return Err(Mismatch::Shorter(length));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::astar::Ties;

    fn with_ties(ties: Ties) -> SearchOptions {
        SearchOptions::default().with_ties(ties)
    }

    const TABS: &str = "version 1\n\
        0\tmaps/dao/arena.map\t49\t49\t1\t11\t1\t12\t1\n\
        1\tmaps/dao/arena.map\t49\t49\t1\t12\t3\t10\t4.82843\r\n\n";
    const SPACES: &str = "version 1.0\n\
        61 maps/bgmaps/AR0011SR.map 512 512 210 395 87 201 244.95\n";

    #[test]
    fn parses_the_tab_style() {
        let s = parse(TABS.as_bytes(), "a.scen").expect("valid");
        assert_eq!(s.len(), 2);
        assert_eq!(
            s[1],
            Scenario {
                line: 3,
                bucket: 1,
                map: "arena.map".into(),
                width: 49,
                height: 49,
                start: Pos::new(1, 12),
                goal: Pos::new(3, 10),
                optimal: 4.82843,
            }
        );
    }

    #[test]
    fn parses_the_space_style() {
        let s = parse(SPACES.as_bytes(), "b.scen").expect("valid");
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].map, "AR0011SR.map");
        assert_eq!(
            (s[0].start, s[0].goal),
            (Pos::new(210, 395), Pos::new(87, 201))
        );
        assert_eq!((s[0].bucket, s[0].optimal), (61, 244.95));
    }

    fn error(text: &str) -> (usize, usize, String) {
        let e = parse(text.as_bytes(), "x.scen").expect_err("should be rejected");
        assert_eq!(e.file, "x.scen");
        (e.line, e.col, e.message)
    }

    #[test]
    fn errors_point_at_the_offending_field() {
        assert_eq!(error("").0, 1);
        assert_eq!(error("version 2\n").1, 1);
        assert_eq!(error("versions 1\n").1, 1);
        // `x` is the start_x field, at column 13 of line 3.
        let bad_x =
            "version 1\n0\tm.map\t4\t4\t0\t0\t1\t1\t1.41421\n0\tm.map\t4\t4\tx\t0\t1\t1\t1\n";
        let (line, col, msg) = error(bad_x);
        assert_eq!((line, col), (3, 13));
        assert!(msg.contains("start_x"), "{msg}");
        let (line, col, msg) = error("version 1.0\n0 m.map 4 4 0 0 1 1 -1\n");
        assert_eq!((line, col), (2, 21));
        assert!(msg.contains("optimal_length"), "{msg}");
        // Too few fields: the caret sits just past the end of the line.
        let (line, col, msg) = error("version 1\n0\tm.map\t4\t4\t0\t0\t1\n");
        assert_eq!((line, col), (2, 18));
        assert!(msg.contains("missing goal_y"), "{msg}");
        let (line, col, _) = error("version 1.0\n0 m.map 4 4 0 0 1 1 1 extra\n");
        assert_eq!((line, col), (2, 23));
        let (line, col, msg) = error("version 1\n0\tm.map\t99999\t4\t0\t0\t1\t1\t1\n");
        assert_eq!((line, col, msg.contains("width")), (2, 9, true));
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        let (_, col, _) = error("version 1\n0\tmaps/é/m.map\t4\t4\tq\t0\t1\t1\t1\n");
        assert_eq!(col, 20);
    }

    fn open_grid(rows: &[&str]) -> TileMap {
        TileMap::from_rows(rows)
    }

    fn scenario(start: Pos, goal: Pos, optimal: f64) -> Scenario {
        Scenario {
            line: 2,
            bucket: 0,
            map: "m.map".into(),
            width: 4,
            height: 3,
            start,
            goal,
            optimal,
        }
    }

    #[test]
    fn run_accepts_optimal_answers_and_rejects_wrong_lengths() {
        let g = open_grid(&["....", ".#..", "...."]);
        let good = [
            scenario(
                Pos::new(0, 0),
                Pos::new(3, 2),
                3.0 + std::f64::consts::SQRT_2,
            ),
            scenario(Pos::new(0, 0), Pos::new(0, 0), 0.0),
            scenario(Pos::new(0, 0), Pos::new(2, 2), 4.0),
        ];
        let r = run_scenarios(&good, &g);
        assert_eq!((r.scenarios, r.failed), (3, 0), "{:?}", r.failures);
        assert!(r.expanded > 3);
        // Stored length too short (the search's cost exceeds it) and too long.
        let bad = [
            scenario(Pos::new(0, 0), Pos::new(3, 2), 3.5),
            scenario(Pos::new(0, 0), Pos::new(3, 2), 4.6),
            scenario(Pos::new(0, 0), Pos::new(1, 1), 1.0),
        ];
        let r = run_scenarios(&bad, &g);
        assert_eq!((r.scenarios, r.failed), (3, 3));
        assert_eq!(r.failures[0].reason, Mismatch::Longer(44));
        assert_eq!(
            r.failures[0].reason.to_string(),
            "cost 44 is longer than optimal"
        );
        assert!(matches!(r.failures[1].reason, Mismatch::Shorter(_)));
        assert_eq!(
            r.failures[1].reason.to_string(),
            "path length 4.41421 is shorter than optimal"
        );
        assert_eq!(
            r.failures[2].reason.to_string(),
            "search ended invalid_goal"
        );
    }

    #[test]
    fn fit_checks_the_map_name_and_size_and_quotes_the_line() {
        let g = open_grid(&["....", "....", "...."]);
        let source = b"version 1\n0\tmaps/m.map\t4\t3\t0\t0\t1\t1\t1.5\n";
        let s = parse(source, "f").unwrap();
        assert!(check_fit(&s, &g, Some("m.map"), "f", source).is_ok());
        let e = check_fit(&s, &g, Some("other.map"), "f", source).expect_err("wrong name");
        assert_eq!((e.line, e.col), (2, 3));
        let small = open_grid(&["...", "..."]);
        let e = check_fit(&s, &small, None, "f", source).expect_err("wrong size");
        assert_eq!((e.line, e.col), (2, 14));
        assert_eq!(e.text, "0\tmaps/m.map\t4\t3\t0\t0\t1\t1\t1.5");
        assert!(
            e.to_string().contains("2 | 0 maps/m.map 4 3 0 0 1 1 1.5"),
            "the excerpt shows the line: {e}"
        );
    }

    #[test]
    fn exact_costs_are_checked_for_equality() {
        let g = open_grid(&["....", ".#..", "...."]);
        let source =
            b"version 1\n0\tm.map\t4\t3\t0\t0\t3\t2\t4.41421\n\n0\tm.map\t4\t3\t0\t0\t2\t2\t4\n";
        let s = parse(source, "s").unwrap();
        let exact = parse_exact(b"44\n\n40\n", "s.1014", &s).unwrap();
        assert_eq!(exact, [44, 40]);
        let r = run_checked(&s, Some(&exact), &g, with_ties(Ties::LowerH));
        assert_eq!(
            (r.scenarios, r.failed, r.exact),
            (2, 0, 2),
            "{:?}",
            r.failures
        );
        // A cost one unit off the exact one fails.
        let r = run_checked(&s, Some(&[44, 41]), &g, with_ties(Ties::LowerH));
        assert_eq!((r.failed, r.exact), (1, 2));
        assert_eq!(
            r.failures[0].reason.to_string(),
            "cost 40, the exact cost is 41"
        );
        assert_eq!(
            r.failures[0].reason,
            Mismatch::NotExact { cost: 40, want: 41 }
        );
        assert_eq!(r.failures[0].scenario.line, 4);
        // Bounds alone accept both (the stored lengths are right).
        let r = run_checked(&s, None, &g, with_ties(Ties::LowerH));
        assert_eq!((r.failed, r.exact), (0, 0));
        // Another tie rule finds other paths of the same costs.
        let r = run_checked(&s, Some(&exact), &g, with_ties(Ties::Lifo));
        assert_eq!((r.failed, r.exact), (0, 2), "{:?}", r.failures);
    }

    #[test]
    fn exact_cost_files_must_cover_every_scenario_with_whole_numbers() {
        let source =
            b"version 1\n0\tm.map\t4\t3\t0\t0\t3\t2\t4.41421\n0\tm.map\t4\t3\t0\t0\t2\t2\t4\n";
        let s = parse(source, "s").unwrap();
        let e = parse_exact(b"44\n", "s.1014", &s).unwrap_err();
        assert_eq!((e.line, e.col), (2, 1));
        assert!(e.message.contains("line 3"), "{}", e.message);
        let e = parse_exact(b"44\n 4.5\n", "s.1014", &s).unwrap_err();
        assert_eq!((e.line, e.col, e.text.as_str()), (2, 2, " 4.5"));
        let e = parse_exact(b"44\n-4\n", "s.1014", &s).unwrap_err();
        assert_eq!((e.line, e.col), (2, 1));
    }

    #[test]
    fn jobs_do_not_change_the_report() {
        let g = open_grid(&["........", ".##..#..", "....#...", "........"]);
        let scenarios: Vec<Scenario> = (0..23)
            .map(|i| scenario(Pos::new(i % 8, 0), Pos::new(7 - i % 8, 3), 9.0))
            .collect();
        let one = run_scenarios_on(&scenarios, None, &g, 1, SearchOptions::default());
        for jobs in [2, 3, 7, 64] {
            let many = run_scenarios_on(&scenarios, None, &g, jobs, SearchOptions::default());
            assert_eq!(
                (many.scenarios, many.failed, many.expanded, &many.failures),
                (one.scenarios, one.failed, one.expanded, &one.failures),
                "{jobs} jobs"
            );
        }
    }

    #[test]
    fn summary_has_the_exact_format() {
        let r = Report {
            scenarios: 4,
            failed: 1,
            failures: Vec::new(),
            search_time: Duration::from_micros(10),
            expanded: 300,
            exact: 3,
            fallback: None,
        };
        assert_eq!(
            format_summary(&r),
            "4 scenarios, 1 failed, 3 exact, 1 by bounds, mean 2.50 us/query, 30.0 M expansions/s"
        );
        assert_eq!(
            format_summary(&Report::default()),
            "0 scenarios, 0 failed, 0 exact, 0 by bounds, mean 0.00 us/query, 0.0 M expansions/s"
        );
    }

    #[test]
    fn load_refuses_a_directory_and_a_missing_file() {
        let dir = std::env::temp_dir();
        match load(&dir) {
            Err(LoadError::Io { message, .. }) => {
                assert_eq!(message, "is a directory, not a scenario file")
            }
            other => panic!("{other:?}"),
        }
        let missing = dir.join("astar-rogue-no-such-file.scen");
        assert!(matches!(load(&missing), Err(LoadError::Io { .. })));
    }
}
