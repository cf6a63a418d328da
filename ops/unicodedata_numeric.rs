//! `unicodedata.east_asian_width`, `numeric`, `digit` and `decimal`, with CPython 3.11's values
//! (Unicode 14, from the tables `scripts/gen_unicodedata_tables.py` wrote out of CPython 3.11)
//! and errors: display widths of CJK text, numerals of every script as numbers.

use super::unicodedata::{char_and_default, check_count, one_char};
use super::unicodedata_tables::{EAST_ASIAN_WIDTH, NUMERIC, WIDTH_NAMES};
use crate::error::{Error, Result};
use crate::func::{OpEntry, Registry};
use crate::{AnyValue, AnyView};

/// Registers the ops.
pub fn register(reg: &Registry) -> Result<()> {
    let ops: &[OpEntry] = &[
        (
            "unicodedata.east_asian_width",
            "(chr) -> str",
            "The East Asian Width class (W, F, Na, H, A, N), as unicodedata.east_asian_width.",
            east_asian_width,
        ),
        (
            "unicodedata.numeric",
            "(*chr_default) -> float",
            "The character's numeric value, or default, as unicodedata.numeric.",
            numeric,
        ),
        (
            "unicodedata.digit",
            "(*chr_default) -> int",
            "The character's digit value, or default, as unicodedata.digit.",
            digit,
        ),
        (
            "unicodedata.decimal",
            "(*chr_default) -> int",
            "The character's decimal value, or default, as unicodedata.decimal.",
            decimal,
        ),
    ];
    reg.register_ops(ops)
}

fn east_asian_width(args: &[AnyView<'_>]) -> Result<AnyValue> {
    check_count("east_asian_width", args, 1)?;
    let c = one_char("east_asian_width", &args[0])?;
    Ok(AnyValue::from_text(WIDTH_NAMES[super::unicodedata_props::run_value(&EAST_ASIAN_WIDTH, c) as usize]))
}

/// The `NUMERIC` row of `c`, if it has a numeric value.
fn numeric_row(c: char) -> Option<(u32, i8, i8, f64)> {
    NUMERIC.binary_search_by_key(&(c as u32), |row| row.0).ok().map(|i| NUMERIC[i])
}

/// `name(chr[, default])`: `value` of the character's row, or the default, or CPython's
/// ValueError `missing`.
fn lookup(
    name: &str,
    args: &[AnyView<'_>],
    value: fn((u32, i8, i8, f64)) -> Option<AnyValue>,
    missing: &str,
) -> Result<AnyValue> {
    let (c, default) = char_and_default(name, args)?;
    match (numeric_row(c).and_then(value), default) {
        (Some(found), _) => Ok(found),
        (None, Some(default)) => Ok(default.to_owned()),
        (None, None) => Err(Error::value(missing)),
    }
}

fn numeric(args: &[AnyView<'_>]) -> Result<AnyValue> {
    lookup("numeric", args, |row| Some(AnyValue::from(row.3)), "not a numeric character")
}

fn digit(args: &[AnyView<'_>]) -> Result<AnyValue> {
    lookup("digit", args, |row| (row.2 >= 0).then(|| AnyValue::from_int(row.2 as i64)), "not a digit")
}

fn decimal(args: &[AnyView<'_>]) -> Result<AnyValue> {
    lookup("decimal", args, |row| (row.1 >= 0).then(|| AnyValue::from_int(row.1 as i64)), "not a decimal")
}

#[cfg(test)]
mod tests {
    fn call(name: &str, text: &str) -> String {
        let f = crate::func::registry().get(name).unwrap();
        match f.call(&[crate::AnyValue::from_text(text).view()]) {
            Ok(v) => crate::pipeline::value_ops::repr_value(v.value()),
            Err(e) => e.message().to_string(),
        }
    }

    // Expected values: CPython 3.11's.
    #[test]
    fn values_are_cpythons() {
        assert_eq!(call("unicodedata.east_asian_width", "日"), "'W'");
        assert_eq!(call("unicodedata.east_asian_width", "ｱ"), "'H'");
        assert_eq!(call("unicodedata.east_asian_width", "a"), "'Na'");
        // CPython 3.11 calls the last code point full-width (the one before it ambiguous).
        assert_eq!(call("unicodedata.east_asian_width", "\u{10FFFF}"), "'F'");
        assert_eq!(call("unicodedata.east_asian_width", "\u{10FFFD}"), "'A'");
        assert_eq!(call("unicodedata.numeric", "⅓"), "0.3333333333333333");
        assert_eq!(call("unicodedata.numeric", "五"), "5.0");
        assert_eq!(call("unicodedata.digit", "²"), "2");
        assert_eq!(call("unicodedata.decimal", "²"), "not a decimal");
        assert_eq!(call("unicodedata.decimal", "٣"), "3");
        assert_eq!(call("unicodedata.digit", "a"), "not a digit");
    }
}
