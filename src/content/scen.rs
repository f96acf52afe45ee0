//! Moving AI scenario files (`.map.scen`): parsing, and checking the engine against them.
//!
//! A scenario file starts with `version 1` (or `version 1.0`); every further line is
//! `bucket map width height start_x start_y goal_x goal_y optimal_length`, separated by tabs
//! (or, in older files such as AR0011SR's, by spaces). Lengths use 1 per straight step and
//! sqrt(2) per diagonal, 8-way without corner cutting.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::content::level::Level;
use crate::engine::astar::{Pathfinder, Query, SearchResult, Status, path_cost};
use crate::engine::grid::{Grid, Neighbourhood, Pos};
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
    pub reason: String,
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
}

impl std::ops::AddAssign<&Report> for Report {
    /// Adds another run's counts and times; keeps failure details up to the limit.
    fn add_assign(&mut self, other: &Report) {
        self.scenarios += other.scenarios;
        self.failed += other.failed;
        self.search_time += other.search_time;
        self.expanded += other.expanded;
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

/// The summary line: `N scenarios, F failed, mean X us/query, Y M expansions/s`.
pub fn format_summary(report: &Report) -> String {
    format!(
        "{} scenarios, {} failed, mean {:.2} us/query, {:.1} M expansions/s",
        report.scenarios,
        report.failed,
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
        ParseError::new(file.to_string(), line, col, msg, text.to_string())
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

/// Checks that every scenario fits `grid` (and, when `map_name` is given, names that map).
pub fn check_fit(
    scenarios: &[Scenario],
    grid: &Grid,
    map_name: Option<&str>,
    file: &str,
) -> Result<(), ParseError> {
    for s in scenarios {
        let at = |msg: String| ParseError::new(file.to_string(), s.line, 1, msg, String::new());
        if let Some(name) = map_name
            && s.map != name
        {
            return Err(at(format!(
                "scenario names map {:?}, but the file's scenarios are for {name:?}",
                s.map
            )));
        }
        if (s.width, s.height) != (grid.width(), grid.height()) {
            return Err(at(format!(
                "scenario expects a {}x{} map, the map is {}x{}",
                s.width,
                s.height,
                grid.width(),
                grid.height()
            )));
        }
    }
    Ok(())
}

/// Loads a scenario file and its map (beside it, or `map_override`) and runs every scenario.
pub fn run_file(scen_path: &Path, map_override: Option<&Path>) -> Result<Report, ScenError> {
    let scenarios = load(scen_path)?;
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
    check_fit(
        &scenarios,
        &level.grid,
        expect_name,
        &scen_path.display().to_string(),
    )
    .map_err(ScenError::Mismatch)?;
    Ok(run_scenarios(&scenarios, &level.grid))
}

/// Runs every scenario with default [`SearchOptions`] through one reused [`Pathfinder`].
pub fn run_scenarios(scenarios: &[Scenario], grid: &Grid) -> Report {
    let mut pf = Pathfinder::new();
    let mut out = SearchResult::default();
    let mut report = Report::default();
    for s in scenarios {
        let began = Instant::now();
        pf.search(grid, Query::new(s.start, s.goal), &mut out, &mut ());
        report.search_time += began.elapsed();
        report.scenarios += 1;
        report.expanded += u64::from(out.expanded);
        let verdict = match (out.status, out.cost) {
            (Status::Found, Some(cost)) => check(s, grid, cost, &out.path),
            (status, _) => Err(format!("search ended {}", status.name())),
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

/// The tolerance rule and the path's legality for one found path.
fn check(s: &Scenario, grid: &Grid, cost: u32, path: &[Pos]) -> Result<(), String> {
    let tol = s.tolerance();
    let cost_len = f64::from(cost) / 10.0;
    if cost_len > s.optimal + tol {
        return Err(format!("cost {cost} is longer than optimal"));
    }
    if path.first() != Some(&s.start) || path.last() != Some(&s.goal) {
        return Err("path does not run from start to goal".into());
    }
    if let Some(p) = path.iter().find(|&&p| !grid.is_passable(p)) {
        return Err(format!("path crosses blocked cell {p}"));
    }
    let (mut straight, mut diagonal) = (0u32, 0u32);
    for w in path.windows(2) {
        let (dx, dy) = (w[1].x - w[0].x, w[1].y - w[0].y);
        if !grid.can_step(w[0], dx, dy, Neighbourhood::Eight) {
            return Err(format!("illegal step {} -> {}", w[0], w[1]));
        }
        if dx != 0 && dy != 0 {
            diagonal += 1;
        } else {
            straight += 1;
        }
    }
    if path_cost(path) != Some(cost) {
        return Err(format!(
            "path costs {:?}, the search reported {cost}",
            path_cost(path)
        ));
    }
    let length = f64::from(straight) + f64::from(diagonal) * std::f64::consts::SQRT_2;
    if length < s.optimal - tol {
        return Err(format!("path length {length:.5} is shorter than optimal"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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

    fn open_grid(rows: &[&str]) -> Grid {
        Grid::from_rows(rows)
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
        assert!(r.failures[0].reason.contains("longer than optimal"));
        assert!(r.failures[1].reason.contains("shorter than optimal"));
        assert!(r.failures[2].reason.contains("invalid_goal"));
    }

    #[test]
    fn fit_checks_the_map_name_and_size() {
        let g = open_grid(&["....", "....", "...."]);
        let s = [scenario(Pos::new(0, 0), Pos::new(1, 1), 1.5)];
        assert!(check_fit(&s, &g, Some("m.map"), "f").is_ok());
        let e = check_fit(&s, &g, Some("other.map"), "f").expect_err("wrong name");
        assert_eq!((e.line, e.col), (2, 1));
        let small = open_grid(&["...", "..."]);
        assert!(check_fit(&s, &small, None, "f").is_err());
    }

    #[test]
    fn summary_has_the_exact_format() {
        let r = Report {
            scenarios: 4,
            failed: 1,
            failures: Vec::new(),
            search_time: Duration::from_micros(10),
            expanded: 300,
        };
        assert_eq!(
            format_summary(&r),
            "4 scenarios, 1 failed, mean 2.50 us/query, 30.0 M expansions/s"
        );
        assert_eq!(
            format_summary(&Report::default()),
            "0 scenarios, 0 failed, mean 0.00 us/query, 0.0 M expansions/s"
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
