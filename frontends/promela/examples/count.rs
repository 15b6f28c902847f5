//! Counts the reachable states of Promela models (breadth-first, full
//! vectors in a hash set), for comparison with SPIN's `states, stored`.
//!
//! `cargo run --release -p statebench-promela --example count -- [--max N] FILE.pm...`
//! prints `FILE<TAB>states<TAB>transitions` (or `error: ...`, or
//! `unfinished` when more than N states, default 10^7).
use frontend_testkit::bfs::Frontier;
use pins::Model;

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
        let mut seen = Frontier::of(&m);
        let mut trans = 0u64;
        let mut err = None;
        while let Some(s) = seen.pop() {
            if seen.states() > max {
                break;
            }
            let r = m.next_all(&s, &mut |_, t| {
                trans += 1;
                seen.offer(t);
            });
            if let Err(e) = r {
                err = Some(e);
                break;
            }
        }
        match err {
            Some(e) => println!("{f}\terror: {e}"),
            None if seen.states() > max => println!("{f}\tunfinished"),
            None => println!("{f}\t{}\t{trans}", seen.states()),
        }
    }
}
