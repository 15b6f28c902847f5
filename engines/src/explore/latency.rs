//! Sampled latency of visited-set operations: a histogram of the time one
//! `find_or_insert` call takes, fed with one call in every
//! [`SAMPLE_EVERY`], and the percentiles a [`RunReport`](crate::RunReport)
//! carries.
//!
//! Owns the sampling decision, the histogram (`hdrhistogram`, 2
//! significant digits, 1 ns to 1 h) and the percentile summary. Must not
//! know which engine it times or what the explorer does between calls.
//!
//! Two significant digits (values below 256 ns exact, above within 1%:
//! finer than the ~20 ns a clock read adds to each sample) keep the
//! histogram at 4,608 counters (36 KiB, written zero when made, so
//! resident for the whole run). With three it took 270 KiB, counted in
//! every run's peak RSS: on extinction.2 (compact-tree, 5.5 MiB peak), 5%
//! of the process against SPIN's whole verifier.

use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// One call in this many is timed (a power of two: the test is a mask).
pub const SAMPLE_EVERY: u64 = 64;

/// Significant digits the histogram keeps (module doc).
const SIGNIFICANT_DIGITS: u8 = 2;

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
            // 1 ns .. 1 h, 2 significant digits: constant bounds, always valid.
            histogram: Histogram::new_with_bounds(1, 3_600_000_000_000, SIGNIFICANT_DIGITS).ok(),
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

    #[test]
    fn the_histogram_is_small_and_within_one_percent() {
        let mut s = LatencySampler::new();
        let h = s.histogram.as_mut().expect("constant bounds are valid");
        assert!(
            h.distinct_values() * 8 <= 40 * 1024,
            "{} counters: the histogram must stay far below the engines' memory",
            h.distinct_values()
        );
        for ns in [1u64, 7, 255, 256, 1_234, 98_765, 4_321_000_000] {
            h.reset();
            h.record(ns).expect("within bounds");
            let got = h.value_at_quantile(0.5);
            let error = got.abs_diff(ns) as f64 / ns as f64;
            assert!(error <= 0.01, "{ns} ns read back as {got} ns");
            if ns < 256 {
                assert_eq!(got, ns, "values below 256 ns are exact");
            }
        }
    }
}
