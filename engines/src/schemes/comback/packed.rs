//! A vector of unsigned fields packed back to back at one bit width
//! (1..=64) in `u64` words, so that ComBack's tables store signatures, ids
//! and events at their real widths. The width can grow ([`PackedVec::widen`]
//! re-packs every field); pushing or setting a value wider than the
//! current width widens the vector first, so ids can outgrow the width
//! chosen when the table was small.
//!
//! Every allocation is reserved in the engine's [`Budget`] first (a vector
//! that cannot grow returns [`TableFull`]).
//!
//! Accounting: `used_bits` = fields × width; `alloc_bytes` = the words'
//! capacity.
//!
//! Owns only the bit arithmetic; it must not know what the fields mean.

use super::{capacity_bytes, grow_for};
use crate::blocks::budget::Budget;
use crate::visited::TableFull;

/// Packed fields; see the module documentation.
pub struct PackedVec {
    width: u32,
    len: usize,
    /// Zero past the last field.
    words: Vec<u64>,
    budget: Budget,
    who: &'static str,
}

fn mask(width: u32) -> u64 {
    if width == 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// Bits needed to write `v` (at least 1).
pub fn bits_for(v: u64) -> u32 {
    (u64::BITS - v.leading_zeros()).max(1)
}

fn words_for(len: usize, width: u32) -> usize {
    (len as u64 * width as u64).div_ceil(64) as usize
}

impl PackedVec {
    /// An empty vector of `width`-bit fields.
    pub fn new(width: u32, budget: Budget, who: &'static str) -> Self {
        assert!((1..=64).contains(&width));
        PackedVec {
            width,
            len: 0,
            words: Vec::new(),
            budget,
            who,
        }
    }

    /// `len` zero fields of `width` bits, allocated exactly.
    pub fn zeroed(
        width: u32,
        len: usize,
        budget: Budget,
        who: &'static str,
    ) -> Result<Self, TableFull> {
        let mut v = PackedVec::new(width, budget, who);
        let words = words_for(len, width);
        v.budget.reserve(words as u64 * 8, who)?;
        v.words = vec![0; words];
        v.len = len;
        Ok(v)
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn width(&self) -> u32 {
        self.width
    }

    pub fn get(&self, i: usize) -> u64 {
        debug_assert!(i < self.len);
        let bit = i as u64 * self.width as u64;
        let (w, off) = ((bit / 64) as usize, (bit % 64) as u32);
        let mut v = self.words[w] >> off;
        if off + self.width > 64 {
            v |= self.words[w + 1] << (64 - off);
        }
        v & mask(self.width)
    }

    /// Writes `v`, which must fit in the width.
    fn put(&mut self, i: usize, v: u64) {
        let m = mask(self.width);
        debug_assert!(v & !m == 0);
        let bit = i as u64 * self.width as u64;
        let (w, off) = ((bit / 64) as usize, (bit % 64) as u32);
        self.words[w] = (self.words[w] & !(m << off)) | (v << off);
        if off + self.width > 64 {
            let hi = 64 - off;
            self.words[w + 1] = (self.words[w + 1] & !(m >> hi)) | (v >> hi);
        }
    }

    /// Sets field `i` to `v`, widening the vector if `v` does not fit.
    pub fn set(&mut self, i: usize, v: u64) -> Result<(), TableFull> {
        if bits_for(v) > self.width {
            self.widen(bits_for(v))?;
        }
        self.put(i, v);
        Ok(())
    }

    /// Appends `v`, widening the vector if `v` does not fit.
    pub fn push(&mut self, v: u64) -> Result<(), TableFull> {
        if bits_for(v) > self.width {
            self.widen(bits_for(v))?;
        }
        let words = words_for(self.len + 1, self.width);
        if words > self.words.len() {
            let more = words - self.words.len();
            grow_for(&mut self.words, more, &self.budget, self.who)?;
            self.words.resize(words, 0);
        }
        self.len += 1;
        self.put(self.len - 1, v);
        Ok(())
    }

    /// Re-packs every field at `width` bits (not narrower than now).
    pub fn widen(&mut self, width: u32) -> Result<(), TableFull> {
        assert!(width >= self.width && width <= 64);
        if width == self.width {
            return Ok(());
        }
        let mut wider = PackedVec::zeroed(width, self.len, self.budget.clone(), self.who)?;
        for i in 0..self.len {
            wider.put(i, self.get(i));
        }
        // `wider` is allocated exactly; keep the doubling growth of pushes.
        std::mem::swap(self, &mut wider);
        self.budget.release(capacity_bytes(&wider.words));
        wider.words = Vec::new();
        Ok(())
    }

    pub fn used_bits(&self) -> u64 {
        self.len as u64 * self.width as u64
    }

    pub fn alloc_bytes(&self) -> u64 {
        capacity_bytes(&self.words)
    }
}

impl Drop for PackedVec {
    fn drop(&mut self) {
        self.budget.release(capacity_bytes(&self.words));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_keep_their_values_across_widths_pushes_and_widening() {
        let budget = Budget::unlimited();
        for width in [1u32, 3, 7, 31, 32, 33, 63, 64] {
            let value = |i: u64| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) & mask(width);
            let mut v = PackedVec::new(width, budget.clone(), "test");
            for i in 0..1000u64 {
                v.push(value(i)).unwrap();
            }
            for i in (0..1000u64).step_by(3) {
                v.set(i as usize, value(i + 7)).unwrap();
            }
            let expect = |i: u64| {
                if i.is_multiple_of(3) {
                    value(i + 7)
                } else {
                    value(i)
                }
            };
            for i in 0..1000u64 {
                assert_eq!(v.get(i as usize), expect(i), "width {width} field {i}");
            }
            assert_eq!(v.used_bits(), 1000 * width as u64);
            assert!(v.used_bits() <= v.alloc_bytes() * 8);
            // A wider value widens every field.
            if width < 64 {
                v.push(1u64 << width).unwrap();
                assert_eq!(v.width(), width + 1);
                assert_eq!(v.get(1000), 1u64 << width);
                for i in 0..1000u64 {
                    assert_eq!(v.get(i as usize), expect(i), "width {width} field {i}");
                }
            }
        }
    }

    #[test]
    fn every_byte_is_reserved_and_released() {
        let budget = Budget::unlimited();
        {
            let mut v = PackedVec::new(5, budget.clone(), "test");
            for i in 0..10_000u64 {
                v.push(i).unwrap();
                assert_eq!(budget.reserved(), v.alloc_bytes());
            }
            let mut z = PackedVec::zeroed(9, 100, budget.clone(), "test").unwrap();
            z.set(99, 511).unwrap();
            assert_eq!(budget.reserved(), v.alloc_bytes() + z.alloc_bytes());
        }
        assert_eq!(budget.reserved(), 0);
        let small = Budget::new(1000);
        let mut v = PackedVec::new(20, small, "packed test");
        let r = (0..10_000u64).try_for_each(|i| v.push(i));
        assert!(r.unwrap_err().message.contains("packed test"));
    }
}
