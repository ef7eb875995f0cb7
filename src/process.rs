//! One runner for child processes (external solvers, the benchmark's `queens-sat solve` children,
//! jobs): [`run`] starts a command in its own process group, drains its stdout (with a byte cap)
//! and the tail of its stderr on threads, and polls it against a time limit and a cancel token
//! (which the command line's SIGINT / SIGTERM handler raises). Whatever ends the wait, nothing of the child survives [`run`]:
//!
//! - a child that must stop gets `SIGTERM` first (a `queens-sat` child then stops its own
//!   solver), and `SIGKILL` on its whole process group after [`Limits::term_grace`];
//! - every child is tied to this process's life with `PR_SET_PDEATHSIG` (Linux), so even a
//!   `SIGKILL` of this process takes the child down with it (the kernel does it). A grandchild
//!   forked by the child does not inherit that tie; it dies with the group kill above, which
//!   only an outright `SIGKILL` of this process can skip.
//!
//! Unix only.

use std::io::{self, Read};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use crate::error::{Error, Result};
use crate::interrupt::{Cancel, Stop};

/// How much of the end of a child's stderr is kept for error messages.
pub const STDERR_TAIL_BYTES: usize = 4096;

/// How long to wait for the output pipes to reach end-of-file once the process group is dead.
const PIPE_DRAIN_GRACE: Duration = Duration::from_secs(2);

/// Longest polling interval while waiting for the child.
const MAX_POLL: Duration = Duration::from_millis(10);

/// What may end a [`run`] early, and how politely.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Stop the child after this long.
    pub timeout: Option<Duration>,
    /// Between `SIGTERM` and `SIGKILL` when the child must stop (zero: `SIGKILL` at once).
    pub term_grace: Duration,
    /// Stop the child once its stdout exceeds this many bytes.
    pub max_stdout: u64,
    /// Stop the child when this flag is raised.
    pub cancel: Option<Cancel>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            timeout: None,
            term_grace: Duration::ZERO,
            max_stdout: u64::MAX,
            cancel: None,
        }
    }
}

/// Why the wait ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// The child exited by itself.
    Exited,
    /// [`Limits::timeout`] passed.
    TimedOut,
    /// [`Limits::cancel`] was raised.
    Cancelled,
    /// The child wrote more than [`Limits::max_stdout`] bytes.
    Overflow,
}

/// What a [`run`] saw.
#[derive(Debug)]
pub struct Finished {
    /// Why the wait ended.
    pub ended: Ended,
    /// The child's exit status (after a stop, the status of the stopped child).
    pub status: ExitStatus,
    /// All of stdout, when it was read to its end within the cap.
    pub stdout: std::result::Result<Vec<u8>, String>,
    /// The last [`STDERR_TAIL_BYTES`] bytes of stderr.
    pub stderr_tail: Vec<u8>,
    /// Wall-clock seconds from spawn to reaping.
    #[cfg_attr(not(feature = "harness"), allow(dead_code))]
    pub seconds: f64,
}

/// Runs `cmd` (stdin closed, stdout and stderr piped) in its own process group, tied to this
/// process's life, until it exits or `limits` stop it; `name` names it in errors.
pub fn run(cmd: &mut Command, name: &str, limits: &Limits) -> Result<Finished> {
    let t0 = Instant::now();
    let parent = std::process::id();
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    // SAFETY: the closure runs in the forked child before exec and only makes async-signal-safe
    // system calls (prctl, getppid, _exit).
    unsafe {
        cmd.pre_exec(move || {
            #[cfg(target_os = "linux")]
            {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                // The parent may have died between fork and prctl: then nobody would kill us.
                if libc::getppid() as u32 != parent {
                    libc::_exit(1);
                }
            }
            #[cfg(not(target_os = "linux"))]
            let _ = parent;
            Ok(())
        });
    }
    let child = spawn(cmd).map_err(|e| Error::Solver(format!("cannot start {name}: {e}")))?;
    let mut group = ProcessGroup::new(child);

    let overflow = Arc::new(AtomicBool::new(false));
    let stdout_rx = {
        let pipe = group.child.stdout.take();
        let flag = Arc::clone(&overflow);
        let cap = limits.max_stdout;
        let (tx, rx) = mpsc::channel();
        spawn_reader("child-stdout", move || {
            let result = match pipe {
                Some(pipe) => read_capped(pipe, cap, &flag),
                None => Ok(Vec::new()),
            };
            let _ = tx.send(result);
        })?;
        rx
    };
    let stderr_rx = {
        let pipe = group.child.stderr.take();
        let (tx, rx) = mpsc::channel();
        spawn_reader("child-stderr", move || {
            let _ = tx.send(pipe.map(read_tail).unwrap_or_default());
        })?;
        rx
    };

    // One stop token: the caller's, with the time limit (counted from the spawn).
    let stop = limits
        .cancel
        .clone()
        .unwrap_or_default()
        .with_timeout(limits.timeout);
    let mut pause = Duration::from_millis(1);
    let ended = loop {
        if overflow.load(Ordering::Acquire) {
            break Ended::Overflow;
        }
        match stop.stopped() {
            Some(Stop::Cancelled) => break Ended::Cancelled,
            Some(Stop::TimeLimit(_)) => break Ended::TimedOut,
            None => {}
        }
        if group.has_exited(name)? {
            break Ended::Exited;
        }
        if let Some(deadline) = stop.deadline() {
            pause = pause.min(deadline.saturating_duration_since(Instant::now()));
        }
        thread::sleep(pause);
        pause = (pause * 2).min(MAX_POLL);
    };
    if ended != Ended::Exited && !limits.term_grace.is_zero() {
        group.terminate(name, limits.term_grace)?;
    }
    // Whatever happened, nothing of the child survives this point.
    group.kill();
    let status = group.reap(name)?;
    let stdout = match stdout_rx.recv_timeout(PIPE_DRAIN_GRACE) {
        Ok(Ok(bytes)) => Ok(bytes),
        Ok(Err(ReadFailure::Overflow)) => {
            Err(format!("more than {} bytes of output", limits.max_stdout))
        }
        Ok(Err(ReadFailure::Io(e))) => Err(format!("reading the output of {name}: {e}")),
        Err(_) => Err(format!(
            "the output of {name} is held open by a process that left its process group"
        )),
    };
    let stderr_tail = stderr_rx.recv_timeout(PIPE_DRAIN_GRACE).unwrap_or_default();
    Ok(Finished {
        ended,
        status,
        stdout,
        stderr_tail,
        seconds: t0.elapsed().as_secs_f64(),
    })
}

/// Spawns, retrying briefly on `ETXTBSY`: an executable just written may still be open for
/// writing in a child forked concurrently by another thread.
fn spawn(cmd: &mut Command) -> io::Result<Child> {
    let mut attempt = 0u32;
    loop {
        match cmd.spawn() {
            Err(e) if e.raw_os_error() == Some(libc::ETXTBSY) && attempt < 20 => {
                attempt += 1;
                thread::sleep(Duration::from_millis(5 * u64::from(attempt)));
            }
            other => return other,
        }
    }
}

fn spawn_reader(name: &str, body: impl FnOnce() + Send + 'static) -> Result<()> {
    thread::Builder::new()
        .name(name.to_string())
        .spawn(body)
        .map(drop)
        .map_err(|e| Error::Internal(format!("cannot start a thread to read a child: {e}")))
}

/// Why reading stdout stopped early.
enum ReadFailure {
    Overflow,
    Io(io::Error),
}

/// Reads `pipe` to its end, failing (and raising `overflow`) once more than `cap` bytes arrive.
fn read_capped(
    mut pipe: impl Read,
    cap: u64,
    overflow: &AtomicBool,
) -> std::result::Result<Vec<u8>, ReadFailure> {
    let mut out = Vec::new();
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        match pipe.read(&mut chunk) {
            Ok(0) => return Ok(out),
            Ok(n) => {
                if out.len() as u64 + n as u64 > cap {
                    overflow.store(true, Ordering::Release);
                    return Err(ReadFailure::Overflow);
                }
                out.extend_from_slice(&chunk[..n]);
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(ReadFailure::Io(e)),
        }
    }
}

/// Drains `pipe`, keeping only its last [`STDERR_TAIL_BYTES`] bytes.
fn read_tail(mut pipe: impl Read) -> Vec<u8> {
    let mut tail = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        match pipe.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => {
                tail.extend_from_slice(&chunk[..n]);
                if tail.len() > 2 * STDERR_TAIL_BYTES {
                    tail.drain(..tail.len() - STDERR_TAIL_BYTES);
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    if tail.len() > STDERR_TAIL_BYTES {
        tail.drain(..tail.len() - STDERR_TAIL_BYTES);
    }
    tail
}

/// A spawned child leading its own process group. Dropping it kills the group and reaps the
/// child, so early returns and panics leave nothing behind.
struct ProcessGroup {
    child: Child,
    reaped: bool,
}

impl ProcessGroup {
    fn new(child: Child) -> Self {
        ProcessGroup {
            child,
            reaped: false,
        }
    }

    /// The group id (the child's pid), if it is a sane value to signal.
    fn pgid(&self) -> Option<libc::pid_t> {
        libc::pid_t::try_from(self.child.id())
            .ok()
            .filter(|&p| p > 1)
    }

    /// Whether the child has terminated, without reaping it: while it is an unreaped zombie its
    /// pid (= the group id) cannot be reused, so [`ProcessGroup::kill`] cannot hit a stranger.
    fn has_exited(&self, name: &str) -> Result<bool> {
        let Some(pid) = self.pgid() else {
            return Ok(true);
        };
        loop {
            // SAFETY: siginfo_t is plain data for which all-zero is valid; waitid only writes it.
            let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
            // SAFETY: valid pointer to a local siginfo_t; WNOWAIT leaves the child unreaped.
            let rc = unsafe {
                libc::waitid(
                    libc::P_PID,
                    pid as libc::id_t,
                    &mut info,
                    libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
                )
            };
            if rc == 0 {
                // SAFETY: waitid filled `info` (or left it zeroed when nothing has changed).
                return Ok(unsafe { info.si_pid() } != 0);
            }
            let err = io::Error::last_os_error();
            if err.kind() != io::ErrorKind::Interrupted {
                return Err(Error::Solver(format!("waiting for {name}: {err}")));
            }
        }
    }

    /// Sends `SIGTERM` to the child and waits up to `grace` for it to exit.
    fn terminate(&self, name: &str, grace: Duration) -> Result<()> {
        let Some(pid) = self.pgid() else {
            return Ok(());
        };
        // SAFETY: plain syscall to our own (unreaped, so not reusable) child.
        unsafe {
            libc::kill(pid, libc::SIGTERM);
        }
        let until = Instant::now() + grace;
        while Instant::now() < until {
            if self.has_exited(name)? {
                return Ok(());
            }
            thread::sleep(Duration::from_millis(5));
        }
        Ok(())
    }

    /// Sends SIGKILL to the whole process group (harmless if it is already gone).
    fn kill(&self) {
        if self.reaped {
            return;
        }
        if let Some(pgid) = self.pgid() {
            // SAFETY: plain syscall; the negative id addresses the child's own group only.
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
        }
    }

    /// Waits for the (terminated or killed) child and returns its status.
    fn reap(&mut self, name: &str) -> Result<ExitStatus> {
        let status = self
            .child
            .wait()
            .map_err(|e| Error::Solver(format!("waiting for {name}: {e}")))?;
        self.reaped = true;
        Ok(status)
    }
}

impl Drop for ProcessGroup {
    fn drop(&mut self) {
        if !self.reaped {
            self.kill();
            let _ = self.child.wait();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_a_child_and_keeps_its_exit_code_and_output() {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "echo hi; exit 3"]);
        let done = run(&mut cmd, "sh", &Limits::default()).unwrap();
        assert_eq!(done.ended, Ended::Exited);
        assert_eq!(done.status.code(), Some(3));
        assert_eq!(done.stdout.unwrap(), b"hi\n");
    }
}
