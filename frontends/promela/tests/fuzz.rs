//! Bounded fuzzing of the whole load path (lexer, parser, compiler) and of
//! exploration: deep nesting of expressions and statements, long operator
//! chains, truncations and byte flips of a small seed model. Every outcome
//! must be a state count (a bounded breadth-first search), a model error,
//! or a clean one-line error naming the file; never a panic, and never a
//! stack overflow (which aborts this test binary). Each input runs in a
//! thread with a 2 MiB stack, Rust's default for spawned threads and the
//! smallest stack a model runs on (the `statebench child` loads on its main
//! thread, 8 MiB by default, and parallel engines explore on spawned
//! threads). Deterministic: a fixed xorshift seed, a few thousand inputs,
//! seconds in release mode.

use frontend_testkit::fuzz::{self, Outcome};

/// The load error of an input past a nesting or chain limit.
const TOO_DEEP: &str = "nested too deeply";

const SEED: &str = "mtype = { req, ack };
chan c = [2] of { mtype, byte };
byte a[3];
int x;
active proctype P() {
  byte i;
  do
  :: i < 3 -> c!req,i; i++
  :: i == 3 -> break
  od;
  atomic { x = x + 1; a[x % 3] = a[(x + 1) % 3] }
}
active proctype Q() {
  byte v; mtype m;
  do
  :: c?m,v -> if :: v > 1 -> a[0] = v :: else -> skip fi
  od
}
";

/// Loads and explores `text` as `fuzz.pml` ([`fuzz::run`]).
fn run(text: String) -> Result<Outcome, String> {
    fuzz::run(text, "fuzz.pml", promela::parse_str)
}

#[test]
fn deep_nesting_and_long_chains_are_errors_or_counts() {
    let n = fuzz::seed_states(run, SEED);
    let guard = "i < 3";
    let with = |e: &str| SEED.replacen(guard, e, 1);
    let stmt = "else -> skip";
    let with_stmt = |s: &str| SEED.replacen(stmt, &format!("else -> {s}"), 1);
    let (nest, height, stmts) = (
        promela::MAX_NESTING,
        promela::MAX_HEIGHT,
        promela::MAX_STATEMENT_NESTING,
    );
    // `-(` is two levels; an even count keeps the sign.
    let even = (nest - 1) / 2 / 2 * 2;
    // At the limits: accepted, and the same state space as the seed (the
    // `else -> skip` is three statements deep: do, if, skip).
    let same = [
        with(&format!(
            "{}{guard}{}",
            "(".repeat(nest - 1),
            ")".repeat(nest - 1)
        )),
        with(&format!("{}{guard}{}", "-(".repeat(even), ")".repeat(even))),
        with(&format!("i{} < 3", " + 0".repeat(height - 1))),
        with(&format!("i < 3{}", " && true".repeat(height - 1))),
        with_stmt(&format!(
            "{}skip{}",
            "{ ".repeat(stmts - 3),
            " }".repeat(stmts - 3)
        )),
    ];
    fuzz::assert_preserving(run, same.to_vec(), n);
    // Past the limits, up to 100,000 deep: an error at a position.
    for depth in [nest + 1, 5_000, 100_000] {
        let deep = [
            format!("{}{guard}{}", "(".repeat(depth), ")".repeat(depth)),
            format!("{}i < 3", "- ".repeat(depth)),
            format!("{}i < 3", "! ".repeat(depth)),
            format!("{}0{} < 3", "a[".repeat(depth), "]".repeat(depth)),
            format!("{}i < 3{}", "(i -> ".repeat(depth), " : 0)".repeat(depth)),
            format!("{}c{} < 3", "len(".repeat(depth), ")".repeat(depth)),
        ];
        let texts = deep.iter().map(|e| with(e)).collect();
        fuzz::assert_load_errors(run, texts, TOO_DEEP, &format!("nest {depth}"));
    }
    for depth in [stmts + 1, 5_000, 100_000] {
        let deep = [
            format!("{}skip{}", "{ ".repeat(depth), " }".repeat(depth)),
            format!("{}skip{}", "if :: ".repeat(depth), " fi".repeat(depth)),
            format!("{}skip{}", "do :: ".repeat(depth), " od".repeat(depth)),
            format!("{}skip{}", "atomic { ".repeat(depth), " }".repeat(depth)),
            format!("{}skip{}", "d_step { ".repeat(depth), " }".repeat(depth)),
            (0..depth).map(|k| format!("L{k}: ")).collect::<String>() + "skip",
            // unbalanced: the limit comes first
            "if :: ".repeat(depth),
        ];
        let texts = deep.iter().map(|s| with_stmt(s)).collect();
        fuzz::assert_load_errors(run, texts, TOO_DEEP, &format!("stmt {depth}"));
    }
    for len in [height + 1, 5_000, 100_000] {
        let long = [
            with(&format!("i{} < 3", " + 1".repeat(len))),
            with(&format!("i < 3{}", " && i".repeat(len))),
            with(&format!("i < 3{}", " || i".repeat(len))),
            with(&format!("{}i", "1 - ".repeat(len))),
            SEED.replacen("x = x + 1", &format!("x = x{}", " + 1".repeat(len)), 1),
            SEED.replacen("byte a[3]", &format!("byte a[3{}]", " * 1".repeat(len)), 1),
            SEED.replacen("int x;", &format!("int x = 0{};", " - 1".repeat(len)), 1),
        ];
        fuzz::assert_load_errors(run, long.to_vec(), TOO_DEEP, &format!("chain {len}"));
    }
}

#[test]
fn truncations_and_byte_flips_are_errors_or_counts() {
    fuzz::truncations_and_byte_flips(
        SEED,
        b"(){}[];,:.->+-*/%<=!&|^~?_0123456789 \n\"aciomvx",
        3_000,
        run,
    );
}
