//! Leases: a worker's private block of entry numbers (indices, or mere
//! admissions) taken from a table's shared counter.
//!
//! Why. A concurrent table that numbers its entries densely with one
//! `fetch_add` per insertion makes every insertion of every worker write
//! the same cache line, and makes neighbouring entries (written by
//! different workers) share data lines. Both are coherence traffic between
//! cores on the hot path. With leases a worker takes [`LEASE`] numbers at a
//! time with one CAS and hands them out to itself without touching shared
//! memory, so workers write the counter once per `LEASE` insertions and
//! fill disjoint, contiguous stretches of the data area. This is the
//! per-thread allocation of LTSmin's shared tables.
//!
//! Accounting. A [`LeasePool`] (one per table) counts the numbers it
//! leased (`claimed`) and those returned unused ([`LeasePool::retire`]);
//! `claimed − returned` is the table's entry count once every lease is
//! retired, and over-counts by at most the unused numbers of the live
//! leases (at most `LEASE` per worker and table) while a search runs. The
//! numbers a table hands out are therefore unique and below `claimed`, but
//! not dense while leases are live, and a retired lease leaves a hole.
//! The pool also sums a per-lease event tally (for statistics that would
//! otherwise be another shared counter).
//!
//! A [`Lease`] belongs to the worker (its `WorkerLocal`, see
//! `concurrent`) and remembers which pool issued it, so a lease presented
//! to another table is treated as empty (its numbers stay with their pool,
//! counted until retired there).
//!
//! It owns only these two types; it must not know tables, states or the
//! search.

use crate::blocks::sync::{AtomicU64, Ordering};

/// Numbers per lease.
#[cfg(not(loom))]
pub const LEASE: u64 = 64;
/// Small under loom, so that the models cross lease boundaries.
#[cfg(loom)]
pub const LEASE: u64 = 2;

/// Pool identities (never 0; plain std atomics even under loom: identity
/// is not part of any modelled protocol).
static NEXT_POOL: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// A worker's block of numbers `next..end` from one pool.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Lease {
    pool: u64,
    next: u64,
    end: u64,
    /// Events counted by the holder, added to the pool's tally on retire.
    events: u64,
}

impl Lease {
    /// An empty lease (of no pool).
    pub const fn new() -> Self {
        Lease {
            pool: 0,
            next: 0,
            end: 0,
            events: 0,
        }
    }

    /// Counts `n` events for the pool's tally (see [`LeasePool::events`]).
    #[inline]
    pub fn count_events(&mut self, n: u64) {
        self.events += n;
    }
}

/// Why a pool issued no number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exhausted {
    /// The pool reached the soft limit the caller gave (grow first).
    Soft,
    /// The pool reached its hard limit.
    Hard,
}

/// The shared counter of one table; see the module documentation.
#[derive(Debug)]
pub struct LeasePool {
    id: u64,
    claimed: AtomicU64,
    returned: AtomicU64,
    events: AtomicU64,
}

impl Default for LeasePool {
    fn default() -> Self {
        Self::new()
    }
}

impl LeasePool {
    /// A pool with nothing claimed.
    pub fn new() -> Self {
        LeasePool {
            id: NEXT_POOL.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            claimed: AtomicU64::new(0),
            returned: AtomicU64::new(0),
            events: AtomicU64::new(0),
        }
    }

    /// A pool continuing `self`'s counts (a rebuilt table that keeps its
    /// entries: the live leases of `self` stay valid for the new pool).
    pub fn carry(&self) -> Self {
        LeasePool {
            id: self.id,
            claimed: AtomicU64::new(self.claimed.load(Ordering::Relaxed)),
            returned: AtomicU64::new(self.returned.load(Ordering::Relaxed)),
            events: AtomicU64::new(self.events.load(Ordering::Relaxed)),
        }
    }

    /// Numbers claimed minus numbers returned: the entry count once every
    /// lease is retired (an upper bound before).
    pub fn len(&self) -> u64 {
        self.claimed
            .load(Ordering::Relaxed)
            .saturating_sub(self.returned.load(Ordering::Relaxed))
    }

    /// Whether no number is outstanding or used.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Numbers claimed so far (one past the largest number issued).
    pub fn claimed(&self) -> u64 {
        self.claimed.load(Ordering::Relaxed)
    }

    /// Events tallied by retired leases (plus [`add_events`](Self::add_events)).
    pub fn events(&self) -> u64 {
        self.events.load(Ordering::Relaxed)
    }

    /// Adds `n` to the event tally directly.
    pub fn add_events(&self, n: u64) {
        self.events.fetch_add(n, Ordering::Relaxed);
    }

    /// Counts one more number as used without a lease (exclusive access:
    /// a rebuild or a single-threaded insertion).
    pub fn count_one(&self) {
        self.claimed.fetch_add(1, Ordering::Relaxed);
    }

    /// The number `lease` would hand out next, renewing it from this pool
    /// when it is empty or another pool's: up to `size` numbers from
    /// `claimed`, none at or past `hard`, and no renewal once `claimed`
    /// reached `soft` (the caller then grows its table). The number is not
    /// consumed: call [`consume`](Self::consume) once it is used.
    #[inline]
    pub fn peek(
        &self,
        lease: &mut Lease,
        size: u64,
        soft: u64,
        hard: u64,
    ) -> Result<u64, Exhausted> {
        if lease.pool == self.id && lease.next < lease.end {
            return Ok(lease.next);
        }
        self.renew(lease, size, soft, hard)
    }

    #[cold]
    fn renew(&self, lease: &mut Lease, size: u64, soft: u64, hard: u64) -> Result<u64, Exhausted> {
        if lease.pool == self.id {
            // Used up: its events go to the tally now.
            self.add_events(std::mem::take(&mut lease.events));
        } else {
            // Another pool's (or none): its numbers and events stay there
            // until retired into it; this lease starts afresh.
            *lease = Lease::new();
        }
        let mut cur = self.claimed.load(Ordering::Relaxed);
        loop {
            if cur >= hard {
                return Err(Exhausted::Hard);
            }
            if cur >= soft {
                return Err(Exhausted::Soft);
            }
            let end = cur.saturating_add(size.max(1)).min(hard);
            match self
                .claimed
                .compare_exchange_weak(cur, end, Ordering::Relaxed, Ordering::Relaxed)
            {
                Ok(_) => {
                    *lease = Lease {
                        pool: self.id,
                        next: cur,
                        end,
                        events: 0,
                    };
                    return Ok(cur);
                }
                Err(actual) => cur = actual,
            }
        }
    }

    /// Marks the number [`peek`](Self::peek) gave as used.
    #[inline]
    pub fn consume(&self, lease: &mut Lease) {
        debug_assert!(lease.pool == self.id && lease.next < lease.end);
        lease.next += 1;
    }

    /// Returns the unused numbers and the events of `lease` (if it is this
    /// pool's) and empties it.
    pub fn retire(&self, lease: &mut Lease) {
        if lease.pool != self.id {
            return;
        }
        let unused = lease.end - lease.next;
        if unused > 0 {
            self.returned.fetch_add(unused, Ordering::Relaxed);
        }
        self.add_events(lease.events);
        *lease = Lease::new();
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_unique_and_the_count_is_exact_after_retiring() {
        let pool = LeasePool::new();
        let mut a = Lease::new();
        let mut b = Lease::new();
        let mut seen = std::collections::HashSet::new();
        for i in 0..300 {
            let lease = if i % 3 == 0 { &mut a } else { &mut b };
            let n = pool.peek(lease, 8, u64::MAX, u64::MAX).unwrap();
            // Peeking again without consuming gives the same number.
            assert_eq!(pool.peek(lease, 8, u64::MAX, u64::MAX), Ok(n));
            pool.consume(lease);
            lease.count_events(2);
            assert!(seen.insert(n), "number {n} twice");
        }
        assert!(pool.len() >= 300);
        pool.retire(&mut a);
        pool.retire(&mut b);
        assert_eq!(pool.len(), 300);
        assert_eq!(pool.events(), 600);
        assert!(seen.iter().all(|&n| n < pool.claimed()));
    }

    #[test]
    fn soft_and_hard_limits_stop_renewal_not_the_live_lease() {
        let pool = LeasePool::new();
        let mut a = Lease::new();
        assert_eq!(pool.peek(&mut a, 4, 2, 100), Ok(0));
        for _ in 0..4 {
            pool.peek(&mut a, 4, 2, 100).unwrap();
            pool.consume(&mut a);
        }
        // The lease [0, 4) ran out past the soft limit 2.
        assert_eq!(pool.peek(&mut a, 4, 2, 100), Err(Exhausted::Soft));
        assert_eq!(pool.peek(&mut a, 4, 10, 5), Ok(4));
        pool.consume(&mut a);
        assert_eq!(pool.peek(&mut a, 4, 10, 5), Err(Exhausted::Hard));
        pool.retire(&mut a);
        assert_eq!(pool.len(), 5);
    }

    #[test]
    fn a_lease_of_another_pool_is_not_used() {
        let (p, q) = (LeasePool::new(), LeasePool::new());
        let mut l = Lease::new();
        assert_eq!(p.peek(&mut l, 10, u64::MAX, u64::MAX), Ok(0));
        p.consume(&mut l);
        // q starts its own lease; p's unused 9 numbers stay counted in p.
        assert_eq!(q.peek(&mut l, 10, u64::MAX, u64::MAX), Ok(0));
        q.consume(&mut l);
        p.retire(&mut l);
        assert_eq!(p.len(), 10);
        q.retire(&mut l);
        assert_eq!(q.len(), 1);
        // A carried pool keeps the counts and honours live leases.
        let mut m = Lease::new();
        p.peek(&mut m, 3, u64::MAX, u64::MAX).unwrap();
        let c = p.carry();
        assert_eq!(c.peek(&mut m, 3, u64::MAX, u64::MAX), Ok(10));
        c.consume(&mut m);
        c.retire(&mut m);
        assert_eq!(c.len(), 11);
    }
}
