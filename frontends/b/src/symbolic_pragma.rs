//! ProB's `/*@symbolic*/` pragma before a comprehension or a lambda
//! (`CARRY_MSG = /*@symbolic*/ {m1, m2, c | ...}`): ProB keeps the
//! constant so defined symbolic, as it does an ABSTRACT_CONSTANT defined
//! so (see `symbolic::Lazy`). The lexer drops comments, so the pragmas
//! are found in the text: the first token after each one is marked, and
//! a definition `c = E` whose `E` starts at a marked token makes `c` a
//! candidate. A pragma inside a line comment (`// /*@symbolic*/`,
//! SonLazySetEvaluation's v4) or a string is no pragma.
//!
//! Owns finding the marks; the choice of symbolic constants is
//! `symbolic`'s.

use crate::ast::{Expr, Pos, Sym};
use crate::lexer::Token;

const PRAGMA: &str = "@symbolic";

/// The positions of the tokens of `toks` (lexed from `text`) that follow
/// a `/*@symbolic*/` comment.
pub fn marks(text: &str, toks: &[Token]) -> Vec<Pos> {
    let mut out = Vec::new();
    for (line, col) in pragma_ends(text) {
        let after = toks
            .iter()
            .find(|t| (t.line, t.col) >= (line, col))
            .map(|t| Pos {
                file: t.file,
                line: t.line,
                col: t.col,
            });
        out.extend(after);
    }
    out
}

/// The constants of `const_ids` that a PROPERTIES conjunct of `props`
/// defines (`c = E`, see `symbolic::definition`) by an `E` starting at
/// one of the `marks`.
pub(crate) fn marked(props: &[&mut Expr], const_ids: &[Sym], marks: &[Pos]) -> Vec<Sym> {
    let mut out = Vec::new();
    for p in props {
        for c in crate::solve::conjuncts(p) {
            if let Some((s, e)) = crate::symbolic::definition(c, const_ids) {
                if marks.contains(&e.pos) && !out.contains(&s) {
                    out.push(s);
                }
            }
        }
    }
    out
}

/// The (line, column) just after each `/*@symbolic*/` comment of
/// `text`, 1-based and counted in characters as the lexer counts them.
fn pragma_ends(text: &str) -> Vec<(u32, u32)> {
    let chars: Vec<char> = text.chars().collect();
    let (mut i, mut line, mut col) = (0, 1u32, 1u32);
    let mut out = Vec::new();
    let step = |i: &mut usize, line: &mut u32, col: &mut u32| {
        if chars[*i] == '\n' {
            *line += 1;
            *col = 1;
        } else {
            *col += 1;
        }
        *i += 1;
    };
    while i < chars.len() {
        let next = chars.get(i + 1).copied();
        match (chars[i], next) {
            ('/', Some('/')) => {
                while i < chars.len() && chars[i] != '\n' {
                    step(&mut i, &mut line, &mut col);
                }
            }
            ('/', Some('*')) => {
                let start = i;
                while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                    step(&mut i, &mut line, &mut col);
                }
                let body: String = chars[(start + 2).min(i)..i].iter().collect();
                for _ in 0..2.min(chars.len().saturating_sub(i)) {
                    step(&mut i, &mut line, &mut col);
                }
                if body.trim() == PRAGMA {
                    out.push((line, col));
                }
            }
            ('"', _) => {
                step(&mut i, &mut line, &mut col);
                while i < chars.len() && chars[i] != '"' && chars[i] != '\n' {
                    step(&mut i, &mut line, &mut col);
                }
                if i < chars.len() {
                    step(&mut i, &mut line, &mut col);
                }
            }
            _ => step(&mut i, &mut line, &mut col),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::pragma_ends;

    #[test]
    fn pragma_ends_skip_line_comments_and_strings() {
        let text = "a = /*@symbolic */ {x}\n// /*@symbolic*/ b\n\"/*@symbolic*/\" /* other */ c";
        assert_eq!(pragma_ends(text), vec![(1, 19)]);
    }
}
