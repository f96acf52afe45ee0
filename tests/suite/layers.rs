//! The crate's layers, as `src/lib.rs` lists them, held by reading every source file: a
//! module may use its own layer and the layers below it, never one above; and the layers
//! below the app never touch the terminal libraries or the command-line parser. Within a
//! layer, no files import each other, directly or round a circle (`KNOWN_CIRCLES` lists
//! those that other work is taking apart).

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

// ---------------------------------------------------------------------------------------
// Import circles. A layer may use itself, so the table above cannot see two files of one
// layer that need each other; this graph can. A node is a file (its module), an edge is a
// path in it that names another file of the same crate.

/// Source text with comments, string and character literals blanked out (newlines kept, so
/// line numbers stay), so that only code is read for paths.
fn code_only(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |out: &mut String, c: char| out.push(if c == '\n' { '\n' } else { ' ' });
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        let prev_ident = i > 0 && (b[i - 1].is_alphanumeric() || b[i - 1] == '_');
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                blank(&mut out, b[i]);
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, b[i]);
                    i += 1;
                }
            }
        } else if (c == 'r' || (c == 'b' && next == Some('r'))) && !prev_ident && {
            let s = if c == 'b' { i + 2 } else { i + 1 };
            let hashes = b[s.min(b.len())..]
                .iter()
                .take_while(|&&h| h == '#')
                .count();
            b.get(s + hashes) == Some(&'"')
        } {
            // A raw string: r"..", r#".."#, br"..".
            let s = if c == 'b' { i + 2 } else { i + 1 };
            let hashes = b[s..].iter().take_while(|&&h| h == '#').count();
            let close: String = std::iter::once('"')
                .chain(std::iter::repeat_n('#', hashes))
                .collect();
            let body = s + hashes + 1;
            let rest: String = b[body..].iter().collect();
            let end = rest
                .find(&close)
                .map_or(b.len(), |e| body + rest[..e].chars().count() + close.len());
            for &ch in &b[i..end] {
                blank(&mut out, ch);
            }
            i = end;
        } else if c == '"' {
            blank(&mut out, c);
            i += 1;
            while i < b.len() && b[i] != '"' {
                let step = if b[i] == '\\' { 2 } else { 1 };
                for &ch in &b[i..(i + step).min(b.len())] {
                    blank(&mut out, ch);
                }
                i += step;
            }
            if i < b.len() {
                blank(&mut out, b[i]);
                i += 1;
            }
        } else if c == '\'' && next == Some('\\') {
            // An escaped character literal: '\n', '\'', '\u{..}'.
            let end = b[i + 2..]
                .iter()
                .position(|&ch| ch == '\'')
                .map_or(b.len(), |e| i + 2 + e + 1);
            for &ch in &b[i..end] {
                blank(&mut out, ch);
            }
            i = end;
        } else if c == '\'' && b.get(i + 2) == Some(&'\'') {
            out.push_str("   ");
            i += 3;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// One reference from a file: the line and the path as written, resolved from the crate root.
struct Reference {
    line: usize,
    written: String,
    path: Vec<String>,
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The tokens of a `use` tree: names, `::`, braces, commas and `*`.
fn use_tokens(tree: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = tree.chars().peekable();
    while let Some(c) = chars.next() {
        if is_ident(c) {
            let mut name = c.to_string();
            while let Some(&n) = chars.peek().filter(|n| is_ident(**n)) {
                name.push(n);
                chars.next();
            }
            out.push(name);
        } else if c == ':' && chars.peek() == Some(&':') {
            chars.next();
            out.push("::".into());
        } else if "{},*".contains(c) {
            out.push(c.to_string());
        }
    }
    out
}

/// The paths a `use` tree names, each as written (`a::b::{c, d::e}` is `a::b::c`, `a::b::d::e`;
/// `self` in braces is the prefix itself; a rename is dropped).
fn use_paths(tokens: &[String], at: &mut usize, prefix: &[String], out: &mut Vec<Vec<String>>) {
    let mut path = prefix.to_vec();
    while let Some(t) = tokens.get(*at) {
        *at += 1;
        match t.as_str() {
            "::" => {}
            "{" => {
                loop {
                    use_paths(tokens, at, &path, out);
                    match tokens.get(*at).map(String::as_str) {
                        Some(",") => *at += 1,
                        Some("}") => {
                            *at += 1;
                            break;
                        }
                        _ => break,
                    }
                }
                return;
            }
            "," | "}" => {
                *at -= 1;
                break;
            }
            "as" => {
                *at += 1;
                break;
            }
            "*" => break,
            // `{self, ..}`: the prefix itself.
            "self" if !prefix.is_empty() && path.len() == prefix.len() => {}
            name => path.push(name.to_string()),
        }
    }
    if path.len() > prefix.len() || !prefix.is_empty() {
        out.push(path);
    }
}

/// Every path in a file that may name a module of its crate, resolved from the crate root:
/// `use` trees, and `crate::`, `super::`, `self::` and child-module paths in the code.
/// `module` is the file's module path; `is_module` says whether a module path is a file.
/// Inline `#[cfg(test)] mod .. { }` blocks are skipped: tests may reach anywhere.
fn references(
    module: &[String],
    text: &str,
    is_module: &dyn Fn(&[String]) -> bool,
) -> Vec<Reference> {
    let code = code_only(text);
    let c: Vec<char> = code.chars().collect();
    let line_at = |i: usize| c[..i].iter().filter(|&&ch| ch == '\n').count() + 1;
    // The inline modules around the cursor, each with the brace depth of its body.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut out = Vec::new();
    let mut i = 0;
    let word_at = |i: usize| -> String { c[i..].iter().take_while(|ch| is_ident(**ch)).collect() };
    let resolve = |inline: &[(String, usize)], segs: &[String]| -> Option<Vec<String>> {
        let mut here: Vec<String> = module.to_vec();
        here.extend(inline.iter().map(|(m, _)| m.clone()));
        // The module the path starts from, and how many of its segments that takes.
        let (mut base, used) = match segs.first()?.as_str() {
            "crate" => (Vec::new(), 1),
            "self" => (here, 1),
            "super" => {
                let ups = segs.iter().take_while(|s| *s == "super").count();
                (here[..here.len().checked_sub(ups)?].to_vec(), ups)
            }
            // A bare name is a path of ours only when it is a child module's.
            name => {
                let mut child = here.clone();
                child.push(name.to_string());
                if !is_module(&child) {
                    return None;
                }
                (here, 0)
            }
        };
        base.extend(segs[used..].iter().cloned());
        Some(base)
    };
    while i < c.len() {
        let boundary = i == 0 || !(is_ident(c[i - 1]) || c[i - 1] == '$' || c[i - 1] == ':');
        if c[i] == '{' {
            depth += 1;
            i += 1;
            continue;
        }
        if c[i] == '}' {
            if inline.last().is_some_and(|(_, d)| *d == depth) {
                inline.pop();
            }
            depth = depth.saturating_sub(1);
            i += 1;
            continue;
        }
        if !boundary || !is_ident(c[i]) {
            i += 1;
            continue;
        }
        let word = word_at(i);
        let after = i + word.chars().count();
        let rest: String = c[after..c.len().min(after + 200)].iter().collect();
        if word == "mod" {
            let tail = rest.trim_start();
            let name: String = tail.chars().take_while(|ch| is_ident(*ch)).collect();
            let next = tail.trim_start_matches(is_ident).trim_start();
            if next.starts_with('{') {
                let before: String = c[i.saturating_sub(80)..i].iter().collect();
                let open = after + c[after..].iter().position(|ch| *ch == '{').unwrap_or(0);
                if before
                    .split_whitespace()
                    .rev()
                    .take(3)
                    .any(|w| w == "#[cfg(test)]")
                {
                    // Skip the block to its closing brace.
                    let mut d = 0;
                    let mut j = open;
                    while j < c.len() {
                        match c[j] {
                            '{' => d += 1,
                            '}' => {
                                d -= 1;
                                if d == 0 {
                                    break;
                                }
                            }
                            _ => {}
                        }
                        j += 1;
                    }
                    i = j + 1;
                    continue;
                }
                inline.push((name, depth + 1));
                i = open;
                continue;
            }
        }
        if word == "use" && rest.starts_with(char::is_whitespace) {
            let end = c[after..]
                .iter()
                .position(|ch| *ch == ';')
                .map_or(c.len(), |n| after + n);
            let tree: String = c[after..end].iter().collect();
            let tokens = use_tokens(&tree);
            let mut paths = Vec::new();
            let mut at = 0;
            use_paths(&tokens, &mut at, &[], &mut paths);
            for p in paths {
                if let Some(path) = resolve(&inline, &p) {
                    out.push(Reference {
                        line: line_at(i),
                        written: p.join("::"),
                        path,
                    });
                }
            }
            i = end;
            continue;
        }
        // A path in code: names joined by `::`.
        let mut segs = vec![word.clone()];
        let mut j = after;
        while c.get(j) == Some(&':')
            && c.get(j + 1) == Some(&':')
            && c.get(j + 2).is_some_and(|ch| is_ident(*ch))
        {
            let w = word_at(j + 2);
            j += 2 + w.chars().count();
            segs.push(w);
        }
        if segs.len() > 1
            && let Some(path) = resolve(&inline, &segs)
        {
            out.push(Reference {
                line: line_at(i),
                written: segs.join("::"),
                path,
            });
        }
        i = j;
    }
    out
}

/// The import graph of one crate's sources: for each file (by its path below `src/`), the
/// files it names, each with the first line that names it and the path written there.
type Graph =
    std::collections::BTreeMap<String, std::collections::BTreeMap<String, (usize, String)>>;

fn import_graph(files: &[(PathBuf, String)]) -> Graph {
    let modules: std::collections::BTreeMap<Vec<String>, String> = files
        .iter()
        .map(|(rel, _)| (file_module(rel), rel.display().to_string()))
        .collect();
    let is_module = |m: &[String]| modules.contains_key(m);
    let mut graph = Graph::new();
    for (rel, text) in files {
        let own = file_module(rel);
        let edges = graph.entry(rel.display().to_string()).or_default();
        for r in references(&own, text, &is_module) {
            // The longest prefix that is a file: `a::b::C` is the file of `a::b`, or of `a`
            // when `b` is an item in it. The crate root only declares the modules.
            let Some(target) = (1..=r.path.len())
                .rev()
                .find_map(|n| modules.get(&r.path[..n]))
            else {
                continue;
            };
            if *target != rel.display().to_string() {
                edges.entry(target.clone()).or_insert((r.line, r.written));
            }
        }
    }
    graph
}

/// The module path of a file below `src/`: `lib.rs` is the root, `app.rs` is `["app"]`.
fn file_module(rel: &Path) -> Vec<String> {
    let m = module_path(rel);
    if m == ["lib"] { Vec::new() } else { m }
}

/// The strongly connected components of more than one file (Tarjan): the files of each
/// import one another round a circle. Each is sorted, and so is the list.
fn circles(graph: &Graph) -> Vec<Vec<String>> {
    struct State<'a> {
        graph: &'a Graph,
        index: std::collections::BTreeMap<&'a str, usize>,
        low: std::collections::BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        for w in s.graph.get(v).into_iter().flat_map(|e| e.keys()) {
            let w = w.as_str();
            if !s.graph.contains_key(w) {
                continue;
            }
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(lw);
            } else if s.stack.contains(&w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut part = Vec::new();
            while let Some(w) = s.stack.pop() {
                part.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if part.len() > 1 {
                part.sort();
                s.out.push(part);
            }
        }
    }
    let mut s = State {
        graph,
        index: Default::default(),
        low: Default::default(),
        stack: Vec::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.out.sort();
    s.out
}

/// A circle as a message: its files, and each import between two of them with its line.
fn describe_circle(graph: &Graph, part: &[String]) -> String {
    let mut out = format!("import circle: {}", part.join(" "));
    for from in part {
        for (to, (line, written)) in &graph[from] {
            if part.contains(to) {
                out.push_str(&format!("\n    {from}:{line} -> {to} ({written})"));
            }
        }
    }
    out
}

/// The circles of the crate below `src` (a path from the workspace root), with the root to
/// name files by.
fn crate_circles(src: &str) -> (Graph, Vec<Vec<String>>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(src);
    let mut files = Vec::new();
    source_files(&root, &mut files);
    files.sort();
    let files: Vec<(PathBuf, String)> = files
        .iter()
        .map(|f| {
            let rel = f.strip_prefix(&root).expect("below src").to_path_buf();
            (rel, std::fs::read_to_string(f).expect("source is UTF-8"))
        })
        .collect();
    assert!(
        files.len() > 20,
        "found only {} source files in {src}",
        files.len()
    );
    let graph = import_graph(&files);
    let found = circles(&graph);
    (graph, found)
}

/// Circles that other work is taking apart, each as its files (sorted, below the crate's
/// `src/`). The test fails when one of them is gone, so that this list only shrinks; it is
/// empty now (the game module's was the last), so the test holds every file.
const KNOWN_CIRCLES: &[(&str, &[&str])] = &[];

#[test]
fn no_files_import_each_other_round_a_circle() {
    let mut problems = Vec::new();
    let mut known: Vec<(&str, Vec<String>)> = KNOWN_CIRCLES
        .iter()
        .map(|(src, files)| (*src, files.iter().map(|f| f.to_string()).collect()))
        .collect();
    for src in ["crates/rogue-core/src", "src"] {
        let (graph, found) = crate_circles(src);
        for part in found {
            match known.iter().position(|(s, k)| *s == src && *k == part) {
                Some(i) => {
                    known.remove(i);
                }
                None => problems.push(format!("{src}: {}", describe_circle(&graph, &part))),
            }
        }
    }
    for (src, gone) in known {
        problems.push(format!(
            "{src}: the known circle {} is gone or changed: take it off KNOWN_CIRCLES",
            gone.join(" ")
        ));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A crate's files from their paths and texts, for the checker's own tests.
fn graph_of(files: &[(&str, &str)]) -> Graph {
    let files: Vec<(PathBuf, String)> = files
        .iter()
        .map(|(p, t)| (PathBuf::from(p), t.to_string()))
        .collect();
    import_graph(&files)
}

#[test]
fn the_circle_checker_sees_paths_however_they_are_written() {
    // Two siblings through `use super::..`: a circle of two.
    let g = graph_of(&[
        ("lib.rs", "pub mod a;\n"),
        ("a.rs", "mod b;\nmod c;\n"),
        ("a/b.rs", "use super::c::Thing;\n"),
        ("a/c.rs", "pub struct Thing;\nfn f() { super::b::g(); }\n"),
    ]);
    assert_eq!(circles(&g), [["a/b.rs", "a/c.rs"]]);
    // Round three files, through `crate::` in a brace tree over two lines, an inline
    // path, and a parent naming its child by the child's bare name.
    let g = graph_of(&[
        ("lib.rs", "pub mod x;\npub mod y;\n"),
        ("x.rs", "mod z;\nuse z::Z;\n"),
        ("x/z.rs", "use crate::{\n    y::{self, Y},\n};\n"),
        ("y.rs", "fn f() -> crate::x::X { todo!() }\n"),
    ]);
    assert_eq!(circles(&g), [["x.rs", "x/z.rs", "y.rs"]]);
    let text = describe_circle(&g, &circles(&g)[0]);
    assert!(text.contains("x/z.rs:1 -> y.rs (crate::y)"), "{text}");
    assert!(text.contains("y.rs:1 -> x.rs (crate::x::X)"), "{text}");
    // Not imports: comments, strings, `$crate`, other crates, test modules, and `super`
    // inside an inline module, which is the file itself.
    let g = graph_of(&[
        ("lib.rs", "pub mod p;\npub mod q;\n"),
        (
            "p.rs",
            "use crate::q::Q;\npub mod inner { use super::P; }\npub struct P;\n",
        ),
        (
            "q.rs",
            concat!(
                "// crate::p::P\n/* crate::p::P */\nconst S: &str = \"crate::p::P\";\n",
                "const C: char = '\"';\nmacro_rules! m { () => { $crate::p::P } }\n",
                "use other::p::P;\n#[cfg(test)]\nmod tests {\n    use crate::p::P;\n}\n",
                "pub struct Q;\n",
            ),
        ),
    ]);
    assert_eq!(circles(&g), Vec::<Vec<String>>::new());
    assert_eq!(g["p.rs"].keys().collect::<Vec<_>>(), ["q.rs"]);
    assert!(g["q.rs"].is_empty(), "{:?}", g["q.rs"]);
}
