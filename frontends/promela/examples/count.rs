//! Counts the reachable states of Promela models (breadth-first, full
//! vectors in a hash set), for comparison with SPIN's `states, stored`.
//!
//! `cargo run --release -p statebench-promela --example count -- [--max N] FILE.pm...`
//! prints `FILE<TAB>states<TAB>transitions` (or `error: ...`, or
//! `unfinished` when more than N states, default 10^7).
use pins::Model;
use rustc_hash::FxHashSet;
use std::collections::VecDeque;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut max = 10_000_000usize;
    if args.first().map(String::as_str) == Some("--max") && args.len() > 1 {
        max = args[1].parse().unwrap_or(max);
        args.drain(..2);
    }
    for f in args {
        let m = match promela::parse_file(std::path::Path::new(&f)) {
            Ok(m) => m,
            Err(e) => {
                println!("{f}\terror: {e}");
                continue;
            }
        };
        let mut seen: FxHashSet<Vec<u32>> = FxHashSet::default();
        let mut q = VecDeque::new();
        let init = m.initial_state();
        seen.insert(init.clone());
        q.push_back(init);
        let mut trans = 0u64;
        let mut err = None;
        while let Some(s) = q.pop_front() {
            if seen.len() > max {
                break;
            }
            let r = m.next_all(&s, &mut |_, t| {
                trans += 1;
                if !seen.contains(t) {
                    seen.insert(t.to_vec());
                    q.push_back(t.to_vec());
                }
            });
            if let Err(e) = r {
                err = Some(e);
                break;
            }
        }
        match err {
            Some(e) => println!("{f}\terror: {e}"),
            None if seen.len() > max => println!("{f}\tunfinished"),
            None => println!("{f}\t{}\t{trans}", seen.len()),
        }
    }
}
