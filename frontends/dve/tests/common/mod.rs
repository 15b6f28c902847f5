//! Helpers shared by the integration tests: where the BEEM corpus and its
//! oracle live (`../shared/datasets/beem/` next to the workspace root), and a
//! naive breadth-first search over `next_all`.
//! Tests only; never writes anywhere.

#![allow(dead_code)]

use std::collections::{HashMap, HashSet, VecDeque};
use std::path::PathBuf;

use pins::Model;

/// `<workspace>/../shared/datasets/beem`, or `None` when absent
/// (see [`missing`]: a failure under CI).
pub fn beem_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/datasets/beem");
    if dir.join("dve").is_dir() {
        Some(dir)
    } else {
        missing(&format!("BEEM corpus not found at {}", dir.display()));
        None
    }
}

pub use frontend_testkit::missing;

/// Every `.dve` file of the corpus, sorted.
pub fn dve_files(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(dir.join("dve"))
        .expect("list corpus")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "dve"))
        .collect();
    files.sort();
    files
}

/// One row of `oracle.csv`.
pub struct Oracle {
    pub states: u64,
    /// Transition count, where BEEM published it.
    pub edges: Option<u64>,
    pub complete: bool,
}

/// `oracle.csv`: instance -> (states, complete).
pub fn oracle(dir: &std::path::Path) -> HashMap<String, Oracle> {
    let text = std::fs::read_to_string(dir.join("oracle.csv")).expect("read oracle.csv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| h.trim() == name)
            .unwrap_or_else(|| panic!("oracle.csv has no column {name}"))
    };
    let (i, s, e, c) = (
        col("instance"),
        col("states"),
        col("edges"),
        col("complete"),
    );
    let mut out = HashMap::new();
    for line in lines.filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split(',').collect();
        if let Ok(states) = f[s].trim().parse::<u64>() {
            out.insert(
                f[i].trim().to_owned(),
                Oracle {
                    states,
                    edges: f[e].trim().parse::<u64>().ok(),
                    complete: f[c].trim() == "yes",
                },
            );
        }
    }
    out
}

/// Naive BFS with a `HashSet<Vec<u32>>`: (states, transitions), or the
/// model error; gives up (returning `None`) beyond `limit` states.
pub fn bfs(m: &dyn Model, limit: usize) -> Result<Option<(u64, u64)>, pins::ModelError> {
    let init = m.initial_state();
    let mut seen: HashSet<Vec<u32>> = HashSet::new();
    let mut queue = VecDeque::new();
    seen.insert(init.clone());
    queue.push_back(init);
    let mut edges = 0u64;
    let mut succ: Vec<Vec<u32>> = Vec::new();
    while let Some(s) = queue.pop_front() {
        succ.clear();
        m.next_all(&s, &mut |_, t| succ.push(t.to_vec()))?;
        edges += succ.len() as u64;
        for t in succ.drain(..) {
            if !seen.contains(&t) {
                seen.insert(t.clone());
                queue.push_back(t);
                if seen.len() > limit {
                    return Ok(None);
                }
            }
        }
    }
    Ok(Some((seen.len() as u64, edges)))
}

/// Up to `n` reachable states, spread over a BFS (every k-th state).
pub fn sample_states(m: &dyn Model, budget: usize, n: usize) -> Vec<Vec<u32>> {
    let init = m.initial_state();
    let mut seen: HashSet<Vec<u32>> = HashSet::new();
    let mut queue = VecDeque::new();
    let mut order = Vec::new();
    seen.insert(init.clone());
    queue.push_back(init);
    while let Some(s) = queue.pop_front() {
        order.push(s.clone());
        if order.len() >= budget {
            break;
        }
        let mut succ = Vec::new();
        if m.next_all(&s, &mut |_, t| succ.push(t.to_vec())).is_err() {
            break;
        }
        for t in succ {
            if seen.insert(t.clone()) {
                queue.push_back(t);
            }
        }
    }
    let step = (order.len() / n.max(1)).max(1);
    order.into_iter().step_by(step).take(n).collect()
}
