//! A run of one planned configuration, whatever runs it: the planned run
//! ([`Planned`]), the settings every run of a campaign shares
//! ([`RunContext`]) and the interface of a kind of run ([`Runner`]) with what it is given ([`Job`]), which
//! a statebench engine in a child process (`campaign::execute`) and a peer
//! program (`peers`) both implement. The campaign and the peers both use
//! this module and it uses neither, so neither imports the other's
//! internals.
//!
//! Owns those types and the one-line form of a row's message. Must not
//! plan runs (`campaign::plan`), start processes (`isolate`) nor define CSV
//! columns (`schema`).

use crate::datasets::{Entry, ModelSource};
use crate::isolate::Limits;
use crate::machine::Machine;
use crate::schema::{Row, RunKey};

/// One run of a campaign.
#[derive(Clone, Debug)]
pub struct Planned {
    pub entry: Entry,
    pub engine: String,
    /// Requested engine parameters, `key=value;...`.
    pub engine_config: String,
    pub threads: u32,
    pub repetition: u32,
}

impl Planned {
    /// The run's key, as its row will carry it.
    pub fn key(&self) -> RunKey {
        RunKey {
            suite: self.entry.suite.clone(),
            instance: self.entry.instance.clone(),
            engine: self.engine.clone(),
            engine_config: self.engine_config.clone(),
            threads: self.threads,
            repetition: self.repetition,
        }
    }
}

/// Settings shared by every run of a campaign.
pub struct RunContext {
    pub campaign: String,
    pub machine: Machine,
    pub limits: Limits,
}

/// One run to do: the planned run, the campaign's settings and the
/// model, resolved and verified.
pub struct Job<'a> {
    pub ctx: &'a RunContext,
    pub run: &'a Planned,
    pub source: &'a ModelSource,
}

/// A kind of run: how one planned configuration is run and measured.
pub trait Runner {
    /// Runs the job under its limits and fills `row`, which holds what is
    /// known before the run, with the figures, the status and the message.
    /// `on_progress` is told the states explored so far, where the kind of
    /// run reports them.
    fn fill(&self, job: &Job, on_progress: &mut dyn FnMut(u64), row: &mut Row);
}

/// `text` as one line (a row's message): its non-empty lines, trimmed,
/// joined by ` | `.
pub fn one_line(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" | ")
}
