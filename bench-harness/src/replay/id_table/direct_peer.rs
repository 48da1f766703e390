//! The peers' `ref-direct-<peer>` loops ([`DirectPeer`], for `slotmap`, `slotmap-dense`,
//! `slotmap-hop`, `thunderdome`, `generational-arena` and `slab`): any ID-table body written
//! against the peer's crate itself, no [`IdTable`] in between.
//!
//! Before timing, the body is decoded into steps holding the crate's own keys in op order: the
//! keys the peer's dry run recorded ([`crate::replay::resolved`]), which its timed replays read
//! too. Each step is the one crate call the peer's adapter makes for the op
//! (`forward_to_the_crate!` in `impls/src/id_table/peers/mod.rs`):
//!
//! * `Add`: the crate's `insert` of [`Object::for_handle`] of the op's handle. A key other than
//!   the one the dry run recorded fails the run, as it fails the timed replay: the later steps'
//!   keys would name other objects.
//! * `Get` and `GetStale`: the crate's `get`; `Mutate`: its `get_mut`, then
//!   [`Object::mutate`]; `Remove`: its `remove` (`try_remove` for `slab`, whose `remove` panics
//!   on a vacant key).
//! * `Iterate` and `IterateMut`: the crate's `values()` / `values_mut()` (the three `slotmap`
//!   maps) or `iter()` / `iter_mut()` with the key dropped (`thunderdome`,
//!   `generational-arena`, `slab`).
//! * `Sort`: nothing, as in the peers' replays: no peer can reorder its objects.
//!
//! A body of one op kind is a tight loop over its keys, as the replay runs a uniform run: a
//! body of `Get`s is [`CrateLoops::lookup_all`] over the resolved body's own keys, a body of
//! `GetStale`s, `Remove`s or `Mutate`s a loop of that one call. Any other body is one loop over
//! its steps ([`CrateLoops::read_steps`] for a body that only reads, else
//! [`CrateLoops::apply_steps`]) that keeps its few accumulators in locals. Every loop is out of
//! line, one per peer, written once by a macro with the crate's call names
//! ([`super::crate_loops`]).
//!
//! A body that only reads (`Get`, `GetStale`, `Iterate`: every `lookup-*` and `iterate-*`
//! workload) runs on the peer's table after the setup and the dry run: the very table and
//! keys the peer's timed replays reuse when the cell holds them ([`ReferenceLoop::in_cell`]).
//! A body that writes runs each timed pass on the peer's table after the setup, built by the
//! peer's replay outside the timed region, as the replay's timing rebuilds its state: the first
//! with the loop, each later one before its pass, and a pass's spent table is dropped before
//! the next is built.
//!
//! Every body of every ID-table workload has the loop wherever the peer's own replay runs the
//! trace: it is `None` where that replay is `unsupported` (`slab`, whose keys carry no
//! generation, on a trace with stale lookups) or refuses the setup or the dry run.
//! [`ReferenceLoop::mirrors`] names the peer, so the results' `overhead` (replay ÷ this loop)
//! is what the replay driver and the adapter add to the crate. Verified outside the timed
//! region: the whole body digest ([`IdTableDigest`]: hits, stale hits, the sums by
//! [`super::mix_object`], objects iterated, ops and the first stale hit) must equal the model's.

use std::time::Duration;

use impls::id_table::IdTable;
use workloads::{IdTableOp, Object, Payload, Payload8, Payload128, Trace};

use super::crate_loops::{CrateLoops, ReadStep, Step};
use super::reference::shared_state;
use super::{IdTableDigest, IdTableFamily, IdTableReplay};
use crate::host::Stopwatch;
use crate::replay::contract::{ReferenceLoop, Replayer, describe_mismatch};
use crate::replay::pass_states::PassStates;
use crate::replay::shared::{CellStates, SharedState};

/// A body that only reads, decoded.
enum Reads<K> {
    /// Only `Get`s: the keys are the resolved body's own.
    Gets,
    /// Only `GetStale`s: the keys are the resolved body's own.
    StaleGets,
    /// Any other body that only reads (the `iterate-*` workloads: only `Iterate`s).
    Steps(Vec<ReadStep<K>>),
}

/// A body that writes, decoded.
enum Writes<K> {
    /// Only `Remove`s: their keys.
    Removes(Vec<K>),
    /// Only `Mutate`s: their keys.
    Mutates(Vec<K>),
    /// Any other body that writes.
    Steps(Vec<Step<K>>),
}

/// A body a `ref-direct-<peer>` loop runs, with the state it runs on.
enum Body<C: CrateLoops> {
    /// A body that only reads, on one state.
    Reads {
        /// The peer after the setup and the dry run, and the body's keys (the crate's own, in
        /// op order): the timed replays' own when the peer is in the cell
        /// ([`ReferenceLoop::in_cell`]). Only its crate map is read.
        shared: SharedState<IdTableReplay<C>>,
        /// The body.
        reads: Reads<C::Id>,
    },
    /// A body that writes, on a state after the setup per pass.
    Writes {
        /// The trace (its setup rebuilds each pass's state).
        trace: Trace<IdTableOp>,
        /// The states of the passes (the first built by [`ReferenceLoop::for_trace`], so a
        /// single pass runs no setup).
        passes: Box<PassStates<IdTableReplay<C>>>,
        /// The body.
        writes: Writes<C::Id>,
    },
}

/// Any ID-table body run by the crate of peer design `C` directly (`ref-direct-<peer>`, see
/// the [module docs](self)).
pub struct DirectPeer<C: CrateLoops> {
    /// The body and its state.
    body: Body<C>,
    /// Ops in the body.
    ops: u64,
    /// The model's body digest.
    expected: IdTableDigest,
}

/// The body of `trace` as steps holding `keys`, the keys the peer's dry run recorded in op
/// order (one per op that names or creates an object); `None` if they do not fit the body.
fn decode<K: Copy>(trace: &Trace<IdTableOp>, keys: &[K]) -> Option<Vec<Step<K>>> {
    let mut keys = keys.iter().copied();
    // Handle `k` is the trace's `k`-th `Add`: the body's first follows the setup's.
    let setup_adds = trace.setup.iter().filter(|op| **op == IdTableOp::Add);
    let mut next_handle = u32::try_from(setup_adds.count()).ok()?;
    let steps = trace
        .body
        .iter()
        .map(|op| {
            Some(match *op {
                IdTableOp::Add => {
                    let handle = next_handle;
                    next_handle = next_handle.checked_add(1)?;
                    Step::Add {
                        handle,
                        recorded: keys.next()?,
                    }
                }
                IdTableOp::Get(_) => Step::Get(keys.next()?),
                IdTableOp::GetStale(_) => Step::GetStale(keys.next()?),
                IdTableOp::Mutate(_) => Step::Mutate(keys.next()?),
                IdTableOp::Remove(_) => Step::Remove(keys.next()?),
                IdTableOp::Iterate => Step::Iterate,
                IdTableOp::IterateMut => Step::IterateMut,
                IdTableOp::Sort => Step::Sort,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    keys.next().is_none().then_some(steps)
}

/// Whether every op of `body` is one `is` accepts, and it has one key per op in `keys`.
fn uniform<K>(body: &[IdTableOp], keys: &[K], is: impl Fn(&IdTableOp) -> bool) -> bool {
    body.iter().all(is) && keys.len() == body.len()
}

/// `f`'s answer and the time it took.
#[inline(always)]
fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let start = Stopwatch::start();
    let answer = f();
    (answer, start.elapsed())
}

/// The digest of a body of `ops` ops of one kind that finds objects (`Get`, `Remove`,
/// `Mutate`): `found` is how many it found and the wrapping sum of their mixes.
fn found_digest(ops: u64, (hits, lookup_sum): (u64, u64)) -> IdTableDigest {
    IdTableDigest {
        hits,
        lookup_sum,
        ops,
        ..IdTableDigest::default()
    }
}

impl<C: CrateLoops> DirectPeer<C> {
    /// A body that only reads, on the peer's shared state; `None` if the setup or the dry run
    /// fails.
    fn reads(trace: &Trace<IdTableOp>, designs: &CellStates) -> Option<Body<C>> {
        let shared = shared_state::<C>(trace, designs)?;
        let reads = shared.with(|_, resolved| {
            let (body, keys) = (&trace.body, resolved.ids());
            if uniform(body, keys, |op| matches!(op, IdTableOp::Get(_))) {
                return Some(Reads::Gets);
            }
            if uniform(body, keys, |op| matches!(op, IdTableOp::GetStale(_))) {
                return Some(Reads::StaleGets);
            }
            decode(trace, keys)?
                .into_iter()
                .map(ReadStep::of)
                .collect::<Option<_>>()
                .map(Reads::Steps)
        })?;
        Some(Body::Reads { shared, reads })
    }

    /// A body that writes: its keys from the dry run of the peer's timed replay when the cell
    /// holds it, else from a dry run of its own ([`CellStates::body_ids`]), and the first
    /// pass's state; `None` if the setup or the dry run fails.
    fn writes(trace: &Trace<IdTableOp>, designs: &CellStates) -> Option<Body<C>> {
        let keys = designs.body_ids::<IdTableReplay<C>>(trace)?;
        let (body, keys) = (&trace.body, keys.as_slice());
        let writes = if uniform(body, keys, |op| matches!(op, IdTableOp::Remove(_))) {
            Writes::Removes(keys.to_vec())
        } else if uniform(body, keys, |op| matches!(op, IdTableOp::Mutate(_))) {
            Writes::Mutates(keys.to_vec())
        } else {
            Writes::Steps(decode(trace, keys)?)
        };
        let first = IdTableReplay::<C>::after_setup(trace).ok()?;
        Some(Body::Writes {
            trace: trace.clone(),
            passes: Box::new(PassStates::starting_with(first)),
            writes,
        })
    }

    /// The timed part of one pass over a body that only reads, on the table of one object
    /// size: its digest and the time of the loop alone.
    fn read_pass<P: Object>(
        &self,
        table: &C::Table<P>,
        reads: &Reads<C::Id>,
        keys: &[C::Id],
    ) -> (IdTableDigest, Duration) {
        let table = std::hint::black_box(table);
        let ops = self.ops;
        match reads {
            Reads::Gets => {
                let (found, elapsed) = timed(|| C::lookup_all(table, std::hint::black_box(keys)));
                (found_digest(ops, found), elapsed)
            }
            Reads::StaleGets => {
                let ((stale_hits, first_stale_hit), elapsed) =
                    timed(|| C::stale_lookups(table, std::hint::black_box(keys)));
                let digest = IdTableDigest {
                    stale_hits,
                    first_stale_hit,
                    ops,
                    ..IdTableDigest::default()
                };
                (digest, elapsed)
            }
            Reads::Steps(steps) => timed(|| C::read_steps(table, std::hint::black_box(steps))),
        }
    }

    /// One pass over a body that writes, on the peer after the setup (built before the pass
    /// unless ready, untimed): its digest (or the step of a key the dry run did not get) and
    /// the time of the loop alone.
    fn write_pass(
        &self,
        trace: &Trace<IdTableOp>,
        passes: &PassStates<IdTableReplay<C>>,
        writes: &Writes<C::Id>,
    ) -> Result<(Result<IdTableDigest, usize>, Duration), String> {
        let mut state = passes
            .next(|| IdTableReplay::<C>::after_setup(trace).map_err(|e| format!("setup {e}")))?;
        let outcome = match &mut state {
            IdTableReplay::B8(s) => self.apply::<Payload8>(&mut s.table, writes),
            IdTableReplay::B32(s) => self.apply::<Payload>(&mut s.table, writes),
            IdTableReplay::B128(s) => self.apply::<Payload128>(&mut s.table, writes),
        };
        passes.spend(state);
        Ok(outcome)
    }

    /// The timed part of [`DirectPeer::write_pass`] on the table of one object size.
    fn apply<P: Object>(
        &self,
        table: &mut C::Table<P>,
        writes: &Writes<C::Id>,
    ) -> (Result<IdTableDigest, usize>, Duration) {
        let table = std::hint::black_box(table);
        let ops = self.ops;
        crate::host::fresh_time_slice();
        match writes {
            Writes::Removes(keys) => {
                let (found, elapsed) = timed(|| C::remove_all(table, std::hint::black_box(keys)));
                (Ok(found_digest(ops, found)), elapsed)
            }
            Writes::Mutates(keys) => {
                let (found, elapsed) = timed(|| C::mutate_all(table, std::hint::black_box(keys)));
                (Ok(found_digest(ops, found)), elapsed)
            }
            Writes::Steps(steps) => timed(|| C::apply_steps(table, std::hint::black_box(steps))),
        }
    }

    /// The state the loop reads, for a body that only reads.
    #[cfg(test)]
    pub(super) fn shared(&self) -> Option<&SharedState<IdTableReplay<C>>> {
        match &self.body {
            Body::Reads { shared, .. } => Some(shared),
            Body::Writes { .. } => None,
        }
    }
}

impl<C: CrateLoops> ReferenceLoop for DirectPeer<C> {
    type Family = IdTableFamily;
    const MIRRORS: Option<&'static str> =
        Some(<C::Table<Payload> as IdTable<Payload>>::INFO.meta.name);

    /// For every valid trace the peer's replay supports; `None` where it is unsupported (a
    /// peer without stale detection on a trace with stale lookups) or refuses the setup or the
    /// dry run. A body that only reads on the state the peer's timed replays reuse, if the
    /// cell holds it; a body that writes on states of its own.
    fn in_cell(
        trace: &Trace<IdTableOp>,
        expected: &IdTableDigest,
        designs: &CellStates,
    ) -> Option<Self> {
        let stats = trace.validate().ok()?;
        let detects_stale = <C::Table<Payload> as IdTable<Payload>>::INFO.detects_stale();
        if IdTableReplay::<C>::unsupported_trace(trace).is_some()
            || IdTableReplay::<C>::unsupported_before(&stats).is_some()
            || (!detects_stale && stats.stale_gets > 0)
        {
            return None;
        }
        let body = if trace.body_is_read_only() {
            Self::reads(trace, designs)?
        } else {
            Self::writes(trace, designs)?
        };
        Some(Self {
            body,
            ops: trace.body.len() as u64,
            expected: *expected,
        })
    }

    /// Times `iters` passes of the body (a body that writes on a state after the setup built
    /// before each pass but a first, untimed).
    ///
    /// # Errors
    /// The body's digest differs from the model's, or an insert returned another key than the
    /// peer's dry run.
    fn run(&self, iters: u64) -> Result<Duration, String> {
        let name = IdTableReplay::<C>::design_name();
        let mut total = Duration::ZERO;
        for _ in 0..iters {
            let (outcome, elapsed) = match &self.body {
                Body::Reads { shared, reads } => shared.with(|state, resolved| {
                    let keys = resolved.ids();
                    let (digest, elapsed) = match state {
                        IdTableReplay::B8(s) => self.read_pass::<Payload8>(&s.table, reads, keys),
                        IdTableReplay::B32(s) => self.read_pass::<Payload>(&s.table, reads, keys),
                        IdTableReplay::B128(s) => {
                            self.read_pass::<Payload128>(&s.table, reads, keys)
                        }
                    };
                    (Ok(digest), elapsed)
                }),
                Body::Writes {
                    trace,
                    passes,
                    writes,
                } => self.write_pass(trace, passes, writes)?,
            };
            total += elapsed;
            let digest = std::hint::black_box(outcome).map_err(|at| {
                format!(
                    "{name} called directly: the insert of op {at} of the body returned another \
                     key than the peer's dry run of the same ops"
                )
            })?;
            if digest != self.expected {
                return Err(format!(
                    "{name} called directly: {}",
                    describe_mismatch(&self.expected, &digest)
                ));
            }
        }
        Ok(total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::testing::{check_mirroring_loop, trace};
    use crate::verify::Expected;
    use impls::id_table::registry::ctors;

    /// The loop of peer `C` on `trace`, if it has one: it answers like the model and fails on
    /// a corrupted expectation; it has none exactly where the peer's replay is unsupported.
    fn check<C: CrateLoops>(trace: &Trace<IdTableOp>) -> Option<DirectPeer<C>> {
        let (name, workload) = (IdTableReplay::<C>::design_name(), &trace.header.generator);
        let expected = Expected::<IdTableFamily>::of(trace).unwrap();
        let stats = trace.validate().unwrap();
        let info = <C::Table<Payload> as IdTable<Payload>>::INFO;
        let unsupported = IdTableReplay::<C>::unsupported_trace(trace).is_some()
            || IdTableReplay::<C>::unsupported_before(&stats).is_some()
            || IdTableReplay::<C>::unsupported_after(&stats, &expected.body).is_some()
            || (!info.detects_stale() && stats.stale_gets > 0);
        let looped = DirectPeer::<C>::for_trace(trace, &expected.body);
        assert_eq!(looped.is_none(), unsupported, "{name} on {workload}");
        looped?;
        Some(check_mirroring_loop::<DirectPeer<C>>(
            trace,
            &[|d| {
                d.lookup_sum ^= 1;
                d.iterate_sum ^= 1;
            }],
            "sum",
        ))
    }

    /// Every body of every ID-table workload has a loop per peer, which answers like the
    /// model, except where the peer's replay cannot run the trace: `slab` (no stale detection)
    /// on the workloads of stale lookups.
    #[test]
    fn every_peer_runs_every_body_its_replay_supports() {
        let mut without = Vec::new();
        for workload in workloads::registry::workloads_of("id_table") {
            let trace = trace(workload.name);
            let mut has = |peer: &'static str, looped: bool| {
                if !looped {
                    without.push((workload.name, peer));
                }
            };
            has("slotmap", check::<ctors::SlotMap>(&trace).is_some());
            has(
                "slotmap-dense",
                check::<ctors::DenseSlotMap>(&trace).is_some(),
            );
            has("slotmap-hop", check::<ctors::HopSlotMap>(&trace).is_some());
            has("thunderdome", check::<ctors::Thunderdome>(&trace).is_some());
            has(
                "generational-arena",
                check::<ctors::GenerationalArena>(&trace).is_some(),
            );
            has("slab", check::<ctors::Slab>(&trace).is_some());
        }
        let stale: Vec<_> = workloads::registry::workloads_of("id_table")
            .into_iter()
            .filter(|w| w.needs_stale_detection)
            .map(|w| (w.name, "slab"))
            .collect();
        assert!(!stale.is_empty());
        assert_eq!(without, stale);
    }

    /// Each body takes the loop its shape has: a tight loop for one op kind, the steps
    /// otherwise, on the shared state for a body that only reads.
    #[test]
    fn each_body_runs_the_loop_of_its_shape() {
        fn shape(workload: &str) -> &'static str {
            let looped = check::<ctors::SlotMap>(&trace(workload)).unwrap();
            match looped.body {
                Body::Reads { reads, .. } => match reads {
                    Reads::Gets => "gets",
                    Reads::StaleGets => "stale gets",
                    Reads::Steps(_) => "read steps",
                },
                Body::Writes { writes, .. } => match writes {
                    Writes::Removes(_) => "removes",
                    Writes::Mutates(_) => "mutates",
                    Writes::Steps(_) => "steps",
                },
            }
        }
        assert_eq!(shape("lookup-zipf"), "gets");
        assert_eq!(shape("lookup-key-order-sorted"), "gets");
        assert_eq!(shape("lookup-stale-pass"), "stale gets");
        assert_eq!(shape("iterate-holes"), "read steps");
        assert_eq!(shape("remove-random"), "removes");
        assert_eq!(shape("churn"), "steps");
        assert_eq!(shape("frame"), "steps");
    }

    /// A body that writes: the first pass runs on the state built with the loop (a single
    /// pass runs no setup), each later one on a state built before it, the spent one dropped
    /// first; three passes still give the model's digest.
    #[test]
    fn each_pass_of_a_body_that_writes_runs_on_a_fresh_state() {
        fn check_passes<C: CrateLoops>(trace: &Trace<IdTableOp>) {
            let name = IdTableReplay::<C>::design_name();
            let expected = Expected::<IdTableFamily>::of(trace).unwrap();
            let looped = DirectPeer::<C>::for_trace(trace, &expected.body).unwrap();
            let Body::Writes { passes, .. } = &looped.body else {
                panic!("{name}: a body that writes");
            };
            assert_eq!(passes.held(), (true, false), "{name}");
            looped.run(1).unwrap();
            assert_eq!(passes.held(), (false, true), "{name}");
            looped.run(3).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(passes.held(), (false, true), "{name}");
        }
        for workload in ["churn", "article-mix", "frame"] {
            let trace = trace(workload);
            check_passes::<ctors::SlotMap>(&trace);
            check_passes::<ctors::DenseSlotMap>(&trace);
            check_passes::<ctors::HopSlotMap>(&trace);
            check_passes::<ctors::Thunderdome>(&trace);
            check_passes::<ctors::GenerationalArena>(&trace);
            check_passes::<ctors::Slab>(&trace);
        }
    }

    /// An insert that returns another key than the dry run recorded fails the run, naming the
    /// op.
    #[test]
    fn an_insert_with_another_key_than_the_dry_runs_fails() {
        let trace = trace("fill");
        let mut looped = check::<ctors::Slab>(&trace).unwrap();
        let Body::Writes {
            writes: Writes::Steps(steps),
            ..
        } = &mut looped.body
        else {
            panic!("a body of adds");
        };
        let Step::Add { recorded, .. } = &mut steps[3] else {
            panic!("an add");
        };
        *recorded += 1;
        let error = looped.run(1).unwrap_err();
        assert!(error.contains("op 3 of the body"), "{error}");
    }

    /// In a cell whose peer's timed replay resolved a body that writes, the loop decodes its
    /// steps from those very IDs (no dry run of its own) and answers like the model.
    #[test]
    fn a_body_that_writes_takes_its_keys_from_the_peers_dry_run() {
        let trace = trace("churn");
        let expected = Expected::<IdTableFamily>::of(&trace).unwrap();
        let mut timed =
            crate::timing::TimedReplay::of::<IdTableReplay<ctors::SlotMap>>(&trace, &expected);
        assert!(timed.shared().unwrap().is_none(), "a body that writes");
        let mut designs = CellStates::default();
        designs.insert_resolved(
            IdTableReplay::<ctors::SlotMap>::design_name(),
            timed.resolved().unwrap().clone(),
        );
        let taken = designs
            .with_resolved::<IdTableReplay<ctors::SlotMap>, _>(|body| body.ids().len())
            .unwrap();
        assert!(taken > 0);
        let looped = DirectPeer::<ctors::SlotMap>::in_cell(&trace, &expected.body, &designs)
            .expect("a loop for churn");
        looped.run(2).unwrap();
        // Another design's resolved body is not this peer's.
        assert!(
            designs
                .with_resolved::<IdTableReplay<ctors::Slab>, _>(|body| body.ids().len())
                .is_none()
        );
    }

    /// `lookup-stale` with a body that only reads but mixes op kinds (no registered workload
    /// has one): iterations, stale lookups and a lookup.
    fn mixed_reads() -> Trace<IdTableOp> {
        let mut trace = trace("lookup-stale");
        let live = u32::try_from(trace.handle_count() - 1).unwrap();
        let stale = trace.body[0];
        trace.body = vec![
            IdTableOp::Iterate,
            stale,
            IdTableOp::Get(live),
            IdTableOp::Iterate,
            stale,
        ];
        trace
    }

    /// A body that only reads but mixes op kinds runs its steps on the shared state.
    #[test]
    fn a_mixed_body_that_only_reads_runs_its_steps() {
        let trace = mixed_reads();
        let looped = check::<ctors::Thunderdome>(&trace).unwrap();
        assert!(matches!(
            looped.body,
            Body::Reads {
                reads: Reads::Steps(_),
                ..
            }
        ));
        check::<ctors::SlotMap>(&trace).unwrap();
        assert!(check::<ctors::Slab>(&trace).is_none());
    }

    /// Where a peer's keys resolve stale (`slab`'s carry no generation), its loops count the
    /// stale hits and place the first one as its replay does, on a body of stale lookups and
    /// on a mixed one.
    #[test]
    fn stale_hits_are_counted_and_placed_as_the_replay_does() {
        for trace in [trace("lookup-stale"), mixed_reads()] {
            let mut state = IdTableReplay::<ctors::Slab>::after_setup(&trace).unwrap();
            let (resolved, replayed) = Replayer::resolve(&mut state, &trace.body).unwrap();
            assert!(replayed.stale_hits > 0, "{replayed:?}");
            let IdTableReplay::B32(s) = &state else {
                panic!("32-byte objects");
            };
            let steps: Vec<_> = decode(&trace, resolved.ids())
                .unwrap()
                .into_iter()
                .map(|step| ReadStep::of(step).unwrap())
                .collect();
            assert_eq!(ctors::Slab::read_steps(&s.table, &steps), replayed);
            if trace
                .body
                .iter()
                .all(|op| matches!(op, IdTableOp::GetStale(_)))
            {
                let (stale_hits, first) = ctors::Slab::stale_lookups(&s.table, resolved.ids());
                assert_eq!(
                    (stale_hits, first),
                    (replayed.stale_hits, replayed.first_stale_hit)
                );
            }
        }
    }
}
