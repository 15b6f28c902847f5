//! What a storage scheme exports to be registered: one [`EngineSpec`]
//! (name, summary, parameters, how it runs). An explicit scheme's configuration
//! implements [`Configure`], each of its sets (sequential, and concurrent
//! where it has that form) [`Build`], and its spec's constructors come
//! from [`explicit`] or [`sequential_only`];
//! a scheme with its own search (ComBack, decision diagrams) gives a
//! [`SearchFn`].
//!
//! Owns the shape of a registry entry and the boxing of a scheme's sets.
//! Must not know any particular scheme, and must not run anything.

use super::params::{EngineOptions, ParamInfo};
use crate::blocks::budget::Budget;
use crate::concurrent::ConcurrentVisitedSet;
use crate::explore::ExploreConfig;
use crate::report::RunReport;
use crate::visited::{TableFull, VisitedSet};
use pins::Model;

/// A registered engine.
pub struct EngineSpec {
    /// The name `--engines` takes.
    pub name: &'static str,
    /// One line for `statebench list`.
    pub summary: &'static str,
    /// Every parameter the engine takes (besides `form`, which the
    /// registry handles for engines with a concurrent form).
    pub params: &'static [&'static dyn ParamInfo],
    /// How the engine runs.
    pub run: Run,
}

/// Constructor of an explicit engine's visited set.
pub type BuildFn = fn(&dyn Model, &EngineOptions) -> Result<Box<dyn VisitedSet>, BuildError>;

/// Constructor of an explicit engine's concurrent visited set.
pub type ConcurrentBuildFn =
    fn(&dyn Model, &EngineOptions) -> Result<Box<dyn ConcurrentVisitedSet>, BuildError>;

/// An engine with its own search: explores `model` and reports, `Err`
/// for invalid parameters.
pub type SearchFn = fn(&dyn Model, &EngineOptions, ExploreConfig<'_>) -> Result<RunReport, String>;

/// How an engine runs.
#[derive(Clone, Copy)]
pub enum Run {
    /// A visited set driven by the generic explorer, and its concurrent
    /// form for the parallel explorer if it has one. A constructor checks
    /// the model (`Err(Invalid)`) and may already find the budget too
    /// small (`Err(Full)`).
    Explicit {
        sequential: BuildFn,
        concurrent: Option<ConcurrentBuildFn>,
    },
    /// An engine with its own search. `self_parallel`: it uses `--threads`
    /// itself (the decision diagrams' apply workers), so it runs at any
    /// thread count.
    Search {
        search: SearchFn,
        self_parallel: bool,
    },
}

impl EngineSpec {
    /// The engine `name`, running as `run`; its summary and parameters
    /// are set by [`summary`](Self::summary) and [`params`](Self::params).
    pub const fn new(name: &'static str, run: Run) -> Self {
        EngineSpec {
            name,
            summary: "",
            params: &[],
            run,
        }
    }

    /// This spec with its one line for `statebench list`.
    pub const fn summary(self, summary: &'static str) -> Self {
        EngineSpec { summary, ..self }
    }

    /// This spec with its parameters (a `params!` list).
    pub const fn params(self, params: &'static [&'static dyn ParamInfo]) -> Self {
        EngineSpec { params, ..self }
    }

    /// Whether this engine is a visited set for the generic explorer.
    pub fn is_explicit(&self) -> bool {
        matches!(self.run, Run::Explicit { .. })
    }

    /// The concurrent form's constructor, if the engine has one.
    pub fn concurrent(&self) -> Option<ConcurrentBuildFn> {
        match self.run {
            Run::Explicit { concurrent, .. } => concurrent,
            Run::Search { .. } => None,
        }
    }

    /// Whether the engine can run with more than one thread.
    pub fn supports_threads(&self) -> bool {
        match self.run {
            Run::Explicit { concurrent, .. } => concurrent.is_some(),
            Run::Search { self_parallel, .. } => self_parallel,
        }
    }

    /// Every parameter a run may set: the engine's own,
    /// [`FORM`](super::FORM) where it has a concurrent form, and
    /// [`QUEUE`](super::QUEUE) where the generic explorers drive it.
    pub fn all_params(&self) -> Vec<&'static dyn ParamInfo> {
        let form = self.concurrent().map(|_| &super::FORM as &dyn ParamInfo);
        let queue = self
            .is_explicit()
            .then_some(&super::QUEUE as &dyn ParamInfo);
        self.params
            .iter()
            .copied()
            .chain(form)
            .chain(queue)
            .collect()
    }

    /// Checks every `key=value` of `opts`: the key is one of the engine's
    /// parameters and the text a valid value.
    pub fn check_params(&self, opts: &EngineOptions) -> Result<(), String> {
        for (key, text) in &opts.params {
            match self.params.iter().find(|p| p.name() == key) {
                Some(param) => param.check_text(text)?,
                None => {
                    let names: Vec<_> = self.params.iter().map(|p| p.name()).collect();
                    return Err(format!(
                        "engine {} has no parameter '{key}' (it has: {})",
                        self.name,
                        names.join(", ")
                    ));
                }
            }
        }
        Ok(())
    }
}

/// Why an explicit engine could not be built.
pub enum BuildError {
    /// Invalid parameters or an unsuitable model: an error of the request.
    Invalid(String),
    /// The budget cannot hold even the empty tables: a `table_full` run.
    Full(TableFull),
}

impl From<String> for BuildError {
    fn from(message: String) -> Self {
        BuildError::Invalid(message)
    }
}

impl From<TableFull> for BuildError {
    fn from(full: TableFull) -> Self {
        BuildError::Full(full)
    }
}

/// What a scheme's sets are built from: the scheme's configuration and
/// what the run gives every scheme.
pub struct Setup<C> {
    pub config: C,
    /// The model's vector length.
    pub slots: usize,
    /// Worker threads of the search.
    pub threads: usize,
    /// A fresh budget of the run's memory limit (each form's tables
    /// reserve against their own).
    pub budget: Budget,
}

/// A scheme's configuration, read from a run's options (its parameters
/// already checked against the spec) for a model. [`params!`](super::params)
/// derives it for a configuration that is only parameters.
pub trait Configure: Sized + 'static {
    /// `Err` for a model the scheme cannot store or an invalid combination
    /// of parameters.
    fn configure(model: &dyn Model, opts: &EngineOptions) -> Result<Self, String>;
}

/// A visited set built from its scheme's configuration `C`: the
/// constructor the registry calls, for each form.
pub trait Build<C>: Sized + 'static {
    /// The empty set; `Err` when the budget cannot hold its tables.
    fn build(setup: Setup<C>) -> Result<Self, TableFull>;
}

/// How a scheme with both forms runs: configuration `C`, sequential set
/// `S`, concurrent set `P`.
pub const fn explicit<C, S, P>() -> Run
where
    C: Configure,
    S: Build<C> + VisitedSet,
    P: Build<C> + ConcurrentVisitedSet,
{
    Run::Explicit {
        sequential: build_sequential::<C, S>,
        concurrent: Some(build_concurrent::<C, P>),
    }
}

/// How a scheme with a sequential form only runs.
pub const fn sequential_only<C: Configure, S: Build<C> + VisitedSet>() -> Run {
    Run::Explicit {
        sequential: build_sequential::<C, S>,
        concurrent: None,
    }
}

/// The setup for `model` and `opts`.
fn setup<C: Configure>(model: &dyn Model, opts: &EngineOptions) -> Result<Setup<C>, String> {
    Ok(Setup {
        config: C::configure(model, opts)?,
        slots: model.slot_count(),
        threads: opts.threads,
        budget: Budget::new(opts.mem_budget),
    })
}

fn build_sequential<C: Configure, S: Build<C> + VisitedSet>(
    model: &dyn Model,
    opts: &EngineOptions,
) -> Result<Box<dyn VisitedSet>, BuildError> {
    Ok(Box::new(S::build(setup(model, opts)?)?))
}

fn build_concurrent<C: Configure, P: Build<C> + ConcurrentVisitedSet>(
    model: &dyn Model,
    opts: &EngineOptions,
) -> Result<Box<dyn ConcurrentVisitedSet>, BuildError> {
    Ok(Box::new(P::build(setup(model, opts)?)?))
}
