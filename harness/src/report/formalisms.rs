//! The per-formalism table (the paper's comparison, one block per input
//! language): per formalism and engine configuration, at one thread, the
//! instances tried and finished, median and mean bits per state used and
//! allocated, the locality bound of the finished instances, and the
//! engine's exploration time against `hash-table`'s on the same instance.
//! Reads rows only.

use super::tables::{quantile, Cell, Table};
use crate::schema::{Row, Status};
use std::collections::{BTreeMap, BTreeSet};

/// The engine the time ratios are taken against.
pub const REFERENCE: &str = "hash-table";

/// Exploration time of the reference's finished one-thread runs, per
/// (instance, repetition).
fn reference_times(rows: &[&Row]) -> BTreeMap<(String, u32), f64> {
    rows.iter()
        .filter(|r| r.variant() == REFERENCE && r.status == Status::Ok)
        .filter_map(|r| Some(((r.instance.clone(), r.repetition), r.time_s?)))
        .collect()
}

/// The arithmetic mean (none: `None`).
fn mean(v: &[f64]) -> Option<f64> {
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
}

/// One line: a configuration's one-thread runs on one formalism.
fn line(
    formalism: &str,
    variant: &str,
    rs: &[&Row],
    reference: &BTreeMap<(String, u32), f64>,
) -> Vec<Cell> {
    let ok: Vec<&Row> = rs
        .iter()
        .copied()
        .filter(|r| r.status == Status::Ok)
        .collect();
    let column = |f: fn(&Row) -> Option<f64>| ok.iter().filter_map(|r| f(r)).collect::<Vec<f64>>();
    let used = column(|r| r.bits_per_state);
    let alloc = column(|r| r.bits_per_state_alloc);
    let bound = column(|r| r.locality_bound_bits);
    let ratios: Vec<f64> = ok
        .iter()
        .filter_map(|r| {
            let base = reference.get(&(r.instance.clone(), r.repetition))?;
            (*base > 0.0).then_some(r.time_s? / base)
        })
        .collect();
    let instances: BTreeSet<&str> = rs.iter().map(|r| r.instance.as_str()).collect();
    let finished: BTreeSet<&str> = ok.iter().map(|r| r.instance.as_str()).collect();
    vec![
        Cell::text(formalism),
        Cell::text(variant),
        Cell::count(instances.len()),
        Cell::count(finished.len()),
        Cell::figure(quantile(used.clone(), 0.5)),
        Cell::figure(mean(&used)),
        Cell::figure(quantile(alloc.clone(), 0.5)),
        Cell::figure(mean(&alloc)),
        Cell::figure(quantile(bound, 0.5)),
        Cell::count(ratios.len()),
        Cell::figure(quantile(ratios, 0.5)),
    ]
}

/// The table, or `None` when no run used one thread.
pub fn table(rows: &[Row]) -> Option<Table> {
    let mut groups: BTreeMap<(String, String), Vec<&Row>> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.threads == 1) {
        groups
            .entry((r.formalism.clone(), r.variant()))
            .or_default()
            .push(r);
    }
    let mut reference: BTreeMap<String, BTreeMap<(String, u32), f64>> = BTreeMap::new();
    for ((formalism, _), rs) in &groups {
        reference
            .entry(formalism.clone())
            .or_default()
            .extend(reference_times(rs));
    }
    let out: Vec<Vec<Cell>> = groups
        .iter()
        .map(|((formalism, variant), rs)| line(formalism, variant, rs, &reference[formalism]))
        .collect();
    if out.is_empty() {
        return None;
    }
    Some(Table {
        title: "Per formalism".into(),
        caption: format!(
            "One thread. Per formalism and engine configuration: the instances it was run on, \
             those it finished (`ok`), the median and mean bits per state used and allocated \
             over its finished runs, the median locality bound u + log2(k) + 2 of those runs \
             (the Compact Tree paper's bound; explicit engines only), and the median over the \
             instances both finished of its exploration time / {REFERENCE}'s on the same \
             instance and repetition (with how many instances that ratio has)."
        ),
        header: [
            "formalism",
            "engine",
            "instances",
            "finished",
            "bits used median",
            "mean",
            "bits alloc median",
            "mean",
            "locality bound median",
            "time ratios",
            "time / hash-table median",
        ]
        .map(String::from)
        .to_vec(),
        rows: out,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(engine: &str, instance: &str, status: Status, bits: f64, time: f64) -> Row {
        let mut r = Row::example();
        r.engine = engine.into();
        r.engine_config = String::new();
        r.instance = instance.into();
        r.status = status;
        r.bits_per_state = Some(bits);
        r.bits_per_state_alloc = Some(2.0 * bits);
        r.time_s = Some(time);
        r
    }

    #[test]
    fn figures_are_over_finished_runs_and_ratios_over_instances_both_finished() {
        let rows = vec![
            row("hash-table", "a", Status::Ok, 800.0, 1.0),
            row("hash-table", "b", Status::Ok, 900.0, 2.0),
            row("tree", "a", Status::Ok, 40.0, 3.0),
            row("tree", "b", Status::Ok, 60.0, 2.0),
            row("tree", "c", Status::Timeout, 1.0, 9.0),
        ];
        let t = table(&rows).unwrap();
        assert_eq!(t.rows.len(), 2);
        let tree = &t.rows[1];
        let texts: Vec<&str> = tree.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(&texts[..4], ["pnml", "tree", "3", "2"]);
        assert_eq!(tree[4].value, Some(50.0), "median used over a and b");
        assert_eq!(tree[5].value, Some(50.0), "mean used");
        assert_eq!(tree[6].value, Some(100.0), "median allocated");
        assert_eq!(tree[9].value, Some(2.0), "two instances with a ratio");
        assert_eq!(tree[10].value, Some(2.0), "median of 3.0 and 1.0");
        assert_eq!(
            t.rows[0][10].value,
            Some(1.0),
            "the reference against itself"
        );
    }

    #[test]
    fn runs_at_more_threads_are_left_out() {
        let mut r = row("tree", "a", Status::Ok, 40.0, 3.0);
        r.threads = 2;
        assert!(table(&[r]).is_none());
    }
}
