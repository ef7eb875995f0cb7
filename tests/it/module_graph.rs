//! Modules import each other in one direction, in three graphs (comments and a trailing
//! `#[cfg(test)] mod tests` block left out, as in ../shared/tools/module-cycles.py):
//!
//! - the library's top-level modules: a `crate::X` path in module A is an edge A -> X;
//! - the binary's files under `src/bin/queens-sat/`: a `crate::X` path is an edge to the
//!   binary's module X (or to the crate root, `main`, when X is an item of main.rs, such as
//!   `crate::cancel`), a `super::X` path one to the sibling module X (or to the parent's file);
//!   the root's `mod` declarations and its dispatch to each command are not edges;
//! - the files of the library's `src/bench/` folder: `super::X` or `crate::bench::X` is an edge
//!   to the sibling file X (or to `mod`, for an item of mod.rs), and a path `X::` in mod.rs is
//!   an edge from `mod` to its child X (its `pub mod X;` declarations are not).
//!
//! No node may reach itself along the edges. The library never imports the binary.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Edges of one graph: from a node, each node it imports and one file that holds the edge.
pub(super) type Edges = BTreeMap<String, BTreeMap<String, PathBuf>>;

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The top-level module a file under `src/` belongs to (`src/solve/run.rs` -> `solve`).
fn top(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap();
    let head = rel
        .components()
        .next()
        .unwrap()
        .as_os_str()
        .to_string_lossy();
    head.trim_end_matches(".rs").to_string()
}

/// The `.rs` files under `dir`, recursively; `skip_bin` leaves `bin` folders out.
fn rust_files(dir: &Path, skip_bin: bool, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            if !(skip_bin && path.file_name().is_some_and(|n| n == "bin")) {
                rust_files(&path, skip_bin, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `text` without `//` comments and without a trailing `#[cfg(test)] mod tests { ... }`.
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(i) => &text[..i],
        None => text,
    };
    text.lines()
        .map(|l| l.find("//").map_or(l, |i| &l[..i]))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The names that follow `prefix` in `text` (`crate::solve::run` -> `solve` for `crate::`,
/// `super::Config` -> `Config` for `super::`); with `whole`, only where `prefix` does not continue an identifier or a path.
fn after<'a>(text: &'a str, prefix: &str, whole: bool) -> Vec<&'a str> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices(prefix) {
        let before = text[..i].chars().next_back();
        if whole && before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let rest = &text[i + prefix.len()..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if end > 0 {
            out.push(&rest[..end]);
        }
    }
    out
}

/// Whether `text` holds a path that starts with `name::` (not `other_name::`, not `a::name::`).
fn uses_path(text: &str, name: &str) -> bool {
    text.match_indices(&format!("{name}::")).any(|(i, _)| {
        !text[..i]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
    })
}

fn add(edges: &mut Edges, from: &str, to: &str, file: &Path) {
    if from != to {
        edges
            .entry(from.to_string())
            .or_default()
            .entry(to.to_string())
            .or_insert_with(|| file.to_path_buf());
    }
}

/// The library's top-level graph.
pub(super) fn library_edges() -> Edges {
    let src = src();
    let mut files = Vec::new();
    rust_files(&src, true, &mut files);
    let mut edges = Edges::new();
    for file in files {
        if file.file_name().is_some_and(|n| n == "lib.rs") {
            continue;
        }
        let me = top(&src, &file);
        let text = code(&std::fs::read_to_string(&file).unwrap());
        // Modules only: `crate::Error` is a re-export of lib.rs.
        for name in after(&text, "crate::", false) {
            if name.starts_with(|c: char| c.is_ascii_lowercase()) {
                add(&mut edges, &me, name, &file);
            }
        }
    }
    edges
}

/// The binary's module of a file, by its path under the binary's folder: `main.rs` is `main`
/// (the root), `a/mod.rs` is `a`, `a/b.rs` is `a/b`.
fn bin_module(rel: &Path) -> String {
    let parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let (dirs, file) = parts.split_at(parts.len() - 1);
    let mut path: Vec<String> = dirs.to_vec();
    match file[0].as_str() {
        "main.rs" if dirs.is_empty() => return "main".to_string(),
        "mod.rs" => {}
        f => path.push(f.trim_end_matches(".rs").to_string()),
    }
    path.join("/")
}

/// The graph of a binary's files, given as (path under the binary's folder, text).
fn bin_graph(files: &[(PathBuf, String)]) -> Edges {
    let modules: BTreeSet<String> = files.iter().map(|(rel, _)| bin_module(rel)).collect();
    // A module path `parent/X`, if that module exists, else the parent's own file.
    let resolve = |parent: &str, name: &str| {
        let child = if parent == "main" {
            name.to_string()
        } else {
            format!("{parent}/{name}")
        };
        if modules.contains(&child) {
            child
        } else {
            parent.to_string()
        }
    };
    let mut edges = Edges::new();
    for (rel, text) in files {
        let me = bin_module(rel);
        let text = code(text);
        for name in after(&text, "crate::", true) {
            add(&mut edges, &me, &resolve("main", name), rel);
        }
        let parent = match me.rsplit_once('/') {
            Some((p, _)) => p.to_string(),
            None => "main".to_string(),
        };
        for name in after(&text, "super::", true) {
            add(&mut edges, &me, &resolve(&parent, name), rel);
        }
    }
    edges
}

/// The files of `dir` (recursively), as (path under `dir`, text).
fn read_tree(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    rust_files(dir, false, &mut files);
    files
        .into_iter()
        .map(|f| {
            let text = std::fs::read_to_string(&f).unwrap();
            (f.strip_prefix(dir).unwrap().to_path_buf(), text)
        })
        .collect()
}

/// The graph of the files of a library folder module `name` (`src/NAME/*.rs`), given as
/// (file name, text): nodes are the file stems, `mod` for mod.rs.
fn folder_graph(name: &str, files: &[(PathBuf, String)]) -> Edges {
    let stem = |rel: &Path| rel.file_stem().unwrap().to_string_lossy().into_owned();
    let siblings: BTreeSet<String> = files.iter().map(|(rel, _)| stem(rel)).collect();
    let sibling_or_mod = |name: &str| {
        if siblings.contains(name) {
            name.to_string()
        } else {
            "mod".to_string()
        }
    };
    let mut edges = Edges::new();
    for (rel, text) in files {
        let me = stem(rel);
        let text = code(text);
        if me == "mod" {
            // `pub mod X;` declares a child; a path `X::` uses it.
            for child in siblings.iter().filter(|s| *s != "mod") {
                if uses_path(&text, child) {
                    add(&mut edges, &me, child, rel);
                }
            }
            continue;
        }
        let mut used = after(&text, "super::", true);
        used.extend(after(&text, &format!("crate::{name}::"), false));
        for used in used {
            add(&mut edges, &me, &sibling_or_mod(used), rel);
        }
    }
    edges
}

/// A path from `from` back to itself along `edges`, if there is one.
fn cycle_through(from: &str, edges: &Edges) -> Option<Vec<String>> {
    let mut stack = vec![vec![from.to_string()]];
    let mut seen = BTreeSet::new();
    while let Some(path) = stack.pop() {
        let last = path.last().unwrap();
        for next in edges.get(last).into_iter().flat_map(|m| m.keys()) {
            if next == from {
                let mut cycle = path.clone();
                cycle.push(next.clone());
                return Some(cycle);
            }
            if seen.insert(next.clone()) {
                let mut longer = path.clone();
                longer.push(next.clone());
                stack.push(longer);
            }
        }
    }
    None
}

/// Every cycle of `edges`, one line each, with the file of each hop.
fn cycles(edges: &Edges) -> Vec<String> {
    edges
        .keys()
        .filter_map(|m| cycle_through(m, edges))
        .map(|c| {
            let hops: Vec<String> = c
                .windows(2)
                .map(|w| format!("{} -> {} ({})", w[0], w[1], edges[&w[0]][&w[1]].display()))
                .collect();
            hops.join(", ")
        })
        .collect()
}

#[test]
fn library_modules_import_in_one_direction() {
    let edges = library_edges();
    assert!(
        edges.len() > 10,
        "the scan found too few modules: {:?}",
        edges.keys()
    );
    let cycles = cycles(&edges);
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

#[test]
fn binary_files_import_in_one_direction() {
    let edges = bin_graph(&read_tree(&src().join("bin/queens-sat")));
    // Most commands import `args` and the root's cancel token.
    assert!(
        edges.values().filter(|to| to.contains_key("args")).count() > 5,
        "the scan found too few edges: {edges:?}"
    );
    assert!(edges["bench"].contains_key("main"), "{edges:?}");
    let cycles = cycles(&edges);
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

#[test]
fn bench_files_import_in_one_direction() {
    let edges = folder_graph("bench", &read_tree(&src().join("bench")));
    for (from, to) in [
        ("catalogue", "types"),
        ("runs_csv", "types"),
        ("hard", "runs_csv"),
        ("hard", "child"),
        ("throughput", "child"),
        ("mod", "hard"),
    ] {
        assert!(
            edges.get(from).is_some_and(|m| m.contains_key(to)),
            "{from} -> {to} not seen: {edges:?}"
        );
    }
    assert!(!edges.contains_key("types"), "types imports: {edges:?}");
    let cycles = cycles(&edges);
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

#[test]
fn the_check_sees_a_cycle() {
    let mut edges = library_edges();
    // A back edge from the leaf `answer` to `solve` (which imports it) closes a loop.
    edges
        .entry("answer".into())
        .or_default()
        .insert("solve".into(), PathBuf::from("made up"));
    assert!(cycle_through("answer", &edges).is_some());

    // The binary: `args` using a command module that uses `args`; and how `super::` paths
    // resolve (to a sibling module, else to the parent's own file).
    let file = |p: &str, t: &str| (PathBuf::from(p), t.to_string());
    let bin = [
        file(
            "main.rs",
            "mod args;\nmod solve;\nfn main() { solve::run(); }\n",
        ),
        file("args.rs", "use crate::solve::print_answer;\n"),
        file(
            "solve.rs",
            "use crate::args::OutputFormat; // crate::nothing\n",
        ),
    ];
    let found = cycles(&bin_graph(&bin));
    assert!(
        found.iter().any(|c| c.starts_with("args -> solve")),
        "{found:?}"
    );
    let bin = [
        file("main.rs", "mod bench;\n"),
        file(
            "bench/mod.rs",
            "mod hard;\npub fn cancel() {}\nuse hard::run;\n",
        ),
        file("bench/hard.rs", "pub fn run() { super::cancel() }\n"),
        file("bench/csv.rs", "use super::hard::Row;\n"),
    ];
    let edges = bin_graph(&bin);
    assert!(edges["bench/csv"].contains_key("bench/hard"), "{edges:?}");
    assert!(edges["bench/hard"].contains_key("bench"), "{edges:?}");
    assert!(cycles(&edges).is_empty(), "{edges:?}");

    // A folder module: the old `hard.rs` <-> `runs_csv.rs` loop, and one through mod.rs.
    let bench = [
        file("mod.rs", "pub mod hard;\npub mod runs_csv;\n"),
        file("hard.rs", "use super::runs_csv::Log;\n"),
        file("runs_csv.rs", "use super::hard::{Config, RunResult};\n"),
    ];
    assert!(!cycles(&folder_graph("bench", &bench)).is_empty());
    let bench = [
        file(
            "mod.rs",
            "pub mod types;\npub use types::Config;\npub struct Settings;\n",
        ),
        file("types.rs", "use crate::bench::Settings;\n"),
    ];
    let found = cycles(&folder_graph("bench", &bench));
    assert!(
        found
            .iter()
            .any(|c| c.starts_with("mod -> types (mod.rs), types -> mod")),
        "{found:?}"
    );
}

/// The module path of a library file (`src/solve/run.rs` -> `[solve, run]`, `src/solve/mod.rs`
/// -> `[solve]`).
fn mod_path(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|l| l == "mod" || l == "lib") {
        parts.pop();
    }
    parts
}

/// The deepest file that exists for a module path (`a/b.rs` or `a/b/mod.rs`).
fn file_of(src: &Path, parts: &[String]) -> Option<PathBuf> {
    (1..=parts.len()).rev().find_map(|k| {
        let base = parts[..k].iter().fold(src.to_path_buf(), |p, x| p.join(x));
        [base.with_extension("rs"), base.join("mod.rs")]
            .into_iter()
            .find(|f| f.is_file())
    })
}

/// Every `crate::`, `super::` and `self::` path in `text`, as its parts (the prefix first), with
/// one level of `{...}` groups expanded.
fn paths_in(text: &str) -> Vec<Vec<String>> {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = Vec::new();
    for prefix in ["crate::", "super::", "self::"] {
        for (i, _) in text.match_indices(prefix) {
            if text[..i]
                .chars()
                .next_back()
                .is_some_and(|c| ident(c) || c == ':')
            {
                continue;
            }
            let mut parts = vec![prefix.trim_end_matches("::").to_string()];
            let mut rest = &text[i + prefix.len()..];
            loop {
                if let Some(group) = rest.strip_prefix('{') {
                    let Some(end) = group.find('}') else { break };
                    if group[..end].contains('{') {
                        break;
                    }
                    for item in group[..end]
                        .split(',')
                        .map(str::trim)
                        .filter(|s| !s.is_empty())
                    {
                        let mut full = parts.clone();
                        full.extend(item.split("::").map(|s| s.trim().to_string()));
                        out.push(full);
                    }
                    parts.clear();
                    break;
                }
                let len = rest.find(|c: char| !ident(c)).unwrap_or(rest.len());
                if len == 0 {
                    break;
                }
                parts.push(rest[..len].to_string());
                match rest[len..].strip_prefix("::") {
                    Some(more) => rest = more,
                    None => break,
                }
            }
            if parts.len() > 1 {
                out.push(parts);
            }
        }
    }
    out
}

/// The graph of the library's files (the binary left out; it has its own graph): an edge
/// from a file to the deepest file of each `crate::` / `super::` / `self::` path it names. A
/// module's own file that names a child it declares (`mod x;`) is structure, not a use.
fn library_file_edges() -> Edges {
    let src = src();
    let mut files = Vec::new();
    rust_files(&src, true, &mut files);
    let mut edges = Edges::new();
    for file in &files {
        let text = code(&std::fs::read_to_string(file).unwrap());
        let me = mod_path(&src, file);
        let rel = |f: &Path| f.strip_prefix(&src).unwrap().display().to_string();
        for parts in paths_in(&text) {
            let target: Vec<String> = match parts[0].as_str() {
                "crate" => parts[1..].to_vec(),
                "super" => me[..me.len().saturating_sub(1)]
                    .iter()
                    .chain(&parts[1..])
                    .cloned()
                    .collect(),
                _ => me.iter().chain(&parts[1..]).cloned().collect(),
            };
            let Some(to) = file_of(&src, &target) else {
                continue;
            };
            if to == *file {
                continue;
            }
            let to_path = mod_path(&src, &to);
            let declared_child = to_path.len() > me.len()
                && to_path.starts_with(&me)
                && text.contains(&format!("mod {}", to_path.last().unwrap()));
            if !declared_child {
                add(&mut edges, &rel(file), &rel(&to), file);
            }
        }
    }
    edges
}

/// No two library files import each other, directly or through others (finer than the
/// top-level graph above: `solve/engine.rs` and `solve/external.rs` are one module there).
#[test]
fn library_files_import_in_one_direction() {
    let edges = library_file_edges();
    // A few edges the scan must see.
    for (from, to) in [
        ("solve/registry.rs", "solve/external.rs"),
        ("solve/bitboard/run.rs", "work.rs"),
        ("solve/cubes.rs", "solve/traits.rs"),
    ] {
        assert!(
            edges.get(from).is_some_and(|m| m.contains_key(to)),
            "{from} -> {to} not seen"
        );
    }
    let cycles = cycles(&edges);
    assert!(
        cycles.is_empty(),
        "file-level import cycles:\n{}",
        cycles.join("\n")
    );
}

/// The trust boundary (docs/design.md): the checker crate `queens-sat-check` (check/) does not
/// depend on `queens-sat`, so no checker can import the search or the encoder whose output it
/// checks (Cargo enforces it; this documents it), and its code names no `queens_sat` path. The
/// library depends on the checkers, never the reverse.
#[test]
fn the_checker_crate_cannot_import_the_search() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("check/Cargo.toml")).unwrap();
    assert!(
        manifest.contains("name = \"queens-sat-check\""),
        "{manifest}"
    );
    // Every dependency table of the checker's manifest (normal, dev, build, per target).
    let mut in_deps = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_deps = line.trim_matches(['[', ']']).ends_with("dependencies");
            continue;
        }
        if in_deps && !line.starts_with('#') {
            assert!(
                !line.starts_with("queens-sat") && !line.contains("path = \"..\""),
                "check/Cargo.toml depends on the library: {line}"
            );
        }
    }
    let mut files = Vec::new();
    rust_files(&root.join("check/src"), false, &mut files);
    assert!(files.len() >= 8, "{files:?}");
    for file in &files {
        let text = code(&std::fs::read_to_string(file).unwrap());
        assert!(
            !text.contains("queens_sat::") && !text.contains("extern crate queens_sat"),
            "{} names the library",
            file.display()
        );
    }
    // The library takes its checkers from the crate.
    let lib = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    assert!(
        lib.contains("queens-sat-check = { path = \"check\""),
        "{lib}"
    );
}
