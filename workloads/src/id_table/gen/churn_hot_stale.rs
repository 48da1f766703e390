//! `churn-hot-stale`: the article's warning about a LIFO free list, with the stale lookups that
//! show its consequence: "if you create and delete objects in quick succession they will all be
//! assigned to the same index slot which means you quickly run out of inner_ids for that slot".
//!
//! Setup: `n - 1` adds, live throughout (background). Body: `steps` × (`Add` of a short-lived
//! object, `GetStale` of the short-lived object added `distance` steps earlier (from step
//! `distance` on), `Remove` of the new object). A design that reuses the freed slot at once (a
//! LIFO free list) puts every short-lived object in one slot, so the object looked up was
//! removed `distance` reuses of that slot ago: with a 16-bit generation and the default
//! `distance` of 2^16, its stale ID equals the live object's and resolves, from step 65,536 on
//! (body op 131,073 is the first stale lookup). A FIFO free list with many holes in reserve
//! spreads the reuse and detects every stale ID. `n - 1` objects are live between steps; the
//! peak is `n`.

use crate::generate::MAX_OPS;
use crate::generate::parts::Recorder;
use crate::id_table::IdTableOp;
use crate::id_table::builder::TraceBuilder;
use crate::trace::Trace;

crate::generate::workload! {
    /// quick add/remove of short-lived objects with stale lookups of ones removed 65,536 steps ago
    /// (resolves under a LIFO free list with a 16-bit generation)
    pub struct ChurnHotStaleParams for "churn-hot-stale" {
        /// Number of steps; each is an `Add`, a `GetStale` (from step `distance` on) and a
        /// `Remove`. The default passes `distance` by a few thousand steps.
        pub steps: usize = 70_000, in 1..=(MAX_OPS / 3),
        /// How many steps before the current one the stale object looked up was added: the
        /// reuses of a LIFO hot slot since its removal. 2^16 wraps a 16-bit generation.
        pub distance: usize = 65_536, in 1..=MAX_OPS,
    }
}

/// See the module doc. The seed is unused (the trace has no random choices).
pub fn generate(n: usize, seed: u64, params: &ChurnHotStaleParams) -> Trace<IdTableOp> {
    TraceBuilder::default().record(NAME, n, seed, params, |b, _| {
        for _ in 0..n.saturating_sub(1) {
            b.add();
        }
        b.start_body();
        if n > 0 {
            let mut short_lived = Vec::with_capacity(params.steps);
            for step in 0..params.steps {
                let handle = b.add();
                short_lived.push(handle);
                if let Some(earlier) = step.checked_sub(params.distance) {
                    b.push(IdTableOp::GetStale(short_lived[earlier]));
                }
                b.remove(handle);
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn looks_up_the_object_removed_distance_steps_ago() {
        let params = ChurnHotStaleParams {
            steps: 5,
            distance: 2,
        };
        let trace = generate(3, 0, &params);
        assert_eq!(trace.setup, [IdTableOp::Add, IdTableOp::Add]);
        let body: Vec<IdTableOp> = trace.body.clone();
        assert_eq!(
            body[..4],
            [
                IdTableOp::Add,
                IdTableOp::Remove(2),
                IdTableOp::Add,
                IdTableOp::Remove(3)
            ]
        );
        assert_eq!(
            body[4..7],
            [IdTableOp::Add, IdTableOp::GetStale(2), IdTableOp::Remove(4)]
        );
        let stats = trace.validate().unwrap();
        assert_eq!(
            (stats.stale_gets, stats.removes, stats.peak_live),
            (3, 5, 3)
        );
    }
}
