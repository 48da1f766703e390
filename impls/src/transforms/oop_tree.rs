//! Baseline: the object tree, one `Box<Node>` per node with a `Vec` of its children, updated
//! immediately and recursively (the scene graph of an object-oriented engine).
//!
//! Layout: every node is its own heap allocation holding its local and world transforms, its
//! parent's id and a `Vec<u32>` of its children's ids (a second allocation once it has a
//! child). Nodes are reached through an id → `Box` table, the safe-Rust stand-in for the raw
//! pointers an object engine hands out; ids are reused most recently released first.
//! Cost: immediate, O(subtree) per `set_local` like `immediate_recursive`, but every step of the
//! walk chases a pointer to a node allocated wherever the heap put it, and reparenting or
//! destroying a node searches its parent's child vector (O(siblings)).

use super::{
    Affine, IMMEDIATE_PRODUCT_CAP, TransformDesignInfo, TransformDesignKind, TransformStore,
    UpdateStrategy, XfError, world_of,
};
use crate::DesignMeta;

/// One scene-graph object.
#[derive(Debug, Clone)]
struct Node {
    local: Affine,
    world: Affine,
    /// Invariant: `parent`'s `children` contains this node's id exactly once.
    parent: Option<u32>,
    children: Vec<u32>,
}

/// `Box<Node>` objects with child vectors, immediate recursive update.
#[derive(Debug, Clone, Default)]
pub struct OopTree {
    /// `nodes[id]` is `Some` exactly while `id` is live.
    nodes: Vec<Option<Box<Node>>>,
    /// Released ids, most recent last.
    released: Vec<u32>,
    updates: u64,
}

impl OopTree {
    fn node(&self, id: u32) -> Result<&Node, XfError> {
        self.nodes
            .get(id as usize)
            .and_then(Option::as_deref)
            .ok_or_else(|| XfError::no_such(id))
    }

    fn node_mut(&mut self, id: u32) -> &mut Node {
        self.nodes[id as usize]
            .as_deref_mut()
            .expect("a live id, checked by the caller")
    }

    /// Recomputes `id`'s world and, recursively, its subtree's.
    fn update(&mut self, id: u32, parent_world: Option<Affine>) {
        let node = self.node_mut(id);
        node.world = world_of(&node.local, parent_world.as_ref());
        let world = node.world;
        self.updates += u64::from(parent_world.is_some());
        for k in 0..self.node_mut(id).children.len() {
            let c = self.node_mut(id).children[k];
            self.update(c, Some(world));
        }
    }

    fn parent_world(&self, id: u32) -> Option<Affine> {
        let p = self.nodes[id as usize].as_ref()?.parent?;
        Some(self.nodes[p as usize].as_ref()?.world)
    }

    fn detach(&mut self, id: u32) {
        if let Some(p) = self.node_mut(id).parent.take() {
            let siblings = &mut self.node_mut(p).children;
            if let Some(k) = siblings.iter().position(|&c| c == id) {
                siblings.swap_remove(k);
            }
        }
    }
}

impl TransformStore for OopTree {
    type Id = u32;

    const INFO: TransformDesignInfo = TransformDesignInfo {
        meta: DesignMeta {
            name: "oop_tree",
            description: "object tree: one Box<Node> per node with a Vec of children, immediate recursive update (the object-oriented baseline)",
            kind: TransformDesignKind::Article,
        },
        strategy: UpdateStrategy::Immediate,
        detects_stale: false,
        product_cap: Some(IMMEDIATE_PRODUCT_CAP),
    };

    fn new() -> Self {
        Self::default()
    }

    fn create(&mut self, parent: Option<u32>, local: Affine) -> Result<u32, XfError> {
        let parent_world = match parent {
            Some(p) => Some(self.node(p)?.world),
            None => None,
        };
        let node = Box::new(Node {
            local,
            world: world_of(&local, parent_world.as_ref()),
            parent,
            children: Vec::new(),
        });
        self.updates += u64::from(parent.is_some());
        let id = match self.released.pop() {
            Some(id) => {
                self.nodes[id as usize] = Some(node);
                id
            }
            None => {
                if self.nodes.len() >= (u32::MAX - 1) as usize {
                    return Err(XfError::IndexSpaceExhausted {
                        limit: u64::from(u32::MAX - 1),
                    });
                }
                self.nodes.push(Some(node));
                (self.nodes.len() - 1) as u32
            }
        };
        if let Some(p) = parent {
            self.node_mut(p).children.push(id);
        }
        Ok(id)
    }

    fn destroy(&mut self, node: u32) -> Result<(), XfError> {
        self.node(node)?;
        self.detach(node);
        let children = std::mem::take(&mut self.node_mut(node).children);
        for c in children {
            self.node_mut(c).parent = None;
            self.update(c, None);
        }
        self.nodes[node as usize] = None;
        self.released.push(node);
        Ok(())
    }

    fn set_parent(&mut self, node: u32, parent: Option<u32>) -> Result<(), XfError> {
        self.node(node)?;
        if let Some(p) = parent {
            self.node(p)?;
            let mut a = Some(p);
            while let Some(x) = a {
                if x == node {
                    return Err(XfError::cycle(node, p));
                }
                a = self.node_mut(x).parent;
            }
        }
        self.detach(node);
        self.node_mut(node).parent = parent;
        if let Some(p) = parent {
            self.node_mut(p).children.push(node);
        }
        let pw = self.parent_world(node);
        self.update(node, pw);
        Ok(())
    }

    fn set_local(&mut self, node: u32, local: Affine) -> Result<(), XfError> {
        self.node(node)?;
        self.node_mut(node).local = local;
        let pw = self.parent_world(node);
        self.update(node, pw);
        Ok(())
    }

    fn end_frame(&mut self) {}

    fn world(&self, node: u32) -> Result<Affine, XfError> {
        Ok(self.node(node)?.world)
    }

    fn local(&self, node: u32) -> Result<Affine, XfError> {
        Ok(self.node(node)?.local)
    }

    fn len(&self) -> usize {
        self.nodes.len() - self.released.len()
    }

    fn memory_bytes(&self) -> usize {
        self.nodes.capacity() * size_of::<Option<Box<Node>>>()
            + self.released.capacity() * 4
            + self
                .nodes
                .iter()
                .flatten()
                .map(|n| size_of::<Node>() + n.children.capacity() * 4)
                .sum::<usize>()
    }

    fn world_updates(&self) -> u64 {
        self.updates
    }

    fn check_invariants(&self) -> Result<(), String> {
        let dead = self.nodes.iter().filter(|n| n.is_none()).count();
        if dead != self.released.len() {
            return Err(format!("{dead} dead ids, {} released", self.released.len()));
        }
        for (id, n) in self.nodes.iter().enumerate() {
            let Some(n) = n else { continue };
            for &c in &n.children {
                if self.node(c).map(|c| c.parent) != Ok(Some(id as u32)) {
                    return Err(format!("child {c} of {id} does not name it as parent"));
                }
            }
            let pw = match n.parent {
                Some(p) => {
                    let parent = self.node(p).map_err(|e| format!("node {id}: {e}"))?;
                    if parent.children.iter().filter(|&&c| c == id as u32).count() != 1 {
                        return Err(format!("node {id} is not once among {p}'s children"));
                    }
                    Some(parent.world)
                }
                None => None,
            };
            if !world_of(&n.local, pw.as_ref()).same_bits(&n.world) {
                return Err(format!("node {id}: world is not local * parent world"));
            }
        }
        Ok(())
    }
}
