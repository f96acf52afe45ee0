//! The real binary under a pseudo-terminal: whether it quits, is interrupted, is killed with
//! SIGTERM or panics, it must leave the alternate screen, disable mouse capture and turn raw
//! mode off, and exit with the right status.
//!
//! Each test opens its own pty (80x24), starts `astar-rogue play levels/pillar.txt` on it as a
//! session leader with the pty as its controlling terminal (util-linux `setsid --ctty`), reads
//! everything the child writes from the master side, and reads the pty's termios from the
//! slave side (which the test keeps open) before, during and after the game. Every wait has a
//! deadline; a child still running at the end is killed.

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::OwnedFd;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use nix::pty::{Winsize, openpty};
use nix::sys::signal::{Signal, kill};
use nix::sys::termios::{LocalFlags, Termios, tcgetattr};
use nix::unistd::Pid;

const BIN: &str = env!("CARGO_BIN_EXE_astar-rogue");
/// The longest any one wait may take; a passing test takes well under a second.
const DEADLINE: Duration = Duration::from_secs(10);

const ENTER_ALT: &str = "\x1b[?1049h";
const LEAVE_ALT: &str = "\x1b[?1049l";
/// crossterm 0.29 `EnableMouseCapture`, byte for byte.
const MOUSE_ON: &str = "\x1b[?1000h\x1b[?1002h\x1b[?1003h\x1b[?1015h\x1b[?1006h";
/// crossterm 0.29 `DisableMouseCapture`, byte for byte.
const MOUSE_OFF: &str = "\x1b[?1006l\x1b[?1015l\x1b[?1003l\x1b[?1002l\x1b[?1000l";
/// The last word of the first frame (its key hints row): the game is drawn and reading keys.
const READY: &str = "quit";

/// The game running on a pty.
struct Session {
    child: Child,
    /// The slave side, kept open so its termios can be read after the child exits.
    slave: Option<OwnedFd>,
    master: File,
    output: Arc<Mutex<Vec<u8>>>,
    reader: Option<(JoinHandle<()>, mpsc::Receiver<()>)>,
    before: Termios,
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
    /// Starts `astar-rogue play levels/pillar.txt` with `panic` as `ASTAR_ROGUE_PANIC`.
    fn start(panic: Option<&str>) -> Session {
        let size = Winsize {
            ws_row: 24,
            ws_col: 80,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        let pty = openpty(Some(&size), None).expect("openpty");
        let before = tcgetattr(&pty.slave).expect("tcgetattr before");
        let level = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/pillar.txt");
        let io = |fd: &OwnedFd| Stdio::from(fd.try_clone().expect("dup slave"));
        let mut cmd = Command::new("setsid");
        cmd.arg("--ctty")
            .arg(BIN)
            .arg("play")
            .arg(&level)
            .stdin(io(&pty.slave))
            .stdout(io(&pty.slave))
            .stderr(io(&pty.slave))
            .env("TERM", "xterm-256color")
            .env_remove("ASTAR_ROGUE_PANIC")
            .env_remove("RUST_BACKTRACE");
        if let Some(p) = panic {
            cmd.env("ASTAR_ROGUE_PANIC", p);
        }
        let child = cmd.spawn().expect("spawn setsid (util-linux)");
        let output = Arc::new(Mutex::new(Vec::new()));
        let mut read_side = File::from(pty.master.try_clone().expect("dup master"));
        let sink = Arc::clone(&output);
        let (done_tx, done_rx) = mpsc::channel();
        let reader = std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            // Ends with EIO once every slave descriptor is closed.
            while let Ok(n @ 1..) = read_side.read(&mut buf) {
                sink.lock().unwrap().extend_from_slice(&buf[..n]);
            }
            let _ = done_tx.send(());
        });
        Session {
            child,
            slave: Some(pty.slave),
            master: File::from(pty.master),
            output,
            reader: Some((reader, done_rx)),
            before,
        }
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.output.lock().unwrap()).into_owned()
    }

    fn len(&self) -> usize {
        self.output.lock().unwrap().len()
    }

    /// Waits until the output contains `needle`.
    fn wait_for(&mut self, needle: &str) {
        let start = Instant::now();
        while !self.text().contains(needle) {
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!(
                    "the game exited ({status}) before writing {needle:?}; it wrote {:?}",
                    self.text()
                );
            }
            assert!(
                start.elapsed() < DEADLINE,
                "no {needle:?} within {DEADLINE:?}; output so far {:?}",
                self.text()
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Waits until the game is drawn with mouse capture on, and checks raw mode is on.
    fn wait_ready(&mut self) {
        self.wait_for(MOUSE_ON);
        self.wait_for(READY);
        let during = tcgetattr(self.slave.as_ref().unwrap()).expect("tcgetattr during");
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
        self.master.write_all(bytes).expect("write to the pty");
        self.master.flush().expect("flush the pty");
    }

    fn signal(&mut self, sig: Signal) {
        kill(Pid::from_raw(self.child.id() as i32), sig).expect("kill");
    }

    /// Waits for the child to exit and collects what it left behind.
    fn finish(mut self) -> Finished {
        let start = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                break status;
            }
            assert!(
                start.elapsed() < DEADLINE,
                "the game did not exit within {DEADLINE:?}; output {:?}",
                self.text()
            );
            std::thread::sleep(Duration::from_millis(10));
        };
        let after = tcgetattr(self.slave.as_ref().unwrap()).expect("tcgetattr after");
        // Closing our slave lets the reader drain the rest and stop.
        drop(self.slave.take());
        let (reader, done) = self.reader.take().unwrap();
        if done.recv_timeout(DEADLINE).is_ok() {
            let _ = reader.join();
        }
        Finished {
            status,
            output: self.text(),
            before: self.before.clone(),
            after,
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
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

#[test]
fn sigterm() {
    let mut s = Session::start(None);
    s.wait_ready();
    s.signal(Signal::SIGTERM);
    let f = s.finish();
    f.assert_clean_exit();
    f.assert_restored();
}

#[test]
fn sighup() {
    let mut s = Session::start(None);
    s.wait_ready();
    s.signal(Signal::SIGHUP);
    let f = s.finish();
    f.assert_clean_exit();
    f.assert_restored();
}

#[test]
fn sigint() {
    let mut s = Session::start(None);
    s.wait_ready();
    s.signal(Signal::SIGINT);
    let f = s.finish();
    f.assert_clean_exit();
    f.assert_restored();
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
    use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
    use std::os::fd::AsFd;
    let size = Winsize {
        ws_row: 24,
        ws_col: 80,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    let pty = openpty(Some(&size), None).expect("openpty");
    // The game must not inherit the master, or closing ours would not hang the terminal up.
    nix::fcntl::fcntl(
        &pty.master,
        nix::fcntl::FcntlArg::F_SETFD(nix::fcntl::FdFlag::FD_CLOEXEC),
    )
    .expect("close-on-exec master");
    let level = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/pillar.txt");
    let io = |fd: &OwnedFd| Stdio::from(fd.try_clone().expect("dup slave"));
    let mut child = Command::new("setsid")
        .arg("--ctty")
        .arg(BIN)
        .arg("play")
        .arg(&level)
        .stdin(io(&pty.slave))
        .stdout(io(&pty.slave))
        .stderr(io(&pty.slave))
        .env("TERM", "xterm-256color")
        .env_remove("ASTAR_ROGUE_PANIC")
        .spawn()
        .expect("spawn setsid (util-linux)");
    drop(pty.slave);
    // Read until the game is drawn, with the one master descriptor we will close.
    let mut master = File::from(pty.master);
    let mut seen = Vec::new();
    let start = Instant::now();
    while !String::from_utf8_lossy(&seen).contains(READY) {
        assert!(start.elapsed() < DEADLINE, "the game never drew: {seen:?}");
        let mut fds = [PollFd::new(master.as_fd(), PollFlags::POLLIN)];
        if poll(&mut fds, PollTimeout::from(100u16)).unwrap_or(0) > 0 {
            let mut buf = [0u8; 4096];
            match master.read(&mut buf) {
                Ok(n) if n > 0 => seen.extend_from_slice(&buf[..n]),
                _ => break,
            }
        }
    }
    assert!(
        String::from_utf8_lossy(&seen).contains(READY),
        "the game ended before it drew: {seen:?}"
    );
    drop(master);
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("try_wait") {
            break status;
        }
        if start.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the game kept running after its terminal vanished");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.code().is_some(), "ended by a signal: {status}");
}
