//! Published ECS crates behind thin [`ComponentStore`](super::ComponentStore) adapters. Each
//! uses its own entities (the replayer's handle map holds them, as it holds ours) and destroys
//! a killed entity's component at once (their despawn is the destroy callback). `bevy_ecs`
//! is behind the `bevy` cargo feature (off by default; `cargo bench -p dodbench --features
//! bevy` adds its two designs).

#[cfg(feature = "bevy")]
pub mod bevy;
pub mod hecs;
pub mod shipyard;
pub mod specs;

use super::registry::ComponentDesignVisitor;

/// Calls the visitor once per peer design, in registry order.
pub(super) fn for_each_peer<V: ComponentDesignVisitor>(visitor: &mut V) {
    visitor.visit::<hecs::HecsPeer>();
    visitor.visit::<shipyard::ShipyardPeer>();
    visitor.visit::<specs::SpecsVec>();
    visitor.visit::<specs::SpecsDense>();
    visitor.visit::<specs::SpecsHash>();
    #[cfg(feature = "bevy")]
    {
        visitor.visit::<bevy::BevyTable>();
        visitor.visit::<bevy::BevySparse>();
    }
}
