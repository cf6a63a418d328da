//! Collation ("in-place boxing"): a batch of id sequences becomes padded `[batch, len]` tensors.
//!
//! One pass plans every row's length (truncation and special tokens included),
//! then each output tensor is allocated once and filled row by row. Typed ids
//! are copied straight into the tensor; nothing is boxed per token.

use super::array::NDArray;
use super::dlpack::DLDataType;
use crate::container::{Dict, List};
use crate::error::{Error, Result, ResultExt};
use rayon::prelude::*;
use std::ops::Range;

/// Which end of a sequence truncation or padding works on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Side {
    /// The end (HF's default).
    #[default]
    Right,
    /// The start.
    Left,
}

/// How long padded rows are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Padding {
    /// As long as the longest row of the batch.
    #[default]
    Longest,
    /// Exactly `max_length`.
    MaxLength,
}

/// Which sequence of a pair loses tokens when the pair is too long (HF's strategies).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Truncation {
    /// No truncation.
    #[default]
    None,
    /// Shorten the longer sequence first, then both evenly (HF `longest_first`).
    LongestFirst,
    /// Shorten only the first sequence.
    OnlyFirst,
    /// Shorten only the second sequence.
    OnlySecond,
}

/// Special tokens around one or two sequences: `first_prefix A first_suffix [second_prefix B second_suffix]`.
///
/// BERT is `[CLS] A [SEP] B [SEP]`: prefix `[CLS]`, suffixes `[SEP]`, no second prefix.
/// Token type ids are 0 for the first part and 1 for the second.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SpecialTokens {
    /// Before the first sequence.
    pub first_prefix: Vec<i64>,
    /// After the first sequence.
    pub first_suffix: Vec<i64>,
    /// Before the second sequence.
    pub second_prefix: Vec<i64>,
    /// After the second sequence.
    pub second_suffix: Vec<i64>,
}

impl SpecialTokens {
    /// BERT's template with the given `[CLS]` and `[SEP]` ids.
    pub fn bert(cls: i64, sep: i64) -> Self {
        SpecialTokens {
            first_prefix: vec![cls],
            first_suffix: vec![sep],
            second_prefix: vec![],
            second_suffix: vec![sep],
        }
    }

    fn count(&self, pair: bool) -> usize {
        let first = self.first_prefix.len() + self.first_suffix.len();
        if pair { first + self.second_prefix.len() + self.second_suffix.len() } else { first }
    }
}

/// How to collate; the defaults pad to the longest row with id 0 into int64.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CollateOptions {
    /// `INT32` or `INT64`.
    pub dtype: DLDataType,
    /// Id written into padding positions.
    pub pad_id: i64,
    /// Pad to the longest row or to `max_length`.
    pub padding: Padding,
    /// Upper bound for truncation and the fixed padded length; counts special tokens.
    pub max_length: Option<usize>,
    /// How to shorten rows longer than `max_length`.
    pub truncation: Truncation,
    /// Which end truncation cuts.
    pub truncation_side: Side,
    /// Which end padding fills.
    pub padding_side: Side,
    /// Round the padded length up to a multiple of this.
    pub pad_to_multiple_of: Option<usize>,
    /// Also produce `attention_mask` (1 for tokens, 0 for padding).
    pub attention_mask: bool,
    /// Also produce `token_type_ids` (0 first part, 1 second part, 0 padding).
    pub token_type_ids: bool,
    /// Special tokens to add around each row.
    pub special_tokens: Option<SpecialTokens>,
}

impl Default for CollateOptions {
    fn default() -> Self {
        CollateOptions {
            dtype: DLDataType::INT64,
            pad_id: 0,
            padding: Padding::Longest,
            max_length: None,
            truncation: Truncation::None,
            truncation_side: Side::Right,
            padding_side: Side::Right,
            pad_to_multiple_of: None,
            attention_mask: true,
            token_type_ids: false,
            special_tokens: None,
        }
    }
}

/// Padded output tensors, each `[batch, len]`.
#[derive(Clone, Debug)]
pub struct Batch {
    /// The ids.
    pub input_ids: NDArray,
    /// 1 for tokens, 0 for padding, if asked for.
    pub attention_mask: Option<NDArray>,
    /// 0 for the first part, 1 for the second, if asked for.
    pub token_type_ids: Option<NDArray>,
}

impl Batch {
    /// The tensors in a dict keyed `input_ids`, `attention_mask`, `token_type_ids`.
    pub fn into_dict(self) -> Dict {
        let mut d = Dict::new();
        d.set("input_ids", self.input_ids);
        if let Some(m) = self.attention_mask {
            d.set("attention_mask", m);
        }
        if let Some(t) = self.token_type_ids {
            d.set("token_type_ids", t);
        }
        d
    }
}

/// A ragged batch: all rows' ids back to back, and `batch + 1` row offsets into them.
#[derive(Clone, Debug)]
pub struct RaggedBatch {
    /// 1-D ids.
    pub values: NDArray,
    /// 1-D int64 offsets; row i is `values[offsets[i]..offsets[i+1]]`.
    pub offsets: NDArray,
}

/// A sequence of token ids that can be copied into a tensor (rows are filled in parallel,
/// so they are shared across threads).
pub trait IdRow: Sync {
    /// Number of ids.
    fn ids_len(&self) -> usize;
    /// The id at `i` (< `ids_len`).
    fn id_at(&self, i: usize) -> i64;
    /// The ids in `range`, in order; slices override this with one bounds check.
    fn ids_in(&self, range: Range<usize>) -> impl Iterator<Item = i64> + '_ {
        range.map(move |i| self.id_at(i))
    }
}

macro_rules! id_row_for_slices {
    ($($t:ty),*) => {$(
        impl IdRow for [$t] {
            fn ids_len(&self) -> usize { self.len() }
            #[inline(always)]
            fn id_at(&self, i: usize) -> i64 { self[i] as i64 }
            #[inline(always)]
            fn ids_in(&self, range: Range<usize>) -> impl Iterator<Item = i64> + '_ {
                self[range].iter().map(|&x| x as i64)
            }
        }
    )*};
}

/// Vectors and references delegate to the slice they hold.
impl<T: Sync> IdRow for Vec<T>
where
    [T]: IdRow,
{
    fn ids_len(&self) -> usize {
        self.as_slice().ids_len()
    }
    #[inline(always)]
    fn id_at(&self, i: usize) -> i64 {
        self.as_slice().id_at(i)
    }
    #[inline(always)]
    fn ids_in(&self, range: Range<usize>) -> impl Iterator<Item = i64> + '_ {
        self.as_slice().ids_in(range)
    }
}

impl<R: IdRow + ?Sized> IdRow for &R {
    fn ids_len(&self) -> usize {
        (**self).ids_len()
    }
    #[inline(always)]
    fn id_at(&self, i: usize) -> i64 {
        (**self).id_at(i)
    }
    #[inline(always)]
    fn ids_in(&self, range: Range<usize>) -> impl Iterator<Item = i64> + '_ {
        (**self).ids_in(range)
    }
}

id_row_for_slices!(i64, i32, u32, u16, u8);

/// One row's plan: which ids of each sequence survive truncation.
struct RowPlan {
    first: Range<usize>,
    second: Option<Range<usize>>,
    len: usize,
}

fn keep(len: usize, target: usize, side: Side) -> Range<usize> {
    let n = len.min(target);
    match side {
        Side::Right => 0..n,
        Side::Left => len - n..len,
    }
}

/// HF's `only_first`/`only_second`: the target must keep at least one id after losing `excess`.
fn cut_only(len: usize, excess: usize, which: &str) -> Result<usize> {
    if len > excess {
        Ok(len - excess)
    } else {
        Err(Error::value(format!(
            "the {which} sequence ({len} ids) is too short to remove the {excess} ids over max_length"
        )))
    }
}

/// HF's `longest_first` for a pair: with a <= b, keep a and shorten b; if that is not enough, split evenly.
fn longest_first(n1: usize, n2: usize, budget: usize) -> (usize, usize) {
    let a = n1.min(n2);
    let (mut a_t, mut b_t) = (a, if a > budget { a } else { a.max(budget - a) });
    if a_t + b_t > budget {
        a_t = budget / 2;
        b_t = a_t + budget % 2;
    }
    if n1 <= n2 { (a_t, b_t) } else { (b_t, a_t) }
}

fn plan_row(first: usize, second: Option<usize>, opts: &CollateOptions, specials: usize) -> Result<RowPlan> {
    let (mut n1, mut n2) = (first, second.unwrap_or(0));
    if opts.truncation != Truncation::None {
        let max = opts.max_length.ok_or_else(|| Error::value("truncation needs max_length"))?;
        let budget = max
            .checked_sub(specials)
            .ok_or_else(|| Error::value(format!("max_length {max} is shorter than the {specials} special tokens")))?;
        if n1 + n2 > budget {
            let excess = n1 + n2 - budget;
            match (opts.truncation, second) {
                (Truncation::OnlySecond, None) => {
                    return Err(Error::value("truncation only_second needs a second sequence"));
                }
                (Truncation::OnlySecond, Some(_)) => n2 = cut_only(n2, excess, "second")?,
                (Truncation::OnlyFirst, _) => n1 = cut_only(n1, excess, "first")?,
                (_, Some(_)) => (n1, n2) = longest_first(n1, n2, budget),
                (_, None) => n1 = budget,
            }
        }
    }
    let first_range = keep(first, n1, opts.truncation_side);
    let second_range = second.map(|len| keep(len, n2, opts.truncation_side));
    let len = first_range.len() + second_range.as_ref().map_or(0, Range::len) + specials;
    Ok(RowPlan { first: first_range, second: second_range, len })
}

/// Which ids of one sequence (or pair) survive `opts`' truncation, special tokens counted.
///
/// This is the planner `collate` applies to every row, for callers that truncate one row.
pub fn plan_truncation(
    first: usize,
    second: Option<usize>,
    opts: &CollateOptions,
) -> Result<(Range<usize>, Option<Range<usize>>)> {
    let specials = opts.special_tokens.as_ref().map_or(0, |s| s.count(second.is_some()));
    let plan = plan_row(first, second, opts, specials)?;
    Ok((plan.first, plan.second))
}

fn plan_batch<R: IdRow + ?Sized>(firsts: &[&R], seconds: Option<&[&R]>, opts: &CollateOptions) -> Result<Vec<RowPlan>> {
    if let Some(s) = seconds {
        if s.len() != firsts.len() {
            return Err(Error::value(format!(
                "pair batch has {} first sequences but {} second sequences",
                firsts.len(),
                s.len()
            )));
        }
    }
    if !matches!(opts.dtype, DLDataType::INT32 | DLDataType::INT64) {
        return Err(Error::value(format!("ids must be int32 or int64, not {}", opts.dtype)));
    }
    let specials = opts.special_tokens.as_ref().map_or(0, |s| s.count(seconds.is_some()));
    // Sized up front: collecting into a `Result<Vec>` grows the vector by doubling, and at
    // tens of bytes per row those regrowths (fresh pages each time) cost more than planning.
    let mut plans = Vec::with_capacity(firsts.len());
    for (i, a) in firsts.iter().enumerate() {
        let plan = plan_row(a.ids_len(), seconds.map(|s| s[i].ids_len()), opts, specials)
            .with_context(|| format!("row {i}"))?;
        plans.push(plan);
    }
    Ok(plans)
}

/// Writes one output id, range-checked for int32.
trait OutId: Copy + PartialEq + super::dtype::Element {
    /// Zero, as a constant: filling with it compiles to `memset`.
    const ZERO: Self;

    fn from_id(id: i64) -> Option<Self>;
}
impl OutId for i64 {
    const ZERO: Self = 0;
    #[inline(always)]
    fn from_id(id: i64) -> Option<Self> {
        Some(id)
    }
}
impl OutId for i32 {
    const ZERO: Self = 0;
    #[inline(always)]
    fn from_id(id: i64) -> Option<Self> {
        i32::try_from(id).ok()
    }
}

fn overflow(row: usize, pos: usize, id: i64) -> Error {
    Error::value(format!("row {row}, position {pos}: id {id} does not fit int32"))
}

/// A position and id that did not fit the output type.
type Misfit = (usize, i64);

/// Writes `ids` into `out` from `pos` on; returns the position after them.
#[inline(always)]
fn put<O: OutId>(out: &mut [O], pos: usize, ids: impl Iterator<Item = i64>) -> std::result::Result<usize, Misfit> {
    let mut end = pos;
    for (d, id) in out[pos..].iter_mut().zip(ids) {
        *d = O::from_id(id).ok_or((end, id))?;
        end += 1;
    }
    Ok(end)
}

/// Writes one row's ids (exactly `plan.len` of them) into `out`; returns where the second part starts.
#[inline(always)]
fn write_row<O: OutId, R: IdRow + ?Sized>(
    out: &mut [O],
    plan: &RowPlan,
    first: &R,
    second: Option<&R>,
    sp: &SpecialTokens,
) -> std::result::Result<usize, Misfit> {
    let mut pos = put(out, 0, sp.first_prefix.iter().copied())?;
    pos = put(out, pos, first.ids_in(plan.first.clone()))?;
    pos = put(out, pos, sp.first_suffix.iter().copied())?;
    let second_start = pos;
    if let (Some(range), Some(second)) = (&plan.second, second) {
        pos = put(out, pos, sp.second_prefix.iter().copied())?;
        pos = put(out, pos, second.ids_in(range.clone()))?;
        put(out, pos, sp.second_suffix.iter().copied())?;
    }
    Ok(second_start)
}

static NO_SPECIAL_TOKENS: SpecialTokens =
    SpecialTokens { first_prefix: vec![], first_suffix: vec![], second_prefix: vec![], second_suffix: vec![] };

/// The slices of one batch's output tensors, each `[batch * width]`.
struct Outputs<'a, O> {
    ids: &'a mut [O],
    mask: Option<&'a mut [O]>,
    types: Option<&'a mut [O]>,
    width: usize,
}

/// Rows per parallel task of [`fill`]: enough (hundreds of KB of output) that a task's
/// cost dwarfs its scheduling, few enough that a batch splits over the threads.
///
/// Even a pipeline batch of 1,024 rows is split: right after the batch's parallel map the
/// other workers are still awake, and filling on one thread made 2 threads scale 1.3-1.6x
/// instead of 1.65-1.75x (filling alone, from a cold pool, is about as fast either way).
const ROWS_PER_TASK: usize = 256;

/// Writes every element of the output tensors, in blocks of rows on the rayon pool; a
/// misfit id is reported for the first row (in order) that has one.
fn fill<O: OutId, R: IdRow + ?Sized>(
    out: Outputs<'_, O>,
    plans: &[RowPlan],
    firsts: &[&R],
    seconds: Option<&[&R]>,
    opts: &CollateOptions,
) -> Result<()> {
    let pad = O::from_id(opts.pad_id).ok_or_else(|| overflow(0, 0, opts.pad_id).context("pad_id"))?;
    let Outputs { mut ids, mut mask, mut types, width } = out;
    // Split the tensors into blocks of rows, one task each.
    let mut tasks = Vec::with_capacity(plans.len().div_ceil(ROWS_PER_TASK));
    let mut first_row = 0;
    while first_row < plans.len() {
        let n = ROWS_PER_TASK.min(plans.len() - first_row);
        let block = Outputs {
            ids: split_front(&mut ids, n * width),
            mask: mask.as_mut().map(|m| split_front(m, n * width)),
            types: types.as_mut().map(|t| split_front(t, n * width)),
            width,
        };
        tasks.push((first_row..first_row + n, block));
        first_row += n;
    }
    let results: Vec<Result<()>> =
        tasks.into_par_iter().map(|(rows, block)| fill_rows(block, rows, plans, firsts, seconds, opts, pad)).collect();
    results.into_iter().collect()
}

/// The first `n` elements of `*slice`, leaving the rest in `*slice`.
fn split_front<'a, O>(slice: &mut &'a mut [O], n: usize) -> &'a mut [O] {
    let (front, rest) = std::mem::take(slice).split_at_mut(n);
    *slice = rest;
    front
}

/// Fills rows `rows` of the batch into `out`, which holds exactly those rows.
fn fill_rows<O: OutId, R: IdRow + ?Sized>(
    out: Outputs<'_, O>,
    rows: Range<usize>,
    plans: &[RowPlan],
    firsts: &[&R],
    seconds: Option<&[&R]>,
    opts: &CollateOptions,
    pad: O,
) -> Result<()> {
    let Outputs { ids, mut mask, mut types, width } = out;
    let (zero, one) = (O::ZERO, O::from_id(1).expect("1 fits every id type"));
    let sp = opts.special_tokens.as_ref().unwrap_or(&NO_SPECIAL_TOKENS);
    // The tensors come from scratch buffers (possibly stale): every element is written below.
    for (k, r) in rows.enumerate() {
        let plan = &plans[r];
        let span = k * width..(k + 1) * width;
        let row = &mut ids[span.clone()];
        let start = match opts.padding_side {
            Side::Right => 0,
            Side::Left => width - plan.len,
        };
        let tokens = start..start + plan.len;
        fill_pad(&mut row[..start], pad);
        fill_pad(&mut row[tokens.end..], pad);
        let second_start = write_row(&mut row[tokens.clone()], plan, firsts[r], seconds.map(|s| s[r]), sp)
            .map_err(|(pos, id)| overflow(r, start + pos, id))?;
        // Each element once: these rows are tens of MB per batch, so writes are the cost.
        if let Some(m) = mask.as_deref_mut() {
            let m = &mut m[span.clone()];
            m[..start].fill(zero);
            m[tokens.clone()].fill(one);
            m[tokens.end..].fill(zero);
        }
        if let Some(t) = types.as_deref_mut() {
            let t = &mut t[span];
            t[..start + second_start].fill(zero);
            t[start + second_start..tokens.end].fill(one);
            t[tokens.end..].fill(zero);
        }
    }
    Ok(())
}

/// Fills `out` with `pad`. A zero pad (the usual one) is filled with the constant
/// `ZERO`, which compiles to `memset`: several times faster on long runs than the store
/// loop a run-time value gets.
#[inline(always)]
fn fill_pad<O: OutId>(out: &mut [O], pad: O) {
    if pad == O::ZERO { out.fill(O::ZERO) } else { out.fill(pad) }
}

fn padded_width(plans: &[RowPlan], opts: &CollateOptions) -> Result<usize> {
    let longest = plans.iter().map(|p| p.len).max().unwrap_or(0);
    let mut width = match opts.padding {
        Padding::Longest => longest,
        Padding::MaxLength => opts.max_length.ok_or_else(|| Error::value("padding to max_length needs max_length"))?,
    };
    if let Some(m) = opts.pad_to_multiple_of {
        if m == 0 {
            return Err(Error::value("pad_to_multiple_of must be positive"));
        }
        width = width.div_ceil(m).checked_mul(m).ok_or_else(|| Error::value("padded length overflows"))?;
    }
    if let Some((i, p)) = plans.iter().enumerate().find(|(_, p)| p.len > width) {
        return Err(Error::value(format!(
            "row {i} has {} ids, more than the padded length {width}; enable truncation",
            p.len
        )));
    }
    Ok(width)
}

/// Collates single sequences (`seconds = None`) or pairs into padded tensors.
pub fn collate<R: IdRow + ?Sized>(firsts: &[&R], seconds: Option<&[&R]>, opts: &CollateOptions) -> Result<Batch> {
    let plans = plan_batch(firsts, seconds, opts)?;
    let width = padded_width(&plans, opts)?;
    let shape = [plans.len() as i64, width as i64];
    let mut ids = NDArray::scratch(&shape, opts.dtype)?;
    let mut mask = opts.attention_mask.then(|| NDArray::scratch(&shape, opts.dtype)).transpose()?;
    let mut types = opts.token_type_ids.then(|| NDArray::scratch(&shape, opts.dtype)).transpose()?;
    macro_rules! run {
        ($o:ty) => {
            fill::<$o, R>(
                Outputs {
                    ids: ids.as_mut_slice::<$o>()?,
                    mask: mask.as_mut().map(|m| m.as_mut_slice::<$o>()).transpose()?,
                    types: types.as_mut().map(|t| t.as_mut_slice::<$o>()).transpose()?,
                    width,
                },
                &plans,
                firsts,
                seconds,
                opts,
            )?
        };
    }
    if opts.dtype == DLDataType::INT32 {
        run!(i32)
    } else {
        run!(i64)
    }
    Ok(Batch { input_ids: ids, attention_mask: mask, token_type_ids: types })
}

/// Collates into a ragged batch (truncation and special tokens apply; no padding).
pub fn collate_ragged<R: IdRow + ?Sized>(
    firsts: &[&R],
    seconds: Option<&[&R]>,
    opts: &CollateOptions,
) -> Result<RaggedBatch> {
    let plans = plan_batch(firsts, seconds, opts)?;
    let total: usize = plans.iter().map(|p| p.len).sum();
    let mut values = NDArray::scratch(&[total as i64], opts.dtype)?;
    let mut offsets = NDArray::zeros(&[plans.len() as i64 + 1], DLDataType::INT64)?;
    {
        let offs = offsets.as_mut_slice::<i64>()?;
        for (i, p) in plans.iter().enumerate() {
            offs[i + 1] = offs[i] + p.len as i64;
        }
    }
    macro_rules! run {
        ($o:ty) => {{
            let out = values.as_mut_slice::<$o>()?;
            let mut at = 0;
            let sp = opts.special_tokens.as_ref().unwrap_or(&NO_SPECIAL_TOKENS);
            for (r, plan) in plans.iter().enumerate() {
                write_row(&mut out[at..at + plan.len], plan, firsts[r], seconds.map(|s| s[r]), sp)
                    .map_err(|(pos, id)| overflow(r, pos, id))?;
                at += plan.len;
            }
        }};
    }
    if opts.dtype == DLDataType::INT32 {
        run!(i32)
    } else {
        run!(i64)
    }
    Ok(RaggedBatch { values, offsets })
}

/// Unboxes a `List` of `List`s of ints into rows; errors name the row and item.
pub fn rows_from_list(batch: &List) -> Result<Vec<Vec<i64>>> {
    batch.with_items(|rows| {
        rows.iter()
            .enumerate()
            .map(|(i, row)| row.get::<List>().and_then(|l| l.to_vec_of::<i64>()).with_context(|| format!("row {i}")))
            .collect()
    })
}

/// Collates a `List` of `List`s of ints (and optionally a second one for pairs).
pub fn collate_lists(firsts: &List, seconds: Option<&List>, opts: &CollateOptions) -> Result<Batch> {
    let a = rows_from_list(firsts)?;
    let b = seconds.map(rows_from_list).transpose()?;
    let a_refs: Vec<&Vec<i64>> = a.iter().collect();
    let b_refs: Option<Vec<&Vec<i64>>> = b.as_ref().map(|b| b.iter().collect());
    collate(&a_refs, b_refs.as_deref(), opts)
}
