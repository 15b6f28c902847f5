//! Tallies the B front-end over every row of ProB's oracle with a complete
//! count of one formalism (`b`, classical B, by default; `eventb` for the
//! Event-B exports): `btally [--formalism b|eventb] [--timeout SECS]
//! [--limit STATES (default 10^6)] [--jobs N] [--out FILE.tsv]
//! [--filter SUBSTRING]`. Each model runs in a child process (this
//! program with `--one PATH LIMIT`) killed after the timeout. Prints
//! matched / unsupported (top reasons) / model errors / refused (syntax,
//! semantic) / out of budget / WRONG; exits 1 if any count is wrong.
//! Needs `../shared/datasets/b` beside the workspace.

use std::collections::{BTreeMap, VecDeque};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use frontend_testkit::bfs::{bfs, Bfs};

fn one(path: &str, limit: usize) {
    let m = match bmethod::parse_file(Path::new(path)) {
        Ok(m) => m,
        Err(e) => {
            println!("{}\t{e}", e.kind().as_str());
            return;
        }
    };
    match bfs(&m, limit, None) {
        Bfs::Done(states, edges) => println!("done\t{states}\t{edges}"),
        Bfs::Error(e) if bmethod::is_unsupported(&e) => println!("unsupported\t{e}"),
        Bfs::Error(e) => println!("model_error\t{e}"),
        Bfs::GaveUp(_) => println!("limit\t{limit} states"),
    }
}

/// The reason of a result: its message without the `unsupported: ` and
/// `FILE:LINE:COL: ` prefixes, parenthesised details and quoted names.
fn reason(detail: &str) -> String {
    let mut msg = detail.strip_prefix("unsupported: ").unwrap_or(detail);
    if let Some(i) = msg.find(": ") {
        let mut parts = msg[..i].rsplit(':');
        let numeric = |p: Option<&str>| {
            p.is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        };
        if numeric(parts.next()) && numeric(parts.next()) {
            msg = &msg[i + 2..];
        }
    }
    let msg = msg.split(" (").next().unwrap_or(msg);
    let unquoted: String = msg
        .split('\'')
        .enumerate()
        .map(|(k, part)| if k % 2 == 1 { "_" } else { part })
        .collect::<Vec<_>>()
        .join("'");
    unquoted.chars().take(90).collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--one") {
        one(&args[1], args[2].parse().expect("limit"));
        return;
    }
    let (mut timeout, mut limit, mut jobs) = (10u64, 1_000_000usize, 2usize);
    let mut out: Option<PathBuf> = None;
    let mut filter = String::new();
    let mut prob_errors = false;
    let mut formalism = "b".to_owned();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut v = || it.next().expect("option value").clone();
        match a.as_str() {
            "--timeout" => timeout = v().parse().expect("secs"),
            "--limit" => limit = v().parse::<f64>().expect("states") as usize,
            "--jobs" => jobs = v().parse().expect("jobs"),
            "--out" => out = Some(PathBuf::from(v())),
            "--filter" => filter = v(),
            "--prob-errors" => prob_errors = true,
            "--formalism" => formalism = v(),
            other => panic!("unknown option {other}"),
        }
    }
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/datasets");
    let text = std::fs::read_to_string(dir.join("b/oracle.csv"))
        .expect("read ../shared/datasets/b/oracle.csv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    let col = |n: &str| header.iter().position(|h| *h == n).expect("column");
    let cr = col("prob_result");
    let (ci, cf, cp, cs, ct, cc) = (
        col("instance"),
        col("formalism"),
        col("path"),
        col("oracle_states"),
        col("oracle_transitions"),
        col("complete"),
    );
    let rows: Vec<(String, String, u64, u64)> = lines
        .filter_map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let error_row = !matches!(f[cr], "all" | "not_run" | "None");
            let wanted = if prob_errors {
                error_row
            } else {
                f[cc] == "yes"
            };
            (f[cf] == formalism && wanted && f[ci].contains(&filter)).then(|| {
                let n = |s: &str| s.parse().unwrap_or(u64::MAX - 1);
                (f[ci].to_owned(), f[cp].to_owned(), n(f[cs]), n(f[ct]))
            })
        })
        .collect();
    let exe = std::env::current_exe().expect("exe");
    let queue = Arc::new(Mutex::new(
        rows.into_iter().enumerate().collect::<VecDeque<_>>(),
    ));
    let results = Arc::new(Mutex::new(Vec::new()));
    let mut handles = Vec::new();
    for _ in 0..jobs {
        let (queue, results, exe, dir) = (queue.clone(), results.clone(), exe.clone(), dir.clone());
        handles.push(std::thread::spawn(move || loop {
            let Some((k, (inst, path, s, t))) = queue.lock().expect("queue").pop_front() else {
                break;
            };
            let full = dir.join(&path);
            let t0 = Instant::now();
            // 4 GiB of address space per model (`ulimit -v`), so that one
            // model cannot exhaust a shared machine
            let mut child = Command::new("sh")
                .args(["-c", "ulimit -v 4000000; exec \"$0\" \"$@\""])
                .arg(&exe)
                .args(["--one", &full.display().to_string(), &limit.to_string()])
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .expect("spawn");
            let status = loop {
                if let Some(st) = child.try_wait().expect("wait") {
                    break Some(st);
                }
                if t0.elapsed() > Duration::from_secs(timeout) {
                    let _ = child.kill();
                    let _ = child.wait();
                    break None;
                }
                std::thread::sleep(Duration::from_millis(20));
            };
            let mut outp = String::new();
            if let Some(mut so) = child.stdout.take() {
                use std::io::Read;
                let _ = so.read_to_string(&mut outp);
            }
            let line = outp.lines().next().unwrap_or("").to_owned();
            let (cat, detail) = match status {
                None => ("budget".to_owned(), format!("timeout {timeout}s")),
                Some(st) if !st.success() => ("crash".to_owned(), format!("{st}")),
                Some(_) => {
                    let f: Vec<&str> = line.splitn(3, '\t').collect();
                    match f[0] {
                        "done" => {
                            let (gs, gt): (u64, u64) =
                                (f[1].parse().expect("s"), f[2].parse().expect("t"));
                            if gs == s + 1 && gt == t {
                                ("matched".into(), String::new())
                            } else {
                                ("WRONG".into(), format!("got {gs}/{gt}, oracle {}+1/{t}", s))
                            }
                        }
                        "limit" => ("budget".into(), f.get(1).unwrap_or(&"").to_string()),
                        other => (other.to_owned(), f.get(1).unwrap_or(&"").to_string()),
                    }
                }
            };
            results.lock().expect("results").push((
                k,
                inst,
                cat,
                detail,
                t0.elapsed().as_secs_f64(),
            ));
        }));
    }
    for h in handles {
        h.join().expect("worker");
    }
    let mut res = results.lock().expect("results").clone();
    res.sort_by_key(|r| r.0);
    let mut by_cat: BTreeMap<String, usize> = BTreeMap::new();
    let mut reasons: BTreeMap<(String, String), usize> = BTreeMap::new();
    for (_, _, cat, detail, _) in &res {
        *by_cat.entry(cat.clone()).or_default() += 1;
        let msg = reason(detail);
        *reasons.entry((cat.clone(), msg)).or_default() += 1;
    }
    if let Some(p) = out {
        let mut f = std::fs::File::create(p).expect("out file");
        for (_, inst, cat, detail, secs) in &res {
            writeln!(f, "{inst}\t{cat}\t{secs:.2}\t{detail}").expect("write");
        }
    }
    println!("models: {}", res.len());
    for (c, n) in &by_cat {
        println!("  {c}: {n}");
    }
    let mut top: Vec<_> = reasons
        .into_iter()
        .filter(|((c, _), _)| c != "matched")
        .collect();
    top.sort_by_key(|t| std::cmp::Reverse(t.1));
    println!("top reasons:");
    for ((c, m), n) in top.iter().take(40) {
        println!("  {n:5}  {c}: {m}");
    }
    for (_, inst, cat, detail, _) in &res {
        if cat == "WRONG" {
            println!("WRONG {inst}: {detail}");
        }
    }
    if by_cat.contains_key("WRONG") {
        std::process::exit(1);
    }
}
