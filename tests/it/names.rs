//! Default output names of `encode` (issue 53 §1): unique per formula and deterministic. Every
//! option that shapes the formula, alone and in pairs, on an excluded-diagonals instance: two
//! commands that write different formulas (by GBD hash) never get one name, and a command run
//! twice gets the same name.

use std::collections::BTreeMap;
use std::path::Path;

use crate::common::run;

/// The options that change the formula `encode` writes (each with its value).
const OPTIONS: [&[&str]; 9] = [
    &["--diags", "2"],
    &["--diags", "3"],
    &["--no-presolve"],
    &["--break-symmetry", "lex"],
    &["--implied", "sums"],
    &["--amo", "sequential"],
    &["--symmetric", "r180"],
    &["--piece", "amazon"],
    &["--to", "opb"],
];

/// Runs `encode` with `args` in `dir` (no `-o`): the file it wrote and its GBD hash (SHA-256 of
/// the bytes for a non-CNF format, which has no GBD hash), or `None` when the combination is
/// refused.
fn written(dir: &Path, args: &[&str]) -> Option<(String, String)> {
    let r = run(dir, args);
    if r.code != 0 {
        assert_eq!(r.code, 1, "{args:?}: {}", r.stderr);
        assert!(
            r.stderr.contains("cannot be used"),
            "{args:?}: {}",
            r.stderr
        );
        return None;
    }
    let line = r
        .stderr
        .lines()
        .find_map(|l| l.strip_prefix("wrote "))
        .unwrap_or_else(|| panic!("{args:?}: {}", r.stderr));
    let file = line.split(" (").next().unwrap().to_string();
    let path = dir.join(&file);
    let hash = match file.ends_with(".cnf") {
        true => queens_sat::export::gbd::gbdhash_file(&path).unwrap(),
        // The header names the instance and options, so the body alone is compared.
        false => {
            let text = std::fs::read_to_string(&path).unwrap();
            let body: Vec<&str> = text.lines().filter(|l| !l.starts_with('*')).collect();
            format!("{:x}", md5_of(&body.join("\n")))
        }
    };
    std::fs::remove_file(&path).unwrap();
    Some((file, hash))
}

fn md5_of(text: &str) -> u128 {
    use md5::{Digest, Md5};
    u128::from_be_bytes(Md5::digest(text.as_bytes()).into())
}

#[test]
fn different_formulas_never_share_a_default_name() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Two instance files with one stem in two folders, and different diagonals.
    for (sub, diags) in [
        ("a", "[[3,1],[9,0],[5,1],[2,0]]"),
        ("b", "[[4,1],[9,0],[6,1],[2,0]]"),
    ] {
        std::fs::create_dir_all(d.join(sub)).unwrap();
        std::fs::write(
            d.join(sub).join("d.txt"),
            format!("n = 8\nnumdiags = 4\ndiags = {diags}\n"),
        )
        .unwrap();
    }
    let mut names: BTreeMap<String, (String, Vec<String>)> = BTreeMap::new();
    let mut record = |args: Vec<&str>| {
        let Some((file, hash)) = written(d, &args) else {
            return;
        };
        // Deterministic: the same command, the same name.
        assert_eq!(written(d, &args).unwrap().0, file, "{args:?}");
        let cmd: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        if let Some((other, by)) = names.get(&file) {
            assert_eq!(
                other, &hash,
                "{file}: written for {by:?} and, with another formula, for {cmd:?}"
            );
        } else {
            names.insert(file, (hash, cmd));
        }
    };
    for inst in ["a/d.txt", "b/d.txt"] {
        let base = ["encode", "--instance", inst];
        record(base.to_vec());
        for (i, x) in OPTIONS.iter().enumerate() {
            record([&base[..], x].concat());
            // Pairs of two different options (one option twice is clap's usage error).
            for y in OPTIONS[i + 1..].iter().filter(|y| y[0] != x[0]) {
                record([&base[..], x, y].concat());
            }
        }
    }
    // A plain board keeps its short name.
    record(vec!["encode", "-n", "8"]);
    assert!(names.contains_key("cnf-out/queen-8-auto.cnf"), "{names:?}");
    assert!(names.len() > 60, "{} names", names.len());
}
