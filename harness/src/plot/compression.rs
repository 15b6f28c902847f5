//! Compressed size: bits per state of every finished run against the
//! vector length k (paper Fig. 8) and against the state count (Fig. 9), a
//! panel per engine, once for the bytes the engine occupies (`used`, the
//! paper's compressed size) and once for the bytes it allocated, with three
//! references: each instance's locality bound `u + log2(k) + 2` (the row's
//! `locality_bound_bits`: the paper's bound for the *worst* set with that
//! locality, which a given set can undercut), its combinatorial bound
//! `log2 C(U, n) / n` (`combinatorial_bound_bits`, U the product of the
//! slot domains seen), and the Compact Tree's best case, a root entry at
//! the largest root table `m = w + o`: `w − o + 3` bits.
//! Builds figure data only.

use super::{
    by_formalism, finished_sequential, no_points_note, param, variants, Axis, Figure, Input, Panel,
    Reference, Scale,
};
use crate::schema::Row;

/// The x of a compression figure.
struct Against {
    name: &'static str,
    title: &'static str,
    column: &'static str,
    label: &'static str,
    value: fn(&Row) -> Option<f64>,
}

const AGAINST: [Against; 2] = [
    Against {
        name: "bits-vs-k",
        title: "Bits per state against vector length",
        column: "k",
        label: "vector length k (slots)",
        value: |r| r.k.map(|k| k as f64),
    },
    Against {
        name: "bits-vs-states",
        title: "Bits per state against state count",
        column: "states",
        label: "states",
        value: |r| r.states.map(|s| s as f64),
    },
];

/// The y of a compression figure: used or allocated bytes per state.
struct Measure {
    /// Appended to the figure's name and title.
    suffix: &'static str,
    title: &'static str,
    column: &'static str,
    definition: &'static str,
    value: fn(&Row) -> Option<f64>,
}

const MEASURES: [Measure; 2] = [
    Measure {
        suffix: "",
        title: "",
        column: "bits_per_state",
        definition: "Bits per state = 8 × engine bytes used (occupied entries) / states.",
        value: |r| r.bits_per_state,
    },
    Measure {
        suffix: "-alloc",
        title: ", allocated",
        column: "bits_per_state_alloc",
        definition: "Bits per state = 8 × engine bytes allocated (tables sized for growth included) / states:                      the memory a user pays for; the figure before this one shows the occupied part.",
        value: |r| r.bits_per_state_alloc,
    },
];

/// The Compact Tree's best case in bits per state, `w − o + 3`, from the
/// parameters its rows report (the default configuration's when there are
/// several), with the text of the legend.
fn compact_tree_best_case(rows: &[Row]) -> Option<(f64, String)> {
    let mut ct: Vec<&Row> = rows
        .iter()
        .filter(|r| r.engine == "compact-tree" && !r.engine_params.is_empty())
        .collect();
    ct.sort_by_key(|r| !r.engine_config.is_empty());
    let r = ct.first()?;
    let (w, o) = (param(&r.engine_params, "w")?, param(&r.engine_params, "o")?);
    let bits = w - o + 3.0;
    Some((
        bits,
        format!("Compact Tree best case w−o+3 = {bits} (w={w}, o={o})"),
    ))
}

/// Per x: the used figure, then the allocated one (side by side in the report).
pub fn figures(input: &Input) -> Vec<Figure> {
    AGAINST
        .iter()
        .flat_map(|a| MEASURES.iter().map(move |m| figure(input, a, m)))
        .collect()
}

fn figure(input: &Input, against: &Against, measure: &Measure) -> Figure {
    let best = compact_tree_best_case(&input.rows);
    let mut panels = Vec::new();
    for v in variants(&input.rows) {
        let rows: Vec<&Row> = input.rows.iter().filter(|r| r.variant() == v).collect();
        let plotted: Vec<(&Row, f64, f64)> = finished_sequential(&input.rows)
            .filter(|r| r.variant() == v)
            .filter_map(|r| Some((r, (against.value)(r)?, (measure.value)(r)?)))
            .collect();
        let mut references = Vec::new();
        let bounds: Vec<(f64, f64)> = plotted
            .iter()
            .filter_map(|(r, x, _)| Some((*x, r.locality_bound_bits?)))
            .collect();
        references.push(Reference::Marks {
            label: "locality bound u+log2(k)+2 (worst set)".into(),
            points: bounds,
        });
        let combinatorial: Vec<(f64, f64)> = plotted
            .iter()
            .filter_map(|(r, x, _)| Some((*x, r.combinatorial_bound_bits?)))
            .collect();
        references.push(Reference::Ticks {
            label: "combinatorial bound log2 C(U,n)/n".into(),
            points: combinatorial,
        });
        if let Some((bits, label)) = &best {
            references.push(Reference::Horizontal {
                label: label.clone(),
                y: *bits,
            });
        }
        let note = plotted
            .is_empty()
            .then(|| no_points_note(input, &rows, &[against.column, measure.column]));
        panels.push(Panel {
            title: v,
            series: by_formalism(
                plotted
                    .iter()
                    .map(|(r, x, y)| (r.formalism.as_str(), (*x, *y))),
            ),
            references,
            note,
        });
    }
    if panels.is_empty() {
        panels.push(Panel::empty(
            "all engines",
            no_points_note(input, &[], &[against.column, measure.column]),
        ));
    }
    let mut caption = format!(
        "{}{}: one point per finished single-thread run, a panel per engine, colour by formalism. {} \
         Crosses: each instance's locality bound u + log2(k) + 2 (u = widest slot in bits), the \
         Compact Tree paper's bound for the worst set of vectors whose successors differ in one slot; \
         a given set can be stored below it (a product-shaped state space needs far less), so a point \
         under a cross is no accounting error. Ticks: the combinatorial bound log2 C(U, n) / n, the \
         bits needed to single out an arbitrary set of n vectors of the universe U of slot-value \
         combinations seen; structured sets can also go below it.",
        against.title, measure.title, measure.definition
    );
    match &best {
        Some((bits, _)) => caption.push_str(&format!(
            " Dashed: the Compact Tree's best case, {bits} bits (a root entry at m = w + o)."
        )),
        None => caption.push_str(" No compact-tree row: its best case is not drawn."),
    }
    Figure {
        name: format!("{}{}", against.name, measure.suffix),
        title: format!("{}{}", against.title, measure.title),
        caption,
        x: Axis::new(against.label, Scale::Auto),
        y: Axis::new("bits per state", Scale::Auto),
        square: false,
        panels,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::fixture;

    #[test]
    fn one_point_per_finished_row_with_bits_and_k() {
        let input = fixture::input("small/runs.csv");
        let figs = figures(&input);
        let finished = fixture::finished_one_thread(&input, |r| r.bits_per_state.is_some());
        assert_eq!(figs.len(), 4, "used and allocated against k and states");
        for f in &figs {
            assert_eq!(f.points(), finished, "{}", f.name);
        }
        let best = compact_tree_best_case(&input.rows).unwrap().0;
        let ct = input
            .rows
            .iter()
            .find(|r| r.engine == "compact-tree")
            .unwrap();
        let w = param(&ct.engine_params, "w").unwrap();
        let o = param(&ct.engine_params, "o").unwrap();
        assert_eq!(best, w - o + 3.0);
    }
}
