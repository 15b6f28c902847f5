//! The 64-bit hash of a tuple of `u32` words that every table of tuples
//! or state vectors probes from (the hash table's buckets and memo, the
//! index tables of collapse components and tree nodes, the concurrent
//! hash table).
//!
//! Pairs (every tree node) and single words take one round of a 64-bit
//! mixer (murmur3's fmix64). Wider tuples are read 16 bytes at a time
//! into one multiply-fold chain (the 128-bit product's halves xored, as
//! wyhash and foldhash do), finished by the mixer. Instructions a call
//! (callgrind, against xxh3 over the same bytes): 161 for 308 at 71 words
//! (Promela `sokoban.1`, whose 284 bytes took xxh3's long path), 116 for
//! 258 at 44 words, 84-90 for 93 at 25-29 words, 62-68 for 53 at 14-16.
//! The tables compare the tuples they find, so the hash decides only how
//! far a probe goes, never a count.
//!
//! It owns only the hash; it must not know tables, states or models.

/// 64-bit constants (digits of pi, as foldhash takes them), xored in.
const SEED: [u64; 3] = [
    0x243f_6a88_85a3_08d3,
    0x1319_8a2e_0370_7344,
    0xa409_3822_299f_31d0,
];

/// The hash of `words`, whose top bits a table takes as its home bucket.
#[inline]
pub(crate) fn hash_words(words: &[u32]) -> u64 {
    match *words {
        [a, b] => mix64(pair(a, b)),
        [a] => mix64(a as u64),
        _ => fold_chain(words),
    }
}

/// Two words as one 64-bit value.
#[inline(always)]
fn pair(low: u32, high: u32) -> u64 {
    low as u64 | (high as u64) << 32
}

/// The 128-bit product of `a` and `b`, its halves xored.
#[inline(always)]
fn fold(a: u64, b: u64) -> u64 {
    let p = (a as u128).wrapping_mul(b as u128);
    p as u64 ^ (p >> 64) as u64
}

/// Four words per fold, each fold taking the chain so far, then the 0..3
/// words left (the length seeds the chain, so trailing zero words count).
#[inline]
fn fold_chain(words: &[u32]) -> u64 {
    let mut h = SEED[0] ^ words.len() as u64;
    let mut quads = words.chunks_exact(4);
    for q in &mut quads {
        h = fold(pair(q[0], q[1]) ^ SEED[1], pair(q[2], q[3]) ^ h);
    }
    let (a, b) = match *quads.remainder() {
        [x, y, z] => (pair(x, y), z as u64),
        [x, y] => (pair(x, y), 0),
        [x] => (x as u64, 0),
        _ => (0, 0),
    };
    mix64(fold(a ^ SEED[2], b ^ h))
}

/// A 64-bit finaliser (murmur3's fmix64): a bijection with good avalanche,
/// enough for the home bucket taken from its top bits.
#[inline]
pub(crate) fn mix64(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^= x >> 33;
    x
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// Every vector of `k` words over `0..values`, as a BFS front-end
    /// produces them (small values, most words alike).
    fn vectors(k: usize, values: u32) -> Vec<Vec<u32>> {
        let mut all = vec![vec![0u32; k]];
        for slot in 0..k {
            let mut next = Vec::new();
            for v in &all {
                for x in 0..values {
                    let mut w = v.clone();
                    w[slot] = x;
                    next.push(w);
                }
            }
            all = next;
        }
        all
    }

    #[test]
    fn distinct_small_vectors_get_distinct_hashes_and_spread_homes() {
        for k in [3, 4, 5, 7, 8, 9] {
            let all = vectors(k, if k <= 5 { 8 } else { 4 });
            let hashes: HashSet<u64> = all.iter().map(|v| hash_words(v)).collect();
            assert_eq!(hashes.len(), all.len(), "k = {k}: a 64-bit collision");
            // The top 8 bits (a table's home bucket): every bucket within
            // half and twice its share (at least 64, so a uniform hash is
            // over 4 standard deviations inside).
            let mut homes = vec![0usize; 1 << 8];
            for h in &hashes {
                homes[(h >> 56) as usize] += 1;
            }
            let share = all.len() / homes.len();
            if share >= 64 {
                let spread = |&n: &usize| share / 2 <= n && n <= 2 * share;
                assert!(homes.iter().all(spread), "k = {k}: {homes:?}");
            }
        }
    }

    #[test]
    fn the_length_counts_and_pairs_are_mixed() {
        assert_ne!(hash_words(&[0, 0, 0]), hash_words(&[0, 0, 0, 0]));
        assert_ne!(hash_words(&[1, 2, 3, 4, 0]), hash_words(&[1, 2, 3, 4]));
        assert_eq!(hash_words(&[5, 7]), mix64(7 << 32 | 5));
        assert_ne!(hash_words(&[5, 7]), hash_words(&[7, 5]));
    }
}
