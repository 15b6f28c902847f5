//! Counts across engines: every configuration and thread count that
//! finished an instance must find the same states and transitions (DESIGN:
//! correctness before speed). Per formalism, how many instances two or
//! more configurations finished and on how many of those they all agree,
//! and one line per disagreeing instance. Transitions are compared only
//! between counts of one definition: a SPIN peer's count (steps executed,
//! `peers::transitions_definition`) only with other SPIN peers', its states
//! with everyone's. Reads rows only; on the rows of
//! several campaigns joined by `statebench merge` it checks engines run in
//! different campaigns against each other.

use super::tables::{Cell, Table};
use crate::schema::{Row, Status};
use std::collections::{BTreeMap, BTreeSet};

/// The table (none when no instance was finished twice) and the
/// disagreements, one line each.
pub fn check(rows: &[Row]) -> (Option<Table>, Vec<String>) {
    // (formalism, suite, instance) -> (states, transitions, what the
    // transitions count: None for statebench's definition) -> who found them.
    type Found = BTreeMap<(Option<u64>, Option<u64>, Option<&'static str>), Vec<String>>;
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
            .entry((
                r.states,
                r.transitions,
                crate::peers::transitions_definition(&r.engine),
            ))
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
        let states: BTreeSet<_> = found.keys().map(|(s, _, _)| s).collect();
        let mut transitions: BTreeMap<_, BTreeSet<_>> = BTreeMap::new();
        for (_, t, definition) in found.keys() {
            transitions.entry(definition).or_default().insert(t);
        }
        if states.len() == 1 && transitions.values().all(|t| t.len() == 1) {
            line.1 += 1;
            continue;
        }
        line.2.insert(instance.clone());
        let counts: Vec<String> = found
            .iter()
            .map(|((s, t, definition), who)| {
                let n = |v: &Option<u64>| v.map_or("?".into(), |v| v.to_string());
                let what = definition.map_or(String::new(), |d| format!(" ({d})"));
                format!(
                    "{} states, {} transitions{what}: {}",
                    n(s),
                    n(t),
                    who.join(", ")
                )
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
                  transitions. SPIN's transitions count steps executed (states stored + \
                  matched), not statebench's (state, enabled transition) pairs: they are \
                  compared with SPIN's only."
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

    #[test]
    fn spin_transitions_are_compared_with_spin_s_only() {
        let mut spin = row("a", "spin", 1, 5, Status::Ok);
        spin.transitions = Some(7);
        let rows = vec![row("a", "hash-table", 1, 5, Status::Ok), spin.clone()];
        let (table, bad) = check(&rows);
        assert!(bad.is_empty(), "{bad:?}");
        assert_eq!(table.unwrap().rows[0][2].text, "1");
        // Their states are compared.
        let mut fewer = spin.clone();
        fewer.states = Some(4);
        let (_, bad) = check(&[rows[0].clone(), fewer]);
        assert_eq!(bad.len(), 1, "{bad:?}");
        assert!(
            bad[0].contains("7 transitions (SPIN's: steps executed): spin"),
            "{}",
            bad[0]
        );
        // And their transitions with another SPIN peer's.
        let mut collapse = spin.clone();
        collapse.engine = "spin-collapse".into();
        collapse.transitions = Some(8);
        let (_, bad) = check(&[rows[0].clone(), spin, collapse]);
        assert_eq!(bad.len(), 1, "{bad:?}");
    }
}
