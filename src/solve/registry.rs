//! The engine registry: the lookups over the table of in-process engines (`super::ENGINES`,
//! one `engines!` line per engine in `solve/mod.rs`), and `--solver NAME` turned into an
//! engine ([`Backend::from_name`]: a row of the table, else an external program). Apart from
//! the interface ([`super::engine`]), so that the interface imports nothing that implements
//! it.

use super::ENGINES;
use super::engine::{Backend, Capabilities, Engine};
use super::external::{EMPTY, ExternalSolver, NOT_ON_PATH};
use crate::error::{Error, Opt, Result, Wrong};

/// The row of `ENGINES` named `name`, if it is an in-process engine.
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
pub(crate) fn built_in() -> String {
    let mut all = vec!["auto"];
    all.extend(names());
    all.join(", ")
}

/// The names of the rows whose capabilities pass `cap`, joined for an error message.
pub(crate) fn names_with(cap: impl Fn(&Capabilities) -> bool) -> String {
    let names: Vec<String> = ENGINES
        .iter()
        .map(|e| e.info())
        .filter(|i| cap(&i.caps))
        .map(|i| i.name.into_owned())
        .collect();
    names.join(", ")
}

/// The `--solver` help text: the default strategy, every row, and external programs.
#[cfg_attr(not(feature = "front"), visibility::make(pub(crate)), allow(dead_code))]
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
    /// The engine a `--solver` name stands for: a row of `ENGINES`, else an external DIMACS
    /// solver on PATH or a path to one.
    ///
    /// A name that is empty or found nowhere on PATH is an [`Opt::Solver`] error listing the
    /// built-in solvers (`built_in`).
    pub fn from_name(name: &str) -> Result<Backend> {
        if let Some(e) = find(name) {
            return Ok(Backend::row(e));
        }
        ExternalSolver::new(name)
            .map(Backend::new)
            .map_err(|e| match e {
                Error::Option(mut bad) if bad.option == Opt::Solver => {
                    let listed = match &bad.wrong {
                        Wrong::Invalid(w) if w == EMPTY => Some(format!(
                            "is empty: give a built-in solver ({}) or an external solver's \
                             name or path",
                            built_in()
                        )),
                        Wrong::Invalid(w) if w == NOT_ON_PATH => Some(format!(
                            "is neither a built-in solver ({}) nor a program on PATH",
                            built_in()
                        )),
                        _ => None,
                    };
                    if let Some(w) = listed {
                        bad.wrong = Wrong::Invalid(w);
                    }
                    Error::Option(bad)
                }
                other => other,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Naming;

    #[test]
    fn an_unknown_or_empty_solver_lists_the_built_in_ones() {
        let message = |name: &str| match Backend::from_name(name) {
            Err(Error::Option(b)) => b.message(Naming::Argument),
            other => panic!("{:?}", other.map(|b| b.name())),
        };
        let all = built_in();
        assert!(
            all.starts_with("auto, varisat, ") && all.contains("bitboard"),
            "{all}"
        );
        assert_eq!(
            message("no-such-solver-xyzzy"),
            format!(
                "solver='no-such-solver-xyzzy' is neither a built-in solver ({all}) nor a program on PATH"
            )
        );
        assert!(message("").starts_with(&format!(
            "solver='' is empty: give a built-in solver ({all})"
        )));
        assert!(message("./no/such").ends_with("does not exist"));
    }
}
