//! A Cleary compact hash table shared by many threads: the concurrent form
//! of [`crate::schemes::compact_tree::cleary`], the root table of the concurrent `compact-tree`
//! (see `shared_compact_tree`).
//!
//! Layout: exactly the sequential one. A `K`-bit key is hashed by the
//! bijection [`mix`]; the top `m` bits are the **quotient** (home bucket),
//! the low `K − m` the **remainder**; every bucket is one packed entry of
//! `K − m + 3` bits (remainder, then Cleary's **occupied**, **virgin** and
//! **change** bits) in an array of atomic 64-bit words, entries straddling
//! word boundaries as in the sequential table. Look-up and insertion are
//! the sequential algorithms (bidirectional scan to the nearer empty
//! bucket, counting virgin and change bits; shift towards it) of
//! `cleary_core`, run over a *view* that says which buckets the caller
//! may read.
//!
//! Concurrency: region locks with optimistic look-ups, after van der Vegt
//! and Laarman, "A parallel compact hash table" (MEMICS 2011). The buckets
//! are divided into **regions** of 2^[`REGION_BITS`] consecutive buckets;
//! each region has one 64-bit **lock word**, odd while a writer holds the
//! region, incremented on lock and on unlock (so it doubles as a sequence
//! counter).
//! - A look-up first runs **without any lock**: entering a region it reads
//!   the region's lock word (even, else it waits and restarts), and at the
//!   end it re-reads the lock words of every region it read (after an
//!   acquire fence). Unchanged words mean no writer touched those buckets
//!   meanwhile, so the answer is that of a consistent snapshot: a present
//!   key is found without writing any shared word (readers never block
//!   writers nor each other).
//! - An insertion (the key was absent) locks, by CAS from even to odd in
//!   ascending region order (no deadlock), the contiguous run of regions
//!   that the optimistic look-up read, then repeats the look-up under the
//!   locks. If that look-up needs a bucket outside the locked run (the
//!   cluster crosses its boundary, or grew meanwhile), it unlocks, extends
//!   the run by the neighbouring region and retries; so clusters that
//!   cross region boundaries are handled, and the look-up and the shift
//!   read and write only buckets of regions the writer holds. Two
//!   insertions holding disjoint regions touch disjoint buckets and commute
//!   (each is the sequential algorithm on its buckets), so the table is
//!   linearizable: exactly one of many concurrent insertions of an absent
//!   key answers "new". Bucket updates are xor-RMWs on the words (a word
//!   shared by two regions keeps its other bits); a region's lock word is
//!   released with a release store after the shift.
//!
//! Differences from the paper: (1) its buckets carry a fourth
//! administration bit, a lock bit per bucket, and a writer CAS-locks the
//! buckets of the range it reshuffles; here the lock is one word per
//! region of 64 buckets, outside the packed entries (entries keep the
//! sequential `K − m + 3` bits, no lock bit), and a writer locks whole
//! regions covering the scanned range. (2) Its look-ups read buckets
//! without validation; here they are validated by the region words
//! (seqlock), which makes a torn read during a concurrent shift impossible
//! by construction. (3) Its buckets have a fixed width (28-bit remainders
//! in 32-bit buckets); here entries are packed at `K − m + 3` bits as in
//! the sequential table, and the table grows (doubling, and re-keying in
//! the adaptive root) by the stop-the-world protocol of
//! [`crate::concurrent`]: an insertion that would pass the growth
//! threshold answers [`InsertError::Grow`] and `grow` re-inserts every key
//! with exclusive access, on as many threads as the search has workers
//! (each takes the clusters starting in one slice of the old array and
//! inserts them into the new table by the locked protocol above). Each
//! insertion is admitted under the locks by the worker's own lease (see
//! `lease`: a block of [`LEASE`] admissions taken from the table's counter
//! with one CAS, never past the threshold), so workers share no counter on
//! the hot path and the table never holds more than its threshold (at
//! least one bucket stays empty). The shift count is tallied on the lease
//! too. A rebuilt table carries the counter over, so live leases stay
//! valid across growth and re-keying.
//!
//! Sizes: powers of two only (a table asked for `fine_growth` doubles).
//!
//! Accounting: `used` = entries × (K − m + 3) bits, as the sequential
//! table; `alloc` = the packed array (as the sequential table) + 8 bytes of
//! lock word per region (one bit per bucket).
//!
//! It owns only this table; it must not know trees, states or models.

use crate::blocks::budget::Budget;
use crate::blocks::lease::{Lease, LeasePool, LEASE};
use crate::blocks::sync::{fence, spin, zeroed_u64, AtomicU64, Ordering};
use crate::concurrent::InsertError;
use crate::schemes::compact_tree::cleary::{
    check_fits, checked, filled, limits, low_mask, mix, table_bytes, unmix, ClearyConfig,
    MAX_LOG2_BUCKETS,
};
use crate::schemes::compact_tree::cleary_core::{self, locate, Packed, Vacancy, View, Whole};
use crate::schemes::compact_tree::ctroot_split::Buckets;
use crate::visited::TableFull;

/// `config` growing by doublings (this table's sizes are powers of two).
fn doubling(config: ClearyConfig) -> ClearyConfig {
    ClearyConfig {
        fine_growth: false,
        ..config
    }
}

/// Keys below which a rebuild stays on one thread (spawning costs more).
const PARALLEL_REBUILD_MIN: u64 = 1 << 16;

/// log2 of the buckets per region (at most the table's own log2).
#[cfg(not(loom))]
pub const REGION_BITS: u32 = 6;
/// Tiny regions under loom, so that a 16-bucket table has four.
#[cfg(loom)]
pub const REGION_BITS: u32 = 2;

/// Regions an optimistic look-up may read on each side of its home region
/// before it takes the locks instead.
const OPTIMISTIC_REGIONS: usize = 8;
/// Optimistic attempts (each restarted by a concurrent writer) before an
/// insertion takes the locks anyway.
const OPTIMISTIC_TRIES: usize = 4;

/// The run of regions `home − a ..= home + b` (circular).
#[derive(Clone, Copy)]
struct Run {
    home: usize,
    a: usize,
    b: usize,
}

impl Run {
    /// Whether region `r` is in the run; else whether it is the right
    /// (`Some(true)`) or left (`Some(false)`) neighbour.
    #[inline]
    fn place(&self, r: usize, rmask: usize) -> Result<(), bool> {
        let dr = r.wrapping_sub(self.home) & rmask;
        let dl = self.home.wrapping_sub(r) & rmask;
        if dr <= self.b || dl <= self.a {
            Ok(())
        } else {
            Err(dr == self.b + 1)
        }
    }
}

/// An optimistic (lock-free) look-up: records the lock word of every
/// region read, to validate them at the end.
struct Optimistic<'a> {
    t: &'a SharedClearyTable,
    run: Run,
    /// Lock words of regions home..=home+b and home−1..=home−a.
    right: [u64; OPTIMISTIC_REGIONS + 1],
    left: [u64; OPTIMISTIC_REGIONS],
    /// A writer held a region: restart.
    busy: bool,
    /// More regions than recorded: take the locks.
    long: bool,
    /// Buckets read; a look-up reading more than three times the table
    /// saw torn writes and restarts.
    reads: usize,
}

impl<'a> Optimistic<'a> {
    fn new(t: &'a SharedClearyTable, home: usize) -> Option<Self> {
        let s = t.locks[home].load(Ordering::Acquire);
        if s & 1 != 0 {
            return None;
        }
        let mut right = [0; OPTIMISTIC_REGIONS + 1];
        right[0] = s;
        Some(Optimistic {
            t,
            run: Run { home, a: 0, b: 0 },
            right,
            left: [0; OPTIMISTIC_REGIONS],
            busy: false,
            long: false,
            reads: 0,
        })
    }

    /// Whether no writer held any region read since it was first read.
    fn validate(&self) -> bool {
        fence(Ordering::Acquire);
        let rmask = self.t.locks.len() - 1;
        let home = self.run.home;
        let unchanged = |r: usize, s: u64| self.t.locks[r & rmask].load(Ordering::Relaxed) == s;
        (0..=self.run.b).all(|j| unchanged(home + j, self.right[j]))
            && (1..=self.run.a).all(|j| unchanged(home.wrapping_sub(j), self.left[j - 1]))
    }
}

impl View for Optimistic<'_> {
    #[inline]
    fn get(&mut self, i: usize) -> Option<u64> {
        let t = self.t;
        self.reads += 1;
        if self.reads > 3 << t.packed.log2() {
            self.busy = true;
            return None;
        }
        let r = i >> t.region_bits;
        let rmask = t.locks.len() - 1;
        if let Err(to_right) = self.run.place(r, rmask) {
            let (n, slot) = if to_right {
                (self.run.b + 1, self.right.get_mut(self.run.b + 1))
            } else {
                (self.run.a + 1, self.left.get_mut(self.run.a))
            };
            let Some(slot) = slot else {
                self.long = true;
                return None;
            };
            let s = t.locks[r].load(Ordering::Acquire);
            if s & 1 != 0 {
                self.busy = true;
                return None;
            }
            *slot = s;
            if to_right {
                self.run.b = n;
            } else {
                self.run.a = n;
            }
        }
        Some(t.packed.shared().get(i))
    }
}

/// A look-up under the locks of a run: refuses buckets outside it and
/// says on which side the run must grow.
struct Locked<'a> {
    t: &'a SharedClearyTable,
    run: Run,
    need_right: bool,
}

impl View for Locked<'_> {
    #[inline]
    fn get(&mut self, i: usize) -> Option<u64> {
        let r = i >> self.t.region_bits;
        match self.run.place(r, self.t.locks.len() - 1) {
            Ok(()) => Some(self.t.packed.shared().get(i)),
            Err(to_right) => {
                self.need_right = to_right;
                None
            }
        }
    }
}

/// The concurrent Cleary table; see the module documentation.
pub struct SharedClearyTable {
    name: String,
    config: ClearyConfig,
    packed: Packed<Box<[AtomicU64]>>,
    region_bits: u32,
    /// One lock word per region (odd: held).
    locks: Box<[AtomicU64]>,
    /// Admissions (entries), leased to workers; taken under the locks
    /// before the shift. Its event tally counts shifted entries.
    pool: LeasePool,
    /// Insertions answer "grow" (or "full") at this many entries; changed
    /// only under exclusive access.
    grow_at: u64,
    /// Entries the current bucket array may hold at the maximal load.
    capacity: u64,
    /// At `m = K`, grow at the growth load anyway: the owner re-keys the
    /// table with wider keys ([`rekeyed`](Self::rekeyed)).
    rekeyable: bool,
    /// The owner's `rekeyable` as given, kept for the doubled arrays of
    /// [`grow`](Self::grow): a table created below `m = K` becomes
    /// rekeyable when it reaches `m = K`.
    may_rekey: bool,
    budget: Budget,
    reserved: u64,
    refused: Option<String>,
    growths: u64,
    /// Threads that re-insert the keys when the table is rebuilt (growth,
    /// re-keying); the search's worker count.
    rebuild_threads: usize,
}

impl SharedClearyTable {
    /// A table of the given shape allocating from `budget`; `rekeyable`:
    /// the owner widens the keys when `m = K` is too small (see
    /// [`wants_wider_keys`](Self::wants_wider_keys)). Panics on an
    /// impossible shape ([`ClearyConfig::check`]).
    pub fn new(
        name: impl Into<String>,
        config: ClearyConfig,
        rekeyable: bool,
        budget: Budget,
    ) -> Result<Self, TableFull> {
        let config = doubling(checked(config, "SharedClearyTable"));
        Self::with_log2(name.into(), config, config.log2_buckets, rekeyable, budget)
    }

    fn with_log2(
        name: String,
        config: ClearyConfig,
        log2: u32,
        rekeyable: bool,
        budget: Budget,
    ) -> Result<Self, TableFull> {
        let region_bits = REGION_BITS.min(log2);
        let regions = 1usize << (log2 - region_bits);
        let array = table_bytes(config.key_bits, log2);
        let bytes = array + regions as u64 * 8;
        budget.reserve(bytes, &name)?;
        let may_rekey = rekeyable;
        let rekeyable = may_rekey && log2 == config.key_bits && log2 < MAX_LOG2_BUCKETS;
        let buckets = Buckets::pow2(log2);
        let (capacity, grow_at) =
            limits(&config, buckets, log2 < config.max_log2_buckets || rekeyable);
        Ok(SharedClearyTable {
            name,
            config,
            packed: Packed::new(zeroed_u64((array / 8) as usize), config.key_bits, buckets),
            region_bits,
            locks: zeroed_u64(regions),
            pool: LeasePool::new(),
            grow_at,
            capacity,
            rekeyable,
            may_rekey,
            budget,
            reserved: bytes,
            refused: None,
            growths: 0,
            rebuild_threads: 1,
        })
    }

    /// Lets growth and re-keying re-insert the keys with `threads` threads
    /// (every worker of the search is stopped meanwhile).
    pub fn set_rebuild_threads(&mut self, threads: usize) {
        self.rebuild_threads = threads.max(1);
    }

    /// Keys stored (exact once every lease is retired; before, plus the
    /// unused admissions of live leases).
    pub fn len(&self) -> u64 {
        self.pool.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Current log2 of the bucket count, `m`.
    pub fn log2_buckets(&self) -> u32 {
        self.packed.log2()
    }

    /// Key width `K`.
    pub fn key_bits(&self) -> u32 {
        self.config.key_bits
    }

    /// Bits of one entry: remainder + 3 administration bits.
    pub fn entry_bits(&self) -> u32 {
        self.packed.entry_bits
    }

    /// Bits of the occupied entries.
    pub fn used_bits(&self) -> u64 {
        self.len() * self.packed.entry_bits as u64
    }

    /// Bytes allocated: packed array + region lock words.
    pub fn alloc_bytes(&self) -> u64 {
        self.reserved
    }

    /// Regions (lock words).
    pub fn regions(&self) -> u64 {
        self.locks.len() as u64
    }

    /// Times the bucket array doubled.
    pub fn growths(&self) -> u64 {
        self.growths
    }

    /// Entries moved by insertions.
    pub fn shifted(&self) -> u64 {
        self.pool.events()
    }

    /// Locks the regions of `run` in ascending order.
    fn lock(&self, run: Run) {
        self.for_each_region(run, |r| {
            let w = &self.locks[r];
            loop {
                let s = w.load(Ordering::Relaxed);
                if s & 1 == 0
                    && w.compare_exchange_weak(s, s + 1, Ordering::Acquire, Ordering::Relaxed)
                        .is_ok()
                {
                    break;
                }
                spin();
            }
        });
        // Readers that see a bucket written after this fence see the odd
        // lock words when they validate.
        fence(Ordering::Release);
    }

    fn unlock(&self, run: Run) {
        self.for_each_region(run, |r| {
            self.locks[r].fetch_add(1, Ordering::Release);
        });
    }

    /// Calls `f` with the regions of `run` in ascending order.
    fn for_each_region(&self, run: Run, mut f: impl FnMut(usize)) {
        let n = self.locks.len();
        let len = run.a + run.b + 1;
        if len >= n {
            (0..n).for_each(f);
            return;
        }
        let start = run.home.wrapping_sub(run.a) & (n - 1);
        if start + len <= n {
            (start..start + len).for_each(f);
        } else {
            (0..start + len - n).for_each(&mut f);
            (start..n).for_each(f);
        }
    }

    /// Whether the table may take more entries after `grow` (or a
    /// re-keying by its owner).
    fn can_grow(&self) -> bool {
        (self.packed.log2() < self.config.max_log2_buckets && self.refused.is_none())
            || self.rekeyable
    }

    #[cold]
    fn no_room(&self) -> InsertError {
        if self.can_grow() {
            return InsertError::Grow;
        }
        InsertError::Full(filled(
            &self.name,
            self.len(),
            self.packed.count(),
            self.config.max_load,
            self.refused.as_deref(),
        ))
    }

    /// Whether `key` (below 2^K) is stored (a lock-free look-up when no
    /// writer is near; see the module documentation).
    pub fn contains(&self, key: u64) -> bool {
        let h = mix(key, self.config.key_bits);
        let home = self.home_region(h);
        loop {
            if let Some(mut v) = Optimistic::new(self, home) {
                if let Some(r) = self.locate(&mut v, h) {
                    if v.validate() {
                        return r.is_ok();
                    }
                } else if v.long {
                    break;
                }
            }
            spin();
        }
        let (r, run) = self.locate_locked(h, Run { home, a: 0, b: 0 });
        self.unlock(run);
        r.is_ok()
    }

    /// The region of the home bucket of the hashed key `h`.
    #[inline]
    fn home_region(&self, h: u64) -> usize {
        self.packed.split.split(h).0 >> self.region_bits
    }

    /// Cleary's look-up of the hashed key `h` through the view `v`.
    #[inline]
    fn locate<V: View>(&self, v: &mut V, h: u64) -> Option<Result<(), Vacancy>> {
        locate(v, h, &self.packed.split)
    }

    /// Locks the regions of `run`, then looks `h` up under the locks; when
    /// the look-up needs a bucket outside the run, unlocks, extends the run
    /// by the neighbouring region on that side and retries. Returns the
    /// answer and the run, still locked (the caller unlocks it).
    fn locate_locked(&self, h: u64, mut run: Run) -> (Result<(), Vacancy>, Run) {
        loop {
            self.lock(run);
            let mut v = Locked {
                t: self,
                run,
                need_right: false,
            };
            if let Some(r) = self.locate(&mut v, h) {
                return (r, run);
            }
            self.unlock(run);
            if v.need_right {
                run.b += 1;
            } else {
                run.a += 1;
            }
        }
    }

    /// Inserts `key` (below 2^K) if absent: `Ok(true)` if this call
    /// inserted it, `Ok(false)` if it was present; [`InsertError::Grow`]
    /// when the table must grow first (nothing inserted).
    pub fn find_or_insert(&self, key: u64, lease: &mut Lease) -> Result<bool, InsertError> {
        debug_assert_eq!(key & !low_mask(self.config.key_bits), 0);
        self.find_or_insert_hashed(mix(key, self.config.key_bits), lease)
    }

    /// [`find_or_insert`](Self::find_or_insert) of the key whose hash
    /// ([`mix`]) is `h`.
    fn find_or_insert_hashed(&self, h: u64, lease: &mut Lease) -> Result<bool, InsertError> {
        let home = self.home_region(h);
        let mut run = Run { home, a: 0, b: 0 };
        for _ in 0..OPTIMISTIC_TRIES {
            if let Some(mut v) = Optimistic::new(self, home) {
                match self.locate(&mut v, h) {
                    Some(r) if v.validate() => {
                        if r.is_ok() {
                            return Ok(false);
                        }
                        run = v.run;
                        break;
                    }
                    None if v.long => {
                        run = v.run;
                        break;
                    }
                    _ => {}
                }
            }
            spin();
        }
        let (found, run) = self.locate_locked(h, run);
        let Err(vacancy) = found else {
            self.unlock(run);
            return Ok(false);
        };
        if self
            .pool
            .peek(lease, LEASE, self.grow_at, self.grow_at)
            .is_err()
        {
            self.unlock(run);
            return Err(self.no_room());
        }
        self.pool.consume(lease);
        let moved = cleary_core::insert_at(&mut self.packed.shared(), vacancy);
        self.unlock(run);
        lease.count_events(moved);
        Ok(true)
    }

    /// Returns the unused admissions and the tally of `lease` (the worker
    /// stops inserting).
    pub fn retire(&self, lease: &mut Lease) {
        self.pool.retire(lease);
    }

    /// Inserts the absent hashed key `h` with exclusive access (a rebuild:
    /// the caller then carries the old count over).
    fn insert_exclusive(&mut self, h: u64) {
        let mut p = self.packed.shared();
        let v = locate(&mut Whole::new(&p), h, &p.split)
            .expect("an exclusive view reads every bucket")
            .expect_err("keys are distinct");
        cleary_core::insert_at(&mut p, v);
    }

    /// Whether the table is at its growth threshold with `m = K`, so that
    /// its owner should re-key it with wider keys before more insertions.
    pub fn wants_wider_keys(&self) -> bool {
        self.rekeyable && self.pool.claimed() >= self.grow_at
    }

    /// Doubles the bucket array if the table reached its threshold and may
    /// grow (no-op otherwise, so idempotent); exclusive access. A growth
    /// the budget refuses is not an error: the table then fills its
    /// current array to the maximal load.
    pub fn grow(&mut self) -> Result<(), TableFull> {
        if self.pool.claimed() < self.grow_at
            || self.packed.log2() >= self.config.max_log2_buckets
            || self.refused.is_some()
        {
            return Ok(());
        }
        match Self::with_log2(
            self.name.clone(),
            self.config,
            self.packed.log2() + 1,
            self.may_rekey,
            self.budget.clone(),
        ) {
            Ok(mut bigger) => {
                bigger.rebuild_threads = self.rebuild_threads;
                // Same keys, same hashes: a doubled array only takes one
                // more quotient bit from each.
                self.move_into(&mut bigger, |h| h);
                bigger.growths = self.growths + 1;
                bigger.pool = self.pool.carry();
                *self = bigger; // drops (and releases) the old array
            }
            Err(full) => {
                self.refused = Some(full.message);
                self.grow_at = self.capacity;
            }
        }
        Ok(())
    }

    /// Calls `f` with the hashed key of every entry (exclusive access, or
    /// no insertion running), reconstructing each quotient from the virgin
    /// bits of its cluster.
    fn for_each_hash(&self, f: impl FnMut(u64)) {
        if !self.is_empty() {
            self.packed.shared().for_each_hash(f);
        }
    }

    /// Inserts `map(h)` into `into` (an empty table; `map` gives the hash
    /// there) for the hash `h` of every key here; exclusive access to
    /// both. With several rebuild threads and room below `into`'s growth
    /// threshold, each thread takes the clusters starting in one slice of
    /// the buckets and inserts through the locked protocol (clusters that
    /// collide in `into` are what its region locks are for); otherwise
    /// one exclusive pass. `into`'s count is the caller's to set (it
    /// carries `self`'s over).
    fn move_into(&self, into: &mut SharedClearyTable, map: impl Fn(u64) -> u64 + Sync) {
        let threads = self.rebuild_threads.min(into.rebuild_threads);
        let packed = self.packed.shared();
        let n = packed.count();
        // Rebuild threads admit the keys by leases of `into`: room for every
        // key plus one unused lease per thread.
        if threads <= 1
            || self.len() < PARALLEL_REBUILD_MIN
            || self.len() + threads as u64 * LEASE >= into.grow_at
        {
            self.for_each_hash(|h| into.insert_exclusive(map(h)));
            return;
        }
        let s0 = packed.empty_from(0);
        let mut cuts: Vec<usize> = (0..threads)
            .map(|c| packed.empty_from(c * n / threads).clamp(s0, s0 + n))
            .collect();
        cuts.push(s0 + n);
        let target: &SharedClearyTable = into;
        let (map, packed) = (&map, &packed);
        std::thread::scope(|scope| {
            for w in cuts.windows(2).filter(|w| w[0] < w[1]) {
                let (from, to) = (w[0], w[1]);
                scope.spawn(move || {
                    let mut lease = Lease::new();
                    packed.for_each_hash_between(from, to, |h| {
                        let inserted = target.find_or_insert_hashed(map(h), &mut lease);
                        assert_eq!(inserted, Ok(true), "a rebuild inserts distinct keys");
                    });
                });
            }
        });
    }

    /// Calls `f` with every stored key (no insertion running).
    pub fn for_each_key(&self, mut f: impl FnMut(u64)) {
        let bits = self.config.key_bits;
        self.for_each_hash(|h| f(unmix(h, bits)));
    }

    /// A table of shape `config` holding `f(key)` for every stored key (as
    /// [`crate::schemes::compact_tree::cleary::ClearyTable::rekeyed`]); exclusive access.
    pub fn rekeyed(
        &self,
        config: ClearyConfig,
        rekeyable: bool,
        f: impl Fn(u64) -> u64 + Sync,
    ) -> Result<SharedClearyTable, TableFull> {
        let config = doubling(checked(config, "SharedClearyTable"));
        let (name, budget) = (self.name.clone(), self.budget.clone());
        let mut t = Self::with_log2(name, config, config.log2_buckets, rekeyable, budget)?;
        let len = self.len();
        check_fits(
            &self.name,
            len,
            t.capacity,
            config.log2_buckets,
            config.max_load,
        )?;
        let bits = self.config.key_bits;
        t.rebuild_threads = self.rebuild_threads;
        self.move_into(&mut t, |h| {
            let key = f(unmix(h, bits));
            debug_assert_eq!(key & !low_mask(config.key_bits), 0);
            mix(key, config.key_bits)
        });
        t.growths = self.growths;
        t.pool = self.pool.carry();
        Ok(t)
    }

    /// Checks Cleary's invariants (tests, no insertion running).
    #[cfg(test)]
    pub(crate) fn check_invariants(&self) {
        cleary_core::check_invariants(&self.packed.shared(), self.len());
    }
}

impl Drop for SharedClearyTable {
    fn drop(&mut self) {
        self.budget.release(self.reserved);
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::conformance::{insert_growing, on_threads};
    use crate::schemes::compact_tree::cleary::test_shape as shape;
    use std::collections::HashSet;
    use std::sync::RwLock;

    /// `threads` threads insert overlapping pseudo-random key sets (growing
    /// when asked, as the explorer does); exactly one insertion of each
    /// distinct key answers new, and the table ends equal to a HashSet.
    fn overlapping_inserts(config: ClearyConfig, threads: usize, per_thread: usize, narrow: bool) {
        let table =
            RwLock::new(SharedClearyTable::new("t", config, false, Budget::unlimited()).unwrap());
        let bits = config.key_bits;
        let key = |i: u64| -> u64 {
            let x = i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 7;
            if narrow {
                // Few quotients: long groups and clusters across regions.
                unmix(
                    ((x % 64) << (bits - 8)) | (x >> 20) & low_mask(bits - 8),
                    bits,
                )
            } else {
                x & low_mask(bits)
            }
        };
        let news: Vec<Vec<u64>> = on_threads(threads, |t| {
            let mut news = Vec::new();
            let mut lease = Lease::new();
            for n in 0..per_thread as u64 {
                // Overlapping ranges walked in different orders.
                let i = (n * (2 * t as u64 + 1)) % per_thread as u64 + t as u64 * 101;
                let k = key(i);
                let insert = |t: &SharedClearyTable| t.find_or_insert(k, &mut lease);
                if insert_growing(&table, insert, SharedClearyTable::grow) {
                    news.push(k);
                }
            }
            table.read().unwrap().retire(&mut lease);
            news
        });
        let table = table.into_inner().unwrap();
        let mut reference = HashSet::new();
        for t in 0..threads as u64 {
            for n in 0..per_thread as u64 {
                reference.insert(key((n * (2 * t + 1)) % per_thread as u64 + t * 101));
            }
        }
        let mut once = HashSet::new();
        for &k in news.iter().flatten() {
            assert!(once.insert(k), "key {k:#x} answered new twice");
        }
        assert_eq!(once, reference, "one new per distinct key");
        assert_eq!(table.len(), reference.len() as u64);
        table.check_invariants();
        let mut stored = HashSet::new();
        table.for_each_key(|k| assert!(stored.insert(k)));
        assert_eq!(stored, reference);
        let mut lease = Lease::new();
        for &k in &reference {
            assert!(table.contains(k));
            assert_eq!(table.find_or_insert(k, &mut lease), Ok(false));
        }
        assert_eq!(table.used_bits(), table.len() * table.entry_bits() as u64);
    }

    #[test]
    fn many_threads_overlapping_keys_with_growth() {
        let c = shape(40, 4, 20);
        overlapping_inserts(c, 8, 20_000, false);
    }

    #[test]
    fn many_threads_crowded_quotients_fixed_size() {
        // 2^14 buckets, keys over 64 quotients' worth of hashes: clusters
        // of hundreds of buckets spanning many regions.
        overlapping_inserts(shape(30, 14, 14), 4, 4_000, true);
        overlapping_inserts(shape(30, 10, 16), 8, 3_000, true);
    }

    #[test]
    fn narrow_entries_share_words_between_regions() {
        // Entries of 3 + K − m bits (3..=11): many per word, words shared by
        // regions; at m = K = 12 the remainder is empty.
        overlapping_inserts(shape(12, 4, 12), 8, 1_500, false);
    }

    /// Growth and re-keying with several rebuild threads (each re-inserts
    /// the clusters of one slice of the buckets through the locked
    /// protocol) keep exactly the keys, with Cleary's invariants (clusters
    /// at load 0.75 cross the slices' cuts).
    #[test]
    fn parallel_rebuilds_keep_every_key() {
        for threads in [2, 3, 5] {
            let bits = 36;
            let mut t =
                SharedClearyTable::new("root", shape(bits, 8, 24), true, Budget::unlimited())
                    .unwrap();
            t.set_rebuild_threads(threads);
            let key =
                |i: u64| -> u64 { (i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 7) & low_mask(bits) };
            let mut reference = HashSet::new();
            let mut lease = Lease::new();
            for i in 0..3 * PARALLEL_REBUILD_MIN {
                let k = key(i);
                loop {
                    match t.find_or_insert(k, &mut lease) {
                        Ok(new) => {
                            assert_eq!(new, reference.insert(k), "key {k:#x}");
                            break;
                        }
                        Err(InsertError::Grow) => t.grow().unwrap(),
                        Err(InsertError::Full(f)) => panic!("{}", f.message),
                    }
                }
            }
            assert!(t.growths() >= 2, "growths {}", t.growths());
            t.retire(&mut lease);
            t.check_invariants();
            // Re-key: one more key bit, prepended.
            let wider = shape(bits + 1, t.log2_buckets(), 24);
            let r = t.rekeyed(wider, false, |k| k | 1 << bits).unwrap();
            r.check_invariants();
            let mut stored = HashSet::new();
            r.for_each_key(|k| assert!(stored.insert(k)));
            let expected: HashSet<u64> = reference.iter().map(|k| k | 1 << bits).collect();
            assert_eq!(stored, expected, "{threads} threads");
            let mut kept = HashSet::new();
            t.for_each_key(|k| assert!(kept.insert(k)));
            assert_eq!(kept, reference);
        }
    }

    /// A rekeyable table created below `m = K` stays rekeyable once its
    /// doublings reach `m = K`: it asks for wider keys at the growth load
    /// instead of filling up (the concurrent compact-tree once reported
    /// `table_full` on cycles-10-4 at 2 threads because of this).
    #[test]
    fn rekeyable_survives_growth_to_m_equals_k() {
        let mut t =
            SharedClearyTable::new("root", shape(12, 4, 12), true, Budget::unlimited()).unwrap();
        let mut n = 0u64;
        let mut lease = Lease::new();
        loop {
            match t.find_or_insert(n, &mut lease) {
                Ok(true) => n += 1,
                Ok(false) => unreachable!(),
                Err(InsertError::Grow) if t.wants_wider_keys() => break,
                Err(InsertError::Grow) => t.grow().unwrap(),
                Err(InsertError::Full(f)) => panic!("full instead of re-keying: {}", f.message),
            }
        }
        assert_eq!(t.log2_buckets(), 12);
        assert_eq!(n, (4096.0 * 0.75) as u64);
    }

    /// Inserts 0, 3, 6, … (each new), growing the table when it asks,
    /// until it is full: how many were inserted, and why it is full.
    fn fill(t: &mut SharedClearyTable, lease: &mut Lease) -> (u64, TableFull) {
        let mut n = 0u64;
        loop {
            match t.find_or_insert(n * 3, lease) {
                Ok(true) => n += 1,
                Ok(false) => unreachable!(),
                Err(InsertError::Grow) => t.grow().unwrap(),
                Err(InsertError::Full(f)) => return (n, f),
            }
        }
    }

    #[test]
    fn full_at_max_load_and_budget_refusal() {
        let mut t =
            SharedClearyTable::new("root", shape(30, 10, 10), false, Budget::unlimited()).unwrap();
        let (n, err) = fill(&mut t, &mut Lease::new());
        assert_eq!(n, 921);
        assert!(err.message.contains("maximal load"), "{}", err.message);
        let budget = Budget::new(table_bytes(30, 10) + 16 * 8 + 100);
        let mut t =
            SharedClearyTable::new("root", shape(30, 10, 20), false, budget.clone()).unwrap();
        assert_eq!(t.alloc_bytes(), table_bytes(30, 10) + 16 * 8);
        let mut lease = Lease::new();
        let (n, err) = fill(&mut t, &mut lease);
        assert_eq!(n, 921);
        assert!(err.message.contains("growth refused"), "{}", err.message);
        t.retire(&mut lease);
        t.check_invariants();
        drop(t);
        assert_eq!(budget.reserved(), 0);
    }
}

/// Loom models of the insertion protocol (`RUSTFLAGS="--cfg loom" cargo
/// test --release -p statebench-engines --lib loom_`): every interleaving
/// of two threads inserting into a 16-bucket table of four regions.
///
/// In the reader models the lock-free reader is the spawned thread and the
/// writer the main one. Loom keeps one last access per atomic: a reader
/// that ran first would have its loads overwritten by the writer's own
/// loads before the writer's stores, and loom then explores a single
/// interleaving (measured with `LOOM_LOG=info`: 1 iteration each, and they
/// passed with `Optimistic::validate` returning `true`). Reader second:
/// 5,537 interleavings for the false-positive model, which then fails
/// without validation, and 691,365 for the torn-shift model.
#[cfg(all(test, loom))]
mod loom_tests {
    use super::*;
    use loom::sync::Arc;

    /// 8-bit keys, 2^4 buckets: 4-bit remainders, regions of 4 buckets.
    fn tiny() -> SharedClearyTable {
        let config = ClearyConfig {
            key_bits: 8,
            log2_buckets: 4,
            max_log2_buckets: 4,
            max_load: 0.9,
            grow_load: 0.9,
            fine_growth: false,
        };
        SharedClearyTable::new("t", config, false, Budget::unlimited()).unwrap()
    }

    /// The key with quotient `q` and remainder `r`.
    fn key(q: u64, r: u64) -> u64 {
        unmix(q << 4 | r, 8)
    }

    /// Inserts `keys` as one worker (one lease, retired at the end).
    fn insert_all(t: &SharedClearyTable, keys: &[u64]) -> Vec<bool> {
        let mut lease = Lease::new();
        let r = keys
            .iter()
            .map(|&k| t.find_or_insert(k, &mut lease).unwrap())
            .collect();
        t.retire(&mut lease);
        r
    }

    /// Runs `body` in every interleaving loom explores, on a [`tiny`]
    /// table already holding the keys of the (quotient, remainder) pairs
    /// `held` (each inserted new); checks Cleary's invariants after it.
    fn model(held: &'static [(u64, u64)], body: fn(&Arc<SharedClearyTable>)) {
        loom::model(move || {
            let t = tiny();
            if !held.is_empty() {
                let keys: Vec<u64> = held.iter().map(|&(q, r)| key(q, r)).collect();
                assert!(insert_all(&t, &keys).into_iter().all(|new| new));
            }
            let t = Arc::new(t);
            body(&t);
            t.check_invariants();
        });
    }

    #[test]
    fn loom_same_key_twice_is_one_entry() {
        model(&[], |t| {
            let t2 = t.clone();
            let h = loom::thread::spawn(move || insert_all(&t2, &[key(5, 9)])[0]);
            let a = insert_all(t, &[key(5, 9)])[0];
            let b = h.join().unwrap();
            assert!(a ^ b, "exactly one insertion");
            assert_eq!(t.len(), 1);
        });
    }

    /// A cluster at buckets 3..=4 (quotient 3 twice), crossing the
    /// boundary of regions 0 and 1.
    #[test]
    fn loom_colliding_keys_shift_across_a_region_boundary() {
        model(&[(3, 4), (3, 8)], |t| {
            let t2 = t.clone();
            // Thread 2: quotient 3, smallest remainder: shifts the group.
            let h = loom::thread::spawn(move || {
                let r = insert_all(&t2, &[key(3, 1), key(4, 2)]);
                (r[0], r[1])
            });
            // Main: quotient 4 (its home is occupied by quotient 3's
            // group), and the same key as thread 2's second.
            let a = insert_all(t, &[key(4, 2)])[0];
            let (x, y) = h.join().unwrap();
            assert!(x);
            assert!(a ^ y, "exactly one insertion of key(4, 2)");
            assert_eq!(t.len(), 4);
            for k in [key(3, 4), key(3, 8), key(3, 1), key(4, 2)] {
                assert!(t.contains(k));
            }
            assert!(!t.contains(key(4, 3)));
        });
    }

    /// Buckets 4..=6: quotient 4's group (remainders 7, 9) and quotient
    /// 6's; bucket 3 empty. A writer fills bucket 3 with a new group
    /// (entry first, its virgin bit second): between the two writes, a
    /// look-up of the absent key (4, 1) that counted that change bit
    /// without its virgin bit would take quotient 3's remainder 1 for its
    /// own. The region words must reject that snapshot.
    #[test]
    fn loom_lock_free_lookup_has_no_false_positive() {
        model(&[(4, 7), (4, 9), (6, 2)], |t| {
            let t2 = t.clone();
            let h = loom::thread::spawn(move || t2.contains(key(4, 1)));
            assert!(insert_all(t, &[key(3, 1)])[0]);
            assert!(!h.join().unwrap(), "false positive");
            assert!(t.contains(key(3, 1)));
        });
    }

    /// Quotient 7's group at bucket 7; a writer inserts a smaller
    /// remainder (shifting the group right into region 2) while a reader
    /// looks up the present keys without locks.
    #[test]
    fn loom_reader_never_sees_a_torn_shift() {
        model(&[(7, 6), (8, 3)], |t| {
            let t2 = t.clone();
            let h = loom::thread::spawn(move || {
                [
                    t2.contains(key(7, 6)),
                    t2.contains(key(8, 3)),
                    t2.contains(key(8, 6)),
                ]
            });
            assert!(insert_all(t, &[key(7, 2)])[0]);
            assert_eq!(h.join().unwrap(), [true, true, false]);
        });
    }
}
