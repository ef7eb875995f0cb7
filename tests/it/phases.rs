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

/// n = 5,000 with one queen placed: with `--amo pairwise` (`BIG_ARGS`) its CNF is 208 G
/// clauses, terabytes of DIMACS that no run writes to the end: a writing that does not stop
/// is a hang.
const BIG_PARAM: &str = "letting n = 5000\nletting init = [[0,0]]\n";

/// The arguments of a solve of [`BIG_PARAM`] (the solver's name follows).
const BIG_ARGS: [&str; 6] = [
    "solve",
    "--instance",
    "big.param",
    "--amo",
    "pairwise",
    "--solver",
];

/// A folder for `solve --instance big.param --solver NAME` runs: the instance, a `bin` folder
/// put first on PATH holding the solver `NAME` (a script `body` that first touches the marker
/// `ran`), and a private TMPDIR where the solver's input is written.
struct ExternalCase {
    dir: tempfile::TempDir,
}

impl ExternalCase {
    fn new(name: &str, body: &str) -> ExternalCase {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(d.join("big.param"), BIG_PARAM).unwrap();
        std::fs::create_dir(d.join("bin")).unwrap();
        std::fs::create_dir(d.join("tmp")).unwrap();
        let script = d.join("bin").join(name);
        let marker = d.join("ran");
        std::fs::write(
            &script,
            format!("#!/bin/sh\ntouch '{}'\n{body}\n", marker.display()),
        )
        .unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        ExternalCase { dir }
    }

    fn spawn(&self, args: &[&str]) -> Child {
        let d = self.dir.path();
        let path = format!(
            "{}:{}",
            d.join("bin").display(),
            std::env::var("PATH").unwrap_or_default()
        );
        Command::new(BIN)
            .args(args)
            .current_dir(d)
            .env("PATH", path)
            .env("TMPDIR", d.join("tmp"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn queens-sat")
    }

    /// Whether the solver was started.
    fn ran(&self) -> bool {
        self.dir.path().join("ran").exists()
    }

    /// Everything left in the private TMPDIR.
    fn leftovers(&self) -> Vec<std::path::PathBuf> {
        std::fs::read_dir(self.dir.path().join("tmp"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect()
    }

    /// The size of the solver input being written (0 before it exists).
    fn input_bytes(&self) -> u64 {
        self.leftovers()
            .iter()
            .filter_map(|d| std::fs::metadata(d.join("instance.cnf")).ok())
            .map(|m| m.len())
            .sum()
    }
}

/// Waits for `child` (a hang past [`HANG_GUARD`] fails); (exit code, stderr).
fn finish(mut child: Child, what: &str) -> (i32, String) {
    let t = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if t.elapsed() > HANG_GUARD {
            hang(&mut child, what);
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (status.code().unwrap_or(-1), err)
}

/// `--timeout 3` while the solver's input is written: UNKNOWN at the limit, the solver never
/// started, its temporary input removed (the writing used to run to its end: 15-20 s here
/// with the default AMO, and a hang with pairwise).
fn the_limit_stops_the_input(case: &ExternalCase, solver: &str) {
    let mut args = BIG_ARGS.to_vec();
    args.extend([solver, "--timeout", "3"]);
    let (code, err) = finish(case.spawn(&args), "solve --timeout 3 on n = 5000");
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("UNKNOWN (time limit of 3 s reached)"), "{err}");
    assert!(
        !case.ran(),
        "the solver started: the writing ran past the limit"
    );
    assert_eq!(case.leftovers(), Vec::<std::path::PathBuf>::new());
}

/// An external solver's input stops at the time limit and on SIGINT / SIGTERM (a stand-in
/// solver: what is tested is the writing before it starts).
#[test]
fn an_external_solvers_input_stops_at_the_limit_and_on_signals() {
    let case = ExternalCase::new("stand-in", "echo 's UNKNOWN'");
    the_limit_stops_the_input(&case, "stand-in");
    for sig in [libc::SIGINT, libc::SIGTERM] {
        let mut args = BIG_ARGS.to_vec();
        args.push("stand-in");
        let child = case.spawn(&args);
        // Mid-write: the input has its first megabytes.
        let t = Instant::now();
        while case.input_bytes() < 1 << 20 {
            assert!(t.elapsed() < HANG_GUARD, "no input after {HANG_GUARD:?}");
            std::thread::sleep(Duration::from_millis(5));
        }
        // SAFETY: a plain system call to our own child, not yet reaped.
        unsafe {
            libc::kill(child.id() as i32, sig);
        }
        let (code, err) = finish(child, "solve --solver stand-in after a signal");
        assert_eq!(code, 130, "signal {sig}: {err}");
        assert!(err.contains("interrupted"), "{err}");
        assert!(!case.ran(), "the solver started after the signal");
        assert_eq!(case.leftovers(), Vec::<std::path::PathBuf>::new());
    }
}

/// The same with the real cadical (through a wrapper that records its start): its input stops
/// at the limit, and a small instance still reaches it and is solved.
#[test_programs::requires(cadical)]
#[test]
fn cadicals_input_stops_at_the_limit() {
    crate::common::require_solver("cadical");
    let real = queens_sat::solve::external::resolve_solver("cadical").unwrap();
    let case = ExternalCase::new("cadical", &format!("exec '{}' \"$@\"", real.display()));
    the_limit_stops_the_input(&case, "cadical");
    let (code, err) = finish(
        case.spawn(&["solve", "-n", "8", "--solver", "cadical"]),
        "solve -n 8 --solver cadical",
    );
    assert_eq!(code, 10, "{err}");
    assert!(case.ran(), "the wrapper did not run: {err}");
}

/// A folder holding `g.txt`, the excluded-diagonals list of n = 24, seed 18, whose first 25
/// diagonals make an UNSAT instance with a 2.9 GB VeriPB proof (35 s): a budget of 50 MB is
/// reached in a fraction of it.
fn proof_case() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "generate",
        "diagonals",
        "-n",
        "24",
        "--min-free",
        "1",
        "--seed",
        "18",
        "-o",
        "g.txt",
    ];
    crate::common::run_expect(dir.path(), &args, 0);
    dir
}

/// The files of `dir` but `g.txt`.
fn files_but_instance(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "g.txt")
        .collect()
}

const PROOF_ARGS: [&str; 7] = [
    "solve",
    "--instance",
    "g.txt",
    "--diags",
    "25",
    "--certify",
    "--proof",
];

/// A proof file has a size budget (`--proof-budget`, or QUEENS_SAT_PROOF_BUDGET): a warning
/// past 80 % of it, then one error line naming it, exit 1, and no proof, partial or whole (a
/// proof used to grow without a bound or a word: 7.8 GB after a minute).
#[test]
fn a_proof_file_stops_at_its_budget() {
    let dir = proof_case();
    let d = dir.path();
    for (proof, budget, env) in [
        ("x.pbp", Some("50M"), None),
        ("x.lrat", Some("50M"), None),
        ("x.pbp", None, Some("50M")),
    ] {
        let mut args = PROOF_ARGS.to_vec();
        args.push(proof);
        if let Some(b) = budget {
            args.extend(["--proof-budget", b]);
        }
        let mut cmd = Command::new(BIN);
        cmd.args(&args)
            .current_dir(d)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        match env {
            Some(v) => cmd.env("QUEENS_SAT_PROOF_BUDGET", v),
            None => cmd.env_remove("QUEENS_SAT_PROOF_BUDGET"),
        };
        let (code, err) = finish(cmd.spawn().unwrap(), "solve --proof under a budget");
        let lines: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
        assert_eq!(code, 1, "{args:?}: {err}");
        assert_eq!(lines.len(), 2, "{args:?}: a warning and an error:\n{err}");
        assert!(
            lines[0].starts_with("queens-sat: warning: the proof for x.")
                && lines[0].contains("80 % of its size budget of 50 MB"),
            "{err}"
        );
        assert!(
            lines[1].starts_with(&format!("queens-sat: error: {proof}: "))
                && lines[1].contains("size budget of 50 MB")
                && lines[1].contains("removed")
                && lines[1].contains("--proof-budget"),
            "{err}"
        );
        assert_eq!(files_but_instance(d), Vec::<String>::new(), "{args:?}");
    }
    // A budget that is not a size is refused before anything runs, naming where it came from.
    let mut args = PROOF_ARGS.to_vec();
    args.extend(["x.pbp", "--proof-budget", "lots"]);
    crate::common::assert_one_line_error(d, &args, &["--proof-budget", "'lots' is not a size"]);
    let out = Command::new(BIN)
        .args(&args[..args.len() - 2])
        .current_dir(d)
        .env("QUEENS_SAT_PROOF_BUDGET", "lots")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("QUEENS_SAT_PROOF_BUDGET: 'lots' is not a size"),
        "{err}"
    );
    assert_eq!(files_but_instance(d), Vec::<String>::new());
}

/// `solve --certify --solver S --proof-budget B` (or QUEENS_SAT_PROOF_BUDGET) without
/// `--proof`: the DRAT proof S writes into a temporary file is watched while S runs, and past
/// the budget S is stopped, the solve ends with one error line naming the budget (exit 1) and
/// the temporary proof is removed. (That proof had no bound: this instance is one CaDiCaL does
/// not refute in minutes, its proof growing all along.) Any other solver refuses the budget.
fn drat_budget_stops(solver: &str) {
    let dir = proof_case();
    let d = dir.path();
    for (budget, env) in [(Some("1000"), None), (None, Some("1k"))] {
        let mut args = vec![
            "solve",
            "--instance",
            "g.txt",
            "--diags",
            "25",
            "--certify",
            "--solver",
            solver,
        ];
        if let Some(b) = budget {
            args.extend(["--proof-budget", b]);
        }
        let mut cmd = Command::new(BIN);
        // The temporary proof's folder inside the test's, to see it removed.
        cmd.args(&args)
            .current_dir(d)
            .env("TMPDIR", d)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        match env {
            Some(v) => cmd.env("QUEENS_SAT_PROOF_BUDGET", v),
            None => cmd.env_remove("QUEENS_SAT_PROOF_BUDGET"),
        };
        let (code, err) = finish(cmd.spawn().unwrap(), "solve --certify under a DRAT budget");
        let lines: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
        assert_eq!(code, 1, "{args:?}: {err}");
        let last = lines.last().copied().unwrap_or_default();
        assert!(
            last.starts_with(&format!("queens-sat: error: the DRAT proof of {solver}"))
                && last.contains("size budget of 1000 bytes")
                && last.contains("removed"),
            "{err}"
        );
        // At most the 80 % warning before it.
        assert!(lines.len() <= 2, "{err}");
        assert_eq!(files_but_instance(d), Vec::<String>::new(), "{args:?}");
    }
}

#[test]
fn a_linked_solvers_drat_proof_stops_at_its_budget() {
    drat_budget_stops("lib:cadical");
    // Where no proof file is written, the budget would change nothing: refused.
    let dir = proof_case();
    for solver in ["varisat", "bitboard", "auto"] {
        crate::common::assert_one_line_error(
            dir.path(),
            &[
                "solve",
                "-n",
                "8",
                "--certify",
                "--solver",
                solver,
                "--proof-budget",
                "1G",
            ],
            &["--proof-budget", "needs --proof", "DRAT"],
        );
    }
    // Without --certify there is no proof at all.
    crate::common::assert_one_line_error(
        dir.path(),
        &["solve", "-n", "8", "--proof-budget", "1G"],
        &["--certify"],
    );
}

#[test]
#[test_programs::requires(cadical)]
fn an_external_solvers_drat_proof_stops_at_its_budget() {
    crate::common::require_solver("cadical");
    drat_budget_stops("cadical");
}

/// SIGTERM / SIGINT while a proof is written: exit 130, and neither the proof nor its
/// temporary file is left.
#[test]
fn a_signal_stops_a_proof_being_written() {
    let dir = proof_case();
    let d = dir.path();
    for sig in [libc::SIGTERM, libc::SIGINT] {
        let mut args = PROOF_ARGS.to_vec();
        args.extend(["x.pbp", "--proof-budget", "none"]);
        let child = Command::new(BIN)
            .args(&args)
            .current_dir(d)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Mid-proof: its temporary file has its first megabytes.
        let t = Instant::now();
        let written = || -> u64 {
            std::fs::read_dir(d)
                .unwrap()
                .map(|e| e.unwrap())
                .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
                .filter_map(|e| e.metadata().ok())
                .map(|m| m.len())
                .sum()
        };
        while written() < 1 << 20 {
            assert!(t.elapsed() < HANG_GUARD, "no proof after {HANG_GUARD:?}");
            std::thread::sleep(Duration::from_millis(5));
        }
        // SAFETY: a plain system call to our own child, not yet reaped.
        unsafe {
            libc::kill(child.id() as i32, sig);
        }
        let (code, err) = finish(child, "solve --proof after a signal");
        assert_eq!(code, 130, "signal {sig}: {err}");
        assert_eq!(files_but_instance(d), Vec::<String>::new());
    }
}
