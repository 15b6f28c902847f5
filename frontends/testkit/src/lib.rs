//! What every front-end's tests need and no front-end may own: the rule
//! for data or tools a test cannot find ([`missing`]), where shared data
//! lives and how oracles are read ([`corpus`]), the naive breadth-first
//! search ([`bfs`]), the bounded fuzzing driver ([`fuzz`]), and a
//! corpus test's models spread over every core ([`parallel`]). A
//! dev-dependency of the front-ends (and of harness tests), never of a
//! library: front-ends stay independent of one another. Knows models only through [`pins::Model`].

pub mod bfs;
pub mod corpus;
pub mod fuzz;
pub mod parallel;

/// Whether this is a CI run: `CI` set to anything but empty, `0` or `false`.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && !v.eq_ignore_ascii_case("false"))
}

/// Data or a tool this test needs is missing (`what` says which, and where
/// it was looked for): under CI the test fails with that message, so a CI
/// run cannot pass without checking anything; elsewhere it says it skipped.
pub fn missing(what: &str) {
    assert!(
        !in_ci(),
        "{what} (CI is set: a test must not pass without its data or tools)"
    );
    eprintln!("skipped: {what} (under CI=true this fails)");
}

/// The error `load` gives for `text` read as the file `label`; panics when
/// it loads.
pub fn load_error<M, E>(load: fn(&str, &str) -> Result<M, E>, text: &str, label: &str) -> E {
    match load(text, label) {
        Ok(_) => panic!("accepted: {text}"),
        Err(e) => e,
    }
}
