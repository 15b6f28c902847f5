//! The memory budget shared by all tables of one engine.
//!
//! Owns only the arithmetic of reserving and releasing bytes against a
//! limit, so that an engine made of several tables (collapse's component
//! tables, the tree's node tables) refuses to grow past the budget as a
//! whole and reports `table_full` instead of aborting. It must not allocate
//! anything itself, nor know which table asks.

use crate::visited::TableFull;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// A shared byte budget. Cloning gives another handle on the same budget.
#[derive(Clone, Debug)]
pub struct Budget {
    limit: u64,
    reserved: Arc<AtomicU64>,
}

impl Budget {
    pub fn new(limit: u64) -> Self {
        Budget {
            limit,
            reserved: Arc::new(AtomicU64::new(0)),
        }
    }

    /// A budget without a limit.
    pub fn unlimited() -> Self {
        Budget::new(u64::MAX)
    }

    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// Bytes currently reserved by every holder of this budget.
    pub fn reserved(&self) -> u64 {
        self.reserved.load(Ordering::Relaxed)
    }

    /// Reserves `bytes` before an allocation; `who` names the table in the
    /// `table_full` message when the budget would be exceeded.
    pub fn reserve(&self, bytes: u64, who: &str) -> Result<(), TableFull> {
        let mut cur = self.reserved.load(Ordering::Relaxed);
        loop {
            let next = cur.saturating_add(bytes);
            if next > self.limit {
                return Err(TableFull {
                    message: format!(
                        "{who}: allocating {bytes} more bytes would exceed the memory budget of {} bytes ({} reserved)",
                        self.limit, cur
                    ),
                });
            }
            match self.reserved.compare_exchange_weak(
                cur,
                next,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => return Ok(()),
                Err(actual) => cur = actual,
            }
        }
    }

    /// Gives back `bytes` after a deallocation.
    pub fn release(&self, bytes: u64) {
        self.reserved.fetch_sub(bytes, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserve_refuses_past_the_limit_and_release_gives_back() {
        let b = Budget::new(100);
        let c = b.clone();
        b.reserve(60, "a").unwrap();
        let err = c.reserve(50, "node 3").unwrap_err();
        assert!(err.message.starts_with("node 3:"), "{}", err.message);
        c.reserve(40, "b").unwrap();
        assert_eq!(b.reserved(), 100);
        b.release(60);
        c.reserve(50, "c").unwrap();
        assert_eq!(c.reserved(), 90);
    }
}
