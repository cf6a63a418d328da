//! String formatting as CPython 3.11 does it: `format(value, spec)` with the format-spec
//! mini-language, `str.format(*args)`, printf-style `str % args` and `ascii()`.
//!
//! f-strings lower to these: `f"{x:>8.3f}"` is `format(x, ">8.3f")`.

mod fields;
mod float;
mod layout;
mod percent;
mod spec;
mod value;

pub(crate) use fields::str_format;
pub(crate) use layout::text_with_room;
pub(crate) use percent::percent_format;
pub(crate) use value::{ascii_of, format_value};
