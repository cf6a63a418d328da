//! Splitting text into a list of one-character strings: the seed's `unicode_split` as a kernel.

use super::List;
use crate::any::push_chars;

impl List {
    /// Each character of `text` as an inline one-character UTF-8 string (never a heap object).
    #[inline]
    pub fn from_chars(text: &str) -> List {
        let mut list = List::with_capacity(text.len());
        list.with_items_mut(|items| push_chars(items, text));
        list
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::any::Value;

    fn texts(list: &List) -> Vec<String> {
        list.with_items(|xs| {
            xs.iter()
                .map(|x| match x.value() {
                    Value::Str(s) => s.to_owned(),
                    other => panic!("not an inline str: {other:?}"),
                })
                .collect()
        })
    }

    #[test]
    fn ascii_and_non_ascii_words_split_like_chars() {
        // Hand-written expectations: 1-, 2-, 3- and 4-byte characters, and the empty word.
        assert_eq!(texts(&List::from_chars("word")), ["w", "o", "r", "d"]);
        assert_eq!(texts(&List::from_chars("héllo")), ["h", "é", "l", "l", "o"]);
        assert_eq!(texts(&List::from_chars("日本😀a")), ["日", "本", "😀", "a"]);
        assert!(List::from_chars("").is_empty());
        for x in List::from_chars("ab\u{7f}é").to_vec() {
            assert!(x.as_obj().is_none(), "characters are inline");
        }
    }
}
