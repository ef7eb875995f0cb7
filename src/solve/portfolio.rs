//! Portfolios: entries ([`Entrant`]) parsed from `--solver` (`varisat,cadical`,
//! `"varisat --amo product,varisat --amo pairwise"`), each an engine with its own encoding.

use crate::encode::EncodeOptions;
use crate::encode::amo::AmoKind;
use crate::error::{BadOption, Opt, Result};
use crate::solve::engine::Backend;

/// One entry of a portfolio: a backend with its own encoding.
#[derive(Clone, Debug)]
pub struct Entrant {
    /// How this entrant encodes.
    pub options: EncodeOptions,
    /// Who solves.
    pub backend: Backend,
}

impl Entrant {
    /// "varisat --amo product" style label.
    pub fn label(&self) -> String {
        format!("{} --amo {}", self.backend.name(), self.options.amo)
    }
}

/// Parses `--solver`: one backend, or a comma-separated portfolio whose entries may carry their
/// own `--amo`, e.g. `varisat,cadical` or `varisat --amo product,varisat --amo pairwise`.
/// Entries without `--amo` use `options`.
///
/// ```
/// use queens_sat::{encode::{EncodeOptions, amo::AmoKind}, solve::parse_portfolio};
/// let p = parse_portfolio("varisat,varisat --amo pairwise", EncodeOptions::from(AmoKind::DEFAULT)).unwrap();
/// assert_eq!(p[1].label(), "varisat --amo pairwise");
/// ```
pub fn parse_portfolio(solver: &str, options: EncodeOptions) -> Result<Vec<Entrant>> {
    if solver.trim().is_empty() {
        // The lookup words the empty name, with the built-in names.
        Backend::from_name(solver)?;
    }
    solver
        .split(',')
        .map(|entry| {
            let words: Vec<&str> = entry.split_whitespace().collect();
            let (name, amo) = match words.as_slice() {
                [name] => (*name, None),
                [name, "--amo", amo] => (*name, Some(AmoKind::parse(amo)?)),
                _ => {
                    return Err(BadOption::invalid(
                        Opt::Solver,
                        solver.trim(),
                        match entry.trim() {
                            "" => "has an empty entry".to_string(),
                            e => format!(
                                "has an entry '{e}' that is not a solver name, alone or with \
                                 its own encoding"
                            ),
                        },
                    ));
                }
            };
            Ok(Entrant {
                options: EncodeOptions {
                    amo: amo.unwrap_or(options.amo),
                    ..options
                },
                backend: Backend::from_name(name)?,
            })
        })
        .collect()
}
