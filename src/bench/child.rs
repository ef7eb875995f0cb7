//! One child `queens-sat solve ... --format json` run, as the harness starts it: every timed
//! solve runs in a fresh process, so that a run past its time limit is really stopped.
//! Imports no other file of the harness.

use std::ffi::OsStr;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::error::{Error, Result};
use crate::interrupt::Cancel;
use crate::process::{Ended, Limits};
use crate::report::SolveRecord;

/// Grace after a child's own `--timeout` before it is killed from here.
pub const GRACE: Duration = Duration::from_secs(30);

/// How long a stopped child gets to stop its own solver after `SIGTERM`, before `SIGKILL`.
pub const TERM_GRACE: Duration = Duration::from_secs(3);

/// What one child `queens-sat solve ... --format json` gave.
pub struct ChildReport {
    /// Its JSON report, or why there is none (exit status and stderr, or killed).
    pub report: std::result::Result<SolveRecord, String>,
    /// Wall-clock seconds of the child.
    pub seconds: f64,
}

/// CPU seconds (user + system) used so far by this process's waited-for children.
pub fn children_cpu_seconds() -> f64 {
    // SAFETY: getrusage only writes the struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        if libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) != 0 {
            return f64::NAN;
        }
        usage
    };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}

/// Runs `exe solve ARGS --timeout T --format json` in a child process, through the library's
/// process runner (`process::run`). A child still running [`GRACE`] after its own
/// time limit is stopped (a report error); once `cancel` is raised the child is stopped and
/// this returns [`Error::Interrupted`]. Stopping sends `SIGTERM` first, so the child kills its
/// own external solver, then `SIGKILL` to the child's group; the solver is also tied to the
/// child's life (`PR_SET_PDEATHSIG`), so no solver outlives a bench run.
pub fn solve_child_json(
    exe: &Path,
    args: &[&OsStr],
    timeout: u32,
    cancel: &Cancel,
) -> Result<ChildReport> {
    let mut cmd = Command::new(exe);
    cmd.arg("solve")
        .args(args)
        .args(["--timeout", &timeout.to_string(), "--format", "json"]);
    let done = crate::process::run(
        &mut cmd,
        &exe.display().to_string(),
        &Limits {
            timeout: Some(Duration::from_secs(u64::from(timeout)) + GRACE),
            term_grace: TERM_GRACE,
            max_stdout: 64 << 20,
            cancel: Some(cancel.clone()),
        },
    )?;
    let report = match done.ended {
        Ended::Cancelled => return Err(Error::Interrupted),
        Ended::TimedOut => Err(format!(
            "still running {} s after its --timeout; stopped",
            GRACE.as_secs()
        )),
        Ended::Overflow => Err("stopped: too much output".to_string()),
        Ended::Exited => done
            .stdout
            .and_then(|out| serde_json::from_slice(&out).map_err(|e| e.to_string()))
            .map_err(|_| {
                let msg = String::from_utf8_lossy(&done.stderr_tail);
                let msg = msg.trim();
                format!(
                    "exit {}: {}",
                    done.status
                        .code()
                        .map_or("by signal".into(), |c| c.to_string()),
                    if msg.is_empty() { "no report" } else { msg }
                )
            }),
    };
    Ok(ChildReport {
        report,
        seconds: done.seconds,
    })
}
