//! Article design F10 (+ F11, F12, F14): immediate update with swaps that keep subtrees
//! adjacent. The article: "When using the immediate update strategy, sorting the list is not as
//! important, but we can employ similar swapping strategies to make sure that a parent node and
//! its children are kept close together in the array, so that the immediate update is cache
//! friendly." It gives no code; this is one reading of it, stated here.
//!
//! Layout: the SoA [`Hierarchy`] of [`immediate_recursive`](super::immediate_recursive), in the
//! stack-walked store of [`immediate_iterative`](super::immediate_iterative) (only the walk
//! differs, [`SubtreeWalk`]). The update of a subtree is [`immediate_iterative`](super::immediate_iterative)'s walk (an
//! explicit stack, depth first, parents before children) plus a placement cursor that starts
//! at the root: while the cursor stays inside the array, each visited node is swapped into the
//! cursor's slot with the article's three-step swap (F12) and the cursor advances. After one
//! update a subtree sits in walk order in the slots from its root on, so the next update of it
//! reads consecutive slots and swaps nothing. A swap moves only the node being visited and the
//! one displaced from the cursor's slot, which is not yet visited (it goes to the visited
//! node's old slot, and its stack entry, if any, follows it), so visited worlds and the root
//! never move; another subtree may be pulled apart and is repacked by its own next update.
//! When the subtree does not fit after its root (the root near the end of the array), the
//! rest is walked in place.
//!
//! Costs: the same products as the other immediate designs (O(subtree) per `set_local`, O(L²)
//! per frame on a moving chain of L, capped as they are), plus at most one swap per visited
//! node (each O(children of the two moved nodes), plus a search of the stack for the displaced
//! node). Chains built root first are already in walk order, so there it differs from
//! `immediate_iterative` by one compare per node; it pays off where nodes were created or
//! reparented out of order.

use super::TransformDesignInfo;
use super::hierarchy::{Hierarchy, NIL};
use super::immediate_recursive::{Immediate, SubtreeWalk, immediate_info};

/// Immediate update that repacks each updated subtree in walk order from its root on.
pub type ImmediateLocal = Immediate<Repacking>;

/// The depth-first walk of [`immediate_iterative`](super::immediate_iterative) with a placement
/// cursor that swaps each visited node into the next slot (see the module docs).
#[derive(Debug, Clone, Copy, Default)]
pub struct Repacking;

impl SubtreeWalk for Repacking {
    const INFO: TransformDesignInfo = immediate_info(
        "immediate_local",
        "immediate_iterative whose walk swaps each updated subtree into consecutive slots from its root on (the article's F10: parents and children kept close)",
    );

    /// Recomputes the subtree of slot `root` depth first, parents before children, moving each
    /// visited node into the slot after the previously placed one while that slot exists (see the
    /// module docs). `stack` holds the slots of nodes still to visit; empty between calls.
    fn update_subtree(h: &mut Hierarchy<u32>, stack: &mut Vec<u32>, root: u32) {
        // The next slot to fill. Invariant: while placing, the visited nodes are exactly the slots
        // `root..place`, so a swap only moves the node being visited and one not yet visited.
        let mut place = root;
        stack.push(root);
        while let Some(mut x) = stack.pop() {
            if place < h.size {
                if x != place {
                    h.swap(x, place);
                    // The node displaced from `place` now sits in `x`'s old slot; if it is still
                    // to be visited, its stack entry follows it.
                    if let Some(entry) = stack.iter_mut().find(|e| **e == place) {
                        *entry = x;
                    }
                    x = place;
                }
                place += 1;
            }
            h.recompute(x);
            let mut c = h.first_child[x as usize];
            while c != NIL {
                stack.push(c);
                c = h.next_sibling[c as usize];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transforms::{Affine, TransformStore};

    /// A tree built out of order (children before unrelated roots, interleaved) ends up in
    /// the walk's order (depth first, children last to first) right after its root once the
    /// root moves, and the next update swaps nothing.
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
            stack.extend(kids);
        }
        let want: Vec<u32> = (r..r + nodes.len() as u32).collect();
        assert_eq!(pre_order, want);
        let before = h.updates;
        d.set_local(root, pose(98)).unwrap();
        assert_eq!(d.h.updates - before, nodes.len() as u64 - 1);
        assert_eq!(d.h.slot(root).unwrap(), r);
    }
}
