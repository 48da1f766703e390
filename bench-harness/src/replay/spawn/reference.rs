//! The family's reference loops, verified like a replay:
//!
//! * [`DirectSpawn`] (`ref-direct-<peer>`, for `hecs_spawn`, `hecs_spawn_builder` and
//!   `hecs_batch`, and behind the `bevy` cargo feature `bevy_spawn` and `bevy_batch`): a spawn
//!   body written against the ECS crate itself, no [`Spawner`] trait or replay driver in
//!   between. The resource is the peer's own, compiled untimed by the peer's replay of the
//!   trace's setup (the typed per-entity records a deserialiser hands the crate, grouped per
//!   component set for the batch designs); the body is a plain `Vec` of its steps (spawn the
//!   level `times` times, despawn everything), and each timed pass runs them on a fresh world
//!   of the crate, built (and dropped) outside the timed region, keeping each spawn's entity
//!   list as an application keeps its resource entity index. The crate calls are the ones
//!   each peer's idiom names, as the crates' docs show them:
//!   - `hecs_spawn`: `World::spawn(bundle)` per entity, the bundle the static tuple of the
//!     entity's components (a `match` on its component set picks one of 16 tuple types), the
//!     parent's entity written into the child's transform as it is built.
//!   - `hecs_spawn_builder`: one reused `hecs::EntityBuilder`, `EntityBuilder::add` per
//!     component, `World::spawn(builder.build())` per entity (hecs's route for a component set
//!     not known statically), the parent's entity written into the child's transform as it is
//!     built.
//!   - `hecs_batch`: per component set, a `ColumnBatchBuilder` filled column by column and
//!     `World::spawn_column_batch` (hecs: "the fastest ... way to spawn large numbers of
//!     entities ... Supports dynamic component types"), then `World::get::<&mut Transform>`
//!     per child to set its parent (a parent may sit in another batch).
//!   - `bevy_spawn`: `World::spawn(bundle)` per entity, the bundle the static tuple of the
//!     entity's components (a `match` on its component set picks one of 16 tuple types).
//!   - `bevy_batch`: per component set, `World::spawn_batch` of an iterator of bundles, then
//!     `World::get_mut::<Transform>` per child to set its parent.
//!
//!   A `DespawnAll` is the crate's documented reset, which keeps the world's storage:
//!   `hecs::World::clear` and `bevy_ecs::World::clear_entities`, the adapters'
//!   [`SpawnWorld::clear`] too. Covers every body of the family: `spawn-level` (one spawn),
//!   `spawn-prefab` (one small level spawned `n / 5` times) and `spawn-restart` (10 spawns with
//!   a reset before each but the first); `None` for a body with another op or none.
//!   [`ReferenceLoop::mirrors`] names the peer, so the results' `overhead` (replay ÷ this loop)
//!   is what the replay driver and the [`Spawner`] adapter add to the crate.
//!
//!   Verified outside the timed region: the spawns, entities spawned, resets and entities held
//!   at the end must equal the model's body digest, and the world read back through the
//!   peer's [`SpawnWorld::visit`] ([`world_digest`], entities mapped to resource indices
//!   through the entity lists the spawns returned) must equal the model's world after the
//!   body.
//!
//! [`SpawnWorld::clear`]: impls::spawn::SpawnWorld::clear
//! [`SpawnWorld::visit`]: impls::spawn::SpawnWorld::visit

use std::hint::black_box;
use std::time::Duration;

use impls::spawn::model::ModelSpawner;
use impls::spawn::peers::hecs::{
    HecsBatch, HecsSpawn, HecsSpawnBuilder, HecsWorld, spawn_column_batches, spawn_records,
    spawn_with_builder,
};
use impls::spawn::peers::{Batches, Record};
use impls::spawn::{EntityOf, Spawner, world_digest};
use workloads::Trace;
use workloads::spawn::SpawnOp;

use super::{SpawnDigest, SpawnFamily, SpawnReplay};
use crate::host::{Stopwatch, fresh_time_slice};
use crate::replay::contract::{ReferenceLoop, Replayer};

/// A peer whose crate the `ref-direct-<peer>` loop calls directly: spawning its resource as
/// an application writes it with the crate. Out of line, so every call runs the same machine
/// code whatever the caller.
pub trait DirectSpawner: Spawner + 'static {
    /// Spawns the level `blob` into `world` with the crate's own calls and returns the
    /// entities in level order.
    fn spawn_direct(blob: &Self::Blob, world: &mut Self::World) -> Vec<EntityOf<Self>>;

    /// The crate's own "despawn every entity".
    fn despawn_all_direct(world: &mut Self::World);

    /// Entities the crate's world holds.
    fn held_direct(world: &Self::World) -> u64;
}

/// The `hecs` loops: each peer's spawn is the crate calls its adapter makes too (written once
/// in `impls::spawn::peers::hecs`), called here with no [`Spawner`] trait or driver between.
macro_rules! hecs_direct {
    ($($(#[$doc:meta])* $peer:ty: $blob:ty => $spawn:ident;)*) => {$(
        impl DirectSpawner for $peer {
            $(#[$doc])*
            #[inline(never)]
            fn spawn_direct(blob: &$blob, world: &mut HecsWorld) -> Vec<hecs::Entity> {
                $spawn(&mut world.0, blob)
            }

            fn despawn_all_direct(world: &mut HecsWorld) {
                world.0.clear();
            }

            fn held_direct(world: &HecsWorld) -> u64 {
                u64::from(world.0.len())
            }
        }
    )*};
}

hecs_direct! {
    /// `World::spawn` of the static tuple of each entity's components.
    HecsSpawn: Vec<Record> => spawn_records;
    /// One reused `EntityBuilder`, `World::spawn(builder.build())` per entity.
    HecsSpawnBuilder: Vec<Record> => spawn_with_builder;
    /// A `ColumnBatchBuilder` and `World::spawn_column_batch` per component set, then
    /// `World::get::<&mut Transform>` per child.
    HecsBatch: Batches => spawn_column_batches;
}

/// The `bevy_ecs` loops: bundles are static tuples, one per component set.
#[cfg(feature = "bevy")]
mod bevy {
    use impls::spawn::EntityOf;
    use impls::spawn::peers::bevy::{
        BevyBatch, BevyMass, BevyMesh, BevySpawn, BevyTags, BevyTransform, BevyWorld,
    };
    use impls::spawn::peers::{Batches, Record};

    use super::DirectSpawner;

    /// `bevy_ecs::Entity`.
    type BevyEntity = EntityOf<BevySpawn>;
    /// A transform's parent, as a bundle maker takes it.
    type Parent = Option<BevyEntity>;

    fn transform(r: &Record, parent: Parent) -> BevyTransform {
        BevyTransform {
            local: r.transform.expect("in the component set"),
            parent,
        }
    }

    fn mass(r: &Record) -> BevyMass {
        BevyMass(r.mass.expect("in the component set"))
    }

    fn tags(r: &Record) -> BevyTags {
        BevyTags(r.tags.expect("in the component set"))
    }

    fn mesh(r: &Record) -> BevyMesh {
        BevyMesh(r.mesh.expect("in the component set"))
    }

    /// Evaluates `$body` with `$make`, a closure building the bundle of component set `$mask`
    /// (transform 1, point mass 2, tags 4, mesh 8) from a record and the transform's parent.
    macro_rules! with_bundle {
        ($mask:expr, $make:ident => $body:expr) => {
            match $mask {
                0 => {
                    let $make = |_r: &Record, _p: Parent| ();
                    $body
                }
                1 => {
                    let $make = |r: &Record, p: Parent| (transform(r, p),);
                    $body
                }
                2 => {
                    let $make = |r: &Record, _p: Parent| (mass(r),);
                    $body
                }
                3 => {
                    let $make = |r: &Record, p: Parent| (transform(r, p), mass(r));
                    $body
                }
                4 => {
                    let $make = |r: &Record, _p: Parent| (tags(r),);
                    $body
                }
                5 => {
                    let $make = |r: &Record, p: Parent| (transform(r, p), tags(r));
                    $body
                }
                6 => {
                    let $make = |r: &Record, _p: Parent| (mass(r), tags(r));
                    $body
                }
                7 => {
                    let $make = |r: &Record, p: Parent| (transform(r, p), mass(r), tags(r));
                    $body
                }
                8 => {
                    let $make = |r: &Record, _p: Parent| (mesh(r),);
                    $body
                }
                9 => {
                    let $make = |r: &Record, p: Parent| (transform(r, p), mesh(r));
                    $body
                }
                10 => {
                    let $make = |r: &Record, _p: Parent| (mass(r), mesh(r));
                    $body
                }
                11 => {
                    let $make = |r: &Record, p: Parent| (transform(r, p), mass(r), mesh(r));
                    $body
                }
                12 => {
                    let $make = |r: &Record, _p: Parent| (tags(r), mesh(r));
                    $body
                }
                13 => {
                    let $make = |r: &Record, p: Parent| (transform(r, p), tags(r), mesh(r));
                    $body
                }
                14 => {
                    let $make = |r: &Record, _p: Parent| (mass(r), tags(r), mesh(r));
                    $body
                }
                15 => {
                    let $make =
                        |r: &Record, p: Parent| (transform(r, p), mass(r), tags(r), mesh(r));
                    $body
                }
                _ => unreachable!("a component set has four bits"),
            }
        };
    }

    impl DirectSpawner for BevySpawn {
        /// `World::spawn(bundle)` per entity.
        #[inline(never)]
        #[allow(clippy::unit_arg)] // The bundle of the empty component set is `()`.
        fn spawn_direct(blob: &Vec<Record>, world: &mut BevyWorld) -> Vec<BevyEntity> {
            let world = &mut world.0;
            let mut out: Vec<BevyEntity> = Vec::with_capacity(blob.len());
            for r in blob {
                let parent = (r.parent != u32::MAX).then(|| out[r.parent as usize]);
                let e = with_bundle!(r.mask(), make => world.spawn(make(r, parent)).id());
                out.push(e);
            }
            out
        }

        fn despawn_all_direct(world: &mut BevyWorld) {
            world.0.clear_entities();
        }

        fn held_direct(world: &BevyWorld) -> u64 {
            u64::from(world.0.entities().len())
        }
    }

    impl DirectSpawner for BevyBatch {
        /// `World::spawn_batch` per component set, then `World::get_mut::<Transform>` per
        /// child.
        #[inline(never)]
        fn spawn_direct(blob: &Batches, world: &mut BevyWorld) -> Vec<BevyEntity> {
            let world = &mut world.0;
            let mut out = vec![BevyEntity::PLACEHOLDER; blob.entities];
            for (mask, group) in &blob.groups {
                with_bundle!(*mask, make => {
                    let spawned = world.spawn_batch(group.iter().map(|(_, r)| make(r, None)));
                    for ((i, _), e) in group.iter().zip(spawned) {
                        out[*i as usize] = e;
                    }
                });
            }
            for &(i, p) in &blob.children {
                let parent = out[p as usize];
                if let Some(mut t) = world.get_mut::<BevyTransform>(out[i as usize]) {
                    t.parent = Some(parent);
                }
            }
            out
        }

        fn despawn_all_direct(world: &mut BevyWorld) {
            world.0.clear_entities();
        }

        fn held_direct(world: &BevyWorld) -> u64 {
            u64::from(world.0.entities().len())
        }
    }
}

/// One step of a spawn body as the application holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    /// Spawn the level this many times in a row.
    Spawn(u32),
    /// Despawn every entity.
    DespawnAll,
}

/// A spawn body run by the ECS crate of peer `S` directly (`ref-direct-<peer>`, see the
/// [module docs](self)).
pub struct DirectSpawn<S: DirectSpawner> {
    /// The peer's resource, compiled by its replay of the setup.
    blob: S::Blob,
    /// The body's steps, in op order.
    steps: Vec<Step>,
    /// Level spawns in the body (room for their entity lists).
    level_spawns: usize,
    /// The model's body digest.
    expected: SpawnDigest,
    /// The model's world digest after the body.
    expected_world: u64,
}

impl<S: DirectSpawner> DirectSpawn<S> {
    /// The timed part of a pass: the steps on `world`, each spawn's entity list kept in
    /// `spawned`, counted as the replay counts them.
    fn spawn_all(&self, world: &mut S::World, spawned: &mut Vec<Vec<EntityOf<S>>>) -> SpawnDigest {
        let blob = black_box(&self.blob);
        let mut d = SpawnDigest::default();
        for &step in black_box(&self.steps) {
            match step {
                Step::Spawn(times) => {
                    for _ in 0..times {
                        let out = S::spawn_direct(blob, world);
                        d.entities_spawned += out.len() as u64;
                        spawned.push(out);
                    }
                    d.spawns += 1;
                }
                Step::DespawnAll => {
                    S::despawn_all_direct(world);
                    spawned.clear();
                    d.despawns += 1;
                }
            }
        }
        d.entities_held = S::held_direct(world);
        d
    }
}

impl<S: DirectSpawner> ReferenceLoop for DirectSpawn<S> {
    type Family = SpawnFamily;
    const MIRRORS: Option<&'static str> = Some(S::INFO.meta.name);

    /// For a trace whose body is `Spawn` and `DespawnAll` ops (at least one); `None` otherwise
    /// or if the peer or the model refuses the trace.
    fn for_trace(trace: &Trace<SpawnOp>, expected: &SpawnDigest) -> Option<Self> {
        let steps = trace
            .body
            .iter()
            .map(|op| match *op {
                SpawnOp::Spawn { times } => Some(Step::Spawn(times)),
                SpawnOp::DespawnAll => Some(Step::DespawnAll),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()?;
        if steps.is_empty() {
            return None;
        }
        let blob = SpawnReplay::<S>::after_setup(trace).ok()?.blob?;
        let mut model = SpawnReplay::<ModelSpawner>::after_setup(trace).ok()?;
        model.replay(&trace.body).ok()?;
        let level_spawns = steps
            .iter()
            .map(|s| match *s {
                Step::Spawn(times) => times as usize,
                Step::DespawnAll => 0,
            })
            .sum();
        Some(Self {
            blob,
            steps,
            level_spawns,
            expected: *expected,
            expected_world: model.state_digest()?,
        })
    }

    /// Times `iters` passes over the steps, each on a fresh world of the crate (built and
    /// dropped outside the timed region).
    ///
    /// # Errors
    /// The counts or the world after the body differ from the model's.
    fn run(&self, iters: u64) -> Result<Duration, String> {
        let mut total = Duration::ZERO;
        for _ in 0..iters {
            let mut world = S::World::default();
            let mut spawned = Vec::with_capacity(self.level_spawns);
            fresh_time_slice();
            let start = Stopwatch::start();
            let digest = self.spawn_all(&mut world, &mut spawned);
            total += start.elapsed();
            if black_box(digest) != self.expected {
                return Err(format!(
                    "{} called directly: {digest:?}, the model {:?}",
                    S::INFO.meta.name,
                    self.expected
                ));
            }
            let entities: Vec<EntityOf<S>> = spawned.into_iter().flatten().collect();
            if world_digest(&mut world, &entities) != self.expected_world {
                return Err(format!(
                    "{} called directly: the world after the body differs from the model's",
                    S::INFO.meta.name
                ));
            }
        }
        Ok(total)
    }
}

/// `ref-direct-hecs_spawn`.
pub type DirectHecsSpawn = DirectSpawn<HecsSpawn>;
/// `ref-direct-hecs_spawn_builder`.
pub type DirectHecsSpawnBuilder = DirectSpawn<HecsSpawnBuilder>;
/// `ref-direct-hecs_batch`.
pub type DirectHecsBatch = DirectSpawn<HecsBatch>;
/// `ref-direct-bevy_spawn`.
#[cfg(feature = "bevy")]
pub type DirectBevySpawn = DirectSpawn<impls::spawn::peers::bevy::BevySpawn>;
/// `ref-direct-bevy_batch`.
#[cfg(feature = "bevy")]
pub type DirectBevyBatch = DirectSpawn<impls::spawn::peers::bevy::BevyBatch>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::testing::trace;
    use crate::verify::Expected;

    /// Every `ref-direct-<peer>` loop leaves the model's world and counts on every spawn body
    /// (one spawn, a prefab spawned many times, spawns with resets), fails a wrong expectation,
    /// and has no loop for a body with another op or none.
    #[test]
    fn direct_spawn_loops_spawn_like_the_model() {
        fn check<S: DirectSpawner>(trace: &Trace<SpawnOp>) {
            let name = S::INFO.meta.name;
            let expected = Expected::<SpawnFamily>::of(trace).unwrap();
            let looped = DirectSpawn::<S>::for_trace(trace, &expected.body).expect("a spawn body");
            assert_eq!(DirectSpawn::<S>::MIRRORS, Some(name));
            assert_eq!(DirectSpawn::<S>::name(), format!("ref-direct-{name}"));
            looped.run(2).unwrap_or_else(|e| panic!("{name}: {e}"));
            let mut wrong = DirectSpawn::<S>::for_trace(trace, &expected.body).unwrap();
            wrong.expected.entities_held += 1;
            assert!(wrong.run(1).is_err(), "{name}");
            let mut wrong = DirectSpawn::<S>::for_trace(trace, &expected.body).unwrap();
            wrong.expected_world ^= 1;
            let error = wrong.run(1).unwrap_err();
            assert!(error.contains("differs from the model"), "{name}: {error}");
            let mut other = trace.clone();
            other.body.push(SpawnOp::Compile);
            assert!(DirectSpawn::<S>::for_trace(&other, &expected.body).is_none());
            other.body.clear();
            assert!(DirectSpawn::<S>::for_trace(&other, &expected.body).is_none());
        }
        for workload in ["spawn-level", "spawn-prefab", "spawn-restart"] {
            let trace = trace(workload);
            check::<HecsSpawn>(&trace);
            check::<HecsSpawnBuilder>(&trace);
            check::<HecsBatch>(&trace);
            #[cfg(feature = "bevy")]
            {
                check::<impls::spawn::peers::bevy::BevySpawn>(&trace);
                check::<impls::spawn::peers::bevy::BevyBatch>(&trace);
            }
        }
    }
}
