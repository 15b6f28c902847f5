//! Settings spelled by one word in engine parameters (the PTrie's key
//! encoding, the symbolic search strategy): one parser for all, so that a
//! setting's words are written once, in its `name`.
//!
//! Owns only [`Named`] and [`parse_named`]; it must not know any engine.

/// A closed set of values, each named by one word.
pub(crate) trait Named: Copy + 'static {
    /// Every value.
    const ALL: &'static [Self];

    /// The value's word.
    fn word(self) -> &'static str;
}

/// The value whose word is `s`, if any.
pub(crate) fn parse_named<T: Named>(s: &str) -> Option<T> {
    T::ALL.iter().copied().find(|v| v.word() == s)
}
