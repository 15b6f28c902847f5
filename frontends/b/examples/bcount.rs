//! Explores B machines with a naive BFS and prints their counts (ProB's
//! convention plus the root): `bcount FILE.mch... [--limit N]`.
//! A development tool; the tests do the checking.

use std::time::Instant;

use frontend_testkit::bfs::Frontier;
use pins::Model;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut limit = usize::MAX;
    let mut files = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--limit" {
            limit = it
                .next()
                .and_then(|s| s.parse::<f64>().ok())
                .expect("--limit N") as usize;
        } else {
            files.push(a.clone());
        }
    }
    for f in files {
        let t0 = Instant::now();
        let m = match bmethod::parse_file(std::path::Path::new(&f)) {
            Ok(m) => m,
            Err(e) => {
                println!("{f}\t{}\t{e}", e.kind().as_str());
                continue;
            }
        };
        let mut seen = Frontier::of(&m);
        let mut edges = 0u64;
        let mut status = "ok".to_owned();
        let mut per_group = vec![0u64; m.groups().len()];
        while let Some(s) = seen.pop() {
            let mut succ = Vec::new();
            if let Err(e) = m.next_all(&s, &mut |g, t| {
                per_group[g] += 1;
                succ.push(t.to_vec())
            }) {
                status = format!(
                    "{}\t{e}",
                    if bmethod::is_unsupported(&e) {
                        "unsupported"
                    } else {
                        "model_error"
                    }
                );
                break;
            }
            edges += succ.len() as u64;
            for t in succ {
                seen.offer(&t);
            }
            if seen.states() > limit {
                status = "limit".into();
                break;
            }
        }
        if std::env::var("BCOUNT_GROUPS").is_ok() {
            for (g, n) in m.groups().iter().zip(&per_group) {
                println!("  {}\t{n}", g.label);
            }
        }
        println!(
            "{f}\t{}\t{edges}\t{status}\t{:.2}s",
            seen.states(),
            t0.elapsed().as_secs_f64()
        );
    }
}
