//! Kept runs in the real binary under a pseudo-terminal: a run left with `q` `y`, ended by
//! SIGHUP or by its terminal vanishing comes back on the next `play` of its level, on the
//! screen it was left on (the log says it was resumed), and goes on as `astar-rogue script`
//! plays the same inputs in one go. The game runs on a pty of its own ([`crate::pty`]).

use std::path::Path;
use std::process::{Command, ExitStatus};
use std::time::Duration;

use astar_rogue::session::save::Slot;
use nix::sys::signal::Signal;

use crate::common::fresh;
use crate::pty::{BIN, Pty};

const DEADLINE: Duration = Duration::from_secs(10);

/// The game on a pty of 80x24.
struct Game {
    pty: Pty,
}

impl Game {
    fn launch(args: &[&std::ffi::OsStr], data: &Path) -> Game {
        let mut full: Vec<&std::ffi::OsStr> = vec!["play".as_ref()];
        full.extend_from_slice(args);
        Game {
            pty: Pty::spawn(&full, &[("ASTAR_ROGUE_DATA", data.as_os_str())]),
        }
    }

    fn text(&self) -> String {
        self.pty.text()
    }

    /// The screen now, row by row, trailing blanks cut.
    fn screen(&self) -> Vec<String> {
        self.pty.screen()
    }

    fn wait_screen(&mut self, needle: &str) {
        self.pty.wait_screen(needle, DEADLINE);
    }

    /// Sends keys one at a time, each once the screen shows what it did (`Turn N`).
    fn play(&mut self, keys: &[u8], turns: &[u32]) {
        assert_eq!(keys.len(), turns.len(), "a turn to wait for after each key");
        for (k, t) in keys.iter().zip(turns) {
            self.send(&[*k]);
            self.wait_screen(&format!("Turn {t} "));
        }
        // Let the last frame settle.
        std::thread::sleep(Duration::from_millis(100));
    }

    fn send(&mut self, bytes: &[u8]) {
        self.pty.send(bytes);
    }

    /// The terminal goes away: every descriptor of its master side is closed.
    fn vanish(&mut self) {
        self.pty.vanish();
    }

    /// Waits for the game to exit, and for the reader to take its last bytes (what it
    /// prints once the terminal is restored: a sleep instead let a loaded machine miss it).
    fn wait_exit(&mut self) -> ExitStatus {
        let status = self.pty.wait_exit(DEADLINE);
        self.pty.drain(DEADLINE);
        status
    }
}

/// The last frame `astar-rogue script` draws for `tokens` on `level` with `seed`, as
/// rows with trailing blanks cut.
fn script_frame(level: &Path, seed: u64, tokens: &str) -> Vec<String> {
    let dir = level.parent().unwrap();
    let script = dir.join("reference.keys");
    std::fs::write(
        &script,
        format!(
            "#! level: {}\n#! seed: {seed}\n#! ticks: manual\n#! runs: kept\n{tokens}\n",
            level.file_name().unwrap().to_string_lossy()
        ),
    )
    .unwrap();
    let out = Command::new(BIN)
        .arg("script")
        .arg(&script)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.trim_end().to_string())
        .collect()
}

/// The rows of the map and the side panel (the log below them holds the resumed notice).
fn board(screen: &[String]) -> Vec<String> {
    screen[..19].to_vec()
}

#[test]
fn quit_and_start_again_brings_the_same_screen_back() {
    let (_dir, level, data) = fresh("levels/default.txt");
    let mut g = Game::launch(&[level.as_os_str(), "--seed".as_ref(), "5".as_ref()], &data);
    g.wait_screen("Turn 0 ");
    g.play(b"llk", &[1, 2, 3]);
    let left = g.screen();
    g.send(b"q");
    g.wait_screen("Your run is kept");
    g.send(b"y");
    assert_eq!(g.wait_exit().code(), Some(0));
    assert!(
        g.text().contains(&format!(
            "Your run on default.txt is kept (turn 3, depth 1, seed 5): `astar-rogue play {}` resumes it.",
            level.display()
        )),
        "{}",
        g.text()
    );
    drop(g);
    // Started again without a seed: the run comes back, saying so.
    let mut g = Game::launch(&[level.as_os_str()], &data);
    g.wait_screen("Resumed your run on default.txt: turn 3, depth 1, seed 5.");
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(board(&g.screen()), board(&left));
    // And it goes on as the same inputs in one go.
    g.play(b"j", &[4]);
    assert_eq!(g.screen(), script_frame(&level, 5, "l l k j"));
    g.send(b"q");
    g.wait_screen("Quit?");
    g.send(b"y");
    assert_eq!(g.wait_exit().code(), Some(0));
    // Plain `play` with no level resumes the run saved last.
    let mut g = Game::launch(&[], &data);
    g.wait_screen("Resumed your run on default.txt: turn 4, depth 1, seed 5.");
}

/// A quit whose run cannot be saved is a failure for whoever started the game: the reason
/// on standard error and exit code 1, the old save as it was.
#[test]
fn a_quit_that_cannot_keep_the_run_says_why_and_fails() {
    let (_dir, level, data) = fresh("levels/default.txt");
    let mut g = Game::launch(&[level.as_os_str(), "--seed".as_ref(), "5".as_ref()], &data);
    g.wait_screen("Turn 0 ");
    g.play(b"l", &[1]);
    g.send(b"qy");
    assert_eq!(g.wait_exit().code(), Some(0));
    drop(g);
    let slot = Slot::of(&data, Some(&level.canonicalize().unwrap()));
    let before = std::fs::read(&slot.save).unwrap();
    let mut perms = std::fs::metadata(&slot.save).unwrap().permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&slot.save, perms).unwrap();
    let mut g = Game::launch(&[level.as_os_str()], &data);
    g.wait_screen("Resumed your run");
    g.play(b"l", &[2]);
    g.send(b"qy");
    assert_eq!(g.wait_exit().code(), Some(1), "{}", g.text());
    assert!(
        g.text().contains("Could not keep your run: "),
        "{}",
        g.text()
    );
    assert_eq!(std::fs::read(&slot.save).unwrap(), before);
}

#[test]
fn sighup_keeps_the_run_and_the_next_start_resumes_it() {
    let (_dir, level, data) = fresh("levels/default.txt");
    let mut g = Game::launch(&[level.as_os_str(), "--seed".as_ref(), "8".as_ref()], &data);
    g.wait_screen("Turn 0 ");
    g.play(b"lj", &[1, 2]);
    g.pty.signal(Signal::SIGHUP);
    assert_eq!(g.wait_exit().code(), Some(129));
    drop(g);
    let mut g = Game::launch(&[level.as_os_str()], &data);
    g.wait_screen("Resumed your run on default.txt: turn 2, depth 1, seed 8.");
    g.play(b"l", &[3]);
    assert_eq!(g.screen(), script_frame(&level, 8, "l j l"));
}

#[test]
fn a_vanished_terminal_keeps_the_run() {
    let (dir, level, data) = fresh("levels/default.txt");
    let mut g = Game::launch(&[level.as_os_str(), "--seed".as_ref(), "9".as_ref()], &data);
    g.wait_screen("Turn 0 ");
    g.play(b"hk", &[1, 2]);
    // The window closes: every descriptor of the terminal goes.
    g.vanish();
    let status = g.wait_exit();
    drop(g);
    // Ended as a hang-up, not by a panic over the lost terminal (which writes a crash
    // file beside the level).
    assert_eq!(status.code(), Some(129), "{status:?}");
    let crashes: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains(".crash"))
        .map(|e| e.file_name())
        .collect();
    assert!(crashes.is_empty(), "{crashes:?}");
    let mut g = Game::launch(&[level.as_os_str()], &data);
    g.wait_screen("Resumed your run on default.txt: turn 2, depth 1, seed 9.");
    g.play(b"l", &[3]);
    assert_eq!(g.screen(), script_frame(&level, 9, "h k l"));
}

#[test]
fn a_game_that_stops_before_it_starts_leaves_no_lock_file() {
    let (dir, level, data) = fresh("levels/pillar.txt");
    // A recording into a folder that is not there: refused once the run's lock is taken.
    let record = dir.path().join("missing").join("game.keys");
    let mut g = Game::launch(
        &[level.as_os_str(), "--record".as_ref(), record.as_os_str()],
        &data,
    );
    let status = g.wait_exit();
    assert_eq!(status.code(), Some(2), "{}", g.text());
    assert!(g.text().contains("cannot record"), "{}", g.text());
    // The run's lock, where the game takes it: the refusal came after it was taken (else
    // this test shows nothing), and it is gone.
    let lock = Slot::of(&data, Some(&level.canonicalize().unwrap())).lock;
    assert!(
        lock.parent().is_some_and(Path::is_dir),
        "no saves folder: the lock was never taken"
    );
    assert!(!lock.exists(), "{} is left", lock.display());
    // And no other lock either, should the game's rule for the lock's name have moved.
    let locks: Vec<_> = std::fs::read_dir(lock.parent().unwrap())
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "lock"))
        .map(|e| e.path())
        .collect();
    assert!(locks.is_empty(), "left: {locks:?}");
}
