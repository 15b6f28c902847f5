//! The orbits of the PROPERTIES' solutions under the permutations of the
//! deferred sets' elements, and whether a choice of solutions holds
//! exactly one of each.
//!
//! Deferred sets have no named elements, so a permutation of their
//! elements maps a solution of the PROPERTIES to a solution and its
//! reachable states to isomorphic ones (same numbers of states and
//! transitions). Two solutions are in one orbit when their least images
//! (in the values' order) under all the permutations are equal.
//!
//! Owns the permutation of values and the orbit test; which machines
//! take it is `deferred_unique`'s, solving is `solve`'s.

use crate::value::Value;

/// Largest group of permutations tried (the product of the deferred
/// sets' factorials).
const GROUP_LIMIT: usize = 40_320;
/// Largest number of solution images computed.
const WORK_LIMIT: usize = 1 << 22;

/// The deferred sets, as `Value::Elem` set numbers and sizes.
#[derive(Debug, Default, Clone)]
pub struct Orbits {
    sets: Vec<(u32, u32)>,
}

impl Orbits {
    /// The orbits for the deferred sets `sets` (set number, size).
    pub fn new(sets: Vec<(u32, u32)>) -> Orbits {
        Orbits { sets }
    }

    /// Every permutation of the deferred sets' elements, as a map from
    /// (set, index) to index per set; `None` beyond `GROUP_LIMIT`.
    fn group(&self) -> Option<Vec<Vec<Vec<u32>>>> {
        let mut size = 1usize;
        for &(_, n) in &self.sets {
            for k in 1..=n as usize {
                size = size.checked_mul(k).filter(|&s| s <= GROUP_LIMIT)?;
            }
        }
        let mut all: Vec<Vec<Vec<u32>>> = vec![Vec::new()];
        for &(_, n) in &self.sets {
            let perms = permutations(n);
            all = all
                .iter()
                .flat_map(|g| {
                    perms.iter().map(move |p| {
                        let mut g = g.clone();
                        g.push(p.clone());
                        g
                    })
                })
                .collect();
        }
        Some(all)
    }

    /// Whether `kept` (solutions among `every`, all the solutions found)
    /// holds exactly one solution of each orbit of `every`; `None` when
    /// the group or the work is too large to tell.
    pub fn one_per_orbit(&self, every: &[Vec<Value>], kept: &[Vec<Value>]) -> Option<bool> {
        if every.len() <= 1 {
            // a single solution is its own orbit
            return Some(kept.len() == every.len());
        }
        let group = self.group()?;
        if group.len().checked_mul(every.len())? > WORK_LIMIT {
            return None;
        }
        let least = |s: &Vec<Value>| {
            group
                .iter()
                .map(|g| s.iter().map(|v| self.image(g, v)).collect::<Vec<_>>())
                .min()
        };
        let orbits: rustc_hash::FxHashSet<Vec<Value>> = every.iter().filter_map(least).collect();
        let mut met: rustc_hash::FxHashSet<Vec<Value>> = Default::default();
        let distinct = kept.iter().all(|s| least(s).is_some_and(|l| met.insert(l)));
        Some(distinct && met == orbits)
    }

    /// The image of `v` under the permutation `g` (one map per set).
    fn image(&self, g: &[Vec<u32>], v: &Value) -> Value {
        match v {
            Value::Elem(set, i) => match self.sets.iter().position(|(s, _)| s == set) {
                Some(k) => Value::Elem(*set, g[k][*i as usize]),
                None => v.clone(),
            },
            Value::Pair(p) => Value::pair(self.image(g, &p.0), self.image(g, &p.1)),
            Value::Rec(fs) => Value::Rec(std::sync::Arc::new(
                fs.iter()
                    .map(|(n, x)| (n.clone(), self.image(g, x)))
                    .collect(),
            )),
            Value::Set(xs) => Value::set(xs.iter().map(|x| self.image(g, x)).collect()),
            Value::Bool(_) | Value::Int(_) | Value::Str(_) => v.clone(),
        }
    }
}

/// The permutations of `0..n`.
pub(crate) fn permutations(n: u32) -> Vec<Vec<u32>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for p in permutations(n - 1) {
        for at in 0..=p.len() {
            let mut q = p.clone();
            q.insert(at, n - 1);
            out.push(q);
        }
    }
    out
}
