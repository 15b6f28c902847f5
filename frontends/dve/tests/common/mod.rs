//! Helpers shared by the integration tests: where the BEEM corpus and its
//! oracle live (`../shared/datasets/beem/` next to the workspace root), and
//! states sampled over a breadth-first search.
//! Tests only; never writes anywhere.

#![allow(dead_code)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use frontend_testkit::bfs::Frontier;
use frontend_testkit::corpus;
use pins::Model;

/// `<workspace>/../shared/datasets/beem`, or `None` when absent
/// (see [`frontend_testkit::missing`]: a failure under CI).
pub fn beem_dir() -> Option<PathBuf> {
    corpus::dataset("beem", "BEEM corpus", &["dve"])
}

/// Every `.dve` file of the corpus, sorted.
pub fn dve_files(dir: &Path) -> Vec<PathBuf> {
    corpus::files_with_extension(&dir.join("dve"), "dve")
}

/// One row of `oracle.csv`.
pub struct Oracle {
    pub states: u64,
    /// Transition count, where BEEM published it.
    pub edges: Option<u64>,
    pub complete: bool,
}

/// `oracle.csv`: instance -> (states, complete), rows with a state count.
pub fn oracle(dir: &Path) -> HashMap<String, Oracle> {
    let columns = ["instance", "states", "edges", "complete"];
    corpus::csv_columns(&dir.join("oracle.csv"), &columns)
        .into_iter()
        .filter_map(|f| {
            let states = f[1].parse::<u64>().ok()?;
            let row = Oracle {
                states,
                edges: f[2].parse::<u64>().ok(),
                complete: f[3] == "yes",
            };
            Some((f[0].clone(), row))
        })
        .collect()
}

/// Up to `n` reachable states, spread over a BFS (every k-th state).
pub fn sample_states(m: &dyn Model, budget: usize, n: usize) -> Vec<Vec<u32>> {
    let mut frontier = Frontier::of(m);
    let mut order = Vec::new();
    while let Some(s) = frontier.pop() {
        order.push(s.clone());
        if order.len() >= budget {
            break;
        }
        let mut succ = Vec::new();
        if m.next_all(&s, &mut |_, t| succ.push(t.to_vec())).is_err() {
            break;
        }
        for t in succ {
            frontier.offer(&t);
        }
    }
    let step = (order.len() / n.max(1)).max(1);
    order.into_iter().step_by(step).take(n).collect()
}
