//! Issue 43's findings about kept runs, scores, morgue files and replays, each as a test
//! of the binary as a player or a designer meets it (each failed before its mend): a save
//! bounded by the run's floors, replays that write nothing and play the game they carry,
//! a tape per run, scores that escape what they print, campaign chains checked in linear
//! time, generated monsters bounded by the map, and a data folder that cannot keep runs.

use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use astar_rogue::session::save::Slot;

use crate::common::{Scratch, repo};
use crate::pty::{BIN, Pty};

const DEADLINE: Duration = Duration::from_secs(20);

/// The game on a pty, keeping runs in `data`.
fn launch(args: &[&OsStr], data: &Path) -> Pty {
    let mut full: Vec<&OsStr> = vec!["play".as_ref()];
    full.extend_from_slice(args);
    Pty::spawn(&full, &[("ASTAR_ROGUE_DATA", data.as_os_str())])
}

/// Sends `key` until the screen shows what `done` looks for: a key typed while the game
/// works on a big floor (the busy box up) is dropped, as it should be, and is sent again.
fn key_until(g: &mut Pty, key: &[u8], done: impl Fn(&[String]) -> bool) {
    let began = Instant::now();
    let mut sent = None::<Instant>;
    while !done(&g.screen()) {
        assert!(
            began.elapsed() < DEADLINE,
            "not done after {key:?}:\n{}",
            g.screen().join("\n")
        );
        if sent.is_none_or(|t| t.elapsed() > Duration::from_secs(2)) {
            g.send(key);
            sent = Some(Instant::now());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Sends `key` until the screen's first row holds `title`.
fn key_until_title(g: &mut Pty, key: &[u8], title: &str) {
    key_until(g, key, |screen| {
        screen.first().is_some_and(|row| row.contains(title))
    });
}

/// Sends keys one at a time, each once the screen shows `Turn N`.
fn turns(g: &mut Pty, keys: &[u8], turns: &[u32]) {
    for (k, t) in keys.iter().zip(turns) {
        g.send(&[*k]);
        g.wait_screen(&format!("Turn {t} "), DEADLINE);
    }
    std::thread::sleep(Duration::from_millis(100));
}

/// Waits for the game to exit and for the reader to take its last bytes.
fn exit(g: &mut Pty) -> std::process::ExitStatus {
    let status = g.wait_exit(DEADLINE);
    g.drain(DEADLINE);
    status
}

/// `astar-rogue ARGS...` with the data folder `data`.
fn run(args: &[&OsStr], data: &Path) -> Output {
    Command::new(BIN)
        .args(args)
        .env("ASTAR_ROGUE_DATA", data)
        .output()
        .unwrap()
}

/// Every file below `dir`, with its bytes, in order.
fn files(dir: &Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else {
                out.push((p.clone(), std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// Finding 1: a save holds what the run is, not its history: a floor of 2 MB visited
/// twelve times (the editor's `]` and `[`) leaves a save of at most three times the run's
/// floor files and 1 MB, where every visit stored the whole floor again (24 MB).
#[test]
fn a_save_is_bounded_by_the_runs_floors_not_its_visits() {
    let scratch = Scratch::new();
    let one = scratch.write(
        "one.txt",
        "title: Upper hall\nnext: two.txt\n#######\n#@...>#\n#######\n",
    );
    let side = 1400;
    let mut two = String::from("title: Great cavern\n");
    for y in 0..side {
        let row: String = (0..side)
            .map(|x| match (x, y) {
                (0, _) | (_, 0) => '#',
                (x, y) if x == side - 1 || y == side - 1 => '#',
                (1, 1) => '@',
                (3, 1) => 'g',
                _ => '.',
            })
            .collect();
        two.push_str(&row);
        two.push('\n');
    }
    let two = scratch.write("two.txt", two);
    let floors = std::fs::metadata(&one).unwrap().len() + std::fs::metadata(&two).unwrap().len();
    assert!(floors > 1_900_000, "{floors}");
    let data = scratch.path().join("data");
    let mut g = launch(&[one.as_os_str(), "--seed".as_ref(), "3".as_ref()], &data);
    g.wait_screen("Turn 0 ", DEADLINE);
    turns(&mut g, b".", &[1]);
    g.send(b"e");
    g.wait_screen("EDIT", DEADLINE);
    for _ in 0..12 {
        key_until_title(&mut g, b"]", "Great cavern");
        key_until_title(&mut g, b"[", "Upper hall");
    }
    // Left on the big floor: the save holds it as it stands.
    key_until_title(&mut g, b"]", "Great cavern");
    key_until(&mut g, b"\x1b", |screen| {
        !screen.iter().any(|row| row.starts_with("EDIT "))
    });
    key_until(&mut g, b"q", |screen| {
        screen.iter().any(|row| row.contains("Your run is kept"))
    });
    g.send(b"y");
    assert_eq!(exit(&mut g).code(), Some(0), "{}", g.text());
    let slot = Slot::of(&data, Some(&one.canonicalize().unwrap()));
    let size = std::fs::metadata(&slot.save).unwrap().len();
    assert!(
        size <= 3 * floors + 1024 * 1024,
        "a save of {size} bytes for floors of {floors}"
    );
}

/// Finding 5: a replay writes nothing: a script whose designer adds a floor below (`e`
/// then `N`) plays it, and the folder is as it was, however often it runs.
#[test]
fn a_script_that_adds_a_floor_creates_no_file() {
    let scratch = Scratch::new();
    scratch.copy("levels/pillar.txt");
    let script = scratch.write("floor.keys", "#! level: pillar.txt\ne N ] [ N s\n");
    let before = files(scratch.path());
    for _ in 0..3 {
        let out = run(&[OsStr::new("script"), script.as_os_str()], scratch.path());
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let frame = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(frame.contains("pillar-2.txt"), "{frame}");
    }
    assert_eq!(files(scratch.path()), before, "files made or changed");
}

/// Finding 6: a recording carries what it replays: after its level is edited (and its
/// settings file deleted), `script` plays the game that was played, and says that the
/// level beside it differs.
#[test]
fn a_recording_replays_the_same_game_after_its_files_change() {
    let scratch = Scratch::new();
    let level = scratch.copy("levels/default.txt");
    let config = scratch.write("keys.toml", "[keys.playing]\nwait = [\",\"]\n");
    let record = scratch.path().join("game.keys");
    let data = scratch.path().join("data");
    let mut g = launch(
        &[
            level.as_os_str(),
            "--seed".as_ref(),
            "4".as_ref(),
            "--record".as_ref(),
            record.as_os_str(),
            "--config".as_ref(),
            config.as_os_str(),
        ],
        &data,
    );
    g.wait_screen("Turn 0 ", DEADLINE);
    turns(&mut g, b"ll,j", &[1, 2, 3, 4]);
    g.send(b"q");
    g.wait_screen("Your run is kept", DEADLINE);
    g.send(b"y");
    assert_eq!(exit(&mut g).code(), Some(0), "{}", g.text());
    let replay = || {
        let out = run(&[OsStr::new("script"), record.as_os_str()], &data);
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, before, err) = replay();
    assert_eq!(code, Some(0), "{err}");
    assert!(before.contains("Turn 4 "), "{before}");
    assert_eq!(err, "", "the level beside it is the one it carries");
    // The level edited (a wall where the player walked) and the settings file gone.
    let text = std::fs::read_to_string(&level).unwrap();
    std::fs::write(&level, text.replace('.', "#")).unwrap();
    std::fs::remove_file(&config).unwrap();
    let (code, after, err) = replay();
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(after, before, "the same game");
    assert!(
        err.contains("default.txt differs from the level this recording carries"),
        "{err}"
    );
}

/// Finding 7: each run has its own tape: three runs ended in one session (`Q y`, then `r`)
/// leave three morgue tapes, each with its run's seed and only its run's keys.
#[test]
fn each_run_ended_in_a_session_leaves_a_tape_of_its_own() {
    let scratch = Scratch::new();
    let level = scratch.copy("levels/default.txt");
    let data = scratch.path().join("data");
    let mut g = launch(&[level.as_os_str(), "--seed".as_ref(), "7".as_ref()], &data);
    g.wait_screen("Turn 0 ", DEADLINE);
    for run in 1..=3u32 {
        let keys = vec![b'l'; run as usize];
        let want: Vec<u32> = (1..=run).collect();
        turns(&mut g, &keys, &want);
        g.send(b"Q");
        g.wait_screen("Abandon the run?", DEADLINE);
        g.send(b"y");
        g.wait_screen("in the scores", DEADLINE);
        if run < 3 {
            g.send(b"r");
            g.wait_screen("A new run begins", DEADLINE);
        }
    }
    g.send(b"q");
    assert_eq!(exit(&mut g).code(), Some(0), "{}", g.text());
    let morgue = data.join("morgue");
    let mut texts: Vec<_> = std::fs::read_dir(&morgue)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    texts.sort();
    assert_eq!(texts.len(), 3, "{texts:?}");
    let mut keys_seen = Vec::new();
    for text in &texts {
        let morgue = std::fs::read_to_string(text).unwrap();
        let seed = morgue
            .lines()
            .find_map(|l| l.strip_prefix("Seed:"))
            .unwrap()
            .trim()
            .to_string();
        let tape = std::fs::read_to_string(text.with_extension("keys")).unwrap();
        assert!(
            tape.lines().any(|l| l == format!("#! seed: {seed}")),
            "the tape of the run of seed {seed}:\n{tape}"
        );
        let keys: Vec<&str> = tape.lines().filter(|l| !l.starts_with('#')).collect();
        keys_seen.push(keys.join(" "));
    }
    keys_seen.sort();
    assert_eq!(keys_seen, ["l Q y", "l l Q y", "l l l Q y"]);
}

/// Finding 9: a campaign's chain is checked in time linear in its length: 3,000 floors
/// within 5 seconds (each floor was compared with every floor above it).
#[test]
fn a_chain_of_three_thousand_floors_checks_within_five_seconds() {
    let scratch = Scratch::new();
    let n = 3000;
    for i in 0..n {
        let next = if i + 1 < n {
            format!("next: f{}.txt\n", i + 1)
        } else {
            String::new()
        };
        let stairs = if i + 1 < n { '>' } else { '.' };
        scratch.write(
            &format!("f{i}.txt"),
            format!("{next}#####\n#@.{stairs}#\n#####\n"),
        );
    }
    let began = Instant::now();
    let out = run(
        &[
            OsStr::new("check"),
            scratch.path().join("f0.txt").as_os_str(),
        ],
        scratch.path(),
    );
    let took = began.elapsed();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(took < Duration::from_secs(5), "took {took:?}");
}

/// Finding 10: a save whose sizes were edited to 65535x65535 (its terminal's, its map's)
/// is refused with the reason (exit 2), before anything of that size is made: its replay
/// drew frames in a terminal of that size and aborted on the allocation (exit 134).
#[test]
fn a_save_with_a_huge_size_is_refused_not_aborted() {
    let scratch = Scratch::new();
    let level = scratch.copy("levels/pillar.txt");
    let data = scratch.path().join("data");
    let mut g = launch(&[level.as_os_str(), "--seed".as_ref(), "5".as_ref()], &data);
    g.wait_screen("Turn 0 ", DEADLINE);
    turns(&mut g, b"h", &[1]);
    g.send(b"qy");
    assert_eq!(exit(&mut g).code(), Some(0));
    let slot = Slot::of(&data, Some(&level.canonicalize().unwrap()));
    let edit = |edit: &dyn Fn(&str) -> String| {
        let text = std::fs::read_to_string(&slot.save).unwrap();
        let mut lines = text.splitn(3, '\n');
        let (first, _, json) = (
            lines.next().unwrap(),
            lines.next().unwrap(),
            lines.next().unwrap(),
        );
        let json = edit(json.trim_end());
        let sum = astar_rogue::session::data::fnv64(json.as_bytes());
        std::fs::write(
            &slot.save,
            format!("{first}\nchecksum fnv1a64 {sum:016x}\n{json}\n"),
        )
        .unwrap();
    };
    let good = std::fs::read(&slot.save).unwrap();
    type Edit = dyn Fn(&str) -> String;
    let terminal: &Edit = &|j| j.replace("\"size\":[80,24]", "\"size\":[65535,65535]");
    let map: &Edit = &|j| {
        j.replace("\"width\":8,", "\"width\":65535,")
            .replace("\"height\":6,", "\"height\":65535,")
    };
    for (what, change) in [("the terminal", terminal), ("the map", map)] {
        std::fs::write(&slot.save, &good).unwrap();
        edit(change);
        assert_ne!(std::fs::read(&slot.save).unwrap(), good, "{what}: edited");
        let mut g = launch(&[level.as_os_str()], &data);
        let status = exit(&mut g);
        let text = g.text();
        assert_eq!(status.code(), Some(2), "{what}: {text}");
        assert!(text.contains("cannot be resumed"), "{what}: {text}");
        assert!(text.contains("65535"), "{what}: {text}");
    }
}

/// Finding 11: `scores` escapes every field it prints (an outcome, a killer or a level
/// that holds an escape sequence or a right-to-left override).
#[test]
fn scores_escape_every_field() {
    let scratch = Scratch::new();
    let line = r#"{"outcome":"dead\u001b[2J","killer":"troll\u202e","depth":1,"final_depth":1,"turns":3,"kills":0,"dealt":0,"taken":0,"drunk":0,"seed":1,"level":"x\u001b]0;t\u0007.txt","date":0}"#;
    scratch.write("scores.jsonl", format!("{line}\n"));
    let out = run(&[OsStr::new("scores")], scratch.path());
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{202e}') && !text.contains('\u{7}'),
        "{text:?}"
    );
    assert!(text.contains("\\u{1b}"), "{text:?}");
}

/// `astar-rogue generate ARGS... -o OUT`, waited for at most ten seconds: its exit code
/// and standard error.
fn generate_within_ten_seconds(args: &[&str], out: &Path) -> (Option<i32>, String) {
    let mut child = Command::new(BIN)
        .arg("generate")
        .args(args)
        .arg("-o")
        .arg(out)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let began = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if began.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("generate {args:?} still at work after 10 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    (status.code(), err)
}

/// Finding 12: `generate --monsters` is bounded by the map: as many monsters as a map of a
/// million cells has room for are placed in seconds (each cell of its terrain looked
/// through every monster: minutes), and more than it has room for are refused at once.
#[test]
fn generating_as_many_monsters_as_the_map_holds_takes_seconds() {
    let scratch = Scratch::new();
    let out = scratch.path().join("crowd.txt");
    let (code, err) =
        generate_within_ten_seconds(&["--size", "1024x1024", "--monsters", "300000"], &out);
    assert_eq!(code, Some(0), "{err}");
    let text = std::fs::read_to_string(&out).unwrap();
    let monsters = text.chars().filter(|c| c.is_ascii_lowercase()).count();
    assert!(monsters >= 300_000, "{monsters}");
    let (code, err) = generate_within_ten_seconds(
        &["--size", "1024x1024", "--monsters", "1000000"],
        &scratch.path().join("more.txt"),
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("cannot place 1000000 monsters"), "{err}");
    assert!(!scratch.path().join("more.txt").exists());
}

/// Finding 12: a data folder where runs cannot be kept (here its `saves` is a file) plays
/// with runs not kept and says so, as a missing home does, instead of refusing all play.
#[test]
fn a_data_folder_that_cannot_keep_runs_plays_without_keeping_them() {
    let scratch = Scratch::new();
    let level = scratch.copy("levels/pillar.txt");
    let data = scratch.path().join("data");
    std::fs::create_dir(&data).unwrap();
    std::fs::write(data.join("saves"), "not a folder\n").unwrap();
    let mut g = launch(&[level.as_os_str()], &data);
    g.wait_screen("Turn 0 ", DEADLINE);
    turns(&mut g, b"h", &[1]);
    g.send(b"q");
    g.wait_screen("Quit?", DEADLINE);
    g.send(b"y");
    assert_eq!(exit(&mut g).code(), Some(0), "{}", g.text());
    assert!(g.text().contains("Runs are not kept"), "{}", g.text());
    assert_eq!(
        std::fs::read_to_string(data.join("saves")).unwrap(),
        "not a folder\n"
    );
    let _ = repo("levels/pillar.txt");
}

/// A format 1 save of a run on `level` whose recording is `tape` and whose journal of the
/// disk's answers is `io`, the run having begun with the recovered edits `recovered` (a
/// recovery file and its bytes), if any.
fn legacy_save(
    level: &Path,
    tape: &[&str],
    io: Vec<astar_rogue::session::Io>,
    recovered: Option<(&Path, &[u8])>,
) -> astar_rogue::session::save::LegacySave {
    let bytes = std::fs::read(level).unwrap();
    astar_rogue::session::save::LegacySave {
        game: astar_rogue::session::save::GAME.into(),
        level: Some(level.to_path_buf()),
        seen: Some(astar_rogue::session::save::seen_hash(&bytes)),
        level_bytes: Some(bytes),
        seed: 5,
        run_seed: 5,
        planning: "astar".into(),
        fresh_runs: true,
        settings: None,
        settings_file: None,
        recovery_file: recovered.map(|(p, _)| p.to_path_buf()),
        recovery_bytes: recovered.map(|(_, b)| b.to_vec()),
        size: (80, 24),
        tape: tape.iter().map(|t| t.to_string()).collect(),
        io,
        check: String::new(),
        turn: 1,
        depth: 1,
        name: "pillar.txt".into(),
        saved: 0,
    }
}

/// Finding 3: a resume that the save cannot carry through (its journal of the disk's
/// answers runs short) is refused before it has written anything: a replayed save of the
/// level and a replayed new floor below fell back on the disk and wrote them.
#[test]
fn a_resume_refused_has_written_nothing() {
    let scratch = Scratch::new();
    let level = scratch.copy("levels/pillar.txt");
    let before = files(scratch.path());
    let save = legacy_save(
        &level,
        &["h", ".", "e", "k", "w", "s", "N"],
        Vec::new(),
        None,
    );
    let Err(e) = astar_rogue::frontend::keep::rebuild(&save) else {
        panic!("a journal that runs short cannot be carried through")
    };
    assert!(e.to_string().contains("does not come back"), "{e}");
    assert_eq!(files(scratch.path()), before, "written before refusing");
}

/// Finding 4: a resume never removes a recovery file: a run that began with recovered
/// edits and saved them had its replay delete the recovery file again.
#[test]
fn a_resume_never_removes_a_recovery_file() {
    use astar_rogue::session::Io;
    let scratch = Scratch::new();
    let level = scratch.copy("levels/pillar.txt");
    let edited = std::fs::read_to_string(&level)
        .unwrap()
        .replacen("........\n", "...#....\n", 1);
    let recovery = scratch.write(".pillar.txt.astar-rogue-recover", &edited);
    let io = vec![
        Io::Chain(None),
        Io::Changed(false),
        Io::Writer(None),
        Io::Write(None),
    ];
    let save = legacy_save(&level, &["s"], io, Some((&recovery, edited.as_bytes())));
    let before = files(scratch.path());
    // Whether it comes back to its check or not, the files are as they were.
    let _ = astar_rogue::frontend::keep::rebuild(&save);
    assert!(recovery.exists(), "the recovery file was removed");
    assert_eq!(files(scratch.path()), before);
}

/// The level changed on disk (a time in the past, so the next reload takes it at once)
/// while the game has unsaved edits: the question which to keep is asked.
fn changed_under_edits(app: &mut astar_rogue::app::App, level: &Path) -> String {
    crate::common::frame(app, "e k w");
    assert!(app.session().unsaved());
    let text = std::fs::read_to_string(level).unwrap();
    std::fs::write(level, text.replacen("........\n", "..#.....\n", 1)).unwrap();
    let f = std::fs::File::options().append(true).open(level).unwrap();
    f.set_modified(std::time::SystemTime::now() - Duration::from_secs(5))
        .unwrap();
    drop(f);
    let frame = crate::common::frame(app, "reload");
    assert!(app.screen().question().is_some(), "{frame}");
    frame
}

/// A designer's finding: over the editor, the side panel of the "changed on disk"
/// question gives that question's answers, not the y, n and s of other questions, which
/// do nothing there.
#[test]
fn the_changed_on_disk_panel_gives_its_own_answers() {
    let scratch = Scratch::new();
    let level = scratch.copy("levels/pillar.txt");
    let mut app = crate::common::app(&level, 5, (100, 30));
    let frame = changed_under_edits(&mut app, &level);
    // The side panel: the columns right of the map's frame.
    let panel: Vec<String> = frame
        .lines()
        .map(|l| l.chars().skip(60).collect::<String>())
        .collect();
    let panel = panel.join("\n");
    assert!(panel.contains("the file's"), "{panel}");
    for stray in ["yes", "save and quit"] {
        assert!(!panel.contains(stray), "{stray:?} in\n{panel}");
    }
}

/// A designer's finding: after keeping the game's edits over the file's (`k`), undoing
/// them all does not make the design clean: it still differs from the file, so the title
/// keeps `[unsaved]` (it dropped it while the map showed the old design).
#[test]
fn undoing_back_after_keeping_ones_edits_stays_unsaved() {
    let scratch = Scratch::new();
    let level = scratch.copy("levels/pillar.txt");
    let mut app = crate::common::app(&level, 5, (100, 30));
    changed_under_edits(&mut app, &level);
    let frame = crate::common::frame(&mut app, "k U");
    assert!(app.session().unsaved(), "{frame}");
    assert!(
        frame.lines().nth(1).unwrap().contains("[unsaved]"),
        "{frame}"
    );
}

/// A designer's finding: two saves with an edit between them are two lines of the log,
/// not `Saved ... x2`; and placing a second monster says the goal again (it stayed "Kill
/// the monster").
#[test]
fn saves_with_edits_between_stay_apart_and_the_goal_follows_the_monsters() {
    let scratch = Scratch::new();
    let level = scratch.copy("levels/pillar.txt");
    let mut app = crate::common::app(&level, 5, (100, 30));
    app.session_mut().set_replay(true);
    crate::common::frame(&mut app, "e s k w s s");
    let texts: Vec<String> = app.world().log().iter().map(|m| m.to_string()).collect();
    let saved: Vec<&String> = texts.iter().filter(|t| t.starts_with("Saved")).collect();
    assert_eq!(
        saved,
        [
            "Saved pillar.txt (a replay: nothing written).",
            "Saved pillar.txt (a replay: nothing written). x2"
        ],
        "{texts:#?}"
    );
    crate::common::frame(&mut app, "k m g");
    let last = app.world().log().last().unwrap().to_string();
    assert_eq!(last, "Kill the 2 monsters to win the run (depth 1 of 1).");
}

/// A test writer's finding: `test`'s failure names, for each hunk, the input and script
/// line that made its first difference (the frame above it named the step before), and
/// tells a state line's difference field by field (it showed two lines of JSON).
#[test]
fn a_failed_test_names_the_input_that_made_the_difference_and_its_fields() {
    let scratch = Scratch::new();
    std::fs::create_dir(scratch.path().join("levels")).unwrap();
    std::fs::copy(
        repo("tests/levels/troll.txt"),
        scratch.path().join("levels/troll.txt"),
    )
    .unwrap();
    let dir = scratch.path().join("t");
    std::fs::create_dir(&dir).unwrap();
    std::fs::copy(repo("tests/scripts/combat.snap"), dir.join("combat.snap")).unwrap();
    // One wait where the recorded script attacked.
    std::fs::write(
        dir.join("combat.keys"),
        "#! level: ../levels/troll.txt\n#! size: 60x16\n#! seed: 3\nl . snap:fighting\n20*. snap:dead\nr snap:restarted\n",
    )
    .unwrap();
    let out = run(&[OsStr::new("test"), dir.as_os_str()], scratch.path());
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    let first = text.lines().find(|l| l.contains("@@")).unwrap();
    assert!(first.ends_with("combat.keys:4"), "{first}\n{text}");
    assert!(first.contains("from token 2 at "), "{first}");
    assert!(text.contains("      ~ player.hp: 24 -> 25"), "{text}");
}
