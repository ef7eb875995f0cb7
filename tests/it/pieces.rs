//! Pieces as data, and engines that refuse what they cannot model: made-up pieces are counted
//! by every engine that accepts them (against the brute-force oracle) and refused with an error
//! by the others, never miscounted.

use crate::common;

use common::Plain;
use common::oracle::{self, ANTI_DIAGONAL, Attacks, COLUMN, DIAGONAL, ROW};
use queens_sat::board::Cell;
use queens_sat::count::{self, CountEngine, backtrack, dpll};
use queens_sat::encode::EncodeOptions;
use queens_sat::encode::amo::AmoKind;
use queens_sat::instance::Instance;
use queens_sat::piece::{AMAZON, LineKind, PIECES, Piece, QUEEN};
use queens_sat::symmetry::Symmetry;

/// Rows and both diagonals, no columns: several pieces may share a column.
const NO_COLUMNS: Piece = Piece {
    name: "no-columns",
    lines: &[LineKind::Row, LineKind::Diagonal, LineKind::AntiDiagonal],
    leaps: &[],
};

/// Columns and both diagonals, no rows.
const NO_ROWS: Piece = Piece {
    name: "no-rows",
    lines: &[LineKind::Column, LineKind::Diagonal, LineKind::AntiDiagonal],
    leaps: &[],
};

/// A rook with a one-way knight leap: its attacks are not mutual.
const LOPSIDED: Piece = Piece {
    name: "lopsided",
    lines: &[LineKind::Row, LineKind::Column],
    leaps: &[(1, 2)],
};

/// Rows listed twice.
const DOUBLE_ROWS: Piece = Piece {
    name: "double-rows",
    lines: &[LineKind::Row, LineKind::Column, LineKind::Row],
    leaps: &[],
};

/// A queen that also leaps two columns sideways (inside its own row, so the same attacks as a
/// queen, but not something a one-piece-per-row bitboard search takes as a leap).
const SIDE_LEAPER: Piece = Piece {
    name: "side-leaper",
    lines: &[
        LineKind::Row,
        LineKind::Column,
        LineKind::Diagonal,
        LineKind::AntiDiagonal,
    ],
    leaps: &[(0, 2), (0, -2)],
};

/// Knight-ride offsets `k (1, 2)` and their turns, `k = 1..=4`: a nightrider on boards up to
/// 9 x 9, written as leaps.
const NIGHTRIDER_LEAPS: [(i32, i32); 32] = {
    let mut out = [(0, 0); 32];
    let base = [
        (1, 2),
        (2, 1),
        (1, -2),
        (2, -1),
        (-1, 2),
        (-2, 1),
        (-1, -2),
        (-2, -1),
    ];
    let mut i = 0;
    while i < 32 {
        let k = (i / 8) as i32 + 1;
        out[i] = (k * base[i % 8].0, k * base[i % 8].1);
        i += 1;
    }
    out
};

/// A rook that also rides like a nightrider (n <= 9).
const ROOK_NIGHTRIDER: Piece = Piece {
    name: "rook-nightrider",
    lines: &[LineKind::Row, LineKind::Column],
    leaps: &NIGHTRIDER_LEAPS,
};

/// The oracle's nightrider leaps (it adds the negations itself).
const ORACLE_NIGHTRIDER: [(i64, i64); 16] = {
    let mut out = [(0, 0); 16];
    let base = [(1, 2), (2, 1), (1, -2), (2, -1)];
    let mut i = 0;
    while i < 16 {
        let k = (i / 4) as i64 + 1;
        out[i] = (k * base[i % 4].0, k * base[i % 4].1);
        i += 1;
    }
    out
};

fn plain(n: u32) -> Plain {
    Plain::from_instance(&Instance::plain(n))
}

fn count_with(
    inst: &Instance,
    piece: Piece,
    engine: CountEngine,
) -> queens_sat::Result<count::Counts> {
    crate::common::counting::count(inst, piece, AmoKind::Product, engine, 2)
}

/// The error text of counting `piece` on a plain `n`-board with `engine`.
fn refusal(piece: Piece, engine: CountEngine, n: u32) -> String {
    match count_with(&Instance::plain(n), piece, engine) {
        Ok(c) => panic!(
            "{} {engine:?} n={n}: counted {} instead of refusing",
            piece.name, c.total
        ),
        Err(e) => e.to_string(),
    }
}

#[test]
fn the_known_pieces_list_their_lines_explicitly_and_validate() {
    let queen_lines = [
        LineKind::Row,
        LineKind::Column,
        LineKind::Diagonal,
        LineKind::AntiDiagonal,
    ];
    assert_eq!(QUEEN.lines, queen_lines);
    assert_eq!(AMAZON.lines, queen_lines);
    for piece in PIECES {
        assert_eq!(piece.validate(), Ok(()), "{}", piece.name);
        assert!(backtrack::supports(piece).is_ok(), "{}", piece.name);
        assert!(dpll::supports(piece).is_ok(), "{}", piece.name);
    }
}

#[test]
fn malformed_pieces_fail_validation_in_every_engine() {
    for (piece, needle) in [
        (LOPSIDED, "(-1, -2)"),
        (DOUBLE_ROWS, "twice"),
        (
            Piece {
                name: "leaps-only",
                lines: &[LineKind::Diagonal],
                leaps: &[],
            },
            "neither rows nor columns",
        ),
        (
            Piece {
                name: "standing-still",
                lines: &[LineKind::Row],
                leaps: &[(0, 0)],
            },
            "(0, 0)",
        ),
    ] {
        let err = piece.validate().unwrap_err();
        assert!(err.contains(needle), "{}: {err}", piece.name);
        assert!(err.contains(piece.name), "{err}");
        for engine in [CountEngine::Sat, CountEngine::Cdcl, CountEngine::Backtrack] {
            let e = refusal(piece, engine, 6);
            assert!(e.contains(needle), "{} {engine:?}: {e}", piece.name);
        }
        let e = dpll::count_cube(&Instance::plain(6), piece, AmoKind::Product.into()).unwrap_err();
        assert!(e.to_string().contains(needle), "{e}");
    }
}

/// Without column attacks a column may hold several pieces: the SAT engines branch on columns
/// and refuse; the backtrack engine models it and agrees with the oracle.
#[test]
fn a_piece_without_columns_is_counted_by_backtrack_and_refused_by_the_sat_engines() {
    let attacks = Attacks {
        lines: &[ROW, DIAGONAL, ANTI_DIAGONAL],
        leaps: &[],
    };
    let mut nonzero = 0;
    for n in 1..=8 {
        let want = oracle::count(&plain(n), &attacks);
        let got = count_with(&Instance::plain(n), NO_COLUMNS, CountEngine::Backtrack).unwrap();
        assert_eq!(got.total, want, "n={n}");
        nonzero += u32::from(want > 0);
        // More than queens: the column constraint is gone.
        let queens = oracle::count(&plain(n), &oracle::QUEEN);
        assert!(want >= queens, "n={n}");
        for engine in [CountEngine::Sat, CountEngine::Cdcl] {
            let e = refusal(NO_COLUMNS, engine, n);
            assert!(
                e.contains("rows and columns") && e.contains("column"),
                "{e}"
            );
        }
    }
    assert!(nonzero >= 6);
    let e = crate::common::counting::count_symmetric(
        &Instance::plain(6),
        NO_COLUMNS,
        AmoKind::Pairwise,
        Symmetry::R180,
        1,
        &queens_sat::interrupt::Cancel::new(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("rows and columns"), "{e}");
    let e = crate::common::counting::count_lex_leaders(
        &Instance::plain(6),
        NO_COLUMNS,
        AmoKind::Pairwise,
        1,
        &queens_sat::interrupt::Cancel::new(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("rows and columns"), "{e}");
    let e = dpll::count_cube(
        &Instance::plain(6),
        NO_COLUMNS,
        EncodeOptions::from(AmoKind::Ladder),
    )
    .unwrap_err();
    assert!(e.to_string().contains("rows and columns"), "{e}");
}

#[test]
fn a_piece_without_rows_is_refused_by_every_counter() {
    for engine in [CountEngine::Sat, CountEngine::Cdcl, CountEngine::Backtrack] {
        let e = refusal(NO_ROWS, engine, 6);
        assert!(e.contains("rows"), "{engine:?}: {e}");
    }
}

/// A leap inside a row is no leap to a one-piece-per-row search: backtrack refuses it; the SAT
/// engine models it (here it adds nothing to a queen, so the queen counts come out).
#[test]
fn a_sideways_leap_is_refused_by_backtrack_only() {
    let e = refusal(SIDE_LEAPER, CountEngine::Backtrack, 8);
    assert!(e.contains("leaps that change row"), "{e}");
    for (n, want) in [(4, 2), (6, 4), (8, 92)] {
        for engine in [CountEngine::Sat, CountEngine::Cdcl] {
            let c = count_with(&Instance::plain(n), SIDE_LEAPER, engine).unwrap();
            assert_eq!(c.total, want, "n={n} {engine:?}");
        }
    }
}

/// A nightrider written as leaps (up to 9 x 9) is modelled by every engine: all agree with the
/// oracle, on plain boards and on a completion instance.
#[test]
fn a_rook_nightrider_is_counted_alike_by_every_engine_and_the_oracle() {
    assert_eq!(ROOK_NIGHTRIDER.validate(), Ok(()));
    let attacks = Attacks {
        lines: &[ROW, COLUMN],
        leaps: &ORACLE_NIGHTRIDER,
    };
    let mut instances: Vec<Instance> = (1..=8).map(Instance::plain).collect();
    let mut completion = Instance::plain(7);
    completion.placed = vec![Cell::new(0, 0)];
    completion.blocked = vec![Cell::new(3, 3)];
    instances.push(completion);
    let mut nonzero = 0;
    for inst in &instances {
        let want = oracle::count(&Plain::from_instance(inst), &attacks);
        nonzero += u32::from(want > 0);
        for engine in [CountEngine::Sat, CountEngine::Cdcl, CountEngine::Backtrack] {
            let c = count_with(inst, ROOK_NIGHTRIDER, engine).unwrap();
            assert_eq!(c.total, want, "n={} {engine:?}", inst.n);
        }
    }
    assert!(nonzero >= 5, "too few instances with solutions");
}

/// A rook: rows and columns only.
const ROOK: Piece = Piece {
    name: "rook",
    lines: &[LineKind::Row, LineKind::Column],
    leaps: &[],
};

/// Rows, columns and the difference diagonals only.
const ROOK_DIAGONAL: Piece = Piece {
    name: "rook-diagonal",
    lines: &[LineKind::Row, LineKind::Column, LineKind::Diagonal],
    leaps: &[],
};

/// Rows, columns and the sum diagonals only.
const ROOK_ANTI_DIAGONAL: Piece = Piece {
    name: "rook-anti-diagonal",
    lines: &[LineKind::Row, LineKind::Column, LineKind::AntiDiagonal],
    leaps: &[],
};

/// The oracle's direction of a line family, written out here: every kind named, so a new
/// [`LineKind`] fails to compile until the oracle knows its geometry.
fn oracle_direction(kind: LineKind) -> (i64, i64) {
    match kind {
        LineKind::Row => ROW,
        LineKind::Column => COLUMN,
        LineKind::Diagonal => DIAGONAL,
        LineKind::AntiDiagonal => ANTI_DIAGONAL,
    }
}

/// The oracle's table for `piece`, from its lines and leaps.
fn oracle_attacks(piece: &Piece) -> Attacks {
    let lines: Vec<(i64, i64)> = piece.lines.iter().map(|&k| oracle_direction(k)).collect();
    let leaps: Vec<(i64, i64)> = piece
        .leaps
        .iter()
        .map(|&(dr, dc)| (i64::from(dr), i64::from(dc)))
        .collect();
    Attacks {
        lines: Box::leak(lines.into_boxed_slice()),
        leaps: Box::leak(leaps.into_boxed_slice()),
    }
}

/// Every engine on every line family the piece table and the made-up pieces have: for each
/// piece that rides rows (the oracle's one-per-row search) — the known pieces ([`PIECES`]), a
/// rook, a rook with one diagonal family of either kind, the column-less piece and the rook
/// nightrider — and each in-process solve engine ([`queens_sat::solve::ENGINES`]) that accepts
/// the problem, small plain and random instances (n <= 8) are solved: SAT boards are oracle
/// solutions and UNSAT means the oracle has none (local search may answer UNKNOWN, and its SATs
/// are checked). Every count engine's total equals the oracle's count, or the engine refuses the
/// piece with a usage error. Every [`LineKind`] is ridden by some piece here and, but for rows,
/// left out by another, so a family an engine ignored or mishandled would show.
#[test]
fn every_engine_solves_and_counts_every_line_kind_as_the_oracle() {
    use queens_sat::presolve::Problem;
    use queens_sat::solve::{self, Answer, ENGINES, SolveSettings};
    use std::time::Duration;

    let mut pieces: Vec<Piece> = PIECES.to_vec();
    pieces.extend([
        ROOK,
        ROOK_DIAGONAL,
        ROOK_ANTI_DIAGONAL,
        NO_COLUMNS,
        ROOK_NIGHTRIDER,
    ]);
    for kind in LineKind::ALL {
        assert!(
            pieces.iter().any(|p| p.lines.contains(&kind)),
            "no piece rides {kind:?}"
        );
        // Rows are every piece's here: the oracle places one piece per row.
        assert!(
            kind == LineKind::Row || pieces.iter().any(|p| !p.lines.contains(&kind)),
            "every piece rides {kind:?}"
        );
    }
    let mut instances: Vec<Instance> = (1..=8).map(Instance::plain).collect();
    instances.extend(common::random_instances(0x0DDB_1A5E_5BAD_5EED, 16, 8));
    let (mut sat, mut unsat, mut counted) = (0u32, 0u32, 0u32);
    for piece in &pieces {
        assert_eq!(piece.validate(), Ok(()), "{}", piece.name);
        let attacks = oracle_attacks(piece);
        for inst in &instances {
            let plain = Plain::from_instance(inst);
            let solutions = oracle::solutions(&plain, &attacks);
            let what = |engine: &str| format!("{} n={} {inst:?} {engine}", piece.name, inst.n);
            let problem = Problem::new(inst, *piece, true).unwrap();
            let options = EncodeOptions::from(AmoKind::DEFAULT);
            for &engine in ENGINES {
                let info = engine.info();
                if engine.supports(&problem, &options).is_err() {
                    continue;
                }
                let settings = SolveSettings {
                    // Local search cannot prove UNSAT: a small budget, then UNKNOWN.
                    timeout: (!info.caps.unsat).then(|| Duration::from_millis(20)),
                    ..SolveSettings::default()
                };
                let report = solve::solve(&problem, options, engine, settings)
                    .unwrap_or_else(|e| panic!("{}: {e}", what(&info.name)));
                match report.status {
                    Answer::Sat(board) => {
                        let cells: Vec<(i64, i64)> = board
                            .pieces
                            .iter()
                            .map(|c| (i64::from(c.row), i64::from(c.col)))
                            .collect();
                        assert!(
                            solutions.contains(&cells),
                            "{}: {cells:?} is not an oracle solution",
                            what(&info.name)
                        );
                        sat += 1;
                    }
                    Answer::Unsat => {
                        assert!(
                            solutions.is_empty(),
                            "{}: UNSAT, the oracle has {} solutions",
                            what(&info.name),
                            solutions.len()
                        );
                        unsat += 1;
                    }
                    Answer::Unknown(why) => {
                        assert!(!info.caps.unsat, "{}: UNKNOWN ({why})", what(&info.name))
                    }
                }
            }
            // The orbit engines count only the boards a rotation fixes (tested with
            // --symmetric in count_matrix.rs and in the library).
            for engine in CountEngine::ALL
                .into_iter()
                .filter(|&e| !matches!(e, CountEngine::Orbits | CountEngine::OrbitValues))
            {
                match count_with(inst, *piece, engine) {
                    Ok(c) => {
                        assert_eq!(
                            c.total,
                            solutions.len() as u64,
                            "{}",
                            what(&format!("count {engine:?}"))
                        );
                        counted += 1;
                    }
                    Err(e) => assert!(
                        matches!(e, queens_sat::Error::Usage(_)),
                        "{}: {e}",
                        what(&format!("count {engine:?}"))
                    ),
                }
            }
        }
    }
    eprintln!("{sat} SAT / {unsat} UNSAT answers, {counted} counts");
    assert!(
        sat > 100 && unsat > 100 && counted > 300,
        "{sat} / {unsat} / {counted}"
    );
}
