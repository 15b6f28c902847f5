//! The `pairing` slot order of the tree engines (dynamic, from the values
//! of a sample of states): builds the tree's subtrees bottom-up by greedy
//! pairing, so that each subtree holds slots whose joint values are few.
//!
//! The tree's shape is fixed (a node over `n` slots has children over
//! `⌈n/2⌉` and `⌊n/2⌋` slots, the larger on the left; see `shape`), so
//! the order fills it size by size: starting from the single slots, for
//! each node size `n` in increasing order it forms as many clusters of `n`
//! slots as the shape has nodes of that size, each by joining one cluster
//! of `⌈n/2⌉` and one of `⌊n/2⌋` slots, taking the candidate pairs in
//! increasing order of their score on the sample (a pair whose clusters
//! are both still free is joined). A cluster's *tuples* are the distinct
//! projections of the sample onto its slots, as a node table of the tree
//! would hold them; a pair's score is its joined tuples over its larger
//! child's (see [`growth`]). The last cluster's slots, left to right, are
//! the order.
//!
//! Where two halves of a vector encode the same configuration (rushhour's
//! board and its cars' coordinates), pairing puts each board cell beside
//! the coordinates that decide it, so neither root half holds a complete
//! encoding. It owns only this order; `order` chooses among the orders.

use pins::Value;
use std::collections::{BTreeMap, HashMap};

/// Slot values (sample states × candidate pairs of the first level) that
/// scoring reads at most: the sample is thinned to fit.
const WORK: usize = 1 << 26;

/// A joined product of two tuple counts up to this many is counted with a
/// dense array, beyond it by sorting.
const DENSE: usize = 1 << 20;

/// A joined product of two tuple counts up to this many is counted with a
/// byte per key (most pairs of slots: hanoi's slots take 2 to 10 values),
/// marked without a test and summed once (about half the instructions of
/// a bit's test-and-set and count per key).
const MARKED: usize = 1 << 12;

/// A tuple's number within a cluster: the sample is thinned to at most
/// [`MAX_KEPT`] states, so a cluster's tuples are numbered below 2^16.
type Id = u16;

/// Sample states that fitting keeps at most (so that [`Id`] numbers them).
const MAX_KEPT: usize = 1 << 16;

/// Slots under one subtree, left to right, and the sample projected on
/// them: `ids[s]` numbers state `s`'s tuple (dense, `< tuples`).
struct Cluster {
    slots: Vec<usize>,
    ids: Ids,
    tuples: usize,
}

/// A cluster's tuple numbers, one per kept state, in the fewest bits the
/// largest so far needs: 1, 2 or 4 bits packed in words while they are
/// below 16 (most slots: schedule_world.2's 28 slots take 1 to 4 values on
/// its sample, sorter.5's 33 at most 12), a byte each while below 256
/// (many low subtrees), else an [`Id`].
enum Ids {
    Packed(Packed),
    Narrow(Vec<u8>),
    Wide(Vec<Id>),
}

/// Numbers of `1 << bits_log` bits (1, 2 or 4), `64 >> bits_log` to a
/// word, the first in the lowest bits.
struct Packed {
    bits_log: u32,
    words: Vec<u64>,
    len: usize,
    /// The numbers it is expected to hold (the kept states).
    capacity: usize,
}

impl Packed {
    fn new(bits_log: u32, capacity: usize) -> Self {
        Packed {
            bits_log,
            words: Vec::with_capacity(capacity.div_ceil(64 >> bits_log)),
            len: 0,
            capacity,
        }
    }

    /// Whether `id` fits its width.
    fn holds(&self, id: Id) -> bool {
        id >> (1 << self.bits_log) == 0
    }

    /// Word and shift of number `i`.
    #[inline]
    fn place(&self, i: usize) -> (usize, u32) {
        let per_log = 6 - self.bits_log;
        (i >> per_log, ((i & ((1 << per_log) - 1)) as u32) << self.bits_log)
    }

    fn push(&mut self, id: Id) {
        let (word, shift) = self.place(self.len);
        if word == self.words.len() {
            self.words.push(0);
        }
        self.words[word] |= u64::from(id) << shift;
        self.len += 1;
    }

    /// Calls `f(x, number)` with the numbers of `B` bits (`1 <<
    /// bits_log`) beside `xs`, pair by pair, as far as the shorter goes.
    #[inline]
    fn each_zipped<const B: usize>(&self, xs: &[Id], f: &mut impl FnMut(Id, u64)) {
        debug_assert_eq!(1 << self.bits_log, B);
        let mask = (1u64 << B) - 1;
        let xs = &xs[..xs.len().min(self.len)];
        for (&w, ps) in self.words.iter().zip(xs.chunks(64 / B)) {
            let mut w = w;
            for &p in ps {
                f(p, w & mask);
                w >>= B;
            }
        }
    }

    /// Writes the numbers of block `block` ([`BLOCK`] numbers from
    /// `block * BLOCK`) into `out`; returns how many there are.
    #[inline]
    fn decode(&self, block: usize, out: &mut [Id; BLOCK]) -> usize {
        match self.bits_log {
            0 => self.decode_bits::<1>(block, out),
            1 => self.decode_bits::<2>(block, out),
            _ => self.decode_bits::<4>(block, out),
        }
    }

    /// [`decode`](Self::decode) for numbers of `B` bits: a block takes `B`
    /// words (fewer in the last block; a word's numbers past the last are
    /// 0).
    #[inline]
    fn decode_bits<const B: usize>(&self, block: usize, out: &mut [Id; BLOCK]) -> usize {
        let words = &self.words[block * B..(block * B + B).min(self.words.len())];
        let (per, mask) = (64 / B, (1u64 << B) - 1);
        for (&w, out) in words.iter().zip(out.chunks_exact_mut(per)) {
            for (t, o) in out.iter_mut().enumerate() {
                *o = ((w >> (t * B)) & mask) as Id;
            }
        }
        self.len.saturating_sub(block * BLOCK).min(BLOCK)
    }
}

/// Numbers that [`Ids::for_each`] decodes at a time.
const BLOCK: usize = 64;

impl Ids {
    fn with_capacity(states: usize) -> Self {
        Ids::Packed(Packed::new(0, states))
    }

    /// The narrowest form for numbers up to `id`, for `states` numbers.
    fn for_numbers_up_to(id: Id, states: usize) -> Self {
        match id {
            0..=1 => Ids::Packed(Packed::new(0, states)),
            2..=3 => Ids::Packed(Packed::new(1, states)),
            4..=15 => Ids::Packed(Packed::new(2, states)),
            16..=255 => Ids::Narrow(Vec::with_capacity(states)),
            _ => Ids::Wide(Vec::with_capacity(states)),
        }
    }

    fn len(&self) -> usize {
        match self {
            Ids::Packed(p) => p.len,
            Ids::Narrow(v) => v.len(),
            Ids::Wide(v) => v.len(),
        }
    }

    /// Writes the numbers of block `block` ([`BLOCK`] numbers from
    /// `block * BLOCK`) into `out`; returns how many there are.
    #[inline]
    fn decode(&self, block: usize, out: &mut [Id; BLOCK]) -> usize {
        let from = (block * BLOCK).min(self.len());
        let copy = |v: &[Id], out: &mut [Id; BLOCK]| {
            out[..v.len()].copy_from_slice(v);
            v.len()
        };
        match self {
            Ids::Packed(p) => p.decode(block, out),
            Ids::Narrow(v) => {
                let v = &v[from..(from + BLOCK).min(v.len())];
                out.iter_mut().zip(v).for_each(|(o, &i)| *o = Id::from(i));
                v.len()
            }
            Ids::Wide(v) => copy(&v[from..(from + BLOCK).min(v.len())], out),
        }
    }

    /// All numbers, decoded (a left cluster is decoded once for all its
    /// joins, as [`each_key`] reads it).
    fn decoded(&self) -> Vec<Id> {
        let mut all = Vec::with_capacity(self.len());
        self.for_each(|i| all.push(i as Id));
        all
    }

    /// Calls `f` with each number, in state order.
    fn for_each(&self, mut f: impl FnMut(u64)) {
        let mut block = [0; BLOCK];
        for b in 0..self.len().div_ceil(BLOCK) {
            let m = self.decode(b, &mut block);
            block[..m].iter().for_each(|&i| f(u64::from(i)));
        }
    }

    /// Appends `id`, widening every number the first time one needs it.
    fn push(&mut self, id: Id) {
        let fits = match self {
            Ids::Packed(p) => p.holds(id),
            Ids::Narrow(_) => id <= 255,
            Ids::Wide(_) => true,
        };
        if !fits {
            let states = match self {
                Ids::Packed(p) => p.capacity,
                Ids::Narrow(v) => v.capacity(),
                Ids::Wide(v) => v.capacity(),
            };
            let mut wider = Ids::for_numbers_up_to(id, states);
            self.for_each(|i| wider.put(i as Id));
            *self = wider;
        }
        self.put(id);
    }

    /// Appends `id`, which its form holds.
    #[inline]
    fn put(&mut self, id: Id) {
        match self {
            Ids::Packed(p) => p.push(id),
            Ids::Narrow(v) => v.push(id as u8),
            Ids::Wide(v) => v.push(id),
        }
    }
}

/// Calls `f` with the key `p * width + q` of each state's numbers `p` in
/// `xs` (decoded, see [`Ids::decoded`]) and `q` in `y`, in state order:
/// `y`'s numbers are read in place, a loop for each form (decoding them
/// into a block first took a third of fitting's instructions).
fn each_key(xs: &[Id], y: &Ids, width: u64, mut f: impl FnMut(u64)) {
    let mut key = |p: Id, q: u64| f(u64::from(p) * width + q);
    match y {
        Ids::Packed(packed) => match packed.bits_log {
            0 => packed.each_zipped::<1>(xs, &mut key),
            1 => packed.each_zipped::<2>(xs, &mut key),
            _ => packed.each_zipped::<4>(xs, &mut key),
        },
        Ids::Narrow(v) => xs.iter().zip(v).for_each(|(&p, &q)| key(p, u64::from(q))),
        Ids::Wide(v) => xs.iter().zip(v).for_each(|(&p, &q)| key(p, u64::from(q))),
    }
}

/// Values below this are numbered through a table indexed by the value
/// (grown to the largest met), the others through a hash map: most slots
/// hold small values, and hashing each took more instructions than
/// fitting reads per value.
const DIRECT_VALUES: usize = 1 << 10;

/// One slot's values in the kept sample states, numbered as they come
/// (the first value met is 0), so the sample is held as [`Id`]s, never as
/// whole values.
pub struct SlotColumn {
    /// Number + 1 of each value below [`DIRECT_VALUES`] met (0: not met).
    direct: Vec<u32>,
    /// The number of each larger value met.
    number: HashMap<Value, Id>,
    /// Distinct values met.
    tuples: usize,
    ids: Ids,
}

impl SlotColumn {
    /// An empty column for `states` kept states.
    pub fn with_capacity(states: usize) -> Self {
        SlotColumn {
            direct: Vec::new(),
            number: HashMap::new(),
            tuples: 0,
            ids: Ids::with_capacity(states),
        }
    }

    /// Appends the slot's value in the next kept state.
    pub fn push(&mut self, value: Value) {
        let next = self.tuples as Id;
        let v = value as usize;
        let id = if v < DIRECT_VALUES {
            if v >= self.direct.len() {
                self.direct.resize(v + 1, 0);
            }
            let known = &mut self.direct[v];
            if *known == 0 {
                *known = u32::from(next) + 1;
                self.tuples += 1;
            }
            (*known - 1) as Id
        } else {
            let tuples = &mut self.tuples;
            *self.number.entry(value).or_insert_with(|| {
                *tuples += 1;
                next
            })
        };
        self.ids.push(id);
    }

    /// The numbered column, without its numbering (which fitting never
    /// reads).
    pub fn finish(self) -> NumberedColumn {
        NumberedColumn {
            tuples: self.tuples,
            ids: self.ids,
        }
    }
}

/// A slot's column of the sample, numbered by [`SlotColumn`].
pub struct NumberedColumn {
    ids: Ids,
    tuples: usize,
}


/// Which sample states fitting reads, of `n` states over `k` slots: every
/// `step`-th (the sample is thinned so that scoring reads at most about
/// [`WORK`] slot values, and keeps at most [`MAX_KEPT`] states).
pub fn thinning(k: usize, n: usize) -> usize {
    let pairs = (k * k.saturating_sub(1) / 2).max(1);
    let keep = (WORK / pairs).max(64).min(n.max(1));
    let step = (n / keep).max(1);
    if n.div_ceil(step) > MAX_KEPT {
        n.div_ceil(MAX_KEPT)
    } else {
        step
    }
}

/// The `pairing` order of `k` slots from `states` (each of `k` values);
/// empty where it cannot help (fewer than 3 slots or no state).
#[cfg(test)]
pub fn pairing_order(k: usize, states: &[Vec<Value>]) -> Vec<usize> {
    let step = thinning(k, states.len());
    let columns = (0..k)
        .map(|s| {
            let mut column = SlotColumn::with_capacity(states.len());
            states.iter().step_by(step).for_each(|v| column.push(v[s]));
            column.finish()
        })
        .collect();
    pairing_order_of_columns(columns)
}

/// The `pairing` order from the sample given slot by slot (`columns[s]`:
/// slot `s`'s numbered values in the states [`thinning`] keeps), which it
/// consumes: each column becomes its slot's cluster, and the clusters a
/// join takes are freed as it forms each new one, so fitting holds about
/// as many [`Id`]s as the columns.
pub fn pairing_order_of_columns(columns: Vec<NumberedColumn>) -> Vec<usize> {
    let k = columns.len();
    let n = columns.first().map_or(0, |c| c.ids.len());
    if k < 3 || n == 0 {
        return Vec::new();
    }
    let mut pools: BTreeMap<usize, Vec<Cluster>> = BTreeMap::new();
    let singles = columns.into_iter().enumerate().map(|(s, c)| Cluster {
        slots: vec![s],
        ids: c.ids,
        tuples: c.tuples,
    });
    pools.insert(1, singles.collect());
    let mut counter = Counter::default();
    for (n, count) in node_sizes(k) {
        let (a, b) = (n.div_ceil(2), n / 2);
        let joined = join_pairs(&mut pools, a, b, count, &mut counter);
        pools.entry(n).or_default().extend(joined);
    }
    let mut root = pools.remove(&k).unwrap_or_default();
    root.pop().map(|c| c.slots).unwrap_or_default()
}

/// The sizes of the shape's nodes over `k` slots, ascending, each with how
/// many nodes have it.
fn node_sizes(k: usize) -> Vec<(usize, usize)> {
    let mut count = BTreeMap::from([(k, 1usize)]);
    let mut sizes = Vec::new();
    while let Some((n, c)) = count.pop_last() {
        if n >= 2 {
            *count.entry(n.div_ceil(2)).or_default() += c;
            *count.entry(n / 2).or_default() += c;
            sizes.push((n, c));
        }
    }
    sizes.reverse();
    sizes
}

/// Forms `count` clusters, each of one cluster of `a` slots (left) and one
/// of `b` slots taken from `pools`, the best-scored free pairs first.
fn join_pairs(
    pools: &mut BTreeMap<usize, Vec<Cluster>>,
    a: usize,
    b: usize,
    count: usize,
    counter: &mut Counter,
) -> Vec<Cluster> {
    let left = pools.remove(&a).unwrap_or_default();
    let right = if a == b { Vec::new() } else { pools.remove(&b).unwrap_or_default() };
    let same = a == b;
    let rights = if same { &left } else { &right };
    let mut candidates = Vec::new();
    for (i, x) in left.iter().enumerate() {
        let xs = x.ids.decoded();
        for (j, y) in rights.iter().enumerate().skip(if same { i + 1 } else { 0 }) {
            let tuples = counter.joint(&xs, x, y);
            candidates.push((growth(tuples, x, y), tuples, i, j));
        }
    }
    candidates.sort_by(|p, q| p.0.total_cmp(&q.0).then(p.1.cmp(&q.1)));
    let mut used_left = vec![false; left.len()];
    let mut used_right = vec![false; rights.len()];
    let mut picked = Vec::with_capacity(count);
    for &(_, _, i, j) in &candidates {
        if picked.len() == count {
            break;
        }
        let free = if same {
            !used_left[i] && !used_left[j]
        } else {
            !used_left[i] && !used_right[j]
        };
        if free {
            used_left[i] = true;
            if same {
                used_left[j] = true;
            } else {
                used_right[j] = true;
            }
            picked.push((i, j));
        }
    }
    // Each pair's clusters are freed as soon as their join is formed.
    let mut left: Vec<Option<Cluster>> = left.into_iter().map(Some).collect();
    let mut right: Vec<Option<Cluster>> = right.into_iter().map(Some).collect();
    let mut joined = Vec::with_capacity(picked.len());
    for &(i, j) in &picked {
        let x = left[i].take();
        let y = if same { left[j].take() } else { right[j].take() };
        if let (Some(x), Some(y)) = (x, y) {
            joined.push(counter.merge(&x, &y));
        }
    }
    // Clusters not joined here stay for the next node size that takes them.
    pools.entry(a).or_default().extend(left.into_iter().flatten());
    if !same {
        pools.entry(b).or_default().extend(right.into_iter().flatten());
    }
    joined
}

/// The score of joining `x` and `y` into `tuples` tuples: their growth
/// over the larger child's tuples, 1 where one child decides the other.
/// Lower joins first (ties: fewer tuples). Rating by the tuples alone
/// joins the few-valued slots first and leaves the many-valued ones to
/// meet high in the tree: on the sample it takes 3.6× the tuples on
/// rushhour.3 and 1.6× on loyd.2.
fn growth(tuples: usize, x: &Cluster, y: &Cluster) -> f64 {
    tuples as f64 / x.tuples.max(y.tuples).max(1) as f64
}

/// Counts joined tuples, reusing its buffers.
struct Counter {
    /// One byte per key of a small count (product up to [`MARKED`]): 1
    /// while the key is met, all 0 between counts.
    marks: Box<[u8; MARKED]>,
    /// Each marked key's rank among the marked ones (a merge's numbers).
    ranks: Box<[Id; MARKED]>,
    /// One bit per key of a dense count (at most `DENSE` bits, 128 KiB,
    /// grown to the largest product counted so far): set while the key is
    /// met, all clear between counts.
    seen: Vec<u64>,
    /// Joint tuples as keys `p * width + q`: below the product of two
    /// clusters' tuples, each at most [`MAX_KEPT`] (2^16), so 32 bits hold
    /// them.
    keys: Vec<u32>,
}

impl Default for Counter {
    fn default() -> Self {
        Counter {
            marks: Box::new([0; MARKED]),
            ranks: Box::new([0; MARKED]),
            seen: Vec::new(),
            keys: Vec::new(),
        }
    }
}

impl Counter {
    /// The tuples of `x` (its numbers decoded: `xs`) and `y` joined.
    fn joint(&mut self, xs: &[Id], x: &Cluster, y: &Cluster) -> usize {
        let width = y.tuples as u64;
        let product = x.tuples.saturating_mul(y.tuples);
        if product <= MARKED {
            // Keys are below `product`: the mask keeps them in the array
            // without a bounds check and changes none.
            let marks = &mut self.marks;
            each_key(xs, &y.ids, width, |k| marks[k as usize & (MARKED - 1)] = 1);
            let marked = &mut marks[..product];
            let distinct = marked.iter().map(|&m| usize::from(m)).sum();
            marked.fill(0);
            distinct
        } else if product <= DENSE {
            let words = product.div_ceil(64);
            if self.seen.len() < words {
                self.seen.resize(words, 0);
            }
            let (seen, mut distinct) = (&mut self.seen, 0);
            each_key(xs, &y.ids, width, |k| {
                let (word, bit) = ((k / 64) as usize, 1u64 << (k % 64));
                distinct += (seen[word] & bit == 0) as usize;
                seen[word] |= bit;
            });
            // Clear what this count set: the words it can have touched,
            // or the keys again where they are fewer.
            if words <= xs.len() {
                seen[..words].fill(0);
            } else {
                each_key(xs, &y.ids, width, |k| seen[(k / 64) as usize] = 0);
            }
            distinct
        } else {
            self.distinct_keys(xs, y);
            self.keys.len()
        }
    }

    /// Leaves in `keys` the joint tuples of `xs` (decoded) and `y`,
    /// increasing.
    fn distinct_keys(&mut self, xs: &[Id], y: &Cluster) {
        self.keys.clear();
        each_key(xs, &y.ids, y.tuples as u64, |k| self.keys.push(key32(k)));
        self.keys.sort_unstable();
        self.keys.dedup();
    }

    /// `x` (left) and `y` joined into one cluster, each joint tuple
    /// numbered by its rank among the distinct ones (counts and joins do
    /// not depend on the numbering; sorting holds 4 bytes per state where
    /// a hash map held 32).
    fn merge(&mut self, x: &Cluster, y: &Cluster) -> Cluster {
        let xs = x.ids.decoded();
        let (width, n) = (y.tuples as u64, xs.len());
        let product = x.tuples.saturating_mul(y.tuples);
        // The numbers are ranks below the joint tuples, all met: their
        // form is the one pushing them would widen to, taken up front.
        let (ids, tuples) = if product <= MARKED {
            // The keys met marked, then ranked in key order: the rank a
            // sorted list of the distinct keys gives.
            let (marks, ranks) = (&mut self.marks, &mut self.ranks);
            each_key(&xs, &y.ids, width, |k| marks[k as usize & (MARKED - 1)] = 1);
            let mut next: usize = 0;
            for (rank, mark) in ranks.iter_mut().zip(marks.iter_mut()).take(product) {
                *rank = next as Id;
                next += usize::from(*mark);
                *mark = 0;
            }
            let mut ids = Ids::for_numbers_up_to(next.saturating_sub(1) as Id, n);
            each_key(&xs, &y.ids, width, |k| ids.put(ranks[k as usize & (MARKED - 1)]));
            (ids, next)
        } else {
            self.distinct_keys(&xs, y);
            let keys = &self.keys;
            let mut ids = Ids::for_numbers_up_to(keys.len().saturating_sub(1) as Id, n);
            each_key(&xs, &y.ids, width, |k| {
                let k = key32(k);
                ids.put(keys.partition_point(|&d| d < k) as Id)
            });
            (ids, keys.len())
        };
        let slots = x.slots.iter().chain(&y.slots).copied().collect();
        Cluster { slots, ids, tuples }
    }
}

/// A joint key in 32 bits (see [`Counter::keys`]).
#[inline]
fn key32(k: u64) -> u32 {
    debug_assert!(k <= u64::from(u32::MAX), "a joint key below 2^32");
    k as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_widen_past_255_and_keys_read_them_back() {
        let (mut x, mut zero) = (Ids::with_capacity(2), Ids::with_capacity(2));
        for i in 0..300 {
            x.push(i);
            zero.push(0);
        }
        assert!(matches!(x, Ids::Wide(_)) && matches!(zero, Ids::Packed(Packed { bits_log: 0, .. })));
        let mut keys = Vec::new();
        each_key(&x.decoded(), &zero, 1, |k| keys.push(k));
        assert_eq!(keys, (0..300).collect::<Vec<u64>>());
        keys.clear();
        each_key(&zero.decoded(), &x, 300, |k| keys.push(k));
        assert_eq!(keys, (0..300).collect::<Vec<u64>>());
    }

    #[test]
    fn numbers_keep_their_values_through_every_width() {
        // 0, 1, then each new number one above the largest: the form
        // widens at 2, 4, 16 and 256 (1, 2, 4 bits, a byte, an Id), and
        // repeats of earlier numbers sit between, across word boundaries.
        let mut ids = Ids::with_capacity(10);
        let mut expect = Vec::new();
        for n in 0..300u16 {
            for i in [n, n / 2, n / 3, 0] {
                ids.push(i);
                expect.push(u64::from(i));
            }
            let width = match &ids {
                Ids::Packed(p) => 1 << p.bits_log,
                Ids::Narrow(_) => 8,
                Ids::Wide(_) => 16,
            };
            let need = [1, 2, 4, 8, 16].into_iter().find(|&b| u32::from(n) >> b == 0);
            assert_eq!(Some(width), need, "numbers up to {n}");
        }
        let mut got = Vec::new();
        ids.for_each(|i| got.push(i));
        assert_eq!((ids.len(), got), (expect.len(), expect.clone()));
        let mut keys = Vec::new();
        let ones = {
            let mut o = Ids::with_capacity(expect.len());
            expect.iter().for_each(|_| o.push(1));
            o
        };
        each_key(&ones.decoded(), &ids, 300, |k| keys.push(k));
        assert_eq!(keys, expect.iter().map(|&i| 300 + i).collect::<Vec<_>>());
    }

    /// A cluster over no slot holding `ids`, numbered below `tuples`.
    fn cluster_of(ids: &[Id], tuples: usize) -> Cluster {
        let mut packed = Ids::with_capacity(ids.len());
        ids.iter().for_each(|&i| packed.push(i));
        Cluster {
            slots: Vec::new(),
            ids: packed,
            tuples,
        }
    }

    #[test]
    fn joint_tuples_are_the_distinct_pairs_by_every_count() {
        // Products 6 and 4,096 (marked bytes), 4,160 and 2^20 (bits),
        // 2^20 + 1024 (sorted keys): each count is the pairs' set's size.
        let mut counter = Counter::default();
        for (tx, ty) in [(2, 3), (64, 64), (65, 64), (1024, 1024), (1025, 1024)] {
            let n = 5_000usize;
            let xs: Vec<Id> = (0..n).map(|s| ((s * 7919 + s / 3) % tx) as Id).collect();
            let ys: Vec<Id> = (0..n).map(|s| ((s * s + 11 * s) % ty) as Id).collect();
            let (x, y) = (cluster_of(&xs, tx), cluster_of(&ys, ty));
            let pairs: std::collections::HashSet<(Id, Id)> = xs.iter().copied().zip(ys.iter().copied()).collect();
            assert_eq!(counter.joint(&x.ids.decoded(), &x, &y), pairs.len(), "{tx} x {ty}");
            // Buffers left clear: the same count again.
            assert_eq!(counter.joint(&xs, &x, &y), pairs.len(), "{tx} x {ty} again");
        }
    }

    #[test]
    fn merges_number_joint_tuples_by_rank_of_their_keys_by_every_count() {
        // Products 12 (marked bytes) and 5,000 (sorted keys): each state's
        // number is its pair's rank among the distinct pairs.
        let mut counter = Counter::default();
        for (tx, ty) in [(3, 4), (50, 100)] {
            let n = 3_000usize;
            let xs: Vec<Id> = (0..n).map(|s| ((s * 31 + s / 7) % tx) as Id).collect();
            let ys: Vec<Id> = (0..n).map(|s| ((s * s + 5) % ty) as Id).collect();
            let (x, y) = (cluster_of(&xs, tx), cluster_of(&ys, ty));
            let mut distinct: Vec<(Id, Id)> = xs.iter().copied().zip(ys.iter().copied()).collect();
            distinct.sort_unstable();
            distinct.dedup();
            let rank = |s: usize| distinct.binary_search(&(xs[s], ys[s])).unwrap() as u64;
            let joined = counter.merge(&x, &y);
            let mut got = Vec::new();
            joined.ids.for_each(|i| got.push(i));
            assert_eq!(joined.tuples, distinct.len(), "{tx} x {ty}");
            assert_eq!(got, (0..n).map(rank).collect::<Vec<_>>(), "{tx} x {ty}");
        }
    }

    #[test]
    fn slot_columns_number_values_in_the_order_met() {
        // Small values (a table) and large ones (a map) interleaved.
        let values = [5, 70_000, 5, 0, 1023, 1024, 70_000, 0, 3, 1024, u32::MAX, 3];
        let mut column = SlotColumn::with_capacity(values.len());
        values.iter().for_each(|&v| column.push(v));
        let column = column.finish();
        let mut got = Vec::new();
        column.ids.for_each(|i| got.push(i));
        assert_eq!(got, vec![0, 1, 0, 2, 3, 4, 1, 2, 5, 4, 6, 5]);
        assert_eq!(column.tuples, 7);
    }

    #[test]
    fn node_sizes_follow_the_halving_shape() {
        // 5 = 3 + 2, 3 = 2 + 1.
        assert_eq!(node_sizes(5), vec![(2, 2), (3, 1), (5, 1)]);
        assert_eq!(node_sizes(4), vec![(2, 2), (4, 1)]);
        let k = 101;
        let nodes: usize = node_sizes(k).iter().map(|p| p.1).sum();
        assert_eq!(nodes, k - 1);
    }

    #[test]
    fn pairing_puts_slots_that_decide_each_other_in_one_subtree() {
        // Slots 0 and 2 are copies, as are 1 and 3: pairing joins the
        // copies at the leaves (2 × 10 tuples, not 2 × 100).
        let states: Vec<Vec<Value>> = (0..100).map(|i| vec![i % 10, i / 10, i % 10, i / 10]).collect();
        let order = pairing_order(4, &states);
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, vec![0, 1, 2, 3], "a permutation");
        let leaf = |p: usize| order[p] % 2;
        assert_eq!(leaf(0), leaf(1), "{order:?}");
        assert_eq!(leaf(2), leaf(3), "{order:?}");
    }

    #[test]
    fn pairing_gives_a_permutation_for_uneven_sizes() {
        let states: Vec<Vec<Value>> = (0..50u32).map(|i| (0..11).map(|s| (i * (s + 1)) % 7).collect()).collect();
        let mut order = pairing_order(11, &states);
        order.sort_unstable();
        assert_eq!(order, (0..11).collect::<Vec<_>>());
        assert!(pairing_order(2, &states).is_empty());
    }
}
