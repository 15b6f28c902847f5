//! Event parameters typed only by a theorem among the guards: a composed
//! machine (Rodin's composition plug-in, `M0_CMP_M0`'s `Send`) exports
//! the typing guard `A1 : INTEGER` as a theorem. A theorem `p : T` on a
//! parameter `p`, with `T` a type (`INTEGER`, `BOOL`, a carrier set, and
//! `POW` and `*` of types), holds for every value of `p`, so it also
//! serves as a guard: it gives the parameter the domain its type gives
//! (the type's enumeration, ProB's `MININT..MAXINT` for `INTEGER`) and
//! the theorem check it stays under cannot fail there.
//!
//! Owns only the choice of those theorems; translation is `project`'s.

use super::expr::ident_name_of;
use super::term::Term;

/// The theorems among `theorems` that type one of the `params`, for
/// use as guards; `carriers` are the carrier sets (types).
pub fn typing_theorems<'t>(
    theorems: &'t [Term],
    params: &[Term],
    carriers: &[String],
) -> Vec<&'t Term> {
    theorems
        .iter()
        .filter(|t| match t.app() {
            Some(("member", [_, x, ty])) => {
                let p = ident_name_of(x);
                p.is_some_and(|p| params.iter().any(|q| ident_name_of(q) == Some(p)))
                    && is_type(ty, carriers)
            }
            _ => false,
        })
        .collect()
}

/// Whether `t` is a type: `INTEGER`, `BOOL`, a carrier set, `POW` or `*`
/// of types.
fn is_type(t: &Term, carriers: &[String]) -> bool {
    match t.app() {
        Some(("integer_set" | "bool_set", [_])) => true,
        Some(("identifier", _)) => {
            ident_name_of(t).is_some_and(|n| carriers.iter().any(|c| c == n))
        }
        Some(("pow_subset", [_, a])) => is_type(a, carriers),
        Some(("cartesian_product", [_, a, b])) => is_type(a, carriers) && is_type(b, carriers),
        _ => false,
    }
}
