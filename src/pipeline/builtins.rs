//! TEMP
#![allow(unused)]
use super::Slot;
use crate::{AnyView, Result};
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    Len,
}
impl Builtin {
    pub fn from_name(name: &str) -> Option<Builtin> {
        todo!()
    }
    pub fn name(self) -> &'static str {
        todo!()
    }
    pub fn arity(self) -> (usize, usize) {
        todo!()
    }
}
pub fn call_builtin(b: Builtin, args: &[AnyView<'_>]) -> Result<Slot> {
    todo!()
}
