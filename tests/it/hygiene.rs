//! Checks on the sources themselves (issue 64): what a reader or a build of the library meets.

use std::fs;
use std::path::{Path, PathBuf};

/// The repository root (this package's manifest directory).
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The library's build does not depend on `PATH`: the package has no build script (the probe
/// for the test programs is the build script of the test-only crate tests/programs, a
/// dev-dependency), so a change of `PATH` rebuilds nothing of the library and a crate that
/// depends on it runs no probe.
#[test]
fn the_library_build_has_no_path_probe() {
    assert!(
        !root().join("build.rs").exists(),
        "build.rs is back at the root: the library's build must not probe PATH \
         (the test programs' probe is tests/programs/build.rs)"
    );
    let manifest = fs::read_to_string(root().join("Cargo.toml")).unwrap();
    assert!(
        !manifest
            .lines()
            .any(|l| l.trim_start().starts_with("build")),
        "Cargo.toml names a build script for the library"
    );
    // The probe itself lives on in the test-only crate, which only the tests depend on.
    let probe = fs::read_to_string(root().join("tests/programs/build.rs")).unwrap();
    assert!(probe.contains("rerun-if-env-changed=PATH"));
    let dev = manifest
        .split("[dev-dependencies]")
        .nth(1)
        .expect("Cargo.toml has [dev-dependencies]");
    assert!(dev.contains("test-programs = { path = \"tests/programs\" }"));
    let normal = manifest
        .split("[dependencies]")
        .nth(1)
        .unwrap()
        .split("\n[")
        .next()
        .unwrap();
    assert!(
        !normal.contains("test-programs"),
        "test-programs is a dev-dependency only"
    );
}

/// No public item hides from the docs: a test hook is behind the `oracle` feature (which only
/// the tests and examples turn on) or is a unit test, never a `pub` item under `#[doc(hidden)]`
/// (issue 64). Any `#[doc(hidden)]` in the library fails, whatever it is on: an attribute on a
/// private item has no use.
#[test]
fn no_item_of_the_library_is_doc_hidden() {
    let mut found = Vec::new();
    for file in rust_files(&root().join("src")) {
        let text = fs::read_to_string(&file).unwrap();
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap();
            if code.contains("doc(hidden)") {
                let rel = file.strip_prefix(root()).unwrap();
                found.push(format!("{}:{}: {}", rel.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "#[doc(hidden)] in the library (put a test hook behind the `oracle` feature or into a \
         unit test):\n{}",
        found.join("\n")
    );
}

/// The folders of this repository whose paths the docs name.
const TOP: [&str; 10] = [
    "src/",
    "tests/",
    "scripts/",
    "examples/",
    "check/",
    "python/",
    "docs/",
    ".ci/",
    "encodings/",
    "fuzz/",
];

/// The paths under [`TOP`] that `text` names: a run of path characters starting at one of
/// those folders (not inside a longer path or a URL), without a trailing `.`, `,`, `:` or `;`.
fn named_paths(text: &str) -> Vec<(usize, String)> {
    let is_path = |c: char| c.is_ascii_alphanumeric() || "_./-".contains(c);
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut at = 0;
        while at < line.len() {
            let rest = &line[at..];
            let before = line[..at].chars().next_back();
            match TOP.iter().find(|t| rest.starts_with(**t)) {
                Some(_) if !before.is_some_and(is_path) => {
                    let len = rest.find(|c| !is_path(c)).unwrap_or(rest.len());
                    let path = rest[..len].trim_end_matches(['.', ',', ':', ';']);
                    out.push((i + 1, path.to_string()));
                    at += len;
                }
                _ => at += rest.chars().next().unwrap().len_utf8(),
            }
        }
    }
    out
}

/// docs/design.md and the README match the code: every file or folder they name under `src/`,
/// `tests/`, `scripts/` (and the repository's other folders) exists.
#[test]
fn every_path_the_docs_name_exists() {
    let mut missing = Vec::new();
    let mut named = 0;
    for doc in ["docs/design.md", "README.md"] {
        let text = fs::read_to_string(root().join(doc)).unwrap();
        for (line, path) in named_paths(&text) {
            named += 1;
            if !root().join(&path).exists() {
                missing.push(format!("{doc}:{line}: {path}"));
            }
        }
    }
    assert!(named > 50, "only {named} paths found: the scan is broken");
    assert!(
        missing.is_empty(),
        "paths named in the docs that do not exist:\n{}",
        missing.join("\n")
    );
}

#[test]
fn named_paths_reads_paths_out_of_prose() {
    let text = "see `src/lib.rs`, tests/it/ and (scripts/families.sh).\n\
                not https://x.org/src/a.rs nor foo/src/b.rs; docs/design.md: yes";
    let got: Vec<String> = named_paths(text).into_iter().map(|(_, p)| p).collect();
    assert_eq!(
        got,
        [
            "src/lib.rs",
            "tests/it/",
            "scripts/families.sh",
            "docs/design.md"
        ]
    );
}

/// The search kernels, the only library files allowed past [`MAX_LINES`]: one recursion each,
/// whose hot loop reads best in one place. `count/backtrack.rs` is on the list until it is
/// split (issue 64).
const KERNELS: [&str; 3] = [
    "src/solve/bitboard/kernel.rs",
    "src/count/lanes.rs",
    "src/count/backtrack.rs",
];

/// The most lines a library file has (issue 64: a file a reader can hold).
const MAX_LINES: usize = 1000;

/// No file of the library but the kernels is over [`MAX_LINES`] lines: a longer one is split
/// into submodules of one job each (as `certify/pb/` and `solve/bitboard/pbproof/` were).
#[test]
fn no_library_file_is_over_a_thousand_lines() {
    let mut long = Vec::new();
    for file in rust_files(&root().join("src")) {
        let rel = file
            .strip_prefix(root())
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        let lines = fs::read_to_string(&file).unwrap().lines().count();
        if lines > MAX_LINES && !KERNELS.contains(&rel.as_str()) {
            long.push(format!("{rel}: {lines} lines"));
        }
    }
    assert!(
        long.is_empty(),
        "library files over {MAX_LINES} lines (split them into submodules):\n{}",
        long.join("\n")
    );
    for k in KERNELS {
        assert!(root().join(k).exists(), "{k} is gone: drop it from KERNELS");
    }
}

/// Every `.rs` file under `dir`, recursively, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}
