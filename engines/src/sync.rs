//! The atomics of the concurrent tables: `std`'s, or `loom`'s when the
//! crate is built with `--cfg loom` (the loom model tests of the insertion
//! protocols; see `shared_hash_table`). Owns nothing else.

#[cfg(loom)]
pub(crate) use loom::sync::atomic::{fence, AtomicBool, AtomicU32, AtomicU64, Ordering};
#[cfg(not(loom))]
pub(crate) use std::sync::atomic::{fence, AtomicBool, AtomicU32, AtomicU64, Ordering};

/// Waits a moment for another thread to finish writing a bucket.
#[inline]
pub(crate) fn spin() {
    #[cfg(loom)]
    loom::thread::yield_now();
    #[cfg(not(loom))]
    std::hint::spin_loop();
}

/// `n` atomic words, all zero.
pub(crate) fn zeroed_u64(n: usize) -> Box<[AtomicU64]> {
    (0..n).map(|_| AtomicU64::new(0)).collect()
}

/// `n` atomic words, all zero.
pub(crate) fn zeroed_u32(n: usize) -> Box<[AtomicU32]> {
    (0..n).map(|_| AtomicU32::new(0)).collect()
}
