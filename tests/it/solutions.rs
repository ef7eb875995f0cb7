//! Solutions you can iterate (issue 54 §2): `queens_sat::count::Solutions` against
//! the brute-force oracle of the count matrix (every instance kind: plain, placed, blocked,
//! excluded diagonals; queens and amazons; without `symmetric` and with each of the 8
//! elements; n <= 10): the boards yielded are exactly the oracle's solutions (fixed by g), and
//! modulo symmetry exactly one per class, the class's least image (its lex-leader), as many as
//! `count`'s `unique` and, without modulo, as its `total`. The lex-leaders are the models of
//! the `--break-symmetry lex` CNF. Laziness: the first board of n = 30 and n = 64 (whose count
//! is out of reach) comes out, with and without modulo symmetry. Then `count --boards` on the
//! command line.

use std::collections::BTreeSet;

use crate::common::oracle::instance_solutions;
use crate::common::{assert_one_line_error, run_expect};
use crate::count_matrix::{Sol, expected, image, instances};

use queens_sat::board::Board;
use queens_sat::count::Solutions;
use queens_sat::count::{CountEngine, CountOutcome, Counter};
use queens_sat::encode::amo::AmoKind;
use queens_sat::encode::lex::SymmetrySet;
use queens_sat::encode::{EncodeOptions, Encoder, VecSink};
use queens_sat::instance::Instance;
use queens_sat::interrupt::{Cancel, Stop};
use queens_sat::piece::{AMAZON, Piece, QUEEN};
use queens_sat::presolve::Problem;
use queens_sat::symmetry::{Symmetry, count_group};
use queens_sat::verify::verify;
use varisat::ExtendFormula;

fn sol(b: &Board) -> Sol {
    b.pieces.iter().map(|c| (c.row, c.col)).collect()
}

/// Every board the iterator yields, each checked by the verifier again here.
fn yielded(inst: &Instance, piece: Piece, g: Option<Symmetry>, modulo: bool) -> Vec<Sol> {
    Solutions::new(inst, piece, g, modulo)
        .unwrap()
        .map(|b| {
            let b = b.unwrap();
            verify(&b, inst, piece).unwrap();
            sol(&b)
        })
        .collect()
}

/// The instances of the count matrix and plain n = 10.
fn matrix() -> Vec<(&'static str, Instance)> {
    let mut out = instances();
    out.push(("plain", Instance::plain(10)));
    out
}

#[test]
fn solutions_match_the_oracle_and_count() {
    let symmetric: Vec<Option<Symmetry>> = std::iter::once(None)
        .chain(Symmetry::ALL.into_iter().map(Some))
        .collect();
    for (kind, inst) in matrix() {
        for piece in [QUEEN, AMAZON] {
            let sols = instance_solutions(&inst, piece.name);
            let n = inst.n;
            for &g in &symmetric {
                let what = format!("{kind} {inst:?} {} symmetric={g:?}", piece.name);
                let want = expected(&inst, &sols, g.map(|g| g.name()));
                let kept: BTreeSet<Sol> = sols
                    .iter()
                    .filter(|s| g.is_none_or(|g| image(s, g.name(), n) == **s))
                    .cloned()
                    .collect();
                let leaders: BTreeSet<Sol> = kept
                    .iter()
                    .map(|s| want.group.iter().map(|h| image(s, h, n)).min().unwrap())
                    .collect();
                // Every board, each once.
                let all = yielded(&inst, piece, g, false);
                let set: BTreeSet<Sol> = all.iter().cloned().collect();
                assert_eq!(set.len(), all.len(), "a board twice: {what}");
                assert_eq!(set, kept, "boards: {what}");
                // One board per class, its lex-leader.
                let classes = yielded(&inst, piece, g, true);
                let set: BTreeSet<Sol> = classes.iter().cloned().collect();
                assert_eq!(set.len(), classes.len(), "a class twice: {what}");
                assert_eq!(set, leaders, "lex-leaders: {what}");
                // The group the iterator works modulo is count's.
                let s = Solutions::new(&inst, piece, g, true).unwrap();
                let group: Vec<&str> = s.group().iter().map(|h| h.name()).collect();
                assert_eq!(group, want.group, "group: {what}");
                // As many as count's total and unique.
                let counted = Counter::new(&inst, piece)
                    .symmetric(g)
                    .engine(CountEngine::Backtrack)
                    .jobs(1)
                    .run();
                let Ok(CountOutcome::Counted(r)) = counted else {
                    panic!("count: {what}");
                };
                let c = r.counts().unwrap();
                assert_eq!(all.len() as u64, c.total, "total: {what}");
                assert_eq!(classes.len() as u64, r.unique(), "unique: {what}");
            }
        }
    }
}

/// Every model of the CNF `--break-symmetry lex` counts (lex-leader constraints for H), as
/// boards, enumerated by varisat with blocking clauses over the cells.
fn lex_models(inst: &Instance, piece: Piece, g: Option<Symmetry>) -> BTreeSet<Sol> {
    let problem = Problem::presolve(inst, piece).unwrap();
    let mut out = BTreeSet::new();
    if problem.unsat.is_some() {
        return out;
    }
    let g = g.filter(|&g| g != Symmetry::Id);
    let options = EncodeOptions {
        amo: AmoKind::Pairwise,
        symmetric: g,
        lex_leader: SymmetrySet::of(&count_group(inst, &piece, g)),
        implied: Default::default(),
    };
    let mut sink = VecSink::default();
    let stats = Encoder::with_options(&problem, options).encode(&mut sink);
    let mut solver = varisat::Solver::new();
    let lit = |d: i64| varisat::Lit::from_dimacs(d as isize);
    for c in &sink.clauses {
        let lits: Vec<varisat::Lit> = c.iter().map(|l| lit(l.to_dimacs() as i64)).collect();
        solver.add_clause(&lits);
    }
    while solver.solve().unwrap() {
        let true_vars = solver
            .model()
            .unwrap()
            .into_iter()
            .filter(|l| l.is_positive())
            .map(|l| l.to_dimacs() as u32);
        let model = queens_sat::answer::Model::from_true_vars(stats.vars as usize, true_vars);
        let board = queens_sat::decode::decode(&problem.varmap, &problem.fixed, &model);
        verify(&board, inst, piece).unwrap();
        let block: Vec<varisat::Lit> = board
            .pieces
            .iter()
            .filter_map(|&c| problem.varmap.var(c))
            .map(|v| lit(-(v as i64)))
            .collect();
        out.insert(sol(&board));
        if block.is_empty() {
            break; // every cell fixed: one board
        }
        solver.add_clause(&block);
    }
    out
}

#[test]
fn solutions_modulo_symmetry_are_the_lex_cnf_models() {
    let cases: Vec<(Instance, Option<Symmetry>)> = matrix()
        .into_iter()
        .filter(|(_, i)| (5..=8).contains(&i.n))
        .flat_map(|(_, i)| {
            [None, Some(Symmetry::R180), Some(Symmetry::FlipD)]
                .into_iter()
                .map(move |g| (i.clone(), g))
        })
        .collect();
    for (inst, g) in cases {
        for piece in [QUEEN, AMAZON] {
            let ours: BTreeSet<Sol> = yielded(&inst, piece, g, true).into_iter().collect();
            let cnf = lex_models(&inst, piece, g);
            assert_eq!(ours, cnf, "{inst:?} {} symmetric={g:?}", piece.name);
        }
    }
}

#[test]
fn solutions_are_lazy() {
    // The counts of n = 30 and 64 are far out of reach of any enumeration: a first board at all
    // shows the iterator does not enumerate ahead. With take(k), k boards.
    for n in [30, 64] {
        for piece in [QUEEN, AMAZON] {
            for modulo in [false, true] {
                let inst = Instance::plain(n);
                let boards: Vec<Board> = Solutions::new(&inst, piece, None, modulo)
                    .unwrap()
                    .take(3)
                    .map(|b| b.unwrap())
                    .collect();
                assert_eq!(boards.len(), 3, "n = {n} {} modulo={modulo}", piece.name);
                for b in &boards {
                    verify(b, &inst, piece).unwrap();
                }
                let distinct: BTreeSet<Sol> = boards.iter().map(sol).collect();
                assert_eq!(distinct.len(), 3);
            }
        }
    }
    // A g-symmetric first board of n = 32 (an r90 orbit at a time).
    let b = Solutions::new(&Instance::plain(32), QUEEN, Some(Symmetry::R90), true)
        .unwrap()
        .next()
        .unwrap()
        .unwrap();
    assert_eq!(
        image(&sol(&b), "r90", 32),
        sol(&b),
        "an r90-symmetric board"
    );
}

#[test]
fn solutions_stop_and_resume() {
    let inst = Instance::plain(9);
    let mut s = Solutions::new(&inst, QUEEN, None, false).unwrap();
    let first: Vec<Sol> = s.by_ref().take(5).map(|b| sol(&b.unwrap())).collect();
    let raised = Cancel::new();
    raised.cancel();
    assert!(s.next_with(&raised).is_none());
    assert_eq!(s.stopped(), Some(Stop::Cancelled));
    let rest: Vec<Sol> = s.by_ref().map(|b| sol(&b.unwrap())).collect();
    assert_eq!(s.stopped(), None);
    assert_eq!(first.len() + rest.len(), 352);
    assert_eq!(s.yielded(), 352);
    // A spent time limit stops at once, and stays spent.
    let mut s = Solutions::new(&Instance::plain(12), QUEEN, None, false)
        .unwrap()
        .with_time_limit(Some(std::time::Duration::ZERO));
    assert!(s.next().is_none());
    assert!(matches!(s.stopped(), Some(Stop::TimeLimit(_))));
    assert!(s.next().is_none());
}

#[test]
fn solutions_refuse_what_they_cannot_enumerate() {
    let e = Solutions::new(&Instance::plain(65), QUEEN, None, false).unwrap_err();
    assert!(e.to_string().contains("n <= 64"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// count --boards

/// The boards of `count --boards ... --format text`: blocks of rows separated by blank lines.
fn text_boards(stdout: &str) -> Vec<Sol> {
    stdout
        .split("\n\n")
        .filter(|b| !b.trim().is_empty())
        .map(|b| {
            b.lines()
                .enumerate()
                .flat_map(|(r, line)| {
                    line.char_indices()
                        .filter(|&(_, ch)| ch == 'Q')
                        .map(move |(c, _)| (r as u32, c as u32))
                })
                .collect()
        })
        .collect()
}

/// The boards and the summary of `count --boards ... --format json`.
fn json_boards(stdout: &str) -> (Vec<Sol>, serde_json::Value) {
    let mut lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let summary = lines.pop().unwrap();
    let boards = lines
        .iter()
        .enumerate()
        .map(|(i, v)| {
            assert_eq!(v["board"], i + 1);
            v["queens"]
                .as_array()
                .unwrap()
                .iter()
                .map(|q| (q[0].as_u64().unwrap() as u32, q[1].as_u64().unwrap() as u32))
                .collect()
        })
        .collect();
    (boards, summary)
}

#[test]
fn solutions_cli_boards_text_json_svg() {
    let dir = tempfile::TempDir::new().unwrap();
    let d = dir.path();
    // Every board, as text: the library's, in its order.
    let r = run_expect(d, &["count", "-n", "8", "--boards", "all"], 0);
    let boards = text_boards(&r.stdout);
    assert_eq!(boards, yielded(&Instance::plain(8), QUEEN, None, false));
    assert_eq!(boards.len(), 92);
    assert!(r.stderr.contains("92 boards: all of them"), "{}", r.stderr);
    // Modulo symmetry (--break-symmetry lex), JSON lines: the lex-leaders, as many as count's
    // unique; a summary line last.
    let args = [
        "count",
        "-n",
        "10",
        "--boards",
        "all",
        "--symmetric",
        "r180",
        "--break-symmetry",
        "lex",
        "--format",
        "json",
    ];
    let r = run_expect(d, &args, 0);
    let (boards, summary) = json_boards(&r.stdout);
    let unique = run_expect(d, &["count", "-n", "10", "--symmetric", "r180"], 0);
    assert!(
        unique
            .stdout
            .contains(&format!("unique {}\n", boards.len())),
        "{}",
        unique.stdout
    );
    let lib = yielded(&Instance::plain(10), QUEEN, Some(Symmetry::R180), true);
    assert_eq!(boards, lib);
    assert_eq!(summary["boards"], boards.len());
    assert_eq!(summary["status"], "complete");
    assert_eq!(summary["modulo_symmetry"], true);
    assert_eq!(summary["symmetric"], "r180");
    assert_eq!(summary["group"].as_array().unwrap().len(), 8);
    // A blocked instance from a file, amazons.
    let file = d.join("b.txt");
    std::fs::write(
        &file,
        "x.......\n........\n........\n........\n........\n........\n........\n.......x\n",
    )
    .unwrap();
    let f = file.to_str().unwrap();
    let r = run_expect(
        d,
        &[
            "count",
            "--instance",
            f,
            "--boards",
            "all",
            "--break-symmetry",
            "lex",
        ],
        0,
    );
    let inst = queens_sat::instance::read_instance_file(&file, None).unwrap();
    assert_eq!(text_boards(&r.stdout), yielded(&inst, QUEEN, None, true));
    // A limit: the first K, and the summary says more may exist (n = 30: far too many to count).
    let r = run_expect(
        d,
        &["count", "-n", "30", "--boards", "3", "--format", "json"],
        0,
    );
    let (boards, summary) = json_boards(&r.stdout);
    assert_eq!(boards.len(), 3);
    assert_eq!(summary["status"], "limit");
    // SVG: one grid, one panel per class.
    let r = run_expect(
        d,
        &[
            "count",
            "-n",
            "8",
            "--boards",
            "12",
            "--break-symmetry",
            "lex",
            "--format",
            "svg",
        ],
        0,
    );
    assert!(r.stdout.starts_with("<svg"), "{}", r.stdout);
    assert!(r.stdout.contains("class 12") && !r.stdout.contains("class 13"));
    assert_eq!(r.stdout.matches("class=\"panel\"").count(), 12);
}

#[test]
fn solutions_cli_refusals_and_time_limit() {
    let dir = tempfile::TempDir::new().unwrap();
    let d = dir.path();
    assert_one_line_error(
        d,
        &["count", "-n", "8", "--boards", "0"],
        &["--boards", "positive"],
    );
    assert_one_line_error(d, &["count", "-n", "8", "--boards", "x"], &["--boards"]);
    assert_one_line_error(
        d,
        &["count", "-n", "8", "--boards", "all", "--format", "svg"],
        &["--boards", "64"],
    );
    assert_one_line_error(
        d,
        &["count", "-n", "8", "--boards", "2", "--cross-check"],
        &["--cross-check"],
    );
    assert_one_line_error(
        d,
        &["count", "-n", "8", "--boards", "2", "--engine", "sat"],
        &["--engine", "--boards"],
    );
    assert_one_line_error(d, &["count", "-n", "65", "--boards", "1"], &["n <= 64"]);
    // A time limit far too short to enumerate n = 20's 39 million boards: UNKNOWN, exit 1.
    let r = run_expect(
        d,
        &[
            "count",
            "-n",
            "20",
            "--boards",
            "all",
            "--timeout",
            "0.05",
            "--format",
            "json",
        ],
        1,
    );
    let (boards, summary) = json_boards(&r.stdout);
    assert_eq!(summary["status"], "UNKNOWN");
    assert_eq!(summary["boards"], boards.len());
    assert!(r.stderr.contains("UNKNOWN (time limit"), "{}", r.stderr);
}
