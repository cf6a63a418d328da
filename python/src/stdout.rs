//! `print` in a script writes to Python's `sys.stdout`, read at each call as CPython's `print`
//! reads it, so that a notebook shows the output and `contextlib.redirect_stdout` and pytest's
//! capture see it.

use crate::errors::carry;
use anyproc::{AnyValue, AnyView, PackedFunc};
use pyo3::prelude::*;

/// Makes scripts' `print` write to `sys.stdout` (once per process: the sink stays).
pub fn install() {
    anyproc::pipeline::print::set_print_sink(PackedFunc::new(|args: &[AnyView<'_>]| {
        Python::attach(|py| write(py, args).map(|()| AnyValue::none()).map_err(|e| carry(py, e)))
    }));
}

/// Writes the text in `args[0]` to `sys.stdout`; nothing when it is None, as CPython's `print`.
fn write(py: Python<'_>, args: &[AnyView<'_>]) -> PyResult<()> {
    let text = crate::convert::any_to_py(py, &args[0])?;
    let stdout = py.import("sys")?.getattr("stdout")?;
    if !stdout.is_none() {
        stdout.call_method1("write", (text,))?;
    }
    Ok(())
}
