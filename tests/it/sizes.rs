//! Every size bounded (issue 52 §3): plain boards of every n in `1..=65536` by the explicit
//! construction (`solve::construct`), the compact `--format cols`, the JSON and SVG size
//! limits, the time-limit values (`inf`, too large, too small), one `-n` rule for every command,
//! the walk's `--certify` refusal and tiny boards, and the memory refusals under a small budget
//! (`QUEENS_SAT_AVAILABLE_MEMORY`, so the tests do not depend on the host).
//!
//! Boards are judged twice: by the crate's verifier and by this file's own O(n) attack check
//! (counters per row, column and diagonal, and a hash set for the knight's leaps), which shares
//! no code with the crate. Nothing here asserts a time; the timings are in
//! `scripts/big-boards.py` and docs/benchmarks.md.

use std::collections::HashSet;
use std::process::{Command, Stdio};

use queens_sat::board::{Board, Cell};
use queens_sat::instance::Instance;
use queens_sat::piece::{AMAZON, QUEEN};
use queens_sat::solve::construct::columns;
use queens_sat::solve::{Answer, Solver};
use queens_sat::verify::verify;

use crate::common::Plain;
use crate::common::oracle::{Attacks, count};
use crate::common::{BIN, assert_one_line_error, run_expect};

/// The test's own check that `cols` (row r's piece in column `cols[r]`) is an `n`-board of
/// pieces that attack along rows, columns and diagonals (and by knight leaps when `knight`).
fn attack_free(n: usize, cols: &[u32], knight: bool) -> Result<(), String> {
    if cols.len() != n {
        return Err(format!("{} rows, expected {n}", cols.len()));
    }
    let (mut col, mut diag, mut anti) = (vec![false; n], vec![false; 2 * n], vec![false; 2 * n]);
    for (r, &c) in cols.iter().enumerate() {
        let c = c as usize;
        if c >= n {
            return Err(format!("row {r}: column {c} is off the board"));
        }
        let (d, a) = (r + n - c, r + c);
        if col[c] || diag[d] || anti[a] {
            return Err(format!("row {r}, column {c} is attacked along a line"));
        }
        (col[c], diag[d], anti[a]) = (true, true, true);
    }
    if knight {
        let cells: HashSet<(i64, i64)> = cols
            .iter()
            .enumerate()
            .map(|(r, &c)| (r as i64, i64::from(c)))
            .collect();
        for &(r, c) in &cells {
            for (dr, dc) in [(1, 2), (2, 1), (1, -2), (2, -1)] {
                if cells.contains(&(r + dr, c + dc)) {
                    return Err(format!(
                        "({r},{c}) and ({},{}) are a knight apart",
                        r + dr,
                        c + dc
                    ));
                }
            }
        }
    }
    Ok(())
}

fn board(n: u32, cols: &[u32]) -> Board {
    Board::new(
        n,
        cols.iter()
            .enumerate()
            .map(|(r, &c)| Cell::new(r as u32, c))
            .collect(),
    )
}

/// Bigger sides: each residue mod 6 several times, the powers of two and the largest sides.
fn big_sample() -> Vec<u32> {
    let mut v: Vec<u32> = (2001..=2030).collect();
    v.extend([3000, 4096, 6000, 6002, 6003, 10_000, 20_000, 32_768, 46_341]);
    v.extend(65_524..=65_536);
    v
}

#[test]
fn queens_construction_every_n_to_2000_and_a_big_sample() {
    for n in (1..=2000).chain(big_sample()) {
        match columns(n, QUEEN) {
            Some(cols) => {
                verify(&board(n, &cols), &Instance::plain(n), QUEEN)
                    .unwrap_or_else(|e| panic!("n = {n}: the verifier refused: {e}"));
                attack_free(n as usize, &cols, false).unwrap_or_else(|e| panic!("n = {n}: {e}"));
            }
            None => assert!(n == 2 || n == 3, "no queens construction for n = {n}"),
        }
    }
}

#[test]
fn amazons_construction_where_it_applies() {
    for n in (1..=1000).chain(big_sample()) {
        match columns(n, AMAZON) {
            Some(cols) => {
                verify(&board(n, &cols), &Instance::plain(n), AMAZON)
                    .unwrap_or_else(|e| panic!("n = {n}: the verifier refused: {e}"));
                attack_free(n as usize, &cols, true).unwrap_or_else(|e| panic!("n = {n}: {e}"));
            }
            // No construction: n ≡ 2, 3 (mod 6) and the small sides (no solution below 10).
            None => assert!(
                matches!(n % 6, 2 | 3) || n < 12,
                "no amazons construction for n = {n}"
            ),
        }
    }
    for n in [1000, 10_000, 65_536] {
        assert!(
            columns(n, AMAZON).is_some(),
            "the documented amazons sides: n = {n}"
        );
    }
}

/// The default strategy on small plain boards agrees with the brute-force oracle (SAT exactly
/// where a solution exists), for queens and amazons; its boards are among the oracle's.
#[test]
fn default_strategy_on_small_plain_boards_matches_the_oracle() {
    for (piece, name) in [(QUEEN, "queen"), (AMAZON, "amazon")] {
        for n in 1..=8u32 {
            let plain = Plain {
                n: i64::from(n),
                ..Plain::default()
            };
            let solutions = count(&plain, &Attacks::named(name));
            let report = Solver::new(&Instance::plain(n), piece).solve().unwrap();
            match report.status {
                Answer::Sat(b) => {
                    assert!(solutions > 0, "{name} n = {n}: SAT, the oracle has none");
                    let mut cols = vec![0u32; n as usize];
                    for c in &b.pieces {
                        cols[c.row as usize] = c.col;
                    }
                    attack_free(n as usize, &cols, piece == AMAZON).unwrap();
                }
                Answer::Unsat => assert_eq!(solutions, 0, "{name} n = {n}: UNSAT"),
                Answer::Unknown(why) => panic!("{name} n = {n}: UNKNOWN ({why})"),
            }
        }
    }
}

/// Local search on a plain board keeps O(n) state (no cell lists): a board of n = 20,000 is
/// found and verified.
#[test]
fn walk_on_a_big_plain_board() {
    let inst = Instance::plain(20_000);
    let report = Solver::new(&inst, QUEEN).solver("walk").solve().unwrap();
    let b = report.status.sat().expect("a 20,000-queens board");
    verify(b, &inst, QUEEN).unwrap();
}

/// `solve -n N --format cols` through the CLI: one line per row, parsed and checked here.
#[test]
fn cli_cols_format_big_boards() {
    let dir = tempfile::tempdir().unwrap();
    for (n, piece) in [
        (4u32, "queen"),
        (2000, "queen"),
        (20_000, "queen"),
        (65_536, "queen"),
        (10_000, "amazon"),
        (10_004, "amazon"),
    ] {
        let ns = n.to_string();
        let r = run_expect(
            dir.path(),
            &["solve", "-n", &ns, "--piece", piece, "--format", "cols"],
            10,
        );
        let cols: Vec<u32> = r
            .stdout
            .lines()
            .map(|l| {
                l.parse()
                    .unwrap_or_else(|e| panic!("n = {n}: line {l:?}: {e}"))
            })
            .collect();
        attack_free(n as usize, &cols, piece == "amazon")
            .unwrap_or_else(|e| panic!("{piece} n = {n}: {e}"));
    }
    let r = run_expect(dir.path(), &["solve", "-n", "3", "--format", "cols"], 20);
    assert_eq!(r.stdout.trim(), "UNSAT");
}

/// The text board is streamed whole at any n; JSON keeps the rows up to n = 1000 and says why
/// it leaves them out past it; SVG is refused past n = 1024 before anything is solved.
#[test]
fn cli_text_json_svg_limits() {
    let dir = tempfile::tempdir().unwrap();
    let r = run_expect(dir.path(), &["solve", "-n", "3000"], 10);
    let rows: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(rows.len(), 3000);
    let cols: Vec<u32> = rows
        .iter()
        .map(|row| {
            assert_eq!(row.len(), 3000);
            assert_eq!(row.matches('Q').count(), 1);
            row.find('Q').unwrap() as u32
        })
        .collect();
    attack_free(3000, &cols, false).unwrap();

    for (n, kept) in [(1000, true), (1001, false)] {
        let ns = n.to_string();
        let r = run_expect(dir.path(), &["solve", "-n", &ns, "--format", "json"], 10);
        let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
        assert_eq!(v["queens"].as_array().unwrap().len(), n);
        assert_eq!(v["board"].is_array(), kept, "n = {n}: {}", v["board"]);
        assert_eq!(v["board_omitted"].is_string(), !kept, "n = {n}");
    }
    assert_one_line_error(
        dir.path(),
        &["solve", "-n", "1025", "--format", "svg"],
        &["--format svg", "1024", "n = 1025"],
    );
    run_expect(dir.path(), &["solve", "-n", "1024", "--format", "svg"], 10);
}

/// `--timeout inf` is no limit; a value past what a duration holds and one below the
/// resolution each get their own message naming the value.
#[test]
fn cli_timeout_values() {
    let dir = tempfile::tempdir().unwrap();
    run_expect(dir.path(), &["solve", "-n", "8", "--timeout", "inf"], 10);
    run_expect(dir.path(), &["solve", "-n", "8", "--timeout", "0.001"], 10);
    assert_one_line_error(
        dir.path(),
        &["solve", "-n", "8", "--timeout", "1e30"],
        &["--timeout 1e30", "too large", "inf"],
    );
    assert_one_line_error(
        dir.path(),
        &["solve", "-n", "8", "--timeout", "0.0000000001"],
        &["--timeout 1e-10", "below the resolution of 0.001 seconds"],
    );
    assert_one_line_error(
        dir.path(),
        &["solve", "-n", "8", "--timeout", "0"],
        &["--timeout 0 must be a positive number of seconds"],
    );
}

/// The walk refuses `--certify` up front and decides tiny boards at once (UNSAT included).
#[test]
fn cli_walk_certify_and_tiny_boards() {
    let dir = tempfile::tempdir().unwrap();
    assert_one_line_error(
        dir.path(),
        &["solve", "-n", "8", "--solver", "walk", "--certify"],
        &["walk", "--certify", "writes no proof"],
    );
    for n in ["2", "3"] {
        let r = run_expect(dir.path(), &["solve", "-n", n, "--solver", "walk"], 20);
        assert_eq!(r.stdout.trim(), "UNSAT");
    }
    run_expect(dir.path(), &["solve", "-n", "1", "--solver", "walk"], 10);
    // No DIMACS limit for an engine that writes no CNF.
    run_expect(
        dir.path(),
        &[
            "solve", "-n", "46341", "--solver", "walk", "--format", "cols",
        ],
        10,
    );
}

/// One `-n` rule and one message for every command that takes `-n`.
#[test]
fn cli_n_range_one_message() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("job");
    let out = out.to_str().unwrap();
    for n in ["0", "65537"] {
        let message = format!("-n {n} is out of range (1..=65536)");
        for args in [
            vec!["solve", "-n", n],
            vec!["solve", "-n", n, "--solver", "walk"],
            vec!["solve", "-n", n, "--solver", "construct"],
            vec!["encode", "-n", n, "--stats"],
            vec!["count", "-n", n],
            vec!["generate", "completion", "-n", n, "-m", "1", "--seed", "1"],
            vec!["split", "count", "-n", n, "-o", out],
        ] {
            assert_one_line_error(dir.path(), &args, &[&message]);
        }
    }
}

/// Under a small memory budget every allocation that grows with n² or the CNF is refused up
/// front with its estimate (or the solve goes to an engine that needs none: a plain board of
/// any n is built without a CNF).
#[test]
fn memory_refusals_under_a_small_budget() {
    let dir = tempfile::tempdir().unwrap();
    let blocked = dir.path().join("b.param");
    std::fs::write(&blocked, "letting n = 3000\nletting blocks = [[1,1]]\n").unwrap();
    let blocked = blocked.to_str().unwrap();
    let with_budget = |args: &[&str]| {
        let out = Command::new(BIN)
            .args(args)
            .current_dir(dir.path())
            .env(queens_sat::solve::MEMORY_ENV, "20000000") // 20 MB
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr,
        )
    };
    let refused = |args: &[&str], needles: &[&str]| {
        let (code, stdout, stderr) = with_budget(args);
        assert_eq!(code, Some(1), "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
        assert_eq!(stderr.trim().lines().count(), 1, "{args:?}: {stderr}");
        for needle in needles {
            assert!(
                stderr.contains(needle),
                "{args:?}: {stderr:?} lacks {needle:?}"
            );
        }
    };
    refused(
        &["solve", "-n", "1000", "--solver", "varisat"],
        &["needs an estimated", "available"],
    );
    refused(
        &["solve", "-n", "1000", "--solver", "lib:cadical"],
        &["needs an estimated", "available"],
    );
    refused(
        &["solve", "-n", "1000", "--solver", "varisat,lib:cadical"],
        &["no entrant of the portfolio fits", "varisat", "lib:cadical"],
    );
    refused(
        &["solve", "--instance", blocked],
        &["presolving", "needs an estimated", "available"],
    );
    // The SAT counting engines estimate a cube's clause database before building any.
    refused(
        &["count", "-n", "1000", "--break-symmetry", "lex"],
        &[
            "counting with the sat engine",
            "needs an estimated",
            "available",
        ],
    );
    refused(
        &["count", "-n", "300", "--engine", "cdcl", "--jobs", "2"],
        &[
            "counting with the cdcl engine on 2 thread(s)",
            "needs an estimated",
        ],
    );
    // A plain board needs no CNF: built within any budget.
    let (code, stdout, stderr) = with_budget(&["solve", "-n", "65536", "--format", "cols"]);
    assert_eq!(code, Some(10), "{stderr}");
    let cols: Vec<u32> = stdout.lines().map(|l| l.parse().unwrap()).collect();
    attack_free(65_536, &cols, false).unwrap();
}

/// Under a real address-space cap (3 GiB, `ulimit -v`), every big count and solve ends with an
/// answer, a time limit or a one-line refusal (exit 1), never an abort (exit 134, SIGABRT):
/// the estimates read the cap, and what grows with the CNF is reserved fallibly.
#[test]
fn big_calls_end_cleanly_under_an_address_space_cap() {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &[
            "count",
            "-n",
            "1000",
            "--break-symmetry",
            "lex",
            "--timeout",
            "2",
        ][..],
        &["count", "-n", "3000", "--timeout", "2"],
        &["count", "-n", "64", "--timeout", "2"],
        &["count", "-n", "300", "--engine", "cdcl", "--timeout", "2"],
        &[
            "solve",
            "-n",
            "1000",
            "--break-symmetry",
            "lex",
            "--solver",
            "varisat",
            "--timeout",
            "5",
        ],
        &[
            "solve", "-n", "3000", "--solver", "varisat", "--amo", "pairwise",
        ],
    ] {
        let mut cmd = Command::new(BIN);
        cmd.args(args)
            .current_dir(dir.path())
            .env_remove(queens_sat::memory::MEMORY_ENV)
            .stdin(Stdio::null());
        // SAFETY: setrlimit is async-signal-safe and only touches the child's own limits.
        unsafe {
            cmd.pre_exec(|| {
                let cap = 3 << 30;
                let lim = libc::rlimit {
                    rlim_cur: cap,
                    rlim_max: cap,
                };
                if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let out = cmd.output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        let last = stderr.trim().lines().last().unwrap_or("");
        assert!(
            last.contains("too large") || last.contains("time limit"),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}
