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

/// Slots under one subtree, left to right, and the sample projected on
/// them: `ids[s]` numbers state `s`'s tuple (dense, `< tuples`).
struct Cluster {
    slots: Vec<usize>,
    ids: Vec<u32>,
    tuples: usize,
}

/// The `pairing` order of `k` slots from `states` (each of `k` values);
/// empty where it cannot help (fewer than 3 slots or no state).
#[cfg(test)]
pub fn pairing_order(k: usize, states: &[Vec<Value>]) -> Vec<usize> {
    let columns = (0..k).map(|s| states.iter().map(|v| v[s]).collect()).collect();
    pairing_order_of_columns(columns)
}

/// The `pairing` order from the sample given slot by slot (`columns[s]`:
/// slot `s`'s value in each state), which it consumes: each column becomes
/// its slot's cluster in place, so fitting holds no more than the sample.
pub fn pairing_order_of_columns(columns: Vec<Vec<Value>>) -> Vec<usize> {
    let k = columns.len();
    let n = columns.first().map_or(0, Vec::len);
    if k < 3 || n == 0 {
        return Vec::new();
    }
    let pairs = k * (k - 1) / 2;
    let keep = (WORK / pairs).max(64).min(n);
    let step = (n / keep).max(1);
    let mut pools: BTreeMap<usize, Vec<Cluster>> = BTreeMap::new();
    let singles = columns.into_iter().enumerate().map(|(s, c)| single(s, c, step));
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

/// The cluster of slot `s` alone, from its column (every `step`-th value
/// kept), numbered in place.
fn single(s: usize, mut column: Vec<Value>, step: usize) -> Cluster {
    let mut number: HashMap<Value, u32> = HashMap::new();
    let mut kept = 0;
    for i in (0..column.len()).step_by(step) {
        let next = number.len() as u32;
        column[kept] = *number.entry(column[i]).or_insert(next);
        kept += 1;
    }
    column.truncate(kept);
    column.shrink_to_fit();
    let ids = column;
    Cluster {
        slots: vec![s],
        ids,
        tuples: number.len(),
    }
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
        for (j, y) in rights.iter().enumerate().skip(if same { i + 1 } else { 0 }) {
            let tuples = counter.joint(x, y);
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
    let joined = picked
        .iter()
        .map(|&(i, j)| counter.merge(&left[i], &rights[j]))
        .collect();
    // Clusters not joined here stay for the next node size that takes them.
    let rest = |pool: Vec<Cluster>, used: &[bool]| -> Vec<Cluster> {
        pool.into_iter().zip(used).filter(|(_, &u)| !u).map(|(c, _)| c).collect()
    };
    let left_rest = rest(left, &used_left);
    pools.entry(a).or_default().extend(left_rest);
    if !same {
        let right_rest = rest(right, &used_right);
        pools.entry(b).or_default().extend(right_rest);
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
#[derive(Default)]
struct Counter {
    /// `seen[key] == stamp`: the key was met in the current count.
    seen: Vec<u32>,
    stamp: u32,
    keys: Vec<u64>,
}

impl Counter {
    /// The tuples of `x` and `y` joined.
    fn joint(&mut self, x: &Cluster, y: &Cluster) -> usize {
        let width = y.tuples as u64;
        let key = |(&p, &q): (&u32, &u32)| p as u64 * width + q as u64;
        let pairs = x.ids.iter().zip(&y.ids);
        if x.tuples.saturating_mul(y.tuples) <= DENSE {
            if self.seen.is_empty() || self.stamp == u32::MAX {
                self.seen = vec![0; DENSE];
                self.stamp = 0;
            }
            self.stamp += 1;
            let mut distinct = 0;
            for k in pairs.map(key) {
                let seen = &mut self.seen[k as usize];
                distinct += (*seen != self.stamp) as usize;
                *seen = self.stamp;
            }
            distinct
        } else {
            self.keys.clear();
            self.keys.extend(pairs.map(key));
            self.keys.sort_unstable();
            self.keys.dedup();
            self.keys.len()
        }
    }

    /// `x` (left) and `y` joined into one cluster.
    fn merge(&mut self, x: &Cluster, y: &Cluster) -> Cluster {
        let width = y.tuples as u64;
        let mut number: HashMap<u64, u32> = HashMap::new();
        let ids = x
            .ids
            .iter()
            .zip(&y.ids)
            .map(|(&p, &q)| {
                let next = number.len() as u32;
                *number.entry(p as u64 * width + q as u64).or_insert(next)
            })
            .collect();
        let slots = x.slots.iter().chain(&y.slots).copied().collect();
        Cluster {
            slots,
            ids,
            tuples: number.len(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
