//! The `veripb` crate as a test oracle: checks a VeriPB proof of an OPB file in process.
//!
//! A dev-dependency (issue 55): the binary never checks a proof with it (the certified search
//! checks its own proofs with `certify::pbcheck`), so the default build does not compile its
//! 60-odd crates. `tests/it` and the examples `veripb_spike` and `pbcheck_speed` include this
//! file with `#[path]`.

use std::path::Path;
use std::time::Instant;

/// What [`check`] established.
#[derive(Clone, Debug, PartialEq)]
pub struct VeripbVerdict {
    /// Whether the proof's conclusion is `UNSAT` (the checker accepted it).
    pub unsat: bool,
    /// Seconds the check took.
    pub seconds: f64,
}

/// Checks the VeriPB proof `proof` of the OPB file `opb` with the `veripb` crate (its default
/// checked deletion, which matters only for original constraints: the proofs delete derived
/// ones only). An error, whose text contains "does not check", when the proof does not check;
/// `unsat` when it checked and concludes `UNSAT` (a proof may also conclude nothing).
pub fn check(opb: &Path, proof: &Path) -> Result<VeripbVerdict, String> {
    let t = Instant::now();
    let args = veripb::args::Args {
        formula: opb.to_path_buf(),
        derivation: proof.to_path_buf(),
        opb: true,
        print_verification_result: false,
        show_warnings: false,
        ..Default::default()
    };
    veripb::run_checker(args).map_err(|e| {
        format!(
            "VeriPB proof {} of {} does not check: {}",
            proof.display(),
            opb.display(),
            format!("{e:#}").lines().next().unwrap_or("")
        )
    })?;
    let text = std::fs::read(proof).map_err(|e| format!("{}: {e}", proof.display()))?;
    let tail = &text[text.len().saturating_sub(256)..];
    let unsat = String::from_utf8_lossy(tail)
        .lines()
        .any(|l| l.trim_start().starts_with("conclusion UNSAT"));
    Ok(VeripbVerdict {
        unsat,
        seconds: t.elapsed().as_secs_f64(),
    })
}
