//! `lookup-uniform`: the article's "most common operation", ID to object, with every live
//! object equally likely. At large `n` almost every lookup misses the cache, so this shows the
//! cost of each design's indirections.
//!
//! The body is whole passes over the live objects, each pass a fresh random permutation: every
//! object is looked up equally often and the working set is all `n` objects at every `n` (a
//! fixed number of independent draws would touch only a fraction of a large table, and a
//! table of 1M objects would be measured on the few MB a 100K-op body touches). An
//! application looking up a shuffled list of its IDs does the same.

use crate::generate::MAX_OPS;
use crate::generate::parts::Recorder;
use crate::id_table::IdTableOp;
use crate::id_table::builder::TraceBuilder;
use crate::rng::TraceRng;
use crate::trace::Trace;

crate::generate::workload! {
    /// n live objects; body of Gets: whole passes over every live object, each in a fresh random
    /// order
    pub struct LookupUniformParams for "lookup-uniform" {
        /// Fewest `Get` ops in the body: as many whole passes over the `n` live objects as reach
        /// it (at least one), so per-op times at every `n` average at least this many lookups
        /// and every object is touched.
        pub ops: usize = 100_000, in 1..=MAX_OPS,
        /// Bytes per stored object: 8, 32 or 128 ([`crate::PayloadSize`]).
        pub payload_bytes: u32 = 32, in 8..=128,
    }
}

/// Passes over `n` objects that reach `ops` lookups (at least one, and within [`MAX_OPS`]).
pub fn passes(n: usize, ops: usize) -> usize {
    if n == 0 {
        return 0;
    }
    ops.div_ceil(n).clamp(1, (MAX_OPS / n).max(1))
}

/// Setup: `n` `Add`s. Body: [`passes`] permutations of the `n` live handles, one `Get` each
/// (read-only).
pub fn generate(n: usize, seed: u64, params: &LookupUniformParams) -> Trace<IdTableOp> {
    TraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        shuffled_passes(b, rng, n, params.ops);
    })
}

/// The ops of [`generate`] (its payload-size variants share them): `n` `Add`s, then the body's
/// shuffled passes of `Get`s.
pub(crate) fn shuffled_passes(b: &mut TraceBuilder, rng: &mut TraceRng, n: usize, ops: usize) {
    let mut order: Vec<u32> = (0..n).map(|_| b.add()).collect();
    b.start_body();
    for _ in 0..passes(n, ops) {
        rng.shuffle(&mut order);
        for &h in &order {
            b.push(IdTableOp::Get(h));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_live_object_is_looked_up_equally_often_at_every_n() {
        for n in [1, 7, 1_000, 65_536] {
            let t = generate(n, 3, &LookupUniformParams::default());
            let mut counts = vec![0u32; n];
            for op in &t.body {
                let IdTableOp::Get(h) = *op else {
                    panic!("only Gets: {op:?}")
                };
                counts[h as usize] += 1;
            }
            let passes = passes(n, 100_000) as u32;
            assert!(counts.iter().all(|&c| c == passes), "n = {n}");
            assert!(t.body.len() >= 100_000, "n = {n}: {}", t.body.len());
        }
    }

    #[test]
    fn passes_are_shuffled_differently() {
        let t = generate(1_000, 3, &LookupUniformParams::default());
        assert_ne!(t.body[..1_000], t.body[1_000..2_000]);
    }
}
