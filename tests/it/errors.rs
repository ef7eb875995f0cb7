//! Typed errors (issue 64 §2): each kind of failure is its own variant, `context` keeps the
//! kind, the causes chain through `source`, and the main types cross threads.

use std::error::Error as _;

use queens_sat::Error;
use queens_sat::board::Cell;
use queens_sat::cluster::CubeLine;
use queens_sat::instance::Instance;
use queens_sat::interrupt::Cancel;
use queens_sat::piece::QUEEN;

/// Cubes that leave boards out are a wrong answer of the split, not a solver failure: the
/// coverage check tells CaDiCaL's model apart from CaDiCaL's faults.
#[test]
fn cubes_that_do_not_cover_are_a_wrong_answer() {
    let d = tempfile::tempdir().unwrap();
    // One cube of 8-queens: the boards with a queen on (0, 0). The other 88 avoid it.
    let cubes = [CubeLine::Cube {
        weight: 1,
        cells: vec![Cell::new(0, 0)],
    }];
    let e = queens_sat::cluster::proofs::prove_coverage(
        &Instance::plain(8),
        QUEEN,
        &cubes,
        &d.path().join("coverage.lrat"),
        &Cancel::new(),
    )
    .unwrap_err();
    assert!(matches!(e, Error::WrongAnswer(_)), "{e:?}");
    assert!(e.to_string().contains("do not cover"), "{e}");
    // Every first-row cell: they cover, and the proof checks.
    let all: Vec<CubeLine> = (0..8)
        .map(|c| CubeLine::Cube {
            weight: 1,
            cells: vec![Cell::new(0, c)],
        })
        .collect();
    let steps = queens_sat::cluster::proofs::prove_coverage(
        &Instance::plain(8),
        QUEEN,
        &all,
        &d.path().join("coverage.lrat"),
        &Cancel::new(),
    )
    .unwrap();
    assert!(steps.is_some_and(|s| s > 0));
}

/// `context` puts a label in front of the message and never changes the kind.
#[test]
fn context_keeps_the_kind() {
    let cases = [
        Error::Solver("crashed".into()),
        Error::WrongAnswer("two counts differ".into()),
        Error::Internal("a broken invariant".into()),
        Error::TooLarge("past u128".into()),
    ];
    for e in cases {
        let kind = std::mem::discriminant(&e);
        let labelled = e.context("lane 2");
        assert_eq!(std::mem::discriminant(&labelled), kind);
        assert!(labelled.to_string().contains("lane 2: "), "{labelled}");
    }
    assert!(matches!(
        Error::Interrupted.context("x"),
        Error::Interrupted
    ));
}

/// The kinds print distinct one-line messages, and an I/O error chains its cause.
#[test]
fn kinds_print_their_own_words_and_chain_causes() {
    let words = [
        (Error::Solver("x".into()), "solver fault"),
        (Error::WrongAnswer("x".into()), "wrong answer"),
        (Error::Internal("x".into()), "internal error"),
        (Error::TooLarge("x".into()), "too large"),
    ];
    for (e, w) in words {
        let text = e.to_string();
        assert!(text.starts_with(w) && !text.contains('\n'), "{text}");
        assert!(e.source().is_none());
    }
    let io = Error::io(
        "f.cnf",
        std::io::Error::new(std::io::ErrorKind::NotFound, "gone"),
    );
    let cause = io.source().expect("an I/O error has a cause");
    assert_eq!(cause.to_string(), "gone");
}

/// The types a caller hands to a thread or a pool are `Send + Sync`, and the error is
/// `'static` so that it fits `Box<dyn Error + Send + Sync>`.
#[test]
fn main_types_cross_threads() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Error>();
    send_sync::<Instance>();
    send_sync::<queens_sat::piece::Piece>();
    send_sync::<queens_sat::board::Board>();
    send_sync::<queens_sat::interrupt::Cancel>();
    send_sync::<queens_sat::solve::SolveReport>();
    send_sync::<queens_sat::count::Counts>();
    send_sync::<queens_sat::presolve::Problem>();
    let boxed: Box<dyn std::error::Error + Send + Sync + 'static> =
        Box::new(Error::Internal("x".into()));
    assert!(boxed.to_string().contains("internal error"));
}
