//! Counts across engines: every configuration and thread count that
//! finished an instance must find the same states and transitions (DESIGN:
//! correctness before speed). Per formalism, how many instances two or
//! more configurations finished and on how many of those they all agree,
//! and one line per disagreeing instance. Reads rows only; on the rows of
//! several campaigns joined by `statebench merge` it checks engines run in
//! different campaigns against each other.

use super::tables::{Cell, Table};
use crate::schema::{Row, Status};
use std::collections::{BTreeMap, BTreeSet};

/// The table (none when no instance was finished twice) and the
/// disagreements, one line each.
pub fn check(rows: &[Row]) -> (Option<Table>, Vec<String>) {
    // (formalism, suite, instance) -> (states, transitions) -> who found them.
    type Found = BTreeMap<(Option<u64>, Option<u64>), Vec<String>>;
    let mut by_instance: BTreeMap<(String, String, String), Found> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.status == Status::Ok) {
        let who = if r.threads == 1 {
            r.variant()
        } else {
            format!("{} ({} threads)", r.variant(), r.threads)
        };
        let found = by_instance
            .entry((r.formalism.clone(), r.suite.clone(), r.instance.clone()))
            .or_default()
            .entry((r.states, r.transitions))
            .or_default();
        if !found.contains(&who) {
            found.push(who);
        }
    }
    let mut per_formalism: BTreeMap<String, (usize, usize, BTreeSet<String>)> = BTreeMap::new();
    let mut disagreements = Vec::new();
    for ((formalism, suite, instance), found) in by_instance {
        let finishers: BTreeSet<&String> = found.values().flatten().collect();
        if finishers.len() < 2 {
            continue;
        }
        let line = per_formalism.entry(formalism).or_default();
        line.0 += 1;
        if found.len() == 1 {
            line.1 += 1;
            continue;
        }
        line.2.insert(instance.clone());
        let counts: Vec<String> = found
            .iter()
            .map(|((s, t), who)| {
                let n = |v: &Option<u64>| v.map_or("?".into(), |v| v.to_string());
                format!("{} states, {} transitions: {}", n(s), n(t), who.join(", "))
            })
            .collect();
        disagreements.push(format!(
            "{suite}/{instance}: engines disagree: {}",
            counts.join("; ")
        ));
    }
    if per_formalism.is_empty() {
        return (None, disagreements);
    }
    let rows = per_formalism
        .into_iter()
        .map(|(formalism, (compared, agree, bad))| {
            vec![
                Cell::text(formalism),
                Cell::count(compared),
                Cell::count(agree),
                Cell::text(if bad.is_empty() {
                    "-".to_string()
                } else {
                    bad.into_iter().collect::<Vec<_>>().join(", ")
                }),
            ]
        })
        .collect();
    let table = Table {
        title: "Counts across engines".into(),
        caption: "Instances finished by two or more engine configurations or thread counts \
                  (status ok), and on how many of them all found the same states and \
                  transitions."
            .into(),
        header: [
            "formalism",
            "finished by two or more",
            "all counts equal",
            "disagreeing instances",
        ]
        .map(String::from)
        .to_vec(),
        rows,
    };
    (Some(table), disagreements)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(instance: &str, engine: &str, threads: u32, states: u64, status: Status) -> Row {
        let mut r = Row::example();
        r.instance = instance.into();
        r.engine = engine.into();
        r.threads = threads;
        r.states = Some(states);
        r.status = status;
        r
    }

    #[test]
    fn instances_finished_twice_are_compared_and_disagreements_named() {
        let rows = vec![
            row("a", "hash-table", 1, 5, Status::Ok),
            row("a", "bdd", 1, 5, Status::Ok),
            row("b", "hash-table", 1, 5, Status::Ok),
            row("b", "hash-table", 2, 6, Status::Ok),
            row("b", "tree", 1, 9, Status::Timeout),
            // Finished once only (twice by one configuration): not compared.
            row("c", "hash-table", 1, 5, Status::Ok),
            row("c", "tree", 1, 7, Status::Timeout),
        ];
        let (table, bad) = check(&rows);
        let cells: Vec<&str> = table.as_ref().unwrap().rows[0]
            .iter()
            .map(|c| c.text.as_str())
            .collect();
        assert_eq!(cells, ["pnml", "2", "1", "b"]);
        assert_eq!(bad.len(), 1);
        assert!(
            bad[0].contains("5 states, 1 transitions: hash-table;")
                && bad[0].contains("6 states, 1 transitions: hash-table (2 threads)"),
            "{}",
            bad[0]
        );
        assert_eq!(check(&rows[5..]), (None, vec![]));
    }
}
