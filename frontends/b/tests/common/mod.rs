//! Helpers shared by the integration tests: where ProB's examples and
//! their oracle live (`../shared/datasets/b/` next to the workspace root)
//! and the oracle rows. Tests only; never writes anywhere.

#![allow(dead_code)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use frontend_testkit::corpus;

/// `<workspace>/../shared/datasets/b` with its `validation.csv` and
/// `oracle.csv`, or `None` when missing ([`frontend_testkit::missing`]: a
/// failure under CI).
pub fn b_dir() -> Option<PathBuf> {
    corpus::dataset("b", "B dataset", &["validation.csv", "oracle.csv"])
}

/// `oracle.csv`, by instance.
pub fn oracle(dir: &Path) -> HashMap<String, Row> {
    let columns = [
        "instance",
        "formalism",
        "path",
        "oracle_states",
        "oracle_transitions",
    ];
    corpus::csv_columns(&dir.join("oracle.csv"), &columns)
        .into_iter()
        .map(|v| {
            let row = Row {
                formalism: v[1].clone(),
                path: v[2].clone(),
                states: v[3].parse().ok(),
                transitions: v[4].parse().ok(),
            };
            (v[0].clone(), row)
        })
        .collect()
}

/// `validation.csv`: the instance names, in file order.
pub fn validation(dir: &Path) -> Vec<String> {
    corpus::csv_columns(&dir.join("validation.csv"), &["instance"])
        .into_iter()
        .map(|mut v| v.remove(0))
        .collect()
}

/// What the tests use of a row of `oracle.csv`.
pub struct Row {
    pub formalism: String,
    /// Relative to the datasets root (`b/prob-examples/...`).
    pub path: String,
    pub states: Option<u64>,
    pub transitions: Option<u64>,
}

/// The models of `models` (instances of `oracle.csv`, of `formalism`
/// when given) whose counts, explored with a naive BFS of at most
/// `limit` states, are not ProB's plus the root state: one line each.
pub fn oracle_mismatches(
    dir: &Path,
    models: &[&str],
    formalism: Option<&str>,
    limit: usize,
) -> Vec<String> {
    use frontend_testkit::bfs::{bfs, Bfs};
    let rows = oracle(dir);
    let mut failures = Vec::new();
    for inst in models {
        let row = rows
            .get(*inst)
            .unwrap_or_else(|| panic!("{inst} not in oracle.csv"));
        if let Some(f) = formalism {
            assert_eq!(row.formalism, f, "{inst}");
        }
        let (s, t) = (
            row.states.expect("oracle states"),
            row.transitions.expect("oracle transitions"),
        );
        let path = dir.parent().expect("datasets root").join(&row.path);
        let m = match bmethod::parse_file(&path) {
            Ok(m) => m,
            Err(e) => {
                failures.push(format!("{inst}: {e}"));
                continue;
            }
        };
        match bfs(&m, limit, None) {
            Bfs::Done(gs, gt) if gs == s + 1 && gt == t => {}
            Bfs::Done(gs, gt) => failures.push(format!(
                "{inst}: {gs} states / {gt} transitions, oracle {s}+1 / {t}"
            )),
            Bfs::Error(e) => failures.push(format!("{inst}: {e}")),
            Bfs::GaveUp(why) => failures.push(format!("{inst}: gave up: {why}")),
        }
    }
    failures
}

/// Fails listing the [`oracle_mismatches`] of `models`, `what` naming them
/// (nothing checked when the dataset is missing, see [`b_dir`]).
pub fn assert_oracle_matches(models: &[&str], formalism: Option<&str>, limit: usize, what: &str) {
    let Some(dir) = b_dir() else {
        return;
    };
    let failures = oracle_mismatches(&dir, models, formalism, limit);
    assert!(
        failures.is_empty(),
        "{what} failures:\n{}",
        failures.join("\n")
    );
}
