//! The compiled guards and effects (`code`) against the interpreter
//! ([`Ex::eval`], [`LVal::store`]), on every reachable state of small BEEM
//! models of each family: for every transition, each guard must give the
//! same value, and the effects applied in order the same successor, with
//! the same error flagged. A model the corpus lacks fails the test under
//! CI.

use super::{Ctx, DveModel, Ex, LVal};
use frontend_testkit::bfs::for_each_state;
use frontend_testkit::corpus;
use pins::Model;

/// The first error's message in `ctx`.
fn error(ctx: &Ctx) -> Option<String> {
    ctx.err
        .as_ref()
        .map(|e| format!("{:?}: {}", e.pos, e.message))
}

/// Effects applied by the interpreter.
fn interpreted(effects: &[(LVal, Ex)], out: &mut [u32], ctx: &mut Ctx) {
    for (lv, e) in effects {
        let v = e.eval(out, ctx);
        lv.store(out, v, ctx);
    }
}

/// Compares every transition on `s`; returns how many were compared.
fn compare_on(m: &DveModel, s: &[u32]) -> u64 {
    for t in &m.trans {
        for (g, e) in t.code.guards.iter().zip(&t.guards) {
            let (mut a, mut b) = (Ctx::new(&m.slots), Ctx::new(&m.slots));
            assert_eq!(g(s, &mut a), e.eval(s, &mut b), "{}: {}", m.name(), t.label);
            assert_eq!(error(&a), error(&b), "{}: {}", m.name(), t.label);
        }
        let (mut a, mut b) = (Ctx::new(&m.slots), Ctx::new(&m.slots));
        let (mut by_code, mut by_tree) = (s.to_vec(), s.to_vec());
        for effect in t.code.effects.iter() {
            effect(&mut by_code, &mut a);
        }
        interpreted(&t.effects, &mut by_tree, &mut b);
        assert_eq!(by_code, by_tree, "{}: {} in {s:?}", m.name(), t.label);
        assert_eq!(error(&a), error(&b), "{}: {}", m.name(), t.label);
    }
    m.trans.len() as u64
}

#[test]
fn compiled_guards_and_effects_do_what_the_interpreter_does() {
    let Some(files) = corpus::instances("beem/dve", "BEEM DVE models", &corpus::BEEM_SMALL, "dve")
    else {
        return;
    };
    for f in &files {
        let m = crate::parse_file(f).expect("parses");
        let mut compared = 0;
        for_each_state(&m, |s| compared += compare_on(&m, s));
        assert!(compared > 0, "{}: nothing compared", m.name());
    }
}
