//! Output of any length streams: memory stays flat however much a command prints. Only
//! this file's tests spawn processes here, so the peak resident memory of the largest
//! child (getrusage of the children) is theirs.

use std::io::Read;
use std::process::{Command, Stdio};

use nix::sys::resource::{UsageWho, getrusage};

const BIN: &str = env!("CARGO_BIN_EXE_astar-rogue");

/// Runs the binary, counting the bytes it prints without keeping them.
fn count_output(args: &[&str]) -> u64 {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run astar-rogue");
    let mut out = child.stdout.take().unwrap();
    let mut buf = vec![0u8; 1 << 16];
    let mut total = 0u64;
    loop {
        match out.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => total += n as u64,
            Err(e) => panic!("reading: {e}"),
        }
    }
    assert!(child.wait().unwrap().success());
    total
}

/// The largest peak resident memory of any child waited for so far, in bytes.
fn children_peak_rss() -> u64 {
    let usage = getrusage(UsageWho::RUSAGE_CHILDREN).expect("getrusage");
    // Linux reports kilobytes.
    usage.max_rss() as u64 * 1024
}

/// `--frames all` over a long script prints well over 100 MB; the runner holds one frame at
/// a time, so its memory stays far below that.
#[test]
fn a_long_frames_all_script_runs_in_flat_memory() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("long.keys");
    std::fs::write(&script, "#! size: 200x60\n8000*Left 2000*h\n").unwrap();
    let script = script.to_str().unwrap();
    let printed = count_output(&["script", script, "--frames", "all", "--state"]);
    assert!(printed > 100_000_000, "printed only {printed} bytes");
    let peak = children_peak_rss();
    assert!(
        peak < 48 * 1024 * 1024,
        "peak memory {peak} bytes for {printed} bytes of output"
    );
}
