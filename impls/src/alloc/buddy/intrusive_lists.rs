//! The article's free lists for [`Buddy`](super::Buddy): one doubly linked list per
//! level, intrusive (the links are the first 8 bytes of the free blocks themselves) with the
//! heads in the arena's metadata. `buddy_vec_lists` is the ablation that keeps them in `Vec`s.

use super::{FreeLists, NIL};
use crate::alloc::AllocError;
use crate::alloc::arena::Arena;

/// Intrusive doubly linked lists: heads in the arena metadata, links in the free blocks.
#[derive(Debug, Clone)]
pub struct IntrusiveLists {
    /// Arena offset of the heads: level `n`'s head is the `u32` at `heads + 4n`.
    heads: usize,
    /// A block of leaf number `b` starts at `b << leaf_shift`; its `prev` is the `u32` there and
    /// its `next` the `u32` 4 bytes later. Invariant: `prev(next(b)) == b` along every list, and
    /// a head's `prev` is nil.
    leaf_shift: u32,
}

impl IntrusiveLists {
    fn head(&self, mem: &Arena, level: usize) -> u32 {
        mem.read_u32(self.heads + 4 * level)
    }
    fn set_head(&self, mem: &mut Arena, level: usize, leaf: u32) {
        mem.write_u32(self.heads + 4 * level, leaf);
    }
    fn prev(&self, mem: &Arena, leaf: u32) -> u32 {
        mem.read_u32((leaf as usize) << self.leaf_shift)
    }
    fn next(&self, mem: &Arena, leaf: u32) -> u32 {
        mem.read_u32(((leaf as usize) << self.leaf_shift) + 4)
    }
    fn set_prev(&self, mem: &mut Arena, leaf: u32, to: u32) {
        mem.write_u32((leaf as usize) << self.leaf_shift, to);
    }
    fn set_next(&self, mem: &mut Arena, leaf: u32, to: u32) {
        mem.write_u32(((leaf as usize) << self.leaf_shift) + 4, to);
    }
}

impl FreeLists for IntrusiveLists {
    const ARENA_BYTES_PER_LEVEL: usize = 4;

    fn new(
        mem: &mut Arena,
        levels: usize,
        _leaves: usize,
        heads: usize,
        leaf_shift: u32,
    ) -> Result<Self, AllocError> {
        let lists = Self { heads, leaf_shift };
        for level in 0..levels {
            lists.set_head(mem, level, NIL);
        }
        Ok(lists)
    }

    #[inline]
    fn push(&mut self, mem: &mut Arena, level: usize, leaf: u32) {
        let old = self.head(mem, level);
        self.set_prev(mem, leaf, NIL);
        self.set_next(mem, leaf, old);
        if old != NIL {
            self.set_prev(mem, old, leaf);
        }
        self.set_head(mem, level, leaf);
    }

    #[inline]
    fn pop(&mut self, mem: &mut Arena, level: usize) -> Option<u32> {
        let head = self.head(mem, level);
        if head == NIL {
            return None;
        }
        let next = self.next(mem, head);
        self.set_head(mem, level, next);
        if next != NIL {
            self.set_prev(mem, next, NIL);
        }
        Some(head)
    }

    #[inline]
    fn remove(&mut self, mem: &mut Arena, level: usize, leaf: u32) {
        let (prev, next) = (self.prev(mem, leaf), self.next(mem, leaf));
        if prev == NIL {
            self.set_head(mem, level, next);
        } else {
            self.set_next(mem, prev, next);
        }
        if next != NIL {
            self.set_prev(mem, next, prev);
        }
    }

    #[inline]
    fn is_empty(&self, mem: &Arena, level: usize) -> bool {
        self.head(mem, level) == NIL
    }

    fn contains(&self, mem: &Arena, level: usize, leaf: u32) -> bool {
        let mut at = self.head(mem, level);
        while at != NIL {
            if at == leaf {
                return true;
            }
            at = self.next(mem, at);
        }
        false
    }

    fn collect(&self, mem: &Arena, level: usize) -> Result<Vec<u32>, String> {
        let mut out = Vec::new();
        let mut prev = NIL;
        let mut at = self.head(mem, level);
        while at != NIL {
            if self.prev(mem, at) != prev {
                return Err(format!(
                    "level {level}: block {at} has prev {}, expected {prev}",
                    self.prev(mem, at)
                ));
            }
            out.push(at);
            if out.len() > mem.len() {
                return Err(format!("level {level}: free list has a cycle"));
            }
            prev = at;
            at = self.next(mem, at);
        }
        Ok(out)
    }

    fn heap_bytes(&self) -> usize {
        0
    }
}
