//! TEMP interface stub (replaced by the real module).
#![allow(unused)]
use super::Slot;
use super::ast::{BinOp, CmpOp, UnaryOp};
use crate::{AnyView, Result};
pub fn truthy(v: AnyView<'_>) -> bool {
    todo!()
}
pub fn unary(op: UnaryOp, v: AnyView<'_>) -> Result<Slot> {
    todo!()
}
pub fn binary(op: BinOp, a: AnyView<'_>, b: AnyView<'_>) -> Result<Slot> {
    todo!()
}
pub fn compare(op: CmpOp, a: AnyView<'_>, b: AnyView<'_>) -> Result<bool> {
    todo!()
}
pub fn get_item(obj: AnyView<'_>, key: AnyView<'_>) -> Result<Slot> {
    todo!()
}
pub fn set_item(obj: AnyView<'_>, key: AnyView<'_>, value: AnyView<'_>) -> Result<()> {
    todo!()
}
pub fn slice(obj: AnyView<'_>, lower: AnyView<'_>, upper: AnyView<'_>, step: AnyView<'_>) -> Result<Slot> {
    todo!()
}
pub fn type_name(v: AnyView<'_>) -> &'static str {
    todo!()
}
