#![no_main]
//! Fuzz target: the solver-output parser (SAT-competition and minisat conventions).
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = queens_sat::export::output::parse_output_bytes("fuzz", data, 64) {
        assert!(!e.to_string().contains('\n'));
    }
});
