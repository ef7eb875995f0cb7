//! The lean core (docs/design.md, "A lean core"): the library without its default features (as
//! the Python crate and the fuzz targets use it) depends on neither the command line's nor the
//! harness's crates, and no module of that core imports a module that exists only with the
//! `harness` feature. The Python wheel is built from that library (`python/run-tests.sh`), so the
//! README's test command also compiles it; `cargo clippy --no-default-features --lib` lints it.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

/// The crates only the command line (clap) and the harness (csv, indicatif, plotters, sha2)
/// need.
const CLI_ONLY: [&str; 5] = ["clap", "csv", "indicatif", "plotters", "sha2"];

/// The crate names of `cargo tree -e normal -p PACKAGE ARGS` (what a build of it compiles).
fn dependencies(package: &str, args: &[&str]) -> BTreeSet<String> {
    let out = Command::new(env!("CARGO"))
        // Not --offline: on a fresh clone the README's test command runs before the Python
        // crate's dependencies (pyo3) were ever fetched, and `cargo tree` needs their manifests.
        .args(["tree", "-e", "normal", "--prefix", "none"])
        .args(["-f", "{p}", "-p", package])
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo tree runs");
    assert!(
        out.status.success(),
        "cargo tree -p {package} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

#[test]
fn the_library_alone_depends_on_no_cli_crate() {
    // The default build (the binary's) has them all, so the names are read right.
    let full = dependencies("queens-sat", &[]);
    for name in CLI_ONLY {
        assert!(
            full.contains(name),
            "{name} not in the default build: {full:?}"
        );
    }
    for (package, args) in [
        ("queens-sat", &["--no-default-features"][..]),
        ("queens-sat-python", &[][..]),
    ] {
        let lean = dependencies(package, args);
        let found: Vec<_> = CLI_ONLY.iter().filter(|n| lean.contains(**n)).collect();
        assert!(found.is_empty(), "{package} {args:?} depends on {found:?}");
        assert!(lean.len() < full.len(), "{package}: {} crates", lean.len());
    }
}

/// The top-level modules lib.rs declares only under `#[cfg(feature = "harness")]` (not those
/// it declares public with the feature and private without it, such as `atomic`).
fn harness_modules(lib: &str) -> BTreeSet<String> {
    let declared = |cfg: &str| -> BTreeSet<String> {
        let lines: Vec<&str> = lib.lines().map(str::trim).collect();
        lines
            .windows(2)
            .filter(|w| w[0] == cfg)
            .filter_map(|w| w[1].strip_prefix("pub mod ").or(w[1].strip_prefix("mod ")))
            .map(|name| name.trim_end_matches(';').to_string())
            .collect()
    };
    let with = declared("#[cfg(feature = \"harness\")]");
    let without = declared("#[cfg(not(feature = \"harness\"))]");
    with.difference(&without).cloned().collect()
}

#[test]
fn the_core_imports_no_harness_module() {
    let lib =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).unwrap();
    let gated = harness_modules(&lib);
    assert_eq!(
        gated,
        BTreeSet::from(["bench", "cluster", "progress", "suite"].map(String::from))
    );
    let mut wrong = Vec::new();
    for (from, to) in super::module_graph::library_edges() {
        if gated.contains(&from) {
            continue;
        }
        for (target, file) in to {
            if gated.contains(&target) {
                wrong.push(format!("{from} -> {target} ({})", file.display()));
            }
        }
    }
    assert!(wrong.is_empty(), "the core imports the harness: {wrong:#?}");
}

/// Crates only the tests and examples use (dev-dependencies): the `veripb` checker and the tree
/// it brings. The program never calls them, so its build must not compile them (issue 55: they
/// were on the first build's critical path). zstd-sys, which veripb also brings, stays: the
/// `zstd` crate (compressed CNFs) needs it.
const TEST_ONLY: [&str; 3] = ["veripb", "malachite-nz", "mimalloc"];

#[test]
fn the_default_build_compiles_no_test_only_crate() {
    let default = dependencies("queens-sat", &[]);
    assert!(
        default.contains("clap") && default.contains("pindakaas-cadical"),
        "the names are read right: {default:?}"
    );
    let found: Vec<_> = TEST_ONLY.iter().filter(|n| default.contains(**n)).collect();
    assert!(found.is_empty(), "the default build depends on {found:?}");
    // With the dev-dependencies (what `cargo test` compiles) the checker is there, so the tests
    // that run it are not silently skipped.
    let with_dev = {
        let out = Command::new(env!("CARGO"))
            .args([
                "tree",
                "-e",
                "normal,dev",
                "--prefix",
                "none",
                "--depth",
                "1",
            ])
            .args(["-f", "{p}", "-p", "queens-sat"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("cargo tree runs");
        String::from_utf8(out.stdout).unwrap()
    };
    assert!(
        with_dev.lines().any(|l| l.starts_with("veripb ")),
        "veripb is no dev-dependency: {with_dev}"
    );
}

/// The features this crate is built with by `cargo tree -e normal -p PACKAGE` (the program's
/// build: the crate itself, and the Python crate's dependency on it).
fn own_features(package: &str) -> String {
    let out = Command::new(env!("CARGO"))
        .args(["tree", "-e", "normal", "--prefix", "none", "--depth", "1"])
        .args(["-f", "{p} [{f}]", "-p", package])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo tree runs");
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines()
        .find(|l| l.starts_with("queens-sat v"))
        .unwrap_or_else(|| panic!("no queens-sat line in {text}"))
        .to_string()
}

/// The test oracles (feature `oracle`: the VeriPB reference search `certify::pb::refute`) are in
/// no build of the program or the Python module; the tests, which turn them on through the
/// dev-dependency on this crate, do use them (this test is compiled with them).
#[test]
fn the_test_oracles_stay_out_of_the_program() {
    for package in ["queens-sat", "queens-sat-python"] {
        let line = own_features(package);
        assert!(line.contains('['), "{package}: {line}");
        assert!(!line.contains("oracle"), "{package} builds {line}");
    }
    let _: fn(_, _, _, _) -> _ = queens_sat::certify::pb::refute;
}
