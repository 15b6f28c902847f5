//! The inverse `r~` of the last few relations inverted, remembered: a
//! guard such as `(rtbl~)[{r}]` (Abrial's train models) inverts the same
//! constant relation for every parameter value of every state, which took
//! a quarter of the time of train_1_prob_mch. The relation is recognised
//! by the identity of its shared set (`Arc::ptr_eq`); an entry holds that
//! set, so its address cannot be reused for another set while remembered,
//! and sets are never changed in place.
//!
//! Owns that memory; the inverse itself is `value::inverse`.

use std::cell::RefCell;
use std::sync::Arc;

use crate::recent::Recent;
use crate::value::{self as v, VResult, Value};

thread_local! {
    static MEMORY: RefCell<Recent<Arc<Vec<Value>>, Value>> = RefCell::default();
}

/// `r~`, from memory when `r` is a set inverted lately.
pub fn inverse(r: &Arc<Vec<Value>>) -> VResult<Value> {
    if let Some(known) = MEMORY.with(|m| m.borrow().find(|s| Arc::ptr_eq(s, r))) {
        return Ok(known);
    }
    let inv = v::inverse(r)?;
    MEMORY.with(|m| m.borrow_mut().remember(r.clone(), inv.clone()));
    Ok(inv)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rel(pairs: &[(i64, i64)]) -> Arc<Vec<Value>> {
        let ps = pairs
            .iter()
            .map(|&(a, b)| Value::pair(Value::Int(a), Value::Int(b)))
            .collect();
        match Value::set(ps) {
            Value::Set(s) => s,
            _ => unreachable!("a set"),
        }
    }

    #[test]
    fn remembered_inverses_equal_computed_ones() {
        // more relations than entries, each inverted twice in turn, and
        // equal relations in distinct sets
        let rs: Vec<_> = (0..7)
            .map(|k| rel(&[(k, 10), (k + 1, 20), (3, k)]))
            .collect();
        for _ in 0..2 {
            for r in rs.iter().chain(rs.iter().rev()) {
                assert_eq!(inverse(r), v::inverse(r));
            }
        }
        let (a, b) = (rel(&[(1, 2)]), rel(&[(1, 2)]));
        assert_eq!(inverse(&a), inverse(&b));
        assert_eq!(
            inverse(&a),
            Ok(Value::set(vec![Value::pair(Value::Int(2), Value::Int(1))]))
        );
    }

    #[test]
    fn a_non_relation_is_still_an_error() {
        let s = match Value::set(vec![Value::Int(1)]) {
            Value::Set(s) => s,
            _ => unreachable!("a set"),
        };
        assert!(inverse(&s).is_err());
        assert!(inverse(&s).is_err());
    }
}
