//! Primaries: an atom followed by attribute, call and subscript trailers.

use super::super::ast::{DOUBLE_STAR, Expr, Keyword, Literal};
use super::super::lexer::{Tok, is_keyword};
use super::{Parser, Result, boxed, not_supported};

impl Parser {
    /// An atom followed by `.name`, `(args)` and `[index]` trailers.
    pub(super) fn primary(&mut self) -> Result<Expr> {
        let mut expr = self.atom()?;
        let mut links = 0;
        while let Tok::Op(op @ ("." | "(" | "[")) = self.peek() {
            let trailer = *op;
            self.enter()?;
            links += 1;
            self.bump();
            expr = match trailer {
                "." => self.attribute(expr)?,
                "(" => self.call(expr)?,
                _ => self.subscript(expr)?,
            };
        }
        self.depth -= links;
        Ok(expr)
    }

    fn attribute(&mut self, value: Expr) -> Result<Expr> {
        let attr = self.identifier("expected an attribute name after '.'")?;
        Ok(Expr::Attribute { value: boxed(value), attr })
    }

    /// After `func(`: positional arguments, then `name=value` ones, up to and including `)`.
    fn call(&mut self, func: Expr) -> Result<Expr> {
        // Each keyword keeps the index of its name's token, for errors found after the whole call is read.
        let (mut args, mut keywords) = (Vec::new(), Vec::<(Keyword, usize)>::new());
        while !self.eat_op(")") {
            let at = self.pos;
            let unpacked_mapping = keywords.iter().any(|(k, _)| k.arg == DOUBLE_STAR);
            if self.eat_op("**") {
                // `f(**mapping)`: its items as keyword arguments (a keyword named `**`).
                keywords.push((Keyword { arg: DOUBLE_STAR.into(), value: self.test()? }, at));
                if !self.eat_op(",") {
                    self.expect_op(")", "expected ',' or ')' after a function argument")?;
                    break;
                }
                continue;
            }
            if self.eat_op("*") {
                // `f(*xs)`: the items of `xs` as arguments.
                if unpacked_mapping {
                    let msg = "iterable argument unpacking follows keyword argument unpacking";
                    return Err(self.error_at(&self.toks[at], msg));
                }
                if !keywords.is_empty() {
                    return Err(
                        self.error_at(&self.toks[at], not_supported("a starred argument after a keyword one is"))
                    );
                }
                args.push(Expr::Starred { value: boxed(self.test()?) });
                if self.is_kw("for") {
                    return Err(self.error_at(&self.toks[at], "iterable unpacking cannot be used in comprehension"));
                }
                if !self.eat_op(",") {
                    self.expect_op(")", "expected ',' or ')' after a function argument")?;
                    break;
                }
                continue;
            }
            match (self.peek(), self.peek_nth(1)) {
                (Tok::Name(n), Tok::Op("=")) if !is_keyword(n) => {
                    let arg = n.clone();
                    self.bump();
                    self.bump();
                    let value = self.test()?;
                    if self.is_kw("for") {
                        let msg = "invalid syntax. Maybe you meant '==' or ':=' instead of '='?";
                        return Err(self.error_at(&self.toks[at], msg));
                    }
                    keywords.push((Keyword { arg, value }, at));
                }
                (Tok::Name(n), Tok::Op("=")) if matches!(n.as_str(), "True" | "False" | "None") => {
                    return Err(self.error(format!("cannot assign to {n}")));
                }
                _ => {
                    let mut arg = self.named_test()?;
                    if self.is_op("=") {
                        let msg = "expression cannot contain assignment, perhaps you meant \"==\"?";
                        return Err(self.error_at(&self.toks[at], msg));
                    }
                    if self.is_kw("for") {
                        arg = self.generator_argument(arg, at, args.is_empty() && keywords.is_empty())?;
                    }
                    if unpacked_mapping {
                        let msg = "positional argument follows keyword argument unpacking";
                        return Err(self.error_at(&self.toks[at], msg));
                    }
                    if !keywords.is_empty() {
                        return Err(self.error_at(&self.toks[at], "positional argument follows keyword argument"));
                    }
                    args.push(arg);
                }
            }
            if !self.eat_op(",") {
                self.expect_op(")", "expected ',' or ')' after a function argument")?;
                break;
            }
        }
        // Once the whole call is read: CPython finds repeats after parsing, so a misplaced positional
        // argument later in the call is reported first.
        for (i, (kw, at)) in keywords.iter().enumerate() {
            if kw.arg != DOUBLE_STAR && keywords[..i].iter().any(|(k, _)| k.arg == kw.arg) {
                return Err(self.error_at(&self.toks[*at], format!("keyword argument repeated: {}", kw.arg)));
            }
        }
        let keywords = keywords.into_iter().map(|(kw, _)| kw).collect();
        Ok(Expr::Call { func: boxed(func), args, keywords })
    }

    /// After the call argument `elt` that starts at token `at`, on `for`: a generator expression, which may
    /// stand unparenthesised only as the call's sole argument (`f(x for x in y)`), as in CPython. Leaves
    /// the cursor on the call's `)`.
    #[inline(never)]
    fn generator_argument(&mut self, elt: Expr, at: usize, sole: bool) -> Result<Expr> {
        let (target, iter, ifs) = self.comprehension_clause()?;
        let more = self.more_for_clauses()?;
        // CPython reports this at the generator, whatever follows it.
        if !sole || self.is_op(",") {
            return Err(self.error_at(&self.toks[at], "Generator expression must be parenthesized"));
        }
        if !self.is_op(")") {
            return Err(self.unexpected());
        }
        Ok(Expr::GeneratorExp { elt: boxed(elt), target: Box::new(target), iter: boxed(iter), ifs, more })
    }

    /// After `value[`: an index, a tuple of indices, or a slice.
    fn subscript(&mut self, value: Expr) -> Result<Expr> {
        if self.is_op("]") {
            return Err(self.error("expected an index or slice"));
        }
        let lower = if self.is_op(":") { None } else { Some(self.test()?) };
        if self.eat_op(":") {
            return self.slice(value, lower);
        }
        let mut index = lower.unwrap_or(Expr::Const { value: Literal::None });
        if self.is_op(",") {
            let mut items = vec![index];
            while self.eat_op(",") && !self.is_op("]") {
                if self.is_op(":") {
                    return Err(self.error(not_supported("multi-dimensional slices are")));
                }
                items.push(self.test()?);
            }
            index = Expr::Tuple { items };
        }
        self.expect_op("]", "expected ']' after the index")?;
        Ok(Expr::Subscript { value: boxed(value), index: boxed(index) })
    }

    /// After `value[lower:`: the upper bound and step.
    fn slice(&mut self, value: Expr, lower: Option<Expr>) -> Result<Expr> {
        let bound_follows = |p: &Self| !(p.is_op(":") || p.is_op("]") || p.is_op(","));
        let upper = if bound_follows(self) { Some(self.test()?) } else { None };
        let step = if self.eat_op(":") && bound_follows(self) { Some(self.test()?) } else { None };
        if self.is_op(",") {
            return Err(self.error(not_supported("multi-dimensional slices are")));
        }
        self.expect_op("]", "expected ']' after the slice")?;
        Ok(Expr::Slice { value: boxed(value), lower: lower.map(boxed), upper: upper.map(boxed), step: step.map(boxed) })
    }
}
