//! SIGINT / SIGTERM: every long command stops cleanly with exit 130, leaves no partial file at
//! the target path (an old file there stays intact), no temp files, and no solver processes.

use crate::common;
use queens_sat::interrupt::HANG_GUARD;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_queens-sat");

/// A running `queens-sat` and the file it writes once its signal handlers are in place
/// (`QUEENS_SAT_READY_FILE`).
struct Spawned {
    child: Child,
    ready: PathBuf,
}

fn spawn(dir: &Path, args: &[&str]) -> Spawned {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let ready = dir.join(format!(
        "queens-sat-{}.ready",
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let child = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .env("QUEENS_SAT_READY_FILE", &ready)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn queens-sat");
    Spawned { child, ready }
}

/// Waits (at most 60 s) until the child has installed its signal handlers (its ready file holds
/// its pid: no fixed delay, which a loaded machine can outlast, so the signal never meets the
/// default action, a kill), then `after` more, to land the signal in the middle of the work
/// (a signal that comes earlier still raises the token the work polls first). Sends `sig`, then
/// waits (a hang past [`HANG_GUARD`] fails) and returns (exit code, stderr, elapsed since the
/// signal). The tests assert on what the stop left behind, not on how fast it came: the stop
/// latencies are measured in docs/benchmarks.md.
fn interrupt(spawned: Spawned, after: Duration, sig: i32) -> (i32, String, Duration) {
    let Spawned { mut child, ready } = spawned;
    let t = Instant::now();
    let want = format!("{}\n", child.id());
    while std::fs::read_to_string(&ready).map_or(true, |s| s != want) {
        assert!(
            child.try_wait().unwrap().is_none(),
            "exited before it was ready"
        );
        assert!(t.elapsed() < HANG_GUARD, "not ready after {HANG_GUARD:?}");
        std::thread::sleep(Duration::from_millis(5));
    }
    std::thread::sleep(after);
    assert!(
        child.try_wait().unwrap().is_none(),
        "finished before the signal: pick a longer job"
    );
    // SAFETY: a plain system call to our own child, not yet reaped (so its id is not reused).
    unsafe {
        libc::kill(child.id() as i32, sig);
    }
    let t = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            use std::io::Read;
            child
                .stderr
                .take()
                .unwrap()
                .read_to_string(&mut err)
                .unwrap();
            return (status.code().unwrap_or(-1), err, t.elapsed());
        }
        if t.elapsed() > HANG_GUARD {
            let _ = child.kill();
            panic!("did not stop within {HANG_GUARD:?} of the signal (a hang)");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn leftovers(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect()
}

#[test]
fn interrupted_encode_keeps_the_old_file_and_leaves_no_temp() {
    for sig in [libc::SIGINT, libc::SIGTERM] {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("big.cnf");
        std::fs::write(&target, "old content\n").unwrap();
        // Pairwise n = 500 is ~4 GB of DIMACS: far longer than the signal delay.
        let child = spawn(
            dir.path(),
            &["encode", "-n", "500", "--amo", "pairwise", "-o", "big.cnf"],
        );
        // Mid-write: the temp file is there (its handlers are in place by then, too).
        let t = Instant::now();
        while leftovers(dir.path()).is_empty() {
            assert!(
                t.elapsed() < HANG_GUARD,
                "no temp file after {HANG_GUARD:?}"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        let (code, err, _) = interrupt(child, Duration::from_millis(100), sig);
        assert_eq!(code, 130, "signal {sig}: {err}");
        assert!(err.contains("interrupted"), "{err}");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "old content\n");
        assert_eq!(leftovers(dir.path()), Vec::<String>::new());
    }
}

#[test]
fn interrupted_in_process_solve_and_count_stop_quickly() {
    let dir = tempfile::tempdir().unwrap();
    // Sequential n = 1000 takes about a minute in varisat.
    let child = spawn(
        dir.path(),
        &[
            "solve",
            "-n",
            "1000",
            "--amo",
            "sequential",
            "--solver",
            "varisat",
        ],
    );
    let (code, err, _) = interrupt(child, Duration::from_millis(500), libc::SIGINT);
    assert_eq!(code, 130, "{err}");
    // Counting 16-queens through SAT takes about 13 s (2 threads); the default engine (the
    // bitboard counter) takes about a second, too short to interrupt.
    let child = spawn(dir.path(), &["count", "-n", "16", "--engine", "sat"]);
    let (code, err, _) = interrupt(child, Duration::from_millis(500), libc::SIGTERM);
    assert_eq!(code, 130, "{err}");
}

#[test]
fn interrupted_external_solve_kills_the_solver() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("child.pid");
    let script = dir.path().join("slow.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nsleep 1000 &\necho $! > {}\nwait\n",
            pid_file.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let child = spawn(
        dir.path(),
        &["solve", "-n", "8", "--solver", script.to_str().unwrap()],
    );
    // The solver runs (its child's pid is written) before the signal.
    wait_for_file(&pid_file);
    let (code, err, _) = interrupt(child, Duration::from_millis(100), libc::SIGINT);
    assert_eq!(code, 130, "{err}");
    // The solver's own child is gone (or a zombie waiting for init to reap it).
    common::assert_pid_file_process_gone(&pid_file);
}

#[test]
fn interrupted_suite_resumes_where_it_stopped() {
    let dir = tempfile::tempdir().unwrap();
    // 40 files, about 1.3 GB: a few seconds of writing.
    std::fs::write(
        dir.path().join("big.suite"),
        "family q\npiece queen\nn 100..138:2\namo pairwise,sequential\n",
    )
    .unwrap();
    let child = spawn(dir.path(), &["suite", "big.suite", "--jobs", "1"]);
    // Interrupted once the first file is finished (a fixed delay could end before it is on a
    // loaded machine), while the other 39 are still to be written.
    let out = dir.path().join("cnf-out/big");
    let t = Instant::now();
    while !std::fs::read_dir(&out)
        .is_ok_and(|mut d| d.any(|e| e.unwrap().file_name().to_string_lossy().ends_with(".cnf")))
    {
        assert!(t.elapsed() < HANG_GUARD, "no file after {HANG_GUARD:?}");
        std::thread::sleep(Duration::from_millis(5));
    }
    let (code, err, _) = interrupt(child, Duration::ZERO, libc::SIGINT);
    assert_eq!(code, 130, "{err}");
    let names = |ext: &str| -> Vec<String> {
        std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(ext))
            .collect()
    };
    assert!(names(".tmp").is_empty(), "{:?}", names(".tmp"));
    let first = names(".cnf").len();
    assert!(
        first > 0 && first < 40,
        "{first} files before the interrupt"
    );
    let manifest = std::fs::read_to_string(out.join("manifest.csv")).unwrap();
    assert_eq!(
        manifest.lines().count() - 1,
        first,
        "the manifest records the finished files"
    );
    // The re-run keeps every finished file and writes only the rest.
    let rerun = Command::new(BIN)
        .args(["suite", "big.suite", "--jobs", "1"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&rerun.stdout),
        String::from_utf8_lossy(&rerun.stderr)
    );
    assert!(rerun.status.success(), "{text}");
    assert!(text.contains(&format!("wrote {} ", 40 - first)), "{text}");
    assert!(text.contains(&format!("kept {first} ")), "{text}");
    assert_eq!(names(".cnf").len(), 40);
}

fn wait_for_file(path: &Path) {
    let t = Instant::now();
    while std::fs::read_to_string(path).map_or(true, |s| !s.ends_with('\n')) {
        assert!(
            t.elapsed() < HANG_GUARD,
            "{} never appeared",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Defect 1 (issue 11): a `queens-sat solve` killed outright (SIGKILL: no handler runs) must not
/// leave its external solver behind, although the solver leads its own process group: the
/// solver is tied to its parent's life (PR_SET_PDEATHSIG).
#[test]
fn a_killed_solve_takes_its_solver_down() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("solver.pid");
    let script = crate::common::sleeping_solver(dir.path(), &pid_file);
    let mut child = spawn(
        dir.path(),
        &[
            "solve",
            "-n",
            "8",
            "--solver",
            script.to_str().unwrap(),
            "--timeout",
            "100",
        ],
    )
    .child;
    wait_for_file(&pid_file);
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    common::assert_pid_file_process_gone(&pid_file);
}

/// Defect 1 (issue 11): when `bench hard` is stopped, it stops each `queens-sat solve` child
/// with SIGTERM first (the child then kills its solver's group) and SIGKILL after a grace, so no
/// external solver survives the bench.
#[test]
fn a_stopped_bench_leaves_no_solver() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("solver.pid");
    let script = crate::common::sleeping_solver(dir.path(), &pid_file);
    let child = spawn(
        dir.path(),
        &[
            "bench",
            "hard",
            "--quick",
            "--solvers",
            script.to_str().unwrap(),
            "--amo",
            "pairwise",
            "--jobs",
            "1",
            "--timeout",
            "100",
        ],
    );
    wait_for_file(&pid_file);
    let (code, err, _) = interrupt(child, Duration::from_millis(10), libc::SIGTERM);
    assert_eq!(code, 130, "{err}");
    common::assert_pid_file_process_gone(&pid_file);
}
