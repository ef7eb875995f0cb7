//! The option table (`queens_sat::applies`, issue 52 §2), walked row by row through the binary:
//! every row's combination is refused with one line naming the option and the other option,
//! and the same option where the row does not hold has its documented effect. A row without a
//! case here fails the walk, so a new row comes with its test.

use std::path::Path;

use queens_sat::applies::{Command, RULES, Rule, When};
use queens_sat::error::Opt;
use tempfile::TempDir;

use crate::common::{assert_one_line_error, run_expect};

/// A verified-by-hand 8-queens solution (column of the queen in each row).
const SOLUTION_8: [usize; 8] = [0, 4, 7, 5, 2, 6, 1, 3];

fn board_text(cols: &[usize]) -> String {
    let n = cols.len();
    cols.iter()
        .map(|&c| {
            let mut row = vec!['.'; n];
            row[c] = 'Q';
            row.into_iter().collect::<String>() + "\n"
        })
        .collect()
}

/// The value of the DIMACS header line `c KEY VALUE` in `text`.
fn header<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    text.lines()
        .filter_map(|l| l.strip_prefix("c "))
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(' '))
}

/// The number after `KEY=` in a solve summary line.
fn summary_number(stderr: &str, key: &str) -> u64 {
    stderr
        .split_whitespace()
        .find_map(|w| w.strip_prefix(key)?.strip_prefix('='))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no {key}= in {stderr}"))
}

/// The command line that makes `rule` hold (the option given, the condition true), and a check
/// that the option has its documented effect where the condition does not hold.
fn refused_args(rule: &Rule, dir: &Path) -> Vec<String> {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let board = dir.join("b8.txt");
    std::fs::write(&board, board_text(&SOLUTION_8)).unwrap();
    match (rule.command, rule.option, rule.when) {
        (Command::Encode, Opt::Output, When::With(Opt::Stats)) => {
            s(&["encode", "-n", "6", "--stats", "-o", "y.cnf"])
        }
        (Command::Encode, Opt::Gbdhash, When::With(Opt::Stats)) => {
            s(&["encode", "-n", "6", "--stats", "--gbdhash"])
        }
        (Command::Encode, Opt::Gbdhash, When::OtherNotIn { other: Opt::To, .. }) => s(&[
            "encode",
            "-n",
            "6",
            "--to",
            "opb",
            "--gbdhash",
            "-o",
            "y.opb",
        ]),
        (Command::Encode, Opt::Amo, When::All(_)) => s(&[
            "encode", "-n", "6", "--to", "lp", "--amo", "pairwise", "-o", "y.lp",
        ]),
        (Command::Verify, Opt::Diags, When::Without(Opt::Instance)) => {
            s(&["verify", board.to_str().unwrap(), "--diags", "3"])
        }
        (
            Command::Solve,
            Opt::Deterministic,
            When::OtherNotIn {
                other: Opt::Solver, ..
            },
        ) => s(&[
            "solve",
            "-n",
            "12",
            "--deterministic",
            "--solver",
            "varisat",
        ]),
        (Command::Encode, Opt::Level, When::With(Opt::Stats)) => {
            s(&["encode", "-n", "6", "--stats", "--level", "3"])
        }
        (
            Command::Solve,
            Opt::Deterministic,
            When::OtherIn {
                other: Opt::Jobs, ..
            },
        ) => s(&[
            "solve",
            "-n",
            "12",
            "--solver",
            "bitboard",
            "--jobs",
            "1",
            "--deterministic",
        ]),
        (Command::Solve, Opt::Amo, When::OtherIn { .. }) => s(&[
            "solve", "-n", "8", "--solver", "bitboard", "--amo", "pairwise",
        ]),
        (Command::Solve, Opt::Implied, When::OtherIn { .. }) => {
            s(&["solve", "-n", "8", "--solver", "walk", "--implied", "sums"])
        }
        (Command::Solve, Opt::Jobs, When::All(_)) => {
            s(&["solve", "-n", "8", "--solver", "varisat", "--jobs", "2"])
        }
        (Command::Solve, Opt::BreakSymmetry, When::With(Opt::Cubes)) => {
            s(&["solve", "-n", "8", "--cubes", "--break-symmetry", "none"])
        }
        (Command::Solve, Opt::BreakSymmetry, When::OtherNotIn { .. }) => s(&[
            "solve",
            "-n",
            "8",
            "--solver",
            "varisat",
            "--break-symmetry",
            "cubes",
        ]),
        (Command::Solve, Opt::ProofFormat, When::With(Opt::Cubes)) => s(&[
            "solve",
            "-n",
            "3",
            "--certify",
            "--cubes",
            "--proof-format",
            "lrat",
        ]),
        (Command::Solve, Opt::ProofFormat, When::OtherNotIn { .. }) => s(&[
            "solve",
            "-n",
            "3",
            "--certify",
            "--solver",
            "varisat",
            "--proof-format",
            "veripb",
        ]),
        (Command::Count, Opt::Engine, When::With(Opt::Boards)) => {
            s(&["count", "-n", "6", "--boards", "2", "--engine", "sat"])
        }
        (Command::Count, Opt::Jobs, When::With(Opt::Boards)) => {
            s(&["count", "-n", "6", "--boards", "2", "--jobs", "2"])
        }
        (Command::Count, Opt::Amo, When::With(Opt::Boards)) => {
            s(&["count", "-n", "6", "--boards", "2", "--amo", "pairwise"])
        }
        (
            Command::Count,
            Opt::Amo,
            When::OtherNotIn {
                other: Opt::Engine, ..
            },
        ) => s(&[
            "count",
            "-n",
            "6",
            "--engine",
            "backtrack",
            "--amo",
            "pairwise",
        ]),
        (Command::Suite, option, When::Without(Opt::Select)) => {
            let value = match option {
                Opt::PerFamily => "3",
                Opt::Total => "3",
                Opt::BudgetSolver => "minisat",
                Opt::BudgetLimit => "5",
                Opt::SelectSeed => "1",
                Opt::Counter => "ganak",
                _ => panic!("no test case for the row {rule:?}: add one to tests/it/applies.rs"),
            };
            s(&["suite", "tiny.suite", "--solve", option.flag(), value])
        }
        (Command::Suite, Opt::Solve, When::With(Opt::Select)) => {
            s(&["suite", "tiny.suite", "--select", "--solve"])
        }
        (Command::Suite, Opt::BudgetSolver, When::With(Opt::Counter)) => s(&[
            "suite",
            "tiny.suite",
            "--select",
            "--counter",
            "ganak",
            "--budget-solver",
            "minisat",
        ]),
        _ => panic!("no test case for the row {rule:?}: add one to tests/it/applies.rs"),
    }
}

/// The option of `rule` where the row does not hold: its documented effect, checked.
fn applies(rule: &Rule, dir: &Path) {
    match (rule.command, rule.option) {
        (Command::Encode, Opt::Output) => {
            // `-o FILE` without --stats writes the CNF there, with its header.
            run_expect(dir, &["encode", "-n", "6", "-o", "out.cnf"], 0);
            let text = std::fs::read_to_string(dir.join("out.cnf")).unwrap();
            assert_eq!(header(&text, "n"), Some("6"), "{text}");
            assert!(text.lines().any(|l| l.starts_with("p cnf ")));
        }
        (Command::Encode, Opt::Gbdhash) => {
            // The hash reported for a written file, and for the CNF on stdout, is the file's
            // GBD hash (computed again from the file by the library's reader).
            let r = run_expect(dir, &["encode", "-n", "6", "-o", "h.cnf", "--gbdhash"], 0);
            let want = queens_sat::export::gbd::gbdhash_file(&dir.join("h.cnf")).unwrap();
            assert!(
                r.stderr.contains(&format!("gbdhash {want}")),
                "{}",
                r.stderr
            );
            let r = run_expect(dir, &["encode", "-n", "6", "-o", "-", "--gbdhash"], 0);
            assert_eq!(
                r.stderr.trim(),
                format!("gbdhash {want}"),
                "the hash of stdout's CNF goes to stderr"
            );
            let hashed = queens_sat::export::gbd::gbdhash_reader(r.stdout.as_bytes()).unwrap();
            assert_eq!(hashed, want);
        }
        (Command::Encode, Opt::Amo) => {
            // With DIMACS, `--amo` picks the encoding: the header says which, and the sequential
            // counter has auxiliary variables where pairwise has none.
            for (amo, aux) in [("pairwise", false), ("sequential", true)] {
                let file = format!("{amo}.cnf");
                run_expect(dir, &["encode", "-n", "6", "--amo", amo, "-o", &file], 0);
                let text = std::fs::read_to_string(dir.join(&file)).unwrap();
                assert_eq!(header(&text, "amo"), Some(amo), "{text}");
                let vars: u32 = text
                    .lines()
                    .find_map(|l| l.strip_prefix("p cnf "))
                    .and_then(|l| l.split_whitespace().next())
                    .unwrap()
                    .parse()
                    .unwrap();
                assert_eq!(vars > 36, aux, "{amo}: {vars} variables");
            }
            // `--amo auto` is the default spelled out: every format takes it, and writes what
            // it writes without it (issue 63: `--to opb --amo auto` was refused).
            for to in ["dimacs", "opb", "lp", "mzn"] {
                let with = run_expect(
                    dir,
                    &["encode", "-n", "6", "--to", to, "--amo", "auto", "-o", "-"],
                    0,
                );
                let without = run_expect(dir, &["encode", "-n", "6", "--to", to, "-o", "-"], 0);
                assert_eq!(with.stdout, without.stdout, "{to}");
                assert!(!with.stdout.is_empty(), "{to}");
            }
        }
        (Command::Verify, Opt::Diags) => {
            // The first D excluded diagonals of the instance count, the rest do not: the first
            // is a sum diagonal the board leaves empty, the second the one of its queen in row 0.
            let cols = SOLUTION_8;
            let used = (0..8).map(|r| r + cols[r]).collect::<Vec<_>>();
            let unused = (0..15).find(|k| !used.contains(k)).unwrap();
            let taken = used[0];
            std::fs::write(
                dir.join("d.txt"),
                format!("n = 8\nnumdiags = 2\ndiags = [[{unused},1],[{taken},1]]\n"),
            )
            .unwrap();
            let b = dir.join("b8.txt");
            let (b, d) = (b.to_str().unwrap(), "d.txt");
            run_expect(dir, &["verify", b, "--instance", d, "--diags", "1"], 0);
            let r = run_expect(dir, &["verify", b, "--instance", d, "--diags", "2"], 1);
            assert!(r.stderr.contains("invalid"), "{}", r.stderr);
        }
        (Command::Solve, Opt::Deterministic) => {
            // With the bitboard search split over threads: the same board on every run.
            let args = [
                "solve",
                "-n",
                "40",
                "--solver",
                "bitboard",
                "--jobs",
                "2",
                "--deterministic",
            ];
            let first = run_expect(dir, &args, 10).stdout;
            for _ in 0..3 {
                assert_eq!(run_expect(dir, &args, 10).stdout, first);
            }
        }
        (Command::Encode, Opt::Level) => {
            // Writing a compressed file, the level is the codec's: level 1 and 9 give
            // different files (a level out of range is refused: the value is read).
            let size = |level: &str| {
                let file = format!("l{level}.cnf.gz");
                run_expect(
                    dir,
                    &["encode", "-n", "20", "-o", &file, "--level", level],
                    0,
                );
                std::fs::metadata(dir.join(&file)).unwrap().len()
            };
            assert!(size("1") > size("9"));
            assert_one_line_error(
                dir,
                &["encode", "-n", "6", "-o", "l.cnf.gz", "--level", "99"],
                &["--level"],
            );
        }
        (Command::Solve, Opt::Amo) => {
            // A CNF solver encodes with the AMO asked: the summary names it, and the
            // sequential counter has more variables than pairwise.
            let vars = |amo: &str| {
                let r = run_expect(
                    dir,
                    &["solve", "-n", "8", "--solver", "varisat", "--amo", amo],
                    10,
                );
                assert!(r.stderr.contains(&format!("amo={amo} ")), "{}", r.stderr);
                summary_number(&r.stderr, "vars")
            };
            assert!(vars("sequential") > vars("pairwise"));
        }
        (Command::Solve, Opt::Implied) => {
            // A CNF solver adds the implied sums' clauses.
            let clauses = |implied: &str| {
                let r = run_expect(
                    dir,
                    &[
                        "solve",
                        "-n",
                        "8",
                        "--solver",
                        "varisat",
                        "--implied",
                        implied,
                    ],
                    10,
                );
                summary_number(&r.stderr, "clauses")
            };
            assert!(clauses("sums") > clauses("none"));
        }
        (Command::Solve, Opt::Jobs) => {
            // The threads of the bitboard search, a portfolio, --cubes: read (0 is refused),
            // and each runs.
            for args in [
                &["solve", "-n", "12", "--solver", "bitboard", "--jobs", "2"][..],
                &[
                    "solve",
                    "-n",
                    "12",
                    "--solver",
                    "varisat,walk",
                    "--jobs",
                    "2",
                ][..],
                &[
                    "solve", "-n", "12", "--solver", "varisat", "--cubes", "--jobs", "2",
                ][..],
            ] {
                run_expect(dir, args, 10);
            }
            assert_one_line_error(
                dir,
                &["solve", "-n", "8", "--solver", "bitboard", "--jobs", "0"],
                &["--jobs"],
            );
        }
        (Command::Solve, Opt::BreakSymmetry) => {
            // The default strategy: `cubes` searches modulo the symmetries where the
            // construction would answer.
            let r = run_expect(dir, &["solve", "-n", "3", "--jobs", "1"], 20);
            assert!(!r.stderr.contains(" mod "), "{}", r.stderr);
            let r = run_expect(
                dir,
                &[
                    "solve",
                    "-n",
                    "3",
                    "--break-symmetry",
                    "cubes",
                    "--jobs",
                    "1",
                ],
                20,
            );
            assert!(r.stderr.contains(" mod "), "{}", r.stderr);
        }
        (Command::Solve, Opt::ProofFormat) => {
            // The certified bitboard search writes and checks the proof format asked.
            for (format, checker) in [("lrat", "LRAT"), ("veripb", "VeriPB")] {
                let r = run_expect(
                    dir,
                    &[
                        "solve",
                        "-n",
                        "3",
                        "--certify",
                        "--solver",
                        "bitboard",
                        "--proof-format",
                        format,
                    ],
                    20,
                );
                assert!(r.stderr.contains(checker), "{format}: {}", r.stderr);
            }
        }
        (Command::Count, Opt::Engine) => {
            // Counting, the engine asked runs and is named.
            let r = run_expect(dir, &["count", "-n", "6", "--engine", "sat"], 0);
            assert!(r.stdout.contains("total 4\n") && r.stdout.contains("engine sat\n"));
        }
        (Command::Count, Opt::Jobs) => {
            // Counting, on the threads asked (0 is refused: the value is read).
            let r = run_expect(dir, &["count", "-n", "8", "--jobs", "1"], 0);
            assert!(r.stdout.contains("total 92\n"), "{}", r.stdout);
            assert_one_line_error(dir, &["count", "-n", "8", "--jobs", "0"], &["--jobs"]);
        }
        (Command::Count, Opt::Amo) => {
            // Counting with the SAT engine, the encoding asked (an unknown one is refused).
            let r = run_expect(
                dir,
                &["count", "-n", "6", "--engine", "sat", "--amo", "pairwise"],
                0,
            );
            assert!(r.stdout.contains("total 4\n"), "{}", r.stdout);
            assert_one_line_error(dir, &["count", "-n", "6", "--amo", "nope"], &["--amo"]);
        }
        (Command::Suite, option) => {
            // With --select: the budget solver given runs (once per file), its limit is
            // recorded, the quota is kept, and the seed picks the draw.
            std::fs::write(
                dir.join("tiny.suite"),
                "family c\nn 8\ngenerator completion m=1..2\nseeds 1..4\n",
            )
            .unwrap();
            let budget = crate::select::undecided_solver(dir);
            let budget = budget.to_str().unwrap();
            let select = |extra: &[&str]| {
                let mut args = vec!["suite", "tiny.suite", "--select", "--budget-solver", budget];
                args.extend_from_slice(extra);
                run_expect(dir, &args, 0);
                crate::select::manifest(&dir.join("cnf-out/tiny/manifest.csv"))
            };
            let kept = |rows: &[std::collections::HashMap<String, String>]| {
                rows.iter()
                    .filter(|r| r["selection"] == "kept")
                    .map(|r| r["file"].clone())
                    .collect::<Vec<_>>()
            };
            match option {
                Opt::PerFamily => {
                    assert_eq!(kept(&select(&["--per-family", "1"])).len(), 1);
                    assert_eq!(kept(&select(&["--per-family", "2"])).len(), 2);
                }
                Opt::Total => {
                    // The quota over the whole selection caps what --per-family allows.
                    assert_eq!(
                        kept(&select(&["--per-family", "4", "--total", "1"])).len(),
                        1
                    );
                    assert_eq!(
                        kept(&select(&["--per-family", "4", "--total", "2"])).len(),
                        2
                    );
                }
                Opt::BudgetSolver => {
                    // From nothing: the solver runs once per file.
                    let _ = std::fs::remove_file(dir.join("count"));
                    let _ = std::fs::remove_file(dir.join("cnf-out/tiny/selection.jsonl"));
                    let rows = select(&[]);
                    assert!(rows.iter().all(|r| r["budget_solver"] == budget));
                    let runs = std::fs::read_to_string(dir.join("count")).unwrap();
                    assert_eq!(runs.lines().count(), rows.len());
                }
                Opt::BudgetLimit => {
                    let rows = select(&["--budget-limit", "7.5"]);
                    assert!(rows.iter().all(|r| r["budget_limit"] == "7.5"));
                }
                Opt::SelectSeed => {
                    let draws: std::collections::BTreeSet<_> = (0..6)
                        .map(|seed| {
                            kept(&select(&[
                                "--per-family",
                                "3",
                                "--select-seed",
                                &seed.to_string(),
                            ]))
                        })
                        .collect();
                    assert!(draws.len() > 1, "six seeds drew one set");
                }
                Opt::Solve => {
                    // Without --select, --solve solves every instance: the manifest has its
                    // verdicts.
                    run_expect(dir, &["suite", "tiny.suite", "--solve"], 0);
                    let rows = crate::select::manifest(&dir.join("cnf-out/tiny/manifest.csv"));
                    assert!(!rows.is_empty());
                    assert!(
                        rows.iter()
                            .all(|r| ["SAT", "UNSAT"].contains(&r["status"].as_str())),
                        "{rows:?}"
                    );
                }
                Opt::Counter => {
                    // The counter runs instead of both solvers; its count is recorded.
                    let counter = dir.join("counter.sh");
                    std::fs::write(&counter, "#!/bin/sh\necho 's mc 5'\n").unwrap();
                    use std::os::unix::fs::PermissionsExt;
                    std::fs::set_permissions(&counter, std::fs::Permissions::from_mode(0o755))
                        .unwrap();
                    let args = [
                        "suite",
                        "tiny.suite",
                        "--select",
                        "--counter",
                        "./counter.sh",
                    ];
                    run_expect(dir, &args, 0);
                    let rows = crate::select::manifest(&dir.join("cnf-out/tiny/manifest.csv"));
                    assert!(
                        rows.iter()
                            .all(|r| r["count"] == "5" && r["solver"] == "./counter.sh")
                    );
                }
                _ => panic!("no effect check for the row {rule:?}: add one to tests/it/applies.rs"),
            }
        }
        _ => panic!("no effect check for the row {rule:?}: add one to tests/it/applies.rs"),
    }
}

#[test]
fn every_row_is_refused_and_applies_elsewhere() {
    let dir = TempDir::new().unwrap();
    for rule in RULES {
        let args = refused_args(rule, dir.path());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let other = rule.when.other();
        let line = assert_one_line_error(dir.path(), &args, &[rule.option.flag(), other.flag()]);
        assert!(line.contains(rule.why), "{line}");
        // Nothing was written by a refused command.
        for name in ["y.cnf", "y.opb", "y.lp"] {
            assert!(!dir.path().join(name).exists(), "{args:?} wrote {name}");
        }
        applies(rule, dir.path());
    }
    // Every command the table names has a row.
    for c in Command::ALL {
        assert!(RULES.iter().any(|r| r.command == c), "{}", c.name());
    }
}
