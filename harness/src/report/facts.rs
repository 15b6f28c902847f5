//! What a campaign ran on and with: machine, commit, time span (from the
//! rows) and settings (from `campaign.json`, whatever its version), as
//! labelled text for the report's header. Reads only.

use crate::schema::Row;
use std::collections::BTreeMap;
use std::path::Path;

/// `(label, value)` lines, in display order.
pub type Facts = Vec<(String, String)>;

/// The distinct values of a column, the most frequent first, with counts
/// when there are several.
fn distinct(rows: &[Row], value: impl Fn(&Row) -> String) -> String {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for r in rows {
        *counts.entry(value(r)).or_default() += 1;
    }
    let mut v: Vec<(String, usize)> = counts.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    match v.len() {
        0 => "-".into(),
        1 => v.remove(0).0,
        _ => v
            .iter()
            .map(|(s, n)| format!("{s} ({n} rows)"))
            .collect::<Vec<_>>()
            .join("; "),
    }
}

/// Machine and code facts from the rows.
pub fn from_rows(rows: &[Row]) -> Facts {
    let mut f = vec![
        ("campaign".into(), distinct(rows, |r| r.campaign.clone())),
        (
            "git commit".into(),
            distinct(rows, |r| r.git_commit.clone()),
        ),
        ("host".into(), distinct(rows, |r| r.host.clone())),
        ("CPU".into(), distinct(rows, |r| r.cpu_model.clone())),
        ("cores".into(), distinct(rows, |r| r.cores.to_string())),
        (
            "memory".into(),
            distinct(rows, |r| {
                format!("{:.1} GiB", r.mem_total_bytes as f64 / (1u64 << 30) as f64)
            }),
        ),
        ("OS".into(), distinct(rows, |r| r.os.clone())),
    ];
    let first = rows.iter().map(|r| r.timestamp.as_str()).min();
    let last = rows.iter().map(|r| r.timestamp.as_str()).max();
    if let (Some(a), Some(b)) = (first, last) {
        f.push(("runs started".into(), format!("{a} to {b}")));
    }
    f.push(("rows".into(), rows.len().to_string()));
    f.push((
        "limits per run".into(),
        distinct(rows, |r| {
            format!(
                "timeout {} s, memory {:.1} GiB",
                r.timeout_s,
                r.mem_limit_bytes as f64 / (1u64 << 30) as f64
            )
        }),
    ));
    f
}

/// The settings in `campaign.json` beside the CSV, flattened to
/// `selection.suite = beem`; a note when absent or unreadable.
pub fn settings(campaign_dir: &Path) -> Facts {
    let path = campaign_dir.join("campaign.json");
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(_) => {
            return vec![(
                "settings".into(),
                "no campaign.json beside the CSV: the settings are only those in the rows".into(),
            )]
        }
    };
    match serde_json::from_str::<serde_json::Value>(&text) {
        Ok(v) => {
            let mut out = Vec::new();
            flatten("", &v, &mut out);
            out
        }
        Err(e) => vec![(
            "settings".into(),
            format!("{} is not valid JSON: {e}", path.display()),
        )],
    }
}

fn flatten(prefix: &str, v: &serde_json::Value, out: &mut Facts) {
    use serde_json::Value;
    match v {
        Value::Object(map) => {
            for (k, v) in map {
                let key = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                flatten(&key, v, out);
            }
        }
        Value::Array(items) => {
            let text: Vec<String> = items
                .iter()
                .map(|i| match i {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                })
                .collect();
            out.push((
                prefix.to_string(),
                if text.is_empty() {
                    "(none)".into()
                } else {
                    text.join(", ")
                },
            ));
        }
        Value::Null => out.push((prefix.to_string(), "(default)".into())),
        Value::String(s) => out.push((prefix.to_string(), s.clone())),
        other => out.push((prefix.to_string(), other.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_flattened_and_absence_is_said() {
        let dir = tempfile::tempdir().unwrap();
        assert!(settings(dir.path())[0].1.contains("no campaign.json"));
        std::fs::write(
            dir.path().join("campaign.json"),
            r#"{"selection":{"suite":["beem","mcc"],"max_states":null},"timeout":180.0}"#,
        )
        .unwrap();
        let s = settings(dir.path());
        assert!(
            s.contains(&("selection.suite".into(), "beem, mcc".into())),
            "{s:?}"
        );
        assert!(s.contains(&("selection.max_states".into(), "(default)".into())));
        assert!(s.contains(&("timeout".into(), "180.0".into())));
        std::fs::write(dir.path().join("campaign.json"), "{").unwrap();
        assert!(settings(dir.path())[0].1.contains("not valid JSON"));
    }

    #[test]
    fn several_values_are_listed_with_counts() {
        let a = Row::example();
        let mut b = Row::example();
        b.git_commit = "1".into();
        let f = from_rows(&[a.clone(), a, b]);
        let commit = &f.iter().find(|(k, _)| k == "git commit").unwrap().1;
        assert_eq!(commit, "0 (2 rows); 1 (1 rows)");
    }
}
