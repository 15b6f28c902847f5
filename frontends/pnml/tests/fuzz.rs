//! Bounded fuzzing of the load path (XML pre-scan, roxmltree, the PNML
//! reader) and of exploration: deep element nesting, elements with many
//! attributes, many namespace declarations, truncations and byte flips of
//! a small seed net. Every outcome must be a state count (a bounded
//! breadth-first search) or a clean one-line error naming the file; never a
//! panic, and never a stack overflow (which aborts this test binary). Each
//! input runs in a thread with a 2 MiB stack, Rust's default for spawned
//! threads and the smallest stack a model runs on. Deterministic: a fixed
//! xorshift seed, a few thousand inputs, seconds in release mode.

use frontend_testkit::fuzz::{self, load_error_at, Outcome};

const SEED: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<pnml xmlns="http://www.pnml.org/version-2009/grammar/pnml">
<net id="seed" type="http://www.pnml.org/version-2009/grammar/ptnet">
<page id="page0">
<place id="p0"><name><text>p0</text></name><initialMarking><text>2</text></initialMarking></place>
<place id="p1"/>
<place id="p2"><initialMarking><text>1</text></initialMarking></place>
<transition id="t0"/>
<transition id="t1"/>
<arc id="a0" source="p0" target="t0"><inscription><text>2</text></inscription></arc>
<arc id="a1" source="t0" target="p1"><inscription><text>2</text></inscription></arc>
<arc id="a2" source="p1" target="t1"/>
<arc id="a3" source="p2" target="t1"/>
<arc id="a4" source="t1" target="p2"/>
<arc id="a5" source="t1" target="p0"/>
</page>
</net>
</pnml>
"#;

/// Loads and explores `text` as `fuzz.pnml` ([`fuzz::run`]).
fn run(text: String) -> Result<Outcome, String> {
    fuzz::run(text, "fuzz.pnml", pnml::parse_str)
}

#[test]
fn deep_nesting_and_many_attributes_are_errors_or_counts() {
    let n = fuzz::seed_states(run, SEED);
    let p1 = r#"<place id="p1"/>"#;
    let with = |x: &str| SEED.replacen(p1, x, 1);
    // <pnml> <net> <page> <place>: the place is 4 deep
    let (depth, attrs, ns) = (
        pnml::MAX_XML_DEPTH,
        pnml::MAX_XML_ATTRIBUTES,
        pnml::MAX_XML_NAMESPACES,
    );
    let same = [
        with(&format!(
            r#"<place id="p1"><name>{}x{}</name></place>"#,
            "<a>".repeat(depth - 5),
            "</a>".repeat(depth - 5)
        )),
        with(&format!(
            "{}{p1}{}",
            (0..depth - 4)
                .map(|k| format!(r#"<page id="g{k}">"#))
                .collect::<String>(),
            "</page>".repeat(depth - 4)
        )),
        with(&format!(
            r#"<place id="p1"{}/>"#,
            (1..attrs)
                .map(|k| format!(r#" a{k}="{k}""#))
                .collect::<String>()
        )),
        with(&format!(
            r#"<place id="p1"{}/>"#,
            (1..ns)
                .map(|k| format!(r#" xmlns:n{k}="u{k}""#))
                .collect::<String>()
        )),
    ];
    fuzz::assert_preserving(run, same.to_vec(), n);
    for size in [depth + 1, 5_000, 100_000] {
        let deep = [
            format!("{}x{}", "<a>".repeat(size), "</a>".repeat(size)),
            (0..size)
                .map(|k| format!(r#"<page id="g{k}">"#))
                .collect::<String>(),
        ];
        let texts = deep.iter().map(|x| with(x)).collect();
        fuzz::assert_load_errors(run, texts, "nested more than", &format!("nest {size}"));
    }
    for size in [attrs.max(ns) + 1, 5_000, 100_000] {
        let wide = [
            (
                format!(
                    r#"<place id="p1"{}/>"#,
                    (1..=size)
                        .map(|k| format!(r#" a{k}="{k}""#))
                        .collect::<String>()
                ),
                "attributes",
            ),
            (
                (0..size)
                    .map(|k| format!(r#"<name xmlns:n{k}="u"/>"#))
                    .collect::<String>(),
                "namespace declarations",
            ),
        ];
        for (k, (x, what)) in wide.iter().enumerate() {
            let out = run(with(x)).unwrap_or_else(|p| panic!("wide {size}/{k}: panic {p}"));
            assert!(load_error_at(&out, what), "wide {size}/{k}: {out:?}");
        }
    }
}

#[test]
fn truncations_and_byte_flips_are_errors_or_counts() {
    fuzz::truncations_and_byte_flips(SEED, b"<>/=\"' !?-[]&;:#xap0123456789\n\xc3", 3_000, run);
}
