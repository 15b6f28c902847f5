//! Building blocks the storage schemes share: the memory [`budget`] every
//! table reserves against, the [`index_table`] that numbers fixed-width
//! tuples (collapse components, tree nodes), the [`lease`] blocks of entry
//! numbers the concurrent tables hand to workers, the atomics shim
//! ([`sync`]) that lets loom model those tables, and the [`word_hash`] they
//! all probe from.
//!
//! Owns no scheme and no search: a block is used by two schemes or more.

pub mod budget;
pub mod index_table;
pub mod lease;
pub(crate) mod sync;
pub(crate) mod word_hash;
