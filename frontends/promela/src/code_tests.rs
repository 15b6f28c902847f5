//! The compiled statements (`code`) against the interpreter, on every
//! reachable state of small BEEM Promela models of each family: for every
//! transition a process could take that has a compiled form, both must
//! answer alike (executable or not, or the same error) and leave the same
//! state. A model the corpus lacks fails the test under CI.

use super::PromelaModel;
use crate::code::Code;
use frontend_testkit::bfs::for_each_state;
use frontend_testkit::corpus;
use pins::Model;

/// How many (state, transition) pairs were compared; panics at the first
/// one where the compiled form and the interpreter differ.
fn compared_pairs(m: &PromelaModel) -> u64 {
    let mut compared = 0;
    for_each_state(m, |s| {
        for pid in 0..m.proc_base.len() {
            let Some(t) = m.ptype_of(s, pid) else {
                break;
            };
            let auto = &m.ptypes[t].auto;
            for &k in &auto.locs[s[m.proc_base[pid] + 1] as usize] {
                let tr = &auto.trans[k];
                if matches!(tr.code, Code::Interpreted) {
                    continue;
                }
                compared += 1;
                let (mut compiled, mut interpreted) = (s.to_vec(), s.to_vec());
                let by_code = m.run_tr(&mut compiled, pid, tr).map_err(|e| e.to_string());
                let by_tree =
                    (m.exec(&mut interpreted, pid, &tr.act, tr.pos)).map_err(|e| e.to_string());
                assert_eq!(
                    by_code,
                    by_tree,
                    "{}: transition {k} of process {pid} in {s:?}",
                    m.name()
                );
                if by_code == Ok(true) {
                    assert_eq!(compiled, interpreted, "{}: transition {k}", m.name());
                }
            }
        }
    });
    compared
}

#[test]
fn compiled_statements_do_what_the_interpreter_does() {
    let Some(files) = corpus::instances(
        "beem/promela",
        "BEEM Promela models",
        &corpus::BEEM_SMALL,
        "pm",
    ) else {
        return;
    };
    for f in &files {
        let m = crate::parse_file(f).expect("parses");
        assert!(compared_pairs(&m) > 0, "{}: nothing compiled", m.name());
    }
}
