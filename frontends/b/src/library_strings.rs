//! String predicates of ProB's `LibraryStrings.def` this front-end
//! evaluates beyond those `eval` computes inline.

/// `STRING_IS_INT(s)`: whether `s` is the decimal notation of an integer:
/// an optional minus sign and one or more digits, nothing else (no
/// blank, no plus sign).
pub(crate) fn is_int(s: &str) -> bool {
    let digits = s.strip_prefix('-').unwrap_or(s);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::is_int;

    #[test]
    fn decimal_integers_only() {
        for s in ["0", "123", "-45", "007"] {
            assert!(is_int(s), "{s}");
        }
        for s in ["", "-", "abc", "12a", " 1", "+1", "1.5", "4444b"] {
            assert!(!is_int(s), "{s}");
        }
    }
}
