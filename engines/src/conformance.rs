//! Test support shared by every engine's tests: drives a [`VisitedSet`]
//! with a vector stream and checks that it behaves exactly like a
//! `HashSet<Vec<u32>>` (same new/found answers, same length), through both
//! `find_or_insert` and the incremental `find_or_insert_from` path (each
//! vector's "predecessor" is an earlier vector of the stream, with the side
//! data the engine returned for it). Also the adversarial stream families
//! the issue asks for, and the checks every concurrent form shares:
//! overlapping insertions from many threads (with the explorer's
//! insert-or-grow step, [`insert_growing`]), exact counts of parallel
//! searches and the small-model stress run. Compiled for tests only; owns
//! no engine.

use crate::visited::VisitedSet;
use proptest::prelude::*;
use std::collections::{HashMap, HashSet};
#[cfg(not(loom))]
use std::sync::RwLock;

/// Inserts `vectors` in order, alternating plain and incremental insertion,
/// and compares every answer with a `HashSet`. Panics with the first
/// difference.
pub fn check_stream(set: &mut dyn VisitedSet, vectors: &[Vec<u32>]) {
    let side_words = set.side_words();
    let mut reference: HashSet<Vec<u32>> = HashSet::new();
    // Side data of every distinct vector seen so far.
    let mut sides: HashMap<Vec<u32>, Vec<u32>> = HashMap::new();
    for (i, v) in vectors.iter().enumerate() {
        let expect_new = reference.insert(v.clone());
        let mut side = vec![0u32; side_words];
        // Predecessor: an earlier vector (if any); every third insertion
        // goes through the plain path.
        let got = if i % 3 == 2 || i == 0 {
            if i % 3 == 2 {
                set.find_or_insert(v)
            } else {
                set.find_or_insert_from(v, None, &mut side)
            }
        } else {
            let p = &vectors[i / 2];
            match sides.get(p) {
                Some(ps) => set.find_or_insert_from(v, Some((p, ps)), &mut side),
                None => set.find_or_insert_from(v, None, &mut side),
            }
        }
        .unwrap_or_else(|e| panic!("vector {i} {v:?}: table full: {}", e.message));
        assert_eq!(
            got.is_new(),
            expect_new,
            "vector {i} {v:?}: engine says new={}, reference says new={expect_new}",
            got.is_new()
        );
        if i % 3 != 2 {
            if let Some(old) = sides.get(v) {
                assert_eq!(old, &side, "vector {i} {v:?}: side data changed");
            }
            sides.insert(v.clone(), side);
        }
        assert_eq!(set.len(), reference.len() as u64, "after vector {i}");
    }
    // Everything inserted is found again, nothing new appears; a set
    // that gives states back gives each one and its side data back from
    // its reference.
    for v in vectors {
        let found = set.find_or_insert(v).unwrap();
        assert!(!found.is_new(), "{v:?} lost");
        if set.recalls_states() {
            check_recall(set, found.reference(), v, sides.get(v));
        }
    }
    assert_eq!(set.len(), reference.len() as u64);
    let m = set.memory();
    assert!(m.used <= m.alloc, "used {} > alloc {}", m.used, m.alloc);
}

/// `set` gives back `state` and its side data (`side`, when the stream
/// kept it) from `reference`.
fn check_recall(set: &mut dyn VisitedSet, reference: u64, state: &[u32], side: Option<&Vec<u32>>) {
    let mut got = vec![u32::MAX; state.len()];
    let mut got_side = vec![u32::MAX; set.side_words()];
    assert!(
        set.recall(reference, &mut got, &mut got_side),
        "{state:?}: not given back"
    );
    assert_eq!(got, state, "state given back from reference {reference}");
    if let Some(side) = side {
        assert_eq!(&got_side, side, "{state:?}: side data given back");
    }
}

/// Adversarial streams for vectors of length `k` with values below
/// `max_value`: all slots equal, one slot varying at each position, long
/// runs of successors differing in one slot, values at the top of the
/// range, and every prefix shared.
pub fn adversarial_streams(k: usize, max_value: u32) -> Vec<Vec<Vec<u32>>> {
    let top = max_value.saturating_sub(1);
    let mut out = Vec::new();
    // All slots equal (the tree's worst case: every node a new tuple).
    out.push((0..200u32).map(|v| vec![v % max_value; k]).collect());
    // One slot varies, at every position in turn.
    out.push(
        (0..k)
            .flat_map(|p| {
                (0..40u32).map(move |v| {
                    let mut x = vec![1u32.min(top); k];
                    x[p] = v % max_value;
                    x
                })
            })
            .collect(),
    );
    // A walk: each vector differs from the previous in one slot.
    let mut x = vec![0u32; k];
    let mut walk = Vec::new();
    for i in 0..600usize {
        let p = (i * 7 + i / 5) % k;
        x[p] = (x[p] + 1 + (i as u32 % 3)) % max_value;
        walk.push(x.clone());
    }
    out.push(walk);
    // Values at the top of the range, and a shared prefix with distinct tails.
    out.push(
        (0..100u32)
            .map(|i| {
                let mut v = vec![top; k];
                v[k - 1] = top - (i % max_value.min(100));
                v
            })
            .collect(),
    );
    out
}

/// Runs [`check_stream`] on the adversarial streams for several k,
/// `make(k)` building a fresh set each time.
pub fn check_adversarial(make: &dyn Fn(usize) -> Box<dyn VisitedSet>, max_value: u32) {
    for k in [1usize, 2, 3, 4, 5, 7, 8, 13, 64, 301] {
        for stream in adversarial_streams(k, max_value) {
            let mut set = make(k);
            check_stream(set.as_mut(), &stream);
        }
    }
}

/// A proptest strategy: (k, stream) with k in 1..=max_k, values below
/// `alphabet` (small alphabets give many duplicates and shared subtrees).
pub fn streams(max_k: usize, alphabet: u32) -> impl Strategy<Value = (usize, Vec<Vec<u32>>)> {
    (1..=max_k).prop_flat_map(move |k| {
        (
            Just(k),
            proptest::collection::vec(proptest::collection::vec(0..alphabet, k), 0..300),
        )
    })
}

/// Explores `n` counters modulo `m` ([`crate::test_models::Counters`])
/// with the concurrent `set` on `threads` workers and checks the exact
/// counts: m^n states, n·m^n transitions (`case` names the case in a
/// failure). Returns the report.
#[cfg(not(loom))]
pub fn explore_counters(
    set: Box<dyn crate::ConcurrentVisitedSet>,
    (n, m): (usize, u32),
    threads: usize,
    case: &str,
) -> crate::report::RunReport {
    let model = crate::test_models::Counters::new(n, m);
    let r = crate::explore::parallel::explore_parallel(
        &model,
        set,
        threads,
        crate::explore::ExploreConfig::default(),
    );
    assert_eq!(
        r.status,
        crate::report::RunStatus::Ok,
        "{case}: {}",
        r.message
    );
    let states = (m as u64).pow(n as u32);
    assert_eq!(
        (r.states, r.transitions),
        (states, n as u64 * states),
        "{case}"
    );
    r
}

/// Runs `worker(t)` for every `t` in `0..threads`, each on its own thread,
/// all started together (behind a barrier); their results in thread order.
#[cfg(not(loom))]
pub fn on_threads<R: Send>(threads: usize, worker: impl Fn(usize) -> R + Sync) -> Vec<R> {
    let barrier = std::sync::Barrier::new(threads);
    std::thread::scope(|s| {
        let hs: Vec<_> = (0..threads)
            .map(|t| {
                let (barrier, worker) = (&barrier, &worker);
                s.spawn(move || {
                    barrier.wait();
                    worker(t)
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

/// One insertion into a concurrent table shared by threads: calls
/// `insert` on `set` until it no longer asks to grow, growing `set` with
/// exclusive access in between (as the parallel explorer does). Panics
/// when the table is full.
#[cfg(not(loom))]
pub fn insert_growing<S, R>(
    set: &RwLock<S>,
    mut insert: impl FnMut(&S) -> Result<R, crate::InsertError>,
    grow: impl Fn(&mut S) -> Result<(), crate::visited::TableFull>,
) -> R {
    loop {
        let r = insert(&set.read().unwrap());
        match r {
            Ok(r) => return r,
            Err(crate::InsertError::Grow) => grow(&mut set.write().unwrap()).unwrap(),
            Err(crate::InsertError::Full(f)) => panic!("{}", f.message),
        }
    }
}

/// Inserts overlapping vector sets from `threads` threads at once into a
/// concurrent set (thread `t` inserts `vector(i)` for `per_thread` values
/// of `i`, ranges overlapping between threads and walked in different
/// orders), growing it when it asks, as the parallel explorer does. Checks
/// that every distinct vector got exactly one `New`, that `len` is the
/// number of distinct vectors, and that inserting every vector again (one
/// thread) finds it (with the same reference, unless the engine gives
/// none). Returns the set and the reference of every vector's `New`.
#[cfg(not(loom))]
pub fn concurrent_overlapping_inserts<S: crate::ConcurrentVisitedSet>(
    set: S,
    threads: usize,
    per_thread: u32,
    vector: &(dyn Fn(u32) -> Vec<u32> + Sync),
) -> (S, HashMap<Vec<u32>, u64>) {
    let side_words = set.side_words();
    let set = RwLock::new(set);
    let results: Vec<Vec<(Vec<u32>, crate::Inserted)>> = on_threads(threads, |t| {
        let mut local = crate::WorkerLocal::new();
        let mut side = vec![0; side_words];
        let mut out = Vec::new();
        for n in 0..per_thread {
            let i = (n.wrapping_mul(t as u32 * 2 + 1)) % per_thread + t as u32 * 97;
            let v = vector(i);
            let r = insert_growing(
                &set,
                |set| set.find_or_insert_from(&v, None, &mut side, &mut local),
                S::grow,
            );
            out.push((v, r));
        }
        set.read().unwrap().retire(&mut local);
        out
    });
    let set = set.into_inner().unwrap();
    let mut news: HashMap<Vec<u32>, u64> = HashMap::new();
    let mut distinct: HashSet<Vec<u32>> = HashSet::new();
    for (v, r) in results.iter().flatten() {
        distinct.insert(v.clone());
        if r.is_new() {
            assert!(
                news.insert(v.clone(), r.reference()).is_none(),
                "{v:?} inserted twice"
            );
        }
    }
    assert_eq!(news.len(), distinct.len(), "a vector never answered New");
    assert_eq!(set.len(), distinct.len() as u64, "len");
    let mut local = crate::WorkerLocal::new();
    let mut side = vec![0; side_words];
    for (v, &reference) in &news {
        let r = set
            .find_or_insert_from(v, None, &mut side, &mut local)
            .unwrap_or_else(|e| panic!("{v:?}: {e:?}"));
        assert!(!r.is_new(), "{v:?} lost");
        if r.reference() != u64::MAX {
            assert_eq!(r.reference(), reference, "{v:?}");
        }
    }
    set.retire(&mut local);
    assert_eq!(set.len(), distinct.len() as u64);
    (set, news)
}

/// The stress case of every concurrent form: 50 searches of six counters
/// modulo 4 by 8 workers, each into a fresh set from `make`, all exact.
#[cfg(not(loom))]
pub fn stress_small_model(make: &dyn Fn() -> Box<dyn crate::ConcurrentVisitedSet>) {
    for rep in 0..50 {
        explore_counters(make(), (6, 4), 8, &format!("repetition {rep}"));
    }
}
