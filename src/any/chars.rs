//! One-character string values from text: the kernel of the seed's `unicode_split`.

use super::pad::AnyValue;

/// Words of at most this many bytes are split by fixed-width, branch-free code.
const SHORT_WORD: usize = 8;

/// Appends each character of `text` to `items` as an inline one-character UTF-8 string.
///
/// Rationale: the cost of splitting a typical word (about five bytes) is not the work per
/// character but the mispredicted loop exits, since word lengths are random. An ASCII word of
/// at most [`SHORT_WORD`] bytes is therefore split with no branch on its length: all eight
/// slots past the end are written (slot `i` from byte `min(i, n - 1)`, so no read leaves the
/// word) and the length then moves by `n`. The ASCII check is the OR of the same bytes.
#[inline]
pub fn push_chars(items: &mut Vec<AnyValue>, text: &str) {
    let bytes = text.as_bytes();
    let n = bytes.len();
    if n.wrapping_sub(1) < SHORT_WORD && push_short_ascii(items, bytes) {
        return;
    }
    if bytes.is_ascii() {
        items.extend(bytes.iter().map(|&b| AnyValue::from_ascii_byte(b)));
    } else {
        items.reserve(n);
        for c in text.chars() {
            items.push(AnyValue::from_char(c));
        }
    }
}

/// Appends the bytes of a 1- to 8-byte word as one-character strings if it is all ASCII;
/// returns false, appending nothing, if it is not.
#[inline(always)]
fn push_short_ascii(items: &mut Vec<AnyValue>, bytes: &[u8]) -> bool {
    let n = bytes.len();
    debug_assert!((1..=SHORT_WORD).contains(&n));
    let last = n - 1;
    items.reserve(SHORT_WORD);
    let spare = &mut items.spare_capacity_mut()[..SHORT_WORD];
    let mut seen = 0u8;
    for (i, slot) in spare.iter_mut().enumerate() {
        let b = bytes[i.min(last)];
        seen |= b;
        // SAFETY: the word is only known to be ASCII after the loop, but a slot written here
        // stays spare capacity unless it is: a non-ASCII word leaves the length alone. (Masking
        // each byte instead cost two instructions a slot.)
        slot.write(unsafe { AnyValue::from_byte_unmasked(b) });
    }
    if seen >= 0x80 {
        return false;
    }
    let len = items.len() + n;
    // SAFETY: `reserve` made room for SHORT_WORD >= n more items, and the first n spare slots
    // were just written with valid values; the slots written past them stay spare capacity.
    unsafe { items.set_len(len) };
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::any::Value;

    /// The text of each item, which must all be inline strings.
    fn texts(items: &[AnyValue]) -> Vec<String> {
        items
            .iter()
            .map(|x| match x.value() {
                Value::Str(s) => s.to_owned(),
                other => panic!("not an inline str: {other:?}"),
            })
            .collect()
    }

    #[test]
    fn every_length_and_position_of_a_non_ascii_char_splits_like_std_chars() {
        // Lengths around the short-word bound, all ASCII and with one 'é' (two bytes) at each
        // position; `str::chars` is the reference.
        for n in 0..20usize {
            let ascii = "abcdefghijklmnopqrstuvwxyz"[..n].to_owned();
            let mut words = vec![ascii.clone()];
            words.extend((0..n).map(|at| format!("{}é{}", &ascii[..at], &ascii[at..])));
            for word in words {
                let mut items = Vec::new();
                push_chars(&mut items, &word);
                let want: Vec<String> = word.chars().map(String::from).collect();
                assert_eq!(texts(&items), want, "{word:?}");
            }
        }
    }

    #[test]
    fn push_chars_appends_after_existing_items_whatever_the_spare_capacity_held() {
        let mut items = vec![AnyValue::from(1i64)];
        push_chars(&mut items, "abcdefgh");
        items.truncate(2);
        // The short path wrote past the end before; what it left there must not show.
        push_chars(&mut items, "xy");
        push_chars(&mut items, "ç");
        push_chars(&mut items, "");
        let want =
            [AnyValue::from(1i64), AnyValue::from("a"), AnyValue::from("x"), AnyValue::from("y"), AnyValue::from("ç")];
        assert_eq!(items, want);
    }
}
