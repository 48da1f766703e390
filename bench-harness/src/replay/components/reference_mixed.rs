//! The `ref-direct-<design>` loops of a mixed body (`comp-frame`, `comp-gc` and its points
//! `-kill0`, `-kill0p1`, `-kill10`, or any body not of one op kind): the body written against
//! the ECS crate itself (or, for our `buffer_direct`, its own methods of
//! [`ComponentStore`](impls::components::ComponentStore)), no trait adapter in between, one
//! generic out-of-line loop per design ([`apply_steps`]) over the per-crate calls of
//! [`DirectMixed`](super::reference_mixed_calls::DirectMixed), in `reference_mixed_calls.rs`.
//!
//! Before timing, the body is decoded into steps ([`MixedStep`]) holding the crate's own
//! entities in op order: the entities the design's dry run recorded
//! ([`crate::replay::resolved`]), read from the cell when the design's timed replay resolved
//! the body ([`CellStates::with_resolved`]), else from a dry run of the loop's own. Each step
//! is the crate call the design's adapter makes for the op in the family's replay:
//!
//! * a `Spawn` immediately followed by the `Attach` of the entity it creates: one spawn with
//!   the point mass's four components (hecs `World::spawn`, shipyard `World::add_entity`,
//!   specs `create_entity().with(..)…build()`, bevy `World::spawn`); a `Spawn` alone: the
//!   crate's spawn of an empty entity. The entity it returns must be the one the dry run
//!   recorded, else the run fails: the later steps' entities would name other entities.
//! * `Kill`: the crate's despawn (hecs `despawn`, shipyard `delete_entity`, specs
//!   `delete_entity`, bevy `despawn`); `Attach` alone: its insert of the four components;
//!   `Detach`: its removal of the four (hecs and shipyard `remove::<(..)>`, specs `remove`
//!   from each storage, bevy `take::<(..)>`).
//! * a run of `Lookup`s, of `Write`s or of `CopyPosition`s (a run of one included): one view
//!   or storage borrowed for the run, as the adapter borrows it for the run and a system for
//!   its work ([`EcsDirectLoops::lookup_all`],
//!   [`DirectMixed::write_all`](super::reference_mixed_calls::DirectMixed::write_all),
//!   [`EcsDirectLoops::copy_all`]).
//! * `Simulate`: the crate's query over the three components the step needs, one pass of
//!   [`DirectSimulate`](super::reference_simulate::DirectSimulate)'s `simulate_passes`;
//!   `DestroyStep`: nothing for the ECS crates (their despawn destroys at once, as their
//!   adapters' `destroy_step` does nothing), the GC step (`ComponentStore::destroy_step`) for
//!   `buffer_direct`.
//!
//! The point masses and velocities are made from the ops' seeds inside the loop, as the
//! replay makes them, so the two do the same work but for the driver and the adapter.
//!
//! The body writes, so every timed pass runs on the design's world after the setup, rebuilt
//! untimed by its replay as for a body of copies ([`DirectEcs`]). Verified outside the timed
//! region: the whole body digest ([`ComponentDigest`]: lookups found and their sum, writes
//! and detaches that found a point mass, instances simulated, copies made) and the state
//! after the body must equal the model's. A design whose replay cannot run the trace has no
//! loop: one point mass per entity on a trace with `AttachAnother`, which is every design with
//! a direct loop on `comp-multi`.

use workloads::Trace;
use workloads::components::{ComponentOp, EntityHandle};

use super::reference::{Body, DirectEcs, EcsDirectLoops};
use super::{ComponentDigest, ComponentReplay, point_mass};
use crate::replay::contract::{Replayer, describe_mismatch, runs_trace};
use crate::replay::pass_states::PassStates;
use crate::replay::shared::CellStates;

/// A run of a mixed body's lookups, writes or copies: its pairs in [`MixedSteps`]'s array
/// of that kind, `start..end`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Run {
    start: u32,
    end: u32,
}

impl Run {
    /// The run's pairs in `all`.
    #[inline(always)]
    fn of<T>(self, all: &[T]) -> &[T] {
        &all[self.start as usize..self.end as usize]
    }
}

/// One step of a mixed body: one op, or a `Spawn` with the `Attach` of its entity, or a run
/// of lookups, writes or copies, holding the crate's own entities.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MixedStep<E> {
    /// `Spawn` alone: the entity the dry run's spawn returned.
    Spawn {
        /// The entity the dry run recorded.
        recorded: E,
    },
    /// `Spawn` then the `Attach` of its entity: the seed and the entity the dry run recorded.
    SpawnWith {
        /// The `Attach`'s seed ([`point_mass`] of it).
        seed: u32,
        /// The entity the dry run recorded.
        recorded: E,
    },
    /// `Kill`.
    Kill(E),
    /// `Attach` of an entity spawned earlier, with its seed.
    Attach(E, u32),
    /// `Detach`.
    Detach(E),
    /// A run of `Lookup`s: (handle, entity) pairs in [`MixedSteps::lookups`].
    Lookups(Run),
    /// A run of `Write`s: (entity, seed) pairs in [`MixedSteps::writes`].
    Writes(Run),
    /// A run of `CopyPosition`s: (source, target) pairs in [`MixedSteps::copies`].
    Copies(Run),
    /// `Simulate`.
    Simulate,
    /// `DestroyStep`.
    DestroyStep,
}

/// A mixed body decoded into steps over the crate's own entities, with the model's digest.
pub struct MixedSteps<E> {
    /// The steps, in body order.
    steps: Vec<MixedStep<E>>,
    /// The body index of each step's first op (read only to name a failed step).
    first_op: Vec<usize>,
    /// The (handle, entity) pairs of the runs of lookups.
    lookups: Vec<(EntityHandle, E)>,
    /// The (entity, seed) pairs of the runs of writes.
    writes: Vec<(E, u32)>,
    /// The (source, target) pairs of the runs of copies.
    copies: Vec<(E, E)>,
    /// The model's body digest.
    pub(super) expected: ComponentDigest,
}

/// Appends `pair` to `pairs`, extending the run of `steps`' last step if `kind` says it is
/// one of that kind, else starting one; whether it started one.
fn push_to_run<E, T>(
    steps: &mut [MixedStep<E>],
    pairs: &mut Vec<T>,
    pair: T,
    kind: fn(&mut MixedStep<E>) -> Option<&mut Run>,
) -> Option<Run> {
    pairs.push(pair);
    let end = u32::try_from(pairs.len()).ok()?;
    if let Some(run) = steps.last_mut().and_then(kind) {
        if run.end + 1 == end {
            run.end = end;
            return None;
        }
    }
    Some(Run {
        start: end - 1,
        end,
    })
}

impl<E: Copy> MixedSteps<E> {
    /// The body of `trace` as steps holding `ids`, the entities the design's dry run recorded
    /// in op order (one per op that names or creates an entity, two per copy); `None` if they
    /// do not fit the body or it has an `AttachAnother`.
    pub(super) fn decode(
        trace: &Trace<ComponentOp>,
        ids: &[E],
        expected: ComponentDigest,
    ) -> Option<Self> {
        let mut ids = ids.iter().copied();
        let mut next = move || ids.next();
        // Handle `k` is the trace's `k`-th `Spawn`: the body's first follows the setup's.
        let setup_spawns = trace.setup.iter().filter(|op| **op == ComponentOp::Spawn);
        let mut next_handle = EntityHandle::try_from(setup_spawns.count()).ok()?;
        let mut decoded = Self {
            steps: Vec::new(),
            first_op: Vec::new(),
            lookups: Vec::new(),
            writes: Vec::new(),
            copies: Vec::new(),
            expected,
        };
        let body = &trace.body;
        let mut index = 0;
        while let Some(&op) = body.get(index) {
            let first = index;
            index += 1;
            let step = match op {
                ComponentOp::Spawn => {
                    let handle = next_handle;
                    next_handle = next_handle.checked_add(1)?;
                    let recorded = next()?;
                    match body.get(index) {
                        Some(&ComponentOp::Attach(h, seed)) if h == handle => {
                            // The `Attach`'s entity is the one just created.
                            next()?;
                            index += 1;
                            MixedStep::SpawnWith { seed, recorded }
                        }
                        _ => MixedStep::Spawn { recorded },
                    }
                }
                ComponentOp::Kill(_) => MixedStep::Kill(next()?),
                ComponentOp::Attach(_, seed) => MixedStep::Attach(next()?, seed),
                ComponentOp::Detach(_) => MixedStep::Detach(next()?),
                ComponentOp::Lookup(h) => {
                    let pair = (h, next()?);
                    let started = push_to_run(
                        &mut decoded.steps,
                        &mut decoded.lookups,
                        pair,
                        |s| match s {
                            MixedStep::Lookups(run) => Some(run),
                            _ => None,
                        },
                    );
                    let Some(run) = started else { continue };
                    MixedStep::Lookups(run)
                }
                ComponentOp::Write(_, seed) => {
                    let pair = (next()?, seed);
                    let started =
                        push_to_run(&mut decoded.steps, &mut decoded.writes, pair, |s| match s {
                            MixedStep::Writes(run) => Some(run),
                            _ => None,
                        });
                    let Some(run) = started else { continue };
                    MixedStep::Writes(run)
                }
                ComponentOp::CopyPosition(..) => {
                    let pair = (next()?, next()?);
                    let started =
                        push_to_run(&mut decoded.steps, &mut decoded.copies, pair, |s| match s {
                            MixedStep::Copies(run) => Some(run),
                            _ => None,
                        });
                    let Some(run) = started else { continue };
                    MixedStep::Copies(run)
                }
                ComponentOp::Simulate => MixedStep::Simulate,
                ComponentOp::DestroyStep => MixedStep::DestroyStep,
                ComponentOp::AttachAnother(..) => return None,
            };
            decoded.steps.push(step);
            decoded.first_op.push(first);
        }
        next().is_none().then_some(decoded)
    }

    /// Checks a pass's `outcome` ([`apply_steps`]'s) against the model's digest; `name` is
    /// the design's.
    ///
    /// # Errors
    /// A step failed, or the digest differs from the model's.
    pub(super) fn check(
        &self,
        name: &str,
        body: &[ComponentOp],
        outcome: Result<ComponentDigest, usize>,
    ) -> Result<(), String> {
        let digest = outcome.map_err(|step| {
            let at = self.first_op[step];
            format!(
                "{name} called directly: op {at} of the body ({:?}) was refused, or created \
                 another entity than the design's dry run of the same ops",
                body[at]
            )
        })?;
        if digest == self.expected {
            return Ok(());
        }
        Err(format!(
            "{name} called directly: {}",
            describe_mismatch(&self.expected, &digest)
        ))
    }
}

/// Runs `body`'s steps in order on `store`, each the crate call of
/// [`DirectMixed`](super::reference_mixed_calls::DirectMixed) or
/// [`EcsDirectLoops`]: the body's digest. Out of line, one per design, so every call runs
/// the same machine code whatever the caller.
///
/// # Errors
/// The index of the first step the crate refused, or whose spawn returned another entity than
/// the dry run recorded; the steps before it were applied.
#[inline(never)]
pub(super) fn apply_steps<P: EcsDirectLoops>(
    store: &mut P,
    body: &MixedSteps<P::Entity>,
) -> Result<ComponentDigest, usize> {
    let mut d = ComponentDigest::default();
    for (index, &step) in body.steps.iter().enumerate() {
        let done = match step {
            MixedStep::Spawn { recorded } => store.direct_spawn() == Some(recorded),
            MixedStep::SpawnWith { seed, recorded } => {
                store.direct_spawn_with(point_mass(seed)) == Some(recorded)
            }
            MixedStep::Kill(e) => store.direct_kill(e),
            MixedStep::Attach(e, seed) => store.direct_attach(e, point_mass(seed)),
            MixedStep::Detach(e) => match store.direct_detach(e) {
                Some(found) => {
                    d.detaches_found += u64::from(found);
                    true
                }
                None => false,
            },
            MixedStep::Lookups(run) => {
                let (found, sum) = store.lookup_all(run.of(&body.lookups));
                d.lookups_found += found;
                d.lookup_sum = d.lookup_sum.wrapping_add(sum);
                true
            }
            MixedStep::Writes(run) => {
                d.writes_found += store.write_all(run.of(&body.writes));
                true
            }
            MixedStep::Copies(run) => {
                d.copies_done += store.copy_all(run.of(&body.copies));
                true
            }
            MixedStep::Simulate => {
                d.simulated += store.simulate_passes(1);
                true
            }
            MixedStep::DestroyStep => {
                store.direct_destroy_step();
                true
            }
        };
        if !done {
            return Err(index);
        }
    }
    Ok(d)
}

impl<P: EcsDirectLoops> DirectEcs<P> {
    /// The loop of a mixed body: its entities from the dry run of the design's timed replay
    /// when the cell holds it ([`CellStates::with_resolved`]), else from a dry run of its own,
    /// and the first pass's state; `None` if the design's replay cannot run the trace, or
    /// refuses the setup or the dry run, or the model the trace.
    pub(super) fn mixed(
        trace: &Trace<ComponentOp>,
        expected: &ComponentDigest,
        designs: &CellStates,
    ) -> Option<Self> {
        runs_trace::<ComponentReplay<P>>(trace)?;
        let ids = match designs.with_resolved::<ComponentReplay<P>, _>(|body| body.ids().to_vec()) {
            Some(ids) => ids,
            None => {
                let mut dry_run = ComponentReplay::<P>::after_setup(trace).ok()?;
                let (resolved, _) = Replayer::resolve(&mut dry_run, &trace.body).ok()?;
                resolved.ids().to_vec()
            }
        };
        let steps = MixedSteps::decode(trace, &ids, *expected)?;
        let first = ComponentReplay::<P>::after_setup(trace).ok()?;
        Some(Self {
            body: Body::Mixed {
                trace: trace.clone(),
                passes: PassStates::starting_with(first),
                steps: Box::new(steps),
            },
            expected: (0, super::reference::model_state_after(trace, designs)?),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::ComponentFamily;
    use crate::replay::components::reference::tests::for_every_direct_loop;
    use crate::replay::contract::ReferenceLoop;
    use crate::replay::testing::trace;
    use crate::verify::Expected;
    use impls::components::peers::hecs::HecsPeer;
    use impls::components::peers::specs::SpecsDense;

    /// The mixed loop of design `P` on `trace`, with the model's answers.
    fn looped<P: EcsDirectLoops>(trace: &Trace<ComponentOp>) -> DirectEcs<P> {
        let (name, workload) = (P::INFO.meta.name, &trace.header.generator);
        let expected = Expected::<ComponentFamily>::of(trace).unwrap();
        let looped = DirectEcs::<P>::for_trace(trace, &expected.body)
            .unwrap_or_else(|| panic!("{name}: no loop for {workload}"));
        assert!(matches!(looped.body, Body::Mixed { .. }), "{name}");
        looped
    }

    /// The steps of a mixed loop.
    fn steps<P: EcsDirectLoops>(looped: &mut DirectEcs<P>) -> &mut MixedSteps<P::Entity> {
        let Body::Mixed { steps, .. } = &mut looped.body else {
            panic!("a mixed body");
        };
        steps
    }

    /// Every direct loop answers like the model on `trace` for two then three passes (each on
    /// a rebuilt state), and fails a wrong digest or a wrong state.
    fn answers_like_the_model<P: EcsDirectLoops>(trace: &Trace<ComponentOp>) {
        let (name, workload) = (P::INFO.meta.name, &trace.header.generator);
        let looped = looped::<P>(trace);
        assert_eq!(DirectEcs::<P>::MIRRORS, Some(name));
        for iters in [2, 3] {
            looped
                .run(iters)
                .unwrap_or_else(|e| panic!("{name} on {workload}: {e}"));
        }
        let mut wrong = self::looped::<P>(trace);
        steps(&mut wrong).expected.simulated += 1;
        let error = wrong.run(1).unwrap_err();
        assert!(error.contains("simulated"), "{name} on {workload}: {error}");
        let mut wrong = self::looped::<P>(trace);
        wrong.expected.1 ^= 1;
        let error = wrong.run(1).unwrap_err();
        assert!(error.contains("state"), "{name} on {workload}: {error}");
    }

    /// Bodies of several kinds written by hand: lookups, writes, copies, detaches, a spawn
    /// without its attach and a later attach, simulates and destruction steps.
    fn hand_made() -> Vec<Trace<ComponentOp>> {
        let mut simulate_and_lookup = trace("comp-simulate");
        simulate_and_lookup.body.insert(1, ComponentOp::Lookup(0));
        let mut lookups_and_simulate = trace("comp-lookup");
        lookups_and_simulate.body.push(ComponentOp::Simulate);
        let mut every_kind = trace("comp-frame");
        let setup_spawns = every_kind
            .setup
            .iter()
            .filter(|op| **op == ComponentOp::Spawn);
        let spawned = u32::try_from(setup_spawns.count()).unwrap();
        every_kind.body.splice(
            0..0,
            [
                ComponentOp::Lookup(3),
                ComponentOp::Lookup(4),
                ComponentOp::Detach(4),
                ComponentOp::Lookup(4),
                ComponentOp::Write(4, 9),
                ComponentOp::Write(5, 9),
                ComponentOp::CopyPosition(5, 6),
                ComponentOp::CopyPosition(4, 7),
                ComponentOp::Spawn,
                ComponentOp::Simulate,
                ComponentOp::Lookup(spawned),
                ComponentOp::Attach(spawned, 77),
                ComponentOp::Lookup(spawned),
                ComponentOp::Kill(spawned),
                ComponentOp::DestroyStep,
            ],
        );
        // The frame's own spawns follow the new one: their handles are one more.
        for op in &mut every_kind.body[15..] {
            *op = match *op {
                ComponentOp::Attach(h, seed) if h >= spawned => ComponentOp::Attach(h + 1, seed),
                ComponentOp::Kill(h) if h >= spawned => ComponentOp::Kill(h + 1),
                ComponentOp::Write(h, seed) if h >= spawned => ComponentOp::Write(h + 1, seed),
                other => other,
            };
        }
        vec![simulate_and_lookup, lookups_and_simulate, every_kind]
    }

    /// Every `ref-direct-<design>` loop runs every mixed workload (and the hand-made mixed
    /// bodies) like the model, and fails a wrong expectation of the digest or the state.
    #[test]
    fn mixed_loops_answer_like_the_model() {
        let mut traces: Vec<_> = [
            "comp-frame",
            "comp-gc",
            "comp-gc-kill0",
            "comp-gc-kill0p1",
            "comp-gc-kill10",
        ]
        .into_iter()
        .map(trace)
        .collect();
        traces.extend(hand_made());
        for trace in &traces {
            trace.validate().unwrap();
            for_every_direct_loop!(answers_like_the_model, trace);
        }
    }

    /// The hand-made body decodes into the steps of its ops: runs of one kind as one step
    /// each, the spawn without an attach alone.
    #[test]
    fn a_mixed_body_decodes_into_runs_and_single_steps() {
        let trace = hand_made().pop().unwrap();
        let mut looped = looped::<HecsPeer>(&trace);
        let steps = steps(&mut looped);
        let kinds: Vec<_> = steps.steps[..11]
            .iter()
            .map(|step| match step {
                MixedStep::Spawn { .. } => "spawn",
                MixedStep::SpawnWith { .. } => "spawn with",
                MixedStep::Kill(_) => "kill",
                MixedStep::Attach(..) => "attach",
                MixedStep::Detach(_) => "detach",
                MixedStep::Lookups(run) => {
                    ["lookup", "lookups"][usize::from(run.end > run.start + 1)]
                }
                MixedStep::Writes(_) => "writes",
                MixedStep::Copies(_) => "copies",
                MixedStep::Simulate => "simulate",
                MixedStep::DestroyStep => "destroy step",
            })
            .collect();
        assert_eq!(
            kinds,
            [
                "lookups", "detach", "lookup", "writes", "copies", "spawn", "simulate", "lookup",
                "attach", "lookup", "kill"
            ]
        );
        assert_eq!(steps.first_op[..3], [0, 2, 3]);
        // The frame's spawns are spawned with their point masses.
        assert!(
            steps
                .steps
                .iter()
                .any(|s| matches!(s, MixedStep::SpawnWith { .. })),
            "{:?}",
            &steps.steps[11..20]
        );
    }

    /// A spawn that returns another entity than the dry run recorded fails the run, naming
    /// the op.
    #[test]
    fn a_spawn_with_another_entity_than_the_dry_runs_fails() {
        let trace = trace("comp-gc");
        let mut looped = looped::<SpecsDense>(&trace);
        let steps = steps(&mut looped);
        let at = steps
            .steps
            .iter()
            .position(|s| matches!(s, MixedStep::SpawnWith { .. }))
            .unwrap();
        let MixedStep::SpawnWith { recorded, .. } = steps.steps[at] else {
            unreachable!()
        };
        // Another step's entity (the killed one before it).
        let MixedStep::Kill(other) = steps.steps[0] else {
            panic!("comp-gc's frame starts with a kill");
        };
        assert_ne!(other, recorded);
        steps.steps[at] = MixedStep::SpawnWith {
            seed: 1,
            recorded: other,
        };
        let op = steps.first_op[at];
        let error = looped.run(1).unwrap_err();
        assert!(error.contains(&format!("op {op} of the body")), "{error}");
    }

    /// In a cell whose design's timed replay resolved the mixed body, the loop decodes its
    /// steps from those very entities (no dry run of its own) and answers like the model.
    #[test]
    fn a_mixed_body_takes_its_entities_from_the_designs_dry_run() {
        let trace = trace("comp-frame");
        let expected = Expected::<ComponentFamily>::of(&trace).unwrap();
        let mut timed =
            crate::timing::TimedReplay::of::<ComponentReplay<HecsPeer>>(&trace, &expected);
        assert!(timed.shared().unwrap().is_none(), "a body that writes");
        let mut designs = CellStates::default();
        designs.insert_resolved(
            ComponentReplay::<HecsPeer>::design_name(),
            timed.resolved().unwrap().clone(),
        );
        let looped = DirectEcs::<HecsPeer>::in_cell(&trace, &expected.body, &designs)
            .expect("a loop for comp-frame");
        looped.run(2).unwrap();
    }

    /// A loop built in a cell reads the model's end state the cell holds instead of replaying
    /// the model: the right one passes, another fails on the state.
    #[test]
    fn a_loop_reads_the_cells_end_state() {
        for workload in ["comp-sync", "comp-frame"] {
            let trace = trace(workload);
            let expected = Expected::<ComponentFamily>::of(&trace).unwrap();
            let end = expected.state_at_end.expect("the model's state");
            let right = CellStates::ending_in(Some(end));
            DirectEcs::<HecsPeer>::in_cell(&trace, &expected.body, &right)
                .unwrap()
                .run(1)
                .unwrap();
            let wrong = CellStates::ending_in(Some(end ^ 1));
            let error = DirectEcs::<HecsPeer>::in_cell(&trace, &expected.body, &wrong)
                .unwrap()
                .run(1)
                .unwrap_err();
            assert!(error.contains("state"), "{workload}: {error}");
        }
    }
}
