//! Operation parameters typed only as a function into an infinite
//! integer set (`p : REF +-> INTEGER` as the only conjunct on `p`,
//! LustreTranslations/counter). Clipping its range to `MININT..MAXINT`,
//! as `clipped` does for an ANY, a `:(` or the PROPERTIES, gives that
//! model the oracle's 2,006 states but 649,622 transitions where ProB
//! counts 757,406: ProB enumerates such a parameter otherwise (more
//! values in some states), so a classical B operation with one is
//! unsupported.
//!
//! Owns that refusal only; the clipped enumeration stays in `clipped`.

use super::{clipped, plan::conjuncts};
use crate::ast::*;

/// The conjunct of `guard` typing one of `params` as `clipped` would
/// enumerate it (`p : D +-> INTEGER`, no other conjunct on `p`).
pub fn clipped_parameter<'a>(params: &[Sym], guard: &'a Expr) -> Option<&'a Expr> {
    let cs = conjuncts(guard);
    params.iter().find_map(|&p| {
        let mut on_p = cs.iter().filter(|c| crate::symbolic::mentions(c, p));
        match (on_p.next(), on_p.next()) {
            (Some(c), None) if clipped::typing(c, p, &|_| true) => Some(*c),
            _ => None,
        }
    })
}

#[cfg(test)]
mod tests {
    use crate::tests::count;

    /// `p : S +-> INTEGER` alone: refused as an operation parameter.
    #[test]
    fn a_parameter_typed_as_a_function_into_integer_is_refused() {
        let m = "MACHINE P SETS S = {a} VARIABLES v INITIALISATION v := {}
                 OPERATIONS set(p) = PRE p : S +-> INTEGER THEN v := p END END";
        let Err(e) = crate::parse_str(m, "t.mch") else {
            panic!("accepted")
        };
        let e = e.to_string();
        assert!(e.contains("function into an infinite integer set"), "{e}");
    }

    /// Another conjunct on the parameter bounds it: counted (`p` is `{}`,
    /// `{a |-> 0}` or `{a |-> 1}`: 3 states and the root; the
    /// initialisation and 3 transitions from each state).
    #[test]
    fn a_bounded_function_parameter_is_counted() {
        let m = "MACHINE P SETS S = {a} VARIABLES v INITIALISATION v := {}
                 OPERATIONS set(p) = PRE p : S +-> INTEGER & p : S +-> 0..1
                 THEN v := p END END";
        assert_eq!(count(m), (4, 10));
    }
}
