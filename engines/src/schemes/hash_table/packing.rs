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
/// documentation. The packed vector holds the 4-byte slots first, one a
/// word, then the 2-byte slots two a word, then the 1-byte slots four a
/// word (an odd 2-byte slot shares its word with the first two 1-byte
/// slots): whole words move without shifting, and the vector takes
/// exactly its bytes rounded up to words.
#[derive(Clone, Debug, PartialEq)]
pub struct Packing {
    /// Slots stored in 4, 2 and 1 bytes, in vector order.
    wide: Vec<u32>,
    half: Vec<u32>,
    byte: Vec<u32>,
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

/// The slots of `bits` stored in `bytes` bytes.
fn stored_in(bits: &[u32], bytes: u32) -> Vec<u32> {
    (0..bits.len() as u32)
        .filter(|&i| stored_bytes(bits[i as usize]) == bytes)
        .collect()
}

impl Packing {
    /// The packing of vectors of `slots`.
    pub fn new(slots: &[Slot]) -> Packing {
        let bits: Vec<u32> = slots.iter().map(|s| s.bits).collect();
        let bytes: u32 = bits.iter().map(|&b| stored_bytes(b)).sum();
        Packing {
            wide: stored_in(&bits, 4),
            half: stored_in(&bits, 2),
            byte: stored_in(&bits, 1),
            words: bytes.div_ceil(4) as usize,
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

    /// The 1-byte slots sharing the word of an odd 2-byte slot, and the
    /// others.
    fn split_bytes(&self) -> (&[u32], &[u32]) {
        let shared = if self.half.len() % 2 == 1 { 2 } else { 0 };
        self.byte.split_at(shared.min(self.byte.len()))
    }

    // Each `zip` below takes the slots first: a `zip` that ends on its
    // second iterator has already taken a word from the first.

    /// Packs `state` into `packed` (of [`Self::words`] words, every one
    /// written); `Err` names the first slot whose value does not fit.
    pub fn pack(&self, state: &[Value], packed: &mut [u32]) -> Result<(), TableFull> {
        debug_assert_eq!(state.len(), self.bits.len());
        debug_assert_eq!(packed.len(), self.words);
        let mut out = packed.iter_mut();
        for (&i, word) in self.wide.iter().zip(&mut out) {
            *word = state[i as usize];
        }
        let mut overflow = 0;
        let pairs = self.half.chunks_exact(2);
        let odd = pairs.remainder();
        for (pair, word) in pairs.zip(&mut out) {
            let (low, high) = (state[pair[0] as usize], state[pair[1] as usize]);
            overflow |= (low | high) >> 16;
            *word = low | high << 16;
        }
        let (shared, bytes) = self.split_bytes();
        if let [i] = odd {
            let low = state[*i as usize];
            overflow |= low >> 16;
            let (high, over) = pack_bytes(state, shared, 16);
            overflow |= over;
            *out.next().expect("a word for the odd 2-byte slot") = low | high;
        }
        for (word, quad) in out.zip(bytes.chunks(4)) {
            let (value, over) = pack_bytes(state, quad, 0);
            overflow |= over;
            *word = value;
        }
        if overflow != 0 {
            return Err(self.too_wide(state));
        }
        Ok(())
    }

    /// Unpacks `packed` (written by [`Self::pack`]) into `state`.
    pub fn unpack(&self, packed: &[u32], state: &mut [Value]) {
        debug_assert_eq!(state.len(), self.bits.len());
        let mut words = packed.iter();
        for (&i, &word) in self.wide.iter().zip(&mut words) {
            state[i as usize] = word;
        }
        let pairs = self.half.chunks_exact(2);
        let odd = pairs.remainder();
        for (pair, &word) in pairs.zip(&mut words) {
            state[pair[0] as usize] = word & 0xffff;
            state[pair[1] as usize] = word >> 16;
        }
        let (shared, bytes) = self.split_bytes();
        if let [i] = odd {
            let word = *words.next().expect("the odd 2-byte slot's word");
            state[*i as usize] = word & 0xffff;
            unpack_bytes(word, shared, 16, state);
        }
        for (&word, quad) in words.zip(bytes.chunks(4)) {
            unpack_bytes(word, quad, 0, state);
        }
    }

    /// The report of the first value of `state` wider than its slot.
    fn too_wide(&self, state: &[Value]) -> TableFull {
        let slot = (0..state.len())
            .find(|&i| state[i] as u64 >> (8 * stored_bytes(self.bits[i])) != 0)
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

/// The 1-byte slots `slots` of `state` side by side from bit `shift` of a
/// word, and the OR of their bits above the byte (0 when all fit).
fn pack_bytes(state: &[Value], slots: &[u32], shift: u32) -> (u32, u32) {
    let mut word = 0;
    let mut overflow = 0;
    for (j, &i) in slots.iter().enumerate() {
        let value = state[i as usize];
        overflow |= value >> 8;
        word |= value << (shift + 8 * j as u32);
    }
    (word, overflow)
}

/// The inverse of [`pack_bytes`].
fn unpack_bytes(word: u32, slots: &[u32], shift: u32, state: &mut [Value]) {
    for (j, &i) in slots.iter().enumerate() {
        state[i as usize] = (word >> (shift + 8 * j as u32)) & 0xff;
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
        assert_eq!((p.byte.as_slice(), p.half.as_slice(), p.wide.as_slice()), (&[0, 1, 2][..], &[3, 4][..], &[5, 6][..]));
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
