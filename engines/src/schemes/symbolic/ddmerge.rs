//! Merged relations of the list decision diagram (issue 36, point 4):
//! the groups of one top slot form a class whose relation is the union of
//! theirs, each lifted to the class's slots (the union of its groups'
//! read ∪ write slots) with [`ANY`] where a group does not touch a slot
//! (any current value, kept as the next one, as Sylvan's copy nodes). One
//! image or enabling test by the class relation walks the set above the
//! top slot once, where one per group walked it once per group: the cost
//! no longer grows with the groups of the slot.
//!
//! A class is applied as [`super::Ldd`]'s group of index `groups + c`
//! ([`Diagram::image`], [`Diagram::enables`]): its roles and end are
//! appended to the groups'. A state value equal to [`ANY`] would read as
//! "any": the search lifts no relation once a learned value might be it
//! (see [`super::super::search`]).
//!
//! Owns the classes, their roles and the lifting. Must not know models,
//! strategies or learning.

use super::{Ldd, Role, Store, ANY, EMPTY};
use crate::schemes::symbolic::diagram::{DdResult, FxHashMap, GroupShape};

/// The groups of each top slot (first read ∪ write slot), for the slots
/// with two or more groups, in slot order.
pub(super) fn classes(shapes: &[GroupShape]) -> Vec<Vec<usize>> {
    let mut by_top: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
    for (g, s) in shapes.iter().enumerate() {
        if let Some(&t) = s.proj.first() {
            by_top.entry(t).or_default().push(g);
        }
    }
    by_top.into_values().filter(|c| c.len() > 1).collect()
}

/// A class's role per slot: written where a group writes it, read where
/// a group reads it only.
pub(super) fn class_roles(roles: &[Vec<Role>], class: &[usize]) -> Vec<Role> {
    let k = class.first().map_or(0, |&g| roles[g].len());
    (0..k)
        .map(|i| {
            let mut role = Role::Skip;
            for &g in class {
                match roles[g][i] {
                    Role::Write => return Role::Write,
                    Role::Read => role = Role::Read,
                    Role::Skip => {}
                }
            }
            role
        })
        .collect()
}

impl Ldd {
    /// Group `g`'s relation `r` (from slot `l`) in the levels of the
    /// class of index `u` (group count plus class).
    pub(super) fn lift_rec(
        &self,
        st: &mut Store,
        (r, g, u, l): (u32, usize, usize, usize),
        memo: &mut FxHashMap<(u32, usize), u32>,
    ) -> DdResult<u32> {
        if r == EMPTY || l >= self.ends[u] {
            return Ok(r);
        }
        if let Some(&x) = memo.get(&(r, l)) {
            return Ok(x);
        }
        let x = match (self.roles[g][l], self.roles[u][l]) {
            (_, Role::Skip) => self.lift_rec(st, (r, g, u, l + 1), memo)?,
            (Role::Skip, class) => {
                let down = self.lift_rec(st, (r, g, u, l + 1), memo)?;
                let down = if class == Role::Write {
                    st.make(ANY, down, EMPTY)?
                } else {
                    down
                };
                st.make(ANY, down, EMPTY)?
            }
            (Role::Read, class) => {
                let mut out = Vec::new();
                for (v, d) in st.entries(r) {
                    let down = self.lift_rec(st, (d, g, u, l + 1), memo)?;
                    // Read by the group, written by the class: unchanged.
                    let down = if class == Role::Write {
                        st.make(v, down, EMPTY)?
                    } else {
                        down
                    };
                    out.push((v, down));
                }
                st.level(&out)?
            }
            (Role::Write, _) => {
                let mut out = Vec::new();
                for (v, rest) in st.entries(r) {
                    let mut next = Vec::new();
                    for (w, d) in st.entries(rest) {
                        next.push((w, self.lift_rec(st, (d, g, u, l + 1), memo)?));
                    }
                    out.push((v, st.level(&next)?));
                }
                st.level(&out)?
            }
        };
        memo.insert((r, l), x);
        Ok(x)
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::layout::{Encoding, Layout};
    use super::*;
    use crate::schemes::symbolic::diagram::Diagram;
    use pins::Value;

    use super::super::test_sets::{scattered, vectors};

    /// The image and enabling test by a class's merged relation are those
    /// of its groups' relations, one by one, on every subset-like set of a
    /// grid (groups of one top slot that read, write, or skip each other's
    /// slots, one writing a slot another only reads).
    #[test]
    fn a_merged_relation_applies_as_its_groups_one_by_one() {
        let k = 5;
        let shape = |proj: &[usize], write: &[usize]| GroupShape {
            proj: proj.to_vec(),
            write: write.to_vec(),
        };
        let shapes = vec![
            shape(&[1, 2], &[2]),
            shape(&[1, 3], &[1, 3]),
            shape(&[1, 2, 4], &[4]),
            shape(&[0, 4], &[0]),
        ];
        let layout = Layout::for_initial(Encoding::List, &[0; 5]);
        let d = Ldd::new(layout, &shapes, 1 << 18, true).unwrap();
        assert_eq!(d.classes(), &[vec![0, 1, 2]]);
        // Group g's relation: from each projection (values 0..3), a
        // successor that depends on the values (some none).
        let rels: Vec<u32> = shapes
            .iter()
            .enumerate()
            .map(|(g, s)| {
                let mut pairs = Vec::new();
                for code in 0..3u32.pow(s.proj.len() as u32) {
                    let cur: Vec<Value> =
                        (0..s.proj.len()).map(|i| (code / 3u32.pow(i as u32)) % 3).collect();
                    let sum: Value = cur.iter().sum::<Value>() + g as Value;
                    if sum.is_multiple_of(4) {
                        continue;
                    }
                    let next = s.write.iter().map(|_| (sum * 7 + g as Value) % 4).collect();
                    pairs.push((cur, next));
                }
                d.relation(s, &pairs).unwrap()
            })
            .collect();
        let mut merged = d.empty();
        for (g, r) in rels.iter().enumerate().take(3) {
            let lifted = d.lift(r, g, 0).unwrap();
            merged = d.union(&merged, &lifted).unwrap();
        }
        let unit = shapes.len();
        for seed in 0..40u32 {
            let states = scattered(k, seed);
            let s = d.states(&states).unwrap();
            let mut each = d.empty();
            let mut enabled = false;
            for (g, r) in rels.iter().enumerate().take(3) {
                let img = d.image(&s, r, g).unwrap();
                enabled |= !d.is_empty(&img);
                each = d.union(&each, &img).unwrap();
            }
            let class = d.image(&s, &merged, unit).unwrap();
            assert_eq!(vectors(&d, class, k), vectors(&d, each, k), "seed {seed}");
            assert_eq!(d.enables(&s, &merged, unit), enabled, "seed {seed}");
        }
    }
}
