//! The symbolic search: reachability over a [`Diagram`] with relations
//! learned per group ([`super::learn`]), in one of three strategies:
//!
//! - `bfs`: each level applies every group to the frontier; the new
//!   states (minus the visited set) are the next frontier.
//! - `chaining`: one sweep applies the groups in order, each to the
//!   frontier grown by the groups before it in the same sweep.
//! - `saturation`: groups are clustered by their top slot (the first slot of
//!   read ∪ write) and processed in saturation order (Ciardo et al.): from
//!   the deepest top slot upwards, the visited set is closed under every
//!   group whose top is at or below the current slot (chained fixpoint)
//!   before moving one slot up. This is the saturation order applied to
//!   whole sets, as LTSmin's `sat-like` strategy does; the node-wise
//!   recursion of Ciardo's algorithm (saturating each node as it is built)
//!   is not implemented.
//!
//! Node accounting: after every BFS level, chaining sweep or saturation
//! round, the search counts the inner nodes reachable from everything live
//! (visited set, frontier, every group's relation and learned projections),
//! each node once, and keeps the maximum (`dd_peak_nodes`); the visited set
//! alone is counted at the same points (`dd_peak_visited_nodes`). Nodes
//! that live only inside one image computation are not sampled.
//!
//! Owns the strategies, the frontier and the sampling. Must not know
//! encodings (only the [`Diagram`] trait) nor the harness.

use super::diagram::{Diagram, GroupShape};
use super::learn::{Learner, Stop};
use crate::explore::Progress;
use pins::Model;

/// How groups are applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    Bfs,
    Chaining,
    Saturation,
}

impl std::str::FromStr for Strategy {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "bfs" => Ok(Strategy::Bfs),
            "chaining" => Ok(Strategy::Chaining),
            "saturation" => Ok(Strategy::Saturation),
            _ => Err(format!("strategy={s}: must be bfs, chaining or saturation")),
        }
    }
}

/// Figures of one search attempt.
#[derive(Default)]
pub struct Figures {
    pub levels: u64,
    pub images: u64,
    pub peak_nodes: u64,
    pub peak_visited_nodes: u64,
}

pub struct Search<'a, 'm, D: Diagram> {
    pub d: D,
    shapes: &'a [GroupShape],
    pub learner: Learner<'m>,
    pub rels: Vec<D::Set>,
    learned_on: Vec<D::Set>,
    pub visited: D::Set,
    pub figures: Figures,
    progress: Option<&'a mut dyn FnMut(&Progress)>,
}

impl<'a, 'm, D: Diagram> Search<'a, 'm, D> {
    pub fn new(
        d: D,
        model: &'m dyn Model,
        shapes: &'a [GroupShape],
        progress: Option<&'a mut dyn FnMut(&Progress)>,
    ) -> Result<Self, Stop> {
        let visited = d.state(&model.initial_state())?;
        let empty = d.empty();
        Ok(Search {
            rels: vec![empty.clone(); shapes.len()],
            learned_on: vec![empty; shapes.len()],
            d,
            shapes,
            learner: Learner::new(model),
            visited,
            figures: Figures::default(),
            progress,
        })
    }

    /// Successors of `from` by group `g`, learning the group on the
    /// projections of `from` it has not seen.
    fn successors(&mut self, g: usize, from: &D::Set) -> Result<D::Set, Stop> {
        let shape = &self.shapes[g];
        let short = self.d.project(from, &shape.proj)?;
        let unseen = self.d.minus(&short, &self.learned_on[g])?;
        if !self.d.is_empty(&unseen) {
            self.learner
                .learn(&self.d, g, shape, &unseen, &mut self.rels[g])?;
            self.learned_on[g] = self.d.union(&self.learned_on[g], &unseen)?;
        }
        self.figures.images += 1;
        Ok(self.d.image(from, &self.rels[g], g)?)
    }

    /// Records the node figures with `frontier` live.
    fn sample(&mut self, frontier: &D::Set) {
        let mut roots: Vec<&D::Set> = vec![&self.visited, frontier];
        roots.extend(self.rels.iter());
        roots.extend(self.learned_on.iter());
        let all = self.d.shared_nodes(&roots);
        let visited = self.d.shared_nodes(&[&self.visited]);
        let f = &mut self.figures;
        f.peak_nodes = f.peak_nodes.max(all);
        f.peak_visited_nodes = f.peak_visited_nodes.max(visited);
        f.levels += 1;
        if let Some(cb) = self.progress.as_mut() {
            let states = self.d.count_states(&self.visited).unwrap_or(u128::MAX);
            cb(&Progress {
                states: u64::try_from(states).unwrap_or(u64::MAX),
                transitions: 0,
                queued: 0,
                levels: f.levels,
                engine_bytes_alloc: f.peak_nodes * super::BYTES_PER_NODE,
            });
        }
    }

    pub fn run(&mut self, strategy: Strategy) -> Result<(), Stop> {
        let init = self.visited.clone();
        self.sample(&init);
        match strategy {
            Strategy::Bfs => self.bfs(init),
            Strategy::Chaining => {
                let groups: Vec<usize> = (0..self.shapes.len()).collect();
                self.chain(init, &groups)
            }
            Strategy::Saturation => self.saturate(),
        }
    }

    fn bfs(&mut self, mut frontier: D::Set) -> Result<(), Stop> {
        while !self.d.is_empty(&frontier) {
            let mut next = self.d.empty();
            for g in 0..self.shapes.len() {
                let img = self.successors(g, &frontier)?;
                next = self.d.union(&next, &img)?;
            }
            frontier = self.d.minus(&next, &self.visited)?;
            self.visited = self.d.union(&self.visited, &frontier)?;
            self.sample(&frontier);
        }
        Ok(())
    }

    /// Chaining sweeps over `groups` from `frontier` until no new state.
    fn chain(&mut self, mut frontier: D::Set, groups: &[usize]) -> Result<(), Stop> {
        while !self.d.is_empty(&frontier) {
            let mut sweep = self.d.empty();
            for &g in groups {
                let img = self.successors(g, &frontier)?;
                let new = self.d.minus(&img, &self.visited)?;
                if !self.d.is_empty(&new) {
                    self.visited = self.d.union(&self.visited, &new)?;
                    frontier = self.d.union(&frontier, &new)?;
                    sweep = self.d.union(&sweep, &new)?;
                }
            }
            frontier = sweep;
            self.sample(&frontier);
        }
        Ok(())
    }

    fn saturate(&mut self) -> Result<(), Stop> {
        let k = self.d.layout().width.len();
        let top = |s: &GroupShape| s.proj.first().copied().unwrap_or(k);
        let mut tops: Vec<usize> = self.shapes.iter().map(top).collect();
        tops.sort_unstable();
        tops.dedup();
        // Deepest top slot first; active groups sorted deepest first too.
        let mut order: Vec<usize> = (0..self.shapes.len()).collect();
        order.sort_by_key(|&g| std::cmp::Reverse(top(&self.shapes[g])));
        for &level in tops.iter().rev() {
            let here: Vec<usize> = order
                .iter()
                .copied()
                .filter(|&g| top(&self.shapes[g]) == level)
                .collect();
            let active: Vec<usize> = order
                .iter()
                .copied()
                .filter(|&g| top(&self.shapes[g]) >= level)
                .collect();
            // The visited set is closed under the deeper groups already:
            // only the groups of this level see all of it.
            let mut new = self.d.empty();
            let all = self.visited.clone();
            for &g in &here {
                let img = self.successors(g, &all)?;
                new = self.d.union(&new, &img)?;
            }
            let frontier = self.d.minus(&new, &self.visited)?;
            self.visited = self.d.union(&self.visited, &frontier)?;
            self.chain(frontier, &active)?;
        }
        Ok(())
    }
}
