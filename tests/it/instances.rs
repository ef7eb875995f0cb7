//! The invariants of an instance (issue 45 §1), once for every front end and file format:
//!
//! - pre-placed pieces, blocked cells and excluded diagonals are sets: repeats merge (a
//!   duplicate pre-placed cell is one piece), order does not matter to `==` or to the hash, and
//!   the canonical form is sorted;
//! - a pre-placed piece on a blocked cell or an excluded diagonal is an error naming the cell
//!   (and the diagonal), from `Instance::new`, the parameter-file reader and presolve alike;
//! - pre-placed pieces that attack each other are a valid instance that is UNSAT, and the
//!   solve report, the CLI summary and its JSON say why (presolve's reason);
//! - every format that can hold an instance round-trips it, `read(write(i))` being `i`'s
//!   canonical form (excluded diagonals as blocked cells in board and param files) with the same
//!   solutions (the brute-force oracle's); the diagonals format refuses pre-placed pieces and
//!   blocked cells with a typed error.
//!
//! The property test draws random instances of every kind (pre-placed, blocked, excluded,
//! mixed; queens and amazons), with pre-placed and blocked cells drawn independently, from a
//! fixed seed.

use std::collections::BTreeSet;
use std::hash::{DefaultHasher, Hash, Hasher};

use proptest::prelude::*;
use queens_sat::answer::Answer;
use queens_sat::board::Cell;
use queens_sat::error::Error;
use queens_sat::instance::write::write;
use queens_sat::instance::{
    BadInstance, ExcludedDiagonal, Instance, InstanceFormat, read_instance,
};
use queens_sat::piece::{AMAZON, LineKind, Piece, QUEEN};
use queens_sat::presolve::Problem;
use queens_sat::solve::Solver;

use crate::common::oracle::instance_solutions;
use crate::common::{assert_one_line_error, run, run_expect};

fn cell(r: u32, c: u32) -> Cell {
    Cell::new(r, c)
}

fn anti(key: u32) -> ExcludedDiagonal {
    ExcludedDiagonal {
        kind: LineKind::AntiDiagonal,
        key,
    }
}

fn diag(key: u32) -> ExcludedDiagonal {
    ExcludedDiagonal {
        kind: LineKind::Diagonal,
        key,
    }
}

fn hash_of(i: &Instance) -> u64 {
    let mut h = DefaultHasher::new();
    i.hash(&mut h);
    h.finish()
}

/// The issue's first example: a queen on a blocked cell is an error naming the cell, from the
/// constructor, from presolve (for a struct literal) and from a parameter file (at the line of
/// the `init` entry); a board file cannot say it at all.
#[test]
fn a_piece_on_a_blocked_cell_is_an_error_naming_it() {
    let e = Instance::new(8, vec![cell(0, 0)], vec![cell(0, 0)], vec![]).unwrap_err();
    assert!(
        matches!(
            e,
            Error::Instance(BadInstance::PieceOnBlocked { cell: c }) if c == cell(0, 0)
        ),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        "pre-placed piece at (0,0) is on a blocked cell"
    );
    let literal = Instance {
        n: 8,
        placed: vec![cell(3, 4), cell(0, 0)],
        blocked: vec![cell(3, 4), cell(0, 0)],
        excluded: vec![],
    };
    for p in [
        Problem::presolve(&literal, QUEEN),
        Problem::full(&literal, QUEEN),
    ] {
        let e = p.unwrap_err();
        // The first in row-major order.
        assert!(
            matches!(e, Error::Instance(BadInstance::PieceOnBlocked { cell: c }) if c == cell(0, 0)),
            "{e:?}"
        );
    }
    assert!(write(&literal, InstanceFormat::Param, "").is_err());
    let e = read_instance(
        "p.param",
        "letting n = 8\nletting blocks = [[1,1]]\nletting init = [[5,5],\n  [0,0]]\n",
        None,
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "p.param:4: init entry [0,0] puts a pre-placed piece at (0,0), a blocked cell (blocks entry [1,1])"
    );
}

/// A piece on an excluded diagonal is an error naming the diagonal (it was reported as "on a
/// blocked cell").
#[test]
fn a_piece_on_an_excluded_diagonal_is_an_error_naming_it() {
    let e = Instance::new(6, vec![cell(1, 2)], vec![], vec![diag(0), anti(3)]).unwrap_err();
    assert!(
        matches!(
            e,
            Error::Instance(BadInstance::PieceOnExcluded { cell: c, kind: "anti-diagonal", key: 3 })
                if c == cell(1, 2)
        ),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        "pre-placed piece at (1,2) is on excluded anti-diagonal 3"
    );
    let literal = Instance {
        n: 6,
        placed: vec![cell(2, 2)],
        excluded: vec![diag(5)],
        ..Instance::default()
    };
    let e = Problem::presolve(&literal, AMAZON).unwrap_err();
    assert_eq!(
        e.to_string(),
        "pre-placed piece at (2,2) is on excluded diagonal 5"
    );
}

/// Cells off the board and diagonal keys out of range are typed errors too.
#[test]
fn cells_and_keys_off_the_board_are_errors() {
    let e = Instance::new(4, vec![], vec![cell(1, 4)], vec![]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "blocked cell (1,4) is outside the 4x4 board (rows and columns 0..=3)"
    );
    let e = Instance::new(4, vec![], vec![], vec![anti(7)]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "excluded anti-diagonal 7 is out of range for n = 4 (keys 0..=6)"
    );
    let e = Instance::new(0, vec![], vec![], vec![]).unwrap_err();
    assert!(matches!(e, Error::Instance(BadInstance::Side { n: 0 })));
}

/// The duplicate rule: a pre-placed cell given twice is merged into one piece (so are blocked
/// cells and excluded diagonals), in every front end; and the lists compare and hash as sets.
#[test]
fn duplicates_merge_and_order_does_not_matter() {
    let twice = Instance::new(8, vec![cell(0, 0), cell(0, 0)], vec![], vec![]).unwrap();
    let once = Instance::new(8, vec![cell(0, 0)], vec![], vec![]).unwrap();
    assert_eq!(twice.placed, vec![cell(0, 0)]);
    assert_eq!(twice, once);
    let a = Instance::new(8, vec![cell(5, 5)], vec![cell(0, 3), cell(6, 5)], vec![]).unwrap();
    let b = Instance::new(8, vec![cell(5, 5)], vec![cell(6, 5), cell(0, 3)], vec![]).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.blocked, vec![cell(0, 3), cell(6, 5)]);
    // Struct literals, unsorted and with repeats, are equal to their canonical form and hash
    // alike.
    let literal = Instance {
        n: 8,
        placed: vec![cell(5, 5), cell(5, 5)],
        blocked: vec![cell(6, 5), cell(0, 3), cell(6, 5)],
        excluded: vec![anti(9), diag(2), anti(9)],
    };
    assert!(!literal.is_canonical());
    let canonical = literal.canonical();
    assert!(canonical.is_canonical());
    assert_eq!(canonical.excluded, vec![diag(2), anti(9)]);
    assert_eq!(literal, canonical);
    assert_eq!(hash_of(&literal), hash_of(&canonical));
    assert_ne!(literal, Instance::new(8, vec![], vec![], vec![]).unwrap());
    // The same pieces presolve alike and give one fixed piece.
    let p = Problem::presolve(&literal, QUEEN).unwrap();
    assert_eq!(p.fixed, vec![cell(5, 5)]);
    // Files: a repeated init pair, blocks pair or diags entry is merged too.
    let p = read_instance(
        "p",
        "letting n = 8\nletting init = [[5,5],[5,5]]\nletting blocks = [[7,6],[1,4],[7,6]]",
        None,
    )
    .unwrap();
    assert_eq!(p, a);
    assert!(p.is_canonical() && p.placed.len() == 1);
    let d = read_instance(
        "d",
        "n = 8\nnumdiags = 3\ndiags = [[9,1],[2,0],[9,1]]\n",
        None,
    )
    .unwrap();
    assert_eq!(d.excluded, vec![diag(2), anti(9)]);
}

/// The issue's round trip: `parse(to_text())` is the instance again, in each format that can
/// hold it; the diagonals format refuses what it cannot hold with a typed error.
#[test]
fn issue_examples_round_trip() {
    let i = Instance::new(8, vec![cell(5, 5)], vec![cell(6, 5), cell(0, 3)], vec![]).unwrap();
    for format in [InstanceFormat::Board, InstanceFormat::Param] {
        let text = write(&i, format, "c").unwrap();
        assert_eq!(read_instance("t", &text, None).unwrap(), i, "{text}");
    }
    let e = write(&i, InstanceFormat::Diags, "").unwrap_err();
    assert!(
        matches!(
            e,
            Error::Instance(BadInstance::Unwritable {
                format: "diags",
                placed: 1,
                blocked: 2
            })
        ),
        "{e:?}"
    );
}

/// Pre-placed queens that attack each other: a valid instance, UNSAT, and the report says
/// why (presolve's sentence), as does the JSON of `solve` and its summary line.
#[test]
fn attacking_pre_placed_pieces_are_unsat_with_a_reason() {
    let i = Instance::new(8, vec![cell(0, 0), cell(3, 3)], vec![], vec![]).unwrap();
    for solver in ["auto", "varisat", "bitboard"] {
        let r = Solver::new(&i, QUEEN).solver(solver).solve().unwrap();
        assert_eq!(r.status, Answer::Unsat, "{solver}");
        assert_eq!(
            r.reason.as_deref(),
            Some("pre-placed queens at (0,0) and (3,3) share a diagonal"),
            "{solver}"
        );
    }
    let r = Solver::new(&i, QUEEN).cubes(16).solve().unwrap();
    assert_eq!(r.status, Answer::Unsat);
    assert!(r.reason.is_some_and(|w| w.contains("share a diagonal")));
    // Under --certify presolve's argument is re-proved on the full encoding; the reason stays.
    let r = Solver::new(&i, QUEEN)
        .solver("varisat")
        .certify(true)
        .solve()
        .unwrap();
    assert_eq!(r.status, Answer::Unsat);
    assert!(r.certificate.is_some());
    assert!(r.reason.is_some_and(|w| w.contains("share a diagonal")));
    // A solver's refutation has no reason to give.
    let r = Solver::new(&Instance::plain(3), QUEEN)
        .solver("varisat")
        .solve()
        .unwrap();
    assert_eq!((r.status, r.reason), (Answer::Unsat, None));
    // Amazons a knight's leap apart.
    let i = Instance::new(8, vec![cell(0, 0), cell(1, 2)], vec![], vec![]).unwrap();
    let r = Solver::new(&i, AMAZON).solver("varisat").solve().unwrap();
    assert!(r.reason.is_some_and(|w| w.contains("a leap apart")));
}

/// The CLI: `solve` names presolve's reason in its summary and JSON; a parameter file with a
/// queen on a blocked cell is a one-line error, exit 1.
#[test]
fn cli_solve_says_why_and_refuses_a_piece_on_a_blocked_cell() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("attack.txt"),
        "Q.......\n........\n........\n...Q....\n........\n........\n........\n........\n",
    )
    .unwrap();
    let r = run_expect(d, &["solve", "--instance", "attack.txt"], 20);
    assert_eq!(r.stdout.trim(), "UNSAT");
    assert!(
        r.stderr.starts_with(
            "UNSAT (pre-placed queens at (0,0) and (3,3) share a diagonal): queen n=8"
        ),
        "{}",
        r.stderr
    );
    let r = run_expect(
        d,
        &["solve", "--instance", "attack.txt", "--format", "json"],
        20,
    );
    let json: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(json["status"], "UNSAT");
    assert_eq!(
        json["reason"],
        "pre-placed queens at (0,0) and (3,3) share a diagonal"
    );
    let r = run_expect(d, &["solve", "--instance", "attack.txt", "--certify"], 20);
    assert!(
        r.stderr.contains("share a diagonal; certified: "),
        "{}",
        r.stderr
    );
    std::fs::write(
        d.join("on.param"),
        "letting n = 8\nletting init = [[0,0]]\nletting blocks = [[1,1]]\n",
    )
    .unwrap();
    assert_one_line_error(
        d,
        &["solve", "--instance", "on.param"],
        &[
            "on.param:2: init entry [0,0] puts a pre-placed piece at (0,0), a blocked cell (blocks entry [1,1])",
        ],
    );
    // A generated instance is valid, and writes and reads back.
    let r = run(
        d,
        &[
            "generate",
            "completion",
            "-n",
            "8",
            "-m",
            "3",
            "--seed",
            "4",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
}

// ---------------------------------------------------------------------------------------------
// The property test.

/// What the random instances hold.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Placed,
    Blocked,
    Excluded,
    Mixed,
}

/// A random instance: side, piece, and lists drawn independently (with repeats and in any
/// order; a pre-placed cell may fall on a blocked cell or an excluded diagonal).
#[derive(Clone, Debug)]
struct Drawn {
    n: u32,
    piece: Piece,
    kind: Kind,
    placed: Vec<Cell>,
    blocked: Vec<Cell>,
    excluded: Vec<ExcludedDiagonal>,
}

fn drawn() -> impl Strategy<Value = Drawn> {
    (
        1u32..=7,
        prop_oneof![
            Just(Kind::Placed),
            Just(Kind::Blocked),
            Just(Kind::Excluded),
            Just(Kind::Mixed)
        ],
        any::<bool>(),
    )
        .prop_flat_map(|(n, kind, amazon)| {
            let cells = |max: usize| {
                proptest::collection::vec((0..n, 0..n).prop_map(|(r, c)| Cell::new(r, c)), 0..=max)
            };
            let diagonals = proptest::collection::vec(
                (0..2 * n - 1, any::<bool>()).prop_map(|(key, a)| match a {
                    true => anti(key),
                    false => diag(key),
                }),
                0..=4,
            );
            let (p, b, e) = match kind {
                Kind::Placed => (3, 0, 0),
                Kind::Blocked => (0, 12, 0),
                Kind::Excluded => (0, 0, 4),
                Kind::Mixed => (3, 8, 4),
            };
            let piece = if amazon { AMAZON } else { QUEEN };
            (
                cells(p),
                cells(b),
                diagonals.prop_map(move |d| d.into_iter().take(e).collect::<Vec<_>>()),
            )
                .prop_map(move |(placed, blocked, excluded)| Drawn {
                    n,
                    piece,
                    kind,
                    placed,
                    blocked,
                    excluded,
                })
        })
}

/// The oracle's own test of the constructor's rule: some pre-placed cell is blocked or on an
/// excluded diagonal.
fn a_piece_is_covered(d: &Drawn) -> Option<Cell> {
    let n = i64::from(d.n);
    d.placed
        .iter()
        .copied()
        .filter(|p| {
            let (r, c) = (i64::from(p.row), i64::from(p.col));
            d.blocked.contains(p)
                || d.excluded.iter().any(|e| match e.kind {
                    LineKind::AntiDiagonal => r + c == i64::from(e.key),
                    _ => r - c + n - 1 == i64::from(e.key),
                })
        })
        .min()
}

/// Solves `i` in process and checks the verdict against the oracle's solutions (a SAT board
/// has passed the library's verifier and is one of the oracle's).
fn check_verdict(i: &Instance, piece: Piece, oracle: &BTreeSet<Vec<(u32, u32)>>) {
    let r = Solver::new(i, piece).solver("varisat").solve().unwrap();
    match &r.status {
        Answer::Sat(b) => {
            let mut cells: Vec<(u32, u32)> = b.pieces.iter().map(|c| (c.row, c.col)).collect();
            cells.sort_unstable();
            assert!(oracle.contains(&cells), "{i:?}: {cells:?} not a solution");
        }
        Answer::Unsat => assert!(oracle.is_empty(), "{i:?}: UNSAT, oracle has solutions"),
        Answer::Unknown(w) => panic!("{i:?}: UNKNOWN ({w})"),
    }
}

/// The seed of the property test: every run draws the same cases.
const SEED: u64 = 0x0045_1A5E;

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 300,
        rng_algorithm: proptest::test_runner::RngAlgorithm::ChaCha,
        rng_seed: proptest::test_runner::RngSeed::Fixed(SEED),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Random instances of every kind through every format: the constructor refuses exactly
    /// the covered pieces; every other instance is canonical, equal to its shuffled lists, and
    /// reads back from each format that holds it as its canonical form, with the oracle's
    /// solutions and the same verdict from the solver.
    #[test]
    fn every_format_round_trips_every_instance(d in drawn()) {
        let built = Instance::new(d.n, d.placed.clone(), d.blocked.clone(), d.excluded.clone());
        let i = match (built, a_piece_is_covered(&d)) {
            (Err(Error::Instance(
                BadInstance::PieceOnBlocked { cell } | BadInstance::PieceOnExcluded { cell, .. },
            )), Some(first)) => {
                prop_assert_eq!(cell, first);
                return Ok(());
            }
            (Ok(i), None) => i,
            (other, covered) => panic!("{d:?}: {other:?}, covered {covered:?}"),
        };
        prop_assert!(i.is_canonical());
        let literal = Instance { n: d.n, placed: d.placed.clone(), blocked: d.blocked.clone(), excluded: d.excluded.clone() };
        let mut reversed = literal.clone();
        reversed.placed.reverse();
        reversed.blocked.reverse();
        reversed.excluded.reverse();
        prop_assert_eq!(&literal, &i);
        prop_assert_eq!(&reversed, &i);
        prop_assert_eq!(hash_of(&reversed), hash_of(&i));
        let name = d.piece.name;
        let solutions = instance_solutions(&i, name);
        check_verdict(&i, d.piece, &solutions);
        let as_cells = i.excluded_as_blocked();
        for format in [InstanceFormat::Board, InstanceFormat::Param, InstanceFormat::Diags] {
            let text = match write(&i, format, "random") {
                Ok(text) => text,
                Err(Error::Instance(BadInstance::Unwritable { format: "diags", placed, blocked })) => {
                    prop_assert!(format == InstanceFormat::Diags);
                    prop_assert!(placed + blocked > 0);
                    prop_assert_eq!((placed, blocked), (i.placed.len(), i.blocked.len()));
                    continue;
                }
                Err(e) => panic!("{d:?} {format:?}: {e}"),
            };
            let back = read_instance("t", &text, None).unwrap_or_else(|e| panic!("{e}\n{text}"));
            prop_assert!(back.is_canonical());
            let want = match format {
                InstanceFormat::Diags => &i,
                _ => &as_cells,
            };
            // Field by field: canonical instances compare as lists.
            prop_assert_eq!(&back.placed, &want.placed, "{:?}\n{}", format, text);
            prop_assert_eq!(&back.blocked, &want.blocked, "{:?}\n{}", format, text);
            prop_assert_eq!(&back.excluded, &want.excluded, "{:?}\n{}", format, text);
            // Written again, the same text: a fixed point.
            prop_assert_eq!(&write(&back, format, "random").unwrap(), &text);
            prop_assert_eq!(&instance_solutions(&back, name), &solutions, "{:?}", format);
        }
        // The kinds are all drawn (the strategy's `kind` picks the lists).
        let _ = d.kind;
    }
}
