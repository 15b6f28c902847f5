//! Helpers shared by the integration tests: where the MCC corpus and its
//! oracle live (`../shared/datasets/mcc/` next to the workspace root).
//! Tests only; never writes anywhere.

#![allow(dead_code)]

use std::collections::HashMap;
use std::path::PathBuf;

/// `<workspace>/../shared/datasets/mcc`, or `None` when absent
/// (see [`missing`]: a failure under CI).
pub fn mcc_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/datasets/mcc");
    if dir.join("pnml").is_dir() {
        Some(dir)
    } else {
        missing(&format!("MCC corpus not found at {}", dir.display()));
        None
    }
}

pub use frontend_testkit::missing;

/// Oracle state-space sizes from `oracle.csv`: model -> (states, transitions).
pub fn oracle(dir: &std::path::Path) -> HashMap<String, (u64, u64)> {
    let text = std::fs::read_to_string(dir.join("oracle.csv")).expect("read oracle.csv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| h.trim() == name)
            .unwrap_or_else(|| panic!("oracle.csv has no column {name}"))
    };
    let (m, s, t) = (col("model"), col("states"), col("transitions"));
    let mut out = HashMap::new();
    for line in lines.filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split(',').collect();
        let parse = |i: usize| f[i].trim().parse::<u64>();
        if let (Ok(states), Ok(transitions)) = (parse(s), parse(t)) {
            out.insert(f[m].trim().to_owned(), (states, transitions));
        }
    }
    out
}
