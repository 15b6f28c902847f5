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

/// Atomic words that start at zero.
///
/// # Safety
/// Built without loom, all-zero bytes must be a valid value of the type,
/// the word holding 0 (what [`zeroed`] allocates).
pub(crate) unsafe trait ZeroedAtomic: Sized {
    /// The word holding 0 (loom's atomics are not plain words: they are
    /// built one by one).
    #[cfg(loom)]
    fn zero() -> Self;
}

// SAFETY: `AtomicU64` has the size, alignment and bit validity of `u64`
// (std's documentation), so all-zero bytes are `AtomicU64::new(0)`.
unsafe impl ZeroedAtomic for AtomicU64 {
    #[cfg(loom)]
    fn zero() -> Self {
        AtomicU64::new(0)
    }
}

// SAFETY: as for `AtomicU64`: `AtomicU32` has the representation of `u32`,
// and zero bytes are `AtomicU32::new(0)`.
unsafe impl ZeroedAtomic for AtomicU32 {
    #[cfg(loom)]
    fn zero() -> Self {
        AtomicU32::new(0)
    }
}

/// `n` atomic words, all zero.
pub(crate) fn zeroed<T: ZeroedAtomic>(n: usize) -> Box<[T]> {
    #[cfg(loom)]
    return (0..n).map(|_| T::zero()).collect();
    #[cfg(not(loom))]
    // SAFETY: all-zero bytes are a valid `T` (`ZeroedAtomic`'s contract).
    unsafe {
        calloc_slice(n)
    }
}

/// `n` 64-bit atomic words, all zero.
pub(crate) fn zeroed_u64(n: usize) -> Box<[AtomicU64]> {
    zeroed(n)
}

/// `n` 32-bit atomic words, all zero.
pub(crate) fn zeroed_u32(n: usize) -> Box<[AtomicU32]> {
    zeroed(n)
}

/// `n` values of `T` from the allocator's zeroed memory.
///
/// Why not `(0..n).map(|_| T::new(0)).collect()`: that writes every word
/// at allocation, and the concurrent tables allocate their next bucket
/// array and data chunks while growing, with every other worker stopped.
/// Zeroed allocations of this size come from fresh pages (`calloc`, `mmap`)
/// that the kernel zeroes on first touch, by whichever worker touches them,
/// as the sequential tables' `vec![0; n]` does.
///
/// # Safety
/// All-zero bytes must be a valid `T`.
#[cfg(not(loom))]
unsafe fn calloc_slice<T>(n: usize) -> Box<[T]> {
    use std::alloc::{alloc_zeroed, handle_alloc_error, Layout};
    let layout = Layout::array::<T>(n).expect("table size overflows the address space");
    if layout.size() == 0 {
        // `n == 0` (the callers' `T` are never zero-sized).
        return Vec::new().into_boxed_slice();
    }
    // SAFETY: `layout` has a non-zero size.
    let p = unsafe { alloc_zeroed(layout) }.cast::<T>();
    if p.is_null() {
        handle_alloc_error(layout);
    }
    // SAFETY: `p` is a live allocation of the global allocator with the
    // layout of `[T; n]` (what `Box<[T]>` frees), its `n` values are zero
    // bytes, valid `T`s by the caller's guarantee, and nothing else owns it.
    unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(p, n)) }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn zeroed_words_are_zero_writable_and_freed() {
        for n in [0, 1, 7, 1 << 20] {
            let a = zeroed_u64(n);
            let b = zeroed_u32(n);
            assert_eq!((a.len(), b.len()), (n, n));
            assert!(a.iter().all(|w| w.load(Ordering::Relaxed) == 0));
            assert!(b.iter().all(|w| w.load(Ordering::Relaxed) == 0));
            if n > 0 {
                a[n - 1].store(u64::MAX, Ordering::Relaxed);
                b[n - 1].store(u32::MAX, Ordering::Relaxed);
                assert_eq!(a[n - 1].load(Ordering::Relaxed), u64::MAX);
                assert_eq!(b[n - 1].load(Ordering::Relaxed), u32::MAX);
            }
        }
    }
}
