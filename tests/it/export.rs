//! `encode --to opb|lp|mzn` checked with a real solver of each family against the brute-force
//! oracle: clasp reads the OPB file, CBC the LP file, MiniZinc with Gecode the MiniZinc model.
//! Every decoded board passes `verify` and is one of the oracle's solutions; MiniZinc's
//! `--all-solutions` counts equal the known counts. Also: the header round-trips in every
//! format, and malformed solver output gives a one-line error naming the file and line.

use crate::common;

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;
use std::process::Command;

use common::oracle::instance_solutions;
use common::{XorShift, assert_one_line_error, require_solver, run_expect};
use queens_sat::board::Cell;
use queens_sat::export::header::read_header;
use queens_sat::export::mzn::{MznStatus, parse_output};
use queens_sat::export::{Format, decode_answer, write};
use queens_sat::instance::{ExcludedDiagonal, Instance};
use queens_sat::piece::{AMAZON, LineKind, Piece, QUEEN};
use queens_sat::presolve::Problem;
use queens_sat::solve::Answer;
use queens_sat::verify::verify;

/// One test case: a name, the instance, the piece, presolve on or off.
struct Case {
    name: String,
    inst: Instance,
    piece: Piece,
    presolve: bool,
}

/// `count` random small instances, cycling plain / completion / blocked / excluded diagonals,
/// queens on n = 4..=9 and amazons on n = 8..=10 (amazon boards exist from n = 10), presolve
/// off for every fifth.
fn cases(seed: u64, count: usize) -> Vec<Case> {
    let mut rng = XorShift(seed);
    let mut out = Vec::new();
    for i in 0..count {
        let piece = if i % 3 == 2 { AMAZON } else { QUEEN };
        let n = if piece == AMAZON {
            8 + rng.below(3)
        } else {
            4 + rng.below(6)
        };
        let mut inst = Instance::plain(n);
        let cell = |rng: &mut XorShift| Cell::new(rng.below(n), rng.below(n));
        let kind = match i % 4 {
            0 => "plain",
            1 => {
                // Random pieces in distinct rows: some attack each other (UNSAT by presolve).
                let k = 1 + rng.below(3);
                for _ in 0..k {
                    let c = cell(&mut rng);
                    if inst.placed.iter().all(|p| p.row != c.row) {
                        inst.placed.push(c);
                    }
                }
                "completion"
            }
            2 => {
                let m = rng.below(n * n / 4 + 1);
                for _ in 0..m {
                    let c = cell(&mut rng);
                    if !inst.blocked.contains(&c) {
                        inst.blocked.push(c);
                    }
                }
                "blocked"
            }
            _ => {
                let d = 1 + rng.below(3);
                for _ in 0..d {
                    let kind = if rng.below(2) == 0 {
                        LineKind::Diagonal
                    } else {
                        LineKind::AntiDiagonal
                    };
                    let e = ExcludedDiagonal {
                        kind,
                        key: rng.below(2 * n - 1),
                    };
                    if !inst.excluded.contains(&e) {
                        inst.excluded.push(e);
                    }
                }
                "diagonals"
            }
        };
        out.push(Case {
            name: format!("{i:02}-{kind}-{}-{n}", piece.name),
            inst,
            piece,
            presolve: i % 5 != 4,
        });
    }
    out
}

/// Runs `program args...`, returns its stdout (exit codes are the solvers' own business: clasp
/// exits 10/20).
fn run_solver(program: &str, args: &[&str]) -> String {
    let out = Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
    String::from_utf8(out.stdout).expect("UTF-8 solver output")
}

/// The solver this test runs on each exported format (clasp, CBC, MiniZinc with Gecode), run on
/// `file`; returns the answer text `decode` reads. `None` for a format without one here (DIMACS:
/// SAT solvers are tested elsewhere).
fn try_solve_file(format: Format, file: &Path, dir: &Path) -> Option<String> {
    let f = file.to_str().unwrap();
    Some(match format.name() {
        "opb" => run_solver("clasp", &[f]),
        "lp" => {
            let sol = dir.join("cbc.sol");
            let _ = fs::remove_file(&sol);
            run_solver("cbc", &[f, "solve", "solu", sol.to_str().unwrap()]);
            fs::read_to_string(&sol).unwrap_or_else(|e| panic!("CBC wrote no solution: {e}"))
        }
        "mzn" => run_solver("minizinc", &["--solver", "gecode", f]),
        _ => return None,
    })
}

/// [`try_solve_file`] for a format that has a solver here.
fn solve_file(format: Format, file: &Path, dir: &Path) -> String {
    try_solve_file(format, file, dir).unwrap_or_else(|| panic!("no solver for {format} here"))
}

/// The registered formats other than DIMACS (the models `encode --to` writes for other solver
/// families).
fn models() -> impl Iterator<Item = Format> {
    Format::ALL.into_iter().filter(|f| !f.is_cnf())
}

/// Writes `case` in `format` to a file in `dir`.
fn export_case(case: &Case, format: Format, dir: &Path) -> std::path::PathBuf {
    let problem = Problem::new(&case.inst, case.piece, case.presolve).unwrap();
    let (bytes, _) = write(
        format,
        Vec::new(),
        &problem,
        queens_sat::encode::amo::AmoKind::DEFAULT,
        Some(&case.name),
    )
    .unwrap();
    let path = dir.join(format!("{}.{}", case.name, format.extension()));
    fs::write(&path, bytes).unwrap();
    path
}

/// Every case exported in `format`, solved by its solver, decoded from the file's header alone:
/// the verdict equals the oracle's and a board is verified and one of the oracle's solutions.
fn agrees_with_oracle(format: Format, seed: u64, count: usize) {
    let dir = tempfile::tempdir().unwrap();
    let (mut sat, mut unsat) = (0, 0);
    for case in cases(seed, count) {
        let path = export_case(&case, format, dir.path());
        let text = solve_file(format, &path, dir.path());
        let header = read_header(
            &case.name,
            std::io::BufReader::new(fs::File::open(&path).unwrap()),
        )
        .unwrap();
        assert_eq!(header.format, format);
        let answer = decode_answer(&header, "answer", &text)
            .unwrap_or_else(|e| panic!("{}: {e}\n{text}", case.name));
        let solutions = instance_solutions(&case.inst, case.piece.name);
        match answer {
            Answer::Sat(board) => {
                verify(&board, &case.inst, case.piece)
                    .unwrap_or_else(|e| panic!("{}: {e}", case.name));
                let cells: Vec<(u32, u32)> = board.pieces.iter().map(|c| (c.row, c.col)).collect();
                assert!(
                    solutions.contains(&cells),
                    "{}: {cells:?} is not an oracle solution",
                    case.name
                );
                sat += 1;
            }
            Answer::Unsat => {
                assert!(
                    solutions.is_empty(),
                    "{}: {format} solver says UNSAT, the oracle has {} solutions",
                    case.name,
                    solutions.len()
                );
                unsat += 1;
            }
            Answer::Unknown(why) => panic!("{}: UNKNOWN ({why})", case.name),
        }
    }
    eprintln!("{format}: {sat} SAT / {unsat} UNSAT");
    // The random mix must exercise both verdicts.
    assert!(sat >= 3 && unsat >= 3, "{sat} SAT / {unsat} UNSAT");
}

#[test_programs::requires(clasp)]
#[test]
fn clasp_on_opb_agrees_with_oracle() {
    require_solver("clasp");
    agrees_with_oracle(Format::Opb, 0x243F_6A88_85A3_08D3, 48);
}

#[test_programs::requires(cbc)]
#[test]
fn cbc_on_lp_agrees_with_oracle() {
    require_solver("cbc");
    agrees_with_oracle(Format::Lp, 0x1319_8A2E_0370_7344, 40);
}

#[test_programs::requires(minizinc)]
#[test]
fn gecode_on_mzn_agrees_with_oracle() {
    require_solver("minizinc");
    agrees_with_oracle(Format::Mzn, 0xA409_3822_299F_31D0, 32);
}

/// All solutions of `file` through `minizinc --all-solutions`, checked complete.
fn minizinc_all(file: &Path, n: u32) -> Vec<Vec<u32>> {
    let text = run_solver(
        "minizinc",
        &[
            "--solver",
            "gecode",
            "--all-solutions",
            file.to_str().unwrap(),
        ],
    );
    let out = parse_output("minizinc", &text, n).unwrap();
    match out.status {
        MznStatus::Complete => out.solutions,
        MznStatus::Unsatisfiable => Vec::new(),
        other => panic!("{}: incomplete search {other:?}", file.display()),
    }
}

/// MiniZinc's `--all-solutions` counts: n-queens n = 1..=8 (1, 0, 0, 2, 10, 4, 40, 92), and on
/// random constrained instances (queens and amazons) exactly the oracle's solutions.
#[test_programs::requires(minizinc)]
#[test]
fn minizinc_counts_equal_known_counts() {
    require_solver("minizinc");
    let dir = tempfile::tempdir().unwrap();
    for (n, known) in (1..=8).zip([1, 0, 0, 2, 10, 4, 40, 92]) {
        let case = Case {
            name: format!("plain-{n}"),
            inst: Instance::plain(n),
            piece: QUEEN,
            presolve: true,
        };
        let path = export_case(&case, Format::Mzn, dir.path());
        let sols = minizinc_all(&path, n);
        assert_eq!(sols.len(), known, "{n}-queens");
        let distinct: BTreeSet<&Vec<u32>> = sols.iter().collect();
        assert_eq!(distinct.len(), known, "{n}-queens: repeated solutions");
    }
    for case in cases(0xB7E1_5162_8AED_2A6A, 12) {
        let path = export_case(&case, Format::Mzn, dir.path());
        let got: BTreeSet<Vec<(u32, u32)>> = minizinc_all(&path, case.inst.n)
            .into_iter()
            .map(|q| {
                q.into_iter()
                    .enumerate()
                    .map(|(r, c)| (r as u32, c))
                    .collect()
            })
            .collect();
        assert_eq!(
            got,
            instance_solutions(&case.inst, case.piece.name),
            "{}",
            case.name
        );
    }
}

/// The header read back from every format equals the problem's: format, piece, n, pre-placed,
/// blocked, excluded, presolve flag, cell map, presolve's UNSAT reason, and the sizes written.
#[test]
fn header_round_trips_in_every_format() {
    let mut inst = Instance::plain(9);
    inst.placed = vec![Cell::new(0, 2), Cell::new(4, 1)];
    inst.blocked = vec![Cell::new(8, 8), Cell::new(3, 3)];
    // Anti-diagonal 7 (r + c = 7): no piece stands on it.
    inst.excluded = vec![ExcludedDiagonal {
        kind: LineKind::AntiDiagonal,
        key: 7,
    }];
    let mut clash = Instance::plain(5);
    clash.placed = vec![Cell::new(0, 0), Cell::new(2, 2)];
    for (inst, piece) in [
        (&inst, QUEEN),
        (&inst, AMAZON),
        (&clash, QUEEN),
        (&Instance::plain(7), QUEEN),
    ] {
        for presolve in [true, false] {
            let problem = Problem::new(inst, piece, presolve).unwrap();
            for format in Format::ALL {
                let (bytes, report) = write(
                    format,
                    Vec::new(),
                    &problem,
                    queens_sat::encode::amo::AmoKind::DEFAULT,
                    Some("dir/inst file.txt"),
                )
                .unwrap();
                assert_eq!(report.bytes, bytes.len() as u64);
                let h = read_header("f", bytes.as_slice()).unwrap();
                let what = format!("{format} {} presolve={presolve}", piece.name);
                assert_eq!(h.format, format, "{what}");
                assert_eq!(h.piece, piece, "{what}");
                assert_eq!(h.instance.n, inst.n, "{what}");
                assert_eq!(h.instance.placed, problem.fixed, "{what}");
                // The header holds the canonical form (sorted lists).
                assert_eq!(&h.instance, inst, "{what}");
                assert_eq!(h.instance.blocked, inst.canonical().blocked, "{what}");
                assert_eq!(h.instance.excluded, inst.canonical().excluded, "{what}");
                assert_eq!(h.presolved, presolve, "{what}");
                assert_eq!(h.varmap, problem.varmap, "{what}");
                assert_eq!(h.unsat, problem.unsat, "{what}");
                assert_eq!(h.instance_name.as_deref(), Some("dir/inst file.txt"));
                assert_eq!(
                    (h.num_vars, h.num_clauses),
                    (report.stats.vars, report.stats.clauses),
                    "{what}"
                );
            }
        }
    }
}

/// `encode --to` and `decode --cnf FILE` (alias `--file`) end to end with each family's solver
/// output, plus the CLI's refusals and one-line errors on malformed answers.
#[test_programs::requires(clasp, cbc, minizinc)]
#[test]
fn cli_encode_to_and_decode() {
    for s in ["clasp", "cbc", "minizinc"] {
        require_solver(s);
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(
        d.join("c.txt"),
        "..Q.....\n........\n........\n........\n........\n........\n........\n........\n",
    )
    .unwrap();
    for format in models() {
        let ext = format.extension();
        // The default name: cnf-out/queen-8-c-HASH.EXT (tests/it/names.rs).
        let r = run_expect(
            d,
            &["encode", "--instance", "c.txt", "--to", format.name()],
            0,
        );
        let file = r.stderr.split_whitespace().nth(1).unwrap();
        assert!(
            file.starts_with("cnf-out/queen-8-c-") && file.ends_with(&format!(".{ext}")),
            "{file}"
        );
        let path = d.join(file);
        assert!(path.is_file(), "{}", r.stderr);
        // UNSAT: 3-queens.
        let f3 = format!("q3.{ext}");
        run_expect(
            d,
            &["encode", "-n", "3", "--to", format.name(), "-o", &f3],
            0,
        );
        if let Some(text) = try_solve_file(format, &path, d) {
            fs::write(d.join("answer.txt"), &text).unwrap();
            let p = path.to_str().unwrap();
            let r = run_expect(d, &["decode", "--file", p, "--model", "answer.txt"], 10);
            assert_eq!(r.stdout.lines().count(), 8, "{}", r.stdout);
            assert!(r.stdout.starts_with("..Q....."), "{}", r.stdout);
            let text = solve_file(format, &d.join(&f3), d);
            fs::write(d.join("answer3.txt"), &text).unwrap();
            let r = run_expect(d, &["decode", "--cnf", &f3, "--model", "answer3.txt"], 20);
            assert!(r.stdout.starts_with("UNSAT"), "{}", r.stdout);
        }
        // The DIMACS-only flags are refused.
        assert_one_line_error(
            d,
            &[
                "encode",
                "-n",
                "8",
                "--to",
                format.name(),
                "--symmetric",
                "r90",
                "-o",
                "x",
            ],
            &["DIMACS-only"],
        );
        assert!(!d.join("x").exists());
        // --stats reports the model's size without writing.
        let r = run_expect(
            d,
            &["encode", "-n", "8", "--to", format.name(), "--stats"],
            0,
        );
        assert!(r.stdout.contains("vars "), "{}", r.stdout);
    }
    assert_one_line_error(
        d,
        &["encode", "-n", "8", "--to", "xml"],
        &["unknown --to format 'xml'"],
    );

    // Malformed answers: one line naming the answer file and the line.
    let cases: [(&str, &str, &str); 6] = [
        ("q8.opb", "s SATISFIABLE\nv x1 -x2 y3\n", "bad.txt:2"),
        ("q8.opb", "c nothing\n", "no 's' status line"),
        (
            "q8.lp",
            "Optimal - objective value 0\n  0 x_0_0 0.5 0\n",
            "bad.txt:2",
        ),
        ("q8.lp", "Feasible maybe\n", "bad.txt:1"),
        ("q8.mzn", "q = [0, 1];\n----------\n", "bad.txt:1"),
        (
            "q8.mzn",
            "q = [0, 4, 7, 5, 2, 6, 1, 3];\nhello\n",
            "bad.txt:2",
        ),
    ];
    for format in models() {
        let f = format!("q8.{}", format.extension());
        run_expect(
            d,
            &["encode", "-n", "8", "--to", format.name(), "-o", &f],
            0,
        );
    }
    for (file, answer, needle) in cases {
        fs::write(d.join("bad.txt"), answer).unwrap();
        assert_one_line_error(
            d,
            &["decode", "--cnf", file, "--model", "bad.txt"],
            &[needle],
        );
    }
    // A well-formed answer that is not a solution is a solver fault, never printed.
    fs::write(
        d.join("bad.txt"),
        "q = [0, 1, 2, 3, 4, 5, 6, 7];\n----------\n",
    )
    .unwrap();
    assert_one_line_error(
        d,
        &["decode", "--cnf", "q8.mzn", "--model", "bad.txt"],
        &["is not a solution"],
    );
}
