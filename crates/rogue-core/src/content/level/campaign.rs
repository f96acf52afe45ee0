//! Campaigns: designed floors one below the other. A level's `next: FILE` header names the
//! floor its stairs lead to (the file relative to the level's own), which may name its own
//! `next:`; the chain ends at a level without `next:` (whose stairs, if it has any, lead to
//! generated floors) or without stairs (whose clearing wins the run).
//!
//! A chain is wrong when a `next:` file cannot be read, when it comes back to a floor
//! already in it, or when a level without stairs names a `next:` (nobody could ever get
//! there): each is an error at the `next:` header, `FILE:LINE:COL`. `check` follows the whole
//! chain; the game follows it one floor at a time and says the same errors.

use std::path::{Path, PathBuf};

use super::design::Design;
use super::{FeatureKind, Format, LoadError, ParseError};

/// The file a `next:` header names, for a level read from `level`.
pub fn next_path(level: &Path, next: &str) -> PathBuf {
    level.parent().unwrap_or(Path::new("")).join(next)
}

/// Whether two paths name the same file (as the system resolves them, when it can).
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// An error at the `next:` header of `design` (read from `path`): at its file name, or at
/// the header's start when `at_start`.
fn at_header(path: &Path, design: &Design, message: String, at_start: bool) -> ParseError {
    let file = path.display().to_string();
    let (line, col) = design.next_source().unwrap_or((1, 1));
    let col = if at_start { 1 } else { col };
    let text = design.line_text(line).unwrap_or("");
    ParseError::new(file, line, col, message, text)
}

/// The floor below `design` (read from `path`), checked before it is read: `Ok(None)`
/// without a `next:` header. A level without stairs, or a `next:` that leads back to
/// `path` or to one of the floors `above` it, is an error at the header.
pub fn next_of(
    path: &Path,
    design: &Design,
    above: &[PathBuf],
) -> Result<Option<PathBuf>, ParseError> {
    let Some(below) = named_below(path, design)? else {
        return Ok(None);
    };
    let chain = above.iter().map(PathBuf::as_path).chain([path]);
    if let Some((i, p)) = chain.enumerate().find(|(_, p)| same_file(p, &below)) {
        return Err(comes_back(path, design, p, i));
    }
    Ok(Some(below))
}

/// The file `design`'s `next:` names (read from `path`), if it names one; an error at the
/// header when the level has no stairs to get there.
fn named_below(path: &Path, design: &Design) -> Result<Option<PathBuf>, ParseError> {
    let Some(next) = design.next() else {
        return Ok(None);
    };
    let stairs = design
        .level()
        .features
        .iter()
        .any(|f| f.kind == FeatureKind::Stairs);
    if !stairs {
        return Err(at_header(
            path,
            design,
            "next: on a level without stairs: the floor below can never be reached (lay stairs '>' or drop the header)".into(),
            true,
        ));
    }
    Ok(Some(next_path(path, next)))
}

/// The error of a `next:` (of `design`, read from `path`) that leads back to `floor`, the
/// `i`th from the top counting from 0.
fn comes_back(path: &Path, design: &Design, floor: &Path, i: usize) -> ParseError {
    at_header(
        path,
        design,
        format!(
            "the chain comes back to {} (floor {}): a campaign must end",
            floor.display(),
            i + 1
        ),
        false,
    )
}

/// The key by which two paths of a chain are the same file: the file as the system
/// resolves it, else the path as given.
fn file_key(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

/// The error of a floor below that could not be read: a read failure is put at the `next:`
/// header of the floor above (`design`, read from `path`) that names it; the file's own
/// parse errors point into that file.
pub fn unreadable(path: &Path, design: &Design, below: &Path, error: LoadError) -> LoadError {
    match error {
        LoadError::Io { message, .. } => LoadError::Parse(at_header(
            path,
            design,
            format!(
                "cannot read the floor below, {}: {message}",
                below.display()
            ),
            false,
        )),
        parse => parse,
    }
}

/// Reads a level file of either format.
pub fn load(path: &Path) -> Result<(Design, Format), LoadError> {
    let bytes = super::read_level_file(path)?;
    Ok(Design::parse_any(&bytes, &path.display().to_string())?)
}

/// One floor of a chain.
#[derive(Debug, Clone)]
pub struct ChainFloor {
    /// Its file.
    pub path: PathBuf,
    /// Its design.
    pub design: Design,
    /// The format it was read in.
    pub format: Format,
}

/// A chain followed from a floor: the floors it could read, in order, and what stopped it
/// when something did.
#[derive(Debug, Clone)]
pub struct Chain {
    /// The floors, the one it started from first.
    pub floors: Vec<ChainFloor>,
    /// Why the chain stops before its end, if it does.
    pub error: Option<LoadError>,
}

impl Chain {
    /// Whether the last floor read has stairs (so, without a `next:`, generated floors
    /// follow it).
    pub fn ends_with_stairs(&self) -> bool {
        self.floors.last().is_some_and(|f| {
            f.design
                .level()
                .features
                .iter()
                .any(|f| f.kind == FeatureKind::Stairs)
        })
    }
}

/// Follows the `next:` headers from `first` (read from `path`), with the files of the
/// floors `above` it for noticing a chain that comes back. Each floor is read once and
/// looked up among those before it by its resolved path, so a chain of thousands of floors
/// is followed in time linear in its length.
pub fn follow(path: &Path, first: Design, format: Format, above: &[PathBuf]) -> Chain {
    follow_with(path, first, format, above, super::read_level_file)
}

/// [`follow`], reading each floor's bytes with `read` (a replay reads the files it
/// "wrote" from memory).
pub fn follow_with(
    path: &Path,
    first: Design,
    format: Format,
    above: &[PathBuf],
    read: impl Fn(&Path) -> Result<Vec<u8>, LoadError>,
) -> Chain {
    // Every floor of the chain so far, by file, with its place from the top.
    let mut floors_by_file: std::collections::HashMap<PathBuf, usize> = above
        .iter()
        .enumerate()
        .map(|(i, p)| (file_key(p), i))
        .collect();
    let mut order: Vec<PathBuf> = above.to_vec();
    let mut floors = vec![ChainFloor {
        path: path.to_path_buf(),
        design: first,
        format,
    }];
    floors_by_file.entry(file_key(path)).or_insert(order.len());
    order.push(path.to_path_buf());
    loop {
        let last = floors.last().expect("the chain starts with a floor");
        let below = match named_below(&last.path, &last.design) {
            Ok(Some(below)) => below,
            Ok(None) => {
                return Chain {
                    floors,
                    error: None,
                };
            }
            Err(e) => {
                return Chain {
                    floors,
                    error: Some(e.into()),
                };
            }
        };
        let key = file_key(&below);
        if let Some(&i) = floors_by_file.get(&key) {
            return Chain {
                error: Some(comes_back(&last.path, &last.design, &order[i], i).into()),
                floors,
            };
        }
        let loaded = read(&below)
            .and_then(|bytes| Ok(Design::parse_any(&bytes, &below.display().to_string())?));
        match loaded {
            Ok((design, format)) => {
                floors_by_file.insert(key, order.len());
                order.push(below.clone());
                floors.push(ChainFloor {
                    path: below,
                    design,
                    format,
                });
            }
            Err(e) => {
                let error = unreadable(&last.path, &last.design, &below, e);
                return Chain {
                    floors,
                    error: Some(error),
                };
            }
        }
    }
}

/// The files of the chain that starts at `path`, as far as they can be read, the first
/// one first (for copying a campaign somewhere whole).
pub fn files(path: &Path) -> Vec<PathBuf> {
    match load(path) {
        Ok((design, format)) => follow(path, design, format, &[])
            .floors
            .into_iter()
            .map(|f| f.path)
            .collect(),
        Err(_) => vec![path.to_path_buf()],
    }
}
