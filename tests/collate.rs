//! Collation into padded `[batch, len]` tensors, checked against hand-computed batches.
//!
//! Every expected tensor is written out literally. The rules they follow are the
//! Hugging Face ones:
//! - BERT's template (`BertProcessing` / `TemplateProcessing` in HF tokenizers):
//!   single `[CLS] A [SEP]`, pair `[CLS] A [SEP] B [SEP]`, token type ids 0 for
//!   `[CLS] A [SEP]` and 1 for `B [SEP]`, padding gets type id 0 and mask 0;
//! - truncation budgets exclude the special tokens (`max_length - added_tokens`);
//! - `longest_first` for pairs is HF tokenizers' `truncate_encodings`
//!   (tokenizers/src/utils/truncation.rs): with n1 <= n2 (swapping if needed),
//!   `n2 = n1 > max ? n1 : max(n1, max - n1)`, and if `n1 + n2 > max` then
//!   `n1 = max / 2, n2 = n1 + max % 2`, swapped back. (The longer one is cut
//!   first; if both must be cut, they are cut to halves, the longer one getting
//!   the odd token. On a tie, the second sequence is the "longer" one.)
//! - `only_first` / `only_second` cut only that sequence, and refuse (HF's
//!   `SequenceTooShort`) when it would have to lose all of its tokens;
//! - `pad_to_multiple_of` rounds the padded length up, also for fixed-length padding
//!   (transformers' `_pad`);
//! - `NDArray::from_nested` follows `np.array`: ints give int64, any float gives
//!   float64, bools alone give bool, bools with ints give int64, `[]` gives
//!   float64 of shape (0,).

mod common;

use anyproc::ndarray::{
    Batch, CollateOptions, DLDataType, NDArray, Padding, RaggedBatch, Side, SpecialTokens, Truncation, collate,
    collate_lists, collate_ragged,
};
use anyproc::{AnyValue, List};
use common::{J, err_text, ints2, j};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// `a` is an int64 tensor of shape `[rows, width]` equal to `expect` (via `to_list` and `as_slice`).
fn check2(a: &NDArray, expect: &[&[i64]]) {
    let width = expect.first().map_or(0, |r| r.len());
    assert!(expect.iter().all(|r| r.len() == width), "test bug: ragged expectation");
    assert_eq!(a.dtype(), DLDataType::INT64);
    assert_eq!(a.shape(), &[expect.len() as i64, width as i64]);
    assert_eq!(j(&a.to_list().unwrap()), ints2(expect));
    let flat: Vec<i64> = expect.concat();
    assert_eq!(a.as_slice::<i64>().unwrap(), &flat[..]);
}

/// The int32 twin of `check2`.
fn check2_i32(a: &NDArray, expect: &[&[i32]]) {
    let width = expect.first().map_or(0, |r| r.len());
    assert_eq!(a.dtype(), DLDataType::INT32);
    assert_eq!(a.shape(), &[expect.len() as i64, width as i64]);
    let flat: Vec<i32> = expect.concat();
    assert_eq!(a.as_slice::<i32>().unwrap(), &flat[..]);
    let wide: Vec<Vec<i64>> = expect.iter().map(|r| r.iter().map(|&x| x as i64).collect()).collect();
    let wide: Vec<&[i64]> = wide.iter().map(Vec::as_slice).collect();
    assert_eq!(j(&a.to_list().unwrap()), ints2(&wide));
}

fn check1(a: &NDArray, expect: &[i64]) {
    assert_eq!(a.dtype(), DLDataType::INT64);
    assert_eq!(a.shape(), &[expect.len() as i64]);
    assert_eq!(a.as_slice::<i64>().unwrap(), expect);
}

fn run(firsts: &[Vec<i64>], seconds: Option<&[Vec<i64>]>, opts: &CollateOptions) -> anyproc::Result<Batch> {
    let a: Vec<&Vec<i64>> = firsts.iter().collect();
    let b: Option<Vec<&Vec<i64>>> = seconds.map(|s| s.iter().collect());
    collate(&a, b.as_deref(), opts)
}

fn run_ragged(
    firsts: &[Vec<i64>],
    seconds: Option<&[Vec<i64>]>,
    opts: &CollateOptions,
) -> anyproc::Result<RaggedBatch> {
    let a: Vec<&Vec<i64>> = firsts.iter().collect();
    let b: Option<Vec<&Vec<i64>>> = seconds.map(|s| s.iter().collect());
    collate_ragged(&a, b.as_deref(), opts)
}

fn rows(x: &[&[i64]]) -> Vec<Vec<i64>> {
    x.iter().map(|r| r.to_vec()).collect()
}

/// `1..=n`: a first sequence whose kept prefix is easy to read.
fn first_seq(n: i64) -> Vec<i64> {
    (1..=n).collect()
}

/// `51..=50+n`: a second sequence.
fn second_seq(n: i64) -> Vec<i64> {
    (51..51 + n).collect()
}

/// The three rows used by most single-sequence tests: lengths 3, 2, 5.
fn abc() -> Vec<Vec<i64>> {
    rows(&[&[21, 22, 23], &[31, 32], &[41, 42, 43, 44, 45]])
}

fn bert() -> Option<SpecialTokens> {
    Some(SpecialTokens::bert(101, 102))
}

// ---------------------------------------------------------------------------------------------
// Padding
// ---------------------------------------------------------------------------------------------

#[test]
fn pads_to_the_longest_row_by_default() {
    let b = run(&abc(), None, &CollateOptions::default()).unwrap();
    // Longest row has 5 ids; the others are padded on the right with 0.
    check2(&b.input_ids, &[&[21, 22, 23, 0, 0], &[31, 32, 0, 0, 0], &[41, 42, 43, 44, 45]]);
    check2(b.attention_mask.as_ref().unwrap(), &[&[1, 1, 1, 0, 0], &[1, 1, 0, 0, 0], &[1, 1, 1, 1, 1]]);
    assert!(b.token_type_ids.is_none(), "token_type_ids are off by default");
    let d = b.into_dict();
    assert_eq!(d.len(), 2);
    assert!(d.get("input_ids").is_some() && d.get("attention_mask").is_some() && d.get("token_type_ids").is_none());
}

#[test]
fn typed_rows_of_other_integer_types_collate_the_same() {
    // u32 (what tokenizers produce), i32 and u16 rows: same batch as `pads_to_the_longest_row_by_default`.
    let expect: &[&[i64]] = &[&[21, 22, 23, 0, 0], &[31, 32, 0, 0, 0], &[41, 42, 43, 44, 45]];
    let u: Vec<Vec<u32>> = vec![vec![21, 22, 23], vec![31, 32], vec![41, 42, 43, 44, 45]];
    let refs: Vec<&[u32]> = u.iter().map(Vec::as_slice).collect();
    check2(&collate(&refs, None, &CollateOptions::default()).unwrap().input_ids, expect);
    let i: Vec<Vec<i32>> = vec![vec![21, 22, 23], vec![31, 32], vec![41, 42, 43, 44, 45]];
    let refs: Vec<&Vec<i32>> = i.iter().collect();
    check2(&collate(&refs, None, &CollateOptions::default()).unwrap().input_ids, expect);
    let s: Vec<Vec<u16>> = vec![vec![21, 22, 23], vec![31, 32], vec![41, 42, 43, 44, 45]];
    let refs: Vec<&[u16]> = s.iter().map(Vec::as_slice).collect();
    check2(&collate(&refs, None, &CollateOptions::default()).unwrap().input_ids, expect);
}

#[test]
fn pad_id_fills_padding() {
    let opts = CollateOptions { pad_id: 7, ..Default::default() };
    let b = run(&abc(), None, &opts).unwrap();
    check2(&b.input_ids, &[&[21, 22, 23, 7, 7], &[31, 32, 7, 7, 7], &[41, 42, 43, 44, 45]]);
    // The mask does not depend on the pad id.
    check2(b.attention_mask.as_ref().unwrap(), &[&[1, 1, 1, 0, 0], &[1, 1, 0, 0, 0], &[1, 1, 1, 1, 1]]);
    // A negative pad id (e.g. -100, the "ignore" label) is fine too.
    let opts = CollateOptions { pad_id: -100, ..Default::default() };
    let b = run(&rows(&[&[1], &[2, 3]]), None, &opts).unwrap();
    check2(&b.input_ids, &[&[1, -100], &[2, 3]]);
}

#[test]
fn padding_max_length_uses_a_fixed_width() {
    let opts = CollateOptions { padding: Padding::MaxLength, max_length: Some(7), ..Default::default() };
    let b = run(&abc(), None, &opts).unwrap();
    check2(&b.input_ids, &[&[21, 22, 23, 0, 0, 0, 0], &[31, 32, 0, 0, 0, 0, 0], &[41, 42, 43, 44, 45, 0, 0]]);
    check2(
        b.attention_mask.as_ref().unwrap(),
        &[&[1, 1, 1, 0, 0, 0, 0], &[1, 1, 0, 0, 0, 0, 0], &[1, 1, 1, 1, 1, 0, 0]],
    );
    // Exactly the longest row's length: no padding on that row.
    let opts = CollateOptions { padding: Padding::MaxLength, max_length: Some(5), ..Default::default() };
    check2(
        &run(&abc(), None, &opts).unwrap().input_ids,
        &[&[21, 22, 23, 0, 0], &[31, 32, 0, 0, 0], &[41, 42, 43, 44, 45]],
    );
}

#[test]
fn pad_to_multiple_of_rounds_the_width_up() {
    // Longest 5 -> next multiple of 4 is 8.
    let opts = CollateOptions { pad_to_multiple_of: Some(4), ..Default::default() };
    let b = run(&abc(), None, &opts).unwrap();
    check2(&b.input_ids, &[&[21, 22, 23, 0, 0, 0, 0, 0], &[31, 32, 0, 0, 0, 0, 0, 0], &[41, 42, 43, 44, 45, 0, 0, 0]]);
    check2(
        b.attention_mask.as_ref().unwrap(),
        &[&[1, 1, 1, 0, 0, 0, 0, 0], &[1, 1, 0, 0, 0, 0, 0, 0], &[1, 1, 1, 1, 1, 0, 0, 0]],
    );
    // Longest 4 is already a multiple of 4: width stays 4.
    let b = run(&rows(&[&[1, 2, 3, 4], &[5]]), None, &opts).unwrap();
    check2(&b.input_ids, &[&[1, 2, 3, 4], &[5, 0, 0, 0]]);
    // With fixed padding, max_length 6 rounds up to 8 (transformers' `_pad`).
    let opts = CollateOptions {
        padding: Padding::MaxLength,
        max_length: Some(6),
        pad_to_multiple_of: Some(4),
        ..Default::default()
    };
    check2(&run(&rows(&[&[1, 2]]), None, &opts).unwrap().input_ids, &[&[1, 2, 0, 0, 0, 0, 0, 0]]);
    // A multiple of 0 is meaningless.
    let opts = CollateOptions { pad_to_multiple_of: Some(0), ..Default::default() };
    assert!(err_text(run(&abc(), None, &opts)).contains("pad_to_multiple_of"));
}

#[test]
fn padding_side_left() {
    let opts = CollateOptions { padding_side: Side::Left, ..Default::default() };
    let b = run(&abc(), None, &opts).unwrap();
    check2(&b.input_ids, &[&[0, 0, 21, 22, 23], &[0, 0, 0, 31, 32], &[41, 42, 43, 44, 45]]);
    check2(b.attention_mask.as_ref().unwrap(), &[&[0, 0, 1, 1, 1], &[0, 0, 0, 1, 1], &[1, 1, 1, 1, 1]]);
    // With BERT pairs and token type ids, left padding shifts the whole row, type ids included:
    // row 0 = [CLS] 21 [SEP] 51 [SEP] (5 ids) in width 6.
    let opts =
        CollateOptions { padding_side: Side::Left, special_tokens: bert(), token_type_ids: true, ..Default::default() };
    let b = run(&rows(&[&[21], &[31, 32]]), Some(&rows(&[&[51], &[61]])), &opts).unwrap();
    check2(&b.input_ids, &[&[0, 101, 21, 102, 51, 102], &[101, 31, 32, 102, 61, 102]]);
    check2(b.token_type_ids.as_ref().unwrap(), &[&[0, 0, 0, 0, 1, 1], &[0, 0, 0, 0, 1, 1]]);
    check2(b.attention_mask.as_ref().unwrap(), &[&[0, 1, 1, 1, 1, 1], &[1, 1, 1, 1, 1, 1]]);
}

// ---------------------------------------------------------------------------------------------
// Truncation of single sequences
// ---------------------------------------------------------------------------------------------

#[test]
fn truncation_right_keeps_the_start() {
    for strategy in [Truncation::LongestFirst, Truncation::OnlyFirst] {
        let opts = CollateOptions { truncation: strategy, max_length: Some(3), ..Default::default() };
        let b = run(&abc(), None, &opts).unwrap();
        // 5 ids -> first 3; rows of length <= 3 are untouched; width = longest = 3.
        check2(&b.input_ids, &[&[21, 22, 23], &[31, 32, 0], &[41, 42, 43]]);
        check2(b.attention_mask.as_ref().unwrap(), &[&[1, 1, 1], &[1, 1, 0], &[1, 1, 1]]);
    }
    // Truncation with fixed padding wider than the cut.
    let opts = CollateOptions {
        truncation: Truncation::LongestFirst,
        max_length: Some(4),
        padding: Padding::MaxLength,
        ..Default::default()
    };
    check2(&run(&abc(), None, &opts).unwrap().input_ids, &[&[21, 22, 23, 0], &[31, 32, 0, 0], &[41, 42, 43, 44]]);
}

#[test]
fn truncation_left_keeps_the_end() {
    let opts = CollateOptions {
        truncation: Truncation::LongestFirst,
        truncation_side: Side::Left,
        max_length: Some(3),
        ..Default::default()
    };
    // [41..=45] keeps its last 3 ids.
    check2(&run(&abc(), None, &opts).unwrap().input_ids, &[&[21, 22, 23], &[31, 32, 0], &[43, 44, 45]]);
    // Left truncation and left padding together.
    let opts = CollateOptions { padding_side: Side::Left, ..opts };
    check2(&run(&abc(), None, &opts).unwrap().input_ids, &[&[21, 22, 23], &[0, 31, 32], &[43, 44, 45]]);
}

// ---------------------------------------------------------------------------------------------
// Special tokens
// ---------------------------------------------------------------------------------------------

#[test]
fn bert_singles() {
    let opts = CollateOptions { special_tokens: bert(), token_type_ids: true, ..Default::default() };
    let b = run(&rows(&[&[21, 22, 23], &[31, 32]]), None, &opts).unwrap();
    // [CLS] A [SEP], type ids all 0.
    check2(&b.input_ids, &[&[101, 21, 22, 23, 102], &[101, 31, 32, 102, 0]]);
    check2(b.attention_mask.as_ref().unwrap(), &[&[1, 1, 1, 1, 1], &[1, 1, 1, 1, 0]]);
    check2(b.token_type_ids.as_ref().unwrap(), &[&[0, 0, 0, 0, 0], &[0, 0, 0, 0, 0]]);
    // max_length 4 counts the 2 specials: budget 2 ids per row.
    let opts = CollateOptions { truncation: Truncation::LongestFirst, max_length: Some(4), ..opts };
    let b = run(&abc(), None, &opts).unwrap();
    check2(&b.input_ids, &[&[101, 21, 22, 102], &[101, 31, 32, 102], &[101, 41, 42, 102]]);
}

#[test]
fn bert_pairs_with_token_type_ids() {
    let opts = CollateOptions { special_tokens: bert(), token_type_ids: true, ..Default::default() };
    let b = run(&rows(&[&[21, 22, 23], &[31, 32]]), Some(&rows(&[&[51], &[61, 62, 63]])), &opts).unwrap();
    // Row 0: [CLS] 21 22 23 [SEP] 51 [SEP] = 7 ids, padded to 8.
    // Row 1: [CLS] 31 32 [SEP] 61 62 63 [SEP] = 8 ids.
    check2(&b.input_ids, &[&[101, 21, 22, 23, 102, 51, 102, 0], &[101, 31, 32, 102, 61, 62, 63, 102]]);
    // Type ids: 0 for [CLS] A [SEP], 1 for B [SEP], 0 for padding.
    check2(b.token_type_ids.as_ref().unwrap(), &[&[0, 0, 0, 0, 0, 1, 1, 0], &[0, 0, 0, 0, 1, 1, 1, 1]]);
    check2(b.attention_mask.as_ref().unwrap(), &[&[1, 1, 1, 1, 1, 1, 1, 0], &[1, 1, 1, 1, 1, 1, 1, 1]]);
    let d = b.into_dict();
    assert_eq!(d.len(), 3);
    assert!(d.get("token_type_ids").is_some());
}

#[test]
fn pairs_without_special_tokens_still_get_type_ids() {
    let opts = CollateOptions { token_type_ids: true, ..Default::default() };
    let b = run(&rows(&[&[1, 2]]), Some(&rows(&[&[3, 4, 5]])), &opts).unwrap();
    check2(&b.input_ids, &[&[1, 2, 3, 4, 5]]);
    check2(b.token_type_ids.as_ref().unwrap(), &[&[0, 0, 1, 1, 1]]);
}

// ---------------------------------------------------------------------------------------------
// Pair truncation strategies
// ---------------------------------------------------------------------------------------------

fn pair_batch(lens: &[(i64, i64)]) -> (Vec<Vec<i64>>, Vec<Vec<i64>>) {
    (lens.iter().map(|&(a, _)| first_seq(a)).collect(), lens.iter().map(|&(_, b)| second_seq(b)).collect())
}

#[test]
fn longest_first_even_budget() {
    // max_length 11 with BERT's 3 pair specials: budget 8. With n1 <= n2 (HF's rule, see the top):
    //   (3, 10):  n2 = max(3, 8-3) = 5; 3+5 = 8 fits                   -> (3, 5)
    //   (6, 10):  n2 = max(6, 8-6) = 6; 6+6 > 8 -> n1 = 4, n2 = 4      -> (4, 4)
    //   (10, 3):  swap to (3, 10) -> (3, 5), swap back                 -> (5, 3)
    //   (12, 9):  swap to (9, 12); 9 > 8 so n2 = 9; 18 > 8 -> (4, 4)   -> (4, 4)
    //   (2, 2):   2+2 = 4 <= 8, nothing to cut                         -> (2, 2)
    //   (8, 0):   8+0 = 8 <= 8, nothing to cut                         -> (8, 0)
    let (a, b) = pair_batch(&[(3, 10), (6, 10), (10, 3), (12, 9), (2, 2), (8, 0)]);
    let opts = CollateOptions {
        special_tokens: bert(),
        token_type_ids: true,
        truncation: Truncation::LongestFirst,
        max_length: Some(11),
        ..Default::default()
    };
    let out = run(&a, Some(&b), &opts).unwrap();
    check2(
        &out.input_ids,
        &[
            &[101, 1, 2, 3, 102, 51, 52, 53, 54, 55, 102],
            &[101, 1, 2, 3, 4, 102, 51, 52, 53, 54, 102],
            &[101, 1, 2, 3, 4, 5, 102, 51, 52, 53, 102],
            &[101, 1, 2, 3, 4, 102, 51, 52, 53, 54, 102],
            &[101, 1, 2, 102, 51, 52, 102, 0, 0, 0, 0],
            &[101, 1, 2, 3, 4, 5, 6, 7, 8, 102, 102],
        ],
    );
    check2(
        out.token_type_ids.as_ref().unwrap(),
        &[
            &[0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1],
            &[0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1],
            &[0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1],
            &[0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1],
            &[0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0],
            &[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
        ],
    );
    check2(
        out.attention_mask.as_ref().unwrap(),
        &[
            &[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
            &[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
            &[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
            &[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
            &[1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0],
            &[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
        ],
    );
}

#[test]
fn longest_first_odd_budget() {
    // max_length 12 with 3 specials: budget 9.
    //   (7, 6):  swap to (6, 7); n2 = max(6, 3) = 6; 12 > 9 -> n1 = 4, n2 = 5; swap back -> (5, 4)
    //   (6, 7):  n2 = max(6, 3) = 6; 12 > 9 -> n1 = 4, n2 = 5                         -> (4, 5)
    //   (5, 5):  no swap on a tie; n2 = max(5, 4) = 5; 10 > 9 -> (4, 5)                -> (4, 5)
    //   (2, 20): n2 = max(2, 7) = 7; 2+7 = 9 fits                                      -> (2, 7)
    //   (20, 1): swap to (1, 20); n2 = max(1, 8) = 8; 9 fits; swap back                -> (8, 1)
    let (a, b) = pair_batch(&[(7, 6), (6, 7), (5, 5), (2, 20), (20, 1)]);
    let opts = CollateOptions {
        special_tokens: bert(),
        token_type_ids: true,
        truncation: Truncation::LongestFirst,
        max_length: Some(12),
        ..Default::default()
    };
    let out = run(&a, Some(&b), &opts).unwrap();
    check2(
        &out.input_ids,
        &[
            &[101, 1, 2, 3, 4, 5, 102, 51, 52, 53, 54, 102],
            &[101, 1, 2, 3, 4, 102, 51, 52, 53, 54, 55, 102],
            &[101, 1, 2, 3, 4, 102, 51, 52, 53, 54, 55, 102],
            &[101, 1, 2, 102, 51, 52, 53, 54, 55, 56, 57, 102],
            &[101, 1, 2, 3, 4, 5, 6, 7, 8, 102, 51, 102],
        ],
    );
    check2(
        out.token_type_ids.as_ref().unwrap(),
        &[
            &[0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1],
            &[0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1],
            &[0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1],
            &[0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1],
            &[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1],
        ],
    );
}

#[test]
fn longest_first_left_side_and_without_specials() {
    // Budget 8 as in the even case; (3, 10) -> (3, 5) and (6, 10) -> (4, 4), but keeping the ends:
    // second [51..=60] keeps 56..=60, resp. 57..=60; first [1..=6] keeps 3..=6.
    let (a, b) = pair_batch(&[(3, 10), (6, 10)]);
    let opts = CollateOptions {
        special_tokens: bert(),
        truncation: Truncation::LongestFirst,
        truncation_side: Side::Left,
        max_length: Some(11),
        ..Default::default()
    };
    check2(
        &run(&a, Some(&b), &opts).unwrap().input_ids,
        &[&[101, 1, 2, 3, 102, 56, 57, 58, 59, 60, 102], &[101, 3, 4, 5, 6, 102, 57, 58, 59, 60, 102]],
    );
    // No specials: max_length 7 is the whole budget. (5, 5): n2 = max(5, 2) = 5; 10 > 7 -> (3, 4).
    let (a, b) = pair_batch(&[(5, 5)]);
    let opts = CollateOptions {
        truncation: Truncation::LongestFirst,
        max_length: Some(7),
        token_type_ids: true,
        ..Default::default()
    };
    let out = run(&a, Some(&b), &opts).unwrap();
    check2(&out.input_ids, &[&[1, 2, 3, 51, 52, 53, 54]]);
    check2(out.token_type_ids.as_ref().unwrap(), &[&[0, 0, 0, 1, 1, 1, 1]]);
}

#[test]
fn only_first_cuts_the_first_sequence() {
    // Budget 11 - 3 = 8:
    //   (6, 4):  8 - 4 = 4 ids of the first  -> (4, 4)
    //   (10, 2): 8 - 2 = 6                   -> (6, 2)
    //   (2, 2):  fits                        -> (2, 2)
    let (a, b) = pair_batch(&[(6, 4), (10, 2), (2, 2)]);
    let opts = CollateOptions {
        special_tokens: bert(),
        truncation: Truncation::OnlyFirst,
        max_length: Some(11),
        ..Default::default()
    };
    check2(
        &run(&a, Some(&b), &opts).unwrap().input_ids,
        &[
            &[101, 1, 2, 3, 4, 102, 51, 52, 53, 54, 102],
            &[101, 1, 2, 3, 4, 5, 6, 102, 51, 52, 102],
            &[101, 1, 2, 102, 51, 52, 102, 0, 0, 0, 0],
        ],
    );
    // (3, 9): 12 ids for a budget of 8 means 4 must go, but the first has only 3;
    // HF refuses (SequenceTooShort) rather than cutting into the second.
    let (a, b) = pair_batch(&[(2, 2), (3, 9)]);
    let e = err_text(run(&a, Some(&b), &opts));
    assert!(e.starts_with("row 1: "), "{e}");
    assert!(e.contains("the first sequence (3 ids) is too short to remove the 4 ids over max_length"), "{e}");
}

#[test]
fn only_second_cuts_the_second_sequence() {
    // Budget 8:
    //   (4, 6):  8 - 4 = 4 ids of the second -> (4, 4)
    //   (2, 10): 8 - 2 = 6                   -> (2, 6)
    //   (3, 3):  fits                        -> (3, 3)
    let (a, b) = pair_batch(&[(4, 6), (2, 10), (3, 3)]);
    let opts = CollateOptions {
        special_tokens: bert(),
        truncation: Truncation::OnlySecond,
        max_length: Some(11),
        ..Default::default()
    };
    check2(
        &run(&a, Some(&b), &opts).unwrap().input_ids,
        &[
            &[101, 1, 2, 3, 4, 102, 51, 52, 53, 54, 102],
            &[101, 1, 2, 102, 51, 52, 53, 54, 55, 56, 102],
            &[101, 1, 2, 3, 102, 51, 52, 53, 102, 0, 0],
        ],
    );
    // (9, 3): 4 ids over the budget, but the second has only 3: refused.
    let (a, b) = pair_batch(&[(9, 3)]);
    let e = err_text(run(&a, Some(&b), &opts));
    assert!(e.contains("row 0") && e.contains("the second sequence (3 ids) is too short to remove the 4 ids"), "{e}");
    // only_second on single sequences: HF's SecondSequenceNotProvided.
    let e = err_text(run(&abc(), None, &CollateOptions { max_length: Some(3), ..opts }));
    assert!(e.contains("only_second needs a second sequence"), "{e}");
}

#[test]
fn only_second_never_empties_the_sequence_like_hf() {
    // HF tokenizers (`truncate_encodings`): `if target_len > to_remove { truncate } else { Err(SequenceTooShort) }`.
    // (8, 3) with budget 8: to_remove = 3 = len(second), so HF refuses rather than drop the whole
    // second sequence. Same for only_first with (3, 8).
    let opts = CollateOptions {
        special_tokens: bert(),
        truncation: Truncation::OnlySecond,
        max_length: Some(11),
        ..Default::default()
    };
    let (a, b) = pair_batch(&[(8, 3)]);
    if let Ok(out) = run(&a, Some(&b), &opts) {
        panic!("only_second cut the second sequence to nothing instead of refusing: {:?}", out.input_ids);
    }
    let opts = CollateOptions { truncation: Truncation::OnlyFirst, ..opts };
    let (a, b) = pair_batch(&[(3, 8)]);
    if let Ok(out) = run(&a, Some(&b), &opts) {
        panic!("only_first cut the first sequence to nothing instead of refusing: {:?}", out.input_ids);
    }
}

// ---------------------------------------------------------------------------------------------
// Output options and edge cases
// ---------------------------------------------------------------------------------------------

#[test]
fn int32_output() {
    let opts = CollateOptions { dtype: DLDataType::INT32, token_type_ids: true, ..Default::default() };
    let b = run(&abc(), None, &opts).unwrap();
    check2_i32(&b.input_ids, &[&[21, 22, 23, 0, 0], &[31, 32, 0, 0, 0], &[41, 42, 43, 44, 45]]);
    check2_i32(b.attention_mask.as_ref().unwrap(), &[&[1, 1, 1, 0, 0], &[1, 1, 0, 0, 0], &[1, 1, 1, 1, 1]]);
    check2_i32(b.token_type_ids.as_ref().unwrap(), &[&[0; 5], &[0; 5], &[0; 5]]);
    // The extremes of int32 fit.
    let b = run(&rows(&[&[2147483647, -2147483648]]), None, &opts).unwrap();
    check2_i32(&b.input_ids, &[&[i32::MAX, i32::MIN]]);
}

#[test]
fn attention_mask_on_and_off() {
    let off = CollateOptions { attention_mask: false, ..Default::default() };
    let b = run(&abc(), None, &off).unwrap();
    assert!(b.attention_mask.is_none());
    check2(&b.input_ids, &[&[21, 22, 23, 0, 0], &[31, 32, 0, 0, 0], &[41, 42, 43, 44, 45]]);
    assert_eq!(b.into_dict().len(), 1);
    let on = CollateOptions { attention_mask: true, ..Default::default() };
    assert!(run(&abc(), None, &on).unwrap().attention_mask.is_some());
}

#[test]
fn empty_sequences() {
    let b = run(&rows(&[&[], &[21], &[]]), None, &CollateOptions::default()).unwrap();
    check2(&b.input_ids, &[&[0], &[21], &[0]]);
    check2(b.attention_mask.as_ref().unwrap(), &[&[0], &[1], &[0]]);
    // Only empty rows: width 0.
    let b = run(&rows(&[&[], &[]]), None, &CollateOptions::default()).unwrap();
    assert_eq!(b.input_ids.shape(), &[2, 0]);
    assert_eq!(b.attention_mask.as_ref().unwrap().shape(), &[2, 0]);
    assert_eq!(j(&b.input_ids.to_list().unwrap()), J::L(vec![J::L(vec![]), J::L(vec![])]));
    // Empty rows still get their special tokens.
    let opts = CollateOptions { special_tokens: bert(), token_type_ids: true, ..Default::default() };
    let b = run(&rows(&[&[], &[21], &[]]), None, &opts).unwrap();
    check2(&b.input_ids, &[&[101, 102, 0], &[101, 21, 102], &[101, 102, 0]]);
    check2(b.attention_mask.as_ref().unwrap(), &[&[1, 1, 0], &[1, 1, 1], &[1, 1, 0]]);
    // An empty pair: [CLS] [SEP] [SEP], the last one of type 1.
    let b = run(&rows(&[&[]]), Some(&rows(&[&[]])), &opts).unwrap();
    check2(&b.input_ids, &[&[101, 102, 102]]);
    check2(b.token_type_ids.as_ref().unwrap(), &[&[0, 0, 1]]);
}

#[test]
fn empty_batch() {
    let b = run(&[], None, &CollateOptions::default()).unwrap();
    assert_eq!(b.input_ids.shape(), &[0, 0]);
    assert_eq!(b.input_ids.dtype(), DLDataType::INT64);
    assert_eq!(b.attention_mask.as_ref().unwrap().shape(), &[0, 0]);
    assert_eq!(j(&b.input_ids.to_list().unwrap()), J::L(vec![]));
    let opts = CollateOptions { padding: Padding::MaxLength, max_length: Some(6), ..Default::default() };
    let b = run(&[], None, &opts).unwrap();
    assert_eq!(b.input_ids.shape(), &[0, 6]);
    assert_eq!(b.attention_mask.as_ref().unwrap().shape(), &[0, 6]);
    // Pairs too.
    let b = run(&[], Some(&[]), &opts).unwrap();
    assert_eq!(b.input_ids.shape(), &[0, 6]);
}

#[test]
fn max_length_shorter_than_the_special_tokens_is_an_error() {
    let opts = CollateOptions {
        special_tokens: bert(),
        truncation: Truncation::LongestFirst,
        max_length: Some(2),
        ..Default::default()
    };
    // Pairs need 3 specials, so max_length 2 leaves no budget.
    let (a, b) = pair_batch(&[(2, 2)]);
    let e = err_text(run(&a, Some(&b), &opts));
    assert!(e.contains("max_length 2 is shorter than the 3 special tokens"), "{e}");
    // Singles need 2.
    let e = err_text(run(&abc(), None, &CollateOptions { max_length: Some(1), ..opts.clone() }));
    assert!(e.contains("max_length 1 is shorter than the 2 special tokens"), "{e}");
    // max_length equal to the specials leaves a budget of 0: both sequences are emptied
    // (HF: `if max_length == 0 { truncate(0) }` on both).
    let out = run(&a, Some(&b), &CollateOptions { max_length: Some(3), ..opts }).unwrap();
    check2(&out.input_ids, &[&[101, 102, 102]]);
}

#[test]
fn ragged_output() {
    let opts = CollateOptions { special_tokens: bert(), ..Default::default() };
    let r = run_ragged(&rows(&[&[21, 22, 23], &[31, 32], &[]]), None, &opts).unwrap();
    // Rows: [101 21 22 23 102] (5), [101 31 32 102] (4), [101 102] (2): offsets 0, 5, 9, 11.
    check1(&r.values, &[101, 21, 22, 23, 102, 101, 31, 32, 102, 101, 102]);
    check1(&r.offsets, &[0, 5, 9, 11]);
    // With truncation to 4 (budget 2) and int32 values (offsets stay int64).
    let opts =
        CollateOptions { dtype: DLDataType::INT32, truncation: Truncation::LongestFirst, max_length: Some(4), ..opts };
    let r = run_ragged(&abc(), None, &opts).unwrap();
    assert_eq!(r.values.dtype(), DLDataType::INT32);
    assert_eq!(r.values.as_slice::<i32>().unwrap(), &[101, 21, 22, 102, 101, 31, 32, 102, 101, 41, 42, 102]);
    check1(&r.offsets, &[0, 4, 8, 12]);
    // Pairs: [CLS] 1 [SEP] 51 52 [SEP] (6) and [CLS] 1 2 [SEP] [SEP] (5).
    let opts = CollateOptions { special_tokens: bert(), ..Default::default() };
    let r = run_ragged(&rows(&[&[1], &[1, 2]]), Some(&rows(&[&[51, 52], &[]])), &opts).unwrap();
    check1(&r.values, &[101, 1, 102, 51, 52, 102, 101, 1, 2, 102, 102]);
    check1(&r.offsets, &[0, 6, 11]);
    // Empty batch: no values, one offset.
    let r = run_ragged(&[], None, &CollateOptions::default()).unwrap();
    check1(&r.values, &[]);
    check1(&r.offsets, &[0]);
}

fn boxed(x: &[&[i64]]) -> List {
    x.iter().map(|r| List::from(r.to_vec())).collect()
}

#[test]
fn collate_lists_matches_the_typed_path() {
    // Same inputs and hand-computed expectation as `bert_pairs_with_token_type_ids`.
    let opts = CollateOptions { special_tokens: bert(), token_type_ids: true, ..Default::default() };
    let firsts = boxed(&[&[21, 22, 23], &[31, 32]]);
    let seconds = boxed(&[&[51], &[61, 62, 63]]);
    let b = collate_lists(&firsts, Some(&seconds), &opts).unwrap();
    check2(&b.input_ids, &[&[101, 21, 22, 23, 102, 51, 102, 0], &[101, 31, 32, 102, 61, 62, 63, 102]]);
    check2(b.token_type_ids.as_ref().unwrap(), &[&[0, 0, 0, 0, 0, 1, 1, 0], &[0, 0, 0, 0, 1, 1, 1, 1]]);
    check2(b.attention_mask.as_ref().unwrap(), &[&[1, 1, 1, 1, 1, 1, 1, 0], &[1, 1, 1, 1, 1, 1, 1, 1]]);
    // And the plain padded batch of `pads_to_the_longest_row_by_default`.
    let b =
        collate_lists(&boxed(&[&[21, 22, 23], &[31, 32], &[41, 42, 43, 44, 45]]), None, &Default::default()).unwrap();
    check2(&b.input_ids, &[&[21, 22, 23, 0, 0], &[31, 32, 0, 0, 0], &[41, 42, 43, 44, 45]]);
    check2(b.attention_mask.as_ref().unwrap(), &[&[1, 1, 1, 0, 0], &[1, 1, 0, 0, 0], &[1, 1, 1, 1, 1]]);
}

// ---------------------------------------------------------------------------------------------
// Bad input
// ---------------------------------------------------------------------------------------------

#[test]
fn non_int_items_in_list_rows_name_row_and_item() {
    let mut row1 = List::from(vec![3i64, 4]);
    row1.push("x");
    let batch: List = vec![List::from(vec![1i64, 2]).into_any(), row1.into_any()].into();
    assert_eq!(err_text(collate_lists(&batch, None, &Default::default())), "row 1: list item 2: expected int, got str");
    let mut row0 = List::new();
    row0.push(1.5f64);
    let batch: List = vec![row0.into_any()].into();
    assert_eq!(
        err_text(collate_lists(&batch, None, &Default::default())),
        "row 0: list item 0: expected int, got float"
    );
    // A row that is not a list at all.
    let batch: List = vec![List::from(vec![1i64]).into_any(), AnyValue::from(5i64)].into();
    let e = err_text(collate_lists(&batch, None, &Default::default()));
    assert!(e.starts_with("row 1: ") && e.contains("expected list"), "{e}");
    // A bad second sequence is named too.
    let firsts = boxed(&[&[1], &[2]]);
    let mut bad = List::from(vec![7i64]);
    bad.push(AnyValue::none());
    let seconds: List = vec![List::from(vec![5i64]).into_any(), bad.into_any()].into();
    let e = err_text(collate_lists(&firsts, Some(&seconds), &Default::default()));
    assert!(e.starts_with("row 1: list item 1: expected int"), "{e}");
}

#[test]
fn mismatched_pair_batches_are_errors() {
    let e = err_text(run(&rows(&[&[1], &[2]]), Some(&rows(&[&[3]])), &Default::default()));
    assert!(e.contains("2 first sequences but 1 second"), "{e}");
    let e = err_text(run_ragged(&rows(&[&[1]]), Some(&rows(&[])), &Default::default()));
    assert!(e.contains("1 first sequences but 0 second"), "{e}");
    let e = err_text(collate_lists(&boxed(&[&[1]]), Some(&boxed(&[&[1], &[2]])), &Default::default()));
    assert!(e.contains("1 first sequences but 2 second"), "{e}");
}

#[test]
fn int32_overflow_names_row_and_position() {
    let opts = CollateOptions { dtype: DLDataType::INT32, ..Default::default() };
    // 2^31 = 2147483648 is one past i32::MAX; it sits at row 1, position 1.
    let e = err_text(run(&rows(&[&[1, 2], &[3, 2147483648]]), None, &opts));
    assert!(e.contains("row 1, position 1") && e.contains("2147483648"), "{e}");
    // -2^31 - 1 at row 0, position 0.
    let e = err_text(run(&rows(&[&[-2147483649]]), None, &opts));
    assert!(e.contains("row 0, position 0") && e.contains("-2147483649"), "{e}");
    // The position is in the output row: behind [CLS], and behind left padding.
    let bert32 = CollateOptions { special_tokens: bert(), ..opts.clone() };
    let e = err_text(run(&rows(&[&[5, 1 << 40]]), None, &bert32));
    assert!(e.contains("row 0, position 2"), "{e}");
    let left = CollateOptions { padding_side: Side::Left, ..opts.clone() };
    // Row 1 = [2^31] in width 3 starts at column 2.
    let e = err_text(run(&rows(&[&[1, 2, 3], &[2147483648]]), None, &left));
    assert!(e.contains("row 1, position 2"), "{e}");
    // Ragged and boxed paths check too.
    let e = err_text(run_ragged(&rows(&[&[1], &[2, 3, 1 << 33]]), None, &opts));
    assert!(e.contains("row 1, position 2"), "{e}");
    let e = err_text(collate_lists(&boxed(&[&[1 << 31]]), None, &opts));
    assert!(e.contains("row 0, position 0"), "{e}");
    // A pad id that does not fit.
    let e = err_text(run(&rows(&[&[1], &[1, 2]]), None, &CollateOptions { pad_id: 1 << 40, ..opts }));
    assert!(e.contains("pad_id"), "{e}");
}

#[test]
fn rows_longer_than_the_fixed_width_need_truncation() {
    let opts = CollateOptions { padding: Padding::MaxLength, max_length: Some(4), ..Default::default() };
    let e = err_text(run(&abc(), None, &opts));
    assert!(e.contains("row 2 has 5 ids, more than the padded length 4") && e.contains("enable truncation"), "{e}");
}

#[test]
fn bad_options_are_errors() {
    let e = err_text(run(&abc(), None, &CollateOptions { dtype: DLDataType::FLOAT32, ..Default::default() }));
    assert!(e.contains("int32 or int64"), "{e}");
    let e = err_text(run(&abc(), None, &CollateOptions { truncation: Truncation::LongestFirst, ..Default::default() }));
    assert!(e.contains("truncation needs max_length"), "{e}");
    let e = err_text(run(&abc(), None, &CollateOptions { padding: Padding::MaxLength, ..Default::default() }));
    assert!(e.contains("max_length"), "{e}");
}

#[test]
fn zeros_rejects_bad_shapes_without_panicking() {
    let e = err_text(NDArray::zeros(&[-1, 2], DLDataType::INT64));
    assert!(e.contains("negative"), "{e}");
    let e = err_text(NDArray::zeros(&[2, -1], DLDataType::FLOAT32));
    assert!(e.contains("extent 1 is negative"), "{e}");
    assert!(NDArray::zeros(&[i64::MAX, i64::MAX], DLDataType::INT64).is_err());
    assert!(NDArray::zeros(&[i64::MAX], DLDataType::INT64).is_err(), "2^63 * 8 bytes");
    assert!(NDArray::zeros(&[1 << 62, 4], DLDataType::UINT8).is_err(), "2^64 elements");
    assert!(NDArray::zeros(&[2], DLDataType { code: 5, bits: 64, lanes: 1 }).is_err(), "complex64 unsupported");
    // Valid edge cases.
    let z = NDArray::zeros(&[0, i64::MAX], DLDataType::INT64).unwrap();
    assert_eq!(z.numel(), 0);
    let z = NDArray::zeros(&[], DLDataType::INT64).unwrap();
    assert_eq!(z.numel(), 1);
    assert_eq!(z.as_slice::<i64>().unwrap(), &[0]);
}

// ---------------------------------------------------------------------------------------------
// NDArray::from_nested (general boxing), NumPy's np.array rules
// ---------------------------------------------------------------------------------------------

fn lv(items: Vec<AnyValue>) -> AnyValue {
    List::from(items).into_any()
}

fn li(xs: &[i64]) -> AnyValue {
    List::from(xs.to_vec()).into_any()
}

fn lf(xs: &[f64]) -> AnyValue {
    List::from(xs.to_vec()).into_any()
}

fn lb(xs: &[bool]) -> AnyValue {
    List::from(xs.to_vec()).into_any()
}

#[test]
fn from_nested_rectangular_lists() {
    // np.array([[1, 2, 3], [4, 5, 6]]) -> int64, (2, 3)
    let v = lv(vec![li(&[1, 2, 3]), li(&[4, 5, 6])]);
    let a = NDArray::from_nested(&v).unwrap();
    assert_eq!(a.dtype(), DLDataType::INT64);
    assert_eq!(a.shape(), &[2, 3]);
    assert_eq!(a.as_slice::<i64>().unwrap(), &[1, 2, 3, 4, 5, 6]);
    assert_eq!(j(&a.to_list().unwrap()), j(&v));

    // np.array([[1.5, -2.0], [0.25, 1e300]]) -> float64, (2, 2)
    let v = lv(vec![lf(&[1.5, -2.0]), lf(&[0.25, 1e300])]);
    let a = NDArray::from_nested(&v).unwrap();
    assert_eq!(a.dtype(), DLDataType::FLOAT64);
    assert_eq!(a.shape(), &[2, 2]);
    assert_eq!(a.as_slice::<f64>().unwrap(), &[1.5, -2.0, 0.25, 1e300]);
    assert_eq!(j(&a.to_list().unwrap()), j(&v));

    // np.array([[True, False], [False, True]]) -> bool, (2, 2)
    let v = lv(vec![lb(&[true, false]), lb(&[false, true])]);
    let a = NDArray::from_nested(&v).unwrap();
    assert_eq!(a.dtype(), DLDataType::BOOL);
    assert_eq!(a.shape(), &[2, 2]);
    assert_eq!(a.as_slice::<bool>().unwrap(), &[true, false, false, true]);
    assert_eq!(j(&a.to_list().unwrap()), j(&v));

    // 3-d: np.array([[[1, 2], [3, 4]], [[5, 6], [7, 8]]]) -> int64, (2, 2, 2)
    let v = lv(vec![lv(vec![li(&[1, 2]), li(&[3, 4])]), lv(vec![li(&[5, 6]), li(&[7, 8])])]);
    let a = NDArray::from_nested(&v).unwrap();
    assert_eq!(a.dtype(), DLDataType::INT64);
    assert_eq!(a.shape(), &[2, 2, 2]);
    assert_eq!(a.strides(), &[4, 2, 1]);
    assert_eq!(a.as_slice::<i64>().unwrap(), &[1, 2, 3, 4, 5, 6, 7, 8]);
    assert_eq!(j(&a.to_list().unwrap()), j(&v));

    // 3-d floats with a zero-size inner axis: np.array([[[], []]]) -> float64, (1, 2, 0)
    let v = lv(vec![lv(vec![lf(&[]), lf(&[])])]);
    let a = NDArray::from_nested(&v).unwrap();
    assert_eq!(a.dtype(), DLDataType::FLOAT64);
    assert_eq!(a.shape(), &[1, 2, 0]);
    assert_eq!(j(&a.to_list().unwrap()), j(&v));
}

#[test]
fn from_nested_promotes_like_numpy() {
    // np.array([[1, 2.5], [3, 4]]) -> float64 [[1.0, 2.5], [3.0, 4.0]]
    let mut r0 = List::from(vec![1i64]);
    r0.push(2.5f64);
    let v = lv(vec![r0.into_any(), li(&[3, 4])]);
    let a = NDArray::from_nested(&v).unwrap();
    assert_eq!(a.dtype(), DLDataType::FLOAT64);
    assert_eq!(a.as_slice::<f64>().unwrap(), &[1.0, 2.5, 3.0, 4.0]);
    assert_eq!(j(&a.to_list().unwrap()), j(&lv(vec![lf(&[1.0, 2.5]), lf(&[3.0, 4.0])])));

    // The float comes last: np.array([1, 2, 0.5]) -> float64 [1.0, 2.0, 0.5]
    let mut l = List::from(vec![1i64, 2]);
    l.push(0.5f64);
    let a = NDArray::from_nested(&l.into_any()).unwrap();
    assert_eq!(a.dtype(), DLDataType::FLOAT64);
    assert_eq!(a.as_slice::<f64>().unwrap(), &[1.0, 2.0, 0.5]);

    // np.array([True, 2]) -> int64 [1, 2]; np.array([2, True]) -> int64 [2, 1]
    let mut l = List::from(vec![true]);
    l.push(2i64);
    let a = NDArray::from_nested(&l.into_any()).unwrap();
    assert_eq!(a.dtype(), DLDataType::INT64);
    assert_eq!(a.as_slice::<i64>().unwrap(), &[1, 2]);
    let mut l = List::from(vec![2i64]);
    l.push(true);
    let a = NDArray::from_nested(&l.into_any()).unwrap();
    assert_eq!(a.as_slice::<i64>().unwrap(), &[2, 1]);

    // np.array([False, 1.5, True]) -> float64 [0.0, 1.5, 1.0]
    let mut l = List::from(vec![false]);
    l.push(1.5f64);
    l.push(true);
    let a = NDArray::from_nested(&l.into_any()).unwrap();
    assert_eq!(a.dtype(), DLDataType::FLOAT64);
    assert_eq!(a.as_slice::<f64>().unwrap(), &[0.0, 1.5, 1.0]);

    // A scalar is a 0-d array: np.array(7) -> int64, shape ()
    let a = NDArray::from_nested(&AnyValue::from(7i64)).unwrap();
    assert_eq!(a.dtype(), DLDataType::INT64);
    assert_eq!(a.shape(), &[] as &[i64]);
    assert_eq!(j(&a.to_list().unwrap()), J::I(7));

    // np.array([]) -> float64, (0,); np.array([[], []]) -> float64, (2, 0)
    let a = NDArray::from_nested(&lv(vec![])).unwrap();
    assert_eq!((a.dtype(), a.shape()), (DLDataType::FLOAT64, &[0i64] as &[i64]));
    let a = NDArray::from_nested(&lv(vec![li(&[]), li(&[])])).unwrap();
    assert_eq!((a.dtype(), a.shape()), (DLDataType::FLOAT64, &[2i64, 0] as &[i64]));
}

#[test]
fn from_nested_ragged_and_mixed_lists_name_the_first_offending_index() {
    // [[1, 2], [3]]: item [1] has 1 element where 2 were expected.
    let e = err_text(NDArray::from_nested(&lv(vec![li(&[1, 2]), li(&[3])])));
    assert!(e.contains("item [1]") && e.contains("length 1, expected 2"), "{e}");
    // [[1, 2], [3, 4, 5], [6]]: the first bad one is [1].
    let e = err_text(NDArray::from_nested(&lv(vec![li(&[1, 2]), li(&[3, 4, 5]), li(&[6])])));
    assert!(e.contains("item [1]"), "{e}");
    // [[1, 2], [3, [4]]]: a list where a number belongs, at [1, 1].
    let mut r1 = List::from(vec![3i64]);
    r1.push(li(&[4]));
    let e = err_text(NDArray::from_nested(&lv(vec![li(&[1, 2]), r1.into_any()])));
    assert!(e.contains("item [1, 1]") && e.contains("list"), "{e}");
    // [[1, 2], 3]: a number where a list belongs, at [1].
    let e = err_text(NDArray::from_nested(&lv(vec![li(&[1, 2]), AnyValue::from(3i64)])));
    assert!(e.contains("item [1]"), "{e}");
    // [[], [1]]: the first row fixes the inner length at 0.
    let e = err_text(NDArray::from_nested(&lv(vec![li(&[]), li(&[1])])));
    assert!(e.contains("item [1]"), "{e}");
    // [[1, 2], [3, "a"]]: a str at [1, 1].
    let mut r1 = List::from(vec![3i64]);
    r1.push("a");
    let e = err_text(NDArray::from_nested(&lv(vec![li(&[1, 2]), r1.into_any()])));
    assert!(e.contains("item [1, 1]") && e.contains("got str"), "{e}");
    // ["a", 1]: the very first leaf.
    let mut l = List::new();
    l.push("a");
    l.push(1i64);
    let e = err_text(NDArray::from_nested(&l.into_any()));
    assert!(e.contains("item [0]") && e.contains("got str"), "{e}");
    // [1.5, None]
    let mut l = List::from(vec![1.5f64]);
    l.push(AnyValue::none());
    let e = err_text(NDArray::from_nested(&l.into_any()));
    assert!(e.contains("item [1]") && e.contains("None"), "{e}");
}

#[test]
fn a_recycled_output_buffer_holds_no_stale_values() {
    // 512 rows x 256 int64 = 1 MiB per tensor: large enough for the per-thread buffer cache.
    // The first batch fills every slot with 5s (and type ids with 1s); the second batch, the
    // same shape, has short rows, pad id 0 and left padding, so any stale slot would show.
    let full: Vec<Vec<i64>> = vec![vec![5; 254]; 512];
    let full_refs: Vec<&Vec<i64>> = full.iter().collect();
    let opts = CollateOptions {
        special_tokens: Some(SpecialTokens::bert(101, 102)),
        token_type_ids: true,
        ..Default::default()
    };
    let first = collate(
        &full_refs,
        Some(&full_refs[..]),
        &CollateOptions {
            max_length: Some(256),
            truncation: Truncation::LongestFirst,
            padding: Padding::MaxLength,
            ..opts.clone()
        },
    )
    .unwrap();
    drop(first);

    let short: Vec<Vec<i64>> = (0..512).map(|i| vec![9; i % 3]).collect();
    let short_refs: Vec<&Vec<i64>> = short.iter().collect();
    let second = collate(
        &short_refs,
        None,
        &CollateOptions { max_length: Some(256), padding: Padding::MaxLength, padding_side: Side::Left, ..opts },
    )
    .unwrap();
    let ids = second.input_ids.as_slice::<i64>().unwrap();
    let mask = second.attention_mask.as_ref().unwrap().as_slice::<i64>().unwrap();
    let types = second.token_type_ids.as_ref().unwrap().as_slice::<i64>().unwrap();
    for r in 0..512 {
        // Row r holds r % 3 nines between [CLS] and [SEP], left-padded with 0 to 256.
        let n = r % 3 + 2;
        let mut want = vec![0i64; 256 - n];
        want.push(101);
        want.extend(std::iter::repeat_n(9, r % 3));
        want.push(102);
        assert_eq!(&ids[r * 256..(r + 1) * 256], &want[..], "ids row {r}");
        let want_mask: Vec<i64> = (0..256).map(|j| i64::from(j >= 256 - n)).collect();
        assert_eq!(&mask[r * 256..(r + 1) * 256], &want_mask[..], "mask row {r}");
        assert!(types[r * 256..(r + 1) * 256].iter().all(|&t| t == 0), "types row {r}");
    }
}

#[test]
fn large_batches_fill_every_block_of_rows_and_report_the_first_bad_row() {
    // 1,000 rows span several of the fill's parallel blocks (256 rows each). Row r holds
    // r % 7 + 1 ids, each 10 * r + position: the expected tensors follow directly.
    let firsts: Vec<Vec<i64>> = (0..1000).map(|r| (0..r % 7 + 1).map(|i| 10 * r + i).collect()).collect();
    let batch = run(&firsts, None, &CollateOptions::default()).unwrap();
    assert_eq!(batch.input_ids.shape(), &[1000, 7]);
    let ids = batch.input_ids.as_slice::<i64>().unwrap();
    let mask = batch.attention_mask.as_ref().unwrap().as_slice::<i64>().unwrap();
    for r in 0..1000i64 {
        for c in 0..7i64 {
            let at = (r * 7 + c) as usize;
            let real = c < r % 7 + 1;
            assert_eq!(ids[at], if real { 10 * r + c } else { 0 }, "row {r}, column {c}");
            assert_eq!(mask[at], i64::from(real), "mask row {r}, column {c}");
        }
    }
    // Ids too wide for int32 in rows 700 and 300 (different blocks): the error names row 300.
    let mut bad = firsts;
    bad[700][0] = 1 << 40;
    bad[300][1] = 1 << 35;
    let opts = CollateOptions { dtype: DLDataType::INT32, ..Default::default() };
    let e = err_text(run(&bad, None, &opts));
    assert!(e.contains("row 300, position 1"), "{e}");
}
