//! The one race: entrants run on their own threads and the first definite answer wins
//! ([`race`]). The portfolio (`--solver a,b`) and the default strategy's bitboard race both
//! run through it.

use crate::answer::Answer;
use crate::error::{Error, Result};
use crate::interrupt::Cancel;
use crate::solve::SolveReport;

/// The work of one entrant: it runs until it answers or the token it is given is raised.
type Run<'a> = Box<dyn FnOnce(&Cancel) -> Result<SolveReport> + Send + 'a>;

/// One entrant of a [`race`]: a label for messages and its work.
pub struct Lane<'a> {
    /// Names the entrant in errors ("lib:cadical --amo product", "the bitboard search").
    pub label: String,
    run: Run<'a>,
}

impl<'a> Lane<'a> {
    /// An entrant labelled `label` that runs `run` with the race's token (raised when another
    /// entrant wins, or when the caller's token is).
    pub fn new(
        label: impl Into<String>,
        run: impl FnOnce(&Cancel) -> Result<SolveReport> + Send + 'a,
    ) -> Lane<'a> {
        Lane {
            label: label.into(),
            run: Box::new(run),
        }
    }
}

/// Runs `lanes` on their own threads and returns the winner's index and report.
///
/// The policy, and why:
/// - the first definite answer (SAT or UNSAT) wins and raises the race's token, a child of
///   `cancel`, which stops the others (a race is run to save time);
/// - a SAT answer has been verified before it arrives (every lane answers through
///   [`super::solve`] or cube-and-conquer, which check the board), so it can win at once;
/// - a second definite answer that contradicts the first (an UNSAT against a verified SAT, or
///   the other way round) is an [`Error::WrongAnswer`]: one engine is wrong, and which one cannot be
///   told here; silence would hide the bug. (Beyond this, disagreement is what the
///   cross-check tests look for);
/// - one lane's error does not end the race: another lane may still answer, and an answer is
///   what the caller asked for;
/// - with no definite answer, an error is returned before an UNKNOWN: an error means a lane
///   could not do its job (a missing program, too little memory, a wrong model), which a
///   longer time limit would not mend, so the user must see it;
/// - when `cancel` is raised the race ends with [`Error::Interrupted`].
pub fn race(lanes: Vec<Lane<'_>>, cancel: &Cancel) -> Result<(usize, SolveReport)> {
    let labels: Vec<String> = lanes.iter().map(|l| l.label.clone()).collect();
    let stop = cancel.child();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::scope(|s| {
        for (i, lane) in lanes.into_iter().enumerate() {
            let tx = tx.clone();
            let stop = stop.clone();
            s.spawn(move || {
                let _ = tx.send((i, (lane.run)(&stop)));
            });
        }
        drop(tx);
        let mut answered: Option<(usize, SolveReport)> = None;
        let mut contradiction = None;
        let mut error = None;
        let mut unknown = None;
        for (i, result) in rx.iter() {
            match result {
                Ok(r) if !matches!(r.status, Answer::Unknown(_)) => {
                    stop.cancel();
                    match &answered {
                        Some((first, a)) if a.status.label() != r.status.label() => {
                            contradiction.get_or_insert(Error::WrongAnswer(format!(
                                "{} answered {} but {} {}",
                                labels[*first],
                                a.status.label(),
                                labels[i],
                                r.status.label()
                            )));
                        }
                        Some(_) => {}
                        None => answered = Some((i, r)),
                    }
                }
                Ok(r) => {
                    unknown.get_or_insert((i, r));
                }
                // A lane stopped by the race's token: a loser, or the caller's cancel.
                Err(Error::Interrupted) if stop.is_cancelled() => {}
                Err(e) => {
                    error.get_or_insert(e.context(&labels[i]));
                }
            }
        }
        cancel.check()?;
        if let Some(e) = contradiction {
            return Err(e);
        }
        match (answered, error, unknown) {
            (Some(won), _, _) => Ok(won),
            (None, Some(e), _) => Err(e),
            (None, None, Some(r)) => Ok(r),
            (None, None, None) => Err(Error::Usage("no solver to race".into())),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Cell};
    use crate::encode::Stats;
    use crate::encode::amo::AmoKind;

    fn report(status: Answer<Board>) -> SolveReport {
        SolveReport::new(status, Stats::default(), "test", AmoKind::DEFAULT)
    }

    fn sat() -> SolveReport {
        report(Answer::Sat(Board::new(1, vec![Cell::new(0, 0)])))
    }

    /// A lane that answers only once the race's token is raised (a loser), with `answer`.
    fn loser<'a>(label: &str, answer: Result<SolveReport>) -> Lane<'a> {
        Lane::new(label, move |c: &Cancel| {
            while !c.is_cancelled() {
                std::thread::yield_now();
            }
            answer
        })
    }

    #[test]
    fn the_first_definite_answer_wins_and_stops_the_others() {
        let lanes = vec![
            loser("slow", Err(Error::Interrupted)),
            Lane::new("fast", |_: &Cancel| Ok(sat())),
        ];
        let (i, r) = race(lanes, &Cancel::new()).unwrap();
        assert_eq!(i, 1);
        assert_eq!(r.status.label(), "SAT");
    }

    #[test]
    fn an_error_does_not_end_the_race() {
        // The failing lane answers at once; the other answers after it (it waits for no
        // token, so it runs to the end whatever the failure did).
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let lanes = vec![
            Lane::new("broken", move |_: &Cancel| {
                let _ = tx.send(());
                Err(Error::Solver("crashed".into()))
            }),
            Lane::new("sound", move |_: &Cancel| {
                rx.recv().unwrap();
                Ok(report(Answer::Unsat))
            }),
        ];
        let (i, r) = race(lanes, &Cancel::new()).unwrap();
        assert_eq!((i, r.status), (1, Answer::Unsat));
    }

    #[test]
    fn a_contradiction_is_an_error() {
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let lanes = vec![
            Lane::new("a", move |_: &Cancel| {
                let _ = tx.send(());
                Ok(sat())
            }),
            // Answers after the SAT arrived, ignoring the token (as an engine that finished
            // its last step before it looked).
            Lane::new("b", move |_: &Cancel| {
                rx.recv().unwrap();
                Ok(report(Answer::Unsat))
            }),
        ];
        let e = race(lanes, &Cancel::new()).unwrap_err().to_string();
        // Whichever arrives first, the two verdicts are named.
        assert!(
            e.contains("a answered SAT but b UNSAT") || e.contains("b answered UNSAT but a SAT"),
            "{e}"
        );
    }

    #[test]
    fn without_an_answer_an_error_comes_before_unknown() {
        let lanes = vec![
            Lane::new("timed out", |_: &Cancel| {
                Ok(report(Answer::Unknown("time limit".into())))
            }),
            Lane::new("broken", |_: &Cancel| Err(Error::Solver("crashed".into()))),
        ];
        let e = race(lanes, &Cancel::new()).unwrap_err().to_string();
        assert!(e.contains("broken: crashed"), "{e}");
        let lanes = vec![Lane::new("timed out", |_: &Cancel| {
            Ok(report(Answer::Unknown("time limit".into())))
        })];
        let (_, r) = race(lanes, &Cancel::new()).unwrap();
        assert_eq!(r.status, Answer::Unknown("time limit".into()));
    }

    #[test]
    fn the_callers_cancel_interrupts_the_race() {
        let caller = Cancel::new();
        caller.cancel();
        let lanes = vec![
            loser("a", Err(Error::Interrupted)),
            loser("b", Ok(report(Answer::Unknown("stopped".into())))),
        ];
        assert!(matches!(race(lanes, &caller), Err(Error::Interrupted)));
    }
}
