//! The list of engines by name, and the dispatch of a run to the right
//! search. Each storage scheme exports one [`EngineSpec`] from its folder
//! under `schemes/`; registering it is one line in the `schemes!` list of
//! `schemes/mod.rs`, which declares the folder and builds [`ENGINES`].
//!
//! Owns engine lookup, the `form` and `queue` parameters and the choice
//! between the sequential explorer, the parallel explorer and an engine's own search.
//! Must not know formalisms, the harness, or any scheme's parameters.

mod params;
mod spec;
#[cfg(all(test, not(loom)))]
mod tests;

pub use params::{
    any, open_unit, within, word, Count, EngineOptions, Param, ParamInfo, ParamValue, Word,
};
pub(crate) use params::{params, words};
pub use spec::{
    explicit, sequential_only, Build, BuildError, BuildFn, ConcurrentBuildFn, Configure,
    EngineSpec, Run, SearchFn, Setup,
};

use crate::concurrent::ConcurrentVisitedSet;
use crate::explore::parallel::explore_parallel;
use crate::explore::{explore_queued, ExploreConfig, QueueMode};
use crate::report::{RunReport, RunStatus};
pub use crate::schemes::ENGINES;
use crate::visited::VisitedSet;
use pins::Model;
use std::time::Instant;

/// Whether engine `name` has a concurrent form driven by the parallel
/// explorer (so `form=concurrent` at one thread is its paper baseline).
pub fn has_concurrent_form(name: &str) -> bool {
    find(name).is_some_and(|spec| spec.concurrent().is_some())
}

/// Whether engine `name` can run with more than one thread.
pub fn supports_threads(name: &str) -> bool {
    find(name).is_some_and(EngineSpec::supports_threads)
}

/// The report of an engine that could not even be created within its
/// budget: `table_full` before the first state.
fn table_full_report(message: String) -> RunReport {
    RunReport {
        levels: Some(0),
        ..RunReport::failed(RunStatus::TableFull, message)
    }
}

/// Looks an engine up by name.
pub fn find(name: &str) -> Option<&'static EngineSpec> {
    ENGINES.iter().copied().find(|e| e.name == name)
}

/// The parameter every engine with a concurrent form takes: `form=sequential`
/// (the default at one thread: the sequential engine and explorer) or
/// `form=concurrent` (the default, and the only form, above one thread).
/// `form=concurrent` at one thread runs the concurrent engine with the
/// parallel explorer and one worker: the baseline of the paper's speedup
/// (one implementation at 1 and at N threads).
pub const FORM_PARAM: &str = FORM.name;

words! {
    /// Which form of an explicit engine runs.
    pub enum Form {
        Sequential = "sequential",
        Concurrent = "concurrent",
    }
}

// See [`FORM_PARAM`]; its default is the one at one thread (above one:
// concurrent).
params! {
    /// sequential or concurrent form (concurrent above one thread)
    pub const FORM: Form = "form", default Form::Sequential;
}

/// The parameter every engine driven by the generic explorers takes: what
/// the search queue holds (see [`crate::explore::open_set`]): `auto` (the
/// default: state references where the engine gives a state back from its
/// reference, as the trees do, else full vectors), `vectors` (full vectors
/// always, for comparison) or `references` (an error for an engine that
/// cannot, and for the concurrent form, whose queue holds vectors).
pub const QUEUE_PARAM: &str = QUEUE.name;

params! {
    /// search queue: auto (state references where the engine gives states back, else vectors),
    /// vectors, references
    pub const QUEUE: QueueMode = "queue", default QueueMode::Auto;
}

/// `opts` without the [`QUEUE_PARAM`] parameter, and the queue it asks for.
fn split_queue(opts: EngineOptions) -> Result<(QueueMode, EngineOptions), String> {
    let queue = QUEUE.value(&opts)?;
    let mut rest = opts;
    rest.params.retain(|(k, _)| k != QUEUE_PARAM);
    Ok((queue, rest))
}

/// `opts` without the [`FORM_PARAM`] parameter, and the form it asks for.
fn split_form(name: &str, opts: &EngineOptions) -> Result<(Form, EngineOptions), String> {
    let mut rest = opts.clone();
    rest.params.retain(|(k, _)| k != FORM_PARAM);
    let form = match opts.text(FORM_PARAM) {
        None if opts.threads > 1 => Form::Concurrent,
        _ => FORM.value(opts)?,
    };
    if form == Form::Sequential && opts.threads > 1 {
        return Err(format!(
            "engine {name}: form=sequential runs one thread (--threads {})",
            opts.threads
        ));
    }
    Ok((form, rest))
}

/// Explores `model` with the engine `name`. `Err` for an unknown engine or
/// invalid parameters; every outcome of the search itself is a report.
pub fn create(
    name: &str,
    model: &dyn Model,
    opts: &EngineOptions,
    cfg: ExploreConfig<'_>,
) -> Result<RunReport, String> {
    lookup(name)?.explore(model, opts, cfg)
}

/// The engine `name`; `Err` names the known ones. Tests and benchmarks
/// build its sets directly ([`EngineSpec::build_visited_set`],
/// [`EngineSpec::build_concurrent_set`]).
pub fn lookup(name: &str) -> Result<&'static EngineSpec, String> {
    find(name).ok_or_else(|| {
        let names: Vec<_> = ENGINES.iter().map(|e| e.name).collect();
        format!("unknown engine '{name}' (known: {})", names.join(", "))
    })
}

/// The set a constructor built, or why it could not (as a message).
fn built<T>(set: Result<T, BuildError>) -> Result<T, String> {
    set.map_err(|e| match e {
        BuildError::Invalid(message) => message,
        BuildError::Full(full) => full.message,
    })
}

/// `report` with the time its visited set took to be built (`setup_s`:
/// tables allocated, and a `sample` slot order's exploration of its
/// sample and choice) added to its time and kept apart as the counter
/// `setup_us`: the engine's work is the whole of it, and a sample that
/// warms the model's own caches must not make the search look free.
fn with_setup(mut report: RunReport, setup_s: f64) -> RunReport {
    report.explore_time_s += setup_s;
    report
        .counters
        .push(("setup_us".into(), (setup_s * 1e6).round() as u64));
    report
}

fn one_thread_only(name: &str, opts: &EngineOptions) -> String {
    format!(
        "engine {name} runs with one thread only (--threads {} unsupported)",
        opts.threads
    )
}

impl EngineSpec {
    /// Explores `model` with this engine (registered or not), as [`create`].
    pub fn explore(
        &self,
        model: &dyn Model,
        opts: &EngineOptions,
        cfg: ExploreConfig<'_>,
    ) -> Result<RunReport, String> {
        let name = self.name;
        let (sequential, concurrent) = match self.run {
            Run::Search {
                search,
                self_parallel,
            } => {
                self.check_params(opts)?;
                if opts.threads > 1 && !self_parallel {
                    return Err(one_thread_only(name, opts));
                }
                return search(model, opts, cfg);
            }
            Run::Explicit {
                sequential,
                concurrent,
            } => (sequential, concurrent),
        };
        let (form, opts) = split_form(name, opts)?;
        let (queue, opts) = split_queue(opts)?;
        self.check_params(&opts)?;
        let opts = &opts;
        let setup = Instant::now();
        let report = if form == Form::Concurrent {
            if queue == QueueMode::References {
                return Err(format!(
                    "engine {name}: {QUEUE_PARAM}=references is for the sequential form (the concurrent one queues vectors)"
                ));
            }
            let Some(build) = concurrent else {
                return Err(if opts.threads > 1 {
                    one_thread_only(name, opts)
                } else {
                    format!("engine {name} has no concurrent form ({FORM_PARAM}=concurrent)")
                });
            };
            build(model, opts).map(|set| {
                let setup_s = setup.elapsed().as_secs_f64();
                with_setup(
                    explore_parallel(model, set, opts.threads.max(1), cfg),
                    setup_s,
                )
            })
        } else {
            sequential(model, opts).and_then(|mut set| {
                let setup_s = setup.elapsed().as_secs_f64();
                explore_queued(model, set.as_mut(), queue, cfg)
                    .map(|report| with_setup(report, setup_s))
                    .map_err(BuildError::Invalid)
            })
        };
        match report {
            Ok(report) => Ok(report),
            Err(BuildError::Invalid(message)) => Err(message),
            Err(BuildError::Full(full)) => Ok(table_full_report(full.message)),
        }
    }

    /// This engine's concurrent visited set for `model` (tests and
    /// benchmarks drive it with [`explore_parallel`] directly). `Err` for
    /// an engine without a concurrent form, invalid parameters, or a
    /// budget that cannot hold the empty tables.
    pub fn build_concurrent_set(
        &self,
        model: &dyn Model,
        opts: &EngineOptions,
    ) -> Result<Box<dyn ConcurrentVisitedSet>, String> {
        let build = self
            .concurrent()
            .ok_or_else(|| format!("engine {} has no concurrent form", self.name))?;
        self.check_params(opts)?;
        built(build(model, opts))
    }

    /// This explicit engine's visited set for `model`. `Err` for an engine
    /// with its own search, invalid parameters, or a budget that cannot
    /// hold the empty tables.
    pub fn build_visited_set(
        &self,
        model: &dyn Model,
        opts: &EngineOptions,
    ) -> Result<Box<dyn VisitedSet>, String> {
        match self.run {
            Run::Explicit { sequential, .. } => {
                self.check_params(opts)?;
                built(sequential(model, opts))
            }
            Run::Search { .. } => Err(format!(
                "engine '{}' runs its own search; it has no visited set to build",
                self.name
            )),
        }
    }
}
