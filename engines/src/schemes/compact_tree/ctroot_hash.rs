//! The root table's **layered** hash: a bijection on `K`-bit keys that
//! stays put when `K` grows, so that an adaptive root key can widen in
//! place (every entry keeps its bucket; its remainder gains low zero bits)
//! instead of re-hashing into a second table.
//!
//! Keys below 2^`base` (the key width the table started with) hash as
//! [`mix`] on `base` bits, shifted to the top of the `K` bits. A key whose
//! highest set bit is `j ≥ base` (a *layer*: the bit the `j`-th widening
//! added) hashes as `mix` on its `j` lower bits, followed by a 1 and
//! `K − 1 − j` zeros. So `layered(x, K + 1) = layered(x, K) << 1` for every
//! `x < 2^K`: with the quotient the top `m` bits, widening keeps every
//! quotient and doubling keeps every hash. Layers below the quotient width
//! (`j < m`) spread their keys one per bucket over buckets of their own
//! (the marker bit sits in the quotient); layers at or above it are as
//! random as `mix` is. With `base = K` it is `mix` itself (a fixed key).
//!
//! It owns only the hash and its inverse; it must not know tables, trees
//! or how a key is laid out.

use crate::schemes::compact_tree::cleary::{mix, unmix};

/// The layered hash of `key` (below 2^`key_bits`) for a table whose keys
/// started with `base` bits (1 ≤ `base` ≤ `key_bits` ≤ 64).
#[inline]
pub fn layered(key: u64, key_bits: u32, base: u32) -> u64 {
    debug_assert!(1 <= base && base <= key_bits && key_bits <= 64);
    if key.checked_shr(base).unwrap_or(0) == 0 {
        return mix(key, base) << (key_bits - base);
    }
    let j = 63 - key.leading_zeros();
    ((mix(key ^ 1 << j, j) << 1) | 1) << (key_bits - 1 - j)
}

/// The inverse of [`layered`]: `unlayered(layered(x, K, b), K, b) == x`.
pub fn unlayered(h: u64, key_bits: u32, base: u32) -> u64 {
    let zeros = h.trailing_zeros();
    if zeros >= key_bits - base {
        return unmix(h >> (key_bits - base), base);
    }
    let j = key_bits - 1 - zeros;
    unmix(h >> (zeros + 1), j) | 1 << j
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schemes::compact_tree::cleary::low_mask;
    use std::collections::HashSet;

    #[test]
    fn layered_is_a_bijection_and_unlayered_inverts_it() {
        for (key_bits, base) in [(6u32, 6u32), (8, 3), (10, 1), (12, 7)] {
            let n = 1u64 << key_bits;
            let images: HashSet<u64> = (0..n).map(|x| layered(x, key_bits, base)).collect();
            assert_eq!(images.len() as u64, n, "K {key_bits} base {base}");
            assert!(images.iter().all(|&h| h < n));
            for x in 0..n {
                assert_eq!(unlayered(layered(x, key_bits, base), key_bits, base), x);
            }
        }
        let mut x = 0x0123_4567_89ab_cdefu64;
        for (key_bits, base) in [(40u32, 16u32), (64, 16), (64, 64), (33, 32)] {
            for _ in 0..10_000 {
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let k = (x & low_mask(key_bits)) >> (x % key_bits as u64);
                let h = layered(k, key_bits, base);
                assert_eq!(h & !low_mask(key_bits), 0);
                assert_eq!(unlayered(h, key_bits, base), k, "K {key_bits}");
            }
        }
    }

    #[test]
    fn widening_shifts_every_hash_and_a_full_base_is_mix() {
        for x in 0..1u64 << 12 {
            for key_bits in 12..20 {
                assert_eq!(layered(x, key_bits + 1, 8), layered(x, key_bits, 8) << 1);
            }
            assert_eq!(layered(x, 12, 12), mix(x, 12));
        }
    }

    #[test]
    fn layers_below_the_quotient_take_one_bucket_each() {
        // K = 20, m = 14: keys of up to 13 bits (base 8) all land in
        // distinct quotients.
        let quotients: HashSet<u64> = (0..1u64 << 13).map(|x| layered(x, 20, 8) >> 6).collect();
        assert_eq!(quotients.len(), 1 << 13);
    }
}
