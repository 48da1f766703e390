//! Published ECS crates behind thin [`ComponentStore`](super::ComponentStore) adapters. Each
//! uses its own entities (the replayer's handle map holds them, as it holds ours) and destroys
//! a killed entity's component at once (their despawn is the destroy callback). `bevy_ecs`
//! is behind the `bevy` cargo feature (off by default; `cargo bench -p dodbench --features
//! bevy` adds its two designs).
//!
//! Each is used as its documentation shows, so a result measures the crate, not the adapter:
//! the point mass is four components ([`Position`], [`Velocity`], [`Acceleration`], [`Mass`],
//! as an ECS user declares them), `simulate` is a query over the three it needs, an entity
//! attached at spawn is spawned with its bundle ([`ComponentStore::spawn_with`]), and a run of
//! lookups, writes or position copies borrows its storage once
//! ([`ComponentStore::read_positions`], [`ComponentStore::write_velocities`],
//! [`ComponentStore::copy_positions`]: the position storage borrowed mutably, a copy's
//! source read and copied out before its target is written), as a system does. The adapter's
//! own cost shows as the `overhead` of the replay over `ref-direct-<peer>`, a loop calling the
//! crate directly on the same world, on every body the adapter's replay runs
//! (`bench-harness/src/replay/components/reference.rs`, `reference_simulate.rs` and
//! `reference_mixed.rs`).
//!
//! [`ComponentStore::spawn_with`]: super::ComponentStore::spawn_with
//! [`ComponentStore::read_positions`]: super::ComponentStore::read_positions
//! [`ComponentStore::write_velocities`]: super::ComponentStore::write_velocities
//! [`ComponentStore::copy_positions`]: super::ComponentStore::copy_positions

#[cfg(feature = "bevy")]
pub mod bevy;
pub mod hecs;
pub mod shipyard;
pub mod specs;

use super::PointMass;

/// [`PointMass::position`] as a component (hecs, shipyard; specs and bevy declare their own
/// per storage).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Position(pub [f32; 3]);

/// [`PointMass::velocity`] as a component.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Velocity(pub [f32; 3]);

/// [`PointMass::acceleration`] as a component.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Acceleration(pub [f32; 3]);

/// [`PointMass::mass`] as a component.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mass(pub f32);

/// The four components of a point mass, the bundle an entity is spawned or attached with.
pub fn split(m: PointMass) -> (Position, Velocity, Acceleration, Mass) {
    (
        Position(m.position),
        Velocity(m.velocity),
        Acceleration(m.acceleration),
        Mass(m.mass),
    )
}

/// The point mass of an entity's four components (for `visit`: copies of the fields, no
/// arithmetic, so the state digest is bit-exact).
pub fn joined(
    mass: f32,
    position: [f32; 3],
    velocity: [f32; 3],
    acceleration: [f32; 3],
) -> PointMass {
    PointMass {
        mass,
        position,
        velocity,
        acceleration,
    }
}
