//! The bounded fuzzing driver of the front-ends' `tests/fuzz.rs`: loads a
//! mutated model text and explores it breadth-first up to [`BOUND`] states
//! on a thread of [`STACK`] bytes (Rust's default for spawned threads, the
//! smallest stack a model runs on: parallel engines explore on spawned
//! threads), and says what came out. A stack overflow aborts the test
//! binary; a panic comes back as `Err`. The inputs (seeds, mutations) are
//! each front-end's own.

use std::fmt::Display;

use pins::Model;

use crate::bfs::Frontier;

/// Stack of the thread an input is loaded and explored on.
pub const STACK: usize = 2 << 20;
/// States explored per input before the search stops (still a success).
pub const BOUND: usize = 2_000;

/// What loading and exploring a text gave: states (at most [`BOUND`] + 1),
/// a model error, or a load error (its one-line message).
#[derive(Debug, PartialEq)]
pub enum Outcome {
    States(usize),
    ModelError,
    LoadError(String),
}

/// Breadth-first search of `m`, stopped after [`BOUND`] states.
pub fn explore(m: &dyn Model) -> Outcome {
    let mut f = Frontier::of(m);
    while let Some(s) = f.pop() {
        let mut succ = Vec::new();
        if m.next_all(&s, &mut |_, t| succ.push(t.to_vec())).is_err() {
            return Outcome::ModelError;
        }
        for t in succ {
            if f.states() <= BOUND {
                f.offer(&t);
            }
        }
    }
    Outcome::States(f.states())
}

/// The states the seed text explores with `run`: more than one, at most
/// [`BOUND`] (the mutants are compared with it).
pub fn seed_states(run: fn(String) -> Result<Outcome, String>, seed: &str) -> usize {
    let out = run(seed.to_string()).expect("seed");
    let Outcome::States(n) = out else {
        panic!("seed: {out:?}")
    };
    assert!(n > 1 && n <= BOUND, "seed explores {n} states");
    n
}

/// Every text of `texts` (mutants at a limit) explores the seed's `n` states.
pub fn assert_preserving(run: fn(String) -> Result<Outcome, String>, texts: Vec<String>, n: usize) {
    for (k, text) in texts.into_iter().enumerate() {
        assert_eq!(run(text), Ok(Outcome::States(n)), "preserving mutant {k}");
    }
}

/// Every text of `texts` (mutants past a limit, `what` names them in
/// failures) is a load error at a position containing `error`, never a
/// panic.
pub fn assert_load_errors(
    run: fn(String) -> Result<Outcome, String>,
    texts: Vec<String>,
    error: &str,
    what: &str,
) {
    for (k, text) in texts.into_iter().enumerate() {
        let out = run(text).unwrap_or_else(|p| panic!("{what}/{k}: panic {p}"));
        assert!(load_error_at(&out, error), "{what}/{k}: {out:?}");
    }
}

/// Loads `text` as the file `label` with `load` and explores it, on a
/// [`STACK`]-sized thread. A load error must be one line starting with
/// `label`, a model must pass [`pins::validate`]; a panic (those checks
/// included) is returned as `Err` with its message.
pub fn run<M, E>(
    text: String,
    label: &'static str,
    load: fn(&str, &str) -> Result<M, E>,
) -> Result<Outcome, String>
where
    M: Model + 'static,
    E: Display + 'static,
{
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || match load(&text, label) {
            Err(e) => {
                let msg = e.to_string();
                assert!(
                    msg.starts_with(label) && !msg.contains('\n'),
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

/// A load error `FILE:LINE:COL: ...` containing `what`.
pub fn load_error_at(out: &Outcome, what: &str) -> bool {
    matches!(out, Outcome::LoadError(m)
        if m.contains(what) && m.split(':').nth(1).is_some_and(|l| l.parse::<u32>().is_ok())
            && m.split(':').nth(2).is_some_and(|c| c.parse::<u32>().is_ok()))
}

/// xorshift64*: deterministic, dependency-free.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// `seed` cut at every byte, then `edits` mutants of 1 to 4 random byte
/// replacements, deletions or insertions drawn from `alphabet` (a fixed
/// [`Rng`] seed: the same inputs every run), each loaded and explored with
/// `run`: every outcome must be a count, a model error or a clean load
/// error, never a panic; some of both kinds must occur. Returns (explored,
/// load errors).
pub fn truncations_and_byte_flips(
    seed: &str,
    alphabet: &[u8],
    edits: usize,
    run: fn(String) -> Result<Outcome, String>,
) -> (usize, usize) {
    let bytes = seed.as_bytes();
    let mut inputs: Vec<Vec<u8>> = (0..bytes.len()).map(|cut| bytes[..cut].to_vec()).collect();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..edits {
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
    (counts, errors)
}
