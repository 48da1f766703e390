//! The four fields of a [`PointMass`], one array each: the structure-of-arrays layout the
//! article starts from ("use an Array for each component"), shared by `five_vecs`, which packs
//! the instances, and `direct_tuned`, which indexes them by entity index. A design keeps its
//! own owner array (entities or generations) beside these and counts their capacity changes
//! with its own.

use super::{PointMass, VectorField};

/// One `Vec` per field. Invariant: all four have the same length.
#[derive(Debug, Default, Clone)]
pub(super) struct Columns {
    mass: Vec<f32>,
    position: Vec<[f32; 3]>,
    velocity: Vec<[f32; 3]>,
    acceleration: Vec<[f32; 3]>,
}

impl Columns {
    /// The four capacities, in field order.
    pub(super) fn capacities(&self) -> [usize; 4] {
        [
            self.mass.capacity(),
            self.position.capacity(),
            self.velocity.capacity(),
            self.acceleration.capacity(),
        ]
    }

    /// Bytes the four arrays hold (their capacities).
    pub(super) fn capacity_bytes(&self) -> usize {
        let [m, p, v, a] = self.capacities();
        m * size_of::<f32>() + (p + v + a) * size_of::<[f32; 3]>()
    }

    /// The four lengths, in field order (equal while the invariant holds).
    pub(super) fn lens(&self) -> [usize; 4] {
        [
            self.mass.len(),
            self.position.len(),
            self.velocity.len(),
            self.acceleration.len(),
        ]
    }

    pub(super) fn push(&mut self, value: PointMass) {
        self.mass.push(value.mass);
        self.position.push(value.position);
        self.velocity.push(value.velocity);
        self.acceleration.push(value.acceleration);
    }

    pub(super) fn swap_remove(&mut self, i: usize) {
        self.mass.swap_remove(i);
        self.position.swap_remove(i);
        self.velocity.swap_remove(i);
        self.acceleration.swap_remove(i);
    }

    /// Lengthens (or shortens) every array to `len`, new slots zero.
    pub(super) fn resize(&mut self, len: usize) {
        self.mass.resize(len, 0.0);
        self.position.resize(len, [0.0; 3]);
        self.velocity.resize(len, [0.0; 3]);
        self.acceleration.resize(len, [0.0; 3]);
    }

    pub(super) fn set(&mut self, i: usize, value: &PointMass) {
        self.mass[i] = value.mass;
        self.position[i] = value.position;
        self.velocity[i] = value.velocity;
        self.acceleration[i] = value.acceleration;
    }

    pub(super) fn get(&self, i: usize) -> PointMass {
        PointMass {
            mass: self.mass[i],
            position: self.position[i],
            velocity: self.velocity[i],
            acceleration: self.acceleration[i],
        }
    }

    #[inline(always)]
    pub(super) fn position(&self, i: usize) -> [f32; 3] {
        self.position[i]
    }

    #[inline(always)]
    pub(super) fn write(&mut self, i: usize, field: VectorField, value: [f32; 3]) {
        match field {
            VectorField::Position => self.position[i] = value,
            VectorField::Velocity => self.velocity[i] = value,
        }
    }

    /// One simulation step of every slot ([`PointMass::step_all`]).
    pub(super) fn simulate(&mut self, dt: f32) {
        PointMass::step_all(
            &mut self.position,
            &mut self.velocity,
            &self.acceleration,
            dt,
        );
    }
}
