//! Short constructors of register values for the unit tests of the value operations,
//! builtins and methods, so that expected cases read like the Python they mirror.

use super::Slot;
use crate::{Dict, List};

/// A UTF-8 string.
pub fn s(x: &str) -> Slot {
    Slot::from_text(x)
}

/// The same text as a UCS4 string.
pub fn u(x: &str) -> Slot {
    Slot::from_text_ucs4(x)
}

/// An int.
pub fn i(x: i64) -> Slot {
    Slot::from_int(x)
}

/// A float.
pub fn f(x: f64) -> Slot {
    Slot::from_float(x)
}

/// A bool.
pub fn b(x: bool) -> Slot {
    Slot::from_bool(x)
}

/// None.
pub fn none() -> Slot {
    Slot::none()
}

/// A list of the values.
pub fn list(items: Vec<Slot>) -> Slot {
    List::from_vec(items.into_iter().map(|x| x.resize::<0>()).collect()).into()
}

/// A tuple of the values.
pub fn tuple(items: Vec<Slot>) -> Slot {
    crate::Tuple::from_vec(items.into_iter().map(|x| x.resize::<0>()).collect()).into()
}

/// A dict of the pairs, in order.
pub fn dict(items: Vec<(Slot, Slot)>) -> Slot {
    items.into_iter().map(|(k, v)| (k.resize::<0>(), v.resize::<0>())).collect::<Dict>().into()
}

/// `repr(recv.name(*args))`, or the error's message: what the method tests compare.
pub fn method_repr(recv: &str, name: &str, args: &[Slot]) -> String {
    use super::methods::{Method, call_method};
    let views: Vec<_> = args.iter().map(|a| a.view()).collect();
    let method = Method::from_name(name).expect(name);
    call_method(method, s(recv).view(), &views)
        .map_or_else(|e| e.message().to_string(), |v| super::value_ops::repr_value(v.value()))
}

/// A call's result as its repr, or its error as `Kind: message`: what the op tests compare.
pub fn outcome(r: crate::Result<Slot>) -> String {
    match r {
        Ok(v) => super::value_ops::repr_value(v.value()),
        Err(e) => format!("{:?}: {}", e.kind(), e.message()),
    }
}

/// The str a script's `main()` returns, `body` being its indented lines; an error as
/// `Kind: message`.
pub fn run_main(body: &str) -> String {
    let src = format!("def main():\n{}", body.lines().map(|l| format!("    {l}\n")).collect::<String>());
    let f = crate::pipeline::script(&src, "main").unwrap();
    match f.call(&[]) {
        Ok(v) => v.value().as_str().expect("main returns a str").to_string(),
        Err(e) => format!("{:?}: {}", e.kind(), e.message()),
    }
}
