//! The engine registry: the lookups over the table of in-process engines ([`super::ENGINES`],
//! one `engines!` line per engine in `solve/mod.rs`), and `--solver NAME` turned into an
//! engine ([`Backend::from_name`]: a row of the table, else an external program). Apart from
//! the interface ([`super::engine`]), so that the interface imports nothing that implements
//! it.

use super::ENGINES;
use super::engine::{Backend, Capabilities, Engine};
use super::external::ExternalSolver;
use crate::error::Result;

/// The row of [`ENGINES`] named `name`, if it is an in-process engine.
pub fn find(name: &str) -> Option<&'static dyn Engine> {
    ENGINES.iter().copied().find(|e| e.info().name == name)
}

/// The names of the in-process engines, in the table's order.
pub fn names() -> Vec<&'static str> {
    ENGINES
        .iter()
        .map(|e| match e.info().name {
            std::borrow::Cow::Borrowed(name) => name,
            std::borrow::Cow::Owned(_) => unreachable!("a table row's name is a literal"),
        })
        .collect()
}

/// Every built-in `--solver` name, joined for an error message: `auto` (the default strategy),
/// then the in-process engines in the table's order.
pub fn built_in() -> String {
    let mut all = vec!["auto"];
    all.extend(names());
    all.join(", ")
}

/// The names of the rows whose capabilities pass `cap`, joined for an error message.
pub fn names_with(cap: impl Fn(&Capabilities) -> bool) -> String {
    let names: Vec<String> = ENGINES
        .iter()
        .map(|e| e.info())
        .filter(|i| cap(&i.caps))
        .map(|i| i.name.into_owned())
        .collect();
    names.join(", ")
}

/// The `--solver` help text: the default strategy, every row, and external programs.
pub fn help() -> String {
    let rows: Vec<String> = ENGINES
        .iter()
        .map(|e| {
            let i = e.info();
            format!("`{}` ({})", i.name, i.about)
        })
        .collect();
    format!(
        "Solver: `auto` (the default strategy: local search, then cube-and-conquer on the \
         linked CaDiCaL for small boards, varisat and lib:cadical raced for large ones), {}, \
         or an external DIMACS solver name or path; a comma-separated list races a \
         portfolio, each entry optionally with its own `--amo`",
        rows.join(", ")
    )
}

impl Backend {
    /// The engine a `--solver` name stands for: a row of [`ENGINES`], else an external DIMACS
    /// solver on PATH or a path to one.
    pub fn from_name(name: &str) -> Result<Backend> {
        match find(name) {
            Some(e) => Ok(Backend::row(e)),
            None => Ok(Backend::new(ExternalSolver::new(name)?)),
        }
    }
}
