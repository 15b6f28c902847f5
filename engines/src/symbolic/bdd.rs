//! The `bdd` encoding: slots in binary over oxidd BDD variables (order in
//! [`super::layout`]), relations as BDDs over current and next variables,
//! image by oxidd's combined conjunction and existential quantification
//! followed by renaming next → current variables.
//!
//! Owns the BDD manager of one search attempt and every function in it.
//! Must not know models, strategies or learning.

use super::diagram::{level_of, shared_inner_nodes, top, DdResult, Diagram, GroupShape};
use super::layout::Layout;
use oxidd::bdd::{BDDFunction, BDDManagerRef};
use oxidd::{
    BooleanFunction, BooleanFunctionQuant, BooleanOperator, FunctionSubst, ManagerRef, Subst,
};
use pins::Value;
use std::collections::HashMap;

/// Per-group data for the image: the current variables of the write slots
/// (quantified) and the renaming next → current.
struct GroupVars {
    write_cube: BDDFunction,
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
    /// Level → counted when counting states (current variables).
    state_counted: Vec<bool>,
    falsity: BDDFunction,
    truth: BDDFunction,
}

impl Bdd {
    /// A manager with `capacity` inner nodes and `threads` workers.
    pub fn new(
        layout: Layout,
        shapes: &[GroupShape],
        capacity: usize,
        threads: u32,
    ) -> DdResult<Bdd> {
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
            groups.push(GroupVars {
                write_cube,
                rename: Subst::new(from, to),
                pair_counted,
            });
        }
        Ok(Bdd {
            _manager: manager,
            layout,
            vars,
            groups,
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

impl Diagram for Bdd {
    type Set = BDDFunction;

    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn empty(&self) -> BDDFunction {
        self.falsity.clone()
    }

    fn union(&self, a: &BDDFunction, b: &BDDFunction) -> DdResult<BDDFunction> {
        Ok(a.or(b)?)
    }

    fn minus(&self, a: &BDDFunction, b: &BDDFunction) -> DdResult<BDDFunction> {
        Ok(b.imp_strict(a)?)
    }

    fn is_empty(&self, a: &BDDFunction) -> bool {
        !a.satisfiable()
    }

    fn state(&self, v: &[Value]) -> DdResult<BDDFunction> {
        let mut lits = Vec::new();
        for (i, &x) in v.iter().enumerate() {
            self.literals(&self.layout.cur[i], x, &mut lits);
        }
        self.cube(lits)
    }

    fn project(&self, s: &BDDFunction, slots: &[usize]) -> DdResult<BDDFunction> {
        let mut cube = self.truth.clone();
        for i in (0..self.layout.width.len()).rev() {
            if slots.binary_search(&i).is_err() {
                for &v in self.layout.cur[i].iter().rev() {
                    cube = self.vars[v as usize].and(&cube)?;
                }
            }
        }
        Ok(s.exists(&cube)?)
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

    fn pair(&self, g: &GroupShape, cur: &[Value], next: &[Value]) -> DdResult<BDDFunction> {
        let mut lits = Vec::new();
        for (&i, &x) in g.proj.iter().zip(cur) {
            self.literals(&self.layout.cur[i], x, &mut lits);
        }
        for (&i, &x) in g.write.iter().zip(next) {
            self.literals(&self.layout.next[i], x, &mut lits);
        }
        self.cube(lits)
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
}
