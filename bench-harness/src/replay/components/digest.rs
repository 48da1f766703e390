//! What a component replay puts into a store and reads back, the same for every design: the
//! point masses and velocities made from the ops' seeds ([`point_mass`], [`velocity`]) and the
//! one step [`DT`] of every `Simulate`; the digest of what the timed ops observed
//! ([`ComponentDigest`], each found lookup mixed by [`mix_lookup`]); and the order-independent
//! hash of the state after them ([`state_of`], [`StateHash`]).

use impls::components::PointMass;
use serde::{Deserialize, Serialize};
use workloads::components::{ComponentOp, EntityHandle};

use crate::replay::contract::ReplayDigest;
use crate::replay::glue::merge_fields;

/// The `dt` of every `Simulate`: 1/64, exact in binary.
pub const DT: f32 = 1.0 / 64.0;

/// A field value from 8 bits of a seed: `byte / 16 - 8`, exact, in `-8..8`.
fn field(seed: u32, shift: u32) -> f32 {
    f32::from((seed >> shift) as u8) / 16.0 - 8.0
}

/// The point mass an `Attach` with this seed creates.
pub fn point_mass(seed: u32) -> PointMass {
    PointMass {
        mass: 1.0 + f32::from(seed as u8) / 16.0,
        position: [field(seed, 0), field(seed, 8), field(seed, 16)],
        velocity: [field(seed, 24), field(seed, 4), field(seed, 12)],
        acceleration: [field(seed, 20), field(seed, 28), field(seed, 2)],
    }
}

/// The velocity a `Write` with this seed sets.
pub fn velocity(seed: u32) -> [f32; 3] {
    [field(seed, 0), field(seed, 8), field(seed, 16)]
}

/// A 64-bit hash of an instance's bit patterns (FNV-1a over the ten 32-bit words).
pub fn state_of(m: &PointMass) -> u64 {
    m.bits().iter().fold(0xCBF2_9CE4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3)
    })
}

/// The order-independent hash of a set of live instances (the state digest): a wrapping sum
/// of [`state_of`] with the count folded in.
#[derive(Debug, Default)]
pub struct StateHash {
    sum: u64,
    count: u64,
}

impl StateHash {
    /// Adds one instance.
    pub fn add(&mut self, m: &PointMass) {
        self.sum = self.sum.wrapping_add(state_of(m));
        self.count += 1;
    }

    /// The hash of the instances added.
    pub fn finish(&self) -> u64 {
        self.sum ^ self.count.rotate_left(40)
    }
}

/// Mixes a lookup answer (handle, position) into a digest sum.
#[inline(always)]
pub(super) fn mix_lookup(handle: EntityHandle, p: [f32; 3]) -> u64 {
    let bits = u64::from(p[0].to_bits())
        ^ u64::from(p[1].to_bits()).rotate_left(21)
        ^ u64::from(p[2].to_bits()).rotate_left(42);
    bits ^ u64::from(handle).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Everything a component replay observed, as counts and wrapping sums.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ComponentDigest {
    /// `Lookup` ops that found a point mass.
    pub lookups_found: u64,
    /// Wrapping sum of [`mix_lookup`] over every found lookup.
    pub lookup_sum: u64,
    /// `Write` ops that found a point mass.
    pub writes_found: u64,
    /// `Detach` ops that found a point mass.
    pub detaches_found: u64,
    /// Live instances updated by all `Simulate` ops (read from the store before each).
    pub simulated: u64,
    /// `CopyPosition` ops whose both entities had a point mass (so a position was copied).
    #[serde(default)]
    pub copies_done: u64,
}

impl ReplayDigest<ComponentOp> for ComponentDigest {
    fn merge(&mut self, later: &ComponentDigest) {
        merge_fields!(
            self,
            later,
            add: [lookups_found, writes_found, detaches_found, simulated, copies_done],
            wrapping: [lookup_sum],
        );
    }

    /// One per op but `Simulate` (one per live instance it updated), as
    /// `ComponentStats::work_units` counts them.
    fn work_units(&self, ops: &[ComponentOp]) -> u64 {
        let single = ops
            .iter()
            .filter(|op| !matches!(op, ComponentOp::Simulate))
            .count() as u64;
        single + self.simulated
    }
}
