//! Cleary's algorithm, written once for both Cleary tables: the packed
//! bucket array ([`Packed`]) over any word storage ([`Words`]: a plain
//! `Vec<u64>` for the sequential table of
//! [`crate::schemes::compact_tree::cleary`], shared atomic words for the
//! concurrent one of [`crate::schemes::compact_tree::cleary_concurrent`]),
//! and the look-up ([`locate`]), insertion ([`insert_at`]), the
//! re-insertion of a growth in cluster order without look-ups ([`append`])
//! and enumeration ([`Packed::for_each_hash_between`]) over it, at any
//! bucket count (`ctroot_split` says where a hash's home is).
//!
//! A look-up reads buckets through a [`View`], which may refuse a bucket
//! (the concurrent table's region locks): the look-up is then abandoned.
//! The layout and the algorithm are described in the module documentation
//! of `cleary`.
//!
//! It owns only the packed layout and the algorithm on it; it must not know
//! budgets, growth, locks or leases (those are the two tables').

use crate::blocks::sync::{AtomicU64, Ordering};
use crate::schemes::compact_tree::cleary::{low_mask, ADMIN_BITS, CHANGE, OCCUPIED, VIRGIN};
use crate::schemes::compact_tree::ctroot_split::{Buckets, Split};

/// The 64-bit words of a packed bucket array.
pub(crate) trait Words {
    /// Word `w`.
    fn load(&self, w: usize) -> u64;
    /// Sets the bits `mask` of word `w` to `bits` (`bits & !mask == 0`).
    /// The caller owns those bits: no one else writes them meanwhile.
    fn replace(&mut self, w: usize, mask: u64, bits: u64);
}

/// The sequential table's words.
impl Words for Vec<u64> {
    #[inline]
    fn load(&self, w: usize) -> u64 {
        self[w]
    }

    #[inline]
    fn replace(&mut self, w: usize, mask: u64, bits: u64) {
        self[w] = (self[w] & !mask) | bits;
    }
}

/// The concurrent table's words, shared by every thread: a write is one
/// xor of the changed bits, so the other entries of a word (which other
/// writers may own) keep their bits.
impl Words for &[AtomicU64] {
    #[inline]
    fn load(&self, w: usize) -> u64 {
        self[w].load(Ordering::Relaxed)
    }

    #[inline]
    fn replace(&mut self, w: usize, mask: u64, bits: u64) {
        let d = (self[w].load(Ordering::Relaxed) & mask) ^ bits;
        if d != 0 {
            self[w].fetch_xor(d, Ordering::Relaxed);
        }
    }
}

/// A bucket array of n packed entries of `entry_bits` bits (the
/// remainder above the three administration bits), entries straddling
/// word boundaries; `split` says how many buckets and how a hash splits
/// into home and remainder among them (`ctroot_split`).
pub(crate) struct Packed<W> {
    pub(crate) words: W,
    pub(crate) split: Split,
    /// Bits of an entry, remainder + 3.
    pub(crate) entry_bits: u32,
    entry_mask: u64,
}

impl<W> Packed<W> {
    /// The array of `buckets` buckets for keys of `key_bits` bits, in
    /// `words` (at least [`array_bytes`](super::cleary::array_bytes) / 8
    /// of them).
    pub(crate) fn new(words: W, key_bits: u32, buckets: Buckets) -> Self {
        let split = Split::new(key_bits, buckets);
        let entry_bits = split.rem_bits + ADMIN_BITS;
        Packed {
            words,
            split,
            entry_bits,
            entry_mask: low_mask(entry_bits),
        }
    }

    /// The bucket count n.
    #[inline]
    pub(crate) fn count(&self) -> usize {
        self.split.count()
    }

    /// ⌊log2 n⌋ (`m` for n = 2^m).
    pub(crate) fn log2(&self) -> u32 {
        self.split.buckets.log2()
    }
}

impl Packed<Box<[AtomicU64]>> {
    /// The same array, writable through a shared reference (each writer
    /// writes only the entries it owns).
    #[inline]
    pub(crate) fn shared(&self) -> Packed<&[AtomicU64]> {
        Packed {
            words: &self.words,
            split: self.split,
            entry_bits: self.entry_bits,
            entry_mask: self.entry_mask,
        }
    }
}

impl<W: Words> Packed<W> {
    /// Entry `i`.
    #[inline]
    pub(crate) fn get(&self, i: usize) -> u64 {
        self.get_bits(i * self.entry_bits as usize, self.entry_bits, self.entry_mask)
    }

    /// The `width` bits (`mask` = 2^width − 1) from bit `bit` on.
    #[inline]
    fn get_bits(&self, bit: usize, width: u32, mask: u64) -> u64 {
        let (w, s) = (bit >> 6, (bit & 63) as u32);
        let lo = self.words.load(w) >> s;
        if s + width <= 64 {
            lo & mask
        } else {
            (lo | (self.words.load(w + 1) << (64 - s))) & mask
        }
    }

    /// Writes entry `i` (the caller owns it).
    #[inline]
    pub(crate) fn set(&mut self, i: usize, v: u64) {
        debug_assert_eq!(v & !self.entry_mask, 0);
        self.set_bits(i * self.entry_bits as usize, self.entry_bits, self.entry_mask, v);
    }

    /// Writes the `width` bits (`mask` = 2^width − 1) from bit `bit` on.
    #[inline]
    fn set_bits(&mut self, bit: usize, width: u32, mask: u64, v: u64) {
        let (w, s) = (bit >> 6, (bit & 63) as u32);
        self.words.replace(w, mask << s, v << s);
        if s + width > 64 {
            let hi = width - (64 - s);
            self.words.replace(w + 1, low_mask(hi), v >> (64 - s));
        }
    }

    /// Widens every remainder by `extra` low zero bits, in place: keys of
    /// `K + extra` bits whose hashes are the old ones shifted left by
    /// `extra` (see `ctroot_hash`), in the same buckets and order (at any
    /// bucket count: `ctroot_split`). The
    /// words must already hold the wider array; entries are re-packed from
    /// the top down, so each is read before a wider one covers it.
    pub(crate) fn widen_remainders(&mut self, extra: u32) {
        let (old_bits, old_mask) = (self.entry_bits, self.entry_mask);
        self.split = self.split.widened(extra);
        self.entry_bits += extra;
        self.entry_mask = low_mask(self.entry_bits);
        let admin = low_mask(ADMIN_BITS);
        for i in (0..self.count()).rev() {
            let e = self.get_bits(i * old_bits as usize, old_bits, old_mask);
            self.set(i, ((e & !admin) << extra) | (e & admin));
        }
    }

    /// Moves the entry (remainder, change, occupied) from `src` to `dst`;
    /// the virgin bits stay with their buckets.
    #[inline]
    fn move_entry(&mut self, src: usize, dst: usize) {
        let e = (self.get(src) & !VIRGIN) | (self.get(dst) & VIRGIN);
        self.set(dst, e);
    }

    /// The first empty bucket at or after bucket `b` (< n), as a position
    /// that may pass the array's end (`b` ≤ result < `b` + n).
    pub(crate) fn empty_from(&self, b: usize) -> usize {
        let n = self.count();
        (b..b + n)
            .find(|&i| self.get(self.split.wrap(i)) & OCCUPIED == 0)
            .expect("a bucket is always empty")
    }

    /// Calls `f` with the hashed key of every entry in the buckets strictly
    /// between positions `from` (an empty bucket) and `to` (`from` < `to`
    /// ≤ `from` + buckets; positions past the end wrap): the entries of the
    /// clusters that start there. Each quotient is reconstructed from the
    /// virgin bits of its cluster.
    pub(crate) fn for_each_hash_between(&self, from: usize, to: usize, mut f: impl FnMut(u64)) {
        let split = &self.split;
        let mut virgin = split.wrap(from);
        for q in from + 1..to {
            let p = split.wrap(q);
            let e = self.get(p);
            if e & OCCUPIED == 0 {
                virgin = p;
                continue;
            }
            if e & CHANGE != 0 {
                virgin = self.next_virgin(virgin);
            }
            f(split.join(virgin, e >> ADMIN_BITS));
        }
    }

    /// Calls `f` with the hashed key of every entry (see
    /// [`for_each_hash_between`](Self::for_each_hash_between)).
    pub(crate) fn for_each_hash(&self, f: impl FnMut(u64)) {
        let start = self.empty_from(0);
        self.for_each_hash_between(start, start + self.count(), f);
    }

    /// The first bucket with a virgin bit after bucket `p` (the home of the
    /// next group of a cluster).
    #[inline]
    fn next_virgin(&self, mut p: usize) -> usize {
        loop {
            p = self.split.next(p);
            if self.get(p) & VIRGIN != 0 {
                return p;
            }
        }
    }
}

/// How a look-up reads buckets.
pub(crate) trait View {
    /// Bucket `i`, or `None` when it is outside what the caller may read
    /// now (the look-up is abandoned).
    fn get(&mut self, i: usize) -> Option<u64>;
    /// Counts `n` more buckets inspected beyond the home bucket
    /// (statistics; ignored unless the view keeps them).
    #[inline]
    fn probed(&mut self, _n: u64) {}
}

/// Every bucket of an array the caller has to itself (the sequential
/// table, a rebuild), counting the probes.
pub(crate) struct Whole<'a, W> {
    packed: &'a Packed<W>,
    pub(crate) probes: u64,
}

impl<'a, W> Whole<'a, W> {
    pub(crate) fn new(packed: &'a Packed<W>) -> Self {
        Whole { packed, probes: 0 }
    }
}

impl<W: Words> View for Whole<'_, W> {
    #[inline]
    fn get(&mut self, i: usize) -> Option<u64> {
        Some(self.packed.get(i))
    }

    #[inline]
    fn probed(&mut self, n: u64) {
        self.probes += n;
    }
}

/// Where a missing key goes (result of a look-up that did not find it).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Vacancy {
    quotient: usize,
    remainder: u64,
    /// The new entry goes just before the entry at `at` (or into `at` when
    /// that bucket is empty).
    at: usize,
    /// The empty bucket the entries shift into, and on which side.
    bound: usize,
    right: bool,
    /// The new entry is the first of its group.
    first: bool,
    /// Its quotient had no group yet.
    new_group: bool,
}

/// The `n`-th (n ≥ 1) bucket with a change bit going down from `p`
/// (inclusive); it must exist in the cluster.
#[inline]
fn nth_change_left<V: View>(v: &mut V, mut p: usize, mut n: u64, split: &Split) -> Option<usize> {
    loop {
        if v.get(p)? & CHANGE != 0 {
            n -= 1;
            if n == 0 {
                return Some(p);
            }
        }
        p = split.prev(p);
        v.probed(1);
    }
}

/// The `n`-th (n ≥ 1) bucket with a change bit going up from `p`
/// (inclusive), or the empty bucket ending the cluster if met first.
#[inline]
fn nth_change_right_or_end<V: View>(
    v: &mut V,
    mut p: usize,
    mut n: u64,
    split: &Split,
) -> Option<usize> {
    loop {
        v.probed(1);
        let e = v.get(p)?;
        if e & OCCUPIED == 0 {
            return Some(p);
        }
        if e & CHANGE != 0 {
            n -= 1;
            if n == 0 {
                return Some(p);
            }
        }
        p = split.next(p);
    }
}

/// Cleary's look-up of the hashed key `h` in a table whose buckets and
/// split are `split`: `Some(Ok(()))` if stored, `Some(Err(vacancy))` if
/// absent, `None` if the view refused a bucket.
pub(crate) fn locate<V: View>(v: &mut V, h: u64, split: &Split) -> Option<Result<(), Vacancy>> {
    let (q, r) = split.split(h);
    let n = split.count();
    let home = v.get(q)?;
    if home & OCCUPIED == 0 {
        return Some(Err(Vacancy {
            quotient: q,
            remainder: r,
            at: q,
            bound: q,
            right: true,
            first: true,
            new_group: true,
        }));
    }
    let vq = home & VIRGIN != 0;
    // Nearer empty bucket, counting virgin and change bits strictly
    // between it and q on the side it was found.
    let (mut vr, mut cr, mut vl, mut cl) = (0u64, 0u64, 0u64, 0u64);
    let mut d = 1usize;
    let (right, bound) = loop {
        let p = split.wrap(q + d);
        let a = v.get(p)?;
        if a & OCCUPIED == 0 {
            break (true, p);
        }
        vr += (a >> 1) & 1;
        cr += (a >> 2) & 1;
        let p = split.wrap(q + n - d);
        let b = v.get(p)?;
        if b & OCCUPIED == 0 {
            break (false, p);
        }
        vl += (b >> 1) & 1;
        cl += (b >> 2) & 1;
        d += 1;
    };
    v.probed(2 * d as u64 - 1);
    // g: the first entry of the first group with quotient ≥ q (in
    // cluster order), or the empty bucket ending the cluster.
    let g = if right {
        // Groups at or after q's: vr + vq; groups starting right of q: cr.
        let nge = vr + vq as u64;
        if nge == 0 {
            bound
        } else if cr >= nge {
            nth_change_right_or_end(v, split.next(q), cr - nge + 1, split)?
        } else {
            nth_change_left(v, q, nge - cr, split)?
        }
    } else {
        // Groups before q's: vl; groups starting at or left of q: cle.
        let cle = cl + ((home >> 2) & 1);
        if cle > vl {
            nth_change_left(v, q, cle - vl, split)?
        } else {
            nth_change_right_or_end(v, split.next(q), vl + 1 - cle, split)?
        }
    };
    let (at, first) = if vq {
        // g starts q's group: find r in it (ascending remainders).
        let mut p = g;
        loop {
            let e = v.get(p)?;
            if p != g && (e & OCCUPIED == 0 || e & CHANGE != 0) {
                break (p, false);
            }
            let rr = e >> ADMIN_BITS;
            if rr == r {
                return Some(Ok(()));
            }
            if rr > r {
                break (p, p == g);
            }
            p = split.next(p);
            v.probed(1);
        }
    } else {
        (g, true)
    };
    Some(Err(Vacancy {
        quotient: q,
        remainder: r,
        at,
        bound,
        right,
        first,
        new_group: !vq,
    }))
}

/// Stores the entry described by `v` (which [`locate`] just returned);
/// touches only buckets `locate` read (the range between `at` and
/// `bound`, and the quotient's bucket). Returns the entries moved.
pub(crate) fn insert_at<W: Words>(t: &mut Packed<W>, v: Vacancy) -> u64 {
    let split = t.split;
    let entry = (v.remainder << ADMIN_BITS) | OCCUPIED | if v.first { CHANGE } else { 0 };
    let at_entry = t.get(v.at);
    let mut moved = 0;
    if at_entry & OCCUPIED == 0 {
        // The home bucket or the empty bucket ending the cluster.
        t.set(v.at, entry | (at_entry & VIRGIN));
    } else if v.right {
        // Shift [at, bound) up by one into bound.
        let mut p = v.bound;
        while p != v.at {
            let src = split.prev(p);
            t.move_entry(src, p);
            moved += 1;
            p = src;
        }
        let old = t.get(v.at);
        t.set(v.at, entry | (old & VIRGIN));
        if v.first && !v.new_group {
            // The old first entry of the group is now at at + 1.
            let n = split.next(v.at);
            let e = t.get(n);
            t.set(n, e & !CHANGE);
        }
    } else {
        // Shift (bound, at) down by one into bound; new entry at at − 1.
        let dst = split.prev(v.at);
        let mut p = v.bound;
        while p != dst {
            let src = split.next(p);
            t.move_entry(src, p);
            moved += 1;
            p = src;
        }
        let old = t.get(dst);
        t.set(dst, entry | (old & VIRGIN));
        if v.first && !v.new_group {
            let e = t.get(v.at);
            t.set(v.at, e & !CHANGE);
        }
    }
    if v.new_group {
        let e = t.get(v.quotient);
        t.set(v.quotient, e | VIRGIN);
    }
    moved
}

/// Where a stream of insertions into a growing table's new array left
/// off (see [`append`]).
#[derive(Default)]
pub(crate) struct Stream {
    /// The last hash appended.
    prev: Option<u64>,
    /// The bucket and home of the last entry appended, while its cluster
    /// holds only the stream's entries since it started.
    last: Option<(usize, usize)>,
}

impl Stream {
    /// The stream is broken (an entry went in otherwise): the next entry
    /// starts a cluster of its own or is not appended.
    pub(crate) fn break_off(&mut self) {
        self.last = None;
    }
}

/// Stores the absent hash `h` without a look-up when it can go right
/// after the stream's last entry (hashes ascending: the entries of a
/// growth come in cluster order, and homes are monotone in the hash) or
/// alone at its empty home: at bucket `max(home, last + 1)`, which must be
/// empty, with an empty bucket above it (no cluster to merge with) and,
/// for a new cluster, below it. Returns `false`, writing nothing, when it
/// cannot; then the caller inserts `h` by [`locate`] and [`insert_at`] and
/// breaks the stream off.
pub(crate) fn append<W: Words>(t: &mut Packed<W>, s: &mut Stream, h: u64) -> bool {
    if s.prev.is_some_and(|p| p > h) {
        s.last = None;
    }
    s.prev = Some(h);
    let (home, r) = t.split.split(h);
    let n = t.count();
    let empty = |t: &Packed<W>, i: usize| i < n && t.get(i) & OCCUPIED == 0;
    let (pos, joins) = match s.last {
        Some((last, _)) if last + 1 >= home => ((last + 1).max(home), true),
        _ => (home, false),
    };
    if !empty(t, pos) || !empty(t, pos + 1) || (!joins && (home == 0 || !empty(t, home - 1))) {
        return false;
    }
    let same_group = s.last.is_some_and(|(_, last_home)| last_home == home);
    let mut e = (r << ADMIN_BITS) | OCCUPIED;
    if !same_group {
        e |= CHANGE;
        if pos == home {
            e |= VIRGIN;
        } else {
            let at_home = t.get(home);
            t.set(home, at_home | VIRGIN);
        }
    }
    t.set(pos, e);
    s.last = Some((pos, home));
    true
}

/// Checks Cleary's invariants (tests, no insertion running): `len`
/// entries; per cluster, as many virgin bits as groups, entries sorted by
/// (quotient, remainder), every home bucket inside its cluster; empty
/// buckets without administration bits.
#[cfg(test)]
pub(crate) fn check_invariants<W: Words>(t: &Packed<W>, len: u64) {
    let split = &t.split;
    let n = split.count();
    let dist = |to: usize, from: usize| split.wrap(to + n - from);
    let mut count = 0;
    if len > 0 {
        t.for_each_hash(|_| count += 1);
    }
    assert_eq!(count, len);
    let start = split.wrap(t.empty_from(0));
    let mut p = split.next(start);
    let mut seen = 0;
    while seen < n - 1 {
        if t.get(p) & OCCUPIED == 0 {
            assert_eq!(t.get(p) & (VIRGIN | CHANGE), 0, "empty bucket {p}");
            p = split.next(p);
            seen += 1;
            continue;
        }
        // One cluster [cs, p): sorted by (quotient position in the
        // cluster, remainder); each group's home bucket inside it.
        let cs = p;
        let (mut virgins, mut groups) = (0, 0);
        let mut prev: Option<(usize, u64)> = None;
        let mut virgin = split.prev(cs);
        let mut homes = Vec::new();
        while t.get(p) & OCCUPIED != 0 {
            let e = t.get(p);
            virgins += (e & VIRGIN != 0) as u32;
            if e & CHANGE != 0 {
                groups += 1;
                virgin = t.next_virgin(virgin);
            } else {
                assert!(p != cs, "cluster at {cs} starts without a change bit");
            }
            let key = (dist(virgin, cs), e >> ADMIN_BITS);
            if let Some(pk) = prev {
                assert!(pk < key, "unsorted at {p}: {pk:?} then {key:?}");
            }
            prev = Some(key);
            homes.push(key.0);
            p = split.next(p);
            seen += 1;
        }
        let len = dist(p, cs);
        assert!(homes.iter().all(|&h| h < len), "home outside cluster {cs}");
        assert_eq!(virgins, groups, "cluster at {cs}");
    }
}
