//! Helpers shared by the integration tests: where ProB's examples and
//! their oracle live (`../shared/datasets/b/` next to the workspace root),
//! the oracle rows, and a naive breadth-first search over `next_all`.
//! Tests only; never writes anywhere.

#![allow(dead_code)]

use std::collections::{HashMap, HashSet, VecDeque};
use std::path::PathBuf;
use std::time::Instant;

use pins::Model;

/// `<workspace>/../shared/datasets/b`, whether or not it exists.
pub fn b_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/datasets/b")
}

/// One row of `oracle.csv`.
#[derive(Clone, Debug)]
pub struct Row {
    pub instance: String,
    pub formalism: String,
    /// Relative to the datasets root (`b/prob-examples/...`).
    pub path: String,
    pub states: Option<u64>,
    pub transitions: Option<u64>,
    pub complete: bool,
    pub prob_result: String,
}

/// `oracle.csv`, by instance.
pub fn oracle(dir: &std::path::Path) -> HashMap<String, Row> {
    let text = std::fs::read_to_string(dir.join("oracle.csv")).expect("read oracle.csv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| h.trim() == name)
            .unwrap_or_else(|| panic!("oracle.csv has no column {name}"))
    };
    let (i, f, p, s, t, c, r) = (
        col("instance"),
        col("formalism"),
        col("path"),
        col("oracle_states"),
        col("oracle_transitions"),
        col("complete"),
        col("prob_result"),
    );
    let mut out = HashMap::new();
    for line in lines.filter(|l| !l.trim().is_empty()) {
        let v: Vec<&str> = line.split(',').collect();
        out.insert(
            v[i].to_owned(),
            Row {
                instance: v[i].to_owned(),
                formalism: v[f].to_owned(),
                path: v[p].to_owned(),
                states: v[s].trim().parse().ok(),
                transitions: v[t].trim().parse().ok(),
                complete: v[c].trim() == "yes",
                prob_result: v[r].trim().to_owned(),
            },
        );
    }
    out
}

/// `validation.csv`: the instance names, in file order.
pub fn validation(dir: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("validation.csv")).expect("read validation.csv");
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split(',').next().expect("instance").to_owned())
        .collect()
}

/// How a naive BFS ended.
pub enum Outcome {
    Done(u64, u64),
    Limit,
    Error(pins::ModelError),
}

/// Naive BFS with a `HashSet<Vec<u32>>`: (states, transitions); gives up
/// beyond `limit` states or after `deadline`.
pub fn bfs(m: &dyn Model, limit: usize, deadline: Option<Instant>) -> Outcome {
    let init = m.initial_state();
    let mut seen: HashSet<Vec<u32>> = HashSet::new();
    let mut queue = VecDeque::new();
    seen.insert(init.clone());
    queue.push_back(init);
    let mut edges = 0u64;
    let mut succ: Vec<Vec<u32>> = Vec::new();
    while let Some(s) = queue.pop_front() {
        if deadline.is_some_and(|d| Instant::now() > d) {
            return Outcome::Limit;
        }
        succ.clear();
        if let Err(e) = m.next_all(&s, &mut |_, t| succ.push(t.to_vec())) {
            return Outcome::Error(e);
        }
        edges += succ.len() as u64;
        for t in succ.drain(..) {
            if !seen.contains(&t) {
                seen.insert(t.clone());
                queue.push_back(t);
                if seen.len() > limit {
                    return Outcome::Limit;
                }
            }
        }
    }
    Outcome::Done(seen.len() as u64, edges)
}
