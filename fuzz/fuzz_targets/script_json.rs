//! anyscript syntax trees as JSON (what Python's `anyproc.script` sends): trees the parser never
//! makes must still be refused or run, never crash the compiler or the interpreter.

#![no_main]

use anyproc::pipeline::ast::Module;
use anyproc::pipeline::compile::Globals;
use anyproc::pipeline::script::script_module;
use anyproc_fuzz::{LIMITS, call_with_everything};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(module) = serde_json::from_slice::<Module>(data) else { return };
    let Some(entry) = module.functions.first().map(|f| f.name.clone()) else { return };
    if let Ok(f) = script_module(module, &entry, &Globals::new(), LIMITS) {
        call_with_everything(&f);
    }
});
