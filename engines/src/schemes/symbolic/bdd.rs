//! The `bdd` encoding: slots in binary over oxidd BDD variables (order in
//! [`super::layout`]), relations as BDDs over current and next variables,
//! image by oxidd's combined conjunction and existential quantification
//! followed by renaming next → current variables. A learned batch of
//! pairs becomes one BDD built bottom-up from its sorted bit strings (a trie
//! whose equal subtrees the unique table merges), not one cube and one
//! union per pair. The slot-level view ([`Diagram::entries`]) walks a
//! slot's bits, a skipped bit standing for both values.
//!
//! Owns the BDD manager of one search attempt and every function in it.
//! Must not know models, strategies or learning.

use super::diagram::{
    set_algebra,
    level_of, rebuild, shared_inner_nodes, top, DdResult, Diagram, FxHashMap, GroupShape, Support,
};
use super::layout::Layout;
use super::SymbolicConfig;
use oxidd::bdd::{BDDFunction, BDDManagerRef};
use oxidd::{
    BooleanFunction, BooleanFunctionQuant, BooleanOperator, Function, FunctionSubst, HasLevel,
    Manager, ManagerRef, Node, Subst,
};
use pins::Value;
use std::collections::HashMap;

/// Per-group data for the image: the current variables of the write slots
/// (quantified) and the renaming next → current.
struct GroupVars {
    write_cube: BDDFunction,
    /// Current variables of the slots outside read ∪ write (projection).
    hide_cube: BDDFunction,
    /// The same for the slots below the group's top slot only.
    hide_below: BDDFunction,
    /// First variable of the group's top slot (`u32::MAX`: no slot).
    top_var: u32,
    rename: Subst<BDDFunction>,
    /// Levels counted when counting pairs: all current variables and the
    /// group's next variables.
    pair_counted: Vec<bool>,
}

pub struct Bdd {
    _manager: BDDManagerRef,
    layout: Layout,
    vars: Vec<BDDFunction>,
    groups: Vec<GroupVars>,
    shapes: Vec<GroupShape>,
    /// Level → counted when counting states (current variables).
    state_counted: Vec<bool>,
    falsity: BDDFunction,
    truth: BDDFunction,
}

impl Bdd {
    /// A manager of the configuration's node capacity and worker threads.
    pub fn new(layout: Layout, shapes: &[GroupShape], config: &SymbolicConfig) -> DdResult<Bdd> {
        let (capacity, threads) = (config.node_capacity, config.threads);
        let manager =
            oxidd::bdd::new_manager(capacity, (capacity / 8).clamp(1 << 12, 1 << 22), threads);
        let (vars, falsity, truth) = manager.with_manager_exclusive(|m| {
            let range = oxidd::Manager::add_vars(m, layout.vars);
            let vars: DdResult<Vec<_>> = range
                .map(|v| BDDFunction::var(m, v).map_err(Into::into))
                .collect();
            (vars, BDDFunction::f(m), BDDFunction::t(m))
        });
        let vars = vars?;
        let mut state_counted = vec![false; layout.vars as usize];
        for c in layout.cur.iter().flatten() {
            state_counted[*c as usize] = true;
        }
        let mut groups = Vec::with_capacity(shapes.len());
        for g in shapes {
            let mut write_cube = truth.clone();
            let mut from = Vec::new();
            let mut to = Vec::new();
            let mut pair_counted = state_counted.clone();
            for &s in &g.write {
                for (&c, &n) in layout.cur[s].iter().zip(&layout.next[s]) {
                    write_cube = write_cube.and(&vars[c as usize])?;
                    from.push(n);
                    to.push(vars[c as usize].clone());
                    pair_counted[n as usize] = true;
                }
            }
            let mut hide_cube = truth.clone();
            let mut hide_below = None;
            let top_slot = g.proj.first().copied();
            for i in (0..layout.width.len()).rev() {
                if g.proj.binary_search(&i).is_err() {
                    for &v in layout.cur[i].iter().rev() {
                        hide_cube = vars[v as usize].and(&hide_cube)?;
                    }
                }
                if top_slot == Some(i) {
                    hide_below = Some(hide_cube.clone());
                }
            }
            groups.push(GroupVars {
                write_cube,
                hide_below: hide_below.unwrap_or_else(|| hide_cube.clone()),
                hide_cube,
                top_var: top_slot.map_or(u32::MAX, |t| layout.cur[t][0]),
                rename: Subst::new(from, to),
                pair_counted,
            });
        }
        Ok(Bdd {
            _manager: manager,
            layout,
            vars,
            groups,
            shapes: shapes.to_vec(),
            state_counted,
            falsity,
            truth,
        })
    }

    /// Conjunction of literals `(var, value)`, built bottom-up.
    fn cube(&self, mut lits: Vec<(u32, bool)>) -> DdResult<BDDFunction> {
        lits.sort_unstable_by_key(|l| std::cmp::Reverse(l.0));
        let mut f = self.truth.clone();
        for (v, val) in lits {
            let x = &self.vars[v as usize];
            f = if val { x.and(&f)? } else { x.imp_strict(&f)? };
        }
        Ok(f)
    }

    fn literals(&self, vars: &[u32], value: Value, out: &mut Vec<(u32, bool)>) {
        let w = vars.len();
        for (j, &v) in vars.iter().enumerate() {
            out.push((v, (value >> (w - 1 - j)) & 1 == 1));
        }
    }

    /// Models of `f` over the levels marked in `counted` (none of `f`'s
    /// variables may be uncounted).
    fn count(f: &BDDFunction, counted: &[bool]) -> Option<u128> {
        // counted_below[l] = counted levels at or below level l.
        let n = counted.len();
        let mut below = vec![0u32; n + 1];
        for l in (0..n).rev() {
            below[l] = below[l + 1] + u32::from(counted[l]);
        }
        let mut memo: HashMap<usize, u128> = HashMap::new();
        // Models over the counted levels at or below the root's level.
        fn rec(f: &BDDFunction, below: &[u32], memo: &mut HashMap<usize, u128>) -> Option<u128> {
            let (id, level) = top(f);
            let Some(level) = level else {
                return Some(u128::from(f.satisfiable()));
            };
            if let Some(&c) = memo.get(&id) {
                return Some(c);
            }
            let (hi, lo) = f.cofactors()?;
            let mut total = 0u128;
            for child in [hi, lo] {
                let cl = level_of(&child).min(below.len() as u32 - 1) as usize;
                let skipped = below[level as usize + 1] - below[cl];
                let c = rec(&child, below, memo)?;
                if c == 0 {
                    continue; // the empty set: no factor for the skipped levels
                }
                total = total.checked_add(c.checked_mul(1u128.checked_shl(skipped)?)?)?;
            }
            memo.insert(id, total);
            Some(total)
        }
        let root = level_of(f).min(n as u32) as usize;
        let c = rec(f, &below, &mut memo)?;
        if c == 0 {
            return Some(0);
        }
        c.checked_mul(1u128.checked_shl(below[0] - below[root])?)
    }
}

/// The paths of `f` through the variables `vars` (increasing levels, at
/// most 64), in one walk under one manager lock: bit `j` of the mask is the
/// value of `vars[j]`, a variable `f` skips takes both values, paths to ⊥
/// are left out; lexicographic order with `vars[0]` first.
fn walk(f: &BDDFunction, vars: &[u32]) -> Vec<(u64, BDDFunction)> {
    f.with_manager_shared(|m, root| {
        let falsity = BDDFunction::f_edge(m);
        let false_id = falsity.node_id();
        m.drop_edge(falsity);
        let mut out = Vec::new();
        let mut stack = vec![(root, 0usize, 0u64)];
        while let Some((e, j, bits)) = stack.pop() {
            if e.node_id() == false_id {
                continue;
            }
            let Some(&var) = vars.get(j) else {
                out.push((bits, BDDFunction::from_edge(m, m.clone_edge(e))));
                continue;
            };
            let (hi, lo) = match m.get_node(e) {
                Node::Inner(n) if n.level() == var => {
                    BDDFunction::cofactors_edge(m, e).expect("inner node")
                }
                _ => (e, e),
            };
            stack.push((hi, j + 1, bits | (1 << j)));
            stack.push((lo, j + 1, bits));
        }
        out
    })
}

impl Diagram for Bdd {
    type Set = BDDFunction;
    set_algebra!(BDDFunction, |d, a, b| empty d.falsity.clone(), union Ok(a.or(b)?),
        minus Ok(b.imp_strict(a)?), is_empty !a.satisfiable());

    fn state(&self, v: &[Value]) -> DdResult<BDDFunction> {
        let mut lits = Vec::new();
        for (i, &x) in v.iter().enumerate() {
            self.literals(&self.layout.cur[i], x, &mut lits);
        }
        self.cube(lits)
    }

    fn project(&self, s: &BDDFunction, g: usize, _slot: usize) -> DdResult<BDDFunction> {
        let gv = &self.groups[g];
        // A set with no variable above the group's top slot (a suffix set of
        // the node saturation) needs only the slots below it quantified:
        // oxidd's quantification steps through every cube variable above
        // the set's root. (A hand-written walk that stops below the group's
        // last slot was slower: no apply cache across calls; gear.2
        // node-saturation 2.98 s → 12.9 s.)
        let cube = if level_of(s) >= gv.top_var {
            &gv.hide_below
        } else {
            &gv.hide_cube
        };
        Ok(s.exists(cube)?)
    }

    fn for_each_vector(&self, s: &BDDFunction, slots: &[usize], f: &mut dyn FnMut(&[Value])) {
        // The variables to assign, in level order: (level, index in slots).
        let mut order: Vec<(u32, usize)> = Vec::new();
        for (k, &i) in slots.iter().enumerate() {
            order.extend(self.layout.cur[i].iter().map(|&v| (v, k)));
        }
        order.sort_unstable();
        let mut values = vec![0 as Value; slots.len()];
        fn rec(
            s: &BDDFunction,
            order: &[(u32, usize)],
            values: &mut [Value],
            f: &mut dyn FnMut(&[Value]),
        ) {
            let Some(&(var, k)) = order.first() else {
                if s.satisfiable() {
                    f(values);
                }
                return;
            };
            if !s.satisfiable() {
                return;
            }
            let (hi, lo) = if level_of(s) == var {
                s.cofactors().expect("inner node")
            } else {
                (s.clone(), s.clone())
            };
            let old = values[k];
            values[k] = old << 1;
            rec(&lo, &order[1..], values, f);
            values[k] = (old << 1) | 1;
            rec(&hi, &order[1..], values, f);
            values[k] = old;
        }
        rec(s, &order, &mut values, f);
    }

    fn relation(
        &self,
        g: &GroupShape,
        pairs: &[(Vec<Value>, Vec<Value>)],
    ) -> DdResult<BDDFunction> {
        // Columns in level order: (variable, index in cur ++ next, shift).
        let mut cols: Vec<(u32, usize, u32)> = Vec::new();
        let sides = [
            (&g.proj, &self.layout.cur, 0),
            (&g.write, &self.layout.next, g.proj.len()),
        ];
        for (slots, vars, base) in sides {
            for (k, &i) in slots.iter().enumerate() {
                let w = vars[i].len() as u32;
                for (j, &v) in vars[i].iter().enumerate() {
                    cols.push((v, base + k, w - 1 - j as u32));
                }
            }
        }
        cols.sort_unstable();
        let mut rows: Vec<Vec<bool>> = pairs
            .iter()
            .map(|(cur, next)| {
                cols.iter()
                    .map(|&(_, k, shift)| {
                        let v = if k < cur.len() {
                            cur[k]
                        } else {
                            next[k - cur.len()]
                        };
                        (v >> shift) & 1 == 1
                    })
                    .collect()
            })
            .collect();
        rows.sort_unstable();
        rows.dedup();
        fn build(
            d: &Bdd,
            rows: &[Vec<bool>],
            col: usize,
            cols: &[(u32, usize, u32)],
        ) -> DdResult<BDDFunction> {
            if rows.is_empty() {
                return Ok(d.falsity.clone());
            }
            if col == cols.len() {
                return Ok(d.truth.clone());
            }
            let split = rows.partition_point(|r| !r[col]);
            let lo = build(d, &rows[..split], col + 1, cols)?;
            let hi = build(d, &rows[split..], col + 1, cols)?;
            if lo == hi {
                return Ok(lo);
            }
            Ok(d.vars[cols[col].0 as usize].ite(&hi, &lo)?)
        }
        build(self, &rows, 0, &cols)
    }

    fn image(&self, s: &BDDFunction, rel: &BDDFunction, g: usize) -> DdResult<BDDFunction> {
        let gv = &self.groups[g];
        let t = s.apply_exists(BooleanOperator::And, rel, &gv.write_cube)?;
        Ok(t.substitute(&gv.rename)?)
    }

    fn count_states(&self, s: &BDDFunction) -> Option<u128> {
        Self::count(s, &self.state_counted)
    }

    fn count_pairs(&self, s: &BDDFunction, rel: &BDDFunction, g: usize) -> DdResult<Option<u128>> {
        let joined = s.and(rel)?;
        Ok(Self::count(&joined, &self.groups[g].pair_counted))
    }

    fn shared_nodes(&self, roots: &[&BDDFunction]) -> u64 {
        shared_inner_nodes(roots)
    }

    fn entries(&self, s: &BDDFunction, slot: usize) -> Vec<(Value, BDDFunction)> {
        let vars = &self.layout.cur[slot];
        walk(s, vars)
            .into_iter()
            .map(|(bits, f)| {
                let v = (0..vars.len()).fold(0, |v, j| (v << 1) | ((bits >> j) & 1) as Value);
                (v, f)
            })
            .collect()
    }

    fn set_of_entries(
        &self,
        slot: usize,
        entries: &[(Value, BDDFunction)],
    ) -> DdResult<BDDFunction> {
        fn rec(
            d: &Bdd,
            vars: &[u32],
            bit: usize,
            e: &[(Value, BDDFunction)],
        ) -> DdResult<BDDFunction> {
            if e.is_empty() {
                return Ok(d.falsity.clone());
            }
            if bit == vars.len() {
                return Ok(e[0].1.clone());
            }
            let shift = vars.len() - 1 - bit;
            let split = e.partition_point(|(v, _)| (v >> shift) & 1 == 0);
            let lo = rec(d, vars, bit + 1, &e[..split])?;
            let hi = rec(d, vars, bit + 1, &e[split..])?;
            if lo == hi {
                return Ok(lo);
            }
            Ok(d.vars[vars[bit] as usize].ite(&hi, &lo)?)
        }
        rec(self, &self.layout.cur[slot], 0, entries)
    }

    fn rel_entries(
        &self,
        r: &BDDFunction,
        slot: usize,
        writes: bool,
    ) -> Vec<(Value, Value, BDDFunction)> {
        // (variable, is next, shift) in level order.
        let w = self.layout.width[slot];
        let mut vars: Vec<(u32, bool, u32)> = Vec::new();
        for (j, &v) in self.layout.cur[slot].iter().enumerate() {
            vars.push((v, false, w - 1 - j as u32));
        }
        if writes {
            for (j, &v) in self.layout.next[slot].iter().enumerate() {
                vars.push((v, true, w - 1 - j as u32));
            }
        }
        vars.sort_unstable();
        let levels: Vec<u32> = vars.iter().map(|v| v.0).collect();
        let mut out: Vec<(Value, Value, BDDFunction)> = walk(r, &levels)
            .into_iter()
            .map(|(bits, f)| {
                let (mut cur, mut next) = (0, 0);
                for (j, &(_, is_next, shift)) in vars.iter().enumerate() {
                    if (bits >> j) & 1 == 1 {
                        if is_next {
                            next |= 1 << shift;
                        } else {
                            cur |= 1 << shift;
                        }
                    }
                }
                (cur, if writes { next } else { cur }, f)
            })
            .collect();
        out.sort_unstable_by_key(|e| (e.0, e.1));
        out
    }

    fn transfer(&self, old: &Bdd, sets: &[(&BDDFunction, Support)]) -> DdResult<Vec<BDDFunction>> {
        // Old variable → new variable: a widened slot gains high bits in
        // front of its old ones (most significant bit first).
        let map: Vec<u32> = old
            .layout
            .var_roles()
            .into_iter()
            .map(|(slot, j, next)| {
                let shift = self.layout.width[slot] - old.layout.width[slot];
                let vars = if next {
                    &self.layout.next
                } else {
                    &self.layout.cur
                };
                vars[slot][(j + shift) as usize]
            })
            .collect();
        // The new high bits are 0 in every old value.
        let zero = |vars: &[u32], n: u32| -> DdResult<BDDFunction> {
            let mut f = self.truth.clone();
            for &v in vars[..n as usize].iter().rev() {
                f = self.vars[v as usize].imp_strict(&f)?;
            }
            Ok(f)
        };
        let mut zero_cur = Vec::new();
        let mut zero_next = Vec::new();
        for (i, (&w, &ow)) in self.layout.width.iter().zip(&old.layout.width).enumerate() {
            zero_cur.push(zero(&self.layout.cur[i], w - ow)?);
            zero_next.push(zero(&self.layout.next[i], w - ow)?);
        }
        let widened: Vec<usize> = (0..self.layout.width.len())
            .filter(|&i| self.layout.width[i] != old.layout.width[i])
            .collect();
        let leaf = |f: &BDDFunction| {
            if f.satisfiable() {
                self.truth.clone()
            } else {
                self.falsity.clone()
            }
        };
        let node = |level: u32, h: &BDDFunction, l: &BDDFunction| {
            Ok(self.vars[map[level as usize] as usize].ite(h, l)?)
        };
        let mut memo = FxHashMap::default();
        let mut out = Vec::with_capacity(sets.len());
        for &(f, support) in sets {
            let mut x = rebuild(f, &mut memo, &leaf, &node)?;
            for &i in &widened {
                let (cur, next) = match support {
                    Support::State => (true, false),
                    Support::Relation(g) => (
                        self.shapes[g].proj.binary_search(&i).is_ok(),
                        self.shapes[g].write.binary_search(&i).is_ok(),
                    ),
                    Support::Projection(g) => {
                        (self.shapes[g].proj.binary_search(&i).is_ok(), false)
                    }
                };
                if cur {
                    x = x.and(&zero_cur[i])?;
                }
                if next {
                    x = x.and(&zero_next[i])?;
                }
            }
            out.push(x);
        }
        Ok(out)
    }
}
