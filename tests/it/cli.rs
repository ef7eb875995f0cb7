//! End-to-end tests of the `queens-sat` binary: every command is run as a child process and its
//! exit code, stdout, stderr and written files are checked against the documented contracts.
//!
//! Boards printed by the binary are judged by this file's own attack test, never by the crate.
//! External solvers (cadical, minisat, picosat, cryptominisat5) are run for real when they are on
//! `PATH`; the tests of a missing one are reported as ignored by the harness (see build.rs), and
//! under `CI=true` they run and fail.

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

// ---------------------------------------------------------------------------------------------
// 1. solve: plain boards
// ---------------------------------------------------------------------------------------------

#[test]
fn solve_plain_8_prints_valid_board_exit_10() {
    let dir = tempdir();
    let r = run_expect(dir.path(), &["solve", "-n", "8"], 10);
    let d = assert_solution(&r.stdout, 8, false);
    assert!(d.blocked.is_empty(), "a plain board has no x cells");
    // The summary line on stderr, with the exact verdict ("UNSAT: ..." would not do).
    assert!(
        r.stderr.lines().any(|l| l.starts_with("SAT: ")),
        "summary on stderr: {}",
        r.stderr
    );
}

#[test]
fn solve_unsat_sizes_exit_20() {
    let dir = tempdir();
    for n in ["2", "3"] {
        let r = run_expect(dir.path(), &["solve", "-n", n], 20);
        assert_eq!(r.stdout.trim(), "UNSAT", "-n {n}");
    }
    // n = 1 is the smallest satisfiable board.
    let r = run_expect(dir.path(), &["solve", "-n", "1"], 10);
    assert_eq!(r.stdout, "Q\n");
}

#[test]
fn solve_amazons() {
    let dir = tempdir();
    let r = run_expect(dir.path(), &["solve", "-n", "10", "--piece", "amazon"], 10);
    let d = assert_solution(&r.stdout, 10, true);
    for (i, &a) in d.queens.iter().enumerate() {
        for &b in &d.queens[i + 1..] {
            assert!(!is_knight_move(a, b), "knight pair {a:?} {b:?}");
        }
    }
    let r = run_expect(dir.path(), &["solve", "-n", "9", "--piece", "amazon"], 20);
    assert_eq!(r.stdout.trim(), "UNSAT");
}

#[test]
fn solve_every_amo_encoding() {
    let dir = tempdir();
    let d = dir.path();
    for amo in known_amos(d) {
        let amo = amo.as_str();
        for n in [1usize, 4, 5, 8, 12] {
            let ns = n.to_string();
            let r = run_expect(d, &["solve", "-n", &ns, "--amo", amo], 10);
            assert_solution(&r.stdout, n, false);
        }
        for n in ["2", "3"] {
            let r = run_expect(d, &["solve", "-n", n, "--amo", amo], 20);
            assert_eq!(r.stdout.trim(), "UNSAT", "--amo {amo} -n {n}");
        }
        let r = run_expect(
            d,
            &["solve", "-n", "11", "--piece", "amazon", "--amo", amo],
            10,
        );
        assert_solution(&r.stdout, 11, true);
        for n in ["8", "9"] {
            run_expect(
                d,
                &["solve", "-n", n, "--piece", "amazon", "--amo", amo],
                20,
            );
        }
        for presolve in [&[][..], &["--no-presolve"][..]] {
            let mut args = vec!["solve", "-n", "8", "--amo", amo];
            args.extend_from_slice(presolve);
            let r = run_expect(d, &args, 10);
            assert_solution(&r.stdout, 8, false);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 2. solve --format json
// ---------------------------------------------------------------------------------------------

#[test]
fn solve_json_fields_agree() {
    let dir = tempdir();
    let r = run_expect(dir.path(), &["solve", "-n", "8", "--format", "json"], 10);
    let lines: Vec<&str> = r.stdout.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "one JSON object on stdout:\n{}", r.stdout);
    let v: Value = serde_json::from_str(lines[0]).expect("stdout is JSON");
    for key in [
        "status",
        "n",
        "piece",
        "amo",
        "solver",
        "queens",
        "board",
        "vars",
        "clauses",
        "encode_seconds",
        "solve_seconds",
    ] {
        assert!(v.get(key).is_some(), "missing key {key}: {v}");
    }
    assert_eq!(v["status"], "SAT");
    assert_eq!(v["n"], 8);
    assert_eq!(v["piece"], "queen");
    assert_eq!(v["amo"].as_str(), Some(default_amo(dir.path()).as_str()));
    // The default strategy (`--solver auto`): on a small board its local search and the bitboard
    // search race, and either may answer first.
    assert!(
        v["solver"] == "walk" || v["solver"] == "bitboard",
        "{}",
        v["solver"]
    );
    let r = run_expect(
        dir.path(),
        &[
            "solve", "-n", "8", "--solver", "varisat", "--format", "json",
        ],
        10,
    );
    let w: Value = serde_json::from_str(r.stdout.trim()).expect("stdout is JSON");
    assert_eq!(w["solver"], "varisat");
    assert!(w["vars"].as_u64().unwrap() >= 64, "{w}");

    let queens: Vec<Cell> = v["queens"]
        .as_array()
        .expect("queens is an array")
        .iter()
        .map(|q| {
            let q = q.as_array().expect("queen is [r,c]");
            assert_eq!(q.len(), 2);
            (
                q[0].as_u64().unwrap() as usize,
                q[1].as_u64().unwrap() as usize,
            )
        })
        .collect();
    let mut sorted = queens.clone();
    sorted.sort();
    assert_eq!(queens, sorted, "queens sorted by row");
    let rows: Vec<String> = v["board"]
        .as_array()
        .expect("board is an array")
        .iter()
        .map(|s| s.as_str().expect("board row is a string").to_string())
        .collect();
    let text: String = rows.iter().map(|r| format!("{r}\n")).collect();
    let d = assert_solution(&text, 8, false);
    assert_eq!(d.queens, queens, "board and queens agree");

    let (vars, clauses) = stats(dir.path(), &["-n", "8"]);
    assert_eq!(v["vars"].as_u64(), Some(vars), "vars as in encode --stats");
    assert_eq!(
        v["clauses"].as_u64(),
        Some(clauses),
        "clauses as in encode --stats"
    );
    for key in ["encode_seconds", "solve_seconds"] {
        let s = v[key]
            .as_f64()
            .unwrap_or_else(|| panic!("{key} is a number"));
        assert!(s.is_finite() && (0.0..60.0).contains(&s), "{key} = {s}");
    }

    // --amo is reported as given.
    for amo in known_amos(dir.path()) {
        let r = run_expect(
            dir.path(),
            &["solve", "-n", "6", "--amo", &amo, "--format", "json"],
            10,
        );
        let v: Value = serde_json::from_str(r.stdout.trim()).expect("stdout is JSON");
        assert_eq!(v["amo"].as_str(), Some(amo.as_str()));
        let rows: String = v["board"]
            .as_array()
            .expect("board")
            .iter()
            .map(|s| format!("{}\n", s.as_str().unwrap()))
            .collect();
        assert_solution(&rows, 6, false);
    }

    // UNSAT: no board, null queens, exit 20.
    let r = run_expect(dir.path(), &["solve", "-n", "3", "--format", "json"], 20);
    let v: Value = serde_json::from_str(r.stdout.trim()).expect("stdout is JSON");
    assert_eq!(v["status"], "UNSAT");
    assert_eq!(v["n"], 3);
    assert!(v["queens"].is_null() && v["board"].is_null(), "{v}");
}

// ---------------------------------------------------------------------------------------------
// 3. Instance files
// ---------------------------------------------------------------------------------------------

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

#[test]
fn instance_board_text() {
    let dir = tempdir();
    let text = "# an 8x8 completion instance\n\
                Q . . . . . . .\n\
                . . . x . . . .\n\
                \n\
                # blocked corner below\n\
                . . . . . . . .\n\
                . . . . . . . .\n\
                . . . . . . . .\n\
                . . . . . . . .\n\
                . . . . . . . .\n\
                . . . . . . . x\n";
    write(dir.path(), "b.txt", text);
    let blocked: BTreeSet<Cell> = [(1, 3), (7, 7)].into();
    solve_and_verify_instance(dir.path(), "b.txt", &[], 8, &[(0, 0)], &blocked);
}

#[test]
fn instance_param_prob079_init() {
    let dir = tempdir();
    write(
        dir.path(),
        "init.param",
        "$ completion\nletting n = 8\nletting init = [[0,0],\n  [1, 4]]\n",
    );
    solve_and_verify_instance(
        dir.path(),
        "init.param",
        &[],
        8,
        &[(0, 0), (1, 4)],
        &BTreeSet::new(),
    );
}

#[test]
fn instance_param_prob080_blocks() {
    let dir = tempdir();
    write(
        dir.path(),
        "blocks.param",
        "language ESSENCE' 1.0\nletting n be 8\nletting blocks be [[1,1],[2,3]]\n",
    );
    // 1-based [1,1] and [2,3] are the 0-based cells (0,0) and (1,2).
    let blocked: BTreeSet<Cell> = [(0, 0), (1, 2)].into();
    solve_and_verify_instance(dir.path(), "blocks.param", &[], 8, &[], &blocked);
}

#[test]
fn instance_excluded_diagonals() {
    let dir = tempdir();
    write(
        dir.path(),
        "diags.txt",
        "n = 8\nnumdiags = 3\ndiags = [[7,1],[7,0],[3,1]]\n",
    );
    // With --diags 2 only [7,1] (r + c = 7) and [7,0] (r - c = 7 - (n-1) = 0) are excluded.
    let blocked: BTreeSet<Cell> = (0..8)
        .flat_map(|r| (0..8).map(move |c| (r, c)))
        .filter(|&(r, c)| r + c == 7 || r == c)
        .collect();
    let d = solve_and_verify_instance(dir.path(), "diags.txt", &["--diags", "2"], 8, &[], &blocked);
    // The third diagonal (r + c = 3) is not excluded by --diags 2; verify against all three
    // rejects the board exactly when it has a queen there.
    let on_third = d.queens.iter().any(|&(r, c)| r + c == 3);
    let r = run(
        dir.path(),
        &["verify", "diags.txt.solution", "--instance", "diags.txt"],
    );
    assert_eq!(r.code, if on_third { 1 } else { 0 }, "{}", r.stderr);

    // Without --diags all three are excluded, which leaves no solution (by the oracle).
    let blocked3: BTreeSet<Cell> = blocked
        .iter()
        .copied()
        .chain((0..=3).map(|r| (r, 3 - r)))
        .collect();
    assert!(oracle_sat(8, false, &blocked, &[]));
    assert!(!oracle_sat(8, false, &blocked3, &[]));
    assert!(on_third, "every solution with two diagonals uses the third");
    let r = run_expect(dir.path(), &["solve", "--instance", "diags.txt"], 20);
    assert_eq!(r.stdout.trim(), "UNSAT");
    // Only the first diagonal: still satisfiable, and the x cells follow.
    let blocked1: BTreeSet<Cell> = (0..8).map(|r| (r, 7 - r)).collect();
    assert!(oracle_sat(8, false, &blocked1, &[]));
    solve_and_verify_instance(
        dir.path(),
        "diags.txt",
        &["--diags", "1"],
        8,
        &[],
        &blocked1,
    );
}

#[test]
fn instance_unsat_exit_20() {
    let dir = tempdir();
    // Two pre-placed queens on one diagonal, as board text and as a param file.
    let mut cols = vec![usize::MAX; 8];
    cols[0] = 0;
    cols[3] = 3;
    write(dir.path(), "diag.txt", &board_text(8, &cols));
    write(
        dir.path(),
        "diag.param",
        "letting n = 8\nletting init = [[0,0],[3,3]]\n",
    );
    for file in ["diag.txt", "diag.param"] {
        let r = run_expect(dir.path(), &["solve", "--instance", file], 20);
        assert_eq!(r.stdout.trim(), "UNSAT", "{file}");
        let r = run_expect(
            dir.path(),
            &["solve", "--instance", file, "--no-presolve"],
            20,
        );
        assert_eq!(r.stdout.trim(), "UNSAT", "{file} --no-presolve");
    }
}

// ---------------------------------------------------------------------------------------------
// 4. verify
// ---------------------------------------------------------------------------------------------

#[test]
fn verify_accepts_valid_and_names_violations() {
    let dir = tempdir();
    let d = dir.path();
    let good = board_text(8, &SOLUTION_8);
    assert_solution(&good, 8, false);
    write(d, "good.txt", &good);
    let r = run_expect(d, &["verify", "good.txt"], 0);
    assert!(r.stderr.contains("valid"), "{}", r.stderr);

    // The only attacking pair is (0,0)-(3,3).
    write(d, "diag.txt", &board_text(8, &[0, 2, 5, 3, 1, 7, 4, 6]));
    assert_one_line_error(
        d,
        &["verify", "diag.txt"],
        &["diag.txt", "queens at (0,0) and (3,3) share a diagonal"],
    );

    // Two queens in one column.
    let mut col = SOLUTION_8;
    col[7] = col[0];
    write(d, "col.txt", &board_text(8, &col));
    assert_one_line_error(d, &["verify", "col.txt"], &["col.txt", "column"]);

    // A queen missing.
    write(d, "seven.txt", &board_text(8, &SOLUTION_8[..7]));
    assert_one_line_error(
        d,
        &["verify", "seven.txt"],
        &["seven.txt", "7 queens, expected 8"],
    );

    // The same valid queens board is not an amazon solution: it has knight pairs.
    let msg = assert_one_line_error(
        d,
        &["verify", "good.txt", "--piece", "amazon"],
        &["good.txt", "amazons at", "leap apart"],
    );
    let cells: Vec<usize> = msg
        .split(|ch: char| !ch.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .filter_map(|s| s.parse().ok())
        .collect();
    let pair = &cells[cells.len() - 4..];
    assert!(
        is_knight_move((pair[0], pair[1]), (pair[2], pair[3])),
        "the named pair is not a knight move apart: {msg}"
    );

    // Against an instance: a missing pre-placed queen, a queen on a blocked cell.
    write(d, "init.param", "letting n = 8\nletting init = [[0,0]]\n");
    write(d, "other.txt", &board_text(8, &SOLUTION_8_B));
    assert_solution(&board_text(8, &SOLUTION_8_B), 8, false);
    run_expect(d, &["verify", "good.txt", "--instance", "init.param"], 0);
    assert_one_line_error(
        d,
        &["verify", "other.txt", "--instance", "init.param"],
        &["other.txt", "pre-placed queen at (0,0) is missing"],
    );
    write(
        d,
        "blocks.param",
        "language ESSENCE' 1.0\nletting n be 8\nletting blocks be [[1,1]]\n",
    );
    run_expect(d, &["verify", "other.txt", "--instance", "blocks.param"], 0);
    assert_one_line_error(
        d,
        &["verify", "good.txt", "--instance", "blocks.param"],
        &["good.txt", "(0,0)", "blocked"],
    );
}

// ---------------------------------------------------------------------------------------------
// 5. encode
// ---------------------------------------------------------------------------------------------

#[test]
fn encode_default_paths() {
    let dir = tempdir();
    let d = dir.path();
    let amo = default_amo(d);
    let r = run_expect(d, &["encode", "-n", "8"], 0);
    assert!(r.stdout.is_empty(), "nothing on stdout: {}", r.stdout);
    let path = d.join(format!("cnf-out/queen-8-{amo}.cnf"));
    let text = fs::read_to_string(&path).expect("default output file exists");
    let cnf = check_cnf(d, &text, &["-n", "8"], "queen", 8);
    assert!(cnf.has_comment(&format!("c amo {amo}")));
    assert!(cnf.has_comment("c cells rowmajor"));
    run_expect(d, &["encode", "-n", "8", "--amo", "sequential"], 0);
    assert!(d.join("cnf-out/queen-8-sequential.cnf").is_file());

    write(d, "comp.param", "letting n = 8\nletting init = [[0,0]]\n");
    run_expect(
        d,
        &["encode", "--instance", "comp.param", "--amo", "pairwise"],
        0,
    );
    let text = fs::read_to_string(d.join("cnf-out/queen-8-pairwise-comp.cnf"))
        .expect("default output file with the instance stem exists");
    let cnf = check_cnf(
        d,
        &text,
        &["--instance", "comp.param", "--amo", "pairwise"],
        "queen",
        8,
    );
    assert!(cnf.has_comment("c amo pairwise"));

    let r = run_expect(d, &["encode", "-n", "10", "--piece", "amazon"], 0);
    assert!(r.stdout.is_empty());
    let text = fs::read_to_string(d.join(format!("cnf-out/amazon-10-{amo}.cnf")))
        .expect("amazon default output file exists");
    check_cnf(d, &text, &["-n", "10", "--piece", "amazon"], "amazon", 10);

    let mut names: Vec<String> = fs::read_dir(d.join("cnf-out"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut expected = vec![
        format!("amazon-10-{amo}.cnf"),
        "queen-8-pairwise-comp.cnf".to_string(),
        format!("queen-8-{amo}.cnf"),
        "queen-8-sequential.cnf".to_string(),
    ];
    expected.sort();
    expected.dedup();
    assert_eq!(
        names, expected,
        "exactly the expected files, no temp files left"
    );
}

#[test]
fn encode_stdout_header_and_counts() {
    let dir = tempdir();
    let d = dir.path();
    for amo in known_amos(d) {
        let amo = amo.as_str();
        let r = run_expect(d, &["encode", "-n", "8", "--amo", amo, "-o", "-"], 0);
        let cnf = check_cnf(d, &r.stdout, &["-n", "8", "--amo", amo], "queen", 8);
        assert!(cnf.has_comment(&format!("c amo {amo}")));
        assert!(cnf.has_comment("c cells rowmajor"), "{:?}", cnf.comments);
        assert!(
            !d.join("cnf-out").exists(),
            "-o - must not write the default file"
        );
        // Stdout and a file hold the same bytes.
        let f = format!("{amo}.cnf");
        run_expect(d, &["encode", "-n", "8", "--amo", amo, "-o", &f], 0);
        assert_eq!(fs::read_to_string(d.join(&f)).unwrap(), r.stdout);
    }

    // Amazons and larger boards, every encoding: exact headers.
    for amo in known_amos(d) {
        for (n, piece) in [(10, "amazon"), (13, "queen")] {
            let ns = n.to_string();
            let args = ["-n", ns.as_str(), "--piece", piece, "--amo", amo.as_str()];
            let mut all = vec!["encode", "-o", "-"];
            all.extend_from_slice(&args);
            let r = run_expect(d, &all, 0);
            check_cnf(d, &r.stdout, &args, piece, n);
        }
    }

    // A presolved completion instance: not row-major, cell count and row maps in the header.
    write(d, "comp.txt", &board_text(8, &[0]));
    let r = run_expect(d, &["encode", "--instance", "comp.txt", "-o", "-"], 0);
    let cnf = check_cnf(d, &r.stdout, &["--instance", "comp.txt"], "queen", 8);
    assert!(!cnf.has_comment("c cells rowmajor"), "{:?}", cnf.comments);
    assert!(cnf.has_comment("c presolve on"));
    assert!(cnf.has_comment("c placed 0,0"), "{:?}", cnf.comments);
    // (0,0) takes row 0, column 0 and the main diagonal: 49 - 7 = 42 live cells.
    assert_eq!(cnf.comment_value("cells"), Some("42"));

    // --stats in JSON agrees with the text form.
    let r = run_expect(d, &["encode", "-n", "8", "--stats", "--format", "json"], 0);
    let v: Value = serde_json::from_str(r.stdout.trim()).expect("--stats JSON");
    let (vars, clauses) = stats(d, &["-n", "8"]);
    assert_eq!(v["vars"].as_u64(), Some(vars));
    assert_eq!(v["clauses"].as_u64(), Some(clauses));
    assert_eq!(v["cell_vars"].as_u64(), Some(64));
}

/// `--amo commander:G` / `bimander:G`: solved, recorded in the header as given (defaults by
/// their plain name), decoded from the header alone, and bad sizes are one-line errors.
#[test]
fn amo_group_sizes() {
    let dir = tempdir();
    let d = dir.path();
    for amo in ["commander:2", "commander:5", "bimander:1", "bimander:3"] {
        let r = run_expect(d, &["solve", "-n", "12", "--amo", amo], 10);
        assert_solution(&r.stdout, 12, false);
        let r = run_expect(d, &["solve", "-n", "3", "--amo", amo], 20);
        assert_eq!(r.stdout.trim(), "UNSAT", "--amo {amo} -n 3");
        let r = run_expect(d, &["encode", "-n", "13", "--amo", amo, "-o", "-"], 0);
        let cnf = check_cnf(d, &r.stdout, &["-n", "13", "--amo", amo], "queen", 13);
        assert_eq!(cnf.comment_value("amo"), Some(amo));
    }
    // The default size is the plain name, however it was spelled.
    let r = run_expect(
        d,
        &["encode", "-n", "6", "--amo", "commander:3", "-o", "-"],
        0,
    );
    assert_eq!(parse_cnf(&r.stdout).comment_value("amo"), Some("commander"));
    // Different sizes are different CNFs.
    let four = stats(d, &["-n", "30", "--amo", "commander:4"]);
    let three = stats(d, &["-n", "30", "--amo", "commander"]);
    assert_ne!(
        four, three,
        "commander:4 and commander:3 give the same CNF size"
    );
    for bad in [
        "commander:1",
        "commander:65",
        "bimander:0",
        "product:2",
        "commander:x",
    ] {
        assert_one_line_error(
            d,
            &["solve", "-n", "8", "--amo", bad],
            &[bad, "commander:G"],
        );
    }
}

/// decode reads a non-default group size back from the header of a CNF that a real solver
/// solved.
#[test]
#[cfg_attr(
    missing_solver_cadical,
    ignore = "cadical is not on PATH (see build.rs)"
)]
fn amo_group_size_decoded_from_the_header() {
    require_solver("cadical");
    let dir = tempdir();
    let d = dir.path();
    run_expect(
        d,
        &["encode", "-n", "8", "--amo", "bimander:3", "-o", "b.cnf"],
        0,
    );
    assert_eq!(run_solver(d, "cadical", "b.cnf", "b.out"), 10);
    let r = run_expect(
        d,
        &[
            "decode", "--cnf", "b.cnf", "--model", "b.out", "--format", "json",
        ],
        10,
    );
    let v: Value = serde_json::from_str(r.stdout.trim()).expect("decode JSON");
    assert_eq!(v["amo"].as_str(), Some("bimander:3"));
    let board: Vec<&str> = v["board"]
        .as_array()
        .expect("board rows")
        .iter()
        .map(|row| row.as_str().expect("board row"))
        .collect();
    assert_solution(&board.join("\n"), 8, false);
}

#[test]
fn encode_no_presolve_unit_clauses() {
    let dir = tempdir();
    let d = dir.path();
    // Queen pre-placed at (2,3), cell (5,6) blocked, n = 8.
    let mut text = board_text(8, &[usize::MAX, usize::MAX, 3]);
    text.replace_range(5 * 9 + 6..5 * 9 + 7, "x");
    write(d, "units.txt", &text);
    let r = run_expect(
        d,
        &[
            "encode",
            "--instance",
            "units.txt",
            "--no-presolve",
            "-o",
            "-",
        ],
        0,
    );
    let cnf = check_cnf(
        d,
        &r.stdout,
        &["--instance", "units.txt", "--no-presolve"],
        "queen",
        8,
    );
    assert!(cnf.has_comment("c presolve off"));
    assert!(cnf.has_comment("c cells rowmajor"), "{:?}", cnf.comments);
    let queen_var = 2 * 8 + 3 + 1;
    let blocked_var = 5 * 8 + 6 + 1;
    assert!(
        cnf.clauses.contains(&vec![queen_var]),
        "missing unit clause '{queen_var} 0'"
    );
    assert!(
        cnf.clauses.contains(&vec![-blocked_var]),
        "missing unit clause '-{blocked_var} 0'"
    );
    // Solving the unpresolved encoding keeps the queen and avoids the blocked cell.
    let blocked: BTreeSet<Cell> = [(5, 6)].into();
    solve_and_verify_instance(d, "units.txt", &["--no-presolve"], 8, &[(2, 3)], &blocked);
}

// ---------------------------------------------------------------------------------------------
// 6. External solvers
// ---------------------------------------------------------------------------------------------

#[test]
#[cfg_attr(
    any(
        missing_solver_cadical,
        missing_solver_minisat,
        missing_solver_picosat,
        missing_solver_cryptominisat5
    ),
    ignore = "an external solver is not on PATH (see build.rs)"
)]
fn external_solvers_solve() {
    let dir = tempdir();
    let d = dir.path();
    for name in SOLVERS {
        require_solver(name);
        let r = run_expect(d, &["solve", "-n", "8", "--solver", name], 10);
        assert_solution(&r.stdout, 8, false);
        assert!(
            r.stderr.contains(name),
            "{name} named in summary: {}",
            r.stderr
        );
        let r = run_expect(d, &["solve", "-n", "3", "--solver", name], 20);
        assert_eq!(r.stdout.trim(), "UNSAT", "{name}");
        // JSON names the solver.
        let r = run_expect(
            d,
            &["solve", "-n", "8", "--solver", name, "--format", "json"],
            10,
        );
        let v: Value = serde_json::from_str(r.stdout.trim()).expect("JSON");
        assert_eq!(v["solver"], name);
        assert_eq!(v["status"], "SAT");
    }
}

#[test]
#[cfg_attr(
    any(
        missing_solver_cadical,
        missing_solver_minisat,
        missing_solver_picosat,
        missing_solver_cryptominisat5
    ),
    ignore = "an external solver is not on PATH (see build.rs)"
)]
fn external_solvers_solve_instances() {
    let dir = tempdir();
    let d = dir.path();
    write(
        d,
        "comp.param",
        "letting n = 8\nletting init = [[0,0],[1,4]]\nletting blocks = [[8,8]]\n",
    );
    let mut cols = vec![usize::MAX; 8];
    cols[1] = 2;
    write(d, "b.txt", &board_text(8, &cols).replacen('.', "x", 1));
    let comp_blocked: BTreeSet<Cell> = [(7, 7)].into();
    let b_blocked: BTreeSet<Cell> = [(0, 0)].into();
    for name in SOLVERS {
        require_solver(name);
        for presolve in [&[][..], &["--no-presolve"][..]] {
            let mut extra = vec!["--solver", name];
            extra.extend_from_slice(presolve);
            solve_and_verify_instance(d, "comp.param", &extra, 8, &[(0, 0), (1, 4)], &comp_blocked);
            solve_and_verify_instance(d, "b.txt", &extra, 8, &[(1, 2)], &b_blocked);
        }
        let r = run_expect(
            d,
            &["solve", "-n", "10", "--piece", "amazon", "--solver", name],
            10,
        );
        assert_solution(&r.stdout, 10, true);
    }
}

#[test]
#[cfg_attr(
    any(
        missing_solver_cadical,
        missing_solver_minisat,
        missing_solver_picosat,
        missing_solver_cryptominisat5
    ),
    ignore = "an external solver is not on PATH (see build.rs)"
)]
fn external_solvers_encode_run_decode() {
    let dir = tempdir();
    let d = dir.path();
    write(
        d,
        "comp.param",
        "letting n = 8\nletting init = [[0,0],[1,4]]\n",
    );
    write(
        d,
        "unsat.param",
        "letting n = 8\nletting init = [[0,0],[3,3]]\n",
    );
    run_expect(d, &["encode", "-n", "8", "-o", "plain.cnf"], 0);
    run_expect(d, &["encode", "-n", "3", "-o", "three.cnf"], 0);
    run_expect(
        d,
        &["encode", "--instance", "comp.param", "-o", "comp.cnf"],
        0,
    );
    run_expect(
        d,
        &["encode", "--instance", "unsat.param", "-o", "unsat.cnf"],
        0,
    );
    write(
        d,
        "diags.txt",
        "n = 8\nnumdiags = 3\ndiags = [[7,1],[7,0],[3,1]]\n",
    );
    run_expect(
        d,
        &[
            "encode",
            "--instance",
            "diags.txt",
            "--diags",
            "2",
            "-o",
            "diags.cnf",
        ],
        0,
    );
    let diag_blocked: BTreeSet<Cell> = (0..8)
        .flat_map(|r| (0..8).map(move |c| (r, c)))
        .filter(|&(r, c)| r + c == 7 || r == c)
        .collect();
    let comp = fs::read_to_string(d.join("comp.cnf")).unwrap();
    assert!(
        !comp.lines().any(|l| l == "c cells rowmajor"),
        "the completion instance must use a presolved (non-row-major) variable map"
    );

    for name in SOLVERS {
        require_solver(name);
        // (cnf, expected solver/decode exit code, pre-placed queens, x cells)
        let none = BTreeSet::new();
        let cases: [(&str, i32, &[Cell], &BTreeSet<Cell>); 5] = [
            ("plain.cnf", 10, &[], &none),
            ("comp.cnf", 10, &[(0, 0), (1, 4)], &none),
            ("diags.cnf", 10, &[], &diag_blocked),
            ("three.cnf", 20, &[], &none),
            ("unsat.cnf", 20, &[], &none),
        ];
        for (cnf, code, placed, blocked) in cases {
            let out = format!("{name}-{cnf}.out");
            let solver_code = run_solver(d, name, cnf, &out);
            assert_eq!(solver_code, code, "{name} on {cnf}: solver exit code");
            let r = run_expect(d, &["decode", "--cnf", cnf, "--model", &out], code);
            if code == 10 {
                let b = assert_solution(&r.stdout, 8, false);
                for p in placed {
                    assert!(b.queens.contains(p), "{name} {cnf}: pre-placed {p:?} kept");
                }
                assert_eq!(&b.blocked, blocked, "{name} {cnf}: x cells");
                // The decoded board passes verify against the instance it came from.
                let board = format!("{name}-{cnf}.board");
                write(d, &board, &r.stdout);
                match cnf {
                    "comp.cnf" => {
                        run_expect(d, &["verify", &board, "--instance", "comp.param"], 0);
                    }
                    "diags.cnf" => {
                        let args = ["verify", &board, "--instance", "diags.txt", "--diags", "2"];
                        run_expect(d, &args, 0);
                    }
                    _ => {
                        run_expect(d, &["verify", &board], 0);
                    }
                }
            } else {
                assert_eq!(r.stdout.trim(), "UNSAT", "{name} {cnf}");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 7. Timeouts and lying solvers
// ---------------------------------------------------------------------------------------------

/// The state letter of a live process, or `None` when it no longer exists.
fn process_state(pid: u32) -> Option<char> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // "pid (comm) S ..."; comm may contain spaces, so split after the last ')'.
    stat.rsplit_once(')')?.1.trim_start().chars().next()
}

#[test]
fn timeout_kills_a_hanging_solver() {
    let dir = tempdir();
    let d = dir.path();
    // The solver's child records its pid: it must not outlive the time limit either.
    write_executable(
        d,
        "fake.sh",
        "#!/bin/sh\nsleep 100 &\necho $! > sleep.pid\nwait\n",
    );
    let t0 = Instant::now();
    let r = run(
        d,
        &[
            "solve",
            "-n",
            "8",
            "--solver",
            "./fake.sh",
            "--timeout",
            "1",
        ],
    );
    let elapsed = t0.elapsed();

    // SIGKILL is delivered asynchronously: on a loaded machine the killed process may not have
    // been scheduled to die yet when `solve` returns, so give it a bounded moment to do so.
    let alive = |pid: u32| process_state(pid).is_some_and(|s| s != 'Z' && s != 'X');
    let leaked = fs::read_to_string(d.join("sleep.pid"))
        .ok()
        .and_then(|s| s.trim().parse::<u32>().ok())
        .filter(|&pid| {
            let until = Instant::now() + HANG_GUARD;
            while alive(pid) && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(20));
            }
            alive(pid)
        });
    if let Some(pid) = leaked {
        // Clean up the one process this test started, by its id, before failing.
        let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
        panic!("the solver's child process {pid} survived the time limit");
    }
    assert!(
        d.join("sleep.pid").exists(),
        "the fake solver never ran (no sleep.pid)"
    );
    assert_eq!(r.code, 1, "UNKNOWN is exit 1\n{r:?}");
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    assert!(
        elapsed < HANG_GUARD,
        "took {elapsed:?} for a 1 s time limit"
    );
    assert!(
        elapsed >= Duration::from_millis(900),
        "returned too early: {elapsed:?}"
    );
    assert_eq!(r.stdout.trim(), "UNKNOWN", "{r:?}");
    assert!(
        r.stderr.contains("UNKNOWN") && r.stderr.contains("time limit of 1 s"),
        "stderr names the time limit: {}",
        r.stderr
    );

    // JSON: status UNKNOWN with the reason.
    let r = run(
        d,
        &[
            "solve",
            "-n",
            "8",
            "--solver",
            "./fake.sh",
            "--timeout",
            "1",
            "--format",
            "json",
        ],
    );
    assert_eq!(r.code, 1);
    let v: Value = serde_json::from_str(r.stdout.trim()).expect("JSON");
    assert_eq!(v["status"], "UNKNOWN");
    assert!(v["board"].is_null() && v["queens"].is_null(), "{v}");
    assert!(
        v["reason"]
            .as_str()
            .is_some_and(|s| s.contains("time limit")),
        "{v}"
    );
}

#[test]
fn lying_solver_model_is_rejected() {
    let dir = tempdir();
    let d = dir.path();
    write_executable(
        d,
        "liar.sh",
        "#!/bin/sh\necho 's SATISFIABLE'\necho 'v 1 2 3 0'\nexit 10\n",
    );
    let msg = assert_one_line_error(
        d,
        &["solve", "-n", "8", "--solver", "./liar.sh"],
        &["liar.sh", "not a solution"],
    );
    assert!(!msg.contains('Q'), "{msg}");
    // Same through decode: a hand-written model that is not a solution.
    run_expect(d, &["encode", "-n", "8", "-o", "q8.cnf"], 0);
    write(d, "liar.out", "s SATISFIABLE\nv 1 2 3 0\n");
    assert_one_line_error(
        d,
        &["decode", "--cnf", "q8.cnf", "--model", "liar.out"],
        &["liar.out", "not a solution"],
    );
}

#[test]
fn timeout_applies_to_the_builtin_solver() {
    let dir = tempdir();
    // Encoding a 300x300 board alone takes far longer than 1 ms.
    let t0 = Instant::now();
    let r = run(dir.path(), &["solve", "-n", "300", "--timeout", "0.001"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(r.stdout.trim(), "UNKNOWN");
    assert!(r.stderr.contains("time limit"), "{}", r.stderr);
    assert!(t0.elapsed() < HANG_GUARD, "{:?}", t0.elapsed());
}

// ---------------------------------------------------------------------------------------------
// 8. Bad input
// ---------------------------------------------------------------------------------------------

#[test]
fn bad_input_gives_one_line_errors() {
    let dir = tempdir();
    let d = dir.path();
    write(d, "empty.txt", "");
    write(d, "nonsquare.txt", "....\n...\n....\n....\n");
    write(d, "char.txt", "....\n..z.\n....\n....\n");
    write(d, "n0.param", "letting n = 0\n");
    write(d, "big.param", "letting n = 70000\n");
    write(d, "init.param", "letting n = 8\nletting init = [[0,8]]\n");
    write(
        d,
        "blocks.param",
        "letting n = 8\n\nletting blocks = [[0,1]]\n",
    );
    write(d, "list.param", "letting n = 8\nletting init = [[0,1]\n");
    write(d, "non.param", "letting init = [[0,1]]\n");
    write(
        d,
        "diags.txt",
        "n = 8\nnumdiags = 3\ndiags = [[7,1],[7,0],[3,1]]\n",
    );
    write(d, "noexec.sh", "#!/bin/sh\nexit 10\n");
    let cases: Vec<(Vec<&str>, Vec<&str>)> = vec![
        (
            vec!["solve", "--instance", "empty.txt"],
            vec!["empty.txt", "empty"],
        ),
        (
            vec!["solve", "--instance", "nonsquare.txt"],
            vec!["nonsquare.txt:2:", "3 cells", "expected 4"],
        ),
        (
            vec!["solve", "--instance", "char.txt"],
            vec!["char.txt:2:", "'z'", "column 3"],
        ),
        (
            vec!["solve", "--instance", "n0.param"],
            vec!["n0.param:1:", "n = 0"],
        ),
        (
            vec!["solve", "--instance", "big.param"],
            vec!["big.param:1:", "70000"],
        ),
        (
            vec!["solve", "--instance", "init.param"],
            vec!["init.param:2:", "[0,8]"],
        ),
        (
            vec!["solve", "--instance", "blocks.param"],
            vec!["blocks.param:3:", "[0,1]"],
        ),
        (
            vec!["solve", "--instance", "list.param"],
            vec!["list.param:2:", "init"],
        ),
        (
            vec!["solve", "--instance", "non.param"],
            vec!["non.param", "letting n"],
        ),
        (
            vec!["solve", "--instance", "diags.txt", "--diags", "9"],
            vec!["--diags 9", "numdiags = 3", "diags.txt"],
        ),
        (
            vec![
                "encode",
                "--instance",
                "diags.txt",
                "--diags",
                "9",
                "-o",
                "-",
            ],
            vec!["--diags 9"],
        ),
        (vec!["solve", "-n", "8", "--amo", "magic"], vec!["magic"]),
        (vec!["encode", "-n", "8", "--amo", "magic"], vec!["magic"]),
        (
            vec!["solve", "-n", "8", "--piece", "bishop"],
            vec!["bishop"],
        ),
        (
            vec!["verify", "empty.txt", "--piece", "bishop"],
            vec!["bishop"],
        ),
        (vec!["solve", "-n", "0"], vec!["-n 0"]),
        (vec!["encode", "-n", "0", "-o", "-"], vec!["-n 0"]),
        (
            vec!["solve", "-n", "8", "--solver", "/nonexistent/solver"],
            vec!["/nonexistent/solver", "not found"],
        ),
        (
            vec!["solve", "-n", "8", "--solver", "./noexec.sh"],
            vec!["noexec.sh", "not executable"],
        ),
        (
            vec!["solve", "-n", "8", "--timeout", "0"],
            vec!["--timeout"],
        ),
        (vec!["verify", "nonsquare.txt"], vec!["nonsquare.txt:2:"]),
        (
            vec!["verify", "missing-board.txt"],
            vec!["missing-board.txt"],
        ),
    ];
    for (args, needles) in &cases {
        assert_one_line_error(d, args, needles);
    }

    // decode: a literal out of range, and a CNF not written by queens-sat.
    run_expect(d, &["encode", "-n", "8", "-o", "q8.cnf"], 0);
    write(d, "range.out", "s SATISFIABLE\nv 99999 0\n");
    assert_one_line_error(
        d,
        &["decode", "--cnf", "q8.cnf", "--model", "range.out"],
        &["range.out:2:", "99999", "out of range"],
    );
    write(d, "foreign.cnf", "c some other tool\np cnf 3 1\n1 2 3 0\n");
    write(d, "foreign.out", "s SATISFIABLE\nv 1 -2 -3 0\n");
    assert_one_line_error(
        d,
        &["decode", "--cnf", "foreign.cnf", "--model", "foreign.out"],
        &["foreign.cnf", "not a queens-sat"],
    );
    assert!(
        !d.join("cnf-out").exists(),
        "failed encodes must not create cnf-out"
    );
}

/// The odd instance file name of the two tests below: newlines and a fake DIMACS header.
const ODD_NAME: &str = "odd\nc fake\np cnf 1 1\nname.param";

/// Encodes a 6-queens completion instance stored under [`ODD_NAME`] to `odd.cnf`.
fn encode_odd_name(d: &Path) {
    write(d, ODD_NAME, "letting n = 6\nletting init = [[0,1]]\n");
    let r = run_expect(d, &["encode", "--instance", ODD_NAME, "-o", "odd.cnf"], 0);
    assert!(r.stderr.contains("wrote odd.cnf"), "{}", r.stderr);
}

/// An instance path is free text in the CNF header: it must not break the DIMACS file. The name
/// is written escaped on one comment line, and the file stays valid DIMACS and decodes.
#[test]
fn encode_instance_name_with_newline_keeps_dimacs_valid() {
    let dir = tempdir();
    let d = dir.path();
    encode_odd_name(d);
    let text = fs::read_to_string(d.join("odd.cnf")).unwrap();
    let p_lines = text.lines().filter(|l| l.starts_with("p ")).count();
    assert_eq!(p_lines, 1, "exactly one 'p' line:\n{text}");
    // Everything before the p line is a comment.
    let header: Vec<&str> = text.lines().take_while(|l| !l.starts_with("p ")).collect();
    for line in &header {
        assert!(line.starts_with('c'), "non-comment header line {line:?}");
    }
    let cnf = parse_cnf(&text);
    assert_eq!(cnf.clauses.len() as u64, cnf.clauses_declared);
    // decode reads the header back (a solver's UNSAT answer needs no variable map).
    write(d, "unsat.out", "s UNSATISFIABLE\n");
    let r = run_expect(
        d,
        &["decode", "--cnf", "odd.cnf", "--model", "unsat.out"],
        20,
    );
    assert_eq!(r.stdout.trim(), "UNSAT");
    assert_eq!(
        cnf.comment_value("instance"),
        Some(ODD_NAME.replace('\n', "\\n").as_str()),
        "the name is escaped on one line"
    );
}

/// A real solver accepts the CNF of [`ODD_NAME`] and its model decodes to a valid board.
#[test]
#[cfg_attr(
    missing_solver_cadical,
    ignore = "cadical is not on PATH (see build.rs)"
)]
fn odd_instance_name_cnf_solves_and_decodes() {
    require_solver("cadical");
    let dir = tempdir();
    let d = dir.path();
    encode_odd_name(d);
    assert_eq!(run_solver(d, "cadical", "odd.cnf", "odd.out"), 10);
    let r = run_expect(d, &["decode", "--cnf", "odd.cnf", "--model", "odd.out"], 10);
    let b = assert_solution(&r.stdout, 6, false);
    assert!(b.queens.contains(&(0, 1)), "pre-placed queen kept");
}

// ---------------------------------------------------------------------------------------------
// 9. Atomic output
// ---------------------------------------------------------------------------------------------

/// Temp files `write_atomic` would leave behind in `dir`.
fn leftover_temps(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".queens-sat-") || n.ends_with(".tmp"))
        .collect()
}

#[test]
fn encode_output_is_atomic() {
    let dir = tempdir();
    let d = dir.path();

    // A missing folder: an error, nothing created.
    assert_one_line_error(
        d,
        &["encode", "-n", "8", "-o", "sub/missing/x.cnf"],
        &["sub/missing"],
    );
    assert!(!d.join("sub").exists(), "no folder may be created");

    // A failing encode leaves an existing target byte-identical.
    let precious = b"c precious old content\np cnf 1 1\n1 0\n";
    fs::write(d.join("existing.cnf"), precious).unwrap();
    write(d, "bad.txt", "Q..\n.z.\n...\n");
    assert_one_line_error(
        d,
        &["encode", "--instance", "bad.txt", "-o", "existing.cnf"],
        &["bad.txt:2:"],
    );
    assert_eq!(fs::read(d.join("existing.cnf")).unwrap(), precious);
    assert!(leftover_temps(d).is_empty(), "{:?}", leftover_temps(d));

    // A target that cannot be replaced (a directory) fails after the temp file was written:
    // the temp file must be cleaned up.
    fs::create_dir(d.join("adir")).unwrap();
    assert_one_line_error(d, &["encode", "-n", "8", "-o", "adir"], &["adir"]);
    assert!(d.join("adir").is_dir());
    assert_eq!(fs::read_dir(d.join("adir")).unwrap().count(), 0);
    assert!(leftover_temps(d).is_empty(), "{:?}", leftover_temps(d));

    // A successful encode replaces the old file completely.
    run_expect(d, &["encode", "-n", "8", "-o", "existing.cnf"], 0);
    let text = fs::read_to_string(d.join("existing.cnf")).unwrap();
    check_cnf(d, &text, &["-n", "8"], "queen", 8);
    assert!(leftover_temps(d).is_empty(), "{:?}", leftover_temps(d));

    // The new file gets ordinary permissions (as a plainly created file would), not the
    // private mode of a temp file.
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
    run_expect(d, &["encode", "-n", "8", "-o", "fresh.cnf"], 0);
    fs::write(d.join("plain.txt"), "x").unwrap();
    assert_eq!(
        mode(&d.join("fresh.cnf")),
        mode(&d.join("plain.txt")),
        "mode of a new CNF file"
    );
}

// ---------------------------------------------------------------------------------------------
// count, --symmetric, --break-symmetry

#[test]
fn count_text_and_json() {
    let dir = tempdir();
    let r = run_expect(dir.path(), &["count", "-n", "8"], 0);
    assert!(r.stdout.contains("total 92\n"), "{}", r.stdout);
    assert!(r.stdout.contains("unique 12\n"), "{}", r.stdout);
    assert!(
        r.stdout
            .contains("group id r90 r180 r270 flip_h flip_v flip_d flip_a\n")
    );
    assert!(
        r.stdout.contains("fixed id=92 r90=0 r180=4 r270=0"),
        "{}",
        r.stdout
    );
    let t = std::time::Instant::now();
    let r = run_expect(
        dir.path(),
        &["count", "-n", "10", "--piece", "amazon", "--format", "json"],
        0,
    );
    let wall = t.elapsed().as_secs_f64();
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(v["total"], 4);
    assert_eq!(v["unique"], 1);
    assert_eq!(v["engine"], "sat");
    assert_eq!(v["group"].as_array().unwrap().len(), 8);
    assert_eq!(v["fixed"]["id"], 4);
    // The counting time is part of the process's run time.
    let seconds = v["seconds"].as_f64().unwrap();
    assert!((0.0..=wall).contains(&seconds), "{seconds} s of {wall} s");
    // Burnside, from the printed numbers.
    let sum: u64 = v["fixed"]
        .as_object()
        .unwrap()
        .values()
        .map(|x| x.as_u64().unwrap())
        .sum();
    assert_eq!(sum, 8 * v["unique"].as_u64().unwrap());
}

#[test]
fn count_cross_check_and_broken_symmetry() {
    let dir = tempdir();
    // One blocked corner keeps only the main-diagonal transpose.
    let inst = write(
        dir.path(),
        "corner.txt",
        "x.......\n........\n........\n........\n........\n........\n........\n........\n",
    );
    let r = run_expect(
        dir.path(),
        &[
            "count",
            "--instance",
            inst.to_str().unwrap(),
            "--cross-check",
            "--format",
            "json",
        ],
        0,
    );
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(v["group"], serde_json::json!(["id", "flip_d"]));
    assert_eq!(v["engine"], "sat+backtrack");
    // 92 solutions minus those with a queen in the corner (4 of them).
    assert_eq!(v["total"], 88);
    assert_eq!(v["fixed"]["id"], 88);
    let total = v["total"].as_u64().unwrap() + v["fixed"]["flip_d"].as_u64().unwrap();
    assert_eq!(v["unique"].as_u64().unwrap() * 2, total);
    // The varisat enumeration engine, cross-checked the same way.
    let r = run_expect(
        dir.path(),
        &[
            "count",
            "--instance",
            inst.to_str().unwrap(),
            "--engine",
            "cdcl",
            "--cross-check",
            "--format",
            "json",
        ],
        0,
    );
    let w: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(w["engine"], "cdcl+backtrack");
    assert_eq!((&w["total"], &w["unique"]), (&v["total"], &v["unique"]));
}

#[test]
fn symmetric_and_lex_leader_flags() {
    let dir = tempdir();
    let r = run_expect(dir.path(), &["count", "-n", "12", "--symmetric", "r90"], 0);
    assert!(r.stdout.starts_with("total 8\n"), "{}", r.stdout);
    let r = run_expect(
        dir.path(),
        &["count", "-n", "10", "--break-symmetry", "lex"],
        0,
    );
    assert!(r.stdout.starts_with("unique 92\n"), "{}", r.stdout);
    // A r90-symmetric 12-queens board, verified.
    let r = run_expect(dir.path(), &["solve", "-n", "12", "--symmetric", "r90"], 10);
    let drawn = assert_solution(&r.stdout, 12, false);
    let set: BTreeSet<Cell> = drawn.queens.iter().copied().collect();
    for &(r0, c0) in &drawn.queens {
        assert!(
            set.contains(&(c0, 11 - r0)),
            "not r90-symmetric: {}",
            r.stdout
        );
    }
    // No 8-queens solution is r90-symmetric.
    run_expect(dir.path(), &["solve", "-n", "8", "--symmetric", "r90"], 20);
    // The exported CNF records the restriction.
    let r = run_expect(
        dir.path(),
        &[
            "encode",
            "-n",
            "6",
            "--symmetric",
            "r180",
            "--break-symmetry",
            "lex",
            "-o",
            "-",
        ],
        0,
    );
    assert!(r.stdout.contains("c symmetric r180\n"));
    assert_one_line_error(
        dir.path(),
        &["count", "-n", "8", "--symmetric", "r45"],
        &["r45"],
    );
    assert_one_line_error(
        dir.path(),
        &["count", "-n", "8", "--break-symmetry", "magic"],
        &["magic"],
    );
}

/// A model file for `cnf` that puts pieces on `cols[r]` of each row r (row-major cell
/// variables, as on a plain board) and sets every other variable false.
fn model_for(cnf: &str, n: u32, cols: &[u32]) -> String {
    let vars: u64 = cnf
        .lines()
        .find_map(|l| l.strip_prefix("p cnf "))
        .and_then(|l| l.split_whitespace().next())
        .unwrap()
        .parse()
        .unwrap();
    let on: BTreeSet<u64> = cols
        .iter()
        .enumerate()
        .map(|(r, &c)| r as u64 * n as u64 + c as u64 + 1)
        .collect();
    let lits: Vec<String> = (1..=vars)
        .map(|v| {
            if on.contains(&v) {
                format!("{v}")
            } else {
                format!("-{v}")
            }
        })
        .collect();
    format!("s SATISFIABLE\nv {} 0\n", lits.join(" "))
}

/// Defect 3 (issue 11): `--symmetric` and `--break-symmetry lex` are recorded in the header,
/// and `decode` rejects a board that breaks them, so an exported model can be re-checked.
#[test]
fn decode_checks_the_recorded_symmetry_and_lex_leader() {
    let dir = tempdir();
    let d = dir.path();
    // r180: the header records it; a valid but asymmetric board is rejected.
    run_expect(
        d,
        &["encode", "-n", "8", "--symmetric", "r180", "-o", "s.cnf"],
        0,
    );
    let cnf = fs::read_to_string(d.join("s.cnf")).unwrap();
    assert!(cnf.contains("c symmetric r180\n"), "{cnf}");
    // 8-queens solution 0 4 7 5 2 6 1 3: not r180-symmetric (r180 maps it to 4 6 1 5 2 0 3 7).
    fs::write(
        d.join("asym.out"),
        model_for(&cnf, 8, &[0, 4, 7, 5, 2, 6, 1, 3]),
    )
    .unwrap();
    assert_one_line_error(
        d,
        &["decode", "--cnf", "s.cnf", "--model", "asym.out"],
        &["asym.out", "not r180-symmetric"],
    );
    // 2 4 1 7 0 6 3 5 is r180-symmetric: accepted.
    fs::write(
        d.join("sym.out"),
        model_for(&cnf, 8, &[2, 4, 1, 7, 0, 6, 3, 5]),
    )
    .unwrap();
    run_expect(d, &["decode", "--cnf", "s.cnf", "--model", "sym.out"], 10);

    // Lex-leader: 6-queens has one class of 4 boards; 1 3 5 0 2 4 is its leader (its row-0
    // piece is leftmost), 4 2 0 5 3 1 (its mirror image) is not.
    run_expect(
        d,
        &[
            "encode",
            "-n",
            "6",
            "--break-symmetry",
            "lex",
            "-o",
            "l.cnf",
        ],
        0,
    );
    let cnf = fs::read_to_string(d.join("l.cnf")).unwrap();
    let line = cnf
        .lines()
        .find(|l| l.starts_with("c lex-leader "))
        .unwrap();
    for g in [
        "r90", "r180", "r270", "flip_h", "flip_v", "flip_d", "flip_a",
    ] {
        assert!(line.split_whitespace().any(|w| w == g), "{line}");
    }
    fs::write(
        d.join("leader.out"),
        model_for(&cnf, 6, &[1, 3, 5, 0, 2, 4]),
    )
    .unwrap();
    run_expect(
        d,
        &["decode", "--cnf", "l.cnf", "--model", "leader.out"],
        10,
    );
    fs::write(d.join("other.out"), model_for(&cnf, 6, &[4, 2, 0, 5, 3, 1])).unwrap();
    assert_one_line_error(
        d,
        &["decode", "--cnf", "l.cnf", "--model", "other.out"],
        &["other.out", "lex-leader"],
    );
}

/// With the available memory stated (`QUEENS_SAT_AVAILABLE_MEMORY`, the same figure on every
/// host), an in-process solve that needs more is refused up front with a one-line error, and
/// one that fits runs.
#[test]
fn oversized_in_process_solve_is_refused_up_front() {
    let dir = tempdir();
    let with_memory = |bytes: &str, args: &[&str]| {
        std::process::Command::new(common::BIN)
            .args(args)
            .current_dir(dir.path())
            .env(queens_sat::solve::MEMORY_ENV, bytes)
            .output()
            .unwrap()
    };
    // Pairwise 200-queens: 13.3 M clauses, about 217 MB by the estimate.
    let args = [
        "solve", "-n", "200", "--amo", "pairwise", "--solver", "varisat",
    ];
    let t = std::time::Instant::now();
    let out = with_memory("100000000", &args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(out.stdout.is_empty());
    assert_eq!(err.lines().count(), 1, "{err}");
    for needle in ["needs an estimated", "GB", "only 0.1 GB is available"] {
        assert!(err.contains(needle), "{needle}: {err}");
    }
    assert!(
        t.elapsed() < HANG_GUARD,
        "refusal must come before any allocation: {err}"
    );
    let out = with_memory("1000000000000", &args);
    assert_eq!(
        out.status.code(),
        Some(10),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn certified_unsat() {
    let dir = tempdir();
    let r = run_expect(
        dir.path(),
        &["solve", "-n", "3", "--certify", "--solver", "varisat"],
        20,
    );
    assert!(
        r.stderr.contains("certified: varisat self-checking"),
        "{}",
        r.stderr
    );
    // The default races varisat and the linked CaDiCaL: either winner certifies.
    let r = run_expect(dir.path(), &["solve", "-n", "3", "--certify"], 20);
    assert!(r.stderr.contains("certified: "), "{}", r.stderr);
    // Presolve's UNSAT (two pre-placed queens on a diagonal) is re-proved on the full encoding.
    let inst = write(dir.path(), "diag.txt", "Q...\n.Q..\n....\n....\n");
    let r = run_expect(
        dir.path(),
        &["solve", "--instance", inst.to_str().unwrap(), "--certify"],
        20,
    );
    assert!(r.stderr.contains("certified"), "{}", r.stderr);
    // A solver that claims UNSAT with a bogus proof: an error, never an UNSAT.
    let liar = write_executable(
        dir.path(),
        "cadical-liar",
        "#!/bin/sh\n# args: --no-binary CNF PROOF\necho '1 0' > \"$3\"\necho '0' >> \"$3\"\necho 's UNSATISFIABLE'\nexit 20\n",
    );
    let msg = assert_one_line_error(
        dir.path(),
        &[
            "solve",
            "-n",
            "8",
            "--solver",
            liar.to_str().unwrap(),
            "--certify",
        ],
        &["does not check"],
    );
    assert!(!msg.contains("UNSAT\n"));
}

/// cadical's DRAT proof of an UNSAT answer is checked.
#[test]
#[cfg_attr(
    missing_solver_cadical,
    ignore = "cadical is not on PATH (see build.rs)"
)]
fn certified_unsat_by_cadical() {
    require_solver("cadical");
    let dir = tempdir();
    let r = run_expect(
        dir.path(),
        &[
            "solve",
            "-n",
            "9",
            "--piece",
            "amazon",
            "--solver",
            "cadical",
            "--certify",
            "--format",
            "json",
        ],
        20,
    );
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(v["certified"], "DRAT proof checked by dratify");
}

/// minisat writes no DRAT proof: `--certify` with it is a one-line error naming DRAT.
#[test]
#[cfg_attr(
    missing_solver_minisat,
    ignore = "minisat is not on PATH (see build.rs)"
)]
fn certify_refuses_a_solver_without_drat() {
    require_solver("minisat");
    let dir = tempdir();
    assert_one_line_error(
        dir.path(),
        &["solve", "-n", "3", "--solver", "minisat", "--certify"],
        &["DRAT"],
    );
}

#[test]
fn full_disk_and_unwritable_targets_keep_the_old_file() {
    let dir = tempdir();
    let target = dir.path().join("t.cnf");
    std::fs::write(&target, "old\n").unwrap();
    // A file-size limit stands in for a full disk: the write fails part-way.
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -f 200; exec {BIN} encode -n 300 --amo pairwise -o t.cnf"
        ))
        .current_dir(dir.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("t.cnf") && err.contains("too large"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "old\n");
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    // A folder nobody can create files in (even root): /proc.
    assert_one_line_error(
        dir.path(),
        &["encode", "-n", "8", "-o", "/proc/q.cnf"],
        &["/proc"],
    );
}

#[test]
fn portfolio_race_first_verified_answer_wins_and_losers_stop() {
    let dir = tempdir();
    let pid_file = dir.path().join("child.pid");
    let hang = write_executable(
        dir.path(),
        "hang.sh",
        &format!(
            "#!/bin/sh\nsleep 1000 &\necho $! > {}\nwait\n",
            pid_file.display()
        ),
    );
    let liar = write_executable(
        dir.path(),
        "liar.sh",
        "#!/bin/sh\necho 's SATISFIABLE'\necho 'v 1 2 3 0'\nexit 10\n",
    );
    // The winner needs a moment (200-queens), so the loser has surely started its child.
    let solvers = format!(
        "{},{},varisat --amo product",
        hang.display(),
        liar.display()
    );
    let t = std::time::Instant::now();
    let r = run_expect(
        dir.path(),
        &[
            "solve", "-n", "200", "--solver", &solvers, "--format", "json",
        ],
        10,
    );
    assert!(t.elapsed() < HANG_GUARD);
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(v["solver"], "portfolio winner: varisat --amo product");
    assert_eq!(v["amo"], "product");
    let board: Vec<String> = v["board"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect();
    assert_solution(&(board.join("\n") + "\n"), 200, false);
    // The hanging solver's process group is gone.
    common::assert_pid_file_process_gone(&pid_file);
    // UNSAT races too; a bad entry is a usage error.
    run_expect(
        dir.path(),
        &[
            "solve",
            "-n",
            "3",
            "--solver",
            "varisat --amo sequential,varisat --amo product",
        ],
        20,
    );
    assert_one_line_error(
        dir.path(),
        &["solve", "-n", "8", "--solver", "varisat --amo"],
        &["--solver 'varisat --amo' has an entry 'varisat --amo' that is not NAME"],
    );
}

#[test]
#[cfg_attr(
    missing_solver_cadical,
    ignore = "cadical is not on PATH (see build.rs)"
)]
fn bench_hard_quick_runs_and_cross_checks() {
    require_solver("cadical");
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("runs.csv");
    let r = run_expect(
        dir.path(),
        &[
            "bench",
            "hard",
            "--quick",
            "--amo",
            "pairwise,commander",
            "--solvers",
            "cadical",
            "--timeout",
            "60",
            "--jobs",
            "2",
            "--portfolio",
            "varisat --amo pairwise,cadical --amo product",
            "--csv",
            csv.to_str().unwrap(),
        ],
        0,
    );
    // 12 instances (blocked n = 28, 48; diagonals n = 12..15 direct and reduced) x 2 encodings
    // + 1 portfolio.
    assert!(
        r.stdout.contains("12 instances x 3 configurations"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("| cadical commander (csplib baseline) |"),
        "{}",
        r.stdout
    );
    for family in ["blocked n=28", "diagonals n=15", "diag->completion n=12"] {
        assert!(
            r.stdout.contains(&format!("| {family} ")),
            "{family}: {}",
            r.stdout
        );
    }
    // Every configuration is ranked with all 12 runs solved, and the winner is one of them
    // (which one depends on the machine's timing, so it is not checked).
    let labels = [
        "cadical pairwise",
        "cadical commander (csplib baseline)",
        "portfolio [varisat --amo pairwise,cadical --amo product]",
    ];
    for label in labels {
        let row = r
            .stdout
            .lines()
            .find(|l| l.starts_with(&format!("| {label} |")));
        assert!(
            row.is_some_and(|row| row.contains(" 12/12 | ")),
            "{label}: {}",
            r.stdout
        );
    }
    let winners: Vec<&str> = r
        .stdout
        .lines()
        .filter_map(|l| l.strip_prefix("Winner: "))
        .collect();
    assert!(
        matches!(winners.as_slice(), [w] if labels.contains(w)),
        "{winners:?}: {}",
        r.stdout
    );
    // The CSV parses (the portfolio's commas are quoted): 8 fields per row, 36 runs.
    let mut reader = csv::Reader::from_path(&csv).unwrap();
    assert_eq!(
        reader.headers().unwrap(),
        vec![
            "instance", "group", "n", "seed", "solver", "amo", "status", "seconds"
        ]
    );
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 36);
    let portfolio_rows = rows
        .iter()
        .filter(|r| &r[4] == "varisat --amo pairwise,cadical --amo product")
        .count();
    assert_eq!(portfolio_rows, 12, "one row per instance for the portfolio");
    // Every run answered, and a reduced instance has the answer of its source.
    for row in &rows {
        assert_eq!(row.len(), 8, "{row:?}");
        assert!(&row[6] == "SAT" || &row[6] == "UNSAT", "{row:?}");
        assert!(row[7].parse::<f64>().is_ok(), "{row:?}");
    }
    let answer = |name: &str| {
        rows.iter()
            .find(|r| &r[0] == name)
            .map(|r| &r[6] == "SAT")
            .unwrap()
    };
    for n in 12..=15 {
        let d = [(12, 6), (13, 8), (14, 12), (15, 10)]
            .iter()
            .find(|x| x.0 == n)
            .unwrap()
            .1;
        let direct = format!("diag-n{n}-d{d}-s1");
        assert_eq!(
            answer(&direct),
            answer(&format!("{direct}-completion")),
            "{direct}"
        );
    }
    // A bad encoding name is a one-line usage error before any run.
    let r = run_expect(dir.path(), &["bench", "hard", "--amo", "nope"], 1);
    assert!(r.stderr.contains("unknown --amo 'nope'"), "{}", r.stderr);
}

/// Regression (issue 26): `solve --cubes --break-symmetry lex` is accepted, answers the
/// lex-leader board of its class (checked here with the verifier's own lex test), and the
/// summary names the cube solver.
#[test]
fn solve_cubes_with_lex_leader_constraints() {
    use queens_sat::board::{self, Board};
    use queens_sat::symmetry::Symmetry;
    use queens_sat::verify::verify_lex_leader;
    let dir = tempdir();
    for solver in ["varisat", "lib:cadical"] {
        let r = run_expect(
            dir.path(),
            &[
                "solve",
                "-n",
                "8",
                "--cubes",
                "--solver",
                solver,
                "--break-symmetry",
                "lex",
            ],
            10,
        );
        let d = assert_solution(&r.stdout, 8, false);
        let board = Board::new(
            8,
            d.queens
                .iter()
                .map(|&(r, c)| board::Cell::new(r as u32, c as u32))
                .collect(),
        );
        verify_lex_leader(&board, &Symmetry::ALL).unwrap();
        assert!(
            r.stderr.contains(&format!("solver={solver} cubes (")),
            "{}",
            r.stderr
        );
    }
    run_expect(
        dir.path(),
        &["solve", "-n", "3", "--cubes", "--break-symmetry", "lex"],
        20,
    );
}
