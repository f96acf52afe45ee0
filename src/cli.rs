//! The command line: `play`, `path`, `scen`, `check`, `generate` and `script`.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, Parser, Subcommand, ValueEnum};
use serde::Serialize;

use crate::app::{App, Source};
use crate::content::generate::{self, GenKind, GenParams};
use crate::content::level::{Format, Level, LoadError};
use crate::engine::astar::{Heuristic, Invalid, Pathfinder, Query, SearchOptions, Status, Weight};
use crate::engine::grid::{Neighbourhood, Pos};
use crate::frontend::script::{self, Frames, Output};

/// The default level, built in so the binary plays anywhere.
pub const DEFAULT_LEVEL: &str = include_str!("../levels/default.txt");
/// Where the default level lives in the repository (used when it exists, so saves land there).
pub const DEFAULT_LEVEL_PATH: &str = "levels/default.txt";
/// Exit code for bad input.
pub const EXIT_BAD_INPUT: i32 = 2;

/// A terminal roguelike sandbox whose monsters hunt with grid A*.
#[derive(Debug, Parser)]
#[command(name = "astar-rogue", version, args_conflicts_with_subcommands = true)]
pub struct Cli {
    /// What to do (plays the default level when omitted).
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Options for playing without a subcommand.
    #[command(flatten)]
    pub play: PlayArgs,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play a level in the terminal.
    Play(PlayArgs),
    /// Find a path on a level and print it.
    Path(PathArgs),
    /// Run every scenario of Moving AI scenario files.
    Scen(ScenArgs),
    /// Check level files and print a summary of each.
    Check(CheckArgs),
    /// Generate a level.
    Generate(GenerateArgs),
    /// Run a script of inputs headless and print the frames.
    Script(ScriptArgs),
}

/// Arguments of `play`.
#[derive(Debug, Args, Default)]
pub struct PlayArgs {
    /// A level file (text or Moving AI `.map`); the default level when omitted.
    pub level: Option<PathBuf>,
    /// Seed for combat rolls and for placing creatures on maps that have none.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Neighbourhood names on the command line.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum NeighbourArg {
    /// 8-way without corner cutting.
    #[value(name = "8")]
    Eight,
    /// 8-way with corner cutting.
    #[value(name = "8cut")]
    EightCut,
    /// 4-way.
    #[value(name = "4")]
    Four,
}

/// Heuristic names on the command line.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum HeuristicArg {
    /// Octile distance.
    Octile,
    /// Manhattan distance.
    Manhattan,
    /// Chebyshev distance.
    Chebyshev,
    /// Euclidean distance, as an integer.
    Euclidean,
    /// Zero (Dijkstra).
    Zero,
}

/// Arguments of `path`.
#[derive(Debug, Args)]
pub struct PathArgs {
    /// The level file.
    pub level: PathBuf,
    /// Start cell `X,Y` (default: the first monster in reading order).
    #[arg(long, value_parser = parse_pos)]
    pub from: Option<Pos>,
    /// Goal cell `X,Y` (default: the player).
    #[arg(long, value_parser = parse_pos)]
    pub to: Option<Pos>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// With --json, add every node the search touched.
    #[arg(long)]
    pub trace: bool,
    /// Movement rule.
    #[arg(long, value_enum, default_value = "8")]
    pub neighbours: NeighbourArg,
    /// Heuristic.
    #[arg(long, value_enum, default_value = "octile")]
    pub heuristic: HeuristicArg,
    /// Weight on H (weighted A*), e.g. 1.5.
    #[arg(long, value_parser = parse_weight, default_value = "1")]
    pub weight: Weight,
    /// Stop after this many expansions.
    #[arg(long)]
    pub cap: Option<u32>,
}

/// Arguments of `scen`.
#[derive(Debug, Args)]
pub struct ScenArgs {
    /// Scenario files (`.map.scen`).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// The map, when it is not next to the scenario file.
    #[arg(long)]
    pub map: Option<PathBuf>,
}

/// Arguments of `check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Level files.
    #[arg(required = true)]
    pub levels: Vec<PathBuf>,
}

/// Arguments of `generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// `caves`, `cells`, `rooms`, `maze`, `scatter` or `arena`.
    #[arg(long)]
    pub kind: String,
    /// Size `WxH`, from 10x5 to 1024x1024.
    #[arg(long)]
    pub size: String,
    /// Seed.
    #[arg(long)]
    pub seed: u64,
    /// Number of monsters (default: about one per 400 cells).
    #[arg(long)]
    pub monsters: Option<usize>,
    /// Share of the interior that starts as wall, as a fraction (0.3) or a percentage
    /// (30%); caves, cells, scatter and arena take one (default: the kind's own).
    #[arg(long)]
    pub density: Option<String>,
    /// Output file (standard output when omitted).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

/// Frame selection on the command line.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum FramesArg {
    /// Only the final frame.
    Last,
    /// Every snap and the final frame.
    Snaps,
    /// A frame after every token.
    All,
}

/// Arguments of `script`.
#[derive(Debug, Args)]
pub struct ScriptArgs {
    /// The script file.
    pub script: PathBuf,
    /// The level (overrides the script's header).
    #[arg(long)]
    pub level: Option<PathBuf>,
    /// Terminal size `WxH` (default 80x24).
    #[arg(long)]
    pub size: Option<String>,
    /// Seed (default 1).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Which frames to print.
    #[arg(long, value_enum, default_value = "last")]
    pub frames: FramesArg,
    /// Print a JSON state line after every turn.
    #[arg(long)]
    pub state: bool,
}

fn parse_pos(s: &str) -> Result<Pos, String> {
    let (x, y) = s
        .split_once(',')
        .ok_or_else(|| format!("{s:?} is not X,Y"))?;
    let n = |v: &str| {
        v.trim()
            .parse::<i32>()
            .map_err(|_| format!("{s:?} is not X,Y"))
    };
    Ok(Pos::new(n(x)?, n(y)?))
}

fn parse_weight(s: &str) -> Result<Weight, String> {
    Weight::parse(s)
        .ok_or_else(|| format!("{s:?} is not a weight from 0 to 100 with at most 3 decimals"))
}

/// A failure to report: the message for standard error and the exit code.
#[derive(Debug)]
pub struct Failure {
    /// What to print.
    pub message: String,
    /// The exit code.
    pub code: i32,
}

impl Failure {
    fn bad_input(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            code: EXIT_BAD_INPUT,
        }
    }
}

impl From<LoadError> for Failure {
    fn from(e: LoadError) -> Self {
        Failure::bad_input(e.to_string())
    }
}

/// Runs the command line; returns the process exit code.
pub fn run(cli: Cli) -> i32 {
    let result = match cli.command {
        None => play(cli.play),
        Some(Command::Play(args)) => play(args),
        Some(Command::Path(args)) => path(&args),
        Some(Command::Scen(args)) => scen(&args),
        Some(Command::Check(args)) => check(&args),
        Some(Command::Generate(args)) => generate(&args),
        Some(Command::Script(args)) => run_script(&args),
    };
    match result {
        Ok(code) => code,
        Err(f) => {
            let _ = writeln!(std::io::stderr(), "{}", f.message);
            f.code
        }
    }
}

/// Loads a level for playing: the default level when `path` is `None`; maps without a player
/// or monsters get them placed from the seed.
pub fn load_for_play(path: Option<&Path>, seed: u64) -> Result<(Level, Source), Failure> {
    let (mut level, source) = match path {
        Some(p) => {
            let (level, format, bytes) = Level::load_keeping_bytes(p)?;
            (level, Source::file(p.to_path_buf(), format, bytes))
        }
        None if Path::new(DEFAULT_LEVEL_PATH).is_file() => {
            let p = Path::new(DEFAULT_LEVEL_PATH);
            let (level, format, bytes) = Level::load_keeping_bytes(p)?;
            (level, Source::file(p.to_path_buf(), format, bytes))
        }
        None => {
            let level = Level::parse(DEFAULT_LEVEL.as_bytes(), DEFAULT_LEVEL_PATH)
                .map_err(|e| Failure::bad_input(e.to_string()))?;
            (level, Source::generated(PathBuf::from("default.txt")))
        }
    };
    crate::app::populate_if_empty(&mut level, &source, seed).map_err(Failure::bad_input)?;
    Ok((level, source))
}

fn play(args: PlayArgs) -> Result<i32, Failure> {
    let (level, source) = load_for_play(args.level.as_deref(), args.seed)?;
    let mut app = App::new(level, source, args.seed, (80, 24));
    crate::frontend::term::play(&mut app).map_err(|e| Failure {
        message: format!("terminal error: {e}"),
        code: 1,
    })?;
    Ok(0)
}

#[derive(Serialize)]
struct PathJson {
    status: &'static str,
    cost: Option<u32>,
    expanded: u32,
    path: Vec<[i32; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    nodes: Option<Vec<NodeJson>>,
}

#[derive(Serialize)]
struct NodeJson {
    x: i32,
    y: i32,
    g: u32,
    h: u32,
    f: u32,
    parent: Option<[i32; 2]>,
    state: &'static str,
    order: Option<u32>,
}

/// The search options `path` arguments ask for.
pub fn path_options(args: &PathArgs) -> SearchOptions {
    SearchOptions {
        neighbourhood: match args.neighbours {
            NeighbourArg::Eight => Neighbourhood::Eight,
            NeighbourArg::EightCut => Neighbourhood::EightCutCorners,
            NeighbourArg::Four => Neighbourhood::Four,
        },
        heuristic: match args.heuristic {
            HeuristicArg::Octile => Heuristic::Octile,
            HeuristicArg::Manhattan => Heuristic::Manhattan,
            HeuristicArg::Chebyshev => Heuristic::Chebyshev,
            HeuristicArg::Euclidean => Heuristic::Euclidean,
            HeuristicArg::Zero => Heuristic::Zero,
        },
        weight: args.weight,
        cap: args.cap,
    }
}

fn path(args: &PathArgs) -> Result<i32, Failure> {
    let (level, _) = Level::load(&args.level)?;
    let from = match args.from {
        Some(p) => p,
        None => level.monsters.first().map(|m| m.pos).ok_or_else(|| {
            Failure::bad_input(format!(
                "{}: no monster to start from; give --from X,Y",
                args.level.display()
            ))
        })?,
    };
    let to = match args.to {
        Some(p) => p,
        None => level.player.ok_or_else(|| {
            Failure::bad_input(format!(
                "{}: no player to go to; give --to X,Y",
                args.level.display()
            ))
        })?,
    };
    let options = path_options(args);
    let mut pf = Pathfinder::new();
    let (result, trace) = pf.find_traced(&level.grid, Query::new(from, to).options(options));
    let (w, h) = (level.grid.width(), level.grid.height());
    let why = |what: &str, p: Pos, i: Invalid| {
        let reason = match i {
            Invalid::OutOfBounds => format!("outside the {w}x{h} map"),
            Invalid::Blocked => "not a floor cell".to_string(),
        };
        Failure::bad_input(format!("invalid {what} {p}: {reason}"))
    };
    match result.status {
        Status::InvalidStart(i) => return Err(why("start", from, i)),
        Status::InvalidGoal(i) => return Err(why("goal", to, i)),
        _ => {}
    }
    let mut out = String::new();
    if args.json {
        let nodes = args.trace.then(|| {
            trace
                .snapshot(u32::MAX)
                .nodes
                .iter()
                .map(|n| NodeJson {
                    x: n.pos.x,
                    y: n.pos.y,
                    g: n.g,
                    h: n.h,
                    f: n.f,
                    parent: n.parent.map(|p| [p.x, p.y]),
                    state: n.state.name(),
                    order: n.order,
                })
                .collect()
        });
        let json = PathJson {
            status: result.status.name(),
            cost: result.cost,
            expanded: result.expanded,
            path: result.path.iter().map(|p| [p.x, p.y]).collect(),
            nodes,
        };
        out.push_str(&serde_json::to_string(&json).map_err(|e| Failure::bad_input(e.to_string()))?);
        out.push('\n');
    } else {
        out.push_str(&draw_path(&level, &result.path, from, to));
        let cost = result.cost.map_or("-".to_string(), |c| c.to_string());
        out.push_str(&format!(
            "{} from {from} to {to}: cost {cost}, expanded {}, path {} cells\n",
            result.status.name(),
            result.expanded,
            result.path.len()
        ));
    }
    print!("{out}");
    Ok(0)
}

/// The map as text with the path drawn as `*`, the start as `S` and the goal as `G`; large
/// maps are cropped to the path's surroundings.
pub fn draw_path(level: &Level, path: &[Pos], from: Pos, to: Pos) -> String {
    let (w, h) = (level.grid.width() as i32, level.grid.height() as i32);
    let (mut x0, mut y0, mut x1, mut y1) = (0, 0, w - 1, h - 1);
    if w > 200 || h > 100 {
        let pts = path.iter().chain([&from, &to]);
        x0 = pts
            .clone()
            .map(|p| p.x)
            .min()
            .unwrap_or(0)
            .saturating_sub(3)
            .max(0);
        y0 = pts
            .clone()
            .map(|p| p.y)
            .min()
            .unwrap_or(0)
            .saturating_sub(3)
            .max(0);
        x1 = (pts.clone().map(|p| p.x).max().unwrap_or(0) + 3).min(w - 1);
        y1 = (pts.map(|p| p.y).max().unwrap_or(0) + 3).min(h - 1);
    }
    let on_path: std::collections::HashSet<Pos> = path.iter().copied().collect();
    let mut out = String::new();
    if (x0, y0, x1, y1) != (0, 0, w - 1, h - 1) {
        out.push_str(&format!(
            "(showing x {x0}..{x1}, y {y0}..{y1} of a {w}x{h} map)\n"
        ));
    }
    for y in y0..=y1 {
        let mut row = String::new();
        for x in x0..=x1 {
            let p = Pos::new(x, y);
            row.push(if p == from {
                'S'
            } else if p == to {
                'G'
            } else if on_path.contains(&p) {
                '*'
            } else {
                // The bare map: creatures are not drawn.
                crate::content::level::tile_glyph(level.grid.get(p))
            });
        }
        out.push_str(row.trim_end());
        out.push('\n');
    }
    out
}

fn scen(args: &ScenArgs) -> Result<i32, Failure> {
    run_scen_command(&args.files, args.map.as_deref())
}

fn check(args: &CheckArgs) -> Result<i32, Failure> {
    let mut failed = false;
    for p in &args.levels {
        match Level::load(p) {
            Ok((l, format)) => {
                let kind = match format {
                    Format::Text => "level",
                    Format::MovingAi => "Moving AI map",
                };
                let floor = l.grid.tiles().iter().filter(|t| t.is_passable()).count();
                let player = l
                    .player
                    .map_or("no player".to_string(), |p| format!("player at {p}"));
                let n = l.monsters.len();
                println!(
                    "{}: ok, {kind} {}x{}, {floor} floor cells, {player}, {n} monster{}{}",
                    p.display(),
                    l.grid.width(),
                    l.grid.height(),
                    if n == 1 { "" } else { "s" },
                    l.title.map(|t| format!(", \"{t}\"")).unwrap_or_default()
                );
            }
            Err(e) => {
                failed = true;
                eprintln!("{e}");
            }
        }
    }
    Ok(if failed { EXIT_BAD_INPUT } else { 0 })
}

fn generate(args: &GenerateArgs) -> Result<i32, Failure> {
    let monsters = args.monsters.unwrap_or_else(|| {
        crate::text::parse_size(&args.size).map_or(1, |(w, h)| generate::default_monsters(w, h))
    });
    let text = generate_command(
        &args.kind,
        &args.size,
        args.seed,
        monsters,
        args.density.as_deref(),
    )
    .map_err(Failure::bad_input)?;
    match &args.output {
        Some(path) => {
            crate::app::write_atomic(path, text.as_bytes())
                .map_err(|e| Failure::bad_input(format!("{}: {e}", path.display())))?;
        }
        None => print!("{text}"),
    }
    Ok(0)
}

fn run_script(args: &ScriptArgs) -> Result<i32, Failure> {
    let text = script_output(args)?;
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes());
    Ok(0)
}

/// Runs a script as `astar-rogue script` does and returns what it prints.
pub fn script_output(args: &ScriptArgs) -> Result<String, Failure> {
    let file = args.script.display().to_string();
    let bytes = read_script(&args.script)?;
    let parsed = script::parse(&bytes, &file).map_err(|e| Failure::bad_input(e.to_string()))?;
    let size = match &args.size {
        Some(s) => crate::frontend::script::terminal_size(s)
            .map_err(|e| Failure::bad_input(format!("--size: {e}")))?,
        None => parsed.header.size.unwrap_or((80, 24)),
    };
    let seed = args.seed.or(parsed.header.seed).unwrap_or(1);
    let level_path = args.level.clone().or(parsed.header.level.clone());
    let (level, source) = load_for_play(level_path.as_deref(), seed)?;
    let mut app = App::new(level, source, seed, size);
    let output = Output {
        frames: match args.frames {
            FramesArg::Last => Frames::Last,
            FramesArg::Snaps => Frames::Snaps,
            FramesArg::All => Frames::All,
        },
        state: args.state,
    };
    Ok(script::run(&parsed, &mut app, size, output))
}

fn read_script(path: &Path) -> Result<Vec<u8>, Failure> {
    crate::text::read_limited(path, script::MAX_SCRIPT_BYTES, "script").map_err(|e| match e {
        LoadError::Parse(p) => Failure::bad_input(p.headline()),
        e => Failure::bad_input(e.to_string()),
    })
}

/// Runs scenario files: a line per file (with the first failures), then the total as the
/// last line. Exit 1 when any scenario failed.
fn run_scen_command(files: &[PathBuf], map: Option<&Path>) -> Result<i32, Failure> {
    let mut total = crate::content::scen::Report::default();
    for file in files {
        let report = crate::content::scen::run_file(file, map)
            .map_err(|e| Failure::bad_input(e.to_string()))?;
        println!(
            "{}: {}",
            file.display(),
            crate::content::scen::format_summary(&report)
        );
        for f in &report.failures {
            println!("  FAILED {f}");
        }
        total.scenarios += report.scenarios;
        total.failed += report.failed;
        total.search_time += report.search_time;
        total.expanded += report.expanded;
    }
    println!("{}", crate::content::scen::format_summary(&total));
    Ok(if total.failed > 0 { 1 } else { 0 })
}

/// The text of a generated level, or a message saying why it cannot be made.
pub fn generate_command(
    kind: &str,
    size: &str,
    seed: u64,
    monsters: usize,
    density: Option<&str>,
) -> Result<String, String> {
    let kind: GenKind = kind.parse()?;
    let (width, height) = crate::text::parse_size(size)
        .ok_or_else(|| format!("bad size {size:?}: expected WxH, e.g. 80x40"))?;
    let density = density
        .map(|d| d.parse().map_err(|e| format!("--density: {e}")))
        .transpose()?;
    let params = GenParams {
        kind,
        width,
        height,
        seed,
        monsters,
        density,
    };
    Ok(generate::generate(&params)
        .map_err(|e| e.to_string())?
        .to_text())
}
