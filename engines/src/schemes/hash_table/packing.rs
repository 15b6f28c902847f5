//! `hash-table`'s `layout=bytes`: a state vector packed slot by slot into
//! 1, 2 or 4 bytes (the fewest whole bytes holding the slot's declared
//! `bits`, as SPIN stores variables in their C types), the bytes padded to
//! whole `u32` words so the table hashes and compares words as it does
//! for full vectors.
//!
//! Packing checks every value against its slot's stored width (one OR of
//! the high parts per vector): a value that does not fit is reported as
//! [`TableFull`] naming the slot, never stored truncated.
//!
//! Owns only the packed form; it must not know the table, and it sees
//! the model only through its slots' names and widths.

use crate::visited::TableFull;
use pins::{Slot, Value};

/// How each slot of a model's vectors is stored; see the module
/// documentation. The packed vector holds the 4-byte slots first, then
/// the 2-byte ones, then the 1-byte ones, so no slot straddles two words
/// and the vector takes exactly its bytes rounded up to words. Each slot
/// has its lane: the word and the bit offset it is stored at.
#[derive(Clone, Debug, PartialEq)]
pub struct Packing {
    /// Per slot: `word << 5 | bit offset`.
    lanes: Vec<u32>,
    /// Per slot: the bits of a value above its stored width.
    high: Vec<u32>,
    /// Declared bits of each slot, for the message of a value too wide.
    bits: Vec<u32>,
    names: Vec<String>,
    /// Words of a packed vector.
    words: usize,
}

/// The fewest of 1, 2 or 4 bytes holding `bits` bits.
fn stored_bytes(bits: u32) -> u32 {
    match bits {
        0..=8 => 1,
        9..=16 => 2,
        _ => 4,
    }
}

impl Packing {
    /// The packing of vectors of `slots`.
    pub fn new(slots: &[Slot]) -> Packing {
        let bits: Vec<u32> = slots.iter().map(|s| s.bits).collect();
        let mut order: Vec<usize> = (0..bits.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(stored_bytes(bits[i])));
        let mut lanes = vec![0; bits.len()];
        let mut offset = 0;
        for i in order {
            lanes[i] = ((offset / 4) << 5) | (8 * (offset % 4));
            offset += stored_bytes(bits[i]);
        }
        Packing {
            lanes,
            high: bits
                .iter()
                .map(|&b| (!0u64 << (8 * stored_bytes(b))) as u32)
                .collect(),
            words: offset.div_ceil(4) as usize,
            names: slots.iter().map(|s| s.name.clone()).collect(),
            bits,
        }
    }

    /// Slots of an unpacked vector.
    pub fn slots(&self) -> usize {
        self.bits.len()
    }

    /// Words of a packed vector.
    pub fn words(&self) -> usize {
        self.words
    }

    /// Packs `state` into `packed` (of [`Self::words`] words, every one
    /// written); `Err` names the first slot whose value does not fit.
    pub fn pack(&self, state: &[Value], packed: &mut [u32]) -> Result<(), TableFull> {
        debug_assert_eq!(state.len(), self.lanes.len());
        packed.fill(0);
        let mut overflow = 0;
        for ((&value, &lane), &high) in state.iter().zip(&self.lanes).zip(&self.high) {
            overflow |= value & high;
            packed[(lane >> 5) as usize] |= value << (lane & 31);
        }
        if overflow != 0 {
            return Err(self.too_wide(state));
        }
        Ok(())
    }

    /// Unpacks `packed` (written by [`Self::pack`]) into `state`.
    pub fn unpack(&self, packed: &[u32], state: &mut [Value]) {
        debug_assert_eq!(state.len(), self.lanes.len());
        for ((slot, &lane), &high) in state.iter_mut().zip(&self.lanes).zip(&self.high) {
            *slot = (packed[(lane >> 5) as usize] >> (lane & 31)) & !high;
        }
    }

    /// The report of the first value of `state` wider than its slot.
    fn too_wide(&self, state: &[Value]) -> TableFull {
        let slot = (0..state.len())
            .find(|&i| state[i] & self.high[i] != 0)
            .expect("some value is too wide");
        TableFull::new(format!(
            "hash-table layout=bytes: slot {}/{slot}: value {} exceeds its declared {} bits \
             (stored in {} bytes)",
            self.names[slot],
            state[slot],
            self.bits[slot],
            stored_bytes(self.bits[slot])
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn slots(bits: &[u32]) -> Vec<Slot> {
        bits.iter()
            .enumerate()
            .map(|(i, &bits)| Slot {
                name: format!("s{i}"),
                process: None,
                bits,
            })
            .collect()
    }

    #[test]
    fn widths_follow_declared_bits_and_pad_to_words() {
        let p = Packing::new(&slots(&[0, 1, 8, 9, 16, 17, 32]));
        assert_eq!(p.lanes, [96, 96 | 8, 96 | 16, 64, 64 | 16, 0, 32], "word << 5 | offset");
        assert_eq!(p.words(), 4, "15 bytes in 4 words");
        assert_eq!(Packing::new(&[]).words(), 0);
    }

    #[test]
    fn a_value_wider_than_its_slot_is_reported_not_truncated() {
        let p = Packing::new(&slots(&[8, 12, 32]));
        let mut packed = vec![0; p.words()];
        let err = p.pack(&[3, 1 << 16, 7], &mut packed).unwrap_err();
        assert_eq!(
            err.message,
            "hash-table layout=bytes: slot s1/1: value 65536 exceeds its declared 12 bits \
             (stored in 2 bytes)"
        );
        assert!(p.pack(&[255, 65535, u32::MAX], &mut packed).is_ok());
    }

    proptest! {
        #[test]
        fn unpack_gives_back_what_pack_stored(
            slot_values in proptest::collection::vec((0u32..=32, any::<u32>()), 0..40),
        ) {
            let bits: Vec<u32> = slot_values.iter().map(|&(b, _)| b).collect();
            let p = Packing::new(&slots(&bits));
            let state: Vec<u32> = slot_values
                .iter()
                .map(|&(b, v)| v & ((1u64 << (8 * stored_bytes(b))) - 1) as u32)
                .collect();
            let mut packed = vec![u32::MAX; p.words()];
            p.pack(&state, &mut packed).unwrap();
            let mut back = vec![u32::MAX; state.len()];
            p.unpack(&packed, &mut back);
            prop_assert_eq!(back, state);
        }
    }
}
