//! Every phase of `solve` and `count` stops at its limit and on SIGINT / SIGTERM (issue 63):
//! printing a big board, printing boards into a slow pipe, writing an external solver's input
//! and writing a proof file. Each test asserts what the stop left behind (the exit code, the
//! message, no partial file); a stop that never comes fails at [`HANG_GUARD`], never at a tight
//! time. The stop latencies themselves are measured by `scripts/stop-times.py`.

use crate::common::BIN;
use queens_sat::interrupt::HANG_GUARD;

use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Starts `queens-sat ARGS` in `dir` with stdout and stderr piped.
fn spawn(dir: &Path, args: &[&str]) -> Child {
    Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn queens-sat")
}

/// Kills `child` and fails: it did not stop within [`HANG_GUARD`].
fn hang(child: &mut Child, what: &str) -> ! {
    let _ = child.kill();
    let _ = child.wait();
    panic!("{what}: still running after {HANG_GUARD:?} (a hang)");
}

/// Reads `child`'s stdout to its end at most `rate` bytes a second (a slow pipe), the reading
/// stopped at [`HANG_GUARD`]; returns (exit code, bytes read, stderr).
fn read_slowly(mut child: Child, rate: usize, what: &str) -> (i32, usize, String) {
    let t = Instant::now();
    let mut out = child.stdout.take().unwrap();
    let chunk = rate / 100;
    let mut buf = vec![0u8; chunk];
    let mut total = 0;
    loop {
        let k = out.read(&mut buf).unwrap();
        if k == 0 {
            break;
        }
        total += k;
        if t.elapsed() > HANG_GUARD {
            hang(&mut child, what);
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let status = child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (status.code().unwrap_or(-1), total, err)
}

/// `count --boards all --timeout` into a pipe read at 400 KB/s: the limit is wall-clock, so
/// the run ends about a second after it started, however slowly its boards are read (it used
/// to count only the search's own time, and the printing ran on for minutes).
#[test]
fn count_boards_into_a_slow_pipe_stops_at_its_limit() {
    let dir = tempfile::tempdir().unwrap();
    let child = spawn(
        dir.path(),
        &["count", "-n", "20", "--boards", "all", "--timeout", "1"],
    );
    let (code, bytes, err) = read_slowly(child, 400_000, "count --boards all --timeout 1");
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("UNKNOWN (time limit of 1 s reached)"), "{err}");
    // Whole boards only, each 20 rows of 21 bytes and a blank line between two.
    assert!(bytes > 0 && (bytes + 1) % 421 == 0, "{bytes} bytes");
}

/// SIGTERM while `solve` prints a big board into a pipe: the printing stops at the next
/// buffer and the run exits 130, saying the output is cut short (it used to print all of it,
/// 400 MB here and 4.3 GB at n = 65,536, and exit 10). The pipe holds the child back until
/// the test reads, so the signal always lands mid-board.
#[test]
fn sigterm_stops_printing_a_big_board() {
    for sig in [libc::SIGTERM, libc::SIGINT] {
        let dir = tempfile::tempdir().unwrap();
        let n = 20_000usize;
        let mut child = spawn(dir.path(), &["solve", "-n", &n.to_string()]);
        let mut out = child.stdout.take().unwrap();
        // The first row: the board is being printed (the handlers are in place long before).
        let mut first = vec![0u8; n + 1];
        out.read_exact(&mut first).unwrap();
        assert_eq!(first.iter().filter(|&&b| b == b'Q').count(), 1);
        // SAFETY: a plain system call to our own child, not yet reaped.
        unsafe {
            libc::kill(child.id() as i32, sig);
        }
        let t = Instant::now();
        let mut rest = 0usize;
        let mut buf = vec![0u8; 1 << 20];
        loop {
            let k = out.read(&mut buf).unwrap();
            if k == 0 {
                break;
            }
            rest += k;
            if t.elapsed() > HANG_GUARD {
                hang(&mut child, "solve -n 20000 after a signal");
            }
        }
        let status = child.wait().unwrap();
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        assert_eq!(status.code(), Some(130), "signal {sig}: {err}");
        assert!(
            err.contains("interrupted while printing the board"),
            "{err}"
        );
        assert!(
            !err.contains("SAT:"),
            "no summary of a board cut short: {err}"
        );
        // Stopped within a few buffers of the signal, far from the whole 400 MB.
        assert!(
            n + 1 + rest < n * (n + 1) / 2,
            "{rest} bytes after the signal"
        );
    }
}
