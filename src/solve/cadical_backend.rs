//! The linked CaDiCaL backend (`--solver lib:cadical`): CaDiCaL 2.1.3 inside the binary.
//!
//! The `pindakaas-cadical` crate compiles CaDiCaL's vendored C++ sources with `cc` alone (no
//! libclang, unlike `rustsat-cadical`, which generates bindings with bindgen), so the README's two
//! commands keep working on a machine with only g++. It replaced the `cadical` crate (CaDiCaL
//! 1.9.5): 23 % less time on the mid-hard tail instances. The C API comes from the crate; this module declares only
//! the two proof-tracing functions of `ccadical.h` that the crate leaves out.
//!
//! - The instance is streamed into the solver through [`ClauseSink`] (no CNF text, no copy).
//! - The stop token (its deadline included) is polled by CaDiCaL's terminate callback
//!   ([`Terminate`]).
//! - `--certify`: CaDiCaL traces a text DRAT proof to a temp file, which
//!   [`crate::certify::check_drat`] replays (the same independent checker as for external
//!   solvers).
//!
//! `--solver cadical` keeps meaning the external program of that name.

use std::ffi::CString;
use std::os::raw::{c_char, c_int, c_void};
use std::path::Path;
use std::time::{Duration, Instant};

use crate::answer::{Answer, Model};
use crate::encode::{ClauseSink, EncodeOptions, Lit};
use crate::interrupt::Cancel;
use crate::presolve::Problem;
use crate::solve::engine::{Capabilities, Engine, EngineInfo, Outcome, Proofs, Settings};
use crate::solve::traits::{AssumptionSolver, SolverFactory};
use crate::solve::traits::{
    Encoded, Formula, Terminate, Timing, add_ipasir, load_watched, stopped_why,
};

#[cfg(test)]
use pindakaas_cadical::ccadical_get_option;
use pindakaas_cadical::{
    ccadical_add, ccadical_assume, ccadical_freeze, ccadical_init, ccadical_melt, ccadical_release,
    ccadical_set_option, ccadical_set_terminate, ccadical_solve, ccadical_val,
};

// The proof-tracing functions of CaDiCaL's C API, which `pindakaas-cadical` does not declare;
// the rest comes from the crate. The signatures are those of the vendored CaDiCaL 2.1.3's
// `src/ccadical.h` (the build script asserts the version): `int ccadical_trace_proof
// (CCaDiCaL *, FILE *, const char *)` and `void ccadical_close_proof (CCaDiCaL *)`, with the
// opaque `CCaDiCaL *` as `*mut c_void` as the crate declares it, `FILE *` as libc's, `int` as
// `c_int`.
unsafe extern "C" {
    fn ccadical_trace_proof(ptr: *mut c_void, file: *mut libc::FILE, name: *const c_char) -> c_int;
    fn ccadical_close_proof(ptr: *mut c_void);
}

/// One CaDiCaL instance, released on drop.
struct Cadical {
    ptr: *mut c_void,
    /// The proof file CaDiCaL writes to, closed after the solver.
    proof: Option<*mut libc::FILE>,
    /// The variables declared to CaDiCaL so far ([`Cadical::declare`]).
    declared: u32,
    /// The token polled between chunks of variables while loading ([`Cadical::watch`]).
    stop: Option<Cancel>,
    /// Stopped while loading: the clauses that come after are dropped (the answer is UNKNOWN).
    cut: bool,
}

/// How many variables [`Cadical::declare`] hands CaDiCaL at a time between polls of the stop
/// token: CaDiCaL initialises a variable in about 0.1 µs (its tables, queue and scores), so a
/// chunk is some 25 ms, where a clause whose variable is the first of 11 million new ones (the
/// auxiliaries of n = 3,000 come after its 9 million cells) used to take seconds inside one
/// `ccadical_add`.
const DECLARE_CHUNK: u32 = 1 << 18;

impl Cadical {
    fn new() -> Cadical {
        // SAFETY: plain constructor of the C API.
        let ptr = unsafe { ccadical_init() };
        assert!(!ptr.is_null(), "ccadical_init failed");
        Cadical {
            ptr,
            proof: None,
            declared: 0,
            stop: None,
            cut: false,
        }
    }

    /// Polls `stop` while loading: variables are declared a chunk at a time, and once it stops
    /// no clause is taken any more ([`ClauseSink::stopped`] says so to the encoder).
    fn watch(&mut self, stop: &Cancel) {
        self.stop = Some(stop.clone());
    }

    /// Declares the variables up to `top` to CaDiCaL, [`DECLARE_CHUNK`] at a time with a poll
    /// of the stop token before each; false when it stopped first. The C API has no `reserve`:
    /// freezing a variable declares every variable up to it (as adding a clause does), and
    /// melting it at once leaves it as it was.
    fn declare(&mut self, top: u32) -> bool {
        while self.declared < top {
            if self.stop.as_ref().is_some_and(Cancel::is_stopped) {
                return false;
            }
            let next = top.min(self.declared.saturating_add(DECLARE_CHUNK));
            // SAFETY: live solver; `next` is a positive variable within DIMACS' range.
            unsafe {
                ccadical_freeze(self.ptr, next as c_int);
                ccadical_melt(self.ptr, next as c_int);
            }
            self.declared = next;
        }
        true
    }

    /// Traces a text DRAT proof to `path`; must come before the first clause.
    fn trace_proof(&mut self, path: &Path) -> crate::Result<()> {
        self.trace(path, false)
    }

    /// Traces a text proof to `path`: LRAT when `lrat`, else DRAT.
    fn trace(&mut self, path: &Path, lrat: bool) -> crate::Result<()> {
        let c_path = CString::new(path.as_os_str().to_string_lossy().as_bytes())
            .map_err(|_| crate::Error::Usage(format!("bad proof path {}", path.display())))?;
        // SAFETY: valid NUL-terminated strings; fopen returns null on failure.
        let file = unsafe { libc::fopen(c_path.as_ptr(), c"w".as_ptr()) };
        if file.is_null() {
            return Err(crate::Error::io(
                path.display().to_string(),
                std::io::Error::last_os_error(),
            ));
        }
        // SAFETY: `ptr` is a live solver in its configuring state; the FILE stays open until
        // `drop`, after the solver closed the proof.
        unsafe {
            ccadical_set_option(self.ptr, c"binary".as_ptr(), 0);
            if lrat {
                ccadical_set_option(self.ptr, c"lrat".as_ptr(), 1);
            }
            ccadical_trace_proof(self.ptr, file, c_path.as_ptr());
        }
        self.proof = Some(file);
        Ok(())
    }

    /// Flushes and closes the proof.
    fn close_proof(&mut self) {
        if let Some(file) = self.proof.take() {
            // SAFETY: the proof was opened by `trace_proof` and is closed once.
            unsafe {
                ccadical_close_proof(self.ptr);
                libc::fclose(file);
            }
        }
    }
}

impl Drop for Cadical {
    fn drop(&mut self) {
        self.close_proof();
        // SAFETY: released once; nothing uses `ptr` afterwards.
        unsafe { ccadical_release(self.ptr) };
    }
}

impl ClauseSink for Cadical {
    #[inline]
    fn add_clause(&mut self, lits: &[Lit]) {
        if self.cut {
            return;
        }
        if self.stop.is_some() {
            let top = lits.iter().map(|l| l.var()).max().unwrap_or(0);
            if top > self.declared && !self.declare(top) {
                self.cut = true;
                return;
            }
        }
        // SAFETY: live solver; `ccadical_add` is its IPASIR add.
        unsafe { add_ipasir(self.ptr, ccadical_add, lits) };
    }

    fn stopped(&self) -> bool {
        self.cut
    }
}

unsafe extern "C" fn terminate(state: *mut c_void) -> c_int {
    // SAFETY: `state` is the `Cancel` that `Cadical::solve_until` keeps borrowed for the whole
    // search.
    let stop = unsafe { &*(state as *const Cancel) };
    c_int::from(stop.is_stopped())
}

impl Terminate for Cadical {
    fn solve_until(&mut self, stop: &Cancel) -> c_int {
        // SAFETY: `stop` outlives the search (the callback is only called inside
        // ccadical_solve, and is removed before this returns).
        unsafe {
            ccadical_set_terminate(
                self.ptr,
                stop as *const Cancel as *mut c_void,
                Some(terminate),
            );
            let r = ccadical_solve(self.ptr);
            ccadical_set_terminate(self.ptr, std::ptr::null_mut(), None);
            r
        }
    }
}

/// Encodes `problem` into a fresh CaDiCaL and solves it within `timeout` (or until `cancel` is
/// raised: UNKNOWN). With `proof`, CaDiCaL traces a text DRAT proof there.
pub fn solve(
    problem: &Problem,
    options: EncodeOptions,
    timeout: Option<Duration>,
    cancel: Option<&Cancel>,
    proof: Option<&Path>,
) -> crate::Result<(Answer, Timing)> {
    solve_formula(&Encoded { problem, options }, timeout, cancel, proof)
}

/// A text LRAT refutation of `formula` by CaDiCaL, written to `proof` (unchecked: the caller
/// checks it): UNSAT when CaDiCaL refuted the formula (the file is its proof), SAT when it
/// found a model (not kept), UNKNOWN when `stop` stopped it or CaDiCaL gave up (the file is
/// then no proof).
pub fn lrat_refutation(
    formula: &dyn Formula,
    stop: &Cancel,
    proof: &Path,
) -> crate::Result<Answer<()>> {
    let mut solver = Cadical::new();
    solver.trace(proof, true)?;
    let stop = stop.clone();
    solver.watch(&stop);
    let (_, over) = load_watched(formula, &mut solver, &stop);
    if over {
        solver.close_proof();
        return Ok(Answer::Unknown(stopped_why(&stop, "stopped")));
    }
    let result = solver.solve_until(&stop);
    solver.close_proof();
    Ok(match result {
        20 => Answer::Unsat,
        10 => Answer::Sat(()),
        _ => Answer::Unknown("CaDiCaL gave up".into()),
    })
}

/// [`solve`] on any [`Formula`].
pub fn solve_formula(
    formula: &dyn Formula,
    timeout: Option<Duration>,
    cancel: Option<&Cancel>,
    proof: Option<&Path>,
) -> crate::Result<(Answer, Timing)> {
    let t0 = Instant::now();
    let mut solver = Cadical::new();
    if let Some(path) = proof {
        solver.trace_proof(path)?;
    }
    // The time limit counts from here, loading included (a huge encoding stops loading early).
    let stop = cancel.cloned().unwrap_or_default().with_timeout(timeout);
    solver.watch(&stop);
    let (vars, over) = load_watched(formula, &mut solver, &stop);
    let encode = t0.elapsed().as_secs_f64();
    let t1 = Instant::now();
    if over {
        solver.close_proof();
        let timing = Timing { encode, solve: 0.0 };
        return Ok((Answer::Unknown(stopped_why(&stop, "stopped")), timing));
    }
    let result = solver.solve_until(&stop);
    let answer = Answer::from_ipasir(
        result,
        vars as usize,
        // SAFETY: live solver in the SAT state; v is a declared variable.
        |v| unsafe { ccadical_val(solver.ptr, v as c_int) } > 0,
        || stopped_why(&stop, "CaDiCaL stopped"),
    );
    solver.close_proof();
    Ok((
        answer,
        Timing {
            encode,
            solve: t1.elapsed().as_secs_f64(),
        },
    ))
}

/// CaDiCaL as an incremental [`AssumptionSolver`] for cube-and-conquer (`solve --cubes --solver
/// lib:cadical`): one solver per worker, learned clauses kept across cubes, stopped through its
/// terminate callback when its token stops.
///
/// It runs with [`CUBE_OPTIONS`], CaDiCaL tuned for the cubes of the hard tail.
pub struct CadicalAssuming {
    solver: Cadical,
    stop: Cancel,
    num_vars: u32,
}

/// CaDiCaL options of the cube workers ([`CadicalAssuming`]): stable mode only (no focused-mode
/// phases), no bounded variable elimination and no subsumption rounds.
///
/// Measured on the 35 slowest instances of the tail set (blocked n=56 and excluded diagonals
/// n=20/21, default `solve`, 20 s limit, 2-core machine): with CaDiCaL's defaults 5 unsolved,
/// sum 465 s, median 13.1 s; with these 4 unsolved, sum 380 s, median 9.5 s, and every solved
/// instance faster. On the whole 660-instance tail set (`bench hard --tail --amo auto`), one run
/// before and one after: 656 solved both times, median 0.53 -> 0.48 s, p90 4.00 -> 3.55, p99
/// 15.47 -> 13.25, slowest solved 17.8 -> 16.5 s, instances over 10 s 20 -> 12. On 8 mid-hard
/// ones (5-13 s) `stabilizeonly` alone took the sum from 83 to 70 s, `elim=0` alone to 73, both with `subsume=0` to 65; CaDiCaL's `unsat` configuration
/// (`stabilize=0`, `walk=0`) gave 85 and `phase=0` 89. Sharing learned units and binaries
/// between the workers gave 63 against 65 (noise), sharing clauses up to 30 literals 102.
/// (Those numbers are CaDiCaL 1.9.5's.) Checked again on CaDiCaL 2.1.3, same 8 instances:
/// defaults 65.8 s, these options 48.6-50.4 s; adding `ilb=1` 49.8, `ternary=0` 49.1,
/// `chrono=0` 46.9, `tier1=3, tier2=8` 51.8 (all within the noise), `elim=1` 61.9.
pub const CUBE_OPTIONS: &[(&std::ffi::CStr, c_int)] =
    &[(c"stabilizeonly", 1), (c"elim", 0), (c"subsume", 0)];

/// [`CUBE_OPTIONS`] with bounded variable elimination back on (CaDiCaL's default), for an encoding that carries the
/// implied diagonal-sum BDDs ([`crate::encode::implied`]): their node variables are what
/// elimination removes. The 260 excluded-diagonal instances of the tail set, with the BDDs,
/// one run each (seconds): sum 163.9 against 161.3, p90 1.28 against 1.17, slowest 19.8 against
/// 13.6; on that slowest (n=21 d22-s5) four runs each, 19.8-22.5 against 13.6-15.2.
pub const CUBE_OPTIONS_IMPLIED: &[(&std::ffi::CStr, c_int)] =
    &[(c"stabilizeonly", 1), (c"subsume", 0)];

impl CadicalAssuming {
    /// A fresh CaDiCaL with [`CUBE_OPTIONS`] that stops when `stop` stops.
    pub fn new(stop: &Cancel) -> CadicalAssuming {
        CadicalAssuming::with_options(stop, CUBE_OPTIONS)
    }

    /// A fresh CaDiCaL with `options` (name, value) that stops when `stop` stops.
    pub fn with_options(stop: &Cancel, options: &[(&std::ffi::CStr, c_int)]) -> CadicalAssuming {
        let mut solver = Cadical::new();
        for (name, value) in options {
            // SAFETY: live solver in its configuring state; valid option names.
            unsafe { ccadical_set_option(solver.ptr, name.as_ptr(), *value) };
        }
        solver.watch(stop);
        CadicalAssuming {
            solver,
            stop: stop.clone(),
            num_vars: 0,
        }
    }

    /// The [`SolverFactory`] of CaDiCaL.
    pub fn factory() -> &'static SolverFactory {
        &|stop| Box::new(CadicalAssuming::new(stop))
    }

    /// The [`SolverFactory`] for cubes of `problem` encoded with `options`: with
    /// [`CUBE_OPTIONS_IMPLIED`] when the encoding really carries implied constraints (a BDD over
    /// its size limit is left out, see [`crate::encode::implied::emits`]), else [`CUBE_OPTIONS`].
    pub fn factory_for(problem: &Problem, options: EncodeOptions) -> &'static SolverFactory {
        if crate::encode::implied::emits(problem, options.implied) {
            &|stop| Box::new(CadicalAssuming::with_options(stop, CUBE_OPTIONS_IMPLIED))
        } else {
            CadicalAssuming::factory()
        }
    }
}

impl ClauseSink for CadicalAssuming {
    fn add_clause(&mut self, lits: &[Lit]) {
        for l in lits {
            self.num_vars = self.num_vars.max(l.var());
        }
        self.solver.add_clause(lits);
    }
}

impl AssumptionSolver for CadicalAssuming {
    fn solve_assuming(&mut self, assumptions: &[Lit]) -> Answer<Model> {
        // A load cut short by the stop token holds only part of the formula: no answer.
        if self.solver.cut {
            return Answer::Unknown(stopped_why(&self.stop, "CaDiCaL stopped"));
        }
        let ptr = self.solver.ptr;
        for l in assumptions {
            // SAFETY: live solver; DIMACS literals are non-zero.
            unsafe { ccadical_assume(ptr, l.to_dimacs() as c_int) };
        }
        let result = self.solver.solve_until(&self.stop);
        Answer::from_ipasir(
            result,
            self.num_vars as usize,
            // SAFETY: live solver in the SAT state; v is a declared variable.
            |v| unsafe { ccadical_val(ptr, v as c_int) } > 0,
            || "CaDiCaL stopped".into(),
        )
    }
}

/// CaDiCaL linked in (`--solver lib:cadical`): DRAT proofs, incremental.
pub struct LibCadical;

impl Engine for LibCadical {
    fn info(&self) -> EngineInfo {
        EngineInfo {
            name: "lib:cadical".into(),
            about: "CaDiCaL 2.1.3 linked in".into(),
            caps: Capabilities {
                proofs: Proofs::Drat,
                incremental: Some(CadicalAssuming::factory_for),
                memory: Some(cadical_bytes),
                ..Capabilities::IN_PROCESS
            },
        }
    }

    fn solve(
        &self,
        problem: &Problem,
        settings: &Settings,
        cancel: &Cancel,
    ) -> crate::Result<Outcome> {
        let (answer, timing) = solve(
            problem,
            settings.options,
            settings.timeout,
            Some(cancel),
            settings.proof,
        )?;
        Ok(Outcome::of_model(answer, timing))
    }
}

/// The linked CaDiCaL's (and Kissat's) estimated peak memory for a CNF of `stats`' size: the
/// clause arena (a header and 4 bytes a literal), two watches a clause, per-variable tables,
/// and the encoder's buffers. Checked before any clause is handed over, so that a CNF too big
/// for the machine is refused with its estimate: an allocation failure inside the C/C++ solver
/// would end the process (a C++ exception cannot cross into Rust).
pub fn cadical_bytes(stats: &crate::encode::Stats) -> u64 {
    32 * stats.literals + 96 * stats.clauses + 256 * stats.vars
}

#[cfg(test)]
mod tests {
    use super::*;

    /// CaDiCaL ignores an unknown option name (and reads it as 0), so each tuned option must
    /// differ from a fresh solver's value and read back as set.
    #[test]
    fn cube_options_are_real_cadical_options() {
        for options in [CUBE_OPTIONS, CUBE_OPTIONS_IMPLIED] {
            options_take_effect(options);
        }
        // The implied-constraint set is the plain one without `elim=0`.
        let dropped: Vec<_> = CUBE_OPTIONS
            .iter()
            .filter(|o| !CUBE_OPTIONS_IMPLIED.contains(o))
            .map(|o| o.0)
            .collect();
        assert_eq!(dropped, [c"elim"]);
        assert!(
            CUBE_OPTIONS_IMPLIED
                .iter()
                .all(|o| CUBE_OPTIONS.contains(o))
        );
    }

    /// Variables are declared a chunk at a time with a poll of the stop token between chunks:
    /// once it stops, the rest of a clause's variables are not initialised (a clause naming
    /// variable 11 million used to initialise them all inside one `ccadical_add`, seconds past
    /// the limit), no clause is taken any more, and a cube solve over the cut formula is
    /// UNKNOWN, not an answer about part of it.
    #[test]
    fn a_stopped_load_declares_no_more_variables() {
        let stop = Cancel::new();
        let mut s = Cadical::new();
        s.watch(&stop);
        s.add_clause(&[Lit::pos(1), Lit::neg(3 * DECLARE_CHUNK)]);
        assert_eq!(s.declared, 3 * DECLARE_CHUNK);
        assert!(!s.stopped());
        stop.cancel();
        s.add_clause(&[Lit::pos(1 << 30)]);
        assert!(s.cut && s.stopped());
        assert_eq!(s.declared, 3 * DECLARE_CHUNK);
        // Without a token, variables come with the clauses, as CaDiCaL takes them.
        let mut plain = Cadical::new();
        plain.add_clause(&[Lit::pos(5)]);
        assert_eq!((plain.declared, plain.cut), (0, false));
        // A cube solver cut short answers nothing.
        let stop = Cancel::new();
        let mut cubes = CadicalAssuming::new(&stop);
        cubes.add_clause(&[Lit::pos(1), Lit::pos(2)]);
        stop.cancel();
        cubes.add_clause(&[Lit::neg(1), Lit::pos(3)]);
        assert!(cubes.solver.cut);
        assert!(matches!(cubes.solve_assuming(&[]), Answer::Unknown(_)));
    }

    /// Declaring variables ahead (freeze and melt) changes no answer: a formula over variables
    /// declared in chunks solves as before, SAT with a model and UNSAT.
    #[test]
    fn declared_variables_change_no_answer() {
        let stop = Cancel::new();
        let top = DECLARE_CHUNK + 7;
        let mut s = Cadical::new();
        s.watch(&stop);
        s.add_clause(&[Lit::pos(1), Lit::pos(top)]);
        s.add_clause(&[Lit::neg(1)]);
        assert_eq!(s.solve_until(&stop), 10);
        // SAFETY: live solver in the SAT state; declared variables.
        assert!(unsafe { ccadical_val(s.ptr, top as c_int) } > 0);
        s.add_clause(&[Lit::neg(top)]);
        assert_eq!(s.solve_until(&stop), 20);
    }

    /// Each option differs from a fresh solver's value (an unknown name reads as 0) and reads
    /// back as set.
    fn options_take_effect(options: &[(&std::ffi::CStr, c_int)]) {
        let stop = Cancel::new();
        let tuned = CadicalAssuming::with_options(&stop, options);
        let fresh = Cadical::new();
        for (name, value) in options {
            // SAFETY: live solvers; valid option names.
            let (now, default) = unsafe {
                (
                    ccadical_get_option(tuned.solver.ptr, name.as_ptr()),
                    ccadical_get_option(fresh.ptr, name.as_ptr()),
                )
            };
            assert_eq!(now, *value, "{name:?}");
            assert_ne!(
                default, *value,
                "{name:?} is not a CaDiCaL option or not a change"
            );
        }
    }
}
