//! End-to-end tests of `queens-sat generate` and `queens-sat convert`: determinism across
//! processes, the generators' invariants checked by this file's own geometry, readability by
//! `--instance`, and the reduction to completion against a brute-force count.

use crate::common;

use std::collections::HashSet;
use std::fs;

use common::*;

fn tempdir() -> tempfile::TempDir {
    tempfile::TempDir::new().expect("temp dir")
}

/// Free cells per row and per column.
fn free_counts(inst: &Plain) -> (Vec<i64>, Vec<i64>) {
    let n = inst.n;
    let rows = (0..n)
        .map(|r| (0..n).filter(|&c| !inst.blocked.contains(&(r, c))).count() as i64)
        .collect();
    let cols = (0..n)
        .map(|c| (0..n).filter(|&r| !inst.blocked.contains(&(r, c))).count() as i64)
        .collect();
    (rows, cols)
}

#[test]
fn same_command_same_bytes_across_processes() {
    let dir = tempdir();
    let commands: [&[&str]; 5] = [
        &[
            "generate",
            "completion",
            "-n",
            "40",
            "-m",
            "30",
            "--seed",
            "7",
        ],
        &[
            "generate",
            "completion",
            "-n",
            "12",
            "-m",
            "5",
            "--seed",
            "7",
            "--format",
            "board",
        ],
        &[
            "generate",
            "blocked",
            "-n",
            "20",
            "-m",
            "150",
            "--min-free",
            "3",
            "--seed",
            "2",
        ],
        &[
            "generate",
            "diagonals",
            "-n",
            "14",
            "--min-free",
            "2",
            "--seed",
            "9",
        ],
        &[
            "generate",
            "blocked",
            "-n",
            "9",
            "-m",
            "20",
            "--min-free",
            "2",
            "--seed",
            "1",
            "--format",
            "board",
        ],
    ];
    for args in commands {
        let a = run_expect(dir.path(), args, 0);
        let b = run_expect(dir.path(), args, 0);
        assert_eq!(a.stdout, b.stdout, "{args:?}");
        assert!(!a.stdout.is_empty());
        // -o FILE writes the same bytes.
        let mut with_o: Vec<&str> = args.to_vec();
        with_o.extend(["-o", "out.txt"]);
        run_expect(dir.path(), &with_o, 0);
        assert_eq!(
            fs::read_to_string(dir.path().join("out.txt")).unwrap(),
            a.stdout
        );
    }
    // A different seed gives a different instance.
    let a = run_expect(
        dir.path(),
        &[
            "generate",
            "completion",
            "-n",
            "40",
            "-m",
            "30",
            "--seed",
            "7",
        ],
        0,
    );
    let b = run_expect(
        dir.path(),
        &[
            "generate",
            "completion",
            "-n",
            "40",
            "-m",
            "30",
            "--seed",
            "8",
        ],
        0,
    );
    assert_ne!(a.stdout, b.stdout);
}

#[test]
fn outputs_are_pinned() {
    // Golden outputs: the same on every machine and run. A change here changes every published
    // instance, so it must be deliberate.
    let dir = tempdir();
    let r = run_expect(
        dir.path(),
        &[
            "generate",
            "completion",
            "-n",
            "8",
            "-m",
            "4",
            "--seed",
            "1",
        ],
        0,
    );
    assert_eq!(
        r.stdout,
        format!(
            "$ queens-sat {} generate completion -n 8 -m 4 --seed 1 (ChaCha8 seed 1)\n\
             letting n = 8\nletting init = [[7,6],[0,3],[4,2],[6,1]]\n",
            env!("CARGO_PKG_VERSION")
        )
    );
    let r = run_expect(
        dir.path(),
        &[
            "generate",
            "blocked",
            "-n",
            "6",
            "-m",
            "8",
            "--min-free",
            "2",
            "--seed",
            "3",
        ],
        0,
    );
    assert!(
        r.stdout.ends_with(
            "letting n = 6\nletting blocks = [[1,1],[2,3],[3,1],[3,2],[4,1],[6,1],[6,3],[6,4]]\n"
        ),
        "{}",
        r.stdout
    );
    let r = run_expect(
        dir.path(),
        &[
            "generate",
            "diagonals",
            "-n",
            "10",
            "--min-free",
            "4",
            "--seed",
            "1",
        ],
        0,
    );
    assert!(
        r.stdout.ends_with(
            "n = 10\nnumdiags = 15\ndiags = [[6,1],[3,0],[10,1],[2,1],[17,1],[15,1],[0,1],[14,1],[5,0],[16,1],[18,0],[10,0],\n  [3,1],[1,1],[11,0]]\n"
        ),
        "{}",
        r.stdout
    );
}

#[test]
fn completion_queens_never_attack() {
    let dir = tempdir();
    for seed in 0..25 {
        for (n, m) in [(8, 5), (16, 12), (30, 24)] {
            let (n_s, m_s, seed_s) = (n.to_string(), m.to_string(), seed.to_string());
            let r = run(
                dir.path(),
                &[
                    "generate",
                    "completion",
                    "-n",
                    &n_s,
                    "-m",
                    &m_s,
                    "--seed",
                    &seed_s,
                ],
            );
            if r.code == 1 {
                assert!(r.stderr.contains("gave up"), "{}", r.stderr);
                continue;
            }
            assert_eq!(r.code, 0, "{}", r.stderr);
            let inst = parse_plain(&r.stdout, None);
            assert_eq!((inst.n, inst.placed.len()), (n, m as usize));
            for (i, &a) in inst.placed.iter().enumerate() {
                assert!(
                    (0..n).contains(&a.0) && (0..n).contains(&a.1),
                    "0-based init"
                );
                for &b in &inst.placed[i + 1..] {
                    assert!(!queens_attack(a, b), "n={n} seed={seed}: {a:?} {b:?}");
                }
            }
        }
    }
}

#[test]
fn blocked_keeps_the_free_minimum_in_both_formats() {
    let dir = tempdir();
    for seed in 0..20 {
        let seed_s = seed.to_string();
        let base = [
            "generate",
            "blocked",
            "-n",
            "10",
            "-m",
            "60",
            "--min-free",
            "3",
            "--seed",
            &seed_s,
        ];
        let param = parse_plain(&run_expect(dir.path(), &base, 0).stdout, None);
        let mut board_args = base.to_vec();
        board_args.extend(["--format", "board"]);
        let board = parse_plain(&run_expect(dir.path(), &board_args, 0).stdout, None);
        // `blocks` is 1-based in the parameter file: after shifting, both formats agree.
        assert_eq!(param.blocked, board.blocked, "seed {seed}");
        assert_eq!(param.blocked.len(), 60);
        let (rows, cols) = free_counts(&param);
        assert!(
            rows.iter().chain(&cols).all(|&f| f >= 3),
            "seed {seed}: {rows:?} {cols:?}"
        );
    }
}

#[test]
fn diagonals_are_distinct_and_keep_the_free_minimum() {
    let dir = tempdir();
    for seed in 0..20 {
        let seed_s = seed.to_string();
        let text = run_expect(
            dir.path(),
            &[
                "generate",
                "diagonals",
                "-n",
                "12",
                "--min-free",
                "3",
                "--seed",
                &seed_s,
            ],
            0,
        )
        .stdout;
        let list: Vec<(i64, i64)> = {
            let body = text.split_once("\ndiags =").unwrap().1;
            let ints: Vec<i64> = body
                .split(|c: char| !c.is_ascii_digit())
                .filter(|t| !t.is_empty())
                .map(|t| t.parse().unwrap())
                .collect();
            ints.chunks(2).map(|p| (p[0], p[1])).collect()
        };
        let distinct: HashSet<_> = list.iter().collect();
        assert_eq!(distinct.len(), list.len(), "seed {seed}: repeated diagonal");
        assert!(text.contains(&format!("numdiags = {}", list.len())));
        let full = parse_plain(&text, None);
        let (rows, cols) = free_counts(&full);
        assert!(rows.iter().chain(&cols).all(|&f| f >= 3), "seed {seed}");
    }
}

#[test]
fn generated_instances_solve_through_instance() {
    let dir = tempdir();
    let files: [(&[&str], &str); 3] = [
        (
            &[
                "generate",
                "completion",
                "-n",
                "8",
                "-m",
                "2",
                "--seed",
                "4",
                "-o",
                "c.param",
            ],
            "c.param",
        ),
        (
            &[
                "generate",
                "blocked",
                "-n",
                "8",
                "-m",
                "10",
                "--min-free",
                "2",
                "--seed",
                "4",
                "--format",
                "board",
                "-o",
                "b.txt",
            ],
            "b.txt",
        ),
        (
            &[
                "generate",
                "diagonals",
                "-n",
                "8",
                "--min-free",
                "2",
                "--seed",
                "4",
                "-o",
                "d.txt",
            ],
            "d.txt",
        ),
    ];
    for (args, file) in files {
        run_expect(dir.path(), args, 0);
        let diags: &[&str] = if file == "d.txt" {
            &["--diags", "3"]
        } else {
            &[]
        };
        let mut solve = vec!["solve", "--instance", file];
        solve.extend(diags);
        let r = run(dir.path(), &solve);
        let inst = parse_plain(
            &fs::read_to_string(dir.path().join(file)).unwrap(),
            diags.get(1).map(|d| d.parse().unwrap()),
        );
        let expected = if oracle_count(&inst) > 0 { 10 } else { 20 };
        assert_eq!(r.code, expected, "{file}: {}", r.stderr);
    }
}

#[test]
fn convert_rewrites_formats_and_reduces_to_completion() {
    let dir = tempdir();
    run_expect(
        dir.path(),
        &[
            "generate",
            "diagonals",
            "-n",
            "7",
            "--min-free",
            "1",
            "--seed",
            "5",
            "-o",
            "d.txt",
        ],
        0,
    );
    let text = fs::read_to_string(dir.path().join("d.txt")).unwrap();
    let mut checked = 0;
    for d in [0usize, 2, 4, 6] {
        let d_s = d.to_string();
        let source = parse_plain(&text, Some(d));
        let expected = oracle_count(&source);
        // board and param say the same thing.
        for to in ["board", "param"] {
            let out = run_expect(
                dir.path(),
                &[
                    "convert",
                    "--instance",
                    "d.txt",
                    "--diags",
                    &d_s,
                    "--to",
                    to,
                ],
                0,
            )
            .stdout;
            let back = parse_plain(&out, None);
            assert_eq!(back.blocked, source.blocked, "--to {to} --diags {d}");
            assert_eq!(oracle_count(&back), expected);
        }
        // The completion instance: same number of solutions, counted by the SAT engine.
        run_expect(
            dir.path(),
            &[
                "convert",
                "--instance",
                "d.txt",
                "--diags",
                &d_s,
                "--to",
                "completion",
                "-o",
                "c.param",
            ],
            0,
        );
        let conv = parse_plain(
            &fs::read_to_string(dir.path().join("c.param")).unwrap(),
            None,
        );
        assert_eq!(
            conv.n,
            19 * 91 + 7 + d as i64,
            "side 19p + n + D, p = 2(7n-3)-1 = 91"
        );
        assert_eq!(conv.placed.len() as i64, conv.n - 7);
        let r = run_expect(
            dir.path(),
            &["count", "--instance", "c.param", "--format", "json"],
            0,
        );
        let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
        assert_eq!(v["total"].as_u64(), Some(expected), "--diags {d}");
        checked += usize::from(expected > 0);
    }
    assert!(checked >= 1, "at least one satisfiable prefix");
}

#[test]
fn bad_generator_input_is_one_line() {
    let dir = tempdir();
    assert_one_line_error(
        dir.path(),
        &[
            "generate",
            "completion",
            "-n",
            "8",
            "-m",
            "9",
            "--seed",
            "1",
        ],
        &["-m 9", "8x8"],
    );
    assert_one_line_error(
        dir.path(),
        &[
            "generate",
            "completion",
            "-n",
            "3",
            "-m",
            "3",
            "--seed",
            "1",
        ],
        &["gave up"],
    );
    assert_one_line_error(
        dir.path(),
        &[
            "generate",
            "blocked",
            "-n",
            "4",
            "-m",
            "13",
            "--min-free",
            "1",
            "--seed",
            "1",
        ],
        &["at most", "12"],
    );
    assert_one_line_error(
        dir.path(),
        &[
            "generate",
            "completion",
            "-n",
            "0",
            "-m",
            "0",
            "--seed",
            "1",
        ],
        &["-n 0"],
    );
    // No file is left behind by a failed -o.
    assert_one_line_error(
        dir.path(),
        &[
            "generate",
            "completion",
            "-n",
            "3",
            "-m",
            "3",
            "--seed",
            "1",
            "-o",
            "x.param",
        ],
        &["gave up"],
    );
    assert!(!dir.path().join("x.param").exists());
    fs::write(dir.path().join("b.txt"), "x.\n..\n").unwrap();
    assert_one_line_error(
        dir.path(),
        &["convert", "--instance", "b.txt", "--to", "completion"],
        &["blocked cells"],
    );
    assert_one_line_error(
        dir.path(),
        &[
            "convert",
            "--instance",
            "b.txt",
            "--diags",
            "1",
            "--to",
            "param",
        ],
        &["--diags"],
    );
    // Flags clap rejects: one line, exit 1, like every other error.
    let r = run(
        dir.path(),
        &[
            "generate",
            "diagonals",
            "-n",
            "5",
            "--min-free",
            "1",
            "--seed",
            "1",
            "--format",
            "board",
        ],
    );
    assert_eq!(r.code, 1);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert_one_line_error(
        dir.path(),
        &["generate", "completion", "-n", "5", "-m", "1"],
        &["--seed"],
    );
}
