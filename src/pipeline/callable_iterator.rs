//! `iter(f, sentinel)`: CPython's `callable_iterator`, whose items are `f()` called again and
//! again until it returns a value equal to `sentinel` (`iter(read_line, "")`).
//!
//! It steps as a [`Generator`] over a foreign source: an error `f` raises reaches the consumer
//! and leaves the iterator as it was, so that asking again calls `f` again, as CPython's does;
//! the sentinel (or a `StopIteration` out of `f`) ends it for good.

use super::generator::{ForeignItems, Generator};
use super::value_ops::{callable, py_eq, type_error};
use crate::error::{ErrorKind, Result};
use crate::{AnyValue, AnyView, PackedFunc};
use std::sync::atomic::{AtomicBool, Ordering};

/// The source of a `callable_iterator`'s items.
struct CallUntil {
    func: PackedFunc,
    sentinel: AnyValue,
    /// Set once `func` gave the sentinel or raised `StopIteration`.
    ended: AtomicBool,
}

impl ForeignItems for CallUntil {
    fn next_item(&self) -> Result<Option<AnyValue>> {
        if self.ended.load(Ordering::Acquire) {
            return Ok(None);
        }
        let item = match self.func.call(&[]) {
            Err(e) if e.kind() == ErrorKind::StopIteration => None,
            result => Some(result?),
        };
        let item = item.filter(|x| !py_eq(x.value(), self.sentinel.value()));
        if item.is_none() {
            self.ended.store(true, Ordering::Release);
        }
        Ok(item)
    }

    fn repr(&self) -> String {
        format!("<callable_iterator object at {:#x}>", self as *const Self as usize)
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// `iter(f, sentinel)`, or CPython's TypeError when `f` is not callable.
pub(crate) fn call_until(f: AnyView<'_>, sentinel: AnyView<'_>) -> Result<Generator> {
    let func = callable(f.value()).map_err(|_| type_error("iter(v, w): v must be callable"))?;
    let source = CallUntil { func, sentinel: sentinel.to_owned(), ended: AtomicBool::new(false) };
    Ok(Generator::foreign(Box::new(source), "callable_iterator".into(), "callable_iterator".into()))
}
