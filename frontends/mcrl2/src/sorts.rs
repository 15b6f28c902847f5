//! The sorts of a specification after resolving aliases: the built-in
//! sorts, structured sorts (from `struct` or from `cons` declarations of a
//! declared sort) with their constructors, projections and recognisers,
//! containers and function sorts. Also what the enumerator and the model
//! need of a sort: whether it is finite and its elements, its default
//! value (what a `glob` don't-care variable becomes), and whether a value
//! belongs to it (for overloaded maps).
//!
//! Owns only sorts and constructors; it must not evaluate terms.

use std::collections::HashMap;
use std::sync::Arc;

use crate::ast::{SortExpr, StructCtor};
use crate::value::{CtorId, FuncBase, FuncValue, Value};

/// A resolved sort.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Sort {
    Bool,
    Pos,
    Nat,
    Int,
    Real,
    /// A structured (constructor) sort, by index.
    Struct(usize),
    List(Box<Sort>),
    Set(Box<Sort>),
    Bag(Box<Sort>),
    Func(Vec<Sort>, Box<Sort>),
}

/// One constructor.
#[derive(Clone, Debug)]
pub struct Ctor {
    pub name: String,
    /// The structured sort it builds.
    pub sort: usize,
    pub args: Vec<Sort>,
    pub projections: Vec<Option<String>>,
    pub recogniser: Option<String>,
}

/// A structured sort.
#[derive(Clone, Debug)]
pub struct StructSort {
    pub name: String,
    pub ctors: Vec<CtorId>,
}

/// Every sort and constructor of a specification.
#[derive(Clone, Debug, Default)]
pub struct SortTable {
    pub structs: Vec<StructSort>,
    pub ctors: Vec<Ctor>,
    /// Sort names (aliases and structured sorts) to their resolution.
    names: HashMap<String, Sort>,
    /// Aliases not yet resolved (name -> definition).
    pending: HashMap<String, SortExpr>,
}

/// Beyond this many elements a sort counts as infinite for enumeration.
pub const MAX_ENUMERATION: usize = 1 << 16;

impl SortTable {
    /// Builds the table from `sort` declarations; `cons` are added with
    /// [`SortTable::add_cons`].
    pub fn new(decls: &[(String, Option<SortExpr>)]) -> Result<SortTable, String> {
        let mut t = SortTable::default();
        for (name, def) in decls {
            match def {
                None => {
                    let id = t.structs.len();
                    t.structs.push(StructSort {
                        name: name.clone(),
                        ctors: Vec::new(),
                    });
                    t.names.insert(name.clone(), Sort::Struct(id));
                }
                Some(SortExpr::Struct(_)) => {
                    let id = t.structs.len();
                    t.structs.push(StructSort {
                        name: name.clone(),
                        ctors: Vec::new(),
                    });
                    t.names.insert(name.clone(), Sort::Struct(id));
                }
                Some(other) => {
                    t.pending.insert(name.clone(), other.clone());
                }
            }
        }
        // Constructors of named structured sorts (after every name is known).
        for (name, def) in decls {
            if let Some(SortExpr::Struct(ctors)) = def {
                let Some(Sort::Struct(id)) = t.names.get(name).cloned() else {
                    continue;
                };
                t.add_struct_ctors(id, ctors)?;
            }
        }
        let pending: Vec<String> = t.pending.keys().cloned().collect();
        for name in pending {
            t.resolve_name(&name, 0)?;
        }
        Ok(t)
    }

    fn add_struct_ctors(&mut self, id: usize, ctors: &[StructCtor]) -> Result<(), String> {
        for c in ctors {
            let mut args = Vec::new();
            let mut projections = Vec::new();
            for (p, s) in &c.args {
                args.push(self.resolve(s)?);
                projections.push(p.clone());
            }
            let cid = self.ctors.len() as CtorId;
            self.ctors.push(Ctor {
                name: c.name.clone(),
                sort: id,
                args,
                projections,
                recogniser: c.recogniser.clone(),
            });
            self.structs[id].ctors.push(cid);
        }
        Ok(())
    }

    /// Adds a `cons name: S1 # ... -> T` declaration.
    pub fn add_cons(&mut self, name: &str, sort: &SortExpr) -> Result<(), String> {
        let resolved = self.resolve(sort)?;
        let (args, target) = match resolved {
            Sort::Func(args, t) => (args, *t),
            t => (Vec::new(), t),
        };
        let Sort::Struct(id) = target else {
            return Err(format!(
                "constructor '{name}' of a built-in sort: not supported by this front-end"
            ));
        };
        let cid = self.ctors.len() as CtorId;
        self.ctors.push(Ctor {
            name: name.to_owned(),
            sort: id,
            projections: vec![None; args.len()],
            args,
            recogniser: None,
        });
        self.structs[id].ctors.push(cid);
        Ok(())
    }

    fn resolve_name(&mut self, name: &str, depth: usize) -> Result<Sort, String> {
        if let Some(s) = self.names.get(name) {
            return Ok(s.clone());
        }
        let Some(def) = self.pending.get(name).cloned() else {
            return Err(format!("unknown sort '{name}'"));
        };
        if depth > 64 {
            return Err(format!("sort alias '{name}' is defined in terms of itself"));
        }
        let s = self.resolve_at(&def, depth + 1)?;
        self.names.insert(name.to_owned(), s.clone());
        Ok(s)
    }

    /// Resolves a sort expression (aliases replaced; anonymous structured
    /// sorts get a fresh structured sort).
    pub fn resolve(&mut self, s: &SortExpr) -> Result<Sort, String> {
        self.resolve_at(s, 0)
    }

    fn resolve_at(&mut self, s: &SortExpr, depth: usize) -> Result<Sort, String> {
        Ok(match s {
            SortExpr::Bool => Sort::Bool,
            SortExpr::Pos => Sort::Pos,
            SortExpr::Nat => Sort::Nat,
            SortExpr::Int => Sort::Int,
            SortExpr::Real => Sort::Real,
            SortExpr::Named(n) => self.resolve_name(n, depth)?,
            SortExpr::List(e) => Sort::List(Box::new(self.resolve_at(e, depth)?)),
            SortExpr::Set(e) | SortExpr::FSet(e) => Sort::Set(Box::new(self.resolve_at(e, depth)?)),
            SortExpr::Bag(e) | SortExpr::FBag(e) => Sort::Bag(Box::new(self.resolve_at(e, depth)?)),
            SortExpr::Func(args, t) => {
                let args = args
                    .iter()
                    .map(|a| self.resolve_at(a, depth))
                    .collect::<Result<Vec<_>, _>>()?;
                Sort::Func(args, Box::new(self.resolve_at(t, depth)?))
            }
            SortExpr::Struct(ctors) => {
                let id = self.structs.len();
                self.structs.push(StructSort {
                    name: format!("struct#{id}"),
                    ctors: Vec::new(),
                });
                self.add_struct_ctors(id, ctors)?;
                Sort::Struct(id)
            }
        })
    }

    /// Every element of a finite sort (in constructor order), or `None`
    /// when the sort is infinite or has more than [`MAX_ENUMERATION`].
    pub fn elements(&self, s: &Sort) -> Option<Vec<Value>> {
        self.elements_guarded(s, &mut Vec::new())
    }

    fn elements_guarded(&self, s: &Sort, visiting: &mut Vec<usize>) -> Option<Vec<Value>> {
        match s {
            Sort::Bool => Some(vec![Value::Bool(false), Value::Bool(true)]),
            Sort::Struct(id) => {
                if visiting.contains(id) {
                    return None;
                }
                visiting.push(*id);
                let mut out = Vec::new();
                for &c in &self.structs[*id].ctors {
                    let mut combos: Vec<Vec<Value>> = vec![Vec::new()];
                    for a in &self.ctors[c as usize].args {
                        let elems = self.elements_guarded(a, visiting)?;
                        let mut next = Vec::new();
                        for prefix in &combos {
                            for e in &elems {
                                let mut p = prefix.clone();
                                p.push(e.clone());
                                next.push(p);
                            }
                        }
                        if next.len() > MAX_ENUMERATION {
                            return None;
                        }
                        combos = next;
                    }
                    out.extend(
                        combos
                            .into_iter()
                            .map(|args| Value::Ctor(c, Arc::from(args))),
                    );
                    if out.len() > MAX_ENUMERATION {
                        return None;
                    }
                }
                visiting.pop();
                Some(out)
            }
            _ => None,
        }
    }

    /// The number of elements of a finite sort (for a slot's bit width).
    pub fn cardinality(&self, s: &Sort) -> Option<usize> {
        self.elements(s).map(|e| e.len())
    }

    /// The value a global (don't-care) variable of sort `s` takes: what
    /// mCRL2's representative generator picks (the first constant
    /// constructor; 0 for Nat and Int, 1 for Pos, false for Bool, empty
    /// containers).
    pub fn default_value(&self, s: &Sort) -> Option<Value> {
        self.default_guarded(s, &mut Vec::new())
    }

    fn default_guarded(&self, s: &Sort, visiting: &mut Vec<usize>) -> Option<Value> {
        Some(match s {
            Sort::Bool => Value::Bool(false),
            Sort::Pos => Value::Int(1),
            Sort::Nat | Sort::Int | Sort::Real => Value::Int(0),
            Sort::List(_) => Value::list(Vec::new()),
            Sort::Set(_) => Value::empty_set(),
            Sort::Bag(_) => Value::bag(Vec::new()),
            Sort::Func(_, t) => Value::Func(Arc::new(FuncValue {
                base: FuncBase::Const(self.default_guarded(t, visiting)?),
                updates: Vec::new(),
            })),
            Sort::Struct(id) => {
                if visiting.contains(id) {
                    return None;
                }
                visiting.push(*id);
                let ctors = &self.structs[*id].ctors;
                let constant = ctors
                    .iter()
                    .find(|&&c| self.ctors[c as usize].args.is_empty());
                let v = if let Some(&c) = constant {
                    Value::Ctor(c, Arc::from(Vec::new()))
                } else {
                    let mut found = None;
                    for &c in ctors {
                        let args: Option<Vec<Value>> = self.ctors[c as usize]
                            .args
                            .iter()
                            .map(|a| self.default_guarded(a, visiting))
                            .collect();
                        if let Some(args) = args {
                            found = Some(Value::Ctor(c, Arc::from(args)));
                            break;
                        }
                    }
                    found?
                };
                visiting.pop();
                v
            }
        })
    }

    /// Whether `v` can be a value of sort `s` (a dynamic check used to pick
    /// among overloaded maps; containers are checked on their elements).
    pub fn has_sort(&self, v: &Value, s: &Sort) -> bool {
        match (v, s) {
            (Value::Bool(_), Sort::Bool) => true,
            (Value::Int(n), Sort::Pos) => *n > 0,
            (Value::Int(n), Sort::Nat) => *n >= 0,
            (Value::Int(_), Sort::Int | Sort::Real) => true,
            (Value::Frac(..), Sort::Real) => true,
            (Value::Ctor(c, _), Sort::Struct(id)) => self.ctors[*c as usize].sort == *id,
            (Value::List(items), Sort::List(e)) => {
                items.first().is_none_or(|x| self.has_sort(x, e))
            }
            (Value::Set(set), Sort::Set(e)) => {
                set.finite.first().is_none_or(|x| self.has_sort(x, e))
            }
            (Value::Bag(items), Sort::Bag(e)) => {
                items.first().is_none_or(|(x, _)| self.has_sort(x, e))
            }
            (Value::Func(_), Sort::Func(..)) => true,
            // A map without rules applied (an uninterpreted constant) and a
            // term without constructor normal form belong to any sort.
            (Value::Func(f), _) => matches!(f.base, FuncBase::Map(..)) && f.updates.is_empty(),
            (Value::Undefined(_), _) => true,
            _ => false,
        }
    }

    /// The number of curried argument groups of a sort (`A -> B -> C`: 2).
    pub fn arrow_depth(s: &Sort) -> usize {
        match s {
            Sort::Func(_, t) => 1 + Self::arrow_depth(t),
            _ => 0,
        }
    }

    /// A sort's name for messages.
    pub fn show(&self, s: &Sort) -> String {
        match s {
            Sort::Bool => "Bool".into(),
            Sort::Pos => "Pos".into(),
            Sort::Nat => "Nat".into(),
            Sort::Int => "Int".into(),
            Sort::Real => "Real".into(),
            Sort::Struct(id) => self.structs[*id].name.clone(),
            Sort::List(e) => format!("List({})", self.show(e)),
            Sort::Set(e) => format!("Set({})", self.show(e)),
            Sort::Bag(e) => format!("Bag({})", self.show(e)),
            Sort::Func(a, t) => format!(
                "{} -> {}",
                a.iter()
                    .map(|x| self.show(x))
                    .collect::<Vec<_>>()
                    .join(" # "),
                self.show(t)
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parser::parse_spec;

    fn table(text: &str) -> SortTable {
        let spec = parse_spec(text, "t").unwrap();
        let decls: Vec<_> = spec
            .sorts
            .iter()
            .map(|d| (d.name.clone(), d.def.clone()))
            .collect();
        SortTable::new(&decls).unwrap()
    }

    #[test]
    fn aliases_structs_and_enumeration() {
        let t = table("sort A = struct a1 | a2(Bool); B = A; N = Nat; F = N -> Bool;");
        let mut t2 = t.clone();
        let b = t2.resolve(&SortExpr::Named("B".into())).unwrap();
        assert_eq!(t.elements(&b).unwrap().len(), 3);
        let n = t2.resolve(&SortExpr::Named("N".into())).unwrap();
        assert_eq!(n, Sort::Nat);
        assert!(t.elements(&n).is_none());
        let f = t2.resolve(&SortExpr::Named("F".into())).unwrap();
        assert_eq!(SortTable::arrow_depth(&f), 1);
        assert_eq!(
            t.default_value(&b).unwrap(),
            Value::Ctor(0, Arc::from(vec![]))
        );
    }

    #[test]
    fn recursive_sorts_are_infinite() {
        let t = table("sort T = struct leaf | node(T, T);");
        assert!(t.elements(&Sort::Struct(0)).is_none());
        assert!(t.default_value(&Sort::Struct(0)).is_some());
    }
}
