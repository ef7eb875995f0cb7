//! End-to-end tests of the `queens-sat` binary: every command is run as a child process and its
//! exit code, stdout, stderr and written files are checked against the documented contracts.
//!
//! Boards printed by the binary are judged by this file's own attack test, never by the crate.
//! External solvers (cadical, minisat, picosat, cryptominisat5) are run for real when they are on
//! `PATH`; the tests of a missing one are reported as ignored by the harness
//! (`#[test_programs::requires]`, tests/programs), and under `CI=true` they run and fail. One
//! file per command or area; the shared helpers are here.

use crate::common;
use queens_sat::interrupt::HANG_GUARD;

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use tempfile::TempDir;

use common::{BIN, assert_one_line_error, require_solver, run, run_expect};

/// The four external solvers the CLI is documented to work with.
const SOLVERS: [&str; 4] = ["cadical", "minisat", "picosat", "cryptominisat5"];

/// A known 8-queens solution (column of the queen in each row).
const SOLUTION_8: [usize; 8] = [0, 4, 7, 5, 2, 6, 1, 3];

/// Another 8-queens solution, without a queen on (0,0).
const SOLUTION_8_B: [usize; 8] = [4, 6, 1, 5, 2, 0, 3, 7];

// ---------------------------------------------------------------------------------------------
// Running the binary
// ---------------------------------------------------------------------------------------------

fn tempdir() -> TempDir {
    TempDir::new().expect("create temp dir")
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    fs::write(&path, text).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
    path
}

fn write_executable(dir: &Path, name: &str, text: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = write(dir, name, text);
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).expect("chmod +x");
    path
}

/// The `--amo` names the binary knows, read from its own usage error.
fn known_amos(dir: &Path) -> Vec<String> {
    let r = run_expect(dir, &["encode", "-n", "4", "--amo", "no-such-amo"], 1);
    let list = r
        .stderr
        .split_once("known: ")
        .and_then(|(_, rest)| rest.split_once(')'))
        .unwrap_or_else(|| panic!("no 'known: ...' list in {:?}", r.stderr))
        .0;
    let names: Vec<String> = list.split(", ").map(str::to_string).collect();
    for required in ["pairwise", "sequential"] {
        assert!(
            names.iter().any(|n| n == required),
            "{required} in {names:?}"
        );
    }
    names
}

/// The default `--amo`, as `encode --stats --format json` reports it.
fn default_amo(dir: &Path) -> String {
    let r = run_expect(
        dir,
        &["encode", "-n", "4", "--stats", "--format", "json"],
        0,
    );
    let v: Value = serde_json::from_str(r.stdout.trim()).expect("--stats JSON");
    let amo = v["amo"].as_str().expect("amo is a string").to_string();
    assert!(known_amos(dir).contains(&amo), "default amo {amo} is known");
    amo
}

/// Independent oracle (tests/it/common/oracle.rs): does an `n x n` board with these blocked cells
/// and pre-placed pieces have a solution?
fn oracle_sat(n: usize, amazon: bool, blocked: &BTreeSet<Cell>, placed: &[Cell]) -> bool {
    let cell = |&(r, c): &Cell| (r as i64, c as i64);
    let plain = common::Plain {
        n: n as i64,
        placed: placed.iter().map(cell).collect(),
        blocked: blocked.iter().map(cell).collect(),
    };
    common::oracle::count(&plain, &oracle_attacks(amazon)) > 0
}

/// The oracle's queen or amazon.
fn oracle_attacks(amazon: bool) -> common::oracle::Attacks {
    if amazon {
        common::oracle::AMAZON
    } else {
        common::oracle::QUEEN
    }
}

/// Board text of an `n x n` board with a queen at `(r, cols[r])` in every row given.
fn board_text(n: usize, cols: &[usize]) -> String {
    let mut s = String::new();
    for r in 0..n {
        for c in 0..n {
            s.push(if cols.get(r) == Some(&c) { 'Q' } else { '.' });
        }
        s.push('\n');
    }
    s
}

// ---------------------------------------------------------------------------------------------
// An independent board checker
// ---------------------------------------------------------------------------------------------

type Cell = (usize, usize);

/// A board as printed: side, queens and `x` cells (row-major).
#[derive(Debug)]
struct Drawn {
    n: usize,
    queens: Vec<Cell>,
    blocked: BTreeSet<Cell>,
}

/// Parses a printed board strictly: `n` lines of exactly `n` characters from `Q . x`.
fn parse_drawn(text: &str) -> Drawn {
    let rows: Vec<&str> = text.lines().collect();
    let n = rows.len();
    assert!(n > 0, "empty board output");
    let mut queens = Vec::new();
    let mut blocked = BTreeSet::new();
    for (r, row) in rows.iter().enumerate() {
        assert_eq!(
            row.chars().count(),
            n,
            "row {r} of the board has the wrong length:\n{text}"
        );
        for (c, ch) in row.chars().enumerate() {
            match ch {
                'Q' => queens.push((r, c)),
                'x' => {
                    blocked.insert((r, c));
                }
                '.' => {}
                other => panic!("unexpected character {other:?} in board output:\n{text}"),
            }
        }
    }
    Drawn { n, queens, blocked }
}

/// Queens attack along rows, columns and diagonals; amazons also a knight move apart (the
/// oracle's geometry, tests/it/common/oracle.rs).
fn attacks(amazon: bool, a: Cell, b: Cell) -> bool {
    oracle_attacks(amazon).attack((a.0 as i64, a.1 as i64), (b.0 as i64, b.1 as i64))
}

fn is_knight_move(a: Cell, b: Cell) -> bool {
    let d = (a.0.abs_diff(b.0), a.1.abs_diff(b.1));
    d == (1, 2) || d == (2, 1)
}

/// Asserts `text` is a complete `n x n` solution (`n` pieces, none attacking another).
fn assert_solution(text: &str, n: usize, amazon: bool) -> Drawn {
    let d = parse_drawn(text);
    assert_eq!(d.n, n, "board side:\n{text}");
    assert_eq!(d.queens.len(), n, "number of pieces:\n{text}");
    for (i, &a) in d.queens.iter().enumerate() {
        for &b in &d.queens[i + 1..] {
            assert!(
                !attacks(amazon, a, b),
                "pieces at {a:?} and {b:?} attack each other:\n{text}"
            );
        }
    }
    d
}

// ---------------------------------------------------------------------------------------------
// DIMACS helpers
// ---------------------------------------------------------------------------------------------

/// A CNF file split into its header comments, its `p cnf` numbers and its clauses.
#[derive(Debug)]
struct Cnf {
    comments: Vec<String>,
    vars: u64,
    clauses_declared: u64,
    clauses: Vec<Vec<i64>>,
}

impl Cnf {
    fn max_var(&self) -> u64 {
        self.clauses
            .iter()
            .flatten()
            .map(|l| l.unsigned_abs())
            .max()
            .unwrap_or(0)
    }

    fn has_comment(&self, line: &str) -> bool {
        self.comments.iter().any(|c| c == line)
    }

    /// The value of a `c KEY VALUE` header line.
    fn comment_value(&self, key: &str) -> Option<&str> {
        let prefix = format!("c {key} ");
        self.comments
            .iter()
            .find_map(|c| c.strip_prefix(prefix.as_str()))
    }
}

/// Parses DIMACS text written by `encode`, strictly: comments, one `p cnf V C` line, then
/// clauses each ending in `0` on their own line.
fn parse_cnf(text: &str) -> Cnf {
    let mut comments = Vec::new();
    let mut lines = text.lines();
    let (vars, clauses_declared) = loop {
        let line = lines.next().expect("CNF has no 'p cnf' line");
        if let Some(rest) = line.strip_prefix("p cnf ") {
            let nums: Vec<u64> = rest
                .split_whitespace()
                .map(|s| s.parse().expect("number in 'p cnf' line"))
                .collect();
            assert_eq!(nums.len(), 2, "malformed p line {line:?}");
            break (nums[0], nums[1]);
        }
        assert!(
            line.starts_with('c'),
            "unexpected line before 'p cnf': {line:?}"
        );
        comments.push(line.to_string());
    };
    let mut clauses = Vec::new();
    for line in lines {
        assert!(!line.starts_with('c'), "comment after the p line: {line:?}");
        if line.trim().is_empty() {
            continue;
        }
        let lits: Vec<i64> = line
            .split_whitespace()
            .map(|s| {
                s.parse()
                    .unwrap_or_else(|_| panic!("bad literal in {line:?}"))
            })
            .collect();
        assert_eq!(lits.last(), Some(&0), "clause not ended by 0: {line:?}");
        let body = lits[..lits.len() - 1].to_vec();
        assert!(body.iter().all(|&l| l != 0), "0 inside a clause: {line:?}");
        clauses.push(body);
    }
    Cnf {
        comments,
        vars,
        clauses_declared,
        clauses,
    }
}

/// `vars` and `clauses` from `encode --stats` (text format).
fn stats(dir: &Path, args: &[&str]) -> (u64, u64) {
    let mut all = vec!["encode"];
    all.extend_from_slice(args);
    all.push("--stats");
    let r = run_expect(dir, &all, 0);
    let get = |key: &str| -> u64 {
        r.stdout
            .lines()
            .find_map(|l| l.strip_prefix(key)?.strip_prefix(' '))
            .unwrap_or_else(|| panic!("no '{key}' line in --stats output:\n{}", r.stdout))
            .trim()
            .parse()
            .expect("number in --stats output")
    };
    (get("vars"), get("clauses"))
}

/// Checks a CNF's header against the contract and its `p cnf` line against its body and
/// against `encode --stats` for the same arguments. Returns the parsed file.
fn check_cnf(dir: &Path, text: &str, stats_args: &[&str], piece: &str, n: usize) -> Cnf {
    let cnf = parse_cnf(text);
    assert!(
        cnf.comments
            .first()
            .is_some_and(|c| c.starts_with("c queens-sat")),
        "CNF does not start with 'c queens-sat':\n{:?}",
        cnf.comments
    );
    assert!(
        cnf.has_comment(&format!("c piece {piece}")),
        "{:?}",
        cnf.comments
    );
    assert!(cnf.has_comment(&format!("c n {n}")), "{:?}", cnf.comments);
    assert!(cnf.comment_value("amo").is_some(), "{:?}", cnf.comments);
    // The clause count is exact and the variable count is the largest variable used.
    assert_eq!(
        cnf.clauses.len() as u64,
        cnf.clauses_declared,
        "'p cnf' clause count disagrees with the clause lines"
    );
    assert_eq!(
        cnf.max_var(),
        cnf.vars,
        "'p cnf' variable count disagrees with the largest variable used"
    );
    // The projection lists exactly the cell variables 1..=L.
    let cells: u64 = match cnf.comment_value("cells") {
        Some("rowmajor") => (n * n) as u64,
        Some(l) => l.parse().expect("'c cells L' count"),
        None => panic!("no 'c cells' line: {:?}", cnf.comments),
    };
    let show = cnf
        .comment_value("p show")
        .unwrap_or_else(|| panic!("no 'c p show' line: {:?}", cnf.comments));
    let expected: Vec<String> = (1..=cells)
        .map(|v| v.to_string())
        .chain(["0".to_string()])
        .collect();
    assert_eq!(show, expected.join(" "), "'c p show' line");
    assert_eq!(
        stats(dir, stats_args),
        (cnf.vars, cnf.clauses_declared),
        "encode --stats disagrees with the written file"
    );
    cnf
}

// ---------------------------------------------------------------------------------------------
// External solvers
// ---------------------------------------------------------------------------------------------

/// Runs solver `name` on `cnf` the way its users do, its answer going to `out`; returns the
/// solver's exit code.
fn run_solver(dir: &Path, name: &str, cnf: &str, out: &str) -> i32 {
    let mut cmd = Command::new(name);
    cmd.current_dir(dir)
        .stdin(Stdio::null())
        .stderr(Stdio::null());
    if name == "minisat" {
        cmd.arg(cnf).arg(out).stdout(Stdio::null());
    } else {
        let file = fs::File::create(dir.join(out)).expect("create solver output file");
        cmd.arg(cnf).stdout(file);
    }
    let status = cmd
        .status()
        .unwrap_or_else(|e| panic!("cannot run {name}: {e}"));
    status.code().unwrap_or(-1)
}

/// Solves `--instance FILE` (plus `extra` arguments), checks the board keeps `placed`, has `x`
/// exactly on `blocked`, is a valid solution by this file's own checker, and that
/// `verify BOARD --instance FILE` (with `--diags` if `extra` has it) accepts it.
fn solve_and_verify_instance(
    dir: &Path,
    file: &str,
    extra: &[&str],
    n: usize,
    placed: &[Cell],
    blocked: &BTreeSet<Cell>,
) -> Drawn {
    let mut args = vec!["solve", "--instance", file];
    args.extend_from_slice(extra);
    let r = run_expect(dir, &args, 10);
    let d = assert_solution(&r.stdout, n, false);
    for p in placed {
        assert!(
            d.queens.contains(p),
            "pre-placed queen {p:?} kept:\n{}",
            r.stdout
        );
    }
    assert_eq!(&d.blocked, blocked, "x cells:\n{}", r.stdout);
    for q in &d.queens {
        assert!(!blocked.contains(q), "queen on blocked cell {q:?}");
    }
    let board = format!("{file}.solution");
    write(dir, &board, &r.stdout);
    let mut vargs = vec!["verify", board.as_str(), "--instance", file];
    if let Some(i) = extra.iter().position(|&a| a == "--diags") {
        vargs.extend_from_slice(&extra[i..i + 2]);
    }
    let v = run_expect(dir, &vargs, 0);
    assert!(v.stderr.contains("valid"), "{}", v.stderr);
    d
}

mod certify;
mod count;
mod encode;
mod errors;
mod external;
mod solve;
mod strategies;
mod symmetry;
mod verify;
