//! `astar-rogue path LEVEL [--from X,Y] [--to X,Y] [--json] [--trace] [options]`: one search,
//! printed as a map with the path, or as JSON with every node the search touched (for
//! `--algorithm jps`, the jump points).

use std::io::Write;

use clap::Args;
use serde::Serialize;

use super::error::CliError;
use super::query::{QueryArgs, check_endpoints};
use crate::content::level::Level;
use crate::engine::astar::{Pathfinder, Query, SearchResult, TraceEvent, Tracer};
use crate::engine::grid::Pos;

/// Arguments of `path`.
#[derive(Debug, Args)]
pub struct PathArgs {
    /// The level and the search.
    #[command(flatten)]
    pub query: QueryArgs,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// With --json, add every node the search touched.
    #[arg(long)]
    pub trace: bool,
}

/// One node of `--trace`, written as it is reached so the output never sits in memory.
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

/// Runs one search and prints it.
pub(super) fn path(args: &PathArgs) -> Result<i32, CliError> {
    let q = &args.query;
    let (mut level, _) = Level::load(&q.level)?;
    let (from, to) = q.endpoints(&level)?;
    check_endpoints(&level, from, to)?;
    let kind = q.kind_on(&level)?;
    let grid = q.grid(&mut level, kind.as_ref()).clone();
    QueryArgs::check_kind_endpoints(kind.as_ref(), &grid, from, to)?;
    let mut pf = Pathfinder::new();
    let mut result = SearchResult::default();
    let query = Query::new(from, to).options(q.options(kind.as_ref()));
    // Traced only when the nodes are printed, into a table of the nodes rather than a list
    // of the events, which on a 4096x4096 Dijkstra search took gigabytes.
    let mut nodes = (args.json && args.trace).then(|| NodeTable::new(&level.grid));
    match &mut nodes {
        Some(nodes) => pf.search(&grid, query, &mut result, nodes),
        None => pf.search(&grid, query, &mut result, &mut ()),
    }
    if let Some(why) = result.fallback {
        // On standard error, so that JSON on standard output stays one object.
        super::error::report(&crate::view::describe::fallback(why));
    }
    // A search that may overestimate is set beside the optimal cost, as the lab sets it.
    let optimal = crate::app::lab::optimal(&grid, &q.options(kind.as_ref()), &result);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if args.json {
        // The surrounding object is written by hand and each node by serde, one at a time:
        // a trace of a large level is gigabytes of JSON, which must stream, not be built.
        write!(out, "{{\"status\":")?;
        json(
            &mut out,
            &crate::content::searches::status_name(result.status),
        )?;
        write!(out, ",\"cost\":")?;
        json(&mut out, &result.cost)?;
        write!(out, ",\"expanded\":{},\"path\":[", result.expanded)?;
        for (i, p) in result.path.iter().enumerate() {
            let comma = if i == 0 { "" } else { "," };
            write!(out, "{comma}[{},{}]", p.x, p.y)?;
        }
        out.write_all(b"]")?;
        if let Some(o) = optimal {
            write!(out, ",\"optimal\":{},\"leaves\":", o.cost)?;
            match o.leaves {
                Some(p) => write!(out, "[{},{}]", p.x, p.y)?,
                None => out.write_all(b"null")?,
            }
        }
        if let Some(nodes) = &nodes {
            out.write_all(b",\"nodes\":[")?;
            for (i, n) in nodes.nodes.iter().enumerate() {
                if i > 0 {
                    out.write_all(b",")?;
                }
                let (x, y) = nodes.pos(n.cell);
                let node = NodeJson {
                    x,
                    y,
                    g: n.g,
                    h: n.h,
                    f: n.f,
                    parent: (n.parent != NONE).then(|| {
                        let (px, py) = nodes.pos(n.parent);
                        [px, py]
                    }),
                    state: if n.order == 0 { "open" } else { "closed" },
                    order: (n.order != 0).then_some(n.order),
                };
                json(&mut out, &node)?;
            }
            out.write_all(b"]")?;
        }
        out.write_all(b"}\n")?;
    } else {
        let leaves = optimal.and_then(|o| o.leaves);
        out.write_all(draw_path(&level, &result.path, from, to, leaves).as_bytes())?;
        // The same line the lab's panel shows for the same query.
        writeln!(out, "{}", crate::view::summary(&result, from, to))?;
        if let (Some(o), Some(cost)) = (optimal, result.cost) {
            writeln!(out, "{}", overestimate_line(o, cost))?;
        }
    }
    out.flush()?;
    Ok(0)
}

/// No parent.
const NONE: u32 = u32::MAX;

/// What `--trace` prints of one node: its last G, H, F and parent, and which expansion
/// closed it (0: still open).
#[derive(Debug, Clone, Copy)]
struct NodeRecord {
    cell: u32,
    g: u32,
    h: u32,
    f: u32,
    parent: u32,
    order: u32,
}

/// The touched nodes of one search, in the order first touched, kept as the search goes:
/// one index per cell of the map and one record per touched node, so memory follows the
/// map, never the number of events. It reads the events exactly as the engine's own replay
/// (`Trace::snapshot`) does: an open sets the node's figures and makes it open again, a
/// close marks it closed by the next expansion number.
struct NodeTable {
    width: usize,
    /// Per cell: 1 + its record's index in `nodes`, or 0 when untouched.
    index: Vec<u32>,
    nodes: Vec<NodeRecord>,
    closes: u32,
}

impl NodeTable {
    fn new(grid: &crate::content::map::TileMap) -> Self {
        Self {
            width: grid.width(),
            // Zeroed pages are only mapped when touched: a plain search pays nothing.
            index: vec![0; grid.len()],
            nodes: Vec::new(),
            closes: 0,
        }
    }

    fn cell(&self, p: Pos) -> usize {
        p.y as usize * self.width + p.x as usize
    }

    fn pos(&self, cell: u32) -> (i32, i32) {
        let cell = cell as usize;
        ((cell % self.width) as i32, (cell / self.width) as i32)
    }
}

impl Tracer for NodeTable {
    const ENABLED: bool = true;

    fn event(&mut self, event: TraceEvent) {
        match event {
            TraceEvent::Open {
                cell,
                g,
                h,
                f,
                parent,
            } => self.open(cell, g, h, f, parent),
            TraceEvent::Close { cell } => self.close(cell),
        }
    }
}

impl NodeTable {
    fn open(&mut self, cell: Pos, g: u32, h: u32, f: u32, parent: Option<Pos>) {
        let at = self.cell(cell);
        let record = NodeRecord {
            cell: at as u32,
            g,
            h,
            f,
            parent: parent.map_or(NONE, |p| self.cell(p) as u32),
            order: 0,
        };
        match self.index[at] {
            0 => {
                self.nodes.push(record);
                self.index[at] = self.nodes.len() as u32;
            }
            i => self.nodes[i as usize - 1] = record,
        }
    }

    fn close(&mut self, cell: Pos) {
        self.closes += 1;
        let at = self.cell(cell);
        if let Some(i) = self.index[at].checked_sub(1) {
            self.nodes[i as usize].order = self.closes;
        }
    }
}

/// Writes one value as JSON; a failed write stays the `io::Error` it was (a closed pipe).
fn json<T: Serialize + ?Sized>(out: &mut impl Write, value: &T) -> std::io::Result<()> {
    serde_json::to_writer(out, value).map_err(std::io::Error::from)
}

/// What `path` says of a search that may overestimate: `optimal cost 68: this path costs 4
/// more, and leaves an optimal one at 3,2 (!)`, or that it found an optimal path anyway.
pub fn overestimate_line(o: crate::app::lab::Optimal, cost: u32) -> String {
    match o.leaves {
        Some(at) => format!(
            "optimal cost {}: this path costs {} more, and leaves an optimal one at {at} (!)",
            o.cost,
            cost.saturating_sub(o.cost)
        ),
        None => format!(
            "optimal cost {}: the same, though this search may overestimate",
            o.cost
        ),
    }
}

/// The map as text with the path drawn as `*`, the start as `S` and the goal as `G`, and
/// `!` where the path leaves an optimal one (`leaves`); large maps are cropped to the path's
/// surroundings.
pub fn draw_path(level: &Level, path: &[Pos], from: Pos, to: Pos, leaves: Option<Pos>) -> String {
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
            } else if Some(p) == leaves {
                '!'
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
