//! The store behind seed 004's two object-oriented baselines that keep components inside the
//! game objects ([`oop_objects`](super::oop_objects): a list of boxed components found by a
//! type scan; [`oop_fields`](super::oop_fields): a field per well-known component). Only
//! where the object keeps its point mass differs between them, so that is the one thing each
//! design file says ([`GameObject`]); the entity table, the counts, `simulate` (walk every
//! object, ask it for its point mass) and the accounting are here, once.
//!
//! Layout: the entities are the ID-table family's `holey` table holding the game objects
//! themselves (`Holey<O>`). Killing an object drops its components at once (the
//! destroy-callback strategy); there is never garbage.
//!
//! Scattered boxes: the point masses' boxes come from a [`ScatteredBoxes`] reserve (shared with
//! [`oop_pools`](super::oop_pools)), allocated in batches and handed out in a shuffled order
//! (a fixed seed). Boxed one by one on a fresh heap, as a benchmark's setup does, consecutive
//! objects would sit one after the other in memory, so walking them in order would be a walk
//! through memory in order and `comp-sync-random`'s "random access all over memory" would not
//! be random; a game's heap, allocated over time between other allocations, is not like that.
//! A batch is as many boxes as are live (at least [`MIN_BATCH`], at most [`MAX_BATCH`]), so the
//! scatter spans a region that grows with the store. The reserve's boxes count in
//! `memory_bytes` and their allocation in `allocator_calls` (when the batch is made, not when
//! a box is handed out).

use std::mem::MaybeUninit;

use super::entities::Entity;
use super::{
    ComponentDesignInfo, ComponentError, ComponentStore, PointMass, VectorField, check_instances,
    count_capacity_change,
};
use crate::id_table::IdTable;
use crate::id_table::holey::Holey;

/// A game object's layout: where it keeps its point mass, and what that costs the heap.
pub trait GameObject: Default + 'static {
    /// The design's registry entry.
    const INFO: ComponentDesignInfo;

    /// The object's `GetComponent<PointMass>`.
    fn point_mass(&self) -> Option<&PointMass>;

    /// The same, mutably.
    fn point_mass_mut(&mut self) -> Option<&mut PointMass>;

    /// Gives an object without a point mass the boxed one `init` (from the store's
    /// [`ScatteredBoxes`]); returns the allocator calls it made (any list growth).
    fn attach(&mut self, init: Box<PointMass>) -> u64;

    /// Drops the object's point mass (one box freed); whether it had one.
    fn detach(&mut self) -> bool;

    /// Allocator calls dropping the object makes (its boxes and list buffers).
    fn drop_calls(&self) -> u64;

    /// Heap bytes of the object's component lists (the point-mass box not included).
    fn list_bytes(&self) -> usize;

    /// Point masses the object holds (the invariant: at most one).
    fn point_masses(&self) -> usize;
}

/// Fewest boxes a [`ScatteredBoxes`] allocates at once.
pub const MIN_BATCH: usize = 64;
/// Most boxes a [`ScatteredBoxes`] allocates at once (40-byte point masses: a few MB of heap,
/// past a typical L2).
pub const MAX_BATCH: usize = 1 << 16;

/// Boxes allocated a batch at a time and handed out in a shuffled order, so consecutive boxes
/// are not neighbours in memory (see the [module docs](self)).
pub struct ScatteredBoxes<T> {
    /// Allocated boxes not handed out yet, in shuffled order; handed out from the end.
    #[allow(clippy::vec_box)] // The boxes are the point: each is one heap allocation.
    spare: Vec<Box<MaybeUninit<T>>>,
    /// xorshift64 state of the shuffle: a fixed seed, so runs are alike.
    rng: u64,
}

impl<T> Default for ScatteredBoxes<T> {
    fn default() -> Self {
        Self {
            spare: Vec::new(),
            rng: 0x9E37_79B9_7F4A_7C15,
        }
    }
}

impl<T> ScatteredBoxes<T> {
    /// `value` in the next box of the reserve, allocating a batch of `live.clamp(MIN_BATCH,
    /// MAX_BATCH)` boxes when it is empty (`live`: the boxes of this kind the store holds).
    /// Counts the batch's allocator calls (its boxes and the reserve's growth).
    pub fn boxed(&mut self, value: T, live: usize, calls: &mut u64) -> Box<T> {
        if self.spare.is_empty() {
            self.refill(live.clamp(MIN_BATCH, MAX_BATCH), calls);
        }
        let mut slot = self.spare.pop().expect("refilled above");
        slot.write(value);
        // SAFETY: `write` has just initialised the box's value (`Box::write` does this safely
        // but is newer than the workspace's rust-version).
        unsafe { slot.assume_init() }
    }

    /// Allocates `batch` boxes and shuffles them (Fisher-Yates).
    fn refill(&mut self, batch: usize, calls: &mut u64) {
        let before = self.spare.capacity();
        self.spare.reserve_exact(batch);
        count_capacity_change(before, self.spare.capacity(), calls);
        self.spare.extend((0..batch).map(|_| Box::new_uninit()));
        *calls += batch as u64;
        for i in (1..self.spare.len()).rev() {
            self.rng = crate::xorshift::step(self.rng);
            self.spare.swap(i, (self.rng % (i as u64 + 1)) as usize);
        }
    }

    /// Heap bytes of the reserve: its list and its boxes.
    pub fn memory_bytes(&self) -> usize {
        self.spare.capacity() * size_of::<Box<MaybeUninit<T>>>() + self.spare.len() * size_of::<T>()
    }
}

/// Inserts a new game object into the objects' `holey` table (the OOP designs' `spawn`),
/// counting a growth of the table as one allocator call.
///
/// # Errors
/// [`ComponentError::IndexSpaceExhausted`].
pub(super) fn spawn_object<T: 'static>(
    objects: &mut Holey<T>,
    object: T,
    calls: &mut u64,
) -> Result<Entity, ComponentError> {
    let before = objects.memory_bytes();
    let entity = objects
        .insert(object)
        .map_err(|_| ComponentError::IndexSpaceExhausted { what: "entities" })?;
    count_capacity_change(before, objects.memory_bytes(), calls);
    Ok(entity)
}

/// Game objects of layout `O` in a holey table.
pub struct GameObjects<O> {
    /// Invariant: exactly `instances` objects hold a point mass, none holds two.
    objects: Holey<O>,
    instances: usize,
    /// Where the point masses' boxes come from.
    boxes: ScatteredBoxes<PointMass>,
    /// Allocator calls: every component box and list growth or release, plus the table's
    /// growth.
    allocator_calls: u64,
}

impl<O: GameObject> GameObjects<O> {
    fn object(&self, entity: Entity) -> Result<&O, ComponentError> {
        self.objects
            .get(entity)
            .ok_or_else(|| ComponentError::dead(entity))
    }

    fn object_mut(&mut self, entity: Entity) -> Result<&mut O, ComponentError> {
        self.objects
            .get_mut(entity)
            .ok_or_else(|| ComponentError::dead(entity))
    }
}

impl<O: GameObject> ComponentStore for GameObjects<O> {
    type Entity = Entity;
    const INFO: ComponentDesignInfo = O::INFO;

    fn new() -> Self {
        Self {
            objects: Holey::new(),
            instances: 0,
            boxes: ScatteredBoxes::default(),
            allocator_calls: 0,
        }
    }

    fn spawn(&mut self) -> Result<Entity, ComponentError> {
        spawn_object(&mut self.objects, O::default(), &mut self.allocator_calls)
    }

    fn kill(&mut self, entity: Entity) -> Result<(), ComponentError> {
        let object = self
            .objects
            .remove(entity)
            .ok_or_else(|| ComponentError::dead(entity))?;
        if object.point_mass().is_some() {
            self.instances -= 1;
        }
        self.allocator_calls += object.drop_calls();
        Ok(())
    }

    fn attach(&mut self, entity: Entity, init: PointMass) -> Result<(), ComponentError> {
        if self.object(entity)?.point_mass().is_some() {
            return Err(ComponentError::attached(entity));
        }
        let boxed = self
            .boxes
            .boxed(init, self.instances, &mut self.allocator_calls);
        let calls = self.object_mut(entity)?.attach(boxed);
        self.instances += 1;
        self.allocator_calls += calls;
        Ok(())
    }

    fn detach(&mut self, entity: Entity) -> Result<bool, ComponentError> {
        let found = self.object_mut(entity)?.detach();
        if found {
            self.instances -= 1;
            self.allocator_calls += 1;
        }
        Ok(found)
    }

    #[inline(always)]
    fn position(&self, entity: Entity) -> Result<Option<[f32; 3]>, ComponentError> {
        Ok(self.object(entity)?.point_mass().map(|m| m.position))
    }

    #[inline(always)]
    fn write(
        &mut self,
        entity: Entity,
        field: VectorField,
        value: [f32; 3],
    ) -> Result<bool, ComponentError> {
        Ok(match self.object_mut(entity)?.point_mass_mut() {
            Some(m) => {
                *field.of(m) = value;
                true
            }
            None => false,
        })
    }

    /// Walks every object of the table and asks it for its point mass.
    fn simulate(&mut self, dt: f32) {
        for object in self.objects.iter_mut() {
            if let Some(m) = object.point_mass_mut() {
                PointMass::step(&mut m.position, &mut m.velocity, &m.acceleration, dt);
            }
        }
    }

    fn visit(&self, mut f: impl FnMut(&PointMass)) {
        for object in self.objects.iter() {
            if let Some(m) = object.point_mass() {
                f(m);
            }
        }
    }

    fn entity_count(&self) -> usize {
        self.objects.len()
    }

    fn instance_count(&self) -> usize {
        self.instances
    }

    /// The table (objects inline), each object's component lists, the point-mass boxes and
    /// the reserve of boxes.
    fn memory_bytes(&self) -> usize {
        self.objects.memory_bytes()
            + self.objects.iter().map(O::list_bytes).sum::<usize>()
            + self.instances * size_of::<PointMass>()
            + self.boxes.memory_bytes()
    }

    fn allocator_calls(&self) -> u64 {
        self.allocator_calls
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.objects.check_invariants()?;
        let mut total = 0;
        for object in self.objects.iter() {
            let held = object.point_masses();
            if held > 1 {
                return Err(format!("an object holds {held} point masses"));
            }
            total += held;
        }
        check_instances(total, self.instances)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::components::oop_fields::OopFields;
    use crate::components::oop_objects::OopObjects;
    use crate::components::oop_pools::OopPools;

    /// The share of consecutive instances (in `visit` order: spawn order for the game objects,
    /// pool order for the pool) whose addresses differ by the most common difference: the
    /// object's heap stride when boxes were allocated one after the other (a box, plus the
    /// component list's buffer for `oop_objects`), rare when they are scattered.
    fn regular_stride_share<S: ComponentStore>() -> f64 {
        let mut store = S::new();
        // `comp-sync`'s setup: spawn and attach, one entity after the other, on a fresh store.
        for i in 0..4000 {
            let e = store.spawn().unwrap();
            let mass = PointMass {
                mass: i as f32,
                ..PointMass::default()
            };
            store.attach(e, mass).unwrap();
        }
        let mut addresses = Vec::with_capacity(4000);
        store.visit(|m| addresses.push(std::ptr::from_ref(m) as isize));
        assert_eq!(addresses.len(), 4000);
        let mut diffs: Vec<isize> = addresses.windows(2).map(|w| w[1] - w[0]).collect();
        diffs.sort_unstable();
        let most_common = diffs
            .chunk_by(|a, b| a == b)
            .map(<[isize]>::len)
            .max()
            .unwrap_or(0);
        most_common as f64 / diffs.len() as f64
    }

    /// Boxes allocated in order on a fresh heap land one after the other, so the OOP baselines
    /// would walk memory in order (`comp-sync-random`'s "random access all over memory" would
    /// be a walk in order); the scattered reserve must break that for most pairs.
    #[test]
    fn consecutive_boxes_are_not_neighbours() {
        for (name, share) in [
            ("oop_objects", regular_stride_share::<OopObjects>()),
            ("oop_fields", regular_stride_share::<OopFields>()),
            ("oop_pools", regular_stride_share::<OopPools>()),
        ] {
            println!(
                "{name}: {:.1}% of consecutive boxes one stride apart",
                100.0 * share
            );
            assert!(
                share < 0.1,
                "{name}: {:.0}% of consecutive boxes one stride apart",
                100.0 * share
            );
        }
    }
}
