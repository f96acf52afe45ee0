//! The crate's layers, as `src/lib.rs` lists them, held by reading every source file: a
//! module may use its own layer and the layers below it, never one above; and the layers
//! below the app never touch the terminal libraries or the command-line parser.

use std::path::{Path, PathBuf};

/// The layers from the bottom up; the two at rank 0 may not use each other.
const LAYERS: [(&str, u8); 9] = [
    ("engine", 0),
    ("text", 0),
    ("content", 1),
    ("game", 2),
    ("session", 3),
    ("app", 4),
    ("view", 5),
    ("frontend", 6),
    ("cli", 7),
];

/// Crates a layer below the app may not use: the domain stays free of terminal and
/// command-line code.
const NOT_IN_DOMAIN: [&str; 3] = ["ratatui", "crossterm", "clap"];

fn rank(layer: &str) -> Option<u8> {
    LAYERS.iter().find(|(l, _)| *l == layer).map(|&(_, r)| r)
}

/// The module path of a source file below `src/`: `src/app/screen.rs` is `["app", "screen"]`.
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if let Some(last) = parts.last_mut() {
        *last = last.trim_end_matches(".rs").to_string();
    }
    parts
}

/// The first path segment below the crate root named by a path starting at `at` in a
/// `use` or an expression: `crate::game::World` names `game`; `super::super::x` from
/// `["app", "files"]` names `x`.
fn target_layer(module: &[String], path: &str) -> Option<String> {
    let segments: Vec<&str> = path.split("::").map(str::trim).collect();
    match *segments.first()? {
        "crate" => segments.get(1).map(|s| s.to_string()),
        "super" => {
            let ups = segments.iter().take_while(|s| **s == "super").count();
            // A file's own module is its last segment; `super` from `a/b.rs` is `a`.
            let base = module.len().checked_sub(ups)?;
            match base {
                0 => segments.get(ups).map(|s| s.to_string()),
                _ => Some(module[0].clone()),
            }
        }
        _ => None,
    }
}

/// Every `crate::...` and `super::...` path in a source text, with its line number.
/// Comments are skipped; string contents could fool this, and none in the crate do.
fn paths(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        for start in ["crate::", "super::"] {
            let mut rest = code;
            while let Some(i) = rest.find(start) {
                let before = rest[..i].chars().last();
                rest = &rest[i..];
                let len = rest
                    .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                    .unwrap_or(rest.len());
                // `$crate::` and `astar_rogue::crate` are not paths of ours.
                if !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
                    out.push((n + 1, rest[..len].to_string()));
                }
                rest = &rest[len.max(1)..];
            }
        }
    }
    out
}

/// The layering violations of one file, as messages.
fn violations(rel: &Path, text: &str) -> Vec<String> {
    let module = module_path(rel);
    let Some(own) = module.first().and_then(|l| rank(l).map(|r| (l.clone(), r))) else {
        return Vec::new();
    };
    let (own_layer, own_rank) = own;
    let mut out = Vec::new();
    for (line, path) in paths(text) {
        let Some(target) = target_layer(&module, &path) else {
            continue;
        };
        let Some(target_rank) = rank(&target) else {
            continue;
        };
        if target != own_layer && target_rank >= own_rank {
            out.push(format!(
                "{}:{line}: {own_layer} (layer {own_rank}) uses {target} (layer {target_rank}) through {path}",
                rel.display()
            ));
        }
    }
    if own_rank < rank("app").unwrap_or(0) {
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for krate in NOT_IN_DOMAIN {
                let used =
                    code.contains(&format!("{krate}::")) && !code.contains(&format!("_{krate}::"));
                if used {
                    out.push(format!(
                        "{}:{}: {own_layer} uses {krate}, which only the app and above may",
                        rel.display(),
                        n + 1
                    ));
                }
            }
        }
    }
    out
}

fn source_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            source_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_layer_uses_one_above_it() {
    // The core crate (the layers up to the session) and this crate above it: module paths
    // in both start at their crate's root, and the core's layers are re-exported here under
    // the same names, so one table of ranks serves both.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut problems = Vec::new();
    let mut count = 0;
    for src in [root.join("crates/rogue-core/src"), root.join("src")] {
        let mut files = Vec::new();
        source_files(&src, &mut files);
        files.sort();
        count += files.len();
        for file in &files {
            let rel = file.strip_prefix(&src).expect("below src");
            let text = std::fs::read_to_string(file).expect("source is UTF-8");
            problems.extend(violations(rel, &text));
        }
        // Every top-level module of each library is a known layer.
        let lib = std::fs::read_to_string(src.join("lib.rs")).expect("lib.rs");
        for line in lib.lines().filter(|l| l.starts_with("pub mod ")) {
            let name = line.trim_start_matches("pub mod ").trim_end_matches(';');
            assert!(
                rank(name).is_some(),
                "lib.rs declares {name}, not in LAYERS"
            );
        }
    }
    assert!(count > 30, "found only {count} source files");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_checker_catches_upward_uses_and_terminal_code_in_the_domain() {
    let game = Path::new("game/plan.rs");
    assert_eq!(
        violations(game, "use crate::engine::grid::Pos;\n"),
        Vec::<String>::new()
    );
    assert_eq!(
        violations(game, "use crate::app::App;\n"),
        ["game/plan.rs:1: game (layer 2) uses app (layer 4) through crate::app::App"]
    );
    // An inline path counts as much as a `use`, and `super` can climb out of a layer.
    let files = Path::new("app/files.rs");
    assert_eq!(
        violations(files, "let x = super::super::view::wrap(s);\n").len(),
        1
    );
    assert_eq!(
        violations(files, "use super::{App, Confirm};\n"),
        Vec::<String>::new()
    );
    // The two bottom layers may not use each other.
    assert_eq!(
        violations(Path::new("engine/grid.rs"), "use crate::text::lines;\n").len(),
        1
    );
    assert_eq!(
        violations(
            Path::new("content/level.rs"),
            "use ratatui::style::Color;\n"
        ),
        ["content/level.rs:1: content uses ratatui, which only the app and above may"]
    );
    // Comments are not code.
    assert!(violations(game, "// see crate::view::map\n").is_empty());
}
