//! Event-B input: ProB's Rodin exports (`.eventb`, one Prolog term
//! `package(...)` holding a machine with its abstract machines and the
//! contexts they see). `term` reads the Prolog term, `expr` translates
//! Event-B predicates and expressions into the classical B syntax tree,
//! `project` turns contexts and the most concrete machine into B machines
//! (SETS/CONSTANTS/PROPERTIES, VARIABLES, INITIALISATION, events as
//! guarded operations), `refinement` adds the abstract variables the
//! concrete machine drops and the abstract actions on them (`after` those
//! whose witnesses read after-values), `theory` expands the theory
//! operators with a direct definition, `datatypes` translates theory
//! datatypes and operators defined by cases. The result goes through the same `compile`,
//! evaluator and [`crate::BModel`] as classical B, so ProB's conventions
//! (settings, deferred set sizes, counting) are the same.
//!
//! Owns only the Event-B syntax; it must not evaluate anything.

mod after;
mod datatype_sets;
mod datatypes;
mod expr;
mod merge;
mod nested_forall;
mod nonempty;
mod param_typing;
mod project;
mod projected_set;
mod refined;
mod refinement;
mod tags;
mod term;
#[cfg(test)]
mod tests_after;
#[cfg(test)]
mod tests_after_chain;
#[cfg(test)]
mod tests_checks;
#[cfg(test)]
mod tests_clipping;
#[cfg(test)]
mod tests_datatype_sets;
#[cfg(test)]
mod tests_datatypes;
#[cfg(test)]
mod tests_merge;
#[cfg(test)]
mod tests_nested_forall;
#[cfg(test)]
mod tests_projected_set;
#[cfg(test)]
mod tests_simulation;
#[cfg(test)]
mod tests_tags;
#[cfg(test)]
mod tests_theory;
#[cfg(test)]
mod tests_typing;
#[cfg(test)]
mod tests_witness_chain;
mod theory;

use crate::error::BError;
use crate::load::{Composed, Reader};

pub use project::Regions;

/// Reads the Event-B export `text` (from file `label`); the regions name
/// the axiom or event of a later error.
pub fn compose_str(
    reader: &mut Reader,
    text: &str,
    label: &str,
) -> Result<(Composed, Regions), BError> {
    project::compose(reader, text, label)
}

#[cfg(test)]
mod tests {
    use frontend_testkit::bfs::{bfs, Bfs};

    /// A context partitioning COL into {r} and {g} (an enumerated set, no
    /// SETUP_CONSTANTS), a counter `x` in 0..2 and a colour set by an
    /// event parameter: 2 * 3 states + the root; 1 initialisation, 4 `inc`
    /// and 6 * 2 `paint` transitions.
    const MODEL: &str = "package(load_event_b_project(
      [event_b_model(none,'M',[sees(none,['C']),
        variables(none,[identifier(none,x),identifier(none,col)]),
        invariant(none,[]),theorems(none,[]),
        events(none,[
          event(none,'INITIALISATION',ordinary(none),[],[],[],[],
            [assign(none,[identifier(none,x),identifier(none,col)],
                         [integer(none,0),identifier(none,r)])],[]),
          event(none,inc,ordinary(none),[],[],
            [less(rodinpos('M',grd1,a),identifier(none,x),integer(none,2))],[],
            [assign(none,[identifier(none,x)],
               [add(none,identifier(none,x),integer(none,1))])],[]),
          event(none,paint,ordinary(none),[],[identifier(none,c)],
            [member(none,identifier(none,c),identifier(none,'COL'))],[],
            [becomes_such(none,[identifier(none,col)],
               equal(none,identifier(none,'col\\''),identifier(none,c)))],[])])])],
      [event_b_context(none,'C',[extends(none,[]),
        constants(none,[identifier(none,r),identifier(none,g)]),
        axioms(none,[partition(none,identifier(none,'COL'),
          [set_extension(none,[identifier(none,r)]),
           set_extension(none,[identifier(none,g)])])]),
        theorems(none,[]),sets(none,[deferred_set(none,'COL')])])],
      [],_Error)).";

    #[test]
    fn events_parameters_and_partitioned_sets() {
        let m = crate::parse_str(MODEL, "M_mch.eventb").expect("model");
        match bfs(&m, 1000, None) {
            Bfs::Done(states, transitions) => assert_eq!((states, transitions), (7, 17)),
            _ => panic!("exploration failed"),
        }
    }

    #[test]
    fn syntax_errors_name_the_position() {
        let e = crate::parse_str("package(load_event_b_project([],[]", "X.eventb")
            .err()
            .map(|e| e.to_string());
        assert!(e.is_some_and(|e| e.starts_with("X.eventb:1:")));
    }
}
