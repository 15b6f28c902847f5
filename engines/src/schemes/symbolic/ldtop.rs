//! Relations of the list decision diagram applied from a group's top
//! slot (issue 36, points 1 and 4): the part of a set above a slot
//! ([`Above`]: per level, its distinct sets and the edges between them,
//! built once per set and shared by every group), the group's image of
//! each set at its top slot that holds a value the relation reads there
//! ([`super::Ldd::image_rec`] from that slot), and the rebuild of the
//! ancestors of the sets with successors only. A group's image then costs
//! the sets of its top slot it may enable and their ancestors, where a
//! walk from the root visited every node above the top once per group
//! (25% of BridgeAndVehicles-PT-V20P20N20's time). The same levels give
//! the prefix counts of [`super::Ldd`]'s transition count, for the same
//! set without walking it again. The enabling test does not use them
//! (see [`super::Ldd`]'s `enables`).
//!
//! Owns the levels above a slot and the top-slot image. Must not know
//! models, strategies or learning.

use super::{Id, Ldd, Store, ANY, EMPTY, END};
use crate::schemes::symbolic::diagram::DdResult;
use pins::Value;

/// The levels of one set `root` from slot 0 down to some slot, valid
/// while the store has not collected since `epoch`.
pub(super) struct Above {
    root: Id,
    epoch: u64,
    /// `levels[l]`: the distinct sets at slot `l` (suffixes over slots
    /// `≥ l` reached by some prefix), increasing.
    levels: Vec<Vec<Id>>,
    /// `edges[l]`: (set at slot `l + 1`, set at slot `l` with an entry
    /// leading to it), one per entry, increasing.
    edges: Vec<Vec<(Id, Id)>>,
    /// `index[l]`: (value, set) of every entry of the sets at slot `l`,
    /// increasing; built for the slots some group's top asked for.
    index: Vec<Option<Vec<(Value, Id)>>>,
}

impl Above {
    pub(super) fn new(root: Id, epoch: u64) -> Above {
        Above {
            root,
            epoch,
            levels: vec![if root == EMPTY { Vec::new() } else { vec![root] }],
            edges: Vec::new(),
            index: vec![None],
        }
    }

    /// Whether it describes `root` in the store's `epoch`.
    pub(super) fn is_of(&self, root: Id, epoch: u64) -> bool {
        self.root == root && self.epoch == epoch
    }

    /// Extends the levels down to slot `t` (below the set's last slot,
    /// a level is empty).
    pub(super) fn reach(&mut self, st: &Store, t: usize) {
        while self.levels.len() <= t {
            let mut edges = Vec::new();
            for &h in self.levels.last().expect("slot 0") {
                let mut a = h;
                while a > END {
                    let n = st.node(a);
                    if n.down > END {
                        edges.push((n.down, h));
                    }
                    a = n.right;
                }
            }
            edges.sort_unstable();
            let mut level: Vec<Id> = edges.iter().map(|e| e.0).collect();
            level.dedup();
            self.edges.push(edges);
            self.levels.push(level);
            self.index.push(None);
        }
    }

    /// The sets at slot `l` with an entry leading to `child` (at `l + 1`).
    fn parents(&self, l: usize, child: Id) -> impl Iterator<Item = Id> + '_ {
        let e = &self.edges[l];
        let lo = e.partition_point(|x| x.0 < child);
        e[lo..].iter().take_while(move |x| x.0 == child).map(|x| x.1)
    }

    /// The sets at slot `t` that have an entry of value `v`.
    fn with_value(&mut self, st: &Store, t: usize, v: Value) -> impl Iterator<Item = Id> + '_ {
        let levels = &self.levels;
        let index = self.index[t].get_or_insert_with(|| {
            let mut index: Vec<(Value, Id)> = levels[t]
                .iter()
                .flat_map(|&h| st.entries(h).into_iter().map(move |(v, _)| (v, h)))
                .collect();
            index.sort_unstable();
            index
        });
        let lo = index.partition_point(|x| x.0 < v);
        index[lo..].iter().take_while(move |x| x.0 == v).map(|x| x.1)
    }

    /// The sets at slot `t` holding a value that `r`, a relation whose
    /// top slot is `t`, reads there (its top level's values, written or
    /// read only; every set where it holds [`ANY`]), increasing.
    pub(super) fn heads(&mut self, st: &Store, r: Id, t: usize) -> Vec<Id> {
        self.reach(st, t);
        let reads: Vec<Value> = st.entries(r).into_iter().map(|e| e.0).collect();
        let mut heads: Vec<Id> = if reads.contains(&ANY) {
            self.levels[t].clone()
        } else {
            reads.iter().flat_map(|&v| self.with_value(st, t, v).collect::<Vec<_>>()).collect()
        };
        heads.sort_unstable();
        heads.dedup();
        heads
    }

    /// Per slot `0..=t`, its sets with the number of prefixes (vectors of
    /// the slots above) leading to each, `None` past `u128`.
    pub(super) fn prefix_counts(&mut self, st: &Store, t: usize) -> Vec<Vec<(Id, Option<u128>)>> {
        self.reach(st, t);
        let mut out = vec![self.levels[0].iter().map(|&h| (h, Some(1u128))).collect::<Vec<_>>()];
        for l in 0..t {
            let above: &Vec<(Id, Option<u128>)> = out.last().expect("slot 0");
            let mut level: Vec<(Id, Option<u128>)> = Vec::with_capacity(self.levels[l + 1].len());
            for &(child, parent) in &self.edges[l] {
                let i = above.binary_search_by_key(&parent, |x| x.0).expect("a set above");
                let paths = above[i].1;
                match level.last_mut() {
                    Some(last) if last.0 == child => {
                        last.1 = last.1.and_then(|n| paths.and_then(|p| n.checked_add(p)));
                    }
                    _ => level.push((child, paths)),
                }
            }
            out.push(level);
        }
        out
    }
}

impl Ldd {
    /// Successors of `above`'s set by `r`, relation of group (or merged
    /// class) `g` whose top slot is `t`: the image at each set of slot
    /// `t` holding a value `r` reads there, then the ancestors of those
    /// with successors rebuilt, slot by slot upwards (above its top a
    /// group copies every value).
    pub(super) fn image_from_top(
        &self,
        st: &mut Store,
        above: &mut Above,
        r: Id,
        g: usize,
        t: usize,
    ) -> DdResult<Id> {
        let mut new: Vec<(Id, Id)> = Vec::new();
        for h in above.heads(st, r, t) {
            let x = self.image_rec(st, h, r, g, t)?;
            if x != EMPTY {
                new.push((h, x));
            }
        }
        for l in (0..t).rev() {
            let mut parents: Vec<Id> = new.iter().flat_map(|&(c, _)| above.parents(l, c)).collect();
            parents.sort_unstable();
            parents.dedup();
            let mut up = Vec::with_capacity(parents.len());
            for p in parents {
                let entries: Vec<(Value, Id)> = st
                    .entries(p)
                    .into_iter()
                    .filter_map(|(v, d)| {
                        let i = new.binary_search_by_key(&d, |e| e.0).ok()?;
                        Some((v, new[i].1))
                    })
                    .collect();
                up.push((p, st.level(&entries)?));
            }
            new = up;
        }
        Ok(new.first().map_or(EMPTY, |e| e.1))
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::diagram::{Diagram, GroupShape};
    use super::super::super::layout::{Encoding, Layout};
    use super::*;

    fn shape(proj: &[usize], write: &[usize]) -> GroupShape {
        GroupShape {
            proj: proj.to_vec(),
            write: write.to_vec(),
        }
    }

    use super::super::test_sets::{scattered, vectors};

    /// Groups with their tops at every slot (read-only, written, with
    /// untouched slots between), over 5 slots.
    fn shapes_at_every_depth() -> Vec<GroupShape> {
        vec![
            shape(&[0, 3], &[3]),
            shape(&[1], &[1]),
            shape(&[1, 4], &[]),
            shape(&[2, 3, 4], &[2, 4]),
            shape(&[3], &[3]),
            shape(&[4], &[4]),
        ]
    }

    /// The enabling test ([`Diagram::enables`]) answers as the emptiness
    /// of the image from the top slot and of the walk from the root, on
    /// dense and sparse sets and relations of a few pairs (some reading
    /// value 3, which no set holds), enabled and not; also once the store
    /// collected.
    #[test]
    fn enabling_test_answers_as_the_image() {
        let k = 5;
        let shapes = shapes_at_every_depth();
        let layout = Layout::for_initial(Encoding::List, &[0; 5]);
        let d = Ldd::new(layout, &shapes, 1 << 18, false).unwrap();
        let (mut enabled, mut disabled) = (0, 0);
        for seed in 0..40u32 {
            let rels: Vec<Id> = shapes
                .iter()
                .enumerate()
                .map(|(g, s)| {
                    let pairs: Vec<(Vec<Value>, Vec<Value>)> = (0..4u32.pow(s.proj.len() as u32))
                        .filter(|code| code.wrapping_mul(2_654_435_761).wrapping_add(seed * 7 + g as u32).is_multiple_of(13))
                        .map(|code| {
                            let cur = (0..s.proj.len()).map(|i| (code >> (2 * i)) % 4).collect();
                            (cur, s.write.iter().map(|_| code % 3).collect())
                        })
                        .collect();
                    d.relation(s, &pairs).unwrap()
                })
                .collect();
            let dense = scattered(k, seed);
            let sparse: Vec<Vec<Value>> = dense.iter().step_by(9 + seed as usize % 7).cloned().collect();
            for states in [&dense, &sparse] {
                let s = d.states(states).unwrap();
                if seed == 20 {
                    let mut roots = rels.clone();
                    roots.push(s);
                    d.store.borrow_mut().collect(roots);
                }
                for (g, &r) in rels.iter().enumerate() {
                    let answer = d.enables(&s, &r, g);
                    let walk = d.image_rec(&mut d.store.borrow_mut(), s, r, g, 0).unwrap();
                    assert_eq!(answer, walk != EMPTY, "seed {seed} group {g}");
                    let image = d.image(&s, &r, g).unwrap();
                    assert_eq!(image, walk, "seed {seed} group {g}");
                    if answer {
                        enabled += 1;
                    } else {
                        disabled += 1;
                    }
                }
            }
        }
        assert!(enabled > 50 && disabled > 50, "{enabled} enabled, {disabled} not");
    }

    /// Groups with their tops at every slot: the image from the top equals the walk
    /// from the root and the successors enumerated one state at a time,
    /// set after set (the levels are rebuilt per set), also once the
    /// store collected; the transition counts from the top equal those
    /// from the root.
    #[test]
    fn top_slot_image_equals_the_root_walk() {
        let k = 5;
        let shapes = shapes_at_every_depth();
        let layout = Layout::for_initial(Encoding::List, &[0; 5]);
        let d = Ldd::new(layout, &shapes, 1 << 18, false).unwrap();
        // Group g: from each projection (values 0..3) whose sum is not a
        // multiple of 3, next values from the sum.
        let pairs: Vec<Vec<(Vec<Value>, Vec<Value>)>> = shapes
            .iter()
            .enumerate()
            .map(|(g, s)| {
                (0..3u32.pow(s.proj.len() as u32))
                    .map(|code| (0..s.proj.len()).map(|i| (code / 3u32.pow(i as u32)) % 3).collect::<Vec<Value>>())
                    .filter(|cur| !(cur.iter().sum::<Value>() + g as Value).is_multiple_of(3))
                    .map(|cur| {
                        let sum = cur.iter().sum::<Value>() + g as Value;
                        let next = s.write.iter().enumerate().map(|(i, _)| (sum + i as Value) % 4).collect();
                        (cur, next)
                    })
                    .collect()
            })
            .collect();
        let rels: Vec<Id> = shapes.iter().zip(&pairs).map(|(s, p)| d.relation(s, p).unwrap()).collect();
        for seed in 0..30u32 {
            let states = scattered(k, seed);
            let s = d.states(&states).unwrap();
            if seed == 15 {
                let mut roots = rels.clone();
                roots.push(s);
                d.store.borrow_mut().collect(roots);
            }
            for (g, shape) in shapes.iter().enumerate() {
                let top = d.image(&s, &rels[g], g).unwrap();
                let root = d.image_rec(&mut d.store.borrow_mut(), s, rels[g], g, 0).unwrap();
                assert_eq!(top, root, "seed {seed} group {g}");
                let mut expect: Vec<Vec<Value>> = Vec::new();
                for v in &states {
                    let cur: Vec<Value> = shape.proj.iter().map(|&i| v[i]).collect();
                    for (_, next) in pairs[g].iter().filter(|p| p.0 == cur) {
                        let mut w = v.clone();
                        for (&i, &x) in shape.write.iter().zip(next) {
                            w[i] = x;
                        }
                        expect.push(w);
                    }
                }
                expect.sort_unstable();
                expect.dedup();
                assert_eq!(vectors(&d, top, k), expect, "seed {seed} group {g}");
            }
            let each: Vec<(usize, &Id)> = rels.iter().enumerate().collect();
            let from_top = d.count_pairs_each(&s, &each);
            for (g, r) in rels.iter().enumerate() {
                assert_eq!(from_top[g], d.count_pairs(&s, r, g).unwrap(), "seed {seed} group {g}");
            }
        }
    }
}
