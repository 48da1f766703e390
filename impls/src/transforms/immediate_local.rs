//! Article design F10 (+ F11, F12, F14): immediate update with swaps that keep subtrees
//! adjacent. The article: "When using the immediate update strategy, sorting the list is not as
//! important, but we can employ similar swapping strategies to make sure that a parent node and
//! its children are kept close together in the array, so that the immediate update is cache
//! friendly." It gives no code; this is one reading of it, stated here.
//!
//! Layout: the SoA [`Hierarchy`] of [`immediate_recursive`](super::immediate_recursive). The
//! update of a subtree walks it in pre-order without a stack (first child, else the next
//! sibling of the nearest ancestor below the subtree's root) and, while a placement cursor
//! that starts right after the root stays inside the array, swaps each visited node into the
//! cursor's slot with the article's three-step swap (F12). After one update a subtree sits in
//! pre-order in the slots right after its root, so the next update of it reads consecutive
//! slots and swaps nothing. A swap only moves nodes not yet visited (the node displaced from
//! the cursor's slot goes to the visited node's old slot), so visited worlds, the root and the
//! walk's ancestors never move; another subtree may be pulled apart and is repacked by its own
//! next update. When the subtree does not fit after its root (the root near the end of the
//! array), the rest is walked in place.
//!
//! Costs: the same products as the other immediate designs (O(subtree) per `set_local`, O(L²)
//! per frame on a moving chain of L, capped as they are), plus at most one swap per visited
//! node (each O(children of the two moved nodes)). Chains built root first are already in
//! pre-order, so there it differs from [`immediate_iterative`](super::immediate_iterative)
//! only by the stackless walk; it pays off where nodes were created or reparented out of
//! order.

use super::hierarchy::{Hierarchy, NIL};
use super::immediate_recursive::{immediate_batch, immediate_ops};
use super::{
    Affine, IMMEDIATE_PRODUCT_CAP, TransformDesignInfo, TransformDesignKind, TransformStore,
    UpdateStrategy, XfError,
};

/// Immediate update that repacks each updated subtree in pre-order after its root.
#[derive(Debug, Clone, Default)]
pub struct ImmediateLocal {
    /// Per-slot extra: the batch stamp.
    h: Hierarchy<u32>,
    batch_epoch: u32,
}

/// Recomputes the subtree of slot `root` in pre-order, moving each visited node into the slot
/// after the previously placed one while that slot exists (see the module docs).
fn update_subtree(h: &mut Hierarchy<u32>, root: u32) {
    h.recompute(root);
    // The next slot to fill. Invariant: while placing, the visited nodes are exactly the slots
    // `root..place`.
    let mut place = root + 1;
    let mut cur = root;
    loop {
        let mut next = h.first_child[cur as usize];
        if next == NIL {
            let mut x = cur;
            while x != root && h.next_sibling[x as usize] == NIL {
                x = h.parent[x as usize];
            }
            if x == root {
                return;
            }
            next = h.next_sibling[x as usize];
        }
        if place < h.size {
            if next != place {
                h.swap(next, place);
                next = place;
            }
            place += 1;
        }
        h.recompute(next);
        cur = next;
    }
}

impl TransformStore for ImmediateLocal {
    type Id = u32;

    const INFO: TransformDesignInfo = TransformDesignInfo {
        name: "immediate_local",
        description: "immediate update whose walk swaps each subtree into pre-order right after its root (the article's F10: parents and children kept close)",
        kind: TransformDesignKind::Article,
        strategy: UpdateStrategy::Immediate,
        detects_stale: false,
        product_cap: Some(IMMEDIATE_PRODUCT_CAP),
    };

    fn new() -> Self {
        Self::default()
    }

    fn create(&mut self, parent: Option<u32>, local: Affine) -> Result<u32, XfError> {
        immediate_ops::create(&mut self.h, parent, local)
    }

    fn destroy(&mut self, node: u32) -> Result<(), XfError> {
        immediate_ops::destroy(&mut self.h, node, update_subtree)
    }

    fn set_parent(&mut self, node: u32, parent: Option<u32>) -> Result<(), XfError> {
        immediate_ops::set_parent(&mut self.h, node, parent, update_subtree)
    }

    fn set_local(&mut self, node: u32, local: Affine) -> Result<(), XfError> {
        let s = self.h.slot(node)?;
        self.h.local[s as usize] = local;
        update_subtree(&mut self.h, s);
        Ok(())
    }

    fn set_local_batch(&mut self, batch: &[(u32, Affine)]) -> Result<(), XfError> {
        immediate_batch(&mut self.h, &mut self.batch_epoch, batch, update_subtree)
    }

    fn end_frame(&mut self) {}

    fn world(&self, node: u32) -> Result<Affine, XfError> {
        Ok(self.h.world[self.h.slot(node)? as usize])
    }

    fn local(&self, node: u32) -> Result<Affine, XfError> {
        Ok(self.h.local[self.h.slot(node)? as usize])
    }

    fn len(&self) -> usize {
        self.h.size as usize
    }

    fn memory_bytes(&self) -> usize {
        self.h.memory_bytes()
    }

    fn world_updates(&self) -> u64 {
        self.h.updates
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.h.check(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tree built out of order (children before unrelated roots, interleaved) ends up in
    /// pre-order right after its root once the root moves.
    #[test]
    fn an_update_packs_the_subtree_in_pre_order_after_its_root() {
        let mut d = ImmediateLocal::new();
        let pose = |k: u32| Affine::from_pose(k);
        let root = d.create(None, pose(0)).unwrap();
        let mut nodes = vec![root];
        for k in 1..60u32 {
            d.create(None, pose(1000 + k)).unwrap();
            let parent = nodes[(k as usize * 7) % nodes.len()];
            nodes.push(d.create(Some(parent), pose(k)).unwrap());
        }
        d.set_local(root, pose(99)).unwrap();
        d.check_invariants().unwrap();
        let h = &d.h;
        let r = h.slot(root).unwrap();
        let mut pre_order = Vec::new();
        let mut stack = vec![r];
        while let Some(s) = stack.pop() {
            pre_order.push(s);
            let mut kids = Vec::new();
            let mut c = h.first_child[s as usize];
            while c != NIL {
                kids.push(c);
                c = h.next_sibling[c as usize];
            }
            stack.extend(kids.into_iter().rev());
        }
        let want: Vec<u32> = (r..r + nodes.len() as u32).collect();
        assert_eq!(pre_order, want);
        let before = h.updates;
        d.set_local(root, pose(98)).unwrap();
        assert_eq!(d.h.updates - before, nodes.len() as u64 - 1);
        assert_eq!(d.h.slot(root).unwrap(), r);
    }
}
