//! The engine table is the one list of in-process solvers: the README's solver list and the
//! Python `solve` docstring's list name exactly its engines (and `auto`), so neither can drift
//! from the table when an engine is added.

use std::collections::BTreeSet;

fn table() -> BTreeSet<String> {
    let mut names: BTreeSet<String> = queens_sat::solve::names()
        .into_iter()
        .map(String::from)
        .collect();
    names.insert("auto".into());
    names
}

/// The names in backquotes at the start of the list items of the README's solver section.
#[test]
fn the_readme_lists_every_engine() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let section = readme
        .split("## Solvers (`solve --solver`)")
        .nth(1)
        .expect("the README's solver section")
        .split("\n## ")
        .next()
        .unwrap();
    let listed: BTreeSet<String> = section
        .lines()
        .filter_map(|l| l.strip_prefix("- `"))
        .filter_map(|l| l.split_once('`'))
        .map(|(name, _)| name.to_string())
        .collect();
    assert_eq!(listed, table());
}

/// The names in double backquotes of the `solver` sentence of `queens_sat.solve`'s docstring.
#[test]
fn the_python_docstring_lists_every_engine() {
    let init = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/python/queens_sat/__init__.py"
    ))
    .unwrap();
    let sentence = init
        .split("``solver`` is any ``--solver`` spec:")
        .nth(1)
        .expect("the solver sentence of solve's docstring")
        .split("an external solver")
        .next()
        .unwrap();
    let listed: BTreeSet<String> = sentence
        .split("``")
        .skip(1)
        .step_by(2)
        .map(String::from)
        .collect();
    assert_eq!(listed, table());
}

/// Issue 63: the README promises what is checked: a SAT board always, an UNSAT only under
/// `--certify` (an external solver's UNSAT is its word), not "never a wrong answer".
#[test]
fn the_readme_says_what_certify_adds() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    assert!(!readme.contains("never a wrong answer"));
    let item = readme
        .split("- **Hostile solvers and inputs**")
        .nth(1)
        .expect("the README's hostile-solvers item");
    let item = &item[..item.find("\n- ").unwrap_or(item.len())];
    assert!(item.contains("`--certify` checks its refutation"), "{item}");
    assert!(item.contains("always verified"), "{item}");
}
