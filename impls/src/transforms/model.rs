//! The reference model: an obviously correct transform store, whose answers every design's
//! replay must reproduce (`bench-harness` verification, `impls/tests/integration/transforms_model.rs`).
//! Not a benchmarked design: it is not in the registry.
//!
//! Layout: a plain `Vec` of `{local, parent}` (`None` for released ids), ids reused most
//! recently released first. `world` walks from the node to its root and multiplies back down
//! with the family's one product, so it is always current (no update strategy at all): O(depth)
//! per read.

use super::{
    Affine, TransformDesignInfo, TransformDesignKind, TransformStore, UpdateStrategy, XfError,
    world_of,
};
use crate::DesignMeta;

#[derive(Debug, Clone, Copy)]
struct ModelNode {
    local: Affine,
    parent: Option<u32>,
}

/// Reference model of the [`TransformStore`] contract.
#[derive(Debug, Clone, Default)]
pub struct ModelTransforms {
    /// `nodes[id]` is `Some` exactly while `id` is live.
    nodes: Vec<Option<ModelNode>>,
    /// Released ids, most recently released last.
    released: Vec<u32>,
    /// Scratch for `world`'s walk.
    products: std::cell::Cell<u64>,
}

impl ModelTransforms {
    fn node(&self, id: u32) -> Result<&ModelNode, XfError> {
        self.nodes
            .get(id as usize)
            .and_then(Option::as_ref)
            .ok_or_else(|| XfError::no_such(id))
    }

    /// The parent of a live node.
    ///
    /// # Errors
    /// [`XfError::NoSuchNode`].
    pub fn parent(&self, id: u32) -> Result<Option<u32>, XfError> {
        Ok(self.node(id)?.parent)
    }

    /// Whether `a` is `x` or an ancestor of `x`.
    fn in_subtree(&self, x: u32, a: u32) -> bool {
        let mut cur = Some(x);
        while let Some(c) = cur {
            if c == a {
                return true;
            }
            cur = self.nodes[c as usize].as_ref().and_then(|n| n.parent);
        }
        false
    }
}

impl TransformStore for ModelTransforms {
    type Id = u32;

    const INFO: TransformDesignInfo = TransformDesignInfo {
        meta: DesignMeta {
            name: "model",
            description: "reference model: Vec of {local, parent}, world by walking to the root (verification only)",
            kind: TransformDesignKind::Article,
        },
        strategy: UpdateStrategy::Immediate,
        detects_stale: false,
        product_cap: None,
    };

    fn new() -> Self {
        Self::default()
    }

    fn create(&mut self, parent: Option<u32>, local: Affine) -> Result<u32, XfError> {
        if let Some(p) = parent {
            self.node(p)?;
        }
        let node = Some(ModelNode { local, parent });
        if let Some(id) = self.released.pop() {
            self.nodes[id as usize] = node;
            return Ok(id);
        }
        if self.nodes.len() >= (u32::MAX - 1) as usize {
            return Err(XfError::IndexSpaceExhausted {
                limit: u64::from(u32::MAX - 1),
            });
        }
        self.nodes.push(node);
        Ok((self.nodes.len() - 1) as u32)
    }

    fn destroy(&mut self, node: u32) -> Result<(), XfError> {
        self.node(node)?;
        for n in self.nodes.iter_mut().flatten() {
            if n.parent == Some(node) {
                n.parent = None;
            }
        }
        self.nodes[node as usize] = None;
        self.released.push(node);
        Ok(())
    }

    fn set_parent(&mut self, node: u32, parent: Option<u32>) -> Result<(), XfError> {
        self.node(node)?;
        if let Some(p) = parent {
            self.node(p)?;
            if self.in_subtree(p, node) {
                return Err(XfError::cycle(node, p));
            }
        }
        if let Some(n) = self.nodes[node as usize].as_mut() {
            n.parent = parent;
        }
        Ok(())
    }

    fn set_local(&mut self, node: u32, local: Affine) -> Result<(), XfError> {
        self.node(node)?;
        if let Some(n) = self.nodes[node as usize].as_mut() {
            n.local = local;
        }
        Ok(())
    }

    fn end_frame(&mut self) {}

    fn world(&self, node: u32) -> Result<Affine, XfError> {
        let mut path = vec![*self.node(node)?];
        while let Some(p) = path.last().and_then(|n| n.parent) {
            path.push(*self.node(p)?);
        }
        let root = path.pop().expect("the node itself");
        let mut world = world_of(&root.local, None);
        while let Some(n) = path.pop() {
            world = world_of(&n.local, Some(&world));
            self.products.set(self.products.get() + 1);
        }
        Ok(world)
    }

    fn local(&self, node: u32) -> Result<Affine, XfError> {
        Ok(self.node(node)?.local)
    }

    fn len(&self) -> usize {
        self.nodes.len() - self.released.len()
    }

    fn memory_bytes(&self) -> usize {
        self.nodes.capacity() * size_of::<Option<ModelNode>>() + self.released.capacity() * 4
    }

    fn world_updates(&self) -> u64 {
        self.products.get()
    }

    fn check_invariants(&self) -> Result<(), String> {
        let dead = self.nodes.iter().filter(|n| n.is_none()).count();
        if dead != self.released.len() {
            return Err(format!("{dead} dead ids, {} released", self.released.len()));
        }
        for (id, n) in self.nodes.iter().enumerate() {
            if let Some(p) = n.and_then(|n| n.parent)
                && self.node(p).is_err()
            {
                return Err(format!("node {id} names dead parent {p}"));
            }
        }
        Ok(())
    }
}
