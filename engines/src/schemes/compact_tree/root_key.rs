//! The root key of `compact-tree`, written once for the sequential root
//! ([`super::ClearyRoot`]) and the concurrent one
//! ([`super::concurrent::SharedClearyRoot`]): how a root tuple becomes a
//! key of the Cleary table (`left << bits(right) | right`), the table's
//! shape for a key width, and when and how an adaptive key widens (see
//! the module documentation of `compact_tree`).
//!
//! It owns only the children's widths and the re-keying count; the Cleary
//! tables are its callers'. It must not know node tables, models or the
//! search order.

use crate::schemes::compact_tree::cleary::ClearyConfig;
use crate::schemes::compact_tree::{CompactTreeConfig, InitialRoot};

/// The children's widths in the root key; see the module documentation.
pub(crate) struct RootKey {
    /// Current bits of the left and right child in the key.
    left_bits: u32,
    right_bits: u32,
    /// Their largest values (`w` for a node, `u` for a slot; 0 for the
    /// missing right child of `k = 1`).
    left_max: u32,
    right_max: u32,
    config: CompactTreeConfig,
    budget_limit: u64,
    /// Largest log2 of the table's buckets for the current key width.
    max_log2: u32,
    /// Times the table was re-keyed.
    pub(crate) rekeys: u64,
}

impl RootKey {
    /// The key of a root that starts as `init`, for `config` within
    /// `budget_limit` bytes.
    pub(crate) fn new(init: &InitialRoot, config: &CompactTreeConfig, budget_limit: u64) -> Self {
        RootKey {
            left_bits: init.left_bits,
            right_bits: init.right_bits,
            left_max: init.left_max,
            right_max: init.right_max,
            config: config.clone(),
            budget_limit,
            max_log2: init.table.max_log2_buckets,
            rekeys: 0,
        }
    }

    /// Widen the key as node indices grow (`root_key=adaptive`).
    #[inline]
    pub(crate) fn adaptive(&self) -> bool {
        self.config.adaptive_key
    }

    /// Whether the children `left` and `right` fit the current key.
    #[inline]
    pub(crate) fn fits(&self, left: u32, right: u32) -> bool {
        left >> self.left_bits == 0 && right >> self.right_bits == 0
    }

    /// The key of the root tuple `(left, right)` (which must fit).
    #[inline]
    pub(crate) fn key(&self, left: u32, right: u32) -> u64 {
        (left as u64) << self.right_bits | right as u64
    }

    /// The children's current widths.
    pub(crate) fn bits(&self) -> (u32, u32) {
        (self.left_bits, self.right_bits)
    }

    /// Whether a key of children of `left` and `right` bits may still
    /// widen.
    pub(crate) fn may_widen(&self, left: u32, right: u32) -> bool {
        left < self.left_max || right < self.right_max
    }

    /// The children's widths with one more key bit, on the narrower side
    /// that may still widen (when 2^K buckets are too few for the keys to
    /// come); `None` when both sides are at their widest.
    pub(crate) fn one_more_bit(&self) -> Option<(u32, u32)> {
        let (l, r) = (self.left_bits, self.right_bits);
        if r < self.right_max && (r < l || l >= self.left_max) {
            Some((l, r + 1))
        } else if l < self.left_max {
            Some((l + 1, r))
        } else {
            None
        }
    }

    /// The shape of the table re-keyed for children of `left` and `right`
    /// bits (its current log2 is `log2`), and the map from the current keys
    /// to the new ones. Record it with [`widened`](Self::widened) once
    /// the table is re-keyed.
    pub(crate) fn widening(
        &self,
        left: u32,
        right: u32,
        log2: u32,
    ) -> (ClearyConfig, impl Fn(u64) -> u64 + Sync) {
        let old_right = self.right_bits;
        let key_bits = left + right;
        let (initial, max) = self.config.log2_range(key_bits, self.budget_limit);
        let log2 = if self.config.grow {
            log2.clamp(initial, max)
        } else {
            max
        };
        let shape = ClearyConfig {
            key_bits,
            log2_buckets: log2,
            max_log2_buckets: max,
            max_load: self.config.max_load,
            grow_load: self.config.grow_load,
        };
        let mask = (1u64 << old_right) - 1;
        (shape, move |key| (key >> old_right) << right | (key & mask))
    }

    /// Records that the table was re-keyed to `shape` for children of
    /// `left` and `right` bits.
    pub(crate) fn widened(&mut self, left: u32, right: u32, shape: &ClearyConfig) {
        (self.left_bits, self.right_bits) = (left, right);
        self.max_log2 = shape.max_log2_buckets;
        self.rekeys += 1;
    }

    /// Pushes the counters both roots report: the table's shape (`log2`
    /// of its buckets, its key and entry bits), then `activity` (what the
    /// table counts), then the re-keyings.
    pub(crate) fn counters(
        &self,
        out: &mut Vec<(String, u64)>,
        [log2, key_bits, entry_bits]: [u32; 3],
        activity: &[(&str, u64)],
    ) {
        out.push(("root_log2_buckets".into(), log2 as u64));
        out.push(("root_log2_buckets_max".into(), self.max_log2 as u64));
        out.push(("root_key_bits".into(), key_bits as u64));
        out.push(("root_entry_bits".into(), entry_bits as u64));
        out.extend(activity.iter().map(|&(name, n)| (name.to_string(), n)));
        out.push(("root_rekeys".into(), self.rekeys));
    }
}
