//! The library's top-level modules import each other in one direction: a `crate::X` path in
//! module A (comments and `mod tests` blocks left out, as in ../shared/tools/module-cycles.py) is
//! an edge A -> X, and no module may reach itself along the edges. The binary under `src/bin/`
//! is not part of the graph (it may import anything; the library never imports it).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

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

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "bin") {
                rust_files(&path, out);
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

fn edges() -> BTreeMap<String, BTreeMap<String, PathBuf>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut edges: BTreeMap<String, BTreeMap<String, PathBuf>> = BTreeMap::new();
    for file in files {
        if file.file_name().is_some_and(|n| n == "lib.rs") {
            continue;
        }
        let me = top(&src, &file);
        let text = code(&std::fs::read_to_string(&file).unwrap());
        for (i, _) in text.match_indices("crate::") {
            let name: String = text[i + 7..]
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
                .collect();
            if !name.is_empty() && name != me {
                edges
                    .entry(me.clone())
                    .or_default()
                    .entry(name)
                    .or_insert_with(|| file.clone());
            }
        }
    }
    edges
}

/// A path from `from` back to itself along `edges`, if there is one.
fn cycle_through(
    from: &str,
    edges: &BTreeMap<String, BTreeMap<String, PathBuf>>,
) -> Option<Vec<String>> {
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

#[test]
fn library_modules_import_in_one_direction() {
    let edges = edges();
    assert!(
        edges.len() > 10,
        "the scan found too few modules: {:?}",
        edges.keys()
    );
    let cycles: Vec<String> = edges
        .keys()
        .filter_map(|m| cycle_through(m, &edges))
        .map(|c| {
            let hops: Vec<String> = c
                .windows(2)
                .map(|w| format!("{} -> {} ({})", w[0], w[1], edges[&w[0]][&w[1]].display()))
                .collect();
            hops.join(", ")
        })
        .collect();
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

#[test]
fn the_check_sees_a_cycle() {
    let mut edges = edges();
    // A back edge from the leaf `answer` to `solve` (which imports it) closes a loop.
    edges
        .entry("answer".into())
        .or_default()
        .insert("solve".into(), PathBuf::from("made up"));
    assert!(cycle_through("answer", &edges).is_some());
}
