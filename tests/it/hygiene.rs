//! Checks on the sources themselves (issue 64): what a reader or a build of the library meets.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

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
/// whose hot loop reads best in one place.
const KERNELS: [&str; 2] = ["src/solve/bitboard/kernel.rs", "src/count/lanes.rs"];

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

/// The search kernels' per-ISA macros (file, macro): each arm's body is one build of a kernel,
/// compiled once per instruction set. Keep in step with scripts/fmt-kernel-macros.py.
const KERNEL_MACROS: [(&str, &str); 3] = [
    ("src/solve/bitboard/kernel.rs", "searcher"),
    ("src/count/fast.rs", "kernel"),
    ("src/count/lanes.rs", "lanes_kernel"),
];

/// The arms' bodies of `macro_rules! name` in `text`: the 1-based line of each body's first
/// line, and its lines (between the arm's `=> {` and its closing `};` at 4 spaces).
fn macro_bodies(text: &str, name: &str) -> Vec<(usize, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let head = format!("macro_rules! {name} {{");
    let start = lines
        .iter()
        .position(|l| l.starts_with(&head))
        .unwrap_or_else(|| panic!("no `{head}`"));
    let mut bodies = Vec::new();
    let mut i = start + 1;
    while lines[i] != "}" {
        let line = lines[i];
        let arm = line.starts_with("    ") && !line.starts_with("     ");
        if arm && line.trim_end().ends_with("=> {") {
            let end = (i + 1..lines.len())
                .find(|&j| lines[j] == "    };" || lines[j] == "    }")
                .expect("the arm closes");
            bodies.push((i + 2, lines[i + 1..end].join("\n")));
            i = end;
        }
        i += 1;
    }
    bodies
}

/// A macro body made Rust with same-width substitutions: `$(#[$x])?` becomes `#[_____x]`,
/// every other `$` a `_`, so rustfmt breaks its lines where it would break the macro's.
fn as_rust(body: &str) -> String {
    let mut out = String::new();
    let mut rest = body;
    while let Some(at) = rest.find("$(#[$") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 5..];
        let end = after.find("])?").expect("`$(#[$x])?` closes");
        out.push_str("#[_____");
        out.push_str(&after[..end]);
        out.push(']');
        rest = &after[end + 3..];
    }
    out.push_str(rest);
    assert!(
        !out.contains("$("),
        "a repetition other than `$(#[$x])?` in a kernel macro: teach as_rust (and \
         scripts/fmt-kernel-macros.py) its same-width stand-in"
    );
    out.replace('$', "_")
}

/// `rustfmt --edition <the package's edition>` of `src` (standard input to standard output).
fn rustfmt(src: &str) -> String {
    let mut child = Command::new("rustfmt")
        .args(["--edition", &edition(root())])
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("rustfmt runs (rustup component add rustfmt)");
    let mut stdin = child.stdin.take().unwrap();
    let input = src.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(
        out.status.success(),
        "rustfmt: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The kernels' macro bodies (`searcher!`, `kernel!`, `lanes_kernel!`, some 780 lines that
/// rustfmt never formats inside `macro_rules!`) are formatted as rustfmt would format them:
/// each body, made Rust by [`as_rust`] and set at its own indent inside two `mod`s, is a fixed
/// point of rustfmt. The macros stay (not a generic function per ISA), so the compiled code is
/// untouched; `python3 scripts/fmt-kernel-macros.py` formats them.
#[test]
fn kernel_macro_bodies_are_formatted() {
    let mut bad = Vec::new();
    for (file, name) in KERNEL_MACROS {
        let text = fs::read_to_string(root().join(file)).unwrap();
        let bodies = macro_bodies(&text, name);
        assert!(!bodies.is_empty(), "{file}: `{name}!` has no arm");
        for (first, body) in bodies {
            let src = format!("mod m0 {{\n    mod m1 {{\n{}\n    }}\n}}\n", as_rust(&body));
            let formatted = rustfmt(&src);
            if formatted != src {
                // The first line that differs, as a line of the file.
                let (k, (was, fmt)) = src
                    .lines()
                    .zip(formatted.lines())
                    .enumerate()
                    .find(|(_, (a, b))| a != b)
                    .unwrap_or((src.lines().count().min(formatted.lines().count()), ("", "")));
                bad.push(format!(
                    "{file}:{}: `{name}!`: rustfmt writes\n    {fmt}\nfor\n    {was}",
                    first + k - 2
                ));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "kernel macro bodies not formatted (run `python3 scripts/fmt-kernel-macros.py`):\n{}",
        bad.join("\n")
    );
}

/// The `edition` of the package whose manifest is `dir/Cargo.toml`.
fn edition(dir: &Path) -> String {
    let manifest = fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    manifest
        .lines()
        .find_map(|l| {
            let value = l
                .trim()
                .strip_prefix("edition")?
                .trim_start()
                .strip_prefix('=')?;
            Some(value.trim().trim_matches('"').to_string())
        })
        .unwrap_or_else(|| panic!("{}/Cargo.toml names no edition", dir.display()))
}

/// The workspace's crates: the folders of the root manifest's `[workspace] members`.
fn workspace_members() -> Vec<PathBuf> {
    let manifest = fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let line = manifest
        .lines()
        .find(|l| l.trim_start().starts_with("members"))
        .expect("Cargo.toml has `members = [...]` on one line");
    let list = line.split(['[', ']']).nth(1).expect("members = [...]");
    let members: Vec<PathBuf> = list
        .split(',')
        .map(|m| m.trim().trim_matches('"'))
        .filter(|m| !m.is_empty())
        .map(|m| root().join(m))
        .collect();
    assert!(members.len() > 1, "members {list}: the scan is broken");
    members
}

/// Every Rust file of the workspace's crates (`src/` of each member: the library, check/,
/// python/, tests/programs/) is formatted as `rustfmt --check --edition <its crate's edition>`
/// wants. `cargo fmt` only reaches the files it finds through plain `mod` declarations, so it
/// skips the modules declared inside macros (`gated!`, cfg macros); rustfmt on each file
/// reaches them all. rustfmt leaves the kernel macros' bodies alone (not Rust it parses):
/// [`kernel_macro_bodies_are_formatted`] checks those, and scripts/fmt-kernel-macros.py formats
/// them with rustfmt of the same edition (checked here too).
/// A missing rustfmt fails the test: it is never skipped.
#[test]
fn every_source_file_is_rustfmt_formatted() {
    let mut unformatted = Vec::new();
    let mut checked = 0;
    for member in workspace_members() {
        let edition = edition(&member);
        let files: Vec<String> = rust_files(&member.join("src"))
            .iter()
            .map(|f| f.strip_prefix(root()).unwrap().display().to_string())
            .collect();
        assert!(
            !files.is_empty(),
            "{}: no .rs file in src/",
            member.display()
        );
        checked += files.len();
        let out = Command::new("rustfmt")
            .args(["--check", "--files-with-diff", "--edition", &edition])
            .args(&files)
            .current_dir(root())
            .output()
            .unwrap_or_else(|e| {
                panic!(
                    "rustfmt does not run ({e}): install it (`rustup component add rustfmt`); \
                     this check is never skipped"
                )
            });
        let listed = String::from_utf8_lossy(&out.stdout);
        let listed: Vec<&str> = listed.lines().filter(|l| !l.trim().is_empty()).collect();
        // 0: all formatted; 1: some file is not (named on stdout); anything else, or 1 with
        // no file named, is rustfmt failing (a parse error): say what it said.
        assert!(
            out.status.code() == Some(0) || (out.status.code() == Some(1) && !listed.is_empty()),
            "rustfmt --check --edition {edition} over {}/src failed ({}):\n{}",
            member.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        for file in listed {
            let file = Path::new(file);
            let rel = file
                .strip_prefix(root())
                .unwrap_or(file)
                .display()
                .to_string();
            let entry = (edition.clone(), rel);
            if !unformatted.contains(&entry) {
                unformatted.push(entry);
            }
        }
    }
    assert!(
        checked > 100,
        "only {checked} files checked: the scan is broken"
    );
    let fix: Vec<String> = unformatted
        .iter()
        .map(|(edition, file)| format!("rustfmt --edition {edition} {file}"))
        .collect();
    assert!(
        unformatted.is_empty(),
        "files not rustfmt-formatted (cargo fmt does not reach modules declared inside \
         macros); format them with:\n{}",
        fix.join("\n")
    );
    // scripts/fmt-kernel-macros.py formats the kernel macros' bodies with the library's
    // edition, as this test and kernel_macro_bodies_are_formatted check them.
    let script = fs::read_to_string(root().join("scripts/fmt-kernel-macros.py")).unwrap();
    let wanted = format!("[\"rustfmt\", \"--edition\", \"{}\"]", edition(root()));
    assert!(
        script.contains(&wanted),
        "scripts/fmt-kernel-macros.py does not run {wanted}: keep its edition the crate's"
    );
}

#[test]
fn as_rust_keeps_the_widths() {
    let body = "        $(#[$attr])?\n        fn $name() -> $v::V {}";
    let rust = as_rust(body);
    assert_eq!(rust, "        #[_____attr]\n        fn _name() -> _v::V {}");
    for (a, b) in body.lines().zip(rust.lines()) {
        assert_eq!(a.len(), b.len());
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

/// One name for one thing (issue 64 §3): no type name is declared twice in the library, except
/// the per-ISA lane types of the counting kernel (one set per build, in modules of their own).
#[test]
fn no_type_name_is_declared_twice() {
    const KERNEL_LANES: [&str; 3] = ["V", "M", "Table"];
    let decl = declared_name();
    let mut seen: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    let mut stack = vec![root().join("src")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if !path.ends_with("bin") {
                    stack.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                for line in text.lines() {
                    if let Some(name) = decl(line) {
                        seen.entry(name)
                            .or_default()
                            .push(path.display().to_string());
                    }
                }
            }
        }
    }
    let twice: Vec<String> = seen
        .iter()
        .filter(|(name, files)| files.len() > 1 && !KERNEL_LANES.contains(&name.as_str()))
        .map(|(name, files)| format!("{name}: {files:?}"))
        .collect();
    assert!(twice.is_empty(), "declared more than once: {twice:#?}");
}

/// The name a line declares as `pub struct|enum|trait|type NAME` (any indentation), if any.
fn declared_name() -> impl Fn(&str) -> Option<String> {
    |line: &str| {
        let rest = line.trim_start().strip_prefix("pub ")?;
        let rest = ["struct ", "enum ", "trait ", "type "]
            .iter()
            .find_map(|k| rest.strip_prefix(k))?;
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        name.starts_with(|c: char| c.is_ascii_uppercase())
            .then_some(name)
    }
}
