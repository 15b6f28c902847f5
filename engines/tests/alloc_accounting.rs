//! Every explicit engine's `engine_bytes_alloc` against the heap it really
//! holds: a counting global allocator tracks the live heap bytes of this
//! test binary; each engine (sequential form, and concurrent form where it
//! has one) is built and fed the reachable vectors of a real model, and the
//! live bytes it added must be within 5% of its own `memory().alloc`, with
//! `used <= alloc`. The check itself is shown to fail on an accounting that
//! is off (half the bytes, or twice).
//!
//! One `#[test]` only: the counter is process-wide, so no other test may
//! allocate while an engine is measured.

use engines::registry::{find, EngineOptions, ENGINES};
use engines::{ConcurrentVisitedSet, InsertError, MemoryUsage, VisitedSet, WorkerLocal};
use pins::Model;
use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::{HashSet, VecDeque};
use std::sync::atomic::{AtomicI64, Ordering};

/// The system allocator, counting live bytes (requested sizes).
struct Counting;

static LIVE: AtomicI64 = AtomicI64::new(0);

// SAFETY: every call is forwarded unchanged to the system allocator; the
// counter only observes sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as i64, Ordering::Relaxed);
        // SAFETY: the caller's contract for `alloc` is passed on.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as i64, Ordering::Relaxed);
        // SAFETY: as `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as i64, Ordering::Relaxed);
        // SAFETY: `ptr` came from this allocator with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(new_size as i64 - layout.size() as i64, Ordering::Relaxed);
        // SAFETY: as `dealloc` and `alloc`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn live() -> i64 {
    LIVE.load(Ordering::Relaxed)
}

/// The embedded net (a file the project wrote itself, always present).
fn model() -> pnml::PetriNet {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../datasets/builtin/kanban-3.pnml");
    pnml::parse_file(&path).unwrap_or_else(|e| panic!("{e}"))
}

/// Every reachable vector, in BFS order.
fn reachable(m: &dyn Model) -> Vec<Vec<u32>> {
    let mut seen = HashSet::new();
    let mut order = Vec::new();
    let mut queue = VecDeque::from([m.initial_state()]);
    seen.insert(m.initial_state());
    while let Some(s) = queue.pop_front() {
        m.next_all(&s, &mut |_, t| {
            if seen.insert(t.to_vec()) {
                queue.push_back(t.to_vec());
            }
        })
        .unwrap();
        order.push(s);
    }
    order
}

/// `Err` unless `held` heap bytes and the engine's figures agree: alloc
/// within 5% of `held`, and used <= alloc.
fn check(what: &str, held: i64, memory: MemoryUsage) -> Result<(), String> {
    let alloc = memory.alloc as f64;
    let off = (alloc - held as f64).abs() / (held as f64).max(1.0);
    if memory.used > memory.alloc {
        return Err(format!(
            "{what}: used {} > alloc {}",
            memory.used, memory.alloc
        ));
    }
    if off > 0.05 {
        return Err(format!(
            "{what}: engine_bytes_alloc {} but the engine holds {held} heap bytes ({:+.1}%)",
            memory.alloc,
            100.0 * (alloc - held as f64) / held as f64
        ));
    }
    Ok(())
}

fn options() -> EngineOptions {
    EngineOptions {
        mem_budget: 1 << 30,
        params: Vec::new(),
        threads: 1,
    }
}

/// The heap bytes a sequential engine holds after storing `states`, and
/// its own accounting.
fn sequential(name: &str, m: &dyn Model, states: &[Vec<u32>]) -> (i64, MemoryUsage) {
    let before = live();
    let mut set: Box<dyn VisitedSet> = find(name)
        .unwrap()
        .build_visited_set(m, &options())
        .unwrap();
    for s in states {
        set.find_or_insert(s).unwrap();
    }
    assert_eq!(set.len(), states.len() as u64, "{name}");
    let held = live() - before;
    (held, set.memory())
}

/// The same for an engine's concurrent form driven by one worker; `None`
/// for an engine without one.
fn concurrent(name: &str, m: &dyn Model, states: &[Vec<u32>]) -> Option<(i64, MemoryUsage)> {
    let mut local = WorkerLocal::new();
    let before = live();
    let mut set: Box<dyn ConcurrentVisitedSet> =
        find(name)?.build_concurrent_set(m, &options()).ok()?;
    set.set_workers(1);
    let mut side = vec![0u32; set.side_words()];
    for s in states {
        loop {
            match set.find_or_insert_from(s, None, &mut side, &mut local) {
                Ok(_) => break,
                Err(InsertError::Grow) => set.grow().unwrap(),
                Err(InsertError::Full(full)) => panic!("{name}: {}", full.message),
            }
        }
    }
    set.retire(&mut local);
    assert_eq!(set.len(), states.len() as u64, "{name} (concurrent)");
    let held = live() - before;
    Some((held, set.memory()))
}

#[test]
fn engine_bytes_alloc_is_the_heap_each_engine_holds() {
    let m = model();
    let states = reachable(&m);
    assert!(states.len() > 500_000, "a model big enough to grow tables");
    let mut failures = Vec::new();
    let mut checked = 0;
    for spec in ENGINES.iter().filter(|s| s.is_explicit()) {
        let (held, memory) = sequential(spec.name, &m, &states);
        eprintln!(
            "{}: held {held}, alloc {}, used {}",
            spec.name, memory.alloc, memory.used
        );
        failures.extend(check(spec.name, held, memory).err());
        checked += 1;
        if let Some((held, memory)) = concurrent(spec.name, &m, &states) {
            let what = format!("{} (concurrent)", spec.name);
            eprintln!(
                "{what}: held {held}, alloc {}, used {}",
                memory.alloc, memory.used
            );
            failures.extend(check(&what, held, memory).err());
            checked += 1;
        }
        // A deliberately wrong accounting must fail the same check.
        for wrong in [memory.alloc / 2, memory.alloc * 2] {
            let lie = MemoryUsage {
                used: memory.used.min(wrong),
                alloc: wrong,
            };
            assert!(
                check(spec.name, held, lie).is_err(),
                "{}: the check accepted alloc {wrong} for {held} held bytes",
                spec.name
            );
        }
    }
    assert!(checked >= 10, "five engines, both forms: {checked}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
