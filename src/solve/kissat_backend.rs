//! The linked Kissat backend (`--solver lib:kissat`): Kissat 3.1.1 inside the binary.
//!
//! Chosen over `rustsat-kissat` (Kissat 4.0.4) because the `cat_solver` crate compiles Kissat's
//! vendored C sources with `cc` alone, like `pindakaas-cadical` for CaDiCaL, while `rustsat-kissat` needs
//! libclang for bindgen, which the README's fresh machine lacks. Its safe wrapper does not expose
//! the terminate callback, so, as for CaDiCaL, this module declares the few functions of
//! Kissat's C API (`kissat.h`) it needs; they are in the static library the crate links.
//!
//! - The instance is streamed into the solver through [`ClauseSink`].
//! - The time limit and the cancel token are watched by a thread that calls `kissat_terminate`
//!   (Kissat 3.1.1 stores a terminate callback but never calls it; `kissat_terminate` sets the
//!   flag its search loops poll, and may be called from another thread or a signal handler).
//! - No `--certify`: the crate builds Kissat with `NPROOFS` (no proof tracing); use
//!   `lib:cadical`, or the external `kissat` program (which writes DRAT), for checked UNSAT.
//! - Kissat is not incremental, so it does not conquer cubes under assumptions.
//!
//! `--solver kissat` keeps meaning the external program of that name.

use std::os::raw::{c_int, c_void};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::answer::Answer;
use crate::encode::{ClauseSink, EncodeOptions, Lit};
use crate::interrupt::Cancel;
use crate::presolve::Problem;
use crate::solve::engine::{Capabilities, Engine, EngineInfo, Outcome, Settings};
use crate::solve::traits::{Encoded, Formula, Timing, load_watched, stopped_why};

// Keeps the crate (and so its static Kissat library) linked.
use cat_solver as _;

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
        for l in lits {
            // SAFETY: live solver; DIMACS literals are non-zero and within i32.
            unsafe { kissat_add(self.ptr, l.to_dimacs() as c_int) };
        }
        // SAFETY: as above; 0 ends the clause.
        unsafe { kissat_add(self.ptr, 0) };
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
    let deadline = timeout.and_then(|t| t0.checked_add(t));
    let (vars, over) = load_watched(formula, &mut solver, deadline, cancel);
    let encode = t0.elapsed().as_secs_f64();
    let t1 = Instant::now();
    if over {
        let timing = Timing { encode, solve: 0.0 };
        return (Answer::Unknown(stopped_why(cancel, timeout)), timing);
    }
    let done = AtomicBool::new(false);
    let ptr = solver.ptr as usize;
    let result = std::thread::scope(|s| {
        s.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                let late = deadline.is_some_and(|d| Instant::now() >= d);
                if late || cancel.is_some_and(|c| c.is_cancelled()) {
                    // SAFETY: the solver lives until the scope ends, after this thread; Kissat
                    // allows kissat_terminate from another thread during kissat_solve.
                    unsafe { kissat_terminate(ptr as *mut c_void) };
                    return;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        });
        // SAFETY: live solver with its clauses added.
        let r = unsafe { kissat_solve(solver.ptr) };
        done.store(true, Ordering::Relaxed);
        r
    });
    // SAFETY (the value calls): live solver in the SAT state; v is a declared variable.
    let answer = Answer::from_ipasir(
        result,
        vars as usize,
        |v| unsafe { kissat_value(solver.ptr, v as c_int) } > 0,
        || stopped_why(cancel, timeout),
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
            caps: Capabilities::IN_PROCESS,
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
