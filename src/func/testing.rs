//! `testing.*` functions: the smallest possible calls, for overhead benchmarks.

use super::packed::PackedFunc;
use super::registry::Registry;
use crate::any::AnyValue;
use crate::error::{Error, ErrorKind, Result};

/// Registers `testing.nop` and `testing.echo`.
pub fn register(reg: &Registry) -> Result<()> {
    reg.register(
        "testing.nop",
        "(*args) -> None",
        "Takes any arguments and returns None; measures pure call overhead.",
        PackedFunc::new(|_| Ok(AnyValue::none())),
        false,
    )?;
    reg.register(
        "testing.echo",
        "(any, *args) -> any",
        "Returns its first argument unchanged.",
        PackedFunc::new(|args| match args.first() {
            Some(v) => Ok(v.to_owned()),
            None => Err(Error::new(ErrorKind::Arity, "expected at least 1 argument, got 0").context("testing.echo")),
        }),
        false,
    )
}
