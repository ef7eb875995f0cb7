//! Test-only: `#[requires(cadical, minisat)]` marks a test `#[ignore]` when one of the named
//! external programs was not on `PATH` when this crate was built (see build.rs), so the test
//! harness reports it as *ignored*, never as passed. Under `CI=true` nothing is marked: the
//! test runs and a missing program fails it (its body calls `require_solver`, which panics).
//!
//! Why a crate of its own: a test can only be reported ignored from an attribute fixed at build
//! time, and a build script's cfgs reach only its own package. Were the probe the library's
//! build script, every change of `PATH` (activating a virtual environment) would rebuild the
//! whole library, and every crate that depends on it would run the probe. As a dev-dependency
//! it is built for the tests alone; `cargo build` never runs it.
//!
//! ```ignore
//! #[test]
//! #[test_programs::requires(cadical, minisat)]
//! fn external_solvers_take_compressed_cnfs() { /* ... */ }
//! ```

use proc_macro::{Delimiter, Group, Ident, Punct, Spacing, Span, TokenStream, TokenTree};

/// The programs not found on `PATH` by build.rs, empty under `CI=true`.
const MISSING: &str = env!("TEST_PROGRAMS_MISSING");

/// The programs build.rs probes; naming any other is a compile error.
const KNOWN: &str = env!("TEST_PROGRAMS_KNOWN");

/// `#[requires(NAME, ...)]` on a test: adds `#[ignore = "NAME is not on PATH ..."]` when any of
/// the named programs is missing (one attribute for all of them: two `ignore`s on one test are
/// an unused-attribute warning). Each NAME is one of the programs build.rs probes.
#[proc_macro_attribute]
pub fn requires(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut names = Vec::new();
    for tree in attr {
        match tree {
            TokenTree::Ident(i) => {
                let name = i.to_string();
                if !KNOWN.split(',').any(|k| k == name) {
                    return error(
                        i.span(),
                        &format!("unknown program `{name}` (build.rs probes {KNOWN})"),
                    );
                }
                names.push(name);
            }
            TokenTree::Punct(p) if p.as_char() == ',' => {}
            other => {
                return error(
                    other.span(),
                    "expected program names separated by commas, e.g. `requires(cadical, minisat)`",
                );
            }
        }
    }
    if names.is_empty() {
        return error(Span::call_site(), "name at least one program");
    }
    let missing: Vec<&str> = names
        .iter()
        .map(String::as_str)
        .filter(|n| MISSING.split(',').any(|m| m == *n))
        .collect();
    if missing.is_empty() {
        return item;
    }
    let reason = format!(
        "{} not on PATH (tests/programs/build.rs probed it; touch that file after installing)",
        match missing.as_slice() {
            [one] => format!("{one} is"),
            more => format!("{} are", more.join(", ")),
        }
    );
    let attr: TokenStream = format!("#[ignore = {reason:?}]")
        .parse()
        .expect("an ignore attribute parses");
    attr.into_iter().chain(item).collect()
}

/// `compile_error!(message)` at `span`.
fn error(span: Span, message: &str) -> TokenStream {
    let mut lit = proc_macro::Literal::string(message);
    lit.set_span(span);
    let mut bang = Punct::new('!', Spacing::Alone);
    bang.set_span(span);
    let mut group = Group::new(Delimiter::Parenthesis, TokenTree::Literal(lit).into());
    group.set_span(span);
    [
        TokenTree::Ident(Ident::new("compile_error", span)),
        TokenTree::Punct(bang),
        TokenTree::Group(group),
        TokenTree::Punct(Punct::new(';', Spacing::Alone)),
    ]
    .into_iter()
    .collect()
}
