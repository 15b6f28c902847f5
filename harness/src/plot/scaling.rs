//! Parallel scaling (paper Figs. 11, 21–24): speedup against thread count,
//! a panel per engine with runs at more than one thread, the ideal
//! (speedup = threads) as reference. The speedup is the row's `speedup`
//! column, or, where that is empty, time(1 thread) / time(t threads) of the
//! same instance and engine (DESIGN.md; median over repetitions). Only
//! instances whose single-thread exploration took at least
//! [`MIN_BASE_TIME_S`] are drawn: below that the ratio measures thread
//! start-up and timer resolution, not scaling. A panel per engine with a
//! finished run at more than one thread; engines whose multi-threaded rows
//! all failed (e.g. `unsupported`) are named in the caption. Empty, with
//! the reason, until a campaign has multi-threaded rows. Builds figure
//! data only.

use super::{by_formalism, no_points_note, variants, Axis, Figure, Input, Panel, Scale};
use crate::schema::{Row, Status};
use std::collections::BTreeMap;

/// Single-thread exploration time below which an instance's speedups are
/// not drawn (seconds).
pub const MIN_BASE_TIME_S: f64 = 0.1;

/// The speedup of each finished run of `rows` (one variant): the recorded
/// one, else computed from the single-thread run of the same instance.
pub(crate) fn speedups<'a>(rows: &[&'a Row]) -> Vec<(&'a Row, f64)> {
    let mut single: BTreeMap<(&str, &str), Vec<f64>> = BTreeMap::new();
    for r in rows {
        if let (Status::Ok, 1, Some(t)) = (r.status, r.threads, r.time_s) {
            single.entry((&r.suite, &r.instance)).or_default().push(t);
        }
    }
    let base: BTreeMap<(&str, &str), f64> = single
        .into_iter()
        .map(|(k, mut ts)| {
            ts.sort_by(f64::total_cmp);
            let n = ts.len();
            let m = if n % 2 == 1 {
                ts[n / 2]
            } else {
                (ts[n / 2 - 1] + ts[n / 2]) / 2.0
            };
            (k, m)
        })
        .collect();
    rows.iter()
        .filter(|r| r.status == Status::Ok)
        .filter_map(|r| {
            let t1 = base.get(&(r.suite.as_str(), r.instance.as_str()));
            if t1.is_some_and(|t1| *t1 < MIN_BASE_TIME_S) {
                return None;
            }
            let s = r.speedup.or_else(|| {
                let t = r.time_s.filter(|t| *t > 0.0)?;
                Some(t1? / t)
            })?;
            Some((*r, s))
        })
        .collect()
}

pub fn figure(input: &Input) -> Figure {
    let mut panels = Vec::new();
    let mut sequential_only = Vec::new();
    for v in variants(&input.rows) {
        let rows: Vec<&Row> = input.rows.iter().filter(|r| r.variant() == v).collect();
        if !rows.iter().any(|r| r.threads > 1) {
            continue;
        }
        if !rows.iter().any(|r| r.threads > 1 && r.status == Status::Ok) {
            sequential_only.push(v);
            continue;
        }
        let series = by_formalism(
            speedups(&rows)
                .into_iter()
                .map(|(r, s)| (r.formalism.as_str(), (r.threads as f64, s))),
        );
        panels.push(Panel::against_diagonal(
            v,
            series,
            "ideal: speedup = threads",
            || no_points_note(input, &rows, &["threads", "time_s"]),
        ));
    }
    if panels.is_empty() {
        let note = input.absent("threads").unwrap_or_else(|| {
            if input.rows.is_empty() {
                no_points_note(input, &[], &[])
            } else if !sequential_only.is_empty() {
                "no multi-threaded run finished in this campaign".into()
            } else {
                "every row ran with 1 thread: no multi-threaded run in this campaign".into()
            }
        });
        panels.push(Panel::empty("parallel engines", note));
    }
    let mut caption = format!(
        "Parallel scaling: one point per finished run of an engine that ran with several threads, \
         speedup = time(1 thread) / time(t threads) of the same instance, colour by formalism; the dashed \
         diagonal is linear speedup. The 1-thread time is the best sequential run's (the sequential engine \
         and explorer: the row's `speedup`); the paper's speedup, over the same concurrent engine at one \
         thread (`speedup_concurrent`), is in the report's Speedup table. Instances whose single-thread exploration took less than {MIN_BASE_TIME_S} s \
         are left out (their ratio is start-up and timer noise)."
    );
    if !sequential_only.is_empty() {
        caption.push_str(&format!(
            " No finished multi-threaded run (sequential only): {}.",
            sequential_only.join(", ")
        ));
    }
    Figure {
        name: "speedup".into(),
        title: "Speedup against threads".into(),
        caption,
        x: Axis::new("threads", Scale::Linear).integers(),
        y: Axis::new("speedup", Scale::Linear),
        square: false,
        panels,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::fixture;

    #[test]
    fn recorded_or_computed_speedups_of_parallel_engines() {
        let input = fixture::input("small/runs.csv");
        let parallel: Vec<&str> = input
            .rows
            .iter()
            .filter(|r| r.threads > 1)
            .map(|r| r.engine.as_str())
            .collect();
        assert!(!parallel.is_empty(), "the fixture has multi-threaded rows");
        let finished = input
            .rows
            .iter()
            .filter(|r| parallel.contains(&r.engine.as_str()) && r.status == Status::Ok)
            .count();
        let f = figure(&input);
        assert_eq!(f.points(), finished);

        // Without the column, the speedup is computed from the times.
        let mut rows = input.rows.clone();
        for r in &mut rows {
            r.speedup = None;
        }
        let refs: Vec<&Row> = rows
            .iter()
            .filter(|r| parallel.contains(&r.engine.as_str()))
            .collect();
        for (r, s) in speedups(&refs) {
            let t1 = rows
                .iter()
                .find(|b| b.engine == r.engine && b.instance == r.instance && b.threads == 1)
                .and_then(|b| b.time_s)
                .unwrap();
            assert_eq!(s, t1 / r.time_s.unwrap());
        }
    }

    #[test]
    fn short_runs_and_sequential_only_engines_are_left_out_and_said() {
        let input = fixture::input("small/runs.csv");
        let mut rows = input.rows.clone();
        // Make every single-thread run of one lockfree-hash instance short.
        let short = rows
            .iter()
            .find(|r| r.engine == "lockfree-hash" && r.threads == 1)
            .map(|r| r.instance.clone())
            .unwrap();
        let dropped = rows
            .iter()
            .filter(|r| {
                r.engine == "lockfree-hash" && r.instance == short && r.status == Status::Ok
            })
            .count();
        for r in &mut rows {
            if r.engine == "lockfree-hash" && r.instance == short && r.threads == 1 {
                r.time_s = Some(MIN_BASE_TIME_S / 10.0);
            }
        }
        // An engine whose 2-thread rows are all unsupported.
        let mut unsupported = rows
            .iter()
            .find(|r| r.engine == "hash-table")
            .unwrap()
            .clone();
        unsupported.threads = 2;
        unsupported.status = Status::Unsupported;
        rows.push(unsupported);
        let before = figure(&input).points();
        let input = Input { rows, ..input };
        let f = figure(&input);
        assert_eq!(f.points(), before - dropped);
        assert!(dropped > 0);
        assert!(f.panels.iter().all(|p| p.title != "hash-table"));
        assert!(
            f.caption.contains("sequential only): hash-table"),
            "{}",
            f.caption
        );
    }
}
