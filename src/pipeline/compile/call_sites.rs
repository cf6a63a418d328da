//! Calls by what is called: a built-in, a method, an op, a function of the program or a function value.

use super::{
    FnCompiler, dotted_path, err, generators, no_keywords, op_arity_error, signature_arity, static_method,
    unbound_method,
};
use crate::error::{ErrorKind, Result};
use crate::func::registry;
use crate::pipeline::Slot;
use crate::pipeline::ast::{DOUBLE_STAR, Expr, Keyword};
use crate::pipeline::builtins::Builtin;
use crate::pipeline::exception_value::is_class_name;
use crate::pipeline::ir::{Inst, Reg};
use crate::pipeline::keyed::Keyed;
use crate::pipeline::methods::Method;
use crate::{FromAny, PackedFunc};

impl FnCompiler<'_> {
    /// A call of a built-in function, its argument count checked here.
    fn call_builtin(&mut self, builtin: Builtin, args: &[Expr], keywords: &[Keyword], dst: Option<Reg>) -> Result<Reg> {
        if !keywords.is_empty() {
            return self.call_builtin_keywords(builtin, args, keywords, dst);
        }
        if let (Builtin::Any | Builtin::All, [g @ Expr::GeneratorExp { .. }]) = (builtin, args) {
            return self.any_all(builtin == Builtin::All, generators::comprehension(g), dst);
        }
        if let (Builtin::Any | Builtin::All, [arg]) = (builtin, args)
            && let Some(g) = self.map_filter_generator(arg)
        {
            return self.call_builtin(builtin, &[g?], keywords, dst);
        }
        let (min, max) = builtin.arity();
        if args.len() < min || args.len() > max {
            return self.raise_when_called(args, keywords, builtin.arity_error(args.len()), dst);
        }
        let regs = match (builtin, args) {
            // `next(w for w in ws if ...)` takes its item before anything else runs.
            (Builtin::Next, [g @ Expr::GeneratorExp { .. }, rest @ ..]) => {
                let mut regs = vec![self.lazy_generator(g, None, true)?];
                regs.extend(self.arguments(rest, false)?);
                regs
            }
            _ => self.arguments(args, generators::takes_a_generator(builtin))?,
        };
        let args = self.operands(&regs);
        let d = self.dst(dst);
        self.emit(Inst::CallBuiltin { dst: d, builtin, args });
        Ok(d)
    }

    pub(super) fn call(&mut self, func: &Expr, args: &[Expr], keywords: &[Keyword], dst: Option<Reg>) -> Result<Reg> {
        let line = self.line;
        if keywords.iter().any(|k| k.arg == DOUBLE_STAR) {
            // `f(**mapping)`: bound when it runs, to a function whose parameters are known then.
            if self.is_value_callee(func) {
                return self.call_value_keywords(func, args, keywords, dst);
            }
            let Some(f) = self.module_function(func) else {
                if let Some((op, f)) = self.keyword_op(func) {
                    // `re.sub(p, r, s, **options)`, a registered Python function's `**kwargs`.
                    let callee = self.constant(Slot::from(f));
                    return self.named_call(&op, callee, args, keywords, dst);
                }
                if let Expr::Attribute { value, attr } = func
                    && let Some(method) = Method::from_name(attr)
                {
                    // `text.split(**options)`: the method bound to the value, which binds the
                    // keywords when it runs.
                    let callee = self.temp();
                    self.bind_method(method, value, callee)?;
                    return self.named_call(attr, callee, args, keywords, dst);
                }
                let msg = "'**' arguments are not supported in anyscript but in calls of the script's own functions, \
                           of function values and of ops that take keywords";
                return Err(err(line, ErrorKind::Parse, msg));
            };
            return self.call_spread_keywords(f, args, keywords, dst);
        }
        if args.iter().any(|a| matches!(a, Expr::Starred { .. })) {
            return self.call_spread(func, args, keywords, dst);
        }
        match func {
            Expr::Name { id } if self.calls_nested(id) => self.call_nested(id, args, keywords, dst),
            // A nested function calling itself: its name is its own, whatever the module defines.
            Expr::Name { id } if !self.locals.contains_key(id) && self.is_own_name(id) => {
                self.call_itself(args, keywords, dst)
            }
            Expr::Name { id } if !self.locals.contains_key(id) && !self.module.globals.contains_key(id) => {
                if let Some(sig) = self.module.functions.get(id.as_str()) {
                    if let Some(shape) = &sig.shape {
                        let callee = (sig.index, sig.params.as_slice(), sig.defaults.as_slice(), shape);
                        return self.call_shaped(id, callee, &[], args, keywords, dst);
                    }
                    let callee = (sig.index, sig.params.as_slice(), sig.defaults.as_slice());
                    return self.call_module_function(id, callee, args, keywords, dst);
                }
                if let Some(builtin) = Builtin::from_name(id) {
                    return self.call_builtin(builtin, args, keywords, dst);
                }
                if let Some(g) = self.map_filter_generator(&Expr::Call {
                    func: Box::new(func.clone()),
                    args: args.to_vec(),
                    keywords: keywords.to_vec(),
                }) {
                    // `m = map(f, xs)`: the generator expression it is, run lazily. Python reads
                    // a named `f` once, when map() is called, as the generator's captured value
                    // is; a lambda reads its variables at each item.
                    let named = !matches!(args.first(), Some(Expr::Lambda { .. }));
                    return self.lazy_generator(&g?, dst, named);
                }
                if is_class_name(id) {
                    // `ValueError(message)`: an exception as a value.
                    return self.call_value(func, args, keywords, dst);
                }
                Err(err(line, ErrorKind::Name, format!("name '{id}' is not defined")))
            }
            Expr::Name { id } if !self.locals.contains_key(id) && self.global_func(id).is_some() => {
                // A function made by the pipeline's `init` (a tokenizer, say) is called like a
                // registered op: no register load of the function per call, and its errors
                // carry its name.
                let f = self.global_func(id).expect("checked in the guard");
                if crate::container::NamedTupleClass::of_func(&f).is_some() {
                    // `Span(1, end=4)`: a class binds keywords and words its errors as CPython's.
                    return self.call_value(func, args, keywords, dst);
                }
                no_keywords(line, id, keywords)?;
                self.emit_op_call(id.clone(), f, args, dst)
            }
            Expr::Attribute { value, attr } => {
                if let Some((path, root)) = dotted_path(func)
                    && !self.is_defined(root)
                {
                    // `builtins.format(...)` is the built-in whatever the function's locals are
                    // called: what f-strings lower to.
                    if let Some(builtin) = path.strip_prefix("builtins.").and_then(Builtin::from_name) {
                        return self.call_builtin(builtin, args, keywords, dst);
                    }
                    if crate::pipeline::exception_value::dotted_class(path.strip_prefix("ops.").unwrap_or(&path))
                        .is_some()
                    {
                        // `re.error(msg)`: an exception made by its class.
                        return self.call_value(func, args, keywords, dst);
                    }
                    if let Some((method, ty)) = unbound_method(&path) {
                        // `str.lower(w)` is `w.lower()` (what `map(str.lower, words)` calls), once
                        // the arguments are evaluated and `w` is found to be a str.
                        no_keywords(line, &path, keywords)?;
                        let Some((first, rest)) = args.split_first() else {
                            return Err(err(
                                line,
                                ErrorKind::Type,
                                format!("unbound method {path}() needs an argument"),
                            ));
                        };
                        let obj = self.expr(first, None)?;
                        let regs = self.arguments(rest, method == Method::Join)?;
                        self.emit(Inst::CheckReceiver { obj, method, ty });
                        let (args, d) = (self.operands(&regs), self.dst(dst));
                        self.emit(Inst::CallMethod { dst: d, method, obj, args });
                        return Ok(d);
                    }
                    if let Some((method, receiver)) = static_method(&path) {
                        no_keywords(line, &path, keywords)?;
                        let obj = self.constant(receiver);
                        let regs = self.arguments(args, false)?;
                        let (args, d) = (self.operands(&regs), self.dst(dst));
                        self.emit(Inst::CallMethod { dst: d, method, obj, args });
                        return Ok(d);
                    }
                    let op = path.strip_prefix("ops.").unwrap_or(&path);
                    // An op that stands for a Python function binds its arguments as that does.
                    let spread = args.iter().any(|a| matches!(a, Expr::Starred { .. }));
                    if !keywords.is_empty() || (!spread && crate::ops::params::op_params(op).is_some()) {
                        return self.call_op_keywords(op, args, keywords, dst);
                    }
                    return self.call_op(op, args, dst);
                }
                if super::expressions::dunder_op(attr).is_some()
                    || crate::pipeline::named_tuple_ops::OWN_ATTRIBUTES.contains(&attr.as_str())
                {
                    // `xs.__getitem__(i)`, `p._replace(x=1)`: the bound operation, called.
                    return self.call_value(func, args, keywords, dst);
                }
                let method = Method::from_name(attr).ok_or_else(|| {
                    err(line, ErrorKind::Parse, format!("unknown method '{attr}' (no type of anyscript has it)"))
                })?;
                // A `random.Random` method binds its positional arguments as Python's does too
                // (`r.choices(pop, w, cw, 2)` is CPython's TypeError: `k` is keyword-only).
                let spread = args.iter().any(|a| matches!(a, Expr::Starred { .. }));
                let random = crate::ops::random::RandomFn::of_method(method).is_some()
                    && crate::ops::params::op_params(&format!("random.{attr}")).is_some();
                if !keywords.is_empty() || (random && !spread) {
                    return self.call_method_keywords(method, value, args, keywords, dst);
                }
                if method == Method::Sort && !args.is_empty() {
                    let message = crate::pipeline::methods::sort_positional(args.len() + keywords.len());
                    return self.raise_after_receiver(value, method, args, keywords, &message, dst);
                }
                // A wrong argument count is the receiver type's TypeError when the call runs, as
                // in CPython (which words it per type: `set.add() takes exactly one argument`).
                let obj = self.expr(value, None)?;
                self.check_method_first(obj, method, args);
                // `" ".join(w for w in words)`: join takes every item first.
                let regs = match method {
                    Method::Join => self.arguments(args, true)?,
                    m if super::immediate::method_uses_items_now(m) || super::immediate::method_calls_now(m) => {
                        self.arguments_used_now(args)?
                    }
                    _ => self.arguments(args, false)?,
                };
                if method == Method::Append && regs.len() == 1 {
                    self.emit(Inst::Append { list: obj, value: regs[0] });
                    return Ok(self.constant(Slot::default()));
                }
                let args = self.operands(&regs);
                let d = self.dst(dst);
                self.emit(Inst::CallMethod { dst: d, method, obj, args });
                Ok(d)
            }
            _ => self.call_value(func, args, keywords, dst),
        }
    }

    /// The registered op `func` names (`re.sub`, a Python function registered as `user.clean`)
    /// when its function binds keyword arguments when it runs, so that a `**mapping` call of it
    /// is bound then.
    fn keyword_op(&self, func: &Expr) -> Option<(String, PackedFunc)> {
        let (path, root) = dotted_path(func)?;
        if self.is_defined(root) {
            return None;
        }
        let op = path.strip_prefix("ops.").unwrap_or(&path);
        if crate::ops::star_params::star_op(op).is_some() {
            return None;
        }
        registry().get(op).ok().filter(PackedFunc::takes_keywords).map(|f| (op.to_string(), f))
    }

    /// `value.attr` read by `reader`, a call of it with `value`.
    pub(super) fn attribute_call(&mut self, reader: PackedFunc, value: &Expr, dst: Option<Reg>) -> Result<Reg> {
        let callee = self.constant(Slot::from(reader));
        let obj = self.expr(value, None)?;
        let args = self.operands(&[obj]);
        let d = self.dst(dst);
        self.emit(Inst::CallValue { dst: d, callee, args });
        Ok(d)
    }

    /// A call of a function value (a variable, a nested function, a lambda).
    fn call_value(&mut self, func: &Expr, args: &[Expr], keywords: &[Keyword], dst: Option<Reg>) -> Result<Reg> {
        if !keywords.is_empty() {
            return self.call_value_keywords(func, args, keywords, dst);
        }
        let callee = self.expr(func, None)?;
        let regs = self.exprs(args)?;
        let args = self.operands(&regs);
        let d = self.dst(dst);
        self.emit(Inst::CallValue { dst: d, callee, args });
        Ok(d)
    }

    /// Whether `func` is called through its value: a variable (a nested function's name among
    /// them) or an expression that is no name (`fs[0]`, `make()`), not a module's function, a
    /// built-in, an op or a method.
    pub(super) fn is_value_callee(&self, func: &Expr) -> bool {
        match func {
            Expr::Name { id } => self.locals.contains_key(id),
            Expr::Attribute { .. } => false,
            _ => true,
        }
    }

    /// `func(args, name=value, **mapping)` of a function value: the callee binds the arguments
    /// when the call runs (a function of the script binds them as CPython does; a built-in or an
    /// op, which take their arguments by position, refuses keywords then).
    pub(super) fn call_value_keywords(
        &mut self,
        func: &Expr,
        args: &[Expr],
        keywords: &[Keyword],
        dst: Option<Reg>,
    ) -> Result<Reg> {
        let label = dotted_path(func).map_or_else(|| "function".to_string(), |(p, _)| p);
        // Python evaluates the callee, then the positional arguments, then the keywords.
        let callee = self.expr(func, None)?;
        self.named_call(&label, callee, args, keywords, dst)
    }

    /// A call of the function in register `callee` (named `label` in errors) with `args` and
    /// `keywords`, which it binds when the call runs (`Keyed::Named`).
    pub(super) fn named_call(
        &mut self,
        label: &str,
        callee: Reg,
        args: &[Expr],
        keywords: &[Keyword],
        dst: Option<Reg>,
    ) -> Result<Reg> {
        let (names, values, starred) = self.written_arguments(args, keywords)?;
        let mut regs = vec![self.constant(Slot::from_text(label)), callee, names];
        regs.extend(values);
        let (args, d) = (self.operands(&regs), self.dst(dst));
        self.emit(Inst::CallKeyed { dst: d, call: Keyed::Named { starred }, args });
        Ok(d)
    }

    /// `value.method` as a value in register `d`: the method bound to the object, whose
    /// register is returned.
    pub(super) fn bind_method(&mut self, method: Method, value: &Expr, d: Reg) -> Result<Reg> {
        let callee = self.constant(Slot::from(crate::pipeline::methods::bind_method_func(method)));
        let obj = self.expr(value, None)?;
        let args = self.operands(&[obj]);
        self.emit(Inst::CallValue { dst: d, callee, args });
        Ok(obj)
    }

    /// Whether `id` is the name of the nested function being compiled, read inside it.
    pub(super) fn is_own_name(&self, id: &str) -> bool {
        self.own.as_ref().is_some_and(|(name, _)| name == id)
    }

    /// The global `id` if it holds a function.
    fn global_func(&self, id: &str) -> Option<PackedFunc> {
        self.module.globals.get(id).and_then(|v| PackedFunc::from_view(&v.view()))
    }

    fn call_op(&mut self, name: &str, args: &[Expr], dst: Option<Reg>) -> Result<Reg> {
        let line = self.line;
        let f = super::registered_op(line, name)?;
        let arity = registry().info(name).and_then(|i| signature_arity(&i.signature));
        if let Some(e) = arity.and_then(|arity| op_arity_error(name, arity, args.len())) {
            return self.raise_when_called(args, &[], e, dst);
        }
        self.emit_op_call(name.to_string(), f, args, dst)
    }

    /// Emits a call of function `f`, named `name` in errors and listings, on `args`.
    fn emit_op_call(&mut self, name: String, f: PackedFunc, args: &[Expr], dst: Option<Reg>) -> Result<Reg> {
        let regs = match super::immediate::op_uses_arguments_now(&name) {
            true => self.arguments_used_now(args)?,
            false => self.exprs(args)?,
        };
        Ok(self.emit_op_on(name, f, &regs, dst))
    }
}
