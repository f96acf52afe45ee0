//! Property tests of the script language and runner: no input (random bytes, token-like noise,
//! huge repeat counts, mutated valid scripts) makes `script::parse` panic or give an error
//! that points outside the script, and random valid scripts run on the real `App` without a
//! panic and print the same bytes on every run.
//!
//! The parser properties default to 1000 cases and the runner to 256 (about a second each in
//! debug); set `PROPTEST_CASES` for more.

use std::path::{Path, PathBuf};

use astar_rogue::app::App;
use astar_rogue::app::open_level;
use astar_rogue::content::level::ParseError;
use astar_rogue::frontend::script::{self, Frames, MAX_REPEAT, MAX_STEPS, Output};
use proptest::prelude::*;
use proptest::sample::{Index, select};

use crate::common;
use common::config;

const FILE: &str = "scripts/some script.keys";

/// The lines of a script as the parser counts them (a final newline starts no new line).
fn line_count(bytes: &[u8]) -> usize {
    if bytes.is_empty() {
        return 0;
    }
    let newlines = bytes.iter().filter(|&&b| b == b'\n').count();
    newlines + usize::from(!bytes.ends_with(b"\n"))
}

/// An error must point into the script: a real line, and a column on that line's text (or
/// just past its end), and print without panicking.
fn check_error(bytes: &[u8], e: &ParseError) -> Result<(), TestCaseError> {
    let lines = line_count(bytes);
    prop_assert!(e.line >= 1, "line {} in {e:?}", e.line);
    prop_assert!(e.col >= 1, "col {} in {e:?}", e.col);
    prop_assert!(
        e.line <= lines + 1,
        "line {} of a {lines}-line script: {e:?}",
        e.line
    );
    prop_assert_eq!(&e.file, FILE);
    let source = common::source_lines(bytes);
    let line = source.get(e.line - 1).map(String::as_str);
    let excerpt = common::check_excerpt(e, line);
    prop_assert!(excerpt.is_ok(), "{}", excerpt.unwrap_err());
    // On a header line every error but bad UTF-8 is about the header, and its column points
    // just past the `#!` (in characters, as the caret is drawn). A line is a header only
    // before the first step: later, `#!` starts a comment like any `#`.
    let line = line.unwrap_or("");
    let before_line: Vec<u8> = bytes
        .split_inclusive(|&b| b == b'\n')
        .take(e.line - 1)
        .flatten()
        .copied()
        .collect();
    let no_step_yet = script::parse(&before_line, FILE).is_ok_and(|s| s.steps.is_empty());
    if line.trim_start().starts_with("#!") && no_step_yet && e.message != "invalid UTF-8" {
        let before: String = line.chars().take(e.col - 1).collect();
        prop_assert!(
            before.ends_with("#!"),
            "header error column {} does not follow the `#!` of {:?}: {}",
            e.col,
            line,
            e.headline()
        );
    }
    let shown = e.to_string();
    prop_assert!(
        shown.starts_with(&e.headline()),
        "display starts with the headline"
    );
    Ok(())
}

/// Parses and checks the outcome either way; returns the script when it parsed.
fn parse_checked(bytes: &[u8]) -> Result<Option<script::Script>, TestCaseError> {
    match script::parse(bytes, FILE) {
        Ok(s) => {
            let lines = line_count(bytes);
            let mut total = 0usize;
            for (i, step) in s.steps.iter().enumerate() {
                prop_assert_eq!(step.token, i + 1, "tokens are numbered from 1");
                prop_assert!(step.line >= 1 && step.line <= lines, "{step:?}");
                prop_assert!((1..=MAX_REPEAT).contains(&step.repeat), "{step:?}");
                total += step.repeat as usize;
            }
            prop_assert!(total <= MAX_STEPS);
            Ok(Some(s))
        }
        Err(e) => {
            check_error(bytes, &e)?;
            Ok(None)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------

/// Every key token the app binds (and a few it does not), as scripts spell them.
const KEYS: &[&str] = &[
    "h",
    "j",
    "k",
    "l",
    "y",
    "u",
    "b",
    "n",
    ".",
    "1",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "?",
    "Esc",
    "Tab",
    "BackTab",
    "p",
    "o",
    "x",
    "e",
    "s",
    "C-s",
    "G",
    "r",
    "[",
    "]",
    "{",
    "}",
    "a",
    "+",
    "-",
    "N",
    "H",
    "W",
    "D",
    "w",
    "f",
    "Space",
    "m",
    "K",
    "d",
    "Delete",
    "@",
    "U",
    "C-z",
    "R",
    "C-y",
    "Left",
    "Right",
    "Up",
    "Down",
    "Home",
    "End",
    "PageUp",
    "PageDown",
    "Enter",
    "Y",
    "F1",
    "F12",
    "Hash",
    "Backspace",
    "Insert",
    "reload",
    "Z",
    "C-a",
];

/// Pieces scripts are made of, valid or nearly so.
const NOISE: &[&str] = &[
    "h",
    "Left",
    "C-",
    "C-c",
    "C-cc",
    "click:",
    "click:1,2",
    "click:1,",
    "click:,2",
    "click:-1,2",
    "click:65535,65535",
    "click:65536,0",
    "rclick:3,4",
    "drag:0,0",
    "resize:",
    "resize:1x1",
    "resize:0x1",
    "resize:1000x1000",
    "resize:1001x1",
    "resize:300x100",
    "resize:x",
    "snap",
    "snap:",
    "snap:a",
    "snap:a:b",
    "reload",
    "F0",
    "F13",
    "F1",
    "Fx",
    "Hash",
    "*",
    "**",
    "0*",
    "1*",
    "00*",
    "9999999999*",
    "1000000*",
    "1000001*",
    "#",
    "#!",
    "#! ",
    "#! size: 10x10",
    "#! size: 0x0",
    "#! seed: 1",
    "#! seed: -1",
    "#! level: x",
    "#! bogus: 1",
    "#!nocolon",
    ":",
    ",",
    "x",
    "\u{e9}",
    "\u{3000}",
    "\u{a0}",
    "\u{1F600}",
    "\r",
    "\t",
    " ",
    "\n",
    "\r\n",
    "\0",
    "\u{7f}",
    "\u{200b}",
];

fn noise_script() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(select(NOISE), 0..40).prop_map(|parts| parts.concat().into_bytes())
}

/// A valid token for the runner: keys, mouse actions anywhere (mostly on screen), resizes from
/// 1x1 to 300x100, snaps, optionally repeated.
fn run_token() -> impl Strategy<Value = String> {
    let cell = prop_oneof![
        8 => (0u16..100, 0u16..40),
        1 => (0u16..=300, 0u16..=100),
        1 => (any::<u16>(), any::<u16>()),
    ];
    let single = prop_oneof![
        12 => select(KEYS).prop_map(String::from),
        1 => select(&["q", "C-c"][..]).prop_map(String::from),
        3 => cell.clone().prop_map(|(c, r)| format!("click:{c},{r}")),
        1 => cell.clone().prop_map(|(c, r)| format!("rclick:{c},{r}")),
        2 => cell.prop_map(|(c, r)| format!("drag:{c},{r}")),
        2 => (1u16..=300, 1u16..=100).prop_map(|(w, h)| format!("resize:{w}x{h}")),
        1 => select(&["resize:1x1", "resize:300x100", "resize:1x100", "resize:300x1"][..])
            .prop_map(String::from),
    ];
    prop_oneof![
        10 => single.clone(),
        2 => (2u32..=6, single).prop_map(|(n, t)| format!("{n}*{t}")),
        1 => prop_oneof![Just("snap".to_string()), "[a-z0-9-]{1,8}".prop_map(|n| format!("snap:{n}"))],
    ]
}

fn separator() -> impl Strategy<Value = &'static str> {
    select(
        &[
            " ",
            " ",
            " ",
            "\t",
            "\n",
            "  # a comment * with click:x\n",
            "\r\n",
        ][..],
    )
}

/// A valid script body (no header).
fn valid_script(max_tokens: usize) -> impl Strategy<Value = String> {
    prop::collection::vec((run_token(), separator()), 0..max_tokens).prop_map(|parts| {
        parts
            .into_iter()
            .map(|(t, sep)| format!("{t}{sep}"))
            .collect()
    })
}

/// The repository's scripts, as seeds for mutation.
const SAMPLES: &[&str] = &[
    include_str!("../scripts/overlay.keys"),
    include_str!("../scripts/editor.keys"),
    include_str!("../scripts/travel.keys"),
    include_str!("../scripts/help.keys"),
    include_str!("../scripts/resize.keys"),
    include_str!("../scripts/combat.keys"),
];

#[derive(Debug, Clone)]
enum Mutation {
    Insert(Index, u8),
    Delete(Index),
    Replace(Index, u8),
    Splice(Index, &'static str),
}

fn mutated_sample() -> impl Strategy<Value = Vec<u8>> {
    let byte = prop_oneof![
        4 => select(b" \t\n\r#*:,x0123456789!-".to_vec()),
        1 => any::<u8>(),
    ];
    let mutation = prop_oneof![
        (any::<Index>(), byte.clone()).prop_map(|(i, b)| Mutation::Insert(i, b)),
        any::<Index>().prop_map(Mutation::Delete),
        (any::<Index>(), byte).prop_map(|(i, b)| Mutation::Replace(i, b)),
        (any::<Index>(), select(NOISE)).prop_map(|(i, s)| Mutation::Splice(i, s)),
    ];
    (select(SAMPLES), prop::collection::vec(mutation, 1..8)).prop_map(|(sample, ms)| {
        let mut bytes = sample.as_bytes().to_vec();
        for m in ms {
            let at = |i: &Index, len: usize| if len == 0 { 0 } else { i.index(len) };
            match m {
                Mutation::Insert(i, b) => {
                    let k = at(&i, bytes.len() + 1);
                    bytes.insert(k, b);
                }
                Mutation::Delete(i) if !bytes.is_empty() => {
                    let k = at(&i, bytes.len());
                    bytes.remove(k);
                }
                Mutation::Replace(i, b) if !bytes.is_empty() => {
                    let k = at(&i, bytes.len());
                    bytes[k] = b;
                }
                Mutation::Splice(i, s) => {
                    let k = at(&i, bytes.len() + 1);
                    bytes.splice(k..k, s.bytes());
                }
                _ => {}
            }
        }
        bytes
    })
}

// ---------------------------------------------------------------------------------------------
// The parser
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(1000))]

    #[test]
    fn parse_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        parse_checked(&bytes)?;
    }

    #[test]
    fn parse_token_like_noise(bytes in noise_script()) {
        parse_checked(&bytes)?;
    }

    #[test]
    fn parse_mutated_valid_scripts(bytes in mutated_sample()) {
        parse_checked(&bytes)?;
    }

    #[test]
    fn valid_scripts_parse(body in valid_script(40)) {
        let parsed = parse_checked(body.as_bytes())?;
        prop_assert!(parsed.is_some(), "a valid script failed to parse: {body:?}");
    }

    /// Repeat counts: accepted exactly when each is 1..=MAX_REPEAT and they add up to at most
    /// MAX_STEPS; an error names the line and column of the offending token.
    #[test]
    fn huge_repeat_counts(
        counts in prop::collection::vec(
            prop_oneof![
                Just(0u64), Just(1), Just(u64::from(MAX_REPEAT)), Just(u64::from(MAX_REPEAT) + 1),
                1u64..=u64::from(MAX_REPEAT), any::<u64>(), Just(u64::MAX),
            ],
            1..8,
        ),
        zeros in prop::collection::vec(0usize..3, 8),
        tokens in prop::collection::vec(select(&["h", ".", "click:1,1", "resize:5x5", "Left"][..]), 8),
    ) {
        let words: Vec<String> = counts
            .iter()
            .enumerate()
            .map(|(i, n)| format!("{}{n}*{}", "0".repeat(zeros[i]), tokens[i]))
            .collect();
        let body = words.join("\n");
        let result = script::parse(body.as_bytes(), FILE);
        let mut total = 0u64;
        let mut first_bad = None;
        for (i, &n) in counts.iter().enumerate() {
            if !(1..=u64::from(MAX_REPEAT)).contains(&n) {
                first_bad = Some(i);
                break;
            }
            total += n;
            if total > MAX_STEPS as u64 {
                first_bad = Some(i);
                break;
            }
        }
        match (result, first_bad) {
            (Ok(s), None) => {
                let got: Vec<u64> = s.steps.iter().map(|t| u64::from(t.repeat)).collect();
                prop_assert_eq!(got, counts);
            }
            (Err(e), Some(i)) => {
                check_error(body.as_bytes(), &e)?;
                prop_assert_eq!((e.line, e.col), (i + 1, 1), "{}", e.headline());
            }
            (Ok(_), Some(i)) => prop_assert!(false, "accepted {body:?} (bad count at line {})", i + 1),
            (Err(e), None) => prop_assert!(false, "rejected {body:?}: {}", e.headline()),
        }
    }
}

/// A header after leading Unicode whitespace: the column is in characters, as documented,
/// so the caret lands under the header's text.
#[test]
fn header_error_column_counts_characters() {
    let line = "\u{3000}#! colour: red";
    let e = script::parse(line.as_bytes(), FILE).unwrap_err();
    assert_eq!(
        (e.line, e.col),
        (1, 4),
        "{} (the column should count characters: the ideographic space is one)",
        e.headline()
    );
}

// ---------------------------------------------------------------------------------------------
// The runner
// ---------------------------------------------------------------------------------------------

/// Runs `body` on a fresh copy of levels/pillar.txt at `level` (always the same path, so saves
/// and reloads see the same file and messages name the same path), in a folder emptied first:
/// files an earlier run saved (a generated level's new `.txt`) would change where saves go.
fn run_once(body: &str, level: &Path, seed: u64, size: (u16, u16), output: Output) -> String {
    let dir = level.parent().expect("the level sits in a folder");
    std::fs::remove_dir_all(dir).expect("empty the scratch folder");
    std::fs::create_dir_all(dir).expect("recreate the scratch folder");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/pillar.txt"),
        level,
    )
    .expect("copy the level");
    let parsed = script::parse(body.as_bytes(), "random.keys").expect("valid script");
    let (lvl, source) = open_level(Some(level), seed).unwrap_or_else(|e| panic!("{e}"));
    let mut app = App::new(lvl, source, seed, size);
    let mut out = Vec::new();
    script::play(&parsed, &mut app, size, output, &mut out).expect("writing to memory");
    String::from_utf8(out).expect("frames are UTF-8")
}

fn scratch_level() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let level = dir.path().join("pillar.txt");
    (dir, level)
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn random_valid_scripts_run_deterministically(
        body in valid_script(30),
        seed in prop_oneof![Just(1u64), any::<u64>()],
        size in prop_oneof![
            3 => (1u16..=120, 1u16..=50),
            1 => select(&[(1u16, 1u16), (300, 100), (80, 24), (20, 5)][..]),
        ],
        frames in select(&[Frames::Last, Frames::Snaps, Frames::All][..]),
        state in any::<bool>(),
    ) {
        let (_dir, level) = scratch_level();
        let output = Output { frames, state };
        let a = run_once(&body, &level, seed, size, output);
        let b = run_once(&body, &level, seed, size, output);
        prop_assert!(a == b, "two runs of {body:?} differ:\n{a}\n---\n{b}");
        prop_assert!(a.contains("--- frame "), "no frame printed for {body:?}: {a}");
    }
}

/// Found by `parse_token_like_noise`: after a step, a line of ideographic spaces and `#!` is
/// no header but a token and a comment, and its error points at the token.
#[test]
fn a_header_after_a_step_is_a_comment() {
    let bytes = ":#\n\u{3000}\u{3000}#!".as_bytes();
    let e = script::parse(bytes, FILE).expect_err("the spaces are no key");
    assert_eq!((e.line, e.col), (2, 1));
    check_error(bytes, &e).expect("the error is well placed");
}
