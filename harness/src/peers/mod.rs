//! Peer engines: other model checkers' own state storage, measured by the
//! harness next to statebench's engines on the same models, with the same
//! limits and the same CSV columns. A peer is an external program (SPIN's
//! generated verifier), run as a child process under `isolate`'s limits, so
//! peers live here and never in the `engines` crate, which must not run
//! processes.
//!
//! A peer is one more kind of run behind `runner::Runner`, the interface a
//! statebench engine's child run implements too: the campaign runs a peer
//! through it and the peers import nothing of the campaign.
//!
//! Owns the peer registry (names, summaries, parameters) and the dispatch
//! of a planned run to its peer. Must not define CSV columns (`schema`).

pub mod spin;
mod spin_report;

use crate::datasets::ModelSource;
use crate::models::formalism_of;
use crate::runner::{Job, Planned, RunContext, Runner};
use crate::schema::{Row, Status};
use spin::Storage;

/// A registered peer engine.
pub struct PeerSpec {
    pub name: &'static str,
    pub summary: &'static str,
    /// Parameter names with their meaning and default.
    pub params: &'static [(&'static str, &'static str)],
    /// May report fewer states than there are (an approximate storage).
    pub lossy: bool,
    storage: Storage,
}

const DEPTH: (&str, &str) = (
    "depth",
    "pan -m: DFS stack bound (default: twice the manifest's SPIN depth, else 1e7; x10 and rerun when cut)",
);
const W: (&str, &str) = (
    "w",
    "pan -w: 2^w hash slots (default: the oracle count rounded up to a power of two, else 24)",
);

/// Every peer engine. Not part of `--engines all` (they need spin and gcc).
pub const PEERS: &[PeerSpec] = &[
    PeerSpec {
        name: "spin",
        summary: "SPIN 6 verifier, default storage: hash table of byte-compressed vectors (gcc -O2 -DSAFETY -DNOREDUCE -DMEMLIM)",
        params: &[DEPTH, W],
        lossy: false,
        storage: Storage::Plain,
    },
    PeerSpec {
        name: "spin-collapse",
        summary: "SPIN 6 verifier with -DCOLLAPSE: component tables, the state as a tuple of indices",
        params: &[DEPTH, W],
        lossy: false,
        storage: Storage::Collapse,
    },
    PeerSpec {
        name: "spin-ma",
        summary: "SPIN 6 verifier with -DMA=N: minimised automaton over N-byte state vectors",
        params: &[
            DEPTH,
            (
                "ma",
                "-DMA=N (default: the manifest's SPIN state-vector size, else 64; raised when pan asks)",
            ),
        ],
        lossy: false,
        storage: Storage::MinimisedAutomaton,
    },
    PeerSpec {
        name: "spin-hc",
        summary: "SPIN 6 verifier with -DHC: hash compaction, LOSSY (may miss states)",
        params: &[DEPTH, W],
        lossy: true,
        storage: Storage::HashCompact,
    },
];

/// What a run's `transitions` column counts where it is not statebench's
/// definition (each pair of a state and a transition enabled in it, once):
/// every SPIN peer's is pan's `transitions`, steps executed (= states
/// stored + matched; module `spin`). Counts of different definitions are
/// never compared with each other (`report::agreement`); states are.
pub fn transitions_definition(engine: &str) -> Option<&'static str> {
    find(engine).map(|_| "SPIN's: steps executed")
}

/// The peer of this name.
pub fn find(name: &str) -> Option<&'static PeerSpec> {
    PEERS.iter().find(|p| p.name == name)
}

/// A peer is run through the same interface as a statebench engine; it
/// reports no progress while it runs.
impl Runner for PeerSpec {
    fn fill(&self, job: &Job, _on_progress: &mut dyn FnMut(u64), row: &mut Row) {
        let path = std::env::var_os("PATH");
        execute(self, job.ctx, job.run, job.source, path.as_deref(), row);
    }
}

/// Runs `run` with `peer` on `source` and fills `row` (figures, status,
/// message); `path` is the environment's `PATH`, where the tools are found.
fn execute(
    peer: &PeerSpec,
    ctx: &RunContext,
    run: &Planned,
    source: &ModelSource,
    path: Option<&std::ffi::OsStr>,
    row: &mut Row,
) {
    let unsupported = |row: &mut Row, message: String| {
        row.status = Status::Unsupported;
        row.message = message;
    };
    let file = match source {
        ModelSource::File(p) if formalism_of(&p.display().to_string()) == Some("promela") => p,
        other => {
            return unsupported(
                row,
                format!(
                    "{}: {} runs Promela models (.pm, .pml, .prom) only",
                    other.to_arg(),
                    peer.name
                ),
            )
        }
    };
    let params = match crate::child::parse_params(&run.engine_config) {
        Ok(p) => p,
        Err(e) => return unsupported(row, e),
    };
    let tools = match spin::Toolchain::find(path) {
        Ok(t) => t,
        Err(e) => return unsupported(row, format!("{}: {e}", peer.name)),
    };
    spin::execute(peer.storage, &tools, ctx, run, &params, file, row);
}
