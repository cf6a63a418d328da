//! CPython 3.11's per-character classes from `unicodedata_tables.rs` (Unicode 14): the general
//! category, which also says which characters Unicode 14 assigns (so that `name` and `lookup`
//! know only the names CPython knows), the bidirectional class and the mirrored property.

use super::unicodedata::{check_count, one_char};
use super::unicodedata_tables::{BIDI_NAMES, BIDIRECTIONAL, CATEGORY, CATEGORY_NAMES, MIRRORED};
use crate::error::Result;
use crate::{AnyValue, AnyView};

/// The value of the run of `runs` (first code point and value, in order) that holds `c`.
pub(super) fn run_value(runs: &[(u32, u8)], c: char) -> u8 {
    // The run holding `c` is the last that starts at or before it (the first starts at 0).
    runs[runs.partition_point(|&(start, _)| start <= c as u32) - 1].1
}

/// `unicodedata.category(c)` in CPython 3.11 (`Lu`, `Mn`, `Cn` for a character Unicode 14
/// does not assign).
pub(super) fn category_of(c: char) -> &'static str {
    CATEGORY_NAMES[run_value(&CATEGORY, c) as usize]
}

/// Whether Unicode 14 (CPython 3.11's) assigns `c`.
pub(super) fn assigned(c: char) -> bool {
    category_of(c) != "Cn"
}

/// `unicodedata.bidirectional(chr)`: its bidirectional class (`L`, `R`, `AL`, ...; '' for none).
pub(super) fn bidirectional(args: &[AnyView<'_>]) -> Result<AnyValue> {
    check_count("bidirectional", args, 1)?;
    let c = one_char("bidirectional", &args[0])?;
    Ok(AnyValue::from_text(BIDI_NAMES[run_value(&BIDIRECTIONAL, c) as usize]))
}

/// `unicodedata.mirrored(chr)`: 1 when it is mirrored in bidirectional text, else 0.
pub(super) fn mirrored(args: &[AnyView<'_>]) -> Result<AnyValue> {
    check_count("mirrored", args, 1)?;
    let c = one_char("mirrored", &args[0])?;
    Ok(AnyValue::from_int(i64::from(run_value(&MIRRORED, c))))
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expected: CPython 3.11's unicodedata for the same characters.
    #[test]
    fn reads_cpythons_classes() {
        assert_eq!((category_of('a'), category_of('\u{0378}'), category_of('\u{1171E}')), ("Ll", "Cn", "Mn"));
        let bidi = |c: char| BIDI_NAMES[run_value(&BIDIRECTIONAL, c) as usize];
        assert_eq!(
            (bidi('a'), bidi('\u{05D0}'), bidi('\u{0627}'), bidi('1'), bidi('\u{0378}')),
            ("L", "R", "AL", "EN", "")
        );
        assert_eq!((run_value(&MIRRORED, '('), run_value(&MIRRORED, 'a')), (1, 0));
        assert!(!assigned('\u{0378}') && assigned('a'));
    }
}
