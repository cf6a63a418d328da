//! TEMP
#![allow(unused)]
use super::ast::*;
pub fn parse_module(src: &str) -> crate::Result<Module> {
    todo!()
}
pub fn parse_expr(src: &str) -> crate::Result<Expr> {
    todo!()
}
