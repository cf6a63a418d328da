//! anyscript source text: parse, compile and run whatever parses.

#![no_main]

use anyproc::pipeline::compile::Globals;
use anyproc::pipeline::parser::parse_module;
use anyproc::pipeline::script::script_module;
use anyproc_fuzz::{LIMITS, call_with_everything};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else { return };
    let Ok(module) = parse_module(source) else { return };
    let Some(entry) = module.functions.first().map(|f| f.name.clone()) else { return };
    if let Ok(f) = script_module(module, &entry, &Globals::new(), LIMITS) {
        call_with_everything(&f);
    }
});
