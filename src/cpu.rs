//! Which build of the bit-parallel kernels runs: the one run-time CPU-feature dispatch of the
//! library.
//!
//! The two hot searches, the bitboard first-solution search ([`crate::solve::bitboard`]) and the
//! counting kernel ([`crate::count::fast`]), are each compiled twice: a baseline build for any
//! processor and one with [`BMI2_FEATURES`] (`#[target_feature(enable = ...)]` with exactly that
//! list; a unit test checks both files). [`Isa::current`] says which one to run: detected once
//! per process and cached, or forced to the baseline build by the environment variable
//! [`ISA_ENV`]`=baseline` (read once, at the first call). Tests run both builds side by side
//! through the kernels' `*_with(.., isa)` entry points.

use std::sync::OnceLock;

/// The target features of the fast build of every kernel (the union of what each kernel uses:
/// `popcnt` and `lzcnt` for counting bits, BMI1 and BMI2 for `tzcnt`, `blsr`, `pdep` and
/// shifts by a register).
pub const BMI2_FEATURES: &str = "popcnt,bmi1,bmi2,lzcnt";

/// The environment variable that forces the baseline build: `QUEENS_SAT_ISA=baseline` (any other
/// value, or none, runs the best build the processor has). Read once per process.
pub const ISA_ENV: &str = "QUEENS_SAT_ISA";

/// A build of the kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Isa {
    /// Plain Rust for the target's baseline: runs on every processor.
    Baseline,
    /// Compiled with [`BMI2_FEATURES`] (x86-64 only).
    Bmi2,
}

impl Isa {
    /// The best build this processor runs, ignoring [`ISA_ENV`].
    pub fn native() -> Isa {
        static NATIVE: OnceLock<Isa> = OnceLock::new();
        *NATIVE.get_or_init(|| {
            #[cfg(target_arch = "x86_64")]
            {
                if std::arch::is_x86_feature_detected!("popcnt")
                    && std::arch::is_x86_feature_detected!("bmi1")
                    && std::arch::is_x86_feature_detected!("bmi2")
                    && std::arch::is_x86_feature_detected!("lzcnt")
                {
                    return Isa::Bmi2;
                }
            }
            Isa::Baseline
        })
    }

    /// The build the kernels run: [`Isa::native`], or [`Isa::Baseline`] when [`ISA_ENV`] is
    /// `baseline` (decided at the first call, then cached).
    pub fn current() -> Isa {
        static CURRENT: OnceLock<Isa> = OnceLock::new();
        *CURRENT.get_or_init(|| match std::env::var(ISA_ENV) {
            Ok(v) if v.trim().eq_ignore_ascii_case("baseline") => Isa::Baseline,
            _ => Isa::native(),
        })
    }

    /// `self` if this processor can run it, else [`Isa::Baseline`]: what a kernel asked to run
    /// build `self` runs (so asking for [`Isa::Bmi2`] is always safe).
    pub fn usable(self) -> Isa {
        match self {
            Isa::Bmi2 if Isa::native() == Isa::Bmi2 => Isa::Bmi2,
            _ => Isa::Baseline,
        }
    }

    /// Every build this processor runs (the baseline first).
    pub fn all_usable() -> Vec<Isa> {
        let mut all = vec![Isa::Baseline];
        if Isa::native() == Isa::Bmi2 {
            all.push(Isa::Bmi2);
        }
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kernel's fast build is compiled with exactly [`BMI2_FEATURES`] (helpers inside it
    /// may enable a subset), so running it after [`Isa::native`] said `Bmi2` is sound.
    #[test]
    fn kernels_enable_the_dispatched_features() {
        let wanted: Vec<&str> = BMI2_FEATURES.split(',').collect();
        for (file, text) in [
            ("solve/bitboard.rs", include_str!("solve/bitboard.rs")),
            ("count/fast.rs", include_str!("count/fast.rs")),
        ] {
            let mut full_builds = 0;
            for piece in text.split("target_feature(enable = \"").skip(1) {
                let list = &piece[..piece.find('"').expect("a closing quote")];
                let features: Vec<&str> = list.split(',').collect();
                assert!(
                    features.iter().all(|f| wanted.contains(f)),
                    "{file}: {list} is not within {BMI2_FEATURES}"
                );
                full_builds += usize::from(list == BMI2_FEATURES);
            }
            assert!(full_builds >= 1, "{file}: no build with {BMI2_FEATURES}");
        }
    }

    #[test]
    fn usable_never_exceeds_the_processor() {
        assert_eq!(Isa::Baseline.usable(), Isa::Baseline);
        assert_eq!(Isa::Bmi2.usable(), Isa::native());
        assert!(Isa::all_usable().contains(&Isa::current()));
    }
}
