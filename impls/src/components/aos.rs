//! Ablation: array of structures, one `Vec<(Entity, PointMass)>` (48 bytes per instance), with
//! the hash map and GC of [`super::single_buffer::BufferHash`].
//!
//! Trade-off: one allocation like the single buffer and whole instances together (a lookup
//! touches one cache line), but `simulate`, which reads velocity and acceleration and writes
//! velocity and position, drags the entity and mass through the cache too (40 of 48 bytes
//! used): the layout the article's SoA advice is against.

use super::entities::Entity;
use super::maps::HashIndex;
use super::packed::{InstanceStorage, packed_designs};
use super::{PointMass, VectorField, count_capacity_change};

/// One `Vec` of whole instances.
#[derive(Debug, Default, Clone)]
pub struct Aos {
    instances: Vec<(Entity, PointMass)>,
    allocator_calls: u64,
}

impl InstanceStorage for Aos {
    #[inline]
    fn len(&self) -> usize {
        self.instances.len()
    }

    fn push(&mut self, entity: Entity, value: PointMass) {
        let before = self.instances.capacity();
        self.instances.push((entity, value));
        count_capacity_change(before, self.instances.capacity(), &mut self.allocator_calls);
    }

    fn swap_remove(&mut self, i: usize) -> Option<Entity> {
        self.instances.swap_remove(i);
        self.instances.get(i).map(|x| x.0)
    }

    #[inline]
    fn entity(&self, i: usize) -> Entity {
        self.instances[i].0
    }

    fn get(&self, i: usize) -> PointMass {
        self.instances[i].1
    }

    #[inline]
    fn position(&self, i: usize) -> [f32; 3] {
        self.instances[i].1.position
    }

    #[inline]
    fn write(&mut self, i: usize, field: VectorField, value: [f32; 3]) {
        *field.of(&mut self.instances[i].1) = value;
    }

    fn simulate(&mut self, dt: f32) {
        for (_, m) in &mut self.instances {
            PointMass::step(&mut m.position, &mut m.velocity, &m.acceleration, dt);
        }
    }

    fn memory_bytes(&self) -> usize {
        self.instances.capacity() * size_of::<(Entity, PointMass)>()
    }

    fn allocator_calls(&self) -> u64 {
        self.allocator_calls
    }
}

packed_designs! {
    /// AoS, hash map, GC.
    AosHash = AosHashFlavor(Aos, HashIndex, Gc, Tuned, "aos_hash")
        "ablation of buffer_hash: array of structures Vec<(Entity, PointMass)> instead of SoA (same map, same GC)";
}
