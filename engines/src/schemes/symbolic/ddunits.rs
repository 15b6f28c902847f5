//! Applying the groups of one top slot as one merged relation (issue 36,
//! point 4; [`Diagram::classes`]; `mdd` with `merge=top`, not the default:
//! measured below): where the encoding merges a class, the
//! search keeps its relation beside its groups' ([`Search::grow`] lifts
//! every learned batch into it) and applies it in place of the class's
//! first group, the others adding nothing of their own
//! ([`Search::apply`]). Each group is still learned as before, and its own
//! relation still gives the transition count. Issue 36: one image per
//! class instead of one per group (BridgeAndVehicles-PT-V20P10N50, 2,228
//! groups over 55 top slots: 10 ms per image when images still walked the
//! set from the root; they now start at the top slot, see `ldtop`).
//!
//! Measured with the learning on new states off (the set-level
//! saturation alone), 25 s of processor time each, loaded 2-core VM:
//! BridgeAndVehicles-PT-V20P20N20 (968 groups, 58 top slots) images
//! 3,885 -> 1,010, applications 26,613 -> 2,243, apply 33.8 -> 22.4 s,
//! but learning 19.8 -> 27.3 s: every group of a class that added states
//! counts as a producer, so more groups are marked dirty and learned
//! again; states reached 1,798,518 -> 1,612,860 (runs of one build
//! differ by 30% under this load). V20P10N50: 166,916 -> 205,562.
//! Hence a parameter: it pays once a class's producers are told apart.
//!
//! A merged relation reads a slot value equal to the encoding's "any"
//! (`Value::MAX`) as any value: once a learned value might be it (the OR
//! of all learned values has every bit set) the search applies the
//! groups one by one again.
//!
//! Owns the class relations and their application. Must not know
//! encodings (only the [`Diagram`] trait).

use super::{Search, Stop};
use crate::schemes::symbolic::diagram::Diagram;
use pins::Value;
use std::time::Instant;

impl<D: Diagram> Search<'_, '_, D> {
    /// Whether classes are applied through their merged relation.
    fn merged(&self) -> bool {
        !self.class_rels.is_empty() && self.learner.value_bits_or != Value::MAX
    }

    /// Adds `batch` to group `g`'s relation and, where `g` is in a merged
    /// class, lifted to the class's relation.
    pub(super) fn grow(&mut self, g: usize, batch: &D::Set) -> Result<(), Stop> {
        self.rels[g] = self.d.union(&self.rels[g], batch)?;
        if let (Some(c), true) = (self.class_of[g], self.merged()) {
            let lifted = self.d.lift(batch, g, c)?;
            self.class_rels[c] = self.d.union(&self.class_rels[c], &lifted)?;
        }
        Ok(())
    }

    /// Every class's merged relation from its groups' relations (after a
    /// move to another diagram).
    pub(super) fn lift_all(&mut self) -> Result<(), Stop> {
        let classes = self.d.classes().to_vec();
        self.class_rels = vec![self.d.empty(); classes.len()];
        for (c, members) in classes.iter().enumerate() {
            for &g in members {
                let lifted = self.d.lift(&self.rels[g], g, c)?;
                self.class_rels[c] = self.d.union(&self.class_rels[c], &lifted)?;
            }
        }
        Ok(())
    }

    /// The successors of `from` by group `g` not visited
    /// ([`Search::successors`]), or where `g` is in a merged class, by the
    /// whole class when `g` is its first group and none otherwise.
    pub(super) fn apply(&mut self, g: usize, from: &D::Set) -> Result<D::Set, Stop> {
        match self.class_of[g] {
            Some(c) if self.merged() => {
                if self.d.classes()[c][0] == g {
                    self.class_successors(c, from)
                } else {
                    Ok(self.d.empty())
                }
            }
            _ => self.successors(g, from),
        }
    }

    /// [`Search::successors`] for every group of class `c` at once: each
    /// learned as before, one enabling test and one image by the merged
    /// relation; every group of the class is noted as a producer.
    fn class_successors(&mut self, c: usize, from: &D::Set) -> Result<D::Set, Stop> {
        let members = self.d.classes()[c].clone();
        if !members.iter().any(|&g| self.owed[g]) {
            return Ok(self.d.empty());
        }
        self.explicit_transitions = None;
        for &g in &members {
            self.learn_for(g, from)?;
        }
        let started = Instant::now();
        self.figures.applications += 1;
        let unit = self.shapes.len() + c;
        for &g in &members {
            self.owed[g] = false;
        }
        let rel = self.class_rels[c].clone();
        let new = self.unvisited_image(from, &rel, unit, &members);
        self.figures.apply_ns += started.elapsed().as_nanos() as u64;
        new
    }
}
