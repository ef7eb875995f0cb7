//! Helpers shared by the integration tests: running the binary, and the independent brute-force
//! oracle ([`oracle`]) that knows nothing of the crate's presolve or CNF.

#![allow(dead_code)]

pub mod counting;
pub mod hall;
pub mod oracle;
pub mod php;

use queens_sat::interrupt::HANG_GUARD;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Stdio};

pub const BIN: &str = env!("CARGO_BIN_EXE_queens-sat");

/// What one run of the binary produced.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// Lines of stderr that are not empty.
    pub fn stderr_lines(&self) -> Vec<&str> {
        self.stderr
            .lines()
            .filter(|l| !l.trim().is_empty())
            .collect()
    }
}

/// Runs `queens-sat ARGS` in `dir`.
pub fn run(dir: &Path, args: &[&str]) -> Run {
    let out = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {BIN}: {e}"));
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs and asserts the exit code (and no panic), showing everything on failure.
pub fn run_expect(dir: &Path, args: &[&str], code: i32) -> Run {
    let r = run(dir, args);
    assert_eq!(
        r.code, code,
        "queens-sat {args:?}: expected exit {code}, got {}\nstdout:\n{}\nstderr:\n{}",
        r.code, r.stdout, r.stderr
    );
    assert!(
        !r.stderr.contains("panicked"),
        "{args:?} panicked:\n{}",
        r.stderr
    );
    r
}

/// Asserts a one-line error (exit 1, nothing on stdout) mentioning every needle; returns it.
pub fn assert_one_line_error(dir: &Path, args: &[&str], needles: &[&str]) -> String {
    let r = run_expect(dir, args, 1);
    let lines = r.stderr_lines();
    assert_eq!(
        lines.len(),
        1,
        "{args:?}: expected one stderr line:\n{}",
        r.stderr
    );
    assert!(
        r.stdout.is_empty(),
        "{args:?}: stdout on error:\n{}",
        r.stdout
    );
    for needle in needles {
        assert!(
            lines[0].contains(needle),
            "{args:?}: {:?} lacks {needle:?}",
            lines[0]
        );
    }
    lines[0].to_string()
}

pub type Cell = (i64, i64);

/// An instance as the oracle sees it: side, pre-placed queens, unavailable cells.
#[derive(Clone, Debug, Default)]
pub struct Plain {
    pub n: i64,
    pub placed: Vec<Cell>,
    pub blocked: BTreeSet<Cell>,
}

/// Reads the three instance formats the way the README documents them (param: `init` 0-based,
/// `blocks` 1-based; excluded diagonals: `[k,1]` is r+c = k, `[k,0]` is r-c = k-(n-1)),
/// keeping the first `diags` excluded diagonals.
pub fn parse_plain(text: &str, diags: Option<usize>) -> Plain {
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim_start().starts_with(['#', '$']) && !l.trim().is_empty())
        .collect();
    let joined = lines.join("\n");
    let ints = |s: &str| -> Vec<i64> {
        s.split(|c: char| !(c.is_ascii_digit() || c == '-'))
            .filter(|t| !t.is_empty())
            .map(|t| t.parse().unwrap())
            .collect()
    };
    let pairs = |s: &str| -> Vec<Cell> { ints(s).chunks(2).map(|p| (p[0], p[1])).collect() };
    let mut inst = Plain::default();
    if joined.starts_with("letting") {
        for stmt in joined.split("letting").filter(|s| !s.trim().is_empty()) {
            let (name, value) = stmt.split_once('=').expect("letting NAME = VALUE");
            match name.trim() {
                "n" => inst.n = value.trim().parse().unwrap(),
                "init" => inst.placed = pairs(value),
                "blocks" => {
                    inst.blocked = pairs(value)
                        .into_iter()
                        .map(|(r, c)| (r - 1, c - 1))
                        .collect()
                }
                other => panic!("unknown letting {other}"),
            }
        }
    } else if joined.starts_with("n =") {
        let mut list: Vec<Cell> = Vec::new();
        for stmt in joined.split('\n') {
            if let Some(v) = stmt.strip_prefix("n =") {
                inst.n = v.trim().parse().unwrap();
            }
        }
        let diags_part = joined.split_once("\ndiags =").expect("diags =").1;
        list.extend(pairs(diags_part));
        let n = inst.n;
        for &(k, t) in list.iter().take(diags.unwrap_or(usize::MAX)) {
            for r in 0..n {
                let c = if t == 1 { k - r } else { r - (k - (n - 1)) };
                if (0..n).contains(&c) {
                    inst.blocked.insert((r, c));
                }
            }
        }
    } else {
        inst.n = lines.len() as i64;
        for (r, row) in lines.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                match ch {
                    'Q' => inst.placed.push((r as i64, c as i64)),
                    'x' => {
                        inst.blocked.insert((r as i64, c as i64));
                    }
                    _ => {}
                }
            }
        }
    }
    inst
}

/// Queens attack along rows, columns and diagonals ([`oracle::QUEEN`]).
pub fn queens_attack(a: Cell, b: Cell) -> bool {
    oracle::QUEEN.attack(a, b)
}

/// Number of n-queens solutions of `inst` ([`oracle::count`]; small n only).
pub fn oracle_count(inst: &Plain) -> u64 {
    oracle::count(inst, &oracle::QUEEN)
}

/// Panics unless solver `name` is on PATH.
///
/// Tests that need a solver also carry `#[test_programs::requires(NAME)]` (the test-only crate
/// tests/programs): it marks them `#[ignore]` when the solver was missing at build time (never
/// under `CI=true`), so the harness reports such tests as ignored instead of running them (a
/// test can only be reported ignored from a build-time attribute). This check catches the rest (a solver removed after the build, or a missing one
/// under CI) with the product's own lookup (`resolve_solver`, as `--solver NAME` uses): the test
/// fails, it never passes without running.
#[allow(dead_code)]
pub fn require_solver(name: &str) {
    if let Err(e) = queens_sat::solve::external::resolve_solver(name) {
        panic!(
            "{e} (install it, or `touch tests/programs/build.rs` so that its tests are marked ignored)"
        );
    }
}

/// [`assert_process_gone`] for the process id a fake solver wrote to `pid_file`.
#[allow(dead_code)]
pub fn assert_pid_file_process_gone(pid_file: &Path) {
    let text = std::fs::read_to_string(pid_file)
        .unwrap_or_else(|e| panic!("{}: {e} (the fake solver never ran?)", pid_file.display()));
    let pid: i32 = text
        .trim()
        .parse()
        .unwrap_or_else(|e| panic!("{}: {text:?}: {e}", pid_file.display()));
    assert_process_gone(pid);
}

/// Waits (a hang past [`HANG_GUARD`] fails) until process `pid` is gone or a zombie waiting to be reaped; panics
/// otherwise. Used to prove that killed solvers leave no process behind.
#[allow(dead_code)]
pub fn assert_process_gone(pid: i32) {
    let deadline = std::time::Instant::now() + HANG_GUARD;
    loop {
        // SAFETY: signal 0 only checks that the process exists.
        let alive = unsafe { libc::kill(pid, 0) } == 0;
        let zombie = std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .map(|s| {
                s.rsplit(')')
                    .next()
                    .unwrap_or("")
                    .trim_start()
                    .starts_with('Z')
            })
            .unwrap_or(true);
        if !alive || zombie {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "process {pid} still running"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// A small deterministic PRNG (xorshift64*), so the random test cases are fixed.
pub struct Rng(pub u64);

impl Rng {
    /// A number in `0..m` (0 when `m` is 0).
    pub fn below(&mut self, m: u32) -> u32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        ((self.0.wrapping_mul(0x2545F4914F6CDD1D) >> 33) % m.max(1) as u64) as u32
    }
}

/// The plain xorshift64 generator (Marsaglia 2003) that the count and walk tests draw from.
pub struct XorShift(pub u64);

impl XorShift {
    /// A number in `0..m`.
    pub fn below(&mut self, m: u32) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % m as u64) as u32
    }
}

/// Random instances with n <= max_n of four kinds: completion, blocked, both, excluded diagonals
/// (the lists in draw order, with repeats; no piece on a blocked cell).
pub fn random_instances(
    seed: u64,
    count: usize,
    max_n: u32,
) -> Vec<queens_sat::instance::Instance> {
    let mut rng = Rng(seed);
    (0..count)
        .map(|i| {
            let n = 4 + rng.below(max_n - 3);
            let mut inst = queens_sat::instance::Instance::plain(n);
            let cell = |rng: &mut Rng| queens_sat::board::Cell::new(rng.below(n), rng.below(n));
            match i % 4 {
                0 => inst.placed = (0..rng.below(3)).map(|_| cell(&mut rng)).collect(),
                1 => inst.blocked = (0..rng.below(n * 3)).map(|_| cell(&mut rng)).collect(),
                2 => {
                    inst.placed = (0..rng.below(2)).map(|_| cell(&mut rng)).collect();
                    inst.blocked = (0..rng.below(n * 2)).map(|_| cell(&mut rng)).collect();
                    // A piece on a blocked cell is no instance (issue 45): such a cell stays
                    // free (the same draws, so the other cases are unchanged).
                    let placed = inst.placed.clone();
                    inst.blocked.retain(|c| !placed.contains(c));
                }
                _ => {
                    inst.excluded = (0..rng.below(n + 2))
                        .map(|_| queens_sat::instance::ExcludedDiagonal {
                            kind: if rng.below(2) == 0 {
                                queens_sat::piece::LineKind::Diagonal
                            } else {
                                queens_sat::piece::LineKind::AntiDiagonal
                            },
                            key: rng.below(2 * n - 1),
                        })
                        .collect();
                }
            }
            inst
        })
        .collect()
}

/// Makes a randomly drawn instance an instance (issue 45): a blocked cell under a pre-placed
/// piece stays free, and a piece on an excluded diagonal is dropped.
#[allow(dead_code)]
pub fn make_valid(inst: &mut queens_sat::instance::Instance) {
    let placed = inst.placed.clone();
    inst.blocked.retain(|c| !placed.contains(c));
    let n = inst.n;
    let excluded = inst.excluded.clone();
    inst.placed
        .retain(|&c| !excluded.iter().any(|d| d.kind.key(c, n) == d.key));
}

/// The piece of random case `i` and its oracle name: every third case an amazon, the others
/// queens.
#[allow(dead_code)]
pub fn piece_of(i: usize) -> (queens_sat::piece::Piece, &'static str) {
    if i % 3 == 2 {
        (queens_sat::piece::AMAZON, "amazon")
    } else {
        (queens_sat::piece::QUEEN, "queen")
    }
}

/// `count` random excluded diagonals of an `n x n` board, drawn with `below(m)` (a uniform
/// integer in `0..m`): per diagonal its kind, then its key.
#[allow(dead_code)]
pub fn random_excluded(
    count: u32,
    n: u32,
    mut below: impl FnMut(u32) -> u32,
) -> Vec<queens_sat::instance::ExcludedDiagonal> {
    use queens_sat::piece::LineKind;
    (0..count)
        .map(|_| queens_sat::instance::ExcludedDiagonal {
            kind: if below(2) == 0 {
                LineKind::Diagonal
            } else {
                LineKind::AntiDiagonal
            },
            key: below(2 * n - 1),
        })
        .collect()
}

/// Writes an executable fake solver that records its pid in `pid_file` and then sleeps as
/// that same process (`exec`), like a real solver that does not fork.
#[allow(dead_code)]
pub fn sleeping_solver(dir: &Path, pid_file: &Path) -> std::path::PathBuf {
    let script = dir.join("sleeper.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\necho $$ > {}\nexec sleep 1000\n",
            pid_file.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}
