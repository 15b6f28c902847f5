//! The child side of an isolated run: load the model, run one engine, and
//! report on stdout with the [`ChildMessage`] line protocol. Runs in its own
//! process (`statebench-child ...`, or `statebench child ...` where that
//! lean binary is not beside `statebench`; spawned by `campaign`), so its
//! memory is clean and measurable. Parses its own arguments (no CLI
//! library: the code a child maps is part of the peak RSS measured). Must
//! not write CSV or decide limits.

use crate::models::load;
use crate::protocol::{die_with_parent, peak_rss, ChildMessage};
use crate::resident;
use crate::source::ModelSource;
use engines::{EngineOptions, ExploreConfig, Progress};
use std::ffi::OsString;
use std::io::Write;
use std::time::Instant;

/// This build's identity (its commit, and when its build script last ran,
/// which it does whenever a source changes). A lean child that says
/// another one is stale: left from an earlier build (`cargo run` builds
/// `statebench` alone), so the parent does not run it.
pub const BUILD_ID: &str = env!("STATEBENCH_BUILD_ID");

/// The flag on which a child prints [`BUILD_ID`] and exits.
pub const BUILD_ID_FLAG: &str = "--build-id";

/// Parameters of one child run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChildArgs {
    /// The model: a file path, or `builtin:<path>` for an embedded model.
    pub model: String,
    pub engine: String,
    /// Engine parameters `key=value`, `;`-separated.
    pub params: String,
    /// Bytes the engine's tables may allocate.
    pub mem_budget: u64,
    /// Worker threads of the search.
    pub threads: usize,
}

impl ChildArgs {
    /// The child's command line after the program (and subcommand) name:
    /// `--model M --engine E [--params P] --mem-budget B [--threads T]`,
    /// each option also as `--name=value`.
    pub fn to_args(&self) -> Vec<String> {
        vec![
            "--model".into(),
            self.model.clone(),
            "--engine".into(),
            self.engine.clone(),
            "--params".into(),
            self.params.clone(),
            "--mem-budget".into(),
            self.mem_budget.to_string(),
            "--threads".into(),
            self.threads.to_string(),
        ]
    }

    /// Parses what [`ChildArgs::to_args`] writes.
    pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<ChildArgs, String> {
        let mut values: [Option<String>; 5] = Default::default();
        const NAMES: [&str; 5] = ["model", "engine", "params", "mem-budget", "threads"];
        let mut args = args.into_iter().map(|a| a.to_string_lossy().into_owned());
        while let Some(arg) = args.next() {
            let (name, inline) = match arg.strip_prefix("--").map(|a| a.split_once('=')) {
                Some(Some((name, value))) => (name.to_string(), Some(value.to_string())),
                Some(None) => (arg[2..].to_string(), None),
                None => return Err(format!("unexpected argument '{arg}'")),
            };
            let Some(i) = NAMES.iter().position(|n| *n == name) else {
                return Err(format!("unexpected argument '--{name}'"));
            };
            let value = inline.or_else(|| args.next());
            values[i] = Some(value.ok_or_else(|| format!("--{name} needs a value"))?);
        }
        let [model, engine, params, budget, threads] = values;
        let number = |name: &str, v: Option<String>| -> Result<Option<u64>, String> {
            v.map(|v| {
                v.parse()
                    .map_err(|_| format!("--{name}: '{v}' is not a number"))
            })
            .transpose()
        };
        Ok(ChildArgs {
            model: model.ok_or("--model is required")?,
            engine: engine.ok_or("--engine is required")?,
            params: params.unwrap_or_default(),
            mem_budget: number("mem-budget", budget)?.ok_or("--mem-budget is required")?,
            threads: number("threads", threads)?.unwrap_or(1) as usize,
        })
    }
}

/// Runs a child from its command line after the program (and subcommand)
/// name; the process exit code (0 ok, 1 the run failed to start, 2 a
/// command line it cannot read). [`BUILD_ID_FLAG`] alone prints
/// [`BUILD_ID`].
pub fn main_from(args: impl IntoIterator<Item = OsString>) -> i32 {
    let args: Vec<OsString> = args.into_iter().collect();
    if args.len() == 1 && args[0] == BUILD_ID_FLAG {
        println!("{BUILD_ID}");
        return 0;
    }
    match ChildArgs::parse(args) {
        Ok(args) => main(args),
        Err(e) => {
            eprintln!("error: statebench child: {e}");
            2
        }
    }
}

fn say(msg: &ChildMessage) {
    let mut out = std::io::stdout().lock();
    // A closed stdout means the parent is gone; nothing left to report to.
    let _ = serde_json::to_writer(&mut out, msg);
    let _ = out.write_all(b"\n");
    let _ = out.flush();
}

/// Splits `a=1;b=2` into pairs.
pub fn parse_params(text: &str) -> Result<Vec<(String, String)>, String> {
    text.split(';')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| {
            p.split_once('=')
                .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                .ok_or_else(|| format!("engine parameter '{p}' is not key=value"))
        })
        .collect()
}

/// Runs the child; the process exit code (0 ok, 1 the run failed to start).
pub fn main(args: ChildArgs) -> i32 {
    die_with_parent();
    resident::settle_allocator();
    // The droppable mappings are read while they are few (`resident`).
    resident::release_loading_code();
    // From here on a fault maps its own page; what the start-up mapped
    // 64 KiB at a time goes.
    resident::map_files_page_by_page();
    resident::release_loading_code();
    let fail = |status: &str, message: String| {
        say(&ChildMessage::Failed {
            status: status.into(),
            message,
        });
        1
    };
    let params = match parse_params(&args.params) {
        Ok(p) => p,
        Err(e) => return fail("unsupported", e),
    };
    let t0 = Instant::now();
    let model = match load(&ModelSource::from_arg(&args.model)) {
        Ok(m) => m,
        Err(e) => return fail(e.status(), e.message().to_string()),
    };
    if let Err(e) = pins::validate(model.as_ref()) {
        return fail("model_error", format!("{}: invalid model: {e}", args.model));
    }
    // The front-end's code has run: only the search's stays resident,
    // and the heap the parser freed is given back.
    resident::release_free_heap();
    resident::release_loading_code();
    say(&ChildMessage::Loaded {
        k: model.slot_count() as u64,
        groups: model.groups().len() as u64,
        parse_time_s: t0.elapsed().as_secs_f64(),
    });
    let mut last = Instant::now();
    let mut progress = |p: &Progress| {
        if p.queued == 0 {
            // The search is over (its last report), its tables still
            // held: the report's code (counters, figures, messages) would
            // fault its pages in on top of the search's, at the run's
            // peak. Dropped first, the search's go and the report's come.
            resident::release_loading_code();
        }
        if last.elapsed().as_millis() >= 250 {
            last = Instant::now();
            // What the search freed (grown node tables' old arrays).
            resident::release_free_heap();
            say(&ChildMessage::Progress {
                states: p.states,
                transitions: p.transitions,
                queued: p.queued,
            });
        }
    };
    let opts = EngineOptions {
        mem_budget: args.mem_budget,
        params,
        threads: args.threads,
    };
    let mut configured = |engine_params: &str| {
        // The engine is set up (a `sample` slot order explored its sample
        // and chose): only the search's code stays resident, and the
        // heap its sample freed is given back.
        resident::release_free_heap();
        resident::release_loading_code();
        say(&ChildMessage::Configured {
            engine_params: engine_params.to_string(),
        })
    };
    let cfg = ExploreConfig {
        progress: Some(&mut progress),
        progress_every: 1 << 12,
        configured: Some(&mut configured),
    };
    match engines::create(&args.engine, model.as_ref(), &opts, cfg) {
        Ok(report) => {
            if report.status == engines::RunStatus::Ok {
                if let Err(e) = model.complete() {
                    let status = if e.unsupported {
                        "unsupported"
                    } else {
                        "model_error"
                    };
                    return fail(status, e.to_string());
                }
            }
            say(&ChildMessage::Peak {
                rss_bytes: peak_rss("self"),
            });
            say(&ChildMessage::Report(report));
            0
        }
        Err(e) => fail("unsupported", e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    #[test]
    fn arguments_read_back_as_written_in_either_form() {
        let args = ChildArgs {
            model: "builtin:builtin/ring.pnml".into(),
            engine: "compact-tree".into(),
            params: "slot_order=model;w=28".into(),
            mem_budget: 1 << 33,
            threads: 4,
        };
        let written: Vec<OsString> = args.to_args().into_iter().map(OsString::from).collect();
        assert_eq!(ChildArgs::parse(written), Ok(args.clone()));
        let joined = os(&[
            "--model=builtin:builtin/ring.pnml",
            "--engine=compact-tree",
            "--params=slot_order=model;w=28",
            "--mem-budget=8589934592",
            "--threads=4",
        ]);
        assert_eq!(ChildArgs::parse(joined), Ok(args));
    }

    #[test]
    fn optional_arguments_take_their_defaults() {
        let args = ChildArgs::parse(os(&[
            "--model",
            "m.dve",
            "--engine",
            "tree",
            "--mem-budget",
            "9",
        ]));
        let args = args.unwrap();
        assert_eq!((args.params.as_str(), args.threads), ("", 1));
    }

    #[test]
    fn a_bad_command_line_is_refused_by_name() {
        let cases: [(&[&str], &str); 5] = [
            (
                &["--engine", "tree", "--mem-budget", "9"],
                "--model is required",
            ),
            (
                &["--model", "m", "--engine", "tree"],
                "--mem-budget is required",
            ),
            (
                &["--model", "m", "--engine", "tree", "--mem-budget", "x"],
                "'x' is not a number",
            ),
            (
                &["--model", "m", "--colour", "red"],
                "unexpected argument '--colour'",
            ),
            (&["--model"], "--model needs a value"),
        ];
        for (args, says) in cases {
            let e = ChildArgs::parse(os(args)).unwrap_err();
            assert!(e.contains(says), "{args:?}: {e}");
        }
        assert_eq!(main_from(os(&["stray"])), 2);
    }
}
