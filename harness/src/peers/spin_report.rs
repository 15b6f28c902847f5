//! Reading the report a SPIN verifier (`pan`) prints at the end of a search:
//! counts, memory figures, elapsed time, and the conditions that make the
//! count incomplete or call for a recompilation.
//!
//! Owns the text format of SPIN 6's report (`pan.c`'s `wrapup`). Pure: must
//! not run anything. Lines it does not know are ignored, so a report with
//! extra lines (other storage modes, other SPIN versions) still parses; a
//! report without `states, stored` is an error.
//!
//! Number formats: SPIN prints counts with `%9.8g`, so counts of 10^8 and
//! more come out as `1.2345679e+08`, rounded to 8 significant digits
//! ([`PanReport::rounded`] is then set); memory with `%9.3f` in units of
//! 2^20 bytes (SPIN calls them "Megabytes": `-w24` is 128.000, 2^24
//! eight-byte slots); the elapsed time with `%.3g` seconds.

/// Why the verifier must be rebuilt before its count can be trusted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recompile {
    /// `-DMA=N` must exceed this (a stored vector was this long).
    MaTooSmall(u64),
    /// `-DVECTORSZ=N` must exceed this.
    VectorTooSmall(u64),
}

/// The figures of one `pan` report. Byte figures are SPIN's, converted
/// from its 2^20-byte units (precision 1 KiB).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PanReport {
    pub states_stored: u64,
    pub states_matched: Option<u64>,
    /// SPIN's `transitions (= stored+matched)`: executed steps.
    pub transitions: Option<u64>,
    pub atomic_steps: Option<u64>,
    pub hash_conflicts: Option<u64>,
    /// Largest state vector seen, bytes (`State-vector N byte`).
    pub vector_bytes: Option<u64>,
    pub depth_reached: Option<u64>,
    pub errors: Option<u64>,
    /// `stored * (State-vector + overhead)`: what uncompressed storage would take.
    pub equivalent_state_bytes: Option<u64>,
    /// `actual memory usage for states`: the state store as it is.
    pub actual_state_bytes: Option<u64>,
    pub hash_table_bytes: Option<u64>,
    pub dfs_stack_bytes: Option<u64>,
    /// `other (proc and chan stacks)`.
    pub other_bytes: Option<u64>,
    pub total_bytes: Option<u64>,
    pub elapsed_s: Option<f64>,
    /// `-DMA=N is sufficient` (minimised automaton only).
    pub ma_sufficient: Option<u64>,
    pub ma_nodes: Option<u64>,
    pub ma_edges: Option<u64>,
    /// A count was printed in exponent form (rounded to 8 digits).
    pub rounded: bool,
    /// `max search depth too small`: the DFS was cut at `-m`, the count is
    /// incomplete.
    pub depth_truncated: bool,
    /// `-DMEMLIM` reached or allocation failed: the count is incomplete.
    pub out_of_memory: bool,
    /// `Warning: Search not completed`.
    pub not_completed: bool,
    /// The search was aborted for a compile-time size.
    pub recompile: Option<Recompile>,
}

/// Parses a `%g`-printed count; `rounded` is set for exponent forms.
fn count(word: &str, rounded: &mut bool) -> Option<u64> {
    if let Ok(v) = word.parse::<u64>() {
        return Some(v);
    }
    let v: f64 = word.parse().ok()?;
    if !(v >= 0.0 && v.is_finite()) {
        return None;
    }
    *rounded = true;
    Some(v.round() as u64)
}

/// SPIN's memory figure (2^20-byte units) as bytes.
fn mebibytes(word: &str) -> Option<u64> {
    let v: f64 = word.parse().ok()?;
    (v >= 0.0 && v.is_finite()).then(|| (v * (1u64 << 20) as f64).round() as u64)
}

/// The number after `prefix` in `line` (up to the next non-digit).
fn number_after(line: &str, prefix: &str) -> Option<u64> {
    let rest = &line[line.find(prefix)? + prefix.len()..];
    let digits: String = rest
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// Parses a report. Errors when the report has no state count (the
/// verifier did not get to its summary).
pub fn parse(text: &str) -> Result<PanReport, String> {
    let mut r = PanReport::default();
    let mut stored = None;
    for raw in text.lines() {
        let line = raw.trim();
        let first = line.split_whitespace().next().unwrap_or("");
        let rest = line[first.len()..].trim_start();
        if line.starts_with("State-vector ") {
            r.vector_bytes = number_after(line, "State-vector");
            r.depth_reached = number_after(line, "depth reached");
            r.errors = number_after(line, "errors:");
        } else if rest.starts_with("states, stored") {
            stored = count(first, &mut r.rounded);
        } else if rest.starts_with("states, matched") {
            r.states_matched = count(first, &mut r.rounded);
        } else if rest.starts_with("transitions (=") {
            r.transitions = count(first, &mut r.rounded);
        } else if rest.starts_with("atomic steps") {
            r.atomic_steps = count(first, &mut r.rounded);
        } else if line.starts_with("hash conflicts:") {
            r.hash_conflicts = number_after(line, "hash conflicts:");
        } else if rest.starts_with("equivalent memory usage for states") {
            r.equivalent_state_bytes = mebibytes(first);
        } else if rest.starts_with("actual memory usage for states") {
            r.actual_state_bytes = mebibytes(first);
        } else if rest.starts_with("memory used for hash table") {
            r.hash_table_bytes = mebibytes(first);
        } else if rest.starts_with("memory used for DFS stack") {
            r.dfs_stack_bytes = mebibytes(first);
        } else if rest.starts_with("other (proc and chan stacks)") {
            r.other_bytes = mebibytes(first);
        } else if rest.starts_with("total actual memory usage") {
            r.total_bytes = mebibytes(first);
        } else if let Some(t) = line.strip_prefix("pan: elapsed time ") {
            r.elapsed_s = t.split_whitespace().next().and_then(|w| w.parse().ok());
        } else if line.starts_with("MA stats:") {
            r.ma_sufficient = number_after(line, "-DMA=");
        } else if line.starts_with("Minimized Automaton:") {
            r.ma_nodes = number_after(line, "Minimized Automaton:");
            r.ma_edges = number_after(line, "nodes and");
        } else if line.starts_with("Warning: Search not completed") {
            r.not_completed = true;
        } else if line.contains("max search depth too small") {
            r.depth_truncated = true;
        } else if line.contains("reached -DMEMLIM bound") || line.contains("out of memory") {
            r.out_of_memory = true;
        } else if line.contains("MA too small") {
            r.recompile = number_after(line, "N>").map(Recompile::MaTooSmall);
        } else if line.contains("VECTORSZ too small") {
            r.recompile = number_after(line, "N>").map(Recompile::VectorTooSmall);
        }
    }
    match stored {
        Some(s) => {
            r.states_stored = s;
            Ok(r)
        }
        None => {
            let tail: Vec<&str> = text
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .collect();
            let tail = tail[tail.len().saturating_sub(3)..].join(" | ");
            Err(format!(
                "no `states, stored` in the verifier's report: {tail}"
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    //! The fixtures are reports of the real SPIN 6.5.2 on the hand-written
    //! models beside them (`harness/tests/fixtures/spin/`, regenerated by
    //! `regen.sh` there, which also records the commands).
    use super::*;

    const MIB: u64 = 1 << 20;

    fn fixture(name: &str) -> PanReport {
        let path = format!("{}/tests/fixtures/spin/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        parse(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    fn approx(bytes: Option<u64>, mib: f64) -> bool {
        bytes.is_some_and(|b| (b as f64 - mib * MIB as f64).abs() < 1024.0)
    }

    #[test]
    fn plain_report_gives_counts_memory_and_time() {
        let r = fixture("channels.plain.txt");
        assert_eq!(r.states_stored, 98);
        assert_eq!(r.states_matched, Some(69));
        assert_eq!(
            r.transitions,
            Some(r.states_stored + r.states_matched.unwrap()),
            "SPIN's transitions are stored+matched"
        );
        assert_eq!(r.vector_bytes, Some(36));
        assert_eq!(r.depth_reached, Some(32));
        assert_eq!(r.errors, Some(0));
        assert!(
            approx(r.hash_table_bytes, 8.0),
            "-w20: 2^20 slots of 8 bytes"
        );
        assert!(approx(r.dfs_stack_bytes, 0.458));
        assert!(r.actual_state_bytes.is_some() && r.total_bytes.is_some());
        assert!(r.total_bytes > r.actual_state_bytes);
        assert!(r.elapsed_s.is_some());
        assert!(!r.depth_truncated && !r.out_of_memory && !r.rounded && !r.not_completed);
        assert_eq!(r.recompile, None);
    }

    #[test]
    fn storage_modes_report_the_same_counts() {
        let plain = fixture("channels.plain.txt");
        for name in ["channels.collapse.txt", "channels.ma.txt"] {
            let r = fixture(name);
            assert_eq!(r.states_stored, plain.states_stored, "{name}");
            assert_eq!(r.transitions, plain.transitions, "{name}");
            assert!(r.actual_state_bytes.is_some(), "{name}");
        }
        let ma = fixture("channels.ma.txt");
        assert_eq!(ma.hash_table_bytes, None, "MA has no hash table");
        assert!(ma.ma_nodes.is_some() && ma.ma_edges.is_some());
        assert!(ma.ma_sufficient.is_some_and(|n| n <= 36));
    }

    #[test]
    fn truncated_and_aborted_searches_are_recognised() {
        let deep = fixture("counter.depth-truncated.txt");
        assert!(deep.depth_truncated);
        let ma = fixture("channels.ma-too-small.txt");
        assert!(matches!(ma.recompile, Some(Recompile::MaTooSmall(n)) if n >= 4));
        assert!(ma.not_completed);
        let mem = fixture("counter.memlim.txt");
        assert!(mem.out_of_memory && mem.not_completed);
    }

    #[test]
    fn exponent_counts_are_flagged_rounded() {
        let text = "State-vector 28 byte, depth reached 99, errors: 0\n\
                    1.2345679e+08 states, stored\n 0 states, matched\n";
        let r = parse(text).unwrap();
        assert_eq!(r.states_stored, 123_456_790);
        assert!(r.rounded);
    }

    #[test]
    fn a_report_without_counts_is_an_error_naming_its_last_lines() {
        let err = parse("spin: model.pm:3, Error: syntax error\n").unwrap_err();
        assert!(err.contains("syntax error"), "{err}");
    }
}
