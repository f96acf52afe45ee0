//! Every example in README.md and docs/ is run: a claim that stops being true fails here.
//!
//! The convention, in Markdown fenced blocks:
//!
//! - A block whose info string has `file=PATH` (```` ```keys file=walk.keys ````) is written
//!   to PATH in the page's scratch folder, before the commands after it run.
//! - A ```` ```console ```` block holds commands, each a line `$ COMMAND`, followed by what it
//!   prints (standard output and standard error as a terminal would show them, interleaved),
//!   and, if it exits with another status than 0, a last line `[exit N]`.
//!
//! Each page runs in a scratch folder of its own holding copies of `levels/`, `docs/`,
//! `tests/levels/` and `tests/data/`, through `sh` with the built binary first on `PATH`, the
//! blocks in page order. The user's settings never leak in: `HOME` is the scratch folder and
//! `XDG_CONFIG_HOME` is `/home/you/.config`, where no file exists. Outputs are compared
//! exactly, except for spaces at the ends of lines and blank lines at the end (Markdown
//! editors strip them; frames are padded to the terminal's width).
//!
//! `DOCS_BLESS=1 cargo test docs` writes the actual outputs into the pages instead, for a
//! change made on purpose: read the diff before committing it.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_astar-rogue");

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// The pages this test checks. The engine, benchmark and robustness pages are written
/// elsewhere and are not checked yet.
const PAGES: &[&str] = &[
    "README.md",
    "docs/playing.md",
    "docs/designing.md",
    "docs/designing-campaigns.md",
    "docs/learning.md",
    "docs/scripts.md",
    "docs/contributing.md",
    "docs/terrain.md",
    "docs/runs.md",
];

/// Pages in docs/ that this test leaves alone.
const NOT_CHECKED: &[&str] = &["docs/engine.md", "docs/benchmarks.md", "docs/robustness.md"];

/// A fenced block of a page.
#[derive(Debug)]
struct Block {
    /// The line of its opening fence, from 1.
    line: usize,
    /// The info string after the fence.
    info: String,
    /// The lines between the fences.
    body: Vec<String>,
}

impl Block {
    fn file(&self) -> Option<&str> {
        self.info
            .split_whitespace()
            .find_map(|w| w.strip_prefix("file="))
    }

    fn is_console(&self) -> bool {
        self.info.split_whitespace().next() == Some("console")
    }
}

/// The fenced blocks of a Markdown text (fences of three or more backticks at the start of
/// a line, closed by a fence at least as long).
fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<(usize, Block)> = None;
    for (i, line) in text.lines().enumerate() {
        let ticks = line.chars().take_while(|&c| c == '`').count();
        match &mut open {
            None if ticks >= 3 => {
                open = Some((
                    ticks,
                    Block {
                        line: i + 1,
                        info: line[ticks..].trim().to_string(),
                        body: Vec::new(),
                    },
                ))
            }
            None => {}
            Some((n, _)) if ticks >= *n && line[ticks..].trim().is_empty() => {
                out.push(open.take().expect("open").1);
            }
            Some((_, b)) => b.body.push(line.to_string()),
        }
    }
    assert!(open.is_none(), "a fenced block is never closed");
    out
}

/// One command of a console block, with what it should print.
#[derive(Debug)]
struct Example {
    /// The line of its `$ ` in the page, from 1.
    line: usize,
    command: String,
    expected: Vec<String>,
    status: i32,
}

fn examples(block: &Block) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    for (i, line) in block.body.iter().enumerate() {
        if let Some(command) = line.strip_prefix("$ ") {
            out.push(Example {
                line: block.line + 1 + i,
                command: command.to_string(),
                expected: Vec::new(),
                status: 0,
            });
        } else {
            let ex = out.last_mut().unwrap_or_else(|| {
                panic!(
                    "line {}: a console block starts with `$ COMMAND`",
                    block.line + 1
                )
            });
            ex.expected.push(line.clone());
        }
    }
    for ex in &mut out {
        if let Some(code) = ex
            .expected
            .last()
            .and_then(|l| l.strip_prefix("[exit ")?.strip_suffix(']'))
        {
            ex.status = code.parse().expect("[exit N] with a number");
            ex.expected.pop();
        }
    }
    out
}

/// Output as the pages hold it: each line's trailing spaces cut, no trailing blank lines.
fn normalize<S: AsRef<str>>(lines: &[S]) -> Vec<String> {
    let mut out: Vec<String> = lines
        .iter()
        .map(|l| l.as_ref().trim_end().to_string())
        .collect();
    while out.last().is_some_and(String::is_empty) {
        out.pop();
    }
    out
}

/// A scratch folder with copies of what the examples read.
fn scratch() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a scratch folder");
    for sub in ["levels", "docs", "tests/levels", "tests/data"] {
        copy_tree(&repo(sub), &dir.path().join(sub));
    }
    let bin = dir.path().join(".bin");
    std::fs::create_dir(&bin).expect("a bin folder");
    std::os::unix::fs::symlink(BIN, bin.join("astar-rogue")).expect("a link to the binary");
    dir
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create a folder");
    for entry in std::fs::read_dir(from).expect("read a folder") {
        let entry = entry.expect("an entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("a file type").is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy a file");
        }
    }
}

/// Runs `command` in `dir` as a user would in a shell; returns its output lines and status.
fn run(dir: &Path, command: &str) -> (Vec<String>, i32) {
    let path = format!(
        "{}:{}",
        dir.join(".bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("{{ {command}\n}} 2>&1"))
        .current_dir(dir)
        .env("PATH", path)
        .env("HOME", dir)
        .env("XDG_CONFIG_HOME", "/home/you/.config")
        .env_remove("ASTAR_ROGUE_CONFIG")
        .env_remove("ASTAR_ROGUE_PANIC")
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .output()
        .expect("run sh");
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    // A signal shows as a shell does: 128 + its number.
    let status = out.status.code().unwrap_or_else(|| {
        use std::os::unix::process::ExitStatusExt;
        128 + out.status.signal().unwrap_or(0)
    });
    (lines, status)
}

/// Runs every example of one page; returns the differences, or rewrites the page under
/// `DOCS_BLESS=1`.
fn check_page(page: &str) {
    let path = repo(page);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{page}: {e}"));
    let dir = scratch();
    let bless = std::env::var_os("DOCS_BLESS").is_some_and(|v| v == "1");
    let mut failures = Vec::new();
    // Under bless: (first line of the old output, its end, the new lines), in page order.
    let mut rewrites: Vec<(usize, usize, Vec<String>)> = Vec::new();
    let mut count = 0;
    for block in blocks(&text) {
        if let Some(file) = block.file() {
            let target = dir.path().join(file);
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent).expect("create a folder");
            }
            let mut body = block.body.join("\n");
            body.push('\n');
            std::fs::write(&target, body).expect("write an example file");
            continue;
        }
        if !block.is_console() {
            continue;
        }
        for ex in examples(&block) {
            count += 1;
            let (actual, status) = run(dir.path(), &ex.command);
            let actual = normalize(&actual);
            let expected = normalize(&ex.expected);
            if bless {
                let mut new = actual.clone();
                if status != 0 {
                    new.push(format!("[exit {status}]"));
                }
                let len = ex.expected.len() + usize::from(ex.status != 0);
                rewrites.push((ex.line, ex.line + len, new));
                continue;
            }
            if actual != expected || status != ex.status {
                failures.push(format!(
                    "{page}:{}: `{}`\n{}{}",
                    ex.line,
                    ex.command,
                    if status == ex.status {
                        String::new()
                    } else {
                        format!("  exit status {status}, the page says {}\n", ex.status)
                    },
                    diff(&expected, &actual)
                ));
            }
        }
    }
    if bless {
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        // Last first, so earlier line numbers stay right.
        for (at, end, new) in rewrites.into_iter().rev() {
            lines.splice(at..end, new);
        }
        let mut out = lines.join("\n");
        out.push('\n');
        if out != text {
            std::fs::write(&path, out).expect("rewrite the page");
        }
        return;
    }
    assert!(
        failures.is_empty(),
        "{} of {count} examples differ from what the page says (DOCS_BLESS=1 rewrites them):\n\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The expected and actual lines as a diff: `-` what the page says, `+` what was printed.
fn diff(expected: &[String], actual: &[String]) -> String {
    let d = astar_rogue::frontend::snapshot::diff(&expected.join("\n"), &actual.join("\n"));
    let mut out = String::new();
    for f in d {
        for l in f.lines {
            out.push_str("  ");
            out.push_str(&l);
            out.push('\n');
        }
    }
    out
}

#[test]
fn readme() {
    check_page("README.md");
}

#[test]
fn playing() {
    check_page("docs/playing.md");
}

#[test]
fn designing() {
    check_page("docs/designing.md");
}

#[test]
fn designing_campaigns() {
    check_page("docs/designing-campaigns.md");
}

#[test]
fn learning() {
    check_page("docs/learning.md");
}

#[test]
fn scripts() {
    check_page("docs/scripts.md");
}

#[test]
fn runs() {
    check_page("docs/runs.md");
}

#[test]
fn contributing() {
    check_page("docs/contributing.md");
}

#[test]
fn terrain() {
    check_page("docs/terrain.md");
}

/// A page added to docs/ without a test case would never be checked.
#[test]
fn every_page_is_checked_or_named_as_not_checked() {
    let mut found: Vec<String> = std::fs::read_dir(repo("docs"))
        .expect("docs/")
        .filter_map(|e| {
            let name = e.expect("an entry").file_name().into_string().ok()?;
            name.ends_with(".md").then(|| format!("docs/{name}"))
        })
        .collect();
    found.sort();
    for page in found {
        assert!(
            PAGES.contains(&page.as_str()) || NOT_CHECKED.contains(&page.as_str()),
            "{page} is neither checked nor named in NOT_CHECKED (tests/suite/docs.rs)"
        );
    }
}

/// The subcommands, as `astar-rogue --help` lists them.
fn subcommands() -> Vec<String> {
    let out = Command::new(BIN)
        .arg("--help")
        .output()
        .expect("run --help");
    let text = String::from_utf8(out.stdout).expect("UTF-8 help");
    text.lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| !l.is_empty())
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|c| c != "help")
        .collect()
}

/// Usage lines are never written by hand, where they go stale (the `path` line once left
/// out `--greedy`): each subcommand's own `--help` is quoted in a console block, and so
/// compared with the CLI's by the page tests; nothing else in a page looks like a synopsis.
#[test]
fn usage_lines_are_the_clis_own_help() {
    let subs = subcommands();
    assert!(subs.len() >= 8, "subcommands found: {subs:?}");
    let mut quoted = Vec::new();
    let mut stray = Vec::new();
    for page in PAGES {
        let text = std::fs::read_to_string(repo(page)).expect("a page");
        let blocks = blocks(&text);
        for b in blocks.iter().filter(|b| b.is_console()) {
            for ex in examples(b) {
                let words: Vec<&str> = ex.command.split_whitespace().collect();
                if let ["astar-rogue", sub, "--help"] = words[..] {
                    quoted.push(sub.to_string());
                }
            }
        }
        // Outside console blocks (prose and other blocks), a line naming a subcommand with
        // an option in brackets is a hand-written synopsis.
        let in_console: Vec<std::ops::Range<usize>> = blocks
            .iter()
            .filter(|b| b.is_console())
            .map(|b| b.line..b.line + b.body.len() + 2)
            .collect();
        for (i, line) in text.lines().enumerate() {
            let n = i + 1;
            if in_console.iter().any(|r| r.contains(&n)) {
                continue;
            }
            let synopsis = subs.iter().any(|s| {
                line.find(&format!("astar-rogue {s} "))
                    .is_some_and(|at| line[at..].contains("[--") || line[at..].contains("[-o"))
            }) || line.trim_start().starts_with("Usage: astar-rogue");
            if synopsis {
                stray.push(format!("{page}:{n}: {line}"));
            }
        }
    }
    for sub in &subs {
        assert!(
            quoted.contains(sub),
            "no page quotes `astar-rogue {sub} --help` in a console block (quoted: {quoted:?})"
        );
    }
    assert!(
        stray.is_empty(),
        "hand-written usage lines (quote `--help` in a console block instead):\n{}",
        stray.join("\n")
    );
}

/// The convention itself: fences, commands, outputs and exit lines read as described.
#[test]
fn console_blocks_read_as_the_convention_says() {
    let page =
        "text\n```keys file=a.keys\nl l\n```\n```console\n$ one\nout\n[exit 2]\n$ two\n```\n";
    let b = blocks(page);
    assert_eq!(b.len(), 2);
    assert_eq!(b[0].file(), Some("a.keys"));
    assert_eq!(b[0].body, ["l l"]);
    let ex = examples(&b[1]);
    assert_eq!(ex.len(), 2);
    assert_eq!((ex[0].line, ex[0].command.as_str()), (6, "one"));
    assert_eq!(
        (ex[0].expected.clone(), ex[0].status),
        (vec!["out".into()], 2)
    );
    assert_eq!((ex[1].expected.len(), ex[1].status), (0, 0));
}
