//! Typed registration: plain Rust functions and closures become packed functions.
//!
//! Each argument is unboxed with `FromAny`; a bad one reads
//! `NAME: argument I: expected T, got U`.

use super::packed::PackedFunc;
use crate::any::{AnyValue, AnyView, FromAny, unbox};
use crate::container::{Dict, List};
use crate::error::{Error, ErrorKind, Result};
use crate::string::{Bytes, Str, UStr};

/// A return type of a typed function.
pub trait IntoAnyResult {
    /// The type's name in signatures.
    fn type_name() -> String;
    /// Converts the return value, keeping an error as it is.
    fn into_any_result(self) -> Result<AnyValue>;
}

macro_rules! into_any_result {
    ($($t:ty => $name:expr),* $(,)?) => {$(
        impl IntoAnyResult for $t {
            fn type_name() -> String { $name.into() }
            fn into_any_result(self) -> Result<AnyValue> { Ok(self.into()) }
        }
        impl IntoAnyResult for Result<$t> {
            fn type_name() -> String { $name.into() }
            fn into_any_result(self) -> Result<AnyValue> { self.map(Into::into) }
        }
    )*};
}

into_any_result!(AnyValue => "any", i64 => "int", i32 => "int", f64 => "float", bool => "bool", () => "None",
    String => "str", &'static str => "str", Str => "str", UStr => "str", Bytes => "bytes", List => "list",
    Dict => "dict", PackedFunc => "func", Option<i64> => "int | None", Option<String> => "str | None",
    Option<AnyValue> => "any");

/// A Rust callable whose arguments are the tuple `Args`.
pub trait TypedFunc<Args>: Send + Sync + 'static {
    /// The argument type names, in order.
    fn arg_types() -> Vec<String>;
    /// The return type name.
    fn ret_type() -> String;
    /// Checks the arity, unboxes the arguments and calls; errors carry `name`.
    fn invoke(&self, name: &str, args: &[AnyView<'_>]) -> Result<AnyValue>;
    /// The signature, as `(str, int) -> list`.
    fn signature() -> String {
        format!("({}) -> {}", Self::arg_types().join(", "), Self::ret_type())
    }
}

fn arity_error(name: &str, expected: usize, got: usize) -> Error {
    let s = if expected == 1 { "" } else { "s" };
    Error::new(ErrorKind::Arity, format!("expected {expected} argument{s}, got {got}")).context(name)
}

fn arg<T: FromAny>(name: &str, args: &[AnyView<'_>], i: usize) -> Result<T> {
    unbox::<T>(&args[i]).map_err(|e| e.context(format!("argument {i}")).context(name))
}

macro_rules! impl_typed_func {
    ($n:literal; $($a:ident $i:tt),*) => {
        impl<F, R, $($a),*> TypedFunc<($($a,)*)> for F
        where
            F: Fn($($a),*) -> R + Send + Sync + 'static,
            R: IntoAnyResult,
            $($a: FromAny,)*
        {
            fn arg_types() -> Vec<String> {
                vec![$($a::type_name()),*]
            }
            fn ret_type() -> String {
                R::type_name()
            }
            #[allow(unused_variables)]
            fn invoke(&self, name: &str, args: &[AnyView<'_>]) -> Result<AnyValue> {
                if args.len() != $n {
                    return Err(arity_error(name, $n, args.len()));
                }
                self($(arg::<$a>(name, args, $i)?),*).into_any_result().map_err(|e| e.context(name))
            }
        }
    };
}

impl_typed_func!(0;);
impl_typed_func!(1; A0 0);
impl_typed_func!(2; A0 0, A1 1);
impl_typed_func!(3; A0 0, A1 1, A2 2);
impl_typed_func!(4; A0 0, A1 1, A2 2, A3 3);
impl_typed_func!(5; A0 0, A1 1, A2 2, A3 3, A4 4);
impl_typed_func!(6; A0 0, A1 1, A2 2, A3 3, A4 4, A5 5);

impl PackedFunc {
    /// Wraps a typed Rust function; `name` prefixes its errors.
    pub fn from_typed<Args, F: TypedFunc<Args>>(name: &str, f: F) -> Self {
        let name = name.to_string();
        PackedFunc::new(move |args| f.invoke(&name, args))
    }
}
