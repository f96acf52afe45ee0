//! The real binary on a pseudo-terminal of 80x24, the one launcher the terminal tests
//! share: `setsid --ctty` (util-linux) makes the game a session leader with the pty as its
//! controlling terminal, a thread reads everything it writes from the master side, and the
//! test keeps the slave side open to read its termios, until it lets the terminal go.

use std::ffi::OsStr;
use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::OwnedFd;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use nix::pty::{Winsize, openpty};
use nix::sys::signal::{Signal, kill};
use nix::sys::termios::{Termios, tcgetattr};
use nix::unistd::Pid;

/// The game's binary.
pub const BIN: &str = env!("CARGO_BIN_EXE_astar-rogue");
/// The pty's size: rows, columns.
pub const SIZE: (u16, u16) = (24, 80);

/// The game running on a pty.
pub struct Pty {
    /// The game's process (`setsid` execs it, so the pid is the game's).
    pub child: Child,
    /// The pty's termios before the game started.
    pub before: Termios,
    master: Option<File>,
    slave: Option<OwnedFd>,
    output: Arc<Mutex<Vec<u8>>>,
    /// The reader of the master side, and its stop.
    reader: Option<(JoinHandle<()>, Arc<AtomicBool>)>,
}

impl Pty {
    /// Starts `astar-rogue ARGS...` (`play` and its arguments, say) on a new pty, with
    /// `TERM=xterm-256color`, without the test's own `ASTAR_ROGUE_PANIC`, `NO_COLOR` and
    /// `RUST_BACKTRACE`, then `env` set. The game does not inherit the master side, so
    /// closing the test's ([`Pty::vanish`]) hangs its terminal up.
    pub fn spawn(args: &[&OsStr], env: &[(&str, &OsStr)]) -> Pty {
        let size = Winsize {
            ws_row: SIZE.0,
            ws_col: SIZE.1,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        let pty = openpty(Some(&size), None).expect("openpty");
        let before = tcgetattr(&pty.slave).expect("tcgetattr before");
        nix::fcntl::fcntl(
            &pty.master,
            nix::fcntl::FcntlArg::F_SETFD(nix::fcntl::FdFlag::FD_CLOEXEC),
        )
        .expect("close-on-exec master");
        let io = |fd: &OwnedFd| Stdio::from(fd.try_clone().expect("dup slave"));
        let mut cmd = Command::new("setsid");
        cmd.arg("--ctty")
            .arg(BIN)
            .args(args)
            .stdin(io(&pty.slave))
            .stdout(io(&pty.slave))
            .stderr(io(&pty.slave))
            .env("TERM", "xterm-256color")
            .env_remove("ASTAR_ROGUE_PANIC")
            .env_remove("NO_COLOR")
            .env_remove("RUST_BACKTRACE");
        for (k, v) in env {
            cmd.env(k, v);
        }
        let child = cmd.spawn().expect("spawn setsid (util-linux)");
        let output = Arc::new(Mutex::new(Vec::new()));
        let mut read_side = File::from(pty.master.try_clone().expect("dup master"));
        let sink = Arc::clone(&output);
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        let reader = std::thread::spawn(move || {
            use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
            use std::os::fd::AsFd;
            let mut buf = [0u8; 4096];
            // Polled, so that a stop is seen while nothing comes; ends with EIO once every
            // slave descriptor is closed.
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
        Pty {
            child,
            before,
            master: Some(File::from(pty.master)),
            slave: Some(pty.slave),
            output,
            reader: Some((reader, stop)),
        }
    }

    /// Everything the game wrote so far (standard output and standard error), as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.output.lock().unwrap()).into_owned()
    }

    /// How many bytes the game wrote so far.
    pub fn len(&self) -> usize {
        self.output.lock().unwrap().len()
    }

    /// What the terminal shows now, row by row, trailing blanks cut (ratatui moves the
    /// cursor over unchanged cells, so visible text is not contiguous in the raw output).
    pub fn screen(&self) -> Vec<String> {
        screen(&self.output.lock().unwrap())
    }

    /// Where the terminal's cursor stands now, (row, column) from 0, and whether it shows.
    pub fn cursor(&self) -> ((u16, u16), bool) {
        let p = parser(&self.output.lock().unwrap());
        (p.screen().cursor_position(), !p.screen().hide_cursor())
    }

    /// Waits until a row of the screen shows `needle`; panics when the game exits first, or
    /// after `within`.
    pub fn wait_screen(&mut self, needle: &str, within: Duration) {
        let start = Instant::now();
        while !self.screen().iter().any(|row| row.contains(needle)) {
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!(
                    "the game exited ({status}) before showing {needle:?}:\n{}",
                    self.screen().join("\n")
                );
            }
            assert!(
                start.elapsed() < within,
                "no {needle:?} on screen within {within:?}:\n{}",
                self.screen().join("\n")
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// The slave side, while the test keeps it (to read its termios).
    pub fn slave(&self) -> &OwnedFd {
        self.slave.as_ref().expect("the slave side is kept")
    }

    /// A descriptor of the master side, to write from another thread.
    pub fn master(&self) -> File {
        let m = self.master.as_ref().expect("the terminal is there");
        m.try_clone().expect("dup master")
    }

    /// Types `bytes` on the terminal.
    pub fn send(&mut self, bytes: &[u8]) {
        let m = self.master.as_mut().expect("the terminal is there");
        m.write_all(bytes).expect("write to the pty");
        m.flush().expect("flush the pty");
    }

    /// Sends the game a signal.
    pub fn signal(&self, sig: Signal) {
        kill(Pid::from_raw(self.child.id() as i32), sig).expect("kill");
    }

    /// Waits for the game to exit; panics after `within`.
    pub fn wait_exit(&mut self, within: Duration) -> ExitStatus {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return status;
            }
            assert!(
                start.elapsed() < within,
                "the game did not exit within {within:?}; output {:?}",
                self.text()
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Once the game has exited: lets the slave side go, so that the reader takes the
    /// last bytes and stops (waiting at most `within` for it).
    pub fn drain(&mut self, within: Duration) {
        drop(self.slave.take());
        let Some((reader, _)) = self.reader.take() else {
            return;
        };
        let start = Instant::now();
        while !reader.is_finished() && start.elapsed() < within {
            std::thread::sleep(Duration::from_millis(5));
        }
        if reader.is_finished() {
            let _ = reader.join();
        }
    }

    /// The terminal goes away (its window closes): every descriptor of its master side is
    /// closed, the reader's too, and the test's slave side.
    pub fn vanish(&mut self) {
        self.stop_reader();
        drop(self.slave.take());
        drop(self.master.take());
    }

    fn stop_reader(&mut self) {
        if let Some((reader, stop)) = self.reader.take() {
            stop.store(true, Ordering::SeqCst);
            let _ = reader.join();
        }
    }
}

impl Drop for Pty {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        self.stop_reader();
    }
}

/// The screen a terminal of [`SIZE`] shows after `bytes`, as rows of text with trailing
/// blanks cut.
pub fn screen(bytes: &[u8]) -> Vec<String> {
    let cols = SIZE.1;
    parser(bytes)
        .screen()
        .rows(0, cols)
        .map(|r| r.trim_end().to_string())
        .collect()
}

/// A terminal of [`SIZE`] that has been given `bytes`.
fn parser(bytes: &[u8]) -> vt100::Parser {
    let (rows, cols) = SIZE;
    let mut p = vt100::Parser::new(
        std::num::NonZeroU16::new(rows).unwrap(),
        std::num::NonZeroU16::new(cols).unwrap(),
        0,
    );
    p.process(bytes);
    p
}
