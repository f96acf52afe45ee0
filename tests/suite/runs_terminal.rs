//! Kept runs in the real binary under a pseudo-terminal: a run left with `q` `y`, ended by
//! SIGHUP or by its terminal vanishing comes back on the next `play` of its level, on the
//! screen it was left on (the log says it was resumed), and goes on as `astar-rogue script`
//! plays the same inputs in one go.

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::OwnedFd;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use nix::pty::{Winsize, openpty};
use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

const BIN: &str = env!("CARGO_BIN_EXE_astar-rogue");
const DEADLINE: Duration = Duration::from_secs(10);

/// The game on a pty of 80x24.
struct Game {
    child: Child,
    master: Option<File>,
    slave: Option<OwnedFd>,
    output: Arc<Mutex<Vec<u8>>>,
    /// The reader of the master side, and its stop.
    reader: Option<(std::thread::JoinHandle<()>, Arc<AtomicBool>)>,
}

impl Game {
    fn launch(args: &[&std::ffi::OsStr], data: &Path) -> Game {
        let size = Winsize {
            ws_row: 24,
            ws_col: 80,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        let pty = openpty(Some(&size), None).expect("openpty");
        // The game must not inherit the master, or closing ours would not hang it up.
        nix::fcntl::fcntl(
            &pty.master,
            nix::fcntl::FcntlArg::F_SETFD(nix::fcntl::FdFlag::FD_CLOEXEC),
        )
        .expect("close-on-exec master");
        let io = |fd: &OwnedFd| Stdio::from(fd.try_clone().expect("dup slave"));
        let child = Command::new("setsid")
            .arg("--ctty")
            .arg(BIN)
            .arg("play")
            .args(args)
            .stdin(io(&pty.slave))
            .stdout(io(&pty.slave))
            .stderr(io(&pty.slave))
            .env("TERM", "xterm-256color")
            .env("ASTAR_ROGUE_DATA", data)
            .env_remove("ASTAR_ROGUE_PANIC")
            .env_remove("NO_COLOR")
            .spawn()
            .expect("spawn setsid (util-linux)");
        let output = Arc::new(Mutex::new(Vec::new()));
        let mut read_side = File::from(pty.master.try_clone().expect("dup master"));
        let sink = Arc::clone(&output);
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        let reader = std::thread::spawn(move || {
            use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
            use std::os::fd::AsFd;
            let mut buf = [0u8; 4096];
            while !stopped.load(Ordering::SeqCst) {
                let mut fds = [PollFd::new(read_side.as_fd(), PollFlags::POLLIN)];
                if poll(&mut fds, PollTimeout::from(20u16)).unwrap_or(0) == 0 {
                    continue;
                }
                match read_side.read(&mut buf) {
                    Ok(n @ 1..) => sink.lock().unwrap().extend_from_slice(&buf[..n]),
                    _ => break,
                }
            }
        });
        Game {
            child,
            master: Some(File::from(pty.master)),
            slave: Some(pty.slave),
            output,
            reader: Some((reader, stop)),
        }
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.output.lock().unwrap()).into_owned()
    }

    /// The screen now, row by row, trailing blanks cut.
    fn screen(&self) -> Vec<String> {
        let mut p = vt100::Parser::new(
            std::num::NonZeroU16::new(24).unwrap(),
            std::num::NonZeroU16::new(80).unwrap(),
            0,
        );
        p.process(&self.output.lock().unwrap());
        p.screen()
            .rows(0, 80)
            .map(|r| r.trim_end().to_string())
            .collect()
    }

    fn wait_screen(&mut self, needle: &str) {
        let start = Instant::now();
        while !self.screen().iter().any(|l| l.contains(needle)) {
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!(
                    "exited ({status}) before showing {needle:?}: {}",
                    self.text()
                );
            }
            assert!(
                start.elapsed() < DEADLINE,
                "no {needle:?} on screen:\n{}",
                self.screen().join("\n")
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Sends keys one at a time, each once the screen shows what it did (`Turn N`).
    fn play(&mut self, keys: &[u8], turns: &[u32]) {
        for (k, t) in keys.iter().zip(turns) {
            self.send(&[*k]);
            self.wait_screen(&format!("Turn {t} "));
        }
        // Let the last frame settle.
        std::thread::sleep(Duration::from_millis(100));
    }

    fn send(&mut self, bytes: &[u8]) {
        let m = self.master.as_mut().expect("the terminal is there");
        m.write_all(bytes).expect("write to the pty");
        m.flush().expect("flush the pty");
    }

    /// The terminal goes away: every descriptor of its master side is closed.
    fn vanish(&mut self) {
        if let Some((reader, stop)) = self.reader.take() {
            stop.store(true, Ordering::SeqCst);
            let _ = reader.join();
        }
        drop(self.slave.take());
        drop(self.master.take());
    }

    fn wait_exit(&mut self) -> ExitStatus {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                // Let the reader take the last bytes.
                std::thread::sleep(Duration::from_millis(50));
                return status;
            }
            assert!(
                start.elapsed() < DEADLINE,
                "the game did not exit; output {:?}",
                self.text()
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Game {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        if let Some((reader, stop)) = self.reader.take() {
            stop.store(true, Ordering::SeqCst);
            let _ = reader.join();
        }
        drop(self.slave.take());
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

fn level_copy(dir: &Path) -> std::path::PathBuf {
    let level = dir.join("default.txt");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/default.txt"),
        &level,
    )
    .unwrap();
    level
}

/// The rows of the map and the side panel (the log below them holds the resumed notice).
fn board(screen: &[String]) -> Vec<String> {
    screen[..19].to_vec()
}

#[test]
fn quit_and_start_again_brings_the_same_screen_back() {
    let dir = tempfile::tempdir().unwrap();
    let level = level_copy(dir.path());
    let data = dir.path().join("data");
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

#[test]
fn sighup_keeps_the_run_and_the_next_start_resumes_it() {
    let dir = tempfile::tempdir().unwrap();
    let level = level_copy(dir.path());
    let data = dir.path().join("data");
    let mut g = Game::launch(&[level.as_os_str(), "--seed".as_ref(), "8".as_ref()], &data);
    g.wait_screen("Turn 0 ");
    g.play(b"lj", &[1, 2]);
    kill(Pid::from_raw(g.child.id() as i32), Signal::SIGHUP).unwrap();
    assert_eq!(g.wait_exit().code(), Some(129));
    drop(g);
    let mut g = Game::launch(&[level.as_os_str()], &data);
    g.wait_screen("Resumed your run on default.txt: turn 2, depth 1, seed 8.");
    g.play(b"l", &[3]);
    assert_eq!(g.screen(), script_frame(&level, 8, "l j l"));
}

#[test]
fn a_vanished_terminal_keeps_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let level = level_copy(dir.path());
    let data = dir.path().join("data");
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
