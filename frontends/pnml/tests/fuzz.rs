//! Bounded fuzzing of the load path (XML pre-scan, roxmltree, the PNML
//! reader) and of exploration: deep element nesting, elements with many
//! attributes, many namespace declarations, truncations and byte flips of
//! a small seed net. Every outcome must be a state count (a bounded
//! breadth-first search) or a clean one-line error naming the file; never a
//! panic, and never a stack overflow (which aborts this test binary). Each
//! input runs in a thread with a 2 MiB stack, Rust's default for spawned
//! threads and the smallest stack a model runs on. Deterministic: a fixed
//! xorshift seed, a few thousand inputs, seconds in release mode.

use std::collections::{HashSet, VecDeque};

use pins::Model;

const STACK: usize = 2 << 20;
/// States explored per input before the search stops (still a success).
const BOUND: usize = 2_000;

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

#[derive(Debug, PartialEq)]
enum Outcome {
    States(usize),
    ModelError,
    LoadError(String),
}

fn explore(m: &pnml::PetriNet) -> Outcome {
    let init = m.initial_state();
    let mut seen = HashSet::new();
    let mut queue = VecDeque::new();
    seen.insert(init.clone());
    queue.push_back(init);
    while let Some(s) = queue.pop_front() {
        let mut succ = Vec::new();
        if m.next_all(&s, &mut |_, t| succ.push(t.to_vec())).is_err() {
            return Outcome::ModelError;
        }
        for t in succ {
            if seen.len() <= BOUND && seen.insert(t.clone()) {
                queue.push_back(t);
            }
        }
    }
    Outcome::States(seen.len())
}

/// Loads and explores `text` on a [`STACK`]-sized thread; a panic is
/// returned as `Err` with its message.
fn run(text: String) -> Result<Outcome, String> {
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || match pnml::parse_str(&text, "fuzz.pnml") {
            Err(e) => {
                let msg = e.to_string();
                assert!(
                    msg.starts_with("fuzz.pnml") && !msg.contains('\n'),
                    "not a clean error: {msg}"
                );
                Outcome::LoadError(msg)
            }
            Ok(m) => {
                pins::validate(&m).unwrap_or_else(|e| panic!("invalid model: {e}"));
                explore(&m)
            }
        })
        .expect("spawn")
        .join()
        .map_err(|p| {
            p.downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default()
        })
}

/// A load error `fuzz.pnml:LINE:COL: ...` containing `what`.
fn load_error_at(out: &Outcome, what: &str) -> bool {
    matches!(out, Outcome::LoadError(m)
        if m.contains(what) && m.split(':').nth(1).is_some_and(|l| l.parse::<u32>().is_ok())
            && m.split(':').nth(2).is_some_and(|c| c.parse::<u32>().is_ok()))
}

/// xorshift64*: deterministic, dependency-free.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn deep_nesting_and_many_attributes_are_errors_or_counts() {
    let seed = run(SEED.to_string()).expect("seed");
    let Outcome::States(n) = seed else {
        panic!("seed: {seed:?}")
    };
    assert!(n > 1 && n <= BOUND, "seed explores {n} states");
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
    for (k, text) in same.into_iter().enumerate() {
        assert_eq!(run(text), Ok(Outcome::States(n)), "preserving mutant {k}");
    }
    for size in [depth + 1, 5_000, 100_000] {
        let deep = [
            format!("{}x{}", "<a>".repeat(size), "</a>".repeat(size)),
            (0..size)
                .map(|k| format!(r#"<page id="g{k}">"#))
                .collect::<String>(),
        ];
        for (k, x) in deep.iter().enumerate() {
            let out = run(with(x)).unwrap_or_else(|p| panic!("nest {size}/{k}: panic {p}"));
            assert!(
                load_error_at(&out, "nested more than"),
                "nest {size}/{k}: {out:?}"
            );
        }
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
    let bytes = SEED.as_bytes();
    let mut inputs = Vec::new();
    for cut in 0..bytes.len() {
        inputs.push(bytes[..cut].to_vec());
    }
    let alphabet = b"<>/=\"' !?-[]&;:#xap0123456789\n\xc3";
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..3_000 {
        let mut b = bytes.to_vec();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(b.len());
            match rng.below(3) {
                0 => b[at] = alphabet[rng.below(alphabet.len())],
                1 => {
                    b.remove(at);
                }
                _ => b.insert(at, alphabet[rng.below(alphabet.len())]),
            }
        }
        inputs.push(b);
    }
    let (mut counts, mut errors) = (0, 0);
    for b in inputs {
        let text = String::from_utf8_lossy(&b).into_owned();
        match run(text.clone()) {
            Ok(Outcome::States(_) | Outcome::ModelError) => counts += 1,
            Ok(Outcome::LoadError(_)) => errors += 1,
            Err(p) => panic!("panic {p} on:\n{text}"),
        }
    }
    eprintln!("{counts} mutants explored, {errors} load errors");
    assert!(counts > 0 && errors > 0);
}
