//! Per-slot chunk tables (LTSmin's chunk maps): every normal form a
//! process parameter takes gets a dense `u32` index, in order of first
//! appearance, so a state is a vector of indices and every engine works
//! unchanged. Thread-safe: one `RwLock` per slot (lookups of known values,
//! the common case, take only the read lock).
//!
//! Owns only the value <-> index tables; it must not evaluate.

use std::sync::RwLock;

use rustc_hash::FxHashMap;

use crate::value::Value;

#[derive(Default)]
struct Table {
    index: FxHashMap<Value, u32>,
    values: Vec<Value>,
}

/// The chunk tables of all slots.
pub struct Interner {
    slots: Vec<RwLock<Table>>,
}

impl Interner {
    pub fn new(k: usize) -> Interner {
        Interner {
            slots: (0..k).map(|_| RwLock::new(Table::default())).collect(),
        }
    }

    /// The index of `v` in slot `slot`'s table, adding it when new.
    pub fn intern(&self, slot: usize, v: &Value) -> Result<u32, String> {
        {
            let t = self.slots[slot]
                .read()
                .map_err(|_| "chunk table poisoned".to_string())?;
            if let Some(&i) = t.index.get(v) {
                return Ok(i);
            }
        }
        let mut t = self.slots[slot]
            .write()
            .map_err(|_| "chunk table poisoned".to_string())?;
        if let Some(&i) = t.index.get(v) {
            return Ok(i);
        }
        let i = u32::try_from(t.values.len())
            .map_err(|_| format!("more than 2^32 distinct values in slot {slot}"))?;
        t.values.push(v.clone());
        t.index.insert(v.clone(), i);
        Ok(i)
    }

    /// The value of index `i` in slot `slot`.
    pub fn value(&self, slot: usize, i: u32) -> Result<Value, String> {
        let t = self.slots[slot]
            .read()
            .map_err(|_| "chunk table poisoned".to_string())?;
        t.values
            .get(i as usize)
            .cloned()
            .ok_or_else(|| format!("slot {slot} holds no value with index {i}"))
    }

    /// How many distinct values slot `slot` has seen.
    #[cfg(test)]
    pub fn len(&self, slot: usize) -> usize {
        self.slots[slot].read().map(|t| t.values.len()).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_indices_per_slot_and_threads() {
        let interner = std::sync::Arc::new(Interner::new(2));
        let handles: Vec<_> = (0..4)
            .map(|_| {
                let it = interner.clone();
                std::thread::spawn(move || {
                    for n in 0..100 {
                        it.intern(n % 2, &Value::Int(n as i128 / 2)).unwrap();
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
        assert_eq!(interner.len(0), 50);
        assert_eq!(interner.len(1), 50);
        let i = interner.intern(0, &Value::Int(7)).unwrap();
        assert_eq!(interner.value(0, i).unwrap(), Value::Int(7));
    }
}
