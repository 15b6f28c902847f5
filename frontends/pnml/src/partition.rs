//! The process partition of a net's places (P/T nets have no processes, but
//! SPIN-style COLLAPSE stores each component of the state vector in its own
//! table, so we derive components).
//!
//! Two sources, tried in this order:
//!
//! 1. **NUPN units** ([`PartitionMethod::Nupn`]). Most MCC nets carry a
//!    `<toolspecific tool="nupn">` annotation (Nested-Unit Petri Nets,
//!    Garavel 2019) partitioning the places into units, where a unit is a
//!    sequential component: in every reachable marking, at most one place of
//!    a unit and its sub-units is marked. That is exactly the structure
//!    COLLAPSE wants (a unit of `n` places takes at most `n + 1` distinct
//!    values), so each unit with places of its own becomes one component,
//!    named by the unit id, in document order of the units. The annotation
//!    is only trusted when it is a true partition: every unit id unique,
//!    every listed id a place, every place listed exactly once; otherwise it
//!    is ignored (never an error: it is an optional tool annotation).
//! 2. **Structural token-flow heuristic** ([`PartitionMethod::Structural`]),
//!    otherwise. Union-find over places, where no union may create a
//!    component of more than [`MAX_COMPONENT_PLACES`] places:
//!    - pass 1, in transition document order: every transition with exactly
//!      one input and one output place (a token moving from `p` to `q`, the
//!      typical step of a sequential component) unites `p` and `q`;
//!    - pass 2, in transition document order: for every transition, the
//!      places of pre-set ∪ post-set (by place index) are united pairwise
//!      along the sorted list, so places that change together end up
//!      together as long as the cap allows.
//!
//!    Components are numbered by their first place in document order and
//!    named `c0`, `c1`, ... Cost O(arcs · α), deterministic.
//!
//! Every place gets a component (no place is left to `globals`).
//!
//! This module owns only the choice of partition; it must not parse XML
//! (the parser hands it the NUPN units as place indices) and must not know
//! the successor function.

use crate::net::Transition;

/// Cap on component size for the structural heuristic: bigger components
/// have too many distinct values to be shared by COLLAPSE.
pub const MAX_COMPONENT_PLACES: usize = 16;

/// Where a net's process partition came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PartitionMethod {
    /// The units of the file's NUPN `<toolspecific>` annotation.
    Nupn,
    /// The structural token-flow heuristic (see the module documentation).
    Structural,
}

/// A partition of the places into named components.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Partition {
    pub method: PartitionMethod,
    /// Component names, indexed by component.
    pub names: Vec<String>,
    /// Component of each place.
    pub component_of_place: Vec<usize>,
}

/// A NUPN unit as found in the file: its id and the indices of its own
/// places, or `None` where an id named no place.
pub(crate) struct NupnUnit {
    pub id: String,
    pub places: Vec<Option<usize>>,
}

/// The NUPN partition if `units` is a true partition of `place_count`
/// places, else `None`.
pub(crate) fn from_nupn(place_count: usize, units: &[NupnUnit]) -> Option<Partition> {
    let mut component_of_place = vec![usize::MAX; place_count];
    let mut names: Vec<String> = Vec::new();
    let mut seen_ids = std::collections::HashSet::new();
    for unit in units {
        if !seen_ids.insert(unit.id.as_str()) {
            return None;
        }
        if unit.places.is_empty() {
            continue;
        }
        let c = names.len();
        for &p in &unit.places {
            let slot = component_of_place.get_mut(p?)?;
            if *slot != usize::MAX {
                return None;
            }
            *slot = c;
        }
        names.push(unit.id.clone());
    }
    if component_of_place.contains(&usize::MAX) {
        return None;
    }
    Some(Partition {
        method: PartitionMethod::Nupn,
        names,
        component_of_place,
    })
}

struct UnionFind {
    parent: Vec<usize>,
    size: Vec<usize>,
}

impl UnionFind {
    fn new(n: usize) -> Self {
        UnionFind {
            parent: (0..n).collect(),
            size: vec![1; n],
        }
    }

    fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] != x {
            self.parent[x] = self.parent[self.parent[x]];
            x = self.parent[x];
        }
        x
    }

    /// Unites the components of `a` and `b` unless that would exceed `cap`.
    fn union_capped(&mut self, a: usize, b: usize, cap: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb || self.size[ra] + self.size[rb] > cap {
            return;
        }
        let (big, small) = if self.size[ra] >= self.size[rb] {
            (ra, rb)
        } else {
            (rb, ra)
        };
        self.parent[small] = big;
        self.size[big] += self.size[small];
    }
}

/// The structural token-flow partition (see the module documentation).
pub(crate) fn structural(place_count: usize, transitions: &[Transition]) -> Partition {
    let cap = MAX_COMPONENT_PLACES;
    let mut uf = UnionFind::new(place_count);
    for t in transitions {
        if let ([(p, _)], [(q, _)]) = (t.pre.as_slice(), t.post.as_slice()) {
            uf.union_capped(*p, *q, cap);
        }
    }
    let mut places = Vec::new();
    for t in transitions {
        places.clear();
        places.extend(t.pre.iter().chain(&t.post).map(|&(p, _)| p));
        places.sort_unstable();
        places.dedup();
        for w in places.windows(2) {
            uf.union_capped(w[0], w[1], cap);
        }
    }
    let mut component_of_root = vec![usize::MAX; place_count];
    let mut component_of_place = Vec::with_capacity(place_count);
    let mut count = 0;
    for p in 0..place_count {
        let r = uf.find(p);
        if component_of_root[r] == usize::MAX {
            component_of_root[r] = count;
            count += 1;
        }
        component_of_place.push(component_of_root[r]);
    }
    Partition {
        method: PartitionMethod::Structural,
        names: (0..count).map(|c| format!("c{c}")).collect(),
        component_of_place,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(pre: &[usize], post: &[usize]) -> Transition {
        Transition {
            id: "t".into(),
            pre: pre.iter().map(|&p| (p, 1)).collect(),
            post: post.iter().map(|&p| (p, 1)).collect(),
        }
    }

    #[test]
    fn structural_groups_token_flow_and_numbers_by_first_place() {
        // 0 -> 1 -> 0 is one cycle, 2 <-> 3 another, 4 isolated.
        let ts = [t(&[0], &[1]), t(&[1], &[0]), t(&[3], &[2])];
        let part = structural(5, &ts);
        assert_eq!(part.method, PartitionMethod::Structural);
        assert_eq!(part.component_of_place, vec![0, 0, 1, 1, 2]);
        assert_eq!(part.names, vec!["c0", "c1", "c2"]);
    }

    #[test]
    fn structural_respects_the_cap() {
        // One transition touching 40 places: components of at most 16.
        let all: Vec<usize> = (0..40).collect();
        let part = structural(40, &[t(&all[..20], &all[20..])]);
        let mut sizes = vec![0; part.names.len()];
        for &c in &part.component_of_place {
            sizes[c] += 1;
        }
        assert!(
            sizes.iter().all(|&s| s <= MAX_COMPONENT_PLACES),
            "{sizes:?}"
        );
        assert_eq!(sizes.iter().sum::<usize>(), 40);
    }

    #[test]
    fn nupn_must_be_a_true_partition() {
        let unit = |id: &str, places: &[Option<usize>]| NupnUnit {
            id: id.into(),
            places: places.to_vec(),
        };
        let ok = from_nupn(
            3,
            &[
                unit("u0", &[]),
                unit("u1", &[Some(2), Some(0)]),
                unit("u2", &[Some(1)]),
            ],
        )
        .unwrap();
        assert_eq!(ok.names, vec!["u1", "u2"]);
        assert_eq!(ok.component_of_place, vec![0, 1, 0]);
        // a place missing, listed twice, an unknown id, a duplicate unit id
        assert!(from_nupn(3, &[unit("u1", &[Some(0), Some(1)])]).is_none());
        assert!(from_nupn(
            2,
            &[unit("u1", &[Some(0), Some(1)]), unit("u2", &[Some(1)])]
        )
        .is_none());
        assert!(from_nupn(1, &[unit("u1", &[Some(0), None])]).is_none());
        assert!(from_nupn(2, &[unit("u1", &[Some(0)]), unit("u1", &[Some(1)])]).is_none());
    }
}
