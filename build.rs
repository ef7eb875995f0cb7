//! Build-time probe for the external programs the tests exercise (SAT solvers; clasp, CBC and
//! MiniZinc for the exported formats; GNU parallel and Slurm's sbatch for cluster jobs; the
//! `veripb` proof checker).
//!
//! For each solver in [`SOLVERS`] that is not on `PATH`, emits `--cfg missing_solver_NAME`, so
//! its tests are marked `#[ignore]` and the test harness reports them as *ignored* (never as
//! passed). Under `CI=true` nothing is emitted: the tests run and a missing solver fails them.
//! The library itself does not use these cfgs.
//!
//! When the probe runs again: on a change of `PATH` or `CI`, and when a program it found changes
//! or disappears (its file is watched). It does not watch the `PATH` directories themselves:
//! cargo scans a watched directory's every file on every build, and any package install touches
//! `/usr/bin`, which reran the probe and rebuilt the whole crate. Nor does it watch the missing
//! programs' candidate files: cargo counts a missing watched file as changed, so the probe (and
//! the crate) would rebuild on every build. After installing a missing program, `touch build.rs`
//! (the warning below says so).

use std::env;
use std::path::{Path, PathBuf};

/// The external programs the tests use (their `missing_solver_*` cfg names): SAT solvers, the
/// exported formats' solvers (clasp, CBC, MiniZinc), GNU parallel and Slurm's sbatch.
const SOLVERS: [&str; 10] = [
    "cadical",
    "minisat",
    "picosat",
    "cryptominisat5",
    "clasp",
    "cbc",
    "minizinc",
    "parallel",
    "sbatch",
    "veripb",
];

fn main() {
    println!("cargo::rerun-if-env-changed=PATH");
    println!("cargo::rerun-if-env-changed=CI");
    // Without any rerun-if-changed line (every program missing) cargo would rerun the probe on
    // any change in the package; naming build.rs, which cargo watches anyway, avoids that.
    println!("cargo::rerun-if-changed=build.rs");
    let ci = env::var("CI").as_deref() == Ok("true");
    let path = env::var_os("PATH").unwrap_or_default();
    let dirs: Vec<_> = env::split_paths(&path)
        .filter(|d| !d.as_os_str().is_empty())
        .collect();
    for name in SOLVERS {
        println!("cargo::rustc-check-cfg=cfg(missing_solver_{name})");
        match find(&dirs, name) {
            // Probe again when it is replaced or removed (a missing watched file counts as
            // changed, and the next probe no longer watches it).
            Some(file) => println!("cargo::rerun-if-changed={}", file.display()),
            None if !ci => {
                println!("cargo::rustc-cfg=missing_solver_{name}");
                println!(
                    "cargo::warning=external solver {name} is not on PATH: its tests are \
                     ignored (after installing it, `touch build.rs` to probe again)"
                );
            }
            None => {}
        }
    }
}

/// The first executable `dir/name` over the `PATH` directories `dirs`.
fn find(dirs: &[PathBuf], name: &str) -> Option<PathBuf> {
    dirs.iter().map(|d| d.join(name)).find(|p| is_executable(p))
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
