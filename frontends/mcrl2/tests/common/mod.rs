//! Helpers shared by the integration tests: where the mCRL2 corpus and its
//! oracle live (`../shared/datasets/mcrl2/` next to the workspace root),
//! and a search counting distinct (label, target) pairs.
//! Tests only; never writes outside `target/`.

#![allow(dead_code)]

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use frontend_testkit::bfs::Frontier;
use frontend_testkit::corpus;
use pins::Model;

/// `<workspace>/../shared/datasets/mcrl2`, or `None` when missing
/// ([`frontend_testkit::missing`]: a failure under CI).
pub fn corpus_dir() -> Option<PathBuf> {
    corpus::dataset("mcrl2", "mCRL2 corpus", &["oracle.csv", "lps"])
}

/// One row of `oracle.csv`.
#[derive(Clone, Debug)]
pub struct Oracle {
    pub instance: String,
    /// Path relative to the datasets root (`mcrl2/lps/x.mcrl2`).
    pub path: String,
    pub states: Option<u64>,
    pub transitions: Option<u64>,
    pub complete: bool,
}

/// Every row of `oracle.csv`, in file order.
pub fn oracle(dir: &Path) -> Vec<Oracle> {
    let columns = [
        "instance",
        "path",
        "oracle_states",
        "oracle_transitions",
        "complete",
    ];
    corpus::csv_columns(&dir.join("oracle.csv"), &columns)
        .into_iter()
        .map(|f| Oracle {
            instance: f[0].clone(),
            path: f[1].clone(),
            states: f[2].parse().ok(),
            transitions: f[3].parse().ok(),
            complete: f[4] == "yes",
        })
        .collect()
}

/// Counts per source the distinct (label, target) pairs over all summands
/// (the alternative convention), for diagnosis.
pub fn bfs_distinct(m: &mcrl2::Mcrl2Model, limit: usize) -> Option<(u64, u64)> {
    let mut seen = Frontier::of(m);
    let mut edges = 0u64;
    while let Some(s) = seen.pop() {
        let mut out: HashSet<(String, Vec<u32>)> = HashSet::new();
        for g in 0..m.groups().len() {
            m.successors(&s, g, &mut |l, t| {
                out.insert((m.show_label(l), t.to_vec()));
            })
            .ok()?;
        }
        edges += out.len() as u64;
        for (_, t) in out {
            if seen.offer(&t) && seen.states() > limit {
                return None;
            }
        }
    }
    Some((seen.states() as u64, edges))
}

/// Rows indexed by instance.
pub fn by_instance(rows: &[Oracle]) -> HashMap<String, Oracle> {
    rows.iter()
        .map(|r| (r.instance.clone(), r.clone()))
        .collect()
}
