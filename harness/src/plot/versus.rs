//! Each engine against the Compact Tree (paper Figs. 12–19): bits per state
//! and exploration time, one point per instance that both finished (single
//! thread; the median over repetitions), the Compact Tree on x, the engine
//! on y, the diagonal as reference (above it the engine needs more).
//! Builds figure data only.

use super::{
    by_formalism, finished_sequential, no_points_note, variants, Axis, Figure, Input, Panel, Scale,
};
use crate::schema::Row;
use std::collections::BTreeMap;

struct Metric {
    name: &'static str,
    title: &'static str,
    column: &'static str,
    unit: &'static str,
    value: fn(&Row) -> Option<f64>,
}

const METRICS: [Metric; 2] = [
    Metric {
        name: "vs-compact-tree-bits",
        title: "Bits per state: each engine against the Compact Tree",
        column: "bits_per_state",
        unit: "bits per state",
        value: |r| r.bits_per_state,
    },
    Metric {
        name: "vs-compact-tree-time",
        title: "Exploration time: each engine against the Compact Tree",
        column: "time_s",
        unit: "time (s)",
        value: |r| r.time_s,
    },
];

/// The Compact Tree variant compared against: the default configuration
/// when it ran, else the first.
fn reference_variant(rows: &[Row]) -> Option<String> {
    let ct: Vec<String> = variants(rows)
        .into_iter()
        .filter(|v| v == "compact-tree" || v.starts_with("compact-tree ["))
        .collect();
    ct.iter()
        .find(|v| *v == "compact-tree")
        .or(ct.first())
        .cloned()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// (suite, instance) -> (formalism, median value) of a variant's finished runs.
fn values<'a>(
    rows: &'a [Row],
    v: &str,
    metric: &Metric,
) -> BTreeMap<(&'a str, &'a str), (&'a str, f64)> {
    let mut all: BTreeMap<(&str, &str), (&str, Vec<f64>)> = BTreeMap::new();
    for r in finished_sequential(rows).filter(|r| r.variant() == v) {
        if let Some(x) = (metric.value)(r) {
            all.entry((&r.suite, &r.instance))
                .or_insert((&r.formalism, Vec::new()))
                .1
                .push(x);
        }
    }
    all.into_iter()
        .map(|(k, (f, xs))| (k, (f, median(xs))))
        .collect()
}

pub fn figures(input: &Input) -> Vec<Figure> {
    METRICS.iter().map(|m| figure(input, m)).collect()
}

fn figure(input: &Input, metric: &Metric) -> Figure {
    let mut panels = Vec::new();
    let reference = reference_variant(&input.rows);
    let caption = match &reference {
        None => {
            let note = if input.rows.is_empty() {
                no_points_note(input, &[], &[metric.column])
            } else {
                "no compact-tree row in this campaign: nothing to compare against".into()
            };
            panels.push(Panel::empty("all engines", note));
            format!("{}.", metric.title)
        }
        Some(ct) => {
            let base = values(&input.rows, ct, metric);
            for v in variants(&input.rows).into_iter().filter(|v| v != ct) {
                let mine = values(&input.rows, &v, metric);
                let both = mine
                    .iter()
                    .filter_map(|(key, (f, y))| base.get(key).map(|(_, x)| (*f, (*x, *y))));
                let series = by_formalism(both);
                let title = format!("{v} against {ct}");
                panels.push(Panel::against_diagonal(title, series, "equal", || {
                    let rows: Vec<&Row> = input.rows.iter().filter(|r| r.variant() == v).collect();
                    let why = no_points_note(input, &rows, &[metric.column]);
                    format!("no instance finished by both {v} and {ct}: {why}")
                }));
            }
            if panels.is_empty() {
                panels.push(Panel::empty(
                    "all engines",
                    format!("{ct} is the only engine of this campaign"),
                ));
            }
            format!(
                "{}: one point per instance both finished (single thread, median over repetitions), \
                 {ct} on x, the engine on y, colour by formalism; above the dashed diagonal the engine \
                 takes more than {ct}.",
                metric.title
            )
        }
    };
    let ct = reference.as_deref().unwrap_or("compact-tree");
    Figure {
        name: metric.name.into(),
        title: metric.title.into(),
        caption,
        x: Axis::new(format!("{ct}: {}", metric.unit), Scale::Auto),
        y: Axis::new(format!("engine: {}", metric.unit), Scale::Auto),
        square: true,
        panels,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::fixture;
    use crate::schema::Status;
    use std::collections::HashSet;

    #[test]
    fn one_point_per_instance_both_finished() {
        let input = fixture::input("small/runs.csv");
        let done = |engine: &str| -> HashSet<&str> {
            input
                .rows
                .iter()
                .filter(|r| r.engine == engine && r.status == Status::Ok && r.threads == 1)
                .map(|r| r.instance.as_str())
                .collect()
        };
        let ct = done("compact-tree");
        let others: HashSet<&str> = input
            .rows
            .iter()
            .map(|r| r.engine.as_str())
            .filter(|e| *e != "compact-tree")
            .collect();
        let expected: usize = others
            .iter()
            .map(|e| done(e).intersection(&ct).count())
            .sum();
        for f in figures(&input) {
            assert_eq!(f.points(), expected, "{}", f.name);
            assert_eq!(f.panels.len(), others.len());
        }
    }
}
