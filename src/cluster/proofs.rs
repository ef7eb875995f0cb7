//! Certified cluster solves (`split solve --certify`): a job's UNSAT is a set of proofs that
//! `merge` checks again, wherever the tasks ran.
//!
//! An UNSAT merged from cubes rests on two claims, and each has a proof file in the folder:
//! - **Coverage** (`coverage.lrat`, written and checked by `split`): the cubes leave out no
//!   solution. It is an LRAT refutation (CaDiCaL's, renumbered) of the CNF of `encode --amo
//!   pairwise --no-presolve` for the job's instance plus one clause per cube line that
//!   excludes it ([`prove_coverage`]). Over the *unpresolved* model, so presolve's reasoning and
//!   every subtree the split left out are proved too. Bitboard cubes are cut along the
//!   certified search's branching (`crate::solve::bitboard::proof_cubes`), so what the split
//!   leaves out is refuted by unit propagation.
//! - **Each cube** (`proofs/L.lrat` or `proofs/L.pbp` for cube line L, written and checked by
//!   the task that refuted it): the bitboard search's proof for the cube's instance (the job's
//!   plus the cube's pieces), as `solve --certify --proof` writes it (`cube_model`); a cube
//!   that presolve refutes has an LRAT proof in either format ([`cube_proof_format`]).
//!
//! [`check_unsat`] is what `merge` runs: it re-derives every formula from the instance and the
//! cube lines (nothing in the folder but the proofs is trusted), checks every proof with the
//! checkers of `queens-sat-check`, and refuses a missing or failing one
//! ([`Error::ProofRejected`], naming the cube line and the file).

use std::path::{Path, PathBuf};

use crate::certify::{Certificate, CheckedFormat, Cnf, ProofFormat};
use crate::cluster::{CubeLine, Folder};
use crate::error::{Error, Result};
use crate::instance::Instance;
use crate::interrupt::Cancel;
use crate::piece::Piece;
use crate::presolve::Problem;
use crate::solve::{CertifiedCubes, CoverageModel, Verdict};

/// The coverage proof in a certified job folder.
pub const COVERAGE_FILE: &str = "coverage.lrat";
/// The folder of the cubes' proofs.
pub const PROOFS_DIR: &str = "proofs";

/// The proof of cube line `line` in `dir`, in `format`: `proofs/L.lrat` or `proofs/L.pbp`.
pub fn cube_proof_path(dir: &Path, line: usize, format: ProofFormat) -> PathBuf {
    let ext = match format {
        ProofFormat::Lrat => "lrat",
        ProofFormat::Veripb => "pbp",
    };
    dir.join(PROOFS_DIR).join(format!("{line}.{ext}"))
}

/// The job's cubes as a certified split ([`CertifiedCubes`], the one certified cube path): the
/// coverage is over `full` (the job's instance unpresolved, [`Problem::full`], with pairwise
/// at-most-one: what `encode --amo pairwise --no-presolve` writes, cell (r, c) being variable
/// `r * n + c + 1`), one clause per cube line that excludes it. A cube with a piece on a cell
/// the instance rules out holds no board and adds no clause.
fn certified_cubes<'a>(full: &'a Problem, cubes: &[CubeLine], route: String) -> CertifiedCubes<'a> {
    CertifiedCubes::new(
        route,
        CoverageModel::Pairwise(full),
        cubes.iter().filter_map(|line| match line {
            CubeLine::Cube { cells, .. } => Some(cells.clone()),
            _ => None,
        }),
    )
}

/// Proves that `cubes` cover `instance` (see the module's documentation): CaDiCaL's LRAT
/// refutation of the coverage formula, checked by the LRAT checker and then written to `path`.
/// Returns the steps checked; `Ok(None)` when `stop` stopped it first; an error when the cubes
/// do not cover (a board avoids all of them: a fault of the split).
pub fn prove_coverage(
    instance: &Instance,
    piece: Piece,
    cubes: &[CubeLine],
    path: &Path,
    stop: &Cancel,
) -> Result<Option<u64>> {
    let full = Problem::full(instance, piece)?;
    certified_cubes(&full, cubes, "the job's split".into()).prove_coverage(Some(path), stop)
}

/// The format of cube `cube`'s proof in a job certified in `format`: LRAT when presolve
/// refutes the cube (presolve's refutations have LRAT proofs, by unit propagation or
/// CaDiCaL's, but a VeriPB proof only by propagation; [`crate::certify::presolved`]), else
/// `format`. The task and `merge` both decide it this way, from the cube alone.
pub fn cube_proof_format(
    cube: &Instance,
    piece: Piece,
    format: ProofFormat,
) -> Result<ProofFormat> {
    Ok(match Problem::presolve(cube, piece)?.unsat {
        Some(_) => ProofFormat::Lrat,
        None => format,
    })
}

/// What a cube's proof refutes: the model of the cube's instance that `solve --certify
/// --proof` writes its proof for. The cube's instance is presolved as the task presolved it;
/// when presolve refutes it, the proof is over the unpresolved model
/// ([`crate::certify::presolved`]), else over the presolved one.
pub(crate) enum CubeModel {
    /// A CNF: `encode --amo pairwise`, with `--no-presolve` when presolve refutes the cube.
    Cnf(Cnf),
    /// An OPB model's text: `encode --to opb`, with `--no-presolve` when presolve refutes the
    /// cube.
    Opb(String),
}

/// The model a cube's proof in `format` refutes ([`CubeModel`]).
pub(crate) fn cube_model(cube: &Instance, piece: Piece, format: ProofFormat) -> Result<CubeModel> {
    let presolved = Problem::presolve(cube, piece)?;
    let problem = match presolved.unsat {
        Some(_) => Problem::full(cube, piece)?,
        None => presolved,
    };
    Ok(match format {
        ProofFormat::Lrat => CubeModel::Cnf(Cnf::pairwise(&problem)),
        ProofFormat::Veripb => CubeModel::Opb(crate::certify::presolved::opb_model(&problem)?),
    })
}

/// Checks the proof in `path` that `cube` (a cube's instance) has no board: the steps checked,
/// `Ok(None)` when `stop` said stop first, else [`Error::ProofRejected`] naming `what`.
pub fn check_cube_proof(
    cube: &Instance,
    piece: Piece,
    format: ProofFormat,
    path: &Path,
    what: &str,
    stop: &dyn Fn() -> bool,
) -> Result<Option<u64>> {
    let rejected = |checked: CheckedFormat, reason: String| {
        Error::proof_rejected(
            checked,
            None,
            format!("{what} ({}): {reason}", path.display()),
        )
    };
    if !path.is_file() {
        let checked = match format {
            ProofFormat::Lrat => CheckedFormat::Lrat,
            ProofFormat::Veripb => CheckedFormat::Veripb,
        };
        return Err(rejected(checked, "the proof file is missing".into()));
    }
    match cube_model(cube, piece, format)? {
        CubeModel::Cnf(cnf) => {
            crate::certify::check_lrat_file(cnf, path, what, stop).map_err(|e| match e {
                Error::ProofRejected { reason, .. } => rejected(CheckedFormat::Lrat, reason),
                e => e,
            })
        }
        CubeModel::Opb(opb) => {
            let fail = |e: Error| match e {
                Error::ProofRejected { reason, .. } => rejected(CheckedFormat::Veripb, reason),
                e => rejected(CheckedFormat::Veripb, e.to_string()),
            };
            let mut checker = crate::certify::pbcheck::PbChecker::from_opb(&opb, what)
                .map_err(|e| fail(e.into()))?;
            checker.set_source(&path.display().to_string());
            let file =
                std::fs::File::open(path).map_err(|e| Error::io(path.display().to_string(), e))?;
            if !checker
                .check_reader_until(std::io::BufReader::new(file), stop)
                .map_err(|e| fail(e.into()))?
            {
                return Ok(None);
            }
            let done = checker.steps();
            let steps = done.rup + done.rup_unhinted + done.pol;
            let verdict = checker.finish().map_err(|e| fail(e.into()))?;
            if !verdict.unsat {
                return Err(rejected(
                    CheckedFormat::Veripb,
                    "the proof does not conclude UNSAT".into(),
                ));
            }
            Ok(Some(steps))
        }
    }
}

/// Checks a certified solve job's UNSAT (see the module's documentation): the coverage proof,
/// then the proof of every cube line, on `jobs` threads, giving the job's certificate (worded
/// as every certified split's, `CertifiedCubes::verdict`). An error names the first proof
/// that is missing or fails; [`Error::Interrupted`] when `cancel` is raised.
pub fn check_unsat(folder: &Folder, jobs: usize, cancel: &Cancel) -> Result<Certificate> {
    let Some(format) = folder.job.proof_format()? else {
        return Err(Error::Usage(format!(
            "{}: the job was not split with --certify",
            folder.dir.display()
        )));
    };
    let piece = folder.job.piece()?;
    let stop = || cancel.is_cancelled();
    let coverage = folder.dir.join(COVERAGE_FILE);
    if !coverage.is_file() {
        return Err(Error::proof_rejected(
            CheckedFormat::Lrat,
            None,
            format!("the coverage proof ({}) is missing", coverage.display()),
        ));
    }
    let lines: Vec<(usize, &CubeLine)> = folder
        .cubes
        .iter()
        .enumerate()
        .filter(|(_, l)| matches!(l, CubeLine::Cube { .. }))
        .collect();
    let full = Problem::full(&folder.instance, piece)?;
    let route = format!(
        "merge checked again the job's split into {} cube lines",
        lines.len()
    );
    let mut split = certified_cubes(&full, &folder.cubes, route);
    split
        .check_coverage(&coverage, &stop)?
        .ok_or(Error::Interrupted)?;
    let each = crate::work::run_all(&lines, jobs.max(1), cancel, &|_, _| {}, |&(i, line)| {
        let cube = line.instance(&folder.instance);
        let format = cube_proof_format(&cube, piece, format)?;
        let steps = check_cube_proof(
            &cube,
            piece,
            format,
            &cube_proof_path(&folder.dir, i, format),
            &format!("the proof of cube line {i}"),
            &stop,
        )?
        .ok_or(Error::Interrupted)?;
        Ok(Certificate {
            checker: format!("the tasks' {} proofs", format.name()),
            steps,
        })
    })?;
    for certificate in &each {
        split.refuted(certificate);
    }
    match split.verdict()? {
        Verdict::Unsat(certificate) => Ok(certificate),
        Verdict::Unknown(why) => Err(Error::Internal(why)),
    }
}
