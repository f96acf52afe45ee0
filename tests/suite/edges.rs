//! Issue 30, robust at the new edges: recordings, `test`, half-written outside edits, input
//! floods, long lines, stopped terminals, no terminal, recovery files. Each numbered item of
//! the issue has a test here (the terminal ones are in `terminal.rs`).

use crate::common;

use std::time::{Duration, Instant};

use common::Scratch;

/// Item 6: a message of a megabyte without a space is wrapped only as far as it shows,
/// in the log at any size and in the history, and its cut is marked.
#[test]
fn a_megabyte_message_draws_at_once_and_its_cut_is_marked() {
    let dir = Scratch::new();
    let text = format!(
        "title: Long\nmessage: {}\n........\n..g.#.@.\n........\n",
        "x".repeat(1_000_000)
    );
    let level = dir.write("long.txt", text);
    for size in [(100, 32), (40, 12)] {
        let mut app = common::app(&level, 1, size);
        let began = Instant::now();
        let frame = common::frame(&mut app, "snap");
        let history = common::frame(&mut app, "C-p");
        let took = began.elapsed();
        assert!(took < Duration::from_secs(2), "{size:?}: {took:?}");
        let rows: Vec<&str> = frame.lines().collect();
        // The log's last row: the message, cut with the mark at the right edge.
        let last_log_row = rows[rows.len() - 2];
        assert!(
            last_log_row.trim_end().ends_with("x…"),
            "{size:?}: {last_log_row:?}\n{frame}"
        );
        assert!(
            history.lines().any(|l| l.trim_end().ends_with("x…│")),
            "{size:?}:\n{history}"
        );
    }
}

/// Item 4: a million tokens on one line parse in linear time (the column of each token
/// was counted from the start of the line: 43 s in release for this line).
#[test]
fn a_million_tokens_on_one_line_parse_in_linear_time() {
    use astar_rogue::frontend::script;
    let line = ". ".repeat(1_000_000) + "Bogus";
    let began = Instant::now();
    let e = script::parse(line.as_bytes(), "one.keys").unwrap_err();
    assert_eq!((e.line, e.col), (1, 2_000_001), "{e}");
    let good = script::parse(". ".repeat(1_000_000).as_bytes(), "one.keys").unwrap();
    assert_eq!(good.steps.len(), 1_000_000);
    assert_eq!(good.steps[999_999].token, 1_000_000);
    let took = began.elapsed();
    assert!(took < Duration::from_secs(5), "{took:?}");
}

/// The first line of every recording.
const RECORDING_MARK: &str =
    "# Recorded by `astar-rogue play --record`; replay: astar-rogue script FILE\n";

/// Item 1: `--record` follows the save rules. A link named `.keys` to a level, a
/// hand-written script with its `.snap`, a read-only recording, a FIFO and a link to
/// nothing are all refused, with or without `--force`, and left as they were; an existing
/// recording is replaced only with `--force`, atomically once the new header is written.
#[test]
fn recording_never_replaces_anything_but_an_earlier_recording_and_only_when_forced() {
    use astar_rogue::frontend::record::Recorder;
    use std::os::unix::fs::{PermissionsExt, symlink};
    let dir = Scratch::new();
    let level = dir.copy("levels/pillar.txt");
    let level_text = std::fs::read(&level).unwrap();
    let record = |file: &std::path::Path, force: bool| {
        Recorder::new(Some(&level), 1, Some(file), force).map(|mut r| {
            r.start((80, 24));
            r.finish();
        })
    };
    // A link named like a recording, to the level.
    let link = dir.path().join("link.keys");
    symlink(&level, &link).unwrap();
    for force in [false, true] {
        let e = record(&link, force).unwrap_err();
        assert!(e.to_string().contains("nothing was written"), "{e}");
        assert_eq!(std::fs::read(&level).unwrap(), level_text, "force {force}");
    }
    // A hand-written script guarded by its snapshot.
    let script = dir.write("guard.keys", "#! level: pillar.txt\nl\n");
    dir.write("guard.snap", "---\n---\nx\n");
    for force in [false, true] {
        assert!(record(&script, force).is_err());
        assert_eq!(
            std::fs::read_to_string(&script).unwrap(),
            "#! level: pillar.txt\nl\n"
        );
    }
    // A FIFO: refused at once, never opened for writing.
    let fifo = dir.path().join("pipe.keys");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
    let e = record(&fifo, true).unwrap_err();
    assert!(e.to_string().contains("a FIFO"), "{e}");
    // A link to nothing.
    let dangling = dir.path().join("dangling.keys");
    symlink(dir.path().join("nowhere.keys"), &dangling).unwrap();
    assert!(record(&dangling, true).is_err());
    assert!(!dir.path().join("nowhere.keys").exists());

    // A new file is created; recording over it again needs --force.
    let game = dir.path().join("game.keys");
    record(&game, false).unwrap();
    let first = std::fs::read_to_string(&game).unwrap();
    assert!(first.starts_with(RECORDING_MARK), "{first}");
    let e = record(&game, false).unwrap_err();
    assert!(e.to_string().contains("--force"), "{e}");
    // Forced, the old recording stays whole until the new header is written.
    std::fs::write(&game, format!("{RECORDING_MARK}# the old one\n")).unwrap();
    let mut r = Recorder::new(Some(&level), 1, Some(&game), true).unwrap();
    assert!(
        std::fs::read_to_string(&game)
            .unwrap()
            .contains("# the old one")
    );
    r.start((80, 24));
    r.finish();
    let now = std::fs::read_to_string(&game).unwrap();
    assert!(
        now.starts_with(RECORDING_MARK) && !now.contains("# the old one"),
        "{now}"
    );
    // Through a link to a recording: written through, the link stays.
    let to_game = dir.path().join("to-game.keys");
    symlink(&game, &to_game).unwrap();
    record(&to_game, true).unwrap();
    assert!(
        std::fs::symlink_metadata(&to_game)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    // A read-only recording is refused even with --force (and even for root).
    std::fs::set_permissions(&game, std::fs::Permissions::from_mode(0o444)).unwrap();
    let before = std::fs::read(&game).unwrap();
    let e = record(&game, true).unwrap_err();
    assert!(e.to_string().contains("read-only"), "{e}");
    assert_eq!(std::fs::read(&game).unwrap(), before);
    // No temporary file is left behind by any of it.
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// Item 13: level names with a leading space or a newline are written quoted in a
/// recording's header and read back exactly, so the recording replays.
#[test]
fn recordings_of_levels_with_odd_names_replay() {
    use astar_rogue::frontend::record::Recorder;
    use astar_rogue::frontend::script::{self, RunOptions};
    use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
    let dir = Scratch::new();
    let pillar = std::fs::read(common::repo("levels/pillar.txt")).unwrap();
    for name in [
        " lead.txt",
        "new\nline.txt",
        "x.txt \"q\"",
        "back\\slash\u{202e}.txt",
    ] {
        let level = dir.write(name, &pillar);
        let keys = dir.path().join("odd.keys");
        let _ = std::fs::remove_file(&keys);
        let mut r = Recorder::new(Some(&level), 1, Some(&keys), false).unwrap();
        r.start((80, 24));
        r.event(&Event::Key(KeyEvent::new(
            KeyCode::Char('l'),
            KeyModifiers::NONE,
        )));
        r.finish();
        let mut out = Vec::new();
        script::run_file(&keys, &RunOptions::default(), &mut out).unwrap_or_else(|e| {
            panic!(
                "{name:?}: {e}\n{}",
                std::fs::read_to_string(&keys).unwrap_or_default()
            )
        });
        let out = String::from_utf8(out).unwrap();
        assert!(
            out.contains("Pillar (8x6)") && out.contains("Turn 1"),
            "{name:?}: {out}"
        );
    }
}

/// Item 14: stale temporary files are matched by the exact name of the file saved: saving
/// `r13.txt` leaves those of `r1` (and of `r1.txt`) alone; saving `r1` cleans its own.
#[test]
fn stale_temporary_files_are_matched_by_the_exact_name() {
    use astar_rogue::app::write_atomic;
    let dir = Scratch::new();
    let of = |name: &str| {
        dir.write(
            &format!(".{name}.astar-rogue-4000000000-0123456789abcdef.tmp"),
            "x",
        )
    };
    let (r1, r1_txt, r13) = (of("r1"), of("r1.txt"), of("r13.txt"));
    write_atomic(&dir.path().join("r13.txt"), b"new\n").unwrap();
    assert!(!r13.exists(), "its own stale file goes");
    assert!(r1.exists() && r1_txt.exists(), "those of other names stay");
    write_atomic(&dir.path().join("r1"), b"new\n").unwrap();
    assert!(!r1.exists() && r1_txt.exists());
}

const BIN: &str = env!("CARGO_BIN_EXE_astar-rogue");

/// Runs the binary with no standard input, in `dir`.
fn run_in(dir: &std::path::Path, args: &[&std::ffi::OsStr]) -> std::process::Output {
    std::process::Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .env_remove("ASTAR_ROGUE_PANIC")
        .env_remove("NO_COLOR")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run astar-rogue")
}

/// Item 12 (check): a right-to-left override in a title is escaped like a control
/// character, so it cannot reorder what the terminal shows.
#[test]
fn check_escapes_bidirectional_controls_in_a_title() {
    let dir = Scratch::new();
    let level = dir.write("rtl.txt", "title: abc\u{202e}gnp.exe\n.@g.\n");
    let out = run_in(dir.path(), &["check".as_ref(), level.as_os_str()]);
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("\"abc\\u{202e}gnp.exe\""), "{stdout:?}");
    assert!(!stdout.contains('\u{202e}'), "{stdout:?}");
}

/// Item 3: replaying a recording that saves (`script`) writes no level file, neither the
/// level nor a generated one nor a blank one (`C-n`), and says so in the log;
/// `--allow-saves` asks for the writes.
#[test]
fn replays_show_saves_in_the_log_and_write_nothing_unless_asked() {
    let dir = Scratch::new();
    let level = dir.copy("levels/pillar.txt");
    let before = std::fs::read(&level).unwrap();
    dir.write(
        "bug.keys",
        format!("{RECORDING_MARK}#! level: pillar.txt\n#! size: 80x24\ne k w e s\nG s\nC-n s\n"),
    );
    let files = || {
        let mut names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    let listed = files();
    let out = run_in(
        dir.path(),
        &[
            "script".as_ref(),
            "bug.keys".as_ref(),
            "--frames".as_ref(),
            "all".as_ref(),
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let frames = String::from_utf8(out.stdout).unwrap();
    assert!(
        frames.contains("Saved pillar.txt (a replay: nothing written)."),
        "{frames}"
    );
    assert!(
        frames.contains("-seed2.txt (a replay: nothing written)."),
        "{frames}"
    );
    assert!(
        frames.contains("Saved blank-") && frames.contains(".txt (a replay: nothing written)."),
        "{frames}"
    );
    assert_eq!(
        std::fs::read(&level).unwrap(),
        before,
        "the level is untouched"
    );
    assert_eq!(files(), listed, "no file was made");
    let out = run_in(
        dir.path(),
        &[
            "script".as_ref(),
            "bug.keys".as_ref(),
            "--allow-saves".as_ref(),
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_ne!(std::fs::read(&level).unwrap(), before, "asked for: saved");
    assert_eq!(
        files().len(),
        listed.len() + 2,
        "and the generated and blank levels too"
    );
}

/// Runs the binary in `dir` with `TMPDIR` set to `tmp`; a run past `deadline` is killed and
/// fails the test (a reader that blocks would hang here).
fn run_bounded(
    dir: &std::path::Path,
    tmp: &std::path::Path,
    args: &[&std::ffi::OsStr],
    deadline: Duration,
) -> std::process::Output {
    use std::process::{Command, Stdio};
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .env("TMPDIR", tmp)
        .env_remove("ASTAR_ROGUE_PANIC")
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run astar-rogue");
    let began = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if began.elapsed() > deadline {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "{args:?} still running after {deadline:?}: {}",
                String::from_utf8_lossy(&out.stdout)
            );
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    child.wait_with_output().unwrap()
}

fn entries(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect()
}

/// Items 7 and 10: every reader of `test` is bounded and never blocks. A `#! level:` that is
/// a FIFO, a NAME.snap that is a FIFO (with and without --bless) or a link to /dev/zero, and
/// a 2 GB sparse level are each reported at once, and nothing is left in the temporary
/// folder (the big level is never copied into it).
#[test]
fn test_refuses_fifos_devices_and_huge_levels_at_once_and_leaves_no_scratch() {
    use nix::sys::stat::Mode;
    let dir = Scratch::new();
    let tmp = Scratch::new();
    dir.copy("levels/pillar.txt");
    nix::unistd::mkfifo(&dir.path().join("pipe.txt"), Mode::S_IRWXU).unwrap();
    dir.write("fifo-level.keys", "#! level: pipe.txt\nl\n");
    dir.write("fifo-snap.keys", "#! level: pillar.txt\nl\n");
    nix::unistd::mkfifo(&dir.path().join("fifo-snap.snap"), Mode::S_IRWXU).unwrap();
    dir.write("zero.keys", "#! level: pillar.txt\nl\n");
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("zero.snap")).unwrap();
    let sparse = std::fs::File::create(dir.path().join("sparse.txt")).unwrap();
    sparse.set_len(2 << 30).unwrap();
    dir.write("sparse.keys", "#! level: sparse.txt\nl\n");
    for bless in [false, true] {
        let mut args = vec!["test".as_ref(), dir.path().as_os_str()];
        if bless {
            args.push("--bless".as_ref());
        }
        let out = run_bounded(dir.path(), tmp.path(), &args, Duration::from_secs(10));
        let report = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "bless {bless}: {report}");
        for expected in [
            "pipe.txt: is a FIFO, not a level file",
            "fifo-snap.snap: is a FIFO, not a snapshot file",
            "zero.snap: is a device, not a snapshot file",
            "sparse.txt:1:1: level file is larger than the limit of 64 MiB",
        ] {
            assert!(
                report.contains(expected),
                "bless {bless}: no {expected:?} in {report}"
            );
        }
        assert!(entries(tmp.path()).is_empty(), "{:?}", entries(tmp.path()));
    }
}

/// Item 10: `test` interrupted by a signal removes its scratch folder and exits with
/// 128 + the signal's number.
#[test]
fn an_interrupted_test_removes_its_scratch_folder() {
    let dir = Scratch::new();
    let tmp = Scratch::new();
    let made = std::process::Command::new(BIN)
        .args([
            "generate",
            "--kind",
            "caves",
            "--size",
            "200x100",
            "--monsters",
            "60",
            "-o",
        ])
        .arg(dir.path().join("cave.txt"))
        .status()
        .unwrap();
    assert!(made.success());
    dir.write("slow.keys", "#! level: cave.txt\n1000000*. 1000000*.\n");
    for signal in [
        nix::sys::signal::Signal::SIGTERM,
        nix::sys::signal::Signal::SIGINT,
    ] {
        let mut child = std::process::Command::new(BIN)
            .args(["test".as_ref(), dir.path().join("slow.keys").as_os_str()])
            .env("TMPDIR", tmp.path())
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let began = Instant::now();
        while entries(tmp.path()).is_empty() {
            assert!(
                began.elapsed() < Duration::from_secs(10),
                "no scratch folder"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        std::thread::sleep(Duration::from_millis(100));
        nix::sys::signal::kill(nix::unistd::Pid::from_raw(child.id() as i32), signal).unwrap();
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(128 + signal as i32), "{signal}");
        assert!(
            entries(tmp.path()).is_empty(),
            "{signal}: {:?}",
            entries(tmp.path())
        );
    }
}

/// Item 12: `test` prints file names and the lines of a hand-edited `.snap` escaped: no
/// escape sequence, newline or bidirectional control from a name or a file reaches the
/// terminal.
#[test]
fn test_escapes_names_and_snapshot_lines() {
    let dir = Scratch::new();
    let tmp = Scratch::new();
    dir.copy("levels/pillar.txt");
    let name = "evil\u{1b}]0;PWNED\u{7}\n\u{202e}x";
    dir.write(
        &format!("{name}.keys"),
        "#! level: pillar.txt\n#! size: 40x12\nl\n",
    );
    let out = run_bounded(
        dir.path(),
        tmp.path(),
        &["test".as_ref(), ".".as_ref(), "--bless".as_ref()],
        Duration::from_secs(10),
    );
    let report = String::from_utf8(out.stdout).unwrap();
    assert!(
        report.contains("blessed ./evil\\u{1b}]0;PWNED\\u{7}\\n\\u{202e}x.keys -> ./evil"),
        "{report}"
    );
    // A hand edit puts a title change and a clear-screen into the expected frame.
    let snap = dir.path().join(format!("{name}.snap"));
    let text = std::fs::read_to_string(&snap).unwrap();
    let edited = text.replacen("Turn 1", "\u{1b}]0;PWNED\u{7}\u{1b}[2J\u{202e}", 1);
    assert_ne!(edited, text);
    std::fs::write(&snap, edited).unwrap();
    let out = run_bounded(
        dir.path(),
        tmp.path(),
        &["test".as_ref()],
        Duration::from_secs(10),
    );
    assert_eq!(out.status.code(), Some(1));
    let report = String::from_utf8(out.stdout).unwrap();
    assert!(report.contains("--- expected ./evil\\u{1b}"), "{report}");
    assert!(
        report.contains("\\u{1b}]0;PWNED\\u{7}\\u{1b}[2J\\u{202e}"),
        "{report}"
    );
    for bad in ['\u{1b}', '\u{7}', '\u{202e}'] {
        assert!(!report.contains(bad), "{bad:?} in {report:?}");
    }
    assert!(
        report.lines().all(|l| !l.starts_with("x.keys")),
        "a newline got through: {report}"
    );
}

/// Item 15: a FIFO where the exact costs (`.1014`) go is refused, not taken for "no exact
/// costs"; help and version written to a full disk fail; `generate -o -` is standard output.
#[test]
fn smaller_edges_fifo_exact_costs_help_on_a_full_disk_and_dash_output() {
    let dir = Scratch::new();
    let tmp = Scratch::new();
    dir.copy("tests/data/movingai/arena.map");
    let scen = dir.copy("tests/data/movingai/arena.map.scen");
    nix::unistd::mkfifo(
        &dir.path().join("arena.map.scen.1014"),
        nix::sys::stat::Mode::S_IRWXU,
    )
    .unwrap();
    let out = run_bounded(
        dir.path(),
        tmp.path(),
        &["scen".as_ref(), scen.as_os_str()],
        Duration::from_secs(10),
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("arena.map.scen.1014: is a FIFO, not a file of exact costs"),
        "{err}"
    );

    for args in [
        &["--help"][..],
        &["--version"],
        &["generate", "--help"],
        &["help"],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = std::process::Command::new(BIN)
            .args(args)
            .stdout(full)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("No space left on device"),
            "{args:?}"
        );
    }

    let out = run_in(
        dir.path(),
        &["generate", "--size", "10x5", "-o", "-"].map(std::ffi::OsStr::new),
    );
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("title: caves 10x5 seed 1\n"));
    assert!(!dir.path().join("-").exists(), "no file named -");
}

/// Runs the binary, draining its output, and returns the peak resident memory it reached
/// (sampled from /proc: the high-water mark only grows, and the output at the end of the
/// run takes a while to stream, so the last sample is the peak).
fn peak_memory(args: &[&std::ffi::OsStr]) -> u64 {
    use std::io::Read;
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    let mut child = std::process::Command::new(BIN)
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let status = format!("/proc/{}/status", child.id());
    let (done, peak) = (
        std::sync::Arc::new(AtomicBool::new(false)),
        std::sync::Arc::new(AtomicU64::new(0)),
    );
    let sampler = {
        let (done, peak) = (done.clone(), peak.clone());
        std::thread::spawn(move || {
            while !done.load(Ordering::SeqCst) {
                let kb = std::fs::read_to_string(&status)
                    .ok()
                    .and_then(|s| {
                        let line = s.lines().find(|l| l.starts_with("VmHWM:"))?.to_string();
                        line.split_whitespace().nth(1)?.parse::<u64>().ok()
                    })
                    .unwrap_or(0);
                peak.fetch_max(kb * 1024, Ordering::SeqCst);
                std::thread::sleep(Duration::from_millis(2));
            }
        })
    };
    let mut out = child.stdout.take().unwrap();
    let mut buf = vec![0u8; 1 << 16];
    let mut printed = 0;
    while let Ok(n @ 1..) = out.read(&mut buf) {
        printed += n;
    }
    assert!(child.wait().unwrap().success());
    done.store(true, Ordering::SeqCst);
    sampler.join().unwrap();
    assert!(printed > 0);
    peak.load(Ordering::SeqCst)
}

/// Item 11: `path --json --trace` costs memory in proportion to the map, not to the
/// events: on a 1024x1024 Dijkstra search that touches every cell, the trace adds less than
/// 48 bytes a cell to the plain run (the list of events and its replay added over 150).
#[test]
fn a_traced_search_costs_memory_in_proportion_to_the_map() {
    let dir = Scratch::new();
    let side = 1024;
    let mut rows = vec![".".repeat(side); side];
    rows[0].replace_range(0..1, "g");
    rows[side - 1].replace_range(side - 1..side, "@");
    let level = dir.write("open.txt", rows.join("\n") + "\n");
    let args = |trace: bool| {
        let mut a: Vec<&std::ffi::OsStr> = ["path".as_ref(), level.as_os_str()].to_vec();
        a.extend(["--heuristic", "zero", "--json"].map(std::ffi::OsStr::new));
        if trace {
            a.push("--trace".as_ref());
        }
        a
    };
    let plain = peak_memory(&args(false));
    let traced = peak_memory(&args(true));
    let cells = (side * side) as u64;
    assert!(
        traced < plain + 48 * cells,
        "plain {plain} bytes, traced {traced} bytes: {} bytes a cell more",
        (traced.saturating_sub(plain)) / cells
    );
}

/// Item 2: a half-written outside edit is never taken. A writer truncates the level, writes
/// part of it and pauses with the file open: the game waits (and says so), and a save asks
/// before overwriting what it has not read; once the writer is done and the file has
/// settled, the game takes the whole file.
#[test]
fn a_half_written_outside_edit_is_never_loaded_or_saved_over() {
    use astar_rogue::app::{Confirm, DISK_SETTLE, DiskPoll};
    use std::io::Write;
    let dir = Scratch::new();
    let path = dir.copy("levels/default.txt");
    let mut app = common::app(&path, 1, (80, 24));
    let title = app.session().design().level().title.clone();
    let new = std::fs::read_to_string(&path)
        .unwrap()
        .replacen("title: ", "title: Rewritten ", 1);
    let (head, tail) = new.as_bytes().split_at(new.len() * 5 / 8);
    let mut writer = std::fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(&path)
        .unwrap();
    writer.write_all(head).unwrap();
    writer.flush().unwrap();
    assert_eq!(app.poll_disk(), DiskPoll::Quiet, "a fresh change waits");
    std::thread::sleep(DISK_SETTLE + Duration::from_millis(100));
    assert_eq!(
        app.poll_disk(),
        DiskPoll::Waiting,
        "the writer still has it open"
    );
    let said = &app.world().log().last().unwrap().text;
    assert!(
        said.starts_with("default.txt is being written by another program (process "),
        "{said}"
    );
    assert_eq!(app.poll_disk(), DiskPoll::Quiet, "said once");
    assert_eq!(
        app.session().design().level().title,
        title,
        "the fragment is not taken"
    );
    // A save now would put the game's level over the writer's file: it asks.
    common::frame(&mut app, "s");
    assert_eq!(app.screen().question().cloned(), Some(Confirm::Overwrite));
    common::frame(&mut app, "n");
    assert_eq!(std::fs::read(&path).unwrap(), head);
    writer.write_all(tail).unwrap();
    drop(writer);
    assert_eq!(
        app.poll_disk(),
        DiskPoll::Quiet,
        "just written: not settled yet"
    );
    std::thread::sleep(DISK_SETTLE + Duration::from_millis(100));
    assert_eq!(app.poll_disk(), DiskPoll::Reloaded);
    assert_eq!(
        app.session().design().level().title.as_deref(),
        Some(format!("Rewritten {}", title.unwrap()).as_str())
    );
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        new,
        "the writer's file is whole"
    );
}
