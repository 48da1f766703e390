//! `lookup-stale`: the article's second requirement, "if the system is supplied with an ID to
//! an old object, it should be able to detect that the object is no longer alive".
//!
//! Setup: `n` adds, then `removed` = `round(n * stale_fraction)` (at least 1) random removes,
//! then `removed` new adds. A design that reuses freed slots (every design in the article) has
//! put the new objects in the removed objects' slots, so each stale ID points at a slot holding
//! a live object of a later generation: the hard case, which an index-only check gets wrong.
//! `n` objects are live at the start of the body and the peak is `n`.
//!
//! Body: `ops` `GetStale` of uniformly random removed handles, each expecting a miss. Only
//! designs that detect stale IDs can run it (the registry marks it `needs_stale_detection`).

use crate::generate::parts::Recorder;
use crate::generate::{MAX_OPS, fraction_of};
use crate::id_table::IdTableOp;
use crate::id_table::builder::TraceBuilder;
use crate::rng::TraceRng;
use crate::trace::Trace;

crate::generate::workload! {
    /// n live objects, some in reused slots of removed ones; body of GetStale of removed handles
    pub struct LookupStaleParams for "lookup-stale" {
        /// Number of `GetStale` ops in the body.
        pub ops: usize = 100_000, in 1..=MAX_OPS,
        /// Fraction of the `n` first objects removed (and replaced) in the setup; at least one
        /// object is always removed.
        pub stale_fraction: f64 = 0.5, in 0.0..=1.0,
    }
}

/// See the module doc.
pub fn generate(n: usize, seed: u64, params: &LookupStaleParams) -> Trace<IdTableOp> {
    TraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        let removed = stale_setup(b, rng, n, params.stale_fraction, Slots::Reused);
        b.start_body();
        if !removed.is_empty() {
            for _ in 0..params.ops {
                b.push(IdTableOp::GetStale(removed[rng.index(removed.len())]));
            }
        }
    })
}

/// What becomes of the slots of the objects [`stale_setup`] removes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Slots {
    /// As many objects added back, into the freed slots (in designs that reuse them).
    Reused,
    /// Nothing added back: the slots stay free.
    Vacant,
}

/// The stale workloads' setup: `n` adds, then `round(n * fraction)` (at least 1) random
/// removes, then as many adds if `slots` is [`Slots::Reused`]; returns the removed handles.
pub(crate) fn stale_setup(
    b: &mut TraceBuilder,
    rng: &mut TraceRng,
    n: usize,
    fraction: f64,
    slots: Slots,
) -> Vec<crate::id_table::Handle> {
    for _ in 0..n {
        b.add();
    }
    let removed_count = fraction_of(n, fraction, 1);
    let removed: Vec<_> = (0..removed_count).map(|_| b.remove_random(rng)).collect();
    if slots == Slots::Reused {
        for _ in 0..removed_count {
            b.add();
        }
    }
    removed
}

/// The ops of `lookup-stale-pass` and `lookup-stale-vacant`: [`stale_setup`], then a body of
/// whole passes of `GetStale` over the removed handles, each a fresh permutation, as many as
/// reach `ops` (at least one; [`passes`](super::lookup_uniform::passes)): every removed
/// handle is looked up equally often.
pub(crate) fn stale_passes(
    b: &mut TraceBuilder,
    rng: &mut TraceRng,
    n: usize,
    fraction: f64,
    slots: Slots,
    ops: usize,
) {
    let mut removed = stale_setup(b, rng, n, fraction, slots);
    b.start_body();
    for _ in 0..super::lookup_uniform::passes(removed.len(), ops) {
        rng.shuffle(&mut removed);
        for &h in &removed {
            b.push(IdTableOp::GetStale(h));
        }
    }
}

/// Checks a default-parameter trace of [`stale_passes`] at `n`: every removed handle (half
/// the objects) looked up once per pass, and `live` objects live after the setup.
#[cfg(test)]
pub(crate) fn check_stale_passes(t: &Trace<IdTableOp>, n: usize, live: usize) {
    let removed = fraction_of(n, 0.5, 1);
    let mut counts = std::collections::HashMap::<u32, usize>::new();
    for op in &t.body {
        let IdTableOp::GetStale(h) = *op else {
            panic!("only GetStale: {op:?}")
        };
        *counts.entry(h).or_default() += 1;
    }
    let passes = super::lookup_uniform::passes(removed, 100_000);
    assert_eq!(counts.len(), removed, "n = {n}");
    assert!(counts.values().all(|&c| c == passes), "n = {n}");
    let count = |want: fn(&IdTableOp) -> bool| t.setup.iter().filter(|op| want(op)).count();
    let adds = count(|op| matches!(op, IdTableOp::Add));
    assert_eq!(
        adds - count(|op| matches!(op, IdTableOp::Remove(_))),
        live,
        "n = {n}"
    );
}
