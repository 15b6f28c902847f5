//! `compact-tree`: the tree database whose root table is a Cleary compact
//! hash table (Laarman, van de Pol, Weber, the "compact tree" of LTSmin;
//! Cleary 1984; van der Vegt and Laarman 2012).
//!
//! The tree shape, node tables and incremental insertion are those of
//! [`crate::schemes::tree`] (a [`TreeDb`] with [`ClearyRoot`] as its root table).
//! Node tables hold at most 2^w tuples, so a node index has `w` bits. A
//! slot value enters the root key only when a root child is a slot
//! (`k ≤ 3`): then every slot value must be below 2^u (checked at
//! insertion: a wider value is a [`TableFull`] "slot i value v needs more
//! than u=… bits", not a panic). For `k ≥ 4` slot values live in the
//! leaves' 32-bit tuples and any `u32` is stored (Promela's negative `int`
//! values, such as −1 = 2^32 − 1, are common; see
//! [`CompactTreeConfig::checked_value_bits`]).
//! The root tuple `(left, right)` becomes the key `left << bits(right) |
//! right` of `K` bits, where a child has `w` bits if it is a node and `u`
//! bits if it is a single slot: `K = 2w` for `k ≥ 4` as in the paper,
//! `w + u` for `k = 3`, `2u` for `k = 2` and `u` for `k = 1` (root tuple
//! `(value, 0)`). So no restriction `u ≤ w` is needed.
//!
//! The root table ([`ClearyTable`]) maps the key by a bijection to a
//! **quotient** of `m` bits (the bucket) and a **remainder** of `K − m`
//! bits, stored with Cleary's three administration bits: a root entry takes
//! `K − m + 3` bits, i.e. `w − o + 3` at the paper's `m = w + o`. Look-ups
//! are exact (no false positives). Size: with parameter `m=N` the table has
//! fixed 2^N buckets (`N ≤ w + o`, capped at `K`). With `m=budget` (as in
//! the paper: the table size is chosen from the memory limit) it has
//! 2^m_max buckets from the start, where `m_max` is the largest
//! `m ≤ min(w + o, K)` whose table takes at most half the memory budget
//! (the rest is for the node tables). With `m=auto` the table starts at
//! 2^min(16, m_max) buckets and doubles at load `grow_load` (0.75) up to
//! 2^m_max, so small models do not touch gigabytes, at the price of wider
//! entries while `m` is small (`K − m + 3` bits); with `root_growth=fine`
//! it grows by a quarter to a seventh instead (bucket counts c·2^j,
//! 4 ≤ c < 8, entries of `K − ⌊log2 n⌋ + 3` bits, see `cleary`), so that
//! it stays within 0.6..0.75 of load. It is full at `max_load`
//! of its largest size.
//!
//! **Adaptive root key** (`root_key=adaptive`, our extension, not in the
//! paper): the paper fixes `K = 2w` although a node table of `n` tuples
//! only hands out indices below `n`. An adaptive root keys its table by
//! the children's *current* widths (8 bits each to start); when an index
//! (or slot value) needs more bits, or when 2^K buckets could not take the
//! next key at the growth load, the key widens (counter `root_rekeys`).
//! The new bits go above all others, so no key changes value, and the
//! table's layered hash (`ctroot_hash`) keeps every entry in its bucket:
//! the entries widen in place ([`ClearyTable::widen_keys`]), never two
//! tables at once (a table that must also change size is re-stored,
//! [`ClearyTable::rekeyed`]). The quotient still takes `m` of the `K`
//! bits, so a root entry takes `K − m + 3` bits with `K` about
//! `2·log2(node table size)` instead of `2w`. Still exact: the key is a
//! bijective re-encoding of `(left, right)`.
//!
//! Which configuration is the registry's default, and what each measured,
//! is in the registry and the README: `m=budget root_key=fixed` is the
//! paper's; `m=auto root_key=adaptive` is the default.
//!
//! Node tables grow finely by default (`node_growth=fine`, our
//! extension: bucket arrays by a quarter at load 3/4 with hash tags in
//! their spare bits, tuple storage by eighths, see
//! [`crate::blocks::index_table`]), so their allocation is about 1.2 times
//! their use (median 1.21, at most 1.42 on 20 BEEM instances of 10^5–10^6
//! states) instead of about twice (2.07, up to 4.36); `node_growth=double`
//! is the paper's doubling (buckets at load 1/4..1/2, first 1,024 of
//! them).
//!
//! Accounting: `used` = node tables (12 bytes per tuple) + ⌈states ×
//! (K − m + 3) / 8⌉ bytes; `alloc` = node tables + the packed root array.
//!
//! Its concurrent form (runs with more than one thread) is
//! `shared_compact_tree`: the same parameters and root entries over shared
//! tables (its module documentation says where its bytes differ).
//!
//! It owns only the parameters and the root table adapter; the root key
//! (its widths and re-keying) is `root_key`'s and Cleary's algorithm
//! `cleary_core`'s, both shared with the concurrent form. It must not know
//! models or front-ends.

pub mod cleary;
pub mod cleary_concurrent;
mod cleary_core;
pub mod concurrent;
mod ctroot_hash;
mod ctroot_resize;
mod ctroot_split;
mod root_key;
mod spec;

pub use spec::{RootKeyMode, RootSize, TableGrowth, SPEC};

use crate::blocks::budget::Budget;
use crate::blocks::index_table::Growth;
use crate::registry::{word, Build, Setup};
use crate::schemes::tree::{root_children_are_slots, RootTable, SlotOrder, TreeDb, TreeSpec};
use crate::visited::TableFull;
use cleary::{ClearyConfig, ClearyTable};
use root_key::RootKey;

/// Parameters of `compact-tree`.
#[derive(Clone, Debug, PartialEq)]
pub struct CompactTreeConfig {
    /// Index bits of node tables (1..=32).
    pub w: u32,
    /// Overcommit: the root table has up to 2^(w + o) buckets.
    pub o: u32,
    /// Bits of a slot value (1..=32).
    pub u: u32,
    /// Fixed log2 of the root buckets (4..=w + o); `None`: the largest size
    /// within half the budget, from the start or by growing (`grow`).
    pub m: Option<u32>,
    /// With `m = None`: start small and double up to the largest size
    /// (`true`, parameter `m=auto`), or take the largest size from the start
    /// (`false`, parameter `m=budget`, the paper's fixed table chosen from
    /// the memory limit).
    pub grow: bool,
    /// Load at which the (largest) root table is full, in (0, 1).
    pub max_load: f64,
    /// With `m=auto`: load at which the root table doubles, in (0, 1).
    pub grow_load: f64,
    /// With `m=auto`: how the sequential root table grows at `grow_load`
    /// (`root_growth`: doubling, or by a quarter to a seventh).
    pub root_growth: Growth,
    /// Key the root table by the children's current index width, widening
    /// (re-storing every root entry) as node tables grow, instead of the
    /// fixed `2w` bits (`root_key=adaptive` / `fixed`).
    pub adaptive_key: bool,
    /// Reuse the predecessor's node indices (side data).
    pub incremental: bool,
    /// log2 of the initial root buckets when `m` is `None`.
    pub initial_m: u32,
    /// Initial buckets of every node table with `node_growth=double`
    /// (with `fine` they start at the minimum, 16).
    pub node_buckets: usize,
    /// How the node tables grow (`node_growth`: doubling, or finely; see
    /// [`Growth`]).
    pub node_growth: Growth,
    /// How the leaves order the slots (`slot_order`).
    pub slot_order: SlotOrder,
    /// The slot each leaf position holds, as `slot_order` asks on the
    /// model (empty: the model's order; see [`crate::schemes::tree::order`]).
    pub order: Vec<usize>,
}

impl Default for CompactTreeConfig {
    fn default() -> Self {
        let (m, grow) = spec::M.default.m_and_grow();
        CompactTreeConfig {
            w: spec::W.default,
            o: spec::O.default,
            u: spec::U.default,
            m,
            grow,
            max_load: spec::MAX_LOAD.default,
            grow_load: spec::GROW_LOAD.default,
            root_growth: spec::ROOT_GROWTH.default.growth(),
            adaptive_key: spec::ROOT_KEY.default == RootKeyMode::Adaptive,
            incremental: spec::INCREMENTAL.default,
            initial_m: 16,
            node_buckets: 1024,
            node_growth: spec::NODE_GROWTH.default.growth(),
            // Built without a model, a configuration has the model's
            // order; the registry's default (`sample`) is computed on the
            // model when the engine is configured.
            slot_order: SlotOrder::Model,
            order: Vec::new(),
        }
    }
}

impl CompactTreeConfig {
    /// Why these parameters are invalid, if they are.
    pub fn check(&self) -> Result<(), String> {
        if !(1..=32).contains(&self.w) {
            return Err(format!("w={}: must be in 1..=32", self.w));
        }
        if !(1..=32).contains(&self.u) {
            return Err(format!("u={}: must be in 1..=32", self.u));
        }
        if self.o > self.w {
            return Err(format!("o={}: must be at most w={}", self.o, self.w));
        }
        if let Some(m) = self.m {
            if !(4..=self.w + self.o).contains(&m) || m > cleary::MAX_LOG2_BUCKETS {
                return Err(format!(
                    "m={m}: must be in 4..=w+o={} (and at most {})",
                    self.w + self.o,
                    cleary::MAX_LOG2_BUCKETS
                ));
            }
        }
        if !(self.max_load > 0.0 && self.max_load < 1.0) {
            return Err(format!("max_load={}: must be in (0, 1)", self.max_load));
        }
        if !(self.grow_load > 0.0 && self.grow_load < 1.0) {
            return Err(format!("grow_load={}: must be in (0, 1)", self.grow_load));
        }
        if self.initial_m < 4 {
            return Err(format!("initial_m={}: must be at least 4", self.initial_m));
        }
        Ok(())
    }

    /// The parameter string the engine reports.
    pub fn params(&self) -> String {
        format!(
            "w={};o={};u={};m={};root_key={};max_load={};grow_load={};root_growth={};node_growth={};incremental={};slot_order={}",
            self.w,
            self.o,
            self.u,
            match (self.m, self.grow) {
                (Some(m), _) => m.to_string(),
                (None, true) => "auto".to_string(),
                (None, false) => "budget".to_string(),
            },
            if self.adaptive_key {
                "adaptive"
            } else {
                "fixed"
            },
            self.max_load,
            self.grow_load,
            word(TableGrowth::of(self.root_growth)),
            word(TableGrowth::of(self.node_growth)),
            self.incremental,
            word(self.slot_order)
        )
    }

    /// The configuration the concurrent form runs: its node tables and
    /// its root are shared tables, which double (`node_growth=double`,
    /// `root_growth=double`).
    pub fn shared(&self) -> Self {
        CompactTreeConfig {
            node_growth: Growth::Double,
            root_growth: Growth::Double,
            ..self.clone()
        }
    }

    /// The slot-value width the tree checks for vectors of length `k`: `u`
    /// when a root child is a slot (its value is part of the root key),
    /// else 32 (no check: leaves hold 32-bit values).
    pub fn checked_value_bits(&self, k: usize) -> u32 {
        let (l, r) = root_children_are_slots(k);
        if l || r {
            self.u
        } else {
            32
        }
    }

    /// Bits of the left and right child of the root for vectors of length
    /// `k` (a node: w, a slot: u; k = 1: (u, 0)).
    pub fn root_child_bits(&self, k: usize) -> (u32, u32) {
        let (l, r) = root_children_are_slots(k);
        let bits = |slot: bool| if slot { self.u } else { self.w };
        (bits(l), if k == 1 { 0 } else { bits(r) })
    }

    /// (initial, largest) log2 of the root buckets for vectors of length
    /// `k` within `budget` bytes, for the full key width.
    pub fn root_log2_buckets(&self, k: usize, budget: u64) -> (u32, u32) {
        let (l, r) = self.root_child_bits(k);
        self.log2_range(l + r, budget)
    }

    /// (initial, largest) log2 of the root buckets for keys of `key_bits`
    /// bits within `budget` bytes.
    pub(crate) fn log2_range(&self, key_bits: u32, budget: u64) -> (u32, u32) {
        let cap = (self.w + self.o)
            .min(key_bits)
            .min(cleary::MAX_LOG2_BUCKETS);
        let floor = key_bits.min(4);
        match self.m {
            Some(m) => (m.min(key_bits), m.min(key_bits)),
            None => {
                let max = (floor..=cap)
                    .rev()
                    .find(|&m| cleary::table_bytes(key_bits, m) <= budget / 2)
                    .unwrap_or(floor);
                let initial = if self.grow {
                    self.initial_m.clamp(floor, max)
                } else {
                    max
                };
                (initial, max)
            }
        }
    }
}

/// Initial bits of each root child in an adaptive key.
pub(crate) const INITIAL_CHILD_BITS: u32 = 8;

/// The shape a root table starts with (shared by the sequential and the
/// concurrent root): the children's widest and initial key bits and the
/// Cleary table's configuration.
pub(crate) struct InitialRoot {
    pub left_max: u32,
    pub right_max: u32,
    pub left_bits: u32,
    pub right_bits: u32,
    pub table: ClearyConfig,
}

impl CompactTreeConfig {
    /// The initial root for vectors of length `k` within `budget` bytes: an
    /// adaptive key starts with children of at most [`INITIAL_CHILD_BITS`],
    /// a fixed one with their full widths.
    pub(crate) fn initial_root(&self, k: usize, budget: u64) -> InitialRoot {
        let (left_max, right_max) = self.root_child_bits(k);
        let (left_bits, right_bits) = if self.adaptive_key {
            (
                left_max.min(INITIAL_CHILD_BITS),
                right_max.min(INITIAL_CHILD_BITS),
            )
        } else {
            (left_max, right_max)
        };
        let (m0, m_max) = self.log2_range(left_bits + right_bits, budget);
        InitialRoot {
            left_max,
            right_max,
            left_bits,
            right_bits,
            table: ClearyConfig {
                key_bits: left_bits + right_bits,
                log2_buckets: m0,
                max_log2_buckets: m_max,
                max_load: self.max_load,
                grow_load: self.grow_load,
                fine_growth: self.root_growth == Growth::Fine,
            },
        }
    }
}

/// The tree `compact-tree` (either form) asks for with `config` for
/// vectors of length `k`. Panics on parameters
/// [`CompactTreeConfig::check`] rejects.
pub(crate) fn tree_spec(k: usize, config: &CompactTreeConfig) -> TreeSpec {
    if let Err(e) = config.check() {
        panic!("compact-tree: {e}");
    }
    TreeSpec {
        engine: "compact-tree",
        k,
        index_bits: config.w,
        value_bits: config.checked_value_bits(k),
        incremental: config.incremental,
        node_buckets: match config.node_growth {
            Growth::Double => config.node_buckets,
            Growth::Fine => 16,
        },
        node_growth: config.node_growth,
        order: config.order.clone(),
        params: config.params(),
    }
}

/// The reference of the root tuple `(left, right)`: it does not depend on
/// the current key width.
#[inline]
pub(crate) fn reference(left: u32, right: u32) -> u64 {
    (left as u64) << 32 | right as u64
}

/// The root table of `compact-tree`: a Cleary table of root keys.
pub struct ClearyRoot {
    table: ClearyTable,
    key: RootKey,
}

/// Bits needed to write `v` (at least 1).
pub(crate) fn bits_of(v: u32) -> u32 {
    (32 - v.leading_zeros()).max(1)
}

impl ClearyRoot {
    /// The Cleary table itself.
    pub fn table(&self) -> &ClearyTable {
        &self.table
    }

    /// Widens the key to children of `left` and `right` bits: in place
    /// when the table keeps its size, else re-stored in a new table.
    fn widen(&mut self, left: u32, right: u32) -> Result<(), TableFull> {
        let shape = self.key.widening(left, right, self.table.log2_buckets());
        if shape.log2_buckets == self.table.log2_buckets() {
            self.table.widen_keys(shape)?;
        } else {
            self.table = self.table.rekeyed(shape, |key| key)?;
        }
        self.key.widened(left, right, &shape);
        Ok(())
    }
}

impl RootTable for ClearyRoot {
    #[inline]
    fn find_or_insert(&mut self, left: u32, right: u32) -> Result<(u64, bool), TableFull> {
        if self.key.adaptive() {
            if !self.key.fits(left, right) {
                let (l, r) = self.key.bits();
                self.widen(l.max(bits_of(left)), r.max(bits_of(right)))?;
            }
            if self.table.wants_wider_keys() {
                // 2^K buckets are too few for the keys to come.
                if let Some((l, r)) = self.key.one_more_bit() {
                    self.widen(l, r)?;
                }
            }
        }
        let key = self.key.key(left, right);
        Ok((reference(left, right), self.table.find_or_insert(key)?))
    }

    fn len(&self) -> u64 {
        self.table.len()
    }

    fn used_bits(&self) -> u64 {
        self.table.used_bits()
    }

    fn alloc_bytes(&self) -> u64 {
        self.table.alloc_bytes()
    }

    fn counters(&self, out: &mut Vec<(String, u64)>) {
        let t = &self.table;
        let activity = [
            ("root_probes", t.probes()),
            ("root_shifted", t.shifted()),
            ("root_growths", t.growths()),
        ];
        let shape = [t.log2_buckets(), t.key_bits(), t.entry_bits()];
        self.key.counters(out, shape, &activity);
        out.push(("root_buckets".into(), t.buckets() as u64));
    }
}

/// The `compact-tree` engine.
pub type CompactTree = TreeDb<ClearyRoot>;

impl TreeDb<ClearyRoot> {
    /// A compact tree for vectors of length `k` (0 included: the one empty vector). Panics on parameters
    /// [`CompactTreeConfig::check`] rejects; [`TableFull`] if even the
    /// smallest tables do not fit the budget.
    pub fn new(k: usize, config: &CompactTreeConfig, budget: Budget) -> Result<Self, TableFull> {
        let spec = tree_spec(k, config);
        let init = config.initial_root(k, budget.limit());
        let table = ClearyTable::new("compact-tree root table", init.table, budget.clone())?
            .with_hash_base(init.table.key_bits);
        let key = RootKey::new(&init, config, budget.limit());
        TreeDb::build(spec, ClearyRoot { table, key }, budget)
    }
}

impl Build<CompactTreeConfig> for CompactTree {
    fn build(s: Setup<CompactTreeConfig>) -> Result<Self, TableFull> {
        Self::new(s.slots, &s.config, s.budget)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::visited::VisitedSet;

    fn small(w: u32, o: u32, u: u32, m: Option<u32>) -> CompactTreeConfig {
        CompactTreeConfig {
            w,
            o,
            u,
            m,
            initial_m: 4,
            node_buckets: 16,
            node_growth: Growth::Double,
            adaptive_key: false,
            ..Default::default()
        }
    }

    #[test]
    fn root_key_width_follows_the_root_children() {
        let c = CompactTreeConfig::default();
        assert_eq!(c.root_child_bits(1), (30, 0));
        assert_eq!(c.root_child_bits(2), (30, 30));
        assert_eq!(c.root_child_bits(3), (30, 30));
        let c = small(20, 2, 8, None);
        assert_eq!(c.root_child_bits(1), (8, 0));
        assert_eq!(c.root_child_bits(2), (8, 8));
        assert_eq!(c.root_child_bits(3), (20, 8));
        assert_eq!(c.root_child_bits(4), (20, 20));
        assert_eq!(c.root_child_bits(9), (20, 20));
    }

    #[test]
    fn root_size_comes_from_the_budget_and_is_capped_at_w_plus_o() {
        let c = CompactTreeConfig::default();
        // Unlimited: m_max = w + o = 32, a root entry of w − o + 3 = 31 bits.
        assert_eq!(c.root_log2_buckets(10, u64::MAX), (16, 32));
        // 1 GiB: the largest m with ⌈2^m (63 − m) / 8⌉ ≤ 512 MiB is 26.
        assert_eq!(c.root_log2_buckets(10, 1 << 30), (16, 26));
        assert!(cleary::table_bytes(60, 26) <= 1 << 29);
        assert!(cleary::table_bytes(60, 27) > 1 << 29);
        // k = 1: the key has u bits; m ≤ K.
        assert_eq!(c.root_log2_buckets(1, u64::MAX), (16, 30));
        let fixed = CompactTreeConfig {
            m: Some(20),
            ..c.clone()
        };
        assert_eq!(fixed.root_log2_buckets(10, 1 << 20), (20, 20));
        assert_eq!(
            small(3, 1, 2, Some(4)).root_log2_buckets(1, u64::MAX),
            (2, 2)
        );
        assert!(small(3, 1, 2, Some(5)).check().is_err());
        assert!(small(30, 2, 33, None).check().is_err());
    }

    #[test]
    fn paper_parameters_give_w_minus_o_plus_3_bits_per_root_entry() {
        let c = small(12, 2, 12, Some(14));
        let mut t = CompactTree::new(5, &c, Budget::unlimited()).unwrap();
        // 4000 tuples in node tables of at most 2^12.
        for i in 0..4000u32 {
            assert!(t
                .find_or_insert(&[i % 64, i / 64, 1, i % 7, 2])
                .unwrap()
                .is_new());
        }
        let root = t.root().table();
        assert_eq!(root.entry_bits(), 12 - 2 + 3);
        assert_eq!(root.alloc_bytes(), (1u64 << 14) * 13 / 8);
        let node_used: u64 = 12 * (4000 + 4000 + 7); // [0,2) [0,3) [3,5)
        assert_eq!(t.memory().used, node_used + (4000u64 * 13).div_ceil(8));
        assert_eq!(
            t.params(),
            "w=12;o=2;u=12;m=14;root_key=fixed;max_load=0.9;grow_load=0.75;root_growth=double;node_growth=double;incremental=true;slot_order=model"
        );
    }

    #[test]
    fn wide_values_index_width_and_full_root_give_table_full() {
        // k = 3: a root child is a slot, so values must fit u bits.
        let mut t = CompactTree::new(3, &small(8, 2, 6, Some(10)), Budget::unlimited()).unwrap();
        assert!(t.find_or_insert(&[63, 0, 1]).unwrap().is_new());
        let e = t.find_or_insert(&[1, 64, 1]).unwrap_err();
        assert_eq!(
            e.message,
            "compact-tree: slot 1 value 64 needs more than u=6 bits"
        );
        let e = t.find_or_insert(&[1, 2, u32::MAX]).unwrap_err();
        assert!(
            e.message.contains("slot 2 value 4294967295"),
            "{}",
            e.message
        );
        // k = 4: slot values are in the leaves; any u32 is stored exactly.
        let mut t = CompactTree::new(4, &small(8, 2, 6, Some(10)), Budget::unlimited()).unwrap();
        assert!(t.find_or_insert(&[63, 0, 1, 2]).unwrap().is_new());
        for v in [[1, 64, 1, 2], [1, 2, u32::MAX, 2], [u32::MAX, 0, 1, 2]] {
            assert!(t.find_or_insert(&v).unwrap().is_new(), "{v:?}");
            assert!(!t.find_or_insert(&v).unwrap().is_new(), "{v:?}");
        }
        let mut t = CompactTree::new(4, &small(8, 2, 6, Some(10)), Budget::unlimited()).unwrap();
        // w = 8: 256 tuples per node table.
        let mut n = 0;
        let e = loop {
            match t.find_or_insert(&[n % 64, n / 64, 0, 0]) {
                Ok(_) => n += 1,
                Err(e) => break e,
            }
        };
        assert_eq!(n, 256);
        assert!(e.message.contains("index width"), "{}", e.message);
        // The root: 2^10 buckets at load 0.9 hold 921 states.
        let mut t = CompactTree::new(4, &small(8, 2, 6, Some(10)), Budget::unlimited()).unwrap();
        let mut n = 0u32;
        let e = loop {
            match t.find_or_insert(&[n % 32, 0, (n / 32) % 64, 0]) {
                Ok(r) => assert!(r.is_new()),
                Err(e) => break e,
            }
            n += 1;
        };
        assert_eq!(n, 921);
        assert!(e.message.contains("maximal load"), "{}", e.message);
        for i in 0..n {
            assert!(!t
                .find_or_insert(&[i % 32, 0, (i / 32) % 64, 0])
                .unwrap()
                .is_new());
        }
        // The budget: construction or growth refused, never an abort.
        assert!(CompactTree::new(4, &small(8, 2, 6, Some(10)), Budget::new(100)).is_err());
    }

    #[test]
    fn auto_size_grows_with_the_states() {
        let c = CompactTreeConfig {
            initial_m: 4,
            node_buckets: 16,
            adaptive_key: false,
            ..Default::default()
        };
        let mut t = CompactTree::new(3, &c, Budget::new(1 << 30)).unwrap();
        for i in 0..100_000u32 {
            assert!(t
                .find_or_insert(&[i % 300, i / 300, i % 11])
                .unwrap()
                .is_new());
        }
        let root = t.root().table();
        // 100000 / 0.75 → 2^18 buckets; K = w + u = 60.
        assert_eq!(root.log2_buckets(), 18);
        assert_eq!(root.entry_bits(), 60 - 18 + 3);
        assert_eq!(root.growths(), 14);
        for i in 0..100_000u32 {
            assert!(!t
                .find_or_insert(&[i % 300, i / 300, i % 11])
                .unwrap()
                .is_new());
        }
    }
}

#[cfg(test)]
mod conformance_tests {
    use super::*;
    use crate::conformance::{check_adversarial, check_stream, streams};
    use crate::visited::VisitedSet;
    use proptest::prelude::*;

    fn make(k: usize, incremental: bool, m: Option<u32>, adaptive: bool) -> Box<dyn VisitedSet> {
        // The node tables' growth alternates with the root's shape.
        let node_growth = if adaptive == incremental {
            Growth::Fine
        } else {
            Growth::Double
        };
        Box::new(
            CompactTree::new(
                k,
                &CompactTreeConfig {
                    m,
                    incremental,
                    node_growth,
                    // A growing root at bucket counts c·2^j with the
                    // adaptive key (widened in place at those counts).
                    root_growth: if adaptive {
                        Growth::Fine
                    } else {
                        Growth::Double
                    },
                    adaptive_key: adaptive,
                    initial_m: 4,
                    node_buckets: 16,
                    ..Default::default()
                },
                Budget::unlimited(),
            )
            .unwrap(),
        )
    }

    #[test]
    fn adversarial_streams_behave_like_a_hash_set() {
        for adaptive in [false, true] {
            check_adversarial(&|k| make(k, true, None, adaptive), 1 << 30);
            check_adversarial(&|k| make(k, false, Some(16), adaptive), 1 << 30);
        }
    }

    #[test]
    fn all_slots_equal_long_vectors() {
        for (k, adaptive) in [1usize, 2, 3, 5, 999, 1000]
            .into_iter()
            .flat_map(|k| [(k, false), (k, true)])
        {
            let mut set = make(k, true, None, adaptive);
            let stream: Vec<Vec<u32>> = (0..300u32)
                .flat_map(|i| [vec![i; k], vec![i / 2; k], vec![(1 << 30) - 1 - i; k]])
                .collect();
            check_stream(set.as_mut(), &stream);
        }
    }

    #[test]
    fn small_w_and_u_at_the_top_of_their_range() {
        // u = w = 5: root keys of 5 (k = 1) or 10 bits, values and node
        // indices up to 31, 80% of the root keys.
        for (k, adaptive_key) in [1usize, 2, 3, 4]
            .into_iter()
            .flat_map(|k| [(k, false), (k, true)])
        {
            let c = CompactTreeConfig {
                w: 5,
                o: 5,
                u: 5,
                adaptive_key,
                initial_m: 4,
                node_buckets: 16,
                ..Default::default()
            };
            let mut set = CompactTree::new(k, &c, Budget::unlimited()).unwrap();
            let n = if k == 1 { 25 } else { 819 };
            let stream: Vec<Vec<u32>> = (0..n)
                .map(|i: u32| {
                    let (a, b) = (i & 31, i >> 5);
                    match k {
                        1 => vec![a],
                        2 => vec![a, b],
                        3 => vec![a, 0, b],
                        _ => vec![a, 0, b, 0],
                    }
                })
                .collect();
            check_stream(&mut set, &stream);
        }
    }

    proptest! {
        #[test]
        fn random_streams_behave_like_a_hash_set(
            (k, stream) in streams(9, 4),
            inc in any::<bool>(),
            fixed in any::<bool>(),
            adaptive in any::<bool>(),
        ) {
            check_stream(make(k, inc, fixed.then_some(9), adaptive).as_mut(), &stream);
        }

        #[test]
        fn wide_values_behave_like_a_hash_set(
            (k, stream) in streams(7, 4),
            shift in 26u32..29,
            adaptive in any::<bool>(),
        ) {
            let stream: Vec<Vec<u32>> = stream
                .into_iter()
                .map(|v| v.into_iter().map(|x| (x << shift) | x).collect())
                .collect();
            check_stream(make(k, true, None, adaptive).as_mut(), &stream);
        }
    }

    #[test]
    fn adaptive_keys_widen_for_wide_children_and_for_too_few_buckets() {
        // k = 2: the root children are the two slots. Every pair below
        // 2^8 fits the initial 8 + 8 key bits, but 2^16 buckets cannot take
        // 2^16 keys: the key widens before the table fills; then values
        // of 9..=20 bits widen it again.
        let mut set = CompactTree::new(
            2,
            &CompactTreeConfig {
                adaptive_key: true,
                initial_m: 4,
                ..Default::default()
            },
            Budget::unlimited(),
        )
        .unwrap();
        let mut stream: Vec<Vec<u32>> = (0..1u32 << 16).map(|i| vec![i >> 8, i & 255]).collect();
        stream.extend((8..20).map(|b| vec![1 << b, 3]));
        stream.extend((8..20).map(|b| vec![5, (1 << b) + 1]));
        check_stream(&mut set, &stream);
        let root = set.root();
        assert!(root.table().key_bits() > 16 && root.table().key_bits() <= 40);
        assert!(root.key.rekeys >= 2, "{} re-keyings", root.key.rekeys);
        assert_eq!(
            root.table().entry_bits(),
            root.table().key_bits() - root.table().log2_buckets() + 3
        );
    }

    #[test]
    fn adaptive_keys_take_fewer_bits_than_fixed_ones() {
        let stream: Vec<Vec<u32>> = (0..20_000u32)
            .map(|i| vec![i % 97, i / 97, i % 5, 7, i % 11])
            .collect();
        let bits = |adaptive_key| {
            let mut set = make(5, true, None, adaptive_key);
            check_stream(set.as_mut(), &stream);
            set.memory().used
        };
        assert!(bits(true) < bits(false));
    }
}
