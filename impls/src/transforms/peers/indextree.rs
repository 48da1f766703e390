//! Peer: the `indextree` crate's arena tree, each node's data its local and world transforms,
//! worlds recomputed immediately by a traversal of the moved subtree.
//!
//! Design: `indextree::Arena<Transforms>` holds nodes in one `Vec` with parent / first child /
//! last child / previous / next sibling links (the article's links, plus a last child) and a
//! stamp per slot, so a destroyed node's id is detected. `set_local` walks
//! `node.descendants()` (pre-order, parents before children) and recomputes each world:
//! O(subtree) per change like the article's immediate designs. Destroy detaches the children
//! first (the family makes them roots; `NodeId::remove` would hand them to the grandparent),
//! then removes the node, whose slot the arena reuses.

use crate::DesignMeta;
use ::indextree::{Arena, NodeError, NodeId};

use crate::transforms::{
    Affine, IMMEDIATE_PRODUCT_CAP, TransformDesignInfo, TransformDesignKind, TransformStore,
    UpdateStrategy, XfError, world_of,
};

/// One node's data in the arena.
#[derive(Debug, Clone, Copy)]
pub struct Transforms {
    /// The local transform.
    pub local: Affine,
    /// The world transform: `local` times the parent's world (the local itself for a root).
    pub world: Affine,
}

/// The peer's arena as the crate holds it (for `ref-direct-indextree`, which calls
/// `indextree` directly without depending on the crate itself).
pub type TransformArena = Arena<Transforms>;

/// `indextree::Arena` behind [`TransformStore`].
#[derive(Debug, Clone, Default)]
pub struct IndexTreePeer {
    arena: Arena<Transforms>,
    /// Live nodes (the arena's count includes removed slots awaiting reuse).
    live: usize,
    /// The subtree being updated, in pre-order (kept between calls, no allocation per update).
    order: Vec<NodeId>,
    updates: u64,
}

impl IndexTreePeer {
    /// The crate's arena: every node's links and transforms.
    pub fn arena(&self) -> &Arena<Transforms> {
        &self.arena
    }

    fn live(&self, id: NodeId) -> Result<&Transforms, XfError> {
        match self.arena.get(id) {
            Some(n) if !n.is_removed() => Ok(n.get()),
            _ => Err(XfError::no_such(id)),
        }
    }

    /// Recomputes the worlds of `id`'s subtree, parents first.
    fn update(&mut self, id: NodeId) {
        let mut order = std::mem::take(&mut self.order);
        order.clear();
        order.extend(id.descendants(&self.arena));
        for &d in &order {
            let parent_world = self.arena[d].parent().map(|p| self.arena[p].get().world);
            let data = self.arena[d].get_mut();
            data.world = world_of(&data.local, parent_world.as_ref());
            self.updates += u64::from(parent_world.is_some());
        }
        self.order = order;
    }
}

impl TransformStore for IndexTreePeer {
    type Id = NodeId;

    const INFO: TransformDesignInfo = TransformDesignInfo {
        meta: DesignMeta {
            name: "indextree",
            description: "indextree arena tree (links in one Vec), immediate update by a descendants() traversal",
            kind: TransformDesignKind::Peer {
                crate_name: "indextree",
                version: "4.9.2",
                idiom: "Arena<Node>: new_node + append to build, checked_append to reparent, remove; world transforms by a descendants() traversal reading each node's parent",
                docs: "https://docs.rs/indextree/4.9.2/indextree/struct.Arena.html",
                adapter: "Every op first checks the caller's `NodeId` (`live`: `Arena::get`, which compares the slot's stamp, then `is_removed()`) where the direct loop indexes `arena[id]` (that check, not a copy of the world matrix, is what the replay does beyond the direct loop on `xf-query`, all reads: handing the world over by reference instead of by value changes nothing there; the cell's page shows the overhead). `set_local` also counts each world product in `updates` (the world-updates metric); our designs pay the same ID check (`slot_of` or `nodes.get`) and counter.",
            },
        },
        strategy: UpdateStrategy::Immediate,
        detects_stale: true,
        product_cap: Some(IMMEDIATE_PRODUCT_CAP),
    };

    fn new() -> Self {
        Self::default()
    }

    fn create(&mut self, parent: Option<NodeId>, local: Affine) -> Result<NodeId, XfError> {
        let parent_world = match parent {
            Some(p) => Some(self.live(p)?.world),
            None => None,
        };
        let id = self.arena.new_node(Transforms {
            local,
            world: world_of(&local, parent_world.as_ref()),
        });
        if let Some(p) = parent {
            p.append(id, &mut self.arena);
            self.updates += 1;
        }
        self.live += 1;
        Ok(id)
    }

    fn destroy(&mut self, node: NodeId) -> Result<(), XfError> {
        self.live(node)?;
        let children: Vec<NodeId> = node.children(&self.arena).collect();
        node.detach_children(&mut self.arena);
        for c in children {
            self.update(c);
        }
        node.remove(&mut self.arena);
        self.live -= 1;
        Ok(())
    }

    fn set_parent(&mut self, node: NodeId, parent: Option<NodeId>) -> Result<(), XfError> {
        self.live(node)?;
        match parent {
            // The crate's own checked reparent: it refuses a cycle (`node` is `p` or one of its
            // ancestors) and detaches `node` before appending it, so the adapter adds no walk of
            // its own.
            Some(p) => {
                self.live(p)?;
                p.checked_append(node, &mut self.arena)
                    .map_err(|e| match e {
                        NodeError::AppendSelf | NodeError::AppendAncestor => {
                            XfError::cycle(node, p)
                        }
                        _ => XfError::no_such(node),
                    })?;
            }
            None => node.detach(&mut self.arena),
        }
        self.update(node);
        Ok(())
    }

    fn set_local(&mut self, node: NodeId, local: Affine) -> Result<(), XfError> {
        self.live(node)?;
        self.arena[node].get_mut().local = local;
        self.update(node);
        Ok(())
    }

    /// The entries one by one, as the default does, with each id checked once (before
    /// anything changes) rather than again by `set_local`.
    fn set_local_batch(&mut self, batch: &[(NodeId, Affine)]) -> Result<(), XfError> {
        for &(node, _) in batch {
            self.live(node)?;
        }
        for &(node, local) in batch {
            self.arena[node].get_mut().local = local;
            self.update(node);
        }
        Ok(())
    }

    fn end_frame(&mut self) {}

    fn world(&self, node: NodeId) -> Result<Affine, XfError> {
        Ok(self.live(node)?.world)
    }

    fn local(&self, node: NodeId) -> Result<Affine, XfError> {
        Ok(self.live(node)?.local)
    }

    fn len(&self) -> usize {
        self.live
    }

    fn memory_bytes(&self) -> usize {
        self.arena.capacity() * size_of::<::indextree::Node<Transforms>>()
            + self.order.capacity() * size_of::<NodeId>()
    }

    fn world_updates(&self) -> u64 {
        self.updates
    }

    fn check_invariants(&self) -> Result<(), String> {
        let live = self.arena.iter().filter(|n| !n.is_removed()).count();
        if live != self.live {
            return Err(format!(
                "{live} live nodes in the arena, {} counted",
                self.live
            ));
        }
        for n in self.arena.iter().filter(|n| !n.is_removed()) {
            let id = self
                .arena
                .get_node_id(n)
                .ok_or("a live node without an id")?;
            let pw = n.parent().map(|p| self.arena[p].get().world);
            if !world_of(&n.get().local, pw.as_ref()).same_bits(&n.get().world) {
                return Err(format!("{id:?}: world is not local * parent world"));
            }
            if let Some(p) = n.parent()
                && !p.children(&self.arena).any(|c| c == id)
            {
                return Err(format!("{id:?} is not among its parent's children"));
            }
        }
        Ok(())
    }
}
