//! The child side of an isolated run: load the model, run one engine, and
//! report on stdout with the [`ChildMessage`] line protocol. Runs in its own
//! process (`statebench child ...`, spawned by `campaign`), so its memory is
//! clean and measurable. Must not write CSV or decide limits.

use crate::datasets::ModelSource;
use crate::isolate::{die_with_parent, peak_rss, ChildMessage};
use crate::models::load;
use engines::{EngineOptions, ExploreConfig, Progress};
use std::io::Write;
use std::time::Instant;

/// Parameters of one child run.
#[derive(Clone, Debug, clap::Args)]
pub struct ChildArgs {
    /// The model: a file path, or `builtin:<path>` for an embedded model.
    #[arg(long)]
    pub model: String,
    #[arg(long)]
    pub engine: String,
    /// Engine parameters `key=value`, `;`-separated.
    #[arg(long, default_value = "")]
    pub params: String,
    /// Bytes the engine's tables may allocate.
    #[arg(long)]
    pub mem_budget: u64,
    /// Worker threads of the search.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

/// The arguments of `statebench child ...`, parsed alone (`None`: the
/// command line is another subcommand's). Exits as clap does on an error.
pub fn args_if_child() -> Option<ChildArgs> {
    #[derive(clap::Parser)]
    #[command(name = "statebench child")]
    struct Child {
        #[command(flatten)]
        args: ChildArgs,
    }
    let mut argv = std::env::args_os();
    let program = argv.next()?;
    if argv.next()? != "child" {
        return None;
    }
    let child = <Child as clap::Parser>::parse_from(std::iter::once(program).chain(argv));
    Some(child.args)
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
        Err(e) => return fail(e.status().as_str(), e.message().to_string()),
    };
    if let Err(e) = pins::validate(model.as_ref()) {
        return fail("model_error", format!("{}: invalid model: {e}", args.model));
    }
    say(&ChildMessage::Loaded {
        k: model.slot_count() as u64,
        groups: model.groups().len() as u64,
        parse_time_s: t0.elapsed().as_secs_f64(),
    });
    let mut last = Instant::now();
    let mut progress = |p: &Progress| {
        if last.elapsed().as_millis() >= 250 {
            last = Instant::now();
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
            say(&ChildMessage::Peak {
                rss_bytes: peak_rss("self"),
            });
            say(&ChildMessage::Report(report));
            0
        }
        Err(e) => fail("unsupported", e),
    }
}
