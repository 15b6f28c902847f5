//! Helpers shared by the integration tests: where the MCC corpus and its
//! oracle live (`../shared/datasets/mcc/` next to the workspace root).
//! Tests only; never writes anywhere.

#![allow(dead_code)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use frontend_testkit::corpus;

/// `<workspace>/../shared/datasets/mcc`, or `None` when absent
/// (see [`frontend_testkit::missing`]: a failure under CI).
pub fn mcc_dir() -> Option<PathBuf> {
    corpus::dataset("mcc", "MCC corpus", &["pnml"])
}

/// Oracle state-space sizes from `oracle.csv`: model -> (states, transitions).
pub fn oracle(dir: &Path) -> HashMap<String, (u64, u64)> {
    let columns = ["model", "states", "transitions"];
    corpus::csv_columns(&dir.join("oracle.csv"), &columns)
        .into_iter()
        .filter_map(|f| Some((f[0].clone(), (f[1].parse().ok()?, f[2].parse().ok()?))))
        .collect()
}
