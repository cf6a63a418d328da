//! Keyword arguments that fill a mapping: `d.update(x, k=v)`, `c.subtract(x, k=v)` and the
//! constructors `Counter(x, k=v)`, `OrderedDict(x, k=v)` and `defaultdict(f, x, k=v)`. Each
//! applies its positional argument, then the keywords as one dict, as the Python methods do
//! (`Counter.update` calls `self.update(kwds)`), so that a Counter adds them where a dict sets
//! them. Every argument is evaluated first, as CPython evaluates them before the call.

use super::FnCompiler;
use crate::PackedFunc;
use crate::error::Result;
use crate::pipeline::Slot;
use crate::pipeline::ast::{Expr, Keyword};
use crate::pipeline::ir::{Inst, Reg};
use crate::pipeline::methods::Method;

/// The mappings whose constructor takes keywords as entries.
pub(super) const MAPPING_CONSTRUCTORS: [&str; 3] =
    ["collections.Counter", "collections.OrderedDict", "collections.defaultdict"];

impl FnCompiler<'_> {
    /// `obj.update(x, **kwargs)` or `obj.subtract(x, **kwargs)` (`method`): the receiver checked
    /// first, every argument evaluated, then `x` applied and then the keywords.
    pub(super) fn fill_keywords(
        &mut self,
        method: Method,
        obj: &Expr,
        args: &[Expr],
        keywords: &[Keyword],
        dst: Option<Reg>,
    ) -> Result<Reg> {
        let obj = self.expr(obj, None)?;
        self.emit(Inst::CheckMethod { obj, method });
        let regs = self.exprs(args)?;
        let named = self.keywords_dict(keywords)?;
        // More than one positional argument is the receiver's own count error (dict's, Counter's
        // or OrderedDict's words), raised by the call with all of them.
        if !regs.is_empty() {
            self.call_method_on(method, obj, &regs);
        }
        if regs.len() <= 1 {
            self.call_method_on(method, obj, &[named]);
        }
        let none = self.constant(Slot::default());
        Ok(self.move_to(none, dst))
    }

    /// `Counter(x, **kwargs)` and the other [`MAPPING_CONSTRUCTORS`] (`name`, called as `f`): the
    /// mapping made of the positional arguments, then updated with the keywords.
    pub(super) fn mapping_with_keywords(
        &mut self,
        name: &str,
        f: PackedFunc,
        args: &[Expr],
        keywords: &[Keyword],
        dst: Option<Reg>,
    ) -> Result<Reg> {
        let regs = self.exprs(args)?;
        let named = self.keywords_dict(keywords)?;
        let made = self.emit_op_on(name.to_string(), f, &regs, None);
        self.call_method_on(Method::Update, made, &[named]);
        Ok(self.move_to(made, dst))
    }

    /// `obj.method(*regs)`, its result dropped.
    fn call_method_on(&mut self, method: Method, obj: Reg, regs: &[Reg]) {
        let args = self.operands(regs);
        let ignored = self.temp();
        self.emit(Inst::CallMethod { dst: ignored, method, obj, args });
    }
}
