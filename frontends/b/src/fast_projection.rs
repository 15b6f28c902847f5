//! Successors of an operation remembered by the projection of the state
//! on the slots it reads (LTSmin's transition caching): a group's
//! successors are a function of the values of its read slots (the
//! syntax's, see `model`), so two states that agree there have the same
//! successors there, up to the slots the group writes. The first
//! computation's targets are kept as their write projections and replayed
//! for every later state of the same read projection, in the same order
//! (the same transitions, the same count).
//!
//! Kept only for computations with no side channel: none while a large
//! set of `lazy_sets` is held anywhere (its origins are per state), none
//! that deferred a refusal (`errors_provisional`), and a group whose
//! target differs from its source outside its write set is never cached
//! again. The key holds every constant slot too (constants are read to
//! decide whether an evaluation is symbolic). A group whose hit rate stays
//! low is dropped, and the whole cache is bounded ([`MAX_VALUES`]).
//! With `BMETHOD_CHECK_PROJECTION` set, every hit is recomputed and
//! compared (a mismatch panics): a check of the read sets on a corpus.
//!
//! Owns the cache only; never evaluates B (the caller computes on a miss).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use pins::{TransitionGroup, Value as PValue};
use rustc_hash::FxHashMap;

/// The most slot values remembered (keys and targets), all groups
/// together (about 16 bytes each with the tables' overhead).
pub(crate) const MAX_VALUES: usize = 1 << 24;

/// Lookups of a group after which its hit rate is judged.
const JUDGED_AFTER: usize = 1 << 14;

/// Write projections of the successors of one read projection: their
/// number, then their values one after another.
type Targets = Arc<[PValue]>;

/// One group's cache.
struct Group {
    /// Slots of the key: the read set and every constant slot.
    key: Vec<usize>,
    /// Slots the group writes.
    write: Vec<usize>,
    map: Mutex<FxHashMap<Box<[PValue]>, Targets>>,
    lookups: AtomicUsize,
    hits: AtomicUsize,
    off: AtomicBool,
}

/// Per transition group, its remembered successors.
pub(crate) struct Projections {
    groups: Vec<Group>,
    entries: AtomicUsize,
    check: bool,
}

/// A computation's targets, recorded as they are emitted.
pub(crate) struct Recorder {
    /// As [`Targets`].
    targets: Vec<PValue>,
    /// A target differed from its source outside the write set.
    escaped: bool,
}

impl Projections {
    /// The caches of `groups`, constants being slots `1..=nconst`;
    /// `cached(g)` says which groups take part (the operations).
    pub(crate) fn new(
        groups: &[TransitionGroup],
        nconst: usize,
        cached: impl Fn(usize) -> bool,
    ) -> Self {
        let groups = groups
            .iter()
            .enumerate()
            .map(|(g, tg)| {
                let mut key: Vec<usize> = tg.read.iter().copied().chain(1..=nconst).collect();
                key.sort_unstable();
                key.dedup();
                Group {
                    key,
                    write: tg.write.clone(),
                    map: Mutex::default(),
                    lookups: AtomicUsize::new(0),
                    hits: AtomicUsize::new(0),
                    off: AtomicBool::new(!cached(g)),
                }
            })
            .collect();
        Projections {
            groups,
            entries: AtomicUsize::new(0),
            check: std::env::var_os("BMETHOD_CHECK_PROJECTION").is_some(),
        }
    }

    fn key(&self, g: usize, state: &[PValue]) -> Box<[PValue]> {
        self.groups[g].key.iter().map(|&s| state[s]).collect()
    }

    /// The successors of `state` by group `g` remembered, if any (`None`
    /// also when the group is not cached); counts the lookup.
    pub(crate) fn lookup(&self, g: usize, state: &[PValue]) -> Option<Targets> {
        let gr = &self.groups[g];
        if gr.off.load(Ordering::Relaxed) {
            return None;
        }
        let n = gr.lookups.fetch_add(1, Ordering::Relaxed) + 1;
        let found = gr
            .map
            .lock()
            .expect("projection lock")
            .get(&self.key(g, state))
            .cloned();
        match found {
            Some(t) => {
                gr.hits.fetch_add(1, Ordering::Relaxed);
                Some(t)
            }
            None => {
                if n >= JUDGED_AFTER && gr.hits.load(Ordering::Relaxed) * 8 < n {
                    self.drop_group(g);
                }
                None
            }
        }
    }

    /// Whether a hit must be recomputed and compared (see the module).
    pub(crate) fn checking(&self) -> bool {
        self.check
    }

    /// Emits the remembered `targets` of `state` by group `g`.
    pub(crate) fn replay(
        &self,
        g: usize,
        state: &[PValue],
        targets: &Targets,
        emit: &mut dyn FnMut(&[PValue]),
    ) {
        let write = &self.groups[g].write;
        let mut t = state.to_vec();
        for k in 0..targets[0] as usize {
            let w = &targets[1 + k * write.len()..][..write.len()];
            for (&s, &v) in write.iter().zip(w) {
                t[s] = v;
            }
            emit(&t);
        }
    }

    /// A recorder of group `g`'s targets from `state`, when it is cached.
    pub(crate) fn recorder(&self, g: usize) -> Option<Recorder> {
        (!self.groups[g].off.load(Ordering::Relaxed)).then(|| Recorder {
            targets: vec![0],
            escaped: false,
        })
    }

    /// Records target `t` of `state` by group `g`.
    pub(crate) fn record(&self, g: usize, state: &[PValue], t: &[PValue], r: &mut Recorder) {
        let write = &self.groups[g].write;
        let mut wi = 0;
        for (s, (a, b)) in state.iter().zip(t).enumerate() {
            if write.get(wi) == Some(&s) {
                wi += 1;
            } else if a != b {
                r.escaped = true;
            }
        }
        r.targets[0] += 1;
        r.targets.extend(write.iter().map(|&s| t[s]));
    }

    /// Remembers the targets `r` recorded from `state` by group `g`
    /// (`clean`: the computation had no side channel).
    pub(crate) fn store(&self, g: usize, state: &[PValue], r: Recorder, clean: bool) {
        if r.escaped {
            self.drop_group(g);
            return;
        }
        if !clean || self.groups[g].off.load(Ordering::Relaxed) {
            return;
        }
        let size = self.groups[g].key.len() + r.targets.len();
        if self.entries.fetch_add(size, Ordering::Relaxed) >= MAX_VALUES {
            return;
        }
        let targets: Targets = r.targets.into();
        self.groups[g]
            .map
            .lock()
            .expect("projection lock")
            .insert(self.key(g, state), targets);
    }

    /// Compares a remembered hit with the recorded recomputation `r`.
    pub(crate) fn verify(&self, g: usize, hit: &Targets, r: &Recorder) {
        assert!(
            **hit == r.targets[..],
            "fast_projection: group {g}'s successors differ between two states of one read projection"
        );
    }

    /// Stops caching group `g` and frees its entries.
    fn drop_group(&self, g: usize) {
        let gr = &self.groups[g];
        gr.off.store(true, Ordering::Relaxed);
        let mut m = gr.map.lock().expect("projection lock");
        let size: usize = m.values().map(|t| gr.key.len() + t.len()).sum();
        self.entries.fetch_sub(
            size.min(self.entries.load(Ordering::Relaxed)),
            Ordering::Relaxed,
        );
        *m = FxHashMap::default();
    }
}
