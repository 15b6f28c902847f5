//! The compiled statements (`code`) against the interpreter, on every
//! reachable state of small BEEM Promela models of each family: for every
//! transition a process could take that has a compiled form, both must
//! answer alike (executable or not, or the same error) and leave the same
//! state. A model the corpus lacks fails the test under CI.

use super::guard_tests::{for_each_offered, small_models};
use super::PromelaModel;
use crate::code::Code;
use pins::Model;

/// How many (state, transition) pairs were compared; panics at the first
/// one where the compiled form and the interpreter differ.
fn compared_pairs(m: &PromelaModel) -> u64 {
    let mut compared = 0;
    for_each_offered(m, |s, pid, k| {
        let t = m.ptype_of(s, pid).unwrap_or(0);
        let tr = &m.ptypes[t].auto.trans[k];
        if matches!(tr.code, Code::Interpreted) {
            return;
        }
        compared += 1;
        let (mut compiled, mut interpreted) = (s.to_vec(), s.to_vec());
        let by_code = m.run_tr(&mut compiled, pid, tr).map_err(|e| e.to_string());
        let by_tree = (m.exec(&mut interpreted, pid, &tr.act, tr.pos)).map_err(|e| e.to_string());
        let at = format!("{}: transition {k} of process {pid} in {s:?}", m.name());
        assert_eq!(by_code, by_tree, "{at}");
        if by_code == Ok(true) {
            assert_eq!(compiled, interpreted, "{at}");
        }
    });
    compared
}

#[test]
fn compiled_statements_do_what_the_interpreter_does() {
    let Some(files) = small_models() else {
        return;
    };
    for f in &files {
        let m = crate::parse_file(f).expect("parses");
        assert!(compared_pairs(&m) > 0, "{}: nothing compiled", m.name());
    }
}
