//! `cargo run --release -p statebench-pnml --example pnml_stats -- [--explore N] FILE...`
//!
//! Prints, per PNML file: places, transitions, arcs, partition method,
//! component count and largest component, and the parse time; with
//! `--explore N`, also runs a breadth-first search through
//! `Model::next_all` up to N states and reports the successor throughput.
//! A measuring tool for this crate only; it must not be used by the harness.

use std::collections::{HashSet, VecDeque};
use std::path::PathBuf;
use std::time::Instant;

use pins::Model;

fn main() {
    let mut args = std::env::args().skip(1).peekable();
    let mut explore: Option<usize> = None;
    let mut files = Vec::new();
    while let Some(a) = args.next() {
        if a == "--explore" {
            explore = args.next().and_then(|n| n.parse().ok());
        } else {
            files.push(PathBuf::from(a));
        }
    }
    if files.is_empty() {
        eprintln!("usage: pnml_stats [--explore N] FILE...");
        std::process::exit(2);
    }
    println!(
        "file\tbytes\tplaces\ttransitions\tarcs\tpartition\tcomponents\tmax_component\tparse_s"
    );
    for path in files {
        let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        let t0 = Instant::now();
        let net = match pnml::parse_file(&path) {
            Ok(net) => net,
            Err(e) => {
                println!("{e}");
                continue;
            }
        };
        let secs = t0.elapsed().as_secs_f64();
        let parts = net.partition();
        let largest = parts.iter().map(|c| c.slots.len()).max().unwrap_or(0);
        println!(
            "{}\t{bytes}\t{}\t{}\t{}\t{:?}\t{}\t{largest}\t{secs:.3}",
            path.file_name().unwrap_or_default().to_string_lossy(),
            net.places().len(),
            net.transitions().len(),
            net.arc_count(),
            net.partition_method(),
            parts.len(),
        );
        if let Some(limit) = explore {
            bfs(&net, limit);
        }
    }
}

fn bfs(net: &pnml::PetriNet, limit: usize) {
    let t0 = Instant::now();
    let init = net.initial_state();
    let mut seen = HashSet::new();
    let mut queue = VecDeque::new();
    seen.insert(init.clone());
    queue.push_back(init);
    let mut firings = 0u64;
    let mut next_all_time = 0.0;
    let mut fresh: Vec<Vec<u32>> = Vec::new();
    while let Some(m) = queue.pop_front() {
        let t = Instant::now();
        let res = net.next_all(&m, &mut |_, s| {
            firings += 1;
            if seen.len() < limit && !seen.contains(s) {
                fresh.push(s.to_vec());
            }
        });
        next_all_time += t.elapsed().as_secs_f64();
        if let Err(e) = res {
            println!("  model error: {e}");
            return;
        }
        for s in fresh.drain(..) {
            if seen.insert(s.clone()) {
                queue.push_back(s);
            }
        }
    }
    println!(
        "  explored {} states, {firings} firings in {:.2?} (next_all incl. visited-set lookups {next_all_time:.3}s)",
        seen.len(),
        t0.elapsed(),
    );
    // Successor generation alone: next_all over every visited state with a
    // trivial emit.
    let states: Vec<Vec<u32>> = seen.into_iter().collect();
    let t = Instant::now();
    let (mut count, mut check) = (0u64, 0u64);
    for s in &states {
        let _ = net.next_all(s, &mut |g, succ| {
            count += 1;
            check = check.wrapping_add(g as u64 ^ u64::from(succ[0]));
        });
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "  next_all alone: {} calls, {count} successors in {secs:.3}s: {:.0} ns/call, {:.1} M successors/s (checksum {check})",
        states.len(),
        secs * 1e9 / states.len() as f64,
        count as f64 / secs / 1e6
    );
}
