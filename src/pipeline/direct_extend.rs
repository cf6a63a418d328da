//! Functions whose whole body builds a list of a parameter's elements, run without a frame.
//!
//! `def chars(word): out = []; for i in range(len(word)): out.append(word[i]); return out`
//! (the seed's `unicode_split_any`), `for c in s: out.append(c)` and `return [c for c in s]`
//! all compile to `out = []`, an [`Inst::ExtendEach`] of a parameter (with the loop as written
//! behind it, for values it does not apply to) and `return out`. Called once per word, such a
//! function spent more on its frame than on its body: copying the word into a register,
//! setting up and clearing the registers and loop slots, four dispatches. A [`DirectExtend`]
//! builds the list of a word's characters straight from the caller's argument instead. For any
//! other argument (long text, UCS4 text, a list, a value that is not iterable) the function
//! runs as interpreted, from its start, which is the same: nothing before the extend has an
//! effect anyone can see, and the extend does what the frameless form does.

use super::ir::{Function, Inst};
use crate::container::push_chars;
use crate::{AnyValue, AnyView, List};

/// A function body of the form `out = []; out.extend(param) as a loop would; return out`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirectExtend {
    /// The parameter whose elements are appended.
    param: u32,
}

impl DirectExtend {
    /// The frameless form of `f`, if its body is exactly a new list extended by a parameter's
    /// elements and returned.
    pub fn recognize(f: &Function) -> Option<DirectExtend> {
        let [Inst::BuildList { dst, items }, Inst::ExtendEach { list, seq, .. }, Inst::Jump { to }, ..] = f.code[..]
        else {
            return None;
        };
        let returns_the_list = matches!(f.code.get(to as usize), Some(Inst::Return { src }) if *src == dst);
        // A list built empty in a register other than the parameters', extended by a parameter.
        let fresh_list_of_param = items.len == 0 && list == dst && dst >= f.n_params && seq < f.n_params;
        (returns_the_list && fresh_list_of_param).then_some(DirectExtend { param: seq })
    }

    /// The list of the characters of the parameter in `params`, or `None` when the function
    /// must run as interpreted: the parameter is not UTF-8 text of at most [`SHORT_TEXT`] bytes
    /// (a word), the case worth running without a frame.
    #[inline]
    pub fn run(&self, params: &[AnyView<'_>]) -> Option<AnyValue> {
        let text = params.get(self.param as usize)?.as_str().filter(|t| t.len() <= SHORT_TEXT)?;
        // At most one element per byte: the list is made once, at its final size.
        let mut out = List::with_capacity(text.len());
        out.with_items_mut(|items| push_chars(items, text));
        Some(out.into_any())
    }

    /// The listing line `anyproc check` adds under the function.
    pub fn describe(&self, f: &Function) -> String {
        let name = f.reg_names.get(self.param as usize).cloned().flatten().unwrap_or_else(|| "?".into());
        format!("runs without a frame when {name} is a word: a new list of its characters")
    }
}

/// Text up to this many bytes runs without a frame. Longer text, where the room for its
/// characters may be refused (a `MemoryError`), runs as interpreted.
pub const SHORT_TEXT: usize = 4096;
