//! Expressions: registers for results, names and their binding checks, displays and comparison chains.

use super::{FnCompiler, constants, dotted_path, err, generators, static_method, unbound_method};
use crate::error::{ErrorKind, Result};
use crate::func::registry;
use crate::pipeline::Slot;
use crate::pipeline::ast::{BoolOp, CmpOp, Expr};
use crate::pipeline::builtins::Builtin;
use crate::pipeline::exception_value::{exception_class, is_class_name};
use crate::pipeline::ir::{Inst, Reg};
use crate::pipeline::methods::Method;
use crate::pipeline::named_tuple_ops;
use crate::pipeline::set_ops::SetLayout;

impl FnCompiler<'_> {
    pub(super) fn expr_in_temp(&mut self, e: &Expr) -> Result<Reg> {
        let t = self.temp();
        self.expr(e, Some(t))
    }

    pub(super) fn dst(&mut self, dst: Option<Reg>) -> Reg {
        dst.unwrap_or_else(|| self.temp())
    }

    /// A set display of `items`, its table laid out as CPython lays out the display `layout`
    /// names.
    pub(super) fn set_display(&mut self, items: &[Expr], layout: SetLayout, dst: Option<Reg>) -> Result<Reg> {
        let regs = self.exprs(items)?;
        let items = self.operands(&regs);
        let d = self.dst(dst);
        self.emit(Inst::BuildSet { dst: d, items, layout });
        Ok(d)
    }

    /// The iterable of a `for` or of a comprehension's first loop. CPython's optimizer makes a
    /// set display of constants there (of any length) the frozenset it iterates (`fold_iter`),
    /// whose layout is neither a display's built item by item nor its copy elsewhere.
    pub(super) fn iterable(&mut self, iter: &Expr) -> Result<Reg> {
        match iter {
            Expr::Set { items } if items.iter().all(constants::is_folded_constant) => {
                self.set_display(items, SetLayout::Frozen, None)
            }
            _ => self.expr(iter, None),
        }
    }

    /// Compiles `e`; the value ends up in `dst` when given, else in the returned register
    /// (a local's own register for a plain name).
    pub(super) fn expr(&mut self, e: &Expr, dst: Option<Reg>) -> Result<Reg> {
        let line = self.line;
        match e {
            Expr::Const { value } => {
                let r = self.constant(Self::literal(value));
                Ok(self.move_to(r, dst))
            }
            Expr::Name { id } => {
                let r = self.load_name(id)?;
                Ok(self.move_to(r, dst))
            }
            Expr::Attribute { value, attr } => {
                if attr == "__name__" {
                    // `type(x).__name__`, with CPython's error for a value that has none.
                    return self.attribute_call(crate::pipeline::type_checks::name_attribute_func(), value, dst);
                }
                if let Some((path, root)) = dotted_path(e)
                    && !self.is_defined(root)
                {
                    let path = path.strip_prefix("ops.").unwrap_or(&path);
                    // `re.IGNORECASE` and the other flags of the `re` module.
                    if let Some(bits) = crate::ops::re::flag(path) {
                        let r = self.constant(Slot::from(bits));
                        return Ok(self.move_to(r, dst));
                    }
                    // `isinstance(e, re.error)`: a module's exception class.
                    if let Some(class) = crate::pipeline::exception_value::dotted_class(path) {
                        let r = self.constant(Slot::from(class));
                        return Ok(self.move_to(r, dst));
                    }
                    let f = match (unbound_method(path), static_method(path)) {
                        (Some((method, ty)), _) => crate::pipeline::methods::unbound_method_func(method, ty),
                        (None, Some((method, receiver))) => {
                            crate::pipeline::methods::static_method_func(method, receiver)
                        }
                        (None, None) => {
                            let f = registry().get(path).map_err(|e| err(line, e.kind(), e.message()))?;
                            crate::ops::params::as_value(path, f)
                        }
                    };
                    let index = self.f.consts.len() as u32;
                    self.f.consts.push(Slot::from(f));
                    let d = self.dst(dst);
                    self.emit(Inst::Const { dst: d, index });
                    return Ok(d);
                }
                if attr == "args" {
                    // `e.args` of an exception.
                    return self.attribute_call(crate::pipeline::exception_value::args_attribute_func(), value, dst);
                }
                // `d.maxlen`, `m.lastgroup` and the other data attributes of built-in types.
                if let Some(reader) = crate::pipeline::attributes::attribute_func(attr) {
                    return self.attribute_call(reader, value, dst);
                }
                // A named tuple's field (`span.end`, `p.title`, whose reader binds the method of
                // that name to any other value), or CPython's AttributeError when it runs.
                if named_tuple_ops::may_be_field(attr) {
                    return self.attribute_call(named_tuple_ops::attribute_reader(attr), value, dst);
                }
                // A bound method as a value (`key=counts.get`): the method bound to the object.
                if let Some(method) = Method::from_name(attr) {
                    let d = self.dst(dst);
                    self.bind_method(method, value, d)?;
                    return Ok(d);
                }
                if let Some(op) = dunder_op(attr) {
                    return self.bind_dunder(op, value, dst);
                }
                Err(err(line, ErrorKind::Parse, format!("attribute '{attr}' can only be called as a method")))
            }
            Expr::Call { func, args, keywords } => self.call(func, args, keywords, dst),
            Expr::BinOp { op, left, right } => {
                let a = self.expr(left, None)?;
                let b = self.expr(right, None)?;
                let d = self.dst(dst);
                self.emit(Inst::Binary { op: *op, dst: d, a, b, in_place: false });
                Ok(d)
            }
            Expr::UnaryOp { op, operand } => {
                let src = self.expr(operand, None)?;
                let d = self.dst(dst);
                self.emit(Inst::Unary { op: *op, dst: d, src });
                Ok(d)
            }
            Expr::BoolOp { op, values } => {
                // The result is the last operand evaluated, as in Python.
                let d = self.temp();
                let mut exits = Vec::new();
                for (i, v) in values.iter().enumerate() {
                    self.expr(v, Some(d))?;
                    if i + 1 < values.len() {
                        exits.push(match op {
                            BoolOp::And => self.emit(Inst::JumpIfFalse { cond: d, to: 0 }),
                            BoolOp::Or => self.emit(Inst::JumpIfTrue { cond: d, to: 0 }),
                        });
                    }
                }
                let end = self.here();
                exits.into_iter().for_each(|at| self.patch(at, end));
                Ok(self.move_to(d, dst))
            }
            Expr::Compare { left, ops, comparators } => self.compare(left, ops, comparators, dst),
            Expr::IfExp { test, body, orelse } => {
                let d = self.temp();
                let cond = self.expr(test, None)?;
                let jump_else = self.emit(Inst::JumpIfFalse { cond, to: 0 });
                self.expr(body, Some(d))?;
                let jump_end = self.emit(Inst::Jump { to: 0 });
                let else_at = self.here();
                self.patch(jump_else, else_at);
                self.expr(orelse, Some(d))?;
                let end = self.here();
                self.patch(jump_end, end);
                Ok(self.move_to(d, dst))
            }
            Expr::List { items } | Expr::Tuple { items } if items.iter().any(|i| matches!(i, Expr::Starred { .. })) => {
                self.unpacking_sequence(items, matches!(e, Expr::Tuple { .. }), dst)
            }
            Expr::List { items } | Expr::Tuple { items } => {
                let regs = self.exprs(items)?;
                let items = self.operands(&regs);
                let d = self.dst(dst);
                self.emit(match e {
                    Expr::Tuple { .. } => Inst::BuildTuple { dst: d, items },
                    _ => Inst::BuildList { dst: d, items },
                });
                Ok(d)
            }
            Expr::Dict { keys, values } => self.dict_display(keys, values, dst),
            Expr::Set { items } if items.iter().any(|i| matches!(i, Expr::Starred { .. })) => {
                self.unpacking_set(items, dst)
            }
            Expr::Set { items } => {
                let folded = items.len() > 2 && items.iter().all(constants::is_folded_constant);
                self.set_display(items, if folded { SetLayout::Copied } else { SetLayout::Added }, dst)
            }
            Expr::Subscript { value, index } => {
                let obj = self.expr(value, None)?;
                let key = self.expr(index, None)?;
                let d = self.dst(dst);
                self.emit(Inst::GetItem { dst: d, obj, key });
                Ok(d)
            }
            Expr::Slice { value, lower, upper, step } => {
                let obj = self.expr(value, None)?;
                let mut regs = Vec::with_capacity(3);
                for b in [lower, upper, step] {
                    regs.push(match b {
                        Some(b) => self.expr(b, None)?,
                        None => self.constant(Slot::default()),
                    });
                }
                let bounds = self.operands(&regs);
                let d = self.dst(dst);
                self.emit(Inst::Slice { dst: d, obj, bounds });
                Ok(d)
            }
            Expr::ListComp { .. } => self.list_comp(generators::comprehension(e), dst),
            Expr::DictComp { .. } => self.dict_comp(generators::comprehension(e), dst),
            Expr::SetComp { .. } => self.set_comp(generators::comprehension(e), dst),
            Expr::GeneratorExp { .. } => self.lazy_generator(e, dst, false),
            Expr::Named { target, value } => {
                // Into a temporary first: a comprehension fills its result as it runs, and its
                // iterable may be the variable being assigned.
                let v = self.expr(value, None)?;
                let r = self.locals[target];
                self.emit(Inst::Move { dst: r, src: v });
                self.stored(target);
                Ok(self.move_to(r, dst))
            }
            Expr::Lambda { params, body, defaults } => {
                let frozen = self.is_frozen_lambda(e);
                self.lambda(params, body, defaults, dst, frozen)
            }
            Expr::Starred { .. } => {
                Err(err(line, ErrorKind::Parse, "starred expressions are not supported in anyscript here"))
            }
        }
    }

    pub(super) fn exprs(&mut self, items: &[Expr]) -> Result<Vec<Reg>> {
        items.iter().map(|e| self.expr(e, None)).collect()
    }

    pub(super) fn move_to(&mut self, r: Reg, dst: Option<Reg>) -> Reg {
        match dst {
            Some(d) if d != r => {
                self.emit(Inst::Move { dst: d, src: r });
                d
            }
            _ => r,
        }
    }

    /// Whether `id`, read as CPython reads a name the function does not assign, has a value:
    /// the function itself, a module constant or function, or a built-in.
    pub(super) fn resolves_outside(&self, id: &str) -> bool {
        self.is_own_name(id)
            || self.module.globals.contains_key(id)
            || self.module.functions.contains_key(id)
            || Builtin::from_name(id).is_some()
            || is_class_name(id)
    }

    pub(super) fn load_name(&mut self, id: &str) -> Result<Reg> {
        // A comprehension's variable read outside any comprehension is, to CPython, not this
        // function's variable: the name is looked up as if the function never assigned it.
        let comprehension_only = !self.statement_bound.contains(id) && self.comprehension_depth == 0;
        if let Some(&r) = self.locals.get(id).filter(|_| !comprehension_only) {
            if let Some(&cell) = self.cells.get(id) {
                return Ok(self.load_cell(id, cell));
            }
            self.check_bound(id, r);
            return Ok(r);
        }
        if let Some((_, func)) = self.own.as_ref().filter(|(name, _)| name == id) {
            let func = *func;
            return Ok(self.itself(func));
        }
        if let Some(v) = self.module.globals.get(id) {
            return Ok(self.constant(v.clone()));
        }
        if let Some(func) = self.module.functions.get(id).map(|s| s.index) {
            let dst = self.temp();
            self.emit(Inst::FuncRef { dst, func });
            return Ok(dst);
        }
        if let Some(builtin) = Builtin::from_name(id) {
            // `key=len`: a built-in as a function value.
            return Ok(self.constant(Slot::from(builtin.as_func())));
        }
        if let Some(class) = exception_class(id) {
            // `isinstance(e, LookupError)`, `type(e) is KeyError`.
            return Ok(self.constant(Slot::from(class)));
        }
        if comprehension_only && self.locals.contains_key(id) {
            // CPython raises when (and only if) the read runs.
            let dst = self.temp();
            self.emit(Inst::Unbind { dst });
            self.emit_check_bound(dst, &format!("name '{id}' is not defined"), true);
            return Ok(dst);
        }
        Err(err(self.line, ErrorKind::Name, format!("name '{id}' is not defined")))
    }

    /// Checks a read of local `id` (in `r`) when it may find the variable unassigned, with
    /// CPython 3.11's error for the case.
    pub(super) fn check_bound(&mut self, id: &str, r: Reg) {
        if self.free_undefined.iter().any(|n| n == id) {
            self.emit_check_bound(r, &format!("name '{id}' is not defined"), true);
            return;
        }
        let free = self.free_maybe_unbound.iter().any(|n| n == id);
        if !self.maybe_unbound.contains(id) && !free {
            return;
        }
        let (text, name_error) = if !self.statement_bound.contains(id) {
            // Only a comprehension's variable: to CPython, not a local of this function at all.
            (format!("name '{id}' is not defined"), true)
        } else if self.comprehension_depth > 0 || free {
            (
                format!(
                    "cannot access free variable '{id}' where it is not associated with a value in enclosing scope"
                ),
                true,
            )
        } else {
            (format!("cannot access local variable '{id}' where it is not associated with a value"), false)
        };
        self.emit_check_bound(r, &text, name_error);
    }

    /// Emits a [`Inst::CheckBound`] of `reg` raising `message` (a `NameError` if `name_error`,
    /// else an `UnboundLocalError`).
    fn emit_check_bound(&mut self, reg: Reg, message: &str, name_error: bool) {
        let index = self.f.consts.len() as u32;
        self.f.consts.push(Slot::from_text(message));
        self.emit(Inst::CheckBound { reg, message: index, name_error });
    }

    fn compare(&mut self, left: &Expr, ops: &[CmpOp], comparators: &[Expr], dst: Option<Reg>) -> Result<Reg> {
        let mut a = self.expr(left, None)?;
        if let ([op], [right]) = (ops, comparators) {
            let b = self.expr(right, None)?;
            let d = self.dst(dst);
            self.emit(Inst::Compare { op: *op, dst: d, a, b });
            return Ok(d);
        }
        // `a < b < c` is `a < b and b < c` with b evaluated once.
        let d = self.temp();
        let mut exits = Vec::new();
        for (i, (op, right)) in ops.iter().zip(comparators).enumerate() {
            let b = self.expr(right, None)?;
            self.emit(Inst::Compare { op: *op, dst: d, a, b });
            if i + 1 < ops.len() {
                exits.push(self.emit(Inst::JumpIfFalse { cond: d, to: 0 }));
            }
            a = b;
        }
        let end = self.here();
        exits.into_iter().for_each(|at| self.patch(at, end));
        Ok(self.move_to(d, dst))
    }
}

/// The operation a special method of the built-in types is (`xs.__getitem__` is
/// `operator.getitem` with `xs` first), for the ones that sort keys and lookups pass around.
pub(super) fn dunder_op(attr: &str) -> Option<&'static str> {
    match attr {
        "__getitem__" => Some("operator.getitem"),
        "__contains__" => Some("operator.contains"),
        _ => None,
    }
}

impl FnCompiler<'_> {
    /// `value.__getitem__` as a value (`sorted(range(n), key=scores.__getitem__)`): op `op`
    /// with `value` given first, as `functools.partial(op, value)` makes it.
    fn bind_dunder(&mut self, op: &str, value: &Expr, dst: Option<Reg>) -> Result<Reg> {
        let line = self.line;
        let get = |name: &str| super::registered_op(line, name);
        let (partial, op) = (get("functools.partial")?, get(op)?);
        let callee = self.constant(Slot::from(partial));
        let op = self.constant(Slot::from(op));
        let obj = self.expr(value, None)?;
        let args = self.operands(&[op, obj]);
        let d = self.dst(dst);
        self.emit(Inst::CallValue { dst: d, callee, args });
        Ok(d)
    }
}
