//! Calls with keyword arguments, default parameter values and `lambda`s: bound where the call
//! is compiled, since every callee that takes keywords is known there (a function of the
//! module, a built-in, a method, or the key-taking built-ins of `keyed`).

use super::generators::takes_a_generator;
use super::made_defaults::MadeDefaults;
use super::{FnCompiler, Lifted, err};
use crate::error::{ErrorKind, Result};
use crate::pipeline::Slot;
use crate::pipeline::ast::{Expr, FunctionDef, Keyword, Literal};
use crate::pipeline::binding::{Params, Source, bind, keyword_names};
use crate::pipeline::builtins::Builtin;
use crate::pipeline::ir::{Inst, Reg};
use crate::pipeline::keyed::Keyed;
use crate::pipeline::lambdas::{LAMBDA_NAME, free_names, lifted};
use crate::pipeline::methods::Method;
use crate::pipeline::named_params::{builtin_params, fillers_of, invalid_key_keywords, keyword_params, method_params};

impl FnCompiler<'_> {
    /// The registers of `args` then `keywords`, evaluated in that (source) order, and the
    /// register each of `sources` names (a default's value from `default`).
    fn bound_registers(
        &mut self,
        args: &[Expr],
        generators: bool,
        keywords: &[Keyword],
        sources: &[Source],
        mut default: impl FnMut(usize) -> Slot,
    ) -> Result<Vec<Reg>> {
        // Taken first: a call among the arguments binds its own.
        let used_now = std::mem::take(&mut self.arguments_used_now);
        // The positional arguments are evaluated first, as Python evaluates them.
        let positional = match used_now {
            true => self.arguments_used_now(args)?,
            false => self.arguments(args, generators)?,
        };
        let named = keywords
            .iter()
            .map(|k| if used_now { self.argument_used_now(&k.value) } else { self.expr(&k.value, None) })
            .collect::<Result<Vec<_>>>()?;
        Ok(sources
            .iter()
            .map(|s| match *s {
                Source::Positional(i) => positional[i],
                Source::Keyword(k) => named[k],
                Source::Default(i) => self.constant(default(i)),
            })
            .collect())
    }

    /// A call of the module's function `name` (index `func`, parameters `params` with
    /// `defaults` for the last ones).
    pub(super) fn call_module_function(
        &mut self,
        name: &str,
        (func, params, defaults): (u32, &[&str], &[Slot]),
        args: &[Expr],
        keywords: &[Keyword],
        dst: Option<Reg>,
    ) -> Result<Reg> {
        self.call_lifted(name, (func, params, defaults), &[], args, keywords, dst)
    }

    /// [`Self::call_module_function`] of a function whose first parameters, before `params`,
    /// take the values in registers `captured` (a nested function's enclosing variables).
    pub(super) fn call_lifted(
        &mut self,
        name: &str,
        (func, params, defaults): (u32, &[&str], &[Slot]),
        captured: &[Reg],
        args: &[Expr],
        keywords: &[Keyword],
        dst: Option<Reg>,
    ) -> Result<Reg> {
        let spec = Params { name, names: params, positional: params.len(), n_defaults: defaults.len(), builtin: false };
        let sources = match bind(&spec, args.len(), &keyword_names(keywords)) {
            Ok(sources) => sources,
            Err(e) => return self.raise_when_called(args, keywords, e, dst),
        };
        let first_default = params.len() - defaults.len();
        let regs = self.bound_registers(args, false, keywords, &sources, |i| defaults[i - first_default].clone())?;
        let regs: Vec<Reg> = captured.iter().copied().chain(regs).collect();
        let args = self.operands(&regs);
        let d = self.dst(dst);
        self.emit(Inst::CallUser { dst: d, func, args });
        Ok(d)
    }

    /// A call that does not bind (`f(1, 2, 3)` of a function of two parameters): its arguments
    /// are evaluated, then `e` is raised, when (and if) the call runs, as CPython raises it. A
    /// pipeline's step runs for every record, so its wrong call is an error when it loads.
    pub(super) fn raise_when_called(
        &mut self,
        args: &[Expr],
        keywords: &[Keyword],
        e: crate::Error,
        dst: Option<Reg>,
    ) -> Result<Reg> {
        if self.f.line_labels.iter().any(|(l, _)| *l == self.line) {
            return Err(err(self.line, e.kind(), e.message()));
        }
        self.arguments_for_effect(args, keywords)?;
        let message = self.constant(Slot::from_text(e.message()));
        self.emit(Inst::Raise { kind: e.kind(), value: message });
        Ok(self.dst(dst))
    }

    /// Evaluates a call's arguments for their effects only, in order, as CPython evaluates them
    /// before a call that then fails.
    fn arguments_for_effect(&mut self, args: &[Expr], keywords: &[Keyword]) -> Result<()> {
        for a in args {
            match a {
                Expr::Starred { value } => self.expr(value, None)?,
                _ => self.expr(a, None)?,
            };
        }
        for k in keywords {
            self.expr(&k.value, None)?;
        }
        Ok(())
    }

    /// `obj.m(..., k=v)` (`obj` evaluated and `m` found) of a method that takes no keywords:
    /// CPython's TypeError once the arguments are evaluated, naming the type of the receiver
    /// (`str.count()`, `bytes.center()`), which is known only when the call runs.
    fn raise_no_keywords(
        &mut self,
        obj: Reg,
        m: Method,
        args: &[Expr],
        keywords: &[Keyword],
        dst: Option<Reg>,
    ) -> Result<Reg> {
        if self.f.line_labels.iter().any(|(l, _)| *l == self.line) {
            let message = format!("{}() takes no keyword arguments", m.qualified_name());
            return Err(err(self.line, ErrorKind::Type, message));
        }
        self.arguments_for_effect(args, keywords)?;
        let words = self.constant(Slot::from(crate::pipeline::methods::no_keywords_message_func(m)));
        let operands = self.operands(&[obj]);
        let message = self.temp();
        self.emit(Inst::CallValue { dst: message, callee: words, args: operands });
        self.emit(Inst::Raise { kind: ErrorKind::Type, value: message });
        Ok(self.dst(dst))
    }

    /// [`Self::raise_when_called`] of a method call: `receiver` is evaluated and its method
    /// `method` looked up first, as CPython finds the method before it evaluates the arguments.
    pub(super) fn raise_after_receiver(
        &mut self,
        receiver: &Expr,
        method: Method,
        args: &[Expr],
        keywords: &[Keyword],
        message: &str,
        dst: Option<Reg>,
    ) -> Result<Reg> {
        let obj = self.expr(receiver, None)?;
        self.emit(Inst::CheckMethod { obj, method });
        self.raise_when_called(args, keywords, crate::Error::new(ErrorKind::Type, message), dst)
    }

    /// A call of built-in `b` with keyword arguments.
    pub(super) fn call_builtin_keywords(
        &mut self,
        b: Builtin,
        args: &[Expr],
        keywords: &[Keyword],
        dst: Option<Reg>,
    ) -> Result<Reg> {
        let line = self.line;
        let name = b.name();
        // A wrong call raises when it runs, as in CPython, after its arguments are evaluated.
        let type_error = |message: String| crate::Error::new(ErrorKind::Type, message);
        match b {
            Builtin::Sorted => {
                if args.len() != 1 {
                    return self.raise_when_called(args, keywords, b.arity_error(args.len()), dst);
                }
                return self.keyed(Keyed::Sorted, name, &args[0..1], None, keywords, dst);
            }
            Builtin::Zip if matches!(keywords, [k] if k.arg == "strict") => {
                // The iterables first, then the flag, as CPython evaluates them.
                let mut regs = self.arguments(args, false)?;
                regs.insert(0, self.expr(&keywords[0].value, None)?);
                let callee = self.constant(Slot::from(crate::pipeline::builtins::zip_strict_func()));
                let (args, d) = (self.operands(&regs), self.dst(dst));
                self.emit(Inst::CallValue { dst: d, callee, args });
                return Ok(d);
            }
            Builtin::Min | Builtin::Max => {
                if args.is_empty() {
                    let e = type_error(format!("{name} expected at least 1 argument, got 0"));
                    return self.raise_when_called(args, keywords, e, dst);
                }
                return self.keyed(
                    Keyed::Extreme { max: b == Builtin::Max, has_default: false },
                    name,
                    args,
                    None,
                    keywords,
                    dst,
                );
            }
            Builtin::Print => {
                // A script has no `sys`: its output is `sys.stdout` from Python (see `print`).
                if keywords.iter().any(|k| k.arg == "file") {
                    return Err(err(
                        line,
                        ErrorKind::Parse,
                        "print(file=...) is not supported: a script prints to sys.stdout",
                    ));
                }
                return self.keyed(Keyed::Print { starred: 0 }, name, args, None, keywords, dst);
            }
            Builtin::Int if args.is_empty() => {
                return self.raise_when_called(args, keywords, type_error("int() missing string argument".into()), dst);
            }
            Builtin::Dict => {
                if args.len() > 1 {
                    return self.raise_when_called(args, keywords, b.arity_error(args.len()), dst);
                }
                let regs = self.arguments(args, true)?;
                let items = self.named_values(keywords)?;
                let args = self.operands(&regs);
                let d = self.dst(dst);
                self.emit(Inst::CallBuiltin { dst: d, builtin: b, args });
                self.set_named(d, &items);
                return Ok(d);
            }
            _ => {}
        }
        let Some(params) = builtin_params(b) else {
            return self.raise_when_called(
                args,
                keywords,
                type_error(format!("{name}() takes no keyword arguments")),
                dst,
            );
        };
        let sources = match bind(&keyword_params(name, params), args.len(), &keyword_names(keywords)) {
            Ok(sources) => sources,
            Err(e) => return self.raise_when_called(args, keywords, e, dst),
        };
        let fillers = fillers_of(params);
        let regs =
            self.defaulted_registers(args, takes_a_generator(b), keywords, &sources, (params.0.len(), &fillers))?;
        let args = self.operands(&regs);
        let d = self.dst(dst);
        self.emit(Inst::CallBuiltin { dst: d, builtin: b, args });
        Ok(d)
    }

    /// A call of method `m` of `obj` with keyword arguments.
    pub(super) fn call_method_keywords(
        &mut self,
        m: Method,
        obj: &Expr,
        args: &[Expr],
        keywords: &[Keyword],
        dst: Option<Reg>,
    ) -> Result<Reg> {
        let name = m.name();
        if m == Method::Sort {
            if !args.is_empty() {
                let message = crate::pipeline::methods::sort_positional(args.len() + keywords.len());
                return self.raise_after_receiver(obj, m, args, keywords, &message, dst);
            }
            return self.keyed(Keyed::Sort, name, &[], Some(obj), keywords, dst);
        }
        if m == Method::Format {
            return self.format_keywords(obj, args, keywords, dst);
        }
        if matches!(m, Method::Update | Method::Subtract) {
            return self.fill_keywords(m, obj, args, keywords, dst);
        }
        let obj = self.expr(obj, None)?;
        // Python finds the method before it evaluates the arguments.
        self.emit(Inst::CheckMethod { obj, method: m });
        // `random.Random`'s methods bind as the module functions of the same names, which are
        // those methods bound to the module's generator.
        let random_op = crate::ops::random::RandomFn::of_method(m)
            .and_then(|_| crate::ops::params::op_params(&format!("random.{name}")));
        let (spec, defaults) = match (random_op, method_params(m)) {
            (Some(op), _) => (op.binding(), op.defaults.to_vec()),
            (None, Some(params)) => (keyword_params(name, params), fillers_of(params)),
            (None, None) => return self.raise_no_keywords(obj, m, args, keywords, dst),
        };
        let bound = match random_op {
            Some(op) => op.bind(args.len(), &keyword_names(keywords)),
            None => bind(&spec, args.len(), &keyword_names(keywords)),
        };
        let sources = match bound {
            Ok(sources) => sources,
            // As CPython, a wrong call raises where it runs, once the method is found.
            Err(e) => return self.raise_when_called(args, keywords, e, dst),
        };
        let regs = self.defaulted_registers(args, false, keywords, &sources, (spec.names.len(), &defaults))?;
        let args = self.operands(&regs);
        let d = self.dst(dst);
        self.emit(Inst::CallMethod { dst: d, method: m, obj, args });
        Ok(d)
    }

    /// A call of op `name` with keyword arguments: one of those whose parameters
    /// [`crate::ops::params::OP_PARAMS`] names (`re.sub`, `bisect.bisect_left`, ...).
    pub(super) fn call_op_keywords(
        &mut self,
        name: &str,
        args: &[Expr],
        keywords: &[Keyword],
        dst: Option<Reg>,
    ) -> Result<Reg> {
        let line = self.line;
        if let Some(star) = crate::ops::star_params::star_op(name) {
            return self.call_star_op(star, args, keywords, dst);
        }
        let registered = || super::registered_op(line, name);
        if super::mapping_keywords::MAPPING_CONSTRUCTORS.contains(&name) {
            return self.mapping_with_keywords(name, registered()?, args, keywords, dst);
        }
        let Some(op) = crate::ops::params::op_params(name) else {
            // An op with a keyword form of its own (`functools.partial(f, sep=" ")`) binds the
            // call when it runs.
            let f = registered()?;
            if f.takes_keywords() {
                let callee = self.constant(Slot::from(f));
                return self.named_call(name, callee, args, keywords, dst);
            }
            return Err(err(line, ErrorKind::Type, format!("{name}() takes no keyword arguments")));
        };
        let f = registered()?;
        let sources = match op.bind(args.len(), &keyword_names(keywords)) {
            Ok(sources) => sources,
            // As CPython, a wrong call raises where it runs (a pipeline's step, where it loads).
            Err(e) => return self.raise_when_called(args, keywords, e, dst),
        };
        self.arguments_used_now = super::immediate::op_uses_arguments_now(name);
        let regs = self.defaulted_registers(args, false, keywords, &sources, (op.names.len(), op.defaults))?;
        Ok(self.emit_op_on(name.to_string(), f, &regs, dst))
    }

    /// [`FnCompiler::bound_registers`] of a callee of `n_params` parameters whose last ones
    /// default to `defaults`.
    fn defaulted_registers(
        &mut self,
        args: &[Expr],
        generators: bool,
        keywords: &[Keyword],
        sources: &[Source],
        (n_params, defaults): (usize, &[Literal]),
    ) -> Result<Vec<Reg>> {
        let first_default = n_params - defaults.len();
        self.bound_registers(args, generators, keywords, sources, |i| FnCompiler::literal(&defaults[i - first_default]))
    }

    /// A call of [`Keyed`] `call`: `receiver` (for `list.sort`) and `args`, then its keyword-only
    /// arguments in the operand order `Keyed` documents. A `key=lambda` may read this function's
    /// variables (see `lambdas`).
    fn keyed(
        &mut self,
        call: Keyed,
        name: &str,
        args: &[Expr],
        receiver: Option<&Expr>,
        keywords: &[Keyword],
        dst: Option<Reg>,
    ) -> Result<Reg> {
        let allowed: &[&str] = match call {
            Keyed::Sorted | Keyed::Sort => &["key", "reverse"],
            Keyed::Extreme { .. } => &["key", "default"],
            Keyed::Print { .. } => &["sep", "end", "flush"],
            Keyed::Spread { .. } | Keyed::Named { .. } | Keyed::Unpack { .. } | Keyed::SetSlice | Keyed::DelSlice => {
                &[]
            }
            // Compiled by `format_keywords`, which takes any name.
            Keyed::Format => &[],
        };
        // `sorted` is `list.sort` on a copy, to CPython too.
        let callee = if matches!(call, Keyed::Sort | Keyed::Sorted) { "sort" } else { name };
        let wrong = match call {
            Keyed::Sort | Keyed::Sorted | Keyed::Extreme { .. } => {
                invalid_key_keywords(callee, allowed, &keyword_names(keywords))
            }
            _ => keywords.iter().find(|k| !allowed.contains(&k.arg.as_str())).map(|k| {
                crate::Error::new(ErrorKind::Type, format!("'{}' is an invalid keyword argument for {name}()", k.arg))
            }),
        };
        if let Some(e) = wrong {
            return match receiver {
                Some(obj) => self.raise_after_receiver(obj, Method::Sort, args, keywords, e.message(), dst),
                None => self.raise_when_called(args, keywords, e, dst),
            };
        }
        let mut regs = Vec::with_capacity(args.len() + 3);
        if let Some(obj) = receiver {
            let obj = self.expr(obj, None)?;
            self.emit(Inst::CheckMethod { obj, method: Method::Sort });
            regs.push(obj);
        }
        let (values, starred) = self.spread_arguments(args, true)?;
        regs.extend(values);
        let call = match call {
            Keyed::Print { .. } => Keyed::Print { starred },
            // `call_spread` takes the other calls with `*args`.
            other => other,
        };
        let mut given = [None, None, None];
        for k in keywords {
            let r = match &k.value {
                Expr::Lambda { params, body, defaults } if k.arg == "key" => {
                    self.lambda(params, body, defaults, None, true)?
                }
                value => self.expr(value, None)?,
            };
            given[allowed.iter().position(|&a| a == k.arg).expect("checked above")] = Some(r);
        }
        let none = |c: &mut Self| c.constant(Slot::default());
        let key = given[0].unwrap_or_else(|| none(self));
        let call = match call {
            Keyed::Print { .. } => {
                // `sep` (in `key`, the first allowed name), `end` and `flush` go first: the values
                // after them are variadic.
                let (end, flush) = (given[1].unwrap_or_else(|| none(self)), given[2].unwrap_or_else(|| none(self)));
                regs.splice(0..0, [key, end, flush]);
                call
            }
            Keyed::Extreme { max, .. } => {
                let default = given[1].unwrap_or_else(|| none(self));
                // The key and default go first: the values after them are variadic.
                regs.splice(0..0, [key, default]);
                Keyed::Extreme { max, has_default: given[1].is_some() }
            }
            _ => {
                let reverse = given[1].unwrap_or_else(|| self.constant(Slot::from(false)));
                regs.extend([key, reverse]);
                call
            }
        };
        let args = self.operands(&regs);
        let d = self.dst(dst);
        self.emit(Inst::CallKeyed { dst: d, call, args });
        Ok(d)
    }

    /// The keywords' names (as constants) and values, evaluated in order.
    pub(super) fn named_values(&mut self, keywords: &[Keyword]) -> Result<Vec<(Reg, Reg)>> {
        keywords
            .iter()
            .map(|k| {
                let name = self.constant(Slot::from_text(&k.arg));
                Ok((name, self.expr(&k.value, None)?))
            })
            .collect()
    }

    /// A dict of the keywords' names and values, evaluated in order.
    pub(super) fn keywords_dict(&mut self, keywords: &[Keyword]) -> Result<Reg> {
        let pairs: Vec<Reg> = self.named_values(keywords)?.into_iter().flat_map(|(k, v)| [k, v]).collect();
        let items = self.operands(&pairs);
        let dict = self.temp();
        self.emit(Inst::BuildDict { dst: dict, items });
        Ok(dict)
    }

    /// `dict[name] = value` for each of `items`, after the positional argument was applied: what
    /// `dict(x, **kwargs)` does.
    fn set_named(&mut self, dict: Reg, items: &[(Reg, Reg)]) {
        for &(key, value) in items {
            self.emit(Inst::SetItem { obj: dict, key, value });
        }
    }

    /// `s.format(*args, **kwargs)`: the keywords go in a dict that `{name}` fields look up.
    fn format_keywords(&mut self, obj: &Expr, args: &[Expr], keywords: &[Keyword], dst: Option<Reg>) -> Result<Reg> {
        let obj = self.expr(obj, None)?;
        self.emit(Inst::CheckMethod { obj, method: Method::Format });
        let positional = self.exprs(args)?;
        let kwargs = self.keywords_dict(keywords)?;
        let regs: Vec<Reg> = [obj, kwargs].into_iter().chain(positional).collect();
        let args = self.operands(&regs);
        let d = self.dst(dst);
        self.emit(Inst::CallKeyed { dst: d, call: Keyed::Format, args });
        Ok(d)
    }

    /// `lambda params: body` as a function value. One that reads this function's variables is
    /// made with their values, where `may_capture` says that is what Python would see too (the
    /// key= of a sort, or a lambda whose variables cannot change once it is made).
    pub(super) fn lambda(
        &mut self,
        params: &[String],
        body: &Expr,
        defaults: &[Expr],
        dst: Option<Reg>,
        may_capture: bool,
    ) -> Result<Reg> {
        // Named as CPython names it in errors: by where it is defined.
        let name = format!("{}.<locals>.{LAMBDA_NAME}", self.f.name);
        // Its defaults are evaluated first, where it is made (`compile/made_defaults.rs`).
        let made = self.made_defaults(&name, params, defaults)?;
        let captured: Vec<String> =
            free_names(params, body).into_iter().filter(|n| self.locals.contains_key(n)).collect();
        if !captured.is_empty() && !may_capture {
            // The lambda as its statement holds it, to find what was noted of it.
            let lambda =
                Expr::Lambda { params: params.to_vec(), body: Box::new(body.clone()), defaults: defaults.to_vec() };
            let first = self.changing_variable(&lambda, &captured).expect("a captured variable");
            return Err(err(
                self.line,
                ErrorKind::Parse,
                format!(
                    "a lambda that reads the enclosing function's variable '{first}', which may be assigned \
                     again after the lambda is made (later in the function, in a loop or comprehension around \
                     it), is supported only as the key= of sorted(), min(), max() or list.sort(), or as an argument \
                     of a call that is done with it when it returns (re.sub, heapq.nsmallest, functools.reduce, \
                     bisect's key=) (anyscript gives a lambda the values its variables have when it is made; Python \
                     reads them when it runs, as a nested def does in anyscript too: write the lambda as one)"
                ),
            ));
        }
        let first_params: Vec<String> = captured.iter().chain(&made.hidden).cloned().collect();
        let def = lifted(&name, &first_params, params, body, self.line);
        let d = self.dst(dst);
        self.make_lifted_with(d, def, &captured, made)?;
        Ok(d)
    }

    /// Writes into `dst` the function value of `def`, an expression's function (a lambda's, a
    /// generator expression's) whose first parameters are the enclosing variables `captured`,
    /// given their values now.
    pub(super) fn make_lifted(&mut self, dst: Reg, def: FunctionDef, captured: &[String]) -> Result<()> {
        self.make_lifted_with(dst, def, captured, MadeDefaults::default())
    }

    /// [`make_lifted`](Self::make_lifted) of a function whose first parameters, after
    /// `captured`, are the hidden parameters of the defaults `made` with it.
    fn make_lifted_with(&mut self, dst: Reg, def: FunctionDef, captured: &[String], made: MadeDefaults) -> Result<()> {
        let (mut values, maybe_unbound, undefined) = self.captured_values(captured)?;
        values.extend(&made.values);
        let n_captured = captured.len() + made.hidden.len();
        let cells = self.cells_among(captured);
        let func = self.module.add_lifted(Lifted {
            def,
            n_captured,
            maybe_unbound,
            undefined,
            defaults: made.marks(),
            own_name: None,
            shape: None,
            cells,
            fills: made.fills,
        });
        self.make_function(dst, func, &values);
        Ok(())
    }

    /// The registers of the enclosing variables `captured` that a lambda or nested function is
    /// made with, those of them that may be unassigned, and those that to CPython are no
    /// variable of the function at all (a comprehension's variable, read outside it, that no
    /// global or built-in answers). Such a variable is passed as it is (perhaps the unbound mark):
    /// the function's read of it raises, as CPython's does, and only if it happens.
    pub(super) fn captured_values(&mut self, captured: &[String]) -> Result<(Vec<Reg>, Vec<String>, Vec<String>)> {
        let maybe_unbound = captured.iter().filter(|n| self.maybe_unbound.contains(*n)).cloned().collect();
        let mut undefined = Vec::new();
        let mut values = Vec::with_capacity(captured.len());
        for n in captured {
            let r = if let Some(&cell) = self.cells.get(n) {
                // Given the cell, not its value: the function reads it when it runs.
                cell
            } else if self.statement_bound.contains(n) || self.comprehension_depth > 0 {
                self.locals[n]
            } else if self.resolves_outside(n) {
                self.load_name(n)?
            } else {
                let dst = self.temp();
                self.emit(Inst::Unbind { dst });
                undefined.push(n.clone());
                dst
            };
            values.push(r);
        }
        Ok((values, maybe_unbound, undefined))
    }

    /// Writes into `dst` function `func` of the program, bound to the registers `values` (its
    /// first parameters) when there are any.
    pub(super) fn make_function(&mut self, dst: Reg, func: u32, values: &[Reg]) {
        if values.is_empty() {
            self.emit(Inst::FuncRef { dst, func });
        } else {
            let args = self.operands(values);
            self.emit(Inst::Bind { dst, func, args });
        }
    }
}
