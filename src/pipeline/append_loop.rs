//! Recognising loops that only append each element of a sequence to a list.
//!
//! `for i in range(len(s)): out.append(s[i])` (also with the element first stored in a
//! variable, as the seed's `unicode_split_any` does), `for c in s: out.append(c)`, and the
//! comprehensions `[c for c in s]` and `[s[i] for i in range(len(s))]` all mean "extend `out`
//! by the elements of `s`". The compiler puts an [`Inst::ExtendEach`](super::ir::Inst) in front
//! of such a loop; at run time it does the extend when `out` is a list and `s` text or another
//! list, and otherwise lets the loop run as written, so the result is the same either way.

use super::ast::{Expr, Stmt, StmtKind, Target};
use super::ir::{NO_REG, Reg};
use std::collections::HashMap;

/// The registers of a recognised append loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AppendLoop {
    /// The list appended to.
    pub list: Reg,
    /// The sequence whose elements are appended.
    pub seq: Reg,
    /// The loop's index variable (`i` of `range(len(s))`), or [`NO_REG`].
    pub index: Reg,
    /// The variable holding the element (the loop variable of `for c in s`, or the one `s[i]`
    /// is stored in), or [`NO_REG`].
    pub item: Reg,
}

/// What the matcher needs of the function being compiled.
pub struct Scope<'a> {
    /// The function's local variables and their registers.
    pub locals: &'a HashMap<String, Reg>,
    /// Whether a name is defined by the program (then `range` or `len` is not the builtin).
    pub is_defined: &'a dyn Fn(&str) -> bool,
}

impl Scope<'_> {
    fn local(&self, e: &Expr) -> Option<Reg> {
        match e {
            Expr::Name { id } => self.locals.get(id).copied(),
            _ => None,
        }
    }

    fn target(&self, t: &Target) -> Option<Reg> {
        match t {
            Target::Name { id } => self.locals.get(id).copied(),
            _ => None,
        }
    }

    /// `s` of `range(len(s))`, with both builtins unshadowed.
    fn range_len_of(&self, iter: &Expr) -> Option<Reg> {
        let Expr::Call { func, args, keywords } = iter else { return None };
        let [len_call] = args.as_slice() else { return None };
        let Expr::Call { func: len_func, args: len_args, keywords: len_keywords } = len_call else { return None };
        (keywords.is_empty() && len_keywords.is_empty()).then_some(())?;
        let [seq] = len_args.as_slice() else { return None };
        let builtin = |f: &Expr, name: &str| matches!(f, Expr::Name { id } if id == name && !(self.is_defined)(id));
        (builtin(func, "range") && builtin(len_func, "len")).then_some(())?;
        self.local(seq)
    }

    /// Whether `e` is `s[i]` for these registers.
    fn is_item(&self, e: &Expr, seq: Reg, index: Reg) -> bool {
        matches!(e, Expr::Subscript { value, index: key } if self.local(value) == Some(seq) && self.local(key) == Some(index))
    }

    /// The loop `for target in iter:` appending `elt` (optionally through `temp = s[i]`).
    fn shape(
        &self,
        list: Reg,
        target: &Target,
        iter: &Expr,
        elt: &Expr,
        temp: Option<(Reg, &Expr)>,
    ) -> Option<AppendLoop> {
        let var = self.target(target)?;
        let found = match self.range_len_of(iter) {
            Some(seq) => match temp {
                None if self.is_item(elt, seq, var) => AppendLoop { list, seq, index: var, item: NO_REG },
                Some((t, value)) if self.is_item(value, seq, var) && self.local(elt) == Some(t) => {
                    AppendLoop { list, seq, index: var, item: t }
                }
                _ => return None,
            },
            None if temp.is_none() && self.local(elt) == Some(var) => {
                AppendLoop { list, seq: self.local(iter)?, index: NO_REG, item: var }
            }
            None => return None,
        };
        // Every name distinct: the loop must not write the list or the sequence it reads.
        let regs = [found.list, found.seq, found.index, found.item];
        let distinct = regs.iter().enumerate().all(|(k, &r)| r == NO_REG || !regs[..k].contains(&r));
        distinct.then_some(found)
    }

    /// A `for` statement whose body only appends each element to a local list.
    pub fn for_statement(&self, target: &Target, iter: &Expr, body: &[Stmt]) -> Option<AppendLoop> {
        match body {
            [append] => {
                let (list, elt) = self.append_of(append)?;
                self.shape(list, target, iter, elt, None)
            }
            [store, append] => {
                let StmtKind::Assign { targets, value } = &store.kind else { return None };
                let [temp] = targets.as_slice() else { return None };
                let (list, elt) = self.append_of(append)?;
                self.shape(list, target, iter, elt, Some((self.target(temp)?, value)))
            }
            _ => None,
        }
    }

    /// A comprehension `[elt for target in iter]` (no conditions) building list `out`.
    pub fn comprehension(
        &self,
        out: Reg,
        elt: &Expr,
        target: &Target,
        iter: &Expr,
        ifs: &[Expr],
    ) -> Option<AppendLoop> {
        if !ifs.is_empty() {
            return None;
        }
        self.shape(out, target, iter, elt, None)
    }

    /// `(list, x)` of the statement `list.append(x)` on a local list.
    fn append_of<'s>(&self, s: &'s Stmt) -> Option<(Reg, &'s Expr)> {
        let StmtKind::Expr { value: Expr::Call { func, args, keywords } } = &s.kind else { return None };
        keywords.is_empty().then_some(())?;
        let Expr::Attribute { value: obj, attr } = func.as_ref() else { return None };
        let [x] = args.as_slice() else { return None };
        (attr == "append").then_some(())?;
        Some((self.local(obj)?, x))
    }
}
