//! The tree's node tables on one DVE or PNML model, for the study of slot orders
//! (docs/slot-order.md): explores the model with `tree` in the
//! given `slot_order` and prints, for the root's children and every node
//! holding at least 1/20 of the states' or the sample's tuples, the slots
//! under the node and the distinct tuples its table holds on the first
//! states `slot_order=sample` explores and on all states.
//!
//! `cargo run --release -p statebench --example tree_profile -- FILE.dve|FILE.pnml [ORDER]`;
//! with `scores` for ORDER: the node tuples of each candidate of
//! `slot_order=sample` on the model's first states, its root children's
//! tuples, the bits per state it is predicted to save on all states, and
//! the order `sample` takes (the sample phase alone, no full search).

use engines::registry::word as word_of;
use engines::registry::ParamValue;
use engines::schemes::tree::order::{
    sample_profile, sample_scores, slot_order, SlotOrder, SAMPLE_STATES, SAMPLE_VALUES,
};
use engines::schemes::tree::{Tree, TreeConfig};
use engines::{explore, Budget, ExploreConfig};
use pins::Model;

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let file = args
        .next()
        .ok_or("usage: tree_profile FILE.dve|FILE.pnml [ORDER]")?;
    let word = args.next().unwrap_or_else(|| "model".into());
    let model = load(&file)?;
    let model = model.as_ref();
    if word == "scores" {
        let scores = sample_scores(model);
        for (score, saving) in &scores {
            println!(
                "{} {} sample node tuples (quarter, half, all) {:?} root children {:?} predicted saving {saving:.2} bits per state",
                model.name(),
                word_of(score.order),
                score.tuples,
                score.root_children
            );
        }
        let chosen = slot_order(SlotOrder::Sample, model);
        let name = scores
            .iter()
            .find(|c| c.0.slots == chosen)
            .map_or("model", |c| word_of(c.0.order));
        println!(
            "{} chosen {name} (sample of {} states, k={})",
            model.name(),
            sample_states(model),
            model.slot_count()
        );
        return Ok(());
    }
    let order = SlotOrder::parse(&word)?;
    let k = model.slot_count();
    let perm = slot_order(order, model);
    let config = TreeConfig::default();
    let on_sample = sample_profile(model, &perm);
    let mut tree = Tree::ordered(k, &config, perm, Budget::new(8 << 30)).map_err(|e| e.message)?;
    let report = explore(model, &mut tree, ExploreConfig::default());
    let n = report.states.max(1);
    let mut written = vec![false; k];
    model
        .groups()
        .iter()
        .for_each(|g| g.write.iter().for_each(|&s| written[s] = true));
    println!(
        "{} k={k} states={} written={} status={:?}",
        model.name(),
        report.states,
        written.iter().filter(|&&w| w).count(),
        report.status
    );
    let profile = tree.node_profile();
    let total: u64 = profile.iter().map(|p| p.1).sum();
    println!(
        "node tuples {total} = {:.2} per state ({:.1} bits at 96 bits each)",
        total as f64 / n as f64,
        total as f64 * 96.0 / n as f64
    );
    let name = |s: usize| &model.slots()[s].name;
    let sampled = on_sample
        .iter()
        .map(|p| p.1)
        .max()
        .map_or(1, |_| sample_states(model));
    let sample_total: u64 = on_sample.iter().map(|p| p.1).sum();
    println!(
        "on the sample ({sampled} states): node tuples {sample_total} = {:.2} per state",
        sample_total as f64 / sampled as f64
    );
    for (j, (slots, entries)) in profile.iter().enumerate() {
        let in_sample = on_sample.get(j).map_or(0, |p| p.1);
        let root_child = slots.len() >= k / 2;
        if !root_child && *entries * 20 < n && in_sample * 20 < sampled {
            continue;
        }
        let moving = slots.iter().filter(|&&s| written[s]).count();
        let shown: Vec<&String> = slots.iter().take(6).map(|&s| name(s)).collect();
        println!(
            "  node {j:>3}: sample {:>5.3}n {in_sample:>7}, all {:>5.3}N {entries:>9} tuples  {} slots ({moving} written): {shown:?}{}",
            in_sample as f64 / sampled as f64,
            *entries as f64 / n as f64,
            slots.len(),
            if slots.len() > 6 { " ..." } else { "" }
        );
    }
    Ok(())
}

/// The model in `file`: PNML by its extension, else DVE.
fn load(file: &str) -> Result<Box<dyn Model>, String> {
    if file.ends_with(".pnml") {
        let net = pnml::parse_file(file.as_ref()).map_err(|e| e.to_string())?;
        return Ok(Box::new(net));
    }
    let model = dve::parse_file(file.as_ref()).map_err(|e| e.to_string())?;
    Ok(Box::new(model))
}

/// States the sample of `slot_order=sample` holds on `model`.
fn sample_states(model: &dyn Model) -> u64 {
    let k = model.slot_count().max(1);
    (SAMPLE_VALUES / k).clamp(1, SAMPLE_STATES) as u64
}
