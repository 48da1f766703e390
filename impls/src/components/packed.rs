//! The article's packed component manager, generic over its instance layout
//! ([`InstanceStorage`]: one buffer, five `Vec`s, AoS, x/y/z split), its entity → instance map
//! ([`InstanceMap`]: `Vec<u32>` map or hash map) and its [`Destruction`] strategy. Each
//! registered design is a [`PackedFlavor`] naming the three, in the file of its layout.
//!
//! Instances are packed in `0..n`: `attach` appends, destroying instance `i` moves the last
//! instance into `i` and patches the map entry of the moved entity (the article's `destroy`).
//! `simulate` is one in-order pass over `0..n`. Lookups are one map read plus one read of the
//! instance's entity (a `Vec<u32>` map is indexed by the entity index only, so the stored
//! entity's generation tells a live owner from a dead one whose index was reused).
//!
//! When a new entity reuses the index of a dead one whose instance is still garbage, a
//! `Vec<u32>` map has one entry for both: `attach` destroys the garbage instance first (it is
//! dead; the article leaves this case open). Invariant (all maps): the map holds exactly one
//! entry per instance, pointing at it.

use super::entities::{Entities, Entity};
use super::{
    ComponentDesignInfo, ComponentError, ComponentStore, Destruction, GarbageSlots, GcRng,
    PointMass, VectorField,
};

/// How one layout keeps the instance data (`n` packed instances, each with its entity).
pub trait InstanceStorage: Default {
    /// Instances held.
    fn len(&self) -> usize;
    /// Whether none is held.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Appends an instance (growing the storage, counted as allocator calls).
    fn push(&mut self, entity: Entity, value: PointMass);
    /// Moves the last instance into `i` and drops the last slot; returns the entity of the
    /// moved instance, `None` when `i` was the last.
    fn swap_remove(&mut self, i: usize) -> Option<Entity>;
    /// The entity owning instance `i`.
    fn entity(&self, i: usize) -> Entity;
    /// Instance `i`'s data.
    fn get(&self, i: usize) -> PointMass;
    /// Calls `f` with every instance's data, in index order (a design's `visit`).
    fn for_each(&self, mut f: impl FnMut(&PointMass)) {
        for i in 0..self.len() {
            f(&self.get(i));
        }
    }
    /// Instance `i`'s position.
    fn position(&self, i: usize) -> [f32; 3];
    /// Writes one vector field of instance `i`.
    fn write(&mut self, i: usize, field: VectorField, value: [f32; 3]);
    /// [`PointMass::step`] on every instance, in index order.
    fn simulate(&mut self, dt: f32);
    /// Heap bytes reserved.
    fn memory_bytes(&self) -> usize;
    /// Allocator calls (capacity changes) so far.
    fn allocator_calls(&self) -> u64;
}

/// How a packed design finds an entity's instance.
pub trait InstanceMap: Default {
    /// The instance recorded for `entity` (for index-keyed maps: for its index, whoever owns
    /// it), if any.
    fn get(&self, entity: Entity) -> Option<u32>;
    /// Records instance `i` for `entity`.
    fn insert(&mut self, entity: Entity, i: u32);
    /// Forgets `entity`'s entry.
    fn remove(&mut self, entity: Entity);
    /// Entries held.
    fn len(&self) -> usize;
    /// Whether no entry is held.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Heap bytes reserved.
    fn memory_bytes(&self) -> usize;
    /// Allocator calls (capacity changes) so far.
    fn allocator_calls(&self) -> u64;
}

/// One registered packed design: its layout, map, destruction and record.
pub trait PackedFlavor {
    /// The instance layout.
    type Storage: InstanceStorage;
    /// The entity → instance map.
    type Map: InstanceMap;
    /// The record; its `destruction` picks the strategy.
    const INFO: ComponentDesignInfo;
}

/// Declares registered packed designs, two lines each: the alias the registry lists (its doc
/// comment first), its flavor type, layout, map, [`Destruction`], kind and name, then its
/// description. One instance per entity, as every packed design holds.
macro_rules! packed_designs {
    ($(
        $(#[$doc:meta])*
        $alias:ident = $flavor:ident($storage:ty, $map:ty, $destruction:ident, $kind:ident, $name:literal)
            $description:literal;
    )*) => {$(
        #[doc = concat!("Flavor of [`", stringify!($alias), "`].")]
        pub struct $flavor;

        impl $crate::components::packed::PackedFlavor for $flavor {
            type Storage = $storage;
            type Map = $map;
            const INFO: $crate::components::ComponentDesignInfo =
                $crate::components::ComponentDesignInfo {
                    meta: $crate::DesignMeta {
                        name: $name,
                        description: $description,
                        kind: $crate::components::ComponentDesignKind::$kind,
                    },
                    destruction: $crate::components::Destruction::$destruction,
                    several_per_entity: false,
                };
        }

        $(#[$doc])*
        pub type $alias = $crate::components::packed::Packed<$flavor>;
    )*};
}
pub(crate) use packed_designs;

/// The operations every design keeping its entities in [`Entities`] and its instances in an
/// [`InstanceStorage`] answers alike ([`Packed`], [`BufferDirect`](super::direct::BufferDirect),
/// [`BufferChain`](super::chain::BufferChain)): spawning through the entity manager, the
/// article's lookups (`lookup`, then a read or write of the instance), `simulate` over the
/// storage, the destruction step of the design's [`Destruction`] (through its
/// [`GarbageSlots`]), and the counts. A lookup checks the entity with the manager, then asks the
/// design's own map, its method `$slot_of`, for the instance's slot in its storage field
/// `$storage`; given `detach_by: $destroy`, `detach` destroys that one instance with the
/// design's method `$destroy(i)`. Expands inside the design's `impl ComponentStore`, so the
/// lookups stay the design's own methods, always inlined (see [`ComponentStore::position`]);
/// the design has the fields `entities` and `garbage`.
macro_rules! entity_slot_ops {
    (slot_of: $slot_of:ident, storage: $storage:ident $(, detach_by: $destroy:ident)?) => {
        fn spawn(&mut self) -> Result<Entity, ComponentError> {
            self.entities.create()
        }

        #[inline(always)]
        fn position(&self, entity: Entity) -> Result<Option<[f32; 3]>, ComponentError> {
            self.entities.check_alive(entity)?;
            Ok(self.$slot_of(entity).map(|i| self.$storage.position(i)))
        }

        #[inline(always)]
        fn write(&mut self, entity: Entity, field: VectorField, value: [f32; 3]) -> Result<bool, ComponentError> {
            self.entities.check_alive(entity)?;
            Ok(match self.$slot_of(entity) {
                Some(i) => {
                    self.$storage.write(i, field, value);
                    true
                }
                None => false,
            })
        }

        fn simulate(&mut self, dt: f32) {
            self.$storage.simulate(dt);
        }

        fn destroy_step(&mut self) {
            match <Self as ComponentStore>::INFO.destruction {
                Destruction::Callback => {}
                Destruction::Sweep => self.sweep(),
                Destruction::Gc => self.gc(),
            }
        }

        fn collect_all_garbage(&mut self) {
            self.sweep();
        }

        fn garbage(&self) -> usize {
            self.garbage
        }

        fn entity_count(&self) -> usize {
            self.entities.len()
        }

        $(
            fn detach(&mut self, entity: Entity) -> Result<bool, ComponentError> {
                self.entities.check_alive(entity)?;
                Ok(match self.$slot_of(entity) {
                    Some(i) => {
                        self.$destroy(i);
                        true
                    }
                    None => false,
                })
            }
        )?
    };
}
pub(crate) use entity_slot_ops;

/// The [`GarbageSlots`] of a design whose instances sit packed in `0..n` of its `storage`
/// ([`Packed`], [`BufferChain`](super::chain::BufferChain)): slot `i` is instance `i`, garbage
/// when its entity is dead, collected by the design's own `destroy(i)` (which moves the last
/// instance into `i`); the design has the fields `entities`, `storage`, `garbage` and `rng`.
macro_rules! packed_garbage_slots {
    () => {
        fn slot_count(&self) -> usize {
            self.storage.len()
        }

        fn holds_garbage(&self, i: usize) -> bool {
            !self.entities.alive(self.storage.entity(i))
        }

        fn collect(&mut self, i: usize) {
            self.destroy(i);
            self.garbage -= 1;
        }

        fn gc_rng(&mut self) -> &mut GcRng {
            &mut self.rng
        }
    };
}
pub(crate) use packed_garbage_slots;

/// A packed component manager with its entities (see the module doc).
pub struct Packed<F: PackedFlavor> {
    entities: Entities,
    /// Invariant: instances `0..n` packed, each owned by a distinct entity.
    storage: F::Storage,
    /// Invariant: exactly one entry per instance, pointing at it.
    map: F::Map,
    /// Instances whose entity is dead. Invariant: 0 for [`Destruction::Callback`].
    garbage: usize,
    rng: GcRng,
}

impl<F: PackedFlavor> Packed<F> {
    /// The live instance of `entity`, if any (one map read, one entity read). Always inlined:
    /// in the replay's loop over a run of lookups (`lookup_all`) LLVM kept it a call for the
    /// hash-map designs, 105 -> 110 simulated instructions per `comp-lookup` op, where every
    /// other design's lookup got cheaper.
    #[inline(always)]
    fn instance(&self, entity: Entity) -> Option<usize> {
        let i = self.map.get(entity)? as usize;
        (self.storage.entity(i) == entity).then_some(i)
    }

    /// The article's `destroy(i)`: swap-remove and map patch.
    fn destroy(&mut self, i: usize) {
        let entity = self.storage.entity(i);
        if let Some(moved) = self.storage.swap_remove(i) {
            self.map.insert(moved, i as u32);
        }
        self.map.remove(entity);
    }
}

impl<F: PackedFlavor> GarbageSlots for Packed<F> {
    packed_garbage_slots!();
}

impl<F: PackedFlavor> ComponentStore for Packed<F> {
    type Entity = Entity;
    const INFO: ComponentDesignInfo = F::INFO;

    fn new() -> Self {
        Self {
            entities: Entities::default(),
            storage: F::Storage::default(),
            map: F::Map::default(),
            garbage: 0,
            rng: GcRng::new(),
        }
    }

    entity_slot_ops!(slot_of: instance, storage: storage, detach_by: destroy);

    fn kill(&mut self, entity: Entity) -> Result<(), ComponentError> {
        self.entities.destroy(entity)?;
        if let Some(i) = self.instance(entity) {
            if F::INFO.destruction == Destruction::Callback {
                self.destroy(i);
            } else {
                self.garbage += 1;
            }
        }
        Ok(())
    }

    fn attach(&mut self, entity: Entity, init: PointMass) -> Result<(), ComponentError> {
        self.entities.check_alive(entity)?;
        if let Some(i) = self.map.get(entity) {
            let i = i as usize;
            if self.storage.entity(i) == entity {
                return Err(ComponentError::attached(entity));
            }
            // A dead entity's garbage under the same map entry: collect it now.
            self.destroy(i);
            self.garbage -= 1;
        }
        let i = u32::try_from(self.storage.len())
            .ok()
            .filter(|&i| i != u32::MAX)
            .ok_or(ComponentError::IndexSpaceExhausted { what: "instances" })?;
        self.storage.push(entity, init);
        self.map.insert(entity, i);
        Ok(())
    }

    fn visit(&self, f: impl FnMut(&PointMass)) {
        self.storage.for_each(f);
    }

    fn instance_count(&self) -> usize {
        self.storage.len()
    }

    fn memory_bytes(&self) -> usize {
        self.entities.memory_bytes() + self.storage.memory_bytes() + self.map.memory_bytes()
    }

    fn allocator_calls(&self) -> u64 {
        self.entities.allocator_calls()
            + self.storage.allocator_calls()
            + self.map.allocator_calls()
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.entities.check_invariants()?;
        let n = self.storage.len();
        if self.map.len() != n {
            return Err(format!(
                "map has {} entries for {n} instances",
                self.map.len()
            ));
        }
        let mut dead = 0;
        for i in 0..n {
            let e = self.storage.entity(i);
            if self.map.get(e) != Some(i as u32) {
                return Err(format!(
                    "map entry of {e:?} is {:?}, not {i}",
                    self.map.get(e)
                ));
            }
            dead += usize::from(!self.entities.alive(e));
        }
        if dead != self.garbage {
            return Err(format!(
                "{dead} dead instances, garbage count {}",
                self.garbage
            ));
        }
        if F::INFO.destruction == Destruction::Callback && dead != 0 {
            return Err(format!("{dead} dead instances with a destroy callback"));
        }
        Ok(())
    }
}
