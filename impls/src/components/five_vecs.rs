//! The article's first layout, which it improves on: "use an Array for each component",
//! **five separately allocated** `Vec`s (entity, mass, position, velocity, acceleration), with
//! the hash map and GC of [`super::single_buffer::BufferHash`], so the pair isolates one
//! buffer vs five.
//!
//! Trade-off: the same SoA access pattern; five allocations (and five capacity doublings) where
//! the single buffer makes one, and each `Vec` keeps its own length and capacity ("hidden
//! overheads" in the article's words).

use super::columns::Columns;
use super::entities::Entity;
use super::maps::HashIndex;
use super::packed::{InstanceStorage, packed_designs};
use super::{PointMass, VectorField, count_capacity_change};

/// Five `Vec`s: the entities and the four field [`Columns`]. Invariant: all five have the same
/// length.
#[derive(Debug, Default, Clone)]
pub struct FiveVecs {
    entity: Vec<Entity>,
    fields: Columns,
    allocator_calls: u64,
}

impl FiveVecs {
    fn capacities(&self) -> [usize; 5] {
        let [m, p, v, a] = self.fields.capacities();
        [self.entity.capacity(), m, p, v, a]
    }
}

impl InstanceStorage for FiveVecs {
    #[inline]
    fn len(&self) -> usize {
        self.entity.len()
    }

    fn push(&mut self, entity: Entity, value: PointMass) {
        let before = self.capacities();
        self.entity.push(entity);
        self.fields.push(value);
        for (b, a) in before.into_iter().zip(self.capacities()) {
            count_capacity_change(b, a, &mut self.allocator_calls);
        }
    }

    fn swap_remove(&mut self, i: usize) -> Option<Entity> {
        self.entity.swap_remove(i);
        self.fields.swap_remove(i);
        self.entity.get(i).copied()
    }

    #[inline]
    fn entity(&self, i: usize) -> Entity {
        self.entity[i]
    }

    fn get(&self, i: usize) -> PointMass {
        self.fields.get(i)
    }

    #[inline]
    fn position(&self, i: usize) -> [f32; 3] {
        self.fields.position(i)
    }

    #[inline]
    fn write(&mut self, i: usize, field: VectorField, value: [f32; 3]) {
        self.fields.write(i, field, value);
    }

    fn simulate(&mut self, dt: f32) {
        self.fields.simulate(dt);
    }

    fn memory_bytes(&self) -> usize {
        self.entity.capacity() * size_of::<Entity>() + self.fields.capacity_bytes()
    }

    fn allocator_calls(&self) -> u64 {
        self.allocator_calls
    }
}

packed_designs! {
    /// Five `Vec`s, hash map, GC.
    FiveVecsHash = FiveVecsHashFlavor(FiveVecs, HashIndex, Gc, Article, "five_vecs_hash")
        "ablation of buffer_hash: five separately allocated Vecs instead of one buffer (same map, same GC)";
}
