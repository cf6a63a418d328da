//! `raise`, `assert` and `del`, with CPython's errors for what each refuses.

use super::super::ast::{Expr, StmtKind, Target};
use super::super::exception_value::is_class_name;
use super::super::lexer::{Tok, Token};
use super::{Parser, Result, expr_kind_name, not_supported};

impl Parser {
    /// `raise NAME`, `raise NAME()` or `raise NAME(value)` for an exception class NAME, `raise
    /// value` for any other value (an exception held by a variable, say), each with an optional
    /// `from cause`; the compiler checks that NAME is an exception it raises (and that a bare
    /// `raise` is inside an `except` clause).
    pub(super) fn raise_statement(&mut self) -> Result<StmtKind> {
        self.take();
        if self.at_statement_end() {
            return Ok(StmtKind::Reraise);
        }
        let exc = self.test()?;
        let end = self.pos;
        let (exc, value) = match exc {
            Expr::Name { id } if is_class_name(&id) => (id, None),
            // Ending in `)`: an f-string is a call too, of a built-in.
            Expr::Call { func, mut args, keywords }
                if matches!(&*func, Expr::Name { id } if is_class_name(id))
                    && self.toks[end - 1].tok == Tok::Op(")") =>
            {
                // Positional arguments come first, so the first one not allowed is the second positional
                // one, or else the first keyword.
                if args.len() > 1 || !keywords.is_empty() {
                    let (nth, what) = if args.len() > 1 {
                        (1, "raising an exception with more than one argument is")
                    } else {
                        (args.len(), "keyword arguments in 'raise' are")
                    };
                    let arg = self.call_argument(end, nth)?;
                    return Err(self.error_at(&arg, not_supported(what)));
                }
                if matches!(args.first(), Some(Expr::Starred { .. })) {
                    let arg = self.call_argument(end, 0)?;
                    return Err(self.error_at(&arg, not_supported("starred arguments in 'raise' are")));
                }
                let Expr::Name { id } = *func else { unreachable!("matched above") };
                (id, args.pop())
            }
            other => (String::new(), Some(other)),
        };
        let cause = if self.is_kw("from") {
            self.take();
            Some(self.test()?)
        } else {
            None
        };
        Ok(StmtKind::Raise { exc, value, cause })
    }

    /// The first token of argument `nth` (from 0) of the call whose `)` is the token before `end`, found by
    /// reading its arguments again; leaves the cursor there.
    #[cold]
    #[inline(never)]
    fn call_argument(&mut self, end: usize, nth: usize) -> Result<Token> {
        let mut open = end - 1;
        let mut depth = 0usize;
        loop {
            match &self.toks[open].tok {
                Tok::Op(")" | "]" | "}") => depth += 1,
                Tok::Op("(" | "[" | "{") => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            open -= 1;
        }
        self.pos = open + 1;
        for _ in 0..nth {
            self.test()?;
            self.expect_op(",", "expected ',' after a function argument")?;
        }
        Ok(self.token().clone())
    }

    /// `assert test [',' msg]`.
    pub(super) fn assert_statement(&mut self) -> Result<StmtKind> {
        self.bump();
        let test = self.test()?;
        let msg = if self.eat_op(",") { Some(self.test()?) } else { None };
        Ok(StmtKind::Assert { test, msg })
    }

    /// `del target (',' target)* [',']`.
    pub(super) fn del_statement(&mut self) -> Result<StmtKind> {
        self.bump();
        if self.at_statement_end() {
            return Err(self.error("expected a target after 'del'"));
        }
        let mut targets = Vec::new();
        loop {
            targets.push(self.del_target()?);
            if !self.eat_op(",") || self.at_statement_end() {
                break;
            }
        }
        Ok(StmtKind::Delete { targets })
    }

    /// One target of `del`: a name, a subscript, or a parenthesised or bracketed list of targets. As in
    /// CPython, an error names the innermost expression that cannot be deleted, at its own position.
    fn del_target(&mut self) -> Result<Target> {
        if self.is_op("*") {
            return Err(self.error("cannot delete starred"));
        }
        if let Some(close) = self.del_group_close() {
            self.enter()?;
            let paren = self.take().tok == Tok::Op("(");
            let (mut items, mut comma) = (Vec::new(), false);
            while !self.eat_op(close) {
                items.push(self.del_target()?);
                if !self.eat_op(",") {
                    let what = if paren { "a tuple" } else { "a list" };
                    self.expect_op(close, &format!("expected ',' or '{close}' in {what}"))?;
                    break;
                }
                comma = true;
            }
            self.leave();
            return Ok(match items.pop() {
                Some(only) if paren && !comma && items.is_empty() => only,
                last => Target::Tuple { items: items.into_iter().chain(last).collect() },
            });
        }
        let (at, start) = (self.token().clone(), self.pos);
        let msg = match self.test()? {
            Expr::Name { id } => return Ok(Target::Name { id }),
            Expr::Subscript { value, index } => return Ok(Target::Subscript { value: *value, index: *index }),
            Expr::Attribute { .. } => not_supported("deleting attributes is"),
            Expr::Slice { value, lower, upper, step } => {
                return Ok(Target::Slice { value, lower, upper, step });
            }
            // An f-string, which became operators and calls.
            _ if self.toks[start..self.pos].iter().all(|t| matches!(t.tok, Tok::Str(_) | Tok::FStr(_)))
                && self.toks[start..self.pos].iter().any(|t| matches!(t.tok, Tok::FStr(_))) =>
            {
                "cannot delete f-string expression".into()
            }
            e => format!("cannot delete {}", expr_kind_name(&e)),
        };
        Err(self.error_at(&at, msg))
    }

    /// On `(` or `[`: the closing bracket, when the brackets hold a tuple or list display (not a
    /// comprehension) that is a whole target of `del`, not the start of a longer expression like `(a)[0]`.
    fn del_group_close(&self) -> Option<&'static str> {
        let close = match self.peek() {
            Tok::Op("(") => ")",
            Tok::Op("[") => "]",
            _ => return None,
        };
        let mut depth = 0usize;
        for (i, t) in self.toks.iter().enumerate().skip(self.pos) {
            match &t.tok {
                Tok::Op("(" | "[" | "{") => depth += 1,
                Tok::Op(")" | "]" | "}") => {
                    depth -= 1;
                    if depth == 0 {
                        let next = &self.toks.get(i + 1)?.tok;
                        let ends = matches!(next, Tok::Op("," | ";" | ")" | "]") | Tok::Newline | Tok::End);
                        return ends.then_some(close);
                    }
                }
                Tok::Name(n) if depth == 1 && n == "for" => return None,
                Tok::End => return None,
                _ => {}
            }
        }
        None
    }
}
