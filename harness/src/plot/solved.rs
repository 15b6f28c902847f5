//! Instances solved within a time, per engine (a cactus plot): for each
//! engine its finished single-thread runs whose count agrees with the
//! oracle (or has none), by increasing exploration time; the i-th point is
//! (time of the i-th fastest, i). Builds figure data only.

use super::{
    engine_colour, finished_sequential, no_points_note, variants, Axis, Figure, Input, Panel,
    Scale, Series,
};

pub fn figure(input: &Input) -> Figure {
    let mut series = Vec::new();
    let mut unsolved = Vec::new();
    for (i, v) in variants(&input.rows).into_iter().enumerate() {
        let mut times: Vec<f64> = finished_sequential(&input.rows)
            .filter(|r| r.variant() == v && r.states_match != Some(false))
            .filter_map(|r| r.time_s)
            .collect();
        times.sort_by(f64::total_cmp);
        if times.is_empty() {
            unsolved.push(v.clone());
        }
        series.push(Series {
            label: v,
            colour: engine_colour(i),
            points: times
                .into_iter()
                .enumerate()
                .map(|(n, t)| (t, (n + 1) as f64))
                .collect(),
            joined: true,
        });
    }
    let mut caption = "Instances solved within a time: per engine, its finished single-thread runs \
        (a count disagreeing with the oracle is not solved) sorted by exploration time; a curve further \
        right is slower, a higher one solves more."
        .to_string();
    if !unsolved.is_empty() {
        caption.push_str(&format!(" Solved nothing: {}.", unsolved.join(", ")));
    }
    let has_points = series.iter().any(|s| !s.points.is_empty());
    let note = (!has_points).then(|| {
        let rows: Vec<_> = input.rows.iter().collect();
        no_points_note(input, &rows, &["time_s"])
    });
    Figure {
        name: "solved".into(),
        title: "Instances solved within a time".into(),
        caption,
        x: Axis::new("exploration time (s)", Scale::Auto),
        y: Axis::new("instances solved", Scale::Linear),
        square: false,
        panels: vec![Panel {
            title: "all engines".into(),
            series,
            references: Vec::new(),
            note,
        }],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::fixture;

    #[test]
    fn every_solved_run_is_a_point_and_curves_rise_by_one() {
        let input = fixture::input("small/runs.csv");
        let f = figure(&input);
        let solved = fixture::finished_one_thread(&input, |r| r.states_match != Some(false));
        assert_eq!(f.points(), solved);
        for s in &f.panels[0].series {
            for (i, p) in s.points.iter().enumerate() {
                assert_eq!(p.1, (i + 1) as f64);
            }
            assert!(s.points.windows(2).all(|w| w[0].0 <= w[1].0));
        }
    }
}
