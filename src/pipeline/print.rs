//! `print()`: a script's output, written where the program that runs it looks for it.
//!
//! Rationale: from Python, `print` in a scripted function must write to `sys.stdout` as the
//! same function run by CPython does, so that it shows in a notebook and that
//! `contextlib.redirect_stdout` and pytest's capture see it; the Python package sets that
//! sink when it is imported. Elsewhere (the CLI, Rust programs) it is the process's standard
//! output. Each call writes its whole text at once, so lines of threads do not mix.

use super::Slot;
use super::value_ops::{to_str, type_error, vname};
use crate::error::{Error, ErrorKind, Result};
use crate::{AnyValue, AnyView, PackedFunc, Value};
use std::io::Write;
use std::sync::OnceLock;

/// Where `print` writes, when not to standard output: a function given the text.
static SINK: OnceLock<PackedFunc> = OnceLock::new();

/// Makes `print` hand its text to `sink` instead of writing it to standard output; the first
/// sink set stays (`false` when one was set already).
pub fn set_print_sink(sink: PackedFunc) -> bool {
    SINK.set(sink).is_ok()
}

/// `print(*values, sep=sep, end=end)`: `sep` and `end` are None (a space, a newline) or str.
pub fn print_values(values: &[AnyView<'_>], sep: AnyView<'_>, end: AnyView<'_>) -> Result<Slot> {
    let sep = text_arg("sep", sep, " ")?;
    let end = text_arg("end", end, "\n")?;
    let mut text = String::new();
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            text.push_str(&sep);
        }
        match v.value() {
            Value::Str(s) => text.push_str(s),
            _ => text.push_str(&to_str(*v)?),
        }
    }
    text.push_str(&end);
    write_text(&text)?;
    Ok(Slot::default())
}

/// `sep`/`end` as text: `default` for None, CPython's TypeError for anything but a str.
fn text_arg(name: &str, v: AnyView<'_>, default: &str) -> Result<String> {
    match v.value() {
        Value::None => Ok(default.to_string()),
        Value::Str(_) | Value::UStr(_) => to_str(v),
        other => Err(type_error(format!("{name} must be None or a string, not {}", vname(other)))),
    }
}

/// Writes `text` to the sink, or to standard output.
fn write_text(text: &str) -> Result<()> {
    if let Some(sink) = SINK.get() {
        return sink.call(&[AnyValue::from_text(text).view()]).map(drop);
    }
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| Error::new(ErrorKind::Io, format!("print(): {e}")))
}
