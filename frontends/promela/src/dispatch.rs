//! Per-location dispatch of a proctype's transitions: for each location
//! (SPIN control state), the transitions leaving it in option order, each
//! with the comparisons of its guard (`guard`) laid out next to it, so that
//! trying a transition its guard blocks reads a few contiguous words and
//! never the transition itself. Owns the table only; `model` runs the
//! transitions that pass.

use crate::compile::Automaton;
use crate::guard::{verdict, Atom, Verdict};

/// One transition leaving a location.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    /// The transition (index into the automaton's `trans`).
    pub tr: usize,
    /// Its group when it is not a rendezvous operation (`usize::MAX` else).
    pub group: usize,
    /// Its guard's one conjunction: `atoms[lo..hi]`.
    lo: u32,
    hi: u32,
    /// Its guard has several conjunctions (`Guard::blocks` decides).
    pub multi: bool,
    /// It is executable exactly when the conjunction holds (`Guard::exact`).
    pub exact: bool,
}

/// The transitions of every location of one automaton.
#[derive(Clone, Debug, Default)]
pub(crate) struct Dispatch {
    /// `entries[locs[l].0..locs[l].1]` leave location `l`.
    locs: Vec<(u32, u32)>,
    entries: Vec<Entry>,
    atoms: Vec<Atom>,
}

impl Dispatch {
    /// The table of `auto`, whose transitions carry their guards; `groups`
    /// gives each transition's group.
    pub fn of(auto: &Automaton, groups: &[usize]) -> Dispatch {
        let mut d = Dispatch::default();
        for out in &auto.locs {
            let first = d.entries.len() as u32;
            for &k in out {
                let guard = &auto.trans[k].guard;
                let lo = d.atoms.len() as u32;
                d.atoms
                    .extend_from_slice(guard.conjunction().unwrap_or(&[]));
                d.entries.push(Entry {
                    tr: k,
                    group: groups.get(k).copied().unwrap_or(usize::MAX),
                    lo,
                    hi: d.atoms.len() as u32,
                    multi: guard.conjunction().is_none(),
                    exact: guard.exact(),
                });
            }
            d.locs.push((first, d.entries.len() as u32));
        }
        d
    }

    /// The transitions leaving location `loc` (none for an unknown one).
    #[inline]
    pub fn at(&self, loc: usize) -> &[Entry] {
        match self.locs.get(loc) {
            Some(&(a, b)) => &self.entries[a as usize..b as usize],
            None => &[],
        }
    }

    /// What `e`'s conjunction says of `st`, for the process whose locals
    /// start at slot `locals`.
    #[inline(always)]
    pub fn verdict(&self, e: &Entry, st: &[u32], locals: usize) -> Verdict {
        verdict(&self.atoms[e.lo as usize..e.hi as usize], st, locals)
    }
}
