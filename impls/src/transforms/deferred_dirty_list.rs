//! Article design F8 + F9: deferred update with the dirty nodes kept at the end of the array
//! by swapping, and eviction from the dirty list after `EVICT` unmoved frames; `EVICT = 0` is
//! the ablation that clears the list every frame (the alternative the article rejects because
//! always-moving nodes are swapped in and out every frame).
//!
//! Layout: the SoA [`Hierarchy`]; slots `first_dirty..size` are the dirty list. A node that
//! changes is swapped with the slot just before the list and `first_dirty` decreases (F8); its
//! children and their children follow (moved so the list reads parent before child), stopping
//! at nodes already dirty, by the invariant
//! "every child of a dirty node is dirty". `end_frame` walks only the dirty list: at slot `i`,
//! while the parent is at a later slot the two are swapped (the article's parent/child fix-up
//! swap), then the node is recomputed (a clean parent's world is current, a dirty one's was
//! just recomputed). Then a second walk evicts every dirty node unmoved for `EVICT` frames
//! whose parent is clean (so the invariant holds), swapping it with the list's first slot.
//!
//! Cost: O(1) amortised per change plus O(dirty) per frame, instead of the flag scan's O(n).
//! Trade-off: swaps move whole slots (the seven arrays) and scatter the clean part, and nodes
//! that stopped moving stay in the list (recomputed every frame) until evicted.

use super::hierarchy::{Hierarchy, NIL, hierarchy_reads};
use super::{
    Affine, TransformDesignInfo, TransformDesignKind, TransformStore, UpdateStrategy, XfError,
};
use crate::DesignMeta;

/// Deferred: dirty list at the array's end, evicting after `EVICT` unmoved frames (0: clear the
/// list every frame).
#[derive(Debug, Clone)]
pub struct DeferredDirtyList<const EVICT: u8> {
    /// Per-slot extra: frames the node has stayed in the dirty list without its own change
    /// (saturating).
    h: Hierarchy<u8>,
    /// First slot of the dirty list. Invariant: `first_dirty <= size`, and every child of a
    /// slot `>= first_dirty` is also `>= first_dirty`.
    first_dirty: u32,
    /// Ids still to visit while marking (kept between calls, empty between them).
    stack: Vec<u32>,
    /// The clean nodes found by a marking walk, in pre-order (empty between calls).
    collected: Vec<u32>,
    /// Whether nothing changed since the last `end_frame`.
    flushed: bool,
}

impl<const EVICT: u8> Default for DeferredDirtyList<EVICT> {
    fn default() -> Self {
        Self {
            h: Hierarchy::default(),
            first_dirty: 0,
            stack: Vec::new(),
            collected: Vec::new(),
            flushed: true,
        }
    }
}

impl<const EVICT: u8> DeferredDirtyList<EVICT> {
    /// Puts slot `s` and its subtree in the dirty list (stopping at dirty nodes, whose
    /// subtrees are dirty already) and resets `s`'s unmoved count.
    fn mark(&mut self, s: u32) {
        self.h.extra[s as usize] = 0;
        self.flushed = false;
        if s >= self.first_dirty {
            return;
        }
        // Collect the clean part of the subtree in pre-order, then move it to the list's
        // front last node first, so the list reads parent before child and `end_frame`'s
        // fix-up swaps stay rare (moving each node as it is found would reverse a chain, and
        // the fix-up would then bubble every node up its chain: O(L²) swaps).
        self.stack.push(self.h.id_of[s as usize]);
        while let Some(id) = self.stack.pop() {
            self.collected.push(id);
            let x = self.h.slot_of[id as usize];
            let mut c = self.h.first_child[x as usize];
            while c != NIL {
                if c < self.first_dirty {
                    self.stack.push(self.h.id_of[c as usize]);
                }
                c = self.h.next_sibling[c as usize];
            }
        }
        while let Some(id) = self.collected.pop() {
            self.first_dirty -= 1;
            self.h.swap(self.h.slot_of[id as usize], self.first_dirty);
        }
    }

    /// Creates one node per local of `locals`, node `k` under the node `parents[k]` (`None`: a
    /// root): what `locals.len()` calls of `create` in order do (appended at the array's end,
    /// inside the dirty list), each array extended once ([`Hierarchy::push_run`]). Returns the
    /// new nodes' ids, in order.
    ///
    /// # Errors
    /// [`XfError::NoSuchNode`] for a parent that is not live before the call;
    /// [`XfError::IndexSpaceExhausted`]. Nothing changes.
    pub fn create_run(
        &mut self,
        locals: &[Affine],
        parents: impl Iterator<Item = Option<u32>> + Clone,
    ) -> Result<&[u32], XfError> {
        let first = self.h.push_run(locals, parents, 0)? as usize;
        self.flushed &= locals.is_empty();
        Ok(&self.h.id_of[first..first + locals.len()])
    }

    /// Reserves room for `additional` more nodes (no change of state).
    pub fn reserve(&mut self, additional: usize) {
        self.h.reserve(additional);
    }

    /// Nodes in the dirty list now (for tests and metrics).
    pub fn dirty_len(&self) -> usize {
        (self.h.size - self.first_dirty) as usize
    }
}

impl<const EVICT: u8> TransformStore for DeferredDirtyList<EVICT> {
    type Id = u32;

    const INFO: TransformDesignInfo = TransformDesignInfo {
        meta: DesignMeta {
            name: if EVICT == 0 {
                "deferred_dirty_list_clear"
            } else {
                "deferred_dirty_list"
            },
            description: if EVICT == 0 {
                "ablation of deferred_dirty_list: no eviction delay, the dirty list is emptied every frame (moving nodes swap in and out each frame)"
            } else {
                "deferred: dirty nodes swapped to the array's end, only they are recomputed; evicted after 5 unmoved frames (the article's fix for the flag scan)"
            },
            kind: TransformDesignKind::Article,
        },
        strategy: UpdateStrategy::Deferred,
        detects_stale: false,
        product_cap: None,
    };

    fn new() -> Self {
        Self::default()
    }

    fn create(&mut self, parent: Option<u32>, local: Affine) -> Result<u32, XfError> {
        let p = self.h.parent_slot(parent)?;
        // Appended at slot `size`: inside the dirty list already.
        let (id, _) = self.h.push(p, local, 0)?;
        self.flushed = false;
        Ok(id)
    }

    fn destroy(&mut self, node: u32) -> Result<(), XfError> {
        self.h.slot(node)?;
        // Marking swaps slots, so the node's slot is looked up again after each child.
        loop {
            let c = self.h.first_child[self.h.slot_of[node as usize] as usize];
            if c == NIL {
                break;
            }
            self.h.unlink(c);
            self.mark(c);
        }
        let s = self.h.slot_of[node as usize];
        self.h.unlink(s);
        // Childless now: marking moves only the node itself into the list, where the
        // swap-erase keeps the list contiguous (the last slot is dirty).
        self.mark(s);
        let s = self.h.slot_of[node as usize];
        self.h.remove(s);
        self.flushed = false;
        Ok(())
    }

    fn set_parent(&mut self, node: u32, parent: Option<u32>) -> Result<(), XfError> {
        let s = self.h.slot(node)?;
        let p = self.h.parent_slot(parent)?;
        self.h.reparent(s, p)?;
        self.mark(s);
        Ok(())
    }

    fn set_local(&mut self, node: u32, local: Affine) -> Result<(), XfError> {
        let s = self.h.slot(node)?;
        self.h.local[s as usize] = local;
        self.mark(s);
        Ok(())
    }

    fn end_frame(&mut self) {
        let h = &mut self.h;
        for i in self.first_dirty..h.size {
            h.pull_parent_before(i);
            h.recompute(i);
        }
        for i in self.first_dirty..h.size {
            let p = h.parent[i as usize];
            let unmoved = h.extra[i as usize];
            if unmoved >= EVICT && (p == NIL || p < self.first_dirty) {
                h.swap(i, self.first_dirty);
                self.first_dirty += 1;
            } else {
                h.extra[i as usize] = unmoved.saturating_add(1);
            }
        }
        self.flushed = true;
    }

    hierarchy_reads!();

    fn memory_bytes(&self) -> usize {
        self.h.memory_bytes() + (self.stack.capacity() + self.collected.capacity()) * 4
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.h.check(self.flushed)?;
        if self.first_dirty > self.h.size || !self.stack.is_empty() || !self.collected.is_empty() {
            return Err(format!(
                "first_dirty {} of {} slots, {} ids left on the stack",
                self.first_dirty,
                self.h.size,
                self.stack.len()
            ));
        }
        for s in self.first_dirty..self.h.size {
            let mut c = self.h.first_child[s as usize];
            while c != NIL {
                if c < self.first_dirty {
                    return Err(format!("slot {c} is clean but its parent {s} is dirty"));
                }
                c = self.h.next_sibling[c as usize];
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_is_a_create_per_node_and_its_nodes_are_dirty() {
        let mut run = DeferredDirtyList::<5>::new();
        let mut one_by_one = DeferredDirtyList::<5>::new();
        for store in [&mut run, &mut one_by_one] {
            let root = store.create(None, Affine::from_pose(1)).unwrap();
            store.end_frame();
            store.end_frame();
            store.set_local(root, Affine::from_pose(2)).unwrap();
        }
        let locals: Vec<Affine> = (0..3).map(|k| Affine::from_pose(k * 31 + 3)).collect();
        let parents = [Some(0), None, Some(0)];
        let ids = run
            .create_run(&locals, parents.iter().copied())
            .unwrap()
            .to_vec();
        let one: Vec<u32> = locals
            .iter()
            .zip(parents)
            .map(|(local, p)| one_by_one.create(p, *local).unwrap())
            .collect();
        assert_eq!(ids, one);
        assert_eq!(format!("{run:?}"), format!("{one_by_one:?}"));
        run.check_invariants().unwrap();
        run.end_frame();
        one_by_one.end_frame();
        assert_eq!(format!("{run:?}"), format!("{one_by_one:?}"));
        run.check_invariants().unwrap();
    }
}
