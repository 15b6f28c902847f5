//! Tallies the B front-end over every row of ProB's oracle with a complete
//! count of one formalism (`b`, classical B, by default; `eventb` for the
//! Event-B exports): `btally [--formalism b|eventb] [--timeout SECS]
//! [--limit STATES (default 10^6)] [--jobs N] [--out FILE.tsv]
//! [--filter SUBSTRING]`. Each model runs in a child process (this
//! program with `--one PATH LIMIT`) killed after the timeout. Prints
//! matched / unsupported (top reasons) / model errors / refused (syntax,
//! semantic) / out of budget / WRONG; exits 1 if any count is wrong.
//! `btally --all-files [--filter SUBSTRING]` runs instead every machine
//! file of the collection (`.mch`, `.ref`, `.imp`, `.sys`, `.eventb`, and
//! the `.def` files, which must be refused with an error), oracle or not,
//! and classifies each as ok / limit / unsupported / model_error / syntax
//! / semantic / io / budget / crash (a child killed by a signal or ending
//! in a panic, with the panic's message from its stderr).
//! Needs `../shared/datasets/b` beside the workspace.

use std::collections::{BTreeMap, VecDeque};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::Mutex;
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
/// `FILE:LINE:COL: ` prefixes, parenthesised details, the expression a
/// type error names (after ``: ` ``) and quoted names.
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
    let msg = msg.split(": `").next().unwrap_or(msg);
    let unquoted: String = msg
        .split('\'')
        .enumerate()
        .map(|(k, part)| if k % 2 == 1 { "_" } else { part })
        .collect::<Vec<_>>()
        .join("'");
    unquoted.chars().take(90).collect()
}

/// What the tally is asked to do (its command line).
struct Options {
    timeout: u64,
    limit: usize,
    jobs: usize,
    out: Option<PathBuf>,
    filter: String,
    prob_errors: bool,
    all_files: bool,
    formalism: String,
}

fn options(args: &[String]) -> Options {
    let mut o = Options {
        timeout: 10,
        limit: 1_000_000,
        jobs: 2,
        out: None,
        filter: String::new(),
        prob_errors: false,
        all_files: false,
        formalism: "b".to_owned(),
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut v = || it.next().expect("option value").clone();
        match a.as_str() {
            "--timeout" => o.timeout = v().parse().expect("secs"),
            "--limit" => o.limit = v().parse::<f64>().expect("states") as usize,
            "--jobs" => o.jobs = v().parse().expect("jobs"),
            "--out" => o.out = Some(PathBuf::from(v())),
            "--filter" => o.filter = v(),
            "--prob-errors" => o.prob_errors = true,
            "--all-files" => o.all_files = true,
            "--formalism" => o.formalism = v(),
            other => panic!("unknown option {other}"),
        }
    }
    o
}

/// One file to run: its name in the report, its path under the datasets
/// root, and the oracle's states and transitions (`None`: no oracle, as
/// in `--all-files`).
struct Job {
    name: String,
    path: String,
    oracle: Option<(u64, u64)>,
}

/// The oracle rows of the options' formalism: complete counts, or ProB's
/// error rows with `--prob-errors`.
fn oracle_jobs(dir: &Path, o: &Options) -> Vec<Job> {
    let text = std::fs::read_to_string(dir.join("b/oracle.csv"))
        .expect("read ../shared/datasets/b/oracle.csv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    let col = |n: &str| header.iter().position(|h| *h == n).expect("column");
    let (ci, cf, cp, cs, ct, cc, cr) = (
        col("instance"),
        col("formalism"),
        col("path"),
        col("oracle_states"),
        col("oracle_transitions"),
        col("complete"),
        col("prob_result"),
    );
    lines
        .filter_map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let error_row = !matches!(f[cr], "all" | "not_run" | "None");
            let wanted = if o.prob_errors {
                error_row
            } else {
                f[cc] == "yes"
            };
            (f[cf] == o.formalism && wanted && f[ci].contains(&o.filter)).then(|| {
                let n = |s: &str| s.parse().unwrap_or(u64::MAX - 1);
                Job {
                    name: f[ci].to_owned(),
                    path: f[cp].to_owned(),
                    oracle: Some((n(f[cs]), n(f[ct]))),
                }
            })
        })
        .collect()
}

/// The file kinds `--all-files` runs: machines, refinements,
/// implementations, systems, Event-B exports, and definition files (not
/// machines: they must be refused with an error, never a panic).
const FILE_KINDS: [&str; 6] = ["mch", "ref", "imp", "sys", "eventb", "def"];

/// Every file of the collection of a kind in [`FILE_KINDS`] whose path
/// contains the filter, sorted, as paths under the datasets root.
fn all_file_jobs(dir: &Path, filter: &str) -> Vec<Job> {
    let mut found = Vec::new();
    let mut pending = vec![dir.join("b/prob-examples")];
    while let Some(d) = pending.pop() {
        for e in std::fs::read_dir(&d).expect("list the collection") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                pending.push(p);
            } else if p
                .extension()
                .is_some_and(|x| FILE_KINDS.iter().any(|k| x == *k))
            {
                let rel = p.strip_prefix(dir).expect("under the root");
                found.push(rel.display().to_string());
            }
        }
    }
    found.retain(|p| p.contains(filter));
    found.sort();
    let name = |p: &str| p.strip_prefix("b/prob-examples/").unwrap_or(p).to_owned();
    found
        .into_iter()
        .map(|p| Job {
            name: name(&p),
            path: p,
            oracle: None,
        })
        .collect()
}

/// Runs `exe --one PATH LIMIT` under 4 GiB of address space (`ulimit -v`,
/// so that one model cannot exhaust a shared machine), killed after
/// `timeout` seconds: its exit status (`None`: killed), stdout and stderr.
fn run_child(
    exe: &Path,
    full: &Path,
    limit: usize,
    timeout: u64,
) -> (Option<ExitStatus>, String, String) {
    let mut child = Command::new("sh")
        .args(["-c", "ulimit -v 4000000; exec \"$0\" \"$@\""])
        .arg(exe)
        .args(["--one", &full.display().to_string(), &limit.to_string()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let status = wait_or_kill(&mut child, timeout);
    let text = |h: std::thread::JoinHandle<String>| h.join().unwrap_or_default();
    (status, text(stdout), text(stderr))
}

/// Reads a child's pipe to its end in a thread, so that a child writing
/// much cannot block on a full pipe.
fn drain(pipe: Option<impl std::io::Read + Send + 'static>) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(mut p) = pipe {
            let _ = p.read_to_string(&mut s);
        }
        s
    })
}

fn wait_or_kill(child: &mut Child, timeout: u64) -> Option<ExitStatus> {
    let t0 = Instant::now();
    loop {
        if let Some(st) = child.try_wait().expect("wait") {
            return Some(st);
        }
        if t0.elapsed() > Duration::from_secs(timeout) {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The panic's location and message (`panicked at FILE:L:C: msg`), or the
/// allocator's abort, from a crashed child's stderr; else its last line.
fn crash_message(stderr: &str) -> String {
    let lines: Vec<&str> = stderr.lines().collect();
    if let Some(i) = lines.iter().position(|l| l.contains("panicked at")) {
        let at = lines[i].split("panicked at").nth(1).unwrap_or("").trim();
        let msg = lines.get(i + 1).copied().unwrap_or("");
        return format!("panicked at {at} {msg}");
    }
    let alloc = lines.iter().find(|l| l.contains("memory allocation of"));
    alloc.or(lines.last()).copied().unwrap_or("").to_owned()
}

/// The class and detail of a child's run: `budget` (killed at the
/// timeout), `crash` (a signal, a panic or any other failing exit), or
/// the first field of its output line (`done`, `limit` or an error kind).
fn classify(
    status: Option<ExitStatus>,
    stdout: &str,
    stderr: &str,
    timeout: u64,
) -> (String, String) {
    match status {
        None => ("budget".to_owned(), format!("timeout {timeout}s")),
        Some(st) if !st.success() => (
            "crash".to_owned(),
            format!("{st}: {}", crash_message(stderr)),
        ),
        Some(_) => {
            let line = stdout.lines().next().unwrap_or("");
            let mut f = line.splitn(2, '\t');
            let cat = f.next().unwrap_or("").to_owned();
            (cat, f.next().unwrap_or("").to_owned())
        }
    }
}

/// The oracle's verdict on a `done` line's detail `STATES\tTRANSITIONS`
/// (our states count the root: the oracle's plus one).
fn judge(detail: &str, (s, t): (u64, u64)) -> (String, String) {
    let mut f = detail.split('\t');
    let mut n = || f.next().and_then(|x| x.parse::<u64>().ok()).expect("count");
    let (gs, gt) = (n(), n());
    if gs == s + 1 && gt == t {
        ("matched".into(), String::new())
    } else {
        ("WRONG".into(), format!("got {gs}/{gt}, oracle {s}+1/{t}"))
    }
}

/// Runs one job: its class and detail, judged against the oracle when it
/// has one (then a state limit is out of `budget`), else `ok` with the
/// counts for a complete exploration.
fn run_job(job: &Job, dir: &Path, exe: &Path, o: &Options) -> (String, String) {
    let (status, stdout, stderr) = run_child(exe, &dir.join(&job.path), o.limit, o.timeout);
    let (cat, detail) = classify(status, &stdout, &stderr, o.timeout);
    match (cat.as_str(), job.oracle) {
        ("done", Some(counts)) => judge(&detail, counts),
        ("done", None) => ("ok".into(), detail.replace('\t', "/")),
        ("limit", Some(_)) => ("budget".into(), detail),
        _ => (cat, detail),
    }
}

/// A finished job: its index, name, class, detail and seconds.
type Outcome = (usize, String, String, String, f64);

/// Runs the jobs on `o.jobs` threads; the outcomes in the jobs' order.
/// Each outcome is also appended to `OUT.partial` as it comes, so that a
/// long run can be followed (and its crashes fixed) before it ends.
fn run_all(jobs: Vec<Job>, dir: &Path, o: &Options) -> Vec<Outcome> {
    let exe = std::env::current_exe().expect("exe");
    let queue = Mutex::new(jobs.into_iter().enumerate().collect::<VecDeque<_>>());
    let results = Mutex::new(Vec::new());
    let partial = o.out.as_ref().map(|p| {
        let p = p.with_extension("partial");
        Mutex::new(std::fs::File::create(p).expect("partial file"))
    });
    std::thread::scope(|s| {
        for _ in 0..o.jobs {
            s.spawn(|| loop {
                let Some((k, job)) = queue.lock().expect("queue").pop_front() else {
                    break;
                };
                let t0 = Instant::now();
                let (cat, detail) = run_job(&job, dir, &exe, o);
                let secs = t0.elapsed().as_secs_f64();
                if let Some(f) = &partial {
                    let line = format!("{}\t{cat}\t{secs:.2}\t{detail}", job.name);
                    writeln!(f.lock().expect("partial"), "{line}").expect("write");
                }
                results
                    .lock()
                    .expect("results")
                    .push((k, job.name, cat, detail, secs));
            });
        }
    });
    let mut res = results.into_inner().expect("results");
    res.sort_by_key(|r| r.0);
    res
}

fn write_tsv(path: &Path, res: &[Outcome]) {
    let mut f = std::fs::File::create(path).expect("out file");
    for (_, inst, cat, detail, secs) in res {
        writeln!(f, "{inst}\t{cat}\t{secs:.2}\t{detail}").expect("write");
    }
}

/// Prints the count per class, the top reasons of every class but
/// `matched` and `ok`, and every crash and WRONG count in full.
fn summarise(res: &[Outcome]) {
    let mut by_cat: BTreeMap<&str, usize> = BTreeMap::new();
    let mut reasons: BTreeMap<(&str, String), usize> = BTreeMap::new();
    for (_, _, cat, detail, _) in res {
        *by_cat.entry(cat).or_default() += 1;
        *reasons.entry((cat, reason(detail))).or_default() += 1;
    }
    println!("models: {}", res.len());
    for (c, n) in &by_cat {
        println!("  {c}: {n}");
    }
    let mut top: Vec<_> = reasons
        .into_iter()
        .filter(|((c, _), _)| !matches!(*c, "matched" | "ok"))
        .collect();
    top.sort_by_key(|t| std::cmp::Reverse(t.1));
    println!("top reasons:");
    for ((c, m), n) in top.iter().take(40) {
        println!("  {n:5}  {c}: {m}");
    }
    for (_, inst, cat, detail, _) in res {
        if cat == "WRONG" || cat == "crash" {
            println!("{} {inst}: {detail}", cat.to_uppercase());
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--one") {
        one(&args[1], args[2].parse().expect("limit"));
        return;
    }
    let o = options(&args);
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/datasets");
    let jobs = if o.all_files {
        all_file_jobs(&dir, &o.filter)
    } else {
        oracle_jobs(&dir, &o)
    };
    let res = run_all(jobs, &dir, &o);
    if let Some(p) = &o.out {
        write_tsv(p, &res);
    }
    summarise(&res);
    if res.iter().any(|r| r.2 == "WRONG") {
        std::process::exit(1);
    }
}
