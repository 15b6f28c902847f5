//! The tree's node tables on one DVE model, for the study of slot orders
//! (docs/slot-order.md): explores the model with `tree` in the
//! given `slot_order` and prints, per level and per node, the slots under
//! the node and the distinct tuples its table holds, and the written and
//! unwritten (constant) slots.
//!
//! `cargo run --release -p statebench --example tree_profile -- FILE.dve [ORDER]`;
//! with `scores` for ORDER: the node tuples of each candidate of
//! `slot_order=sample` on the model's first states.

use engines::registry::word as word_of;
use engines::registry::ParamValue;
use engines::schemes::tree::order::{sample_scores, slot_order, SlotOrder};
use engines::schemes::tree::{Tree, TreeConfig};
use engines::{explore, Budget, ExploreConfig};
use pins::Model;

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let file = args.next().ok_or("usage: tree_profile FILE.dve [ORDER]")?;
    let word = args.next().unwrap_or_else(|| "model".into());
    let model = dve::parse_file(file.as_ref()).map_err(|e| e.to_string())?;
    if word == "scores" {
        for (order, _, tuples) in sample_scores(&model) {
            println!(
                "{} {} sample node tuples (quarter, all) {tuples:?}",
                model.name(),
                word_of(order)
            );
        }
        return Ok(());
    }
    let order = SlotOrder::parse(&word)?;
    let k = model.slot_count();
    let perm = slot_order(order, &model);
    let config = TreeConfig::default();
    let mut tree = Tree::ordered(k, &config, perm, Budget::new(8 << 30)).map_err(|e| e.message)?;
    let report = explore(&model, &mut tree, ExploreConfig::default());
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
    for (slots, entries) in profile.iter().filter(|p| p.1 * 20 >= n) {
        let moving = slots.iter().filter(|&&s| written[s]).count();
        let shown: Vec<&String> = slots.iter().take(6).map(|&s| name(s)).collect();
        println!(
            "  {:>5.3}N  {entries:>9} tuples  {} slots ({moving} written): {shown:?}{}",
            *entries as f64 / n as f64,
            slots.len(),
            if slots.len() > 6 { " ..." } else { "" }
        );
    }
    Ok(())
}
