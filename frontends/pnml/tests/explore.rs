//! Explores small MCC nets completely, twice: with a naive breadth-first
//! search written here from the public pre-/post-sets (the firing rule
//! re-implemented independently of `PetriNet`'s successor function) and with
//! `Model::next_all`; both must reach the contest's oracle counts of states
//! (reachable markings) and transitions (firings) from `oracle.csv`. On the
//! smaller nets, `next_all` is also compared with `next` per group, state by
//! state.
//!
//! Tests only; reads the shared corpus, never writes it.

mod common;

use frontend_testkit::bfs::Frontier;
use pins::Model;
use pnml::PetriNet;

/// Nets with fewer than 50 000 states, covering arc weights > 1
/// (BridgeAndVehicles, DNAwalker, DrinkVendingMachine, GPPP, PhaseVariation)
/// and markings > 1 token.
const NETS: &[&str] = &[
    "Angiogenesis-PT-01",
    "ERK-PT-000001",
    "ResAllocation-PT-R002C002",
    "ResAllocation-PT-R003C003",
    "DatabaseWithMutex-PT-02",
    "Philosophers-PT-000005",
    "TokenRing-PT-005",
    "CircularTrains-PT-012",
    "Sudoku-PT-AN02",
    "BridgeAndVehicles-PT-V04P05N02",
    "DNAwalker-PT-01track12Block1",
    "DrinkVendingMachine-PT-02",
    "GPPP-PT-C0001N0000000001",
    "PhaseVariation-PT-D02CS010",
    "Dekker-PT-010",
    "LamportFastMutEx-PT-3",
];

/// Naive BFS straight from the net structure: (states, firings).
fn naive_bfs(net: &PetriNet) -> (u64, u64) {
    let mut seen = Frontier::new(net.initial_marking());
    let mut firings = 0u64;
    while let Some(m) = seen.pop() {
        for t in net.transitions() {
            if t.pre.iter().all(|&(p, w)| m[p] >= w) {
                let mut next: Vec<i64> = m.iter().map(|&x| i64::from(x)).collect();
                for &(p, w) in &t.pre {
                    next[p] -= i64::from(w);
                }
                for &(p, w) in &t.post {
                    next[p] += i64::from(w);
                }
                let next: Vec<u32> = next
                    .into_iter()
                    .map(|x| u32::try_from(x).expect("token count out of u32"))
                    .collect();
                firings += 1;
                seen.offer(&next);
            }
        }
    }
    (seen.states() as u64, firings)
}

/// BFS through `Model::next_all`; with `check_next`, also compares every
/// state's successors with `Model::next` per group.
fn model_bfs(net: &PetriNet, check_next: bool) -> (u64, u64) {
    let mut seen = Frontier::of(net);
    let mut firings = 0u64;
    let mut succ: Vec<(usize, Vec<u32>)> = Vec::new();
    while let Some(m) = seen.pop() {
        succ.clear();
        net.next_all(&m, &mut |g, s| succ.push((g, s.to_vec())))
            .expect("next_all");
        if check_next {
            let mut per_group = Vec::new();
            for g in 0..net.groups().len() {
                net.next(&m, g, &mut |s| per_group.push((g, s.to_vec())))
                    .expect("next");
            }
            assert_eq!(succ, per_group, "next_all differs from next at {m:?}");
        }
        for (_, s) in succ.drain(..) {
            firings += 1;
            seen.offer(&s);
        }
    }
    (seen.states() as u64, firings)
}

#[test]
fn small_mcc_nets_match_the_oracle() {
    let Some(dir) = common::mcc_dir() else { return };
    let oracle = common::oracle(&dir);
    for name in NETS {
        let &(states, transitions) = oracle
            .get(*name)
            .unwrap_or_else(|| panic!("{name} not in oracle.csv"));
        assert!(states < 50_000, "{name} is too big for this test");
        let net = pnml::parse_file(&dir.join("pnml").join(format!("{name}.pnml")))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            naive_bfs(&net),
            (states, transitions),
            "{name}: naive BFS vs oracle"
        );
        assert_eq!(
            model_bfs(&net, states < 3_000),
            (states, transitions),
            "{name}: Model::next_all BFS vs oracle"
        );
        eprintln!("{name}: {states} states, {transitions} transitions (oracle) reproduced");
    }
}
