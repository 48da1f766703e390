//! The article's layout: every field of every instance in **one buffer**, as SoA arrays
//! (entity, mass, position, velocity, acceleration) at offsets of one allocation, reallocated
//! as a whole when full ("we only have a single allocation to keep track of").
//!
//! Layout of the `Vec<f32>` buffer for capacity `cap` (12 words = 48 bytes per instance; the
//! article's 44 with a 32-bit entity, ours is 64-bit): entity indices `[0, cap)` and
//! generations `[cap, 2cap)` as bit patterns, masses `[2cap, 3cap)`, positions `[3cap, 6cap)`,
//! velocities `[6cap, 9cap)`, accelerations `[9cap, 12cap)`, each vector as x, y, z. Growth
//! doubles the capacity (at least 16): one new allocation, five region copies, the old buffer
//! freed (counted as one allocator call, like a `Vec` growth).
//!
//! Designs here (the three maps are the article's; the destruction strategies its GC, its
//! destroy callback, and a full sweep):
//! * [`BufferHash`] (`buffer_hash`): hash map, GC. The article's recommendation.
//! * [`BufferVecMap`] (`buffer_vecmap`): `Vec<u32>` map, GC.
//! * [`BufferHashCallback`] (`buffer_hash_callback`): hash map, destroy callback.
//! * [`BufferHashSweep`] (`buffer_hash_sweep`): hash map, a full sweep every frame.
//!
//! The direct-index map is [`super::direct`] (the same buffer, indexed by entity).

use super::entities::{Entity, NO_ENTITY};
use super::maps::{HashIndex, VecMap};
use super::packed::{InstanceStorage, packed_designs};
use super::{PointMass, VectorField};
use crate::id::Id64;

/// Words per instance in the buffer.
const WORDS: usize = 12;

/// The single buffer of SoA arrays (see the module doc).
#[derive(Debug, Default, Clone)]
pub struct SingleBuffer {
    /// `WORDS * cap` words. Invariant: `buffer.len() == WORDS * cap`.
    buffer: Vec<f32>,
    cap: usize,
    /// Instances in use, `<= cap`.
    n: usize,
    allocator_calls: u64,
}

impl SingleBuffer {
    /// Capacity in instances.
    pub fn capacity(&self) -> usize {
        self.cap
    }

    /// The article's `allocate(sz)`: a new buffer of `sz` instances, regions copied, the old
    /// buffer freed (two allocator calls, one for the first buffer).
    fn allocate(&mut self, sz: usize) {
        debug_assert!(sz >= self.n);
        let mut next = vec![0.0f32; WORDS * sz];
        let (old, n) = (self.cap, self.n);
        for (region, width) in [(0, 1), (1, 1), (2, 1), (3, 3), (6, 3), (9, 3)] {
            let from = region * old;
            let to = region * sz;
            next[to..to + width * n].copy_from_slice(&self.buffer[from..from + width * n]);
        }
        let old_buffer = std::mem::replace(&mut self.buffer, next);
        self.allocator_calls += 1 + u64::from(old_buffer.capacity() > 0);
        self.cap = sz;
    }

    /// Grows (doubling, at least 16) so that `len` instances fit.
    pub fn reserve_for(&mut self, len: usize) {
        if len > self.cap {
            self.allocate(len.max(2 * self.cap).max(16));
        }
    }

    /// Sets the used length to `len <= cap` (slots past the old length keep what they hold).
    pub fn set_len(&mut self, len: usize) {
        debug_assert!(len <= self.cap);
        self.n = len;
    }

    /// Writes instance `i` (any `i < cap`).
    #[inline]
    pub fn put(&mut self, i: usize, entity: Entity, value: &PointMass) {
        self.set_entity(i, entity);
        let cap = self.cap;
        self.buffer[2 * cap + i] = value.mass;
        for k in 0..3 {
            self.buffer[3 * cap + 3 * i + k] = value.position[k];
            self.buffer[6 * cap + 3 * i + k] = value.velocity[k];
            self.buffer[9 * cap + 3 * i + k] = value.acceleration[k];
        }
    }

    /// Writes instance `i`'s entity.
    #[inline]
    pub fn set_entity(&mut self, i: usize, entity: Entity) {
        self.buffer[i] = f32::from_bits(entity.index());
        self.buffer[self.cap + i] = f32::from_bits(entity.generation());
    }

    /// Appends one instance per entity of `entities`, at rest: instance `k` has mass
    /// `masses[k]`, position `positions[k]`, zero velocity and acceleration. The same state as
    /// a `push` per instance, written as one copy per region (grows once, doubling as `push`).
    ///
    /// # Panics
    /// If the three slices differ in length.
    pub fn push_run_at_rest(
        &mut self,
        entities: &[Entity],
        masses: &[f32],
        positions: &[[f32; 3]],
    ) {
        let len = entities.len();
        assert!(
            masses.len() == len && positions.len() == len,
            "one mass and one position per entity"
        );
        let start = self.n;
        self.reserve_for(start + len);
        let (cap, end) = (self.cap, start + len);
        let region = |r: usize, width: usize| r * cap + width * start..r * cap + width * end;
        let buffer = &mut self.buffer;
        for (slot, e) in buffer[region(0, 1)].iter_mut().zip(entities) {
            *slot = f32::from_bits(e.index());
        }
        for (slot, e) in buffer[region(1, 1)].iter_mut().zip(entities) {
            *slot = f32::from_bits(e.generation());
        }
        buffer[region(2, 1)].copy_from_slice(masses);
        buffer[region(3, 3)].copy_from_slice(positions.as_flattened());
        buffer[region(6, 3)].fill(0.0);
        buffer[region(9, 3)].fill(0.0);
        self.n = end;
    }

    fn copy(&mut self, from: usize, to: usize) {
        let cap = self.cap;
        for (region, width) in [(0, 1), (1, 1), (2, 1), (3, 3), (6, 3), (9, 3)] {
            let base = region * cap;
            self.buffer.copy_within(
                base + width * from..base + width * (from + 1),
                base + width * to,
            );
        }
    }
}

impl InstanceStorage for SingleBuffer {
    #[inline]
    fn len(&self) -> usize {
        self.n
    }

    fn push(&mut self, entity: Entity, value: PointMass) {
        self.reserve_for(self.n + 1);
        self.put(self.n, entity, &value);
        self.n += 1;
    }

    fn swap_remove(&mut self, i: usize) -> Option<Entity> {
        let last = self.n - 1;
        self.n = last;
        if i == last {
            return None;
        }
        self.copy(last, i);
        Some(self.entity(i))
    }

    #[inline]
    fn entity(&self, i: usize) -> Entity {
        Id64::new(
            self.buffer[i].to_bits(),
            self.buffer[self.cap + i].to_bits(),
        )
    }

    fn get(&self, i: usize) -> PointMass {
        let cap = self.cap;
        let v = |region: usize| {
            let at = region * 3 * cap + 3 * i;
            [self.buffer[at], self.buffer[at + 1], self.buffer[at + 2]]
        };
        PointMass {
            mass: self.buffer[2 * cap + i],
            position: v(1),
            velocity: v(2),
            acceleration: v(3),
        }
    }

    #[inline]
    fn position(&self, i: usize) -> [f32; 3] {
        let at = 3 * self.cap + 3 * i;
        [self.buffer[at], self.buffer[at + 1], self.buffer[at + 2]]
    }

    #[inline]
    fn write(&mut self, i: usize, field: VectorField, value: [f32; 3]) {
        let region = match field {
            VectorField::Position => 3,
            VectorField::Velocity => 6,
        };
        let at = region * self.cap + 3 * i;
        self.buffer[at..at + 3].copy_from_slice(&value);
    }

    fn simulate(&mut self, dt: f32) {
        let (cap, n) = (self.cap, self.n);
        let (front, acc) = self.buffer.split_at_mut(9 * cap);
        let (front, vel) = front.split_at_mut(6 * cap);
        let pos = &mut front[3 * cap..];
        for ((p, v), a) in pos[..3 * n]
            .chunks_exact_mut(3)
            .zip(vel[..3 * n].chunks_exact_mut(3))
            .zip(acc[..3 * n].chunks_exact(3))
        {
            let p: &mut [f32; 3] = p.try_into().expect("chunks of 3");
            let v: &mut [f32; 3] = v.try_into().expect("chunks of 3");
            let a: &[f32; 3] = a.try_into().expect("chunks of 3");
            PointMass::step(p, v, a, dt);
        }
    }

    fn memory_bytes(&self) -> usize {
        self.buffer.capacity() * size_of::<f32>()
    }

    fn allocator_calls(&self) -> u64 {
        self.allocator_calls
    }
}

impl SingleBuffer {
    /// Marks slot `i` free (direct-index layout): no entity, all fields zero (so simulating
    /// the hole keeps it at zero).
    pub fn clear(&mut self, i: usize) {
        self.put(i, NO_ENTITY, &PointMass::default());
    }
}

packed_designs! {
    /// One buffer, hash map, GC: the article's recommended design.
    BufferHash = BufferHashFlavor(SingleBuffer, HashIndex, Gc, Article, "buffer_hash")
        "the article's design: one buffer of SoA arrays, HashMap<Entity, u32> map, GC (random sampling, stop after 4 alive in a row)";
    /// One buffer, `Vec<u32>` map, GC.
    BufferVecMap = BufferVecMapFlavor(SingleBuffer, VecMap, Gc, Article, "buffer_vecmap")
        "the article's Array<unsigned> map: one buffer of SoA arrays, Vec<u32> indexed by entity index (holes in the map only), GC";
    /// One buffer, hash map, destroy callback.
    BufferHashCallback = BufferHashCallbackFlavor(SingleBuffer, HashIndex, Callback, Article, "buffer_hash_callback")
        "buffer_hash with the article's destroy callback: killing an entity swap-removes its instance at once (no garbage)";
    /// One buffer, hash map, full sweep per frame.
    BufferHashSweep = BufferHashSweepFlavor(SingleBuffer, HashIndex, Sweep, Tuned, "buffer_hash_sweep")
        "buffer_hash with a full sweep per frame instead of the GC: every instance's entity checked each destroy step (no garbage after a step, O(n) per frame)";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_at_rest_is_a_push_per_instance() {
        let mut run = SingleBuffer::default();
        let mut one_by_one = SingleBuffer::default();
        let moving = PointMass {
            mass: 1.0,
            position: [1.0, 2.0, 3.0],
            velocity: [4.0, 5.0, 6.0],
            acceleration: [7.0, 8.0, 9.0],
        };
        run.push(Id64::new(100, 1), moving);
        one_by_one.push(Id64::new(100, 1), moving);
        // 20 more: the run grows past the first 16-instance buffer, as the pushes do.
        let entities: Vec<Entity> = (0..20).map(|i| Id64::new(i, i + 3)).collect();
        let masses: Vec<f32> = (0..20).map(|i| i as f32 + 0.5).collect();
        let positions: Vec<[f32; 3]> = (0..20).map(|i| [i as f32, -1.0, 2.0]).collect();
        run.push_run_at_rest(&entities, &masses, &positions);
        for k in 0..20 {
            let at_rest = PointMass {
                mass: masses[k],
                position: positions[k],
                ..PointMass::default()
            };
            one_by_one.push(entities[k], at_rest);
        }
        assert_eq!(run.len(), 21);
        assert_eq!(run.capacity(), one_by_one.capacity());
        for i in 0..21 {
            assert_eq!(run.entity(i), one_by_one.entity(i));
            assert_eq!(run.get(i), one_by_one.get(i));
        }
    }
}
