//! The Cleary tables' bucket counts, which need not be powers of two
//! ([`Buckets`]: n = c·2^j with 4 ≤ c < 8), and how a hashed key splits
//! into its home bucket and its remainder among n buckets ([`Split`]).
//!
//! For a `K`-bit hash h the home is Lemire's multiply-shift
//! ⌊h·n / 2^K⌋, taken on the top `j + s0` bits of h, where `s0` =
//! min(K − j, [`FRAC_BITS`]) is fixed when the array is built: with
//! h = a·2^s + b (s = K − j, b < 2^s) and x = ⌊b / 2^(s − s0)⌋, the home
//! is a·c + t with t = ⌊x·c / 2^s0⌋, and the remainder is
//! b − B_t·2^(s − s0) where B_t = ⌈t·2^s0 / c⌉ is the first x of
//! sub-bucket t. So a look-up takes two multiplications by the small c
//! and a table read, no division; a home and a remainder give the hash
//! back (`join`, one division by c: growth and enumeration only).
//!
//! Homes are monotone in the hash (Cleary's order invariants hold), and a
//! remainder takes ⌈log2 max_t(B_(t+1) − B_t)⌉ + s − s0 = `K − ⌊log2 n⌋`
//! bits (`K − m` for n = 2^m, where the split is today's: quotient = top
//! m bits, remainder = the rest). Because `s0` and the B_t stay fixed when
//! the keys widen by d bits (h → h·2^d, s → s + d), every home stays put
//! and every remainder r becomes r·2^d: keys widen in place
//! (`ctroot_resize`) exactly as at powers of two. Freezing `s0` costs at
//! most a relative 2^−16·c imbalance between the sub-buckets of a home
//! (none when `K − j ≤ 16`, where the split is Lemire's exactly).
//!
//! It owns only the arithmetic of sizes and splits; it must not know
//! bucket arrays, loads or budgets.

/// log2 of the smallest scale c (n = c·2^j, c in [2^SCALE_BITS,
/// 2^(SCALE_BITS + 1))): a fine growth step is n·(c + 1)/c, from a
/// quarter (c = 4) to a seventh (c = 7).
pub(crate) const SCALE_BITS: u32 = 2;

/// Largest `s0`: bits of the hash below the quotient bits that choose
/// the sub-bucket of a home.
const FRAC_BITS: u32 = 16;

/// Largest scale, exclusive.
const SCALE_END: u64 = 2 << SCALE_BITS;

/// A bucket count n = `scale`·2^`shift` in its unique form: `scale` in
/// [2^SCALE_BITS, 2^(SCALE_BITS + 1)) when n ≥ 2^SCALE_BITS, else
/// `scale` = n and `shift` = 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Buckets {
    shift: u32,
    scale: u64,
}

impl Buckets {
    /// 2^`log2` buckets.
    pub fn pow2(log2: u32) -> Self {
        let s = log2.min(SCALE_BITS);
        Buckets {
            shift: log2 - s,
            scale: 1 << s,
        }
    }

    /// `scale`·2^`shift` buckets (any scale ≥ 1), in the unique form.
    pub fn new(scale: u64, shift: u32) -> Self {
        let mut b = Buckets { shift, scale };
        while b.scale >= SCALE_END {
            debug_assert_eq!(b.scale % 2, 0, "scale {scale} not in normal form");
            b = Buckets {
                shift: b.shift + 1,
                scale: b.scale / 2,
            };
        }
        while b.scale < SCALE_END / 2 && b.shift > 0 {
            b = Buckets {
                shift: b.shift - 1,
                scale: b.scale * 2,
            };
        }
        b
    }

    /// The bucket count n.
    #[inline]
    pub fn count(self) -> usize {
        (self.scale as usize) << self.shift
    }

    /// ⌊log2 n⌋.
    pub fn log2(self) -> u32 {
        self.shift + 63 - self.scale.leading_zeros()
    }

    /// The next size of fine growth: n·(c + 1)/c (to 2^SCALE_BITS·2^(j+1)
    /// after the largest scale).
    pub fn finer(self) -> Self {
        Buckets::new(self.scale + 1, self.shift)
    }

    /// Twice as many buckets.
    pub fn doubled(self) -> Self {
        Buckets::new(self.scale, self.shift + 1)
    }
}

/// How a `K`-bit hash splits into home and remainder among a [`Buckets`]
/// count; see the module documentation.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Split {
    pub(crate) buckets: Buckets,
    n: usize,
    scale: u64,
    /// s = K − j: the hash bits below the top j (1..=64).
    low_bits: u32,
    low_mask: u64,
    /// s0, fixed when the array is built.
    frac_bits: u32,
    /// s − s0.
    frac_shift: u32,
    /// B_t·2^(s − s0) for t < c: where sub-bucket t of a home starts.
    starts: [u64; SCALE_END as usize],
    /// Bits of a remainder.
    pub(crate) rem_bits: u32,
    /// 2^rem_bits − 1.
    rem_mask: u64,
    /// n is a power of two: the home is the top bits, the remainder the
    /// rest (the same split, by a shorter way).
    pow2: bool,
}

/// Bits needed to write `x` (0 for 0).
fn bits(x: u64) -> u32 {
    64 - x.leading_zeros()
}

impl Split {
    /// The split of `key_bits`-bit hashes among `buckets` (at most
    /// 2^`key_bits` of them).
    pub(crate) fn new(key_bits: u32, buckets: Buckets) -> Self {
        assert!(
            buckets.log2() <= key_bits && buckets.shift <= key_bits,
            "{buckets:?} buckets for {key_bits}-bit keys"
        );
        let low_bits = key_bits - buckets.shift;
        assert!(low_bits > 0, "{buckets:?} buckets for {key_bits}-bit keys");
        let frac_bits = low_bits.min(FRAC_BITS);
        let mut split = Split {
            buckets,
            n: buckets.count(),
            scale: buckets.scale,
            low_bits,
            low_mask: low_mask(low_bits),
            frac_bits,
            frac_shift: low_bits - frac_bits,
            starts: [0; SCALE_END as usize],
            rem_bits: 0,
            rem_mask: 0,
            pow2: false,
        };
        split.set_starts();
        split
    }

    /// B_t = ⌈t·2^s0 / c⌉ (t ≤ c).
    fn sub_start(&self, t: u64) -> u64 {
        (t << self.frac_bits).div_ceil(self.scale)
    }

    /// Fills `starts` and `rem_bits` from `scale`, `frac_bits` and
    /// `frac_shift`.
    fn set_starts(&mut self) {
        let mut widest = 0;
        for t in 0..self.scale {
            self.starts[t as usize] = self.sub_start(t) << self.frac_shift;
            widest = widest.max(self.sub_start(t + 1) - self.sub_start(t));
        }
        assert!(widest > 0, "more homes than hashes");
        self.rem_bits = bits(widest - 1) + self.frac_shift;
        self.rem_mask = low_mask(self.rem_bits);
        self.pow2 = self.scale.is_power_of_two() && self.rem_bits < 64;
    }

    /// The same split for hashes `extra` bits wider whose values are the
    /// old ones times 2^`extra`: homes unchanged, remainders times
    /// 2^`extra`.
    pub(crate) fn widened(&self, extra: u32) -> Self {
        let mut split = Split {
            low_bits: self.low_bits + extra,
            low_mask: low_mask(self.low_bits + extra),
            frac_shift: self.frac_shift + extra,
            ..*self
        };
        split.set_starts();
        debug_assert_eq!(split.rem_bits, self.rem_bits + extra);
        split
    }

    /// The bucket count n.
    #[inline]
    pub(crate) fn count(&self) -> usize {
        self.n
    }

    /// The home bucket and the remainder of the hash `h`.
    #[inline]
    pub(crate) fn split(&self, h: u64) -> (usize, u64) {
        if self.pow2 {
            return ((h >> self.rem_bits) as usize, h & self.rem_mask);
        }
        let a = (h >> 1) >> (self.low_bits - 1); // s may be 64
        let b = h & self.low_mask;
        let t = ((b >> self.frac_shift) * self.scale) >> self.frac_bits;
        let start = self.starts[t as usize % SCALE_END as usize];
        ((a * self.scale + t) as usize, b - start)
    }

    /// The hash whose home is `home` and remainder `rem`.
    #[inline]
    pub(crate) fn join(&self, home: usize, rem: u64) -> u64 {
        let (a, t) = (home as u64 / self.scale, home as u64 % self.scale);
        ((a << 1) << (self.low_bits - 1)) | (self.starts[t as usize] + rem)
    }

    /// Bucket `p + 1`, wrapping.
    #[inline]
    pub(crate) fn next(&self, p: usize) -> usize {
        if p + 1 == self.n {
            0
        } else {
            p + 1
        }
    }

    /// Bucket `p − 1`, wrapping.
    #[inline]
    pub(crate) fn prev(&self, p: usize) -> usize {
        if p == 0 {
            self.n - 1
        } else {
            p - 1
        }
    }

    /// The bucket of position `p` < 2n (positions past the end wrap).
    #[inline]
    pub(crate) fn wrap(&self, p: usize) -> usize {
        debug_assert!(p < 2 * self.n);
        if p >= self.n {
            p - self.n
        } else {
            p
        }
    }
}

/// 2^`bits` − 1 (all ones for 64).
fn low_mask(bits: u32) -> u64 {
    1u64.checked_shl(bits).map_or(u64::MAX, |x| x - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn sizes_have_one_form_and_fine_steps_pass_every_power_of_two() {
        assert_eq!(Buckets::pow2(10), Buckets::new(4, 8));
        assert_eq!(Buckets::pow2(10), Buckets::new(1, 10));
        assert_eq!(Buckets::pow2(1).count(), 2);
        let mut b = Buckets::pow2(6);
        let mut seen = Vec::new();
        while b.count() <= 1 << 9 {
            seen.push(b.count());
            b = b.finer();
        }
        assert_eq!(
            seen,
            [64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384, 448, 512]
        );
        assert_eq!(Buckets::new(7, 5).log2(), 7);
        assert_eq!(Buckets::new(5, 3).doubled().count(), 80);
    }

    #[test]
    fn powers_of_two_split_into_top_bits_and_the_rest() {
        for (key_bits, log2) in [(12u32, 4u32), (40, 20), (64, 30), (20, 20), (5, 1)] {
            let s = Split::new(key_bits, Buckets::pow2(log2));
            assert_eq!(s.rem_bits, key_bits - log2);
            for h in [0, 1, 0x9e37_79b9_7f4a_7c15, u64::MAX] {
                let h = h & low_mask(key_bits);
                let home = (h.checked_shr(key_bits - log2).unwrap_or(0)) as usize;
                assert_eq!(s.split(h), (home, h & low_mask(key_bits - log2)));
            }
        }
    }

    /// Every hash of a small universe: homes monotone and Lemire's,
    /// remainders within their bits, `join` inverts `split`.
    #[test]
    fn small_universes_split_exactly() {
        for key_bits in 2..=12u32 {
            let mut b = Buckets::pow2(1);
            while b.count() <= 1 << key_bits {
                let s = Split::new(key_bits, b);
                assert!(s.rem_bits <= key_bits - b.log2(), "{b:?}");
                let mut last = 0;
                for h in 0..1u64 << key_bits {
                    let (home, r) = s.split(h);
                    assert_eq!(home as u64, (h * b.count() as u64) >> key_bits, "{b:?}");
                    assert!(home >= last && r >> s.rem_bits == 0);
                    assert_eq!(s.join(home, r), h);
                    last = home;
                }
                b = b.finer();
            }
        }
    }

    proptest! {
        #[test]
        fn join_inverts_split_and_widening_keeps_homes(
            key_bits in 20u32..=60,
            scale in 4u64..8,
            shift in 0u32..14,
            extra in 1u32..4,
            raw in any::<u64>(),
        ) {
            let b = Buckets::new(scale, shift);
            let s = Split::new(key_bits, b);
            let h = raw & low_mask(key_bits);
            let (home, r) = s.split(h);
            prop_assert!(home < b.count() && r >> s.rem_bits == 0);
            prop_assert_eq!(s.rem_bits, key_bits - b.log2());
            prop_assert_eq!(s.join(home, r), h);
            let w = s.widened(extra);
            prop_assert_eq!(w.split(h << extra), (home, r << extra));
        }
    }
}
