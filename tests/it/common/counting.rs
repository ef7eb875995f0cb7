//! The counts the tests ask for, through the one entry point ([`Counter`]): a plain count by
//! one engine, the symmetric and the lex-leader counts. (A test that loops over combinations
//! builds the `Counter` itself; its `Debug` names every option.)

use queens_sat::Result;
use queens_sat::count::{CountEngine, CountOutcome, Counter, Counts};
use queens_sat::encode::amo::AmoKind;
use queens_sat::instance::Instance;
use queens_sat::interrupt::Cancel;
use queens_sat::piece::Piece;
use queens_sat::symmetry::Symmetry;

/// The breakdown of a count by `engine` (`amo`: the SAT engines' encoding).
pub fn count(
    inst: &Instance,
    piece: Piece,
    amo: AmoKind,
    engine: CountEngine,
    jobs: usize,
) -> Result<Counts> {
    let c = Counter::new(inst, piece).engine(engine).jobs(jobs);
    match engine {
        CountEngine::Sat | CountEngine::Cdcl => c.amo(amo),
        _ => c,
    }
    .counts()
}

/// The `g`-symmetric solutions, by the SAT engine.
pub fn count_symmetric(
    inst: &Instance,
    piece: Piece,
    amo: AmoKind,
    g: Symmetry,
    jobs: usize,
    cancel: &Cancel,
) -> Result<u64> {
    Counter::new(inst, piece)
        .engine(CountEngine::Sat)
        .amo(amo)
        .symmetric(g)
        .jobs(jobs)
        .cancel(cancel.clone())
        .counts()
        .map(|c| c.total)
}

/// The classes, counted by lex-leader constraints on the SAT engine.
pub fn count_lex_leaders(
    inst: &Instance,
    piece: Piece,
    amo: AmoKind,
    jobs: usize,
    cancel: &Cancel,
) -> Result<u64> {
    match Counter::new(inst, piece)
        .engine(CountEngine::Sat)
        .amo(amo)
        .lex(true)
        .jobs(jobs)
        .cancel(cancel.clone())
        .run()?
    {
        CountOutcome::Counted(r) => Ok(r.unique()),
        CountOutcome::TimeLimit(t) => Err(queens_sat::Error::TimeLimit(t)),
    }
}
