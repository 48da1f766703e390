//! Published ECS crates behind thin [`ComponentStore`](super::ComponentStore) adapters. Each
//! uses its own entities and destroys a killed entity's component at once (their despawn is the
//! destroy callback).

use super::registry::ComponentDesignVisitor;

/// Calls the visitor once per peer design, in registry order.
pub(super) fn for_each_peer<V: ComponentDesignVisitor>(visitor: &mut V) {
    let _ = visitor;
}
