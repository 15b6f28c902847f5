//! The CSV schema of a campaign: one [`Row`] per run, the single definition
//! of every column (DESIGN.md, "Measurement"), and reading/appending rows.
//!
//! Owns column names, their order and derived figures (bits per state, lower
//! bound, match flags). Must not run anything: rows are built by `campaign`.

use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;

/// Outcome of a run, as recorded in the `status` column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Ok,
    Timeout,
    MemoryLimit,
    TableFull,
    ModelError,
    Unsupported,
    Crashed,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Timeout => "timeout",
            Status::MemoryLimit => "memory_limit",
            Status::TableFull => "table_full",
            Status::ModelError => "model_error",
            Status::Unsupported => "unsupported",
            Status::Crashed => "crashed",
        }
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One run: every column of the campaign CSV, in order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    // What was run, where and when.
    pub campaign: String,
    pub timestamp: String,
    pub git_commit: String,
    pub host: String,
    pub cpu_model: String,
    pub cores: u32,
    pub mem_total_bytes: u64,
    pub os: String,
    pub suite: String,
    pub formalism: String,
    pub model: String,
    pub instance: String,
    pub k: Option<u64>,
    pub groups: Option<u64>,
    pub engine: String,
    /// Parameters as requested on the command line (part of the row's key).
    pub engine_config: String,
    /// Effective parameters, defaults included, as the engine reported them.
    pub engine_params: String,
    pub threads: u32,
    pub repetition: u32,
    pub timeout_s: f64,
    pub mem_limit_bytes: u64,
    // Outcome.
    pub status: Status,
    pub message: String,
    pub states: Option<u64>,
    pub transitions: Option<u64>,
    pub oracle_states: Option<u64>,
    pub oracle_transitions: Option<u64>,
    /// False when the oracle counts are only lower bounds (BEEM `complete=no`).
    pub oracle_complete: Option<bool>,
    /// Counts equal the oracle's (at least the oracle's when it is a lower
    /// bound); empty for unfinished runs.
    pub states_match: Option<bool>,
    pub transitions_match: Option<bool>,
    pub levels: Option<u64>,
    // Time.
    pub time_s: Option<f64>,
    pub parse_time_s: Option<f64>,
    pub wall_time_s: f64,
    pub states_per_s: Option<f64>,
    // Memory.
    /// Bytes of the engine's occupied entries (measured by the explicit
    /// engines' own accounting; `bdd`/`mdd`: final inner nodes × 16, the
    /// size of an oxidd node, [`SYMBOLIC_BYTES_NOTE`]).
    pub engine_bytes_used: Option<u64>,
    /// Bytes the engine allocated (explicit engines: their tables, checked
    /// against the heap by `engines/tests/alloc_accounting.rs`;
    /// `bdd`/`mdd`: a model, peak inner nodes × 16, [`SYMBOLIC_BYTES_NOTE`]).
    pub engine_bytes_alloc: Option<u64>,
    pub bits_per_state: Option<f64>,
    pub bits_per_state_alloc: Option<f64>,
    pub rss_peak_bytes: Option<u64>,
    pub dd_final_nodes: Option<u64>,
    pub dd_peak_nodes: Option<u64>,
    pub max_slot_bits: Option<u32>,
    /// The locality bound `u + log2(k) + 2` of the Compact Tree paper
    /// (DESIGN.md): the bits per state needed for the *worst* set of
    /// vectors in which successors differ from their predecessor in one
    /// slot. A given set can be stored below it; a reference line, not a
    /// floor. Called `lower_bound_bits` before (read as this column).
    pub locality_bound_bits: Option<f64>,
    /// Speedup over the best sequential run: exploration time of the
    /// sequential engine at one thread (same instance, configuration and
    /// repetition) over the row's own; 1 for a one-thread row. The paper's
    /// definition is `speedup_concurrent`.
    pub speedup: Option<f64>,
    /// Engine-specific counters, `name=value;...`.
    pub counters: String,
    // Latency of visited-set operations: percentiles of `find_or_insert`
    // over one call in 64, timed by the explorer (empty for engines with
    // their own search and for SPIN). Last,
    // so that CSVs written before them differ only by missing columns.
    pub op_latency_p50_ns: Option<u64>,
    pub op_latency_p99_ns: Option<u64>,
    pub op_latency_p999_ns: Option<u64>,
    /// `log2 U`, `U` the number of vectors in the product of the slot
    /// domains actually seen (per slot, the distinct values it took in the
    /// stored states); measured by explorers that see every state. BDD/MDD
    /// and SPIN rows take it from a finished row of the same instance and
    /// state count earlier in the campaign (the universe is the
    /// instance's), and are empty without one.
    pub universe_log2: Option<f64>,
    /// The combinatorial bound `log2 C(U, n) / n` bits per state, `n` =
    /// `states`: the information needed to single out an arbitrary set of
    /// `n` vectors of that universe (computed in log space through the
    /// log-gamma function). A reference, not a floor for a structured set.
    pub combinatorial_bound_bits: Option<f64>,
    /// `8 × rss_peak_bytes / states`: the whole process's memory per state.
    pub bits_per_state_rss: Option<f64>,
    /// The paper's speedup of a multi-thread row: exploration time of the
    /// same engine's *concurrent* form at one thread (configuration
    /// `form=concurrent`, a measured row of the campaign) over the row's
    /// own. `speedup` is over the best sequential run (the sequential
    /// engine and explorer at one thread).
    pub speedup_concurrent: Option<f64>,
}

/// What the symbolic engines' byte columns are (the report repeats it):
/// oxidd's API exposes node counts, not its allocations, so the figures
/// are modelled from them.
pub const SYMBOLIC_BYTES_NOTE: &str = "bdd/mdd bytes are modelled, not measured: \
    engine_bytes_used = final inner nodes × 16 B and engine_bytes_alloc = peak inner nodes × 16 B \
    (one oxidd node slot). Left out: the node store's reserved capacity beyond the peak (virtual \
    until touched), oxidd's per-level unique tables and its apply cache (fixed per configuration); \
    the row's rss_peak_bytes includes all of them.";

/// Columns of older schemas read under their current name.
pub const RENAMED: [(&str, &str); 1] = [("lower_bound_bits", "locality_bound_bits")];

/// Columns computed from others by [`Row::derive`]: a file without them is
/// read with them recomputed.
pub const DERIVED: [&str; 8] = [
    "states_match",
    "transitions_match",
    "bits_per_state",
    "bits_per_state_alloc",
    "states_per_s",
    "locality_bound_bits",
    "combinatorial_bound_bits",
    "bits_per_state_rss",
];

/// `log2 C(U, n)` for `log2 U` and `n <= U`, in log space: through
/// log-gamma while `U` is exact in an `f64`, otherwise as
/// `n log2 U - log2 n! + sum_j log2(1 - j/U)` with the sum's first-order
/// term (the next one is below `n^3 / U^2`, negligible there).
pub fn log2_binomial(log2_u: f64, n: u64) -> f64 {
    let n_f = n as f64;
    let ln2 = std::f64::consts::LN_2;
    let lgamma = libm::lgamma;
    if log2_u < 52.0 {
        let u = log2_u.exp2().round();
        if n_f > u {
            return f64::NAN;
        }
        (lgamma(u + 1.0) - lgamma(n_f + 1.0) - lgamma(u - n_f + 1.0)) / ln2
    } else {
        let pairs = n_f * (n_f - 1.0) / 2.0;
        n_f * log2_u - lgamma(n_f + 1.0) / ln2 - pairs * (-log2_u).exp2() / ln2
    }
}

/// Identifies a run inside a campaign: rows with equal keys are the same run.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RunKey {
    pub suite: String,
    pub instance: String,
    pub engine: String,
    pub engine_config: String,
    pub threads: u32,
    pub repetition: u32,
}

impl RunKey {
    /// What progress lines call a run: `instance / engine [config]`, then
    /// ` (t threads)` above 1 thread and ` #r` after the first repetition.
    pub fn label(&self) -> String {
        let mut label = format!("{} / {}", self.instance, self.engine);
        if !self.engine_config.is_empty() {
            label.push_str(&format!(" [{}]", self.engine_config));
        }
        if self.threads > 1 {
            label.push_str(&format!(" ({} threads)", self.threads));
        }
        if self.repetition > 0 {
            label.push_str(&format!(" #{}", self.repetition));
        }
        label
    }
}

impl std::fmt::Display for RunKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{} engine {}", self.suite, self.instance, self.engine)?;
        if !self.engine_config.is_empty() {
            write!(f, " [{}]", self.engine_config)?;
        }
        write!(
            f,
            ", {} thread(s), repetition {}",
            self.threads, self.repetition
        )
    }
}

impl Row {
    /// The engine with its requested parameters, `bdd [strategy=bfs]`: what
    /// the summary, report, plots and progress lines call a configuration.
    pub fn variant(&self) -> String {
        if self.engine_config.is_empty() {
            self.engine.clone()
        } else {
            format!("{} [{}]", self.engine, self.engine_config)
        }
    }

    /// The engine counter `name` from `counters` (`name=value;...`).
    pub fn counter(&self, name: &str) -> Option<u64> {
        self.counters
            .split(';')
            .filter_map(|kv| kv.split_once('='))
            .find(|(k, _)| *k == name)
            .and_then(|(_, v)| v.parse().ok())
    }

    pub fn key(&self) -> RunKey {
        RunKey {
            suite: self.suite.clone(),
            instance: self.instance.clone(),
            engine: self.engine.clone(),
            engine_config: self.engine_config.clone(),
            threads: self.threads,
            repetition: self.repetition,
        }
    }

    /// Fills the figures derived from others ([`DERIVED`]): match flags,
    /// bits per state (used, allocated, resident set), throughput, the
    /// locality bound `u + log2(k) + 2` and the combinatorial bound
    /// `log2 C(U, n) / n` (DESIGN.md).
    pub fn derive(&mut self) {
        let finished = self.status == Status::Ok;
        let exact = self.oracle_complete != Some(false);
        let agrees = |count: Option<u64>, oracle: Option<u64>| match (finished, count, oracle) {
            (true, Some(c), Some(o)) => Some(if exact { c == o } else { c >= o }),
            (true, Some(_), None) => Some(true),
            _ => None,
        };
        self.states_match = agrees(self.states, self.oracle_states);
        self.transitions_match = agrees(self.transitions, self.oracle_transitions);
        let per_state = |bytes: Option<u64>| match (bytes, self.states) {
            (Some(b), Some(s)) if s > 0 => Some(8.0 * b as f64 / s as f64),
            _ => None,
        };
        self.bits_per_state = per_state(self.engine_bytes_used);
        self.bits_per_state_alloc = per_state(self.engine_bytes_alloc);
        self.states_per_s = match (self.states, self.time_s) {
            (Some(s), Some(t)) if t > 0.0 => Some(s as f64 / t),
            _ => None,
        };
        self.bits_per_state_rss = per_state(self.rss_peak_bytes);
        self.locality_bound_bits = match (self.max_slot_bits, self.k) {
            (Some(u), Some(k)) if k > 0 => Some(u.max(1) as f64 + (k as f64).log2() + 2.0),
            _ => None,
        };
        self.combinatorial_bound_bits = match (self.universe_log2, self.states) {
            (Some(log2_u), Some(n)) if finished && n > 0 => {
                Some(log2_binomial(log2_u, n) / n as f64).filter(|b| b.is_finite())
            }
            _ => None,
        };
    }
}

/// Reads every complete row of a campaign CSV. A last line cut short by a
/// killed writer is dropped from the file (it is rerun on `--resume`).
pub fn read_rows(path: &Path) -> anyhow::Result<Vec<Row>> {
    truncate_partial_line(path)?;
    let text = std::fs::read(path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let mut reader = csv::Reader::from_reader(text.as_slice());
    let headers = reader
        .headers()
        .map_err(|e| anyhow::anyhow!("{}:1: {e}", path.display()))?
        .clone();
    let expected = header_line();
    if headers.iter().collect::<Vec<_>>().join(",") != expected {
        anyhow::bail!(
            "{}: the columns differ from this statebench's schema (an older or newer campaign?)",
            path.display()
        );
    }
    let mut rows = Vec::new();
    for record in reader.records() {
        let mut record = record.map_err(|e| csv_error(path, &text, e))?;
        let line = line_of(&text, record.position());
        // Without its position, the error names no line of the csv crate's.
        record.set_position(None);
        let row: Row = record
            .deserialize(Some(&headers))
            .map_err(|e| anyhow::anyhow!("{}:{line}: {e}", path.display()))?;
        rows.push(row);
    }
    Ok(rows)
}

/// The line (1-based) of a record's first character, counted in the
/// file's text. The csv crate's own line number is one too low after a
/// `\r\n` line end: its record then starts at the `\n`, which is skipped
/// here with any other line end before the record (a record never starts
/// with one: an empty line is no record).
fn line_of(text: &[u8], position: Option<&csv::Position>) -> usize {
    let mut byte = position.map_or(0, |p| p.byte() as usize).min(text.len());
    while matches!(text.get(byte), Some(b'\r' | b'\n')) {
        byte += 1;
    }
    1 + text[..byte].iter().filter(|&&b| b == b'\n').count()
}

/// A CSV error reading `path` as `path:LINE: what`, the line counted by [`line_of`].
fn csv_error(path: &Path, text: &[u8], e: csv::Error) -> anyhow::Error {
    let line = line_of(text, e.position());
    // The csv crate's text without its (record, line, byte) position.
    let what = match e.kind() {
        csv::ErrorKind::Utf8 { err, .. } => {
            format!("CSV parse error: field {}: {err}", err.field())
        }
        csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => format!("{len} fields where the previous record has {expected_len}"),
        csv::ErrorKind::Deserialize { err, .. } => format!("CSV deserialize error: {err}"),
        _ => e.to_string(),
    };
    anyhow::anyhow!("{}:{line}: {what}", path.display())
}

/// What [`read_rows_tolerant`] read: the rows, and what it had to work around.
#[derive(Debug, Default)]
pub struct Loaded {
    pub rows: Vec<Row>,
    /// Schema columns the file does not have (an older schema): their
    /// values are empty in every row.
    pub missing_columns: Vec<String>,
    /// Columns of the file this schema does not know (a newer schema): ignored.
    pub unknown_columns: Vec<String>,
    /// Human-readable notes (a dropped partial last line, derived figures recomputed).
    pub notes: Vec<String>,
}

/// Reads a campaign CSV for display (plots, report), accepting older and
/// newer schemas: columns are matched by name, a missing optional column is
/// empty in every row, unknown columns are ignored, derived figures absent
/// from the file are recomputed ([`Row::derive`]), and a last line cut short
/// by a killed writer (no line end: the writer ends every row with one) is
/// skipped. Never modifies the file. A row that cannot
/// be read is an error naming `file:line` (and the missing columns, if any).
pub fn read_rows_tolerant(path: &Path) -> anyhow::Result<Loaded> {
    let text = std::fs::read(path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let mut loaded = Loaded::default();
    if text.iter().all(u8::is_ascii_whitespace) {
        loaded.notes.push(format!("{} is empty", path.display()));
        return Ok(loaded);
    }
    let cut_short = !text.ends_with(b"\n");
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .from_reader(text.as_slice());
    let file_headers: Vec<String> = reader
        .headers()
        .map_err(|e| anyhow::anyhow!("{}:1: {e}", path.display()))?
        .iter()
        .map(str::to_string)
        .collect();
    let schema: Vec<String> = header_line().split(',').map(str::to_string).collect();
    let position: Vec<Option<usize>> = schema
        .iter()
        .map(|c| {
            let old = RENAMED
                .iter()
                .find(|(_, new)| new == c)
                .map(|(old, _)| *old);
            file_headers
                .iter()
                .position(|h| h == c || Some(h.as_str()) == old)
        })
        .collect();
    loaded.missing_columns = schema
        .iter()
        .zip(&position)
        .filter(|(_, p)| p.is_none())
        .map(|(c, _)| c.clone())
        .collect();
    loaded.unknown_columns = file_headers
        .iter()
        .filter(|h| !schema.contains(h) && !RENAMED.iter().any(|(old, _)| old == h))
        .cloned()
        .collect();
    if loaded.missing_columns.len() == schema.len() {
        anyhow::bail!(
            "{}:1: no column of the statebench schema (is this a campaign's runs.csv?)",
            path.display()
        );
    }
    let rederive = DERIVED
        .iter()
        .any(|d| loaded.missing_columns.iter().any(|m| m == d));
    let schema_record = csv::StringRecord::from(schema.clone());
    let mut records = reader.records().peekable();
    while let Some(record) = records.next() {
        let last = records.peek().is_none();
        let record = record.map_err(|e| csv_error(path, &text, e))?;
        let line = line_of(&text, record.position());
        if last && cut_short {
            loaded.notes.push(format!(
                "{}:{line}: skipped a last line cut short (a run that was killed while writing)",
                path.display()
            ));
            break;
        }
        if record.len() != file_headers.len() {
            anyhow::bail!(
                "{}:{line}: {} fields where the header has {}",
                path.display(),
                record.len(),
                file_headers.len()
            );
        }
        let full: csv::StringRecord = position
            .iter()
            .map(|p| p.map_or("", |i| &record[i]))
            .collect();
        let mut row: Row = full.deserialize(Some(&schema_record)).map_err(|e| {
            let missing = if loaded.missing_columns.is_empty() {
                String::new()
            } else {
                format!(
                    " (this CSV lacks the columns {}: an older schema?)",
                    loaded.missing_columns.join(", ")
                )
            };
            anyhow::anyhow!("{}:{line}: {e}{missing}", path.display())
        })?;
        if rederive {
            row.derive();
        }
        loaded.rows.push(row);
    }
    if rederive {
        loaded.notes.push(
            "derived columns absent from the file were recomputed from the measured ones".into(),
        );
    }
    Ok(loaded)
}

fn truncate_partial_line(path: &Path) -> io::Result<()> {
    let mut file = OpenOptions::new().read(true).write(true).open(path)?;
    let len = file.metadata()?.len();
    if len == 0 {
        return Ok(());
    }
    let mut last = [0u8; 1];
    file.seek(SeekFrom::End(-1))?;
    file.read_exact(&mut last)?;
    if last[0] == b'\n' {
        return Ok(());
    }
    let mut content = Vec::new();
    file.seek(SeekFrom::Start(0))?;
    file.read_to_end(&mut content)?;
    let keep = content
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    file.set_len(keep as u64)
}

/// The header line of the schema, columns joined by commas.
pub fn header_line() -> String {
    let mut w = csv::WriterBuilder::new()
        .has_headers(true)
        .from_writer(Vec::new());
    w.serialize(Row::example()).expect("in-memory CSV");
    let text = String::from_utf8(w.into_inner().expect("flush")).expect("utf-8");
    text.lines().next().unwrap_or_default().to_string()
}

/// Appends rows to a campaign CSV one at a time, each flushed to the OS as
/// soon as it is written, so a killed campaign keeps every finished row.
pub struct RowWriter {
    writer: csv::Writer<File>,
}

impl RowWriter {
    /// Opens `path` for appending, writing the header if the file is new or empty.
    pub fn append(path: &Path) -> anyhow::Result<Self> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        let empty = file.metadata()?.len() == 0;
        let mut writer = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(file);
        if empty {
            writer.write_record(header_line().split(','))?;
            writer.flush()?;
        }
        Ok(RowWriter { writer })
    }

    pub fn write(&mut self, row: &Row) -> anyhow::Result<()> {
        self.writer.serialize(row)?;
        self.writer.flush()?;
        self.writer.get_ref().sync_data()?;
        Ok(())
    }
}

/// Writes `rows` under the header to a new or empty file in one go (one
/// sync at the end), e.g. a merged campaign.
pub fn write_rows(path: &Path, rows: &[Row]) -> anyhow::Result<()> {
    let file = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .open(path)?;
    let mut writer = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(file);
    writer.write_record(header_line().split(','))?;
    for row in rows {
        writer.serialize(row)?;
    }
    writer.flush()?;
    writer.get_ref().sync_data()?;
    Ok(())
}

impl Row {
    /// A row with every field set, for tests and the header.
    pub fn example() -> Row {
        Row {
            campaign: "c".into(),
            timestamp: "2026-01-01T00:00:00Z".into(),
            git_commit: "0".into(),
            host: "h".into(),
            cpu_model: "cpu".into(),
            cores: 1,
            mem_total_bytes: 1,
            os: "os".into(),
            suite: "builtin".into(),
            formalism: "pnml".into(),
            model: "m".into(),
            instance: "m-1".into(),
            k: Some(1),
            groups: Some(1),
            engine: "hash-table".into(),
            engine_config: String::new(),
            engine_params: String::new(),
            threads: 1,
            repetition: 0,
            timeout_s: 1.0,
            mem_limit_bytes: 1,
            status: Status::Ok,
            message: String::new(),
            states: Some(1),
            transitions: Some(1),
            oracle_states: Some(1),
            oracle_transitions: Some(1),
            oracle_complete: Some(true),
            states_match: Some(true),
            transitions_match: Some(true),
            levels: Some(1),
            time_s: Some(1.0),
            parse_time_s: Some(1.0),
            wall_time_s: 1.0,
            states_per_s: Some(1.0),
            engine_bytes_used: Some(1),
            engine_bytes_alloc: Some(1),
            bits_per_state: Some(1.0),
            bits_per_state_alloc: Some(1.0),
            rss_peak_bytes: Some(1),
            dd_final_nodes: None,
            dd_peak_nodes: None,
            max_slot_bits: Some(1),
            locality_bound_bits: Some(1.0),
            speedup: Some(1.0),
            counters: String::new(),
            op_latency_p50_ns: Some(1),
            op_latency_p99_ns: Some(1),
            op_latency_p999_ns: Some(1),
            universe_log2: Some(1.0),
            combinatorial_bound_bits: Some(1.0),
            bits_per_state_rss: Some(1.0),
            speedup_concurrent: Some(1.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn derive_computes_definitions_of_design_md() {
        let mut row = Row::example();
        row.states = Some(1000);
        row.oracle_states = Some(1000);
        row.transitions = Some(10);
        row.oracle_transitions = Some(11);
        row.engine_bytes_used = Some(4000);
        row.engine_bytes_alloc = Some(8000);
        row.time_s = Some(0.5);
        row.max_slot_bits = Some(3);
        row.k = Some(8);
        row.derive();
        assert_eq!(row.states_match, Some(true));
        assert_eq!(row.transitions_match, Some(false));
        assert_eq!(row.bits_per_state, Some(32.0));
        assert_eq!(row.bits_per_state_alloc, Some(64.0));
        assert_eq!(row.states_per_s, Some(2000.0));
        assert_eq!(row.locality_bound_bits, Some(3.0 + 3.0 + 2.0));
        row.rss_peak_bytes = Some(1 << 20);
        // 1000 vectors out of 2^10 = 1024: log2 C(1024, 1000) / 1000 bits.
        row.universe_log2 = Some(10.0);
        row.derive();
        assert_eq!(row.bits_per_state_rss, Some(8.0 * 1048576.0 / 1000.0));
        let exact: f64 = (0..24)
            .map(|j| ((1024 - j) as f64 / (24 - j) as f64).log2())
            .sum();
        let b = row.combinatorial_bound_bits.unwrap();
        assert!(
            (b - exact / 1000.0).abs() < 1e-9,
            "{b} vs {}",
            exact / 1000.0
        );
        row.oracle_complete = Some(false);
        row.states = Some(1500);
        row.derive();
        assert_eq!(row.states_match, Some(true), "a lower bound is met by more");
        row.states = Some(999);
        row.derive();
        assert_eq!(row.states_match, Some(false));
        row.status = Status::Timeout;
        row.derive();
        assert_eq!(row.states_match, None);
    }

    #[test]
    fn rows_round_trip_and_partial_last_line_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("runs.csv");
        let mut a = Row::example();
        a.message = "a, \"quoted\" message".into();
        let mut b = Row::example();
        b.instance = "m-2".into();
        b.dd_peak_nodes = Some(5);
        {
            let mut w = RowWriter::append(&path).unwrap();
            w.write(&a).unwrap();
            w.write(&b).unwrap();
        }
        // A writer killed half-way through a row.
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(b"c,2026-01-01,abc")
            .unwrap();
        let rows = read_rows(&path).unwrap();
        assert_eq!(rows, vec![a, b]);
        // Appending after recovery keeps a single header.
        RowWriter::append(&path)
            .unwrap()
            .write(&Row::example())
            .unwrap();
        assert_eq!(read_rows(&path).unwrap().len(), 3);
    }

    #[test]
    fn tolerant_reader_fills_older_schemas_and_never_writes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("runs.csv");
        let mut row = Row::example();
        row.states = Some(1000);
        row.engine_bytes_used = Some(4000);
        row.max_slot_bits = Some(3);
        row.k = Some(8);
        row.derive();
        let full = {
            let mut w = csv::Writer::from_writer(Vec::new());
            w.serialize(&row).unwrap();
            String::from_utf8(w.into_inner().unwrap()).unwrap()
        };
        // Drop two columns, one of them derived, as an older statebench would.
        let mut reader = csv::Reader::from_reader(full.as_bytes());
        let headers = reader.headers().unwrap().clone();
        let record = reader.records().next().unwrap().unwrap();
        let keep: Vec<usize> = (0..headers.len())
            .filter(|&i| !["oracle_complete", "bits_per_state"].contains(&&headers[i]))
            .collect();
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record(keep.iter().map(|&i| &headers[i])).unwrap();
        w.write_record(keep.iter().map(|&i| &record[i])).unwrap();
        let mut text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        text.push_str("c,2026-01-01,abc"); // a writer killed half-way
        std::fs::write(&path, &text).unwrap();

        let loaded = read_rows_tolerant(&path).unwrap();
        assert_eq!(
            loaded.missing_columns,
            vec!["oracle_complete", "bits_per_state"]
        );
        assert_eq!(loaded.rows.len(), 1);
        let mut expected = row.clone();
        expected.oracle_complete = None;
        assert_eq!(loaded.rows[0], expected, "bits per state recomputed");
        assert!(
            loaded.notes.iter().any(|n| n.contains("cut short")),
            "{:?}",
            loaded.notes
        );
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            text,
            "the file is left alone"
        );

        // A missing column that has no empty value is an error naming the line.
        std::fs::write(&path, "instance,engine\nx,hash-table\n").unwrap();
        let err = read_rows_tolerant(&path).unwrap_err().to_string();
        assert!(err.contains("runs.csv:2"), "{err}");
        assert!(err.contains("lacks the columns"), "{err}");
        // Nothing of the schema at all.
        std::fs::write(&path, "a,b\n1,2\n").unwrap();
        let err = read_rows_tolerant(&path).unwrap_err().to_string();
        assert!(err.contains("no column of the statebench schema"), "{err}");
        // Empty and header-only files are empty campaigns.
        std::fs::write(&path, "").unwrap();
        assert!(read_rows_tolerant(&path).unwrap().rows.is_empty());
        std::fs::write(&path, header_line() + "\n").unwrap();
        let loaded = read_rows_tolerant(&path).unwrap();
        assert!(loaded.rows.is_empty() && loaded.missing_columns.is_empty());
    }

    #[test]
    fn foreign_schema_is_a_clear_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.csv");
        std::fs::write(&path, "instance,states\nx,1\n").unwrap();
        let err = read_rows(&path).unwrap_err().to_string();
        assert!(err.contains("columns differ"), "{err}");
    }
}
