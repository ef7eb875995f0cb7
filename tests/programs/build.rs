//! Build-time probe for the external programs the tests exercise (SAT solvers; clasp, CBC and
//! MiniZinc for the exported formats; GNU parallel and Slurm's sbatch for cluster jobs; the
//! `veripb` proof checker).
//!
//! This is the build script of the test-only crate `test-programs` (a dev-dependency), not of
//! the library: the library's build does not depend on `PATH` (docs/design.md, "Tests that need
//! outside programs"). It hands the names of the programs in [`PROGRAMS`] that are not on `PATH`
//! to the `#[requires(...)]` attribute as `TEST_PROGRAMS_MISSING` (comma-separated), which marks
//! their tests `#[ignore]`, so the test harness reports them as *ignored* (never as passed).
//! Under `CI=true` no program is missing: the tests run and a missing program fails them.
//!
//! When the probe runs again: on a change of `PATH` or `CI`, and when a program it found changes
//! or disappears (its file is watched). It does not watch the `PATH` directories themselves:
//! cargo scans a watched directory's every file on every build, and any package install touches
//! `/usr/bin`, which reran the probe. Nor does it watch the missing programs' candidate files:
//! cargo counts a missing watched file as changed, so the probe would rerun on every build.
//! After installing a missing program, `touch tests/programs/build.rs` (the warning below says
//! so). A rerun rebuilds this crate and the test targets, never the library itself.

use std::env;
use std::path::{Path, PathBuf};

/// The external programs the tests use: SAT solvers, the exported formats' solvers (clasp, CBC,
/// MiniZinc), GNU parallel, Slurm's sbatch and the VeriPB checker.
const PROGRAMS: [&str; 10] = [
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
    let mut missing = Vec::new();
    for name in PROGRAMS {
        match find(&dirs, name) {
            // Probe again when it is replaced or removed (a missing watched file counts as
            // changed, and the next probe no longer watches it).
            Some(file) => println!("cargo::rerun-if-changed={}", file.display()),
            None if !ci => {
                missing.push(name);
                println!(
                    "cargo::warning=external program {name} is not on PATH: its tests are \
                     ignored (after installing it, `touch tests/programs/build.rs` to probe again)"
                );
            }
            None => {}
        }
    }
    println!(
        "cargo::rustc-env=TEST_PROGRAMS_MISSING={}",
        missing.join(",")
    );
    println!(
        "cargo::rustc-env=TEST_PROGRAMS_KNOWN={}",
        PROGRAMS.join(",")
    );
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
