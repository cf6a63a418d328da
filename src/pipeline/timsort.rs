//! CPython 3.11's list sort (`listsort` in `Objects/listobject.c`), step for step: natural runs
//! extended by binary insertion to `minrun`, merged in powersort order, with galloping merges.
//!
//! Rationale: for a total order every stable sort gives the same result, and anyscript takes the
//! standard library's sort then. But Python's `<` is not always a total order: with a NaN the
//! result depends on which pairs the sort compares, and an incomparable pair raises a TypeError
//! that names the pair's types and leaves the list as far as the sort got. Only CPython's own
//! algorithm, asking the same questions in the same order, gives CPython's answers there.
//!
//! The sort permutes indices (`usize`) into the caller's items and asks `lt(i, j)` for "item `i`
//! < item `j`"; the caller applies the final permutation (also after a failed comparison, which
//! leaves the permutation where CPython leaves its list).

use crate::error::Result;

/// Galloping starts after this many wins in a row (`MIN_GALLOP`).
const MIN_GALLOP: usize = 7;

/// "Is item `i` less than item `j`?": Python's `<` on the items, or their keys.
pub(crate) type Lt<'a> = dyn FnMut(usize, usize) -> Result<bool> + 'a;

/// One run waiting on the stack to be merged: where it starts, its length, its powersort power.
#[derive(Clone, Copy)]
struct Run {
    base: usize,
    len: usize,
    power: u32,
}

/// Sorts the permutation `a` in place by `lt`, stable; `reverse` as `list.sort(reverse=True)`:
/// reversed, sorted, reversed back, which keeps equal items in their order. On a failed
/// comparison `a` is left as CPython leaves its list (reversed back too) and the error returned.
pub(crate) fn listsort(a: &mut [usize], lt: &mut Lt<'_>, reverse: bool) -> Result<()> {
    if a.len() < 2 {
        return Ok(());
    }
    if reverse {
        a.reverse();
    }
    let result = sort_runs(a, lt);
    if reverse {
        a.reverse();
    }
    result
}

fn sort_runs(a: &mut [usize], lt: &mut Lt<'_>) -> Result<()> {
    let n = a.len();
    let mut ms = MergeState { a, lt, min_gallop: MIN_GALLOP, pending: Vec::new(), tmp: Vec::new() };
    let minrun = compute_minrun(n);
    let (mut lo, mut remaining) = (0, n);
    while remaining > 0 {
        let (mut run, descending) = ms.count_run(lo, lo + remaining)?;
        if descending {
            ms.a[lo..lo + run].reverse();
        }
        if run < minrun {
            let force = remaining.min(minrun);
            ms.binary_sort(lo, lo + force, lo + run)?;
            run = force;
        }
        ms.found_new_run(run, n)?;
        ms.pending.push(Run { base: lo, len: run, power: 0 });
        lo += run;
        remaining -= run;
    }
    ms.force_collapse()
}

/// The shortest run worth merging (`merge_compute_minrun`): `n` itself below 64, else a number
/// in 32..=64 such that `n / minrun` is a power of two or just below one.
fn compute_minrun(mut n: usize) -> usize {
    let mut r = 0;
    while n >= 64 {
        r |= n & 1;
        n >>= 1;
    }
    n + r
}

/// The powersort "power" of the run at `s1` of length `n1` followed by one of length `n2`, in a
/// list of `n` (`powerloop`): the depth at which the midpoints of the two runs part in a binary
/// subdivision of the list.
fn powerloop(s1: usize, n1: usize, n2: usize, n: usize) -> u32 {
    let mut result = 0;
    let mut a = 2 * s1 + n1; // twice the first run's midpoint
    let mut b = a + n1 + n2; // twice the second run's midpoint
    loop {
        result += 1;
        if a >= n {
            a -= n;
            b -= n;
        } else if b >= n {
            break;
        }
        a <<= 1;
        b <<= 1;
    }
    result
}

struct MergeState<'s, 'l> {
    a: &'s mut [usize],
    lt: &'s mut Lt<'l>,
    min_gallop: usize,
    pending: Vec<Run>,
    /// The merge's scratch copy of its shorter run.
    tmp: Vec<usize>,
}

impl MergeState<'_, '_> {
    /// The length of the run at `lo` and whether it strictly descends (`count_run`).
    fn count_run(&mut self, lo: usize, hi: usize) -> Result<(usize, bool)> {
        let mut i = lo + 1;
        if i == hi {
            return Ok((1, false));
        }
        let descending = (self.lt)(self.a[i], self.a[i - 1])?;
        i += 1;
        while i < hi && (self.lt)(self.a[i], self.a[i - 1])? == descending {
            i += 1;
        }
        Ok((i - lo, descending))
    }

    /// Extends the sorted `a[lo..start]` to `a[lo..hi]` by binary insertion (`binarysort`).
    fn binary_sort(&mut self, lo: usize, hi: usize, mut start: usize) -> Result<()> {
        if lo == start {
            start += 1;
        }
        while start < hi {
            let pivot = self.a[start];
            let (mut l, mut r) = (lo, start);
            // pivot >= all of a[lo..l], pivot < all of a[r..start].
            loop {
                let p = l + ((r - l) >> 1);
                if (self.lt)(pivot, self.a[p])? {
                    r = p;
                } else {
                    l = p + 1;
                }
                if l >= r {
                    break;
                }
            }
            self.a.copy_within(l..start, l + 1);
            self.a[l] = pivot;
            start += 1;
        }
        Ok(())
    }

    /// Merges runs while the one below the top has a higher power than the new top's
    /// (`found_new_run`), then gives the top its power; the caller pushes the new run.
    fn found_new_run(&mut self, n2: usize, n: usize) -> Result<()> {
        let Some(top) = self.pending.last().copied() else { return Ok(()) };
        let power = powerloop(top.base, top.len, n2, n);
        while self.pending.len() > 1 && self.pending[self.pending.len() - 2].power > power {
            self.merge_at(self.pending.len() - 2)?;
        }
        let last = self.pending.len() - 1;
        self.pending[last].power = power;
        Ok(())
    }

    /// Merges every run left until one remains (`merge_force_collapse`).
    fn force_collapse(&mut self) -> Result<()> {
        while self.pending.len() > 1 {
            let mut n = self.pending.len() - 2;
            if n > 0 && self.pending[n - 1].len < self.pending[n + 1].len {
                n -= 1;
            }
            self.merge_at(n)?;
        }
        Ok(())
    }

    /// Merges the runs at stack positions `i` and `i + 1` (`merge_at`).
    fn merge_at(&mut self, i: usize) -> Result<()> {
        let (ra, rb) = (self.pending[i], self.pending[i + 1]);
        self.pending[i].len = ra.len + rb.len;
        if i + 3 == self.pending.len() {
            self.pending[i + 1] = self.pending[i + 2];
        }
        self.pending.pop();
        // Items of A before where B's first belongs are in place already, and so are items of
        // B after where A's last belongs.
        let k = gallop_right(self.lt, self.a[rb.base], &self.a[ra.base..ra.base + ra.len], 0)?;
        let (pa, na) = (ra.base + k, ra.len - k);
        if na == 0 {
            return Ok(());
        }
        let nb = gallop_left(self.lt, self.a[pa + na - 1], &self.a[rb.base..rb.base + rb.len], rb.len - 1)?;
        if nb == 0 {
            return Ok(());
        }
        if na <= nb { self.merge_lo(pa, na, rb.base, nb) } else { self.merge_hi(pa, na, rb.base, nb) }
    }

    /// Merges A = `a[pa..pa + na]` and B (right after it) from the left, A copied aside
    /// (`merge_lo`); on a failed comparison what is left of A is copied back where it goes.
    fn merge_lo(&mut self, pa: usize, mut na: usize, mut pb: usize, mut nb: usize) -> Result<()> {
        self.tmp.clear();
        self.tmp.extend_from_slice(&self.a[pa..pa + na]);
        let (mut ta, mut dest) = (0, pa);
        self.a[dest] = self.a[pb];
        (dest, pb, nb) = (dest + 1, pb + 1, nb - 1);
        let outcome = (|| -> Result<Ending> {
            if nb == 0 {
                return Ok(Ending::Done);
            }
            if na == 1 {
                return Ok(Ending::CopyRest);
            }
            let mut min_gallop = self.min_gallop;
            loop {
                let (mut acount, mut bcount) = (0, 0);
                // One at a time until a run wins `min_gallop` times in a row.
                loop {
                    if (self.lt)(self.a[pb], self.tmp[ta])? {
                        self.a[dest] = self.a[pb];
                        (dest, pb, nb) = (dest + 1, pb + 1, nb - 1);
                        (bcount, acount) = (bcount + 1, 0);
                        if nb == 0 {
                            return Ok(Ending::Done);
                        }
                        if bcount >= min_gallop {
                            break;
                        }
                    } else {
                        self.a[dest] = self.tmp[ta];
                        (dest, ta, na) = (dest + 1, ta + 1, na - 1);
                        (acount, bcount) = (acount + 1, 0);
                        if na == 1 {
                            return Ok(Ending::CopyRest);
                        }
                        if acount >= min_gallop {
                            break;
                        }
                    }
                }
                // Gallop while either run keeps winning long stretches.
                min_gallop += 1;
                loop {
                    min_gallop -= usize::from(min_gallop > 1);
                    self.min_gallop = min_gallop;
                    let k = gallop_right(self.lt, self.a[pb], &self.tmp[ta..ta + na], 0)?;
                    acount = k;
                    if k > 0 {
                        self.a[dest..dest + k].copy_from_slice(&self.tmp[ta..ta + k]);
                        (dest, ta, na) = (dest + k, ta + k, na - k);
                        if na == 1 {
                            return Ok(Ending::CopyRest);
                        }
                        // Impossible for a consistent `<`, which Python's need not be.
                        if na == 0 {
                            return Ok(Ending::Done);
                        }
                    }
                    self.a[dest] = self.a[pb];
                    (dest, pb, nb) = (dest + 1, pb + 1, nb - 1);
                    if nb == 0 {
                        return Ok(Ending::Done);
                    }
                    let k = gallop_left(self.lt, self.tmp[ta], &self.a[pb..pb + nb], 0)?;
                    bcount = k;
                    if k > 0 {
                        self.a.copy_within(pb..pb + k, dest);
                        (dest, pb, nb) = (dest + k, pb + k, nb - k);
                        if nb == 0 {
                            return Ok(Ending::Done);
                        }
                    }
                    self.a[dest] = self.tmp[ta];
                    (dest, ta, na) = (dest + 1, ta + 1, na - 1);
                    if na == 1 {
                        return Ok(Ending::CopyRest);
                    }
                    if acount < MIN_GALLOP && bcount < MIN_GALLOP {
                        break;
                    }
                }
                min_gallop += 1; // penalize leaving galloping mode
                self.min_gallop = min_gallop;
            }
        })();
        match outcome {
            Ok(Ending::CopyRest) => {
                // A's last item belongs after what is left of B.
                self.a.copy_within(pb..pb + nb, dest);
                self.a[dest + nb] = self.tmp[ta];
                Ok(())
            }
            done_or_failed => {
                self.a[dest..dest + na].copy_from_slice(&self.tmp[ta..ta + na]);
                done_or_failed.map(drop)
            }
        }
    }

    /// Merges A = `a[pa..pa + na]` and B (right after it) from the right, B copied aside
    /// (`merge_hi`); on a failed comparison what is left of B is copied back where it goes.
    fn merge_hi(&mut self, pa: usize, mut na: usize, pb: usize, mut nb: usize) -> Result<()> {
        self.tmp.clear();
        self.tmp.extend_from_slice(&self.a[pb..pb + nb]);
        // `dest`, `ia` and `tb` point at the last slot to fill, A's last item, B's last item;
        // signed, since a finished run's pointer steps one below its start.
        let mut dest = (pb + nb - 1) as isize;
        let mut ia = (pa + na - 1) as isize;
        let mut tb = nb as isize - 1;
        let at = |i: isize| i as usize;
        self.a[at(dest)] = self.a[at(ia)];
        (dest, ia, na) = (dest - 1, ia - 1, na - 1);
        let outcome = (|| -> Result<Ending> {
            if na == 0 {
                return Ok(Ending::Done);
            }
            if nb == 1 {
                return Ok(Ending::CopyRest);
            }
            let mut min_gallop = self.min_gallop;
            loop {
                let (mut acount, mut bcount) = (0, 0);
                loop {
                    if (self.lt)(self.tmp[at(tb)], self.a[at(ia)])? {
                        self.a[at(dest)] = self.a[at(ia)];
                        (dest, ia, na) = (dest - 1, ia - 1, na - 1);
                        (acount, bcount) = (acount + 1, 0);
                        if na == 0 {
                            return Ok(Ending::Done);
                        }
                        if acount >= min_gallop {
                            break;
                        }
                    } else {
                        self.a[at(dest)] = self.tmp[at(tb)];
                        (dest, tb, nb) = (dest - 1, tb - 1, nb - 1);
                        (bcount, acount) = (bcount + 1, 0);
                        if nb == 1 {
                            return Ok(Ending::CopyRest);
                        }
                        if bcount >= min_gallop {
                            break;
                        }
                    }
                }
                min_gallop += 1;
                loop {
                    min_gallop -= usize::from(min_gallop > 1);
                    self.min_gallop = min_gallop;
                    let k = gallop_right(self.lt, self.tmp[at(tb)], &self.a[pa..pa + na], na - 1)?;
                    let k = na - k;
                    acount = k;
                    if k > 0 {
                        let k = k as isize;
                        (dest, ia) = (dest - k, ia - k);
                        self.a.copy_within(at(ia + 1)..at(ia + 1 + k), at(dest + 1));
                        na -= k as usize;
                        if na == 0 {
                            return Ok(Ending::Done);
                        }
                    }
                    self.a[at(dest)] = self.tmp[at(tb)];
                    (dest, tb, nb) = (dest - 1, tb - 1, nb - 1);
                    if nb == 1 {
                        return Ok(Ending::CopyRest);
                    }
                    let k = gallop_left(self.lt, self.a[at(ia)], &self.tmp[..nb], nb - 1)?;
                    let k = nb - k;
                    bcount = k;
                    if k > 0 {
                        let k = k as isize;
                        (dest, tb) = (dest - k, tb - k);
                        let from = at(tb + 1)..at(tb + 1 + k);
                        self.a[at(dest + 1)..at(dest + 1 + k)].copy_from_slice(&self.tmp[from]);
                        nb -= k as usize;
                        if nb == 1 {
                            return Ok(Ending::CopyRest);
                        }
                        // Impossible for a consistent `<`, which Python's need not be.
                        if nb == 0 {
                            return Ok(Ending::Done);
                        }
                    }
                    self.a[at(dest)] = self.a[at(ia)];
                    (dest, ia, na) = (dest - 1, ia - 1, na - 1);
                    if na == 0 {
                        return Ok(Ending::Done);
                    }
                    if acount < MIN_GALLOP && bcount < MIN_GALLOP {
                        break;
                    }
                }
                min_gallop += 1;
                self.min_gallop = min_gallop;
            }
        })();
        match outcome {
            Ok(Ending::CopyRest) => {
                // B's first item belongs before what is left of A.
                let from = at(ia + 1 - na as isize)..at(ia + 1);
                self.a.copy_within(from, at(dest + 1 - na as isize));
                self.a[at(dest - na as isize)] = self.tmp[at(tb)];
                Ok(())
            }
            done_or_failed => {
                if nb > 0 {
                    let to = at(dest + 1 - nb as isize);
                    self.a[to..to + nb].copy_from_slice(&self.tmp[..nb]);
                }
                done_or_failed.map(drop)
            }
        }
    }
}

/// How a merge's loop ended: all placed, or one run down to its last item (`CopyB`/`CopyA`).
enum Ending {
    Done,
    CopyRest,
}

/// Where `key` goes in the sorted `run`, before any equal items (`gallop_left`): galloping from
/// `hint` by 1, 3, 7, ... then a binary search.
fn gallop_left(lt: &mut Lt<'_>, key: usize, run: &[usize], hint: usize) -> Result<usize> {
    let n = run.len();
    let (mut lastofs, mut ofs) = (0, 1);
    if lt(run[hint], key)? {
        // run[hint] < key: gallop right until run[hint + lastofs] < key <= run[hint + ofs].
        let maxofs = n - hint;
        while ofs < maxofs && lt(run[hint + ofs], key)? {
            lastofs = ofs;
            ofs = (ofs << 1) + 1;
        }
        ofs = ofs.min(maxofs);
        (lastofs, ofs) = (lastofs + hint, ofs + hint);
    } else {
        // key <= run[hint]: gallop left until run[hint - ofs] < key <= run[hint - lastofs].
        let maxofs = hint + 1;
        while ofs < maxofs && !lt(run[hint - ofs], key)? {
            lastofs = ofs;
            ofs = (ofs << 1) + 1;
        }
        ofs = ofs.min(maxofs);
        (lastofs, ofs) = ((hint as isize - ofs as isize) as usize, hint - lastofs);
    }
    // run[lastofs] < key <= run[ofs]; lastofs may be -1, kept as usize::MAX and stepped past.
    let mut lo = lastofs.wrapping_add(1);
    while lo < ofs {
        let m = lo + ((ofs - lo) >> 1);
        if lt(run[m], key)? {
            lo = m + 1;
        } else {
            ofs = m;
        }
    }
    Ok(ofs)
}

/// Where `key` goes in the sorted `run`, after any equal items (`gallop_right`).
fn gallop_right(lt: &mut Lt<'_>, key: usize, run: &[usize], hint: usize) -> Result<usize> {
    let n = run.len();
    let (mut lastofs, mut ofs) = (0, 1);
    if lt(key, run[hint])? {
        // key < run[hint]: gallop left until run[hint - ofs] <= key < run[hint - lastofs].
        let maxofs = hint + 1;
        while ofs < maxofs && lt(key, run[hint - ofs])? {
            lastofs = ofs;
            ofs = (ofs << 1) + 1;
        }
        ofs = ofs.min(maxofs);
        (lastofs, ofs) = ((hint as isize - ofs as isize) as usize, hint - lastofs);
    } else {
        // run[hint] <= key: gallop right until run[hint + lastofs] <= key < run[hint + ofs].
        let maxofs = n - hint;
        while ofs < maxofs && !lt(key, run[hint + ofs])? {
            lastofs = ofs;
            ofs = (ofs << 1) + 1;
        }
        ofs = ofs.min(maxofs);
        (lastofs, ofs) = (lastofs + hint, ofs + hint);
    }
    let mut lo = lastofs.wrapping_add(1);
    while lo < ofs {
        let m = lo + ((ofs - lo) >> 1);
        if lt(key, run[m])? {
            ofs = m;
        } else {
            lo = m + 1;
        }
    }
    Ok(ofs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

    /// Sorts `values` (floats, or `None` for an item `<` refuses) and returns the order of their
    /// indices and whether it failed.
    fn sort(values: &[Option<f64>], reverse: bool) -> (Vec<usize>, bool) {
        let mut a: Vec<usize> = (0..values.len()).collect();
        let mut lt = |i: usize, j: usize| match (values[i], values[j]) {
            (Some(x), Some(y)) => Ok(x < y),
            _ => Err(Error::new(crate::ErrorKind::Type, "not comparable")),
        };
        let failed = listsort(&mut a, &mut lt, reverse).is_err();
        (a, failed)
    }

    #[test]
    fn sorts_stably_in_both_directions() {
        let v: Vec<Option<f64>> = [3.0, 1.0, 2.0, 1.0, 3.0].iter().map(|&x| Some(x)).collect();
        assert_eq!(sort(&v, false), (vec![1, 3, 2, 0, 4], false));
        assert_eq!(sort(&v, true), (vec![0, 4, 2, 1, 3], false));
        // Long enough for runs, merges and galloping: compare with a stable sort.
        let v: Vec<Option<f64>> = (0..5000).map(|i| Some(((i * 7919) % 1013) as f64)).collect();
        let mut want: Vec<usize> = (0..v.len()).collect();
        want.sort_by(|&i, &j| v[i].partial_cmp(&v[j]).unwrap());
        assert_eq!(sort(&v, false), (want, false));
    }

    // The expected orders are CPython 3.11's for the same lists: `sorted([...])` with NaNs, and
    // the list `list.sort()` leaves when a comparison raises.
    #[test]
    fn nan_and_failures_end_where_cpython_ends() {
        let nan = f64::NAN;
        let v: Vec<Option<f64>> = [3.0, nan, 1.0, 2.0].iter().map(|&x| Some(x)).collect();
        let (order, _) = sort(&v, false);
        assert_eq!(
            order.iter().map(|&i| v[i].unwrap()).map(|x| x.to_string()).collect::<Vec<_>>(),
            ["3", "NaN", "1", "2"]
        );
        let v = [Some(3.0), Some(1.0), Some(2.0), None];
        let (order, failed) = sort(&v, false);
        assert!(failed);
        assert_eq!(order, [1, 2, 0, 3]);
    }
}
