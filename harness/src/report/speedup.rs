//! The speedup table (the numbers behind the scaling figure): per engine
//! configuration, formalism and thread count above 1, the distribution of
//! the per-instance speedup over the instances finished at both 1 and t
//! threads. The speedups are the scaling figure's
//! ([`crate::plot::scaling::speedups`]: the row's `speedup` column, the
//! same instance's single-thread time otherwise, instances whose
//! single-thread run took under 0.1 s left out), so table and figure
//! cannot disagree. Reads rows only.

use super::tables::{geomean, quantile, Cell, Table};
use crate::plot::scaling::{speedups, MIN_BASE_TIME_S};
use crate::schema::Row;
use std::collections::BTreeMap;

/// The table, or `None` when no run used more than one thread.
pub fn table(rows: &[Row]) -> Option<Table> {
    let mut groups: BTreeMap<(String, String), Vec<&Row>> = BTreeMap::new();
    for r in rows {
        groups
            .entry((r.variant(), r.formalism.clone()))
            .or_default()
            .push(r);
    }
    let mut out = Vec::new();
    for ((variant, formalism), rs) in groups {
        let mut by_threads: BTreeMap<u32, (Vec<f64>, Vec<f64>)> = BTreeMap::new();
        for (r, s) in speedups(&rs) {
            if r.threads > 1 {
                let (best, paper) = by_threads.entry(r.threads).or_default();
                best.push(s);
                paper.extend(r.speedup_concurrent);
            }
        }
        for (threads, (v, paper)) in by_threads {
            let mut line = vec![
                Cell::text(variant.clone()),
                Cell::text(formalism.clone()),
                Cell::count(threads as usize),
                Cell::count(v.len()),
            ];
            for q in [0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0] {
                line.push(Cell::figure(quantile(v.clone(), q)));
            }
            line.push(Cell::figure(geomean(&v)));
            line.push(Cell::count(
                v.iter().filter(|s| **s >= 0.85 * threads as f64).count(),
            ));
            line.push(Cell::count(paper.len()));
            line.push(Cell::figure(quantile(paper, 0.5)));
            out.push(line);
        }
    }
    if out.is_empty() {
        return None;
    }
    Some(Table {
        title: "Speedup".into(),
        caption: format!(
            "Per engine configuration, formalism and thread count t > 1: speedup = exploration \
             time at 1 thread / at t threads, per instance finished at both (the run's \
             `speedup` column; repetitions each count), over the instances whose 1-thread run \
             took at least {MIN_BASE_TIME_S} s; quantiles with linear interpolation (q0 = min, \
             q1 = max). Near-linear: speedup at least 0.85 × t. This speedup is over the best \
             sequential run (the sequential engine and explorer at one thread). The paper's \
             definition, one concurrent implementation at 1 and at t threads (column \
             `speedup_concurrent`, against the run of configuration `form=concurrent` at one \
             thread), is in the last two columns: the instances that have it and its median."
        ),
        header: [
            "engine",
            "formalism",
            "threads",
            "instances",
            "speedup min",
            "q0.1",
            "q0.25",
            "median",
            "q0.75",
            "q0.9",
            "max",
            "geo-mean",
            "near-linear",
            "instances (paper)",
            "median (paper)",
        ]
        .map(String::from)
        .to_vec(),
        rows: out,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::Status;

    fn row(instance: &str, threads: u32, time: f64, status: Status) -> Row {
        let mut r = Row::example();
        r.instance = instance.into();
        r.threads = threads;
        r.time_s = Some(time);
        r.status = status;
        r.speedup = None;
        r
    }

    #[test]
    fn speedups_per_instance_finished_at_both_thread_counts() {
        let rows = vec![
            row("a", 1, 4.0, Status::Ok),
            row("a", 2, 2.0, Status::Ok),
            row("b", 1, 3.0, Status::Ok),
            row("b", 2, 3.0, Status::Ok),
            row("c", 1, 9.0, Status::Ok),
            row("c", 2, 9.0, Status::Timeout),
            // Too short to measure scaling.
            row("d", 1, 0.01, Status::Ok),
            row("d", 2, 0.001, Status::Ok),
        ];
        let t = table(&rows).unwrap();
        assert_eq!(t.rows.len(), 1);
        let cells: Vec<&str> = t.rows[0].iter().map(|c| c.text.as_str()).collect();
        // Speedups 2.0 (a) and 1.0 (b); c did not finish at 2 threads.
        assert_eq!(&cells[..4], ["hash-table", "pnml", "2", "2"]);
        assert_eq!(t.rows[0][7].value, Some(1.5), "median");
        assert_eq!(t.rows[0][4].value, Some(1.0), "min");
        assert_eq!(t.rows[0][10].value, Some(2.0), "max");
        assert_eq!(cells[12], "1", "near-linear: a only");
        assert!(table(&[row("a", 1, 4.0, Status::Ok)]).is_none());
    }
}
