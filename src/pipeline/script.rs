//! anyscript functions outside pipeline files: source text or a JSON syntax tree in,
//! a `PackedFunc` out (what Python's `anyproc.script` builds on).

use super::ast::{FunctionDef, Module};
use super::compile::{Globals, Limits, compile, module_globals};
use super::interp::{as_packed_func, registers_func};
use super::parser::parse_module;
use crate::PackedFunc;
use crate::error::{Error, ErrorKind, Result};
use std::sync::Arc;

/// Compiles the `def`s of `source` and returns `entry` as a function value.
pub fn script(source: &str, entry: &str) -> Result<PackedFunc> {
    script_module(parse_module(source)?, entry, &Globals::new(), Limits::default())
}

/// Compiles the `def`s of `source` with `entry` first and returns the program's listing (what
/// `anyproc check` prints for a pipeline).
pub fn script_listing(source: &str, entry: &str) -> Result<String> {
    let functions = entry_first(parse_module(source)?, entry)?;
    Ok(compile(&functions, &Globals::new(), Limits::default(), &[])?.to_string())
}

/// Compiles a module given as JSON (the shape of [`Module`]) and returns `entry`.
pub fn script_json(json: &str, entry: &str) -> Result<PackedFunc> {
    script_json_with_limits(json, entry, Limits::default())
}

/// [`script`] whose program runs under `limits` instead of the defaults.
pub fn script_with_limits(source: &str, entry: &str, limits: Limits) -> Result<PackedFunc> {
    script_module(parse_module(source)?, entry, &Globals::new(), limits)
}

/// [`script_json`] whose program runs under `limits` instead of the defaults.
pub fn script_json_with_limits(json: &str, entry: &str, limits: Limits) -> Result<PackedFunc> {
    script_json_entries(json, entry, limits).map(|(func, _)| func)
}

/// [`script_json_with_limits`], and `entry` taking its registers as they are (a tuple for
/// `*args`, the keyword-only parameters, a dict for `**kwargs`: what a caller that binds
/// keywords itself passes).
pub fn script_json_entries(json: &str, entry: &str, limits: Limits) -> Result<(PackedFunc, PackedFunc)> {
    let module: Module = serde_json::from_str(json)
        .map_err(|e| Error::new(ErrorKind::Parse, format!("syntax tree JSON, line {}: {e}", e.line())))?;
    let globals = module_globals(&module, &Globals::new())?;
    let functions = entry_first(module, entry)?;
    let program = Arc::new(compile(&functions, &globals, limits, &[])?);
    Ok((as_packed_func(program.clone(), 0), registers_func(program, 0)))
}

/// Compiles `module` with `globals` and returns its function `entry` as a `PackedFunc`.
pub fn script_module(module: Module, entry: &str, globals: &Globals, limits: Limits) -> Result<PackedFunc> {
    let globals = module_globals(&module, globals)?;
    let functions = entry_first(module, entry)?;
    let program = compile(&functions, &globals, limits, &[])?;
    Ok(as_packed_func(Arc::new(program), 0))
}

/// The module's functions with `entry` moved first (the entry point is function 0).
fn entry_first(module: Module, entry: &str) -> Result<Vec<FunctionDef>> {
    let mut functions: Vec<FunctionDef> = module.functions;
    let at = functions
        .iter()
        .position(|f| f.name == entry)
        .ok_or_else(|| Error::new(ErrorKind::Key, format!("no function named '{entry}' in the script")))?;
    functions.swap(0, at);
    Ok(functions)
}
