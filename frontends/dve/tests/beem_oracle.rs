//! Explores every BEEM instance whose complete state space has at most
//! `MAX_STATES` states (per `oracle.csv`, rows with complete=yes) with a
//! naive breadth-first search (a `HashSet<Vec<u32>>` over `next_all`) and
//! compares the number of reachable states with BEEM's count (computed by
//! DiVinE). Every mismatch, model error and parse failure is a defect.
//!
//! Tests only; reads the shared corpus, never writes it.

mod common;

use frontend_testkit::bfs::{bfs, Bfs};

use std::time::Instant;

/// Oracle bound for the instances explored here (keeps the test well under
/// a minute in release mode); `DVE_ORACLE_MAX_STATES` overrides it.
const MAX_STATES: u64 = 200_000;

#[test]
fn small_beem_instances_match_the_oracle() {
    let Some(dir) = common::beem_dir() else {
        return;
    };
    let oracle = common::oracle(&dir);
    let max_states = std::env::var("DVE_ORACLE_MAX_STATES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(MAX_STATES);
    let mut names: Vec<_> = oracle
        .iter()
        .filter(|(_, o)| o.complete && o.states <= max_states)
        .map(|(n, o)| (n.clone(), o.states, o.edges))
        .collect();
    names.sort();
    let start = Instant::now();
    let (mut matched, mut total_states, mut total_edges) = (0usize, 0u64, 0u64);
    let mut problems = Vec::new();
    let mut edges_checked = 0usize;
    for (name, expected, expected_edges) in &names {
        let path = dir.join("dve").join(format!("{name}.dve"));
        if !path.exists() {
            problems.push(format!("{name}: file missing"));
            continue;
        }
        let m = match dve::parse_file(&path) {
            Ok(m) => m,
            Err(e) => {
                problems.push(format!("{name}: {e}"));
                continue;
            }
        };
        match bfs(&m, (*expected as usize) * 2 + 10, None) {
            Bfs::Done(states, edges) if states == *expected => {
                matched += 1;
                if let Some(oe) = expected_edges {
                    edges_checked += 1;
                    if edges != *oe {
                        problems.push(format!("{name}: {edges} transitions, oracle {oe}"));
                    }
                }
                total_states += states;
                total_edges += edges;
            }
            Bfs::Done(states, _) => {
                problems.push(format!("{name}: {states} states, oracle {expected}"))
            }
            Bfs::GaveUp(_) => {
                problems.push(format!("{name}: more than twice the oracle's {expected}"))
            }
            Bfs::Error(e) => problems.push(format!("{name}: model error {e}")),
        }
    }
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "{matched} of {} instances with <= {max_states} states match the oracle \
         (transition counts checked on {edges_checked}); \
         {total_states} states, {total_edges} transitions in {secs:.1} s \
         ({:.0} states/s, naive BFS)",
        names.len(),
        total_states as f64 / secs.max(1e-9)
    );
    for p in &problems {
        eprintln!("MISMATCH {p}");
    }
    assert!(!names.is_empty());
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
