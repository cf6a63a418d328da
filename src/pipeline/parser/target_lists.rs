//! Comma-separated lists: assignment and `for` targets, and the tuples and starred items of displays.

use super::super::ast::{Expr, Target};
use super::super::lexer::Token;
use super::{BP_CMP, Parser, Result, boxed, starts_expr};

impl Parser {
    /// The target of `for` or of a comprehension: `expr (',' expr)*`, stopping before `in`.
    pub(super) fn target_list(&mut self) -> Result<Target> {
        let at = self.token().clone();
        let first = self.target_item()?;
        if !self.is_op(",") {
            return self.target(first, &at);
        }
        let mut items = vec![first];
        while self.eat_op(",") && !self.is_kw("in") {
            items.push(self.target_item()?);
        }
        self.target(Expr::Tuple { items }, &at)
    }

    fn target_item(&mut self) -> Result<Expr> {
        if self.eat_op("*") {
            return Ok(Expr::Starred { value: boxed(self.expr_bp(BP_CMP + 1)?) });
        }
        self.expr_bp(BP_CMP + 1)
    }

    /// A statement's first `testlist`, whose items may be `*target` when it is assigned to
    /// (`first, *rest = words`); the token of the first star, if any.
    pub(super) fn target_testlist(&mut self) -> Result<(Expr, Option<Token>)> {
        let mut star = None;
        let mut item = |p: &mut Self| {
            if p.is_op("*") {
                star.get_or_insert_with(|| p.token().clone());
                return p.target_item();
            }
            p.test()
        };
        let first = item(self)?;
        if !self.is_op(",") {
            return Ok((first, star));
        }
        let mut items = vec![first];
        while self.eat_op(",") && (starts_expr(self.peek()) || self.is_op("*")) {
            items.push(item(self)?);
        }
        Ok((Expr::Tuple { items }, star))
    }

    /// `test (',' test)* [',']`: several make a tuple, as after `return` or `=`.
    pub(super) fn testlist(&mut self) -> Result<Expr> {
        let at = self.token().clone();
        let first = self.display_item(false)?;
        if !self.is_op(",") {
            if matches!(first, Expr::Starred { .. }) {
                return Err(self.error_at(&at, "can't use starred expression here"));
            }
            return Ok(first);
        }
        let mut items = vec![first];
        while self.eat_op(",") && (starts_expr(self.peek()) || self.is_op("*")) {
            items.push(self.display_item(false)?);
        }
        Ok(Expr::Tuple { items })
    }

    /// An item of a display or of a bare tuple: `*value` (whose items it adds), or a `test` (a
    /// `named_test` where `named`).
    pub(super) fn display_item(&mut self, named: bool) -> Result<Expr> {
        match self.is_op("*") {
            true => self.target_item(),
            false if named => self.named_test(),
            false => self.test(),
        }
    }

    /// On `*`: a display that starts with `*value`, up to and including `close` (`[*a, b]`,
    /// `(*a,)`, `{*a}`). Kept out of the functions that nest displays, whose stack frames bound
    /// how deep [`MAX_DEPTH`] can be: Python takes `*value` only among a display's items, not as
    /// a comprehension's element nor alone in parentheses.
    #[cold]
    #[inline(never)]
    pub(super) fn starred_display(&mut self, close: &str, what: &str) -> Result<Vec<Expr>> {
        let at = self.pos;
        let first = self.target_item()?;
        if self.is_kw("for") {
            return Err(self.error_at(&self.toks[at], "iterable unpacking cannot be used in comprehension"));
        }
        if close == ")" && self.is_op(")") {
            return Err(self.error_at(&self.toks[at], "cannot use starred expression here"));
        }
        self.rest_of_sequence(first, close, what)
    }
}
