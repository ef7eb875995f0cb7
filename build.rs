//! Build-time probe for the external programs the tests exercise (SAT solvers; clasp, CBC and
//! MiniZinc for the exported formats; GNU parallel and Slurm's sbatch for cluster jobs).
//!
//! For each solver in [`SOLVERS`] that is not on `PATH`, emits `--cfg missing_solver_NAME`, so
//! its tests are marked `#[ignore]` and the test harness reports them as *ignored* (never as
//! passed). Under `CI=true` nothing is emitted: the tests run and a missing solver fails them.
//! The library itself does not use these cfgs.

use std::env;
use std::path::Path;

/// The external programs the tests use (their `missing_solver_*` cfg names): SAT solvers, the
/// exported formats' solvers (clasp, CBC, MiniZinc), GNU parallel and Slurm's sbatch.
const SOLVERS: [&str; 9] = [
    "cadical",
    "minisat",
    "picosat",
    "cryptominisat5",
    "clasp",
    "cbc",
    "minizinc",
    "parallel",
    "sbatch",
];

fn main() {
    println!("cargo::rerun-if-env-changed=PATH");
    println!("cargo::rerun-if-env-changed=CI");
    let ci = env::var("CI").as_deref() == Ok("true");
    let path = env::var_os("PATH").unwrap_or_default();
    let dirs: Vec<_> = env::split_paths(&path)
        .filter(|d| !d.as_os_str().is_empty())
        .collect();
    // Installing a solver changes its directory: probe again then.
    for d in dirs.iter().filter(|d| d.is_dir()) {
        println!("cargo::rerun-if-changed={}", d.display());
    }
    for name in SOLVERS {
        println!("cargo::rustc-check-cfg=cfg(missing_solver_{name})");
        let found = dirs.iter().any(|d| is_executable(&d.join(name)));
        if !found && !ci {
            println!("cargo::rustc-cfg=missing_solver_{name}");
            println!("cargo::warning=external solver {name} is not on PATH: its tests are ignored");
        }
    }
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    path.is_file()
}
