//! The component-manager family's replay driver: applies [`ComponentOp`] traces to any
//! [`ComponentStore`] and digests what it observed.
//!
//! Generic and monomorphised per design; logical entity handles map to the store's entities
//! through a flat `Vec` (handle `k` is the `k`-th `Spawn`), reserved before timing. Point
//! masses are made from the ops' 32-bit seeds by [`point_mass`] and [`velocity`] (small exact
//! values, the same for every design), and `Simulate` uses the one step [`DT`].
//!
//! # What is verified
//! The timed ops observe lookups (the position read, [`ComponentDigest::lookup_sum`]) and the
//! number of live instances each `Simulate` updated. The state itself is checked outside the
//! timed region by [`Replayer::state_digest`]: collect all garbage, then a wrapping sum of a
//! hash of every instance's bit patterns ([`state_of`]), so every design and peer must agree
//! with the model bit for bit after `simulate`. The GC's sampling is seeded by a constant in
//! each design, so replays are reproducible.

mod claims;
mod digest;
mod metrics;
mod reference;
mod reference_mixed;
mod reference_mixed_calls;
mod reference_simulate;
mod runs;

use impls::components::model::ModelStore;
use impls::components::{
    ComponentDesignInfo, ComponentDesignVisitor, ComponentStore, VectorField,
    for_each_component_design,
};
use workloads::components::{ComponentOp, ComponentStats, EntityHandle};
use workloads::{Trace, TraceStats};

use super::contract::{
    Family, ReplayError, Replayer, ReplayerVisitor, RunSizes, Scale, records_of,
};
use super::glue::{family_marker, forward_design, forward_replay, hosts_design, visit_registry};
use super::metric_fields::ratio;
use super::resolved::{HandleIds, HandleMap};
pub use digest::{ComponentDigest, DT, StateHash, point_mass, state_of, velocity};
pub use metrics::ComponentMetrics;
use results::DesignRecord;
use runs::{Copies, Lookups, Writes, copy_all, lookup_all, run_refusal};

family_marker! {
    /// The component managers: [`ComponentOp`] traces replayed on [`ComponentStore`]s, checked
    /// against [`ModelStore`].
    ComponentFamily
}

impl Family for ComponentFamily {
    type Op = ComponentOp;
    type Digest = ComponentDigest;
    type Model = ComponentReplay<ModelStore>;
    type Metrics = ComponentMetrics;

    const CLAIMS: &'static [&'static [results::ClaimSpec]] = claims::CLAIMS_BY_ARTICLE;
    const UNTESTED: &'static [results::UntestedSpec] = claims::UNTESTED;
    const TITLE: &'static str = "Component managers";
    /// The article's recommended design: one buffer, hash map, GC.
    const REFERENCE_DESIGN: &'static str = "buffer_hash";
    /// The article's two access patterns: the in-order `simulate` and the lookup (the sparse
    /// simulate is left to `cargo bench`: the cache pass runs every design under valgrind).
    const MEMORY_BOUND_WORKLOADS: &'static [&'static str] = &["comp-simulate", "comp-lookup"];
    const MEMORY_WORKLOADS: &'static [&'static str] = &["comp-frame", "comp-gc"];
    const LATENCY_WORKLOADS: &'static [&'static str] = &["comp-lookup", "comp-frame", "comp-gc"];
    /// 256K entities (12 MB of instance data): beyond the last-level cache.
    const SWEEP_MAX_N: usize = 1 << 18;

    /// Quick: 1K and 16K. Default: 1K and 64K; 1M is in the full matrix (`DODBENCH_FULL=1`):
    /// at 1M a `comp-gc` replay alone takes seconds per sample for each of 17 designs, which
    /// would put the family far over its 3-minute share of the default run. The passes: quick,
    /// 1K and 4K entities (4K × 48 B of instance data is 6 times the simulated 32 KiB L1),
    /// which keeps the valgrind cache pass near a minute for 15 designs; full: up to 256K
    /// (12 MB, beyond the simulated 8 MiB last level).
    const SIZES: RunSizes = RunSizes {
        quick: &[1_000, 16_384],
        default: &[1_000, 65_536],
        full: &[1_000, 65_536, 1_048_576],
        passes_quick: &[1_000, 4_096],
        passes: &[1_000, 65_536, 262_144],
    };

    /// The kill-fraction sweep points (`comp-gc-kill*`, default and full runs) at 1,000
    /// entities in a default run, the article's size for its GC claims (G10); at 65,536 in
    /// full runs only: at 10% kills per frame the garbage grows to several times the live
    /// entities and every frame simulates it, so that one 65,536-entity cell would take most
    /// of the family's 3-minute share of the default run.
    fn workload_bench_sizes(workload: &str, scale: Scale) -> Vec<usize> {
        match scale {
            Scale::Default if workload.starts_with("comp-gc-kill") => vec![1_000],
            _ => Self::bench_sizes(scale),
        }
    }

    /// `comp-lookup` is independent lookups of random live entities, each one entity's
    /// position read.
    fn memory_bound(trace: &Trace<ComponentOp>) -> Option<results::MemoryBound> {
        (trace.header.generator == "comp-lookup").then_some(results::MemoryBound::IndependentLoads)
    }

    fn design_records() -> Vec<DesignRecord> {
        records_of(impls::components::component_designs(), design_record)
    }

    fn for_each_replayer<V: ReplayerVisitor<Self>>(visitor: &mut V) {
        visit_registry!(
            visitor, ComponentFamily, for_each_component_design, ComponentDesignVisitor,
            [S: ComponentStore + 'static] => ComponentReplay<S>
        );
        visitor.visit_loop::<reference::VecSimulate>();
        visitor.visit_loop::<reference::DirectBufferDirect>();
        visitor.visit_loop::<reference::DirectHecs>();
        visitor.visit_loop::<reference::DirectShipyard>();
        visitor.visit_loop::<reference::DirectSpecsVec>();
        visitor.visit_loop::<reference::DirectSpecsDense>();
        visitor.visit_loop::<reference::DirectSpecsHash>();
        #[cfg(feature = "bevy")]
        {
            visitor.visit_loop::<reference::DirectBevyTable>();
            visitor.visit_loop::<reference::DirectBevySparse>();
        }
    }
}

hosts_design!(
    /// A user's design from another crate runs as [`ComponentReplay`] of it.
    ComponentFamily,
    [D: ComponentStore] => ComponentReplay<D>,
    design_record(&D::INFO)
);

/// The results record of a component design. Its "ID" is the design's entity handle.
pub fn design_record(info: &ComponentDesignInfo) -> DesignRecord {
    DesignRecord {
        id_bytes: 8,
        detects_stale: true,
        limits: Some(format!(
            "{}; destruction: {}",
            if info.several_per_entity {
                "several point masses per entity"
            } else {
                "one point mass per entity"
            },
            info.destruction.label()
        )),
        ..crate::replay::design_record_of(ComponentFamily::RESULTS_FAMILY, &info.meta)
    }
}

/// A component store plus the handle map: the state a trace is replayed on.
pub struct ComponentReplay<S: ComponentStore> {
    /// The design under test.
    pub store: S,
    /// `entities[k]` is the store's entity for handle `k` (kept after `Kill`, unused then).
    entities: HandleMap<S::Entity>,
    /// `Spawn` ops replayed so far: the handle the next `Spawn` creates (a replay in pieces
    /// reads IDs from a cursor that does not know it).
    spawned: EntityHandle,
}

impl<S: ComponentStore> ComponentReplay<S> {
    /// An empty store with room in the handle map for `trace`'s handles.
    pub fn for_trace(trace: &Trace<ComponentOp>) -> Self {
        Self {
            store: S::new(),
            entities: HandleMap::with_capacity(trace.handle_count()),
            spawned: 0,
        }
    }

    /// Applies `ops` in order, finding entities through `entities`, and returns what was
    /// observed.
    ///
    /// A uniform run of `Lookup`s of a timed run ([`HandleIds::uniform_ids`]) goes to the
    /// design in one [`ComponentStore::read_positions`] over its resolved entities
    /// ([`lookup_all`]), and a uniform run of `CopyPosition`s in one
    /// [`ComponentStore::copy_positions`] over its resolved pairs ([`copy_all`]), as the crates'
    /// direct loops read and copy them; everything else goes through
    /// [`run_mixed`](Self::run_mixed).
    ///
    /// # Errors
    /// The store refused an op, or `entities` rejected a spawned entity; the ops before it
    /// were applied.
    pub fn run<H: HandleIds<S::Entity>>(
        &mut self,
        ops: &[ComponentOp],
        entities: &mut H,
    ) -> Result<ComponentDigest, ReplayError> {
        // `uniform_ids` consumes the segment's IDs: ask only when there is a fast path.
        match ops.first() {
            Some(ComponentOp::Lookup(_)) => {
                if let Some(ids) = entities.uniform_ids(ops.len()) {
                    let run = lookup_all(&self.store, ops, ids);
                    if let Some(entity) = run.refused {
                        let alone = self.store.position(entity);
                        return Err(run_refusal(run.ops, ops[run.ops], alone));
                    }
                    return Ok(ComponentDigest {
                        lookups_found: run.found,
                        lookup_sum: run.sum,
                        ..ComponentDigest::default()
                    });
                }
            }
            Some(ComponentOp::CopyPosition(..)) => {
                if let Some(ids) = entities.uniform_ids(2 * ops.len()) {
                    let run = copy_all(&mut self.store, ids);
                    if let Some((from, to)) = run.refused {
                        let alone = self.store.copy_position(from, to);
                        return Err(run_refusal(run.ops, ops[run.ops], alone));
                    }
                    return Ok(ComponentDigest {
                        copies_done: run.found,
                        ..ComponentDigest::default()
                    });
                }
            }
            _ => {}
        }
        self.run_mixed(ops, entities)
    }

    /// [`run`](Self::run) op by op, in its own function as the other families' mixed loops
    /// (the fast path's dispatch takes none of this loop's registers).
    ///
    /// Runs of one kind are handed to the design whole, as an application hands them to a
    /// system: consecutive `Lookup`s in one [`ComponentStore::read_positions`], consecutive
    /// `Write`s in one [`ComponentStore::write_velocities`], consecutive `CopyPosition`s in one
    /// [`ComponentStore::copy_positions`] (a run of one included), and a `Spawn` immediately
    /// followed by the `Attach` of the entity it created as one
    /// [`ComponentStore::spawn_with`]. Each op still takes its IDs from `entities` in op order
    /// (one call per entity it names, whatever the design answers), and its answer goes into
    /// the digest as it would op by op; a refused op in a run gets the error its single-op
    /// method gives alone ([`run_refusal`]).
    #[inline(never)]
    fn run_mixed<H: HandleIds<S::Entity>>(
        &mut self,
        ops: &[ComponentOp],
        entities: &mut H,
    ) -> Result<ComponentDigest, ReplayError> {
        let mut d = ComponentDigest::default();
        let store = &mut self.store;
        let mut index = 0;
        while let Some(&op) = ops.get(index) {
            let refused = move |error| ReplayError::at(index, op, error);
            match op {
                ComponentOp::Spawn => {
                    let handle = self.spawned;
                    self.spawned += 1;
                    match ops.get(index + 1) {
                        Some(&ComponentOp::Attach(h, seed)) if h == handle => {
                            let entity = store.spawn_with(point_mass(seed)).map_err(refused)?;
                            entities
                                .created(entity)
                                .map_err(|e| ReplayError::at(index, op, e))?;
                            // The `Attach`'s one ID call; it names the entity just created.
                            let _ = entities.id(h);
                            index += 1;
                        }
                        _ => entities
                            .created(store.spawn().map_err(refused)?)
                            .map_err(|e| ReplayError::at(index, op, e))?,
                    }
                }
                ComponentOp::Kill(h) => store.kill(entities.id(h)).map_err(refused)?,
                ComponentOp::Attach(h, seed) => store
                    .attach(entities.id(h), point_mass(seed))
                    .map_err(refused)?,
                ComponentOp::Detach(h) => {
                    d.detaches_found += u64::from(store.detach(entities.id(h)).map_err(refused)?);
                }
                ComponentOp::Lookup(_) => {
                    let run = store.read_positions(Lookups {
                        ops: &ops[index..],
                        ids: &mut *entities,
                    });
                    d.lookups_found += run.found;
                    d.lookup_sum = d.lookup_sum.wrapping_add(run.sum);
                    index += run.ops;
                    if let Some(entity) = run.refused {
                        return Err(run_refusal(index, ops[index], store.position(entity)));
                    }
                    continue;
                }
                ComponentOp::Write(..) => {
                    let run = store.write_velocities(Writes {
                        ops: &ops[index..],
                        ids: &mut *entities,
                    });
                    d.writes_found += run.found;
                    index += run.ops;
                    if let Some(entity) = run.refused {
                        // A run of writes refuses only a `Write`: `ops[index]` is one.
                        if let ComponentOp::Write(_, seed) = ops[index] {
                            let alone = store.write(entity, VectorField::Velocity, velocity(seed));
                            return Err(run_refusal(index, ops[index], alone));
                        }
                    }
                    continue;
                }
                ComponentOp::Simulate => {
                    d.simulated += (store.instance_count() - store.garbage()) as u64;
                    store.simulate(DT);
                }
                ComponentOp::DestroyStep => store.destroy_step(),
                ComponentOp::AttachAnother(h, seed) => store
                    .attach_another(entities.id(h), point_mass(seed))
                    .map_err(refused)?,
                ComponentOp::CopyPosition(..) => {
                    let run = store.copy_positions(Copies {
                        ops: &ops[index..],
                        ids: &mut *entities,
                    });
                    d.copies_done += run.found;
                    index += run.ops;
                    if let Some((from, to)) = run.refused {
                        let alone = store.copy_position(from, to);
                        return Err(run_refusal(index, ops[index], alone));
                    }
                    continue;
                }
            }
            index += 1;
        }
        Ok(d)
    }
}

impl<S: ComponentStore + 'static> Replayer for ComponentReplay<S> {
    type Family = ComponentFamily;
    type Id = S::Entity;

    fn design_name() -> &'static str {
        S::INFO.meta.name
    }

    /// Traces with several instances per entity need a design that holds them.
    fn unsupported_before(stats: &ComponentStats) -> Option<String> {
        let reason = S::INFO.one_per_entity_reason()?;
        (stats.attach_another_ops > 0).then(|| {
            format!(
                "{reason}: the trace gives entities further instances ({} AttachAnother)",
                stats.attach_another_ops
            )
        })
    }

    forward_replay!(ComponentReplay { for_trace, run }, handles: entities);

    forward_design!(store, live: entity_count);

    /// Collects all garbage, then sums [`state_of`] over the instances, plus their count.
    fn state_digest(&mut self) -> Option<u64> {
        self.store.collect_all_garbage();
        let mut hash = StateHash::default();
        self.store.visit(|m| hash.add(m));
        Some(hash.finish())
    }

    fn measure(
        trace: &Trace<ComponentOp>,
        stats: &ComponentStats,
    ) -> Result<Option<ComponentMetrics>, ReplayError> {
        let mut state = Self::after_setup(trace)?;
        let entities = state.store.entity_count() as u64;
        let instances = state.store.instance_count() as u64;
        let memory = state.store.memory_bytes() as u64;
        let setup_calls = state.store.allocator_calls();
        let mut garbage = Vec::new();
        for frame in trace
            .body
            .split_inclusive(|op| *op == ComponentOp::DestroyStep)
        {
            state.replay(frame)?;
            if frame.last() == Some(&ComponentOp::DestroyStep) {
                garbage.push(state.store.garbage() as u64);
            }
        }
        let body_calls = state.store.allocator_calls() - setup_calls;
        Ok(Some(ComponentMetrics {
            entities_after_setup: entities,
            instances_after_setup: instances,
            bytes_per_entity: ratio(memory, entities),
            bytes_per_instance: ratio(memory, instances),
            memory_bytes_after_body: state.store.memory_bytes() as u64,
            setup_alloc_calls: setup_calls,
            alloc_calls_per_op: ratio(body_calls, stats.work_units()).unwrap_or(0.0),
            frames: (!garbage.is_empty()).then_some(garbage.len() as u64),
            garbage_after_10_frames: garbage.get(9).copied(),
            garbage_after_last_frame: garbage.last().copied(),
            garbage_peak: garbage.iter().copied().max(),
            garbage_per_frame: garbage,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use impls::components::peers::hecs::HecsPeer;
    use impls::components::peers::shipyard::ShipyardPeer;
    use impls::components::peers::specs::{SpecsDense, SpecsHash, SpecsVec};

    /// A run of lookups, writes or copies stops at a refused op with that op's index and the
    /// design's error for it, like the op-by-op loop.
    #[test]
    fn a_refused_lookup_in_a_run_reports_its_own_index() {
        let trace =
            workloads::registry::generate_for::<ComponentOp>("comp-lookup", 50, 3, None).unwrap();
        let mut state = ComponentReplay::<HecsPeer>::after_setup(&trace).unwrap();
        state.replay(&[ComponentOp::Kill(7)]).unwrap();
        let body = [
            ComponentOp::Lookup(1),
            ComponentOp::Lookup(2),
            ComponentOp::Lookup(7),
            ComponentOp::Lookup(3),
        ];
        let error = state.replay(&body).unwrap_err();
        assert_eq!(error.index, 2, "{error}");
        // The run answers `Refused`; the error is the one `position` gives alone.
        assert!(error.error.ends_with("is not alive"), "{error}");
        let error = state
            .replay(&[ComponentOp::Write(1, 5), ComponentOp::Write(7, 5)])
            .unwrap_err();
        assert_eq!(error.index, 1, "{error}");
        assert!(error.error.ends_with("is not alive"), "{error}");
        // A copy is refused for a dead source, or for a dead target of a source with a point
        // mass; the copies before it are applied.
        for (k, refused) in [
            ComponentOp::CopyPosition(7, 1),
            ComponentOp::CopyPosition(1, 7),
        ]
        .into_iter()
        .enumerate()
        {
            let body = [
                ComponentOp::CopyPosition(1, 2),
                ComponentOp::CopyPosition(3, 3),
                refused,
                ComponentOp::CopyPosition(2, 1),
            ];
            let error = state.replay(&body).unwrap_err();
            assert_eq!(error.index, 2, "case {k}: {error}");
            assert!(error.error.ends_with("is not alive"), "case {k}: {error}");
        }
    }

    /// A timed run's uniform run of copies (one [`copy_all`] over the resolved pairs) stops at
    /// a refused copy with that op's index and the error its single-op method gives.
    #[test]
    fn a_refused_copy_in_a_resolved_run_reports_its_own_index() {
        use crate::replay::resolved::MIN_UNIFORM_RUN;
        let trace =
            workloads::registry::generate_for::<ComponentOp>("comp-sync", 50, 3, None).unwrap();
        // Entity 7 is named by op 70 alone, as a source.
        let body: Vec<ComponentOp> = (0..2 * MIN_UNIFORM_RUN as u32)
            .map(|k| match k {
                70 => ComponentOp::CopyPosition(7, 1),
                _ => ComponentOp::CopyPosition(10 + k % 20, 30 + k % 15),
            })
            .collect();
        let mut dry = ComponentReplay::<HecsPeer>::after_setup(&trace).unwrap();
        let (resolved, _) = dry.resolve(&body).unwrap();
        assert!(
            resolved.segments().len() == 1 && resolved.segments()[0].uniform,
            "one uniform segment: {:?}",
            resolved.segments()
        );
        let mut timed = ComponentReplay::<HecsPeer>::after_setup(&trace).unwrap();
        timed.replay(&[ComponentOp::Kill(7)]).unwrap();
        let error = timed.replay_resolved(&body, &resolved).unwrap_err();
        assert_eq!(error.index, 70, "{error}");
        assert!(error.error.ends_with("is not alive"), "{error}");
    }

    /// A run of copies counts the copies made (a source or target without a point mass copies
    /// nothing, and a source without one never looks at its target, dead or not) and leaves
    /// the positions the model leaves.
    #[test]
    fn a_run_of_copies_answers_like_the_model() {
        fn check<S: ComponentStore + 'static>(trace: &Trace<ComponentOp>, body: &[ComponentOp]) {
            let mut state = ComponentReplay::<S>::after_setup(trace).unwrap();
            let mut model = ComponentReplay::<ModelStore>::after_setup(trace).unwrap();
            let got = state.replay(body).unwrap();
            assert_eq!(got, model.replay(body).unwrap(), "{}", S::INFO.meta.name);
            assert_eq!(got.copies_done, 3, "{}", S::INFO.meta.name);
            assert_eq!(
                state.state_digest(),
                model.state_digest(),
                "{}",
                S::INFO.meta.name
            );
        }
        let trace =
            workloads::registry::generate_for::<ComponentOp>("comp-sync", 50, 3, None).unwrap();
        let prologue = [ComponentOp::Detach(4), ComponentOp::Kill(9)];
        let body: Vec<ComponentOp> = prologue
            .into_iter()
            .chain([
                ComponentOp::CopyPosition(1, 30),
                ComponentOp::CopyPosition(2, 2),
                ComponentOp::CopyPosition(4, 31),
                ComponentOp::CopyPosition(5, 4),
                ComponentOp::CopyPosition(4, 9),
                ComponentOp::CopyPosition(30, 6),
            ])
            .collect();
        check::<HecsPeer>(&trace, &body);
        check::<ShipyardPeer>(&trace, &body);
        check::<SpecsVec>(&trace, &body);
        check::<SpecsDense>(&trace, &body);
        check::<SpecsHash>(&trace, &body);
        check::<impls::components::direct::BufferDirect>(&trace, &body);
        #[cfg(feature = "bevy")]
        {
            check::<impls::components::peers::bevy::BevyTable>(&trace, &body);
            check::<impls::components::peers::bevy::BevySparse>(&trace, &body);
        }
    }
}
