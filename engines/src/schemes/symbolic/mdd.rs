//! The `mdd` encoding: multi-valued slots as a ZBDD over one-hot value
//! variables (oxidd has no MDD). Slot `i` owns one variable per value, in
//! increasing order, current block then next block (see [`super::layout`]);
//! a state sets exactly one variable per slot and the ZBDD suppresses all
//! others. A slot's nodes then form a chain following the 0-edges, one
//! node per value present, each 1-edge leading to the next slot: exactly a
//! list decision diagram (LTSmin's LDD, node = value, down, right), so the
//! node counts are those of an LDD/MDD with sparse edges.
//!
//! Projection, relational product and pair counting are recursions over
//! those chains written here (oxidd's ZBDDs offer set operations but no
//! quantification or renaming); union and difference are oxidd's.
//!
//! Owns the ZBDD manager of one search attempt and every set in it. Must
//! not know models, strategies or learning.

use super::diagram::{
    set_algebra,
    is_true_terminal, rebuild, shared_inner_nodes, top, DdResult, Diagram, FxHashMap, GroupShape, Support,
};
use super::layout::Layout;
use super::SymbolicConfig;
use oxidd::zbdd::{ZBDDFunction, ZBDDManagerRef};
use oxidd::{
    BooleanFunction, BooleanVecSet, Function, HasLevel, Manager, ManagerRef, Node, NodeID,
};
use pins::Value;
use std::collections::HashMap;

pub struct Mdd {
    _manager: ZBDDManagerRef,
    layout: Layout,
    /// Variable → (slot, value, is next).
    roles: Vec<(usize, u32, bool)>,
    empty: ZBDDFunction,
    base: ZBDDFunction,
    shapes: Vec<GroupShape>,
}

/// A slot's entries: (value, rest of the vector).
type Chain = Vec<(Value, ZBDDFunction)>;

impl Mdd {
    /// A manager of the configuration's node capacity and worker threads.
    pub fn new(layout: Layout, shapes: &[GroupShape], config: &SymbolicConfig) -> DdResult<Mdd> {
        let capacity = config.node_capacity;
        let manager = oxidd::zbdd::new_manager(
            capacity,
            (capacity / 8).clamp(1 << 12, 1 << 22),
            config.threads,
        );
        let (empty, base) = manager.with_manager_exclusive(|m| {
            oxidd::Manager::add_vars(m, layout.vars);
            (ZBDDFunction::empty(m), ZBDDFunction::base(m))
        });
        Ok(Mdd {
            _manager: manager,
            roles: layout.var_roles(),
            layout,
            empty,
            base,
            shapes: shapes.to_vec(),
        })
    }

    /// The entries of `f` for slot `slot` (current or next block), in one
    /// walk down the 0-edges under one manager lock.
    fn chain(&self, f: &ZBDDFunction, slot: usize, next: bool) -> Chain {
        f.with_manager_shared(|m, root| {
            let mut out = Vec::new();
            let mut e = root;
            while let Node::Inner(n) = m.get_node(e) {
                let (s, v, nx) = self.roles[n.level() as usize];
                if s != slot || nx != next {
                    break;
                }
                let (hi, lo) = ZBDDFunction::cofactors_edge(m, e).expect("inner node");
                out.push((v, ZBDDFunction::from_edge(m, m.clone_edge(hi))));
                e = lo;
            }
            out
        })
    }

    /// The set with entries `chain` (values increasing) at slot `slot`.
    fn build(&self, chain: Chain, slot: usize, next: bool) -> DdResult<ZBDDFunction> {
        let vars = if next {
            &self.layout.next[slot]
        } else {
            &self.layout.cur[slot]
        };
        let mut acc = self.empty.clone();
        for (v, child) in chain.into_iter().rev() {
            if self.is_empty(&child) {
                continue;
            }
            let hi = child.change(vars[v as usize])?;
            acc = hi.union(&acc)?;
        }
        Ok(acc)
    }

    /// Sorted-merge union of chains by value.
    fn merge_into(&self, acc: &mut Chain, v: Value, f: ZBDDFunction) -> DdResult<()> {
        match acc.binary_search_by_key(&v, |e| e.0) {
            Ok(k) => acc[k].1 = acc[k].1.union(&f)?,
            Err(k) => acc.insert(k, (v, f)),
        }
        Ok(())
    }

    fn image_rec(
        &self,
        s: &ZBDDFunction,
        r: &ZBDDFunction,
        slot: usize,
        g: &GroupShape,
        memo: &mut HashMap<(NodeID, NodeID, usize), ZBDDFunction>,
    ) -> DdResult<ZBDDFunction> {
        if self.is_empty(s) || self.is_empty(r) {
            return Ok(self.empty.clone());
        }
        if slot == self.layout.width.len() {
            return Ok(s.clone());
        }
        if g.proj.last().is_none_or(|&l| slot > l) {
            // Past the group's slots: the rest is unchanged.
            return Ok(s.clone());
        }
        let key = (top(s).0, top(r).0, slot);
        if let Some(f) = memo.get(&key) {
            return Ok(f.clone());
        }
        let mut out: Chain = Vec::new();
        let sc = self.chain(s, slot, false);
        if g.proj.binary_search(&slot).is_err() {
            for (v, sv) in sc {
                let f = self.image_rec(&sv, r, slot + 1, g, memo)?;
                out.push((v, f));
            }
        } else {
            let rc = self.chain(r, slot, false);
            let writes = g.write.binary_search(&slot).is_ok();
            let mut k = 0;
            for (v, sv) in sc {
                while k < rc.len() && rc[k].0 < v {
                    k += 1;
                }
                if k == rc.len() || rc[k].0 != v {
                    continue;
                }
                if writes {
                    for (w, rw) in self.chain(&rc[k].1, slot, true) {
                        let f = self.image_rec(&sv, &rw, slot + 1, g, memo)?;
                        self.merge_into(&mut out, w, f)?;
                    }
                } else {
                    let f = self.image_rec(&sv, &rc[k].1, slot + 1, g, memo)?;
                    out.push((v, f));
                }
            }
        }
        let f = self.build(out, slot, false)?;
        memo.insert(key, f.clone());
        Ok(f)
    }

    fn count_pairs_rec(
        &self,
        s: &ZBDDFunction,
        r: &ZBDDFunction,
        slot: usize,
        g: &GroupShape,
        memo: &mut HashMap<(NodeID, NodeID, usize), Option<u128>>,
        states: &mut HashMap<NodeID, Option<u128>>,
    ) -> Option<u128> {
        if self.is_empty(s) || self.is_empty(r) {
            return Some(0);
        }
        if g.proj.last().is_none_or(|&l| slot > l) {
            return self.count_rec(s, states);
        }
        let key = (top(s).0, top(r).0, slot);
        if let Some(c) = memo.get(&key) {
            return *c;
        }
        let sc = self.chain(s, slot, false);
        let mut total = Some(0u128);
        let add = |total: &mut Option<u128>, c: Option<u128>| {
            *total = total.and_then(|t| t.checked_add(c?));
        };
        if g.proj.binary_search(&slot).is_err() {
            for (_, sv) in sc {
                add(
                    &mut total,
                    self.count_pairs_rec(&sv, r, slot + 1, g, memo, states),
                );
            }
        } else {
            let rc = self.chain(r, slot, false);
            let writes = g.write.binary_search(&slot).is_ok();
            for (v, sv) in sc {
                let Ok(k) = rc.binary_search_by_key(&v, |e| e.0) else {
                    continue;
                };
                if writes {
                    for (_, rw) in self.chain(&rc[k].1, slot, true) {
                        add(
                            &mut total,
                            self.count_pairs_rec(&sv, &rw, slot + 1, g, memo, states),
                        );
                    }
                } else {
                    add(
                        &mut total,
                        self.count_pairs_rec(&sv, &rc[k].1, slot + 1, g, memo, states),
                    );
                }
            }
        }
        memo.insert(key, total);
        total
    }

    /// Paths to the base terminal: the number of vectors.
    fn count_rec(
        &self,
        f: &ZBDDFunction,
        memo: &mut HashMap<NodeID, Option<u128>>,
    ) -> Option<u128> {
        let (id, level) = top(f);
        if level.is_none() {
            return Some(u128::from(is_true_terminal(f)));
        }
        if let Some(c) = memo.get(&id) {
            return *c;
        }
        let (hi, lo) = f.cofactors().expect("inner node");
        let c = self
            .count_rec(&hi, memo)
            .and_then(|h| h.checked_add(self.count_rec(&lo, memo)?));
        memo.insert(id, c);
        c
    }

    /// `f` with the slots outside `keep` removed; a node below slot `last`
    /// (the last kept one) stands for a non-empty family and becomes the
    /// base set without being walked.
    fn project_rec(
        &self,
        f: &ZBDDFunction,
        keep: &[bool],
        last: usize,
        memo: &mut FxHashMap<NodeID, ZBDDFunction>,
    ) -> DdResult<ZBDDFunction> {
        let (id, level) = top(f);
        let Some(level) = level else {
            return Ok(f.clone());
        };
        if self.roles[level as usize].0 > last {
            return Ok(self.base.clone());
        }
        if let Some(p) = memo.get(&id) {
            return Ok(p.clone());
        }
        let (hi, lo) = f.cofactors().expect("inner node");
        let (hi, lo) = (
            self.project_rec(&hi, keep, last, memo)?,
            self.project_rec(&lo, keep, last, memo)?,
        );
        let p = if keep[self.roles[level as usize].0] {
            hi.change(level)?.union(&lo)?
        } else {
            hi.union(&lo)?
        };
        memo.insert(id, p.clone());
        Ok(p)
    }
}

impl Diagram for Mdd {
    type Set = ZBDDFunction;
    set_algebra!(ZBDDFunction, |d, a, b| empty d.empty.clone(), union Ok(a.union(b)?),
        minus Ok(a.diff(b)?), is_empty !a.satisfiable());

    fn state(&self, v: &[Value]) -> DdResult<ZBDDFunction> {
        let mut f = self.base.clone();
        for (i, &x) in v.iter().enumerate().rev() {
            f = f.change(self.layout.cur[i][x as usize])?;
        }
        Ok(f)
    }

    fn project(&self, s: &ZBDDFunction, g: usize, _slot: usize) -> DdResult<ZBDDFunction> {
        let mut keep = vec![false; self.layout.width.len()];
        for &i in &self.shapes[g].proj {
            keep[i] = true;
        }
        let last = self.shapes[g].proj.last().copied().unwrap_or(0);
        if self.shapes[g].proj.is_empty() {
            return Ok(if self.is_empty(s) {
                self.empty.clone()
            } else {
                self.base.clone()
            });
        }
        self.project_rec(s, &keep, last, &mut FxHashMap::default())
    }

    fn for_each_vector(&self, s: &ZBDDFunction, slots: &[usize], f: &mut dyn FnMut(&[Value])) {
        fn rec(
            d: &Mdd,
            s: &ZBDDFunction,
            slots: &[usize],
            k: usize,
            values: &mut Vec<Value>,
            f: &mut dyn FnMut(&[Value]),
        ) {
            if k == slots.len() {
                if is_true_terminal(s) {
                    f(values);
                }
                return;
            }
            for (v, child) in d.chain(s, slots[k], false) {
                values[k] = v;
                rec(d, &child, slots, k + 1, values, f);
            }
        }
        let mut values = vec![0; slots.len()];
        rec(self, s, slots, 0, &mut values, f);
    }

    fn relation(
        &self,
        g: &GroupShape,
        pairs: &[(Vec<Value>, Vec<Value>)],
    ) -> DdResult<ZBDDFunction> {
        // A trie over the pairs' variables (sorted), built bottom-up: the
        // rows are sorted by variable list, so each slot's alternatives are
        // contiguous.
        let rows: Vec<Vec<u32>> = pairs
            .iter()
            .map(|(cur, next)| {
                let mut vars: Vec<u32> = Vec::with_capacity(cur.len() + next.len());
                vars.extend(
                    g.proj
                        .iter()
                        .zip(cur)
                        .map(|(&i, &x)| self.layout.cur[i][x as usize]),
                );
                vars.extend(
                    g.write
                        .iter()
                        .zip(next)
                        .map(|(&i, &x)| self.layout.next[i][x as usize]),
                );
                vars.sort_unstable();
                vars
            })
            .collect();
        let mut rows = rows;
        rows.sort_unstable();
        rows.dedup();
        fn build(d: &Mdd, rows: &[Vec<u32>], col: usize) -> DdResult<ZBDDFunction> {
            let Some(first) = rows.first() else {
                return Ok(d.empty.clone());
            };
            if col == first.len() {
                return Ok(d.base.clone());
            }
            // Groups of equal variable at `col`, from the last (deepest
            // alternative) to the first, each one node.
            let mut acc = d.empty.clone();
            let mut end = rows.len();
            while end > 0 {
                let v = rows[end - 1][col];
                let start = rows[..end].partition_point(|r| r[col] < v);
                let child = build(d, &rows[start..end], col + 1)?;
                acc = child.change(v)?.union(&acc)?;
                end = start;
            }
            Ok(acc)
        }
        build(self, &rows, 0)
    }

    fn image(&self, s: &ZBDDFunction, rel: &ZBDDFunction, g: usize) -> DdResult<ZBDDFunction> {
        let shape = &self.shapes[g];
        self.image_rec(s, rel, 0, shape, &mut HashMap::new())
    }

    fn count_states(&self, s: &ZBDDFunction) -> Option<u128> {
        self.count_rec(s, &mut HashMap::new())
    }

    fn count_pairs(
        &self,
        s: &ZBDDFunction,
        rel: &ZBDDFunction,
        g: usize,
    ) -> DdResult<Option<u128>> {
        let shape = &self.shapes[g];
        Ok(self.count_pairs_rec(s, rel, 0, shape, &mut HashMap::new(), &mut HashMap::new()))
    }

    fn shared_nodes(&self, roots: &[&ZBDDFunction]) -> u64 {
        shared_inner_nodes(roots)
    }

    fn entries(&self, s: &ZBDDFunction, slot: usize) -> Vec<(Value, ZBDDFunction)> {
        self.chain(s, slot, false)
    }

    fn set_of_entries(
        &self,
        slot: usize,
        entries: &[(Value, ZBDDFunction)],
    ) -> DdResult<ZBDDFunction> {
        self.build(entries.to_vec(), slot, false)
    }

    fn rel_entries(
        &self,
        r: &ZBDDFunction,
        slot: usize,
        writes: bool,
    ) -> Vec<(Value, Value, ZBDDFunction)> {
        let mut out = Vec::new();
        for (v, rest) in self.chain(r, slot, false) {
            if writes {
                for (w, below) in self.chain(&rest, slot, true) {
                    out.push((v, w, below));
                }
            } else {
                out.push((v, v, rest));
            }
        }
        out
    }

    fn transfer(
        &self,
        old: &Mdd,
        sets: &[(&ZBDDFunction, Support)],
    ) -> DdResult<Vec<ZBDDFunction>> {
        // Old variable → new variable: a widened slot gains values after
        // its old ones; absent values cost nothing, so no constraint.
        let map: Vec<u32> = old
            .roles
            .iter()
            .map(|&(slot, j, next)| {
                let vars = if next {
                    &self.layout.next
                } else {
                    &self.layout.cur
                };
                vars[slot][j as usize]
            })
            .collect();
        let leaf = |f: &ZBDDFunction| {
            if is_true_terminal(f) {
                self.base.clone()
            } else {
                self.empty.clone()
            }
        };
        let node = |level: u32, h: &ZBDDFunction, l: &ZBDDFunction| {
            Ok(h.change(map[level as usize])?.union(l)?)
        };
        let mut memo = FxHashMap::default();
        sets.iter()
            .map(|&(f, _)| rebuild(f, &mut memo, &leaf, &node))
            .collect()
    }
}
