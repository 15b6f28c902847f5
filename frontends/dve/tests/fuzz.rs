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

use frontend_testkit::fuzz::{self, Outcome};

/// The load error of an input past a nesting or chain limit.
const TOO_DEEP: &str = "nested too deeply";

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

/// Loads and explores `text` as `fuzz.dve` ([`fuzz::run`]).
fn run(text: String) -> Result<Outcome, String> {
    fuzz::run(text, "fuzz.dve", dve::parse_str)
}

#[test]
fn deep_nesting_and_long_chains_are_errors_or_counts() {
    let n = fuzz::seed_states(run, SEED);
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
    fuzz::assert_preserving(run, same.iter().map(|e| with(e)).collect(), n);
    // Past the limits, up to 100,000 deep: an error at a position.
    for depth in [nest + 1, 5_000, 100_000] {
        let deep = [
            format!("{}{guard}{}", "(".repeat(depth), ")".repeat(depth)),
            format!("{}x < 3", "- ".repeat(depth)),
            format!("{}x < 3", "not ".repeat(depth)),
            format!("{}0{} < 3", "a[".repeat(depth), "]".repeat(depth)),
            format!("{}x < 3", "x -> ".repeat(depth)),
        ];
        let texts = deep.iter().map(|e| with(e)).collect();
        fuzz::assert_load_errors(run, texts, TOO_DEEP, &format!("nest {depth}"));
    }
    for len in [height + 1, 5_000, 100_000] {
        let long = [
            format!("x{} < 3", " + 1".repeat(len)),
            format!("x < 3{}", " && x".repeat(len)),
            format!("x < 3{}", " || x".repeat(len)),
            format!("{}x", "1 - ".repeat(len)),
        ];
        let texts = long.iter().map(|e| with(e)).collect();
        fuzz::assert_load_errors(run, texts, TOO_DEEP, &format!("chain {len}"));
        // In an effect's right-hand side, an array size and an initialiser too.
        let texts = vec![
            SEED.replacen("x = x + 1", &format!("x = x{}", " + 1".repeat(len)), 1),
            SEED.replacen("a[3]", &format!("a[3{}]", " * 1".repeat(len)), 1),
            SEED.replacen("int x;", &format!("int x = {}0;", "(".repeat(len)), 1),
        ];
        fuzz::assert_load_errors(
            run,
            texts,
            TOO_DEEP,
            &format!("chain {len} (effect, size, init)"),
        );
    }
}

#[test]
fn truncations_and_byte_flips_are_errors_or_counts() {
    fuzz::truncations_and_byte_flips(
        SEED,
        b"(){}[];,:.->+-*/%<=!&|^~?0123456789 \n\"axcPQs",
        3_000,
        run,
    );
}
