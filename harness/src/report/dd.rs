//! The decision-diagram table (the numbers behind the paper's Fig. 20):
//! per symbolic engine configuration, formalism and thread count, over its
//! finished runs, the median final and peak node counts, the peak/final
//! ratio's distribution and the learned transitions. Reads rows only (the
//! `dd_*` columns and the engines' counters `dd_peak_visited_nodes` and
//! `learned_transitions`); must not know how an engine counts its nodes.

use super::tables::{median, quantile, Cell, Table};
use crate::schema::{Row, Status};
use std::collections::BTreeMap;

/// The table, or `None` when no row has decision-diagram sizes.
pub fn table(rows: &[Row]) -> Option<Table> {
    let mut groups: BTreeMap<(String, String, u32), Vec<&Row>> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.dd_final_nodes.is_some()) {
        groups
            .entry((r.variant(), r.formalism.clone(), r.threads))
            .or_default()
            .push(r);
    }
    if groups.is_empty() {
        return None;
    }
    let figure = |rs: &[&Row], f: &dyn Fn(&Row) -> Option<u64>| -> Vec<f64> {
        rs.iter().filter_map(|r| f(r).map(|v| v as f64)).collect()
    };
    let mut out = Vec::new();
    for ((engine, formalism, threads), all) in groups {
        let ok: Vec<&Row> = all
            .iter()
            .copied()
            .filter(|r| r.status == Status::Ok)
            .collect();
        let ratios: Vec<f64> = ok
            .iter()
            .filter_map(|r| match (r.dd_peak_nodes, r.dd_final_nodes) {
                (Some(p), Some(f)) if f > 0 => Some(p as f64 / f as f64),
                _ => None,
            })
            .collect();
        let mut line = vec![
            Cell::text(engine),
            Cell::text(formalism),
            Cell::count(threads as usize),
            Cell::count(ok.len()),
            Cell::figure(median(figure(&ok, &|r| r.dd_final_nodes))),
            Cell::figure(median(figure(&ok, &|r| r.dd_peak_nodes))),
            Cell::figure(median(figure(&ok, &|r| r.counter("dd_peak_visited_nodes")))),
        ];
        for q in [0.1, 0.25, 0.5, 0.75, 0.9, 1.0] {
            line.push(Cell::figure(quantile(ratios.clone(), q)));
        }
        line.push(Cell::figure(median(figure(&ok, &|r| {
            r.counter("learned_transitions")
        }))));
        out.push(line);
    }
    Some(Table {
        title: "Decision-diagram sizes".into(),
        caption: "Over the finished runs (with a decision diagram) of each engine configuration: \
                  final = nodes of the visited set at the end; peak = the most nodes alive at \
                  once over the run (visited set, frontier and relations); peak visited set = \
                  the visited set's own peak. Peak/final is per run, then its quantiles over \
                  the runs (linear interpolation; q1.0 = maximum)."
            .into(),
        header: [
            "engine",
            "formalism",
            "threads",
            "finished",
            "median final nodes",
            "median peak nodes",
            "median peak visited-set nodes",
            "peak/final q0.1",
            "q0.25",
            "median",
            "q0.75",
            "q0.9",
            "max",
            "median learned transitions",
        ]
        .map(String::from)
        .to_vec(),
        rows: out,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(engine_config: &str, status: Status, final_: u64, peak: u64) -> Row {
        let mut r = Row::example();
        r.engine = "bdd".into();
        r.engine_config = engine_config.into();
        r.status = status;
        r.dd_final_nodes = Some(final_);
        r.dd_peak_nodes = Some(peak);
        r.counters = format!("dd_peak_visited_nodes={};learned_transitions=7", final_ + 1);
        r
    }

    #[test]
    fn ratios_are_per_run_over_finished_runs_per_configuration() {
        let rows = vec![
            row("", Status::Ok, 10, 20),
            row("", Status::Ok, 10, 40),
            row("", Status::Ok, 100, 100),
            row("", Status::Timeout, 1, 1000),
            row("strategy=bfs", Status::Ok, 10, 30),
            Row::example(),
        ];
        let t = table(&rows).unwrap();
        assert_eq!(t.rows.len(), 2, "one line per configuration");
        let first: Vec<&str> = t.rows[0].iter().map(|c| c.text.as_str()).collect();
        // finished 3; final median 10; peak median 40; visited 11; ratios 1, 2, 4.
        assert_eq!(
            first,
            [
                "bdd", "pnml", "1", "3", "10.0", "40.0", "11.0", "1.20", "1.50", "2.00", "3.00",
                "3.60", "4.00", "7.00"
            ]
        );
        assert_eq!(t.rows[1][0].text, "bdd [strategy=bfs]");
        assert_eq!(t.rows[1][9].value, Some(3.0));
        assert!(table(&[Row::example()]).is_none());
    }
}
