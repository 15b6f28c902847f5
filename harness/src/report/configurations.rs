//! Configurations of one engine compared within a campaign (`run --sweep`,
//! e.g. saturation against BFS): per engine, formalism and thread count,
//! each later configuration against the first (in the order the CSV first
//! shows them), per instance both finished, the ratio of exploration times
//! and how many instances only one of them finished. Reads rows only; the
//! ratios are within one campaign, so one machine and one time span.

use super::tables::{geomean, median, quantile, Cell, Table};
use crate::schema::{Row, Status};
use std::collections::BTreeMap;

/// Per configuration of one group: instance -> (finished, median exploration
/// time of the finished repetitions).
type Outcomes = BTreeMap<(String, String), (bool, Option<f64>)>;

fn outcomes(rows: &[&Row]) -> Outcomes {
    let mut times: BTreeMap<(String, String), Vec<f64>> = BTreeMap::new();
    let mut finished: BTreeMap<(String, String), bool> = BTreeMap::new();
    for r in rows {
        let key = (r.suite.clone(), r.instance.clone());
        let ok = r.status == Status::Ok;
        *finished.entry(key.clone()).or_default() |= ok;
        if let (true, Some(t)) = (ok, r.time_s) {
            times.entry(key).or_default().push(t);
        }
    }
    finished
        .into_iter()
        .map(|(k, ok)| {
            let t = times.remove(&k).and_then(median);
            (k, (ok, t))
        })
        .collect()
}

/// The table, or `None` when no engine ran in two configurations.
pub fn table(rows: &[Row]) -> Option<Table> {
    // (engine, formalism, threads) -> configurations in order of appearance.
    let mut order: BTreeMap<(String, String, u32), Vec<String>> = BTreeMap::new();
    for r in rows {
        let configs = order
            .entry((r.engine.clone(), r.formalism.clone(), r.threads))
            .or_default();
        if !configs.contains(&r.engine_config) {
            configs.push(r.engine_config.clone());
        }
    }
    let mut out = Vec::new();
    for ((engine, formalism, threads), configs) in order {
        if configs.len() < 2 {
            continue;
        }
        let of = |config: &str| -> Outcomes {
            let rs: Vec<&Row> = rows
                .iter()
                .filter(|r| {
                    r.engine == engine
                        && r.formalism == formalism
                        && r.threads == threads
                        && r.engine_config == config
                })
                .collect();
            outcomes(&rs)
        };
        let first = of(&configs[0]);
        for config in &configs[1..] {
            let this = of(config);
            let (mut only_first, mut only_this) = (0, 0);
            let (mut ratios, mut slow_ratios) = (Vec::new(), Vec::new());
            for (instance, (this_ok, this_t)) in &this {
                match (first.get(instance), this_ok) {
                    (Some((true, Some(f))), true) => {
                        if let Some(t) = this_t.filter(|_| *f > 0.0) {
                            ratios.push(t / f);
                            if *f >= 1.0 {
                                slow_ratios.push(t / f);
                            }
                        }
                    }
                    (Some((true, _)), false) => only_first += 1,
                    (Some((false, _)) | None, true) => only_this += 1,
                    _ => {}
                }
            }
            let label = |c: &str| {
                if c.is_empty() {
                    "(defaults)".to_string()
                } else {
                    c.to_string()
                }
            };
            let mut line = vec![
                Cell::text(engine.clone()),
                Cell::text(formalism.clone()),
                Cell::count(threads as usize),
                Cell::text(label(config)),
                Cell::text(label(&configs[0])),
                Cell::count(first.values().filter(|(ok, _)| *ok).count()),
                Cell::count(ratios.len()),
                Cell::count(only_first),
                Cell::count(only_this),
            ];
            for q in [0.1, 0.5, 0.9, 1.0] {
                line.push(Cell::figure(quantile(ratios.clone(), q)));
            }
            line.push(Cell::figure(geomean(&ratios)));
            line.push(Cell::count(ratios.iter().filter(|r| **r < 1.0).count()));
            line.push(Cell::count(slow_ratios.len()));
            line.push(Cell::figure(median(slow_ratios)));
            out.push(line);
        }
    }
    if out.is_empty() {
        return None;
    }
    Some(Table {
        title: "Configurations compared".into(),
        caption: "Each later configuration of an engine (run --sweep) against its first: \
                  ratio = this configuration's exploration time / the first's, per instance \
                  both finished (median over repetitions); above 1, the first is faster. \
                  Only first: this configuration ran and did not finish where the first did; \
                  instances it skipped (--sweep-where-first-finished) are in neither count."
            .into(),
        header: [
            "engine",
            "formalism",
            "threads",
            "configuration",
            "against",
            "first finished",
            "both finished",
            "only first finished",
            "only this finished",
            "time ratio q0.1",
            "median",
            "q0.9",
            "max",
            "geo-mean",
            "this faster on",
            "instances where the first took >= 1 s",
            "their median ratio",
        ]
        .map(String::from)
        .to_vec(),
        rows: out,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(instance: &str, config: &str, status: Status, time: f64) -> Row {
        let mut r = Row::example();
        r.engine = "bdd".into();
        r.instance = instance.into();
        r.engine_config = config.into();
        r.status = status;
        r.time_s = Some(time);
        r
    }

    #[test]
    fn ratios_are_per_instance_both_finished_against_the_first_configuration() {
        let (sat, bfs) = ("strategy=saturation", "strategy=bfs");
        let rows = vec![
            row("a", sat, Status::Ok, 1.0),
            row("a", bfs, Status::Ok, 3.0),
            row("b", sat, Status::Ok, 2.0),
            row("b", bfs, Status::Ok, 1.0),
            row("c", sat, Status::Ok, 0.5),
            row("c", bfs, Status::Timeout, 9.0),
            row("d", sat, Status::Timeout, 9.0),
            // d: bfs skipped, no row. e: only bfs finished.
            row("e", sat, Status::Timeout, 9.0),
            row("e", bfs, Status::Ok, 4.0),
            // Another engine with one configuration: no line.
            Row::example(),
        ];
        let t = table(&rows).unwrap();
        assert_eq!(t.rows.len(), 1);
        let cells: Vec<&str> = t.rows[0].iter().map(|c| c.text.as_str()).collect();
        assert_eq!(
            cells,
            [
                "bdd", "pnml", "1", bfs, sat, "3", "2", "1", "1", "0.750", "1.75", "2.75", "3.00",
                "1.22", "1", "2", "1.75"
            ]
        );
        assert!(table(&[Row::example()]).is_none());
    }
}
