//! A `def`'s parameter list, every kind Python has: `def f(a, /, b=1, *args, c, d=2, **kwargs)`.
//! CPython's grammar errors are reported at the token where it reports them.

use super::super::ast::{Expr, ExtraParams};
use super::super::lexer::{Tok, Token};
use super::{Parser, Result, not_supported};

/// What a `def`'s parentheses declare.
pub(super) struct DefParams {
    /// The positional parameters (positional-only ones first).
    pub params: Vec<String>,
    /// The defaults of the last of them.
    pub defaults: Vec<Expr>,
    /// `/`, `*args`, keyword-only parameters and `**kwargs`.
    pub extra: ExtraParams,
}

impl Parser {
    /// After `def name(`: its parameters, up to and including `)`.
    pub(super) fn def_params(&mut self) -> Result<DefParams> {
        let mut out = DefParams { params: Vec::new(), defaults: Vec::new(), extra: ExtraParams::default() };
        // Every name declared so far, for the duplicate check.
        let mut names: Vec<String> = Vec::new();
        let mut star: Option<Token> = None;
        while !self.eat_op(")") {
            let at = self.token().clone();
            if out.extra.kwarg.is_some() {
                return Err(self.error("arguments cannot follow var-keyword argument"));
            }
            if self.eat_op("/") {
                if star.is_some() {
                    return Err(self.error_at(&at, "/ must be ahead of *"));
                }
                if out.params.is_empty() {
                    return Err(self.error_at(&at, "at least one argument must precede /"));
                }
                if out.extra.posonly > 0 {
                    return Err(self.error_at(&at, "/ may appear only once"));
                }
                out.extra.posonly = out.params.len() as u32;
            } else if self.eat_op("**") {
                let name = self.plain_param()?;
                out.extra.kwarg = Some(self.declare(&mut names, name, &at)?);
            } else if self.eat_op("*") {
                if star.is_some() {
                    return Err(self.error_at(&at, "* argument may appear only once"));
                }
                star = Some(at.clone());
                if matches!(self.peek(), Tok::Name(_)) {
                    let name = self.plain_param()?;
                    out.extra.vararg = Some(self.declare(&mut names, name, &at)?);
                } else if matches!(self.peek(), Tok::Op(")")) || self.is_op(",") && self.next_is_close() {
                    return Err(self.error_at(&at, "named arguments must follow bare *"));
                }
            } else {
                let name = self.plain_param()?;
                let default = self.param_default()?;
                // Checked after the default, so that `def f(a=1, a)` reports the missing default
                // first, as CPython does (its duplicate check runs after parsing).
                let name = if star.is_some() || default.is_some() || out.defaults.is_empty() {
                    self.declare(&mut names, name, &at)?
                } else {
                    name
                };
                if star.is_some() {
                    out.extra.kwonly.push(name);
                    out.extra.kw_defaults.push(default);
                } else {
                    match default {
                        Some(d) => out.defaults.push(d),
                        None if !out.defaults.is_empty() => {
                            return Err(self.error_at(&at, "non-default argument follows default argument"));
                        }
                        None => {}
                    }
                    out.params.push(name);
                }
            }
            if !self.eat_op(",") {
                self.expect_op(")", "expected ',' or ')' in the parameter list")?;
                break;
            }
        }
        if let Some(at) = star.filter(|_| out.extra.vararg.is_none() && out.extra.kwonly.is_empty()) {
            return Err(self.error_at(&at, "named arguments must follow bare *"));
        }
        Ok(out)
    }

    /// Whether the token after the current `,` closes the list (`def f(*, )`).
    fn next_is_close(&self) -> bool {
        matches!(self.peek_nth(1), Tok::Op(")"))
    }

    /// A parameter's name; annotations are refused.
    fn plain_param(&mut self) -> Result<String> {
        let name = self.identifier("expected a parameter name")?;
        if self.is_op(":") {
            return Err(self.error(not_supported("parameter annotations are")));
        }
        Ok(name)
    }

    /// `name`, read at `at`, added to the `names` declared so far unless it is one of them.
    fn declare(&self, names: &mut Vec<String>, name: String, at: &Token) -> Result<String> {
        if names.contains(&name) {
            return Err(self.error_at(at, format!("duplicate parameter '{name}' in function definition")));
        }
        names.push(name.clone());
        Ok(name)
    }

    /// `= value` after a parameter's name, if there is one.
    fn param_default(&mut self) -> Result<Option<Expr>> {
        if !self.is_op("=") {
            return Ok(None);
        }
        let eq = self.take();
        if !super::starts_expr(self.peek()) {
            return Err(self.error_at(&eq, "expected default value expression"));
        }
        Ok(Some(self.test()?))
    }
}

#[cfg(test)]
mod tests {
    use crate::pipeline::ast::{Expr, ExtraParams, Literal};
    use crate::pipeline::parser::parse_module;

    #[test]
    fn every_kind_of_parameter_is_read() {
        let m = parse_module("def f(a, /, b=1, *args, c, d=2, **kw):\n    pass\n").unwrap();
        let f = &m.functions[0];
        assert_eq!(f.params, ["a", "b"]);
        assert_eq!(f.defaults, [Expr::Const { value: Literal::Int(1) }]);
        let extra = ExtraParams {
            posonly: 1,
            vararg: Some("args".into()),
            kwonly: vec!["c".into(), "d".into()],
            kw_defaults: vec![None, Some(Expr::Const { value: Literal::Int(2) })],
            kwarg: Some("kw".into()),
        };
        assert_eq!(f.extra, extra);
        assert_eq!(f.registers(), ["a", "b", "args", "c", "d", "kw"]);
        let bare = parse_module("def g(*, k):\n    pass\n").unwrap();
        assert_eq!(
            (bare.functions[0].extra.vararg.as_ref(), &bare.functions[0].extra.kwonly[..]),
            (None, &["k".into()][..])
        );
    }
}
