//! The list of engines by name: the one place a new storage scheme is
//! registered (one line in [`ENGINES`]).
//!
//! Owns engine names, their parameters parsed from `key=value` strings, and
//! dispatch to the right search. Must not know formalisms or the harness.

use crate::blocks::budget::Budget;
use crate::concurrent::ConcurrentVisitedSet;
use crate::explore::parallel::explore_parallel;
use crate::explore::{explore, ExploreConfig};
use crate::report::{RunReport, RunStatus};
use crate::schemes::collapse::concurrent::SharedCollapse;
use crate::schemes::collapse::{Collapse, CollapseConfig, SlotPartition};
use crate::schemes::comback::ComBackConfig;
use crate::schemes::compact_tree::concurrent::SharedCompactTree;
use crate::schemes::compact_tree::{CompactTree, CompactTreeConfig};
use crate::schemes::hash_table::concurrent::SharedHashTable;
use crate::schemes::hash_table::{HashTable, HashTableConfig};
use crate::schemes::ptrie::concurrent::ShardedPTrie;
use crate::schemes::ptrie::{Encoding, PTrie, PTrieConfig};
use crate::schemes::tree::concurrent::SharedTree;
use crate::schemes::tree::{Tree, TreeConfig};
use crate::visited::{TableFull, VisitedSet};
use pins::Model;

/// Everything an engine may be configured with.
#[derive(Clone, Debug, Default)]
pub struct EngineOptions {
    /// Bytes the engine's tables may allocate.
    pub mem_budget: u64,
    /// Engine parameters as `(key, value)`, e.g. `("max_load", "0.8")`.
    pub params: Vec<(String, String)>,
    /// Worker threads of the search (0 and 1: the sequential explorer).
    pub threads: usize,
}

impl EngineOptions {
    pub(crate) fn get<T: std::str::FromStr>(&self, key: &str, default: T) -> Result<T, String> {
        match self.params.iter().rev().find(|(k, _)| k == key) {
            None => Ok(default),
            Some((_, v)) => v
                .parse()
                .map_err(|_| format!("engine parameter {key}={v}: not a valid value")),
        }
    }

    pub(crate) fn reject_unknown(&self, engine: &str, known: &[&str]) -> Result<(), String> {
        match self
            .params
            .iter()
            .find(|(k, _)| !known.contains(&k.as_str()))
        {
            Some((k, _)) => Err(format!(
                "engine {engine} has no parameter '{k}' (it has: {})",
                known.join(", ")
            )),
            None => Ok(()),
        }
    }
}

/// A registered engine.
pub struct EngineSpec {
    pub name: &'static str,
    pub summary: &'static str,
    /// Parameter names with their meaning and default.
    pub params: &'static [(&'static str, &'static str)],
    kind: EngineKind,
}

/// Constructor of an explicit engine's visited set.
type BuildFn = fn(&dyn Model, &EngineOptions) -> Result<Box<dyn VisitedSet>, BuildError>;

/// How an engine runs.
#[derive(Clone, Copy)]
enum EngineKind {
    /// A visited set driven by the generic explorer: the constructor
    /// checks the parameters (`Err(Invalid)`) and may already find the
    /// budget too small (`Err(Full)`).
    Explicit(BuildFn),
    /// An engine with its own search (ComBack, decision diagrams).
    Search(fn(&dyn Model, &EngineOptions, ExploreConfig<'_>) -> Result<RunReport, String>),
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

impl EngineSpec {
    /// Whether this engine is a visited set for the generic explorer.
    pub fn is_explicit(&self) -> bool {
        matches!(self.kind, EngineKind::Explicit(_))
    }
}

/// Every engine statebench knows, in presentation order.
pub const ENGINES: &[EngineSpec] = &[
    EngineSpec {
        name: "hash-table",
        summary: "open addressing over full vectors (LTSmin dbs-ll)",
        params: &[
            (
                "max_load",
                "load factor that doubles the bucket array (0.75)",
            ),
            (
                "initial_buckets",
                "initial bucket count, power of two (65536)",
            ),
        ],
        kind: EngineKind::Explicit(build_hash_table),
    },
    EngineSpec {
        name: "collapse",
        summary:
            "SPIN COLLAPSE: per-process component tables + table of index vectors (Holzmann 1997)",
        params: &[(
            "initial_buckets",
            "initial bucket count of the main table, power of two (65536)",
        )],
        kind: EngineKind::Explicit(build_collapse),
    },
    EngineSpec {
        name: "tree",
        summary: "binary tree of tuple tables with incremental insertion (Laarman et al. 2011)",
        params: &[
            ("w", "index bits of node tables, 1..=32 (32)"),
            ("incremental", "reuse the predecessor's node indices (true)"),
            (
                "initial_buckets",
                "initial buckets of the root table; node tables get 1/64 (65536)",
            ),
        ],
        kind: EngineKind::Explicit(build_tree),
    },
    EngineSpec {
        name: "compact-tree",
        summary: "tree with a Cleary compact root table (w, o, u)",
        params: &[
            ("w", "index bits of node tables, 1..=32 (30)"),
            ("o", "overcommit: root buckets up to 2^(w+o) (2)"),
            ("u", "bits of a slot value, 1..=32 (30)"),
            (
                "m",
                "log2 of root buckets, 4..=w+o; budget: the largest within half the memory budget, from the start (the paper); auto: grow up to it (auto)",
            ),
            ("max_load", "load at which the root table is full (0.9)"),
            (
                "grow_load",
                "with m=auto: load at which the root table doubles; lower = longer quotient, shorter entries, more memory (0.75)",
            ),
            (
                "root_key",
                "fixed: root keys of 2w bits as in the paper; adaptive: of the children's current index width, re-stored as node tables grow (adaptive)",
            ),
            ("incremental", "reuse the predecessor's node indices (true)"),
        ],
        kind: EngineKind::Explicit(build_compact_tree),
    },
    EngineSpec {
        name: "trie",
        summary: "PTrie prefix-sharing trie (Jensen, Larsen, Srba 2017)",
        params: &[
            (
                "bucket_size",
                "entries a bucket holds before it splits, 1..=65535 (128)",
            ),
            (
                "encoding",
                "slot bytes of the key: varint (prefix varint, 1-5 bytes), fixed4 (4 bytes) or packed (per-state bit width) (packed)",
            ),
        ],
        kind: EngineKind::Explicit(build_trie),
    },
    EngineSpec {
        name: "comback-ddd",
        summary: "ComBack: hash signatures + back-edges, states rebuilt to compare; delayed duplicate detection (Evangelista et al.)",
        params: &[
            (
                "candidates",
                "capacity of the candidate set, distinct vectors (10000; 1e4 accepted)",
            ),
            (
                "delayed",
                "delayed duplicate detection; false: the basic ComBack method (true)",
            ),
            (
                "cache",
                "full vectors of the most recently stored states kept to shorten reconstructions, 0 = off (0)",
            ),
            (
                "id_queue",
                "queue of state ids, rebuilt batch by batch, instead of full vectors (false)",
            ),
            ("batch", "states rebuilt together with id_queue (10000)"),
            ("signature_bits", "width of the hash signature, 1..=32 (32)"),
            (
                "level_sync",
                "breadth-first level by level, candidates resolved at the end of every level (exact levels); false: Algorithm 4's single queue, candidates resolved only when the set is full or the queue empty (false)",
            ),
        ],
        kind: EngineKind::Search(run_comback),
    },
    EngineSpec {
        name: "bdd",
        summary: "symbolic reachability, slots in binary over oxidd BDDs, relations learned per group",
        params: &[
            ("strategy", "bfs, chaining, saturation (the saturation order on whole sets, LTSmin sat-like) or node-saturation (node-wise, Ciardo) (saturation)"),
            ("threads", "oxidd worker threads for apply (the run's --threads)"),
            (
                "slot_order",
                "force (FORCE heuristic on the groups' read/write sets) or model (force)",
            ),
            (
                "order",
                "interleaved (x x' per bit) or blocked (a slot's x bits, then its x' bits) (interleaved)",
            ),
        ],
        kind: EngineKind::Search(crate::schemes::symbolic::run_bdd),
    },
    EngineSpec {
        name: "mdd",
        summary: "symbolic reachability, slots one-hot over an oxidd ZBDD (LDD-shaped), relations learned per group",
        params: &[
            ("strategy", "bfs, chaining, saturation (the saturation order on whole sets, LTSmin sat-like) or node-saturation (node-wise, Ciardo) (saturation)"),
            ("threads", "oxidd worker threads for apply (the run's --threads)"),
            (
                "slot_order",
                "force (FORCE heuristic on the groups' read/write sets) or model (force)",
            ),
        ],
        kind: EngineKind::Search(crate::schemes::symbolic::run_mdd),
    },
];

/// A count parameter: an integer, also written like `1e4`.
fn get_count(opts: &EngineOptions, key: &str, default: usize) -> Result<usize, String> {
    let text = opts.get(key, default.to_string())?;
    let bad = || format!("engine parameter {key}={text}: not a whole number");
    if let Ok(n) = text.parse::<usize>() {
        return Ok(n);
    }
    let x: f64 = text.parse().map_err(|_| bad())?;
    if x >= 0.0 && x.fract() == 0.0 && x <= u32::MAX as f64 {
        Ok(x as usize)
    } else {
        Err(bad())
    }
}

fn run_comback(
    model: &dyn Model,
    opts: &EngineOptions,
    cfg: ExploreConfig<'_>,
) -> Result<RunReport, String> {
    opts.reject_unknown(
        "comback-ddd",
        &[
            "candidates",
            "delayed",
            "cache",
            "id_queue",
            "batch",
            "signature_bits",
            "level_sync",
        ],
    )?;
    let d = ComBackConfig::default();
    let config = ComBackConfig {
        candidates: get_count(opts, "candidates", d.candidates)?,
        delayed: opts.get("delayed", d.delayed)?,
        cache: get_count(opts, "cache", d.cache)?,
        id_queue: opts.get("id_queue", d.id_queue)?,
        batch: get_count(opts, "batch", d.batch)?,
        signature_bits: opts.get("signature_bits", d.signature_bits)?,
        level_sync: opts.get("level_sync", d.level_sync)?,
    };
    config
        .check()
        .map_err(|e| format!("engine parameter {e}"))?;
    Ok(crate::schemes::comback::explore(
        model,
        &config,
        Budget::new(opts.mem_budget),
        cfg,
    ))
}

/// Constructor of an explicit engine's concurrent visited set.
type ConcurrentBuildFn =
    fn(&dyn Model, &EngineOptions) -> Result<Box<dyn ConcurrentVisitedSet>, BuildError>;

/// The concurrent form of an explicit engine, for runs with more than one
/// thread; `None`: the engine runs sequentially only. (Kept apart from
/// [`ENGINES`] so that registering a sequential engine stays one line.)
fn concurrent_builder(name: &str) -> Option<ConcurrentBuildFn> {
    match name {
        "hash-table" => Some(build_shared_hash_table),
        "tree" => Some(build_shared_tree),
        "collapse" => Some(build_shared_collapse),
        "trie" => Some(build_shared_trie),
        "compact-tree" => Some(build_shared_compact_tree),
        _ => None,
    }
}

/// Whether engine `name` is a search engine that parallelises itself
/// (the symbolic engines: `--threads N` becomes the oxidd manager's worker
/// count, so its apply operations run on N threads).
fn self_parallel(name: &str) -> bool {
    find(name).is_some_and(|spec| {
        matches!(spec.kind, EngineKind::Search(_))
            && spec.params.iter().any(|(k, _)| *k == "threads")
    })
}

/// Whether engine `name` has a concurrent form driven by the parallel
/// explorer (so `form=concurrent` at one thread is its paper baseline).
pub fn has_concurrent_form(name: &str) -> bool {
    concurrent_builder(name).is_some()
}

/// Whether engine `name` can run with more than one thread.
pub fn supports_threads(name: &str) -> bool {
    concurrent_builder(name).is_some() || self_parallel(name)
}

fn hash_table_config(opts: &EngineOptions) -> Result<HashTableConfig, BuildError> {
    opts.reject_unknown("hash-table", &["max_load", "initial_buckets"])?;
    let config = HashTableConfig {
        initial_buckets: opts.get("initial_buckets", 1usize << 16)?,
        max_load: opts.get("max_load", 0.75f64)?,
        mem_budget: opts.mem_budget,
    };
    if !(config.max_load > 0.0 && config.max_load < 1.0) {
        return Err(format!(
            "engine parameter max_load={}: must be in (0, 1)",
            config.max_load
        )
        .into());
    }
    Ok(config)
}

fn build_hash_table(
    model: &dyn Model,
    opts: &EngineOptions,
) -> Result<Box<dyn VisitedSet>, BuildError> {
    let config = hash_table_config(opts)?;
    Ok(Box::new(HashTable::new(model.slot_count(), config)?))
}

fn build_shared_hash_table(
    model: &dyn Model,
    opts: &EngineOptions,
) -> Result<Box<dyn ConcurrentVisitedSet>, BuildError> {
    let config = hash_table_config(opts)?;
    Ok(Box::new(SharedHashTable::new(model.slot_count(), config)?))
}

/// The report of an engine that could not even be created within its
/// budget: `table_full` before the first state.
fn table_full_report(message: String) -> RunReport {
    RunReport {
        status: RunStatus::TableFull,
        message,
        states: 0,
        transitions: 0,
        levels: Some(0),
        engine_bytes_used: 0,
        engine_bytes_alloc: 0,
        max_slot_bits: 0,
        universe_log2: None,
        explore_time_s: 0.0,
        engine_params: String::new(),
        dd_final_nodes: None,
        dd_peak_nodes: None,
        op_latency: None,
        counters: Vec::new(),
    }
}

/// The collapse engine's parameters and the model's slot partition.
fn collapse_config(
    model: &dyn Model,
    opts: &EngineOptions,
) -> Result<(SlotPartition, CollapseConfig), BuildError> {
    opts.reject_unknown("collapse", &["initial_buckets"])?;
    let config = CollapseConfig {
        initial_buckets: opts.get("initial_buckets", 1usize << 16)?,
        ..CollapseConfig::default()
    };
    let components = model.partition().into_iter().map(|c| c.slots).collect();
    let partition = SlotPartition::new(model.slot_count(), components).map_err(|e| {
        format!(
            "collapse: invalid process partition of {}: {e}",
            model.name()
        )
    })?;
    Ok((partition, config))
}

fn build_collapse(
    model: &dyn Model,
    opts: &EngineOptions,
) -> Result<Box<dyn VisitedSet>, BuildError> {
    let (partition, config) = collapse_config(model, opts)?;
    Ok(Box::new(Collapse::new(
        partition,
        config,
        Budget::new(opts.mem_budget),
    )?))
}

fn build_shared_collapse(
    model: &dyn Model,
    opts: &EngineOptions,
) -> Result<Box<dyn ConcurrentVisitedSet>, BuildError> {
    let (partition, config) = collapse_config(model, opts)?;
    Ok(Box::new(SharedCollapse::new(
        partition,
        config,
        Budget::new(opts.mem_budget),
    )?))
}

fn tree_config(model: &dyn Model, opts: &EngineOptions) -> Result<TreeConfig, BuildError> {
    opts.reject_unknown("tree", &["w", "incremental", "initial_buckets"])?;
    let d = TreeConfig::default();
    let config = TreeConfig {
        w: opts.get("w", d.w)?,
        incremental: opts.get("incremental", d.incremental)?,
        initial_buckets: opts.get("initial_buckets", d.initial_buckets)?,
    };
    if !(1..=32).contains(&config.w) {
        return Err(format!("engine parameter w={}: must be in 1..=32", config.w).into());
    }
    let k = model.slot_count();
    if k == 0 {
        return Err(BuildError::Invalid("tree: the model has no slots".into()));
    }
    Ok(config)
}

fn build_tree(model: &dyn Model, opts: &EngineOptions) -> Result<Box<dyn VisitedSet>, BuildError> {
    let config = tree_config(model, opts)?;
    Ok(Box::new(Tree::new(
        model.slot_count(),
        &config,
        Budget::new(opts.mem_budget),
    )?))
}

fn build_shared_tree(
    model: &dyn Model,
    opts: &EngineOptions,
) -> Result<Box<dyn ConcurrentVisitedSet>, BuildError> {
    let config = tree_config(model, opts)?;
    Ok(Box::new(SharedTree::new(
        model.slot_count(),
        &config,
        Budget::new(opts.mem_budget),
    )?))
}

fn compact_tree_config(
    model: &dyn Model,
    opts: &EngineOptions,
) -> Result<CompactTreeConfig, BuildError> {
    opts.reject_unknown(
        "compact-tree",
        &[
            "w",
            "o",
            "u",
            "m",
            "root_key",
            "max_load",
            "grow_load",
            "incremental",
        ],
    )?;
    let d = CompactTreeConfig::default();
    // Defaults: the configuration that met both targets of the issue in
    // the BEEM campaign (see the README); `m=budget root_key=fixed` is the
    // paper's.
    let (m, grow) = match opts.get("m", "auto".to_string())?.as_str() {
        "budget" => (None, false),
        "auto" => (None, true),
        v => (
            Some(
                v.parse()
                    .map_err(|_| format!("engine parameter m={v}: not a valid value"))?,
            ),
            false,
        ),
    };
    let config = CompactTreeConfig {
        w: opts.get("w", d.w)?,
        o: opts.get("o", d.o)?,
        u: opts.get("u", d.u)?,
        m,
        grow,
        max_load: opts.get("max_load", d.max_load)?,
        grow_load: opts.get("grow_load", d.grow_load)?,
        adaptive_key: match opts.get("root_key", "adaptive".to_string())?.as_str() {
            "fixed" => false,
            "adaptive" => true,
            v => {
                return Err(BuildError::Invalid(format!(
                    "engine parameter root_key={v}: must be fixed or adaptive"
                )))
            }
        },
        incremental: opts.get("incremental", d.incremental)?,
        ..d
    };
    config
        .check()
        .map_err(|e| format!("engine parameter {e}"))?;
    let k = model.slot_count();
    if k == 0 {
        return Err(BuildError::Invalid(
            "compact-tree: the model has no slots".into(),
        ));
    }
    Ok(config)
}

fn build_compact_tree(
    model: &dyn Model,
    opts: &EngineOptions,
) -> Result<Box<dyn VisitedSet>, BuildError> {
    let config = compact_tree_config(model, opts)?;
    Ok(Box::new(CompactTree::new(
        model.slot_count(),
        &config,
        Budget::new(opts.mem_budget),
    )?))
}

fn build_shared_compact_tree(
    model: &dyn Model,
    opts: &EngineOptions,
) -> Result<Box<dyn ConcurrentVisitedSet>, BuildError> {
    let config = compact_tree_config(model, opts)?;
    Ok(Box::new(SharedCompactTree::new(
        model.slot_count(),
        &config,
        Budget::new(opts.mem_budget),
    )?))
}

fn trie_config(opts: &EngineOptions) -> Result<PTrieConfig, BuildError> {
    opts.reject_unknown("trie", &["bucket_size", "encoding"])?;
    let config = PTrieConfig {
        bucket_size: opts.get("bucket_size", crate::schemes::ptrie::DEFAULT_BUCKET_SIZE)?,
        encoding: opts.get("encoding", Encoding::Packed)?,
        mem_budget: opts.mem_budget,
    };
    if !(1..=crate::schemes::ptrie::MAX_BUCKET_SIZE).contains(&config.bucket_size) {
        return Err(format!(
            "engine parameter bucket_size={}: must be in 1..={}",
            config.bucket_size,
            crate::schemes::ptrie::MAX_BUCKET_SIZE
        )
        .into());
    }
    Ok(config)
}

fn build_trie(model: &dyn Model, opts: &EngineOptions) -> Result<Box<dyn VisitedSet>, BuildError> {
    Ok(Box::new(PTrie::new(
        model.slot_count(),
        trie_config(opts)?,
    )?))
}

fn build_shared_trie(
    model: &dyn Model,
    opts: &EngineOptions,
) -> Result<Box<dyn ConcurrentVisitedSet>, BuildError> {
    Ok(Box::new(ShardedPTrie::new(
        model.slot_count(),
        trie_config(opts)?,
        crate::schemes::ptrie::concurrent::shards_for(opts.threads),
    )?))
}

/// Looks an engine up by name.
pub fn find(name: &str) -> Option<&'static EngineSpec> {
    ENGINES.iter().find(|e| e.name == name)
}

/// The parameter every engine with a concurrent form takes: `form=sequential`
/// (the default at one thread: the sequential engine and explorer) or
/// `form=concurrent` (the default, and the only form, above one thread).
/// `form=concurrent` at one thread runs the concurrent engine with the
/// parallel explorer and one worker: the baseline of the paper's speedup
/// (one implementation at 1 and at N threads).
pub const FORM_PARAM: &str = "form";

/// `opts` without the [`FORM_PARAM`] parameter, and whether it asks for the
/// concurrent form (it always does above one thread).
fn split_form(name: &str, opts: &EngineOptions) -> Result<(bool, EngineOptions), String> {
    let mut rest = opts.clone();
    rest.params.retain(|(k, _)| k != FORM_PARAM);
    let concurrent = match opts.get::<String>(FORM_PARAM, String::new())?.as_str() {
        "" => opts.threads > 1,
        "concurrent" => true,
        "sequential" if opts.threads <= 1 => false,
        "sequential" => {
            return Err(format!(
                "engine {name}: form=sequential runs one thread (--threads {})",
                opts.threads
            ))
        }
        other => {
            return Err(format!(
                "engine parameter {FORM_PARAM}={other}: not a valid value (sequential, concurrent)"
            ))
        }
    };
    Ok((concurrent, rest))
}

/// Explores `model` with the engine `name`. `Err` for an unknown engine or
/// invalid parameters; every outcome of the search itself is a report.
pub fn create(
    name: &str,
    model: &dyn Model,
    opts: &EngineOptions,
    cfg: ExploreConfig<'_>,
) -> Result<RunReport, String> {
    let spec = lookup(name)?;
    if let (true, EngineKind::Search(run)) = (self_parallel(name), spec.kind) {
        return run(model, opts, cfg);
    }
    let (concurrent, opts) = split_form(name, opts)?;
    let opts = &opts;
    if concurrent {
        let Some(build) = concurrent_builder(name) else {
            return Err(if opts.threads > 1 {
                format!(
                    "engine {name} runs with one thread only (--threads {} unsupported)",
                    opts.threads
                )
            } else {
                format!("engine {name} has no concurrent form ({FORM_PARAM}=concurrent)")
            });
        };
        return match build(model, opts) {
            Ok(set) => Ok(explore_parallel(model, set, opts.threads.max(1), cfg)),
            Err(BuildError::Invalid(message)) => Err(message),
            Err(BuildError::Full(full)) => Ok(table_full_report(full.message)),
        };
    }
    match spec.kind {
        EngineKind::Explicit(build) => match build(model, opts) {
            Ok(mut set) => Ok(explore(model, set.as_mut(), cfg)),
            Err(BuildError::Invalid(message)) => Err(message),
            Err(BuildError::Full(full)) => Ok(table_full_report(full.message)),
        },
        EngineKind::Search(run) => run(model, opts, cfg),
    }
}

fn lookup(name: &str) -> Result<&'static EngineSpec, String> {
    find(name).ok_or_else(|| {
        let names: Vec<_> = ENGINES.iter().map(|e| e.name).collect();
        format!("unknown engine '{name}' (known: {})", names.join(", "))
    })
}

/// Builds the concurrent visited set of engine `name` for `model` (tests
/// and benchmarks drive it with [`explore_parallel`] directly). `Err` for
/// an engine without a concurrent form, invalid parameters, or a budget
/// that cannot hold the empty tables.
pub fn build_concurrent_set(
    name: &str,
    model: &dyn Model,
    opts: &EngineOptions,
) -> Result<Box<dyn ConcurrentVisitedSet>, String> {
    lookup(name)?;
    let build =
        concurrent_builder(name).ok_or_else(|| format!("engine {name} has no concurrent form"))?;
    match build(model, opts) {
        Ok(set) => Ok(set),
        Err(BuildError::Invalid(message)) => Err(message),
        Err(BuildError::Full(full)) => Err(full.message),
    }
}

/// Builds the visited set of the explicit engine `name` for `model`
/// (benchmarks and tests drive it directly). `Err` for an unknown engine,
/// an engine with its own search, invalid parameters, or a budget that
/// cannot hold the empty tables.
pub fn build_visited_set(
    name: &str,
    model: &dyn Model,
    opts: &EngineOptions,
) -> Result<Box<dyn VisitedSet>, String> {
    match lookup(name)?.kind {
        EngineKind::Explicit(build) => match build(model, opts) {
            Ok(set) => Ok(set),
            Err(BuildError::Invalid(message)) => Err(message),
            Err(BuildError::Full(full)) => Err(full.message),
        },
        EngineKind::Search(_) => Err(format!(
            "engine '{name}' runs its own search; it has no visited set to build"
        )),
    }
}
