//! The root key of `compact-tree`, written once for the sequential root
//! ([`super::ClearyRoot`]) and the concurrent one
//! ([`super::concurrent::SharedClearyRoot`]): how a root tuple becomes a
//! key of the Cleary table, the table's shape for a key width, and when
//! and how an adaptive key widens (see the module documentation of
//! `compact_tree`).
//!
//! The key's bits are the children's in the order they were granted: at
//! first `left << bits(right) | right`; each widening puts the children's
//! new bits above all the others (left's first). So a key never changes
//! value when the key widens (its new bits are zero): the table keeps its
//! entries where they are ([`super::cleary::ClearyTable::widen_keys`]).
//!
//! It owns only the children's widths and the re-keying count; the Cleary
//! tables are its callers'. It must not know node tables, models or the
//! search order.

use crate::blocks::index_table::Growth;
use crate::schemes::compact_tree::cleary::{low_mask, ClearyConfig};
use crate::schemes::compact_tree::{CompactTreeConfig, InitialRoot};

/// Bits `from..from + bits` of one child, at bit `at` of the key.
#[derive(Clone, Copy, Debug)]
struct Run {
    left: bool,
    from: u32,
    at: u32,
    mask: u64,
}

/// The children's widths in the root key; see the module documentation.
pub(crate) struct RootKey {
    /// Current bits of the left and right child in the key.
    left_bits: u32,
    right_bits: u32,
    /// Their largest values (`w` for a node, `u` for a slot; 0 for the
    /// missing right child of `k = 1`).
    left_max: u32,
    right_max: u32,
    /// Where the children's bits lie in the key, in the order granted.
    runs: Vec<Run>,
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
        let mut key = RootKey {
            left_bits: 0,
            right_bits: 0,
            left_max: init.left_max,
            right_max: init.right_max,
            runs: Vec::new(),
            config: config.clone(),
            budget_limit,
            max_log2: init.table.max_log2_buckets,
            rekeys: 0,
        };
        key.grant(false, init.right_bits);
        key.grant(true, init.left_bits);
        key
    }

    /// Puts the next `bits` bits of one child above the key's bits.
    fn grant(&mut self, left: bool, bits: u32) {
        let from = if left { self.left_bits } else { self.right_bits };
        let at = self.left_bits + self.right_bits;
        if bits == 0 {
            return;
        }
        match self.runs.last_mut() {
            Some(run) if run.left == left => run.mask = low_mask(run.mask.count_ones() + bits),
            _ => self.runs.push(Run {
                left,
                from,
                at,
                mask: low_mask(bits),
            }),
        }
        if left {
            self.left_bits += bits;
        } else {
            self.right_bits += bits;
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
        let mut key = 0;
        for run in &self.runs {
            let child = if run.left { left } else { right } as u64;
            key |= (child >> run.from & run.mask) << run.at;
        }
        key
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
    /// bits (its current log2 is `log2`); every stored key keeps its value.
    /// Record it with [`widened`](Self::widened) once the table is
    /// re-keyed.
    pub(crate) fn widening(&self, left: u32, right: u32, log2: u32) -> ClearyConfig {
        let key_bits = left + right;
        let (initial, max) = self.config.log2_range(key_bits, self.budget_limit);
        let log2 = if self.config.grow {
            log2.clamp(initial, max)
        } else {
            max
        };
        ClearyConfig {
            key_bits,
            log2_buckets: log2,
            max_log2_buckets: max,
            max_load: self.config.max_load,
            grow_load: self.config.grow_load,
            fine_growth: self.config.root_growth == Growth::Fine,
        }
    }

    /// Records that the table was re-keyed to `shape` for children of
    /// `left` and `right` bits.
    pub(crate) fn widened(&mut self, left: u32, right: u32, shape: &ClearyConfig) {
        self.grant(true, left - self.left_bits);
        self.grant(false, right - self.right_bits);
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
