//! Sampled latency of visited-set operations: a histogram of the time one
//! `find_or_insert` call takes, fed with one call in every
//! [`SAMPLE_EVERY`], and the percentiles a [`RunReport`](crate::RunReport)
//! carries.
//!
//! Owns the sampling decision, the histogram (`hdrhistogram`, 3
//! significant digits, 1 ns to 1 h) and the percentile summary. Must not
//! know which engine it times or what the explorer does between calls.

use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// One call in this many is timed (a power of two: the test is a mask).
pub const SAMPLE_EVERY: u64 = 64;

/// Percentiles of the sampled operation latencies, nanoseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpLatency {
    pub p50_ns: u64,
    pub p99_ns: u64,
    pub p999_ns: u64,
    /// Calls timed.
    pub samples: u64,
}

/// Times one call in every [`SAMPLE_EVERY`] and keeps the durations.
pub struct LatencySampler {
    calls: u64,
    histogram: Option<Histogram<u64>>,
}

impl Default for LatencySampler {
    fn default() -> Self {
        Self::new()
    }
}

impl LatencySampler {
    pub fn new() -> Self {
        LatencySampler {
            calls: 0,
            // 1 ns .. 1 h, 3 significant digits: constant bounds, always valid.
            histogram: Histogram::new_with_bounds(1, 3_600_000_000_000, 3).ok(),
        }
    }

    /// Runs `op`, timing it if this call is one of the sampled ones.
    #[inline]
    pub fn time<T>(&mut self, op: impl FnOnce() -> T) -> T {
        let sampled = self.calls & (SAMPLE_EVERY - 1) == 0;
        self.calls = self.calls.wrapping_add(1);
        if !sampled {
            return op();
        }
        let t0 = Instant::now();
        let out = op();
        let ns = t0.elapsed().as_nanos();
        if let Some(h) = self.histogram.as_mut() {
            h.saturating_record(u64::try_from(ns).unwrap_or(u64::MAX).max(1));
        }
        out
    }

    /// Adds `other`'s samples (another worker's) to this one's.
    pub fn merge(&mut self, other: &LatencySampler) {
        if let (Some(h), Some(o)) = (self.histogram.as_mut(), other.histogram.as_ref()) {
            // Same bounds on both sides: `add` cannot fail.
            let _ = h.add(o);
        }
        self.calls = self.calls.wrapping_add(other.calls);
    }

    /// The percentiles, or `None` when no call was timed.
    pub fn summary(&self) -> Option<OpLatency> {
        let h = self.histogram.as_ref()?;
        if h.is_empty() {
            return None;
        }
        Some(OpLatency {
            p50_ns: h.value_at_quantile(0.5),
            p99_ns: h.value_at_quantile(0.99),
            p999_ns: h.value_at_quantile(0.999),
            samples: h.len(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_one_call_in_every_sample_every() {
        let mut s = LatencySampler::new();
        assert_eq!(s.summary(), None);
        let mut ran = 0;
        for _ in 0..(3 * SAMPLE_EVERY + 1) {
            s.time(|| ran += 1);
        }
        assert_eq!(ran, 3 * SAMPLE_EVERY + 1, "every call runs");
        let l = s.summary().expect("sampled");
        assert_eq!(l.samples, 4);
        assert!(0 < l.p50_ns && l.p50_ns <= l.p99_ns && l.p99_ns <= l.p999_ns);
        let mut merged = LatencySampler::new();
        merged.merge(&s);
        merged.merge(&s);
        assert_eq!(merged.summary().map(|l| l.samples), Some(8));
    }
}
