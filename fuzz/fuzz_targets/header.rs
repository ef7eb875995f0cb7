#![no_main]
//! Fuzz target: the DIMACS header reader used by `decode`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = queens_sat::export::header::read_header("fuzz", data) {
        assert!(!e.to_string().contains('\n'));
    }
});
