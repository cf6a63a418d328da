//! The calls a malformed-script test makes of every function it manages to compile: values
//! of each kind, and wrong numbers of arguments. Shared, through `#[path]`, by
//! `tests/mutated_scripts.rs` and the fuzz targets (`fuzz/src/lib.rs`), so both probe alike.

use anyproc::{AnyValue, Dict, List, PackedFunc};

/// Calls `f` on values of each kind and with wrong numbers of arguments; results are ignored
/// (any value or error is fine, only a crash or a hang is a finding).
pub fn call_with_everything(f: &PackedFunc) {
    let mut dict = Dict::new();
    dict.set(AnyValue::from("k"), AnyValue::from(1i64));
    let args = [
        AnyValue::from("Hello wörld, the 3 quick foxes jumped. Ünïcode 日本 ok!"),
        AnyValue::from(""),
        AnyValue::from(List::from_iter([AnyValue::from("a"), AnyValue::from(2i64), AnyValue::none()])),
        AnyValue::from(-7i64),
        AnyValue::from(2.5f64),
        AnyValue::from(dict),
    ];
    for arg in &args {
        let _ = f.call(&[arg.view()]);
    }
    let _ = f.call(&[]);
    let _ = f.call(&[AnyValue::from(1i64).view(), AnyValue::from("two").view()]);
}
