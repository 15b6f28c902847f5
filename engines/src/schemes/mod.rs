//! The storage schemes, one folder each: the sequential form
//! (`mod.rs`, a [`VisitedSet`](crate::VisitedSet)), the concurrent form
//! (`concurrent.rs`, a [`ConcurrentVisitedSet`](crate::ConcurrentVisitedSet))
//! where the scheme has one, and the scheme's parameters. ComBack and the
//! symbolic engines bring their own search.
//!
//! Registering a scheme is its one line in the `schemes!` list below.
//!
//! A scheme must not know another scheme (the Compact Tree reuses the
//! tree's node tables through `tree`, its one declared dependency), the
//! registry (beyond the types a spec is made of), or any front-end.

use crate::registry::EngineSpec;

/// Declares each scheme's module and lists its specs in [`ENGINES`], one
/// line per scheme: `folder: SPEC, ...;` (the specs the folder exports).
macro_rules! schemes {
    ($($module:ident: $($spec:ident),+;)+) => {
        $(pub mod $module;)+

        /// Every engine statebench knows, in presentation order.
        pub const ENGINES: &[&EngineSpec] = &[$($(&$module::$spec),+),+];
    };
}

schemes! {
    hash_table: SPEC;
    collapse: SPEC;
    tree: SPEC;
    compact_tree: SPEC;
    ptrie: SPEC;
    comback: SPEC;
    symbolic: BDD, MDD;
}
