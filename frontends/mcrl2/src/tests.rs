//! Unit tests of the rewriter and the data types through small
//! specifications (parse -> load -> evaluate), and of the model's
//! successors.

use crate::parse_str;
use pins::Model;

/// Explores a model naively: (states, transitions).
fn explore(m: &dyn Model) -> (usize, usize) {
    frontend_testkit::bfs::count(m)
}

#[test]
fn counter_with_bounded_sum_variable() {
    let text = "act a: Nat;\nproc P(n: Nat) = sum m: Nat. (m < 3 && n < 5) -> a(m) . P(n = n + m);\ninit P(0);";
    let m = parse_str(text, "t.mcrl2").unwrap();
    let (s, _) = explore(&m);
    assert_eq!(s, 7); // 0..=6
}

#[test]
fn unbounded_sum_variable_is_unsupported() {
    let text = "act a: Nat;\nproc P(n: Nat) = sum m: Nat. (m > 3) -> a(m) . P(n = m);\ninit P(0);";
    let e = parse_str(text, "t.mcrl2").err().unwrap();
    assert_eq!(e.kind(), crate::ErrorKind::Unsupported);
    assert!(e.to_string().contains("summand 1"), "{e}");
}

#[test]
fn rewrite_rules_in_order_with_conditions_and_patterns() {
    let text = "sort L = List(Nat);\nmap len: L -> Nat; f: Nat -> Nat;\nvar l: L; x: Nat;\n\
                eqn len([]) = 0; len(x |> l) = 1 + len(l);\n\
                (x > 2) -> f(x) = 2; f(0) = 7; f(x) = x;\n\
                act a: Nat;\nproc P(n: Nat) = (n < 4) -> a(len([n, n]) + f(n)) . P(n = n + 1);\ninit P(0);";
    let m = parse_str(text, "t.mcrl2").unwrap();
    let (s, e) = explore(&m);
    assert_eq!((s, e), (5, 4));
    let mut labels = Vec::new();
    m.successors(&m.initial_state(), 0, &mut |l, _| {
        labels.push(m.show_label(l))
    })
    .unwrap();
    assert_eq!(labels, vec!["a(9)"]);
}

#[test]
fn structs_sets_bags_functions() {
    let text = "sort S = struct s1 | s2(v: Nat)?is_s2; F = Nat -> Bool;\n\
                map g: F;\nvar i: Nat;\neqn g(i) = false;\n\
                act a;\n\
                proc P(f: F, s: Set(Nat), b: Bag(S), x: S) = (!f(1)) -> a . P(f = f[1 -> true][2 -> false], s = s + {1, 2} - {2}, b = b + {x: 2}, x = s2(v(s2(3))))\n\
                + (is_s2(x) && 1 in s && count(s1, b) == 2) -> a . P(f = g, s = {}, b = {:}, x = s1);\ninit P(g, {}, {:}, s1);";
    let m = parse_str(text, "t.mcrl2").unwrap();
    let (s, e) = explore(&m);
    assert_eq!((s, e), (2, 2));
}

#[test]
fn errors_name_the_summand_and_the_term() {
    let text = "act a;\nproc P(l: List(Nat)) = (head(l) == 1) -> a . P(l = []);\ninit P([]);";
    let m = parse_str(text, "t.mcrl2").unwrap();
    let err = m.next(&m.initial_state(), 0, &mut |_| {}).unwrap_err();
    assert!(err.to_string().contains("summand 1"), "{err}");
    assert!(err.to_string().contains("head([])"), "{err}");
    let text = "act a;\nproc P(n: Int) = a . P(n = n div 0);\ninit P(1);";
    let m = parse_str(text, "t.mcrl2").unwrap().keep_stuck_terms(false);
    let err = m.next(&m.initial_state(), 0, &mut |_| {}).unwrap_err();
    assert!(err.to_string().contains("division by zero"), "{err}");
    // Kept as an unrewritable term by default (lps2lts's behaviour).
    let m = parse_str(text, "t.mcrl2").unwrap();
    let mut succ = 0;
    m.next(&m.initial_state(), 0, &mut |_| succ += 1).unwrap();
    assert_eq!(succ, 1);
}

#[test]
fn overflow_is_unsupported_not_a_wrap() {
    let text = "act a;\nproc P(n: Int) = a . P(n = n * n);\ninit P(3);";
    let m = parse_str(text, "t.mcrl2").unwrap();
    let mut s = m.initial_state();
    let mut failed = false;
    for _ in 0..10 {
        let mut next = None;
        match m.next(&s, 0, &mut |t| next = Some(t.to_vec())) {
            Ok(()) => s = next.unwrap(),
            Err(e) => {
                // mCRL2's integers are unbounded: past 128 bits the
                // front-end declines (unsupported), it never wraps.
                assert!(e.unsupported && e.to_string().contains("128-bit"), "{e}");
                failed = true;
                break;
            }
        }
    }
    assert!(failed);
}

#[test]
fn every_sum_solution_is_a_transition() {
    // lps2lts counts `sum e: Enum4. tau . P()` as 4 transitions (corpus
    // model `forall`), so equal (label, target) pairs are not merged.
    let text = "act a;\nproc P(n: Nat) = sum b: Bool. (n == 0) -> a . P(n = 1);\ninit P(0);";
    let m = parse_str(text, "t.mcrl2").unwrap();
    assert_eq!(explore(&m), (2, 2));
}

#[test]
fn lambda_whr_quantifiers_reals() {
    let text = "sort B = struct x1 | x2 | x3;\nact a: Real;\n\
                proc P(n: Nat) = (n < 2 && exists b: B. b == x2 && forall c: Bool. c || !c) -> a((lambda k: Nat. k + m)(1) / 2 whr m = n end) . P(n = n + 1);\ninit P(0);";
    let m = parse_str(text, "t.mcrl2").unwrap();
    let mut labels = Vec::new();
    m.successors(&m.initial_state(), 0, &mut |l, _| {
        labels.push(m.show_label(l))
    })
    .unwrap();
    assert_eq!(labels, vec!["a(1/2)"]);
}

#[test]
fn syntax_errors_have_positions() {
    let e = parse_str(
        "act a;\nproc P(n: Nat) = (n == ) -> a . P();\ninit P(0);",
        "f.mcrl2",
    )
    .err()
    .unwrap();
    assert!(e.to_string().starts_with("f.mcrl2:2:"), "{e}");
    let e = parse_str(
        "act a;\nproc P(n: Nat) = (m == 1) -> a . P();\ninit P(0);",
        "f.mcrl2",
    )
    .err()
    .unwrap();
    assert!(e.to_string().contains("unknown name 'm'"), "{e}");
}

#[test]
fn case_functions_are_lazy_in_the_arguments_they_do_not_select() {
    // C(e, x, y) selects one argument; the other one has no normal form
    // (head([])) and must not be needed, as in jitty.
    let text = "sort E = struct e0 | e1;\nmap C: E # Nat # Nat -> Nat;\nvar e: E; x, y: Nat;\n\
                eqn C(e, x, x) = x; C(e0, x, y) = x; C(e1, x, y) = y;\n\
                act a: Nat;\nproc P(l: List(Nat)) = sum e: E. (C(e, 1, head(l)) == 1) -> a(C(e, 1, head(l))) . P(l = [1]);\ninit P([]);";
    let m = parse_str(text, "t.mcrl2").unwrap();
    let mut labels = Vec::new();
    m.successors(&m.initial_state(), 0, &mut |l, _| {
        labels.push(m.show_label(l))
    })
    .unwrap_err();
    // e1 selects head([]): an error, not a silent value.
    let text = text.replace(
        "(C(e, 1, head(l)) == 1)",
        "(e == e0 && C(e, 1, head(l)) == 1)",
    );
    let m = parse_str(&text, "t.mcrl2").unwrap();
    labels.clear();
    m.successors(&m.initial_state(), 0, &mut |l, _| {
        labels.push(m.show_label(l))
    })
    .unwrap();
    assert_eq!(labels, vec!["a(1)"]);
}

#[test]
fn enumerator_follows_case_functions_and_constructors() {
    // The infinite sum variable n is bounded through a case function and
    // by unifying a constructor term with a known value.
    let text = "sort E = struct e0 | e1; M = struct m(v: Nat);\nmap C: E # Bool # Bool -> Bool;\nvar e: E; x, y: Bool;\n\
                eqn C(e, x, x) = x; C(e0, x, y) = x; C(e1, x, y) = y;\n\
                act a: Nat;\nproc P(k: M) = sum e: E, n: Nat. (C(e, n == 3, m(n) == k)) -> a(n) . P(k = m(n + 1));\ninit P(m(7));";
    let m = parse_str(text, "t.mcrl2").unwrap();
    let mut labels = Vec::new();
    m.successors(&m.initial_state(), 0, &mut |l, _| {
        labels.push(m.show_label(l))
    })
    .unwrap();
    labels.sort();
    assert_eq!(labels, vec!["a(3)", "a(7)"]);
}

#[test]
fn uninterpreted_constants_are_values() {
    let text = "sort D = struct d1 | d2;\nmap q: Nat -> D;\nact a;\n\
                proc P(f: Nat -> D, n: Nat) = (n < 2) -> a . P(f = f[n -> d1], n = n + 1);\ninit P(q, 0);";
    let m = parse_str(text, "t.mcrl2").unwrap();
    assert_eq!(explore(&m), (3, 2));
}

#[test]
fn set_complements_and_comprehensions() {
    let text = "act a: Set(Nat);\n\
                proc P(s: Set(Nat), n: Nat) = (n < 3) -> a(s * !{n}) . P(s = s + {n} + {n + 5}, n = n + 1)\n\
                + (n == 3 && 5 in { k: Nat | k > 4 } && !(1 in !s)) -> a(s - { k: Nat | k > 4 }) . P(s = {}, n = 4);\ninit P({}, 0);";
    let m = parse_str(text, "t.mcrl2").unwrap();
    let mut labels = Vec::new();
    let mut s = m.initial_state();
    for _ in 0..4 {
        let mut next = None;
        for g in 0..2 {
            m.successors(&s, g, &mut |l, t| {
                labels.push(m.show_label(l));
                next = Some(t.to_vec());
            })
            .unwrap();
        }
        s = next.unwrap();
    }
    assert_eq!(
        labels,
        vec!["a({})", "a({0, 5})", "a({0, 1, 5, 6})", "a({0, 1, 2})"]
    );
}

#[test]
fn projection_shared_by_two_structured_sorts() {
    let text = "sort Sig = struct NONE?isNone | DB(s_: Pos)?isData | FH(s_: Pos)?isHeader;\n\
                Sym = struct CAS | FR(s_: Pos)?isFrame | FRH(s_: Pos)?isHeader;\n\
                act a: Pos; b: Pos;\n\
                proc P(x: Sig, y: Sym) = (isHeader(x) && isHeader(y)) -> a(s_(x) + s_(y)) . P(x = NONE, y = CAS)\n\
                + (isData(x) || isFrame(y)) -> b(s_(y)) . P(x = FH(2), y = FRH(3));\n\
                init P(DB(1), FR(5));";
    let m = parse_str(text, "t.mcrl2").unwrap();
    let (s, e) = explore(&m);
    assert_eq!((s, e), (3, 2));
}

#[test]
fn stuck_operands_decided_as_jitty_decides_them() {
    // head([]) has no normal form; jitty's Bool and if rules still decide
    // these conditions, and lps2lts explores them.
    let text = "act a, b, c, d;\n\
                proc P(l: List(Nat)) = (head(l) == 1 && false) -> a . P(l = [1])\n\
                + (head(l) == 1 || true) -> b . P(l = [2])\n\
                + (if(head(l) == 1, 4, 4) == 4) -> c . P(l = [3])\n\
                + (head(l) == 1 => true) -> d . P(l = [4]);\n\
                init P([]);";
    let m = parse_str(text, "t.mcrl2").unwrap();
    let mut labels = Vec::new();
    for g in 0..4 {
        m.successors(&m.initial_state(), g, &mut |l, _| {
            labels.push(m.show_label(l))
        })
        .unwrap();
    }
    assert_eq!(labels, vec!["b", "c", "d"]);
    // Where the other operand does not decide, it stays an error.
    let text =
        "act a;\nproc P(l: List(Nat)) = (head(l) == 1 && true) -> a . P(l = [1]);\ninit P([]);";
    let m = parse_str(text, "t.mcrl2").unwrap();
    let err = m.next(&m.initial_state(), 0, &mut |_| {}).unwrap_err();
    assert!(err.to_string().contains("head([])"), "{err}");
}

#[test]
fn sort_errors_name_the_expression_where_it_stands() {
    let cases = [
        (
            "proc P(n: Nat) = a(n) . P(n = true);",
            "t.mcrl2:2:31",
            "the update of n",
        ),
        (
            "proc P(n: Nat) = (n < 3) -> a(n && true) . P(n = n + 1);",
            "t.mcrl2:2:31",
            "operand of &&",
        ),
        (
            "proc P(n: Nat) = (n + 1) -> a(n) . P(n = n + 1);",
            "t.mcrl2:2:21",
            "the condition",
        ),
        (
            "proc P(n: Nat) = a(n == 1) . P(n = n + 1);",
            "t.mcrl2:2:22",
            "argument 1 of action a",
        ),
        (
            "proc P(n: Nat) = a(n) . P(n = n - 1);",
            "t.mcrl2:2:33",
            "expected a Nat, found an expression of sort Int",
        ),
    ];
    for (proc_, at, what) in cases {
        let text = format!("act a: Nat;\n{proc_}\ninit P(0);");
        let e = parse_str(&text, "t.mcrl2").err().expect(proc_);
        assert_eq!(e.kind(), crate::ErrorKind::Semantic, "{e}");
        let msg = e.to_string();
        assert!(msg.contains(at) && msg.contains(what), "{proc_}: {msg}");
    }
    let text = "act a: Nat;\nproc P(n: Nat) = a(n) . P(n = n + 1);\ninit P(true);";
    let e = parse_str(text, "t.mcrl2").err().expect("init");
    assert!(
        e.to_string().contains("t.mcrl2:3:8: initial value of n"),
        "{e}"
    );
}

#[test]
fn constructors_overloaded_by_argument_sort_are_refused_not_guessed() {
    let text = "sort K = struct key(Nat)?is_n | key(Bool)?is_b;\nact a;\n\
                proc P(k: K) = is_b(k) -> a . P(k = key(true));\ninit P(key(1));";
    let e = parse_str(text, "t.mcrl2").err().expect("refused");
    assert_eq!(e.kind(), crate::ErrorKind::Unsupported, "{e}");
    assert!(e.to_string().contains("constructor 'key'"), "{e}");
}

#[test]
fn sum_over_lists_bounded_by_their_length() {
    let text = "sort D = struct d0 | d1;\nact a: List(D);\n\
                proc P(n: Nat) = sum l: List(D). (#l < 3 && n == 0) -> a(l) . P(n = 1);\ninit P(0);";
    let m = parse_str(text, "t.mcrl2").unwrap();
    let (s, e) = explore(&m);
    // [], 2 of length 1, 4 of length 2: seven labels to one target.
    assert_eq!((s, e), (2, 7));
}

#[test]
fn case_function_guards_prune_without_changing_counts() {
    // C selects by `e`; the guard on `e` decides before `d` (a Nat bounded
    // by the condition) is enumerated; the argument of D that e2 would
    // select has no normal form (head([])) and is never needed.
    let text = "sort E = struct e0 | e1 | e2;\n\
                map C: E # Bool # Bool # Bool -> Bool; D: E # Nat # Nat # Nat -> Nat;\n\
                var e: E; b, b0, b1, b2: Bool; x, x0, x1, x2: Nat;\n\
                eqn C(e, b, b, b) = b; C(e0, b0, b1, b2) = b0; C(e1, b0, b1, b2) = b1; C(e2, b0, b1, b2) = b2;\n\
                D(e, x, x, x) = x; D(e0, x0, x1, x2) = x0; D(e1, x0, x1, x2) = x1; D(e2, x0, x1, x2) = x2;\n\
                act a: Nat;\n\
                proc P(n: Nat, l: List(Nat)) = sum e: E, d: Nat. (C(e, n < 3, n == 1 && d < 2, false) && d <= n) -> a(d) . P(n = D(e, n + 1, d, head(l)));\ninit P(0, []);";
    let m = parse_str(text, "t.mcrl2").unwrap();
    // n = 0: e0, d = 0 (1 transition). n = 1: e0, d in 0..=1, and e1,
    // d in 0..=1 (4). n = 2: e0, d in 0..=2 (3). n = 3: none. e2 never.
    assert_eq!(explore(&m), (4, 8));
}
