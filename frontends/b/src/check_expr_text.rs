//! Expressions written back in B's ASCII syntax for the messages of type
//! errors (`expected a set, found an integer: `card(s)``): identifiers,
//! literals, operators (fully parenthesised below the top), built-in
//! calls, applications, records and binders; a long text is cut short.
//!
//! Owns only this rendering: it reads the parser's operator symbols
//! (`parse::bin_symbol`) and the symbol names, and changes nothing.

use crate::ast::{Builtin, Expr, ExprKind, NamedSet, QuantKind, Syms};

/// The longest text given (in characters) before it is cut with `...`.
const MAX_CHARS: usize = 60;

/// `e` in B's ASCII syntax, at most [`MAX_CHARS`] characters (then ending
/// in `...`).
pub(crate) fn text(e: &Expr, syms: &Syms) -> String {
    let mut out = String::new();
    write(e, syms, true, &mut out);
    if out.chars().count() > MAX_CHARS {
        out = out.chars().take(MAX_CHARS - 3).collect::<String>() + "...";
    }
    out
}

fn write(e: &Expr, syms: &Syms, top: bool, out: &mut String) {
    if out.len() > 4 * MAX_CHARS {
        return; // cut anyway: spare rendering a huge expression
    }
    match &e.kind {
        ExprKind::Ident(s) => out.push_str(syms.name(*s)),
        ExprKind::Int(n) => out.push_str(&n.to_string()),
        ExprKind::Str(s) => out.push_str(&format!("{s:?}")),
        ExprKind::Bool(b) => out.push_str(if *b { "TRUE" } else { "FALSE" }),
        ExprKind::Named(n) => out.push_str(named(*n)),
        ExprKind::EmptySet => out.push_str("{}"),
        ExprKind::EmptySeq => out.push_str("[]"),
        ExprKind::SetExt(xs) => list("{", xs, "}", syms, out),
        ExprKind::SeqExt(xs) => list("[", xs, "]", syms, out),
        ExprKind::Bin(op, a, b) => {
            out.push_str(if top { "" } else { "(" });
            write(a, syms, false, out);
            out.push_str(&format!(" {} ", crate::parse::bin_symbol(*op)));
            write(b, syms, false, out);
            out.push_str(if top { "" } else { ")" });
        }
        ExprKind::Neg(a) => prefixed("-", a, syms, out),
        ExprKind::Inverse(a) => {
            write(a, syms, false, out);
            out.push('~');
        }
        ExprKind::Apply(f, a) => applied(f, "(", a, ")", syms, out),
        ExprKind::Image(f, a) => applied(f, "[", a, "]", syms, out),
        ExprKind::Call(b, args) => list(&format!("{}(", builtin(*b)), args, ")", syms, out),
        ExprKind::Quant {
            kind, ids, pred, ..
        } => {
            let names = ids
                .iter()
                .map(|s| syms.name(*s))
                .collect::<Vec<_>>()
                .join(",");
            let (open, close) = match kind {
                QuantKind::Comprehension => (format!("{{{names} | "), "}"),
                _ => (format!("{}{names}.(", binder(*kind)), ")"),
            };
            out.push_str(&open);
            write(pred, syms, true, out);
            out.push_str(close);
        }
        ExprKind::Rec(fields) => record("rec(", fields, syms, out),
        ExprKind::Struct(fields) => record("struct(", fields, syms, out),
        ExprKind::Field(r, f) => {
            write(r, syms, false, out);
            out.push('\'');
            out.push_str(syms.name(*f));
        }
    }
}

fn list(open: &str, xs: &[Expr], close: &str, syms: &Syms, out: &mut String) {
    out.push_str(open);
    for (k, x) in xs.iter().enumerate() {
        out.push_str(if k > 0 { ", " } else { "" });
        write(x, syms, true, out);
    }
    out.push_str(close);
}

fn prefixed(op: &str, a: &Expr, syms: &Syms, out: &mut String) {
    out.push_str(op);
    write(a, syms, false, out);
}

fn applied(f: &Expr, open: &str, a: &Expr, close: &str, syms: &Syms, out: &mut String) {
    write(f, syms, false, out);
    out.push_str(open);
    write(a, syms, true, out);
    out.push_str(close);
}

fn record(open: &str, fields: &[(crate::ast::Sym, Expr)], syms: &Syms, out: &mut String) {
    out.push_str(open);
    for (k, (f, x)) in fields.iter().enumerate() {
        out.push_str(if k > 0 { ", " } else { "" });
        out.push_str(syms.name(*f));
        out.push(':');
        write(x, syms, true, out);
    }
    out.push(')');
}

fn named(n: NamedSet) -> &'static str {
    match n {
        NamedSet::Nat => "NAT",
        NamedSet::Nat1 => "NAT1",
        NamedSet::Int => "INT",
        NamedSet::Natural => "NATURAL",
        NamedSet::Natural1 => "NATURAL1",
        NamedSet::Integer => "INTEGER",
        NamedSet::Bool => "BOOL",
        NamedSet::String => "STRING",
        NamedSet::MaxInt => "MAXINT",
        NamedSet::MinInt => "MININT",
    }
}

/// A built-in's B name: its own in lower case but for the upper-case
/// ones and the generalised union and intersection.
fn builtin(b: Builtin) -> String {
    match b {
        Builtin::Pow => "POW".into(),
        Builtin::Pow1 => "POW1".into(),
        Builtin::Fin => "FIN".into(),
        Builtin::Fin1 => "FIN1".into(),
        Builtin::GenUnion => "union".into(),
        Builtin::GenInter => "inter".into(),
        Builtin::IfThenElse => "IF-THEN-ELSE".into(),
        Builtin::External(x) => format!("{x:?}"),
        other => format!("{other:?}").to_lowercase(),
    }
}

fn binder(k: QuantKind) -> &'static str {
    match k {
        QuantKind::Forall => "!",
        QuantKind::Exists => "#",
        QuantKind::Comprehension => "",
        QuantKind::Lambda => "%",
        QuantKind::Sigma => "SIGMA ",
        QuantKind::Pi => "PI ",
        QuantKind::Union => "UNION ",
        QuantKind::Inter => "INTER ",
    }
}
