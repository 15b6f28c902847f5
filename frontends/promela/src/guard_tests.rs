//! The compiled guards (`guard`) against the interpreter, on every
//! reachable state of small BEEM Promela models of each family: wherever a
//! guard blocks a transition, the interpreter must find it not executable
//! (and meet no error). A model the corpus lacks fails the test under CI.

use super::PromelaModel;
use frontend_testkit::bfs::Frontier;
use frontend_testkit::corpus;
use pins::Model;

const MODELS: [&str; 12] = [
    "at.1",
    "blocks.2",
    "brp.2",
    "frogs.2",
    "hanoi.1",
    "lamport.1",
    "leader_filters.2",
    "peterson.1",
    "reader_writer.2",
    "rether.2",
    "sorter.1",
    "telephony.2",
];

/// How many (state, transition) pairs a guard blocked; panics at the first
/// one the interpreter would have executed.
fn blocked_pairs(m: &PromelaModel) -> u64 {
    let mut seen = Frontier::of(m);
    let mut blocked = 0;
    while let Some(s) = seen.pop() {
        for pid in 0..m.proc_base.len() {
            let Some(t) = m.ptype_of(&s, pid) else {
                break;
            };
            let auto = &m.ptypes[t].auto;
            for &k in &auto.locs[s[m.proc_base[pid] + 1] as usize] {
                if !m.guards[t][k].blocks(&s, m.proc_base[pid] + 2) {
                    continue;
                }
                blocked += 1;
                let fires = m.executable(&s, pid, k, &auto.trans[k]);
                assert!(
                    matches!(fires, Ok(false)),
                    "{}: the guard of transition {k} of process {pid} blocks it in \
                     {s:?}, the interpreter says {fires:?}",
                    m.name()
                );
            }
        }
        m.next_all(&s, &mut |_, t| {
            seen.offer(t);
        })
        .expect("model error");
    }
    blocked
}

#[test]
fn guards_block_only_what_the_interpreter_blocks() {
    let needs: Vec<String> = MODELS.iter().map(|m| format!("{m}.pm")).collect();
    let needs: Vec<&str> = needs.iter().map(String::as_str).collect();
    let Some(dir) = corpus::dataset("beem/promela", "BEEM Promela models", &needs) else {
        return;
    };
    let mut blocking = 0;
    for name in MODELS {
        let m = crate::parse_file(&dir.join(format!("{name}.pm"))).expect("parses");
        blocking += usize::from(blocked_pairs(&m) > 0);
    }
    // most families begin their steps with simple guards (hanoi's index
    // arrays by variables): guards that never block would make this test
    // pass without checking anything
    assert!(
        blocking >= MODELS.len() / 2,
        "guards blocked in {blocking} models"
    );
}
