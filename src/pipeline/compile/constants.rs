//! Constant expressions: default parameter values and module constants, evaluated once when a
//! module is compiled, and the set displays CPython folds into a frozenset.

use super::{FnCompiler, Globals, err};
use crate::error::{ErrorKind, Result};
use crate::pipeline::Slot;
use crate::pipeline::ast::{Expr, Literal, Module, UnaryOp};
use crate::pipeline::set_ops::SetLayout;
use crate::{Dict, List, Tuple};

/// The value of a default parameter value: a literal, a negated number, a list, tuple, set or
/// dict display of such, or `set(...)`/`frozenset(...)` of one; `None` for anything else.
pub(crate) fn constant_value(e: &Expr) -> Option<Slot> {
    Some(match e {
        Expr::Const { value } => FnCompiler::literal(value),
        Expr::UnaryOp { op: UnaryOp::Neg, operand } => match operand.as_ref() {
            Expr::Const { value: Literal::Int(i) } => Slot::from(i.checked_neg()?),
            Expr::Const { value: Literal::Float(x) } => Slot::from(-x),
            _ => return None,
        },
        Expr::UnaryOp { op: UnaryOp::Pos, operand } => match operand.as_ref() {
            Expr::Const { value: Literal::Int(_) | Literal::Float(_) } => constant_value(operand)?,
            _ => return None,
        },
        Expr::List { items } => List::from_vec(constant_items(items)?).into(),
        Expr::Tuple { items } => Tuple::from_vec(constant_items(items)?).into(),
        Expr::Set { items } => {
            let items = items.iter().map(|i| constant_value(i).map(Slot::resize::<0>)).collect::<Option<Vec<_>>>()?;
            let layout = if items.len() > 2 { SetLayout::Copied } else { SetLayout::Added };
            crate::pipeline::set_ops::build_set(items.into_iter(), layout).ok()?.into()
        }
        Expr::Dict { keys, values } => {
            let mut d = Dict::new();
            for (k, v) in keys.iter().zip(values) {
                d.try_set(constant_value(k.as_ref()?)?.resize(), constant_value(v)?.resize(), "a default value")
                    .ok()?;
            }
            d.into_any().resize()
        }
        Expr::Call { func, args, keywords } if keywords.is_empty() && is_re_compile(func) => {
            // `WORDS = re.compile(r"\w+", re.I)`: compiled once, as the module is.
            let args = args.iter().map(|a| constant_value(a).or_else(|| re_flags(a))).collect::<Option<Vec<_>>>()?;
            let views: Vec<_> = args.iter().map(Slot::view).collect();
            let f = crate::func::registry().get("re.compile").ok()?;
            Slot::from(f.call(&views).ok()?)
        }
        Expr::Call { func, args, keywords } if is_namedtuple(func) => {
            // `Point = collections.namedtuple("Point", ["x", "y"], defaults=[0])`: the class,
            // made once with the module, so that its fields are known where attributes compile.
            let mut values: Vec<Option<Slot>> =
                args.iter().map(|a| constant_value(a).map(Some)).collect::<Option<_>>()?;
            values.resize(5, None);
            for k in keywords {
                let at =
                    ["typename", "field_names", "rename", "defaults", "module"].iter().position(|n| *n == k.arg)?;
                values[at] = Some(constant_value(&k.value)?);
            }
            let [Some(typename), Some(fields), rename, defaults, _] = &values[..] else { return None };
            let rename = rename.as_ref().is_some_and(|r| crate::pipeline::value_ops::truthy(r.view()));
            let defaults = defaults.as_ref().map(Slot::value).filter(|d| !matches!(d, crate::Value::None));
            let class =
                crate::pipeline::named_tuple_ops::namedtuple(typename.view(), fields.value(), rename, defaults).ok()?;
            Slot::from(class.func())
        }
        Expr::Call { func, args, keywords } if keywords.is_empty() && args.len() <= 1 => {
            // `set()` and `frozenset({...})`, the sets a display cannot write.
            let make = match func.as_ref() {
                Expr::Name { id } if id == "set" => crate::pipeline::set_ops::set_builtin,
                Expr::Name { id } if id == "frozenset" => crate::pipeline::set_ops::frozenset_builtin,
                _ => return None,
            };
            let arg = match args.first() {
                Some(a) => Some(constant_value(a)?),
                None => None,
            };
            make(arg.as_ref().map(Slot::view).as_ref()).ok()?
        }
        _ => return None,
    })
}

/// Whether `func` is `collections.namedtuple`.
fn is_namedtuple(func: &Expr) -> bool {
    match func {
        Expr::Attribute { value, attr } => {
            attr == "namedtuple" && matches!(value.as_ref(), Expr::Name { id } if id == "collections")
        }
        _ => false,
    }
}

/// Whether `func` is `re.compile`.
fn is_re_compile(func: &Expr) -> bool {
    matches!(func, Expr::Attribute { value, attr } if attr == "compile" && matches!(value.as_ref(), Expr::Name { id } if id == "re"))
}

/// `re.I`, `re.I | re.M`: the flags of a constant pattern.
fn re_flags(e: &Expr) -> Option<Slot> {
    match e {
        Expr::Attribute { value, attr } if matches!(value.as_ref(), Expr::Name { id } if id == "re") => {
            crate::ops::re::flag(&format!("re.{attr}")).map(Slot::from)
        }
        Expr::BinOp { op: crate::pipeline::ast::BinOp::BitOr, left, right } => {
            let (a, b) = (re_flags(left)?.value().as_int()?, re_flags(right)?.value().as_int()?);
            Some(Slot::from(a | b))
        }
        _ => constant_value(e),
    }
}

/// The values of constant `items`, or `None` when one is not a constant.
fn constant_items(items: &[Expr]) -> Option<Vec<crate::AnyValue>> {
    items.iter().map(|i| constant_value(i).map(Slot::resize::<0>)).collect()
}

/// Whether CPython 3.11's AST optimizer folds `e` into a constant (a literal, an operator on
/// such, a tuple of such): a set display of more than two of them is compiled to a frozenset.
pub(super) fn is_folded_constant(e: &Expr) -> bool {
    match e {
        Expr::Const { .. } => true,
        Expr::UnaryOp { operand, .. } => is_folded_constant(operand),
        Expr::BinOp { left, right, .. } => is_folded_constant(left) && is_folded_constant(right),
        Expr::Tuple { items } => items.iter().all(is_folded_constant),
        _ => false,
    }
}

/// `base` with the module's constants added (`NAME = value` at its top level): each evaluated
/// once, so that every function reads the same object, as Python's functions read a module's
/// global; an error naming the line for a value that is not a constant.
pub fn module_globals(module: &Module, base: &Globals) -> Result<Globals> {
    let mut globals = base.clone();
    for c in &module.constants {
        let value = constant_value(&c.value).ok_or_else(|| {
            err(
                c.line,
                ErrorKind::Parse,
                format!(
                    "the module constant '{}' must be a constant (a literal, a negative number, a list, tuple, \
                     dict or set of such, re.compile of a literal pattern, or collections.namedtuple of literals)",
                    c.name
                ),
            )
        })?;
        globals.insert(c.name.clone(), value);
    }
    Ok(globals)
}
