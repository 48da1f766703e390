//! The spawn family's replay driver: builds the level from a [`SpawnOp`] trace's setup,
//! compiles it into the design's resource at the setup's `Compile` (untimed), and spawns it in
//! the body (timed).
//!
//! The spawned world is verified outside the timed region ([`Replayer::state_digest`]): the
//! world is read back store by store and digested with the entities mapped to resource indices
//! through the lists `spawn` returned ([`impls::spawn::world_digest`]), so every design must
//! leave a world equal to the model's whatever its entity numbering. The op digest counts what
//! the body did (spawns, entities returned, despawns). Traces carry no handles: the handle map
//! is empty.

mod claims;
mod metrics;
mod reference;

use impls::spawn::model::ModelSpawner;
use impls::spawn::{
    ComponentKind, EntityOf, Level, LevelComponent, LevelEntity, SpawnDesignVisitor, SpawnWorld,
    Spawner, for_each_spawn_design, world_digest,
};
use serde::{Deserialize, Serialize};
use workloads::Trace;
use workloads::spawn::{NO_PARENT, SpawnOp, SpawnStats};

use super::contract::{Family, ReplayDigest, ReplayError, Replayer, ReplayerVisitor, RunSizes};
use super::glue::{family_marker, forward_design, hosts_design, merge_fields, visit_registry};
use super::resolved::{HandleIds, HandleMap};
pub use metrics::SpawnMetrics;
use results::DesignRecord;

family_marker! {
    /// Entity resources: [`SpawnOp`] traces replayed on [`Spawner`]s, checked against
    /// [`ModelSpawner`].
    SpawnFamily
}

impl Family for SpawnFamily {
    type Op = SpawnOp;
    type Digest = SpawnDigest;
    type Model = SpawnReplay<ModelSpawner>;
    type Metrics = SpawnMetrics;

    const CLAIMS: &'static [&'static [results::ClaimSpec]] = &[claims::CLAIMS];
    const UNTESTED: &'static [results::UntestedSpec] = claims::UNTESTED;
    const TITLE: &'static str = "Entity resources and batched spawning";
    /// The article's naive nested resource: what the pivot is measured against.
    const REFERENCE_DESIGN: &'static str = "nested";
    /// Spawning a level walks the resource once and writes every store: the I- and D-cache
    /// argument of the article.
    const MEMORY_BOUND_WORKLOADS: &'static [&'static str] = &["spawn-level"];
    const MEMORY_WORKLOADS: &'static [&'static str] = &["spawn-level"];
    const LATENCY_WORKLOADS: &'static [&'static str] = &["spawn-restart"];
    const SWEEP_MAX_N: usize = 1 << 18;

    /// Quick: 1K only (CI's share). Default and full: 1K, 10K (the article's "10 000
    /// objects") and 100K. The passes' quick size is 1K only, so the cache pass (valgrind)
    /// stays small for the family.
    const SIZES: RunSizes = RunSizes {
        quick: &[1_000],
        default: &[1_000, 10_000, 100_000],
        full: &[1_000, 10_000, 100_000],
        passes_quick: &[1_000],
        passes: &[1_000, 10_000],
    };

    fn design_records() -> Vec<DesignRecord> {
        struct Records(Vec<DesignRecord>);
        impl SpawnDesignVisitor for Records {
            fn visit<S: Spawner + 'static>(&mut self) {
                self.0.push(design_record::<S>());
            }
        }
        let mut records = Records(Vec::new());
        for_each_spawn_design(&mut records);
        records.0
    }

    fn for_each_replayer<V: ReplayerVisitor<Self>>(visitor: &mut V) {
        visit_registry!(
            visitor, SpawnFamily, for_each_spawn_design, SpawnDesignVisitor,
            [S: Spawner + 'static] => SpawnReplay<S>
        );
        visitor.visit_loop::<reference::DirectHecsSpawn>();
        visitor.visit_loop::<reference::DirectHecsSpawnBuilder>();
        visitor.visit_loop::<reference::DirectHecsBatch>();
        #[cfg(feature = "bevy")]
        {
            visitor.visit_loop::<reference::DirectBevySpawn>();
            visitor.visit_loop::<reference::DirectBevyBatch>();
        }
    }
}

hosts_design!(
    /// Another crate's spawner `D`, run beside the registry (`dodbench::external`).
    SpawnFamily,
    [D: Spawner] => SpawnReplay<D>,
    design_record::<D>()
);

/// The contract gap of a design whose world keeps no transform hierarchy
/// ([`SpawnWorld::TRANSFORM_HIERARCHY`]).
pub const GAP_NO_TRANSFORM_HIERARCHY: &str = "keeps no transform hierarchy (a transform holds its parent entity; no node links or world matrix)";

/// The results record of spawn design `S`: its ID is its world's entity handle; a world with
/// no transform hierarchy is a contract gap.
pub fn design_record<S: Spawner>() -> DesignRecord {
    let info = &S::INFO;
    let peer = matches!(info.meta.kind, impls::DesignKind::Peer { .. });
    DesignRecord {
        id_bytes: info.entity_bytes,
        limits: peer.then(|| "spawns into its own world (its own entities and storage)".into()),
        contract_gaps: (!<S::World as SpawnWorld>::TRANSFORM_HIERARCHY)
            .then(|| GAP_NO_TRANSFORM_HIERARCHY.to_string())
            .into_iter()
            .collect(),
        ..crate::replay::design_record_of(SpawnFamily::RESULTS_FAMILY, &info.meta)
    }
}

/// What a spawn replay did: counts only (the spawned world itself is checked by the state
/// digest).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpawnDigest {
    /// `Spawn` ops.
    pub spawns: u64,
    /// Entities the spawns returned.
    pub entities_spawned: u64,
    /// `DespawnAll` ops.
    pub despawns: u64,
    /// Entities live after the replayed ops (read once after the loop).
    pub entities_held: u64,
}

impl ReplayDigest<SpawnOp> for SpawnDigest {
    /// Adds the counts; `entities_held` is the later replay's.
    fn merge(&mut self, later: &SpawnDigest) {
        merge_fields!(
            self,
            later,
            add: [spawns, entities_spawned, despawns],
            later: [entities_held],
        );
    }

    /// One per spawned entity (as `SpawnStats::work_units` counts them).
    fn work_units(&self, _ops: &[SpawnOp]) -> u64 {
        self.entities_spawned
    }
}

/// A spawn design's state for one trace: the level being read, its compiled resource, the
/// world and the entity lists the spawns returned.
pub struct SpawnReplay<S: Spawner> {
    level: Level,
    /// The resource, once `Compile` has run.
    blob: Option<S::Blob>,
    world: S::World,
    /// The lists returned by the live spawns, in order (cleared by `DespawnAll`).
    spawned: Vec<Vec<EntityOf<S>>>,
    /// Always empty: spawn traces have no handles.
    ids: HandleMap<()>,
}

impl<S: Spawner> SpawnReplay<S> {
    fn empty() -> Self {
        Self {
            level: Level::default(),
            blob: None,
            world: S::World::default(),
            spawned: Vec::new(),
            ids: HandleMap::default(),
        }
    }

    /// Applies `ops` in order.
    ///
    /// # Errors
    /// An op out of place (a component before an entity, a spawn before `Compile`).
    pub fn run_ops(&mut self, ops: &[SpawnOp]) -> Result<SpawnDigest, ReplayError> {
        let mut d = SpawnDigest::default();
        for (at, &op) in ops.iter().enumerate() {
            match op {
                SpawnOp::Entity { parent } => self.level.entities.push(LevelEntity {
                    parent: (parent != NO_PARENT).then_some(parent),
                    components: Vec::new(),
                }),
                SpawnOp::Component { kind, data } => {
                    let kind = ComponentKind::from_id(kind)
                        .ok_or_else(|| ReplayError::at(at, op, "unknown kind identifier"))?;
                    self.level
                        .entities
                        .last_mut()
                        .ok_or_else(|| ReplayError::at(at, op, "a component before any entity"))?
                        .components
                        .push(LevelComponent { kind, data });
                }
                SpawnOp::Compile => self.blob = Some(S::compile(&self.level)),
                SpawnOp::Spawn { times } => {
                    let blob = self
                        .blob
                        .as_ref()
                        .ok_or_else(|| ReplayError::at(at, op, "Spawn before Compile"))?;
                    for _ in 0..times {
                        let out = S::spawn(blob, &mut self.world);
                        d.entities_spawned += out.len() as u64;
                        self.spawned.push(out);
                    }
                    d.spawns += 1;
                }
                SpawnOp::DespawnAll => {
                    S::despawn_all(&mut self.world);
                    self.spawned.clear();
                    d.despawns += 1;
                }
            }
        }
        d.entities_held = self.world.entity_count() as u64;
        Ok(d)
    }
}

impl<S: Spawner + 'static> Replayer for SpawnReplay<S> {
    type Family = SpawnFamily;
    type Id = ();

    fn design_name() -> &'static str {
        S::INFO.meta.name
    }

    fn for_trace(_trace: &Trace<SpawnOp>) -> Self {
        Self::empty()
    }

    fn handles(&mut self) -> &mut HandleMap<()> {
        &mut self.ids
    }

    fn run<H: HandleIds<()>>(
        &mut self,
        ops: &[SpawnOp],
        _ids: &mut H,
    ) -> Result<SpawnDigest, ReplayError> {
        self.run_ops(ops)
    }

    forward_design!(world, live: entity_count);

    /// The spawned world read back through every store (see the module docs).
    fn state_digest(&mut self) -> Option<u64> {
        let spawned: Vec<EntityOf<S>> = self.spawned.iter().flatten().copied().collect();
        Some(world_digest(&mut self.world, &spawned))
    }

    fn measure(
        trace: &Trace<SpawnOp>,
        stats: &SpawnStats,
    ) -> Result<Option<SpawnMetrics>, ReplayError> {
        let mut state = Self::after_setup(trace)?;
        let blob_bytes = state.blob.as_ref().map_or(0, S::blob_bytes) as f64;
        if let Some(blob) = &state.blob {
            S::spawn(blob, &mut state.world);
        }
        let entities = stats.level_entities;
        let per = |v: f64| (entities > 0).then(|| v / entities as f64);
        Ok(Some(SpawnMetrics {
            level_entities: entities,
            blob_bytes_per_entity: per(blob_bytes),
            world_bytes_per_entity: per(state.world.memory_bytes() as f64),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::contract::HostsDesign;
    use crate::suite::PreparedTrace;
    use crate::verify::check_replayer;
    use impls::DesignMeta;
    use impls::spawn::SpawnDesignInfo;
    use impls::spawn::grouped_batched::GroupedBatched;
    use impls::spawn::world::World;

    /// A user's spawner from another crate: the article's design under its own name.
    struct UserSpawner;

    impl Spawner for UserSpawner {
        type World = World;
        type Blob = <GroupedBatched as Spawner>::Blob;
        const INFO: SpawnDesignInfo = SpawnDesignInfo {
            meta: DesignMeta {
                name: "user_spawner",
                description: "a user's design",
                kind: impls::DesignKind::External,
            },
            entity_bytes: 8,
        };
        fn compile(level: &Level) -> Self::Blob {
            GroupedBatched::compile(level)
        }
        fn blob_bytes(blob: &Self::Blob) -> usize {
            GroupedBatched::blob_bytes(blob)
        }
        fn spawn(blob: &Self::Blob, world: &mut World) -> Vec<EntityOf<Self>> {
            GroupedBatched::spawn(blob, world)
        }
    }

    #[test]
    fn a_user_spawner_is_hosted_and_verified() {
        type Hosted = <SpawnFamily as HostsDesign<UserSpawner>>::Replayer;
        let p = PreparedTrace::<SpawnFamily>::generate("spawn-level", 300, 7).unwrap();
        let outcome = check_replayer::<Hosted>(&p.trace, &p.expected).outcome;
        assert!(outcome.is_verified(), "{outcome:?}");
        let record = <SpawnFamily as HostsDesign<UserSpawner>>::design_record();
        assert_eq!(
            (record.name.as_str(), record.kind.as_str()),
            ("user_spawner", "external")
        );
    }
}
