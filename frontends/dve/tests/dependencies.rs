//! Checks the dependency matrix of BEEM models against the successor
//! function: for sampled reachable states and every group, changing a slot
//! outside the group's read set (to another value within the slot's bits)
//! must not change whether the group fires, nor the values of its write-set
//! slots in the successor; and every slot outside the write set must keep
//! its value in every successor, except when the successor is DiVinE's
//! error state (a documented reset of the whole vector).
//!
//! Tests only; reads the shared corpus, never writes it.

mod common;

use pins::Model;

/// A spread of models: rendezvous with values, arrays with computed
/// indices, `P.s` tests, int variables, DiVinE error states (anderson).
/// Every one must be in the shared corpus (part of BEEM is held back
/// there: bopdp and pgm_protocol are absent).
const MODELS: &[&str] = &[
    "adding.1",
    "anderson.1",
    "at.1",
    "bakery.1",
    "bridge.1",
    "brp.1",
    "collision.1",
    "driving_phils.1",
    "elevator.1",
    "firewire_link.1",
    "lamport.1",
    "leader_election.1",
    "lup.1",
    "peterson.1",
    "cambridge.1",
    "production_cell.1",
    "rether.1",
    "szymanski.1",
];

fn successors(m: &dyn Model, s: &[u32], g: usize) -> Vec<Vec<u32>> {
    let mut out = Vec::new();
    m.next(s, g, &mut |t| out.push(t.to_vec()))
        .expect("no model error expected");
    out
}

#[test]
fn read_and_write_sets_are_sound() {
    let Some(dir) = common::beem_dir() else {
        return;
    };
    let mut checks = 0u64;
    for name in MODELS {
        let path = dir.join("dve").join(format!("{name}.dve"));
        if !path.exists() {
            frontend_testkit::missing(&format!("{name} not in the corpus at {}", path.display()));
            continue;
        }
        let m = dve::parse_file(&path).unwrap_or_else(|e| panic!("{e}"));
        let k = m.slot_count();
        let samples = common::sample_states(&m, 20_000, 40);
        for s in &samples {
            for (g, group) in m.groups().iter().enumerate() {
                let base = successors(&m, s, g);
                for t in base.iter().filter(|t| !m.is_error_state(t)) {
                    for i in 0..k {
                        if group.write.binary_search(&i).is_err() {
                            assert_eq!(
                                t[i],
                                s[i],
                                "{name}: group {} changed slot {} outside its write set",
                                group.label,
                                m.slots()[i].name
                            );
                        }
                    }
                }
                for i in 0..k {
                    if group.read.binary_search(&i).is_ok() {
                        continue;
                    }
                    let bits = m.slots()[i].bits.min(16);
                    let mask = (1u32 << bits) - 1;
                    for delta in [1u32, 2, 0x55] {
                        let mut s2 = s.clone();
                        s2[i] = (s[i] ^ delta) & mask;
                        if s2[i] == s[i] {
                            continue;
                        }
                        let other = successors(&m, &s2, g);
                        checks += 1;
                        assert_eq!(
                            base.len(),
                            other.len(),
                            "{name}: group {} enabledness depends on unread slot {}",
                            group.label,
                            m.slots()[i].name
                        );
                        for (a, b) in base.iter().zip(&other) {
                            for &w in &group.write {
                                assert_eq!(
                                    a[w],
                                    b[w],
                                    "{name}: group {}: written slot {} depends on unread slot {}",
                                    group.label,
                                    m.slots()[w].name,
                                    m.slots()[i].name
                                );
                            }
                        }
                    }
                }
            }
        }
    }
    eprintln!("{checks} perturbation checks");
}
