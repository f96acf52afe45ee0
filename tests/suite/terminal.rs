//! The real binary under a pseudo-terminal: whether it quits, is interrupted, is ended by a
//! signal, is suspended with Ctrl-Z or SIGTSTP, or panics, it must leave the alternate screen,
//! disable mouse capture and turn raw mode off (and take them again on SIGCONT), and exit with
//! the right status. Also: NO_COLOR, long turns that keep answering keys, and recordings
//! whose replay ends on the frame the screen showed (read back with the vt100 crate).
//!
//! Each test starts `astar-rogue play` (a scratch copy of levels/pillar.txt unless it says
//! otherwise) on a pty of its own ([`crate::pty`]) and reads the pty's termios from the slave
//! side (which the test keeps open) before, during and after the game. Every wait has a
//! deadline; a child still running at the end is killed.

use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use nix::pty::{Winsize, openpty};
use nix::sys::signal::Signal;
use nix::sys::termios::{LocalFlags, Termios, tcgetattr};

use crate::pty::{self, BIN, Pty};
/// The longest any one wait may take; a passing test takes well under a second.
const DEADLINE: Duration = Duration::from_secs(10);

const ENTER_ALT: &str = "\x1b[?1049h";
const LEAVE_ALT: &str = "\x1b[?1049l";
/// Mouse capture as the game asks for it: buttons and drags (1000, 1002) in SGR (1015, 1006),
/// never any-motion tracking (1003, which crossterm's `EnableMouseCapture` adds).
const MOUSE_ON: &str = "\x1b[?1000h\x1b[?1002h\x1b[?1015h\x1b[?1006h";
/// crossterm 0.29 `DisableMouseCapture`, byte for byte.
const MOUSE_OFF: &str = "\x1b[?1006l\x1b[?1015l\x1b[?1003l\x1b[?1002l\x1b[?1000l";
/// The last word of the first frame (its key hints row): the game is drawn and reading keys.
const READY: &str = "quit";

/// The game running on a pty.
struct Session {
    pty: Pty,
    /// A scratch folder holding the level, when the session made one (crash files land
    /// beside the level, never in the repository).
    _scratch: Option<tempfile::TempDir>,
    /// The data folder the game keeps its runs in.
    _data: tempfile::TempDir,
}

/// What a finished session left behind.
struct Finished {
    status: ExitStatus,
    /// Everything the child wrote to the terminal (standard output and standard error).
    output: String,
    before: Termios,
    after: Termios,
}

impl Session {
    /// Starts `astar-rogue play` on a scratch copy of levels/pillar.txt with `panic` as
    /// `ASTAR_ROGUE_PANIC`.
    fn start(panic: Option<&str>) -> Session {
        let scratch = tempfile::tempdir().expect("scratch");
        let level = scratch.path().join("pillar.txt");
        std::fs::copy(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/pillar.txt"),
            &level,
        )
        .expect("copy the level");
        let env: Vec<(&str, &str)> = panic
            .map(|p| ("ASTAR_ROGUE_PANIC", p))
            .into_iter()
            .collect();
        let mut s = Session::launch(&[level.as_os_str()], &env);
        s._scratch = Some(scratch);
        s
    }

    /// Starts `astar-rogue play ARGS...` with extra environment variables.
    fn launch(args: &[&std::ffi::OsStr], env: &[(&str, &str)]) -> Session {
        let mut full: Vec<&std::ffi::OsStr> = vec!["play".as_ref()];
        full.extend_from_slice(args);
        Session::command(&full, env)
    }

    /// Starts `astar-rogue replay RECORDING`, the replay viewer.
    fn replay(recording: &Path) -> Session {
        Session::command(&["replay".as_ref(), recording.as_os_str()], &[])
    }

    /// Starts `astar-rogue ARGS...` with extra environment variables.
    fn command(full: &[&std::ffi::OsStr], env: &[(&str, &str)]) -> Session {
        // Kept runs go to a folder of the test's own, never the user's.
        let data = tempfile::tempdir().expect("a data folder");
        let mut all: Vec<(&str, &std::ffi::OsStr)> =
            vec![("ASTAR_ROGUE_DATA", data.path().as_os_str())];
        all.extend(env.iter().map(|(k, v)| (*k, v.as_ref())));
        let pty = Pty::spawn(full, &all);
        Session {
            pty,
            _scratch: None,
            _data: data,
        }
    }

    fn text(&self) -> String {
        self.pty.text()
    }

    fn len(&self) -> usize {
        self.pty.len()
    }

    /// Waits until the screen shows `needle`.
    fn wait_screen(&mut self, needle: &str) {
        self.pty.wait_screen(needle, DEADLINE);
    }

    /// Waits until the output contains `needle`.
    fn wait_for(&mut self, needle: &str) {
        self.wait_for_all(0, &[needle], "");
    }

    /// Waits until the output after its first `seen` bytes contains each of `needles`;
    /// panics when the game exits first, or after [`DEADLINE`], saying `why` it waited
    /// (when not empty) and what it got.
    fn wait_for_all(&mut self, seen: usize, needles: &[&str], why: &str) {
        let why = if why.is_empty() {
            String::new()
        } else {
            format!("{why}: ")
        };
        let start = Instant::now();
        loop {
            let after = self.text()[seen..].to_string();
            if needles.iter().all(|n| after.contains(n)) {
                return;
            }
            if let Ok(Some(status)) = self.pty.child.try_wait() {
                panic!(
                    "{why}the game exited ({status}) before writing {needles:?}; it wrote {after:?}"
                );
            }
            assert!(
                start.elapsed() < DEADLINE,
                "{why}no {needles:?} within {DEADLINE:?}; output so far {after:?}"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Waits until the game is drawn with mouse capture on, and checks raw mode is on.
    fn wait_ready(&mut self) {
        self.wait_for(MOUSE_ON);
        self.wait_for(READY);
        let during = self.termios();
        assert!(
            !during.local_flags.contains(LocalFlags::ICANON)
                && !during.local_flags.contains(LocalFlags::ECHO),
            "raw mode should be on while the game runs: {:?}",
            during.local_flags
        );
    }

    /// Waits until the child writes something more than `seen` bytes.
    fn wait_for_more(&mut self, seen: usize) {
        let start = Instant::now();
        while self.len() <= seen {
            assert!(
                start.elapsed() < DEADLINE,
                "no new output within {DEADLINE:?}"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    fn send(&mut self, bytes: &[u8]) {
        self.pty.send(bytes);
    }

    fn signal(&mut self, sig: Signal) {
        self.pty.signal(sig);
    }

    /// The process state letter from /proc (`T` when stopped).
    fn state(&self) -> char {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.pty.child.id()))
            .unwrap_or_default();
        // The state follows the command name, which is in parentheses.
        stat.rsplit_once(')')
            .and_then(|(_, rest)| rest.trim_start().chars().next())
            .unwrap_or('?')
    }

    /// Waits until the process is stopped (Ctrl-Z, SIGTSTP).
    fn wait_stopped(&mut self) {
        let start = Instant::now();
        while self.state() != 'T' {
            assert!(
                start.elapsed() < DEADLINE,
                "the game did not stop; output {:?}",
                self.text()
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    fn termios(&self) -> Termios {
        tcgetattr(self.pty.slave()).expect("tcgetattr")
    }

    /// Waits for the child to exit; panics after `within`.
    fn wait_exit(&mut self, within: Duration) -> ExitStatus {
        self.pty.wait_exit(within)
    }

    /// Waits for the child to exit and collects what it left behind.
    fn finish(mut self) -> Finished {
        let status = self.pty.wait_exit(DEADLINE);
        let after = tcgetattr(self.pty.slave()).expect("tcgetattr after");
        // Closing our slave lets the reader drain the rest and stop.
        self.pty.drain(DEADLINE);
        Finished {
            status,
            output: self.text(),
            before: self.pty.before.clone(),
            after,
        }
    }
}

impl Finished {
    /// The terminal was handed back as it was found.
    fn assert_restored(&self) {
        let out = &self.output;
        let enter = out.find(ENTER_ALT).unwrap_or_else(|| {
            panic!("never entered the alternate screen: {out:?}");
        });
        let leave = out.rfind(LEAVE_ALT).unwrap_or_else(|| {
            panic!("never left the alternate screen: {out:?}");
        });
        assert!(
            enter < leave && out.rfind(ENTER_ALT) < Some(leave),
            "the alternate screen must be left after it was last entered: {out:?}"
        );
        let on = out
            .find(MOUSE_ON)
            .unwrap_or_else(|| panic!("mouse capture never enabled: {out:?}"));
        let off = out
            .rfind(MOUSE_OFF)
            .unwrap_or_else(|| panic!("mouse capture never disabled: {out:?}"));
        assert!(
            on < off && out.rfind(MOUSE_ON) < Some(off),
            "mouse capture must be disabled after it was last enabled: {out:?}"
        );
        let l = self.after.local_flags;
        assert!(
            l.contains(LocalFlags::ICANON | LocalFlags::ECHO | LocalFlags::ISIG),
            "raw mode left on: local flags {l:?}"
        );
        assert_eq!(
            (
                self.after.input_flags,
                self.after.output_flags,
                self.after.control_flags,
                self.after.local_flags,
            ),
            (
                self.before.input_flags,
                self.before.output_flags,
                self.before.control_flags,
                self.before.local_flags,
            ),
            "termios differs from before the game"
        );
    }

    fn assert_clean_exit(&self) {
        assert!(
            self.status.success(),
            "expected exit 0, got {}; output {:?}",
            self.status,
            self.output
        );
        assert!(
            !self.output.contains("panicked"),
            "unexpected panic: {:?}",
            self.output
        );
    }

    /// A panic with `message` that is printed on the restored main screen.
    fn assert_panicked(&self, message: &str) {
        assert_eq!(
            self.status.code(),
            Some(101),
            "expected the panic exit code 101, got {}; output {:?}",
            self.status,
            self.output
        );
        let at = self
            .output
            .rfind(message)
            .unwrap_or_else(|| panic!("no panic message {message:?} in {:?}", self.output));
        let leave = self.output.rfind(LEAVE_ALT).unwrap_or(usize::MAX);
        assert!(
            leave < at,
            "the panic message must come after leaving the alternate screen, or it is lost: {:?}",
            self.output
        );
    }
}

#[test]
fn quit_with_q_at_turn_zero() {
    let mut s = Session::start(None);
    s.wait_ready();
    s.send(b"q");
    let f = s.finish();
    f.assert_clean_exit();
    f.assert_restored();
}

#[test]
fn ctrl_c_mid_game() {
    let mut s = Session::start(None);
    s.wait_ready();
    let seen = s.len();
    s.send(b"l");
    s.wait_for_more(seen);
    s.send(b"\x03");
    let f = s.finish();
    f.assert_clean_exit();
    f.assert_restored();
}

/// Every signal that ends the process: the terminal is restored first, and the exit status
/// is 128 + the signal's number, as a shell shows for a process the signal killed.
#[test]
fn every_ending_signal_restores_the_terminal_and_exits_128_plus_its_number() {
    for sig in [
        Signal::SIGTERM,
        Signal::SIGHUP,
        Signal::SIGINT,
        Signal::SIGQUIT,
        Signal::SIGUSR1,
        Signal::SIGUSR2,
        Signal::SIGALRM,
    ] {
        let mut s = Session::start(None);
        s.wait_ready();
        s.signal(sig);
        let f = s.finish();
        assert_eq!(
            f.status.code(),
            Some(128 + sig as i32),
            "{sig}: {}; output {:?}",
            f.status,
            f.output
        );
        f.assert_restored();
    }
}

/// Ctrl-Z (a key in raw mode) and SIGTSTP (from `kill`) both hand the terminal back before
/// the process stops, and SIGCONT (`fg`) takes it again and redraws the whole screen.
#[test]
fn ctrl_z_and_sigtstp_suspend_with_the_terminal_restored_and_fg_takes_it_again() {
    for how in ["Ctrl-Z", "SIGTSTP"] {
        let mut s = Session::start(None);
        s.wait_ready();
        suspend_and_resume(&mut s, how, READY);
        s.send(b"q");
        let f = s.finish();
        f.assert_clean_exit();
        f.assert_restored();
    }
}

/// The replay viewer suspends as the game does: Ctrl-Z and SIGTSTP hand the terminal back,
/// `fg` takes it again and redraws the viewer.
#[test]
fn the_replay_viewer_suspends_and_resumes_as_the_game_does() {
    let recording = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scripts/rest.keys");
    for how in ["Ctrl-Z", "SIGTSTP"] {
        let mut s = Session::replay(&recording);
        s.wait_for(MOUSE_ON);
        s.wait_screen("REPLAY");
        suspend_and_resume(&mut s, how, "REPLAY");
        s.send(b"q");
        let f = s.finish();
        f.assert_clean_exit();
        f.assert_restored();
    }
}

/// Suspends the program on `s` by `how` (`Ctrl-Z` or `SIGTSTP`) and checks it handed the
/// terminal back before it stopped; then resumes it (`fg`) and checks it took the terminal
/// again and drew all of it, `ready` on screen.
fn suspend_and_resume(s: &mut Session, how: &str, ready: &str) {
    let seen = s.len();
    if how == "Ctrl-Z" {
        s.send(b"\x1a");
    } else {
        s.signal(Signal::SIGTSTP);
    }
    s.wait_stopped();
    // Written before the stop, but the reader thread may not have taken it from the pty
    // yet on a loaded machine.
    s.wait_for_all(
        seen,
        &[MOUSE_OFF, LEAVE_ALT],
        &format!("{how}: the terminal must be handed back before stopping"),
    );
    let cooked = s.termios();
    assert!(
        cooked
            .local_flags
            .contains(LocalFlags::ICANON | LocalFlags::ECHO | LocalFlags::ISIG),
        "{how}: raw mode left on while stopped: {:?}",
        cooked.local_flags
    );
    let seen = s.len();
    s.signal(Signal::SIGCONT);
    s.wait_for_more(seen);
    s.wait_for_all(
        seen,
        &[ENTER_ALT, MOUSE_ON, ready],
        &format!("{how}: after SIGCONT it must re-enter and redraw"),
    );
    let raw = s.termios();
    assert!(
        !raw.local_flags.contains(LocalFlags::ICANON),
        "{how}: raw mode must be back after fg"
    );
}

/// `NO_COLOR`: the frames carry no colour at all, and the overlay still shows its glyphs.
#[test]
fn no_color_draws_without_colour() {
    let colours = ["\x1b[38;5;", "\x1b[48;5;", "\x1b[38;2;", "\x1b[48;2;"];
    let basic = |out: &str| {
        (30..=37)
            .chain(40..=47)
            .chain(90..=97)
            .any(|n| out.contains(&format!("\x1b[{n}m")))
    };
    // A scratch copy: a crash file would land beside the level.
    let (_scratch, level) = scratch_level("pillar.txt");
    for no_color in [false, true] {
        let env: &[(&str, &str)] = if no_color { &[("NO_COLOR", "1")] } else { &[] };
        let mut s = Session::launch(&[level.as_os_str()], env);
        s.wait_ready();
        s.send(b"o");
        s.wait_screen("+open :closed *path %now");
        s.send(b"q");
        let f = s.finish();
        f.assert_clean_exit();
        let coloured = colours.iter().any(|c| f.output.contains(c)) || basic(&f.output);
        assert_eq!(coloured, !no_color, "NO_COLOR={no_color}: {:?}", f.output);
    }
}

/// A scratch folder with a copy of `levels/NAME`, and the copy's path.
fn scratch_level(name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("scratch");
    let level = dir.path().join(name);
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("levels")
            .join(name),
        &level,
    )
    .expect("copy the level");
    (dir, level)
}

/// The last frame the game drew: the alternate screen just before it was left.
fn last_frame_shown(output: &str) -> Vec<String> {
    let leave = output.rfind(LEAVE_ALT).expect("left the alternate screen");
    pty::screen(&output.as_bytes()[..leave])
}

/// The final frame `astar-rogue script` prints for a script file.
fn replayed_last_frame(script: &Path) -> Vec<String> {
    let out = Command::new(BIN)
        .arg("script")
        .arg(script)
        .output()
        .expect("run the script");
    let text = String::from_utf8(out.stdout).expect("UTF-8 frames");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let frame: Vec<String> = text
        .lines()
        .skip_while(|l| !l.starts_with("--- frame last"))
        .skip(1)
        .map(|l| l.trim_end().to_string())
        .collect();
    assert_eq!(frame.len(), 24, "{text}");
    frame
}

/// A game played with `--record`: keys, a click that starts travel, a key that stops it
/// half-way, the overlay stepped, then a quit that asks. `astar-rogue script` on the
/// recording ends on the very frame the terminal showed last.
#[test]
fn a_recorded_game_replays_to_the_last_frame_shown() {
    let dir = tempfile::tempdir().expect("scratch");
    let level = dir.path().join("bracket.txt");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/bracket.txt"),
        &level,
    )
    .unwrap();
    let record = dir.path().join("game.keys");
    let mut s = Session::launch(
        &[
            level.as_os_str(),
            "--seed".as_ref(),
            "1".as_ref(),
            "--record".as_ref(),
            record.as_os_str(),
        ],
        &[],
    );
    s.wait_ready();
    let step = |s: &mut Session, bytes: &[u8]| {
        let seen = s.len();
        s.send(bytes);
        s.wait_for_more(seen);
        std::thread::sleep(Duration::from_millis(50));
    };
    step(&mut s, b"h");
    step(&mut s, b"k");
    // A left click (SGR mouse, 1-based) far along the bottom row of the map: travel.
    step(&mut s, b"\x1b[<0;8;20M");
    step(&mut s, b"\x1b[<0;8;20m");
    std::thread::sleep(Duration::from_millis(150));
    step(&mut s, b"j");
    step(&mut s, b"o");
    step(&mut s, b"]]]");
    step(&mut s, b"q");
    s.send(b"y");
    let f = s.finish();
    f.assert_clean_exit();
    f.assert_restored();
    let recording = std::fs::read_to_string(&record).expect("the recording");
    assert!(recording.contains("#! level: bracket.txt\n"), "{recording}");
    assert!(
        recording.contains("#! size: 80x24\n#! seed: 1\n#! ticks: manual\n"),
        "{recording}"
    );
    assert!(recording.contains("click:7,19"), "{recording}");
    assert!(
        recording.contains("tick"),
        "travel ticks are recorded: {recording}"
    );
    assert!(
        recording.contains("# y "),
        "the quitting key is a comment: {recording}"
    );
    let shown = last_frame_shown(&f.output);
    assert!(shown.iter().any(|l| l.contains("Quit?")), "{shown:#?}");
    assert_eq!(replayed_last_frame(&record), shown, "{recording}");
}

/// A panic writes the recording to a crash file beside the level and says where; the crash
/// file replays the game up to the input that crashed it.
#[test]
fn a_panic_leaves_a_crash_recording_beside_the_level() {
    let dir = tempfile::tempdir().expect("scratch");
    let level = dir.path().join("pillar.txt");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/pillar.txt"),
        &level,
    )
    .unwrap();
    let mut s = Session::launch(&[level.as_os_str()], &[("ASTAR_ROGUE_PANIC", "turn")]);
    s.wait_ready();
    s.send(b"l");
    let f = s.finish();
    f.assert_panicked("injected panic after a turn");
    f.assert_restored();
    let crash = dir.path().join("pillar.crash.keys");
    assert!(
        f.output.contains(&format!("{}", crash.display())),
        "the path is printed: {:?}",
        f.output
    );
    let text = std::fs::read_to_string(&crash).expect("a crash file");
    assert!(text.contains("#! level: pillar.txt\n"), "{text}");
    assert!(
        text.lines().any(|l| l == "l"),
        "the crashing key is in it: {text}"
    );
    let frame = replayed_last_frame(&crash);
    assert!(frame.iter().any(|l| l.contains("Turn 1")), "{frame:#?}");
}

/// A level whose every turn takes seconds: loading shows progress, and while a turn is
/// computed the screen says so with the monsters planned so far, and `q` then `y`, or
/// Ctrl-C, end the game at once instead of after the turn. (Each monster runs its own
/// search, capped far beyond the level's size: under the default planning the crowds of a
/// kind share a Dijkstra map, and the turn no longer takes seconds.)
#[test]
fn long_turns_show_progress_and_quitting_answers_at_once() {
    let dir = tempfile::tempdir().expect("scratch");
    let level = dir.path().join("huge.txt");
    let made = Command::new(BIN)
        .args([
            "generate", "--kind", "caves", "--size", "768x768", "--seed", "5",
        ])
        .args(["--monsters", "300", "-o"])
        .arg(&level)
        .status()
        .unwrap();
    assert!(made.success());
    for quit in [&b"\x03"[..], b"qy"] {
        let own = [
            std::ffi::OsStr::new("--planning"),
            std::ffi::OsStr::new("capped:1000000"),
            level.as_os_str(),
        ];
        let mut s = Session::launch(&own, &[]);
        s.wait_screen("Monsters planned:");
        s.wait_ready();
        s.wait_screen("Turn 0");
        s.send(b"l");
        s.wait_screen("Monsters planned:");
        let asked = Instant::now();
        for &b in &quit[..quit.len() - 1] {
            s.send(&[b]);
            s.wait_screen("Quit now?");
        }
        let last = Instant::now();
        s.send(&quit[quit.len() - 1..]);
        let status = s.wait_exit(Duration::from_secs(1));
        let took = last.elapsed();
        assert_eq!(status.code(), Some(0));
        assert!(
            took < Duration::from_millis(500),
            "the game took {took:?} to quit (asked {:?} into the turn)",
            asked.elapsed()
        );
        let f = s.finish();
        f.assert_restored();
    }
}

#[test]
fn panic_while_drawing() {
    let s = Session::start(Some("draw"));
    let f = s.finish();
    f.assert_panicked("injected panic in drawing");
    f.assert_restored();
}

#[test]
fn panic_in_a_monster_turn() {
    let mut s = Session::start(Some("turn"));
    s.wait_ready();
    s.send(b"l");
    let f = s.finish();
    f.assert_panicked("injected panic after a turn");
    f.assert_restored();
}

/// The terminal itself goes away (its window closes; the pty master is closed) while the game
/// waits for a key. crossterm 0.29's reader then spins on a tty that reads EOF and never
/// returns from `event::poll` (crossterm-rs/crossterm#793); the game must still exit rather
/// than linger as an orphan burning a core. Its exit status is not checked: nobody is left to
/// read it, and with standard error on the dead tty it is usually 0 but sometimes 101.
#[test]
fn a_vanished_terminal_ends_the_game() {
    // A scratch copy: a crash file would land beside the level.
    let (_scratch, level) = scratch_level("pillar.txt");
    let mut s = Session::launch(&[level.as_os_str()], &[]);
    s.wait_ready();
    s.pty.vanish();
    let start = Instant::now();
    let status = loop {
        if let Some(status) = s.pty.child.try_wait().expect("try_wait") {
            break status;
        }
        if start.elapsed() > DEADLINE {
            panic!("the game kept running after its terminal vanished");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.code().is_some(), "ended by a signal: {status}");
}

/// A bad settings file is refused on the plain screen: its positioned error, exit 2, and the
/// terminal never touched (no alternate screen, no raw mode), so no half-set game starts.
#[test]
fn a_bad_settings_file_is_refused_before_the_terminal_is_touched() {
    let (dir, level) = scratch_level("pillar.txt");
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "[game]\nsight = yes\n").unwrap();
    let s = Session::launch(
        &[level.as_os_str(), "--config".as_ref(), bad.as_os_str()],
        &[],
    );
    let done = s.finish();
    assert_eq!(done.status.code(), Some(2), "{:?}", done.output);
    let head = format!("{}:2:9: ", bad.display());
    assert!(done.output.contains(&head), "{:?}", done.output);
    assert!(!done.output.contains(ENTER_ALT), "{:?}", done.output);
    assert!(!done.output.contains(MOUSE_ON), "{:?}", done.output);
    assert_eq!(done.before.local_flags, done.after.local_flags);
}

/// A game played with a settings file is recorded with it (`#! config:`), so the replay
/// reads the keys as the game did: here `i` moves north only because the file says so.
#[test]
fn a_recording_names_the_settings_file_it_was_played_with() {
    let (dir, level) = scratch_level("pillar.txt");
    let settings = dir.path().join("mine.toml");
    std::fs::write(
        &settings,
        "[keys.everywhere]\nmove_n = [\"i\"]\n[game]\nsight = false\n",
    )
    .unwrap();
    let record = dir.path().join("game.keys");
    let mut s = Session::launch(
        &[
            level.as_os_str(),
            "--config".as_ref(),
            settings.as_os_str(),
            "--record".as_ref(),
            record.as_os_str(),
        ],
        &[],
    );
    s.wait_ready();
    let seen = s.len();
    s.send(b"i");
    s.wait_for_more(seen);
    std::thread::sleep(Duration::from_millis(50));
    s.send(b"q");
    std::thread::sleep(Duration::from_millis(50));
    s.send(b"y");
    let f = s.finish();
    f.assert_clean_exit();
    let recording = std::fs::read_to_string(&record).expect("the recording");
    let header = format!(
        "#! config: {}\n",
        std::fs::canonicalize(&settings).unwrap().display()
    );
    assert!(recording.contains(&header), "{recording}");
    let shown = last_frame_shown(&f.output);
    assert!(shown.iter().any(|l| l.contains("Turn 1")), "{shown:#?}");
    assert_eq!(replayed_last_frame(&record), shown, "{recording}");
}

/// Issue 30, item 9: without a terminal on standard input and output, `play` (and `lab`)
/// refuse with a clear message and exit 2 before touching any mode: no escape code on
/// standard output, the terminal's modes untouched, no recording made.
#[test]
fn without_a_terminal_play_refuses_before_touching_anything() {
    let (dir, level) = scratch_level("pillar.txt");
    let record = dir.path().join("r.keys");
    let size = Winsize {
        ws_row: 24,
        ws_col: 80,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    for stdin_tty in [false, true] {
        for cmd in ["play", "lab"] {
            let pty = openpty(Some(&size), None).expect("openpty");
            let before = tcgetattr(&pty.slave).expect("tcgetattr");
            let out_file = dir.path().join("out.txt");
            let stdout = File::create(&out_file).unwrap();
            let stdin = if stdin_tty {
                Stdio::from(pty.slave.try_clone().unwrap())
            } else {
                Stdio::null()
            };
            // With a terminal on standard input, it is the controlling one; without, the
            // game has no terminal at all.
            let mut c = Command::new("setsid");
            if stdin_tty {
                c.arg("--ctty");
            }
            c.arg(BIN).arg(cmd).arg(&level);
            if cmd == "play" {
                c.arg("--record").arg(&record);
            }
            let out = c
                .stdin(stdin)
                .stdout(stdout)
                .stderr(Stdio::piped())
                .env_remove("ASTAR_ROGUE_PANIC")
                .output()
                .expect("run");
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(
                out.status.code(),
                Some(2),
                "{cmd} stdin tty {stdin_tty}: {err}"
            );
            assert!(err.contains("the game needs a terminal"), "{err}");
            assert!(!err.contains('\x1b'), "{err:?}");
            let written = std::fs::read(&out_file).unwrap();
            assert!(
                written.is_empty(),
                "{cmd}: {:?}",
                String::from_utf8_lossy(&written)
            );
            assert!(!record.exists(), "no recording without a game");
            let after = tcgetattr(&pty.slave).expect("tcgetattr");
            assert_eq!(after.local_flags, before.local_flags);
        }
    }
}

/// Issue 30, item 8: `kill -STOP` leaves the terminal as it is, and the shell then puts it
/// back in cooked mode; after SIGCONT (`fg`) raw mode is really on again (keys act at once,
/// unechoed), as are the alternate screen and mouse capture.
#[test]
fn after_sigstop_and_a_cooked_terminal_sigcont_takes_raw_mode_for_real() {
    use nix::sys::termios::{SetArg, tcsetattr};
    let mut s = Session::start(None);
    s.wait_ready();
    s.signal(Signal::SIGSTOP);
    s.wait_stopped();
    // What the shell does when its job stops: its own (cooked) modes back.
    tcsetattr(s.pty.slave(), SetArg::TCSANOW, &s.pty.before.clone()).unwrap();
    assert!(
        s.termios()
            .local_flags
            .contains(LocalFlags::ICANON | LocalFlags::ECHO)
    );
    let seen = s.len();
    s.signal(Signal::SIGCONT);
    let start = Instant::now();
    loop {
        let l = s.termios().local_flags;
        let again = s.text()[seen..].to_string();
        if !l.contains(LocalFlags::ICANON)
            && !l.contains(LocalFlags::ECHO)
            && again.contains(ENTER_ALT)
            && again.contains(MOUSE_ON)
        {
            break;
        }
        assert!(
            start.elapsed() < DEADLINE,
            "after SIGCONT: local flags {l:?}, output {again:?}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    // A key acts without Enter.
    s.send(b"q");
    let f = s.finish();
    f.assert_clean_exit();
    f.assert_restored();
}

/// Issue 30, item 5: a backlog of 10,000 inputs (mouse motion the game ignores, keys and a
/// flood of same-size resizes) is drained at once, not one poll slice per input: the key at
/// its end shows in well under a second (the target is 0.2 s plus the work the keys ask
/// for; this allows for a loaded machine). It took minutes: each input waited 20 ms.
#[test]
fn a_backlog_of_ten_thousand_inputs_drains_at_once() {
    let mut s = Session::start(None);
    s.wait_ready();
    let mut backlog = Vec::new();
    for i in 0..5_000u32 {
        // SGR motion without a button (32 + 3), as a terminal in any-motion mode sends.
        backlog.extend_from_slice(format!("\x1b[<35;{};{}M", 1 + i % 80, 1 + i % 24).as_bytes());
        // An even number of path toggles leaves the screen as it was.
        if i < 4_998 {
            backlog.push(b'p');
        }
    }
    // Then the help screen, the input whose effect is waited for.
    backlog.push(b'?');
    let began = Instant::now();
    // Written from a thread: a game that stops reading must fail the wait, not hang it.
    let mut master = s.pty.master();
    let writer = std::thread::spawn(move || {
        let _ = master.write_all(&backlog);
    });
    for _ in 0..2_000 {
        s.signal(Signal::SIGWINCH);
    }
    s.wait_screen("help 1/");
    let took = began.elapsed();
    assert!(took < Duration::from_secs(1), "the backlog took {took:?}");
    writer.join().unwrap();
    // Ended by a signal: a mouse report that the pty split across two reads is read by
    // crossterm as keys (digits move), so the game's state is not asserted.
    s.signal(Signal::SIGTERM);
    let f = s.finish();
    assert_eq!(f.status.code(), Some(143), "{}", f.status);
    f.assert_restored();
}

/// Quitting at the recovery question changes nothing: the recovery file stays, and the
/// data folder keeps no lock file of the run that never began.
#[test]
fn quitting_at_the_recovery_question_leaves_no_lock_file() {
    let (dir, level) = scratch_level("pillar.txt");
    let recovery = dir.path().join(".pillar.txt.astar-rogue-recover");
    std::fs::copy(&level, &recovery).unwrap();
    let mut s = Session::launch(&[level.as_os_str()], &[]);
    s.wait_for("Recover the edits? [y/n/d/q]");
    s.send(b"q\n");
    let status = s.wait_exit(DEADLINE);
    assert_eq!(status.code(), Some(0), "{:?}", s.text());
    assert!(recovery.exists());
    let saves = s._data.path().join("saves");
    assert!(saves.is_dir(), "the lock was taken before the question");
    let left: Vec<_> = std::fs::read_dir(&saves)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// Issue 30, item 15: a hang-up with unsaved level edits keeps them in a recovery file beside
/// the level, and the next start offers it as vim offers a swap file: declined, it stays
/// (and a new hang-up writes another, never over it); deleted on `d`; recovered on `y`,
/// when the edits play as unsaved and a save puts them in the level and removes the file.
#[test]
fn a_hang_up_keeps_unsaved_edits_and_the_next_start_offers_them() {
    let (dir, level) = scratch_level("pillar.txt");
    let original = std::fs::read(&level).unwrap();
    let recover = |n: usize| {
        let suffix = if n == 0 {
            String::new()
        } else {
            format!("-{n}")
        };
        dir.path()
            .join(format!(".pillar.txt.astar-rogue-recover{suffix}"))
    };
    let step = |s: &mut Session, bytes: &[u8]| {
        let seen = s.len();
        s.send(bytes);
        s.wait_for_more(seen);
        std::thread::sleep(Duration::from_millis(50));
    };
    // Paints a wall above the player's start (the cursor starts on the goblin, so first
    // onto the player), then a hang-up.
    let edit_and_hang_up = |s: &mut Session, keys: &[u8]| {
        s.wait_ready();
        for &k in keys {
            step(s, &[k]);
        }
        s.signal(Signal::SIGHUP);
    };
    let mut s = Session::launch(&[level.as_os_str()], &[]);
    edit_and_hang_up(&mut s, b"ekwe");
    let f = s.finish();
    assert_eq!(f.status.code(), Some(129), "{:?}", f.output);
    f.assert_restored();
    assert!(f.output.contains("Unsaved edits kept in"), "{:?}", f.output);
    assert_eq!(
        std::fs::read(&level).unwrap(),
        original,
        "the level is untouched"
    );
    let first = std::fs::read_to_string(recover(0)).expect("a recovery file");
    assert_ne!(first.as_bytes(), &original[..]);

    // Declined: kept; this game's own hang-up goes to another name.
    let mut s = Session::launch(&[level.as_os_str()], &[]);
    s.wait_for("Recover the edits? [y/n/d/q]");
    s.send(b"n\n");
    edit_and_hang_up(&mut s, b"ejwe");
    let f = s.finish();
    assert_eq!(f.status.code(), Some(129));
    assert_eq!(
        std::fs::read_to_string(recover(0)).unwrap(),
        first,
        "never written over"
    );
    let second = std::fs::read_to_string(recover(1)).expect("a second recovery file");
    assert_ne!(second, first);

    // Deleted on request.
    let mut s = Session::launch(&[level.as_os_str()], &[]);
    s.wait_for("Recover the edits? [y/n/d/q]");
    s.send(b"d\n");
    s.wait_ready();
    s.send(b"q");
    s.finish().assert_clean_exit();
    assert!(!recover(0).exists());

    // Recovered: played as unsaved edits, saved into the level, and then the file goes.
    let mut s = Session::launch(&[level.as_os_str()], &[]);
    s.wait_for("Recover the edits? [y/n/d/q]");
    s.send(b"y\n");
    s.wait_ready();
    s.wait_screen("Recovered the unsaved");
    step(&mut s, b"s");
    s.wait_screen("Saved the level design to pillar.txt;");
    s.send(b"q");
    s.finish().assert_clean_exit();
    assert_eq!(std::fs::read_to_string(&level).unwrap(), second);
    assert!(!recover(1).exists(), "its edits are in the level now");

    // Nothing left to offer.
    let mut s = Session::launch(&[level.as_os_str()], &[]);
    s.wait_ready();
    s.send(b"q");
    let f = s.finish();
    f.assert_clean_exit();
    assert!(!f.output.contains("Recover the edits?"));
}

#[test]
fn the_replay_viewer_sets_up_and_restores_the_terminal_as_the_game_does() {
    // SIGUSR1 is one of the game's ending signals the viewer used not to catch: it left
    // the terminal raw, on the alternate screen, reporting every move of the mouse.
    let recording = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scripts/rest.keys");
    let mut s = Session::replay(&recording);
    s.wait_for(MOUSE_ON);
    std::thread::sleep(Duration::from_millis(200));
    s.signal(Signal::SIGUSR1);
    let f = s.finish();
    let out = &f.output;
    assert_eq!(f.status.code(), Some(128 + libc::SIGUSR1), "{out:?}");
    assert!(
        !out.contains("\x1b[?1003h"),
        "any-motion mouse reports asked for: {out:?}"
    );
    let (enter, leave) = (out.rfind(ENTER_ALT), out.rfind(LEAVE_ALT));
    assert!(
        enter.is_some() && enter < leave,
        "alternate screen not left: {out:?}"
    );
    assert!(
        f.after.local_flags.contains(LocalFlags::ICANON),
        "raw mode left on"
    );
}
