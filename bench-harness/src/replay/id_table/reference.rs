//! Reference loops that put the replay numbers in context, verified like any replay:
//!
//! * [`VecIterate`]: summing a plain `Vec` of the live objects (of the trace's object size), the floor for any
//!   `iterate-*` workload (the packed array's goal: at most 1.5× a plain Vec);
//! * [`DirectLookup`]: a hand-written loop calling `IdTable::get` over a plain `Vec` of the
//!   design's own IDs (no handle map), one per design it mirrors, to measure the replay
//!   driver's own overhead on lookup bodies and to rank the designs without the driver. The
//!   loop is [`super::lookup_all`], the very function the timed replay runs a uniform run of
//!   `Get`s through, so the two differ only by what the driver does around it. Registered for
//!   our own designs (`holey`, `packed`).
//! * [`DirectPeer`](super::direct_peer::DirectPeer) (`ref-direct-<peer>`, for `slotmap`,
//!   `slotmap-dense`, `slotmap-hop`, `thunderdome`, `generational-arena` and `slab`): any body
//!   written against the peer's crate itself, no [`IdTable`] in between, one call of the
//!   crate's per op over the body's keys decoded before timing (the crate's own, as the peer's
//!   dry run recorded them), on the peer's table after the trace's setup (built untimed by the
//!   peer's replay). Covers every body of every ID-table workload the peer's replay runs:
//!   lookups, stale lookups, iteration, removal, fills and the mixed bodies (`churn`, `frame`,
//!   `article-mix`, ...); `None` where the peer's replay is unsupported (`slab` on stale
//!   lookups). [`ReferenceLoop::mirrors`] names the peer, so the results' `overhead` (replay ÷
//!   this loop) is what the replay driver and the adapter add to the crate. Verified: the
//!   whole body digest must equal the model's. In [`super::direct_peer`], with its loops per
//!   body shape and the states they run on.

use std::time::Duration;

use impls::id_table::registry::ctors;
use impls::id_table::{Design, IdTable};
use workloads::{IdTableOp, Object, Payload, Payload8, Payload128, Trace};

use super::{IdTableDigest, IdTableFamily, IdTableReplay, lookup_all};
use crate::host::Stopwatch;
use crate::replay::contract::{ReferenceLoop, Replayer};
use crate::replay::shared::{CellStates, SharedState};

/// The live objects of a trace in a plain `Vec`, of the trace's object size.
enum Objects {
    B8(Vec<Payload8>),
    B32(Vec<Payload>),
    B128(Vec<Payload128>),
}

/// Sums `value` over a plain `Vec` holding the trace's live objects, once per `Iterate`.
pub struct VecIterate {
    objects: Objects,
    passes: usize,
    expected_sum: u64,
}

impl ReferenceLoop for VecIterate {
    type Family = IdTableFamily;

    fn name() -> String {
        "ref-vec".to_string()
    }

    /// For a trace whose body is only `Iterate` ops; `None` otherwise.
    fn for_trace(trace: &Trace<IdTableOp>, expected: &IdTableDigest) -> Option<Self> {
        if trace.body.is_empty() || trace.body.iter().any(|op| *op != IdTableOp::Iterate) {
            return None;
        }
        let model = IdTableReplay::<ctors::Model>::after_setup(trace)
            .expect("the model never refuses an insert");
        let objects = match model {
            IdTableReplay::B8(m) => Objects::B8(m.table.iter().copied().collect()),
            IdTableReplay::B32(m) => Objects::B32(m.table.iter().copied().collect()),
            IdTableReplay::B128(m) => Objects::B128(m.table.iter().copied().collect()),
        };
        Some(Self {
            objects,
            passes: trace.body.len(),
            expected_sum: expected.iterate_sum,
        })
    }

    /// Times `iters` runs of all passes.
    ///
    /// # Errors
    /// The sum differs from the model's.
    fn run(&self, iters: u64) -> Result<Duration, String> {
        match &self.objects {
            Objects::B8(v) => self.time(v, iters),
            Objects::B32(v) => self.time(v, iters),
            Objects::B128(v) => self.time(v, iters),
        }
    }
}

impl VecIterate {
    /// [`ReferenceLoop::run`] over objects of one size.
    fn time<P: Object>(&self, objects: &[P], iters: u64) -> Result<Duration, String> {
        let mut total = Duration::ZERO;
        for _ in 0..iters {
            let start = Stopwatch::start();
            let mut sum = 0u64;
            for _ in 0..self.passes {
                let objects = std::hint::black_box(objects);
                sum = sum.wrapping_add(objects.iter().fold(0u64, |s, p| s.wrapping_add(p.value())));
            }
            total += start.elapsed();
            if std::hint::black_box(sum) != self.expected_sum {
                return Err(format!(
                    "vec sum {sum} differs from the model's {}",
                    self.expected_sum
                ));
            }
        }
        Ok(total)
    }
}

/// Calls `IdTable::get` in a hand-written loop over a plain `Vec` of the table's own IDs (the
/// body's handles resolved before timing, read sequentially): what an application that keeps
/// its IDs in a list does, and the floor a replay of design `C` is read against
/// ([`ReferenceLoop::mirrors`]).
pub struct DirectLookup<C: Design> {
    /// The design after the setup and the dry run, with the body's IDs: the timed replays'
    /// own when the design is in the cell ([`ReferenceLoop::in_cell`]).
    shared: SharedState<IdTableReplay<C>>,
    expected: IdTableDigest,
}

impl<C: Design> ReferenceLoop for DirectLookup<C> {
    type Family = IdTableFamily;
    const MIRRORS: Option<&'static str> =
        Some(<C::Table<Payload> as IdTable<Payload>>::INFO.meta.name);

    /// For a trace whose body is only `Get` ops; `None` otherwise or if the setup fails. On
    /// the state the design's timed replays reuse, if the cell holds it.
    fn in_cell(
        trace: &Trace<IdTableOp>,
        expected: &IdTableDigest,
        designs: &CellStates,
    ) -> Option<Self> {
        Some(Self {
            shared: lookup_state::<C>(trace, designs)?,
            expected: *expected,
        })
    }

    /// Times `iters` runs of the lookup loop.
    ///
    /// # Errors
    /// Hits or the lookup sum differ from the model's.
    fn run(&self, iters: u64) -> Result<Duration, String> {
        self.shared.with(|state, body| {
            let ids = body.ids();
            match state {
                IdTableReplay::B8(s) => self.time(&s.table, ids, iters),
                IdTableReplay::B32(s) => self.time(&s.table, ids, iters),
                IdTableReplay::B128(s) => self.time(&s.table, ids, iters),
            }
        })
    }
}

/// Design `C`'s state for a `Get` body: [`shared_state`]; `None` for any other body, or if the
/// setup fails.
fn lookup_state<C: Design>(
    trace: &Trace<IdTableOp>,
    designs: &CellStates,
) -> Option<SharedState<IdTableReplay<C>>> {
    if trace.body.is_empty() || !trace.body.iter().all(|op| matches!(op, IdTableOp::Get(_))) {
        return None;
    }
    let shared = shared_state::<C>(trace, designs)?;
    // One ID per `Get`, in op order: the body the loop runs.
    (shared.resolved_ids() == trace.body.len()).then_some(shared)
}

/// Design `C`'s state for a body that only reads: the one its timed replays reuse when
/// `designs` holds it, else one of the loop's own (the setup and the dry run); `None` if the
/// setup or the dry run fails.
pub(super) fn shared_state<C: Design>(
    trace: &Trace<IdTableOp>,
    designs: &CellStates,
) -> Option<SharedState<IdTableReplay<C>>> {
    designs
        .get::<IdTableReplay<C>>()
        .or_else(|| SharedState::resolve(trace).ok())
}

impl<C: Design> DirectLookup<C> {
    /// [`ReferenceLoop::run`] on the table of one object size.
    fn time<P: Object, D: IdTable<P, Id = C::Id>>(
        &self,
        table: &D,
        ids: &[C::Id],
        iters: u64,
    ) -> Result<Duration, String> {
        let mut total = Duration::ZERO;
        for _ in 0..iters {
            let start = Stopwatch::start();
            let (hits, sum) = lookup_all(table, std::hint::black_box(ids));
            total += start.elapsed();
            if std::hint::black_box((hits, sum)) != (self.expected.hits, self.expected.lookup_sum) {
                return Err(format!(
                    "direct lookup loop over {} disagrees with the model",
                    IdTableReplay::<C>::design_name()
                ));
            }
        }
        Ok(total)
    }
}

#[cfg(test)]
mod tests {
    use super::super::direct_peer::DirectPeer;
    use super::*;
    use crate::replay::IdTableFamily;
    use crate::replay::testing::trace;
    use crate::verify::Expected;

    /// Our designs' `ref-direct-<design>` loops ([`DirectLookup`]) find what the model finds
    /// on every `Get` body at every object size, fail on a corrupted expectation and have no
    /// loop for other bodies (the peers' loops, which run every body, are tested in
    /// [`super::super::direct_peer`]).
    #[test]
    fn our_direct_lookup_loops_find_what_the_model_finds() {
        fn check<C: Design>(lookups: &Trace<IdTableOp>, other: &Trace<IdTableOp>) {
            let expected = Expected::<IdTableFamily>::of(lookups).unwrap();
            let looped = DirectLookup::<C>::for_trace(lookups, &expected.body).expect("a Get body");
            looped.run(2).unwrap();
            let mut wrong = DirectLookup::<C>::for_trace(lookups, &expected.body).unwrap();
            wrong.expected.lookup_sum ^= 1;
            assert!(wrong.run(1).is_err());
            assert!(DirectLookup::<C>::for_trace(other, &expected.body).is_none());
        }
        let other = trace("churn");
        for workload in [
            "lookup-uniform",
            "lookup-uniform-p8",
            "lookup-uniform-p128",
            "lookup-zipf",
            "lookup-key-order",
            "lookup-key-order-sorted",
        ] {
            let lookups = trace(workload);
            check::<ctors::Holey>(&lookups, &other);
            check::<ctors::Packed>(&lookups, &other);
        }
    }

    /// One `ref-direct-<design>` per mirrored design, each named after the design it mirrors:
    /// [`DirectLookup`] for our two arrays, [`super::super::direct_peer::DirectPeer`] for every
    /// peer.
    #[test]
    fn every_peer_has_one_direct_loop_and_ours_keep_theirs() {
        let names = crate::replay::reference_loop_names::<IdTableFamily>();
        for design in [
            "holey",
            "packed",
            "slotmap",
            "slotmap-dense",
            "slotmap-hop",
            "thunderdome",
            "generational-arena",
            "slab",
        ] {
            let name = format!("ref-direct-{design}");
            assert_eq!(
                names.iter().filter(|n| **n == name).count(),
                1,
                "{name} in {names:?}"
            );
        }
    }

    /// In a cell whose design shared its timed replays' state, the design's `ref-direct-` loop
    /// reads that very table and those very IDs (one copy in memory, so their ratio is the
    /// driver's cost), and still finds what the model finds; without it, a state of its own.
    #[test]
    fn a_direct_loop_reads_the_state_its_design_shares() {
        fn check<L: ReferenceLoop<Family = IdTableFamily>, C: Design>(
            shared_of: impl Fn(&L) -> &SharedState<IdTableReplay<C>>,
        ) {
            let lookups = trace("lookup-uniform");
            let expected = Expected::<IdTableFamily>::of(&lookups).unwrap();
            let mut timed = crate::timing::TimedReplay::of::<IdTableReplay<C>>(&lookups, &expected);
            let shared = timed.shared().unwrap().expect("a read-only body shares");
            let mut designs = CellStates::default();
            designs.insert(IdTableReplay::<C>::design_name(), shared.clone());
            let looped = L::in_cell(&lookups, &expected.body, &designs).unwrap();
            assert!(std::rc::Rc::ptr_eq(
                &shared_of(&looped).shared().state,
                &shared.state
            ));
            assert!(shared_of(&looped).shared().body.same_as(&shared.body));
            looped.run(2).unwrap();
            timed.run(2).unwrap();
            looped.run(1).unwrap();
            let own = L::in_cell(&lookups, &expected.body, &CellStates::default()).unwrap();
            assert!(!std::rc::Rc::ptr_eq(
                &shared_of(&own).shared().state,
                &shared.state
            ));
            own.run(1).unwrap();
            // A body that changes the table shares nothing.
            let churn = trace("churn");
            let churn_expected = Expected::<IdTableFamily>::of(&churn).unwrap();
            let mut mutating =
                crate::timing::TimedReplay::of::<IdTableReplay<C>>(&churn, &churn_expected);
            assert!(mutating.shared().unwrap().is_none());
        }
        check::<DirectLookup<ctors::Holey>, ctors::Holey>(|l| &l.shared);
        check::<DirectPeer<ctors::SlotMap>, ctors::SlotMap>(|l| {
            l.shared().expect("a body that only reads")
        });
    }

    #[test]
    fn the_plain_vec_sums_like_the_model() {
        let trace = trace("iterate-full");
        let expected = Expected::<IdTableFamily>::of(&trace).unwrap();
        let looped = VecIterate::for_trace(&trace, &expected.body).expect("an Iterate body");
        looped.run(2).unwrap();
        let mut wrong = VecIterate::for_trace(&trace, &expected.body).unwrap();
        wrong.expected_sum ^= 1;
        assert!(wrong.run(1).is_err());
        assert!(VecIterate::for_trace(&self::trace("lookup-uniform"), &expected.body).is_none());
    }
}
