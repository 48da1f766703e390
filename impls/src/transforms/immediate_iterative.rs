//! Article design F13: the immediate update of [`immediate_recursive`](super::immediate_recursive)
//! rewritten as an iterative walk with an explicit stack, as the article suggests "for better
//! performance".
//!
//! Same layout, same costs in products (O(subtree) per `set_local`, O(L²) per frame on a moving
//! chain of L); the difference measured is call overhead against stack pushes. The stack is a
//! `Vec` kept between calls (no allocation per update once grown), and it has no depth limit.
//! The store is [`Immediate`]; this file is its walk.

use super::TransformDesignInfo;
use super::hierarchy::{Hierarchy, NIL};
use super::immediate_recursive::{Immediate, SubtreeWalk, immediate_info};

/// Immediate, iterative (explicit stack) update over the SoA links.
pub type ImmediateIterative = Immediate<PreOrder>;

/// The plain depth-first walk: pop a slot, recompute it, push its children.
#[derive(Debug, Clone, Copy, Default)]
pub struct PreOrder;

impl SubtreeWalk for PreOrder {
    const INFO: TransformDesignInfo = immediate_info(
        "immediate_iterative",
        "immediate_recursive with an explicit stack instead of recursion (the article's suggested rewrite)",
    );

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
