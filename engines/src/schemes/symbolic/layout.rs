//! The variable order of the symbolic engines: which decision-diagram
//! variables (levels) stand for which slot value, for the current state and
//! for the next state of a transition.
//!
//! Owns the per-slot domains and the mapping slot → variables, in both
//! encodings:
//! - binary (`bdd`): slot `i` takes `width[i]` bits, most significant bit
//!   first; with the `interleaved` order (default) the current and next
//!   variable of each bit are adjacent (`x0 x0' x1 x1' …`), with the
//!   `blocked` order a slot's current bits precede its next bits
//!   (`x0 x1 … x0' x1' …`). Slots keep the model's order.
//! - one-hot (`mdd`): slot `i` with domain `0..width[i]` has one variable
//!   per value, the current block of the slot followed by its next block,
//!   values in increasing order (so a ZBDD over them has the node structure
//!   of a list decision diagram).
//!
//! Domains only grow: a value that does not fit makes the search restart
//! with a wider layout ([`Layout::widened`]). Must not know diagrams or
//! models beyond the slot count.

use pins::Value;

/// How a slot's value is spread over variables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// `width` bits per slot, binary.
    Binary { interleaved: bool },
    /// One variable per value `0..width`.
    OneHot,
    /// Values as edges (the list decision diagram): no variables, every
    /// value fits.
    List,
}

/// Variables of every slot, current and next.
#[derive(Clone, Debug)]
pub struct Layout {
    pub encoding: Encoding,
    /// Bits (binary) or domain size (one-hot) of each slot.
    pub width: Vec<u32>,
    /// `cur[i][j]`: variable of bit `j` (MSB first) or value `j` of slot `i`.
    pub cur: Vec<Vec<u32>>,
    /// `next[i][j]`: the same for the next state.
    pub next: Vec<Vec<u32>>,
    pub vars: u32,
}

/// Bits needed to write `v` (at least 1).
pub fn bits_of(v: Value) -> u32 {
    (Value::BITS - v.leading_zeros()).max(1)
}

impl Layout {
    /// The smallest layout holding `init`, with one spare bit (binary) or a
    /// domain doubled to a power of two (one-hot) so that small growth does
    /// not restart the search at once.
    pub fn for_initial(encoding: Encoding, init: &[Value]) -> Layout {
        let width = init.iter().map(|&v| Self::width_for(encoding, v)).collect();
        Layout::new(encoding, width)
    }

    fn width_for(encoding: Encoding, v: Value) -> u32 {
        match encoding {
            Encoding::Binary { .. } => (bits_of(v) + 1).min(32),
            Encoding::OneHot => {
                let need = u64::from(v) + 1;
                (need.next_power_of_two() * 2).min(1 << 31) as u32
            }
            Encoding::List => 0,
        }
    }

    pub fn new(encoding: Encoding, width: Vec<u32>) -> Layout {
        let mut cur = Vec::with_capacity(width.len());
        let mut next = Vec::with_capacity(width.len());
        let mut var = 0u32;
        for &w in &width {
            let (c, n): (Vec<u32>, Vec<u32>) = match encoding {
                Encoding::Binary { interleaved: true } => {
                    (0..w).map(|j| (var + 2 * j, var + 2 * j + 1)).unzip()
                }
                Encoding::Binary { interleaved: false } | Encoding::OneHot => {
                    (0..w).map(|j| (var + j, var + w + j)).unzip()
                }
                Encoding::List => (Vec::new(), Vec::new()),
            };
            var += 2 * w;
            cur.push(c);
            next.push(n);
        }
        Layout {
            encoding,
            width,
            cur,
            next,
            vars: var,
        }
    }

    /// Whether `value` has variables in slot `slot`.
    pub fn fits(&self, slot: usize, value: Value) -> bool {
        let w = self.width[slot];
        match self.encoding {
            Encoding::Binary { .. } => w >= 32 || value < (1 << w),
            Encoding::OneHot => value < w,
            Encoding::List => true,
        }
    }

    /// This layout with `slot` wide enough for `value` (and some room).
    pub fn widened(&self, slot: usize, value: Value) -> Layout {
        let mut width = self.width.clone();
        width[slot] = width[slot].max(Self::width_for(self.encoding, value));
        Layout::new(self.encoding, width)
    }

    /// For each variable: its slot, its bit or value index, whether it is a
    /// next-state variable.
    pub fn var_roles(&self) -> Vec<(usize, u32, bool)> {
        let mut roles = vec![(0, 0, false); self.vars as usize];
        for (i, (c, n)) in self.cur.iter().zip(&self.next).enumerate() {
            for (j, (&cv, &nv)) in c.iter().zip(n).enumerate() {
                roles[cv as usize] = (i, j as u32, false);
                roles[nv as usize] = (i, j as u32, true);
            }
        }
        roles
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interleaved_binary_alternates_current_and_next() {
        let l = Layout::new(Encoding::Binary { interleaved: true }, vec![2, 1]);
        assert_eq!(l.cur, vec![vec![0, 2], vec![4]]);
        assert_eq!(l.next, vec![vec![1, 3], vec![5]]);
        let b = Layout::new(Encoding::Binary { interleaved: false }, vec![2, 1]);
        assert_eq!(b.cur, vec![vec![0, 1], vec![4]]);
        assert_eq!(b.next, vec![vec![2, 3], vec![5]]);
    }

    #[test]
    fn widths_grow_to_hold_values() {
        let l = Layout::for_initial(Encoding::Binary { interleaved: true }, &[0, 5]);
        assert_eq!(l.width, vec![2, 4]);
        assert!(l.fits(1, 15) && !l.fits(1, 16));
        assert_eq!(l.widened(1, 16).width, vec![2, 6]);
        let m = Layout::for_initial(Encoding::OneHot, &[0, 5]);
        assert_eq!(m.width, vec![2, 16]);
        assert!(m.fits(0, 1) && !m.fits(0, 2));
        assert_eq!(m.var_roles()[4 + 16], (1, 0, true));
    }
}
