//! Tests of theory datatypes and operators defined by cases
//! (`datatypes`, evaluated by `crate::eventb_calls`): counts computed by
//! hand in each test.

use frontend_testkit::bfs::{bfs, Bfs};

pub(super) fn id(x: &str) -> String {
    format!("identifier(none,{x})")
}

pub(super) fn ext(op: &str, args: &[String]) -> String {
    format!("extended_expr(none,{op},[{}],[])", args.join(","))
}

pub(super) fn int(n: i64) -> String {
    format!("integer(none,{n})")
}

/// The theory of lists `L(T)` (`nil`, `cons(hd, tl)`), with `len`
/// defined by cases, and the datatype `Opt(T)` (`none`, `some(val)`).
/// `len_body` is `len`'s body for `cons(h, t)`.
fn theory(len_body: &str) -> String {
    let t = id("'T'");
    let lt = ext("'L'", std::slice::from_ref(&t));
    let cons = ext("cons", &[id("h"), id("t")]);
    format!(
        "theory([],[],['T'],[datatype('L',[{t}],[constructor(nil,[]),
           constructor(cons,[destructor(hd,{t}),destructor(tl,{lt})])]),
         datatype('Opt',[{t}],[constructor(none,[]),constructor(some,[destructor(val,{t})])])],
         [operator(len,[argument({l},{lt})],truth(none),[],
           [case(l,[],{nil},{zero}),case(l,[h,t],{cons},{len_body})])],[],[])",
        l = id("l"),
        nil = ext("nil", &[]),
        zero = int(0),
    )
}

/// A machine with variables `vars`, the INITIALISATION `init` and the
/// events `events` (terms), under `theory(len_body)`.
fn machine(vars: &[&str], init: &str, events: &[String], len_body: &str) -> String {
    let vars: Vec<String> = vars.iter().map(|v| id(v)).collect();
    format!(
        "package(load_event_b_project([event_b_model(none,'M',[sees(none,[]),
          variables(none,[{}]),invariant(none,[]),theorems(none,[]),
          events(none,[event(none,'INITIALISATION',ordinary(none),[],[],[],[],[{init}],[]),
          {}])])],[],[{}],_E)).",
        vars.join(","),
        events.join(","),
        theory(len_body)
    )
}

pub(super) fn event(name: &str, params: &[&str], guards: &[String], actions: &[String]) -> String {
    let params: Vec<String> = params.iter().map(|p| id(p)).collect();
    format!(
        "event(none,{name},ordinary(none),[],[{}],[{}],[],[{}],[])",
        params.join(","),
        guards.join(","),
        actions.join(",")
    )
}

pub(super) fn assign(x: &str, e: &str) -> String {
    format!("assign(none,[{}],[{e}])", id(x))
}

fn one_plus_len_t() -> String {
    format!("add(none,{},{})", int(1), ext("len", &[id("t")]))
}

#[test]
fn lists_built_by_constructors_and_measured_by_cases() {
    // v: the lists over 1..2 of length <= 2, pushed one element at a
    // time: nil, 2 of length 1, 4 of length 2 (7 states and the root);
    // transitions: the initialisation, 2 pushes from nil, 2 from each
    // list of length 1 (7); `ok` (v : L(1..2), v /= nil) loops on the
    // 6 non-empty lists; `bad` (cons(3, v) : L(1..2)) is never enabled
    let v = id("v");
    let e = id("e");
    let push = event(
        "push",
        &["e"],
        &[
            format!("member(none,{e},interval(none,{},{}))", int(1), int(2)),
            format!(
                "less(none,{},{})",
                ext("len", std::slice::from_ref(&v)),
                int(2)
            ),
        ],
        &[assign("v", &ext("cons", &[e.clone(), v.clone()]))],
    );
    let list12 = ext("'L'", &[format!("interval(none,{},{})", int(1), int(2))]);
    let ok = event(
        "ok",
        &[],
        &[
            format!("member(none,{v},{list12})"),
            format!("not_equal(none,{v},{})", ext("nil", &[])),
        ],
        &[],
    );
    let bad = event(
        "bad",
        &[],
        &[format!(
            "member(none,{},{list12})",
            ext("cons", &[int(3), v.clone()])
        )],
        &[],
    );
    let text = machine(
        &["v"],
        &assign("v", &ext("nil", &[])),
        &[push, ok, bad],
        &one_plus_len_t(),
    );
    let m = crate::parse_str(&text, "M_mch.eventb").expect("parses");
    assert!(matches!(bfs(&m, 1000, None), Bfs::Done(8, 13)));
}

#[test]
fn a_constructor_pattern_draws_its_arguments_from_a_set() {
    // vals = {some(1), some(2), none}; take(x) when some(x) : vals sets
    // got := x: states got = 0, 1, 2 and the root; transitions: the
    // initialisation and 2 from each state (x = 1, 2)
    let some = |n: i64| ext("some", &[int(n)]);
    let init = format!(
        "assign(none,[{},{}],[set_extension(none,[{},{},{}]),{}])",
        id("vals"),
        id("got"),
        some(1),
        some(2),
        ext("none", &[]),
        int(0)
    );
    let take = event(
        "take",
        &["x"],
        &[format!(
            "member(none,{},{})",
            ext("some", &[id("x")]),
            id("vals")
        )],
        &[assign("got", &id("x"))],
    );
    let text = machine(&["vals", "got"], &init, &[take], &one_plus_len_t());
    let m = crate::parse_str(&text, "M_mch.eventb").expect("parses");
    assert!(matches!(bfs(&m, 1000, None), Bfs::Done(4, 7)));
}

#[test]
fn a_case_reading_a_type_parameter_is_refused() {
    // `len(cons(h, t)) = card(T)`: ProB gives T the argument's type
    let body = format!("card(none,{})", id("'T'"));
    let v = id("v");
    let set = event(
        "set",
        &[],
        &[],
        &[assign(
            "n",
            &ext("len", &[ext("cons", &[int(1), v.clone()])]),
        )],
    );
    let init = format!(
        "assign(none,[{v},{}],[{},{}])",
        id("n"),
        ext("nil", &[]),
        int(0)
    );
    let text = machine(&["v", "n"], &init, &[set], &body);
    let e = crate::parse_str(&text, "M_mch.eventb").expect_err("refused");
    assert!(e.to_string().contains("a type parameter as a value"), "{e}");
}
