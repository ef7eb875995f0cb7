#![no_main]
//! Fuzz target: the exported formats' answer parsers used by `decode` (PB-competition output,
//! CBC's solution file, MiniZinc's output).
use libfuzzer_sys::fuzz_target;
use queens_sat::export::{lp, mzn, opb};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let map = queens_sat::varmap::VarMap::row_major(6);
    let errors = [
        opb::parse_output("fuzz", &text, 36).err(),
        lp::parse_cbc("fuzz", &text, &map).err(),
        mzn::parse_output("fuzz", &text, 6).err(),
    ];
    for e in errors.into_iter().flatten() {
        assert!(!e.to_string().contains('\n'));
    }
});
