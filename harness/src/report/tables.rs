//! The report's figures in numbers: a summary per engine and formalism
//! (instances finished, median and geometric-mean bits per state, time and
//! memory, failures by status) and the runs needing attention. Reads rows
//! only; the HTML and Markdown renderings format these.

use crate::schema::{Row, Status};
use std::collections::BTreeMap;

/// One line of the summary: an engine (with its requested parameters) on
/// one formalism.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub engine: String,
    pub formalism: String,
    pub runs: usize,
    /// Runs with status `ok`.
    pub finished: usize,
    /// Finished runs whose counts disagree with the oracle.
    pub mismatches: usize,
    /// Bits per state of the bytes used (occupied entries).
    pub bits_median: Option<f64>,
    pub bits_geomean: Option<f64>,
    /// Bits per state of the bytes allocated.
    pub bits_alloc_median: Option<f64>,
    pub bits_alloc_geomean: Option<f64>,
    /// Exploration time of finished runs, seconds.
    pub time_median: Option<f64>,
    pub time_geomean: Option<f64>,
    pub time_total: f64,
    /// Peak resident set of finished runs, bytes.
    pub rss_median: Option<f64>,
    pub rss_max: Option<f64>,
    /// Unfinished runs by status.
    pub failures: BTreeMap<Status, usize>,
}

/// The median of `v` (mean of the two middle values for an even count);
/// `None` when empty. The one median of the harness: summary, report and
/// compare use it.
pub fn median(v: Vec<f64>) -> Option<f64> {
    quantile(v, 0.5)
}

/// The `q`-quantile of `v` (0 <= q <= 1), interpolating linearly between
/// the two closest ranks (Hyndman and Fan's type 7, numpy's default; q =
/// 0.5 is the median); `None` when empty.
pub fn quantile(mut v: Vec<f64>, q: f64) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let h = (v.len() - 1) as f64 * q.clamp(0.0, 1.0);
    let (lo, hi) = (h.floor() as usize, h.ceil() as usize);
    Some(v[lo] + (h - lo as f64) * (v[hi] - v[lo]))
}

/// A table of figures derived from the rows beyond the summary (decision
/// diagram sizes, configurations compared): the renderers print it as is.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    pub title: String,
    /// What the table shows and how its figures are defined.
    pub caption: String,
    pub header: Vec<String>,
    pub rows: Vec<Vec<Cell>>,
}

/// One cell: its text, and its value when it is a number (sorting,
/// right alignment).
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    pub text: String,
    pub value: Option<f64>,
}

impl Cell {
    pub fn text(text: impl Into<String>) -> Cell {
        Cell {
            text: text.into(),
            value: None,
        }
    }

    /// A figure with three significant digits (`-` when absent).
    pub fn figure(v: Option<f64>) -> Cell {
        Cell {
            text: fmt(v),
            value: v,
        }
    }

    pub fn count(n: usize) -> Cell {
        Cell {
            text: n.to_string(),
            value: Some(n as f64),
        }
    }
}

/// Geometric mean of the positive values (none: `None`).
pub fn geomean(v: &[f64]) -> Option<f64> {
    let pos: Vec<f64> = v.iter().copied().filter(|x| *x > 0.0).collect();
    if pos.is_empty() {
        return None;
    }
    Some((pos.iter().map(|x| x.ln()).sum::<f64>() / pos.len() as f64).exp())
}

/// The summary, engines in registry order, then formalisms by name.
pub fn summary(rows: &[Row]) -> Vec<Line> {
    let mut groups: BTreeMap<(usize, String, String), Vec<&Row>> = BTreeMap::new();
    for r in rows {
        let rank = engines::ENGINES
            .iter()
            .position(|e| e.name == r.engine)
            .unwrap_or(usize::MAX);
        groups
            .entry((rank, r.variant(), r.formalism.clone()))
            .or_default()
            .push(r);
    }
    groups
        .into_iter()
        .map(|((_, engine, formalism), rs)| {
            let ok: Vec<&&Row> = rs.iter().filter(|r| r.status == Status::Ok).collect();
            let bits: Vec<f64> = ok.iter().filter_map(|r| r.bits_per_state).collect();
            let alloc: Vec<f64> = ok.iter().filter_map(|r| r.bits_per_state_alloc).collect();
            let time: Vec<f64> = ok.iter().filter_map(|r| r.time_s).collect();
            let rss: Vec<f64> = ok
                .iter()
                .filter_map(|r| r.rss_peak_bytes.map(|b| b as f64))
                .collect();
            let mut failures = BTreeMap::new();
            for r in rs.iter().filter(|r| r.status != Status::Ok) {
                *failures.entry(r.status).or_default() += 1;
            }
            Line {
                engine,
                formalism,
                runs: rs.len(),
                finished: ok.len(),
                mismatches: ok.iter().filter(|r| needs_attention(r)).count(),
                bits_median: median(bits.clone()),
                bits_geomean: geomean(&bits),
                bits_alloc_median: median(alloc.clone()),
                bits_alloc_geomean: geomean(&alloc),
                time_median: median(time.clone()),
                time_geomean: geomean(&time),
                time_total: time.iter().sum(),
                rss_median: median(rss.clone()),
                rss_max: rss.iter().copied().reduce(f64::max),
                failures,
            }
        })
        .collect()
}

/// A count that disagrees with the oracle, a crash or a model error (what
/// makes `statebench run` exit non-zero).
pub fn needs_attention(r: &Row) -> bool {
    r.states_match == Some(false)
        || r.transitions_match == Some(false)
        || matches!(r.status, Status::ModelError | Status::Crashed)
}

/// `3 timeout, 1 table_full`, or `-`.
pub fn failures_text(failures: &BTreeMap<Status, usize>) -> String {
    if failures.is_empty() {
        return "-".into();
    }
    failures
        .iter()
        .map(|(s, n)| format!("{n} {s}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A figure with three significant digits, `-` when absent.
pub fn fmt(v: Option<f64>) -> String {
    match v {
        None => "-".into(),
        Some(0.0) => "0".into(),
        Some(v) => {
            let digits = (2 - v.abs().log10().floor() as i32).max(0) as usize;
            format!("{v:.digits$}")
        }
    }
}

/// Bytes as MiB with three significant digits.
pub fn mib(v: Option<f64>) -> String {
    fmt(v.map(|b| b / (1u64 << 20) as f64))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::fixture;

    #[test]
    fn summary_counts_and_means_match_the_rows() {
        let input = fixture::input("small/runs.csv");
        let lines = summary(&input.rows);
        assert_eq!(
            lines.iter().map(|l| l.runs).sum::<usize>(),
            input.rows.len()
        );
        for l in &lines {
            let rows: Vec<&Row> = input
                .rows
                .iter()
                .filter(|r| r.variant() == l.engine && r.formalism == l.formalism)
                .collect();
            let ok: Vec<&&Row> = rows.iter().filter(|r| r.status == Status::Ok).collect();
            assert_eq!(l.finished, ok.len());
            assert_eq!(
                l.failures.values().sum::<usize>(),
                rows.len() - ok.len(),
                "{}",
                l.engine
            );
            let bits: Vec<f64> = ok.iter().filter_map(|r| r.bits_per_state).collect();
            if let Some(g) = l.bits_geomean {
                let product: f64 = bits.iter().product();
                assert!((g.powi(bits.len() as i32) - product).abs() <= 1e-6 * product);
                let below = bits.iter().filter(|b| **b < l.bits_median.unwrap()).count();
                let above = bits.iter().filter(|b| **b > l.bits_median.unwrap()).count();
                assert_eq!(below, above, "the median splits the values");
            } else {
                assert!(bits.is_empty());
            }
        }
        // An engine that failed everywhere has a line with nothing finished.
        assert!(lines.iter().any(|l| l.finished == 0 && l.runs > 0));
    }

    #[test]
    fn figures_read_well() {
        assert_eq!(fmt(Some(31.0)), "31.0");
        assert_eq!(fmt(Some(0.000298)), "0.000298");
        assert_eq!(fmt(Some(1234.6)), "1235");
        assert_eq!(fmt(None), "-");
        assert!((geomean(&[2.0, 8.0]).unwrap() - 4.0).abs() < 1e-12);
        assert_eq!(geomean(&[0.0]), None);
        assert_eq!(median(vec![3.0, 1.0, 2.0, 10.0]), Some(2.5));
        assert_eq!(median(vec![3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(quantile(vec![1.0, 2.0, 3.0, 4.0, 5.0], 0.1), Some(1.4));
        assert_eq!(quantile(vec![4.0, 1.0], 1.0), Some(4.0));
        assert_eq!(quantile(vec![], 0.5), None);
    }
}
