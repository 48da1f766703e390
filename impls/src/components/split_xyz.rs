//! The article's suggested further step (not built there): "put each x, y and z component of
//! a Vector3 into its own array" for SIMD, here as eleven `Vec`s (entity, mass, and x, y, z of
//! position, velocity, acceleration), with the hash map and GC of
//! [`super::single_buffer::BufferHash`].
//!
//! Trade-off: `simulate` becomes nine streams of `f32` that the compiler can vectorise across
//! instances (same per-instance operations and order, so bit-identical results); a lookup
//! touches three cache lines per vector field instead of one; eleven allocations.

use super::entities::Entity;
use super::maps::HashIndex;
use super::packed::{InstanceStorage, packed_designs};
use super::{PointMass, VectorField, count_capacity_change};

/// Eleven `Vec`s. Invariant: all have the same length.
#[derive(Debug, Default, Clone)]
pub struct SplitXyz {
    entity: Vec<Entity>,
    mass: Vec<f32>,
    /// `position[k][i]` is axis `k` of instance `i`; likewise velocity and acceleration.
    position: [Vec<f32>; 3],
    velocity: [Vec<f32>; 3],
    acceleration: [Vec<f32>; 3],
    allocator_calls: u64,
}

impl SplitXyz {
    fn capacity_sum(&self) -> [usize; 11] {
        let mut out = [0; 11];
        out[0] = self.entity.capacity();
        out[1] = self.mass.capacity();
        for k in 0..3 {
            out[2 + k] = self.position[k].capacity();
            out[5 + k] = self.velocity[k].capacity();
            out[8 + k] = self.acceleration[k].capacity();
        }
        out
    }
}

impl InstanceStorage for SplitXyz {
    #[inline]
    fn len(&self) -> usize {
        self.entity.len()
    }

    fn push(&mut self, entity: Entity, value: PointMass) {
        let before = self.capacity_sum();
        self.entity.push(entity);
        self.mass.push(value.mass);
        for k in 0..3 {
            self.position[k].push(value.position[k]);
            self.velocity[k].push(value.velocity[k]);
            self.acceleration[k].push(value.acceleration[k]);
        }
        for (b, a) in before.into_iter().zip(self.capacity_sum()) {
            count_capacity_change(b, a, &mut self.allocator_calls);
        }
    }

    fn swap_remove(&mut self, i: usize) -> Option<Entity> {
        self.entity.swap_remove(i);
        self.mass.swap_remove(i);
        for k in 0..3 {
            self.position[k].swap_remove(i);
            self.velocity[k].swap_remove(i);
            self.acceleration[k].swap_remove(i);
        }
        self.entity.get(i).copied()
    }

    #[inline]
    fn entity(&self, i: usize) -> Entity {
        self.entity[i]
    }

    fn get(&self, i: usize) -> PointMass {
        PointMass {
            mass: self.mass[i],
            position: [0, 1, 2].map(|k| self.position[k][i]),
            velocity: [0, 1, 2].map(|k| self.velocity[k][i]),
            acceleration: [0, 1, 2].map(|k| self.acceleration[k][i]),
        }
    }

    #[inline]
    fn position(&self, i: usize) -> [f32; 3] {
        [
            self.position[0][i],
            self.position[1][i],
            self.position[2][i],
        ]
    }

    #[inline]
    fn write(&mut self, i: usize, field: VectorField, value: [f32; 3]) {
        let arrays = match field {
            VectorField::Position => &mut self.position,
            VectorField::Velocity => &mut self.velocity,
        };
        for (k, v) in value.into_iter().enumerate() {
            arrays[k][i] = v;
        }
    }

    /// Per axis: `v += a * dt` over all instances, then `p += v * dt`: per instance the same
    /// operations as [`PointMass::step`] (the axes are independent).
    fn simulate(&mut self, dt: f32) {
        for k in 0..3 {
            for (v, a) in self.velocity[k].iter_mut().zip(&self.acceleration[k]) {
                *v += a * dt;
            }
            for (p, v) in self.position[k].iter_mut().zip(&self.velocity[k]) {
                *p += v * dt;
            }
        }
    }

    fn memory_bytes(&self) -> usize {
        let caps = self.capacity_sum();
        caps[0] * size_of::<Entity>() + caps[1..].iter().sum::<usize>() * size_of::<f32>()
    }

    fn allocator_calls(&self) -> u64 {
        self.allocator_calls
    }
}

packed_designs! {
    /// x/y/z split arrays, hash map, GC.
    SplitXyzHash = SplitXyzHashFlavor(SplitXyz, HashIndex, Gc, Tuned, "split_xyz_hash")
        "the article's SIMD suggestion: x, y, z of every vector in its own array (eleven Vecs), hash map, GC";
}
