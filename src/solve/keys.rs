//! Sets of diagonal keys as bits, for the bitboard search's diagonal-sum bounds
//! ([`super::bitboard`]): one word ([`u64`]) holds the keys of a board up to 32 (sum keys
//! `r + c` and difference keys `c - r + n - 1` below `2n - 1 <= 63`), two words ([`u128`])
//! those of a board up to 64. The search is generic over [`Keys`], so both widths run the
//! same code.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Shl, Shr};

/// A set of keys, bit `i` for key `i`: what the sum bounds need of it.
pub trait Keys:
    Copy
    + Eq
    + std::fmt::Debug
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// The empty set.
    const ZERO: Self;
    /// The set of key 0 alone.
    const ONE: Self;
    /// The even keys.
    const EVEN: Self;
    /// How many keys the set can hold.
    const BITS: u32;

    /// A row's column mask `m` as keys (column `c` as key `c`).
    fn of_row(m: u64) -> Self;
    /// A row's column mask `m` (columns below 64) as keys, column `c` as key `c + s`
    /// (`s < 64`; the keys must fit the set).
    fn shifted(m: u64, s: u32) -> Self;
    /// How many keys the set holds.
    fn count_ones(self) -> u32;
    /// The lowest key (`BITS` for the empty set).
    fn trailing_zeros(self) -> u32;
    /// `BITS - 1` minus the highest key (`BITS` for the empty set).
    fn leading_zeros(self) -> u32;
    /// Whether the set holds key 0.
    fn has_zero(self) -> bool;
    /// The set of its lowest key alone (empty for the empty set).
    fn lowest(self) -> Self;
    /// The set without its lowest key.
    fn without_lowest(self) -> Self;
    /// The sum of its keys.
    fn key_sum(self) -> u32;
    /// The set moved down to key 0 when it then fits one word: the word, and how far it moved
    /// (the empty set: `(0, 0)`).
    fn narrow(self) -> Option<(u64, u32)>;
    /// Its `j` lowest keys (`j` at most its size), each word's by `low` (the `j` lowest set
    /// bits of a word: [`low_bits_plain`] or [`low_bits_bmi2`]).
    fn low_bits(self, j: u32, low: impl Fn(u64, u32) -> u64) -> Self;

    /// Whether boards of side `n` have every key in the set (`2n - 1` keys of each kind).
    #[cfg(test)]
    fn fits(n: u32) -> bool {
        2 * n < Self::BITS + 2
    }
}

/// The methods of [`Keys`] that are the integer type's own.
macro_rules! same_on_every_width {
    ($t:ty) => {
        #[inline(always)]
        fn count_ones(self) -> u32 {
            <$t>::count_ones(self)
        }
        #[inline(always)]
        fn trailing_zeros(self) -> u32 {
            <$t>::trailing_zeros(self)
        }
        #[inline(always)]
        fn leading_zeros(self) -> u32 {
            <$t>::leading_zeros(self)
        }
        #[inline(always)]
        fn has_zero(self) -> bool {
            self & 1 != 0
        }
        #[inline(always)]
        fn lowest(self) -> Self {
            self & self.wrapping_neg()
        }
        #[inline(always)]
        fn without_lowest(self) -> Self {
            self & self.wrapping_sub(1)
        }
    };
}

impl Keys for u64 {
    const ZERO: Self = 0;
    const ONE: Self = 1;
    const EVEN: Self = 0x5555_5555_5555_5555;
    const BITS: u32 = 64;

    #[inline(always)]
    fn of_row(m: u64) -> Self {
        m
    }
    #[inline(always)]
    fn shifted(m: u64, s: u32) -> Self {
        m << s
    }
    same_on_every_width!(u64);
    #[inline(always)]
    fn key_sum(self) -> u32 {
        key_sum(self)
    }
    #[inline(always)]
    fn narrow(self) -> Option<(u64, u32)> {
        Some((self, 0))
    }
    #[inline(always)]
    fn low_bits(self, j: u32, low: impl Fn(u64, u32) -> u64) -> Self {
        low(self, j)
    }
}

impl Keys for u128 {
    const ZERO: Self = 0;
    const ONE: Self = 1;
    const EVEN: Self = 0x5555_5555_5555_5555_5555_5555_5555_5555;
    const BITS: u32 = 128;

    #[inline(always)]
    fn of_row(m: u64) -> Self {
        u128::from(m)
    }
    #[inline(always)]
    fn shifted(m: u64, s: u32) -> Self {
        // Shifts below 64 on each word (a u128 shift also handles 64 and more, with branches).
        u128::from(m << s) | u128::from((m >> 1) >> (63 - s)) << 64
    }
    same_on_every_width!(u128);
    #[inline(always)]
    fn key_sum(self) -> u32 {
        let (lo, hi) = (self as u64, (self >> 64) as u64);
        key_sum(lo) + key_sum(hi) + 64 * hi.count_ones()
    }
    #[inline(always)]
    fn narrow(self) -> Option<(u64, u32)> {
        if self == 0 {
            return Some((0, 0));
        }
        let off = self.trailing_zeros();
        let low = self >> off;
        (low >> 64 == 0).then_some((low as u64, off))
    }
    #[inline(always)]
    fn low_bits(self, j: u32, low: impl Fn(u64, u32) -> u64) -> Self {
        let lo = self as u64;
        let p = lo.count_ones();
        if j <= p {
            u128::from(low(lo, j))
        } else {
            u128::from(lo) | u128::from(low((self >> 64) as u64, j - p)) << 64
        }
    }
}

/// The sum of the indices of the set bits of `x`, bit plane by bit plane.
#[inline(always)]
pub fn key_sum(x: u64) -> u32 {
    const PLANES: [u64; 6] = [
        0xAAAA_AAAA_AAAA_AAAA,
        0xCCCC_CCCC_CCCC_CCCC,
        0xF0F0_F0F0_F0F0_F0F0,
        0xFF00_FF00_FF00_FF00,
        0xFFFF_0000_FFFF_0000,
        0xFFFF_FFFF_0000_0000,
    ];
    let mut sum = 0;
    for (j, plane) in PLANES.iter().enumerate() {
        sum += (x & plane).count_ones() << j;
    }
    sum
}

/// The `j` lowest set bits of `x` (`j` at most its population), with `pdep`.
///
/// # Safety
/// The processor must have `bmi2` (a caller built with it calls it safely).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
#[inline]
pub fn low_bits_bmi2(x: u64, j: u32) -> u64 {
    if j >= 64 {
        return x;
    }
    // The j-th set bit (0-based), or 0 when x has exactly j.
    let at = core::arch::x86_64::_pdep_u64(1 << j, x);
    x & at.wrapping_sub(1)
}

/// The `j` lowest set bits of `x` (`j` at most its population), one bit at a time.
#[inline(always)]
pub fn low_bits_plain(x: u64, j: u32) -> u64 {
    let mut rest = x;
    for _ in 0..j {
        rest &= rest - 1;
    }
    x ^ rest
}

/// The cross-kind parity ([`super::bitboard::Tuning::parity`]): whether `k` pieces can take
/// distinct sum keys of `anti` adding up to `target` (only its parity counts here) and
/// distinct difference keys of `main` (`c - r + n - 1`), when a piece's two keys have one
/// parity up to `n - 1`.
#[inline(always)]
pub fn parity_ok<K: Keys>(anti: K, main: K, n: u32, k: u32, target: u32) -> bool {
    // A piece on an even sum key has a difference key of the parity of n - 1.
    let same = if (n - 1).is_multiple_of(2) {
        K::EVEN
    } else {
        !K::EVEN
    };
    let even = (anti & K::EVEN)
        .count_ones()
        .min((main & same).count_ones());
    let odd = (anti & !K::EVEN)
        .count_ones()
        .min((main & !same).count_ones());
    // The pieces on odd sum keys: at least k - even, at most odd, of the target's parity.
    let least = k.saturating_sub(even);
    let least = least + ((least ^ target) & 1);
    least <= odd.min(k)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prng::Prng;

    /// The keys of a two-word set, in order.
    fn keys(x: u128) -> Vec<u32> {
        (0..128).filter(|&i| x >> i & 1 == 1).collect()
    }

    /// Two-word sets against the list of their keys: size, ends, sum, the `j` lowest keys
    /// (both builds of the word kernel), on sets of every density across both words.
    #[test]
    fn two_words_agree_with_the_key_list() {
        let mut rng = Prng::new(0x0DDB_1A5E_5BAD_5EED);
        let mut next = || rng.next_u64();
        #[cfg(target_arch = "x86_64")]
        let fast = crate::cpu::Isa::native().has_bmi2();
        for round in 0..500u32 {
            let mut x = u128::from(next()) | u128::from(next()) << 64;
            if round % 3 == 0 {
                x &= u128::from(next()) | u128::from(next()) << 64;
            }
            x >>= round % 128;
            if round == 1 {
                x = u128::MAX;
            }
            let all = keys(x);
            let m = x as u64;
            for s in [0, 1, 31, 63] {
                assert_eq!(
                    <u128 as Keys>::shifted(m, s),
                    u128::from(m) << s,
                    "{m:#x} {s}"
                );
            }
            assert_eq!(Keys::count_ones(x), all.len() as u32);
            assert_eq!(Keys::key_sum(x), all.iter().sum::<u32>(), "{x:#x}");
            assert_eq!(Keys::trailing_zeros(x), all.first().copied().unwrap_or(128));
            assert_eq!(Keys::leading_zeros(x), all.last().map_or(128, |&t| 127 - t));
            assert_eq!(
                keys(Keys::lowest(x)),
                all.first().copied().into_iter().collect::<Vec<_>>()
            );
            assert_eq!(
                keys(Keys::without_lowest(x)),
                all.iter().skip(1).copied().collect::<Vec<_>>()
            );
            let narrow = x.narrow().map(|(w, off)| (keys(u128::from(w)), off));
            let want = match all.first() {
                None => Some((vec![], 0)),
                Some(&lo) => (all[all.len() - 1] - lo < 64)
                    .then(|| (all.iter().map(|&i| i - lo).collect(), lo)),
            };
            assert_eq!(narrow, want, "{x:#x}");
            for j in 0..=all.len() as u32 {
                let want = &all[..j as usize];
                assert_eq!(keys(x.low_bits(j, low_bits_plain)), want, "{x:#x} {j}");
                #[cfg(target_arch = "x86_64")]
                if fast {
                    // SAFETY: the processor has bmi2.
                    let got = x.low_bits(j, |w, j| unsafe { low_bits_bmi2(w, j) });
                    assert_eq!(keys(got), want, "{x:#x} {j}");
                }
            }
        }
    }

    /// One word and two words agree on the parity of every set that fits one word, and
    /// `fits` is exact: 2n - 1 keys.
    #[test]
    fn parity_and_fits_agree_across_widths() {
        let mut rng = Prng::new(0x2545_F491_4F6C_DD1D);
        let mut next = || rng.next_u64();
        for round in 0..600u32 {
            let n = 1 + round % 32;
            let mask = u64::MAX >> (65 - 2 * n);
            let (anti, main) = (next() & mask, next() & mask);
            for k in 0..=n {
                for target in [0, 1, 7] {
                    assert_eq!(
                        parity_ok(anti, main, n, k, target),
                        parity_ok(u128::from(anti), u128::from(main), n, k, target)
                    );
                }
            }
        }
        assert!(<u64 as Keys>::fits(32) && !<u64 as Keys>::fits(33));
        assert!(<u128 as Keys>::fits(64) && !<u128 as Keys>::fits(65));
    }
}
