//! Atoms: names, literals, parenthesised expressions, list/set/dict displays and comprehensions.

use super::super::ast::{CompFor, Expr, Literal, Target};
use super::super::lexer::{INT_LITERAL_MAX, Tok, is_keyword};
use super::{BP_CMP, Parser, Result, UNSUPPORTED_KEYWORDS, boxed, describe, not_supported};

impl Parser {
    pub(super) fn atom(&mut self) -> Result<Expr> {
        let value = match self.peek() {
            Tok::Name(n) if !is_keyword(n) => {
                let id = n.clone();
                self.bump();
                return Ok(Expr::Name { id });
            }
            Tok::Name(n) if n == "True" => Literal::Bool(true),
            Tok::Name(n) if n == "False" => Literal::Bool(false),
            Tok::Name(n) if n == "None" => Literal::None,
            Tok::Int(v) if *v < INT_LITERAL_MAX => Literal::Int(*v as i64),
            Tok::Float(f) => Literal::Float(*f),
            Tok::Str(_) | Tok::FStr(_) => return self.string_literals(),
            Tok::Bytes(_) => return self.bytes_literals(),
            Tok::Op("(") => return self.parenthesised(),
            Tok::Op("[") => return self.list(),
            Tok::Op("{") => return self.braces(),
            _ => return Err(self.atom_error()),
        };
        self.bump();
        Ok(Expr::Const { value })
    }

    /// Why the token under the cursor cannot start an expression (kept out of `atom`, whose frame is on every
    /// level of nesting).
    #[cold]
    #[inline(never)]
    fn atom_error(&self) -> crate::Error {
        match self.peek() {
            Tok::Int(_) => self.error("integer literal too large (the limit is 2**63 - 1)"),
            Tok::Name(n) if n == "yield" => {
                self.error(not_supported("'yield' as an expression (only as a statement, `yield x`) is"))
            }
            Tok::Name(n) if is_keyword(n) && !UNSUPPORTED_KEYWORDS.contains(&n.as_str()) => {
                self.error(format!("expected an expression, found '{n}'"))
            }
            Tok::Name(_) | Tok::Op(":=" | "@" | "...") => self.unexpected(),
            tok => self.error(format!("expected an expression, found {}", describe(tok))),
        }
    }

    /// `()`, `(x)`, `(x,)`, `(x, y)`, `(elt for target in iter if cond)`.
    fn parenthesised(&mut self) -> Result<Expr> {
        self.bump();
        if self.eat_op(")") {
            return Ok(Expr::Tuple { items: Vec::new() });
        }
        if self.is_op("*") {
            return self.starred_display(")", "a tuple").map(|items| Expr::Tuple { items });
        }
        let first = self.named_test()?;
        if self.is_kw("for") {
            return self.generator_expression(first);
        }
        if self.eat_op(")") {
            return Ok(first);
        }
        let items = self.rest_of_sequence(first, ")", "a tuple")?;
        Ok(Expr::Tuple { items })
    }

    /// `[]`, `[x, y]`, `[elt for target in iter if cond]`.
    fn list(&mut self) -> Result<Expr> {
        self.bump();
        if self.eat_op("]") {
            return Ok(Expr::List { items: Vec::new() });
        }
        if self.is_op("*") {
            return self.starred_display("]", "a list").map(|items| Expr::List { items });
        }
        let first = self.named_test()?;
        if self.is_kw("for") {
            return self.list_comprehension(first);
        }
        let items = self.rest_of_sequence(first, "]", "a list")?;
        Ok(Expr::List { items })
    }

    /// The items after `first` up to and including `close`: `(',' test)* [','] close`.
    pub(super) fn rest_of_sequence(&mut self, first: Expr, close: &str, what: &str) -> Result<Vec<Expr>> {
        let mut items = vec![first];
        while !self.eat_op(close) {
            self.expect_op(",", &format!("expected ',' or '{close}' in {what}"))?;
            if self.eat_op(close) {
                break;
            }
            items.push(self.display_item(true)?);
        }
        Ok(items)
    }

    /// After `[elt`, on `for`: the rest of a list comprehension, up to and including `]`.
    fn list_comprehension(&mut self, elt: Expr) -> Result<Expr> {
        let (target, iter, ifs) = self.comprehension_clause()?;
        let more = self.more_for_clauses()?;
        self.close_comprehension("]")?;
        Ok(Expr::ListComp { elt: boxed(elt), target: Box::new(target), iter: boxed(iter), ifs, more })
    }

    /// After `(elt`, on `for`: the rest of a generator expression, up to and including `)`.
    fn generator_expression(&mut self, elt: Expr) -> Result<Expr> {
        let (target, iter, ifs) = self.comprehension_clause()?;
        let more = self.more_for_clauses()?;
        self.close_comprehension(")")?;
        Ok(Expr::GeneratorExp { elt: boxed(elt), target: Box::new(target), iter: boxed(iter), ifs, more })
    }

    /// After `{elt`, on `for`: the rest of a set comprehension, up to and including `}`.
    fn set_comprehension(&mut self, elt: Expr) -> Result<Expr> {
        let (target, iter, ifs) = self.comprehension_clause()?;
        let more = self.more_for_clauses()?;
        self.close_comprehension("}")?;
        Ok(Expr::SetComp { elt: boxed(elt), target: Box::new(target), iter: boxed(iter), ifs, more })
    }

    /// After `{key: value`, on `for`: the rest of a dict comprehension, up to and including `}`.
    fn dict_comprehension(&mut self, key: Expr, value: Expr) -> Result<Expr> {
        let (target, iter, ifs) = self.comprehension_clause()?;
        let more = self.more_for_clauses()?;
        self.close_comprehension("}")?;
        Ok(Expr::DictComp {
            key: boxed(key),
            value: boxed(value),
            target: Box::new(target),
            iter: boxed(iter),
            ifs,
            more,
        })
    }

    /// On `for`: `for target in iter (if cond)*`, a comprehension's `for` clause and its conditions.
    pub(super) fn comprehension_clause(&mut self) -> Result<(Target, Expr, Vec<Expr>)> {
        self.bump();
        let target = self.target_list()?;
        self.expect_kw("in", "expected 'in' after the comprehension target")?;
        // `or_test`, not `test`: an `if` here starts a filter, not a conditional expression.
        let iter = self.or_test()?;
        let mut ifs = Vec::new();
        while self.eat_kw("if") {
            ifs.push(self.or_test()?);
        }
        Ok((target, iter, ifs))
    }

    /// The `for` clauses after a comprehension's first, each with its conditions.
    pub(super) fn more_for_clauses(&mut self) -> Result<Vec<CompFor>> {
        let mut more = Vec::new();
        while self.is_kw("for") {
            let (target, iter, ifs) = self.comprehension_clause()?;
            more.push(CompFor { target, iter, ifs });
        }
        Ok(more)
    }

    /// Consumes the bracket `close` that ends a comprehension; anything else there is an error.
    fn close_comprehension(&mut self, close: &str) -> Result<()> {
        if !self.eat_op(close) {
            return Err(self.unexpected());
        }
        Ok(())
    }

    /// `{}`, `{k: v, ...}`, `{k: v for target in iter if cond}`, `{a, b, ...}` and
    /// `{x for target in iter if cond}`.
    fn braces(&mut self) -> Result<Expr> {
        self.bump();
        if self.eat_op("}") {
            return Ok(Expr::Dict { keys: Vec::new(), values: Vec::new() });
        }
        if self.is_op("**") {
            return self.unpacking_dict();
        }
        if self.is_op("*") {
            return self.starred_display("}", "a set").map(|items| Expr::Set { items });
        }
        let key = self.named_test()?;
        if !self.eat_op(":") {
            if self.is_kw("for") {
                return self.set_comprehension(key);
            }
            return self.rest_of_sequence(key, "}", "a set").map(|items| Expr::Set { items });
        }
        if matches!(key, Expr::Named { .. }) {
            return Err(self.error("invalid syntax: a dict key that is an assignment expression needs parentheses"));
        }
        let value = self.test()?;
        if self.is_kw("for") {
            return self.dict_comprehension(key, value);
        }
        self.rest_of_dict(vec![Some(key)], vec![value])
    }

    /// On `**`: a dict display that starts with `**value` (kept out of `braces`, as
    /// [`Parser::starred_display`] is).
    #[cold]
    #[inline(never)]
    fn unpacking_dict(&mut self) -> Result<Expr> {
        let at = self.pos;
        self.bump();
        let value = self.expr_bp(BP_CMP + 1)?;
        if self.is_kw("for") {
            return Err(self.error_at(&self.toks[at], "dict unpacking cannot be used in dict comprehension"));
        }
        self.rest_of_dict(vec![None], vec![value])
    }

    /// The entries of a dict display after its first, up to and including `}`: `key: value`, or
    /// `**value` (a key None).
    fn rest_of_dict(&mut self, mut keys: Vec<Option<Expr>>, mut values: Vec<Expr>) -> Result<Expr> {
        while !self.eat_op("}") {
            self.expect_op(",", "expected ',' or '}' in a dict")?;
            if self.eat_op("}") {
                break;
            }
            if self.eat_op("**") {
                keys.push(None);
                values.push(self.expr_bp(BP_CMP + 1)?);
                continue;
            }
            keys.push(Some(self.test()?));
            self.expect_op(":", "expected ':' after a dict key")?;
            values.push(self.test()?);
        }
        Ok(Expr::Dict { keys, values })
    }
}
