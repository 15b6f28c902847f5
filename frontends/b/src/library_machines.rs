//! ProB's standard-library machines, for a machine that SEES one without
//! a copy beside it (ProB then reads its own): the text this front-end
//! loads in its place. `LibraryStrings` gives the string functions of
//! `LibraryStrings.def` as abstract constants (lambdas over STRING);
//! those whose external is not evaluated stay unsupported when applied.
//! Owns no parsing and no evaluation.

/// The text of the library machine `name`, if this front-end has one.
pub(crate) fn text(name: &str) -> Option<&'static str> {
    match name {
        "LibraryStrings" => Some(LIBRARY_STRINGS),
        _ => None,
    }
}

/// `LibraryStrings`: each constant the lambda of its external.
const LIBRARY_STRINGS: &str = r#"MACHINE LibraryStrings
ABSTRACT_CONSTANTS length, append, split, join, chars, codes,
  str2int, int2str, strIsInt, strIsInStr, int2decStr, decStr2int
PROPERTIES
  length = %s.(s : STRING | STRING_LENGTH(s)) &
  append = %(a, b).(a : STRING & b : STRING | STRING_APPEND(a, b)) &
  split = %(a, b).(a : STRING & b : STRING | STRING_SPLIT(a, b)) &
  join = %(q, b).(q : INTEGER <-> STRING & b : STRING | STRING_JOIN(q, b)) &
  chars = %s.(s : STRING | STRING_CHARS(s)) &
  codes = %s.(s : STRING | STRING_CODES(s)) &
  str2int = %s.(s : STRING | STRING_TO_INT(s)) &
  int2str = %i.(i : INTEGER | INT_TO_STRING(i)) &
  strIsInt = %s.(s : STRING | bool(STRING_IS_INT(s))) &
  strIsInStr = %(a, b).(a : STRING & b : STRING | STRING_CONTAINS_STRING(a, b)) &
  int2decStr = %(i, p).(i : INTEGER & p : INTEGER | INT_TO_DEC_STRING(i, p)) &
  decStr2int = %(s, p).(s : STRING & p : INTEGER | DEC_STRING_TO_INT(s, p))
DEFINITIONS
  "LibraryStrings.def"
END
"#;
