//! The linked Kissat backend (`--solver lib:kissat`): Kissat 3.1.1 inside the binary.
//!
//! Chosen over `rustsat-kissat` (Kissat 4.0.4) because the `cat_solver` crate compiles Kissat's
//! vendored C sources with `cc` alone, like `pindakaas-cadical` for CaDiCaL, while `rustsat-kissat` needs
//! libclang for bindgen, which the README's fresh machine lacks. Its safe wrapper does not expose
//! the terminate callback, so, as for CaDiCaL, this module declares the few functions of
//! Kissat's C API (`kissat.h`) it needs; they are in the static library the crate links.
//!
//! - The instance is streamed into the solver through [`ClauseSink`].
//! - The stop token (its deadline included) is watched by [`crate::interrupt::watch`], which
//!   calls `kissat_terminate` ([`Interrupt`])
//!   (Kissat 3.1.1 stores a terminate callback but never calls it; `kissat_terminate` sets the
//!   flag its search loops poll, and may be called from another thread or a signal handler).
//! - No `--certify`: the crate builds Kissat with `NPROOFS` (no proof tracing); use
//!   `lib:cadical`, or the external `kissat` program (which writes DRAT), for checked UNSAT.
//! - Kissat is not incremental, so it does not conquer cubes under assumptions.
//!
//! `--solver kissat` keeps meaning the external program of that name.

use std::os::raw::{c_int, c_void};
use std::time::{Duration, Instant};

use crate::answer::Answer;
use crate::encode::{ClauseSink, EncodeOptions, Lit};
use crate::interrupt::{Cancel, watch};
use crate::presolve::Problem;
use crate::solve::engine::{Capabilities, Engine, EngineInfo, Outcome, Settings};
use crate::solve::traits::{
    Encoded, Formula, Interrupt, Timing, add_ipasir, load_watched, stopped_why,
};

// Keeps the crate (and so its static Kissat library) linked.
use cat_solver as _;

// Kissat's C API as `kissat/src/kissat.h` of cat_solver 3.1.1 declares it: `kissat
// *kissat_init (void)`, `void kissat_release (kissat *)`, `void kissat_add (kissat *, int)`, `int
// kissat_solve (kissat *)`, `int kissat_value (kissat *, int)`, `void kissat_terminate (kissat
// *)`; the opaque `kissat *` is `*mut c_void`, `int` is `c_int` (Cargo.lock pins the crate;
// a new version's header is to be compared with these lines).
unsafe extern "C" {
    fn kissat_init() -> *mut c_void;
    fn kissat_release(ptr: *mut c_void);
    fn kissat_add(ptr: *mut c_void, lit: c_int);
    fn kissat_solve(ptr: *mut c_void) -> c_int;
    fn kissat_value(ptr: *mut c_void, lit: c_int) -> c_int;
    fn kissat_terminate(ptr: *mut c_void);
}

/// One Kissat instance, released on drop.
struct Kissat {
    ptr: *mut c_void,
}

impl Kissat {
    fn new() -> Kissat {
        // SAFETY: plain constructor of the C API.
        let ptr = unsafe { kissat_init() };
        assert!(!ptr.is_null(), "kissat_init failed");
        Kissat { ptr }
    }
}

impl Drop for Kissat {
    fn drop(&mut self) {
        // SAFETY: released once; nothing uses `ptr` afterwards.
        unsafe { kissat_release(self.ptr) };
    }
}

impl ClauseSink for Kissat {
    #[inline]
    fn add_clause(&mut self, lits: &[Lit]) {
        // SAFETY: live solver; `kissat_add` is its IPASIR add.
        unsafe { add_ipasir(self.ptr, kissat_add, lits) };
    }
}

impl Interrupt for Kissat {
    fn interrupter(&self) -> Box<dyn FnOnce() + Send> {
        let ptr = self.ptr as usize;
        // SAFETY: the caller keeps the solver alive while the interrupter may run (the watch
        // is finished before the solver drops); Kissat allows kissat_terminate from another
        // thread during kissat_solve, and it is harmless outside it.
        Box::new(move || unsafe { kissat_terminate(ptr as *mut c_void) })
    }
}

/// Encodes `problem` into a fresh Kissat and solves it within `timeout` (or until `cancel` is
/// raised: UNKNOWN).
pub fn solve(
    problem: &Problem,
    options: EncodeOptions,
    timeout: Option<Duration>,
    cancel: Option<&Cancel>,
) -> (Answer, Timing) {
    solve_formula(&Encoded { problem, options }, timeout, cancel)
}

/// [`solve`] on any [`Formula`].
pub fn solve_formula(
    formula: &dyn Formula,
    timeout: Option<Duration>,
    cancel: Option<&Cancel>,
) -> (Answer, Timing) {
    let t0 = Instant::now();
    let mut solver = Kissat::new();
    // The time limit counts from here, loading included (a huge encoding stops loading early).
    let stop = cancel.cloned().unwrap_or_default().with_timeout(timeout);
    let (vars, over) = load_watched(formula, &mut solver, &stop);
    let encode = t0.elapsed().as_secs_f64();
    let t1 = Instant::now();
    if over {
        let timing = Timing { encode, solve: 0.0 };
        return (Answer::Unknown(stopped_why(&stop, "stopped")), timing);
    }
    let watcher = watch(&stop, solver.interrupter());
    // SAFETY: live solver with its clauses added.
    let result = unsafe { kissat_solve(solver.ptr) };
    // Joined here, before the solver can drop.
    watcher.finish();
    let answer = Answer::from_ipasir(
        result,
        vars as usize,
        // SAFETY: live solver in the SAT state; v is a declared variable.
        |v| unsafe { kissat_value(solver.ptr, v as c_int) } > 0,
        || stopped_why(&stop, "Kissat stopped"),
    );
    (
        answer,
        Timing {
            encode,
            solve: t1.elapsed().as_secs_f64(),
        },
    )
}

/// Kissat linked in (`--solver lib:kissat`): no proofs, not incremental.
pub struct LibKissat;

impl Engine for LibKissat {
    fn info(&self) -> EngineInfo {
        EngineInfo {
            name: "lib:kissat".into(),
            about: "Kissat 3.1.1 linked in (no proofs, not incremental)".into(),
            caps: Capabilities {
                memory: Some(super::cadical_backend::cadical_bytes),
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
        let (answer, timing) = solve(problem, settings.options, settings.timeout, Some(cancel));
        Ok(Outcome::of_model(answer, timing))
    }
}
