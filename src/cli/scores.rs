//! `astar-rogue scores [--level NAME] [--limit N]`: the best runs, best first.

use std::io::Write;

use clap::Args;

use super::error::CliError;
use crate::session::data;
use crate::session::scores::{self, SCORES_FILE};

/// Arguments of `scores`.
#[derive(Debug, Args)]
pub struct ScoresArgs {
    /// Only the runs on levels of this file name (`crypt.txt`).
    #[arg(long)]
    pub level: Option<String>,
    /// How many runs to print (0: all).
    #[arg(long, default_value_t = 20)]
    pub limit: usize,
}

/// Prints the score table from the data folder.
pub(super) fn scores(args: &ScoresArgs) -> Result<i32, CliError> {
    let dir = data::data_dir()?;
    // Its errors name the file.
    let table = scores::load(&dir).map_err(|e| CliError::BadInput(e.to_string()))?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for line in &table.unreadable {
        super::error::report(&format!(
            "{}:{line}: warning: this line does not read as a run; it is kept as it is",
            crate::text::shown_path(&dir.join(SCORES_FILE))
        ));
    }
    let shown: Vec<(usize, &scores::Score)> = table
        .scores
        .iter()
        .enumerate()
        .filter(|(_, s)| args.level.as_ref().is_none_or(|l| &s.level == l))
        .take(if args.limit == 0 {
            usize::MAX
        } else {
            args.limit
        })
        .collect();
    if shown.is_empty() {
        writeln!(
            out,
            "No runs have ended yet{}: scores are kept in {}.",
            args.level.as_ref().map_or(String::new(), |l| format!(
                " on {}",
                crate::text::escape_controls(l)
            )),
            crate::text::shown_path(&dir.join(SCORES_FILE))
        )?;
        out.flush()?;
        return Ok(0);
    }
    print_table(&mut out, &shown)?;
    let total = table.scores.len();
    if shown.len() < total {
        writeln!(out, "{} of {total} runs; --limit 0 shows all.", shown.len())?;
    }
    out.flush()?;
    Ok(0)
}

/// The table's heading.
const HEAD: [&str; 8] = [
    "#",
    "outcome",
    "depth",
    "turns",
    "kills",
    "seed",
    "level",
    "ended (UTC)",
];

/// The runs shown, each with its place in the whole table, in columns under [`HEAD`].
fn print_table(out: &mut impl Write, shown: &[(usize, &scores::Score)]) -> Result<(), CliError> {
    // Every field is text from a file: each is escaped, whatever it is meant to hold.
    let rows: Vec<[String; 8]> = shown
        .iter()
        .map(|(i, s)| {
            [
                format!("{}", i + 1),
                s.how(),
                format!("{}/{}", s.depth, s.final_depth),
                s.turns.to_string(),
                s.kills.to_string(),
                s.seed.to_string(),
                s.level.clone(),
                data::date(s.date),
            ]
            .map(|cell| crate::text::escape_controls(&cell).into_owned())
        })
        .collect();
    let mut widths = HEAD.map(|h| h.chars().count());
    for r in &rows {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    writeln!(out, "{}", table_line(&HEAD, widths))?;
    for r in &rows {
        let cells: Vec<&str> = r.iter().map(String::as_str).collect();
        writeln!(out, "{}", table_line(&cells, widths))?;
    }
    Ok(())
}

/// One row of the table, each cell padded to its column's width: numbers to the right,
/// words to the left, the last with no padding after it.
fn table_line(cells: &[&str], widths: [usize; 8]) -> String {
    let mut text = String::new();
    for (i, (c, w)) in cells.iter().zip(widths).enumerate() {
        let right = matches!(i, 0 | 3 | 4 | 5);
        let pad = w.saturating_sub(c.chars().count());
        if i > 0 {
            text.push_str("  ");
        }
        if right {
            text.push_str(&" ".repeat(pad));
            text.push_str(c);
        } else {
            text.push_str(c);
            if i + 1 < cells.len() {
                text.push_str(&" ".repeat(pad));
            }
        }
    }
    text
}
