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

use std::collections::{HashSet, VecDeque};

use pins::Model;

const STACK: usize = 2 << 20;
/// States explored per input before the search stops (still a success).
const BOUND: usize = 2_000;

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

#[derive(Debug, PartialEq)]
enum Outcome {
    States(usize),
    ModelError,
    LoadError(String),
}

fn explore(m: &promela::PromelaModel) -> Outcome {
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
        .spawn(move || match promela::parse_str(&text, "fuzz.pml") {
            Err(e) => {
                let msg = e.to_string();
                assert!(
                    msg.starts_with("fuzz.pml") && !msg.contains('\n'),
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

/// A load error `fuzz.pml:LINE:COL: ...` containing `what`.
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
fn deep_nesting_and_long_chains_are_errors_or_counts() {
    let seed = run(SEED.to_string()).expect("seed");
    let Outcome::States(n) = seed else {
        panic!("seed: {seed:?}")
    };
    assert!(n > 1 && n <= BOUND, "seed explores {n} states");
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
    for (k, text) in same.into_iter().enumerate() {
        assert_eq!(run(text), Ok(Outcome::States(n)), "preserving mutant {k}");
    }
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
        for (k, e) in deep.iter().enumerate() {
            let out = run(with(e)).unwrap_or_else(|p| panic!("nest {depth}/{k}: panic {p}"));
            assert!(
                load_error_at(&out, "nested too deeply"),
                "nest {depth}/{k}: {out:?}"
            );
        }
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
        for (k, s) in deep.iter().enumerate() {
            let out = run(with_stmt(s)).unwrap_or_else(|p| panic!("stmt {depth}/{k}: panic {p}"));
            assert!(
                load_error_at(&out, "nested too deeply"),
                "stmt {depth}/{k}: {out:?}"
            );
        }
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
        for (k, text) in long.into_iter().enumerate() {
            let out = run(text).unwrap_or_else(|p| panic!("chain {len}/{k}: panic {p}"));
            assert!(
                load_error_at(&out, "nested too deeply"),
                "chain {len}/{k}: {out:?}"
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
    let alphabet = b"(){}[];,:.->+-*/%<=!&|^~?_0123456789 \n\"aciomvx";
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
