//! The symbolic engines on the harness's default suite: every built-in
//! model of `datasets/builtin.csv` (embedded in the harness, read here from
//! `datasets/builtin/`), every strategy with both BDD bit orders and both
//! `mdd` encodings, plus the model's slot order and `mdd`'s learning on
//! new states off and stopped mid-run: states and transitions
//! must equal the manifest's oracle. These models are larger than the
//! ones of `symbolic.rs` (up to 10⁶ states), and some searches add many
//! states per step: an `mdd` change that passed `symbolic.rs` once gave
//! 390,050 of philosophers-15's 551,614 states, 524,288 of mutex-16's
//! 589,824 and of cycles-10-4's 1,048,576.

use engines::{EngineOptions, RunStatus};

mod real_models;
use real_models::{load, locate, rows};

const STRATEGIES: [&str; 4] = ["bfs", "chaining", "saturation", "node-saturation"];

/// Every configuration of `engine` this suite runs: each strategy with each
/// value of `knob` (the BDD bit order or the `mdd` encoding), and the
/// default strategy with the model's slot order and with each parameter
/// of `extra`.
fn configurations(knob: (&str, [&str; 2]), extra: &[(&str, &str)]) -> Vec<Vec<(String, String)>> {
    let (key, values) = knob;
    let mut out: Vec<Vec<(String, String)>> = STRATEGIES
        .iter()
        .flat_map(|s| {
            values.iter().map(move |v| {
                vec![
                    ("strategy".to_owned(), s.to_string()),
                    (key.to_owned(), v.to_string()),
                ]
            })
        })
        .collect();
    out.push(vec![("slot_order".to_owned(), "model".to_owned())]);
    out.extend(
        extra
            .iter()
            .map(|&(k, v)| vec![(k.to_owned(), v.to_owned())]),
    );
    out
}

/// Runs `engine` in every configuration on every built-in model; the
/// mismatches, one line each, are reported together.
fn builtin_suite_matches_the_oracle(engine: &str, knob: (&str, [&str; 2]), extra: &[(&str, &str)]) {
    let mut wrong = Vec::new();
    let models = rows("builtin.csv");
    assert!(models.len() >= 16, "builtin.csv has {} rows", models.len());
    for row in models {
        let instance = &row["instance"];
        let path = locate(&row["path"]).unwrap_or_else(|| panic!("{instance}: no file"));
        let oracle: (u64, u64) = (
            row["oracle_states"].parse().unwrap(),
            row["oracle_transitions"].parse().unwrap(),
        );
        let model = load(&path);
        for params in configurations(knob, extra) {
            let opts = EngineOptions {
                mem_budget: 1 << 30,
                threads: 1,
                params: params.clone(),
            };
            let r = engines::create(engine, model.as_ref(), &opts, Default::default()).unwrap();
            let got = (r.states, r.transitions);
            if r.status != RunStatus::Ok || got != oracle {
                wrong.push(format!(
                    "{instance} {engine} {params:?}: {:?} {got:?}, oracle {oracle:?} {}",
                    r.status, r.message
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn bdd_counts_the_builtin_suite_as_the_oracle() {
    builtin_suite_matches_the_oracle("bdd", ("order", ["interleaved", "blocked"]), &[]);
}

#[test]
fn mdd_counts_the_builtin_suite_as_the_oracle() {
    // Learning on new states never, and stopped mid-run (1,000 states).
    let explicit = [("explicit_states", "0"), ("explicit_states", "1000")];
    builtin_suite_matches_the_oracle("mdd", ("encoding", ["ldd", "onehot"]), &explicit);
}
