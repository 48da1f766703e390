//! Article design F4 (+ F11, F14): immediate update, recursive.
//!
//! Layout: the SoA [`Hierarchy`] (local, world, parent / first child / next sibling / previous
//! sibling slot links), ids through an id → slot map. `set_local` stores the local and at once
//! recomputes the node's world and, recursively over `first_child` / `next_sibling`, its whole
//! subtree, exactly the article's `TransformComponent::transform`: worlds are always current,
//! `end_frame` does nothing. Cost: O(subtree) per `set_local`, so a frame that moves every node
//! of a chain of L costs O(L²) products. `set_local_batch` (the API the article proposes to
//! regain O(n)) stores every local, then updates each subtree whose root has no ancestor in
//! the batch, once. Destroy is a swap-erase (the last slot moves into the hole; slot order
//! means nothing to an immediate design). Recursion depth is the hierarchy's depth: capped by
//! `product_cap` in the benchmarks, and a test runs chains of 1024.
//!
//! The immediate store is written once here, [`Immediate`], for the three immediate designs;
//! what each does differently is its [`SubtreeWalk`]: this file's recursion ([`Recursive`]),
//! [`immediate_iterative`](super::immediate_iterative)'s explicit stack and
//! [`immediate_local`](super::immediate_local)'s repacking walk.

use std::marker::PhantomData;

use super::hierarchy::{Hierarchy, NIL, hierarchy_reads};
use super::{
    Affine, IMMEDIATE_PRODUCT_CAP, TransformDesignInfo, TransformDesignKind, TransformStore,
    UpdateStrategy, XfError,
};
use crate::DesignMeta;

/// The record of an immediate design (an article design, like all three): worlds current
/// after every call, stale IDs not detected, products capped at [`IMMEDIATE_PRODUCT_CAP`]
/// (the O(L²) chain).
pub const fn immediate_info(name: &'static str, description: &'static str) -> TransformDesignInfo {
    TransformDesignInfo {
        meta: DesignMeta {
            name,
            description,
            kind: TransformDesignKind::Article,
        },
        strategy: UpdateStrategy::Immediate,
        detects_stale: false,
        product_cap: Some(IMMEDIATE_PRODUCT_CAP),
    }
}

/// How an [`Immediate`] store recomputes the subtree of one slot after a change: the one
/// thing the immediate designs do differently.
pub trait SubtreeWalk: Clone + Default + std::fmt::Debug {
    /// The registry entry of the design this walk makes.
    const INFO: TransformDesignInfo;

    /// Recomputes the world of every node of the subtree of slot `root`, parents before
    /// children. `stack` (the store's scratch stack, for a walk that keeps one) is empty on
    /// entry and must be empty on return.
    fn update_subtree(h: &mut Hierarchy<u32>, stack: &mut Vec<u32>, root: u32);
}

/// An immediate store over the SoA links of [`Hierarchy`] whose updates walk each changed
/// subtree in the order `W` gives (see the module docs).
#[derive(Debug, Clone, Default)]
pub struct Immediate<W> {
    /// Per-slot extra: the batch stamp ([`immediate_batch`]).
    pub(super) h: Hierarchy<u32>,
    /// The current batch's stamp pair (`2k` member, `2k + 1` member already updated).
    batch_epoch: u32,
    /// Slots still to update, for a walk with an explicit stack; empty between calls.
    stack: Vec<u32>,
    walk: PhantomData<W>,
}

/// Immediate, recursive update over the SoA links.
pub type ImmediateRecursive = Immediate<Recursive>;

/// The article's recursion over `first_child` / `next_sibling` (no stack kept).
#[derive(Debug, Clone, Copy, Default)]
pub struct Recursive;

impl SubtreeWalk for Recursive {
    const INFO: TransformDesignInfo = immediate_info(
        "immediate_recursive",
        "SoA links, every set_local recomputes its subtree recursively (the article's choice: always current, O(L²) on a moving chain)",
    );

    #[inline]
    fn update_subtree(h: &mut Hierarchy<u32>, _: &mut Vec<u32>, root: u32) {
        update_subtree(h, root);
    }
}

fn update_subtree(h: &mut Hierarchy<u32>, s: u32) {
    h.recompute(s);
    let mut c = h.first_child[s as usize];
    while c != NIL {
        update_subtree(h, c);
        c = h.next_sibling[c as usize];
    }
}

/// The immediate designs' batch (F14): store every local, then update the subtree of every
/// batch node with no batch ancestor, once. Walking up from a node stops at the first batch
/// member, so a batch of a whole chain costs O(L), not O(L²). `stamp` is the per-slot extra,
/// `epoch` the design's counter.
///
/// # Errors
/// [`XfError::NoSuchNode`] before anything changes.
pub(crate) fn immediate_batch(
    h: &mut Hierarchy<u32>,
    epoch: &mut u32,
    batch: &[(u32, Affine)],
    mut update: impl FnMut(&mut Hierarchy<u32>, u32),
) -> Result<(), XfError> {
    for &(id, _) in batch {
        h.slot(id)?;
    }
    if *epoch >= u32::MAX - 2 {
        h.extra.iter_mut().for_each(|e| *e = 0);
        *epoch = 0;
    }
    *epoch += 2;
    let (member, done) = (*epoch, *epoch + 1);
    for &(id, local) in batch {
        let s = h.slot_of[id as usize] as usize;
        h.local[s] = local;
        h.extra[s] = member;
    }
    for &(id, _) in batch {
        let s = h.slot_of[id as usize];
        if h.extra[s as usize] == done {
            continue;
        }
        let mut a = h.parent[s as usize];
        while a != NIL && h.extra[a as usize] != member && h.extra[a as usize] != done {
            a = h.parent[a as usize];
        }
        h.extra[s as usize] = done;
        if a == NIL {
            update(h, s);
        }
    }
    Ok(())
}

/// The immediate designs' `create`, `destroy` and `set_parent`: each recomputes the affected
/// subtrees at once with `update`.
pub(crate) mod immediate_ops {
    use super::*;

    pub(crate) fn create(
        h: &mut Hierarchy<u32>,
        parent: Option<u32>,
        local: Affine,
    ) -> Result<u32, XfError> {
        let p = h.parent_slot(parent)?;
        Ok(h.push(p, local, 0)?.0)
    }

    /// `update` may move slots (`immediate_local` repacks the subtree it walks), so the
    /// destroyed node's slot is looked up again by id after each child's update.
    pub(crate) fn destroy(
        h: &mut Hierarchy<u32>,
        id: u32,
        mut update: impl FnMut(&mut Hierarchy<u32>, u32),
    ) -> Result<(), XfError> {
        let mut s = h.slot(id)?;
        loop {
            let c = h.first_child[s as usize];
            if c == NIL {
                break;
            }
            h.unlink(c);
            update(h, c);
            s = h.slot_of[id as usize];
        }
        h.unlink(s);
        h.remove(s);
        Ok(())
    }

    pub(crate) fn set_parent(
        h: &mut Hierarchy<u32>,
        id: u32,
        parent: Option<u32>,
        mut update: impl FnMut(&mut Hierarchy<u32>, u32),
    ) -> Result<(), XfError> {
        let s = h.slot(id)?;
        let p = h.parent_slot(parent)?;
        h.reparent(s, p)?;
        update(h, s);
        Ok(())
    }
}

impl<W: SubtreeWalk> TransformStore for Immediate<W> {
    type Id = u32;

    const INFO: TransformDesignInfo = W::INFO;

    fn new() -> Self {
        Self::default()
    }

    fn create(&mut self, parent: Option<u32>, local: Affine) -> Result<u32, XfError> {
        immediate_ops::create(&mut self.h, parent, local)
    }

    fn destroy(&mut self, node: u32) -> Result<(), XfError> {
        let stack = &mut self.stack;
        immediate_ops::destroy(&mut self.h, node, |h, s| W::update_subtree(h, stack, s))
    }

    fn set_parent(&mut self, node: u32, parent: Option<u32>) -> Result<(), XfError> {
        let stack = &mut self.stack;
        immediate_ops::set_parent(&mut self.h, node, parent, |h, s| {
            W::update_subtree(h, stack, s);
        })
    }

    fn set_local(&mut self, node: u32, local: Affine) -> Result<(), XfError> {
        let s = self.h.slot(node)?;
        self.h.local[s as usize] = local;
        W::update_subtree(&mut self.h, &mut self.stack, s);
        Ok(())
    }

    fn set_local_batch(&mut self, batch: &[(u32, Affine)]) -> Result<(), XfError> {
        let stack = &mut self.stack;
        immediate_batch(&mut self.h, &mut self.batch_epoch, batch, |h, s| {
            W::update_subtree(h, stack, s);
        })
    }

    fn end_frame(&mut self) {}

    hierarchy_reads!();

    fn memory_bytes(&self) -> usize {
        self.h.memory_bytes() + self.stack.capacity() * 4
    }

    fn check_invariants(&self) -> Result<(), String> {
        if !self.stack.is_empty() {
            return Err("the update stack is not empty between calls".into());
        }
        self.h.check(true)
    }
}
