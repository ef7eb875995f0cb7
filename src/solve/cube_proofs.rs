//! The one certified cube path (issue 65): [`CertifiedCubes`], a split's cubes with the proof
//! that they cover the problem and one checked proof per cube.
//!
//! A split's UNSAT rests on two kinds of checked proof: one per cube, and one that the cubes
//! cover the problem (no board avoids all of them). Three routes build one:
//! - the bitboard search's certified split over threads (`bitboard/split_proof.rs`): each cube
//!   refuted by the certified search, coverage over the presolved problem's pairwise CNF;
//! - certified cube-and-conquer (`certified_cubes.rs`): each cube refuted by a certifying
//!   engine, coverage over the root's encoding;
//! - certified cluster jobs (`crate::cluster::proofs`): each cube's proof file written by a
//!   task and checked again at `merge`, coverage over the unpresolved instance's pairwise CNF,
//!   proved by `split` and checked again at `merge`.
//!
//! What differs is only the model the coverage is proved over ([`CoverageModel`]) and who refutes a
//! cube, so the routes share everything else here: the coverage formula (the model plus one
//! clause per cube that excludes it), its proof (CaDiCaL's LRAT refutation, checked by the LRAT
//! checker before it counts) or the check of a proof file, the run of the cubes on threads with
//! the first board stopping the others ([`CertifiedCubes::conquer`]), the fault of cubes that
//! do not cover (one [`Error::WrongAnswer`]), and the one certificate that names it all
//! ([`CertifiedCubes::verdict`]).

use std::path::Path;

use crate::board::Cell;
use crate::certify::{Certificate, Cnf};
use crate::encode::EncodeOptions;
use crate::error::{Error, Result};
use crate::interrupt::Cancel;
use crate::presolve::Problem;

use super::presolve_proof::{Refutation, cadical_lrat};

/// The model a split's coverage is proved over: the one its cubes' proofs refute.
#[derive(Clone, Copy)]
pub(crate) enum CoverageModel<'a> {
    /// The problem's pairwise CNF ([`Cnf::pairwise`]): the model of the certified bitboard
    /// search's proofs. The problem is presolved (the local split) or not ([`Problem::full`],
    /// the cluster jobs, whose coverage then proves presolve's reasoning too).
    Pairwise(&'a Problem),
    /// The problem encoded with these options ([`Cnf::encoded`]): the model of a certifying
    /// engine's proofs (cube-and-conquer).
    Encoded(&'a Problem, EncodeOptions),
}

impl CoverageModel<'_> {
    fn problem(&self) -> &Problem {
        match self {
            CoverageModel::Pairwise(p) | CoverageModel::Encoded(p, _) => p,
        }
    }

    fn cnf(&self) -> Cnf {
        match *self {
            CoverageModel::Pairwise(p) => Cnf::pairwise(p),
            CoverageModel::Encoded(p, options) => Cnf::encoded(p, options),
        }
    }

    fn name(&self) -> &'static str {
        match self {
            CoverageModel::Pairwise(p) if p.presolved => "the presolved pairwise CNF",
            CoverageModel::Pairwise(_) => "the unpresolved pairwise CNF",
            CoverageModel::Encoded(..) => "the encoding",
        }
    }
}

/// What one cube gave: a board `B`, a checked refutation (with what its run counted, `S`), or
/// why neither.
pub(crate) enum Cube<B, S> {
    /// A board (unverified: the caller's accept checks it). It stops the other cubes.
    Board(B),
    /// Refuted, the proof checked: its certificate (whose `checker` names, in a few words, who
    /// refuted it and in which proof format: the cubes are grouped by it) and what the run
    /// counted.
    Refuted(Certificate, S),
    /// Not answered (stopped, UNKNOWN), and why.
    Open(String),
}

/// What [`CertifiedCubes::verdict`] gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Every cube refuted and the coverage proved: the split's checked certificate.
    Unsat(Certificate),
    /// Not every proof is in, and why.
    Unknown(String),
}

/// A split's cubes, the proof that they cover [`CoverageModel`], and a checked proof per cube: the one
/// certified cube path (see the module's documentation).
pub(crate) struct CertifiedCubes<'a> {
    /// Who split and refuted, for the certificate (`the bitboard search split into 8 cubes`).
    route: String,
    model: CoverageModel<'a>,
    /// Each cube's pieces, as cells of the model's problem.
    cubes: Vec<Vec<Cell>>,
    /// The coverage proof's steps, once checked.
    coverage: Option<u64>,
    /// Who checked the coverage proof.
    coverage_checker: &'static str,
    /// Cubes refuted, and their proof steps.
    refuted: usize,
    steps: u64,
    /// Who refuted the cubes, each named once, with the cubes each refuted.
    by: Vec<(String, usize)>,
    /// Why some cube is not refuted (the first reason).
    open: Option<String>,
}

impl<'a> CertifiedCubes<'a> {
    /// The cubes `cubes` (each one's pieces, as cells) of a split of `model`'s problem, split
    /// and refuted by `route`; no proof in yet.
    pub(crate) fn new(
        route: impl Into<String>,
        model: CoverageModel<'a>,
        cubes: impl IntoIterator<Item = Vec<Cell>>,
    ) -> Self {
        CertifiedCubes {
            route: route.into(),
            model,
            cubes: cubes.into_iter().collect(),
            coverage: None,
            coverage_checker: "",
            refuted: 0,
            steps: 0,
            by: Vec::new(),
            open: None,
        }
    }

    /// The formula the coverage proof refutes: the model plus, per cube, the clause that no
    /// board holds all its pieces ([`Cnf::exclude`]).
    pub(crate) fn coverage_cnf(&self) -> Cnf {
        let mut cnf = self.model.cnf();
        cnf.exclude(
            &self.model.problem().varmap,
            self.cubes.iter().map(Vec::as_slice),
        );
        cnf
    }

    /// Proves that the cubes cover the model: CaDiCaL's LRAT refutation of
    /// [`CertifiedCubes::coverage_cnf`], checked by the LRAT checker (and then written to
    /// `path`, when given): the steps checked, or `Ok(None)` when `stop` stopped it first.
    /// Cubes that leave a board out are an [`Error::WrongAnswer`] (a fault of the split, never
    /// an answer).
    pub(crate) fn prove_coverage(
        &mut self,
        path: Option<&Path>,
        stop: &Cancel,
    ) -> Result<Option<u64>> {
        match cadical_lrat(self.coverage_cnf(), stop)? {
            Refutation::Proof(proof) => {
                let (_, steps) = proof.certify(path, "the coverage proof")?;
                self.covered(steps, "CaDiCaL's LRAT refutation, checked in process");
                Ok(Some(steps))
            }
            Refutation::Stopped => Ok(None),
            Refutation::Model => Err(Error::WrongAnswer(format!(
                "the cubes of {} do not cover the problem: a board avoids every cube (a fault \
                 of the split)",
                self.route
            ))),
        }
    }

    /// Checks again the coverage proof in `path` (an LRAT proof of
    /// [`CertifiedCubes::coverage_cnf`], as [`CertifiedCubes::prove_coverage`] writes it).
    /// The steps checked, or `Ok(None)` when `stop` said stop first; a proof that does not
    /// check is an [`Error::ProofRejected`].
    #[cfg_attr(not(feature = "harness"), allow(dead_code))]
    pub(crate) fn check_coverage(
        &mut self,
        path: &Path,
        stop: &dyn Fn() -> bool,
    ) -> Result<Option<u64>> {
        let what = "the coverage proof";
        let steps = crate::certify::check_lrat_file(self.coverage_cnf(), path, what, stop)?;
        if let Some(steps) = steps {
            self.covered(steps, "LRAT, checked again");
        }
        Ok(steps)
    }

    fn covered(&mut self, steps: u64, checker: &'static str) {
        self.coverage = Some(steps);
        self.coverage_checker = checker;
    }

    /// Records one cube's checked refutation ([`Cube::Refuted`]: its checker names who refuted
    /// it).
    pub(crate) fn refuted(&mut self, certificate: &Certificate) {
        self.refuted += 1;
        self.steps += certificate.steps;
        match self
            .by
            .iter_mut()
            .find(|(by, _)| *by == certificate.checker)
        {
            Some((_, cubes)) => *cubes += 1,
            None => self.by.push((certificate.checker.clone(), 1)),
        }
    }

    /// Records a cube left open, and why.
    pub(crate) fn open(&mut self, why: String) {
        self.open.get_or_insert(why);
    }

    /// The cubes refuted so far.
    pub(crate) fn refuted_cubes(&self) -> usize {
        self.refuted
    }

    /// Whether a cube is left open.
    pub(crate) fn is_open(&self) -> bool {
        self.open.is_some()
    }

    /// Runs `solve` on every cube item (`items`, one per cube, in the cubes' order) on `jobs`
    /// threads, each with a stop token that `cancel` stops and that the first board stops; the
    /// refutations and open cubes are recorded. Returns the first board (in item order) with
    /// nothing else recorded for it, and what the refuted cubes' runs counted.
    pub(crate) fn conquer<C: Sync, B: Send, S: Send>(
        &mut self,
        items: &[C],
        jobs: usize,
        cancel: &Cancel,
        solve: impl Fn(&C, &Cancel) -> Result<Cube<B, S>> + Sync,
    ) -> Result<(Option<B>, Vec<S>)> {
        const ANOTHER: &str = "stopped: another cube found a board";
        let found = cancel.child();
        let results = crate::work::run_all(items, jobs.max(1), cancel, &|_, _| {}, |item| {
            if found.is_cancelled() {
                return Ok(Cube::Open(ANOTHER.into()));
            }
            match solve(item, &found) {
                Ok(Cube::Board(b)) => {
                    found.cancel();
                    Ok(Cube::Board(b))
                }
                // Stopped because another cube found a board (not by the caller).
                Err(Error::Interrupted) if found.is_cancelled() && !cancel.is_cancelled() => {
                    Ok(Cube::Open(ANOTHER.into()))
                }
                r => r,
            }
        })?;
        let mut counted = Vec::new();
        for cube in results {
            match cube {
                Cube::Board(b) => return Ok((Some(b), counted)),
                Cube::Refuted(certificate, s) => {
                    self.refuted(&certificate);
                    counted.push(s);
                }
                Cube::Open(why) => self.open(why),
            }
        }
        Ok((None, counted))
    }

    /// The split's verdict once its proofs are in: UNSAT with the one certificate of every
    /// certified split (the route, the cube proofs and their checkers, the coverage proof, and
    /// every step checked), or UNKNOWN naming the first open cube. Asking before the coverage
    /// is proved, with every cube refuted, is an internal error.
    pub(crate) fn verdict(self) -> Result<Verdict> {
        if let Some(why) = self.open {
            return Ok(Verdict::Unknown(why));
        }
        let Some(coverage) = self.coverage else {
            return Err(Error::Internal(format!(
                "{}: a certified UNSAT asked for before the cube coverage was proved",
                self.route
            )));
        };
        let by: Vec<String> = self
            .by
            .iter()
            .map(|(by, cubes)| format!("{cubes} x {by}"))
            .collect();
        let checkers = if by.is_empty() {
            String::new()
        } else {
            format!(" ({})", by.join("; "))
        };
        Ok(Verdict::Unsat(Certificate {
            checker: format!(
                "{}: {} cube proofs{checkers} and the cube coverage proof over {} ({})",
                self.route,
                self.refuted,
                self.model.name(),
                self.coverage_checker
            ),
            steps: self.steps + coverage,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::Instance;
    use crate::piece::QUEEN;

    /// The cubes "a queen in column c of row 0", one per c: they cover n = 5.
    fn first_row(n: u32) -> Vec<Vec<Cell>> {
        (0..n).map(|c| vec![Cell::new(0, c)]).collect()
    }

    #[test]
    fn a_covering_split_proves_and_is_unsat_only_once_every_cube_is_refuted() {
        let p = Problem::presolve(&Instance::plain(5), QUEEN).unwrap();
        let mut split =
            CertifiedCubes::new("a test split", CoverageModel::Pairwise(&p), first_row(5));
        assert!(
            split
                .prove_coverage(None, &Cancel::new())
                .unwrap()
                .is_some()
        );
        let cube = Certificate {
            checker: "a checker".into(),
            steps: 2,
        };
        for _ in 0..5 {
            split.refuted(&cube);
        }
        let Verdict::Unsat(c) = split.verdict().unwrap() else {
            panic!("every cube refuted and covered")
        };
        assert!(
            c.checker
                .starts_with("a test split: 5 cube proofs (5 x a checker) and the cube coverage"),
            "{}",
            c.checker
        );
        assert!(c.checker.contains("cube coverage"), "{}", c.checker);
        assert!(c.steps > 10, "{c:?}");
    }

    #[test]
    fn cubes_that_leave_a_board_out_are_a_fault_and_an_open_cube_is_unknown() {
        let p = Problem::presolve(&Instance::plain(5), QUEEN).unwrap();
        let mut cubes = first_row(5);
        cubes.pop();
        let mut split =
            CertifiedCubes::new("a test split", CoverageModel::Pairwise(&p), cubes.clone());
        let e = split.prove_coverage(None, &Cancel::new()).unwrap_err();
        assert!(matches!(e, Error::WrongAnswer(_)), "{e}");
        assert!(e.to_string().contains("do not cover"), "{e}");
        let mut split =
            CertifiedCubes::new("a test split", CoverageModel::Pairwise(&p), first_row(5));
        split.open("UNKNOWN: a time limit".into());
        assert_eq!(
            split.verdict().unwrap(),
            Verdict::Unknown("UNKNOWN: a time limit".into())
        );
        let split = CertifiedCubes::new("a test split", CoverageModel::Pairwise(&p), cubes);
        assert!(matches!(split.verdict(), Err(Error::Internal(_))));
    }
}
