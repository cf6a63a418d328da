//! `str.center`, `ljust`, `rjust`, `zfill` and `expandtabs`, as CPython 3.11 pads (its `center` puts the
//! odd padding character on the left when the width is odd: `"ab".center(5)` is `"  ab "`).

use super::Slot;
use super::format::{reserve, text_with_room};
use super::methods::Method;
use super::value_ops::{Text, c_int_arg, index_arg, text_slot, type_error, vname};
use crate::{AnyView, Result};

/// The characters `t` lacks to be `width` wide, when it lacks any.
fn margin(width: i64, t: Text<'_>) -> Option<usize> {
    usize::try_from(width).ok().and_then(|w| w.checked_sub(t.char_len())).filter(|&m| m > 0)
}

/// `t.center/ljust/rjust(width, fillchar=" ")`.
pub(crate) fn justify(m: Method, t: Text<'_>, args: &[AnyView<'_>]) -> Result<Slot> {
    let width = index_arg(&args[0])?;
    let fill = match args.get(1).map(|a| a.value()) {
        None => ' ',
        Some(v) => {
            let Some(f) = Text::of(v) else {
                return Err(type_error(format!("The fill character must be a unicode character, not {}", vname(v))));
            };
            let mut cs = f.chars();
            match (cs.next(), cs.next()) {
                (Some(c), None) => c,
                _ => return Err(type_error("The fill character must be exactly one character long")),
            }
        }
    };
    let Some(margin) = margin(width, t) else {
        return Ok(text_slot(&t.as_str(), t.is_ucs4()));
    };
    let left = match m {
        Method::Ljust => 0,
        Method::Rjust => margin,
        // CPython: `marg / 2 + (marg & width & 1)`.
        _ => margin / 2 + (margin & width as usize & 1),
    };
    let text = t.as_str();
    let bytes = text.len().saturating_add(margin.saturating_mul(fill.len_utf8()));
    let mut out = text_with_room(bytes, m.name())?;
    out.extend(std::iter::repeat_n(fill, left));
    out.push_str(&text);
    out.extend(std::iter::repeat_n(fill, margin - left));
    Ok(text_slot(&out, t.is_ucs4()))
}

/// `t.zfill(width)`: zeros on the left, after a leading sign.
pub(crate) fn zfill(t: Text<'_>, width: &AnyView<'_>) -> Result<Slot> {
    let text = t.as_str();
    let Some(zeros) = margin(index_arg(width)?, t) else {
        return Ok(text_slot(&text, t.is_ucs4()));
    };
    let mut out = text_with_room(text.len().saturating_add(zeros), "zfill")?;
    let (sign, rest) = match text.strip_prefix(['+', '-']) {
        Some(rest) => (&text[..1], rest),
        None => ("", &text[..]),
    };
    out.push_str(sign);
    out.extend(std::iter::repeat_n('0', zeros));
    out.push_str(rest);
    Ok(text_slot(&out, t.is_ucs4()))
}

/// `t.expandtabs(tabsize=8)`: each tab becomes the spaces up to the next multiple of
/// `tabsize` columns, counted from the last `\n` or `\r` (no tab stops when `tabsize <= 0`).
pub(crate) fn expandtabs(t: Text<'_>, tabsize: Option<&AnyView<'_>>) -> Result<Slot> {
    let tabsize = tabsize.map(c_int_arg).transpose()?.unwrap_or(8);
    let text = t.as_str();
    if !text.contains('\t') {
        return Ok(text_slot(&text, t.is_ucs4()));
    }
    let step = usize::try_from(tabsize).unwrap_or(0);
    // Room for every character but the tabs now; each tab's spaces ask for theirs, so that
    // spaces too many for memory are a `MemoryError`.
    let mut out = text_with_room(text.len(), "expandtabs")?;
    let mut column = 0usize;
    for c in text.chars() {
        match c {
            '\t' if step > 0 => {
                let spaces = step - column % step;
                reserve(&mut out, spaces, "expandtabs")?;
                out.extend(std::iter::repeat_n(' ', spaces));
                column += spaces;
            }
            '\t' => {}
            '\n' | '\r' => {
                out.push(c);
                column = 0;
            }
            c => {
                out.push(c);
                column += 1;
            }
        }
    }
    Ok(text_slot(&out, t.is_ucs4()))
}

#[cfg(test)]
mod tests {
    use crate::pipeline::test_values::*;

    use method_repr as call;

    #[test]
    fn padding_as_cpython() {
        // CPython 3.11: the odd character of a centring margin goes left when the width is odd.
        assert_eq!(call("ab", "center", &[i(5)]), "'  ab '");
        assert_eq!(call("abc", "center", &[i(6)]), "' abc  '");
        assert_eq!(call("ab", "center", &[i(5), s("é")]), "'ééabé'");
        assert_eq!(call("ab", "ljust", &[i(-3)]), "'ab'");
        assert_eq!(call("ab", "rjust", &[i(4), s("*")]), "'**ab'");
        assert_eq!(call("-42", "zfill", &[i(6)]), "'-00042'");
        assert_eq!(call("+", "zfill", &[i(3)]), "'+00'");
        assert_eq!(call("ab", "center", &[i(5), s("xy")]), "The fill character must be exactly one character long");
        assert_eq!(call("ab", "center", &[i(5), i(1)]), "The fill character must be a unicode character, not int");
        assert_eq!(call("ab", "zfill", &[s("3")]), "'str' object cannot be interpreted as an integer");
        assert_eq!(call("a\tbc\tdef\n\tx\r\ty", "expandtabs", &[]), "'a       bc      def\\n        x\\r        y'");
        assert_eq!(call("a\tb", "expandtabs", &[i(3)]), "'a  b'");
        assert_eq!(call("a\tb", "expandtabs", &[i(-2)]), "'ab'");
    }
}
