//! The real-valued distributions of `random.py` (`gauss`, `normalvariate`, `lognormvariate`,
//! `expovariate`, `triangular`, `paretovariate`, `weibullvariate`), written as CPython 3.11
//! writes them: the same draws in the same order, the same float operations, and Python's
//! arithmetic on the arguments (so an int `sigma`, a str `mu` or a zero `lambd` give CPython's
//! results and errors).
//!
//! Rationale: noise for data augmentation (a jittered length, a dropout rate) is drawn from
//! these; only the same numbers as CPython's reproduce a dataset.

use super::draw::next_float;
use super::mt::Mt19937 as Mt;
use crate::error::{ErrorKind, Result};
use crate::ops::math::float_fn;
use crate::pipeline::ast::{BinOp, CmpOp};
use crate::pipeline::value_ops::{binary, compare};
use crate::{AnyValue, AnyView};
use parking_lot::Mutex;
use std::f64::consts::TAU;

/// `random.py`'s `NV_MAGICCONST`, `4 * exp(-0.5) / sqrt(2.0)`, computed as it does.
fn nv_magic() -> f64 {
    4.0 * (-0.5f64).exp() / 2.0f64.sqrt()
}

/// Python's `a op b`.
fn arith(op: BinOp, a: AnyView<'_>, b: AnyView<'_>) -> Result<AnyValue> {
    binary(op, a, b).map(|v| v.resize())
}

/// A float as a value.
fn float(x: f64) -> AnyValue {
    AnyValue::from_float(x)
}

/// `mu + z * sigma`, Python's arithmetic on the arguments.
fn shifted(mu: AnyView<'_>, z: f64, sigma: AnyView<'_>) -> Result<AnyValue> {
    let scaled = arith(BinOp::Mul, float(z).view(), sigma)?;
    arith(BinOp::Add, mu, scaled.view())
}

/// The `i`th argument, or `default` where the call left it out.
fn arg_or(args: &[AnyView<'_>], i: usize, default: f64) -> AnyValue {
    args.get(i).map_or_else(|| float(default), |v| v.to_owned())
}

/// `gauss(mu=0.0, sigma=1.0)`: Box-Muller, each pair's second deviate kept for the next call.
pub(super) fn gauss(mt: &Mutex<Mt>, args: &[AnyView<'_>]) -> Result<AnyValue> {
    let (mu, sigma) = (arg_or(args, 0, 0.0), arg_or(args, 1, 1.0));
    let kept = mt.lock().gauss_next.take();
    let z = match kept {
        Some(z) => z,
        None => {
            let x2pi = next_float(mt) * TAU;
            let g2rad = (-2.0 * (1.0 - next_float(mt)).ln()).sqrt();
            mt.lock().gauss_next = Some(x2pi.sin() * g2rad);
            x2pi.cos() * g2rad
        }
    };
    shifted(mu.view(), z, sigma.view())
}

/// `normalvariate(mu=0.0, sigma=1.0)`: Kinderman and Monahan's ratio method.
pub(super) fn normalvariate(mt: &Mutex<Mt>, args: &[AnyView<'_>]) -> Result<AnyValue> {
    let (mu, sigma) = (arg_or(args, 0, 0.0), arg_or(args, 1, 1.0));
    let magic = nv_magic();
    let z = loop {
        let u1 = next_float(mt);
        let u2 = 1.0 - next_float(mt);
        let z = magic * (u1 - 0.5) / u2;
        if z * z / 4.0 <= -u2.ln() {
            break z;
        }
    };
    shifted(mu.view(), z, sigma.view())
}

/// `lognormvariate(mu, sigma)`: `exp` of a normal deviate, with `math.exp`'s errors.
pub(super) fn lognormvariate(mt: &Mutex<Mt>, args: &[AnyView<'_>]) -> Result<AnyValue> {
    let normal = normalvariate(mt, args)?;
    float_fn("exp", &[normal.view()], f64::exp, true)
}

/// `expovariate(lambd)`: `-log(1.0 - random()) / lambd`.
pub(super) fn expovariate(mt: &Mutex<Mt>, lambd: &AnyView<'_>) -> Result<AnyValue> {
    let e = -(1.0 - next_float(mt)).ln();
    arith(BinOp::Div, float(e).view(), *lambd)
}

/// `paretovariate(alpha)`: `(1.0 - random()) ** (-1.0 / alpha)`.
pub(super) fn paretovariate(mt: &Mutex<Mt>, alpha: &AnyView<'_>) -> Result<AnyValue> {
    let u = 1.0 - next_float(mt);
    let exponent = arith(BinOp::Div, float(-1.0).view(), *alpha)?;
    arith(BinOp::Pow, float(u).view(), exponent.view())
}

/// `weibullvariate(alpha, beta)`: `alpha * (-log(1.0 - random())) ** (1.0 / beta)`.
pub(super) fn weibullvariate(mt: &Mutex<Mt>, alpha: &AnyView<'_>, beta: &AnyView<'_>) -> Result<AnyValue> {
    let u = 1.0 - next_float(mt);
    let exponent = arith(BinOp::Div, float(1.0).view(), *beta)?;
    let powered = arith(BinOp::Pow, float(-u.ln()).view(), exponent.view())?;
    arith(BinOp::Mul, *alpha, powered.view())
}

/// `triangular(low=0.0, high=1.0, mode=None)`: `low` itself where `high - low` is zero.
pub(super) fn triangular(mt: &Mutex<Mt>, args: &[AnyView<'_>]) -> Result<AnyValue> {
    let (mut low, mut high) = (arg_or(args, 0, 0.0), arg_or(args, 1, 1.0));
    let mode = args.get(2).filter(|m| !m.is_none());
    let mut u = float(next_float(mt));
    let c = match mode {
        None => Ok(float(0.5)),
        Some(mode) => arith(BinOp::Sub, *mode, low.view())
            .and_then(|above| Ok((above, arith(BinOp::Sub, high.view(), low.view())?)))
            .and_then(|(above, width)| arith(BinOp::Div, above.view(), width.view())),
    };
    let mut c = match c {
        Err(e) if e.kind() == ErrorKind::ZeroDivision => return Ok(low),
        other => other?,
    };
    if compare(CmpOp::Gt, u.view(), c.view())? {
        u = arith(BinOp::Sub, float(1.0).view(), u.view())?;
        c = arith(BinOp::Sub, float(1.0).view(), c.view())?;
        std::mem::swap(&mut low, &mut high);
    }
    let product = arith(BinOp::Mul, u.view(), c.view())?;
    let root = float_fn("sqrt", &[product.view()], f64::sqrt, false)?;
    let width = arith(BinOp::Sub, high.view(), low.view())?;
    let scaled = arith(BinOp::Mul, width.view(), root.view())?;
    arith(BinOp::Add, low.view(), scaled.view())
}
