//! A Cleary compact hash table (Cleary 1984, "Compact hash tables using
//! bidirectional linear probing"; the sequential core of van der Vegt and
//! Laarman's parallel version), used as the root table of `compact-tree`.
//!
//! A `K`-bit key is first mapped by an invertible hash [`mix`] (a bijection
//! on `K`-bit integers; a table made [`ClearyTable::with_hash_base`] uses
//! its layered form, `ctroot_hash`, so that its keys can widen in place).
//! Of the hashed key, the top `m` bits are the
//! **quotient** — the home bucket among 2^m — and the low `K − m` bits the
//! **remainder**, the only part stored (at a bucket count that is not a
//! power of two, the split of `ctroot_split`). Because the hash is a bijection,
//! quotient and remainder together determine the key: look-ups are exact,
//! never a false positive.
//!
//! Each bucket is one packed entry of exactly `K − m + 3` bits in a
//! `Vec<u64>` bit array: the remainder above Cleary's three administration
//! bits, **occupied** (the bucket holds an entry), **virgin** (some stored
//! key has this bucket as its quotient; a property of the bucket, it never
//! moves) and **change** (the entry is the first of its group). Invariants,
//! for every *cluster* (maximal circular run of occupied buckets):
//! the entries are sorted by (quotient in cluster order, remainder); the
//! entries of one quotient form a contiguous *group* whose first entry has
//! the change bit; every entry's home bucket lies in its cluster; so the
//! j-th virgin bit of a cluster belongs to its j-th group. A look-up scans
//! from the home bucket to the *nearer* empty bucket (bidirectional),
//! counting virgin and change bits on the way, which locates the group of
//! the quotient without reading any quotient; an insertion shifts the
//! entries between the insertion point and that empty bucket by one, towards
//! it. At least one bucket always stays empty, so clusters are well defined.
//!
//! Size: fixed 2^m buckets, or, when `max_log2_buckets > log2_buckets`, the
//! table grows (every key moves to the new array from its reconstructed
//! hash, the old array shrinking behind it: `ctroot_resize`), while the
//! memory budget allows, when the load passes `min(grow_load, max_load)`:
//! it doubles (m + 1, one remainder bit moves into the quotient), or, with
//! `fine_growth`, it grows by a quarter to a seventh (n = c·2^j buckets,
//! 4 ≤ c < 8, to (c + 1)·2^j; the home of a hash is then Lemire's
//! ⌊h·n / 2^K⌋ and its remainder takes `K − ⌊log2 n⌋` bits, see
//! `ctroot_split`), so that its load stays within 0.6..0.75 instead of
//! 0.375..0.75 (at about three times the re-insertions). At `max_load` of the largest
//! table (or when a bucket array at its maximal load cannot grow),
//! insertion returns [`TableFull`]; it never aborts.
//!
//! Accounting: `used` = entries × (K − ⌊log2 n⌋ + 3) bits; `alloc` = the
//! packed array, `ceil(n × (K − ⌊log2 n⌋ + 3) / 64)` words.
//!
//! The packed array and the look-up and insertion themselves are
//! `cleary_core`'s (shared with the concurrent table); this module owns
//! the sequential table around them (its size and re-keying; growth and
//! widening in place are `ctroot_resize`'s), the sizes both tables use,
//! and the bijection; it must not know states,
//! trees or models.

use crate::blocks::budget::Budget;
use crate::schemes::compact_tree::cleary_core::{self, Packed, Vacancy, Whole};
use crate::schemes::compact_tree::ctroot_hash::{layered, unlayered};
use crate::schemes::compact_tree::ctroot_split::{Buckets, Split};
use crate::visited::TableFull;

/// The three administration bits, below the remainder in every entry.
pub(crate) const OCCUPIED: u64 = 1;
pub(crate) const VIRGIN: u64 = 2;
pub(crate) const CHANGE: u64 = 4;
pub(crate) const ADMIN_BITS: u32 = 3;

/// Largest log2 of the bucket count.
pub const MAX_LOG2_BUCKETS: u32 = 40;

const MIX_C1: u64 = 0xff51_afd7_ed55_8ccd;
const MIX_C2: u64 = 0xc4ce_b9fe_1a85_ec53;
const MIX_C1_INV: u64 = mul_inverse(MIX_C1);
const MIX_C2_INV: u64 = mul_inverse(MIX_C2);

/// The inverse of an odd `a` modulo 2^64 (Newton's iteration).
const fn mul_inverse(a: u64) -> u64 {
    let mut x = a; // correct to 3 bits for odd a
    let mut i = 0;
    while i < 5 {
        x = x.wrapping_mul(2u64.wrapping_sub(a.wrapping_mul(x)));
        i += 1;
    }
    x
}

#[inline]
pub(crate) fn low_mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// The invertible hash: a bijection on `bits`-bit integers (1 ≤ bits ≤ 64),
/// three xor-shifts by `ceil(bits/2)` interleaved with two multiplications
/// by odd constants modulo 2^bits (murmur3's finaliser, narrowed). Each step
/// is invertible, see [`unmix`].
#[inline]
pub fn mix(mut x: u64, bits: u32) -> u64 {
    debug_assert!((1..=64).contains(&bits) && x & !low_mask(bits) == 0);
    let mask = low_mask(bits);
    let s = bits.div_ceil(2);
    x ^= x >> s;
    x = x.wrapping_mul(MIX_C1) & mask;
    x ^= x >> s;
    x = x.wrapping_mul(MIX_C2) & mask;
    x ^ (x >> s)
}

/// Inverse of `x ^= x >> s` on `bits`-bit integers.
fn unxorshift(y: u64, s: u32, bits: u32) -> u64 {
    let mut x = y;
    for _ in 0..bits.div_ceil(s) {
        x = y ^ (x >> s);
    }
    x
}

/// The inverse of [`mix`]: `unmix(mix(x, b), b) == x`.
pub fn unmix(mut x: u64, bits: u32) -> u64 {
    let mask = low_mask(bits);
    let s = bits.div_ceil(2);
    x = unxorshift(x, s, bits);
    x = x.wrapping_mul(MIX_C2_INV) & mask;
    x = unxorshift(x, s, bits);
    x = x.wrapping_mul(MIX_C1_INV) & mask;
    unxorshift(x, s, bits)
}

/// Shape of a Cleary table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClearyConfig {
    /// Bits of a key, `K` (1..=64).
    pub key_bits: u32,
    /// log2 of the initial bucket count, `m` (1..=min(K, 40), and
    /// K − m + 3 ≤ 64).
    pub log2_buckets: u32,
    /// log2 of the largest bucket count the table may grow to (equal to
    /// `log2_buckets` for a fixed-size table; at most min(K, 40)).
    pub max_log2_buckets: u32,
    /// Load factor at which the largest table is full, in (0, 1).
    pub max_load: f64,
    /// Load factor at which a table below its largest size doubles, in
    /// (0, 1) (capped by `max_load`). A sparser table has a longer quotient,
    /// hence shorter entries: each halving of the load saves one bit per
    /// entry and doubles the allocated array.
    pub grow_load: f64,
    /// Grow by a quarter to a seventh (bucket counts c·2^j, 4 ≤ c < 8)
    /// instead of doubling.
    pub fine_growth: bool,
}

impl ClearyConfig {
    /// Why this shape is impossible, if it is.
    pub fn check(&self) -> Result<(), String> {
        let c = self;
        if !(1..=64).contains(&c.key_bits) {
            return Err(format!("key width {} not in 1..=64", c.key_bits));
        }
        let top = c.key_bits.min(MAX_LOG2_BUCKETS);
        if !(1..=top).contains(&c.log2_buckets)
            || !(c.log2_buckets..=top).contains(&c.max_log2_buckets)
        {
            return Err(format!(
                "log2 buckets {}..{} not within 1..={top}",
                c.log2_buckets, c.max_log2_buckets
            ));
        }
        if c.key_bits - c.log2_buckets + ADMIN_BITS > 64 {
            return Err(format!(
                "entries of {} bits do not fit a word",
                c.key_bits - c.log2_buckets + ADMIN_BITS
            ));
        }
        if !(c.max_load > 0.0 && c.max_load < 1.0) {
            return Err(format!("max_load {} not in (0, 1)", c.max_load));
        }
        if !(c.grow_load > 0.0 && c.grow_load < 1.0) {
            return Err(format!("grow_load {} not in (0, 1)", c.grow_load));
        }
        Ok(())
    }
}

/// `config`; panics on an impossible shape (see [`ClearyConfig::check`]),
/// naming the table type `who`.
pub(crate) fn checked(config: ClearyConfig, who: &str) -> ClearyConfig {
    if let Err(e) = config.check() {
        panic!("{who}: {e}");
    }
    config
}

/// Bytes of the packed bucket array of a table with 2^`log2` buckets of
/// keys of `key_bits` bits.
pub fn table_bytes(key_bits: u32, log2: u32) -> u64 {
    array_bytes(key_bits, Buckets::pow2(log2))
}

/// Bytes of the packed array of `buckets` buckets of keys of `key_bits`
/// bits (entries of remainder + 3 bits, `ctroot_split`).
pub fn array_bytes(key_bits: u32, buckets: Buckets) -> u64 {
    let entry = Split::new(key_bits, buckets).rem_bits + ADMIN_BITS;
    let bits = buckets.count() as u128 * entry as u128;
    (bits.div_ceil(64) * 8).min(u64::MAX as u128) as u64
}

/// The load at which a table of shape `config` below its largest size
/// grows.
pub(crate) fn growth_load(config: &ClearyConfig) -> f64 {
    config.grow_load.min(config.max_load)
}

/// The entries a table of shape `config` with `buckets` buckets may hold
/// (at `max_load`, and at least one bucket stays empty), and the entry
/// count at which it grows when `grows` (it may still grow or be
/// re-keyed; else it grows at its capacity, i.e. never): the sizes both
/// Cleary tables use.
pub(crate) fn limits(config: &ClearyConfig, buckets: Buckets, grows: bool) -> (u64, u64) {
    let n = buckets.count() as u64;
    let capacity = ((n as f64 * config.max_load) as u64).min(n - 1);
    let grow_at = if grows {
        ((n as f64 * growth_load(config)) as u64).min(capacity)
    } else {
        capacity
    };
    (capacity, grow_at)
}

/// The next bucket count of a table of shape `config` with `buckets`
/// buckets, if it may grow: a fine step or a doubling, up to
/// 2^`max_log2_buckets`.
pub(crate) fn next_size(config: &ClearyConfig, buckets: Buckets) -> Option<Buckets> {
    let next = if config.fine_growth {
        buckets.finer()
    } else {
        buckets.doubled()
    };
    (next.count() <= Buckets::pow2(config.max_log2_buckets).count()).then_some(next)
}

/// The [`TableFull`] of a table `name` whose `len` entries fill its
/// `buckets` buckets to the maximal load (`refused`: why it could not
/// grow).
pub(crate) fn filled(
    name: &str,
    len: u64,
    buckets: usize,
    max_load: f64,
    refused: Option<&str>,
) -> TableFull {
    TableFull {
        message: format!(
            "{name}: {len} entries fill its {buckets} buckets to the maximal load {max_load}{}",
            refused
                .map(|m| format!("; growth refused: {m}"))
                .unwrap_or_default()
        ),
    }
}

/// Checks that `len` entries of a table `name` fit a re-keyed table of
/// 2^`log2` buckets holding at most `capacity` entries at `max_load`.
pub(crate) fn check_fits(
    name: &str,
    len: u64,
    capacity: u64,
    log2: u32,
    max_load: f64,
) -> Result<(), TableFull> {
    if len > capacity {
        return Err(TableFull {
            message: format!(
                "{name}: {len} entries do not fit 2^{log2} buckets at the maximal load {max_load}"
            ),
        });
    }
    Ok(())
}

/// A shape at load limits 0.9 (full) and 0.75 (growth), for tests.
#[cfg(test)]
pub(crate) fn test_shape(key_bits: u32, log2: u32, max_log2: u32) -> ClearyConfig {
    ClearyConfig {
        key_bits,
        log2_buckets: log2,
        max_log2_buckets: max_log2,
        max_load: 0.9,
        grow_load: 0.75,
        fine_growth: false,
    }
}

/// The compact table; see the module documentation.
pub struct ClearyTable {
    pub(super) name: String,
    pub(super) config: ClearyConfig,
    pub(super) packed: Packed<Vec<u64>>,
    /// Bits of the keys the hash started with (`ctroot_hash`): `K` for
    /// a table that never widens its keys in place.
    pub(super) hash_base: u32,
    pub(super) len: u64,
    /// Growth is tried when `len` would pass this.
    pub(super) grow_at: u64,
    /// Entries the current bucket array may hold.
    pub(super) capacity: u64,
    pub(super) budget: Budget,
    /// Bytes of the packed array, reserved from `budget`.
    pub(super) reserved: u64,
    /// Why the last growth was refused, if it was.
    refused: Option<String>,
    pub(super) probes: u64,
    pub(super) shifted: u64,
    pub(super) growths: u64,
}

impl ClearyTable {
    /// A table of the given shape allocating from `budget`; `name`
    /// prefixes `table_full` messages. Panics on an impossible shape (see
    /// [`ClearyConfig::check`]).
    pub fn new(
        name: impl Into<String>,
        config: ClearyConfig,
        budget: Budget,
    ) -> Result<Self, TableFull> {
        let config = checked(config, "ClearyTable");
        let buckets = Buckets::pow2(config.log2_buckets);
        Self::with_buckets(name.into(), config, buckets, budget)
    }

    pub(super) fn with_buckets(
        name: String,
        config: ClearyConfig,
        buckets: Buckets,
        budget: Budget,
    ) -> Result<Self, TableFull> {
        let bytes = array_bytes(config.key_bits, buckets);
        budget.reserve(bytes, &name)?;
        let grows = next_size(&config, buckets).is_some();
        let (capacity, grow_at) = limits(&config, buckets, grows);
        Ok(ClearyTable {
            name,
            config,
            packed: Packed::new(vec![0; (bytes / 8) as usize], config.key_bits, buckets),
            hash_base: config.key_bits,
            len: 0,
            grow_at,
            capacity,
            budget,
            reserved: bytes,
            refused: None,
            probes: 0,
            shifted: 0,
            growths: 0,
        })
    }

    /// The same empty table, its keys hashed by layers above `base` bits
    /// (see `ctroot_hash`), so that they can widen in place
    /// ([`widen_keys`](Self::widen_keys)).
    pub fn with_hash_base(mut self, base: u32) -> Self {
        assert!(self.is_empty() && (1..=self.config.key_bits).contains(&base));
        self.hash_base = base;
        self
    }

    /// The hashed form of `key`.
    #[inline]
    fn hash(&self, key: u64) -> u64 {
        layered(key, self.config.key_bits, self.hash_base)
    }

    /// Number of keys stored.
    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Current log2 of the bucket count, `m` (rounded down).
    pub fn log2_buckets(&self) -> u32 {
        self.packed.log2()
    }

    /// Current bucket count.
    pub fn buckets(&self) -> usize {
        self.packed.count()
    }

    /// Bits of one entry: remainder + 3 administration bits.
    pub fn entry_bits(&self) -> u32 {
        self.packed.entry_bits
    }

    /// Bits of the occupied entries.
    pub fn used_bits(&self) -> u64 {
        self.len * self.packed.entry_bits as u64
    }

    /// Bytes of the packed bucket array.
    pub fn alloc_bytes(&self) -> u64 {
        self.reserved
    }

    /// Buckets inspected beyond the home bucket, over all look-ups.
    pub fn probes(&self) -> u64 {
        self.probes
    }

    /// Entries moved by insertions.
    pub fn shifted(&self) -> u64 {
        self.shifted
    }

    /// Times the bucket array grew.
    pub fn growths(&self) -> u64 {
        self.growths
    }

    /// Looks the hashed key `h` up: `Ok(())` if stored, else where it goes.
    #[inline]
    pub(super) fn locate(&mut self, h: u64) -> Result<(), Vacancy> {
        let mut view = Whole::new(&self.packed);
        let found = cleary_core::locate(&mut view, h, &self.packed.split);
        self.probes += view.probes;
        found.expect("the whole array is readable")
    }

    /// Stores the entry described by `v` (which `locate` just returned).
    #[inline]
    pub(super) fn insert_at(&mut self, v: Vacancy) {
        self.shifted += cleary_core::insert_at(&mut self.packed, v);
        self.len += 1;
    }

    /// Whether `key` (below 2^K) is stored.
    pub fn contains(&mut self, key: u64) -> bool {
        self.locate(self.hash(key)).is_ok()
    }

    /// Inserts `key` (below 2^K) if absent; `Ok(true)` if it was inserted
    /// now, `Ok(false)` if it was present.
    pub fn find_or_insert(&mut self, key: u64) -> Result<bool, TableFull> {
        debug_assert_eq!(key & !low_mask(self.config.key_bits), 0);
        self.find_or_insert_hashed(self.hash(key))
    }

    fn find_or_insert_hashed(&mut self, h: u64) -> Result<bool, TableFull> {
        let mut vacancy = match self.locate(h) {
            Ok(()) => return Ok(false),
            Err(v) => v,
        };
        if self.len >= self.grow_at && next_size(&self.config, self.packed.split.buckets).is_some() {
            if self.refused.is_none() {
                match self.grow() {
                    Ok(()) => {
                        vacancy = self.locate(h).expect_err("absent before growth");
                    }
                    Err(full) => self.refused = Some(full.message),
                }
            }
            if self.refused.is_some() {
                // Fill the current array up to max_load instead.
                self.grow_at = self.capacity;
            }
        }
        if self.len >= self.capacity {
            return Err(filled(
                &self.name,
                self.len,
                self.packed.count(),
                self.config.max_load,
                self.refused.as_deref(),
            ));
        }
        self.insert_at(vacancy);
        Ok(true)
    }

    /// Calls `f` with the hashed key of every entry, reconstructing each
    /// quotient from the virgin bits of its cluster.
    pub(super) fn for_each_hash(&self, f: impl FnMut(u64)) {
        if self.len > 0 {
            self.packed.for_each_hash(f);
        }
    }

    /// Calls `f` with every stored key (in table order).
    pub fn for_each_key(&self, mut f: impl FnMut(u64)) {
        let (bits, base) = (self.config.key_bits, self.hash_base);
        self.for_each_hash(|h| f(unlayered(h, bits, base)));
    }

    /// Key width `K`.
    pub fn key_bits(&self) -> u32 {
        self.config.key_bits
    }

    /// Whether one more key would take the table past its growth load
    /// while the key width forbids more buckets (`m = K`): a caller that
    /// can widen its keys should do so now ([`rekeyed`](Self::rekeyed)).
    pub fn wants_wider_keys(&self) -> bool {
        let log2 = self.packed.log2();
        log2 == self.config.key_bits
            && log2 < MAX_LOG2_BUCKETS
            && (self.len + 1) as f64 > self.packed.count() as f64 * growth_load(&self.config)
    }

    /// A table of shape `config` (2^`config.log2_buckets` buckets) holding
    /// `f(key)` for every stored key; `f` must be injective and map into
    /// `config.key_bits` bits (a wider key width: the remainder gains the
    /// new bits). Counters carry over. [`TableFull`] if the budget cannot
    /// hold both arrays during the copy or the new array cannot hold the
    /// keys at its maximal load. Panics on an impossible shape.
    pub fn rekeyed(
        &self,
        config: ClearyConfig,
        f: impl Fn(u64) -> u64,
    ) -> Result<ClearyTable, TableFull> {
        let config = checked(config, "ClearyTable");
        let name = self.name.clone();
        let buckets = Buckets::pow2(config.log2_buckets);
        let mut t = Self::with_buckets(name, config, buckets, self.budget.clone())?;
        t.hash_base = self.hash_base.min(config.key_bits);
        check_fits(
            &self.name,
            self.len,
            t.capacity,
            config.log2_buckets,
            config.max_load,
        )?;
        let (bits, base) = (self.config.key_bits, self.hash_base);
        self.for_each_hash(|h| {
            let key = f(unlayered(h, bits, base));
            debug_assert_eq!(key & !low_mask(config.key_bits), 0);
            let v = t.locate(t.hash(key)).expect_err("f is injective");
            t.insert_at(v);
        });
        debug_assert_eq!(t.len, self.len);
        t.probes = self.probes;
        t.shifted = self.shifted;
        t.growths = self.growths;
        Ok(t)
    }

    /// Checks Cleary's invariants (tests).
    #[cfg(test)]
    pub(super) fn check_invariants(&self) {
        cleary_core::check_invariants(&self.packed, self.len);
    }
}

impl Drop for ClearyTable {
    fn drop(&mut self) {
        self.budget.release(self.reserved);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashSet;

    fn table(key_bits: u32, log2: u32, max_log2: u32, max_load: f64) -> ClearyTable {
        ClearyTable::new(
            "cleary",
            ClearyConfig {
                key_bits,
                log2_buckets: log2,
                max_log2_buckets: max_log2,
                max_load,
                grow_load: 0.75,
                fine_growth: false,
            },
            Budget::unlimited(),
        )
        .unwrap()
    }

    #[test]
    fn mix_is_a_bijection_and_unmix_inverts_it() {
        for bits in [1u32, 2, 3, 7, 12] {
            let n = 1u64 << bits;
            let images: HashSet<u64> = (0..n).map(|x| mix(x, bits)).collect();
            assert_eq!(images.len() as u64, n, "bits {bits}");
            assert!(images.iter().all(|&y| y < n));
            for x in 0..n {
                assert_eq!(unmix(mix(x, bits), bits), x);
            }
        }
        let mut x = 0x1234_5678_9abc_def0u64;
        for bits in [13u32, 31, 32, 50, 60, 63, 64] {
            for _ in 0..10_000 {
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let k = x & low_mask(bits);
                let h = mix(k, bits);
                assert!(h & !low_mask(bits) == 0);
                assert_eq!(unmix(h, bits), k, "bits {bits}");
            }
        }
    }

    #[test]
    fn packed_entries_round_trip_at_every_width() {
        for key_bits in [3u32, 10, 40, 64] {
            let log2 = 4.min(key_bits);
            let mut t = table(key_bits, log2, log2, 0.9);
            let w = t.entry_bits();
            assert_eq!(w, key_bits - log2 + 3);
            let vals: Vec<u64> = (0..16u64)
                .map(|i| (i.wrapping_mul(0x9e37_79b9_7f4a_7c15)) & low_mask(w))
                .collect();
            for (i, &v) in vals.iter().enumerate() {
                t.packed.set(i, v);
            }
            for (i, &v) in vals.iter().enumerate() {
                assert_eq!(t.packed.get(i), v, "width {w} entry {i}");
            }
            assert_eq!(t.alloc_bytes(), (16 * w as u64).div_ceil(64) * 8);
        }
    }

    /// Inserts `keys`, comparing with a HashSet, checking the invariants
    /// every `every` insertions and the stored keys at the end.
    fn check(t: &mut ClearyTable, keys: &[u64], every: usize) {
        let mut reference = HashSet::new();
        for (i, &k) in keys.iter().enumerate() {
            let new = reference.insert(k);
            assert_eq!(t.find_or_insert(k).unwrap(), new, "key {i}: {k:#x}");
            if i % every == 0 {
                t.check_invariants();
            }
        }
        t.check_invariants();
        assert_eq!(t.len(), reference.len() as u64);
        for &k in &reference {
            assert!(t.contains(k));
        }
        let mut stored = HashSet::new();
        t.for_each_key(|k| assert!(stored.insert(k)));
        assert_eq!(stored, reference);
        assert_eq!(t.used_bits(), t.len() * t.entry_bits() as u64);
    }

    #[test]
    fn dense_keys_in_a_small_table_fill_it_to_max_load() {
        // 12-bit keys, 2^8 buckets: remainders of 4 bits, long clusters.
        let mut t = table(12, 8, 8, 0.97);
        let keys: Vec<u64> = (0..4096u64).map(|i| (i * 2_654_435_761) & 0xfff).collect();
        let mut reference = HashSet::new();
        let mut err = None;
        for &k in &keys {
            match t.find_or_insert(k) {
                Ok(new) => assert_eq!(new, reference.insert(k)),
                Err(e) => {
                    err = Some(e);
                    break;
                }
            }
        }
        t.check_invariants();
        let e = err.expect("256 buckets cannot hold 4096 keys");
        assert!(e.message.starts_with("cleary:"), "{}", e.message);
        assert_eq!(t.len(), (256.0 * 0.97) as u64);
        for &k in &reference {
            assert!(t.contains(k));
            assert!(!t.find_or_insert(k).unwrap(), "present keys stay findable");
        }
        // Nothing absent is found.
        let absent = (0..4096u64).filter(|k| !reference.contains(k)).count();
        assert_eq!(
            (0..4096u64).filter(|&k| !t.contains(k)).count(),
            absent,
            "no false positives"
        );
    }

    #[test]
    fn all_keys_of_a_tiny_universe() {
        // K = m: remainders of 0 bits; a full universe minus one bucket.
        let mut t = table(6, 6, 6, 0.99);
        for k in 0..63u64 {
            assert!(t.find_or_insert(k).unwrap());
        }
        assert!(t.find_or_insert(63).is_err());
        for k in 0..63u64 {
            assert!(!t.find_or_insert(k).unwrap());
        }
        t.check_invariants();
        // Many keys sharing each quotient: K = m + 8.
        let mut t = table(14, 6, 6, 0.95);
        let keys: Vec<u64> = (0..60u64)
            .map(|i| unmix((i % 4) << 8 | (i * 37 % 256), 14))
            .collect();
        check(&mut t, &keys, 1);
    }

    #[test]
    fn growth_keeps_every_key_and_stops_at_the_largest_table() {
        let mut t = table(40, 4, 14, 0.9);
        let keys: Vec<u64> = (0..14_000u64).map(|i| i * 77_777_777 % (1 << 40)).collect();
        check(&mut t, &keys, 997);
        assert_eq!(t.log2_buckets(), 14);
        assert_eq!(t.growths(), 10);
        assert_eq!(t.entry_bits(), 40 - 14 + 3);
        // 0.9 · 2^14 = 14745: a few more fit, then table full.
        let mut i = 0u64;
        let err = loop {
            match t.find_or_insert((1 << 39) + i) {
                Ok(_) => i += 1,
                Err(e) => break e,
            }
        };
        assert_eq!(t.len(), 14745);
        assert!(err.message.contains("maximal load"), "{}", err.message);
    }

    #[test]
    fn rekeyed_tables_hold_the_mapped_keys() {
        let mut t = table(12, 6, 12, 0.9);
        let keys: Vec<u64> = (0..2000u64).map(|i| (i * 2654435761) & 0xfff).collect();
        for &k in &keys {
            t.find_or_insert(k).unwrap();
        }
        let shape = ClearyConfig {
            key_bits: 20,
            log2_buckets: t.log2_buckets(),
            max_log2_buckets: 16,
            max_load: 0.9,
            grow_load: 0.75,
            fine_growth: false,
        };
        // Widen the upper 6 bits' field: (hi, lo) of (6, 6) bits -> (6, 14).
        let widen = |k: u64| (k >> 6) << 14 | (k & 63);
        let mut wide = t.rekeyed(shape, widen).unwrap();
        wide.check_invariants();
        assert_eq!(wide.len(), t.len());
        assert_eq!(wide.entry_bits(), 20 - t.log2_buckets() + 3);
        let mut got = Vec::new();
        wide.for_each_key(|k| got.push(k));
        got.sort_unstable();
        let mut expect: Vec<u64> = keys.iter().map(|&k| widen(k)).collect();
        expect.sort_unstable();
        expect.dedup();
        assert_eq!(got, expect);
        for &k in &keys {
            assert!(!wide.find_or_insert(widen(k)).unwrap());
        }
        assert!(wide.find_or_insert(1 << 19).unwrap());
    }

    #[test]
    fn budget_refusing_growth_fills_to_max_load_then_table_full() {
        let budget = Budget::new(table_bytes(30, 10) + 100);
        let mut t = ClearyTable::new(
            "root",
            ClearyConfig {
                key_bits: 30,
                log2_buckets: 10,
                max_log2_buckets: 20,
                max_load: 0.9,
                grow_load: 0.75,
                fine_growth: false,
            },
            budget.clone(),
        )
        .unwrap();
        let mut n = 0u64;
        let err = loop {
            match t.find_or_insert(n * 3) {
                Ok(true) => n += 1,
                Ok(false) => unreachable!(),
                Err(e) => break e,
            }
        };
        assert_eq!(n, 921);
        assert!(err.message.contains("growth refused"), "{}", err.message);
        assert!(err.message.contains("memory budget"), "{}", err.message);
        assert_eq!(budget.reserved(), table_bytes(30, 10));
        t.check_invariants();
        drop(t);
        assert_eq!(budget.reserved(), 0);
    }

    proptest! {
        #[test]
        fn behaves_like_a_hash_set(
            key_bits in 9u32..20,
            log2 in 3u32..7,
            raw in proptest::collection::vec(any::<u64>(), 0..300),
            narrow in any::<bool>(),
        ) {
            // Narrow keys crowd few quotients (long groups and clusters).
            let keys: Vec<u64> = raw
                .iter()
                .map(|&x| if narrow { unmix(x & 0x3f, key_bits) } else { x & low_mask(key_bits) })
                .collect();
            let mut t = table(key_bits, log2.min(key_bits), 12.min(key_bits), 0.9);
            check(&mut t, &keys, 1);
        }

        #[test]
        fn behaves_like_a_hash_set_at_any_bucket_count(
            key_bits in 9u32..20,
            scale in 4u64..8,
            shift in 0u32..5,
            raw in proptest::collection::vec(any::<u64>(), 0..300),
            narrow in any::<bool>(),
            fine_growth in any::<bool>(),
        ) {
            let keys: Vec<u64> = raw
                .iter()
                .map(|&x| if narrow { unmix(x & 0x3f, key_bits) } else { x & low_mask(key_bits) })
                .collect();
            let buckets = Buckets::new(scale, shift);
            let config = ClearyConfig {
                fine_growth,
                ..test_shape(key_bits, buckets.log2(), 12.min(key_bits))
            };
            let mut t =
                ClearyTable::with_buckets("c".into(), config, buckets, Budget::unlimited()).unwrap();
            check(&mut t, &keys, 1);
            prop_assert_eq!(t.alloc_bytes(), array_bytes(key_bits, Buckets::new(t.buckets() as u64, 0)));
        }

        #[test]
        fn behaves_like_a_hash_set_at_high_fixed_load(
            raw in proptest::collection::vec(any::<u64>(), 0..120),
        ) {
            let mut t = table(16, 7, 7, 0.99);
            let keys: Vec<u64> = raw.iter().map(|&x| x & 0xffff).collect();
            check(&mut t, &keys, 1);
        }
    }
}
