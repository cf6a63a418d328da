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
use crate::ops::math::{float_fn, real};
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

/// Python's `x <= bound` of an argument.
fn at_most(x: &AnyView<'_>, bound: f64) -> Result<bool> {
    compare(CmpOp::LtE, *x, float(bound).view())
}

/// Python's float `a ** b`, with its errors.
fn pow(a: f64, b: f64) -> Result<f64> {
    let r = arith(BinOp::Pow, float(a).view(), float(b).view())?;
    Ok(r.value().as_float().expect("a float power of floats"))
}

/// `vonmisesvariate(mu, kappa)`: Best and Fisher's method; a uniform angle for `kappa` near 0.
pub(super) fn vonmisesvariate(mt: &Mutex<Mt>, mu: &AnyView<'_>, kappa: &AnyView<'_>) -> Result<AnyValue> {
    if at_most(kappa, 1e-6)? {
        return Ok(float(TAU * next_float(mt)));
    }
    // Compared with a float above, so a real number.
    let s = 0.5 / real(kappa)?;
    let r = s + (1.0 + s * s).sqrt();
    let z = loop {
        let u1 = next_float(mt);
        let z = (std::f64::consts::PI * u1).cos();
        let d = z / (r + z);
        let u2 = next_float(mt);
        if u2 < 1.0 - d * d || u2 <= (1.0 - d) * d.exp() {
            break z;
        }
    };
    let q = 1.0 / r;
    let f = (q + z) / (1.0 + q * z);
    let op = if next_float(mt) > 0.5 { BinOp::Add } else { BinOp::Sub };
    let angle = arith(op, *mu, float(f.acos()).view())?;
    arith(BinOp::Mod, angle.view(), float(TAU).view())
}

/// `gammavariate(alpha, beta)`.
pub(super) fn gammavariate(mt: &Mutex<Mt>, alpha: &AnyView<'_>, beta: &AnyView<'_>) -> Result<AnyValue> {
    gamma(mt, alpha, beta).map(float)
}

/// A gamma deviate: Cheng's method for `alpha > 1`, the exponential for 1, and Ahrens and
/// Dieter's (as `random.py` has it) below.
fn gamma(mt: &Mutex<Mt>, alpha: &AnyView<'_>, beta: &AnyView<'_>) -> Result<f64> {
    if at_most(alpha, 0.0)? || at_most(beta, 0.0)? {
        return Err(crate::pipeline::value_ops::value_error("gammavariate: alpha and beta must be > 0.0"));
    }
    // Compared with floats above, so real numbers.
    let (alpha, beta) = (real(alpha)?, real(beta)?);
    let log4 = 4.0f64.ln();
    let sg_magic = 1.0 + 4.5f64.ln();
    let x = if alpha > 1.0 {
        let ainv = (2.0 * alpha - 1.0).sqrt();
        let (bbb, ccc) = (alpha - log4, alpha + ainv);
        loop {
            let u1 = next_float(mt);
            if !(1e-7 < u1 && u1 < 0.9999999) {
                continue;
            }
            let u2 = 1.0 - next_float(mt);
            let v = (u1 / (1.0 - u1)).ln() / ainv;
            let x = alpha * v.exp();
            let z = u1 * u1 * u2;
            let r = bbb + ccc * v - x;
            if r + sg_magic - 4.5 * z >= 0.0 || r >= z.ln() {
                break x;
            }
        }
    } else if alpha == 1.0 {
        -(1.0 - next_float(mt)).ln()
    } else {
        let e = std::f64::consts::E;
        loop {
            let u = next_float(mt);
            let b = (e + alpha) / e;
            let p = b * u;
            let x = if p <= 1.0 { pow(p, 1.0 / alpha)? } else { -((b - p) / alpha).ln() };
            let u1 = next_float(mt);
            let accept = if p > 1.0 { u1 <= pow(x, alpha - 1.0)? } else { u1 <= (-x).exp() };
            if accept {
                break x;
            }
        }
    };
    Ok(x * beta)
}

/// `betavariate(alpha, beta)`: two gamma deviates, `0.0` where the first is zero.
pub(super) fn betavariate(mt: &Mutex<Mt>, alpha: &AnyView<'_>, beta: &AnyView<'_>) -> Result<AnyValue> {
    let one = float(1.0);
    let y = gamma(mt, alpha, &one.view())?;
    if y == 0.0 {
        return Ok(float(0.0));
    }
    Ok(float(y / (y + gamma(mt, beta, &one.view())?)))
}
