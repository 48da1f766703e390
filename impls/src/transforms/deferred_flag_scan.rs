//! Article design F5 + F7: deferred update with a dirty flag and a full scan of an array kept
//! parent-before-child.
//!
//! Layout: the SoA [`Hierarchy`] plus, per slot, the frame in which the node last changed
//! (`set_local`, `set_parent`, creation, or its parent destroyed): a node is dirty in frame `f`
//! when its stamp is `f`, so starting a frame clears every flag at once. `end_frame` walks all
//! slots in order; a node is recomputed when its stamp is the frame's or its parent's is (the
//! parent was recomputed earlier in the same walk), and then takes the frame's stamp so its
//! children follow. Cost: O(1) per change, O(n) per frame whatever moved: the flag check the
//! article says "can waste a lot of time" when 1 % of the nodes move.
//!
//! Parent-before-child order: creation appends (the parent is older, so earlier), but
//! `set_parent` and the swap-erase of `destroy` can put a child before its parent. The walk
//! repairs that where it finds it, as the article's dirty list does: at slot `i`, while the
//! parent is at a later slot, the two are swapped (F12's three-step swap). Slots before `i`
//! never move again, so after `end_frame` every parent is before its children.

use super::hierarchy::{Hierarchy, NIL, hierarchy_reads};
use super::{
    Affine, TransformDesignInfo, TransformDesignKind, TransformStore, UpdateStrategy, XfError,
};
use crate::DesignMeta;

/// Deferred: dirty stamp per slot, full ordered scan per frame.
#[derive(Debug, Clone)]
pub struct DeferredFlagScan {
    /// Per-slot extra: the frame of the node's last change (dirty iff `== frame`).
    h: Hierarchy<u32>,
    /// The current frame number, starting at 1 (stamp 0 is "never changed").
    frame: u32,
    /// Whether nothing changed since the last `end_frame` (worlds current, order restored).
    flushed: bool,
}

impl Default for DeferredFlagScan {
    fn default() -> Self {
        Self {
            h: Hierarchy::default(),
            frame: 1,
            flushed: true,
        }
    }
}

impl TransformStore for DeferredFlagScan {
    type Id = u32;

    const INFO: TransformDesignInfo = TransformDesignInfo {
        meta: DesignMeta {
            name: "deferred_flag_scan",
            description: "deferred: dirty flag per node, end_frame scans every node of a parent-before-child array (O(n) per frame whatever moved)",
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
        let (id, _) = self.h.push(p, local, self.frame)?;
        self.flushed = false;
        Ok(id)
    }

    fn destroy(&mut self, node: u32) -> Result<(), XfError> {
        let s = self.h.slot(node)?;
        let frame = self.frame;
        self.h
            .orphan_children(s, |h, c| h.extra[c as usize] = frame);
        self.h.unlink(s);
        self.h.remove(s);
        self.flushed = false;
        Ok(())
    }

    fn set_parent(&mut self, node: u32, parent: Option<u32>) -> Result<(), XfError> {
        let s = self.h.slot(node)?;
        let p = self.h.parent_slot(parent)?;
        self.h.reparent(s, p)?;
        self.h.extra[s as usize] = self.frame;
        self.flushed = false;
        Ok(())
    }

    fn set_local(&mut self, node: u32, local: Affine) -> Result<(), XfError> {
        let s = self.h.slot(node)? as usize;
        self.h.local[s] = local;
        self.h.extra[s] = self.frame;
        self.flushed = false;
        Ok(())
    }

    fn end_frame(&mut self) {
        let frame = self.frame;
        let h = &mut self.h;
        for i in 0..h.size {
            let p = h.pull_parent_before(i);
            if h.extra[i as usize] == frame || (p != NIL && h.extra[p as usize] == frame) {
                h.recompute(i);
                h.extra[i as usize] = frame;
            }
        }
        self.frame = if frame == u32::MAX {
            h.extra.iter_mut().for_each(|e| *e = 0);
            1
        } else {
            frame + 1
        };
        self.flushed = true;
    }

    hierarchy_reads!();

    fn memory_bytes(&self) -> usize {
        self.h.memory_bytes()
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.h.check(self.flushed)?;
        if self.flushed {
            for s in 0..self.h.size {
                let p = self.h.parent[s as usize];
                if p != NIL && p > s {
                    return Err(format!(
                        "after end_frame, slot {s} is before its parent {p}"
                    ));
                }
            }
        }
        Ok(())
    }
}
