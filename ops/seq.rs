//! Sequence ops on lists of ids or tokens: special tokens, truncation (with HF's overflow
//! windows), n-grams and filters.
//!
//! Registered: `seq.add_special_tokens`, `seq.add_special_tokens_pair`, `seq.truncate`,
//! `seq.truncate_pair`, `seq.truncate_overflow`, `seq.ngrams`, `seq.filter_stopwords`,
//! `seq.filter_length`.
//!
//! Pair truncation does not restate Hugging Face's rules: it asks
//! `ndarray::collate` (which implements `longest_first`, `only_first` and
//! `only_second` for batches) how long each side ends up, so both agree by construction.

use super::vocab::with_text;
use crate::any::{AnyValue, Value};
use crate::container::{Dict, List};
use crate::error::{Error, Result, ResultExt};
use crate::func::Registry;
use crate::ndarray::{CollateOptions, Side, Truncation, plan_truncation};
use ahash::AHashSet;
use std::ops::Range;

/// Parses a side name: `right` or `left`.
pub fn parse_side(side: &str) -> Result<Side> {
    match side {
        "right" => Ok(Side::Right),
        "left" => Ok(Side::Left),
        other => Err(Error::value(format!("side must be \"right\" or \"left\", not {other:?}"))),
    }
}

/// Parses a pair truncation strategy: `longest_first`, `only_first` or `only_second`.
pub fn parse_strategy(strategy: &str) -> Result<Truncation> {
    match strategy {
        "longest_first" => Ok(Truncation::LongestFirst),
        "only_first" => Ok(Truncation::OnlyFirst),
        "only_second" => Ok(Truncation::OnlySecond),
        other => Err(Error::value(format!(
            "strategy must be \"longest_first\", \"only_first\" or \"only_second\", not {other:?}"
        ))),
    }
}

/// The `n` items kept from a sequence of `len` when cutting at `side`.
fn keep(len: usize, n: usize, side: Side) -> Range<usize> {
    let n = n.min(len);
    match side {
        Side::Right => 0..n,
        Side::Left => len - n..len,
    }
}

/// Which items of a sequence of `len` survive truncation to `max_len`.
pub fn truncate_range(len: usize, max_len: usize, side: Side) -> Range<usize> {
    keep(len, max_len, side)
}

/// Which items of each side of a pair survive truncation to `max_len` (total) under `strategy`.
///
/// The plan comes from `ndarray::collate::plan_truncation`, so the rules (and their errors, such
/// as HF's "sequence too short" for `only_first`) are exactly the batch collator's. As in HF,
/// `max_len` 0 empties both sides.
pub fn truncate_pair_ranges(
    n1: usize,
    n2: usize,
    max_len: usize,
    strategy: Truncation,
    side: Side,
) -> Result<(Range<usize>, Range<usize>)> {
    if strategy == Truncation::None || n1 + n2 <= max_len {
        return Ok((0..n1, 0..n2));
    }
    if max_len == 0 {
        return Ok((keep(n1, 0, side), keep(n2, 0, side)));
    }
    let opts = CollateOptions {
        max_length: Some(max_len),
        truncation: strategy,
        truncation_side: side,
        special_tokens: None,
        ..CollateOptions::default()
    };
    let (a, b) = plan_truncation(n1, Some(n2), &opts)?;
    Ok((a, b.unwrap_or(0..0)))
}

/// HF's `Encoding::truncate` windows: the kept part first, then each overflowing part.
///
/// Windows are `max_len` long and overlap by `stride`; `stride` must be below `max_len`.
/// `max_len` 0 keeps nothing and overflows everything (one window), as HF does.
pub fn overflow_windows(len: usize, max_len: usize, stride: usize, side: Side) -> Result<Vec<Range<usize>>> {
    if max_len >= len {
        return Ok(std::iter::once(0..len).collect());
    }
    if max_len == 0 {
        return Ok(Vec::from([0..0, 0..len]));
    }
    if stride >= max_len {
        return Err(Error::value(format!("stride {stride} must be less than max_len {max_len}")));
    }
    let step = max_len - stride;
    let mut windows = Vec::with_capacity(len / step + 1);
    match side {
        Side::Right => {
            for start in (0..len).step_by(step) {
                let stop = (start + max_len).min(len);
                windows.push(start..stop);
                if stop == len {
                    break;
                }
            }
        }
        Side::Left => {
            for last in (0..len).rev().step_by(step) {
                let stop = last + 1;
                let start = stop.saturating_sub(max_len);
                windows.push(start..stop);
                if start == 0 {
                    break;
                }
            }
        }
    }
    Ok(windows)
}

fn slice(items: &[AnyValue], range: Range<usize>) -> List {
    List::from_vec(items[range].to_vec())
}

/// `[cls] + ids + [sep]`.
fn add_special_tokens(ids: &List, cls: AnyValue, sep: AnyValue) -> List {
    ids.with_items(|xs| {
        let mut out = List::with_capacity(xs.len() + 2);
        out.push(cls);
        out.extend(xs.iter().cloned());
        out.push(sep);
        out
    })
}

/// `[cls] a [sep] b [sep]` and its token type ids (0 up to the first `[sep]`, then 1).
fn add_special_tokens_pair(a: &List, b: &List, cls: AnyValue, sep: AnyValue) -> Dict {
    let (a, b) = (a.to_vec(), b.to_vec());
    let mut ids = List::with_capacity(a.len() + b.len() + 3);
    ids.push(cls);
    ids.extend(a.iter().cloned());
    ids.push(sep.clone());
    ids.extend(b.iter().cloned());
    ids.push(sep);
    let mut types = List::with_capacity(ids.len());
    types.extend(std::iter::repeat_n(0i64, a.len() + 2).chain(std::iter::repeat_n(1i64, b.len() + 1)));
    let mut d = Dict::new();
    d.set("input_ids", ids);
    d.set("token_type_ids", types);
    d
}

/// The text of each list item; errors name the item.
fn texts(list: &List) -> Result<Vec<String>> {
    list.with_items(|xs| {
        xs.iter()
            .enumerate()
            .map(|(i, x)| with_text(&x.view(), str::to_owned).with_context(|| format!("list item {i}")))
            .collect()
    })
}

/// Every run of `n` consecutive tokens, joined by `sep`.
pub fn ngrams(tokens: &[impl AsRef<str>], n: usize, sep: &str) -> Result<Vec<String>> {
    if n == 0 {
        return Err(Error::value("n must be at least 1"));
    }
    Ok(tokens
        .windows(n)
        .map(|w| {
            let mut s = String::with_capacity(w.iter().map(|t| t.as_ref().len() + sep.len()).sum());
            for (i, t) in w.iter().enumerate() {
                if i > 0 {
                    s.push_str(sep);
                }
                s.push_str(t.as_ref());
            }
            s
        })
        .collect())
}

/// Keeps the items for which `keep(text)` holds; non-string items are an error naming them.
fn filter_texts(tokens: &List, mut keep: impl FnMut(&str) -> bool) -> Result<List> {
    tokens.with_items(|xs| {
        let mut out = List::with_capacity(xs.len());
        for (i, x) in xs.iter().enumerate() {
            let s = match x.value() {
                Value::Str(s) => keep(s),
                _ => with_text(&x.view(), &mut keep).with_context(|| format!("list item {i}"))?,
            };
            if s {
                out.push(x.clone());
            }
        }
        Ok(out)
    })
}

/// Registers the `seq.*` ops.
pub fn register(reg: &Registry) -> Result<()> {
    reg.register_typed(
        "seq.add_special_tokens",
        "Returns [cls] + ids + [sep] (ids or tokens alike).",
        |ids: List, cls: AnyValue, sep: AnyValue| add_special_tokens(&ids, cls, sep),
        false,
    )?;
    reg.register_typed(
        "seq.add_special_tokens_pair",
        "Returns {input_ids: [cls] a [sep] b [sep], token_type_ids: 0 through the first sep, then 1}.",
        |a: List, b: List, cls: AnyValue, sep: AnyValue| add_special_tokens_pair(&a, &b, cls, sep),
        false,
    )?;
    reg.register_typed(
        "seq.truncate",
        "Keeps at most max_len items, cutting at side (\"right\" or \"left\").",
        |ids: List, max_len: usize, side: String| -> Result<List> {
            let side = parse_side(&side).with_context(|| "argument 2")?;
            Ok(ids.with_items(|xs| slice(xs, truncate_range(xs.len(), max_len, side))))
        },
        false,
    )?;
    reg.register_typed(
        "seq.truncate_pair",
        "Truncates a pair to max_len items in total (longest_first | only_first | only_second); returns [a, b].",
        |a: List, b: List, max_len: usize, strategy: String, side: String| -> Result<List> {
            let strategy = parse_strategy(&strategy).with_context(|| "argument 3")?;
            let side = parse_side(&side).with_context(|| "argument 4")?;
            let (a, b) = (a.to_vec(), b.to_vec());
            let (ra, rb) = truncate_pair_ranges(a.len(), b.len(), max_len, strategy, side)?;
            Ok(List::from_vec(vec![slice(&a, ra).into_any(), slice(&b, rb).into_any()]))
        },
        false,
    )?;
    reg.register_typed(
        "seq.truncate_overflow",
        "HF truncation with stride: [kept, overflow 1, ...], windows of max_len overlapping by stride.",
        |ids: List, max_len: usize, stride: usize, side: String| -> Result<List> {
            let side = parse_side(&side).with_context(|| "argument 3")?;
            let xs = ids.to_vec();
            let windows = overflow_windows(xs.len(), max_len, stride, side)?;
            Ok(windows.into_iter().map(|r| slice(&xs, r)).collect())
        },
        false,
    )?;
    reg.register_typed(
        "seq.ngrams",
        "Every run of n consecutive tokens, joined by sep.",
        |tokens: List, n: usize, sep: String| -> Result<List> {
            let t = texts(&tokens).with_context(|| "argument 0")?;
            Ok(ngrams(&t, n, &sep).with_context(|| "argument 1")?.into_iter().collect())
        },
        false,
    )?;
    reg.register_typed(
        "seq.filter_stopwords",
        "Drops the tokens that are in the stopword list (exact match).",
        |tokens: List, stopwords: List| -> Result<List> {
            let stop = texts(&stopwords).with_context(|| "argument 1")?;
            let stop: AHashSet<&str> = stop.iter().map(String::as_str).collect();
            filter_texts(&tokens, |s| !stop.contains(s)).with_context(|| "argument 0")
        },
        false,
    )?;
    reg.register_typed(
        "seq.filter_length",
        "Keeps the tokens of min..=max chars (code points); max None means no upper bound.",
        |tokens: List, min: usize, max: Option<usize>| -> Result<List> {
            let max = max.unwrap_or(usize::MAX);
            filter_texts(&tokens, |s| (min..=max).contains(&s.chars().count())).with_context(|| "argument 0")
        },
        false,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overflow_windows_match_hf_encoding_truncate() {
        // HF tokenizers' own test: [1..=5] truncated to 2 with stride 1, right: [1,2],[2,3],[3,4],[4,5].
        assert_eq!(overflow_windows(5, 2, 1, Side::Right).unwrap(), vec![0..2, 1..3, 2..4, 3..5]);
        assert_eq!(overflow_windows(5, 2, 1, Side::Left).unwrap(), vec![3..5, 2..4, 1..3, 0..2]);
        assert_eq!(overflow_windows(5, 3, 0, Side::Right).unwrap(), vec![0..3, 3..5]);
        assert_eq!(overflow_windows(5, 0, 0, Side::Right).unwrap(), vec![0..0, 0..5]);
        assert!(overflow_windows(5, 2, 2, Side::Right).is_err());
    }

    #[test]
    fn pair_ranges_follow_longest_first() {
        // n1 = 3 <= n2 = 10, budget 8: keep a (3), b gets 5.
        assert_eq!(truncate_pair_ranges(3, 10, 8, Truncation::LongestFirst, Side::Right).unwrap(), (0..3, 0..5));
        // both long, budget 7: 3 and 4 (the longer, second, gets the odd one).
        assert_eq!(truncate_pair_ranges(10, 10, 7, Truncation::LongestFirst, Side::Left).unwrap(), (7..10, 6..10));
        assert!(truncate_pair_ranges(2, 10, 5, Truncation::OnlyFirst, Side::Right).is_err());
    }
}
