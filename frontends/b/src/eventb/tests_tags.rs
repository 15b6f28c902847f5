//! Tests of ProB's theory mapping (`tags`): an operator tagged
//! `closure1` is the transitive closure, whatever its definition; without
//! the tag its definition by an undefined `fix` is refused.

use frontend_testkit::bfs::{bfs, Bfs};

/// The relation the machine walks along.
const R: [(i64, i64); 5] = [(1, 2), (2, 3), (3, 1), (3, 4), (5, 1)];

/// A machine with `x` (1 at first) and the event `go(y)` guarded by
/// `y : cls(r)[{x}]` doing `x := y`, `cls` defined as `fix(r)` (an
/// operator without a definition) and tagged with ProB's `closure1` when
/// `tagged`.
fn walk(tagged: bool) -> String {
    let (x, y, a) = (
        "identifier(none,x)",
        "identifier(none,y)",
        "identifier(none,a)",
    );
    let int = |n: i64| format!("integer(none,{n})");
    let pairs: Vec<String> = R
        .iter()
        .map(|(p, q)| format!("couple(none,[{},{}])", int(*p), int(*q)))
        .collect();
    let r = format!("set_extension(none,[{}])", pairs.join(","));
    let rel = "pow_subset(none,cartesian_product(none,integer_set(none),integer_set(none)))";
    let tag = if tagged { "tag(cls,closure1)" } else { "" };
    format!(
        "package(load_event_b_project([event_b_model(none,'M',[sees(none,[]),
          variables(none,[{x}]),invariant(none,[]),theorems(none,[]),
          events(none,[event(none,'INITIALISATION',ordinary(none),[],[],[],[],
            [assign(none,[{x}],[{one}])],[]),
          event(none,go,ordinary(none),[],[{y}],
            [member(none,{y},image(none,extended_expr(none,cls,[{r}],[]),set_extension(none,[{x}])))],[],
            [assign(none,[{x}],[{y}])],[])])])],[],
          [theory(closure,[],[],[],[operator(cls,[argument({a},{rel})],truth(none),
            [extended_expr(none,fix,[{a}],[])],[])],[],[{tag}])],_E)).",
        one = int(1)
    )
}

/// States (with the root) and transitions of the walk, by brute force:
/// the closure of `R` by Warshall's algorithm, then the values of `x`
/// reachable from 1.
fn expected() -> (u64, u64) {
    let n = 6;
    let mut c = vec![vec![false; n]; n];
    for (p, q) in R {
        c[p as usize][q as usize] = true;
    }
    for k in 0..n {
        for i in 0..n {
            for j in 0..n {
                c[i][j] |= c[i][k] && c[k][j];
            }
        }
    }
    let (mut seen, mut todo) = (vec![1usize], vec![1usize]);
    let mut edges = 1; // the initialisation
    while let Some(v) = todo.pop() {
        for w in (0..n).filter(|&w| c[v][w]) {
            edges += 1;
            if !seen.contains(&w) {
                seen.push(w);
                todo.push(w);
            }
        }
    }
    (seen.len() as u64 + 1, edges)
}

#[test]
fn an_operator_tagged_closure1_is_the_transitive_closure() {
    let m = crate::parse_str(&walk(true), "M_mch.eventb").expect("parses");
    let (states, transitions) = expected();
    match bfs(&m, 100, None) {
        Bfs::Done(s, t) => assert_eq!((s, t), (states, transitions)),
        other => panic!("{other:?}"),
    }
}

#[test]
fn without_its_tag_the_operator_is_its_definition() {
    let e = crate::parse_str(&walk(false), "M_mch.eventb").expect_err("refused");
    assert!(
        e.to_string()
            .contains("the theory operator fix (no direct definition)"),
        "{e}"
    );
}
