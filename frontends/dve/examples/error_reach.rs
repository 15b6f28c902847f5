//! Diagnostic: which DVE models reach DiVinE's error state, and what the
//! state count is with the error state terminal and with it expanded.
//!
//! `cargo run --release -p statebench-dve --example error_reach -- DIR ORACLE.csv MAX_STATES`
//! explores every complete instance of `ORACLE.csv` with at most
//! `MAX_STATES` states (BFS, error state not expanded), and, for those that
//! reach the error state, also counts the states only reachable through it.
use pins::Model;
use rustc_hash::FxHashSet;
use std::collections::VecDeque;

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let (dir, oracle, max): (&str, &str, u64) = (&a[1], &a[2], a[3].parse().unwrap());
    let text = std::fs::read_to_string(oracle).unwrap();
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let (inst, states, complete) = (f[0], f[1].parse::<u64>().unwrap_or(0), f[4]);
        if complete != "yes" || states > max {
            continue;
        }
        let m = match dve::parse_file(std::path::Path::new(&format!("{dir}/{inst}.dve"))) {
            Ok(m) => m,
            Err(e) => {
                println!("{inst}\tparse error {e}");
                continue;
            }
        };
        let mut seen: FxHashSet<Vec<u32>> = FxHashSet::default();
        let mut q = VecDeque::new();
        let init = m.initial_state();
        seen.insert(init.clone());
        q.push_back(init);
        let mut err = false;
        let explore = |seen: &mut FxHashSet<Vec<u32>>,
                       q: &mut VecDeque<Vec<u32>>,
                       expand_err: bool,
                       err: &mut bool| {
            while let Some(s) = q.pop_front() {
                if m.is_error_state(&s) {
                    *err = true;
                    if !expand_err {
                        continue;
                    }
                }
                m.next_all(&s, &mut |_, t| {
                    if !seen.contains(t) {
                        seen.insert(t.to_vec());
                        q.push_back(t.to_vec());
                    }
                })
                .unwrap();
            }
        };
        explore(&mut seen, &mut q, false, &mut err);
        let terminal = seen.len() as u64;
        if !err {
            println!(
                "{inst}\tno-error\t{terminal}\toracle {states}\t{}",
                if terminal == states { "ok" } else { "MISMATCH" }
            );
            continue;
        }
        let e = seen.iter().find(|s| m.is_error_state(s)).unwrap().clone();
        q.push_back(e.clone());
        let mut dummy = false;
        explore(&mut seen, &mut q, true, &mut dummy);
        let expanded = seen.len() as u64;
        let n0 = m
            .slots()
            .iter()
            .position(|s| s.process == Some(0) && s.name.ends_with(".pc"))
            .map(|i| e[i])
            .unwrap_or(0);
        println!(
            "{inst}\tERROR\tterminal {terminal}\texpanded {expanded}\toracle {states}\t{}\tfirst-process-states {n0}",
            if terminal == states { "terminal-fits" } else if expanded == states { "expanded-fits" } else { "neither" }
        );
    }
}
