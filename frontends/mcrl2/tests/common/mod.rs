//! Helpers shared by the integration tests: where the mCRL2 corpus and its
//! oracle live (`../shared/datasets/mcrl2/` next to the workspace root),
//! and a naive breadth-first search over `next_all`.
//! Tests only; never writes outside `target/`.

#![allow(dead_code)]

use std::collections::{HashMap, HashSet, VecDeque};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use pins::Model;

/// `<workspace>/../shared/datasets/mcrl2`, or `None` when missing
/// ([`frontend_testkit::missing`]: a failure under CI).
pub fn corpus_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/datasets/mcrl2");
    if dir.join("oracle.csv").is_file() && dir.join("lps").is_dir() {
        return Some(dir);
    }
    frontend_testkit::missing(&format!(
        "mCRL2 corpus not found at {} (oracle.csv and lps/)",
        dir.display()
    ));
    None
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
pub fn oracle(dir: &std::path::Path) -> Vec<Oracle> {
    let text = std::fs::read_to_string(dir.join("oracle.csv")).expect("read oracle.csv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| h.trim() == name)
            .unwrap_or_else(|| panic!("oracle.csv has no column {name}"))
    };
    let (i, p, s, t, c) = (
        col("instance"),
        col("path"),
        col("oracle_states"),
        col("oracle_transitions"),
        col("complete"),
    );
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            Oracle {
                instance: f[i].trim().to_owned(),
                path: f[p].trim().to_owned(),
                states: f[s].trim().parse().ok(),
                transitions: f[t].trim().parse().ok(),
                complete: f[c].trim() == "yes",
            }
        })
        .collect()
}

/// The outcome of a naive BFS.
pub enum Bfs {
    Done {
        states: u64,
        transitions: u64,
    },
    /// More than the state limit, or out of time.
    GaveUp(String),
    Error(pins::ModelError),
}

/// Naive BFS with a `HashSet<Vec<u32>>`, counting every emitted successor.
pub fn bfs(m: &dyn Model, limit: usize, time: Duration) -> Bfs {
    let t0 = Instant::now();
    let init = m.initial_state();
    let mut seen: HashSet<Vec<u32>> = HashSet::new();
    let mut queue = VecDeque::new();
    seen.insert(init.clone());
    queue.push_back(init);
    let mut edges = 0u64;
    let mut succ: Vec<Vec<u32>> = Vec::new();
    while let Some(s) = queue.pop_front() {
        succ.clear();
        if let Err(e) = m.next_all(&s, &mut |_, t| succ.push(t.to_vec())) {
            return Bfs::Error(e);
        }
        edges += succ.len() as u64;
        for t in succ.drain(..) {
            if !seen.contains(&t) {
                seen.insert(t.clone());
                queue.push_back(t);
                if seen.len() > limit {
                    return Bfs::GaveUp(format!("more than {limit} states"));
                }
            }
        }
        if t0.elapsed() > time {
            return Bfs::GaveUp(format!("more than {time:?}"));
        }
    }
    Bfs::Done {
        states: seen.len() as u64,
        transitions: edges,
    }
}

/// Counts per source the distinct (label, target) pairs over all summands
/// (the alternative convention), for diagnosis.
pub fn bfs_distinct(m: &mcrl2::Mcrl2Model, limit: usize) -> Option<(u64, u64)> {
    let init = m.initial_state();
    let mut seen: HashSet<Vec<u32>> = HashSet::new();
    let mut queue = VecDeque::new();
    seen.insert(init.clone());
    queue.push_back(init);
    let mut edges = 0u64;
    while let Some(s) = queue.pop_front() {
        let mut out: HashSet<(String, Vec<u32>)> = HashSet::new();
        for g in 0..m.groups().len() {
            m.successors(&s, g, &mut |l, t| {
                out.insert((m.show_label(l), t.to_vec()));
            })
            .ok()?;
        }
        edges += out.len() as u64;
        for (_, t) in out {
            if seen.insert(t.clone()) {
                queue.push_back(t);
                if seen.len() > limit {
                    return None;
                }
            }
        }
    }
    Some((seen.len() as u64, edges))
}

/// Rows indexed by instance.
pub fn by_instance(rows: &[Oracle]) -> HashMap<String, Oracle> {
    rows.iter()
        .map(|r| (r.instance.clone(), r.clone()))
        .collect()
}
