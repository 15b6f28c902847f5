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
//! Accounting: `used` = 16 bytes per state (four `u32` arrays) plus the
//! check-bit words covering the stored ids; `alloc` = the arrays'
//! capacities. Every growth is reserved in the engine's [`Budget`] first.
//!
//! Owns only these arrays; it must not know vectors, the model or the
//! search order.

use super::{capacity_bytes, grow_for};
use crate::budget::Budget;
use crate::visited::TableFull;

/// No id (the initial state's predecessor, the end of a successor list).
pub const NONE: u32 = u32::MAX;

/// The back-edge table; see the module documentation.
pub struct BackEdges {
    pred: Vec<u32>,
    event: Vec<u32>,
    first_child: Vec<u32>,
    next_sibling: Vec<u32>,
    check: Vec<u64>,
    budget: Budget,
}

impl BackEdges {
    pub fn new(budget: Budget) -> Self {
        BackEdges {
            pred: Vec::new(),
            event: Vec::new(),
            first_child: Vec::new(),
            next_sibling: Vec::new(),
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
        let id = self.pred.len();
        if id >= (NONE - 1) as usize {
            return Err(TableFull {
                message: format!("comback: {id} states, the limit of 32-bit state ids"),
            });
        }
        let who = "comback back-edge table";
        grow_for(&mut self.pred, 1, &self.budget, who)?;
        grow_for(&mut self.event, 1, &self.budget, who)?;
        grow_for(&mut self.first_child, 1, &self.budget, who)?;
        grow_for(&mut self.next_sibling, 1, &self.budget, who)?;
        if id / 64 >= self.check.len() {
            grow_for(&mut self.check, 1, &self.budget, who)?;
            self.check.push(0);
        }
        let id = id as u32;
        self.pred.push(pred.unwrap_or(NONE));
        self.event.push(event);
        self.first_child.push(NONE);
        match pred {
            Some(p) => {
                self.next_sibling.push(self.first_child[p as usize]);
                self.first_child[p as usize] = id;
            }
            None => self.next_sibling.push(NONE),
        }
        Ok(id)
    }

    /// The predecessor of `id` (`NONE` for the initial state).
    pub fn pred(&self, id: u32) -> u32 {
        self.pred[id as usize]
    }

    pub fn event(&self, id: u32) -> u32 {
        self.event[id as usize]
    }

    /// The first id of `id`'s successor list, `NONE` if empty.
    pub fn first_child(&self, id: u32) -> u32 {
        self.first_child[id as usize]
    }

    /// The id after `id` in its predecessor's successor list, or `NONE`.
    pub fn next_sibling(&self, id: u32) -> u32 {
        self.next_sibling[id as usize]
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

    pub fn used_bytes(&self) -> u64 {
        let n = self.len() as u64;
        n * 16 + n.div_ceil(64) * 8
    }

    pub fn alloc_bytes(&self) -> u64 {
        capacity_bytes(&self.pred)
            + capacity_bytes(&self.event)
            + capacity_bytes(&self.first_child)
            + capacity_bytes(&self.next_sibling)
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
