//! The plan of a campaign: which model instances (the selection, the
//! shard), which engines and configurations (`--param`, `--sweep`), in
//! which order with which thread counts and repetitions, and which planned
//! runs are skipped because a run they depend on did not finish.
//!
//! Owns model selection, engine configurations and the order of runs.
//! Must not run anything (`execute`), fill rows (`row`) nor read or write
//! campaign files (`resume`).

use super::args::{RunArgs, Selection};
use super::row::concurrent_config;
use crate::datasets::{self, Entry};
use crate::runner::Planned;
use crate::schema::{RunKey, Status};
use crate::shard::Shard;
use anyhow::{bail, Context as _};
use globset::{Glob, GlobSetBuilder};
use std::collections::{HashMap, HashSet};

/// The entries a selection picks, suites in the order given, each suite's
/// instances by increasing oracle count (unknown last), then name.
pub fn select(sel: &Selection) -> anyhow::Result<Vec<Entry>> {
    let all = datasets::suites();
    let mut globs = GlobSetBuilder::new();
    for g in &sel.models {
        globs.add(Glob::new(g).with_context(|| format!("--models: bad glob '{g}'"))?);
    }
    let globs = globs.build()?;
    let mut out = Vec::new();
    for name in &sel.suite {
        let Some(suite) = all.iter().find(|s| s.name == name) else {
            let known: Vec<_> = all.iter().map(|s| s.name).collect();
            bail!("unknown suite '{name}' (known: {})", known.join(", "));
        };
        let mut entries: Vec<Entry> = suite
            .entries
            .iter()
            .filter(|e| sel.models.is_empty() || globs.is_match(&e.instance))
            .filter(|e| match (sel.min_states, e.oracle_states) {
                (Some(min), Some(s)) => s >= min,
                (Some(_), None) => false,
                (None, _) => true,
            })
            .filter(|e| match (sel.max_states, e.oracle_states) {
                // A lower bound says nothing about an upper limit.
                (Some(max), Some(s)) => s <= max && e.complete != "no",
                (Some(_), None) => false,
                (None, _) => true,
            })
            .cloned()
            .collect();
        entries.sort_by(|a, b| {
            (a.oracle_states.is_none(), a.oracle_states, &a.instance).cmp(&(
                b.oracle_states.is_none(),
                b.oracle_states,
                &b.instance,
            ))
        });
        out.extend(entries);
    }
    Ok(out)
}

/// Every engine name `--engines` accepts: statebench's, then the peers.
pub fn known_engines() -> String {
    let names: Vec<_> = engines::ENGINES
        .iter()
        .map(|s| s.name)
        .chain(crate::peers::PEERS.iter().map(|p| p.name))
        .collect();
    names.join(", ")
}

/// Splits `ENGINE.key=value` (`what` names the flag in errors), checking
/// that the engine is among `--engines` and has the parameter.
pub fn engine_param<'a>(
    what: &str,
    p: &'a str,
    engines_: &[String],
) -> anyhow::Result<(&'a str, &'a str, &'a str)> {
    let (engine, kv) = p
        .split_once('.')
        .filter(|(_, kv)| kv.contains('='))
        .ok_or_else(|| anyhow::anyhow!("{what} {p}: expected ENGINE.key=value"))?;
    if !engines_.iter().any(|e| e == engine) {
        bail!("{what} {p}: engine '{engine}' is not among --engines");
    }
    let (key, value) = kv.split_once('=').expect("checked above");
    let key = key.trim();
    let known: Option<Vec<&str>> = engines::find(engine)
        .map(|s| s.all_params().iter().map(|p| p.name()).collect())
        .or_else(|| crate::peers::find(engine).map(|p| p.params.iter().map(|(n, _)| *n).collect()));
    if let Some(names) = known {
        if !names.contains(&key) {
            bail!(
                "{what} {p}: engine {engine} has no parameter '{key}' (it has: {})",
                names.join(", ")
            );
        }
    }
    Ok((engine, key, value))
}

/// Per engine, its configurations as `key=value;...` strings: the
/// `--param` settings, then one combination of the `--sweep` values each
/// (the first values first). An engine without sweeps has one.
pub(super) fn engine_configs(
    engines_: &[String],
    params: &[String],
    sweeps: &[String],
) -> anyhow::Result<HashMap<String, Vec<String>>> {
    let mut fixed: HashMap<String, Vec<String>> = HashMap::new();
    for p in params {
        let (engine, _, _) = engine_param("--param", p, engines_)?;
        // As given (`key=value`), so a resumed campaign's configurations
        // are the strings its rows carry.
        let (_, kv) = p.split_once('.').expect("checked by engine_param");
        fixed
            .entry(engine.to_string())
            .or_default()
            .push(kv.to_string());
    }
    let mut out: HashMap<String, Vec<String>> = engines_
        .iter()
        .map(|e| {
            (
                e.clone(),
                vec![fixed.get(e).cloned().unwrap_or_default().join(";")],
            )
        })
        .collect();
    let mut swept = HashSet::new();
    for p in sweeps {
        let (engine, key, values) = engine_param("--sweep", p, engines_)?;
        let values: Vec<&str> = values.split(',').map(str::trim).collect();
        if values.iter().any(|v| v.is_empty()) {
            bail!("--sweep {p}: expected ENGINE.key=v1,v2,... with no empty value");
        }
        if fixed.get(engine).is_some_and(|kvs| {
            kvs.iter()
                .any(|kv| kv.split('=').next().map(str::trim) == Some(key))
        }) {
            bail!("--sweep {p}: {engine}.{key} is also set by --param");
        }
        if !swept.insert((engine, key)) {
            bail!("--sweep {p}: {engine}.{key} is swept twice");
        }
        let configs = out
            .get_mut(engine)
            .expect("every engine has a configuration");
        *configs = configs
            .iter()
            .flat_map(|c| {
                values.iter().map(move |v| {
                    if c.is_empty() {
                        format!("{key}={v}")
                    } else {
                        format!("{c};{key}={v}")
                    }
                })
            })
            .collect();
    }
    Ok(out)
}

/// Expands `all` in `--engines` (statebench's engines, each engine
/// once) and refuses unknown names.
pub(super) fn settle_engines(args: &mut RunArgs) -> anyhow::Result<()> {
    if args.engines.iter().any(|e| e == "all") {
        let mut expanded = Vec::new();
        for e in &args.engines {
            if e == "all" {
                expanded.extend(engines::ENGINES.iter().map(|s| s.name.to_owned()));
            } else {
                expanded.push(e.clone());
            }
        }
        let mut seen = std::collections::HashSet::new();
        expanded.retain(|e| seen.insert(e.clone()));
        args.engines = expanded;
    }
    for e in &args.engines {
        if engines::find(e).is_none() && crate::peers::find(e).is_none() {
            bail!("unknown engine '{e}' (known: {})", known_engines());
        }
    }
    Ok(())
}

/// The entries of `--models` and the other selection options, refusing
/// an empty selection.
pub(super) fn select_some(sel: &Selection) -> anyhow::Result<Vec<Entry>> {
    let entries = select(sel)?;
    if entries.is_empty() {
        bail!(
            "no model of suite(s) {} matches --models {:?}, --min-states {:?}, --max-states {:?} (see `statebench list`)",
            sel.suite.join(", "),
            sel.models.join(","),
            sel.min_states,
            sel.max_states
        );
    }
    Ok(entries)
}

/// The entries of `shard` (all without one). Sharding is by instance
/// (module `shard`): a shard takes whole instances, with all their
/// engines, thread counts and repetitions.
pub(super) fn shard_entries(entries: &[Entry], shard: Option<Shard>) -> Vec<&Entry> {
    entries
        .iter()
        .enumerate()
        .filter(|(position, _)| shard.is_none_or(|s| s.takes(*position)))
        .map(|(_, e)| e)
        .collect()
}

/// Every run of the campaign, in order. Repetitions run in rounds (the
/// whole selection once, then again), so a stretch of load on a shared
/// machine slows one repetition of many runs rather than every repetition
/// of a few: the median over repetitions and `compare`'s range rule then
/// see it as noise.
pub(super) fn plan(
    args: &RunArgs,
    entries: &[&Entry],
    configs: &HashMap<String, Vec<String>>,
) -> Vec<Planned> {
    let mut plan = Vec::new();
    for repetition in 0..args.repetitions {
        for entry in entries {
            for engine in &args.engines {
                for config in &configs[engine] {
                    let mut baseline = paper_baseline(engine, config, &args.threads);
                    for &threads in &args.threads {
                        // The concurrent form at one thread comes right
                        // before the first multi-thread run it is the
                        // baseline of.
                        if threads > 1 {
                            if let Some(config) = baseline.take() {
                                plan.push(Planned {
                                    entry: (*entry).clone(),
                                    engine: engine.clone(),
                                    engine_config: config,
                                    threads: 1,
                                    repetition,
                                });
                            }
                        }
                        plan.push(Planned {
                            entry: (*entry).clone(),
                            engine: engine.clone(),
                            engine_config: config.clone(),
                            threads,
                            repetition,
                        });
                    }
                }
            }
        }
    }
    plan
}

/// The configuration of the paper's speedup baseline for `engine` run with
/// `config` at `threads`: its concurrent form at one thread, when some
/// count is above one and the engine has a concurrent form of its own
/// (not the symbolic engines, whose threads are oxidd's) and `config`
/// does not already name a form.
fn paper_baseline(engine: &str, config: &str, threads: &[u32]) -> Option<String> {
    let names_form = config.split(';').any(|kv| {
        kv.split_once('=')
            .is_some_and(|(k, _)| k == engines::FORM_PARAM)
    });
    (threads.iter().any(|&t| t > 1) && engines::has_concurrent_form(engine) && !names_form)
        .then(|| concurrent_config(config))
}

/// Why `run` is not run: a run it depends on on the same instance ended
/// without finishing, or was itself skipped: the engine's first
/// configuration (`--sweep-where-first-finished`) or its first thread count
/// (`--threads-where-first-finished`); or the first engine's run at the
/// same thread count (`--engines-where-first-finished`) ran out of time:
/// only a timeout, since an engine that runs out of memory says nothing of
/// a more compact one, and a skipped run of the first engine is left to
/// the other rules. `None` while those runs have no row yet (they come
/// first in the plan) or finished.
pub(super) fn skipped_because(
    run: &Planned,
    args: &RunArgs,
    configs: &HashMap<String, Vec<String>>,
    statuses: &HashMap<RunKey, Status>,
    skipped: &HashSet<RunKey>,
) -> Option<String> {
    let own = run.key();
    let mut first = Vec::new();
    if args.engines_where_first_finished && run.engine != args.engines[0] {
        let mut key = own.clone();
        key.engine = args.engines[0].clone();
        key.engine_config = configs[&key.engine][0].clone();
        let what = format!("the first engine's run ({})", key.engine);
        first.push((key, what, true));
    }
    if args.sweep_where_first_finished {
        let mut key = own.clone();
        key.engine_config = configs[&run.engine][0].clone();
        let what = format!("its first configuration [{}]", key.engine_config);
        first.push((key, what, false));
    }
    if args.threads_where_first_finished {
        let mut key = own.clone();
        key.threads = args.threads[0];
        // The paper's baseline (the concurrent form at one thread) serves
        // the later thread counts: it depends on its configuration's first.
        if let Some(base) = configs[&run.engine]
            .iter()
            .find(|c| concurrent_config(c) == run.engine_config)
        {
            key.engine_config = base.clone();
        }
        let what = format!("its {}-thread run", key.threads);
        first.push((key, what, false));
    }
    first
        .into_iter()
        .filter(|(key, _, _)| *key != own)
        .find_map(|(key, what, only_timeout)| {
            if skipped.contains(&key) && !only_timeout {
                return Some(format!("{what} was skipped"));
            }
            let status = statuses.get(&key).filter(|s| {
                if only_timeout {
                    **s == Status::Timeout
                } else {
                    **s != Status::Ok
                }
            })?;
            Some(format!("{what} ended {status}"))
        })
}

#[cfg(test)]
mod tests {
    use super::engine_configs;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn sweeps_multiply_an_engines_configurations_first_values_first() {
        let engines_ = names(&["bdd", "hash-table"]);
        let configs = engine_configs(
            &engines_,
            &names(&["bdd.order=interleaved"]),
            &names(&["bdd.strategy=saturation,bfs", "bdd.threads=1,2"]),
        )
        .unwrap();
        assert_eq!(
            configs["bdd"],
            names(&[
                "order=interleaved;strategy=saturation;threads=1",
                "order=interleaved;strategy=saturation;threads=2",
                "order=interleaved;strategy=bfs;threads=1",
                "order=interleaved;strategy=bfs;threads=2",
            ])
        );
        assert_eq!(configs["hash-table"], names(&[""]));
    }

    #[test]
    fn bad_sweeps_are_refused() {
        let engines_ = names(&["bdd"]);
        for (params, sweep) in [
            (&[][..], "bdd.strategy=bfs,"),
            (&[][..], "mdd.strategy=bfs"),
            (&[][..], "bdd.nosuch=1,2"),
            (&["bdd.strategy=bfs"][..], "bdd.strategy=saturation,bfs"),
            (&[][..], "bdd.strategy=bfs;bdd.strategy=saturation"),
        ] {
            assert!(
                // `;` separates two --sweep flags here.
                engine_configs(
                    &engines_,
                    &names(params),
                    &names(&sweep.split(';').collect::<Vec<_>>())
                )
                .is_err(),
                "{sweep} with {params:?}"
            );
        }
    }
}

#[cfg(test)]
mod skip_tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        run: RunArgs,
    }

    fn planned(engine: &str, threads: u32) -> Planned {
        let entry = Entry {
            suite: "beem".into(),
            instance: "m".into(),
            model: "m".into(),
            formalism: "dve".into(),
            path: String::new(),
            source_url: String::new(),
            sha256: String::new(),
            oracle_states: None,
            oracle_transitions: None,
            complete: String::new(),
            notes: String::new(),
        };
        Planned {
            entry,
            engine: engine.into(),
            engine_config: String::new(),
            threads,
            repetition: 0,
        }
    }

    /// `--engines-where-first-finished` skips after the first engine's
    /// timeout only; the thread rule then skips the 2-thread run too.
    #[test]
    fn run_skipping_after_a_timeout() {
        let line = "run --engines hash-table,tree --threads 1,2 \
                    --threads-where-first-finished --engines-where-first-finished";
        let args = Cli::parse_from(line.split_whitespace()).run;
        let configs = engine_configs(&args.engines, &[], &[]).unwrap();
        let why = |first: Status, skipped: &[Planned], run: &Planned| {
            let statuses = HashMap::from([(planned("hash-table", 1).key(), first)]);
            let skipped: HashSet<RunKey> = skipped.iter().map(Planned::key).collect();
            skipped_because(run, &args, &configs, &statuses, &skipped)
        };
        let ht2 = planned("hash-table", 2);
        let (tree1, tree2) = (planned("tree", 1), planned("tree", 2));
        assert_eq!(
            why(Status::Timeout, &[], &ht2).as_deref(),
            Some("its 1-thread run ended timeout")
        );
        assert_eq!(
            why(Status::Timeout, std::slice::from_ref(&ht2), &tree1).as_deref(),
            Some("the first engine's run (hash-table) ended timeout")
        );
        assert_eq!(
            why(Status::Timeout, &[ht2.clone(), tree1.clone()], &tree2).as_deref(),
            Some("its 1-thread run was skipped")
        );
        for status in [Status::TableFull, Status::MemoryLimit] {
            assert_eq!(why(status, std::slice::from_ref(&ht2), &tree1), None);
            assert_eq!(why(status, std::slice::from_ref(&ht2), &tree2), None);
        }
        assert_eq!(why(Status::Ok, &[], &tree1), None);
    }
}
