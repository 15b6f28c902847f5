//! Bounded fuzzing of the whole load path (lexer, parser, compiler) and of
//! exploration: deep nesting, long operator chains, truncations and byte
//! flips of a small seed model. Every outcome must be a state count (a
//! bounded breadth-first search) or a clean one-line error naming the file;
//! never a panic, and never a stack overflow (which aborts this test
//! binary). Each input runs in a thread with a 2 MiB stack, Rust's default
//! for spawned threads and the smallest stack a model runs on (the
//! `statebench child` loads on its main thread, 8 MiB by default, and
//! parallel engines explore on spawned threads). Deterministic: a fixed
//! xorshift seed, a few thousand inputs, seconds in release mode.

mod common;

use std::collections::{HashSet, VecDeque};

use pins::Model;

const STACK: usize = 2 << 20;
/// States explored per input before the search stops (still a success).
const BOUND: usize = 2_000;

const SEED: &str = "byte a[3] = {0, 1, 2};
int x;
channel c;
process P {
  state s0, s1;
  init s0;
  trans
    s0 -> s1 { guard x < 3; effect x = x + 1, a[x % 3] = a[(x + 1) % 3]; },
    s1 -> s0 { sync c!x; },
    s1 -> s0 { guard x == 3 && (a[0] != 7 || not (x > 4)); effect x = 0; };
}
process Q {
  byte y;
  state t;
  init t;
  trans t -> t { sync c?y; effect a[0] = y - y / 2; };
}
system async;
";

/// What loading and exploring `text` gave: states (at most [`BOUND`] + 1),
/// a model error, or a load error (its one-line message).
#[derive(Debug, PartialEq)]
enum Outcome {
    States(usize),
    ModelError,
    LoadError(String),
}

fn explore(m: &dve::DveModel) -> Outcome {
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
        .spawn(move || match dve::parse_str(&text, "fuzz.dve") {
            Err(e) => {
                let msg = e.to_string();
                assert!(
                    msg.starts_with("fuzz.dve") && !msg.contains('\n'),
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

fn load_error_at(out: &Outcome, what: &str) -> bool {
    // `fuzz.dve:LINE:COL: ... nested too deeply ...`
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
fn deep_nesting_and_long_chains_are_errors_or_counts() {
    let seed = run(SEED.to_string()).expect("seed");
    let Outcome::States(n) = seed else {
        panic!("seed: {seed:?}")
    };
    assert!(n > 1 && n <= BOUND, "seed explores {n} states");
    let guard = "x < 3";
    let with = |e: &str| SEED.replacen(guard, e, 1);
    let (nest, height) = (dve::MAX_NESTING, dve::MAX_HEIGHT);
    let even = (nest - 1) / 2 / 2 * 2;
    // At the limits: accepted, and the same state space as the seed.
    let same = [
        format!("{}{guard}{}", "(".repeat(nest - 1), ")".repeat(nest - 1)),
        // `-(` is two levels; an even count keeps the sign.
        format!("{}{guard}{}", "-(".repeat(even), ")".repeat(even)),
        format!("x{} < 3", " + 0".repeat(height - 1)),
        format!("x < 3{}", " && true".repeat(height - 1)),
    ];
    for (k, e) in same.iter().enumerate() {
        assert_eq!(
            run(with(e)),
            Ok(Outcome::States(n)),
            "preserving mutant {k}"
        );
    }
    // Past the limits, up to 100,000 deep: an error at a position.
    for depth in [nest + 1, 5_000, 100_000] {
        let deep = [
            format!("{}{guard}{}", "(".repeat(depth), ")".repeat(depth)),
            format!("{}x < 3", "- ".repeat(depth)),
            format!("{}x < 3", "not ".repeat(depth)),
            format!("{}0{} < 3", "a[".repeat(depth), "]".repeat(depth)),
            format!("{}x < 3", "x -> ".repeat(depth)),
        ];
        for (k, e) in deep.iter().enumerate() {
            let out = run(with(e)).unwrap_or_else(|p| panic!("nest {depth}/{k}: panic {p}"));
            assert!(
                load_error_at(&out, "nested too deeply"),
                "nest {depth}/{k}: {out:?}"
            );
        }
    }
    for len in [height + 1, 5_000, 100_000] {
        let long = [
            format!("x{} < 3", " + 1".repeat(len)),
            format!("x < 3{}", " && x".repeat(len)),
            format!("x < 3{}", " || x".repeat(len)),
            format!("{}x", "1 - ".repeat(len)),
        ];
        for (k, e) in long.iter().enumerate() {
            let out = run(with(e)).unwrap_or_else(|p| panic!("chain {len}/{k}: panic {p}"));
            assert!(
                load_error_at(&out, "nested too deeply"),
                "chain {len}/{k}: {out:?}"
            );
        }
        // In an effect's right-hand side, an array size and an initialiser too.
        for text in [
            SEED.replacen("x = x + 1", &format!("x = x{}", " + 1".repeat(len)), 1),
            SEED.replacen("a[3]", &format!("a[3{}]", " * 1".repeat(len)), 1),
            SEED.replacen("int x;", &format!("int x = {}0;", "(".repeat(len)), 1),
        ] {
            let out = run(text).unwrap_or_else(|p| panic!("chain {len}: panic {p}"));
            assert!(
                load_error_at(&out, "nested too deeply"),
                "chain {len}: {out:?}"
            );
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
    let alphabet = b"(){}[];,:.->+-*/%<=!&|^~?0123456789 \n\"axcPQs";
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
