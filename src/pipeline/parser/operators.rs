//! Expressions with operators: conditionals, lambdas, and the binary, unary and comparison operators by
//! precedence climbing.

use super::super::ast::{BinOp, BoolOp, CmpOp, Expr, Literal, UnaryOp};
use super::super::lexer::{INT_LITERAL_MAX, Tok, is_keyword};
use super::{
    BP_AND, BP_CMP, BP_NOT, BP_OR, BP_POW, BP_UNARY, Infix, Parser, Result, binary_op, boxed, single_compare_op,
};

impl Parser {
    /// `or_test ['if' or_test 'else' test] | lambdef`.
    pub(super) fn test(&mut self) -> Result<Expr> {
        if self.is_op("*") {
            return Err(self.starred_error());
        }
        if self.is_kw("lambda") {
            return self.lambda();
        }
        let body = self.or_test()?;
        let expr = if self.is_kw("if") { self.conditional(body)? } else { body };
        if self.is_op(":=") {
            return Err(self.unexpected());
        }
        Ok(expr)
    }

    /// `NAME ':=' test | test`: where Python takes an assignment expression without parentheses
    /// (conditions of `if` and `while`, call arguments, the items of a parenthesised, list or
    /// set display, a comprehension's element).
    pub(super) fn named_test(&mut self) -> Result<Expr> {
        match (self.peek(), self.peek_nth(1)) {
            (Tok::Name(n), Tok::Op(":=")) if !is_keyword(n) => {
                let target = n.clone();
                self.bump();
                self.bump();
                let value = self.test()?;
                Ok(Expr::Named { target, value: boxed(value) })
            }
            (Tok::Name(n), Tok::Op(":=")) => Err(self.error(format!("cannot use assignment expressions with {n}"))),
            _ => self.test(),
        }
    }

    /// After `body`, on `if`: the rest of `body if test else orelse`.
    fn conditional(&mut self, body: Expr) -> Result<Expr> {
        self.bump();
        let test = self.or_test()?;
        self.expect_kw("else", "expected 'else' after the condition of an 'if' expression")?;
        // `a if b else c if d else ...` recurses here without passing through `expr_bp`.
        self.enter()?;
        let orelse = self.test()?;
        self.leave();
        Ok(Expr::IfExp { test: boxed(test), body: boxed(body), orelse: boxed(orelse) })
    }

    /// `lambda params: test`, on `lambda`; its parameters are plain names.
    fn lambda(&mut self) -> Result<Expr> {
        self.bump();
        let (mut params, mut defaults) = (Vec::new(), Vec::new());
        while !self.eat_op(":") {
            if self.is_op("(") {
                return Err(self.error("Lambda expression parameters cannot be parenthesized"));
            }
            let at = self.token().clone();
            let name = self.param_name()?;
            if self.eat_op("=") {
                defaults.push(self.test()?);
            } else if !defaults.is_empty() {
                return Err(self.error_at(&at, "non-default argument follows default argument"));
            }
            self.push_param(&mut params, name, &at)?;
            if !self.eat_op(",") {
                self.expect_op(":", "expected ',' or ':' after a lambda parameter")?;
                break;
            }
        }
        // `lambda: lambda: ...` recurses here without passing through `expr_bp`.
        self.enter()?;
        let body = self.test()?;
        self.leave();
        Ok(Expr::Lambda { params, body: boxed(body), defaults })
    }

    /// Everything below the conditional expression: `or`, `and`, `not`, comparisons and arithmetic.
    pub(super) fn or_test(&mut self) -> Result<Expr> {
        self.expr_bp(BP_OR)
    }

    /// Pratt parsing of the operators binding at least as tightly as `min`.
    ///
    /// One function for every level keeps the stack cost of each bracket nesting small,
    /// which is what bounds how deep [`MAX_DEPTH`] can safely be.
    ///
    /// Every nested expression passes through here, so this is where nesting is counted; each link of a
    /// left-associative chain counts too, as it adds a level to the tree without recursing.
    pub(super) fn expr_bp(&mut self, min: u8) -> Result<Expr> {
        self.enter()?;
        let mut left = match self.prefix_op(min) {
            Some(op) => self.prefix(op)?,
            None => self.primary()?,
        };
        let mut links = 1;
        while let Some(infix) = self.infix_op(min) {
            self.enter()?;
            links += 1;
            left = self.infix(left, infix)?;
        }
        self.depth -= links;
        Ok(left)
    }

    fn prefix_op(&self, min: u8) -> Option<UnaryOp> {
        match self.peek() {
            Tok::Name(n) if n == "not" && min <= BP_NOT => Some(UnaryOp::Not),
            Tok::Op("-") => Some(UnaryOp::Neg),
            Tok::Op("+") => Some(UnaryOp::Pos),
            Tok::Op("~") => Some(UnaryOp::Invert),
            _ => None,
        }
    }

    /// `not x` takes a comparison; `-x` takes a power, so `-2**2` is `-(2**2)`.
    fn prefix(&mut self, op: UnaryOp) -> Result<Expr> {
        self.bump();
        if op == UnaryOp::Neg && self.at_min_int_literal() {
            self.bump();
            return Ok(Expr::Const { value: Literal::Int(i64::MIN) });
        }
        let power = if op == UnaryOp::Not { BP_NOT } else { BP_UNARY };
        let operand = self.expr_bp(power)?;
        Ok(Expr::UnaryOp { op, operand: boxed(operand) })
    }

    /// Whether the cursor is on `9223372036854775808` standing alone, so `-` before it makes `i64::MIN`.
    fn at_min_int_literal(&self) -> bool {
        *self.peek() == Tok::Int(INT_LITERAL_MAX) && !matches!(self.peek_nth(1), Tok::Op("**" | "." | "(" | "["))
    }

    /// The infix operator under the cursor, if it binds at least as tightly as `min`.
    fn infix_op(&self, min: u8) -> Option<Infix> {
        let (infix, power) = match self.peek() {
            Tok::Name(n) if n == "or" => (Infix::Bool(BoolOp::Or), BP_OR),
            Tok::Name(n) if n == "and" => (Infix::Bool(BoolOp::And), BP_AND),
            Tok::Op("**") => (Infix::Pow, BP_POW),
            tok => match binary_op(tok) {
                Some((op, power)) => (Infix::Binary(op, power), power),
                None if self.at_compare_op() => (Infix::Compare, BP_CMP),
                None => return None,
            },
        };
        (power >= min).then_some(infix)
    }

    /// Parses the operator under the cursor and its right operand(s), with `left` on its left.
    fn infix(&mut self, left: Expr, infix: Infix) -> Result<Expr> {
        Ok(match infix {
            Infix::Bool(op) => {
                let (kw, power) = if op == BoolOp::Or { ("or", BP_OR) } else { ("and", BP_AND) };
                let mut values = vec![left];
                while self.eat_kw(kw) {
                    values.push(self.expr_bp(power + 1)?);
                }
                Expr::BoolOp { op, values }
            }
            Infix::Compare => {
                let (mut ops, mut comparators) = (Vec::new(), Vec::new());
                while let Some(op) = self.compare_op() {
                    ops.push(op);
                    comparators.push(self.expr_bp(BP_CMP + 1)?);
                }
                Expr::Compare { left: boxed(left), ops, comparators }
            }
            Infix::Binary(op, power) => {
                self.bump();
                let right = self.expr_bp(power + 1)?;
                Expr::BinOp { op, left: boxed(left), right: boxed(right) }
            }
            Infix::Pow => {
                self.bump();
                // Right-associative, and the exponent may itself start with a sign: `2 ** -1`.
                let right = self.expr_bp(BP_UNARY)?;
                Expr::BinOp { op: BinOp::Pow, left: boxed(left), right: boxed(right) }
            }
        })
    }

    fn at_compare_op(&self) -> bool {
        match (self.peek(), self.peek_nth(1)) {
            (Tok::Name(a), Tok::Name(b)) if a == "not" && b == "in" => true,
            (tok, _) => single_compare_op(tok).is_some(),
        }
    }

    /// Consumes a comparison operator, including the two-word `not in` and `is not`.
    fn compare_op(&mut self) -> Option<CmpOp> {
        let op = match (self.peek(), self.peek_nth(1)) {
            (Tok::Name(a), Tok::Name(b)) if a == "not" && b == "in" => CmpOp::NotIn,
            (Tok::Name(a), Tok::Name(b)) if a == "is" && b == "not" => CmpOp::IsNot,
            (tok, _) => single_compare_op(tok)?,
        };
        self.bump();
        if matches!(op, CmpOp::NotIn | CmpOp::IsNot) {
            self.bump();
        }
        Some(op)
    }
}
