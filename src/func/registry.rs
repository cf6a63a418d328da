//! The global function registry, keyed by dotted names such as `text.lower`.

use super::packed::PackedFunc;
use super::typed::TypedFunc;
use crate::error::{Error, ErrorKind, Result};
use parking_lot::RwLock;
use std::collections::HashMap;
use std::sync::LazyLock;

/// A registered function with its signature and one-line doc.
#[derive(Clone, Debug)]
pub struct FuncInfo {
    /// The dotted name.
    pub name: String,
    /// The signature, as `(str, int) -> list`.
    pub signature: String,
    /// One line saying what it does.
    pub doc: String,
    /// The function.
    pub func: PackedFunc,
}

/// The set of registered functions; `registry()` gives the global one.
#[derive(Default)]
pub struct Registry {
    funcs: RwLock<HashMap<String, FuncInfo>>,
}

static GLOBAL: LazyLock<Registry> = LazyLock::new(|| {
    let reg = Registry::default();
    for register in crate::BUILTIN_REGISTRARS {
        if let Err(e) = register(&reg) {
            // Built-in names are fixed at compile time; a clash is a bug worth seeing, not a crash.
            eprintln!("anyproc: built-in registration failed: {e}");
        }
    }
    reg
});

/// The process-wide registry, with the built-in functions already in it.
pub fn registry() -> &'static Registry {
    &GLOBAL
}

/// A plain function op as an op family lists it: name, signature, doc, function.
pub type OpEntry = (&'static str, &'static str, &'static str, fn(&[crate::AnyView<'_>]) -> Result<crate::AnyValue>);

impl Registry {
    /// Registers each of `ops` (none may exist already).
    pub fn register_ops(&self, ops: &[OpEntry]) -> Result<()> {
        for &(name, signature, doc, f) in ops {
            self.register(name, signature, doc, PackedFunc::new(f), false)?;
        }
        Ok(())
    }

    /// Registers `func` under `name`; an existing name is an error unless `override_existing`.
    pub fn register(
        &self,
        name: &str,
        signature: &str,
        doc: &str,
        func: PackedFunc,
        override_existing: bool,
    ) -> Result<()> {
        if name.is_empty() {
            return Err(Error::value("function name must not be empty"));
        }
        let mut funcs = self.funcs.write();
        if !override_existing && funcs.contains_key(name) {
            return Err(Error::new(
                ErrorKind::Duplicate,
                format!("function {name:?} is already registered (pass override to replace it)"),
            ));
        }
        let info = FuncInfo { name: name.into(), signature: signature.into(), doc: doc.into(), func };
        funcs.insert(name.into(), info);
        Ok(())
    }

    /// Registers a typed Rust function; its signature is derived from its types.
    pub fn register_typed<Args, F: TypedFunc<Args>>(
        &self,
        name: &str,
        doc: &str,
        f: F,
        override_existing: bool,
    ) -> Result<()> {
        let signature = F::signature();
        self.register(name, &signature, doc, PackedFunc::from_typed(name, f), override_existing)
    }

    /// The function registered under `name`.
    pub fn get(&self, name: &str) -> Result<PackedFunc> {
        if let Some(info) = self.funcs.read().get(name) {
            return Ok(info.func.clone());
        }
        let mut msg = format!("no function named {name:?} is registered");
        if let Some(near) = self.closest_name(name) {
            msg.push_str(&format!("; did you mean {near:?}?"));
        }
        Err(Error::new(ErrorKind::Key, msg))
    }

    /// Everything known about `name`.
    pub fn info(&self, name: &str) -> Option<FuncInfo> {
        self.funcs.read().get(name).cloned()
    }

    /// Removes `name`; returns whether it was there.
    pub fn remove(&self, name: &str) -> bool {
        self.funcs.write().remove(name).is_some()
    }

    /// Every registered function, sorted by name.
    pub fn list(&self) -> Vec<FuncInfo> {
        let mut all: Vec<FuncInfo> = self.funcs.read().values().cloned().collect();
        all.sort_by(|a, b| a.name.cmp(&b.name));
        all
    }

    fn closest_name(&self, name: &str) -> Option<String> {
        let funcs = self.funcs.read();
        funcs
            .keys()
            .map(|k| (edit_distance(k, name), k))
            .filter(|(d, k)| *d <= (k.len().max(name.len()) / 3).max(1))
            .min()
            .map(|(_, k)| k.clone())
    }
}

/// Levenshtein distance by characters, for did-you-mean suggestions.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (diag + usize::from(ca != cb)).min(row[j] + 1).min(row[j + 1] + 1);
            diag = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// Registers `func` in the global registry.
pub fn register_func(name: &str, signature: &str, doc: &str, func: PackedFunc, override_existing: bool) -> Result<()> {
    registry().register(name, signature, doc, func, override_existing)
}

/// The global function registered under `name`.
pub fn get_global_func(name: &str) -> Result<PackedFunc> {
    registry().get(name)
}

/// Every global function, sorted by name.
pub fn list_global_funcs() -> Vec<FuncInfo> {
    registry().list()
}

#[cfg(test)]
mod tests {
    use super::edit_distance;

    #[test]
    fn edit_distance_matches_hand_computed_cases() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("testing.nop", "testing.nop"), 0);
        assert_eq!(edit_distance("testing.nop", "testing.nap"), 1);
    }
}
