//! Unit tests of the PNML front-end on small handwritten nets: semantics
//! (weights, defaults, pages, references, read/write sets, firing, overflow,
//! `next` vs `next_all`) and broken inputs (each must give a one-line error
//! naming the file, the problem and, where known, the line).
//!
//! Tests only; must not touch files outside this crate.

use pins::Model;

use crate::{parse_str, ErrorKind, PartitionMethod, PetriNet, PnmlError};

/// A PNML document whose single page holds `body`.
fn doc(body: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="utf-8"?>
<pnml xmlns="http://www.pnml.org/version-2009/grammar/pnml">
  <net id="testnet" type="http://www.pnml.org/version-2009/grammar/ptnet">
    <page id="page0">
{body}
    </page>
    <name><text>A test net</text></name>
  </net>
</pnml>
"#
    )
}

fn place(id: &str, marking: Option<&str>) -> String {
    match marking {
        Some(m) => format!(
            "<place id=\"{id}\"><name><text>name of {id}</text></name>\
             <initialMarking><text>{m}</text></initialMarking></place>\n"
        ),
        None => format!("<place id=\"{id}\"/>\n"),
    }
}

fn transition(id: &str) -> String {
    format!("<transition id=\"{id}\"><name><text>{id}</text></name></transition>\n")
}

fn arc(id: &str, source: &str, target: &str, weight: Option<&str>) -> String {
    match weight {
        Some(w) => format!(
            "<arc id=\"{id}\" source=\"{source}\" target=\"{target}\">\
             <inscription><text>{w}</text></inscription></arc>\n"
        ),
        None => format!("<arc id=\"{id}\" source=\"{source}\" target=\"{target}\"/>\n"),
    }
}

fn parse_ok(text: &str) -> PetriNet {
    match parse_str(text, "test.pnml") {
        Ok(net) => {
            pins::validate(&net).expect("pins::validate");
            net
        }
        Err(e) => panic!("unexpected error: {e}\n{text}"),
    }
}

/// 1-based line of the first occurrence of `needle` in `text`.
fn line_of(text: &str, needle: &str) -> u32 {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle} not in text"));
    text[..at].matches('\n').count() as u32 + 1
}

/// Parses `text` (label `bad.pnml`), expecting an error of `kind` at `line`
/// (when given) whose one-line message contains every `needle`.
fn parse_err(text: &str, kind: ErrorKind, line: Option<u32>, needles: &[&str]) -> PnmlError {
    let err = frontend_testkit::load_error(parse_str, text, "bad.pnml");
    let shown = err.to_string();
    assert!(!shown.contains('\n'), "not one line: {shown}");
    assert_eq!(err.kind(), kind, "{shown}");
    assert_eq!(err.file(), "bad.pnml");
    match line {
        Some(l) => {
            let col = err.column().expect("a column");
            assert!(
                shown.starts_with(&format!("bad.pnml:{l}:{col}: ")),
                "expected line {l}: {shown}"
            );
            assert_eq!(err.line(), Some(l), "{shown}");
        }
        None => assert!(shown.starts_with("bad.pnml"), "{shown}"),
    }
    for needle in needles {
        assert!(shown.contains(needle), "{shown:?} lacks {needle:?}");
    }
    err
}

fn successors(net: &PetriNet, state: &[u32]) -> Vec<(usize, Vec<u32>)> {
    let mut out = Vec::new();
    net.next_all(state, &mut |g, s| out.push((g, s.to_vec())))
        .expect("next_all");
    out
}

// ---------------------------------------------------------------- semantics

#[test]
fn weights_defaults_and_firing() {
    let text = doc(&[
        place("p", Some("2")),
        place("q", None),
        place("r", Some("\n  3 \n")),
        transition("t"),
        arc("a1", "p", "t", Some("2")),
        arc("a2", "t", "q", None),
        arc("a3", "t", "r", Some(" 3 ")),
    ]
    .concat());
    let net = parse_ok(&text);
    assert_eq!(net.id(), "testnet");
    assert_eq!(net.name(), "testnet");
    assert_eq!(net.formalism(), "pnml");
    assert_eq!(net.places(), ["p", "q", "r"]);
    assert_eq!(net.initial_marking(), [2, 0, 3]);
    assert_eq!(net.initial_state(), vec![2, 0, 3]);
    let t = &net.transitions()[0];
    assert_eq!(t.id, "t");
    assert_eq!(t.pre, vec![(0, 2)]);
    assert_eq!(t.post, vec![(1, 1), (2, 3)]);
    assert_eq!(net.arc_count(), 3);
    // slot names are ids, not <name>s; 32 bits each
    assert_eq!(net.slots()[0].name, "p");
    assert!(net.slots().iter().all(|s| s.bits == 32));
    assert_eq!(net.groups()[0].label, "t");

    assert_eq!(successors(&net, &[2, 0, 3]), vec![(0, vec![0, 1, 6])]);
    assert_eq!(successors(&net, &[1, 0, 3]), vec![], "needs 2 tokens");
    assert_eq!(successors(&net, &[5, 7, 0]), vec![(0, vec![3, 8, 3])]);
}

#[test]
fn nested_pages_and_objects_outside_pages() {
    let text = format!(
        r#"<pnml xmlns="http://www.pnml.org/version-2009/grammar/pnml">
<net id="paged" type="http://www.pnml.org/version-2009/grammar/ptnet">
  <page id="pg1">
    {p1}
    <page id="pg2">
      {p2}{t1}
      <page id="pg3">{a1}</page>
    </page>
    {p3}
  </page>
  <page id="pg4">{t2}{a2}{a3}</page>
  {a4}
</net></pnml>"#,
        p1 = place("p1", Some("1")),
        p2 = place("p2", None),
        t1 = transition("t1"),
        a1 = arc("a1", "p1", "t1", None),
        p3 = place("p3", Some("4")),
        t2 = transition("t2"),
        a2 = arc("a2", "t1", "p2", None),
        a3 = arc("a3", "p2", "t2", None),
        a4 = arc("a4", "t2", "p3", None),
    );
    let net = parse_ok(&text);
    assert_eq!(net.places(), ["p1", "p2", "p3"]);
    assert_eq!(net.initial_marking(), [1, 0, 4]);
    let ids: Vec<&str> = net.transitions().iter().map(|t| t.id.as_str()).collect();
    assert_eq!(ids, ["t1", "t2"]);
    assert_eq!(net.transitions()[0].pre, vec![(0, 1)]);
    assert_eq!(net.transitions()[0].post, vec![(1, 1)]);
    assert_eq!(net.transitions()[1].pre, vec![(1, 1)]);
    assert_eq!(net.transitions()[1].post, vec![(2, 1)]);
}

#[test]
fn self_loop_is_read_not_written_and_post_only_place_is_read_and_written() {
    let text = doc(&[
        place("z", None),
        place("loop", Some("1")),
        place("in", Some("1")),
        place("out", None),
        place("loop2", Some("3")),
        transition("t"),
        arc("a1", "loop", "t", None),
        arc("a2", "t", "loop", None),
        arc("a3", "in", "t", None),
        arc("a4", "t", "out", Some("2")),
        arc("a5", "loop2", "t", Some("2")),
        arc("a6", "t", "loop2", Some("3")),
    ]
    .concat());
    let net = parse_ok(&text);
    let g = &net.groups()[0];
    assert_eq!(g.read, vec![1, 2, 3, 4]);
    assert_eq!(
        g.write,
        vec![2, 3, 4],
        "the equal-weight self-loop on 'loop' is not written"
    );
    assert_eq!(
        successors(&net, &[0, 1, 1, 0, 3]),
        vec![(0, vec![0, 1, 0, 2, 4])]
    );
    // the self-loop still guards enabling
    assert_eq!(successors(&net, &[0, 0, 1, 0, 3]), vec![]);
}

#[test]
fn parallel_arcs_are_summed() {
    let text = doc(&[
        place("p", Some("3")),
        place("q", None),
        transition("t"),
        arc("a1", "p", "t", Some("1")),
        arc("a2", "p", "t", Some("2")),
        arc("a3", "t", "q", None),
        arc("a4", "t", "q", Some("4")),
        arc("a5", "t", "p", None),
    ]
    .concat());
    let net = parse_ok(&text);
    let t = &net.transitions()[0];
    assert_eq!(t.pre, vec![(0, 3)]);
    assert_eq!(t.post, vec![(0, 1), (1, 5)]);
    assert_eq!(net.arc_count(), 3);
    assert_eq!(successors(&net, &[3, 0]), vec![(0, vec![1, 5])]);
    assert_eq!(successors(&net, &[2, 0]), vec![]);
}

#[test]
fn token_overflow_is_an_error_naming_place_and_transition() {
    let text = doc(&[
        place("full", Some("4294967295")),
        place("p", Some("1")),
        transition("fill"),
        transition("other"),
        arc("a1", "fill", "full", None),
        arc("a2", "p", "other", None),
    ]
    .concat());
    let net = parse_ok(&text);
    let state = net.initial_state();
    let err = net.next_all(&state, &mut |_, _| {}).unwrap_err();
    let shown = err.to_string();
    assert!(
        shown.contains("'full'") && shown.contains("'fill'"),
        "{shown}"
    );
    assert!(shown.contains("overflow"), "{shown}");
    let err = net
        .next(&state, 0, &mut |_| panic!("no successor on overflow"))
        .unwrap_err();
    assert!(err.to_string().contains("'full'"));
    // one below the limit is fine
    let mut seen = Vec::new();
    net.next(&[u32::MAX - 1, 0], 0, &mut |s| seen.push(s.to_vec()))
        .unwrap();
    assert_eq!(seen, vec![vec![u32::MAX, 0]]);
}

#[test]
fn wrong_state_length_and_group_are_model_errors() {
    let net = parse_ok(&doc(&[
        place("p", Some("1")),
        transition("t"),
        arc("a", "p", "t", None),
    ]
    .concat()));
    assert!(net.next_all(&[1, 2], &mut |_, _| {}).is_err());
    assert!(net.next(&[1], 1, &mut |_| {}).is_err());
}

#[test]
fn net_without_places() {
    let net = parse_ok(&doc(&[transition("t"), transition("u")].concat()));
    assert_eq!(net.slot_count(), 0);
    assert_eq!(successors(&net, &[]), vec![(0, vec![]), (1, vec![])]);
    let mut n = 0;
    net.next(&[], 1, &mut |s| {
        assert!(s.is_empty());
        n += 1
    })
    .unwrap();
    assert_eq!(n, 1);
}

#[test]
fn transition_with_empty_pre_set_is_always_enabled() {
    let net = parse_ok(&doc(&[
        place("p", None),
        place("q", Some("1")),
        transition("src"),
        arc("a", "src", "p", None),
    ]
    .concat()));
    assert_eq!(successors(&net, &[0, 0]), vec![(0, vec![1, 0])]);
    assert_eq!(successors(&net, &[7, 3]), vec![(0, vec![8, 3])]);
}

/// A small net with choice, synchronisation, weights and self-loops.
fn mixed_net() -> PetriNet {
    parse_ok(&doc(&[
        place("a", Some("2")),
        place("b", Some("1")),
        place("c", None),
        place("d", Some("1")),
        transition("t0"),
        transition("t1"),
        transition("t2"),
        transition("t3"),
        transition("t4"),
        arc("x0", "a", "t0", None),
        arc("x1", "t0", "b", None),
        arc("x2", "a", "t1", Some("2")),
        arc("x3", "b", "t1", None),
        arc("x4", "t1", "c", Some("3")),
        arc("x5", "c", "t2", None),
        arc("x6", "d", "t2", None),
        arc("x7", "t2", "d", None),
        arc("x8", "t2", "a", None),
        arc("x9", "d", "t3", None),
        arc("x10", "b", "t4", Some("2")),
        arc("x11", "t4", "d", None),
    ]
    .concat()))
}

#[test]
fn next_all_equals_next_per_group_in_order() {
    let net = mixed_net();
    let groups = net.groups().len();
    let mut checked = 0;
    for a in 0..4 {
        for b in 0..4 {
            for c in 0..4 {
                for d in 0..3 {
                    let state = [a, b, c, d];
                    let all = successors(&net, &state);
                    let mut one_by_one = Vec::new();
                    for g in 0..groups {
                        net.next(&state, g, &mut |s| one_by_one.push((g, s.to_vec())))
                            .unwrap();
                    }
                    assert_eq!(all, one_by_one, "state {state:?}");
                    checked += all.len();
                    // every successor respects the write set
                    for (g, succ) in &all {
                        for (i, (&x, &y)) in state.iter().zip(succ).enumerate() {
                            if x != y {
                                assert!(net.groups()[*g].write.contains(&i));
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(
        checked > 100,
        "the test must exercise enabled transitions ({checked})"
    );
}

#[test]
fn reference_nodes_resolve_through_chains() {
    let text = doc(&[
        place("p", Some("1")),
        place("q", None),
        transition("t"),
        "<referencePlace id=\"rp1\" ref=\"rp2\"/>\n<referencePlace id=\"rp2\" ref=\"p\"/>\n".into(),
        "<referenceTransition id=\"rt\" ref=\"t\"/>\n".into(),
        arc("a1", "rp1", "rt", None),
        arc("a2", "rt", "q", None),
    ]
    .concat());
    let net = parse_ok(&text);
    assert_eq!(net.places(), ["p", "q"]);
    assert_eq!(net.transitions().len(), 1);
    assert_eq!(net.transitions()[0].pre, vec![(0, 1)]);
    assert_eq!(net.transitions()[0].post, vec![(1, 1)]);
}

#[test]
fn structural_partition_without_nupn() {
    let net = mixed_net();
    assert_eq!(net.partition_method(), PartitionMethod::Structural);
    let parts = net.partition();
    let mut covered: Vec<usize> = parts.iter().flat_map(|c| c.slots.clone()).collect();
    covered.sort_unstable();
    assert_eq!(covered, vec![0, 1, 2, 3]);
    assert!(parts.iter().all(|c| c.name != "globals"));
    assert!(net.slots().iter().all(|s| s.process.is_some()));
}

#[test]
fn nupn_units_become_the_partition_when_consistent() {
    let body = [
        place("a", Some("1")),
        place("b", None),
        place("c", Some("1")),
        transition("t"),
        arc("x", "a", "t", None),
        arc("y", "t", "b", None),
    ]
    .concat();
    let nupn = |units: &str| {
        format!(
            "{body}<toolspecific tool=\"nupn\" version=\"1.1\"><size places=\"3\" transitions=\"1\" arcs=\"2\"/>\
             <structure units=\"3\" root=\"u0\" safe=\"true\">{units}</structure></toolspecific>\n"
        )
    };
    let good = nupn(
        "<unit id=\"u0\"><places/><subunits>u1 u2</subunits></unit>\
         <unit id=\"u1\"><places>b\n a</places><subunits/></unit>\
         <unit id=\"u2\"><places>c</places><subunits/></unit>",
    );
    let net = parse_ok(&doc(&good));
    assert_eq!(net.partition_method(), PartitionMethod::Nupn);
    assert_eq!(net.process_names(), ["u1", "u2"]);
    let owners: Vec<_> = net.slots().iter().map(|s| s.process).collect();
    assert_eq!(owners, vec![Some(0), Some(0), Some(1)]);
    // a unit naming an unknown place: ignored, structural fallback
    let bad = nupn("<unit id=\"u1\"><places>a b c zz</places><subunits/></unit>");
    let net = parse_ok(&doc(&bad));
    assert_eq!(net.partition_method(), PartitionMethod::Structural);
}

// ------------------------------------------------------------ broken inputs

#[test]
fn truncated_file() {
    let full = mixed_net_text();
    let cut = &full[..full.len() / 2];
    let err = parse_err(cut, ErrorKind::Syntax, None, &["truncated XML"]);
    // the position is the end of the text, where the problem shows
    assert_eq!(err.line(), Some(cut.matches('\n').count() as u32 + 1));
}

fn mixed_net_text() -> String {
    doc(&[
        place("a", Some("2")),
        place("b", Some("1")),
        transition("t0"),
        arc("x0", "a", "t0", None),
        arc("x1", "t0", "b", Some("3")),
    ]
    .concat())
}

#[test]
fn malformed_xml_names_file_and_position() {
    let text = doc("<place id=\"p\"></plce>\n");
    let line = line_of(&text, "</plce>");
    parse_err(&text, ErrorKind::Syntax, Some(line), &["malformed XML"]);
    parse_err("", ErrorKind::Syntax, None, &["bad.pnml: "]);
    parse_err(
        "not xml at all",
        ErrorKind::Syntax,
        None,
        &["malformed XML"],
    );
}

#[test]
fn arc_to_undefined_place() {
    let text = doc(&[
        place("p", None),
        transition("t"),
        arc("a12", "t", "p99", None),
    ]
    .concat());
    let line = line_of(&text, "<arc id=\"a12\"");
    parse_err(
        &text,
        ErrorKind::Structure,
        Some(line),
        &["arc 'a12': target 'p99' is not a place or transition"],
    );
    bad_arc(&[arc("a1", "ghost", "t", None)], "source 'ghost'");
}

/// A net of place `p`, transition `t` and `rest` (ending with the arc at
/// fault): a structure error at the first arc's line containing `needle`.
fn bad_arc(rest: &[String], needle: &str) {
    let text = doc(&[vec![place("p", None), transition("t")], rest.to_vec()]
        .concat()
        .concat());
    parse_err(
        &text,
        ErrorKind::Structure,
        Some(line_of(&text, "<arc ")),
        &[needle],
    );
}

#[test]
fn arc_to_nowhere() {
    bad_arc(
        &["<arc id=\"a3\" source=\"p\"/>\n".into()],
        "arc 'a3' has no target attribute",
    );
    // an arc whose target is a page
    bad_arc(
        &[arc("a4", "p", "page0", None)],
        "target 'page0' is a page, not a place or transition",
    );
}

#[test]
fn negative_zero_non_numeric_and_huge_weights() {
    for (w, problem) in [
        ("-2", "weight '-2' is negative"),
        ("0", "weight '0' is zero"),
        ("two", "weight 'two' is not an integer"),
        ("1.0", "weight '1.0' is not an integer"),
        ("99999999999", "exceeds 4294967295"),
        ("", "weight '' is not an integer"),
    ] {
        let text = doc(&[
            place("p", None),
            transition("t"),
            arc("a7", "p", "t", Some(w)),
        ]
        .concat());
        parse_err(
            &text,
            ErrorKind::Structure,
            Some(line_of(&text, "<arc ")),
            &["arc 'a7'", problem],
        );
    }
    bad_arc(
        &["<arc id=\"a8\" source=\"p\" target=\"t\"><inscription/></arc>\n".into()],
        "<inscription> of arc 'a8' has no <text>",
    );
}

#[test]
fn bad_initial_markings() {
    for (m, problem) in [
        (
            "many",
            "initial marking 'many' is not a non-negative integer",
        ),
        ("-1", "initial marking '-1' is negative"),
        ("4294967296", "exceeds 4294967295"),
        ("1 2", "is not a non-negative integer"),
    ] {
        let text = doc(&[place("pm", Some(m)), transition("t")].concat());
        parse_err(
            &text,
            ErrorKind::Structure,
            Some(line_of(&text, "<place ")),
            &["place 'pm'", problem],
        );
    }
}

#[test]
fn duplicate_ids() {
    let text = doc(&[place("p", None), transition("t"), place("p", Some("1"))].concat());
    let second = text.rfind("<place id=\"p\"").unwrap();
    let line = text[..second].matches('\n').count() as u32 + 1;
    parse_err(
        &text,
        ErrorKind::Structure,
        Some(line),
        &["duplicate id 'p'", "first defined at line"],
    );
    // ids are unique across kinds too
    let text = doc(&[place("x", None), transition("x")].concat());
    parse_err(
        &text,
        ErrorKind::Structure,
        Some(line_of(&text, "<transition ")),
        &["duplicate id 'x'"],
    );
}

#[test]
fn place_to_place_and_transition_to_transition_arcs() {
    let text = doc(&[
        place("p", None),
        place("q", None),
        transition("t"),
        arc("a1", "p", "q", None),
    ]
    .concat());
    parse_err(
        &text,
        ErrorKind::Structure,
        Some(line_of(&text, "<arc ")),
        &["arc 'a1' joins place 'p' to place 'q'"],
    );
    bad_arc(
        &[transition("u"), arc("a2", "t", "u", None)],
        "joins transition 't' to transition 'u'",
    );
}

#[test]
fn coloured_nets_are_unsupported() {
    let symmetric = doc(&place("p", None)).replace(
        "http://www.pnml.org/version-2009/grammar/ptnet",
        "http://www.pnml.org/version-2009/grammar/symmetricnet",
    );
    parse_err(
        &symmetric,
        ErrorKind::Unsupported,
        Some(line_of(&symmetric, "<net ")),
        &["coloured net (COL) not supported", "symmetricnet"],
    );
    let typed = doc("<place id=\"p\"><type><structure><usersort declaration=\"Dot\"/></structure></type></place>\n");
    parse_err(
        &typed,
        ErrorKind::Unsupported,
        Some(line_of(&typed, "<type>")),
        &["coloured net (COL) not supported", "place 'p' has a <type>"],
    );
    let guarded = doc(&[
        place("p", None),
        "<transition id=\"t\"><condition><text>x</text></condition></transition>\n".into(),
    ]
    .concat());
    parse_err(
        &guarded,
        ErrorKind::Unsupported,
        Some(line_of(&guarded, "<condition>")),
        &["coloured net (COL) not supported", "<condition>"],
    );
    let hl = doc(&[place("p", None), transition("t"), "<arc id=\"a\" source=\"p\" target=\"t\"><hlinscription><text>x</text></hlinscription></arc>\n".into()].concat());
    parse_err(
        &hl,
        ErrorKind::Unsupported,
        Some(line_of(&hl, "<hlinscription>")),
        &["coloured net (COL) not supported", "<hlinscription>"],
    );
    let declared = doc("<declaration><structure><declarations/></structure></declaration>\n");
    parse_err(
        &declared,
        ErrorKind::Unsupported,
        Some(line_of(&declared, "<declaration>")),
        &["coloured net (COL) not supported"],
    );
}

#[test]
fn special_arcs_and_other_net_types_are_unsupported() {
    let inhibitor = doc(&[
        place("p", None),
        transition("t"),
        "<arc id=\"ai\" source=\"p\" target=\"t\"><type value=\"inhibitor\"/></arc>\n".into(),
    ]
    .concat());
    parse_err(
        &inhibitor,
        ErrorKind::Unsupported,
        Some(line_of(&inhibitor, "<type ")),
        &["arc 'ai': arc type 'inhibitor' not supported"],
    );
    let normal = doc(&[
        place("p", None),
        transition("t"),
        "<arc id=\"an\" source=\"p\" target=\"t\"><type value=\"normal\"/></arc>\n".into(),
    ]
    .concat());
    parse_ok(&normal);
    let other = doc("").replace("grammar/ptnet", "grammar/timednet");
    parse_err(
        &other,
        ErrorKind::Unsupported,
        Some(3),
        &["net type", "not supported"],
    );
    let untyped = doc("").replace(
        " type=\"http://www.pnml.org/version-2009/grammar/ptnet\"",
        "",
    );
    parse_err(
        &untyped,
        ErrorKind::Structure,
        Some(3),
        &["no type attribute"],
    );
}

#[test]
fn document_structure_errors() {
    let two = "<pnml><net id=\"a\" type=\"http://www.pnml.org/version-2009/grammar/ptnet\"/>\n<net id=\"b\" type=\"http://www.pnml.org/version-2009/grammar/ptnet\"/></pnml>";
    parse_err(two, ErrorKind::Unsupported, Some(2), &["2 nets"]);
    parse_err("<pnml/>", ErrorKind::Structure, Some(1), &["no <net>"]);
    parse_err(
        "<html/>",
        ErrorKind::Structure,
        Some(1),
        &["root element is <html>"],
    );
    let text = doc("<place><name><text>anonymous</text></name></place>\n");
    parse_err(
        &text,
        ErrorKind::Structure,
        Some(line_of(&text, "<place>")),
        &["<place> without an id"],
    );
    let text = doc(&[
        place("p", None),
        "<referencePlace id=\"r1\" ref=\"r2\"/><referencePlace id=\"r2\" ref=\"r1\"/>\n".into(),
    ]
    .concat());
    parse_err(&text, ErrorKind::Structure, None, &["cycle of references"]);
    let text = doc(&[
        place("p", None),
        transition("t"),
        "<referencePlace id=\"r\" ref=\"t\"/>\n".into(),
    ]
    .concat());
    parse_err(
        &text,
        ErrorKind::Structure,
        None,
        &["referencePlace 'r' resolves to transition 't'"],
    );
}

#[test]
fn no_panic_on_any_prefix_or_mutation() {
    let text = mixed_net_text();
    for cut in 0..text.len() {
        if let Err(e) = parse_str(&text[..cut], "cut.pnml") {
            let shown = e.to_string();
            assert!(
                !shown.contains('\n') && shown.starts_with("cut.pnml"),
                "{shown}"
            );
        }
    }
    let bytes = text.as_bytes();
    for i in 0..bytes.len() {
        for b in [b'<', b'>', b'"', b'-', b'0', b'x', b'/', b' '] {
            let mut mutated = bytes.to_vec();
            mutated[i] = b;
            if let Ok(s) = std::str::from_utf8(&mutated) {
                if let Err(e) = parse_str(s, "mut.pnml") {
                    assert!(!e.to_string().contains('\n'));
                }
            }
        }
    }
}

#[test]
fn deeply_nested_pages() {
    let nested = |depth: usize| {
        let mut body = String::new();
        for i in 0..depth {
            body.push_str(&format!("<page id=\"pg{i}\">\n"));
        }
        body.push_str(&place("deep", Some("1")));
        body.push_str(&"</page>".repeat(depth));
        doc(&body)
    };
    // 100 nested pages are fine
    let net = parse_ok(&nested(100));
    assert_eq!(net.places(), ["deep"]);
    // 20 000 would overflow roxmltree's recursion: refused, never a crash
    let text = nested(20_000);
    let limit = crate::MAX_XML_DEPTH;
    // <pnml> <net> <page id="page0"> then pg0, pg1, ...: the first level
    // beyond the limit is page pg{limit - 3}
    let line = line_of(&text, &format!("<page id=\"pg{}\">", limit - 3));
    parse_err(
        &text,
        ErrorKind::Unsupported,
        Some(line),
        &["nested more than 128 levels"],
    );
}

#[test]
fn parse_file_reports_io_and_utf8_errors() {
    let missing = std::path::Path::new("/nonexistent/dir/net.pnml");
    let e = crate::parse_file(missing).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Io);
    assert!(
        e.to_string()
            .starts_with("/nonexistent/dir/net.pnml: cannot read file"),
        "{e}"
    );

    let dir = std::env::temp_dir().join(format!("statebench-pnml-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("latin1.pnml");
    std::fs::write(&path, b"<pnml>\n<net id=\"caf\xe9\"/></pnml>").unwrap();
    let e = crate::parse_file(&path).unwrap_err();
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(e.kind(), ErrorKind::Syntax);
    assert_eq!(e.line(), Some(2));
    assert!(e.to_string().contains("not valid UTF-8"), "{e}");
}

#[test]
fn too_many_attributes_or_namespaces_are_refused() {
    // roxmltree's load time is quadratic in an element's attributes (40 000
    // took 3.5 s) and grows faster still with nested namespace declarations:
    // refused by the linear pre-scan, at the offending element.
    let attrs = |n: usize| (0..n).map(|k| format!(" a{k}=\"x\"")).collect::<String>();
    let with_attrs = |n: usize| {
        doc(&format!(
            "<place id=\"p\"{}/>\n{}",
            attrs(n),
            place("q", Some("1"))
        ))
    };
    let net = parse_ok(&with_attrs(crate::MAX_XML_ATTRIBUTES - 1));
    assert_eq!(net.places(), ["p", "q"]);
    let text = with_attrs(40_000);
    let line = line_of(&text, "<place id=\"p\"");
    parse_err(
        &text,
        ErrorKind::Unsupported,
        Some(line),
        &["more than 64 attributes"],
    );
    let ns = |n: usize| {
        let open: String = (0..n)
            .map(|k| format!("<page id=\"g{k}\" xmlns:n{k}=\"u{k}\">"))
            .collect();
        doc(&format!(
            "{open}{}{}",
            place("p", Some("1")),
            "</page>".repeat(n)
        ))
    };
    // the document's default namespace is one declaration
    let net = parse_ok(&ns(crate::MAX_XML_NAMESPACES - 1));
    assert_eq!(net.places(), ["p"]);
    let text = ns(1_000);
    let line = line_of(
        &text,
        &format!("<page id=\"g{}\"", crate::MAX_XML_NAMESPACES - 1),
    );
    parse_err(
        &text,
        ErrorKind::Unsupported,
        Some(line),
        &["more than 64 XML namespace declarations"],
    );
}
