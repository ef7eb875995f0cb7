//! The proof checkers of queens-sat: the trust boundary.
//!
//! An UNSAT answer under `--certify` is accepted only when a checker of this crate (or
//! varisat's own self-checking) has checked its refutation. The checkers read a formula handed
//! to them (clauses, pseudo-Boolean constraints, an OPB text) and the proof's steps, nothing
//! else: this crate does not depend on `queens-sat`, so it cannot import the search that
//! writes the proofs or the encoder that builds the formulas. Cargo enforces the boundary; the
//! writers depend on this crate, never the reverse (tests/it/module_graph.rs checks the
//! manifest).
//!
//! - [`lrat`]: LRAT (RUP with hints), the bitboard search's clausal proofs and presolve's
//!   refutations;
//! - [`pbcheck`]: a streaming checker of a VeriPB 3.0 subset (cutting planes), split by job
//!   into arithmetic, propagation, the lexer and parser, the text checker and the structured
//!   API;
//! - [`drat`]: text DRAT from external solvers, replayed with `dratify`;
//! - [`vocab`]: constraint IDs, literals and `pol` operands, shared by the VeriPB writer, its
//!   batch codec and [`pbcheck`].
//!
//! A proof that does not check is [`Error::Rejected`], told apart from unreadable input.

pub mod drat;
pub mod error;
pub mod ids;
pub mod lrat;
pub mod pbcheck;
pub mod vocab;

pub use error::{Error, Format, Result};

/// What a successful check established.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    /// Who checked the refutation.
    pub checker: String,
    /// Proof steps checked (0 when not counted).
    pub steps: u64,
}
