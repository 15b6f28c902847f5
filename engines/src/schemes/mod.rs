//! The storage schemes, one folder each: the sequential form
//! (`mod.rs`, a [`VisitedSet`](crate::VisitedSet)), the concurrent form
//! (`concurrent.rs`, a [`ConcurrentVisitedSet`](crate::ConcurrentVisitedSet))
//! where the scheme has one, and the scheme's parameters. ComBack and the
//! symbolic engines bring their own search.
//!
//! A scheme must not know another scheme (the Compact Tree reuses the
//! tree's node tables through `tree`, its one declared dependency), the
//! registry, or any front-end.

pub mod collapse;
pub mod comback;
pub mod compact_tree;
pub mod hash_table;
pub mod ptrie;
pub mod symbolic;
pub mod tree;
