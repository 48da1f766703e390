//! Article design F13: the immediate update of [`immediate_recursive`](super::immediate_recursive)
//! rewritten as an iterative walk with an explicit stack, as the article suggests "for better
//! performance".
//!
//! Same layout, same costs in products (O(subtree) per `set_local`, O(L²) per frame on a moving
//! chain of L); the difference measured is call overhead against stack pushes. The stack is a
//! `Vec` kept between calls (no allocation per update once grown), and it has no depth limit.

use crate::DesignMeta;
use std::marker::PhantomData;

use super::hierarchy::{Hierarchy, NIL};
use super::immediate_recursive::{immediate_batch, immediate_ops};
use super::{
    Affine, IMMEDIATE_PRODUCT_CAP, TransformDesignInfo, TransformDesignKind, TransformStore,
    UpdateStrategy, XfError,
};

/// How a stack-walked immediate store recomputes the subtree of one slot after a change: the
/// one thing this design and [`immediate_local`](super::immediate_local) do differently.
pub trait SubtreeWalk: Clone + Default + std::fmt::Debug {
    /// The registry entry of the design this walk makes.
    const INFO: TransformDesignInfo;

    /// Recomputes the world of every node of the subtree of slot `root`, parents before
    /// children. `stack` is empty on entry and must be empty on return.
    fn update_subtree(h: &mut Hierarchy<u32>, stack: &mut Vec<u32>, root: u32);
}

/// An immediate store over the SoA links of [`Hierarchy`] whose updates walk an explicit stack
/// (no recursion, no depth limit) in the order `W` gives.
#[derive(Debug, Clone, Default)]
pub struct StackWalked<W> {
    /// Per-slot extra: the batch stamp.
    pub(super) h: Hierarchy<u32>,
    batch_epoch: u32,
    /// Slots still to update; empty between calls.
    stack: Vec<u32>,
    walk: PhantomData<W>,
}

/// Immediate, iterative (explicit stack) update over the SoA links.
pub type ImmediateIterative = StackWalked<PreOrder>;

/// The plain depth-first walk: pop a slot, recompute it, push its children.
#[derive(Debug, Clone, Copy, Default)]
pub struct PreOrder;

impl SubtreeWalk for PreOrder {
    const INFO: TransformDesignInfo = TransformDesignInfo {
        meta: DesignMeta {
            name: "immediate_iterative",
            description: "immediate_recursive with an explicit stack instead of recursion (the article's suggested rewrite)",
            kind: TransformDesignKind::Article,
        },
        strategy: UpdateStrategy::Immediate,
        detects_stale: false,
        product_cap: Some(IMMEDIATE_PRODUCT_CAP),
    };

    fn update_subtree(h: &mut Hierarchy<u32>, stack: &mut Vec<u32>, s: u32) {
        stack.push(s);
        while let Some(x) = stack.pop() {
            h.recompute(x);
            let mut c = h.first_child[x as usize];
            while c != NIL {
                stack.push(c);
                c = h.next_sibling[c as usize];
            }
        }
    }
}

impl<W: SubtreeWalk> TransformStore for StackWalked<W> {
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
        self.h.memory_bytes() + self.stack.capacity() * 4
    }

    fn world_updates(&self) -> u64 {
        self.h.updates
    }

    fn check_invariants(&self) -> Result<(), String> {
        if !self.stack.is_empty() {
            return Err("the update stack is not empty between calls".into());
        }
        self.h.check(true)
    }
}
