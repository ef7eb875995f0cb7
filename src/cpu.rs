//! Which build of the bit-parallel kernels runs: the one run-time CPU-feature dispatch of the
//! library.
//!
//! The two hot searches, the bitboard first-solution search (`crate::solve::bitboard`) and the
//! counting kernel (`crate::count::fast`), are each compiled twice: a baseline build for any
//! processor and one with [`BMI2_FEATURES`] (`#[target_feature(enable = ...)]` with exactly that
//! list; a unit test checks both files). The counting kernel has three more builds, several
//! searches in the vector lanes (`crate::count::lanes`): four 64-bit lanes with AVX2
//! ([`AVX2_FEATURES`], popcounts by table), and eight in AVX-512 with VPOPCNTDQ
//! ([`AVX512_FEATURES`]) and without it ([`AVX512BW_FEATURES`]). [`Isa::current`]
//! says which one to run: detected once per process and cached, or capped by the environment
//! variable [`ISA_ENV`] (`baseline`, `bmi2`, `avx2` or `avx512bw`, read once, at the first
//! call). Tests run every build side by side through the kernels' `*_with(.., isa)` entry
//! points.

// The front ends' vocabulary (feature `front`): without it, what only they use is unused.
#![cfg_attr(not(feature = "front"), allow(dead_code))]

use std::sync::OnceLock;

/// The target features of the fast build of every kernel (the union of what each kernel uses:
/// `popcnt` and `lzcnt` for counting bits, BMI1 and BMI2 for `tzcnt`, `blsr`, `pdep` and
/// shifts by a register).
pub const BMI2_FEATURES: &str = "popcnt,bmi1,bmi2,lzcnt";

/// The target features of the AVX2 build (the counting lanes in four 64-bit lanes, for
/// processors without AVX-512): [`BMI2_FEATURES`] and AVX2.
pub const AVX2_FEATURES: &str = "popcnt,bmi1,bmi2,lzcnt,avx2";

/// The target features of the AVX-512 build (the queens counting lanes): [`BMI2_FEATURES`] and
/// AVX-512 F, DQ (64-bit multiply) and VPOPCNTDQ (popcount per lane).
pub const AVX512_FEATURES: &str = "popcnt,bmi1,bmi2,lzcnt,avx512f,avx512dq,avx512vpopcntdq";

/// The target features of the AVX-512 build for processors without VPOPCNTDQ (Skylake-SP,
/// Cascade Lake): [`BMI2_FEATURES`] and AVX-512 F, DQ and BW (popcount per lane by a nibble
/// table, `vpshufb` and `vpsadbw`).
pub const AVX512BW_FEATURES: &str = "popcnt,bmi1,bmi2,lzcnt,avx512f,avx512dq,avx512bw";

/// The environment variable that caps the build: `QUEENS_SAT_ISA=baseline` forces the baseline
/// build, `QUEENS_SAT_ISA=bmi2` the BMI2 build (when the processor has it); any other value, or
/// none, runs the best build the processor has (`avx2` caps it at [`Isa::Avx2`], `avx512bw` at
/// [`Isa::Avx512Bw`]). Read once per process.
pub const ISA_ENV: &str = "QUEENS_SAT_ISA";

/// A build of the kernels, ordered: each build's processor runs every build before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Isa {
    /// Plain Rust for the target's baseline: runs on every processor.
    Baseline,
    /// Compiled with [`BMI2_FEATURES`] (x86-64 only).
    Bmi2,
    /// Compiled with [`AVX2_FEATURES`] (x86-64 only): the queens counting lanes in four 64-bit
    /// lanes, their popcounts by table; every other kernel (amazons' counting too) runs its
    /// [`Isa::Bmi2`] build.
    Avx2,
    /// Compiled with [`AVX512BW_FEATURES`] (x86-64 only): the queens counting lanes with their
    /// popcounts by table; every other kernel runs its [`Isa::Bmi2`] build.
    Avx512Bw,
    /// Compiled with [`AVX512_FEATURES`] (x86-64 only): the queens counting lanes; every other
    /// kernel runs its [`Isa::Bmi2`] build. (Its processors have AVX-512 BW too, so they run
    /// [`Isa::Avx512Bw`].)
    Avx512,
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
                    if !std::arch::is_x86_feature_detected!("avx2") {
                        return Isa::Bmi2;
                    }
                    if std::arch::is_x86_feature_detected!("avx512f")
                        && std::arch::is_x86_feature_detected!("avx512dq")
                        && std::arch::is_x86_feature_detected!("avx512bw")
                    {
                        if std::arch::is_x86_feature_detected!("avx512vpopcntdq") {
                            return Isa::Avx512;
                        }
                        return Isa::Avx512Bw;
                    }
                    return Isa::Avx2;
                }
            }
            Isa::Baseline
        })
    }

    /// The build the kernels run: [`Isa::native`], capped by [`ISA_ENV`] (`baseline`, `bmi2`,
    /// `avx2` or `avx512bw`; decided at the first call, then cached).
    pub fn current() -> Isa {
        static CURRENT: OnceLock<Isa> = OnceLock::new();
        *CURRENT.get_or_init(|| match std::env::var(ISA_ENV) {
            Ok(v) if v.trim().eq_ignore_ascii_case("baseline") => Isa::Baseline,
            Ok(v) if v.trim().eq_ignore_ascii_case("bmi2") => Isa::Bmi2.usable(),
            Ok(v) if v.trim().eq_ignore_ascii_case("avx2") => Isa::Avx2.usable(),
            Ok(v) if v.trim().eq_ignore_ascii_case("avx512bw") => Isa::Avx512Bw.usable(),
            _ => Isa::native(),
        })
    }

    /// The best build at most `self` that this processor runs: what a kernel asked to run build
    /// `self` runs (so asking for any build is always safe).
    pub fn usable(self) -> Isa {
        self.min(Isa::native())
    }

    /// Whether this build's kernels use [`BMI2_FEATURES`] (the BMI2, AVX2 and AVX-512 builds).
    pub fn has_bmi2(self) -> bool {
        self >= Isa::Bmi2
    }

    /// Every build this processor runs (the baseline first).
    pub fn all_usable() -> Vec<Isa> {
        [
            Isa::Baseline,
            Isa::Bmi2,
            Isa::Avx2,
            Isa::Avx512Bw,
            Isa::Avx512,
        ]
        .into_iter()
        .filter(|&isa| isa <= Isa::native())
        .collect()
    }
}

/// The environment variable Slurm sets to the CPUs of each task (`--cpus-per-task`).
pub const SLURM_CPUS_ENV: &str = "SLURM_CPUS_PER_TASK";

/// The cores this process may use, the default of every `--jobs`: the CPUs of its affinity mask
/// and cgroup quota (`std::thread::available_parallelism` reads both on Linux), and no more
/// than `SLURM_CPUS_PER_TASK` inside a Slurm job (a job step may see the whole node).
///
/// ```
/// assert!(queens_sat::cpu::cores() >= 1);
/// ```
pub fn cores() -> usize {
    let visible = std::thread::available_parallelism().map_or(1, |n| n.get());
    cores_within(visible, std::env::var(SLURM_CPUS_ENV).ok().as_deref())
}

/// [`cores`] for `visible` cores and the value of [`SLURM_CPUS_ENV`], if set: the smaller of the
/// two; a value that is not a positive number is ignored.
///
/// ```
/// use queens_sat::cpu::cores_within;
/// assert_eq!(cores_within(16, None), 16);
/// assert_eq!(cores_within(16, Some("4")), 4);
/// assert_eq!(cores_within(2, Some("8")), 2);
/// assert_eq!(cores_within(16, Some("0")), 16);
/// assert_eq!(cores_within(16, Some("four")), 16);
/// ```
pub fn cores_within(visible: usize, slurm: Option<&str>) -> usize {
    match slurm.and_then(|s| s.trim().parse::<usize>().ok()) {
        Some(k) if k > 0 => visible.min(k),
        _ => visible.max(1),
    }
}

/// The processor's model, as benchmark reports state the machine a time limit was measured on:
/// the first `model name` of `/proc/cpuinfo` (Linux), else the architecture's name
/// (`x86_64`, `aarch64`).
pub fn model_name() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| model_name_of(&text))
        .unwrap_or_else(|| std::env::consts::ARCH.to_string())
}

/// The first `model name` (x86) or `Model` / `Hardware` (ARM) value of a `/proc/cpuinfo` text,
/// its white space squeezed.
fn model_name_of(cpuinfo: &str) -> Option<String> {
    ["model name", "Model", "Hardware"].iter().find_map(|key| {
        cpuinfo.lines().find_map(|line| {
            let (k, v) = line.split_once(':')?;
            let v = v.split_whitespace().collect::<Vec<_>>().join(" ");
            (k.trim() == *key && !v.is_empty()).then_some(v)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_name_from_cpuinfo() {
        let text = "processor\t: 0\nmodel name\t: AMD  EPYC 7B13 64-Core Processor\nflags : x\n";
        assert_eq!(
            model_name_of(text).as_deref(),
            Some("AMD EPYC 7B13 64-Core Processor")
        );
        assert_eq!(model_name_of("processor : 0\n"), None);
        assert!(!model_name().is_empty());
    }

    /// Every kernel's fast build is compiled with exactly [`BMI2_FEATURES`] (helpers inside it
    /// may enable a subset), so running it after [`Isa::native`] said `Bmi2` is sound.
    #[test]
    fn kernels_enable_the_dispatched_features() {
        let wanted: Vec<&str> = BMI2_FEATURES.split(',').collect();
        for (file, text) in [
            (
                "solve/bitboard/kernel.rs",
                include_str!("solve/bitboard/kernel.rs"),
            ),
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

    /// The lanes kernel is compiled with exactly [`AVX512_FEATURES`], [`AVX512BW_FEATURES`] and
    /// [`AVX2_FEATURES`], which include [`BMI2_FEATURES`].
    #[test]
    fn lanes_enable_the_dispatched_features() {
        let text = include_str!("count/lanes.rs");
        let lists: Vec<&str> = text
            .split("target_feature(enable = \"")
            .skip(1)
            .map(|p| &p[..p.find('"').expect("a closing quote")])
            .collect();
        // Each function is compiled within one of the three dispatched lists, and each list has
        // a full build.
        let within = |list: &str, of: &str| list.split(',').all(|f| of.split(',').any(|g| g == f));
        let builds = [AVX512_FEATURES, AVX512BW_FEATURES, AVX2_FEATURES];
        for build in builds {
            assert!(lists.contains(&build), "{build}: {lists:?}");
            assert!(within(BMI2_FEATURES, build), "{build}");
        }
        for list in lists {
            assert!(builds.iter().any(|b| within(list, b)), "{list}");
        }
    }

    #[test]
    fn usable_never_exceeds_the_processor() {
        assert_eq!(Isa::Baseline.usable(), Isa::Baseline);
        assert_eq!(Isa::Bmi2.usable(), Isa::Bmi2.min(Isa::native()));
        assert_eq!(Isa::Avx512.usable(), Isa::native());
        assert!(Isa::all_usable().contains(&Isa::current()));
        assert_eq!(Isa::all_usable().last(), Some(&Isa::native()));
    }
}
