//! [`OutcomeIndex`]: a set of substitution outcomes (see `exec`) indexed
//! for the question "does some outcome agree with these values?", asked
//! once per concrete outcome when an Event-B event's action must simulate
//! its abstract action (a scan of every abstract outcome per concrete one
//! is quadratic in events with many outcomes, as m4 of Abrial's landing
//! gear).

use rustc_hash::FxHashSet;

use crate::exec::{Target, Writes};
use crate::value::Value;

/// Outcomes grouped by the list of targets they write, each group holding
/// the set of its value lists.
pub(crate) struct OutcomeIndex {
    groups: Vec<(Vec<Target>, FxHashSet<Vec<Value>>)>,
}

impl OutcomeIndex {
    pub(crate) fn new(outcomes: Vec<Writes>) -> Self {
        let mut groups: Vec<(Vec<Target>, FxHashSet<Vec<Value>>)> = Vec::new();
        for w in outcomes {
            let (targets, values): (Vec<Target>, Vec<Value>) = w.into_iter().unzip();
            match groups.iter_mut().find(|(ts, _)| *ts == targets) {
                Some((_, set)) => {
                    set.insert(values);
                }
                None => groups.push((targets, FxHashSet::from_iter([values]))),
            }
        }
        OutcomeIndex { groups }
    }

    /// Whether some outcome writes, to every target it writes, the value
    /// `read` gives for that target.
    pub(crate) fn any_agrees(&self, mut read: impl FnMut(Target) -> Value) -> bool {
        self.groups.iter().any(|(targets, set)| {
            let values: Vec<Value> = targets.iter().map(|&t| read(t)).collect();
            set.contains(&values)
        })
    }
}
