//! Comprehensions: list, set and dict comprehensions anywhere, and generator expressions given
//! to a call that takes every item before it returns.
//!
//! Rationale: a generator runs its body as its consumer asks for items. Where the consumer
//! takes them all at once (`sum`, `sorted`, `"".join`, ...) nothing can run between two items,
//! so building the list first gives the same result, faster; `any` and `all`, which stop early,
//! run as a loop that stops at the same item. Anywhere else a generator expression runs lazily
//! (`compile/lazy_generators.rs`).

use super::{FnCompiler, err};
use crate::error::{ErrorKind, Result};
use crate::pipeline::Slot;
use crate::pipeline::append_loop::AppendLoop;
use crate::pipeline::ast::{CmpOp, Comprehension, Expr, Literal, Target};
use crate::pipeline::builtins::Builtin;
use crate::pipeline::ir::{Inst, NO_REG, Reg};
use crate::pipeline::methods::Method;
use crate::pipeline::set_ops::SetLayout;

/// The built-ins a generator expression may be given to: each takes all its items first.
pub(super) fn takes_a_generator(b: Builtin) -> bool {
    matches!(
        b,
        Builtin::List
            | Builtin::Tuple
            | Builtin::Dict
            | Builtin::Set
            | Builtin::Frozenset
            | Builtin::Bytes
            | Builtin::Bytearray
            | Builtin::Sorted
            | Builtin::Sum
            | Builtin::Min
            | Builtin::Max
            | Builtin::Any
            | Builtin::All
    )
}

/// The parts of `e`, a comprehension or generator expression.
pub(super) fn comprehension(e: &Expr) -> Comprehension<'_> {
    e.comprehension().expect("a comprehension")
}

/// Whether `e` is a dotted name (`a.b.c`, names only): evaluating it has no effect.
fn dotted(e: &Expr) -> bool {
    match e {
        Expr::Name { .. } => true,
        Expr::Attribute { value, .. } => dotted(value),
        _ => false,
    }
}

impl FnCompiler<'_> {
    /// The registers of a call's arguments; a generator expression among them becomes the
    /// list of its items where `generators` (the callee takes them all at once).
    pub(super) fn arguments(&mut self, args: &[Expr], generators: bool) -> Result<Vec<Reg>> {
        args.iter()
            .map(|a| match a {
                Expr::GeneratorExp { .. } if generators => self.list_comp(comprehension(a), None),
                _ if generators && let Some(g) = self.map_filter_generator(a) => {
                    self.list_comp(comprehension(&g?), None)
                }
                _ => self.expr(a, None),
            })
            .collect()
    }

    /// `map(f, xs, ...)` and `filter(f, xs)` (Python's built-ins, not a name of the script's) as
    /// the generator expressions they are: `(f(x) for x in xs)`, `(f(x, y) for x, y in zip(xs,
    /// ys))`, `(x for x in xs if f(x))`; `None` for any other expression. Python evaluates the
    /// function once, when map() is called: a name, a dotted name or a lambda is read where the
    /// generator reads it (its value cannot change meanwhile); any other expression
    /// (`map(itemgetter(0), pairs)`) is evaluated here, into a hidden variable the generator reads.
    pub(super) fn map_filter_generator(&mut self, e: &Expr) -> Option<Result<Expr>> {
        let Expr::Call { func, args, keywords } = e else { return None };
        let Expr::Name { id } = func.as_ref() else { return None };
        if !matches!(id.as_str(), "map" | "filter") || self.is_defined(id) {
            return None;
        }
        let line = self.line;
        let fail = |msg: String| Some(Err(err(line, ErrorKind::Type, msg)));
        if !keywords.is_empty() {
            return fail(format!("{id}() takes no keyword arguments"));
        }
        let [f, iterables @ ..] = args.as_slice() else { return fail(format!("{id}() takes at least two arguments")) };
        let pure = matches!(f, Expr::Name { .. } | Expr::Lambda { .. } | Expr::Const { .. })
            || matches!(f, Expr::Attribute { .. } if dotted(f));
        if id == "map" && iterables.is_empty() {
            return fail("map() must have at least two arguments.".into());
        }
        let hidden;
        let f = if pure {
            f
        } else {
            let r = match self.expr(f, None) {
                Ok(r) => r,
                Err(e) => return Some(Err(e)),
            };
            // A dotted name no script variable can have, one per register (which holds the value
            // to the end of the statement).
            let name = format!("{id}.function.{r}");
            self.locals.insert(name.clone(), r);
            self.statement_bound.insert(name.clone());
            hidden = Expr::Name { id: name };
            &hidden
        };
        let item = |i: usize| Expr::Name { id: format!("{id}.item{i}") };
        // map() and filter() take the set a display of constants builds, which CPython's optimizer
        // folds into a frozenset only where a loop iterates the display itself: `iter(xs)`, which
        // map() calls anyway, keeps it a built set here (its order differs from the frozenset's).
        let iterable = |xs: &Expr| match xs {
            Expr::Set { items } if items.iter().all(super::constants::is_folded_constant) => {
                let iter =
                    Expr::Attribute { value: Box::new(Expr::Name { id: "builtins".into() }), attr: "iter".into() };
                Expr::Call { func: Box::new(iter), args: vec![xs.clone()], keywords: Vec::new() }
            }
            _ => xs.clone(),
        };
        let call = |items: Vec<Expr>| Expr::Call { func: Box::new(f.clone()), args: items, keywords: Vec::new() };
        Some(Ok(match (id.as_str(), iterables) {
            ("map", []) => return fail("map() must have at least two arguments.".into()),
            ("map", [xs]) => Expr::GeneratorExp {
                elt: Box::new(call(vec![item(0)])),
                target: Box::new(Target::Name { id: format!("{id}.item0") }),
                iter: Box::new(iterable(xs)),
                ifs: Vec::new(),
                more: Vec::new(),
            },
            ("map", _) => {
                let names = (0..iterables.len()).map(item).collect::<Vec<_>>();
                let targets = (0..iterables.len()).map(|i| Target::Name { id: format!("{id}.item{i}") }).collect();
                // `builtins.zip`: the built-in whatever the script calls its variables.
                let zip = Expr::Attribute { value: Box::new(Expr::Name { id: "builtins".into() }), attr: "zip".into() };
                Expr::GeneratorExp {
                    elt: Box::new(call(names)),
                    target: Box::new(Target::Tuple { items: targets }),
                    iter: Box::new(Expr::Call { func: Box::new(zip), args: iterables.to_vec(), keywords: Vec::new() }),
                    ifs: Vec::new(),
                    more: Vec::new(),
                }
            }
            (_, [xs]) => {
                // `filter(None, xs)` keeps the true items, also when None comes in a variable.
                let test = match f {
                    Expr::Const { value: Literal::None } => item(0),
                    // A name may hold None; a dotted name (`str.isdigit`) or a lambda cannot.
                    Expr::Name { .. } => Expr::IfExp {
                        test: Box::new(Expr::Compare {
                            left: Box::new(f.clone()),
                            ops: vec![CmpOp::Is],
                            comparators: vec![Expr::Const { value: Literal::None }],
                        }),
                        body: Box::new(item(0)),
                        orelse: Box::new(call(vec![item(0)])),
                    },
                    _ => call(vec![item(0)]),
                };
                Expr::GeneratorExp {
                    elt: Box::new(item(0)),
                    target: Box::new(Target::Name { id: format!("{id}.item0") }),
                    iter: Box::new(iterable(xs)),
                    ifs: vec![test],
                    more: Vec::new(),
                }
            }
            _ => return fail(format!("filter expected 2 arguments, got {}", args.len())),
        }))
    }

    /// `[elt for target in iter if ifs... for ...]`.
    pub(super) fn list_comp(&mut self, comp: Comprehension<'_>, dst: Option<Reg>) -> Result<Reg> {
        let [Some(elt), None] = comp.elements else { unreachable!("a list comprehension has one element") };
        let out = self.temp();
        let none = self.operands(&[]);
        self.emit(Inst::BuildList { dst: out, items: none });
        // The comprehension's variables are its own: the extend need not leave them set.
        let fused = match comp.more {
            [] => self.scope(|s| s.comprehension(out, elt, comp.target, comp.iter, comp.ifs)),
            _ => None,
        };
        let skip = fused.map(|a| self.extend_each(AppendLoop { index: NO_REG, item: NO_REG, ..a }));
        self.comprehension_loop(comp, &mut |c| {
            let v = c.expr(elt, None)?;
            c.emit(Inst::Append { list: out, value: v });
            Ok(())
        })?;
        self.patch_skip(skip);
        Ok(self.move_to(out, dst))
    }

    /// `{elt for target in iter if ifs... for ...}`.
    pub(super) fn set_comp(&mut self, comp: Comprehension<'_>, dst: Option<Reg>) -> Result<Reg> {
        let [Some(elt), None] = comp.elements else { unreachable!("a set comprehension has one element") };
        let out = self.temp();
        let none = self.operands(&[]);
        self.emit(Inst::BuildSet { dst: out, items: none, layout: SetLayout::Added });
        self.comprehension_loop(comp, &mut |c| {
            let v = c.expr(elt, None)?;
            let args = c.operands(&[v]);
            let ignored = c.temp();
            c.emit(Inst::CallMethod { dst: ignored, method: Method::Add, obj: out, args });
            Ok(())
        })?;
        Ok(self.move_to(out, dst))
    }

    /// `{key: value for target in iter if ifs... for ...}`: the key is evaluated before the
    /// value, as in CPython 3.8 and later.
    pub(super) fn dict_comp(&mut self, comp: Comprehension<'_>, dst: Option<Reg>) -> Result<Reg> {
        let [Some(key), Some(value)] = comp.elements else {
            unreachable!("a dict comprehension has a key and a value")
        };
        let out = self.temp();
        let none = self.operands(&[]);
        self.emit(Inst::BuildDict { dst: out, items: none });
        self.comprehension_loop(comp, &mut |c| {
            let k = c.expr(key, None)?;
            let v = c.expr(value, None)?;
            c.emit(Inst::SetItem { obj: out, key: k, value: v });
            Ok(())
        })?;
        Ok(self.move_to(out, dst))
    }

    /// `any(elt for ...)` (or `all`, when `all`): loops that stop at the first truthy (falsy)
    /// item, as the generator would be stopped there.
    pub(super) fn any_all(&mut self, all: bool, comp: Comprehension<'_>, dst: Option<Reg>) -> Result<Reg> {
        let [Some(elt), None] = comp.elements else { unreachable!("a generator expression has one element") };
        let out = self.temp();
        let start = self.constant(Slot::from(all));
        self.emit(Inst::Move { dst: out, src: start });
        // The jump that stops leaves every clause's loop at once, as `break` leaves one.
        let mut stop = None;
        self.comprehension_loop(comp, &mut |c| {
            let v = c.expr(elt, None)?;
            let go_on = match all {
                true => c.emit(Inst::JumpIfTrue { cond: v, to: 0 }),
                false => c.emit(Inst::JumpIfFalse { cond: v, to: 0 }),
            };
            let found = c.constant(Slot::from(!all));
            c.emit(Inst::Move { dst: out, src: found });
            stop = Some(c.emit(Inst::Jump { to: 0 }));
            let next = c.here();
            c.patch(go_on, next);
            Ok(())
        })?;
        let end = self.here();
        stop.into_iter().for_each(|at| self.patch(at, end));
        Ok(self.move_to(out, dst))
    }

    /// The loops of a comprehension's clauses, each nested in the one before: `each` runs for
    /// the items that pass every clause's conditions, in the comprehension's own scope (as
    /// CPython gives it one).
    fn comprehension_loop(
        &mut self,
        comp: Comprehension<'_>,
        each: &mut dyn FnMut(&mut Self) -> Result<()>,
    ) -> Result<()> {
        let clauses: Vec<_> = comp.clauses().collect();
        self.clause_loops(&clauses, each)
    }

    /// `for target in iter: if ifs...: <the clauses after it>` for the first of `clauses`.
    fn clause_loops(
        &mut self,
        clauses: &[(&Target, &Expr, &[Expr])],
        each: &mut dyn FnMut(&mut Self) -> Result<()>,
    ) -> Result<()> {
        let [(target, iter, ifs), inner @ ..] = clauses else { return each(self) };
        self.for_loop(target, iter, true, &[], |c| {
            c.comprehension_depth += 1;
            let mut skips = Vec::new();
            for cond in *ifs {
                let r = c.expr(cond, None)?;
                skips.push(c.emit(Inst::JumpIfFalse { cond: r, to: 0 }));
            }
            c.clause_loops(inner, each)?;
            c.comprehension_depth -= 1;
            let next = c.here();
            skips.into_iter().for_each(|at| c.patch(at, next));
            Ok(())
        })
    }
}
