#![no_main]
//! Fuzz target: the param instance reader must answer any input with Ok or a one-line error.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Err(e) = queens_sat::instance::parse_param("fuzz", &text) {
        assert!(!e.to_string().contains('\n'));
    }
});
