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
