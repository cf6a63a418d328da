//! An ordered parallel map for streams of batches: items run on a pool with several in flight,
//! and their results come back in input order, without a barrier between them.
//!
//! Rationale: a batch ends in a barrier (its collation needs every record). Run a window of
//! batches at a time, every window still ends in one: the worker that finishes first waits for
//! the last batch's collation, falls asleep, and is woken for the next window, and whatever the
//! caller does between windows (reading input, writing output) leaves the whole pool idle. Here
//! the calling thread, which is not a worker, submits a new item each time one completes and
//! reads and writes while the workers run, so the pool never runs dry until the input does.

use rayon::ThreadPool;
use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::mpsc;

/// Runs `work` over `inputs` on `pool`, at most `in_flight` items at a time, and hands each
/// result to `emit` in input order as soon as it and every result before it are done.
///
/// `work` is told whether its item should spread its own work over the pool (`par_iter`
/// inside it): true for the first items, one per thread (all there is of a short stream), false
/// for the rest, which keep to the worker that takes them. Rationale: a rayon worker that runs
/// out of work steals pieces of another worker's item before it takes a new item from the
/// queue, so items that all split their work run one after another, both workers on each (and
/// each item's barrier costs again), where items that keep to one worker run side by side: a
/// stream of BERT batches on two threads took 0.35 s where it takes 0.30 s. Deciding by the
/// items running when one is submitted was no better: the caller, busy reading and writing,
/// often finds fewer running than threads.
///
/// The next input is taken (read, say) on the calling thread while the workers run. When
/// `emit` returns `Break`, no further input is taken, the items in flight finish and are
/// dropped, and the break value is returned. A panic in `work` resumes on the caller once the
/// items in flight are done. Called from a worker of `pool` itself (where waiting would hold a
/// worker, and deadlock a one-thread pool), the items run one after another on that worker.
pub fn run_ordered<T, R, B>(
    pool: &ThreadPool,
    inputs: impl IntoIterator<Item = T>,
    in_flight: usize,
    work: impl Fn(T, bool) -> R + Sync,
    mut emit: impl FnMut(R) -> ControlFlow<B>,
) -> Option<B>
where
    T: Send,
    R: Send,
{
    let mut inputs = inputs.into_iter();
    if pool.current_thread_index().is_some() {
        return inputs.try_for_each(|item| emit(work(item, true))).break_value();
    }
    let in_flight = in_flight.max(1);
    let work = &work;
    pool.in_place_scope(|scope| {
        let (done_tx, done_rx) = mpsc::channel();
        let threads = pool.current_num_threads();
        let submit = |index: usize, item: T| {
            let done_tx = done_tx.clone();
            let spread = index < threads;
            scope.spawn(move |_| {
                // Caught so that the caller, blocked on the channel, always hears back.
                let result = catch_unwind(AssertUnwindSafe(|| work(item, spread)));
                // The caller only stops listening once it has all it waits for.
                let _ = done_tx.send((index, result));
            });
        };
        let (mut submitted, mut emitted) = (0usize, 0usize);
        let mut exhausted = false;
        let mut waiting: BTreeMap<usize, R> = BTreeMap::new();
        let mut stop = None;
        loop {
            while !exhausted && stop.is_none() && submitted - emitted < in_flight {
                match inputs.next() {
                    Some(item) => {
                        submit(submitted, item);
                        submitted += 1;
                    }
                    None => exhausted = true,
                }
            }
            if submitted == emitted {
                // Nothing in flight (results wait only behind one still running): the input is
                // spent, or emit asked to stop.
                break;
            }
            let Ok((index, result)) = done_rx.recv() else { unreachable!("the caller holds a sender") };
            match result {
                Ok(r) => {
                    waiting.insert(index, r);
                }
                Err(panic) => {
                    // The scope waits for the items still in flight before this unwinds.
                    resume_unwind(panic)
                }
            }
            while let Some(r) = waiting.remove(&emitted) {
                emitted += 1;
                if stop.is_none() {
                    if let ControlFlow::Break(b) = emit(r) {
                        stop = Some(b);
                    }
                }
            }
        }
        stop
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    fn pool(threads: usize) -> ThreadPool {
        rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap()
    }

    #[test]
    fn results_come_back_in_input_order_whatever_order_they_finish_in() {
        for threads in [1, 2, 3] {
            let mut seen = Vec::new();
            // Early items take longest, so later ones finish first.
            let work = |i: u64, _| {
                std::thread::sleep(Duration::from_millis(20u64.saturating_sub(i)));
                i * i
            };
            let stop: Option<()> = run_ordered(&pool(threads), 0..20u64, 4, work, |r| {
                seen.push(r);
                ControlFlow::Continue(())
            });
            assert_eq!(stop, None);
            assert_eq!(seen, (0..20u64).map(|i| i * i).collect::<Vec<_>>(), "{threads} threads");
        }
    }

    #[test]
    fn never_more_than_in_flight_items_are_taken_ahead_of_emit() {
        let taken = AtomicUsize::new(0);
        let inputs = (0..50).inspect(|_| {
            taken.fetch_add(1, Ordering::SeqCst);
        });
        let mut emitted = 0;
        run_ordered(
            &pool(2),
            inputs,
            3,
            |i: usize, _| i,
            |i| {
                emitted += 1;
                assert_eq!(i + 1, emitted);
                // Taken so far: the emitted ones plus at most three in flight.
                assert!(taken.load(Ordering::SeqCst) <= emitted + 3, "taken {taken:?} after {emitted} emitted");
                ControlFlow::<()>::Continue(())
            },
        );
        assert_eq!(emitted, 50);
    }

    #[test]
    fn a_break_stops_taking_input_and_is_returned() {
        let taken = AtomicUsize::new(0);
        let inputs = (0..1000).inspect(|_| {
            taken.fetch_add(1, Ordering::SeqCst);
        });
        let mut emitted = Vec::new();
        let stop = run_ordered(
            &pool(2),
            inputs,
            4,
            |i: usize, _| i,
            |i| {
                emitted.push(i);
                if i == 5 { ControlFlow::Break("stopped at 5") } else { ControlFlow::Continue(()) }
            },
        );
        assert_eq!(stop, Some("stopped at 5"));
        assert_eq!(emitted, [0, 1, 2, 3, 4, 5]);
        assert!(taken.load(Ordering::SeqCst) <= 6 + 4);
    }

    #[test]
    fn the_first_item_of_each_thread_spreads_and_the_rest_keep_to_one_worker() {
        let spread = std::sync::Mutex::new(Vec::new());
        run_ordered(
            &pool(2),
            0..6,
            4,
            |i: usize, s| spread.lock().unwrap().push((i, s)),
            |_| ControlFlow::<()>::Continue(()),
        );
        let mut spread = spread.into_inner().unwrap();
        spread.sort();
        assert_eq!(spread, [(0, true), (1, true), (2, false), (3, false), (4, false), (5, false)]);
    }

    #[test]
    fn an_empty_input_emits_nothing() {
        let stop = run_ordered(
            &pool(2),
            std::iter::empty::<u8>(),
            4,
            |i, _| i,
            |_| -> ControlFlow<()> { panic!("nothing to emit") },
        );
        assert_eq!(stop, None);
    }

    #[test]
    fn a_panicking_item_resumes_on_the_caller_after_the_others_finish() {
        let finished = AtomicUsize::new(0);
        let result = catch_unwind(AssertUnwindSafe(|| {
            run_ordered(
                &pool(2),
                0..8,
                4,
                |i: usize, _| {
                    if i == 2 {
                        panic!("item 2 fails");
                    }
                    std::thread::sleep(Duration::from_millis(5));
                    finished.fetch_add(1, Ordering::SeqCst);
                },
                |_| ControlFlow::<()>::Continue(()),
            )
        }));
        let panic = result.expect_err("the panic reaches the caller");
        assert_eq!(panic.downcast_ref::<&str>(), Some(&"item 2 fails"));
    }

    #[test]
    fn called_from_inside_the_pool_it_runs_in_order_without_waiting_on_itself() {
        let one = pool(1);
        let mut seen = Vec::new();
        one.install(|| {
            run_ordered(
                &one,
                0..10,
                4,
                |i: usize, spread| {
                    assert!(spread, "an item run alone spreads");
                    i + 1
                },
                |r| {
                    seen.push(r);
                    ControlFlow::<()>::Continue(())
                },
            )
        });
        assert_eq!(seen, (1..11).collect::<Vec<_>>());
    }
}
