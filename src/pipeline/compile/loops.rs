//! `for` and `while` loops: their slots for `break`/`continue`, `else:` blocks, and the special loops over
//! `range()`, dict views and appends.

use super::{FnCompiler, LoopCtx, dotted_path, two_names};
use crate::error::Result;
use crate::pipeline::Slot;
use crate::pipeline::append_loop::{AppendLoop, Scope};
use crate::pipeline::ast::{Expr, Stmt, Target};
use crate::pipeline::ir::{Inst, Reg};
use crate::pipeline::iterate::DictView;
use crate::pipeline::methods::Method;

impl FnCompiler<'_> {
    pub(super) fn enter_loop_slot(&mut self) -> u32 {
        let slot = self.loop_depth;
        self.loop_depth += 1;
        self.f.n_loops = self.f.n_loops.max(self.loop_depth);
        slot
    }

    /// Ends the innermost loop, whose code ends here: `continue`s jump to `continue_to`, then
    /// `orelse` (the loop's `else:` block) runs, which `break`s jump over.
    pub(super) fn leave_loop(&mut self, continue_to: u32, orelse: &[Stmt]) -> Result<()> {
        let ctx = self.loops.pop().expect("loop context");
        for at in ctx.continues {
            self.patch(at, continue_to);
        }
        self.loop_depth -= 1;
        self.block(orelse)?;
        let end = self.here();
        for at in ctx.breaks {
            self.patch(at, end);
        }
        Ok(())
    }

    /// Whether the attribute `func` is a method of a value, not an op reached through a dotted
    /// path whose root names no variable (`ops.text.lower`, `text.lower`).
    pub(super) fn calls_a_method(&self, func: &Expr) -> bool {
        dotted_path(func).is_none_or(|(_, root)| self.is_defined(root))
    }

    /// `(d, view)` when `iter` is `d.keys()`, `d.values()` or `d.items()` called on a value (not
    /// an op namespace).
    fn dict_view<'e>(&self, iter: &'e Expr) -> Option<(&'e Expr, DictView)> {
        let Expr::Call { func, args, keywords } = iter else { return None };
        keywords.is_empty().then_some(())?;
        let Expr::Attribute { value, attr } = func.as_ref() else { return None };
        let view = DictView::of(Method::from_name(attr)?)?;
        (args.is_empty() && self.calls_a_method(func)).then_some((value.as_ref(), view))
    }

    /// `for target in iter: body() else: orelse`; `range(...)` iterates without building a list. A
    /// comprehension's loop is `scoped`: its variables get registers of their own once the
    /// iterable (read in the enclosing scope) is evaluated, so that they neither change the
    /// function's variables of the same names nor an enclosing comprehension's.
    pub(super) fn for_loop(
        &mut self,
        target: &Target,
        iter: &Expr,
        scoped: bool,
        orelse: &[Stmt],
        body: impl FnOnce(&mut Self) -> Result<()>,
    ) -> Result<()> {
        let slot = self.enter_loop_slot();
        // `for k, v in d.items()`: the two names its steps write the key and value into.
        let mut item_names = None;
        match self.range_args(iter) {
            Some(args) => {
                let regs = args.iter().map(|a| self.expr(a, None)).collect::<Result<Vec<_>>>()?;
                let (start, stop, step) = match regs.as_slice() {
                    [stop] => (self.constant(Slot::from(0i64)), *stop, self.constant(Slot::from(1i64))),
                    [start, stop] => (*start, *stop, self.constant(Slot::from(1i64))),
                    [start, stop, step] => (*start, *stop, *step),
                    _ => unreachable!("arity checked"),
                };
                self.emit(Inst::RangeStart { slot, start, stop, step });
            }
            None => match self.dict_view(iter) {
                // `for k, v in d.items()` walks the dict itself, as CPython's view does.
                Some((dict, view)) => {
                    let src = self.expr(dict, None)?;
                    self.emit(Inst::IterView { slot, src, view });
                    item_names = (view == DictView::Items).then(|| two_names(target)).flatten();
                }
                None => {
                    let src = self.iterable(iter)?;
                    self.emit(Inst::IterStart { slot, src });
                }
            },
        }
        // The test is at the bottom (`ForNext` jumps back to the body while there are items),
        // so an iteration costs one dispatch for the loop, not a test and a jump.
        let enter = self.emit(Inst::Jump { to: 0 });
        let body_start = self.here();
        let outer = if scoped { self.bind_own_registers(target) } else { Vec::new() };
        let next_inst = match (target, item_names) {
            (_, Some((k, v))) if !self.is_cell(k) && !self.is_cell(v) => {
                Inst::ForNextItem { slot, key: self.locals[k], value: self.locals[v], body: body_start }
            }
            (Target::Name { id }, _) if !self.is_cell(id) => {
                Inst::ForNext { slot, dst: self.locals[id], body: body_start }
            }
            _ => {
                let dst = self.temp();
                self.assign(target, dst)?;
                Inst::ForNext { slot, dst, body: body_start }
            }
        };
        self.loops.push(LoopCtx::default());
        body(self)?;
        let next = self.here();
        self.patch(enter, next);
        self.emit(next_inst);
        self.leave_loop(next, orelse)?;
        for (name, reg, cell) in outer {
            self.locals.insert(name.clone(), reg);
            if let Some(cell) = cell {
                self.cells.insert(name, cell);
            }
        }
        Ok(())
    }

    /// Gives each name `target` binds a new register (a plain one: a comprehension's variable
    /// is not the cell variable of the same name); returns the registers and cells they had.
    fn bind_own_registers(&mut self, target: &Target) -> Vec<(String, Reg, Option<Reg>)> {
        let mut outer = Vec::new();
        for name in target.names().into_iter().map(str::to_string) {
            let own = self.temp();
            let cell = self.cells.remove(&name);
            if let Some(reg) = self.locals.insert(name.clone(), own) {
                outer.push((name, reg, cell));
            }
        }
        outer
    }

    /// Runs the append-loop matcher over this function's scope.
    pub(super) fn scope<R>(&self, f: impl FnOnce(&Scope<'_>) -> R) -> R {
        if self.cells.is_empty() {
            return f(&Scope { locals: &self.locals, is_defined: &|id| self.is_defined(id) });
        }
        // A cell variable's register is not where its value is: no fused loop touches one.
        let mut locals = self.locals.clone();
        locals.retain(|name, _| !self.is_cell(name));
        f(&Scope { locals: &locals, is_defined: &|id| self.is_defined(id) })
    }

    /// Emits the fused form of an append loop and the jump past the loop that follows it
    /// (the loop itself comes next, for when the fused form does not apply); returns the jump.
    pub(super) fn extend_each(&mut self, a: AppendLoop) -> usize {
        self.emit(Inst::ExtendEach { list: a.list, seq: a.seq, index: a.index, item: a.item });
        self.emit(Inst::Jump { to: 0 })
    }

    /// Points the jump from [`Self::extend_each`], if any, past the loop just compiled.
    pub(super) fn patch_skip(&mut self, skip: Option<usize>) {
        if let Some(at) = skip {
            let end = self.here();
            self.patch(at, end);
        }
    }

    fn range_args<'e>(&self, iter: &'e Expr) -> Option<&'e [Expr]> {
        match iter {
            Expr::Call { func, args, keywords } if keywords.is_empty() => match func.as_ref() {
                // A wrong count is the general call's, raised when the loop runs.
                Expr::Name { id } if id == "range" && !self.is_defined(id) && (1..=3).contains(&args.len()) => {
                    Some(args)
                }
                _ => None,
            },
            _ => None,
        }
    }

    pub(super) fn is_defined(&self, id: &str) -> bool {
        self.locals.contains_key(id)
            || self.is_own_name(id)
            || self.module.globals.contains_key(id)
            || self.module.functions.contains_key(id)
    }
}
