//! `raise`, `assert` and `del`.

use super::{FnCompiler, err};
use crate::error::{ErrorKind, Result};
use crate::pipeline::Slot;
use crate::pipeline::ast::{Expr, Target};
use crate::pipeline::exception_value::{class_names, exception_class, raised_kind};
use crate::pipeline::ir::{Inst, NO_REG, Reg};

impl FnCompiler<'_> {
    /// `raise exc(value)`, or `raise exc` when `value` is None; `raise value` when `exc` is
    /// empty; each `from cause` when `cause` is given.
    pub(super) fn raise(&mut self, exc: &str, value: Option<&Expr>, cause: Option<&Expr>) -> Result<()> {
        if exc.is_empty() {
            let src = self.expr(value.expect("`raise value` has a value"), None)?;
            return self.raise_value(src, cause);
        }
        let Some(kind) = raised_kind(exc) else {
            let message = format!("raise {exc}: anyscript raises only {}", class_names()[1].join(", "));
            return Err(err(self.line, ErrorKind::Parse, message));
        };
        let value = match value {
            Some(v) => self.expr(v, None)?,
            None => NO_REG,
        };
        if cause.is_none() {
            self.emit(Inst::Raise { kind, value });
            return Ok(());
        }
        // The exception is made before the cause is evaluated, as CPython makes it.
        let class = exception_class(exc).expect("a raisable name is an exception class");
        let callee = self.constant(Slot::from(class));
        let args = if value == NO_REG { self.operands(&[]) } else { self.operands(&[value]) };
        let src = self.temp();
        self.emit(Inst::CallValue { dst: src, callee, args });
        self.raise_value(src, cause)
    }

    /// `raise src [from cause]`.
    fn raise_value(&mut self, src: Reg, cause: Option<&Expr>) -> Result<()> {
        let cause = match cause {
            Some(c) => self.expr(c, None)?,
            None => NO_REG,
        };
        self.emit(Inst::RaiseValue { src, cause });
        Ok(())
    }

    /// `assert test, msg`: the message is evaluated only when the test fails.
    pub(super) fn assert(&mut self, test: &Expr, msg: Option<&Expr>) -> Result<()> {
        let t = self.expr(test, None)?;
        let passed = self.emit(Inst::JumpIfTrue { cond: t, to: 0 });
        let value = match msg {
            Some(m) => self.expr(m, None)?,
            None => NO_REG,
        };
        self.emit(Inst::Raise { kind: ErrorKind::Assertion, value });
        let next = self.here();
        self.patch(passed, next);
        Ok(())
    }

    /// `del target`: items of lists and dicts (`del d[k]`, `del xs[i]`), in order.
    pub(super) fn delete(&mut self, target: &Target) -> Result<()> {
        match target {
            // An index that is a slicing (`del d[s[1:]]`) is a key like any other.
            Target::Subscript { value, index } => {
                let obj = self.expr(value, None)?;
                let key = self.expr(index, None)?;
                self.emit(Inst::DelItem { obj, key });
                Ok(())
            }
            Target::Slice { value, lower, upper, step } => self.delete_slice(value, [lower, upper, step]),
            Target::Tuple { items } => items.iter().try_for_each(|t| self.delete(t)),
            Target::Starred { .. } => Err(err(self.line, ErrorKind::Parse, "cannot delete starred")),
            Target::Name { id } => Err(err(
                self.line,
                ErrorKind::Parse,
                format!("del {id}: deleting a variable is not supported in anyscript (only items: del d[k])"),
            )),
        }
    }
}
