//! The component-manager family: where a component's data lives and what the entity → instance
//! map costs.
//!
//! From "Building a Data-Oriented Entity System Part 2: Components" (BitSquid, 2014): one
//! manager holds every instance of one component type, the article's point mass
//! ([`PointMass`]: mass, position, velocity, acceleration). The designs trade the layout of
//! the instance data (one buffer of SoA arrays, five `Vec`s, AoS), the entity → instance map
//! (direct index, `Vec<u32>` map, hash map) and the way instances of destroyed entities go
//! away (the article's random-sampling garbage collection, an immediate destroy callback, a
//! full sweep per frame) against each other.
//!
//! # Semantics (the same for every design, checked by `impls/tests/integration/components_model.rs`)
//! * A store is a small world: it hands out entities ([`ComponentStore::spawn`]), each of
//!   which has at most one point-mass instance ([`ComponentStore::attach`]), or several in
//!   designs that say so ([`ComponentDesignInfo::several_per_entity`]:
//!   [`ComponentStore::attach_another`], the article's `next_instance` chain). Lookups, writes
//!   and copies act on an entity's first instance.
//! * [`kill`](ComponentStore::kill) destroys an entity. Its instance stops being observable at
//!   once (lookups of a dead entity are refused), but a design may keep it as **garbage** until
//!   a [`destroy_step`](ComponentStore::destroy_step) collects it: the article's GC.
//! * [`simulate`](ComponentStore::simulate) runs [`PointMass::step`] on every instance (the
//!   same f32 operations in the same order per instance in every design, so results are bit
//!   identical whatever order the instances are visited in). Point masses and time steps may
//!   be any `f32` (infinities, NaN) without a panic; only the sign and payload of a NaN that
//!   arithmetic produces may differ between designs, as Rust leaves them unspecified.
//! * User errors are [`ComponentError`]s and change nothing; no operation panics on user input.
//! * Batch entry points ([`read_positions`](ComponentStore::read_positions),
//!   [`write_velocities`](ComponentStore::write_velocities),
//!   [`copy_positions`](ComponentStore::copy_positions),
//!   [`spawn_with`](ComponentStore::spawn_with)) answer exactly as their per-call methods do;
//!   their defaults loop over those, and a design overrides them only where it can do a run
//!   in one borrow (the ECS peers: a view per system run, a bundle per spawn).
//!
//! # Which one to choose
//! * **Lookups and copies by entity** (`comp-lookup`, `comp-sync`, `comp-sync-random`):
//!   [`direct_tuned`], one array per field indexed by entity index with the owner's generation
//!   per slot, so a lookup reads two small arrays and no map. It pays for holes: sparse
//!   entity indices make its arrays, and every `simulate`, as long as the largest index.
//! * **Iterating every instance** (`comp-simulate*`): a packed design, instances in `0..n`
//!   with no holes ([`split_xyz::SplitXyzHash`] splits each vector by axis for the SIMD
//!   loop); its map costs a hash per lookup instead.
//! * **Many entities dying** (`comp-gc*`): a destroy callback ([`direct_tuned`],
//!   [`single_buffer::BufferHashCallback`]) removes an instance at once; the article's GC keeps
//!   garbage until random sampling finds it, and a full sweep visits every instance per frame.
//!
//! Entities come from the ID-table family: the article designs keep their entities in an
//! [`Entities`](entities::Entities) manager, which is the `holey` ID table
//! ([`crate::id_table::holey::Holey`]) with `()` payloads (IDs: [`crate::id::Id64`]).
//!
//! Adding a design: write `<design>.rs` (or `peers/<crate>.rs`) implementing
//! [`ComponentStore`], then add one line to [`registry::for_each_component_design`].

pub mod aos;
pub mod chain;
mod columns;
pub mod direct;
pub mod direct_tuned;
pub mod entities;
pub mod five_vecs;
pub mod game_objects;
pub mod maps;
pub mod model;
pub mod oop_fields;
pub mod oop_objects;
pub mod oop_pools;
pub mod packed;
pub mod peers;
pub mod registry;
pub mod single_buffer;
pub mod split_xyz;

pub use registry::{
    ComponentDesignVisitor, component_designs, find_component_design, for_each_component_design,
};

use crate::DesignMeta;
use thiserror::Error;

/// The article's component: a point mass (4 + 3 × 12 = 40 bytes of data per instance).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PointMass {
    /// Mass of the object.
    pub mass: f32,
    /// Position.
    pub position: [f32; 3],
    /// Velocity.
    pub velocity: [f32; 3],
    /// Acceleration.
    pub acceleration: [f32; 3],
}

impl PointMass {
    /// The article's `simulate` body for one instance, in the one f32 operation order every
    /// design uses: per axis `k` in order x, y, z, `v[k] = v[k] + a[k] * dt`, then per axis
    /// `p[k] = p[k] + v[k] * dt` (no fused multiply-add: Rust never contracts).
    #[inline(always)]
    pub fn step(
        position: &mut [f32; 3],
        velocity: &mut [f32; 3],
        acceleration: &[f32; 3],
        dt: f32,
    ) {
        for k in 0..3 {
            velocity[k] += acceleration[k] * dt;
        }
        for k in 0..3 {
            position[k] += velocity[k] * dt;
        }
    }

    /// [`step`](Self::step) on every instance of three parallel arrays (the designs that keep
    /// a `Vec` per field; slots past the shortest array are not visited).
    #[inline]
    pub fn step_all(
        positions: &mut [[f32; 3]],
        velocities: &mut [[f32; 3]],
        accelerations: &[[f32; 3]],
        dt: f32,
    ) {
        for ((p, v), a) in positions
            .iter_mut()
            .zip(velocities.iter_mut())
            .zip(accelerations.iter())
        {
            Self::step(p, v, a, dt);
        }
    }

    /// The bit patterns of every field, in declaration order (for digests).
    pub fn bits(&self) -> [u32; 10] {
        let mut out = [0; 10];
        out[0] = self.mass.to_bits();
        for k in 0..3 {
            out[1 + k] = self.position[k].to_bits();
            out[4 + k] = self.velocity[k].to_bits();
            out[7 + k] = self.acceleration[k].to_bits();
        }
        out
    }
}

/// A vector field of a point mass that lookups write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VectorField {
    /// [`PointMass::position`].
    Position,
    /// [`PointMass::velocity`].
    Velocity,
}

impl VectorField {
    /// The field in `m`.
    #[inline(always)]
    pub fn of(self, m: &mut PointMass) -> &mut [f32; 3] {
        match self {
            VectorField::Position => &mut m.position,
            VectorField::Velocity => &mut m.velocity,
        }
    }
}

/// How a design destroys the instances of killed entities (orthogonal to layout and map).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Destruction {
    /// The article's garbage collection: each [`ComponentStore::destroy_step`] picks random
    /// instances and destroys those whose entity is dead, until four live ones in a row.
    Gc,
    /// A destroy callback from the entity manager: `kill` destroys the instance at once;
    /// `destroy_step` does nothing.
    Callback,
    /// A full sweep: each `destroy_step` visits every instance and destroys the dead ones.
    Sweep,
}

impl Destruction {
    /// `gc`, `callback` or `sweep`.
    pub const fn label(self) -> &'static str {
        match self {
            Destruction::Gc => "gc",
            Destruction::Callback => "callback",
            Destruction::Sweep => "sweep",
        }
    }
}

/// A failure a user of a component store can cause. The store is unchanged after any of them.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ComponentError {
    /// The entity is not alive (never spawned here, or killed).
    #[error("entity {entity} is not alive")]
    DeadEntity {
        /// The entity, as `Debug` prints it.
        entity: String,
    },
    /// The entity already has an instance (every design holds at most one per entity).
    #[error("entity {entity} already has a point mass")]
    AlreadyAttached {
        /// The entity, as `Debug` prints it.
        entity: String,
    },
    /// The design cannot do this (e.g. hold several instances per entity).
    #[error("unsupported by this design: {reason}")]
    Unsupported {
        /// Why.
        reason: &'static str,
    },
    /// No further entity or instance index fits the design's index type.
    #[error("index space exhausted: {what}")]
    IndexSpaceExhausted {
        /// What ran out.
        what: &'static str,
    },
}

impl ComponentError {
    /// [`ComponentError::DeadEntity`] of `entity`.
    pub fn dead(entity: impl std::fmt::Debug) -> Self {
        ComponentError::DeadEntity {
            entity: format!("{entity:?}"),
        }
    }

    /// [`ComponentError::AlreadyAttached`] of `entity`.
    pub fn attached(entity: impl std::fmt::Debug) -> Self {
        ComponentError::AlreadyAttached {
            entity: format!("{entity:?}"),
        }
    }
}

/// Where a component design comes from (the kind every family shares).
pub use crate::kind::DesignKind as ComponentDesignKind;

/// What the registry and the reports know of a component design.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ComponentDesignInfo {
    /// Name, description and origin, as every family\'s designs give them.
    pub meta: DesignMeta,
    /// How instances of killed entities are destroyed.
    pub destruction: Destruction,
    /// Whether [`ComponentStore::attach_another`] works (several instances per entity).
    pub several_per_entity: bool,
}

impl ComponentDesignInfo {
    /// Why the design cannot replay a trace with several instances per entity, `None` if it
    /// can.
    pub const fn one_per_entity_reason(&self) -> Option<&'static str> {
        match (self.several_per_entity, self.meta.kind) {
            (true, _) => None,
            (false, ComponentDesignKind::Peer { .. }) => {
                Some("the crate holds one component of a type per entity")
            }
            (false, _) => Some(
                "one point mass per entity: the entity -> instance map holds a single instance",
            ),
        }
    }
}

/// A component manager for point masses, with its entities. See the [module docs](self).
///
/// # Contract (checked for every design by `impls/tests/integration/components_model.rs`)
/// * Methods taking an entity return [`ComponentError::DeadEntity`] for one that is not
///   alive, and then change nothing; `position`/`write` return `Ok(None)`/`Ok(false)`
///   for a live entity without an instance.
/// * After [`collect_all_garbage`](ComponentStore::collect_all_garbage), [`garbage`](ComponentStore::garbage)
///   is 0 and [`visit`](ComponentStore::visit) yields exactly the instances of live entities.
pub trait ComponentStore: Sized {
    /// The design's entity handle.
    type Entity: Copy + Eq + std::fmt::Debug;

    /// Name, kind and destruction strategy of this design.
    const INFO: ComponentDesignInfo;

    /// An empty store: no entities, no instances.
    fn new() -> Self;

    /// Creates an entity without an instance.
    ///
    /// # Errors
    /// [`ComponentError::IndexSpaceExhausted`].
    fn spawn(&mut self) -> Result<Self::Entity, ComponentError>;

    /// Destroys a live entity; its instance (if any) is destroyed now or left as garbage,
    /// by the design's [`Destruction`].
    ///
    /// # Errors
    /// [`ComponentError::DeadEntity`].
    fn kill(&mut self, entity: Self::Entity) -> Result<(), ComponentError>;

    /// Gives a live entity without one an instance holding `init`.
    ///
    /// # Errors
    /// [`ComponentError::DeadEntity`], [`ComponentError::AlreadyAttached`],
    /// [`ComponentError::IndexSpaceExhausted`].
    fn attach(&mut self, entity: Self::Entity, init: PointMass) -> Result<(), ComponentError>;

    /// Gives a live entity one more instance holding `init` (its first if it has none); the
    /// first instance stays the one lookups see. Only designs with
    /// [`ComponentDesignInfo::several_per_entity`] implement it.
    ///
    /// # Errors
    /// [`ComponentError::DeadEntity`], [`ComponentError::IndexSpaceExhausted`],
    /// [`ComponentError::Unsupported`] (the default).
    fn attach_another(
        &mut self,
        entity: Self::Entity,
        init: PointMass,
    ) -> Result<(), ComponentError> {
        let _ = (entity, init);
        Err(ComponentError::Unsupported {
            reason: Self::INFO
                .one_per_entity_reason()
                .unwrap_or("not implemented"),
        })
    }

    /// Destroys every instance of a live entity (swap-remove and map patch); `Ok(false)` if it
    /// has none.
    ///
    /// # Errors
    /// [`ComponentError::DeadEntity`].
    fn detach(&mut self, entity: Self::Entity) -> Result<bool, ComponentError>;

    /// Looks the entity's instance up and reads its position (the article's `lookup` then
    /// `position(i)`); `None` without an instance.
    ///
    /// The designs mark this and [`write`](ComponentStore::write) `#[inline(always)]`: an
    /// application's loop has one call site and inlines them, but the replay compiles its loop
    /// once per source of IDs (handle map, dry run, timed cursor), and with three call sites
    /// LLVM left `BufferDirect::position` out of line (88 simulated instructions per
    /// `comp-lookup` op instead of 61).
    ///
    /// # Errors
    /// [`ComponentError::DeadEntity`].
    fn position(&self, entity: Self::Entity) -> Result<Option<[f32; 3]>, ComponentError>;

    /// Looks the entity's instance up and writes one vector field of it (the article's
    /// `lookup` then `set_velocity(i, v)`; [`copy_position`](ComponentStore::copy_position)
    /// writes the position); `Ok(false)` without an instance.
    ///
    /// # Errors
    /// [`ComponentError::DeadEntity`].
    fn write(
        &mut self,
        entity: Self::Entity,
        field: VectorField,
        value: [f32; 3],
    ) -> Result<bool, ComponentError>;

    /// Copies `from`'s position to `to` (one system feeding another: a bone's transform
    /// copied to its node): [`position`](ComponentStore::position) of `from`, then
    /// [`write`](ComponentStore::write) of [`VectorField::Position`] to `to`. `Ok(true)` if
    /// both have an instance; `Ok(false)` if `from` has none (`to` is then not looked at) or
    /// `to` has none. `from == to` is allowed and changes nothing.
    ///
    /// This default is the contract; a design overrides
    /// [`copy_positions`](ComponentStore::copy_positions), the run of copies, instead.
    ///
    /// # Errors
    /// [`ComponentError::DeadEntity`] of `from`, or of `to` if `from` has an instance.
    #[inline(always)]
    fn copy_position(
        &mut self,
        from: Self::Entity,
        to: Self::Entity,
    ) -> Result<bool, ComponentError> {
        match self.position(from)? {
            Some(p) => self.write(to, VectorField::Position, p),
            None => Ok(false),
        }
    }

    /// Creates an entity and gives it an instance holding `init`: the same as
    /// [`spawn`](ComponentStore::spawn) then [`attach`](ComponentStore::attach) (the
    /// default), for a design that can do both in one step (an ECS spawning an entity with its
    /// component bundle, instead of spawning it empty and moving it to the bundle's archetype).
    /// The replayer calls it for a `Spawn` immediately followed by an `Attach` of the entity
    /// it created.
    ///
    /// # Errors
    /// As [`spawn`](ComponentStore::spawn) and [`attach`](ComponentStore::attach).
    fn spawn_with(&mut self, init: PointMass) -> Result<Self::Entity, ComponentError> {
        let entity = self.spawn()?;
        self.attach(entity, init)?;
        Ok(entity)
    }

    /// Hands `run` a lookup to call once per entity of a run of lookups, each answering as
    /// [`position`](ComponentStore::position) does or erring where it cannot tell without
    /// more work, and the lookup of those misses (see [`PositionRun`]). The default passes
    /// `position` as both, so a design that gains nothing pays nothing. An ECS overrides it to
    /// borrow its position storage once for the whole run, as a system does, instead of once
    /// per lookup: its view's `get` in the run's loop, and the world's liveness test (a call
    /// into the crate) only for an entity the view missed.
    fn read_positions<R: PositionRun<Self::Entity>>(&self, run: R) -> R::Output {
        run.run(
            |entity| self.position(entity),
            |entity| self.position(entity),
        )
    }

    /// Hands `run` a writer to call once per entity of a run of velocity writes, each
    /// answering as [`write`](ComponentStore::write) of [`VectorField::Velocity`] does (the
    /// default passes `write`); an ECS overrides it to borrow its velocity storage once for
    /// the run.
    fn write_velocities<R: VelocityRun<Self::Entity>>(&mut self, run: R) -> R::Output {
        run.run(|entity, value| self.write(entity, VectorField::Velocity, value))
    }

    /// Hands `run` a copier to call once per (`from`, `to`) pair of a run of position copies,
    /// each answering as [`copy_position`](ComponentStore::copy_position) does or erring
    /// where it cannot tell without more work, and the completion of those misses (see
    /// [`CopyRun`]). The default passes `copy_position`, its error a refusal that `missed`
    /// hands back, so a design that gains nothing pays nothing. An ECS overrides it to borrow
    /// its position storage mutably once for the whole run, as a system copying one entity's
    /// position to another's does, instead of borrowing the world once per read and once per
    /// write: its view's `get` of `from` and `get_mut` of `to` in the run's loop, and the
    /// world's liveness test only for an entity the view missed.
    fn copy_positions<R: CopyRun<Self::Entity>>(&mut self, run: R) -> R::Output {
        // `copy_position` answers every copy: its error is a refusal, and `missed` keeps it.
        run.run(|from, to| self.copy_position(from, to), Err)
    }

    /// Runs [`PointMass::step`] on every instance (garbage included where kept: its results
    /// are never observed).
    fn simulate(&mut self, dt: f32);

    /// One frame's destruction step (see [`Destruction`]). The default does nothing: the
    /// destroy callback's `kill` has destroyed the instance already.
    fn destroy_step(&mut self) {}

    /// Destroys every instance of a dead entity (verification, untimed). The default does
    /// nothing, for a design that keeps no garbage.
    fn collect_all_garbage(&mut self) {}

    /// Instances of dead entities not yet destroyed (the default: none, the destroy
    /// callback's count).
    fn garbage(&self) -> usize {
        0
    }

    /// Calls `f` once per instance held (garbage included), in a design-defined order.
    fn visit(&self, f: impl FnMut(&PointMass));

    /// Live entities.
    fn entity_count(&self) -> usize;

    /// Instances held, garbage included.
    fn instance_count(&self) -> usize;

    /// Bytes of heap memory the store holds now (its own accounting, reserved capacity times
    /// element size, entity manager included; peers: an estimate stated in their docs).
    fn memory_bytes(&self) -> usize;

    /// Allocator calls since [`new`](ComponentStore::new), by the family's rule: every change
    /// of a heap buffer's capacity counts one (peers: 0, not observable).
    fn allocator_calls(&self) -> u64;

    /// Checks the design's internal invariants (map and arrays agree, counts).
    ///
    /// # Errors
    /// A description of the first broken invariant.
    fn check_invariants(&self) -> Result<(), String>;
}

/// A run's error that says only "refused": an ECS adapter's runs ([`PositionRun`],
/// [`VelocityRun`], [`CopyRun`]) answer it where its single-op method would return a
/// [`ComponentError`].
///
/// The caller of a run never reads its error: on a refused op it asks the single-op method
/// ([`ComponentStore::position`], [`ComponentStore::write`],
/// [`ComponentStore::copy_position`]) for the error, once, off the run's loop. An adapter that
/// builds a `ComponentError` (a `String`, formatted on the miss path) inside the run's closure
/// kept each answer, a 32-byte `Result`, in memory on every op (hecs lookups: 55 simulated
/// instructions per op through the trait, 32 in the crate's own loop); answering
/// `Result<Option<[f32; 3]>, Refused>`, 16 bytes, it takes 47 (the rest is the replay driver's
/// share, which every design pays). Our designs' runs pass the single-op method itself, whose
/// error path LLVM keeps out of the loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refused;

/// A run of lookups the caller hands a design in one
/// [`read_positions`](ComponentStore::read_positions) call: it calls `lookup` once per entity
/// of the run, in order, `missed` for each entity `lookup` could not answer, and returns what
/// it made of the answers. Static dispatch: the design passes closures over its borrowed
/// storage, the run is monomorphised around them.
///
/// Two closures keep a miss's extra work out of the run's loop. An ECS view's `get` answers
/// `None` both for a dead entity (refused) and for a live one without the component
/// (`Ok(None)`); telling them apart is a call into the crate (`World::contains`). With one
/// closure, that call would sit in the loop of every lookup, never taken (every benchmark
/// entity has a point mass) yet clobbering the caller-saved registers, so the loop would keep
/// its count and sum in memory and the replay would take half as long again as the crate's
/// own loop (the `overhead` of `ref-direct-hecs` on `comp-lookup` at 1,000 entities).
pub trait PositionRun<E> {
    /// What the run returns (e.g. a digest of the positions read, or the first error).
    type Output;

    /// Runs the lookups. `lookup` answers as [`ComponentStore::position`] does, or errs
    /// where it cannot tell without more work; the run then calls `missed` for that entity
    /// (off its loop), whose answer stands, its error refusing the op. Both errors are of the
    /// design's choice: the run never reads them (see [`Refused`]).
    fn run<Er, Em, L, M>(self, lookup: L, missed: M) -> Self::Output
    where
        L: FnMut(E) -> Result<Option<[f32; 3]>, Er>,
        M: FnMut(E) -> Result<Option<[f32; 3]>, Em>;
}

/// A run of velocity writes the caller hands a design in one
/// [`write_velocities`](ComponentStore::write_velocities) call: it calls `write` once per
/// entity of the run, in order.
pub trait VelocityRun<E> {
    /// What the run returns.
    type Output;

    /// Runs the writes; `write` answers as [`ComponentStore::write`] of
    /// [`VectorField::Velocity`] does, its error of the design's choice (never read).
    fn run<Er, W: FnMut(E, [f32; 3]) -> Result<bool, Er>>(self, write: W) -> Self::Output;
}

/// A run of position copies the caller hands a design in one
/// [`copy_positions`](ComponentStore::copy_positions) call: it calls `copy` once per
/// (`from`, `to`) pair of the run, in order, `missed` with `copy`'s error for each pair `copy`
/// could not answer, and returns what it made of the answers. Static dispatch, as
/// [`PositionRun`].
///
/// Two closures keep a miss's extra work out of the run's loop, as [`PositionRun`]'s do. An
/// ECS view's `get` answers `None` both for a dead entity (refused) and for a live one without
/// the component (nothing copied), and telling them apart is a call into the crate. A copy can
/// miss either of its two entities, and only the design's closure knows which: so `copy`'s
/// error is whatever the design needs to finish the answer (an ECS: the entity its view
/// missed), and the run hands it back to `missed`, off the loop, where the liveness test
/// runs. The view is borrowed mutably by `copy` alone; `missed` reads only the entities.
pub trait CopyRun<E> {
    /// What the run returns (e.g. the copies made, or the first refusal).
    type Output;

    /// Runs the copies. `copy` answers as [`ComponentStore::copy_position`] does, or errs
    /// where it cannot tell without more work, having changed nothing; the run then calls
    /// `missed` with that error (off its loop), whose answer stands, its error refusing the
    /// op. The run reads neither error (see [`Refused`]): `missed` is the design's own.
    fn run<Er, Em, C, M>(self, copy: C, missed: M) -> Self::Output
    where
        C: FnMut(E, E) -> Result<bool, Er>,
        M: FnMut(Er) -> Result<bool, Em>;
}

/// A store's `check_invariants` on its instance counter: `Ok` when the point masses it holds by
/// a walk of its data, `held`, are the `recorded` its counter says.
pub(crate) fn check_instances(held: usize, recorded: usize) -> Result<(), String> {
    if held == recorded {
        Ok(())
    } else {
        Err(format!(
            "{held} point masses held, the counter says {recorded}"
        ))
    }
}

/// Counts one allocator call if a buffer's capacity changed from `before` to `after`.
#[inline]
pub(crate) fn count_capacity_change(before: usize, after: usize, calls: &mut u64) {
    if before != after {
        *calls += 1;
    }
}

/// The deterministic generator of the article's GC sampling (`random_in_range`): xorshift64*,
/// seeded by a constant so every replay of a trace samples the same instances.
#[derive(Debug, Clone)]
pub(crate) struct GcRng(u64);

impl GcRng {
    /// The fixed seed every design starts from.
    pub(crate) const fn new() -> Self {
        GcRng(0x9E37_79B9_7F4A_7C15)
    }

    /// A value in `0..n` (`n > 0`), by multiply-shift.
    #[inline]
    pub(crate) fn below(&mut self, n: usize) -> usize {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        let r = x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32;
        ((r * n as u64) >> 32) as usize
    }
}

/// The slots of a design that keeps garbage, as the article's GC and a full sweep see them:
/// both strategies are written once here, and each design says how to tell and destroy the
/// garbage in one of its slots.
pub(crate) trait GarbageSlots {
    /// Slots to look at, `0..slot_count()` (instances of a packed design, entity indices of
    /// the direct index).
    fn slot_count(&self) -> usize;

    /// Whether slot `i` holds an instance whose entity is dead (`false` for a hole).
    fn holds_garbage(&self, i: usize) -> bool;

    /// Destroys the garbage instance in slot `i` and counts it collected (a packed design
    /// moves its last instance into `i`).
    fn collect(&mut self, i: usize);

    /// The generator the GC samples slots with.
    fn gc_rng(&mut self) -> &mut GcRng;

    /// The article's `gc`: picks random slots and destroys the garbage among them, until four
    /// alive ones in a row (a hole counts as alive) or none left.
    fn gc(&mut self) {
        let mut alive_in_row = 0;
        while self.slot_count() > 0 && alive_in_row < 4 {
            let n = self.slot_count();
            let i = self.gc_rng().below(n);
            if !self.holds_garbage(i) {
                alive_in_row += 1;
                continue;
            }
            alive_in_row = 0;
            self.collect(i);
        }
    }

    /// Destroys every garbage instance in one pass, looking at a slot again after destroying
    /// in it (a packed design has moved another instance there).
    fn sweep(&mut self) {
        let mut i = 0;
        while i < self.slot_count() {
            if self.holds_garbage(i) {
                self.collect(i);
            } else {
                i += 1;
            }
        }
    }
}
