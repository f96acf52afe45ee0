//! `astar-rogue path LEVEL [--from X,Y] [--to X,Y] [--json] [--trace] [options]`: one search,
//! printed as a map with the path, or as JSON with every node the search touched (for
//! `--algorithm jps`, the jump points).

use std::io::Write;

use clap::Args;
use serde::Serialize;

use super::CliError;
use super::query::{QueryArgs, check_endpoints};
use crate::content::level::Level;
use crate::engine::astar::{Pathfinder, Query};
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
    let (level, _) = Level::load(&q.level)?;
    let (from, to) = q.endpoints(&level)?;
    let mut pf = Pathfinder::new();
    let (result, trace) = pf.find_traced(&level.grid, Query::new(from, to).options(q.options()));
    check_endpoints(&level, from, to, result.status)?;
    if let Some(why) = result.fallback {
        // On standard error, so that JSON on standard output stays one object.
        super::report(&crate::view::describe::fallback(why));
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if args.json {
        // The surrounding object is written by hand and each node by serde, one at a time:
        // a trace of a large level is gigabytes of JSON, which must stream, not be built.
        write!(out, "{{\"status\":")?;
        json(&mut out, &result.status.name())?;
        write!(out, ",\"cost\":")?;
        json(&mut out, &result.cost)?;
        write!(out, ",\"expanded\":{},\"path\":[", result.expanded)?;
        for (i, p) in result.path.iter().enumerate() {
            let comma = if i == 0 { "" } else { "," };
            write!(out, "{comma}[{},{}]", p.x, p.y)?;
        }
        out.write_all(b"]")?;
        if args.trace {
            out.write_all(b",\"nodes\":[")?;
            for (i, n) in trace.snapshot(u32::MAX).nodes.iter().enumerate() {
                if i > 0 {
                    out.write_all(b",")?;
                }
                let node = NodeJson {
                    x: n.pos.x,
                    y: n.pos.y,
                    g: n.g,
                    h: n.h,
                    f: n.f,
                    parent: n.parent.map(|p| [p.x, p.y]),
                    state: n.state.name(),
                    order: n.order,
                };
                json(&mut out, &node)?;
            }
            out.write_all(b"]")?;
        }
        out.write_all(b"}\n")?;
    } else {
        out.write_all(draw_path(&level, &result.path, from, to).as_bytes())?;
        // The same line the lab's panel shows for the same query.
        writeln!(out, "{}", crate::view::summary(&result, from, to))?;
    }
    out.flush()?;
    Ok(0)
}

/// Writes one value as JSON; a failed write stays the `io::Error` it was (a closed pipe).
fn json<T: Serialize + ?Sized>(out: &mut impl Write, value: &T) -> std::io::Result<()> {
    serde_json::to_writer(out, value).map_err(std::io::Error::from)
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
