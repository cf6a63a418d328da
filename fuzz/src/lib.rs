//! What the fuzz targets share: the limits and the arguments every compiled function is run on.

use anyproc::pipeline::compile::Limits;
use anyproc::{AnyValue, Dict, List, PackedFunc};

/// Small caps, so that a loop or a recursion the fuzzer writes ends quickly.
pub const LIMITS: Limits = Limits { while_limit: 100, max_depth: 16 };

/// Calls `f` on values of each kind and with wrong numbers of arguments; results are ignored
/// (any value or error is fine, only a crash or a hang is a finding).
pub fn call_with_everything(f: &PackedFunc) {
    let mut dict = Dict::new();
    dict.set(AnyValue::from("k"), AnyValue::from(1i64));
    let args = [
        AnyValue::from("Hello wörld, 3 quick foxes. 日本 ok!"),
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
    let _ = f.call(&[args[0].view(), args[3].view()]);
}
