//! The externals of ProB's standard-library definition files that
//! `load` does not list itself (`LibraryBits.def`, `LibraryHash.def`,
//! `LibraryRegex.def`): their names and parameters, declared when a
//! machine names the file and it is not beside it. Only what the machine
//! uses is evaluated (`parse::external_builtin`); the others stay
//! unsupported when reached. Owns no evaluation.

/// `(kind, name, parameters)` of one external: kind FUNCTION, PREDICATE
/// or SUBSTITUTION.
pub(crate) type LibraryExternal = (&'static str, &'static str, &'static [&'static str]);

const F: &str = "FUNCTION";
const P: &str = "PREDICATE";

/// The externals of the standard-library file `file`, if it is one of
/// those this module owns.
pub(crate) fn library_file(file: &str) -> Option<&'static [LibraryExternal]> {
    Some(match file {
        // Bitwise operations on integers (see `library_bits`).
        "LibraryBits.def" => &[
            (F, "BNOT", &["x"]),
            (F, "BAND", &["x", "y"]),
            (F, "BOR", &["x", "y"]),
            (F, "BXOR", &["x", "y"]),
            (F, "BLSHIFT", &["x", "y"]),
            (F, "BRSHIFT", &["x", "y"]),
        ],
        // Hashes of B values by a function of ProB's own: not evaluated.
        "LibraryHash.def" => &[
            (F, "HASH", &["x"]),
            (F, "SHA_HASH", &["x"]),
            (F, "SHA_HASH_HEX", &["x"]),
        ],
        // Regular expressions (ProB's regex engine): not evaluated.
        "LibraryRegex.def" => &[
            (P, "REGEX_MATCH", &["s", "pattern"]),
            (F, "REGEX_REPLACE", &["s", "pattern", "replacement"]),
            (F, "REGEX_SEARCH_STR", &["s", "pattern"]),
            (F, "REGEX_SEARCH", &["s", "from", "pattern"]),
            (F, "REGEX_SEARCH_ALL", &["s", "pattern"]),
        ],
        _ => return None,
    })
}
