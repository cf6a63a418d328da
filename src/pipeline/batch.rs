//! The batch executor: a pipeline over many records on rayon, collated into tensors.
//!
//! Each worker runs the compiled steps with its own registers (the interpreter's
//! per-thread pools), unboxes id rows while still in parallel, and the batch is
//! collated in one pass per output. Results come back in input order.

use super::load::{Pipeline, PlannedOutput, RecordValues};
use super::spec::Layout;
use crate::container::ListObj;
use crate::error::{Error, ErrorKind, Result, ResultExt};
use crate::ndarray::collate::{collate, collate_ragged};
use crate::{AnyValue, AnyView, Dict, FromAny, List, NDArray, Value};
use rayon::prelude::*;
use smallvec::SmallVec;

/// What to do with a record whose steps fail.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ErrorPolicy {
    /// Fail the whole batch, naming the first failing record.
    #[default]
    Fail,
    /// Leave the record out and report it.
    Skip,
}

/// One finished batch.
#[derive(Debug, Default)]
pub struct BatchOutput {
    /// The outputs by name, in the pipeline's order: NDArrays for padded and ragged
    /// layouts (`NAME`, `NAME.offsets` for ragged), lists for the list layout.
    pub outputs: Vec<(String, AnyValue)>,
    /// Records left out under [`ErrorPolicy::Skip`]: index in the batch and the error.
    pub skipped: Vec<(usize, Error)>,
    /// Records that made it into the outputs.
    pub records: usize,
    /// Ids in the padded and ragged outputs before padding (after the steps, before truncation).
    pub tokens: usize,
}

impl BatchOutput {
    /// The outputs as a `Dict` (name → NDArray or List), as Python receives them.
    pub fn to_dict(&self) -> Dict {
        self.outputs.iter().map(|(k, v)| (AnyValue::from(k.as_str()), v.clone())).collect()
    }

    /// The output named `name`.
    pub fn get(&self, name: &str) -> Option<&AnyValue> {
        self.outputs.iter().find(|(k, _)| k == name).map(|(_, v)| v)
    }
}

/// A record's results: id rows unboxed for collation, other values as they are.
enum Column {
    Ids(Vec<i64>),
    Value(AnyValue),
}

/// One record's columns; most pipelines have one to three outputs, held without an allocation.
type Columns = SmallVec<[Column; 3]>;

impl Pipeline {
    /// Runs the pipeline over `records` (each a str for the first input, or a dict of fields).
    ///
    /// Runs on the current rayon pool; wrap in `pool.install` to choose the thread count.
    pub fn run_batch(&self, records: &[AnyValue], policy: ErrorPolicy) -> Result<BatchOutput> {
        self.run_batch_spread(records, policy, true)
    }

    /// [`Self::run_batch`], with the records split over the pool's workers when `spread`, or
    /// run in order on this thread when not (in a stream where every worker has a batch of its
    /// own, see [`crate::pipeline::ordered::run_ordered`]).
    pub fn run_batch_spread(&self, records: &[AnyValue], policy: ErrorPolicy, spread: bool) -> Result<BatchOutput> {
        let results: Vec<Result<Columns>> = if spread {
            records.par_iter().map(|r| self.run_one(r)).collect()
        } else {
            records.iter().map(|r| self.run_one(r)).collect()
        };
        // The rows are collated where they lie: moving each record's columns into a second
        // vector cost a measurable share of a batch.
        let mut kept: Vec<&Columns> = Vec::with_capacity(records.len());
        let mut skipped = Vec::new();
        for (i, r) in results.iter().enumerate() {
            match r {
                Ok(cols) => kept.push(cols),
                Err(e) if policy == ErrorPolicy::Skip => skipped.push((i, e.clone())),
                Err(e) => return Err(e.clone().context(format!("record {i}")).context(self.label.clone())),
            }
        }
        let mut out = BatchOutput { records: kept.len(), skipped, ..Default::default() };
        for o in &self.outputs {
            self.collate_output(o, &kept, &mut out).with_context(|| format!("output '{}'", o.spec.name))?;
        }
        Ok(out)
    }

    /// Runs the pipeline over several batches together: one result per batch, in order, each
    /// as [`Self::run_batch`] would give it.
    ///
    /// A worker that finishes its share moves on to another batch of the window instead of
    /// waiting at each batch's end; the window as a whole still ends in a barrier. A stream of
    /// batches runs better through [`crate::pipeline::ordered::run_ordered`], which has none.
    pub fn run_batches<B: AsRef<[AnyValue]> + Sync>(
        &self,
        batches: &[B],
        policy: ErrorPolicy,
    ) -> Vec<Result<BatchOutput>> {
        batches.par_iter().map(|b| self.run_batch(b.as_ref(), policy)).collect()
    }

    /// How many batches to keep in flight on `threads` threads (see
    /// [`crate::pipeline::ordered::run_ordered`]): two per thread, so that each worker has its
    /// next batch queued when it finishes one and never sleeps while the caller takes the
    /// finished one (waking a worker costs tens of microseconds on a virtual machine).
    pub fn batches_in_flight(threads: usize) -> usize {
        2 * threads.max(1)
    }

    fn run_one(&self, record: &AnyValue) -> Result<Columns> {
        let values = self.bind_and_run(record)?;
        let mut cols = Columns::new();
        for (idx, v) in values.into_iter().enumerate() {
            // Id rows are unboxed here, still in parallel, so collation is one plain pass.
            let col = match self.id_output_reading(idx) {
                Some(o) => Column::Ids(id_row(&v).with_context(|| format!("output '{}'", o.spec.name))?),
                None => Column::Value(v),
            };
            cols.push(col);
        }
        Ok(cols)
    }

    /// The first padded or ragged output that reads value `idx` of a record, if any.
    fn id_output_reading(&self, idx: usize) -> Option<&PlannedOutput> {
        self.outputs.iter().find(|o| o.spec.layout != Layout::List && (o.value == idx || o.pair_value == Some(idx)))
    }

    fn bind_and_run(&self, record: &AnyValue) -> Result<RecordValues> {
        let inputs = self.inputs();
        let result = match record.value() {
            Value::Object(_) if Dict::from_view(&record.view()).is_some() => {
                let dict: Dict = record.get()?;
                let mut fields = Vec::with_capacity(inputs.len());
                for name in inputs {
                    let v = dict.get(name.as_str()).ok_or_else(|| {
                        Error::new(
                            ErrorKind::Key,
                            format!("record has no field '{name}' (the pipeline's inputs: {inputs:?})"),
                        )
                    })?;
                    fields.push(v);
                }
                let views: Vec<AnyView<'_>> = fields.iter().map(AnyValue::view).collect();
                self.run_record(&views)?
            }
            _ if inputs.len() == 1 => self.run_record(&[record.view()])?,
            _ => {
                return Err(Error::value(format!(
                    "the pipeline takes {} inputs {inputs:?}; give records as dicts (.jsonl)",
                    inputs.len()
                )));
            }
        };
        Ok(result)
    }

    fn collate_output(&self, o: &PlannedOutput, rows: &[&Columns], out: &mut BatchOutput) -> Result<()> {
        let name = &o.spec.name;
        if o.spec.layout == Layout::List {
            let values: List = rows
                .iter()
                .map(|r| match &r[o.value] {
                    Column::Value(v) => v.clone(),
                    Column::Ids(ids) => List::from_iter(ids.iter().copied()).into_any(),
                })
                .collect();
            out.outputs.push((name.clone(), values.into_any()));
            return Ok(());
        }
        let ids = |idx: usize| -> Vec<&Vec<i64>> {
            rows.iter()
                .map(|r| match &r[idx] {
                    Column::Ids(ids) => ids,
                    Column::Value(_) => unreachable!("unboxed in run_one"),
                })
                .collect()
        };
        let firsts = ids(o.value);
        let seconds = o.pair_value.map(ids);
        out.tokens += firsts.iter().chain(seconds.iter().flatten()).map(|r| r.len()).sum::<usize>();
        match o.spec.layout {
            Layout::Padded => {
                let batch = collate(&firsts, seconds.as_deref(), &o.collate)?;
                out.outputs.push((name.clone(), batch.input_ids.into_any()));
                if let (Some(n), Some(a)) = (&o.spec.attention_mask, batch.attention_mask) {
                    out.outputs.push((n.clone(), a.into_any()));
                }
                if let (Some(n), Some(t)) = (&o.spec.token_type_ids, batch.token_type_ids) {
                    out.outputs.push((n.clone(), t.into_any()));
                }
            }
            Layout::Ragged => {
                let batch = collate_ragged(&firsts, seconds.as_deref(), &o.collate)?;
                out.outputs.push((name.clone(), batch.values.into_any()));
                out.outputs.push((format!("{name}.offsets"), batch.offsets.into_any()));
            }
            Layout::List => unreachable!("handled above"),
        }
        Ok(())
    }
}

/// A list of ints (or a 1-D int NDArray) as a row of ids.
fn id_row(v: &AnyValue) -> Result<Vec<i64>> {
    // Borrowed from the value, not taken as a `List` handle: a handle costs a count up and down.
    if let Some(list) = v.as_obj().and_then(|o| o.downcast_ref::<ListObj>()) {
        return list.with_items(|items| {
            // Presized: collecting a `Result<Vec<_>>` cannot know the length and regrows.
            let mut ids = Vec::with_capacity(items.len());
            for x in items {
                // Ids are inline ints; a boxed int or an error goes the general way.
                let id = match x.inline_int() {
                    Some(id) => id,
                    None => boxed_id(x, ids.len())?,
                };
                ids.push(id);
            }
            Ok(ids)
        });
    }
    if let Some(arr) = NDArray::from_view(&v.view()) {
        if arr.ndim() == 1 {
            let list = arr.to_list()?;
            return id_row(&list);
        }
    }
    Err(Error::type_mismatch("a list of ids", &v.type_name()))
}

/// Item `i` of an id list that is not an inline int: a boxed int, or an error naming it.
#[cold]
fn boxed_id(x: &AnyValue, i: usize) -> Result<i64> {
    x.value()
        .as_int()
        .ok_or_else(|| Error::type_mismatch("int", &x.type_name()).context(format!("item {i} of the id list")))
}

/// The number of worker threads to use: `requested`, else `ANYPROC_NUM_THREADS`, else all cores.
pub fn thread_count(requested: Option<usize>) -> Result<usize> {
    if let Some(n) = requested {
        return if n == 0 { Err(Error::value("--threads must be at least 1")) } else { Ok(n) };
    }
    match std::env::var("ANYPROC_NUM_THREADS") {
        Ok(v) => v
            .trim()
            .parse::<usize>()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| Error::value(format!("ANYPROC_NUM_THREADS={v:?} is not a positive integer"))),
        Err(_) => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// A rayon pool of `threads` workers.
pub fn thread_pool(threads: usize) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::runtime(format!("cannot start {threads} worker threads: {e}")))
}
