//! The compiled guards, effects and sync values (`code`) against the
//! interpreter ([`Ex::eval`], [`LVal::store`]), on every reachable state of
//! small BEEM models of each family: for every transition, each guard must
//! give the same value, the rest of the guards after the leading
//! comparisons the same verdict when those hold, the effects applied in
//! order the same successor, a send the same values and a receive the
//! same stores, with the same error flagged. A model the corpus lacks
//! fails the test under CI.

use super::{CSync, CTrans, Ctx, DveModel, Ex, LVal};
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
        compare_rest(m, t, s);
        compare_sync(m, t, s);
    }
    m.trans.len() as u64
}

/// When the guards' leading comparisons hold in `s`, `rest` decides as
/// the whole guards do, with the same error.
fn compare_rest(m: &DveModel, t: &CTrans, s: &[u32]) {
    if !crate::dispatch::leading_comparisons_hold(&t.guards, s) {
        return;
    }
    let (mut a, mut b) = (Ctx::new(&m.slots), Ctx::new(&m.slots));
    let rest = t.code.rest.iter().all(|g| g(s, &mut a) != 0);
    let whole = t.guards.iter().all(|g| g.eval(s, &mut b) != 0);
    assert_eq!(rest, whole, "{}: {} in {s:?}", m.name(), t.label);
    assert_eq!(error(&a), error(&b), "{}: {}", m.name(), t.label);
}

/// A send's values and a receive's stores (of the values 0 and 1) as the
/// interpreter's.
fn compare_sync(m: &DveModel, t: &CTrans, s: &[u32]) {
    let (mut a, mut b) = (Ctx::new(&m.slots), Ctx::new(&m.slots));
    match &t.sync {
        CSync::None => {}
        CSync::Send { vals, .. } => {
            for (value, e) in t.code.sends.iter().zip(vals) {
                assert_eq!(value(s, &mut a), e.eval(s, &mut b), "{}", t.label);
            }
        }
        CSync::Recv { lvals, .. } => {
            let (mut by_code, mut by_tree) = (s.to_vec(), s.to_vec());
            for (v, (store, lv)) in t.code.recvs.iter().zip(lvals).enumerate() {
                store(&mut by_code, v as i32 % 2, &mut a);
                lv.store(&mut by_tree, v as i32 % 2, &mut b);
            }
            assert_eq!(by_code, by_tree, "{}: {} in {s:?}", m.name(), t.label);
        }
    }
    assert_eq!(error(&a), error(&b), "{}: {}", m.name(), t.label);
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

/// Element reads, comparisons and stores at affine indices (one and two
/// terms, of a variable and of a constant array, alone and compared with
/// a constant) as the interpreter's, in range and out of it (the error
/// and its message), for every value of the index variables.
#[test]
fn affine_indices_read_compare_and_store_as_the_interpreter() {
    let text = "byte a[6]; const byte c[3] = {5, 6, 7}; byte x; int y;
        process P { state q; init q;
            trans q -> q { guard a[x + 1] == 0 && c[x - 1] != 6 && 7 > a[(y) * 2 + x - 1];
                effect a[x * 2 - y] = c[y + x], x = x + y * 3, a[x] = a[y + 2 * x - 1]; },
                  q -> q { guard c[2 * y - x] == a[0]; effect y = c[x + y] - a[x]; }; }
        system async;";
    let m = crate::parse_str(text, "affine.dve").expect("parses");
    let mut s = m.initial_state();
    let mut compared = 0;
    for x in 0..8 {
        for y in [0, 1, 2, 0xFFFF] {
            s[6] = x;
            s[7] = y;
            s[0] = x % 2;
            compared += compare_on(&m, &s);
        }
    }
    assert_eq!(compared, 2 * 8 * 4);
}
