//! TEMP
#![allow(unused)]
use super::Slot;
use crate::{AnyView, Result};
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Append,
    Lower,
}
impl Method {
    pub fn from_name(name: &str) -> Option<Method> {
        todo!()
    }
    pub fn name(self) -> &'static str {
        todo!()
    }
    pub fn arity(self) -> (usize, usize) {
        todo!()
    }
}
pub fn call_method(method: Method, obj: AnyView<'_>, args: &[AnyView<'_>]) -> Result<Slot> {
    todo!()
}
