//! ComBack's back-edge table: for every state id, the id of the
//! predecessor it was first reached from, the event leading from that
//! predecessor to it, its check bit, and its successor list (the ids whose
//! back-edge points to it, as a first-child / next-sibling chain), so that
//! the back-edge tree can be walked up (backtracking) and down (the
//! duplicate-detection traversal).
//!
//! Id 0 is the initial state (no predecessor). An event is a `u32`: the
//! transition group in the low `group_bits` bits, the successor index
//! within the group above them.
//!
//! Layout: four [`PackedVec`]s at their real widths: predecessor, first
//! child and next sibling as `id + 1` (0: none), `⌈log2(n + 1)⌉` bits for
//! `n` states (the three widen together as states are added), and events
//! as wide as the largest event stored (the group bits plus the bits of the
//! largest successor index).
//!
//! Accounting: `used` = per state the three id fields, the event field and
//! the check bit (bits of the arrays up to the last state, rounded up to
//! whole bytes once per array); `alloc` = the arrays' capacities. Every
//! growth is reserved in the engine's [`Budget`] first.
//!
//! Owns only these arrays; it must not know vectors, the model or the
//! search order.

use super::packed::{bits_for, PackedVec};
use super::{capacity_bytes, grow_for};
use crate::blocks::budget::Budget;
use crate::visited::TableFull;

/// No id (the initial state's predecessor, the end of a successor list).
pub const NONE: u32 = u32::MAX;

/// The back-edge table; see the module documentation.
pub struct BackEdges {
    /// `id + 1` of the predecessor, first child and next sibling (0: none).
    pred: PackedVec,
    event: PackedVec,
    first_child: PackedVec,
    next_sibling: PackedVec,
    check: Vec<u64>,
    budget: Budget,
}

const WHO: &str = "comback back-edge table";

/// `id + 1`, 0 for `NONE`.
fn up(id: u32) -> u64 {
    if id == NONE {
        0
    } else {
        id as u64 + 1
    }
}

fn down(field: u64) -> u32 {
    if field == 0 {
        NONE
    } else {
        (field - 1) as u32
    }
}

impl BackEdges {
    pub fn new(budget: Budget) -> Self {
        BackEdges {
            pred: PackedVec::new(1, budget.clone(), WHO),
            event: PackedVec::new(1, budget.clone(), WHO),
            first_child: PackedVec::new(1, budget.clone(), WHO),
            next_sibling: PackedVec::new(1, budget.clone(), WHO),
            check: Vec::new(),
            budget,
        }
    }

    /// Number of states.
    pub fn len(&self) -> usize {
        self.pred.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pred.is_empty()
    }

    /// Adds a state reached from `pred` (`None`: the initial state) by
    /// `event`, with its check bit clear; returns its id.
    pub fn push(&mut self, pred: Option<u32>, event: u32) -> Result<u32, TableFull> {
        let id = self.len();
        if id >= (NONE - 1) as usize {
            return Err(TableFull {
                message: format!("comback: {id} states, the limit of 32-bit state ids"),
            });
        }
        if id / 64 >= self.check.len() {
            grow_for(&mut self.check, 1, &self.budget, WHO)?;
            self.check.push(0);
        }
        // The three id fields share the width of the largest `id + 1`.
        let width = bits_for(id as u64 + 1);
        if width > self.first_child.width() {
            self.pred.widen(width)?;
            self.first_child.widen(width)?;
            self.next_sibling.widen(width)?;
        }
        let id = id as u32;
        self.pred.push(up(pred.unwrap_or(NONE)))?;
        self.event.push(event as u64)?;
        self.first_child.push(0)?;
        match pred {
            Some(p) => {
                self.next_sibling.push(self.first_child.get(p as usize))?;
                self.first_child.set(p as usize, up(id))?;
            }
            None => self.next_sibling.push(0)?,
        }
        Ok(id)
    }

    /// The predecessor of `id` (`NONE` for the initial state).
    pub fn pred(&self, id: u32) -> u32 {
        down(self.pred.get(id as usize))
    }

    pub fn event(&self, id: u32) -> u32 {
        self.event.get(id as usize) as u32
    }

    /// The first id of `id`'s successor list, `NONE` if empty.
    pub fn first_child(&self, id: u32) -> u32 {
        down(self.first_child.get(id as usize))
    }

    /// The id after `id` in its predecessor's successor list, or `NONE`.
    pub fn next_sibling(&self, id: u32) -> u32 {
        down(self.next_sibling.get(id as usize))
    }

    pub fn checked(&self, id: u32) -> bool {
        self.check[id as usize / 64] >> (id % 64) & 1 == 1
    }

    pub fn set_check(&mut self, id: u32, on: bool) {
        let w = &mut self.check[id as usize / 64];
        let bit = 1u64 << (id % 64);
        if on {
            *w |= bit;
        } else {
            *w &= !bit;
        }
    }

    /// Bits of one state's record: predecessor, event, first child, next
    /// sibling and check bit.
    pub fn record_bits(&self) -> u32 {
        self.pred.width()
            + self.event.width()
            + self.first_child.width()
            + self.next_sibling.width()
            + 1
    }

    pub fn used_bytes(&self) -> u64 {
        [
            &self.pred,
            &self.event,
            &self.first_child,
            &self.next_sibling,
        ]
        .iter()
        .map(|v| v.used_bits().div_ceil(8))
        .sum::<u64>()
            + (self.len() as u64).div_ceil(8)
    }

    pub fn alloc_bytes(&self) -> u64 {
        self.pred.alloc_bytes()
            + self.event.alloc_bytes()
            + self.first_child.alloc_bytes()
            + self.next_sibling.alloc_bytes()
            + capacity_bytes(&self.check)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn successor_lists_hold_exactly_the_children() {
        let mut t = BackEdges::new(Budget::unlimited());
        t.push(None, 0).unwrap();
        // Node i's parent is i / 3.
        for i in 1..1000u32 {
            assert_eq!(t.push(Some(i / 3), i).unwrap(), i);
        }
        for p in 0..1000u32 {
            let mut children = Vec::new();
            let mut c = t.first_child(p);
            while c != NONE {
                assert_eq!(t.pred(c), p);
                assert_eq!(t.event(c), c);
                children.push(c);
                c = t.next_sibling(c);
            }
            children.sort_unstable();
            let expect: Vec<u32> = (1..1000).filter(|&i| i / 3 == p).collect();
            assert_eq!(children, expect);
        }
        t.set_check(130, true);
        assert!(t.checked(130) && !t.checked(129) && !t.checked(131));
        t.set_check(130, false);
        assert!(!t.checked(130));
        assert!(t.used_bytes() <= t.alloc_bytes());
    }
}
